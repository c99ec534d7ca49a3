//! Constrained decoding, tooljson's `decode` module against llguidance, in
//! one run, on the same schemas, vocabulary, instances and token ids
//! (issue 31), MaskBench-style:
//!
//! - for each jsonschemabench schema, each engine compiles it once (timed:
//!   schema JSON to constraint; the vocabulary is prepared once, outside)
//!   and computes its first mask (time to first mask: compile + first
//!   mask);
//! - each valid instance, written compactly with its keys in the schema's
//!   `properties` order (the output both engines accept), is tokenized (o200k
//!   with tiktoken's encoder, Llama 3.1 with its `tokenizer.json`); at each
//!   position the mask is computed (timed) and checked to allow the
//!   instance's token, which is then committed; at the end the mask must
//!   allow end-of-sequence;
//! - with `TOOLJSON_DECODE_BENCH_COLD=K`, the first pass is the least
//!   time at each position over K passes, each on the schema compiled
//!   afresh (caches cold per instance, the machine's noise taken out);
//! - each instance is run `TOOLJSON_DECODE_BENCH_REPEAT` times (default
//!   3): the first pass is the figure a server sees on a schema's first
//!   use; the best of the passes at each position takes out the
//!   preemptions of a shared machine (and llguidance's lazily built lexer
//!   states, which its clones share);
//! - the tables give mask avg / p50 / p99 / p99.9 / max per engine for the
//!   tool-like schemas and for all, on the instances both accept whole
//!   (the same token sequences) and on each engine's own; compile and
//!   first-mask p50 / p99; coverage; and every refusal.
//!
//! Criterion times the headline steps on a few representative schemas
//! (o200k): compile, one mask at mid-instance (llguidance's cache of the
//! last mask dropped before each), and a whole instance (mask and commit
//! per token). Criterion cannot give a per-mask p99, hence the summary.
//!
//! `cargo bench -p tooljson-benches --features llguidance --bench decode`;
//! `-- zzz_nothing` prints the summary tables alone. Caps:
//! `TOOLJSON_DECODE_BENCH_SCHEMAS` (evenly spaced, default all 206),
//! `TOOLJSON_DECODE_BENCH_INSTANCES` (per schema, default all),
//! `TOOLJSON_DECODE_BENCH_VOCABS` (`o200k,llama3_1`). With
//! `TOOLJSON_DECODE_BENCH_ONLY=tooljson`, tooljson's `first` figures alone
//! (no llguidance, no criterion): a quick check while profiling.

#[path = "decode/data.rs"]
mod data;
#[path = "decode/engines.rs"]
mod engines;
#[path = "decode/report.rs"]
mod report;

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, Throughput};
use tooljson::decode::{Tokenizer, Vocabulary};

use data::Case;
use engines::{Engine, Llguidance, Tooljson};
use report::{EngineRun, SchemaRun, Timing};

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Runs one instance's token ids through a fresh sequence: the time of
/// each mask, or the index of the token refused and why.
fn run_instance<E: Engine>(
    e: &E,
    c: &E::Compiled,
    ids: &[u32],
    eos: u32,
) -> Result<Vec<f64>, (usize, String)> {
    let mut seq = e.start(c);
    let mut mask = e.new_mask();
    let mut times = Vec::with_capacity(ids.len() + 1);
    for (i, &id) in ids.iter().chain(std::iter::once(&eos)).enumerate() {
        let t = Instant::now();
        let r = e.mask(&mut seq, &mut mask);
        times.push(micros(t.elapsed()));
        r.map_err(|m| (i, format!("mask at token {i}: {m}")))?;
        if !e.allows(&mask, id) {
            return Err((
                i,
                if i == ids.len() {
                    "end of sequence refused".to_owned()
                } else {
                    format!("token {i} ({id}) refused")
                },
            ));
        }
        if i < ids.len() {
            e.commit(&mut seq, id)
                .map_err(|m| (i, format!("commit of token {i}: {m}")))?;
        }
    }
    Ok(times)
}

/// The last few characters of the text of `ids`, to show where a refusal
/// came.
fn tail_text(vocab: &Vocabulary, ids: &[u32]) -> String {
    let bytes: Vec<u8> = ids
        .iter()
        .flat_map(|&id| vocab.token_bytes(id).iter().copied())
        .collect();
    let text = String::from_utf8_lossy(&bytes);
    let chars: Vec<char> = text.chars().collect();
    chars[chars.len().saturating_sub(60)..].iter().collect()
}

/// One engine over every case.
fn run_engine<E: Engine>(
    e: &E,
    prepare_ms: f64,
    cases: &[Case],
    ids: &[Vec<Vec<u32>>],
    vocab: &Vocabulary,
    repeat: usize,
    cold: usize,
) -> EngineRun {
    let eos = vocab.eos_ids()[0];
    let schemas = cases
        .iter()
        .zip(ids)
        .map(|(case, ids)| {
            let t = Instant::now();
            let compiled = e.compile(&case.schema);
            let compile_us = micros(t.elapsed());
            match compiled {
                Err(why) => SchemaRun {
                    compile: Err(why),
                    first_mask: None,
                    instances: Vec::new(),
                },
                Ok(c) => {
                    let mut seq = e.start(&c);
                    let mut mask = e.new_mask();
                    // `t` started before the compile.
                    let first = e
                        .mask(&mut seq, &mut mask)
                        .ok()
                        .map(|()| micros(t.elapsed()));
                    let instances = ids
                        .iter()
                        .map(|ids| {
                            let run_cold = |c: &E::Compiled| {
                                run_instance(e, c, ids, eos).map_err(|(at, why)| {
                                    format!("{why} after …{}", tail_text(vocab, &ids[..at]))
                                })
                            };
                            // Cold passes: the schema compiled afresh for
                            // each, the least time at each position kept.
                            let mut first = if cold == 0 {
                                run_cold(&c)?
                            } else {
                                let fresh = e.compile(&case.schema)?;
                                run_cold(&fresh)?
                            };
                            for _ in 1..cold {
                                let fresh = e.compile(&case.schema)?;
                                for (b, t) in first.iter_mut().zip(run_cold(&fresh)?) {
                                    *b = b.min(t);
                                }
                            }
                            let mut best = first.clone();
                            for _ in 1..repeat {
                                let again = run_instance(e, &c, ids, eos)
                                    .map_err(|(_, why)| format!("{why} on a repeat"))?;
                                for (b, t) in best.iter_mut().zip(again) {
                                    *b = b.min(t);
                                }
                            }
                            Ok(Timing { first, best })
                        })
                        .collect();
                    SchemaRun {
                        compile: Ok(compile_us),
                        first_mask: first,
                        instances,
                    }
                }
            }
        })
        .collect();
    EngineRun {
        name: e.name(),
        prepare_ms,
        schemas,
    }
}

/// A vocabulary's tokenizer and both engines over it, with how long each
/// engine took to prepare it.
struct Setup {
    label: &'static str,
    tokenizer: Tokenizer,
    tooljson: Tooljson,
    tooljson_ms: f64,
    llg: Llguidance,
    llg_ms: f64,
}

fn setup(label: &'static str) -> Setup {
    let t = Instant::now();
    let tokenizer = match label {
        "o200k" => Tokenizer::o200k().expect("o200k"),
        "llama3_1" => {
            let path = data::testdata("tokenizers/llama3_1.tokenizer.json");
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            Tokenizer::from_tokenizer_json(&text, &[]).expect("llama3_1 tokenizer")
        }
        other => panic!("unknown vocabulary {other:?} (o200k, llama3_1)"),
    };
    let tooljson_ms = t.elapsed().as_secs_f64() * 1e3;
    let tooljson = Tooljson {
        vocab: tokenizer.vocabulary().clone(),
    };
    let t = Instant::now();
    let llg = Llguidance::new(tokenizer.vocabulary());
    let llg_ms = t.elapsed().as_secs_f64() * 1e3;
    Setup {
        label,
        tokenizer,
        tooljson,
        tooljson_ms,
        llg,
        llg_ms,
    }
}

/// The token ids of every instance.
fn tokenize(s: &Setup, cases: &[Case]) -> Vec<Vec<Vec<u32>>> {
    cases
        .iter()
        .map(|c| {
            c.instances
                .iter()
                .map(|text| {
                    s.tokenizer
                        .encode(text)
                        .unwrap_or_else(|e| panic!("{}: tokenizing an instance: {e}", c.name))
                })
                .collect()
        })
        .collect()
}

/// The summary pass for one vocabulary; prints its tables, returns the
/// runs (tooljson, llguidance).
fn summary(
    s: &Setup,
    cases: &[Case],
    ids: &[Vec<Vec<u32>>],
    repeat: usize,
    cold: usize,
) -> [EngineRun; 2] {
    let vocab = s.tokenizer.vocabulary();
    let runs = [
        run_engine(&s.tooljson, s.tooljson_ms, cases, ids, vocab, repeat, cold),
        run_engine(&s.llg, s.llg_ms, cases, ids, vocab, repeat, cold),
    ];
    report::print(s.label, cases, &runs, repeat);
    runs
}

/// A few schemas both engines compile and whose first instance both
/// accept: the tool-like ones with the fewest, median and most tokens, and
/// the median other one.
fn representatives(cases: &[Case], ids: &[Vec<Vec<u32>>], runs: &[EngineRun; 2]) -> Vec<usize> {
    let ok = |i: usize| {
        runs.iter()
            .all(|r| r.schemas[i].instances.first().is_some_and(|x| x.is_ok()))
    };
    let mut tool: Vec<usize> = (0..cases.len())
        .filter(|&i| cases[i].tool_like && ok(i))
        .collect();
    let mut other: Vec<usize> = (0..cases.len())
        .filter(|&i| !cases[i].tool_like && ok(i))
        .collect();
    tool.sort_by_key(|&i| ids[i][0].len());
    other.sort_by_key(|&i| ids[i][0].len());
    let mut out = Vec::new();
    if !tool.is_empty() {
        for i in [0, tool.len() / 2, tool.len() - 1] {
            if !out.contains(&tool[i]) {
                out.push(tool[i]);
            }
        }
    }
    if !other.is_empty() {
        out.push(other[other.len() / 2]);
    }
    out
}

/// Criterion groups for one engine on one schema.
fn bench_engine<E: Engine>(c: &mut Criterion, e: &E, case: &Case, ids: &[u32], eos: u32) {
    let compiled = e.compile(&case.schema).expect("compiled in the summary");
    c.benchmark_group(format!("decode_compile/{}", case.name))
        .bench_function(e.name(), |b| b.iter(|| e.compile(black_box(&case.schema))));

    let mid = ids.len() / 2;
    let mut seq = e.start(&compiled);
    for &id in &ids[..mid] {
        e.commit(&mut seq, id).expect("accepted in the summary");
    }
    let mut mask = e.new_mask();
    e.mask(&mut seq, &mut mask).unwrap();
    assert!(e.allows(&mask, ids[mid]), "{}: mid token refused", e.name());
    c.benchmark_group(format!("decode_mask_mid/{}", case.name))
        .bench_function(e.name(), |b| {
            b.iter(|| {
                e.forget(&mut seq);
                e.mask(&mut seq, &mut mask).unwrap();
                black_box(&mask);
            })
        });

    let mut g = c.benchmark_group(format!("decode_instance/{}", case.name));
    g.throughput(Throughput::Elements(ids.len() as u64 + 1));
    g.bench_function(BenchmarkId::from_parameter(e.name()), |b| {
        b.iter(|| {
            run_instance(e, &compiled, black_box(ids), eos)
                .map_err(|(_, why)| why)
                .expect("accepted")
        })
    });
    g.finish();
}

fn main() {
    let cases = data::cases(
        data::env_cap("TOOLJSON_DECODE_BENCH_SCHEMAS", usize::MAX),
        data::env_cap("TOOLJSON_DECODE_BENCH_INSTANCES", usize::MAX),
    );
    let repeat = data::env_cap("TOOLJSON_DECODE_BENCH_REPEAT", 3).max(1);
    // 0: the `first` pass runs on the schema's one constraint (caches warm
    // from its earlier instances); K: best of K passes, each on a freshly
    // compiled schema (caches cold per instance).
    let cold = data::env_cap("TOOLJSON_DECODE_BENCH_COLD", 0);
    let vocabs =
        std::env::var("TOOLJSON_DECODE_BENCH_VOCABS").unwrap_or_else(|_| "o200k,llama3_1".into());
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
        .sample_size(10)
        .configure_from_args();
    let mut benched = false;
    for label in vocabs.split(',').map(str::trim) {
        let label: &'static str = match label {
            "o200k" => "o200k",
            "llama3_1" => "llama3_1",
            other => panic!("unknown vocabulary {other:?} in TOOLJSON_DECODE_BENCH_VOCABS"),
        };
        let s = setup(label);
        let ids = tokenize(&s, &cases);
        if std::env::var("TOOLJSON_DECODE_BENCH_ONLY").is_ok_and(|e| e == "tooljson") {
            let vocab = s.tokenizer.vocabulary();
            let run = run_engine(
                &s.tooljson,
                s.tooljson_ms,
                &cases,
                &ids,
                vocab,
                repeat,
                cold,
            );
            report::print_one(label, &cases, &run);
            benched = true;
            continue;
        }
        let runs = summary(&s, &cases, &ids, repeat, cold);
        // Criterion on the first vocabulary only: the steps it times do
        // not change their nature with the vocabulary.
        if !benched {
            benched = true;
            let eos = s.tokenizer.vocabulary().eos_ids()[0];
            for i in representatives(&cases, &ids, &runs) {
                bench_engine(&mut c, &s.tooljson, &cases[i], &ids[i][0], eos);
                bench_engine(&mut c, &s.llg, &cases[i], &ids[i][0], eos);
            }
        }
    }
    c.final_summary();
}
