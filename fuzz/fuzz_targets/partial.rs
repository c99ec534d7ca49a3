//! Fuzz target `partial`: see `checks::partial` in tests/common/checks.rs (shared
//! with tests/corpus_replay.rs, which replays corpus/fuzz/partial/).
#![no_main]

#[path = "../../tests/common/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::partial(data));
