//! The partial tree while arguments stream in deltas, against the ways
//! clients do it today: jiter's partial mode re-parsing the accumulated
//! buffer after every delta (as the Python SDKs do), actson's push parser
//! (events only), and one serde_json parse of the whole text.
//!
//! `cargo bench -p tooljson-benches --bench partial`; every bench checks its answer first.

mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use jiter::{JsonValue, PartialMode};
use tooljson::partial::PartialParser;

/// Streams `doc` in `delta`-byte pieces with the snapshot current after each.
fn tooljson_stream(doc: &[u8], delta: usize) -> tooljson::Value {
    let mut p = PartialParser::new();
    let mut visible = 0usize;
    for d in doc.chunks(delta) {
        p.feed(d, &mut ()).unwrap();
        visible += p.snapshot().is_some() as usize;
    }
    p.finish(&mut ()).unwrap();
    black_box(visible);
    p.into_value().unwrap()
}

/// Re-parses the accumulated buffer after every delta with jiter's partial
/// mode; returns how many re-parses succeeded.
fn jiter_reparse(doc: &[u8], delta: usize) -> usize {
    let mut ok = 0;
    let mut end = 0;
    while end < doc.len() {
        end = (end + delta).min(doc.len());
        if let Ok(v) =
            JsonValue::parse_with_config(&doc[..end], false, PartialMode::TrailingStrings)
        {
            black_box(&v);
            ok += 1;
        }
    }
    ok
}

fn bench(c: &mut Criterion) {
    let docs: Vec<(&str, usize, String)> = [4usize, 16, 64]
        .iter()
        .flat_map(|&kib| {
            [
                ("write_file", kib, common::write_file_args(kib * 1024)),
                (
                    "parallel_edits",
                    kib,
                    common::parallel_edits_args(kib * 1024),
                ),
            ]
        })
        .collect();

    for (name, kib, doc) in &docs {
        let bytes = doc.as_bytes();
        let oracle: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        let mut g = c.benchmark_group(format!("partial/{name}/{kib}KiB"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.warm_up_time(Duration::from_millis(500));
        g.measurement_time(Duration::from_secs(2));
        g.sample_size(10);
        for delta in [4usize, 16] {
            assert_eq!(
                tooljson_stream(bytes, delta).to_serde_json().unwrap(),
                oracle
            );
            g.bench_with_input(
                BenchmarkId::new("tooljson_partial", delta),
                &delta,
                |b, &d| b.iter(|| tooljson_stream(black_box(bytes), d)),
            );
            let deltas = bytes.len().div_ceil(delta);
            assert!(
                jiter_reparse(bytes, delta) > deltas / 2,
                "jiter parses most prefixes"
            );
            g.bench_with_input(BenchmarkId::new("jiter_reparse", delta), &delta, |b, &d| {
                b.iter(|| jiter_reparse(black_box(bytes), d))
            });
            assert!(common::actson_chunked(bytes, delta) > 3);
            g.bench_with_input(BenchmarkId::new("actson_events", delta), &delta, |b, &d| {
                b.iter(|| common::actson_chunked(black_box(bytes), d))
            });
        }
        g.bench_function("serde_json_whole", |b| {
            b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(bytes)).unwrap())
        });
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
