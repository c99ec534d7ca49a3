//! A counting global allocator for the tests that hold memory bounds: bytes
//! live and their peak, and the number of allocations, per thread (the
//! harness's other threads, running other tests, are not counted). The test
//! crate installs it once, in `tests/main.rs`.
#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = ALLOCS.try_with(|a| a.set(a.get() + 1));
    let _ = LIVE.try_with(|l| {
        let now = l.get().saturating_add(n);
        l.set(now);
        let _ = PEAK.try_with(|p| p.set(p.get().max(now)));
    });
}

fn shrink(n: usize) {
    let _ = LIVE.try_with(|l| l.set(l.get().saturating_sub(n)));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: forwards the caller's layout to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // Both blocks are live while the bytes move.
        grow(new_size);
        // SAFETY: as for `dealloc`, and `new_size` is the caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        shrink(layout.size());
        p
    }
}

/// Bytes live on this thread now.
pub fn live() -> usize {
    LIVE.with(Cell::get)
}

/// Allocations (and reallocations) made on this thread so far.
pub fn allocations() -> u64 {
    ALLOCS.with(Cell::get)
}

/// Starts a new peak from what is live now.
pub fn reset_peak() {
    PEAK.with(|p| p.set(live()));
}

/// The most bytes live on this thread since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.with(Cell::get)
}

/// The peak of bytes live on this thread while `f` runs, above what was
/// live when it started.
pub fn peak_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let base = live();
    reset_peak();
    let out = f();
    (out, peak().saturating_sub(base))
}
