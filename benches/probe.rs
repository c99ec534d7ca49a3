//! A fixed-work probe for instruction counts: each workload runs a given
//! number of times with no timing, so `valgrind --tool=cachegrind` counts
//! what one call costs (run with N = 11 and N = 1; the difference over 10 is
//! the cost of one call, without start-up and input generation). Timings on a
//! shared machine are noisy; these counts are not.
//!
//! ```sh
//! cargo bench -p tooljson-benches --bench probe --no-run
//! P=$(ls -t target/release/deps/probe-* | grep -v '\.d$' | head -1)
//! $P list                                   # the workloads
//! valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null $P parser/write_file/16 11
//! ```
//!
//! `benches/README.md` holds the current counts and the script that makes
//! the table. Every workload checks its answer once before it is counted.

mod common;

use std::hint::black_box;

use tooljson::decode::{Constraint, Tokenizer, Vocabulary};
use tooljson::partial::PartialParser;
use tooljson::{CompiledSchema, Parser, Value, ValueBuilder};

const KIB64: usize = 64 * 1024;

/// The code-search tool schema of `benches/schema.rs`, smaller: the probe
/// needs a realistic shape, not the same bytes.
const TOOL_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "query": {"type": "string", "minLength": 1, "maxLength": 500},
    "path": {"type": "string", "pattern": "^(/[A-Za-z0-9._-]+)+/?$"},
    "mode": {"type": "string", "enum": ["literal", "regex", "fuzzy"]},
    "case_sensitive": {"type": "boolean", "default": false},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 1000},
    "include": {"type": "array", "items": {"type": "string", "maxLength": 200}, "maxItems": 20},
    "exclude": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
    "modified_after": {"type": "string", "format": "date-time"},
    "owner": {
      "type": "object",
      "properties": {
        "name": {"type": "string", "minLength": 1},
        "email": {"type": "string", "format": "email"},
        "id": {"type": "string", "pattern": "^[a-z0-9_-]{3,32}$"}
      },
      "required": ["name"],
      "additionalProperties": false
    },
    "sort": {
      "type": "object",
      "properties": {
        "field": {"type": "string", "enum": ["path", "mtime", "size", "relevance"]},
        "order": {"type": "string", "enum": ["asc", "desc"]}
      },
      "required": ["field"]
    },
    "threshold": {"type": ["number", "null"], "minimum": 0, "maximum": 1}
  },
  "required": ["query", "path", "mode"],
  "additionalProperties": false
}"#;

const TOOL_ARGS: &str = r#"{"query": "fn main", "path": "/home/dev/project/src", "mode": "regex", "case_sensitive": true, "max_results": 50, "include": ["*.rs", "*.toml"], "exclude": ["target", "node_modules"], "modified_after": "2026-11-30T12:00:00Z", "owner": {"name": "Dev Example", "email": "dev@example.com", "id": "dev_01"}, "sort": {"field": "relevance", "order": "desc"}, "threshold": 0.75}"#;

/// A write-file tool for the long-string stream check.
const WRITE_SCHEMA: &str = r#"{"type": "object", "properties": {
  "path": {"type": "string", "pattern": "^[A-Za-z0-9._/-]+$"},
  "content": {"type": "string", "maxLength": 1000000}},
  "required": ["path", "content"], "additionalProperties": false}"#;

fn parse_chunked(doc: &[u8], chunk: usize) -> Value {
    let mut p = Parser::new();
    let mut b = ValueBuilder::new();
    for c in doc.chunks(chunk) {
        p.feed(c, &mut b).unwrap();
    }
    p.finish(&mut b).unwrap();
    b.into_value().unwrap()
}

/// The partial tree with its snapshot read after every delta.
fn partial_stream(doc: &[u8], delta: usize) -> Value {
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

/// The partial tree with the schema's stream check attached, as the
/// provider adapters run it.
fn partial_checked(schema: &CompiledSchema, doc: &[u8], delta: usize) -> bool {
    let mut p = PartialParser::new();
    p.attach_check(schema.stream_check());
    for d in doc.chunks(delta) {
        p.feed(d, &mut ()).unwrap();
    }
    p.finish(&mut ()).unwrap();
    p.take_check().is_some_and(|c| c.finish().is_ok())
}

/// The Qwen3 vocabulary the repository carries (`tests/data/tokenizers`),
/// and the probe's tool arguments, compact, as its tokens.
fn qwen3() -> (Vocabulary, Vec<u32>) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tokenizers/qwen3.tokenizer.json.gz"
    );
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()),
        &mut text,
    )
    .unwrap();
    let tokenizer = Tokenizer::from_tokenizer_json(&text, &[]).unwrap();
    // Compact: the decoder's default whitespace is none.
    let args = tooljson::from_str(TOOL_ARGS).unwrap().to_string();
    let ids = tokenizer.encode(&args).unwrap();
    (tokenizer.vocabulary().clone(), ids)
}

/// Follows the tool arguments token by token from a fresh matcher, filling
/// the mask before each token when `masks` is set; returns the tokens
/// committed.
/// The tool schema as constrained decoding takes it: `uniqueItems` cannot
/// be decided on a prefix, so the decoder refuses it.
fn decode_schema() -> CompiledSchema {
    compile(&TOOL_SCHEMA.replace(r#", "uniqueItems": true"#, ""))
}

fn decode_args(c: &Constraint, ids: &[u32], mask: Option<&mut Vec<u64>>) -> usize {
    let mut m = c.matcher();
    match mask {
        Some(mask) => {
            for &id in ids {
                m.fill_mask(mask);
                assert!(
                    mask[id as usize / 64] >> (id % 64) & 1 == 1,
                    "token {id} masked out"
                );
                m.commit_token(id).unwrap();
            }
        }
        None => ids.iter().for_each(|&id| m.commit_token(id).unwrap()),
    }
    assert!(m.is_complete());
    ids.len()
}

fn compile(text: &str) -> CompiledSchema {
    CompiledSchema::compile(&serde_json::from_str(text).unwrap()).unwrap()
}

/// A closure per workload; `None` for an unknown name.
fn workload(name: &str) -> Option<Box<dyn FnMut() -> usize>> {
    let write = common::write_file_args(KIB64).into_bytes();
    let edits = common::parallel_edits_args(KIB64).into_bytes();
    let numbers = common::numeric_array_args(KIB64).into_bytes();
    let nested = common::nested_config_args(KIB64).into_bytes();
    let doc = |d: &Vec<u8>| d.clone();
    let run: Box<dyn FnMut() -> usize> = match name {
        "parser/write_file/whole" => {
            let d = doc(&write);
            Box::new(move || {
                parse_chunked(&d, d.len())
                    .as_object()
                    .map_or(0, |m| m.len())
            })
        }
        "parser/write_file/16" => {
            let d = doc(&write);
            Box::new(move || parse_chunked(&d, 16).as_object().map_or(0, |m| m.len()))
        }
        "parser/nested_config/whole" => {
            let d = doc(&nested);
            Box::new(move || {
                parse_chunked(&d, d.len())
                    .as_object()
                    .map_or(0, |m| m.len())
            })
        }
        "parser/numbers/16" => {
            let d = doc(&numbers);
            Box::new(move || parse_chunked(&d, 16).as_object().map_or(0, |m| m.len()))
        }
        "parser/parallel_edits/4" => {
            let d = doc(&edits);
            Box::new(move || parse_chunked(&d, 4).as_object().map_or(0, |m| m.len()))
        }
        "partial/write_file/16" => {
            let d = doc(&write);
            Box::new(move || partial_stream(&d, 16).as_object().map_or(0, |m| m.len()))
        }
        "partial/parallel_edits/16" => {
            let d = doc(&edits);
            Box::new(move || partial_stream(&d, 16).as_object().map_or(0, |m| m.len()))
        }
        "partial/nested_config/16" => {
            let d = doc(&nested);
            Box::new(move || partial_stream(&d, 16).as_object().map_or(0, |m| m.len()))
        }
        "schema/compile" => {
            Box::new(|| !black_box(compile(TOOL_SCHEMA)).is_valid(&Value::Null) as usize)
        }
        "schema/validate" => {
            let s = compile(TOOL_SCHEMA);
            let v = tooljson::from_str(TOOL_ARGS).unwrap();
            Box::new(move || s.is_valid(black_box(&v)) as usize)
        }
        "schema/stream_check/16" => {
            let s = compile(WRITE_SCHEMA);
            let d = common::write_file_args(16 * 1024).into_bytes();
            Box::new(move || partial_checked(&s, &d, 16) as usize)
        }
        "schema/stream_check_tool/whole" => {
            let s = compile(TOOL_SCHEMA);
            let d = TOOL_ARGS.as_bytes().to_vec();
            Box::new(move || partial_checked(&s, &d, d.len()) as usize)
        }
        "providers/replay_demo/1400" => {
            let body = include_bytes!("../corpus/transcripts/demo-parallel-write.sse");
            let tools =
                tooljson::from_slice(include_bytes!("../corpus/transcripts/demo-tools.json"))
                    .unwrap();
            let tools = tooljson::protocol::ToolSet::from_request_json(&tools).unwrap();
            Box::new(move || {
                let mut s = tooljson::providers::ToolCallStream::new().with_tools(tools.clone());
                let mut events = 0usize;
                for piece in body.chunks(1400) {
                    s.feed(piece).unwrap();
                    events += s.drain_events().count();
                }
                s.finish().unwrap();
                events + s.drain_events().count()
            })
        }
        "decode/compile" => {
            let (vocab, _) = qwen3();
            let s = decode_schema();
            Box::new(move || {
                black_box(Constraint::new(&s, &vocab).unwrap())
                    .matcher()
                    .is_complete() as usize
                    + 1
            })
        }
        "decode/commit" => {
            let (vocab, ids) = qwen3();
            let c = Constraint::new(&decode_schema(), &vocab).unwrap();
            Box::new(move || decode_args(&c, &ids, None))
        }
        "decode/masks" => {
            let (vocab, ids) = qwen3();
            let c = Constraint::new(&decode_schema(), &vocab).unwrap();
            let mut mask = vec![0u64; vocab.mask_words()];
            Box::new(move || decode_args(&c, &ids, Some(&mut mask)))
        }
        w if w.starts_with("gateway/") => {
            // gateway/<wire>/<tooljson|serde>: one 64 KiB write-file call
            // in 16-byte deltas, 1400-byte reads (benches/gateway.rs).
            let mut parts = w.split('/').skip(1);
            let wire = parts.next()?;
            let wire = *common::gateway::WIRES.iter().find(|x| x.name() == wire)?;
            let body = common::gateway::body(wire, &common::write_file_args(KIB64), 16);
            match parts.next()? {
                "tooljson" => Box::new(move || common::gateway::tooljson_full(&body, 1400)),
                "serde" => Box::new(move || common::gateway::serde_client(wire, &body, 1400).len()),
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(run)
}

const WORKLOADS: &[&str] = &[
    "parser/write_file/whole",
    "parser/write_file/16",
    "parser/nested_config/whole",
    "parser/numbers/16",
    "parser/parallel_edits/4",
    "partial/write_file/16",
    "partial/parallel_edits/16",
    "partial/nested_config/16",
    "schema/compile",
    "schema/validate",
    "schema/stream_check/16",
    "schema/stream_check_tool/whole",
    "providers/replay_demo/1400",
    "decode/compile",
    "decode/commit",
    "decode/masks",
    "gateway/anthropic/tooljson",
    "gateway/anthropic/serde",
    "gateway/openai_chat/tooljson",
    "gateway/openai_chat/serde",
    "gateway/openai_responses/tooljson",
    "gateway/openai_responses/serde",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes `--bench`: run every workload once as a self-check.
    let named: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    match named.as_slice() {
        [] => {
            for w in WORKLOADS {
                let answer = workload(w).unwrap()();
                assert!(answer > 0, "{w}: no answer");
                println!("{w}: ok ({answer})");
            }
        }
        [list] if list.as_str() == "list" => WORKLOADS.iter().for_each(|w| println!("{w}")),
        [name, n] => {
            let n: usize = n.parse().expect("N is a count");
            let mut run = workload(name).unwrap_or_else(|| panic!("unknown workload {name}"));
            assert!(run() > 0, "{name}: no answer");
            for _ in 1..n {
                black_box(run());
            }
        }
        _ => panic!("usage: probe [list | WORKLOAD N]"),
    }
}
