//! The gateway comparison (issue 46): what a server holding many streams
//! pays per SSE event. One 64 KiB write-file call in 16-byte deltas, as
//! Anthropic, OpenAI Chat and OpenAI Responses bodies, read in 1400-byte
//! network reads by
//!
//! - `tooljson`: the full path, `ToolCallStream` (SSE decoding, each
//!   event's envelope, the call's parser, the partial tree kept current
//!   after every delta, every event drained);
//! - `serde_client`: the bare client it is held against (benches/common/
//!   gateway.rs): events split at blank lines, each `data:` line
//!   deserialized into typed structs borrowed where serde allows, argument
//!   strings appended and parsed once at the end; no preview, no partial
//!   values, no schema.
//!
//! Both check their answer (the call's arguments equal serde_json's parse of
//! the argument text) before they are timed. The run ends with the
//! interleaved ratios (best of 30 rounds each), the figures to trust on a
//! shared machine; `-- zzz_nothing` prints them alone.
//!
//! `cargo bench -p tooljson-benches --bench gateway`

mod common;

use std::hint::black_box;
use std::time::Duration;

use common::gateway::{WIRES, body, serde_client, tooljson_full};
use criterion::{BenchmarkId, Criterion, Throughput};

const READ: usize = 1400;

fn check(body: &[u8], wire: common::gateway::Wire, args: &str) {
    let want: serde_json::Value = serde_json::from_str(args).unwrap();
    assert_eq!(serde_client(wire, body, READ), vec![want.clone()]);
    assert_eq!(tooljson_full(body, READ), 1);
    let mut s = tooljson::providers::ToolCallStream::new();
    s.feed(body).unwrap();
    s.finish().unwrap();
    let v = s.calls()[0].value().unwrap().to_serde_json().unwrap();
    assert_eq!(v, want);
}

fn bench(c: &mut Criterion) {
    let args = common::write_file_args(64 * 1024);
    let mut group = c.benchmark_group("gateway");
    group.sample_size(20);
    for wire in WIRES {
        let b = body(wire, &args, 16);
        check(&b, wire, &args);
        group.throughput(Throughput::Bytes(b.len() as u64));
        let size = format!("{}KiB", b.len() / 1024);
        group.bench_with_input(
            BenchmarkId::new(format!("{}/tooljson", wire.name()), &size),
            &b,
            |bench, b| bench.iter(|| tooljson_full(black_box(b), READ)),
        );
        group.bench_with_input(
            BenchmarkId::new(format!("{}/serde_client", wire.name()), &size),
            &b,
            |bench, b| bench.iter(|| serde_client(wire, black_box(b), READ)),
        );
    }
    group.finish();
}

/// tooljson's time over the bare client's, each pair timed in turn.
fn interleaved_summary() {
    let args = common::write_file_args(64 * 1024);
    println!("\n## tooljson vs the bare serde client, interleaved (best of 30 rounds each)\n");
    println!("| body | events | bare serde client | tooljson | tooljson / serde (target <= 0.5) |");
    println!("|---|---:|---:|---:|---:|");
    for wire in WIRES {
        let b = body(wire, &args, 16);
        let events = b.windows(2).filter(|w| w == b"\n\n").count();
        let (ours, theirs) = common::interleaved_best(
            30,
            1,
            || {
                black_box(tooljson_full(black_box(&b), READ));
            },
            || {
                black_box(serde_client(wire, black_box(&b), READ));
            },
        );
        let mbs = |t: f64| b.len() as f64 / t / 1e6;
        println!(
            "| {} ({} KB) | {events} | {:.2} ms, {:.0} MB/s | {:.2} ms, {:.0} MB/s | {:.2}x |",
            wire.name(),
            b.len() / 1000,
            theirs * 1e3,
            mbs(theirs),
            ours * 1e3,
            mbs(ours),
            ours / theirs
        );
    }
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    bench(&mut c);
    c.final_summary();
    interleaved_summary();
}
