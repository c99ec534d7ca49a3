//! The streaming parser building its `Value`, fed whole and in chunks,
//! beside serde_json building its `Value` from the whole document and
//! actson's push parser (events only) fed the same chunks, on 64 KiB
//! documents shaped like tool arguments.
//!
//! `cargo bench --bench parser -- --warm-up-time 1 --measurement-time 3`
//!
//! Every bench checks its answer before it is timed: our value equals
//! serde_json's, and actson's event count equals the count the oracle value
//! implies. After criterion's own report the bench prints one table of
//! median time per document and MB/s for every row, and the three target
//! ratios (all computed from the same run):
//! - `whole`: serde_json whole / tooljson whole (target >= 1.0),
//! - `16B`: tooljson whole / tooljson in 16-byte chunks (target >= 0.8),
//! - `4B vs actson`: actson in 4-byte chunks / tooljson in 4-byte chunks
//!   (target >= 1.0).
//!
//! Each ratio is a speed ratio (higher is better for tooljson).

mod common;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Bencher, BenchmarkId, Criterion, Throughput};

const CHUNKS: [usize; 5] = [1, 4, 16, 64, 4096];
const DOC_BYTES: usize = 64 * 1024;

/// Seconds per document of every timed sample, by `doc/row`.
static SAMPLES: Mutex<BTreeMap<String, Vec<f64>>> = Mutex::new(BTreeMap::new());

/// Times `f` for criterion and keeps each sample's time per iteration for
/// the summary.
fn timed<R>(b: &mut Bencher<'_>, key: &str, mut f: impl FnMut() -> R) {
    b.iter_custom(|iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(f());
        }
        let elapsed = start.elapsed();
        if let Ok(mut s) = SAMPLES.lock() {
            s.entry(key.to_owned())
                .or_default()
                .push(elapsed.as_secs_f64() / iters as f64);
        }
        elapsed
    });
}

/// The number of events a push parser reports for `v`: one per scalar and
/// key, two per container.
fn event_count(v: &serde_json::Value) -> usize {
    match v {
        serde_json::Value::Array(a) => 2 + a.iter().map(event_count).sum::<usize>(),
        serde_json::Value::Object(m) => 2 + m.values().map(|v| 1 + event_count(v)).sum::<usize>(),
        _ => 1,
    }
}

fn docs() -> Vec<(&'static str, String)> {
    vec![
        ("write_file", common::write_file_args(DOC_BYTES)),
        ("parallel_edits", common::parallel_edits_args(DOC_BYTES)),
        ("numbers", common::numeric_array_args(DOC_BYTES)),
        ("nested_config", common::nested_config_args(DOC_BYTES)),
    ]
}

fn bench(c: &mut Criterion) {
    for (name, doc) in docs() {
        let bytes = doc.as_bytes();
        let oracle: serde_json::Value = serde_json::from_slice(bytes).unwrap();
        let events = event_count(&oracle);
        let mut g = c.benchmark_group(format!("parser/{name}"));
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.sample_size(20);

        assert_eq!(
            tooljson::from_slice(bytes)
                .unwrap()
                .to_serde_json()
                .unwrap(),
            oracle
        );
        let key = format!("{name}/tooljson/whole");
        g.bench_function("tooljson/whole", |b| {
            timed(b, &key, || tooljson::from_slice(black_box(bytes)).unwrap())
        });
        for chunk in CHUNKS {
            assert_eq!(
                common::tooljson_chunked(bytes, chunk)
                    .to_serde_json()
                    .unwrap(),
                oracle,
                "{name} in {chunk}-byte chunks"
            );
            let key = format!("{name}/tooljson/{chunk}");
            g.bench_with_input(BenchmarkId::new("tooljson", chunk), &chunk, |b, &n| {
                timed(b, &key, || common::tooljson_chunked(black_box(bytes), n))
            });
        }

        let key = format!("{name}/serde_json/whole");
        g.bench_function("serde_json/whole", |b| {
            timed(b, &key, || {
                serde_json::from_slice::<serde_json::Value>(black_box(bytes)).unwrap()
            })
        });

        for chunk in std::iter::once(bytes.len()).chain(CHUNKS) {
            assert_eq!(
                common::actson_chunked(bytes, chunk),
                events,
                "actson events of {name} in {chunk}-byte chunks"
            );
            let (id, key) = if chunk == bytes.len() {
                ("actson/whole".to_owned(), format!("{name}/actson/whole"))
            } else {
                (format!("actson/{chunk}"), format!("{name}/actson/{chunk}"))
            };
            g.bench_function(id, |b| {
                timed(b, &key, || common::actson_chunked(black_box(bytes), chunk))
            });
        }
        g.finish();
    }
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn summary() {
    let Ok(samples) = SAMPLES.lock() else { return };
    let time = |doc: &str, row: &str| samples.get(&format!("{doc}/{row}")).map(|s| median(s));
    println!("\n## parser summary (median of criterion's samples)\n");
    println!("| document | row | time per doc | MB/s |");
    println!("|---|---|---:|---:|");
    let mut rows = vec!["tooljson/whole".to_owned()];
    rows.extend(CHUNKS.iter().map(|c| format!("tooljson/{c}")));
    rows.push("serde_json/whole".to_owned());
    rows.push("actson/whole".to_owned());
    rows.extend(CHUNKS.iter().map(|c| format!("actson/{c}")));
    for (name, doc) in docs() {
        for row in &rows {
            if let Some(t) = time(name, row) {
                println!(
                    "| {name} ({} B) | {row} | {:.1} µs | {:.0} |",
                    doc.len(),
                    t * 1e6,
                    doc.len() as f64 / t / 1e6
                );
            }
        }
    }
    println!(
        "\n| document | whole vs serde_json (>= 1.0) | 16 B vs own whole (>= 0.8) | 4 B vs actson 4 B (>= 1.0) |"
    );
    println!("|---|---:|---:|---:|");
    for (name, _) in docs() {
        let ratio = |num: &str, den: &str| match (time(name, num), time(name, den)) {
            (Some(n), Some(d)) => format!("{:.2}", n / d),
            _ => "-".to_owned(),
        };
        println!(
            "| {name} | {} | {} | {} |",
            ratio("serde_json/whole", "tooljson/whole"),
            ratio("tooljson/whole", "tooljson/16"),
            ratio("actson/4", "tooljson/4"),
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
    summary();
}
