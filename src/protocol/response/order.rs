//! The member order of the JSON a response was read from, to write it back
//! in the same order for its vendor (the typed model rebuilds objects, which
//! would otherwise put the members it knows after those it keeps verbatim).

use crate::value::{Map, Value};

/// The key order of every object in a value, by position.
#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) enum KeyOrder {
    /// A scalar, or nothing recorded.
    #[default]
    Leaf,
    /// An object's keys in order, each with its value's order.
    Object(Vec<(String, KeyOrder)>),
    /// An array's items' orders.
    Array(Vec<KeyOrder>),
}

impl KeyOrder {
    /// The order of `v`'s objects.
    pub(crate) fn of(v: &Value) -> KeyOrder {
        match v {
            Value::Object(o) => KeyOrder::Object(
                o.iter()
                    .map(|(k, v)| (k.to_owned(), KeyOrder::of(v)))
                    .collect(),
            ),
            Value::Array(a) => KeyOrder::Array(a.iter().map(KeyOrder::of).collect()),
            _ => KeyOrder::Leaf,
        }
    }

    /// A top-level order from member names.
    pub(crate) fn names(names: &[&str]) -> KeyOrder {
        KeyOrder::Object(
            names
                .iter()
                .map(|n| ((*n).to_owned(), KeyOrder::Leaf))
                .collect(),
        )
    }

    /// Puts `v`'s members in this order: the recorded keys first, in their
    /// order, then any others as they stand. Values are not changed.
    pub(crate) fn apply(&self, v: &mut Value) {
        match (self, v) {
            (KeyOrder::Object(keys), Value::Object(o)) => {
                let mut rest = std::mem::take(o);
                let mut out = Map::new();
                for (k, order) in keys {
                    if let Some(mut member) = rest.shift_remove(k) {
                        order.apply(&mut member);
                        out.insert(k.clone(), member);
                    }
                }
                out.extend(rest);
                *o = out;
            }
            (KeyOrder::Array(items), Value::Array(a)) => {
                for (order, item) in items.iter().zip(a.iter_mut()) {
                    order.apply(item);
                }
            }
            _ => {}
        }
    }
}
