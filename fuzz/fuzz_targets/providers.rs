//! Fuzz target `providers`: see `checks::providers` in tests/common/checks.rs (shared
//! with tests/corpus_replay.rs, which replays corpus/fuzz/providers/).
#![no_main]

#[path = "../../tests/common/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::providers(data));
