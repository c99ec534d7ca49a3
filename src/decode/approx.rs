//! The approximations a constraint makes when the caller opts in
//! ([`DecodeOptions::approximate`](super::DecodeOptions::approximate)):
//! their public record, and the bookkeeping the grammar builder does to
//! turn a refusal into one. Every approximation only widens what the mask
//! allows.

use std::fmt;

use super::DecodeError;
use crate::schema::decode_view::{Kw, NodeId, Program};

/// A keyword that a [`Constraint`](super::Constraint) does not enforce
/// exactly: the mask allows a superset of what the keyword allows (no
/// valid instance is refused), and the text it lets through may fail
/// [`CompiledSchema::validate`](crate::CompiledSchema::validate).
///
/// Listed by [`Constraint::approximations`](super::Constraint::approximations),
/// once per keyword and place in the schema.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::decode::{Constraint, DecodeOptions, Vocabulary};
/// let vocab = Vocabulary::from_bytes((0..=255u8).map(|b| vec![b]).chain([vec![]]).collect(), vec![256])?;
/// let schema = CompiledSchema::from_json_str(r#"{"type": "array", "uniqueItems": true}"#)?;
/// let opts = DecodeOptions { approximate: true, ..DecodeOptions::default() };
/// let c = Constraint::with_options(&schema, &vocab, &opts)?;
/// let a = &c.approximations()[0];
/// assert_eq!(a.keyword(), "uniqueItems");
/// assert_eq!(a.schema_path(), "/uniqueItems");
/// assert!(c.matcher().commit_bytes(b"[1,1]").is_ok()); // not unique, allowed
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Approximation {
    keyword: String,
    schema_path: String,
    what: String,
}

impl Approximation {
    /// The keyword, e.g. `uniqueItems`.
    pub fn keyword(&self) -> &str {
        &self.keyword
    }

    /// Where it is in the schema.
    pub fn schema_path(&self) -> &str {
        &self.schema_path
    }

    /// What the mask allows instead, and why the keyword is not followed.
    pub fn what(&self) -> &str {
        &self.what
    }
}

impl fmt::Display for Approximation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}: {}", self.keyword, self.schema_path, self.what)
    }
}

/// The approximations of one grammar being built, or none allowed.
#[derive(Debug, Default)]
pub(crate) struct Approximations {
    allowed: bool,
    list: Vec<Approximation>,
}

impl Approximations {
    pub(crate) fn new(allowed: bool) -> Approximations {
        Approximations {
            allowed,
            list: Vec::new(),
        }
    }

    pub(crate) fn allowed(&self) -> bool {
        self.allowed
    }

    /// Records refusal `e` as an approximation that allows `what`
    /// instead; without the opt-in (or for an error that is not a refused
    /// keyword), gives `e` back.
    pub(crate) fn record(&mut self, e: DecodeError, what: &str) -> Result<(), DecodeError> {
        match e {
            DecodeError::Unsupported {
                keyword,
                schema_path,
                why,
            } if self.allowed => {
                let known = self
                    .list
                    .iter()
                    .any(|a| a.keyword == keyword && a.schema_path == schema_path);
                if !known {
                    self.list.push(Approximation {
                        keyword,
                        schema_path,
                        what: format!("{what} ({why})"),
                    });
                }
                Ok(())
            }
            e => Err(e),
        }
    }

    /// A bound `kw` of node `n` that is not an integer within 64 bits:
    /// with approximations allowed, widened outward to an inclusive
    /// integer bound (`None`: dropped, past 2^53, or under a literal where
    /// every keyword is exact); refused otherwise.
    pub(crate) fn inexact_bound(
        &mut self,
        prog: &Program,
        n: NodeId,
        kw: &Kw,
        exact: bool,
    ) -> Result<Option<i128>, DecodeError> {
        let e = unsupported(
            prog,
            n,
            kw.name(),
            "a bound that is not an integer within 64 bits",
        );
        if exact && self.allowed {
            return Ok(None);
        }
        let widened = match kw {
            Kw::Minimum(b) | Kw::ExclusiveMinimum(b) => int_below(&b.lexeme),
            Kw::Maximum(b) | Kw::ExclusiveMaximum(b) => int_above(&b.lexeme),
            _ => None,
        };
        match widened {
            Some(at) => self.record(e, &format!("widened outward to {at}"))?,
            None => self.record(e, "not enforced")?,
        }
        Ok(widened)
    }

    pub(crate) fn into_list(self) -> Box<[Approximation]> {
        self.list.into()
    }
}

/// A refusal of keyword `kw` of node `node`, naming its place.
pub(crate) fn unsupported(prog: &Program, node: NodeId, kw: &str, why: &str) -> DecodeError {
    let loc = prog.loc(prog.node(node));
    DecodeError::Unsupported {
        keyword: kw.to_owned(),
        schema_path: format!("{loc}/{kw}"),
        why: why.to_owned(),
    }
}

/// A lower bound on the integers at or above the number `lexeme`: its
/// floor, or one less where the `f64` reading may have rounded to an
/// integer. `None` past 2^53, where `f64` no longer holds every integer.
fn int_below(lexeme: &str) -> Option<i128> {
    let f: f64 = lexeme.parse().ok()?;
    if f.is_nan() || f.abs() >= 9.0e15 {
        return None;
    }
    // Reading rounds monotonically and every integer here is exact, so a
    // non-integral reading lies between the same integers as the number.
    let k = if f.fract() == 0.0 { f - 1.0 } else { f.floor() };
    Some(k as i128)
}

/// An upper bound on the integers at or below the number `lexeme`; see
/// [`int_below`].
fn int_above(lexeme: &str) -> Option<i128> {
    let f: f64 = lexeme.parse().ok()?;
    if f.is_nan() || f.abs() >= 9.0e15 {
        return None;
    }
    let k = if f.fract() == 0.0 { f + 1.0 } else { f.ceil() };
    Some(k as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widened_bounds_hold_the_number() {
        assert_eq!(int_below("1.5"), Some(1));
        assert_eq!(int_above("1.5"), Some(2));
        assert_eq!(int_below("-1.5"), Some(-2));
        assert_eq!(int_above("-1.5"), Some(-1));
        assert_eq!(int_below("2.00000000000000000001"), Some(1));
        assert_eq!(int_above("1.99999999999999999999"), Some(3));
        assert_eq!(int_below("1e300"), None);
        assert_eq!(int_above("-1e300"), None);
    }
}
