//! What `validate` and `is_valid` remember of shared nodes (`Node::shared`,
//! referred to by two keywords or more). Two keywords can apply one node
//! to the same value, and through a recursive schema at every level of the
//! instance: `{"anyOf": [{"$ref": "#/$defs/t"}, {"$ref": "#/$defs/t"}]}`
//! under `t`'s own properties doubles the work per level. Remembering the
//! verdict of each (shared node, value) pair makes each pair cost one
//! evaluation, so the work is linear in the instance times the schema.
//!
//! A pair is keyed by the value's address (the instance is borrowed for the
//! whole validation, so addresses are stable and distinct; a value made on
//! the way, a property name under `propertyNames`, gets a tree of its own),
//! the dynamic scope (interned) and, in `validate`, the list the violations
//! go to: a second evaluation into the same list adds nothing, so it is
//! skipped; into a list made for the reasons of a failed `anyOf` it is not.
//! A verdict that met the nesting bound (`MAX_DEPTH`) depends on the depth
//! it was reached at, and is remembered with it.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use crate::schema::program::NodeId;

/// One remembered verdict's key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    node: NodeId,
    addr: usize,
    tree: u32,
    scope: u32,
    /// The violation list (`validate`), or [`ANY_SINK`] for the verdict.
    sink: u32,
    /// The depth, for a verdict that met the nesting bound; else [`ANY_DEPTH`].
    depth: u32,
}

const ANY_SINK: u32 = u32::MAX;
const ANY_DEPTH: u32 = u32::MAX;

#[derive(Debug, Default)]
struct Tables {
    verdicts: HashMap<Key, bool>,
    /// Interned dynamic scopes: (enclosing scope, resource) to id.
    scopes: HashMap<(u32, u32), u32>,
}

/// The memory of one validation; nothing is allocated until a shared node
/// is met.
#[derive(Debug, Default)]
pub(crate) struct Memo {
    tables: RefCell<Option<Box<Tables>>>,
    /// Times the nesting bound was met so far.
    cuts: Cell<u32>,
    tree: Cell<u32>,
    sink: Cell<u32>,
    /// The last tree or sink id handed out.
    ids: Cell<u32>,
    /// `anyOf` / `oneOf` reasons being gathered (nested reasons are not).
    pub(crate) reasons: Cell<u32>,
}

/// Where a pair is looked up and remembered: see [`Memo::slot`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Slot {
    key: Key,
    depth: u32,
    cuts: u32,
}

impl Memo {
    /// Notes that the nesting bound was met.
    #[cold]
    pub(crate) fn cut(&self) {
        self.cuts.set(self.cuts.get().wrapping_add(1));
    }

    fn fresh(&self) -> u32 {
        let id = self.ids.get().wrapping_add(1);
        self.ids.set(id);
        id
    }

    /// Runs `f` with violations going to a list of its own.
    pub(crate) fn in_new_sink<R>(&self, f: impl FnOnce() -> R) -> R {
        let old = self.sink.get();
        self.sink.set(self.fresh());
        let r = f();
        self.sink.set(old);
        r
    }

    /// Runs `f` on a value made for it (not part of the instance).
    pub(crate) fn in_new_tree<R>(&self, f: impl FnOnce() -> R) -> R {
        let old = self.tree.get();
        self.tree.set(self.fresh());
        let r = f();
        self.tree.set(old);
        r
    }

    /// The id of the scope `resource` entered within scope `parent`.
    pub(crate) fn scope_id(&self, parent: u32, resource: u32) -> u32 {
        let mut t = self.tables.borrow_mut();
        let t = t.get_or_insert_with(Box::default);
        let next = u32::try_from(t.scopes.len())
            .unwrap_or(u32::MAX)
            .saturating_add(1);
        *t.scopes.entry((parent, resource)).or_insert(next)
    }

    /// The slot of node `node` on the value at `addr`: `sink` says whether
    /// it is `validate`'s (the current violation list) or the verdict's.
    pub(crate) fn slot(
        &self,
        node: NodeId,
        addr: usize,
        scope: u32,
        sink: bool,
        depth: u32,
    ) -> Slot {
        Slot {
            key: Key {
                node,
                addr,
                tree: self.tree.get(),
                scope,
                sink: if sink { self.sink.get() } else { ANY_SINK },
                depth: ANY_DEPTH,
            },
            depth,
            cuts: self.cuts.get(),
        }
    }

    /// What was found in `slot` before, if anything.
    pub(crate) fn recall(&self, slot: &Slot) -> Option<bool> {
        let t = self.tables.borrow();
        let t = t.as_ref()?;
        t.verdicts.get(&slot.key).copied().or_else(|| {
            t.verdicts
                .get(&Key {
                    depth: slot.depth,
                    ..slot.key
                })
                .copied()
        })
    }

    /// Remembers `valid` in `slot` (taken before the evaluation).
    pub(crate) fn remember(&self, slot: &Slot, valid: bool) {
        let key = if self.cuts.get() == slot.cuts {
            slot.key
        } else {
            Key {
                depth: slot.depth,
                ..slot.key
            }
        };
        let mut t = self.tables.borrow_mut();
        t.get_or_insert_with(Box::default)
            .verdicts
            .insert(key, valid);
    }
}
