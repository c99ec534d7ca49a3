//! A test sampler: uniform among the allowed tokens, steered to a shortest
//! completion when the token budget nears. It exercises the masks the way a
//! model would, without a model.

use super::{Constraint, DecodeError, Matcher};

/// One sampled text and its tokens (the end-of-sequence token excluded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The text.
    pub text: Vec<u8>,
    /// The token ids, in order.
    pub tokens: Vec<u32>,
}

/// Draws texts under a [`Constraint`] by choosing uniformly at random
/// among the allowed tokens (seeded, so runs repeat). From half the budget
/// on, when the tokens so far plus the bytes of a shortest completion reach
/// `max_tokens`, it takes the longest allowed token that starts that
/// completion instead: the budget is soft, the text always complete.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::decode::{Constraint, Sampler, Vocabulary};
/// let schema = CompiledSchema::from_json_str(r#"{"type": "array", "items": {"type": "boolean"}, "maxItems": 3}"#)?;
/// let mut words: Vec<Vec<u8>> = (0u8..128).map(|b| vec![b]).collect();
/// words.push(Vec::new());
/// let vocab = Vocabulary::from_bytes(words, vec![128])?;
/// let c = Constraint::new(&schema, &vocab)?;
/// let mut sampler = Sampler::new(&c, 7, 64);
/// for _ in 0..20 {
///     let s = sampler.sample()?;
///     let v = tooljson::from_slice(&s.text)?;
///     assert!(schema.is_valid(&v), "{}", String::from_utf8_lossy(&s.text));
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Sampler {
    c: Constraint,
    rng: u64,
    max_tokens: usize,
}

impl Sampler {
    /// A sampler with a seed and a token budget.
    pub fn new(c: &Constraint, seed: u64, max_tokens: usize) -> Sampler {
        Sampler {
            c: c.clone(),
            rng: seed ^ 0x9E37_79B9_7F4A_7C15 | 1,
            max_tokens,
        }
    }

    fn next(&mut self) -> u64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }

    /// One text.
    pub fn sample(&mut self) -> Result<Sample, DecodeError> {
        self.sample_with(|m, mask| m.fill_mask(mask))
    }

    /// One text, each mask computed by `fill` (to time it, say).
    pub fn sample_with(
        &mut self,
        mut fill: impl FnMut(&Matcher, &mut [u64]),
    ) -> Result<Sample, DecodeError> {
        let vocab = self.c.vocabulary().clone();
        let mut m = self.c.matcher();
        let mut mask = vec![0u64; vocab.mask_words()];
        let mut tokens = Vec::new();
        let mut text = Vec::new();
        let cap = self.max_tokens.saturating_mul(8).saturating_add(100_000);
        while tokens.len() < cap {
            fill(&m, &mut mask);
            let total: u64 = mask.iter().map(|w| u64::from(w.count_ones())).sum();
            if total == 0 {
                return Err(DecodeError::Refused {
                    token: None,
                    why: format!(
                        "dead end: no token allowed after {:?}",
                        String::from_utf8_lossy(&text)
                    ),
                });
            }
            let mut pick = None;
            if tokens.len() * 2 >= self.max_tokens {
                let rest = m.shortest_completion();
                if tokens.len() + rest.len() >= self.max_tokens {
                    pick = if rest.is_empty() {
                        vocab
                            .eos_ids()
                            .iter()
                            .copied()
                            .find(|&t| mask[t as usize / 64] >> (t % 64) & 1 == 1)
                    } else {
                        longest_prefix_token(&vocab, &rest, &mask)
                    };
                }
            }
            let t = match pick {
                Some(t) => t,
                None => nth_allowed(&mask, self.next() % total),
            };
            m.commit_token(t)?;
            if m.is_ended() {
                return Ok(Sample { text, tokens });
            }
            text.extend_from_slice(vocab.token_bytes(t));
            tokens.push(t);
        }
        Err(DecodeError::Budget {
            what: format!("no end after {cap} tokens"),
        })
    }
}

/// The `k`-th allowed token in id order (`k` below the number allowed):
/// a uniform pick without listing the allowed ids, which in a string are
/// most of the vocabulary.
fn nth_allowed(mask: &[u64], mut k: u64) -> u32 {
    for (w, &bits) in mask.iter().enumerate() {
        let n = u64::from(bits.count_ones());
        if k < n {
            let mut b = bits;
            for _ in 0..k {
                b &= b - 1;
            }
            return (w * 64) as u32 + b.trailing_zeros();
        }
        k -= n;
    }
    0
}

/// The longest allowed token that `text` starts with.
fn longest_prefix_token(vocab: &super::Vocabulary, text: &[u8], mask: &[u64]) -> Option<u32> {
    let trie = &vocab.inner.all;
    let mut node = 0u32;
    let mut best = None;
    for &b in text {
        let kids = trie.children(node);
        let Ok(i) = kids.binary_search_by_key(&b, |e| e.0) else {
            break;
        };
        node = kids[i].1;
        for &t in trie.tokens(node) {
            if mask[t as usize / 64] >> (t % 64) & 1 == 1 {
                best = Some(t);
            }
        }
    }
    best
}
