//! Validation of a finished value against a compiled [`Program`]: a
//! [`Value`](crate::Value) or a `serde_json::Value`, read through [`Instance`] (the
//! validator is compiled once for each).
//!
//! One function walks node and value together. `ALL = false` answers
//! valid / invalid and stops at the first failure; `ALL = true` collects
//! every violation. The instance path and the `$dynamicRef` scope are linked
//! lists on the stack, so the happy path allocates nothing: a [`Violation`]
//! (with its owned path and message) is built only when something fails.
//! A node that several keywords refer to is evaluated once per value
//! (`memo.rs`). [`Validator::keyword`] hands each keyword to its family's
//! function, one file per family (`types.rs`, `enum_const.rs`, ...,
//! `unevaluated.rs`).

// The keyword families, one file each (the same names in `compile/keywords/`
// and `stream/`).
mod applicators;
mod arrays;
mod enum_const;
mod formats;
mod numbers;
mod objects;
mod strings;
mod types;
mod unevaluated;

mod fanout;
mod memo;
#[cfg(feature = "decode")]
mod nesting;
mod quick;
pub(super) mod unique;

pub(crate) use fanout::check_fanout;
pub(crate) use quick::leaf_verdict;
pub(crate) use types::type_matches;

use super::Violation;
use super::instance::Instance;
use super::program::{Kw, Node, NodeId, Program};
use crate::{Path, Segment};

#[cfg(feature = "decode")]
pub(crate) use nesting::deepest_nesting;

/// Nesting of schema applications (the root, then one level per `$ref`,
/// `allOf` branch, `properties` member, `items` item, ... applied under
/// it) beyond which `validate` and the stream check give up with a
/// violation, "expected schema nesting of at most 512 levels", instead of
/// exhausting the stack. The decoder refuses a schema that could reach
/// past it within its own nesting bound, so that it never writes a text
/// that `validate` refuses for its depth.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::schema::MAX_SCHEMA_NESTING;
/// // The root, then a chain of `$ref`s one past the bound.
/// let n = MAX_SCHEMA_NESTING;
/// let mut defs = serde_json::Map::new();
/// for i in 0..n {
///     defs.insert(format!("d{i}"), serde_json::json!({"$ref": format!("#/$defs/d{}", i + 1)}));
/// }
/// defs.insert(format!("d{n}"), serde_json::json!({"type": "integer"}));
/// let schema = serde_json::json!({"$ref": "#/$defs/d0", "$defs": defs});
/// let s = CompiledSchema::from_json_str(&schema.to_string())?;
/// let errs = s.validate(&tooljson::from_str("1")?).unwrap_err();
/// assert!(errs[0].to_string().contains("at most 512 levels"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const MAX_SCHEMA_NESTING: u32 = 512;

pub(crate) const MAX_DEPTH: u32 = MAX_SCHEMA_NESTING;

/// One step of the instance path, borrowed.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// The instance path as a linked list on the stack.
#[derive(Clone, Copy, Debug)]
pub(crate) struct At<'a> {
    pub(crate) parent: Option<&'a At<'a>>,
    pub(crate) seg: Seg<'a>,
}

impl<'a> At<'a> {
    pub(crate) const ROOT: At<'static> = At {
        parent: None,
        seg: Seg::Root,
    };

    pub(crate) fn key(&'a self, k: &'a str) -> At<'a> {
        At {
            parent: Some(self),
            seg: Seg::Key(k),
        }
    }

    pub(crate) fn index(&'a self, i: usize) -> At<'a> {
        At {
            parent: Some(self),
            seg: Seg::Index(i),
        }
    }

    pub(crate) fn path(&self) -> Path {
        let mut segs = Vec::new();
        let mut cur = Some(self);
        while let Some(a) = cur {
            match a.seg {
                Seg::Root => {}
                Seg::Key(k) => segs.push(Segment::Key(k.to_owned())),
                Seg::Index(i) => segs.push(Segment::Index(i)),
            }
            cur = a.parent;
        }
        segs.reverse();
        Path::from_segments(segs)
    }
}

/// The dynamic scope (resources entered), innermost first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scope<'a> {
    pub(crate) parent: Option<&'a Scope<'a>>,
    pub(crate) resource: u32,
    /// The scope's interned id (see `memo.rs`).
    pub(crate) id: u32,
}

pub(crate) struct Validator<'p> {
    pub(crate) prog: &'p Program,
    memo: memo::Memo,
}

/// The address of `v`, its identity within the instance being validated.
#[inline(always)]
fn addr<V>(v: &V) -> usize {
    std::ptr::from_ref(v).cast::<()>().addr()
}

impl<'p> Validator<'p> {
    pub(crate) fn new(prog: &'p Program) -> Validator<'p> {
        Validator {
            prog,
            memo: memo::Memo::default(),
        }
    }

    fn violation(&self, node: &Node, kw: &str, at: &At<'_>, message: String) -> Violation {
        Violation {
            instance_path: at.path(),
            schema_path: format!("{}/{kw}", self.prog.loc(node)),
            keyword: kw.rsplit('/').next().unwrap_or(kw).to_owned(),
            message,
        }
    }

    /// Checks `v` against node `id`.
    pub(crate) fn check<const ALL: bool>(
        &self,
        id: NodeId,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        if !ALL && !self.prog.has_dynamic {
            return self.valid(id, v, depth);
        }
        super::budget::tally(1);
        if self.prog.node(id).shared {
            return self.check_shared::<ALL>(id, v, at, scope, depth, errs);
        }
        self.check_node::<ALL>(id, v, at, scope, depth, errs)
    }

    /// [`Validator::check`] once the memory of shared nodes is passed.
    fn check_node<const ALL: bool>(
        &self,
        id: NodeId,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let node = self.prog.node(id);
        if depth > MAX_DEPTH {
            self.memo.cut();
            if ALL {
                errs.push(self.violation(
                    node,
                    "$ref",
                    at,
                    format!("expected schema nesting of at most {MAX_DEPTH} levels, found deeper"),
                ));
            }
            return false;
        }
        let inner;
        let scope = if self.prog.has_dynamic
            && node.resource_root
            && scope.is_none_or(|s| s.resource != node.resource)
        {
            inner = Scope {
                parent: scope,
                resource: node.resource,
                id: self.memo.scope_id(scope.map_or(0, |s| s.id), node.resource),
            };
            Some(&inner)
        } else {
            scope
        };
        self.check_keywords::<ALL>(node, v, at, scope, depth, errs)
    }

    /// [`Validator::check`] of a shared node: each (node, value) pair is
    /// evaluated once (see `memo.rs`).
    #[inline(never)]
    fn check_shared<const ALL: bool>(
        &self,
        id: NodeId,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let scope_id = scope.map_or(0, |s| s.id);
        let verdict = self.memo.slot(id, addr(v), scope_id, false, depth);
        match self.memo.recall(&verdict) {
            Some(true) => return true,
            Some(false) if !ALL => return false,
            _ => {}
        }
        let reported = self.memo.slot(id, addr(v), scope_id, true, depth);
        if ALL && self.memo.recall(&reported).is_some() {
            // Its violations are in this list already.
            return false;
        }
        let ok = self.check_node::<ALL>(id, v, at, scope, depth, errs);
        self.memo.remember(&verdict, ok);
        if ALL {
            self.memo.remember(&reported, ok);
        }
        ok
    }

    /// Checks `v` against the keywords of `node`.
    fn check_keywords<const ALL: bool>(
        &self,
        node: &Node,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let mut ok = true;
        for kw in self.prog.kws(node).iter() {
            if !self.keyword::<ALL>(node, kw, v, at, scope, depth, errs) {
                ok = false;
                if !ALL {
                    return false;
                }
            }
        }
        ok
    }

    /// Checks one keyword of `node` against `v`: the keyword's family
    /// decides (one file each under `validate/`, named as in `compile/` and
    /// `stream/`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn keyword<const ALL: bool>(
        &self,
        node: &Node,
        kw: &Kw,
        v: &impl Instance,
        at: &At<'_>,
        scope: Option<&Scope<'_>>,
        depth: u32,
        errs: &mut Vec<Violation>,
    ) -> bool {
        let h = Here {
            node,
            at,
            scope,
            d: depth + 1,
        };
        match kw {
            Kw::False | Kw::Type(_) => self.types::<ALL>(kw, v, &h, errs),
            Kw::Enum(_) | Kw::Const(_) => self.enum_const::<ALL>(kw, v, &h, errs),
            Kw::Minimum(_)
            | Kw::Maximum(_)
            | Kw::ExclusiveMinimum(_)
            | Kw::ExclusiveMaximum(_)
            | Kw::MultipleOf(_) => self.numbers::<ALL>(kw, v, &h, errs),
            Kw::MinLength(_) | Kw::MaxLength(_) | Kw::Pattern(_) => {
                self.strings::<ALL>(kw, v, &h, errs)
            }
            Kw::Format(_) => self.formats::<ALL>(kw, v, &h, errs),
            Kw::Object(_)
            | Kw::Required(_)
            | Kw::MinProperties(_)
            | Kw::MaxProperties(_)
            | Kw::PropertyNames(_)
            | Kw::DependentRequired(_)
            | Kw::DependentSchemas(_) => self.objects::<ALL>(kw, v, &h, errs),
            Kw::Items(_)
            | Kw::MinItems(_)
            | Kw::MaxItems(_)
            | Kw::UniqueItems
            | Kw::Contains { .. } => self.arrays::<ALL>(kw, v, &h, errs),
            Kw::AllOf(_)
            | Kw::AnyOf(_)
            | Kw::OneOf(_)
            | Kw::Not(_)
            | Kw::If { .. }
            | Kw::Ref(_)
            | Kw::DynamicRef(_) => self.applicators::<ALL>(kw, v, &h, errs),
            Kw::UnevaluatedProperties(_) | Kw::UnevaluatedItems(_) => {
                self.unevaluated::<ALL>(kw, v, &h, errs)
            }
        }
    }

    /// A failed keyword: `false`, with its violation (worded by `message`)
    /// recorded when every violation is collected.
    #[inline]
    fn fail<const ALL: bool>(
        &self,
        h: &Here<'_>,
        kw: &str,
        errs: &mut Vec<Violation>,
        message: impl FnOnce() -> String,
    ) -> bool {
        if ALL {
            errs.push(self.violation(h.node, kw, h.at, message()));
        }
        false
    }
}

/// Where a keyword is checked: its node, the instance path, the dynamic
/// scope, and the depth the node's subschemas are checked at (one below
/// the node's own).
#[derive(Clone, Copy)]
struct Here<'h> {
    node: &'h Node,
    at: &'h At<'h>,
    scope: Option<&'h Scope<'h>>,
    d: u32,
}
