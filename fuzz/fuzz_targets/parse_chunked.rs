//! Fuzz target `parse_chunked`: see `checks::chunked` in tests/common/checks.rs (shared
//! with tests/corpus_replay.rs, which replays corpus/fuzz/parse_chunked/).
#![no_main]

#[path = "../../tests/common/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::chunked(data));
