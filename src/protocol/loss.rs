//! What a conversion between vendors could not carry: each [`Loss`] names the
//! part, where it was in the source JSON and why. A conversion returns
//! [`Converted`], which gives its value only through [`Converted::lossless`]
//! (an error when anything was lost) or [`Converted::accept_losses`] (the
//! caller takes the list), so a loss is never silent.

use std::fmt;

/// The reason given when a message, result or request is written for a
/// vendor whose messages this layer does not model.
pub(crate) const UNMODELLED: &str =
    "messages, results and requests are not modelled for this vendor";

/// What happened to a part that could not cross faithfully.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LossEffect {
    /// The part is left out of the output: the target has no place for it
    /// (an image in a Chat `role:"tool"` message, an Anthropic `thinking`
    /// block in an OpenAI request).
    Dropped,
    /// The part is written, but reads back as something else (an explicit
    /// `is_error: false` comes back absent; a successful result whose text
    /// starts with `Error: ` reads back from OpenAI as an error).
    ReadsBackDifferently,
    /// The target requires a member the source does not have (Anthropic
    /// `max_tokens`); it is not invented: set it and convert again.
    MissingRequired,
}

impl LossEffect {
    /// `dropped` or `reads back differently`.
    pub fn as_str(self) -> &'static str {
        match self {
            LossEffect::Dropped => "dropped",
            LossEffect::ReadsBackDifferently => "reads back differently",
            LossEffect::MissingRequired => "missing but required",
        }
    }
}

/// One part a conversion could not carry faithfully.
///
/// # Examples
///
/// ```
/// use tooljson::protocol::{Loss, LossEffect};
/// let loss = Loss::new("/messages/2/content/0/content/1", "image", LossEffect::Dropped,
///                      "OpenAI Chat tool messages take text parts only");
/// assert_eq!(loss.to_string(),
///     "image at /messages/2/content/0/content/1 dropped: OpenAI Chat tool messages take text parts only");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// Where the part is in the source JSON (a JSON Pointer; `""` is the
    /// root). A member the target requires and the source lacks is named
    /// under the target's name for it (`/max_tokens`).
    pub at: String,
    /// What the part is (`image`, `is_error`, `thinking`, `cache_control`...).
    pub part: String,
    /// What happened to it.
    pub effect: LossEffect,
    /// Why, in the target's terms.
    pub why: String,
}

impl Loss {
    /// A loss from its parts.
    pub fn new(
        at: impl Into<String>,
        part: impl Into<String>,
        effect: LossEffect,
        why: impl Into<String>,
    ) -> Loss {
        Loss {
            at: at.into(),
            part: part.into(),
            effect,
            why: why.into(),
        }
    }
}

impl Loss {
    /// A part left out of the output.
    pub(crate) fn dropped(
        at: impl Into<String>,
        part: impl Into<String>,
        why: impl Into<String>,
    ) -> Loss {
        Loss::new(at, part, LossEffect::Dropped, why)
    }

    /// A part written so that it reads back as something else.
    pub(crate) fn changed(
        at: impl Into<String>,
        part: impl Into<String>,
        why: impl Into<String>,
    ) -> Loss {
        Loss::new(at, part, LossEffect::ReadsBackDifferently, why)
    }
}

impl fmt::Display for Loss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.at.is_empty() { "/" } else { &self.at };
        write!(
            f,
            "{} at {} {}: {}",
            self.part,
            at,
            self.effect.as_str(),
            self.why
        )
    }
}

/// The error of [`Converted::lossless`]: every part that could not cross.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LossReport(pub Vec<Loss>);

impl fmt::Display for LossReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the conversion loses {} part(s)", self.0.len())?;
        for (i, loss) in self.0.iter().enumerate() {
            write!(f, "{} {loss}", if i == 0 { ":" } else { ";" })?;
        }
        Ok(())
    }
}

impl std::error::Error for LossReport {}

/// The output of a conversion and the parts it could not carry.
///
/// The value is reached only by saying what to do about losses:
/// [`lossless`](Self::lossless) refuses any, [`accept_losses`](Self::accept_losses)
/// hands them over with the value.
///
/// # Examples
///
/// ```
/// use tooljson::json;
/// use tooljson::protocol::{ToolResult, Vendor};
///
/// let result = ToolResult::from_vendor(Vendor::Anthropic, &json!({
///     "type": "tool_result", "tool_use_id": "toolu_1",
///     "content": [{"type": "text", "text": "the chart:"},
///                 {"type": "image", "source": {"type": "url", "url": "https://example.com/c.png"}}]
/// }))?;
/// let chat = result.convert(Vendor::OpenAiChat);
/// assert!(!chat.is_lossless());
/// assert_eq!(chat.losses()[0].part, "image");
/// assert!(chat.clone().lossless().is_err());
/// let (message, losses) = chat.accept_losses();
/// assert_eq!(message, json!({"role": "tool", "tool_call_id": "toolu_1",
///                            "content": [{"type": "text", "text": "the chart:"}]}));
/// assert_eq!(losses.len(), 1);
/// # Ok::<(), tooljson::protocol::ProtocolError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[must_use = "a conversion may have lost parts: call lossless() or accept_losses()"]
pub struct Converted<T> {
    value: T,
    losses: Vec<Loss>,
}

impl<T> Converted<T> {
    pub(crate) fn new(value: T, losses: Vec<Loss>) -> Converted<T> {
        Converted { value, losses }
    }

    /// Whether every part crossed faithfully.
    pub fn is_lossless(&self) -> bool {
        self.losses.is_empty()
    }

    /// The parts that could not cross, in source order.
    pub fn losses(&self) -> &[Loss] {
        &self.losses
    }

    /// The value, or every loss as an error.
    pub fn lossless(self) -> Result<T, LossReport> {
        if self.losses.is_empty() {
            Ok(self.value)
        } else {
            Err(LossReport(self.losses))
        }
    }

    /// The value and the losses the caller takes on.
    pub fn accept_losses(self) -> (T, Vec<Loss>) {
        (self.value, self.losses)
    }

    /// Applies `f` to the value, keeping the losses.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Converted<U> {
        Converted {
            value: f(self.value),
            losses: self.losses,
        }
    }
}

/// Collects losses while a conversion writes its output.
#[derive(Debug, Default)]
pub(crate) struct Losses(pub(crate) Vec<Loss>);

impl Losses {
    pub(crate) fn push(&mut self, at: &str, part: &str, effect: LossEffect, why: &str) {
        self.0.push(Loss::new(at, part, effect, why));
    }

    /// Takes the losses of a nested conversion, their pointers put under
    /// `prefix`.
    pub(crate) fn absorb<T>(&mut self, c: Converted<T>, prefix: &str) -> T {
        let (value, losses) = c.accept_losses();
        for mut l in losses {
            l.at.insert_str(0, prefix);
            self.0.push(l);
        }
        value
    }

    /// Takes the losses of a nested conversion, each pointer mapped by
    /// `place` (to where the part stood in a larger document).
    pub(crate) fn absorb_with<T>(&mut self, c: Converted<T>, place: impl Fn(&str) -> String) -> T {
        let (value, losses) = c.accept_losses();
        for mut l in losses {
            l.at = place(&l.at);
            self.0.push(l);
        }
        value
    }

    pub(crate) fn finish<T>(self, value: T) -> Converted<T> {
        Converted::new(value, self.0)
    }
}
