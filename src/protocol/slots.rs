//! Kept members in the order read. The Gemini and Bedrock readers keep a
//! part's or a body's members as read, the typed ones standing as `null`
//! slots that the writers fill back in place, so a body written for its own
//! vendor has its members in the same order. A slot carries nothing: it is
//! never reported as a loss.

use crate::value::{Map, Value};

use super::Vendor;

/// The members of `o` with each of `slots` present standing as `null`.
pub(crate) fn slotted(o: &Map, slots: &[&str]) -> Map {
    o.iter()
        .map(|(k, v)| {
            if slots.contains(&k) {
                (k.to_owned(), Value::Null)
            } else {
                (k.to_owned(), v.clone())
            }
        })
        .collect()
}

/// The marker, among a Gemini call's or response's kept members, of an id
/// the source did not give (the Gemini API gives none unless asked): the
/// layer names the call so that the vendors that match results by id can
/// carry it, and writes it back for Gemini without it. No JSON member name
/// Gemini has.
pub(crate) const IDLESS: &str = " idless";

/// `{IDLESS: true}`.
#[cfg(feature = "providers")]
pub(crate) fn idless() -> Value {
    let mut m = Map::new();
    m.insert(IDLESS.into(), Value::Bool(true));
    Value::Object(m)
}

/// Whether kept `members` of `vendor` mark an id the source did not give;
/// `key` is `functionCall` or `functionResponse`.
pub(crate) fn is_idless(vendor: Option<Vendor>, members: &Map, key: &str) -> bool {
    vendor == Some(Vendor::Gemini) && members.get(key).and_then(|f| f.get(IDLESS)).is_some()
}
