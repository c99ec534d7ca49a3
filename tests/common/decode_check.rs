//! The check behind the `decode` fuzz target (`fuzz/fuzz_targets/decode.rs`
//! includes this file with `#[path]`; `tests/corpus_replay.rs` replays
//! `corpus/fuzz/decode/` and `corpus/crashes/decode/` through it).
//!
//! Input: a JSON Schema text, a 0 byte, then operations on one matcher
//! (decoded with `arbitrary::Unstructured`) over a small vocabulary of
//! every single byte and some JSON-shaped multi-byte tokens. Besides "no
//! panic", it holds the decoder's contract:
//! - a token commits exactly when the mask allows it (the mask's fast walk
//!   against the matcher's byte-by-byte steps);
//! - an end of sequence commits exactly when the text is complete;
//! - a rollback brings back the mask of the state it returns to;
//! - the forced bytes commit;
//! - the shortest completion commits, ends the value, and the whole text
//!   parses strictly and is valid under the schema; so is every text that
//!   ends.

use arbitrary::Unstructured;
use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, DecodeOptions, KeyOrder, Matcher, Vocabulary, Whitespace};

/// Multi-byte tokens that cross JSON's structure in many ways: quotes with
/// letters, separators, escapes, literals, digits and pieces of UTF-8.
const WORDS: &[&[u8]] = &[
    b"{\"",
    b"\":",
    b"\":\"",
    b"\",\"",
    b"\"}",
    b"\"]",
    b"},{",
    b"[{",
    b"}]",
    b"\":{",
    b"\":[",
    b"true",
    b"false",
    b"null",
    b"tr",
    b"ue",
    b"12",
    b"-0",
    b"0.",
    b".5",
    b"e+",
    b"E-1",
    b"00",
    b"ab",
    b"\\u",
    b"\\n",
    b"\\\"",
    b"00e9",
    b"\xc3\xa9",
    b"\xc3",
    b"\xa9\"",
    b"\xf0\x9f",
    b"\x98\x80",
    b", ",
    b": ",
    b"\n  ",
    b"name",
    b"id",
    b"\"a",
    b"a\"",
];

/// Every single byte, then [`WORDS`], then the end-of-sequence token.
fn vocabulary() -> (Vocabulary, u32) {
    let mut tokens: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    tokens.extend(WORDS.iter().map(|w| w.to_vec()));
    let eos = tokens.len() as u32;
    tokens.push(Vec::new());
    let v = Vocabulary::from_bytes(tokens, vec![eos]).expect("a valid vocabulary");
    (v, eos)
}

/// Whether token `id` is set in `mask`.
pub fn allowed(mask: &[u64], id: u32) -> bool {
    mask[id as usize / 64] >> (id % 64) & 1 == 1
}

fn mask_of(m: &Matcher, words: usize) -> Vec<u64> {
    let mut mask = vec![0u64; words];
    m.fill_mask(&mut mask);
    mask
}

/// Parses `text` strictly, a repeated key being an error: the output
/// policy writes each key of an object once.
pub fn parse_no_repeats(text: &[u8]) -> Result<tooljson::Value, tooljson::Error> {
    use tooljson::{DuplicateKeys, Parser, ValueBuilder};
    let mut parser = Parser::new();
    parser.set_duplicate_keys(DuplicateKeys::Error);
    let mut builder = ValueBuilder::with_duplicate_keys(DuplicateKeys::Error);
    parser.feed(text, &mut builder)?;
    parser.finish(&mut builder)?;
    Ok(builder
        .into_value()
        .expect("a finished parse has built its value"))
}

/// The text must be a complete, strictly parsed, valid instance, with no
/// key repeated.
fn assert_valid(schema: &CompiledSchema, text: &[u8], what: &str) {
    let value = parse_no_repeats(text).unwrap_or_else(|e| {
        panic!(
            "{what}: {:?} does not parse: {e}",
            String::from_utf8_lossy(text)
        )
    });
    if let Err(e) = schema.validate(&value) {
        panic!(
            "{what}: {:?} is not valid: {e:?}",
            String::from_utf8_lossy(text)
        );
    }
}

/// The check; panics when a property fails.
pub fn decode(input: &[u8]) {
    let (schema_text, rest) = match input.iter().position(|&b| b == 0) {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (input, &b""[..]),
    };
    let Ok(schema_value) = tooljson::from_slice(schema_text) else {
        return;
    };
    let mut u = Unstructured::new(rest);
    let flags: u8 = u.arbitrary().unwrap_or(0);
    let Ok(schema) = CompiledSchema::builder()
        .assert_formats(flags & 1 == 1)
        .build_value(&schema_value)
    else {
        return;
    };
    // The decoder asserts every format unless told not to: its texts
    // then validate with formats asserted, whatever the schema says.
    let assert_formats = flags & 16 == 0;
    let oracle = if assert_formats && flags & 1 == 0 {
        match CompiledSchema::builder()
            .assert_formats(true)
            .build_value(&schema_value)
        {
            Ok(s) => s,
            Err(_) => return,
        }
    } else {
        schema.clone()
    };
    let opts = DecodeOptions {
        assert_formats,
        key_order: if flags & 2 == 2 {
            KeyOrder::Properties
        } else {
            KeyOrder::Any
        },
        whitespace: match (flags >> 2) & 3 {
            0 => Whitespace::None,
            n => Whitespace::Bounded(n),
        },
        ..DecodeOptions::default()
    };
    let (vocab, eos) = vocabulary();
    let c = match Constraint::with_options(&schema, &vocab, &opts) {
        Ok(c) => c,
        Err(e) => {
            // A refusal is typed and says what it refuses.
            assert!(!e.to_string().is_empty());
            return;
        }
    };
    let words = vocab.mask_words();
    let mut m = c.matcher();
    let mut text: Vec<u8> = Vec::new();
    // Per commit: the text length and the mask before it.
    let mut undo: Vec<(usize, Vec<u64>)> = Vec::new();
    for _ in 0..48 {
        let Ok(op) = u.arbitrary::<u8>() else {
            break;
        };
        let mask = mask_of(&m, words);
        match op % 6 {
            0 | 1 => {
                let id = u32::from(u.arbitrary::<u16>().unwrap_or(0)) % vocab.len() as u32;
                let complete = m.is_complete();
                if id == eos {
                    assert_eq!(allowed(&mask, id), complete, "the mask's end of sequence");
                }
                let ok = m.commit_token(id).is_ok();
                let want = allowed(&mask, id);
                assert_eq!(
                    ok,
                    want,
                    "token {id} ({:?}) commits {ok} but the mask says {} after {:?}",
                    String::from_utf8_lossy(vocab.token_bytes(id)),
                    allowed(&mask, id),
                    String::from_utf8_lossy(&text)
                );
                if ok {
                    undo.push((text.len(), mask));
                    text.extend_from_slice(vocab.token_bytes(id));
                }
            }
            2 => {
                let n = usize::from(u.arbitrary::<u8>().unwrap_or(0) % 8);
                let bytes = u.bytes(n).unwrap_or(&[]).to_vec();
                if m.commit_bytes(&bytes).is_ok() {
                    undo.push((text.len(), mask));
                    text.extend_from_slice(&bytes);
                }
            }
            3 => {
                let n = usize::from(u.arbitrary::<u8>().unwrap_or(0) % 4);
                let done = m.rollback(n);
                assert!(done <= n);
                if done > 0 {
                    let at = undo.len() - done;
                    let (len, before) = undo[at].clone();
                    undo.truncate(at);
                    text.truncate(len);
                    assert_eq!(
                        mask_of(&m, words),
                        before,
                        "the mask after a rollback to {:?} differs",
                        String::from_utf8_lossy(&text)
                    );
                }
            }
            4 => {
                let forced = m.forced_bytes();
                if !forced.is_empty() {
                    let mut m2 = m.clone();
                    assert!(
                        m2.commit_bytes(&forced).is_ok(),
                        "forced bytes {:?} refused after {:?}",
                        String::from_utf8_lossy(&forced),
                        String::from_utf8_lossy(&text)
                    );
                }
            }
            _ => {
                if m.is_ended() {
                    continue;
                }
                let rest = m.shortest_completion();
                let mut m2 = m.clone();
                if !rest.is_empty() {
                    assert!(
                        m2.commit_bytes(&rest).is_ok(),
                        "the shortest completion {:?} is refused after {:?}",
                        String::from_utf8_lossy(&rest),
                        String::from_utf8_lossy(&text)
                    );
                }
                assert!(
                    m2.is_complete(),
                    "the completion {:?} after {:?} does not end the value",
                    String::from_utf8_lossy(&rest),
                    String::from_utf8_lossy(&text)
                );
                let mut whole = text.clone();
                whole.extend_from_slice(&rest);
                assert_valid(&oracle, &whole, "the shortest completion");
            }
        }
        if m.is_ended() {
            break;
        }
    }
    if m.is_ended() || m.is_complete() {
        assert_valid(&oracle, &text, "an ended text");
    }
}
