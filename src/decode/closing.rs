//! The tokens that close a string, grouped by the bytes after their
//! closing quote, so that a mask steps past the quote once per distinct
//! suffix instead of once per token.
//!
//! In a string with room for any token and no pattern, the bytes before
//! a closing token's quote are plain string text that every such string
//! takes (its string state decides them alone), and the configuration
//! after the quote is the same whatever they were: the value has ended.
//! Only the count of code points before the quote matters (a
//! `minLength` still to reach). So the mask walks one trie of the
//! suffixes after the quote from the one closed configuration, and each
//! suffix it accepts stands for every token that ends with it.

use super::string::{Sx, str_byte};

/// The closing tokens of one string state, by suffix, over the token
/// trie type `T` (the vocabulary's, which holds these sets).
#[derive(Debug)]
pub(crate) struct Closing<T> {
    /// The distinct non-empty suffixes after the quote; a trie's "token"
    /// is the index of its suffix's group.
    pub(crate) after: T,
    /// Per group: the tokens with that suffix and the code points each
    /// completes before its quote, fewest first.
    groups: Vec<Box<[(u32, u32)]>>,
    /// The tokens that end at their quote, as a group.
    at_quote: Box<[(u32, u32)]>,
    /// For a key: the tokens whose suffix holds two quotes or more (it
    /// may close a second key, which must differ from the first), left
    /// out of the groups and walked whole.
    pub(crate) whole: T,
}

/// Where a token's closing quote is, from string state `sx`: the code
/// points completed before it and the index just past it.
fn split(t: &[u8], mut sx: Sx, key: bool) -> Option<(u32, usize)> {
    let mut chars = 0;
    for (i, &b) in t.iter().enumerate() {
        if sx == Sx::Normal && b == b'"' {
            return Some((chars, i + 1));
        }
        let (n, done) = str_byte(sx, b, key)?;
        sx = n;
        chars += u32::from(done);
    }
    None
}

impl<T> Closing<T> {
    /// The closing tokens `ids` of string state `sx` (of a key, with the
    /// escapes `serde_json` writes, when `key`), grouped; `trie` builds a
    /// trie of the given ids of a list of byte strings.
    pub(crate) fn build(
        tokens: &[Box<[u8]>],
        sx: Sx,
        ids: &[u32],
        key: bool,
        trie: impl Fn(&[Box<[u8]>], Vec<u32>) -> T,
    ) -> Closing<T> {
        let mut at_quote = Vec::new();
        let mut whole = Vec::new();
        let mut by_suffix: std::collections::HashMap<&[u8], usize> = Default::default();
        let mut suffixes: Vec<Box<[u8]>> = Vec::new();
        let mut groups: Vec<Vec<(u32, u32)>> = Vec::new();
        for &id in ids {
            let t = &tokens[id as usize];
            let Some((chars, end)) = split(t, sx, key) else {
                continue;
            };
            let rest = &t[end..];
            if key && rest.iter().filter(|&&b| b == b'"').count() >= 2 {
                whole.push(id);
                continue;
            }
            if rest.is_empty() {
                at_quote.push((id, chars));
                continue;
            }
            let g = *by_suffix.entry(rest).or_insert_with(|| {
                suffixes.push(rest.into());
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push((id, chars));
        }
        let mut groups: Vec<Box<[(u32, u32)]>> = groups
            .into_iter()
            .map(|mut g| {
                g.sort_unstable_by_key(|&(id, c)| (c, id));
                g.into_boxed_slice()
            })
            .collect();
        groups.shrink_to_fit();
        at_quote.sort_unstable_by_key(|&(id, c)| (c, id));
        let n = suffixes.len() as u32;
        Closing {
            after: trie(&suffixes, (0..n).collect()),
            groups,
            at_quote: at_quote.into_boxed_slice(),
            whole: trie(tokens, whole),
        }
    }

    /// The tokens of group `g` (`None`: those that end at the quote) with
    /// at least `need` code points before their quote, pushed to `out`.
    pub(crate) fn push(&self, g: Option<u32>, need: u64, out: &mut Vec<u32>) {
        let group = match g {
            Some(g) => &self.groups[g as usize],
            None => &self.at_quote,
        };
        let from = group.partition_point(|&(_, c)| u64::from(c) < need);
        out.extend(group[from..].iter().map(|&(id, _)| id));
    }
}

/// Each token's length in code points when it is plain string text (see
/// `plain_upto` in the vocabulary), `u32::MAX` when it is not: what a
/// walk checks a token by once any plain text may follow.
pub(crate) fn plain_lens(
    n: usize,
    plain_upto: &[Vec<u64>],
    plain_long: &[(u32, u32)],
) -> Box<[u32]> {
    let mut lens = vec![u32::MAX; n];
    // `plain_upto[k]` holds the plain tokens of at most `k` code points:
    // a token's length is the first set that holds it.
    for (k, set) in plain_upto.iter().enumerate().rev() {
        for (w, &word) in set.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                let t = w * 64 + word.trailing_zeros() as usize;
                word &= word - 1;
                if let Some(l) = lens.get_mut(t) {
                    *l = k as u32;
                }
            }
        }
    }
    for &(t, c) in plain_long {
        if let Some(l) = lens.get_mut(t as usize) {
            *l = c;
        }
    }
    lens.into_boxed_slice()
}
