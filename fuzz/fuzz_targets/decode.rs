//! Fuzz target `decode`: see tests/common/decode_check.rs (shared with
//! tests/corpus_replay.rs, which replays corpus/fuzz/decode/).
#![no_main]

#[path = "../../tests/common/decode_check.rs"]
mod decode_check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| decode_check::decode(data));
