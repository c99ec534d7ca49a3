//! Fuzz target `eventstream`: see `eventstream` in
//! tests/common/eventstream_check.rs (shared with tests/corpus_replay.rs,
//! which replays corpus/fuzz/eventstream/).
#![no_main]

#[path = "../../tests/common/eventstream_check.rs"]
mod eventstream_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| eventstream_check::eventstream(data));
