//! Fuzz target `fast_path`: see `fast_path` in tests/common/fast_path_check.rs (shared
//! with tests/corpus_replay.rs, which replays corpus/fuzz/fast_path/).
#![no_main]

#[path = "../../tests/common/fast_path_check.rs"]
mod fast_path_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| fast_path_check::fast_path(data));
