//! The members of one vendor's JSON that the common types do not model,
//! kept so that JSON read and written back for the same vendor is
//! unchanged, and reported as a loss when written for another.

use crate::value::{Map, Value};

use super::Vendor;
use super::error::ptr;
use super::loss::{LossEffect, Losses};

/// Members of one vendor's JSON that the common types do not model (`usage`,
/// `cache_control`, Responses `status`, ...). Written back for that vendor
/// only.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Native {
    pub(crate) vendor: Option<Vendor>,
    pub(crate) members: Map,
}

impl Native {
    pub(crate) fn of(vendor: Vendor, members: Map) -> Native {
        Native {
            vendor: Some(vendor),
            members,
        }
    }

    /// Records each member as dropped when writing for another vendor
    /// (`at`: the owner's pointer in the source).
    pub(crate) fn report_dropped(&self, vendor: Vendor, at: &str, losses: &mut Losses) {
        if let Some(from) = self.vendor
            && from != vendor
        {
            // Empty members (`annotations: []`, `refusal: null`) carry nothing.
            let empty = |v: &Value| match v {
                Value::Null => true,
                Value::Array(a) => a.is_empty(),
                // An object of `null` slots (a Gemini or Bedrock member
                // whose typed values are written back in place) carries
                // nothing either.
                Value::Object(o) => o.values().all(Value::is_null),
                _ => false,
            };
            for (key, _) in self.members.iter().filter(|(_, v)| !empty(v)) {
                losses.push(
                    &ptr(at, key),
                    key,
                    LossEffect::Dropped,
                    &format!("{vendor} has no counterpart of this {from} member"),
                );
            }
        }
    }

    /// The members to start from when writing for `vendor`.
    pub(crate) fn start(&self, vendor: Vendor) -> Map {
        if self.vendor == Some(vendor) {
            self.members.clone()
        } else {
            Map::new()
        }
    }
}
