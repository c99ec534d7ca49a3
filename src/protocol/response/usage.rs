//! Token counts ([`Usage`]) in each vendor's spelling, and the `usage`
//! object of a whole response written for another vendor. Anthropic's
//! `input_tokens` leaves out cached input; OpenAI's `prompt_tokens` /
//! `input_tokens` include it: converting adds or subtracts the cache counts,
//! so the total input means the same on both sides.

use crate::value::{Map, Value};

use super::super::Vendor;
use super::super::error::ptr;
use super::super::loss::{LossEffect, Losses};

/// Token counts, as the provider reports them (each `None` when not given):
/// one struct for every provider, each count read from that provider's
/// spelling.
///
/// | field | Anthropic | OpenAI Chat | Responses | Gemini | Bedrock |
/// |---|---|---|---|---|---|
/// | `input_tokens` | `input_tokens` (cache reads and writes not included) | `prompt_tokens` (cached included) | `input_tokens` (cached included) | `promptTokenCount` | `inputTokens` |
/// | `output_tokens` | `output_tokens` (thinking included) | `completion_tokens` (reasoning included) | `output_tokens` (reasoning included) | `candidatesTokenCount` (thoughts not included) | `outputTokens` |
/// | `reasoning_tokens` | not reported apart | `completion_tokens_details.reasoning_tokens` | `output_tokens_details.reasoning_tokens` | `thoughtsTokenCount` | not reported apart |
/// | `cache_creation_input_tokens` | `cache_creation_input_tokens` | not reported | not reported | not reported | `cacheWriteInputTokens` |
/// | `cache_read_input_tokens` | `cache_read_input_tokens` | `prompt_tokens_details.cached_tokens` | `input_tokens_details.cached_tokens` | `cachedContentTokenCount` | `cacheReadInputTokens` |
///
/// # Examples
///
/// ```
/// # #[cfg(feature = "providers")] {
/// use tooljson::providers::ToolCallStream;
/// let mut s = ToolCallStream::new();
/// s.feed(b"data: {\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":90,\"completion_tokens_details\":{\"reasoning_tokens\":64},\"prompt_tokens_details\":{\"cached_tokens\":16}}}\n\n")?;
/// let u = s.usage().unwrap();
/// assert_eq!((u.input_tokens, u.output_tokens, u.reasoning_tokens), (Some(20), Some(90), Some(64)));
/// assert_eq!((u.cache_read_input_tokens, u.cache_creation_input_tokens), (Some(16), None));
/// # }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Usage {
    /// Input (prompt) tokens.
    pub input_tokens: Option<u64>,
    /// Output (completion) tokens.
    pub output_tokens: Option<u64>,
    /// Output tokens spent on reasoning or thinking, where the provider
    /// counts them apart (OpenAI, Gemini).
    pub reasoning_tokens: Option<u64>,
    /// Input tokens written to the prompt cache (Anthropic, Bedrock).
    pub cache_creation_input_tokens: Option<u64>,
    /// Input tokens read from the prompt cache.
    pub cache_read_input_tokens: Option<u64>,
}

/// A usage object as an event decoded it (`serde_json::Value`) or as the
/// protocol holds it ([`Value`]).
pub(crate) trait UsageJson {
    fn as_value(&self) -> std::borrow::Cow<'_, Value>;
}

impl UsageJson for Value {
    fn as_value(&self) -> std::borrow::Cow<'_, Value> {
        std::borrow::Cow::Borrowed(self)
    }
}

impl UsageJson for serde_json::Value {
    fn as_value(&self) -> std::borrow::Cow<'_, Value> {
        std::borrow::Cow::Owned(Value::from(self))
    }
}

impl Usage {
    /// Reads a provider's `usage` object; `None` when it is not an object.
    /// Takes the event's `serde_json::Value` as it was decoded, or a
    /// [`Value`] (token counts are integers: no lexeme to keep).
    pub(crate) fn from_json<V: UsageJson + ?Sized>(v: &V) -> Option<Usage> {
        let v = v.as_value();
        let o = v.as_object()?;
        let n = |k: &str| o.get(k).and_then(Value::as_u64);
        let nested = |k: &str, m: &str| o.get(k).and_then(|d| d.get(m)).and_then(Value::as_u64);
        Some(Usage {
            input_tokens: n("input_tokens")
                .or_else(|| n("prompt_tokens"))
                .or_else(|| n("promptTokenCount"))
                .or_else(|| n("inputTokens")),
            output_tokens: n("output_tokens")
                .or_else(|| n("completion_tokens"))
                .or_else(|| n("candidatesTokenCount"))
                .or_else(|| n("outputTokens")),
            // The vendors' spellings, then `to_json`'s own.
            reasoning_tokens: nested("completion_tokens_details", "reasoning_tokens")
                .or_else(|| nested("output_tokens_details", "reasoning_tokens"))
                .or_else(|| n("thoughtsTokenCount"))
                .or_else(|| n("reasoning_tokens")),
            cache_creation_input_tokens: n("cache_creation_input_tokens")
                .or_else(|| n("cacheWriteInputTokens")),
            cache_read_input_tokens: n("cache_read_input_tokens")
                .or_else(|| nested("prompt_tokens_details", "cached_tokens"))
                .or_else(|| nested("input_tokens_details", "cached_tokens"))
                .or_else(|| n("cachedContentTokenCount"))
                .or_else(|| n("cacheReadInputTokens")),
        })
    }

    /// The counts as a JSON object (absent counts left out).
    pub fn to_json(&self) -> Value {
        let mut o = Map::new();
        for (k, v) in [
            ("input_tokens", self.input_tokens),
            ("output_tokens", self.output_tokens),
            ("reasoning_tokens", self.reasoning_tokens),
            (
                "cache_creation_input_tokens",
                self.cache_creation_input_tokens,
            ),
            ("cache_read_input_tokens", self.cache_read_input_tokens),
        ] {
            if let Some(v) = v {
                o.insert(k.into(), v.into());
            }
        }
        Value::Object(o)
    }
}

/// The counts a conversion carries, whatever the source's spelling.
#[derive(Default)]
struct Counts {
    /// All input tokens, cached ones included (OpenAI's meaning).
    input: Option<u64>,
    cache_read: Option<u64>,
    cache_write: Option<u64>,
    output: Option<u64>,
    reasoning: Option<u64>,
    total: Option<u64>,
}

fn num(o: &Map, k: &str) -> Option<u64> {
    o.get(k).and_then(Value::as_u64)
}

fn nested(o: &Map, k: &str, m: &str) -> Option<u64> {
    o.get(k).and_then(|d| d.get(m)).and_then(Value::as_u64)
}

/// What a member carries: a count of zero, `null`, `[]` and `{}` carry nothing.
fn carries(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::Array(a) => !a.is_empty(),
        Value::Object(o) => o.values().any(carries),
        _ => true,
    }
}

/// Reads the counts of `o` in `from`'s spelling; the members and
/// `(object, member)` pairs read are listed in `read`.
fn counts(from: Vendor, o: &Map) -> (Counts, &'static [(&'static str, &'static str)]) {
    match from {
        Vendor::Anthropic => {
            let cache_read = num(o, "cache_read_input_tokens");
            let cache_write = num(o, "cache_creation_input_tokens");
            let input = num(o, "input_tokens").map(|n| {
                n.saturating_add(cache_read.unwrap_or(0))
                    .saturating_add(cache_write.unwrap_or(0))
            });
            (
                Counts {
                    input,
                    cache_read,
                    cache_write,
                    output: num(o, "output_tokens"),
                    reasoning: None,
                    total: None,
                },
                &[
                    ("input_tokens", ""),
                    ("cache_read_input_tokens", ""),
                    ("cache_creation_input_tokens", ""),
                    ("output_tokens", ""),
                ],
            )
        }
        // Gemini counts thinking apart from the candidates; OpenAI's output
        // includes it.
        Vendor::Gemini => {
            let thoughts = num(o, "thoughtsTokenCount");
            let output = match (num(o, "candidatesTokenCount"), thoughts) {
                (None, None) => None,
                (c, t) => Some(c.unwrap_or(0).saturating_add(t.unwrap_or(0))),
            };
            (
                Counts {
                    input: num(o, "promptTokenCount"),
                    cache_read: num(o, "cachedContentTokenCount"),
                    cache_write: None,
                    output,
                    reasoning: thoughts,
                    total: num(o, "totalTokenCount"),
                },
                &[
                    ("promptTokenCount", ""),
                    ("candidatesTokenCount", ""),
                    ("totalTokenCount", ""),
                    ("cachedContentTokenCount", ""),
                    ("thoughtsTokenCount", ""),
                ],
            )
        }
        // Bedrock's inputTokens leave out the cache reads and writes.
        Vendor::Bedrock => {
            let cache_read = num(o, "cacheReadInputTokens");
            let cache_write = num(o, "cacheWriteInputTokens");
            let input = num(o, "inputTokens").map(|n| {
                n.saturating_add(cache_read.unwrap_or(0))
                    .saturating_add(cache_write.unwrap_or(0))
            });
            (
                Counts {
                    input,
                    cache_read,
                    cache_write,
                    output: num(o, "outputTokens"),
                    reasoning: None,
                    total: num(o, "totalTokens"),
                },
                &[
                    ("inputTokens", ""),
                    ("outputTokens", ""),
                    ("totalTokens", ""),
                    ("cacheReadInputTokens", ""),
                    ("cacheWriteInputTokens", ""),
                ],
            )
        }
        Vendor::OpenAiChat => (
            Counts {
                input: num(o, "prompt_tokens"),
                cache_read: nested(o, "prompt_tokens_details", "cached_tokens"),
                cache_write: None,
                output: num(o, "completion_tokens"),
                reasoning: nested(o, "completion_tokens_details", "reasoning_tokens"),
                total: num(o, "total_tokens"),
            },
            &[
                ("prompt_tokens", ""),
                ("completion_tokens", ""),
                ("total_tokens", ""),
                ("prompt_tokens_details", "cached_tokens"),
                ("completion_tokens_details", "reasoning_tokens"),
            ],
        ),
        _ => (
            Counts {
                input: num(o, "input_tokens"),
                cache_read: nested(o, "input_tokens_details", "cached_tokens"),
                cache_write: None,
                output: num(o, "output_tokens"),
                reasoning: nested(o, "output_tokens_details", "reasoning_tokens"),
                total: num(o, "total_tokens"),
            },
            &[
                ("input_tokens", ""),
                ("output_tokens", ""),
                ("total_tokens", ""),
                ("input_tokens_details", "cached_tokens"),
                ("output_tokens_details", "reasoning_tokens"),
            ],
        ),
    }
}

fn details(key: &str, n: Option<u64>) -> Option<Value> {
    n.map(|n| {
        let mut d = Map::new();
        d.insert(key.into(), n.into());
        Value::Object(d)
    })
}

/// `usage` (in `from`'s spelling, at `at` in the source) written for `to`;
/// counts `to` has no member for, and members this layer does not know, are
/// losses when they carry anything.
pub(crate) fn convert_usage(
    from: Vendor,
    usage: &Value,
    to: Vendor,
    at: &str,
    losses: &mut Losses,
) -> Value {
    let Some(o) = usage.as_object() else {
        if carries(usage) {
            losses.push(at, "usage", LossEffect::Dropped, "not an object");
        }
        return Value::Null;
    };
    let (c, read) = counts(from, o);
    report_unread(o, read, (from, to), at, losses);
    let out = match to {
        Vendor::Anthropic => anthropic_usage(&c, from, at, losses),
        Vendor::OpenAiChat | Vendor::OpenAiResponses => openai_usage(&c, to, at, losses),
        Vendor::Gemini => gemini_usage(&c, at, losses),
        Vendor::Bedrock => bedrock_usage(&c, at, losses),
    };
    Value::Object(out)
}

/// Members (and detail members) not read are the source's own: each that
/// carries a count is a loss.
fn report_unread(
    o: &Map,
    read: &[(&str, &str)],
    (from, to): (Vendor, Vendor),
    at: &str,
    losses: &mut Losses,
) {
    for (k, v) in o {
        let subs: Vec<&str> = read
            .iter()
            .filter(|(m, _)| *m == k)
            .map(|(_, s)| *s)
            .collect();
        if subs.contains(&"") {
            continue;
        }
        match v {
            Value::Object(d) if !subs.is_empty() => {
                for (dk, dv) in d {
                    if !subs.contains(&dk) && carries(dv) {
                        losses.push(
                            &ptr(&ptr(at, k), dk),
                            dk,
                            LossEffect::Dropped,
                            &format!("{to} reports no such count"),
                        );
                    }
                }
            }
            _ if carries(v) => losses.push(
                &ptr(at, k),
                k,
                LossEffect::Dropped,
                &format!("{to} has no counterpart of this {from} usage member"),
            ),
            _ => {}
        }
    }
}

/// Inserts count `n` under `k`, if there is one.
fn put(out: &mut Map, k: &str, n: Option<u64>) {
    if let Some(n) = n {
        out.insert(k.into(), n.into());
    }
}

/// Input plus output when both are known, else the total given.
fn sum_or_total(c: &Counts) -> Option<u64> {
    match (c.input, c.output) {
        (Some(i), Some(o)) => Some(i.saturating_add(o)),
        _ => c.total,
    }
}

/// The input tokens not read from or written to the cache (Anthropic's and
/// Bedrock's meaning of input).
fn uncached_input(c: &Counts) -> Option<u64> {
    c.input.map(|n| {
        n.saturating_sub(c.cache_read.unwrap_or(0))
            .saturating_sub(c.cache_write.unwrap_or(0))
    })
}

/// Anthropic `usage`: input without the cached tokens; reasoning has no
/// member of its own.
fn anthropic_usage(c: &Counts, from: Vendor, at: &str, losses: &mut Losses) -> Map {
    if c.reasoning.is_some_and(|n| n > 0) {
        let key = if from == Vendor::OpenAiChat {
            "completion_tokens_details"
        } else {
            "output_tokens_details"
        };
        losses.push(
            &ptr(&ptr(at, key), "reasoning_tokens"),
            "reasoning_tokens",
            LossEffect::Dropped,
            "Anthropic counts reasoning in output_tokens without a breakdown",
        );
    }
    let mut out = Map::new();
    put(&mut out, "input_tokens", uncached_input(c));
    put(&mut out, "cache_creation_input_tokens", c.cache_write);
    put(&mut out, "cache_read_input_tokens", c.cache_read);
    put(&mut out, "output_tokens", c.output);
    out
}

/// Chat or Responses `usage`, each with its member names and order; cache
/// writes have no member.
fn openai_usage(c: &Counts, to: Vendor, at: &str, losses: &mut Losses) -> Map {
    if c.cache_write.is_some_and(|n| n > 0) {
        losses.push(
            &ptr(at, "cache_creation_input_tokens"),
            "cache_creation_input_tokens",
            LossEffect::Dropped,
            "counted in the input tokens: OpenAI reports no prompt-cache writes",
        );
    }
    let total = sum_or_total(c);
    if let (Some(given), Some(sum)) = (c.total, total)
        && given != sum
    {
        losses.push(
            &ptr(at, "total_tokens"),
            "total_tokens",
            LossEffect::ReadsBackDifferently,
            "written as the sum of the input and output tokens",
        );
    }
    let (i, o, idet, odet) = if to == Vendor::OpenAiChat {
        (
            "prompt_tokens",
            "completion_tokens",
            "prompt_tokens_details",
            "completion_tokens_details",
        )
    } else {
        (
            "input_tokens",
            "output_tokens",
            "input_tokens_details",
            "output_tokens_details",
        )
    };
    let mut out = Map::new();
    put(&mut out, i, c.input);
    if to == Vendor::OpenAiResponses
        && let Some(d) = details("cached_tokens", c.cache_read)
    {
        out.insert(idet.into(), d);
    }
    put(&mut out, o, c.output);
    if to == Vendor::OpenAiResponses
        && let Some(d) = details("reasoning_tokens", c.reasoning)
    {
        out.insert(odet.into(), d);
    }
    put(&mut out, "total_tokens", total);
    if to == Vendor::OpenAiChat {
        if let Some(d) = details("cached_tokens", c.cache_read) {
            out.insert(idet.into(), d);
        }
        if let Some(d) = details("reasoning_tokens", c.reasoning) {
            out.insert(odet.into(), d);
        }
    }
    out
}

/// Gemini `usageMetadata`: candidates without the thoughts; cache writes
/// have no member.
fn gemini_usage(c: &Counts, at: &str, losses: &mut Losses) -> Map {
    if c.cache_write.is_some_and(|n| n > 0) {
        losses.push(
            &ptr(at, "cacheWriteInputTokens"),
            "cache writes",
            LossEffect::Dropped,
            "counted in the input tokens: Gemini reports no prompt-cache writes",
        );
    }
    let reasoning = c.reasoning.filter(|n| *n > 0);
    let mut out = Map::new();
    put(&mut out, "promptTokenCount", c.input);
    put(
        &mut out,
        "candidatesTokenCount",
        c.output.map(|n| n.saturating_sub(reasoning.unwrap_or(0))),
    );
    put(&mut out, "totalTokenCount", sum_or_total(c));
    put(
        &mut out,
        "cachedContentTokenCount",
        c.cache_read.filter(|n| *n > 0),
    );
    put(&mut out, "thoughtsTokenCount", reasoning);
    out
}

/// Bedrock `usage`: input without the cached tokens; reasoning has no
/// member of its own.
fn bedrock_usage(c: &Counts, at: &str, losses: &mut Losses) -> Map {
    if c.reasoning.is_some_and(|n| n > 0) {
        losses.push(
            at,
            "reasoning tokens",
            LossEffect::Dropped,
            "Bedrock counts reasoning in outputTokens without a breakdown",
        );
    }
    let mut out = Map::new();
    put(&mut out, "inputTokens", uncached_input(c));
    put(&mut out, "outputTokens", c.output);
    put(&mut out, "totalTokens", sum_or_total(c));
    put(
        &mut out,
        "cacheReadInputTokens",
        c.cache_read.filter(|n| *n > 0),
    );
    put(
        &mut out,
        "cacheWriteInputTokens",
        c.cache_write.filter(|n| *n > 0),
    );
    out
}
