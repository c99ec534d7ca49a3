//! Canonical BPE tokenization of a text, to check a finished text against
//! the masks token by token as a model would have written it: tiktoken's
//! encoder for o200k / cl100k, and for a `tokenizer.json` its split regex
//! (or none, SentencePiece-style), then merges by rank, with byte fallback.
//!
//! Cost: a text is handed to the encoder in pieces of at most [`PIECE`]
//! bytes, cut before a space that follows a letter or digit, where the
//! o200k / cl100k split patterns always end a piece, so that the tokens
//! are those of the whole text; a run of [`PIECE`] bytes with no such place
//! (a long word, 1 MB of NUL bytes) is cut every [`FORCED`] bytes at a
//! character boundary, and only there may its tokens differ from a whole
//! encoding (the masks' verdict on a text does not depend on where its
//! tokens fall). Merging by rank is quadratic in a piece's length, so the
//! whole text costs O(n × [`FORCED`]) rather than O(n²), and the
//! encoders' regex (which reports a long run as an error that tiktoken-rs
//! unwraps) never sees a long run.

use std::collections::HashMap;

use super::{DecodeError, Vocabulary};

/// A tokenizer paired with its [`Vocabulary`].
///
/// # Examples
///
/// ```
/// use tooljson::decode::Tokenizer;
/// let json = r#"{"model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]},
///   "pre_tokenizer": {"type": "ByteLevel"}, "added_tokens": [{"id": 3, "content": "<|endoftext|>", "special": true}]}"#;
/// let t = Tokenizer::from_tokenizer_json(json, &[])?;
/// assert_eq!(t.encode("abab")?, [2, 2]);
/// assert_eq!(t.vocabulary().eos_ids(), &[3]);
/// # Ok::<(), tooljson::decode::DecodeError>(())
/// ```
pub struct Tokenizer {
    vocab: Vocabulary,
    kind: Kind,
}

enum Kind {
    #[cfg(feature = "tiktoken")]
    Tiktoken(&'static tiktoken_rs::CoreBPE),
    Bpe(Box<Bpe>),
}

struct Bpe {
    /// Symbol text (as the vocabulary spells it) to id.
    ids: HashMap<String, u32>,
    ranks: HashMap<(String, String), u32>,
    split: Option<fancy_regex::Regex>,
    byte_level: bool,
    /// A word that is a whole token is taken as is (Llama 3).
    ignore_merges: bool,
    byte_ids: Option<[u32; 256]>,
    byte_map: [char; 256],
}

impl Tokenizer {
    /// o200k_base.
    #[cfg(feature = "tiktoken")]
    pub fn o200k() -> Result<Tokenizer, DecodeError> {
        Ok(Tokenizer {
            vocab: Vocabulary::o200k()?,
            kind: Kind::Tiktoken(tiktoken_rs::o200k_base_singleton()),
        })
    }

    /// cl100k_base.
    #[cfg(feature = "tiktoken")]
    pub fn cl100k() -> Result<Tokenizer, DecodeError> {
        Ok(Tokenizer {
            vocab: Vocabulary::cl100k()?,
            kind: Kind::Tiktoken(tiktoken_rs::cl100k_base_singleton()),
        })
    }

    /// A BPE `tokenizer.json` (see [`Vocabulary::from_tokenizer_json`]).
    /// Normalizers other than SentencePiece's space replacement are not
    /// applied (give NFC text to a Qwen tokenizer).
    pub fn from_tokenizer_json(text: &str, eos: &[&str]) -> Result<Tokenizer, DecodeError> {
        let vocab = Vocabulary::from_tokenizer_json(text, eos)?;
        let doc: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| DecodeError::Vocabulary(format!("tokenizer.json: {e}")))?;
        let model = &doc["model"];
        let byte_fallback = model["byte_fallback"].as_bool() == Some(true);
        let byte_level = !byte_fallback && text.contains("\"ByteLevel\"");
        let mut ids = HashMap::new();
        if let Some(v) = model["vocab"].as_object() {
            for (k, id) in v {
                if let Some(id) = id.as_u64() {
                    ids.insert(k.clone(), id as u32);
                }
            }
        }
        let mut ranks = HashMap::new();
        if let Some(m) = model["merges"].as_array() {
            for (r, m) in m.iter().enumerate() {
                let pair = match m {
                    serde_json::Value::String(s) => {
                        s.split_once(' ').map(|(a, b)| (a.to_owned(), b.to_owned()))
                    }
                    serde_json::Value::Array(a) if a.len() == 2 => Some((
                        a[0].as_str().unwrap_or("").into(),
                        a[1].as_str().unwrap_or("").into(),
                    )),
                    _ => None,
                };
                if let Some(p) = pair {
                    ranks.entry(p).or_insert(r as u32);
                }
            }
        }
        let mut split = None;
        let pre = &doc["pre_tokenizer"];
        let pres: Vec<&serde_json::Value> = match pre["pretokenizers"].as_array() {
            Some(a) => a.iter().collect(),
            None => vec![pre],
        };
        for p in pres {
            if p["type"] == "Split"
                && let Some(re) = p["pattern"]["Regex"].as_str()
            {
                split = Some(fancy_regex::Regex::new(re).map_err(|e| {
                    DecodeError::Vocabulary(format!("tokenizer.json split pattern: {e}"))
                })?);
            }
        }
        let byte_ids = if byte_fallback {
            let mut b = [0u32; 256];
            for (i, slot) in b.iter_mut().enumerate() {
                *slot = *ids.get(&format!("<0x{i:02X}>")).ok_or_else(|| {
                    DecodeError::Vocabulary(format!("byte fallback without <0x{i:02X}>"))
                })?;
            }
            Some(b)
        } else {
            None
        };
        let mut byte_map = ['\0'; 256];
        for (c, b) in super::hf::byte_level_decoder() {
            byte_map[b as usize] = c;
        }
        Ok(Tokenizer {
            vocab,
            kind: Kind::Bpe(Box::new(Bpe {
                ids,
                ranks,
                split,
                byte_level,
                ignore_merges: model["ignore_merges"].as_bool() == Some(true),
                byte_ids,
                byte_map,
            })),
        })
    }

    /// The vocabulary.
    pub fn vocabulary(&self) -> &Vocabulary {
        &self.vocab
    }

    /// The token ids of `text` (special tokens are not recognised),
    /// encoded in pieces (see the module docs): O(`text.len()`) time and
    /// memory.
    pub fn encode(&self, text: &str) -> Result<Vec<u32>, DecodeError> {
        let mut out = Vec::new();
        for piece in pieces(text) {
            match &self.kind {
                #[cfg(feature = "tiktoken")]
                Kind::Tiktoken(bpe) => {
                    // tiktoken-rs unwraps its regex's errors; the pieces
                    // are short enough that none is expected, and one that
                    // still comes is an error here, not a panic.
                    let ids = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        bpe.encode_ordinary(piece)
                    }))
                    .map_err(|_| {
                        DecodeError::Vocabulary(format!(
                            "tiktoken failed on a piece of {} bytes",
                            piece.len()
                        ))
                    })?;
                    out.extend(ids);
                }
                Kind::Bpe(b) => b.encode(piece, &mut out)?,
            }
        }
        Ok(out)
    }
}

/// The most bytes handed to an encoder at once.
pub(crate) const PIECE: usize = 1024;
/// Where a run with no place to cut exactly is cut.
pub(crate) const FORCED: usize = 256;

/// `text` in pieces of at most [`PIECE`] bytes: each cut before a space
/// that follows a letter or digit (a piece boundary of the split patterns),
/// or, in a run with none, every [`FORCED`] bytes at a character boundary.
pub(crate) fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let cut = if rest.len() <= PIECE {
            rest.len()
        } else {
            let window = floor_boundary(rest, PIECE);
            let exact = rest[..window]
                .char_indices()
                .rev()
                .find(|&(i, c)| {
                    c == ' '
                        && rest[..i]
                            .chars()
                            .next_back()
                            .is_some_and(char::is_alphanumeric)
                })
                .map(|(i, _)| i);
            match exact {
                Some(i) if i > 0 => i,
                _ => {
                    floor_boundary(rest, FORCED).max(rest.chars().next().map_or(1, char::len_utf8))
                }
            }
        };
        let (piece, tail) = rest.split_at(cut);
        rest = tail;
        Some(piece)
    })
}

/// The largest character boundary of `s` at or below `at`.
fn floor_boundary(s: &str, mut at: usize) -> usize {
    at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

impl Bpe {
    fn encode(&self, text: &str, out: &mut Vec<u32>) -> Result<(), DecodeError> {
        if self.byte_level {
            let pieces: Vec<&str> = match &self.split {
                Some(re) => re
                    .find_iter(text)
                    .map(|m| m.map(|m| m.as_str()))
                    .collect::<Result<_, _>>()
                    .map_err(|e| DecodeError::Vocabulary(format!("split: {e}")))?,
                None => vec![text],
            };
            for p in pieces {
                let word: String = p.bytes().map(|b| self.byte_map[b as usize]).collect();
                self.word(&word, out)?;
            }
        } else {
            let word = text.replace(' ', "\u{2581}");
            self.word(&word, out)?;
        }
        Ok(())
    }

    fn word(&self, word: &str, out: &mut Vec<u32>) -> Result<(), DecodeError> {
        if word.is_empty() {
            return Ok(());
        }
        if self.ignore_merges
            && let Some(&id) = self.ids.get(word)
        {
            out.push(id);
            return Ok(());
        }
        let mut syms: Vec<String> = word.chars().map(String::from).collect();
        // The rank of each adjacent pair, kept beside the symbols: a merge
        // looks up only its two new pairs (no clone of every pair per step).
        let rank = |a: &String, b: &String| {
            self.ranks
                .get(&(a.clone(), b.clone()))
                .copied()
                .unwrap_or(u32::MAX)
        };
        let mut pair: Vec<u32> = syms.windows(2).map(|w| rank(&w[0], &w[1])).collect();
        while let Some((r, i)) = pair.iter().enumerate().map(|(i, &r)| (r, i)).min() {
            if r == u32::MAX {
                break;
            }
            let next = syms.remove(i + 1);
            syms[i].push_str(&next);
            pair.remove(i);
            if i > 0 {
                pair[i - 1] = rank(&syms[i - 1], &syms[i]);
            }
            if i < pair.len() {
                pair[i] = rank(&syms[i], &syms[i + 1]);
            }
        }
        for s in syms {
            match (self.ids.get(&s), &self.byte_ids) {
                (Some(&id), _) => out.push(id),
                (None, Some(bytes)) => {
                    let raw = s.replace('\u{2581}', " ");
                    out.extend(raw.bytes().map(|b| bytes[b as usize]));
                }
                (None, None) => {
                    return Err(DecodeError::Vocabulary(format!(
                        "no token for {s:?} and no byte fallback"
                    )));
                }
            }
        }
        Ok(())
    }
}
