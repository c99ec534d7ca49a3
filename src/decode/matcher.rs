//! The per-sequence matcher: the configurations the text so far leads to,
//! the mask (computed in `mask`), commits, rollback, forced bytes and a
//! shortest completion.

use std::sync::Arc;

use super::shape::{Grammar, Shape};
use super::step::{Ax, Config, Frame, Nx, Ox, can_end, step};
use super::vocab::VocabInner;
use super::{Constraint, DecodeError};

/// One sequence being decoded under a [`Constraint`]. Cloning forks the
/// sequence (the configurations are a few small frames each; the
/// grammar and vocabulary are shared).
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::decode::{Constraint, Vocabulary};
/// let schema = CompiledSchema::from_json_str(r#"{"type": "object", "properties": {"n": {"type": "integer", "maximum": 5}}, "required": ["n"], "additionalProperties": false}"#)?;
/// let words = ["{\"", "n", "\":", "5", "7", "}", ""];
/// let vocab = Vocabulary::from_bytes(words.iter().map(|w| w.as_bytes().to_vec()).collect(), vec![6])?;
/// let c = Constraint::new(&schema, &vocab)?;
/// let mut m = c.matcher();
/// for t in [0, 1, 2] {
///     m.commit_token(t)?;
/// }
/// let mut mask = vec![0u64; vocab.mask_words()];
/// m.fill_mask(&mut mask);
/// assert_eq!(mask[0], 1 << 3); // `5`, not `7`
/// m.commit_token(3)?;
/// assert_eq!(m.forced_bytes(), b"}");
/// m.commit_token(5)?;
/// assert!(m.is_complete());
/// m.commit_token(6)?; // end of sequence
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Matcher {
    pub(crate) c: Constraint,
    configs: Arc<Vec<Config>>,
    /// The configurations before each committed token, for rollback.
    history: Vec<(Arc<Vec<Config>>, bool)>,
    ended: bool,
}

fn dedup(v: &mut Vec<Config>) {
    if v.len() > 1 {
        let mut seen = std::collections::HashSet::with_capacity(v.len());
        v.retain(|c| seen.insert(c.clone()));
    }
}

/// Every successor of `configs` after `bytes`.
pub(crate) fn advance(g: &Grammar, configs: &[Config], bytes: &[u8]) -> Vec<Config> {
    let mut cur: Vec<Config> = configs.to_vec();
    let mut next = Vec::new();
    for &b in bytes {
        next.clear();
        for c in &cur {
            step(g, c, b, &mut next);
        }
        dedup(&mut next);
        std::mem::swap(&mut cur, &mut next);
        if cur.is_empty() {
            break;
        }
    }
    cur
}

impl Matcher {
    pub(crate) fn new(c: Constraint) -> Matcher {
        Matcher {
            c,
            configs: Arc::new(vec![Config::new()]),
            history: Vec::new(),
            ended: false,
        }
    }

    fn g(&self) -> &Grammar {
        &self.c.inner.grammar
    }

    fn v(&self) -> &VocabInner {
        &self.c.inner.vocab.inner
    }

    /// Sets bit `id` of `mask` (`mask[id / 64] >> (id % 64)`) for every
    /// token allowed next, and clears the others: end-of-sequence ids when
    /// the text is complete, after an end of sequence nothing.
    pub fn fill_mask(&self, mask: &mut [u64]) {
        if self.ended {
            mask.fill(0);
            return;
        }
        let inner = &self.c.inner;
        super::mask::fill(
            &inner.grammar,
            &inner.vocab.inner,
            &inner.masks,
            &self.configs,
            mask,
        );
    }

    /// Sets the logits of refused tokens to negative infinity.
    pub fn apply_mask(&self, logits: &mut [f32]) {
        let mut mask = vec![0u64; self.c.inner.vocab.mask_words()];
        self.fill_mask(&mut mask);
        apply_mask(&mask, logits);
    }

    /// Commits token `id`: its bytes, or the end of the sequence for an
    /// end-of-sequence id. A refused token is an error and changes nothing.
    pub fn commit_token(&mut self, id: u32) -> Result<(), DecodeError> {
        if self.ended {
            return Err(DecodeError::Refused {
                token: Some(id),
                why: "the sequence has ended".into(),
            });
        }
        if self.v().eos.contains(&id) {
            if !self.is_complete() {
                return Err(DecodeError::Refused {
                    token: Some(id),
                    why: "end of sequence before the value is complete".into(),
                });
            }
            self.history.push((self.configs.clone(), self.ended));
            self.ended = true;
            return Ok(());
        }
        let bytes = self.c.inner.vocab.token_bytes(id);
        if bytes.is_empty() {
            return Err(DecodeError::Refused {
                token: Some(id),
                why: "a token with no text".into(),
            });
        }
        let bytes = bytes.to_vec();
        self.commit_inner(&bytes, Some(id))
    }

    /// Commits raw bytes (counted as one step for [`Matcher::rollback`]).
    pub fn commit_bytes(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        if self.ended {
            return Err(DecodeError::Refused {
                token: None,
                why: "the sequence has ended".into(),
            });
        }
        self.commit_inner(bytes, None)
    }

    fn commit_inner(&mut self, bytes: &[u8], id: Option<u32>) -> Result<(), DecodeError> {
        let next = advance(self.g(), &self.configs, bytes);
        if next.is_empty() {
            return Err(DecodeError::Refused {
                token: id,
                why: format!(
                    "{:?} does not continue the text as a valid value",
                    String::from_utf8_lossy(bytes)
                ),
            });
        }
        let prev = std::mem::replace(&mut self.configs, Arc::new(next));
        self.history.push((prev, self.ended));
        Ok(())
    }

    /// Undoes the last `n` commits (at most as many as were made); returns
    /// how many were undone.
    pub fn rollback(&mut self, n: usize) -> usize {
        let n = n.min(self.history.len());
        for _ in 0..n {
            if let Some((c, e)) = self.history.pop() {
                self.configs = c;
                self.ended = e;
            }
        }
        n
    }

    /// How many commits can be rolled back.
    pub fn committed(&self) -> usize {
        self.history.len()
    }

    /// Whether the text so far is a complete valid value (an end of
    /// sequence is allowed now).
    pub fn is_complete(&self) -> bool {
        !self.ended && self.configs.iter().any(|c| can_end(self.g(), c))
    }

    /// Whether an end-of-sequence token was committed.
    pub fn is_ended(&self) -> bool {
        self.ended
    }

    /// The bytes that must come next whatever is chosen (fast-forward):
    /// empty when there is a choice or the text may end here.
    pub fn forced_bytes(&self) -> Vec<u8> {
        let g = self.g();
        let mut out = Vec::new();
        if self.ended {
            return out;
        }
        let mut cur: Vec<Config> = self.configs.to_vec();
        let mut next = Vec::new();
        while out.len() < 4096 {
            if cur.iter().any(|c| can_end(g, c)) {
                break;
            }
            let mut only = None;
            let mut many = false;
            for b in 0..=255u8 {
                next.clear();
                for c in &cur {
                    step(g, c, b, &mut next);
                }
                if !next.is_empty() {
                    if only.is_some() {
                        many = true;
                        break;
                    }
                    only = Some(b);
                }
            }
            match (only, many) {
                (Some(b), false) => {
                    out.push(b);
                    cur = advance(g, &cur, &[b]);
                }
                _ => break,
            }
        }
        out
    }

    /// A shortest-effort completion: bytes that make the text a complete
    /// valid value (empty when it is one). Not always the shortest possible,
    /// always valid.
    pub fn shortest_completion(&self) -> Vec<u8> {
        let g = self.g();
        self.configs
            .iter()
            .filter_map(|c| complete(g, c))
            .min_by_key(Vec::len)
            .unwrap_or_default()
    }
}

/// Sets the logits of tokens not in `mask` to negative infinity.
///
/// # Examples
///
/// ```
/// let mut logits = [0.5f32, 1.0, 2.0];
/// tooljson::decode::apply_mask(&[0b101], &mut logits);
/// assert_eq!(logits, [0.5, f32::NEG_INFINITY, 2.0]);
/// ```
pub fn apply_mask(mask: &[u64], logits: &mut [f32]) {
    for (i, l) in logits.iter_mut().enumerate() {
        if mask.get(i / 64).is_none_or(|w| w >> (i % 64) & 1 == 0) {
            *l = f32::NEG_INFINITY;
        }
    }
}

/// What to write next when completing: a whole text, or one of some bytes.
enum Next {
    Whole(Vec<u8>),
    Try(Vec<u8>),
}

/// The next bytes when completing `c`, best first.
fn preferences(g: &Grammar, c: &Config) -> Next {
    const STR_TAIL: &[u8] = b"n0dc\\u\x80\x90\xa0";
    const DIGITS: &[u8] = b"0123456789";
    let top = *c.frames.last().expect("root");
    let mut p: Vec<u8> = Vec::new();
    match top {
        Frame::Root { .. } => return Next::Whole(g.text(g.root).to_vec()),
        Frame::Lit { shape, lo, pos, .. } => {
            if let Shape::Lits(l) = g.shape(shape) {
                return Next::Whole(l[lo as usize][pos as usize..].to_vec());
            }
        }
        Frame::Str {
            shape,
            chars,
            sx,
            pat,
        } => {
            if let Shape::Str {
                min,
                max,
                pat: Some(p),
            } = g.shape(shape)
            {
                let rest = g.pattern(*p).finish(pat, sx.into(), chars, *min, *max);
                return Next::Whole(rest.unwrap_or_default());
            }
            let min = match g.shape(shape) {
                Shape::Str { min, .. } => *min,
                _ => 0,
            };
            p.extend_from_slice(if chars < min { b"a\"" } else { b"\"a" });
            p.extend_from_slice(STR_TAIL);
        }
        // After `-` a `1` ends soonest (`-0` may need a fraction under a
        // bound below 0); after `-0` or `0` under such a bound only a
        // fraction or an exponent goes on.
        Frame::Num { nx, .. } => match nx {
            Nx::Dot | Nx::Frac => p.extend_from_slice(b"50123456789"),
            Nx::Minus => p.extend_from_slice(b"1234567890"),
            Nx::Zero | Nx::Int => p.extend_from_slice(b"0123456789.e"),
            Nx::E => p.extend_from_slice(b"1-+023456789"),
            Nx::ESign | Nx::Exp => p.extend_from_slice(DIGITS),
        },
        Frame::Obj {
            shape,
            used,
            count,
            ox,
            pending,
        } => {
            let can_close = match g.shape(shape) {
                Shape::Obj(o) => o.required & !used == 0 && count >= o.min,
                _ => true,
            };
            match ox {
                Ox::Key { open: true } if can_close => p.push(b'}'),
                Ox::Key { .. } => p.push(b'"'),
                Ox::After if can_close => p.push(b'}'),
                Ox::After => p.push(b','),
                Ox::Colon => p.push(b':'),
                Ox::Value => return Next::Whole(g.text(pending).to_vec()),
                Ox::Inside => {}
            }
        }
        Frame::Arr { shape, count, ax } => {
            let (min, item) = match g.shape(shape) {
                Shape::Arr(a) => (a.min, a.prefix.get(count as usize).copied().or(a.rest)),
                _ => (0, Some(shape)),
            };
            match ax {
                Ax::Item { open: true } | Ax::After if count >= min => p.push(b']'),
                Ax::After => p.push(b','),
                Ax::Item { .. } => {
                    return Next::Whole(item.map_or(&[][..], |i| g.text(i)).to_vec());
                }
                Ax::Inside => {}
            }
        }
        Frame::Key { lo, hi, pos, .. } => {
            let obj = c.frames.get(c.frames.len().wrapping_sub(2));
            if let Some(&Frame::Obj {
                shape, used, count, ..
            }) = obj
                && let Shape::Obj(o) = g.shape(shape)
            {
                let best = (lo..hi)
                    .map(|i| i as usize)
                    .filter(|&i| super::step::key_ok(g, o, used, count, i))
                    .min_by_key(|&i| (o.required & (1 << i) == 0, o.keys[i].len()));
                if let Some(i) = best {
                    p.extend_from_slice(&o.keys[i][pos as usize..]);
                    p.push(b'"');
                    return Next::Whole(p);
                }
            }
            p.extend_from_slice(b"\"abcdefghijklmnopqrstuvwxyz0123456789");
            p.extend_from_slice(STR_TAIL);
        }
    }
    Next::Try(p)
}

/// A completion of `cfg` (greedy, by the preferences above).
fn complete(g: &Grammar, cfg: &Config) -> Option<Vec<u8>> {
    let mut cur = vec![cfg.clone()];
    let mut out = Vec::new();
    let mut next = Vec::new();
    while out.len() < 1 << 20 {
        if cur.iter().any(|c| can_end(g, c)) {
            return Some(out);
        }
        let mut progressed = false;
        let snapshot = std::mem::take(&mut cur);
        for c in &snapshot {
            // A finished number ends where its parent's byte comes:
            // complete from the parent's state.
            let first = pop_finished_number(g, c);
            match preferences(g, &first) {
                Next::Whole(text) => {
                    let n = advance(g, std::slice::from_ref(&first), &text);
                    if !n.is_empty() && !text.is_empty() {
                        out.extend_from_slice(&text);
                        cur = n;
                        progressed = true;
                    }
                }
                Next::Try(prefs) => {
                    for &b in &prefs {
                        next.clear();
                        step(g, &first, b, &mut next);
                        if !next.is_empty() {
                            out.push(b);
                            cur = std::mem::take(&mut next);
                            progressed = true;
                            break;
                        }
                    }
                }
            }
            if progressed {
                break;
            }
        }
        if !progressed {
            return None;
        }
    }
    None
}

/// `c` with a finished number on top popped (as the next byte would).
fn pop_finished_number(g: &Grammar, c: &Config) -> Config {
    let mut c = c.clone();
    if matches!(c.frames.last(), Some(Frame::Num { .. } | Frame::Lit { .. })) && number_done(g, &c)
    {
        pop_value(&mut c);
    }
    c
}

/// Whether the number on top of `c` may end here.
fn number_done(g: &Grammar, c: &Config) -> bool {
    let mut t = Config::new();
    t.frames.clear();
    t.frames.push(Frame::Root {
        done: false,
        inside: true,
    });
    t.frames.push(*c.frames.last().expect("root"));
    can_end(g, &t)
}

fn pop_value(c: &mut Config) {
    c.frames.pop();
    let n = c.frames.len() - 1;
    match &mut c.frames[n] {
        Frame::Root { done, inside } => {
            *done = true;
            *inside = false;
        }
        Frame::Obj { ox, .. } => *ox = Ox::After,
        Frame::Arr { count, ax, .. } => {
            *count += 1;
            *ax = Ax::After;
        }
        _ => {}
    }
}
