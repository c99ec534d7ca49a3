//! The integration tests: one test crate, one module per area, so the suite
//! links once. A module that needs a feature is built with it; the README's
//! test command (`cargo test --release --all-features`) runs them all.
//! Every `tests/*.rs` file is a module here (held by
//! `every_test_file_is_a_module` below: Cargo does not find them itself).

mod common;

// The counts are per thread (see `common/counting_alloc.rs`), so tests that
// hold memory bounds run beside the rest.
#[global_allocator]
static GLOBAL: common::counting_alloc::Counting = common::counting_alloc::Counting;

// The parser and the partial tree (always built); the modules that hold
// them against serde_json's values need the conversions.
mod json_test_suite;
mod parser_errors;
#[cfg(feature = "serde_json")]
mod parser_props;
mod partial_alloc;
#[cfg(feature = "serde_json")]
mod partial_prefixes;

// Framing and providers.
#[cfg(feature = "cli")]
mod cli_commands;
#[cfg(feature = "cli")]
mod cli_preview;
#[cfg(feature = "providers")]
mod client_issue40;
#[cfg(feature = "providers")]
mod client_readme;
#[cfg(feature = "providers")]
mod corpus_replay;
#[cfg(feature = "providers")]
mod eventstream;
#[cfg(feature = "providers")]
mod hostile;
#[cfg(feature = "cli")]
mod hostile_second_pass;
#[cfg(feature = "providers")]
mod partial_memory;
#[cfg(feature = "providers")]
mod partial_props;
#[cfg(feature = "providers")]
mod protocol_lenient_tools;
#[cfg(feature = "cli")]
mod providers_cli;
#[cfg(feature = "providers")]
mod providers_duplicate_ids;
#[cfg(feature = "providers")]
mod providers_fast_path;
#[cfg(feature = "providers")]
mod providers_gemini_bedrock;
#[cfg(feature = "providers")]
mod providers_memory;
#[cfg(feature = "providers")]
mod providers_messages;
#[cfg(feature = "providers")]
mod providers_resend;
#[cfg(feature = "stream")]
mod providers_stream;
#[cfg(feature = "providers")]
mod providers_synthetic;
#[cfg(feature = "providers")]
mod providers_transcripts;
#[cfg(feature = "providers")]
mod sse_decoder;

// Constrained decoding.
#[cfg(feature = "decode")]
mod decode_approx;
#[cfg(feature = "decode")]
mod decode_bench_data;
#[cfg(all(feature = "tiktoken", feature = "cli"))]
mod decode_cli;
#[cfg(feature = "decode")]
mod decode_coverage;
#[cfg(feature = "decode")]
mod decode_equivalence;
#[cfg(feature = "decode")]
mod decode_forms;
#[cfg(feature = "tiktoken")]
mod decode_mask_exact;
#[cfg(feature = "decode")]
mod decode_props;
#[cfg(feature = "decode")]
mod decode_unit;

// Protocol types.
#[cfg(feature = "protocol")]
mod protocol_definitions;
#[cfg(feature = "protocol")]
mod protocol_five_shapes;
#[cfg(feature = "providers")]
mod protocol_gemini_bedrock_model;
#[cfg(feature = "protocol")]
mod protocol_lossless;
#[cfg(feature = "protocol")]
mod protocol_messages;
// Needs the command line for `replay --ndjson`.
#[cfg(feature = "cli")]
mod protocol_numbers;
#[cfg(feature = "protocol")]
mod protocol_props;
#[cfg(feature = "protocol")]
mod protocol_provider_true;
#[cfg(feature = "protocol")]
mod protocol_requests;
#[cfg(feature = "protocol")]
mod protocol_responses;
#[cfg(feature = "providers")]
mod protocol_sdk_cases;
// The conversions the SDK oracle checks, shared with benches/protocol_cases.rs.
#[cfg(feature = "providers")]
#[path = "sdk_oracle/cases.rs"]
mod sdk_cases;

// The schema (the tests against the `jsonschema` crate are in
// `benches/oracle/`, with the other peers).
#[cfg(feature = "cost-counters")]
mod hostile_cost;
#[cfg(feature = "decode")]
mod hostile_decode;
#[cfg(feature = "schema")]
mod hostile_schema;
#[cfg(feature = "schema")]
mod schema_json_view;
#[cfg(feature = "schema")]
mod schema_regex_ecma;
#[cfg(feature = "schema")]
mod schema_stream;
#[cfg(feature = "schema")]
mod schema_suite;
#[cfg(feature = "schema")]
mod schema_unit;

/// A test file that no `mod` line names would never be built: fail instead.
#[test]
fn every_test_file_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if let Some(module) = name.strip_suffix(".rs")
            && module != "main"
            && !main.contains(&format!("\nmod {module};\n"))
        {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/ files with no `mod` line in tests/main.rs: {missing:?}"
    );
}
