//! Fuzz target `schema`: see `checks::schema` in tests/common/checks.rs (shared
//! with tests/corpus_replay.rs, which replays corpus/fuzz/schema/).
#![no_main]

#[path = "../../tests/common/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::schema(data));
