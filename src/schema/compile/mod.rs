//! The compiler: schema documents in, a [`Program`] out.
//!
//! A subschema is compiled into a node, its keywords read one family at a
//! time (`keywords`), each `$ref` resolved to a node (`resolve`: memoised
//! by the target's address, which is what makes recursive schemas finite).
//! Documents are indexed for `$id` and anchors only when a reference needs
//! them. A last pass refuses `$ref` cycles that never step into the
//! instance (they would loop forever) and computes, per node, the set of
//! JSON types an instance can have and still be valid (the stream check
//! uses it to fail a value at its first byte), its leaf summary and what a
//! string under it needs.

mod keywords;
mod meta;
mod resolve;
mod uri;

use std::collections::HashMap;
use std::rc::Rc;

use smallvec::SmallVec;

use super::doc::{Arr, Doc, Obj};
use super::number::SchemaNumber;
use super::pattern::{Pattern, PatternBudget};
use super::program::{
    Kw, KwRange, Leaf, Node, NodeId, Program, Span, applied_nodes, in_place_children, string_needs,
};
use super::types::{T_ALL, value_type};
use super::{Draft, SchemaError};
use crate::Value;
use keywords::{KwAt, NodeParts};

/// A node's keywords while it compiles.
type Kws = SmallVec<[Kw; 8]>;

#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) draft: Draft,
    pub(crate) strict: bool,
    pub(crate) assert_formats: bool,
    /// See [`super::SchemaBuilder::max_pattern_memory`].
    pub(crate) max_pattern_memory: u64,
    /// See [`super::SchemaBuilder::max_pattern_backtracks`].
    pub(crate) max_pattern_backtracks: usize,
}

const ROOT_URI: &str = "tooljson:///root.json";

#[derive(Clone)]
struct Base {
    uri: Rc<str>,
    draft: Draft,
}

/// A schema location to compile: the value and the base it lives under.
struct Place<'a> {
    value: Doc<'a>,
    /// Shared: it changes only at a `$id`, and every subschema has one.
    base: Rc<str>,
    draft: Draft,
    loc: Span,
}

struct Compiler<'a> {
    /// The text every [`Span`] points into.
    locs: String,
    /// The keywords every [`KwRange`] points into.
    kws: Vec<Kw>,
    opts: &'a Options,
    /// Documents: (retrieval URI, root, indexed yet).
    docs: Vec<(String, Doc<'a>, bool)>,
    ids: HashMap<String, Doc<'a>>,
    anchors: HashMap<String, Doc<'a>>,
    /// "uri#name" of each `$dynamicAnchor`, and per name the list of those.
    dyn_anchors: HashMap<String, Vec<(String, Doc<'a>)>>,
    bases: HashMap<usize, Base>,
    memo: HashMap<usize, NodeId>,
    /// `$ref` targets allocated but not compiled yet: compiled from this
    /// worklist, not by recursion, so a chain of thousands of references
    /// does not grow the stack.
    pending: Vec<(NodeId, Place<'a>)>,
    nodes: Vec<Option<Node>>,
    resources: HashMap<String, u32>,
    /// The last base looked up in `resources` and its index: nearly every
    /// subschema has its parent's base, which is then not hashed again.
    last_resource: Option<(Rc<str>, u32)>,
    ignored: Vec<String>,
    /// `format` values left annotations, by their subschema's path.
    format_notes: Vec<(Span, Box<str>)>,
    has_dynamic: bool,
    metas_loaded: bool,
    /// What the schema's patterns may still take.
    pattern_budget: PatternBudget,
}

fn draft_of(schema_uri: &str) -> Option<Draft> {
    if schema_uri.contains("draft-07")
        || schema_uri.contains("draft-06")
        || schema_uri.contains("draft-04")
    {
        Some(Draft::Draft7)
    } else if schema_uri.contains("2020-12") || schema_uri.contains("2019-09") {
        Some(Draft::Draft202012)
    } else {
        None
    }
}

/// `loc/key`, the key escaped as a JSON Pointer token, in one allocation.
fn child_loc(loc: &str, key: &str) -> String {
    let mut out = String::with_capacity(loc.len() + 1 + key.len());
    out.push_str(loc);
    out.push('/');
    push_pointer_token(&mut out, key);
    out
}

/// Appends `key` escaped as a JSON Pointer token.
fn push_pointer_token(out: &mut String, key: &str) {
    // Bytes, not chars: both are ASCII, and a char pattern decodes UTF-8.
    if key.bytes().any(|b| b == b'~' || b == b'/') {
        for c in key.chars() {
            match c {
                '~' => out.push_str("~0"),
                '/' => out.push_str("~1"),
                c => out.push(c),
            }
        }
    } else {
        out.push_str(key);
    }
}

fn strip_empty_fragment(u: String) -> String {
    match u.strip_suffix('#') {
        Some(s) => s.to_owned(),
        None => u,
    }
}

/// The keywords of a subschema that are read outside the main pass.
#[derive(Default)]
struct Special<'a> {
    schema: Option<Doc<'a>>,
    id: Option<Doc<'a>>,
    r#type: Option<Doc<'a>>,
    r#ref: Option<Doc<'a>>,
    dynamic_ref: Option<Doc<'a>>,
    items: Option<Doc<'a>>,
    additional_items: Option<Doc<'a>>,
    unevaluated_items: Option<Doc<'a>>,
    unevaluated_properties: Option<Doc<'a>>,
}

impl<'a> Special<'a> {
    fn slot(&mut self, keyword: &str) -> Option<&mut Option<Doc<'a>>> {
        Some(match keyword {
            "$schema" => &mut self.schema,
            "$id" => &mut self.id,
            "type" => &mut self.r#type,
            "$ref" => &mut self.r#ref,
            "$dynamicRef" => &mut self.dynamic_ref,
            "items" => &mut self.items,
            "additionalItems" => &mut self.additional_items,
            "unevaluatedItems" => &mut self.unevaluated_items,
            "unevaluatedProperties" => &mut self.unevaluated_properties,
            _ => return None,
        })
    }
}

/// Keywords whose value is one subschema.
const SINGLE: &[&str] = &[
    "additionalProperties",
    "additionalItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];
/// Keywords whose value is an array of subschemas.
const ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems"];
/// Keywords whose value is an object of subschemas.
const MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
];

/// Keywords that affect validity but are not implemented: refused in strict mode.
const UNSUPPORTED: &[&str] = &["$recursiveRef"];

impl<'a> Compiler<'a> {
    fn err(&self, loc: Span, kw: &str, msg: impl Into<String>) -> SchemaError {
        SchemaError::new(child_loc(self.loc_str(loc), kw), msg.into())
    }

    /// Moves a finished node's keywords to the shared list (drained in
    /// place: moving the whole inline list first costs a copy of it).
    fn keep_kws(&mut self, kws: &mut Kws) -> KwRange {
        let start = self.kws.len();
        self.kws.extend(kws.drain(..));
        // Past u32::MAX keywords (far beyond any memory limit) the range
        // saturates; the schema is then refused in `compile`.
        KwRange {
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(self.kws.len()).unwrap_or(u32::MAX),
        }
    }

    fn loc_str(&self, loc: Span) -> &str {
        loc.of(&self.locs)
    }

    /// Writes a new path: `parent`'s (if any), then what `write` appends.
    fn push_loc(&mut self, parent: Option<Span>, write: impl FnOnce(&mut String)) -> Span {
        let start = self.locs.len();
        if let Some(p) = parent {
            self.locs.extend_from_within(p.start..p.end);
        }
        write(&mut self.locs);
        Span {
            start,
            end: self.locs.len(),
        }
    }

    /// Writes `text` as a path of its own.
    fn new_loc(&mut self, text: &str) -> Span {
        self.push_loc(None, |out| out.push_str(text))
    }

    /// `loc/key`, the key escaped as a JSON Pointer token.
    fn child(&mut self, loc: Span, key: &str) -> Span {
        self.push_loc(Some(loc), |out| {
            out.push('/');
            push_pointer_token(out, key);
        })
    }

    /// `loc/index`.
    fn child_index(&mut self, loc: Span, index: usize) -> Span {
        use std::fmt::Write as _;
        self.push_loc(Some(loc), |out| {
            let _ = write!(out, "/{index}");
        })
    }

    /// Compiles each schema of the array at keyword location `kl` (an item
    /// that is not a schema is `bad`, and its index written only then).
    fn sub_list(
        &mut self,
        a: Arr<'a>,
        base: &Rc<str>,
        draft: Draft,
        kl: Span,
    ) -> Result<Vec<NodeId>, SchemaError> {
        let mut ids = Vec::with_capacity(a.len());
        for (i, s) in a.iter().enumerate() {
            if s.is_object() || s.as_bool().is_some() {
                let child = self.child_index(kl, i);
                ids.push(self.sub(s, base, draft, child)?);
            } else {
                self.schema_value(s, kl, &i.to_string())?;
            }
        }
        Ok(ids)
    }

    /// A keyword with a malformed value: an error in strict mode, ignored (and
    /// listed) in lenient mode.
    fn bad(&mut self, loc: Span, kw: &str, msg: impl Into<String>) -> Result<(), SchemaError> {
        let e = self.err(loc, kw, msg);
        if self.opts.strict {
            Err(e)
        } else {
            self.ignored.push(format!("{}: {}", e.path, e.message));
            Ok(())
        }
    }

    fn sub(
        &mut self,
        v: Doc<'a>,
        base: &Rc<str>,
        draft: Draft,
        loc: Span,
    ) -> Result<NodeId, SchemaError> {
        let id = self.nodes.len() as NodeId;
        self.nodes.push(None);
        self.fill(
            id,
            Place {
                value: v,
                base: base.clone(),
                draft,
                loc,
            },
        )?;
        Ok(id)
    }

    fn schema_value(&mut self, v: Doc<'a>, loc: Span, kw: &str) -> Result<bool, SchemaError> {
        if v.is_object() || v.as_bool().is_some() {
            Ok(true)
        } else {
            self.bad(
                loc,
                kw,
                format!(
                    "expected a schema (object or boolean), found {}",
                    v.kind_of()
                ),
            )?;
            Ok(false)
        }
    }

    fn non_neg(&mut self, v: Doc<'_>, loc: Span, kw: &str) -> Result<Option<u64>, SchemaError> {
        if let Some(n) = v.number()
            && let Some(d) = super::number::Dec::parse(&n)
            && d.is_integer()
            && !d.is_negative()
        {
            return Ok(Some(d.as_u64_saturating()));
        }
        self.bad(
            loc,
            kw,
            format!("expected a non-negative integer, found {v}"),
        )?;
        Ok(None)
    }

    fn number(
        &mut self,
        v: Doc<'_>,
        loc: Span,
        kw: &str,
    ) -> Result<Option<SchemaNumber>, SchemaError> {
        if let Some(n) = v.number()
            && let Some(s) = SchemaNumber::new(&n)
        {
            return Ok(Some(s));
        }
        self.bad(loc, kw, format!("expected a number, found {v}"))?;
        Ok(None)
    }

    /// A `pattern` (or a `patternProperties` name) compiled within the
    /// schema's pattern budgets; a pattern that cannot be is a malformed
    /// keyword (an error when strict, ignored and listed when lenient).
    fn pattern(&mut self, src: &str, loc: Span, kw: &str) -> Result<Option<Pattern>, SchemaError> {
        match Pattern::compile(src, &mut self.pattern_budget) {
            Ok(p) => Ok(Some(p)),
            Err(message) => {
                self.bad(loc, kw, message)?;
                Ok(None)
            }
        }
    }

    /// Compiles the subschema at `place` into node `id`: its base and
    /// draft first (`$schema`, `$id`), then `type`, `$ref` and
    /// `$dynamicRef`, then every other member by keyword family, then what
    /// spans several members.
    fn fill(&mut self, id: NodeId, place: Place<'a>) -> Result<(), SchemaError> {
        let Place {
            value,
            mut base,
            mut draft,
            loc,
        } = place;
        let mut resource_root = id == 0;
        let m: Obj<'a> = match (value.as_object(), value.as_bool()) {
            (_, Some(b)) => {
                let res = self.resource_index(&base);
                let mut kws = Kws::new();
                if !b {
                    kws.push(Kw::False);
                }
                self.store(id, loc, &mut kws, res, resource_root, false);
                return Ok(());
            }
            (Some(m), _) => m,
            _ => {
                return Err(SchemaError::new(
                    self.loc_str(loc).to_owned(),
                    format!(
                        "expected a schema (object or boolean), found {}",
                        value.kind_of()
                    ),
                ));
            }
        };
        // The keywords read before (or after) the main pass, found in one
        // pass over the members rather than one lookup each.
        let mut special = Special::default();
        for (k, v) in m.iter() {
            if let Some(slot) = special.slot(k) {
                // As `get` does, should a map ever hold a key twice.
                slot.get_or_insert(v);
            }
        }
        if let Some(s) = special.schema.and_then(Doc::as_str)
            && let Some(d) = draft_of(s)
        {
            draft = d;
        }
        let ref_only = draft == Draft::Draft7 && special.r#ref.is_some();
        if let Some(b) = self.bases.get(&value.addr()) {
            // Document roots and `$id` subschemas are the only entries.
            resource_root = true;
            base = b.uri.clone();
            draft = b.draft;
        } else if let Some(idv) = special.id.and_then(Doc::as_str)
            && !ref_only
            && !idv.starts_with('#')
        {
            let full = strip_empty_fragment(uri::resolve(&base, idv));
            let (u, _) = uri::split_fragment(&full);
            base = u.into();
            resource_root = true;
        }
        let resource = self.resource_index(&base);
        // On the stack until the node is done, then boxed at its size.
        let mut kws: Kws = SmallVec::new();

        // `type` first: the cheapest check and the clearest message.
        if !ref_only && let Some(t) = special.r#type {
            self.type_kw(t, loc, &mut kws)?;
        }
        if let Some(r) = special.r#ref {
            self.ref_kw(r, &base, draft, loc, &mut kws)?;
        }
        if ref_only {
            self.store(id, loc, &mut kws, resource, resource_root, false);
            return Ok(());
        }
        if draft == Draft::Draft202012
            && let Some(r) = special.dynamic_ref
        {
            match r.as_str() {
                Some(s) => self.dynamic_ref(s, &base, draft, loc, &mut kws)?,
                None => self.bad(
                    loc,
                    "$dynamicRef",
                    format!("expected a URI reference string, found {r}"),
                )?,
            }
        }

        let mut parts = NodeParts::default();
        self.members(m, &base, draft, loc, &mut kws, &mut parts)?;
        let at = KwAt {
            base: &base,
            draft,
            loc,
            kl: Span::default(),
        };
        self.additional_items(&special, at, &mut parts)?;
        let required_in_object = parts.put_together(&mut kws);
        self.unevaluated(&special, at, &mut kws)?;
        self.store(
            id,
            loc,
            &mut kws,
            resource,
            resource_root,
            required_in_object,
        );
        Ok(())
    }

    /// Stores node `id` with its keywords; what the last pass computes
    /// (types, leaf summary, string needs) starts empty.
    fn store(
        &mut self,
        id: NodeId,
        loc: Span,
        kws: &mut Kws,
        resource: u32,
        resource_root: bool,
        required_in_object: bool,
    ) {
        let kws = self.keep_kws(kws);
        self.nodes[id as usize] = Some(Node {
            loc,
            kws,
            types: 0,
            expands: false,
            shared: false,
            resource,
            resource_root,
            required_in_object,
            leaf: Leaf::NONE,
            str_keep: false,
            str_exact_from: usize::MAX,
            str_counts: false,
        });
    }
}

/// Refuses in-place cycles and computes each node's possible types.
fn finish(nodes: &mut [Node], kws: &[Kw], locs: &str) -> Result<(), SchemaError> {
    let kws_of = |node: &Node| node.kws.of(kws);
    // 0 = unvisited, 1 = on stack, 2 = done.
    let n = nodes.len();
    let mut state = vec![0u8; n];
    let mut types = vec![T_ALL; n];
    let mut children = Vec::new();
    // Iterative DFS: (node, children list, next child index). One stack for
    // all the starts, so that no start allocates one of its own.
    let mut stack: Vec<(usize, Vec<NodeId>, usize)> = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        stack.clear();
        children.clear();
        kws_of(&nodes[start])
            .iter()
            .for_each(|k| in_place_children(k, &mut children));
        stack.push((start, children.clone(), 0));
        state[start] = 1;
        while let Some((node, kids, i)) = stack.last_mut() {
            if let Some(&c) = kids.get(*i) {
                *i += 1;
                let c = c as usize;
                match state.get(c) {
                    Some(1) => {
                        return Err(SchemaError::new(
                            nodes[c].loc.of(locs).to_owned(),
                            "this $ref loops back to itself without ever stepping into the instance (validation would never end)".into(),
                        ));
                    }
                    Some(0) => {
                        state[c] = 1;
                        let mut ks = Vec::new();
                        kws_of(&nodes[c])
                            .iter()
                            .for_each(|k| in_place_children(k, &mut ks));
                        stack.push((c, ks, 0));
                    }
                    _ => {}
                }
            } else {
                let node = *node;
                types[node] = possible_types(kws_of(&nodes[node]), &types);
                state[node] = 2;
                stack.pop();
            }
        }
    }
    for (node, t) in nodes.iter_mut().zip(types) {
        node.types = t;
        node.leaf = Leaf::of(kws_of(node), node.kws.start);
        (node.str_keep, node.str_exact_from, node.str_counts) = string_needs(kws_of(node));
        node.expands = kws_of(node)
            .iter()
            .any(|k| matches!(k, Kw::Ref(_) | Kw::AllOf(_)));
    }
    // Referred to by two keywords, or the root referred to at all: the
    // nodes that can be applied more than once at one location.
    let mut refs = vec![0u8; nodes.len()];
    if let Some(r) = refs.first_mut() {
        *r = 1;
    }
    for node in nodes.iter() {
        for kw in kws_of(node) {
            applied_nodes(kw, |n| {
                if let Some(r) = refs.get_mut(n as usize) {
                    *r = r.saturating_add(1);
                }
            });
        }
    }
    for (node, r) in nodes.iter_mut().zip(refs) {
        node.shared = r >= 2;
    }
    Ok(())
}

/// Conservative: the types an instance may have and pass this node (children
/// already computed; a child in a cycle counts as any type).
fn possible_types(kws: &[Kw], types: &[u8]) -> u8 {
    let mut t = T_ALL;
    let of = |id: &NodeId| types.get(*id as usize).copied().unwrap_or(T_ALL);
    for kw in kws {
        match kw {
            Kw::False => t = 0,
            Kw::Type(m) => t &= *m,
            Kw::Enum(opts) => t &= opts.types(),
            Kw::Const(v) => t &= value_type(&**v),
            Kw::AllOf(a) => a.iter().for_each(|c| t &= of(c)),
            Kw::AnyOf(a) | Kw::OneOf(a) => t &= a.iter().fold(0, |acc, c| acc | of(c)),
            Kw::Ref(c) => t &= of(c),
            _ => {}
        }
    }
    t
}

/// How deeply a schema document's arrays and objects may nest. The compiler
/// and the validator follow subschemas recursively, so this bounds their
/// stack use (about 256 subschema levels; real tool schemas stay under 20).
/// JSON text parsed with the default limits is already capped at 128.
pub const MAX_SCHEMA_DEPTH: usize = 512;

/// The nesting depth of `v`, counted without recursion.
fn nesting_depth(v: Doc<'_>) -> usize {
    let mut deepest = 0;
    // Siblings wait here: a tool schema's fit on the stack.
    let mut stack: SmallVec<[(Doc<'_>, usize); 64]> = SmallVec::new();
    stack.push((v, 1));
    while let Some((v, d)) = stack.pop() {
        if let Some(m) = v.as_object() {
            deepest = deepest.max(d);
            stack.extend(m.values().map(|c| (c, d + 1)));
        } else if let Some(a) = v.as_array() {
            deepest = deepest.max(d);
            stack.extend(a.iter().map(|c| (c, d + 1)));
        }
    }
    deepest
}

/// Compiles `root` (retrieved as `root_uri`, or the default) with `resources`.
pub(crate) fn compile(
    root: Doc<'_>,
    resources: &[(String, Value)],
    opts: &Options,
) -> Result<Program, SchemaError> {
    for (name, doc) in std::iter::once((ROOT_URI, root))
        .chain(resources.iter().map(|(u, v)| (u.as_str(), Doc::Own(v))))
    {
        let depth = nesting_depth(doc);
        if depth > MAX_SCHEMA_DEPTH {
            return Err(SchemaError::new(
                if name == ROOT_URI {
                    String::new()
                } else {
                    name.to_owned()
                },
                format!(
                    "the schema nests {depth} arrays/objects deep; the limit is {MAX_SCHEMA_DEPTH}"
                ),
            ));
        }
    }
    let mut c = Compiler {
        // Room for a tool schema's paths and keywords without regrowing.
        locs: String::with_capacity(1024),
        kws: Vec::with_capacity(64),
        opts,
        docs: Vec::with_capacity(1 + resources.len()),
        ids: HashMap::new(),
        anchors: HashMap::new(),
        dyn_anchors: HashMap::new(),
        bases: HashMap::new(),
        memo: HashMap::new(),
        pending: Vec::new(),
        nodes: Vec::with_capacity(32),
        resources: HashMap::new(),
        last_resource: None,
        ignored: Vec::new(),
        format_notes: Vec::new(),
        has_dynamic: false,
        metas_loaded: false,
        pattern_budget: PatternBudget::new(opts.max_pattern_memory, opts.max_pattern_backtracks),
    };
    c.docs.push((ROOT_URI.to_owned(), root, false));
    for (u, v) in resources {
        c.docs
            .push((strip_empty_fragment(u.clone()), Doc::Own(v), false));
    }
    // Documents are indexed when the first reference needs them: a schema
    // without `$ref` is never walked twice.
    let mut draft = opts.draft;
    if let Some(m) = root.as_object()
        && let Some(s) = m.get("$schema").and_then(Doc::as_str)
        && let Some(d) = draft_of(s)
    {
        draft = d;
    }
    let base = match c.base_at(root) {
        Some(b) => b.uri.clone(),
        None => ROOT_URI.into(),
    };
    c.nodes.push(None);
    c.memo.insert(root.addr(), 0);
    c.fill(
        0,
        Place {
            value: root,
            base,
            draft,
            loc: Span::default(),
        },
    )?;
    c.drain(0)?;
    // Collected in place: `Option<Node>` has the size of `Node`.
    let mut nodes = c
        .nodes
        .into_iter()
        .map(|n| {
            n.ok_or_else(|| {
                SchemaError::new(
                    String::new(),
                    "internal error: a node was not compiled".into(),
                )
            })
        })
        .collect::<Result<Vec<Node>, SchemaError>>()?;
    if u32::try_from(c.kws.len()).is_err() {
        return Err(SchemaError::new(
            String::new(),
            "the schema has more keywords than a compiled schema can hold".into(),
        ));
    }
    finish(&mut nodes, &c.kws, &c.locs)?;
    let format_notes = note_nodes(&nodes, c.format_notes);
    Ok(Program {
        nodes,
        kws: c.kws,
        locs: c.locs,
        root: 0,
        ignored: c.ignored,
        format_notes,
        has_dynamic: c.has_dynamic,
    })
}

/// The annotation formats by node: a node's path is its own span.
fn note_nodes(nodes: &[Node], notes: Vec<(Span, Box<str>)>) -> Vec<(NodeId, Box<str>)> {
    if notes.is_empty() {
        return Vec::new();
    }
    let at: HashMap<(usize, usize), NodeId> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| ((n.loc.start, n.loc.end), i as NodeId))
        .collect();
    let mut out: Vec<(NodeId, Box<str>)> = notes
        .into_iter()
        .filter_map(|(loc, f)| Some((*at.get(&(loc.start, loc.end))?, f)))
        .collect();
    out.sort_by_key(|n| n.0);
    out
}
