//! A model's vocabulary as the decoder needs it: each token's bytes, the
//! end-of-sequence ids, and two tries over the token bytes (all tokens, and
//! the tokens that are not plain string text), the plain tokens grouped
//! by their length in code points, and per string state the tokens that
//! stay inside a string and those that close it. Built once, shared by
//! `Arc`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::DecodeError;
use super::pattern::{PLAIN_EXCLUDED, PatState};
use super::string::{Sx, str_byte};

/// Plain tokens of at most this many code points get a bitset each (the
/// tokens allowed in a string with that many code points left).
const PLAIN_BUCKETS: usize = 16;

/// A token trie: node 0 is the root; a node's children are
/// `edges[starts[n]..starts[n + 1]]`, sorted by byte.
#[derive(Debug, Default)]
pub(crate) struct Trie {
    pub(crate) starts: Vec<u32>,
    /// `(byte, child)`.
    pub(crate) edges: Vec<(u8, u32)>,
    /// Tokens whose bytes end at each node: `tok_ids[tok_starts[n]..tok_starts[n + 1]]`.
    pub(crate) tok_starts: Vec<u32>,
    pub(crate) tok_ids: Vec<u32>,
    /// The nodes below `n` are `n + 1..sub_end[n]` (depth-first order), so
    /// their tokens are one run of `tok_ids`.
    sub_end: Vec<u32>,
    /// The bytes on the edges below each node, ASCII as bits; all bits
    /// when one is not ASCII.
    sub_bytes: Vec<u128>,
}

impl Trie {
    pub(crate) fn build(tokens: &[Box<[u8]>], ids: impl Iterator<Item = u32>) -> Trie {
        let mut order: Vec<u32> = ids.filter(|&i| !tokens[i as usize].is_empty()).collect();
        order.sort_by(|&a, &b| tokens[a as usize].cmp(&tokens[b as usize]));
        // Nodes in depth-first order with explicit child lists.
        let mut children: Vec<Vec<(u8, u32)>> = vec![Vec::new()];
        let mut toks: Vec<Vec<u32>> = vec![Vec::new()];
        for &id in &order {
            let mut n = 0usize;
            for &b in tokens[id as usize].iter() {
                n = match children[n].last() {
                    Some(&(lb, c)) if lb == b => c as usize,
                    _ => {
                        let c = children.len();
                        children.push(Vec::new());
                        toks.push(Vec::new());
                        children[n].push((b, c as u32));
                        c
                    }
                };
            }
            toks[n].push(id);
        }
        let mut t = Trie::default();
        for (c, k) in children.iter().zip(&toks) {
            t.starts.push(t.edges.len() as u32);
            t.edges.extend_from_slice(c);
            t.tok_starts.push(t.tok_ids.len() as u32);
            t.tok_ids.extend_from_slice(k);
        }
        t.starts.push(t.edges.len() as u32);
        t.tok_starts.push(t.tok_ids.len() as u32);
        // Children come after their parent: one backward pass fills both.
        let n = children.len();
        t.sub_end = (0..n as u32).map(|i| i + 1).collect();
        t.sub_bytes = vec![0; n];
        for i in (0..n).rev() {
            for &(b, c) in &children[i] {
                let c = c as usize;
                t.sub_end[i] = t.sub_end[i].max(t.sub_end[c]);
                let bit = if b < 0x80 { 1u128 << b } else { u128::MAX };
                t.sub_bytes[i] |= bit | t.sub_bytes[c];
            }
        }
        t
    }

    /// The tokens of the nodes strictly below `n`.
    #[inline]
    pub(crate) fn tokens_below(&self, n: u32) -> &[u32] {
        let n = n as usize;
        let end = self.sub_end[n] as usize;
        &self.tok_ids[self.tok_starts[n + 1] as usize..self.tok_starts[end] as usize]
    }

    /// The bytes on the edges below `n` (see `sub_bytes`).
    #[inline]
    pub(crate) fn bytes_below(&self, n: u32) -> u128 {
        self.sub_bytes[n as usize]
    }

    #[inline]
    pub(crate) fn children(&self, n: u32) -> &[(u8, u32)] {
        let n = n as usize;
        &self.edges[self.starts[n] as usize..self.starts[n + 1] as usize]
    }

    #[inline]
    pub(crate) fn tokens(&self, n: u32) -> &[u32] {
        let n = n as usize;
        &self.tok_ids[self.tok_starts[n] as usize..self.tok_starts[n + 1] as usize]
    }
}

/// The tokens after a string in one lexical state, when the string has
/// room for any token: those that stay inside it (context-independent, a
/// bitset) and those that close it (a trie, walked in context).
#[derive(Debug)]
pub(crate) struct StrSets {
    pub(crate) sx: Sx,
    pub(crate) inside: Vec<u64>,
    pub(crate) closing: Trie,
}

/// The string states that get [`StrSets`]: plain text, after `\`, inside
/// a UTF-8 sequence, and between the halves of a surrogate pair.
fn str_states() -> Vec<Sx> {
    let mut v = vec![
        Sx::Normal,
        Sx::Esc,
        Sx::NeedLow { slash: false },
        Sx::NeedLow { slash: true },
    ];
    for (need, lo, hi) in [
        (1, 0x80, 0xbf),
        (2, 0xa0, 0xbf),
        (2, 0x80, 0xbf),
        (2, 0x80, 0x9f),
        (3, 0x90, 0xbf),
        (3, 0x80, 0xbf),
        (3, 0x80, 0x8f),
    ] {
        v.push(Sx::Utf8 { need, lo, hi });
    }
    v
}

/// Where token `t` leaves a string in state `sx`: `Some(false)` inside,
/// `Some(true)` at a closing quote, `None` refused first. `canonical`: a
/// key, with only the escapes `serde_json` writes.
fn str_run(t: &[u8], mut sx: Sx, canonical: bool) -> Option<bool> {
    for &b in t {
        if sx == Sx::Normal && b == b'"' {
            return Some(true);
        }
        sx = str_byte(sx, b, canonical)?.0;
    }
    Some(false)
}

fn str_sets(tokens: &[Box<[u8]>], sx: Sx, canonical: bool) -> StrSets {
    let mut inside = vec![0u64; tokens.len().div_ceil(64)];
    let mut closing = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        match str_run(t, sx, canonical) {
            Some(false) => inside[i / 64] |= 1 << (i % 64),
            Some(true) => closing.push(i as u32),
            None => {}
        }
    }
    StrSets {
        sx,
        inside,
        closing: Trie::build(tokens, closing.into_iter()),
    }
}

/// Token sets by format and state (see `VocabInner::formats`).
type FormatSets = HashMap<(u8, PatState), Arc<FormatSet>>;

/// The tokens that stay inside a string under a format in one state.
#[derive(Debug)]
pub(crate) struct FormatSet {
    pub(crate) bits: Arc<[u64]>,
    /// The longest of them, in bytes.
    pub(crate) longest: u64,
    /// Those of [`FormatSet::LONG`] bytes or more, longest first: what a
    /// state with less room checks again.
    pub(crate) long: Box<[(u32, u32)]>,
}

impl FormatSet {
    pub(crate) const LONG: u32 = 8;
}

#[derive(Debug)]
pub(crate) struct VocabInner {
    pub(crate) tokens: Vec<Box<[u8]>>,
    pub(crate) eos: Vec<u32>,
    pub(crate) all: Trie,
    /// Tokens that are not plain string text.
    pub(crate) rest: Trie,
    /// Bitset of the plain tokens of at most `k` code points, `k` in `0..=PLAIN_BUCKETS`.
    pub(crate) plain_upto: Vec<Vec<u64>>,
    /// Plain tokens longer than `PLAIN_BUCKETS` code points, with their length.
    pub(crate) plain_long: Vec<(u32, u32)>,
    /// The longest token's length in bytes.
    pub(crate) max_len: usize,
    /// Per string state, see [`StrSets`].
    pub(crate) strs: Vec<StrSets>,
    /// The same for a key that may be one outside the named ones.
    pub(crate) keys: Vec<StrSets>,
    /// Per string state (as `strs`), its closing tokens by the bytes after
    /// the quote; the same for a key (as `keys`).
    pub(crate) closing: Vec<super::closing::Closing<Trie>>,
    pub(crate) key_closing: Vec<super::closing::Closing<Trie>>,
    /// Each token's length in code points if plain (see `closing::plain_lens`).
    pub(crate) plain_len: Box<[u32]>,
    /// The tokens that stay inside a string under a format's hand-built
    /// automaton, by format and state: the same under every constraint,
    /// so kept here, each found on its first use.
    formats: Mutex<FormatSets>,
}

impl VocabInner {
    /// The index in `strs` (and `keys`) of string state `sx`, if it has
    /// [`StrSets`].
    pub(crate) fn str_index(&self, sx: Sx) -> Option<usize> {
        self.strs.iter().position(|s| s.sx == sx)
    }

    /// The tokens that stay inside a string under format `key.0` in state
    /// `key.1`, found by `find` on first use.
    pub(crate) fn format_inside(
        &self,
        key: (u8, PatState),
        find: impl FnOnce() -> Vec<u64>,
    ) -> Arc<FormatSet> {
        if let Some(found) = self.formats.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return found;
        }
        let found = Arc::new(self.format_set(find()));
        if let Ok(mut m) = self.formats.lock() {
            m.insert(key, found.clone());
        }
        found
    }

    /// The tokens that stay inside under format `key.0` in state `key.1`
    /// as found from a state standing for it, by `find` on first use
    /// (kept apart from the sets [`VocabInner::format_inside`] keeps,
    /// without their long tokens).
    pub(crate) fn format_derived(
        &self,
        key: (u8, PatState),
        find: impl FnOnce() -> Vec<u64>,
    ) -> Arc<[u64]> {
        let key = (key.0 | 0x80, key.1);
        if let Some(found) = self.formats.lock().ok().and_then(|m| m.get(&key).cloned()) {
            return found.bits.clone();
        }
        let bits: Arc<[u64]> = find().into();
        let found = Arc::new(FormatSet {
            bits: bits.clone(),
            longest: 0,
            long: Box::new([]),
        });
        if let Ok(mut m) = self.formats.lock() {
            m.insert(key, found);
        }
        bits
    }

    fn format_set(&self, bits: Vec<u64>) -> FormatSet {
        let mut long: Vec<(u32, u32)> = Vec::new();
        let mut longest = 0u64;
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let t = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                let len = self.tokens.get(t).map_or(0, |x| x.len() as u32);
                longest = longest.max(u64::from(len));
                if len >= FormatSet::LONG {
                    long.push((len, t as u32));
                }
            }
        }
        long.sort_unstable_by(|a, b| b.cmp(a));
        FormatSet {
            bits: bits.into(),
            longest,
            long: long.into(),
        }
    }
}

/// A vocabulary: each token id's bytes and the end-of-sequence ids,
/// prepared once for masking and shared (cloning is an `Arc` clone).
///
/// # Examples
///
/// ```
/// use tooljson::decode::Vocabulary;
/// let v = Vocabulary::from_bytes(vec![b"{".to_vec(), b"}".to_vec(), Vec::new()], vec![2])?;
/// assert_eq!(v.len(), 3);
/// assert_eq!(v.token_bytes(0), b"{");
/// assert_eq!(v.eos_ids(), &[2]);
/// # Ok::<(), tooljson::decode::DecodeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Vocabulary {
    pub(crate) inner: Arc<VocabInner>,
}

/// Whether `t` is plain string text: complete UTF-8 with none of
/// [`PLAIN_EXCLUDED`] (a quote, a backslash, a control character, a line
/// or paragraph separator: what a pattern's `.` leaves out, so that a
/// pattern position that takes the rest takes every plain token); its
/// length in code points if so.
fn plain_chars(t: &[u8]) -> Option<u32> {
    let s = std::str::from_utf8(t).ok()?;
    let excluded = |c: char| {
        PLAIN_EXCLUDED
            .iter()
            .any(|&(a, b)| (a..=b).contains(&u32::from(c)))
    };
    if s.chars().any(excluded) {
        return None;
    }
    Some(s.chars().count() as u32)
}

impl Vocabulary {
    /// A vocabulary from each token's bytes (by id) and the end-of-sequence
    /// ids. A token with no bytes (a special token) is never allowed except
    /// as an end-of-sequence id.
    pub fn from_bytes(tokens: Vec<Vec<u8>>, eos: Vec<u32>) -> Result<Vocabulary, DecodeError> {
        if tokens.len() > u32::MAX as usize / 2 {
            return Err(DecodeError::Vocabulary("more than 2^31 tokens".into()));
        }
        if let Some(&e) = eos.iter().find(|&&e| e as usize >= tokens.len()) {
            return Err(DecodeError::Vocabulary(format!(
                "end-of-sequence id {e} is past the {} tokens",
                tokens.len()
            )));
        }
        let mut tokens: Vec<Box<[u8]>> = tokens.into_iter().map(Vec::into_boxed_slice).collect();
        for &e in &eos {
            // An end-of-sequence id is a signal, never text.
            tokens[e as usize] = Box::new([]);
        }
        let n = tokens.len();
        let words = n.div_ceil(64);
        let mut plain_upto = vec![vec![0u64; words]; PLAIN_BUCKETS + 1];
        let mut plain_long = Vec::new();
        let mut is_plain = vec![false; n];
        for (i, t) in tokens.iter().enumerate() {
            if t.is_empty() {
                continue;
            }
            if let Some(c) = plain_chars(t) {
                is_plain[i] = true;
                if (c as usize) <= PLAIN_BUCKETS {
                    for set in &mut plain_upto[c as usize..] {
                        set[i / 64] |= 1 << (i % 64);
                    }
                } else {
                    plain_long.push((i as u32, c));
                }
            }
        }
        let max_len = tokens.iter().map(|t| t.len()).max().unwrap_or(0);
        let strs: Vec<StrSets> = str_states()
            .into_iter()
            .map(|sx| str_sets(&tokens, sx, false))
            .collect();
        let closing = strs
            .iter()
            .map(|s| {
                super::closing::Closing::build(
                    &tokens,
                    s.sx,
                    &s.closing.tok_ids,
                    false,
                    |t, ids| Trie::build(t, ids.into_iter()),
                )
            })
            .collect();
        let keys: Vec<StrSets> = str_states()
            .into_iter()
            .map(|sx| str_sets(&tokens, sx, true))
            .collect();
        let key_closing = keys
            .iter()
            .map(|s| {
                super::closing::Closing::build(&tokens, s.sx, &s.closing.tok_ids, true, |t, ids| {
                    Trie::build(t, ids.into_iter())
                })
            })
            .collect();
        let plain_len = super::closing::plain_lens(n, &plain_upto, &plain_long);
        let all = Trie::build(&tokens, 0..n as u32);
        let rest = Trie::build(&tokens, (0..n as u32).filter(|&i| !is_plain[i as usize]));
        Ok(Vocabulary {
            inner: Arc::new(VocabInner {
                tokens,
                eos,
                all,
                rest,
                plain_upto,
                plain_long,
                max_len,
                strs,
                keys,
                closing,
                key_closing,
                plain_len,
                formats: Mutex::default(),
            }),
        })
    }

    /// How many token ids there are (the mask's length in bits).
    pub fn len(&self) -> usize {
        self.inner.tokens.len()
    }

    /// Whether there are no tokens.
    pub fn is_empty(&self) -> bool {
        self.inner.tokens.is_empty()
    }

    /// The bytes of token `id` (empty for special and end-of-sequence ids).
    pub fn token_bytes(&self, id: u32) -> &[u8] {
        self.inner.tokens.get(id as usize).map_or(&[], |t| t)
    }

    /// The end-of-sequence ids.
    pub fn eos_ids(&self) -> &[u32] {
        &self.inner.eos
    }

    /// The `u64` words of a mask over this vocabulary.
    pub fn mask_words(&self) -> usize {
        self.len().div_ceil(64)
    }

    /// A vocabulary from a Hugging Face `tokenizer.json` text: byte-level
    /// BPE (GPT-2's byte-to-character map) or SentencePiece-style with byte
    /// fallback (`<0xNN>` tokens, `▁` for a space). Added tokens marked
    /// special have no text; `eos` names the end-of-sequence tokens (when
    /// empty, the first of `<|eot_id|>`, `<|end_of_text|>`, `<|im_end|>`,
    /// `<|endoftext|>`, `<end_of_turn>`, `<eos>`, `</s>` that are present).
    pub fn from_tokenizer_json(text: &str, eos: &[&str]) -> Result<Vocabulary, DecodeError> {
        let (tokens, eos) = super::hf::read(text, eos)?;
        Vocabulary::from_bytes(tokens, eos)
    }

    /// OpenAI's o200k_base vocabulary (200,019 ids; `<|endoftext|>` ends).
    #[cfg(feature = "tiktoken")]
    pub fn o200k() -> Result<Vocabulary, DecodeError> {
        tiktoken(
            tiktoken_rs::o200k_base_singleton(),
            199_998,
            200_019,
            199_999,
        )
    }

    /// OpenAI's cl100k_base vocabulary (100,277 ids; `<|endoftext|>` ends).
    #[cfg(feature = "tiktoken")]
    pub fn cl100k() -> Result<Vocabulary, DecodeError> {
        tiktoken(
            tiktoken_rs::cl100k_base_singleton(),
            100_256,
            100_277,
            100_257,
        )
    }
}

/// Ids `0..ordinary` are the BPE ranks; the rest up to `total` are special
/// or unused, with no text.
#[cfg(feature = "tiktoken")]
fn tiktoken(
    bpe: &tiktoken_rs::CoreBPE,
    ordinary: u32,
    total: u32,
    eos: u32,
) -> Result<Vocabulary, DecodeError> {
    let mut tokens: Vec<Vec<u8>> = bpe
        ._decode_native_and_split((0..ordinary).collect())
        .collect();
    tokens.resize(total as usize, Vec::new());
    Vocabulary::from_bytes(tokens, vec![eos])
}
