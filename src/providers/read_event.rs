//! Reading one provider event: which provider sent it, its JSON decoded
//! into an adapter's flat type (unknown events skipped, unreadable ones
//! reported), and the lenient string members providers sometimes fill with
//! other types.

use std::fmt;

use super::{Calls, Vendor};

impl Vendor {
    /// Guesses the vendor from one event (its SSE event name, if any, and its
    /// data). `None` when the event says nothing (`[DONE]`, not JSON, or an
    /// unknown shape).
    ///
    /// ```
    /// use tooljson::providers::Vendor;
    /// assert_eq!(Vendor::detect(None, r#"{"type":"message_start","message":{}}"#), Some(Vendor::Anthropic));
    /// assert_eq!(Vendor::detect(None, r#"{"object":"chat.completion.chunk","choices":[]}"#), Some(Vendor::OpenAiChat));
    /// assert_eq!(Vendor::detect(Some("response.created"), r#"{"type":"response.created"}"#), Some(Vendor::OpenAiResponses));
    /// assert_eq!(Vendor::detect(None, "[DONE]"), None);
    /// ```
    pub fn detect(event: Option<&str>, data: &str) -> Option<Vendor> {
        #[derive(serde::Deserialize)]
        struct Probe {
            #[serde(rename = "type")]
            kind: Option<String>,
            object: Option<String>,
            choices: Option<serde::de::IgnoredAny>,
            sequence_number: Option<serde::de::IgnoredAny>,
            code: Option<serde::de::IgnoredAny>,
            error: Option<serde::de::IgnoredAny>,
        }
        let probe: Probe = serde_json::from_str(data).ok()?;
        let kind = probe.kind.as_deref().or(event);
        match kind {
            Some(t) if t.starts_with("response.") => return Some(Vendor::OpenAiResponses),
            Some(
                "message_start"
                | "message_delta"
                | "message_stop"
                | "content_block_start"
                | "content_block_delta"
                | "content_block_stop"
                | "ping",
            ) => return Some(Vendor::Anthropic),
            Some("error") => {
                // Responses errors carry a sequence number or flat fields;
                // Anthropic's are `{"type":"error","error":{...}}` alone.
                return Some(if probe.sequence_number.is_some() || probe.code.is_some() {
                    Vendor::OpenAiResponses
                } else {
                    Vendor::Anthropic
                });
            }
            _ => {}
        }
        if probe.object.as_deref() == Some("chat.completion.chunk")
            || probe.choices.is_some()
            || (probe.kind.is_none() && probe.error.is_some())
        {
            return Some(Vendor::OpenAiChat);
        }
        None
    }
}

/// The first 80 characters of an event's data, for messages.
pub(crate) fn excerpt(data: &str) -> String {
    let mut end = data.len().min(80);
    while !data.is_char_boundary(end) {
        end -= 1;
    }
    if end < data.len() {
        format!("{}…", &data[..end])
    } else {
        data.to_owned()
    }
}

/// A vendor event decoded flat: its `type` member, if it had one.
pub(crate) trait Typed {
    fn kind(&self) -> Option<&str>;
}

/// Reads one event's JSON as `T`, or says to skip it. The type is
/// `data.type`, else the SSE event name (the fallback the spec asks for). An
/// event whose type is not in `handled` is skipped whatever its shape (unknown
/// events are ignored); a handled one that cannot be read, or one with no
/// type at all, is reported as malformed and skipped.
pub(crate) fn read_event<'a, T: serde::Deserialize<'a> + Typed>(
    calls: &mut Calls,
    event: Option<&str>,
    data: &'a str,
    handled: &[&str],
) -> Option<T> {
    #[derive(serde::Deserialize)]
    struct Probe<'b> {
        #[serde(rename = "type", borrow, default)]
        kind: Option<std::borrow::Cow<'b, str>>,
    }
    let error = match serde_json::from_str::<T>(data) {
        Ok(v) => match v.kind().or(event) {
            Some(k) if handled.contains(&k) => return Some(v),
            Some(_) => return None,
            None => format!("an event with no type: {}", excerpt(data)),
        },
        Err(e) => {
            if let Ok(p) = serde_json::from_str::<Probe<'_>>(data)
                && let Some(k) = p.kind.as_deref().or(event)
                && !handled.contains(&k)
            {
                return None;
            }
            format!("{e}: {}", excerpt(data))
        }
    };
    calls.malformed(error);
    None
}

/// Reads a member as a string if it is one, else `None` (a `null` or a
/// number where a provider might put either), without building a value for
/// what it skips.
pub(crate) fn lenient_string<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<String>, D::Error> {
    use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
    struct Lenient;
    impl<'de> Visitor<'de> for Lenient {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_owned()))
        }
        fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(None)
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
            Ok(None)
        }
    }
    d.deserialize_any(Lenient)
}
