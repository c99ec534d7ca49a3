//! Issue 32, item 7: the memory a partial tree holds per byte of argument
//! text, and the budgets that bound it. Measured by a counting allocator
//! (live bytes on the test's thread), not by time.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use tooljson::partial::PartialParser;

#[allow(dead_code)]
#[path = "../benches/common/mod.rs"]
mod generators;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Only the test's own thread is counted.
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn counted() -> bool {
    COUNTED.try_with(Cell::get).unwrap_or(false)
}

fn grow(n: usize) {
    let live = LIVE.fetch_add(n, Ordering::Relaxed) + n;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn shrink(n: usize) {
    LIVE.fetch_sub(n.min(LIVE.load(Ordering::Relaxed)), Ordering::Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if counted() {
            grow(layout.size());
        }
        // SAFETY: forwards the caller's layout to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if counted() {
            shrink(layout.size());
        }
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if counted() {
            grow(new_size);
        }
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if counted() {
            shrink(layout.size());
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Live bytes held by a parser fed `doc` in `chunk`-byte pieces: while the
/// root is still open (all but the last byte) and once finished, with the
/// peak over the whole feed.
struct Held {
    /// The parser's own estimate ([`PartialParser::held_bytes`]), open.
    estimate_open: u64,
    /// The same once finished.
    estimate_finished: u64,
    open: usize,
    finished: usize,
    peak: usize,
}

fn held_by_tree(doc: &[u8], chunk: usize) -> Held {
    COUNTED.with(|c| c.set(true));
    LIVE.store(0, Ordering::Relaxed);
    PEAK.store(0, Ordering::Relaxed);
    let mut p = PartialParser::new();
    let (head, tail) = doc.split_at(doc.len() - 1);
    for piece in head.chunks(chunk) {
        p.feed(piece, &mut ()).unwrap();
    }
    let open = LIVE.load(Ordering::Relaxed);
    let estimate_open = p.held_bytes();
    p.feed(tail, &mut ()).unwrap();
    p.finish(&mut ()).unwrap();
    let finished = LIVE.load(Ordering::Relaxed);
    let estimate_finished = p.held_bytes();
    let peak = PEAK.load(Ordering::Relaxed);
    assert!(p.value().is_some());
    drop(p);
    COUNTED.with(|c| c.set(false));
    Held {
        estimate_open,
        estimate_finished,
        open,
        finished,
        peak,
    }
}

const SIZE: usize = 1 << 20;

fn workloads() -> [(&'static str, String); 5] {
    let zeros = format!("[{}0]", "0,".repeat(SIZE / 2));
    [
        ("numeric_array", generators::numeric_array_args(SIZE)),
        ("zeros", zeros),
        ("write_file", generators::write_file_args(SIZE)),
        ("parallel_edits", generators::parallel_edits_args(SIZE)),
        ("nested_config", generators::nested_config_args(SIZE)),
    ]
}

/// Prints the bytes held per byte of argument text (run with
/// `--nocapture` to read them) and bounds them.
#[test]
fn a_partial_tree_holds_a_bounded_multiple_of_its_text() {
    for (name, doc) in workloads() {
        let held = held_by_tree(doc.as_bytes(), 16);
        let per = |n: usize| n as f64 / doc.len() as f64;
        println!(
            "{name}: {} bytes; held open {:.2}x, finished {:.2}x, peak {:.2}x; estimated {:.2}x, {:.2}x",
            doc.len(),
            per(held.open),
            per(held.finished),
            per(held.peak),
            per(held.estimate_open as usize),
            per(held.estimate_finished as usize),
        );
        assert!(
            held.finished > 0 && held.open > 0,
            "{name}: nothing counted"
        );
        // The estimate a budget compares against bounds what is held, and
        // not so loosely that a budget would refuse a fraction of it.
        for (estimate, real) in [
            (held.estimate_open, held.open),
            (held.estimate_finished, held.finished),
        ] {
            assert!(
                estimate >= real as u64,
                "{name}: estimate {estimate} < held {real}"
            );
            assert!(
                estimate <= 3 * real as u64,
                "{name}: estimate {estimate} > 3x held {real}"
            );
        }
    }
}
