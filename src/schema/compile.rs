//! Schema documents → a flat arena of nodes with precomputed keyword lists.
//!
//! Two passes: `index` walks every document reachable so far and records
//! resources (`$id`), anchors (`$anchor`, `$dynamicAnchor`, draft-07 `#name`
//! ids) and base URIs; `node` compiles a subschema, resolving each `$ref` to
//! a node (memoised by the target's address, which is what makes recursive
//! schemas finite). A last pass refuses `$ref` cycles that never step into
//! the instance (they would loop forever) and computes, per node, the set of
//! JSON types an instance can have and still be valid (the stream check
//! uses it to fail a value at its first byte).

// One arm per keyword reads better than arms folded into guards.
#![allow(clippy::collapsible_match)]

use std::collections::HashMap;
use std::rc::Rc;

use smallvec::SmallVec;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

use super::automaton::PositionAutomaton;
use super::doc::{Arr, Doc, Obj};
use super::format::Format;
use super::number::SchemaNumber;
use super::options::EnumOptions;
use super::sequence::ClassSequence;
use super::{Draft, SchemaError, uri};
use crate::Value;

pub(crate) type NodeId = u32;

/// A property name kept by a compiled schema (inline up to 24 bytes).
pub(crate) type Name = compact_str::CompactString;

pub(crate) const T_NULL: u8 = 1;
pub(crate) const T_BOOL: u8 = 2;
pub(crate) const T_INT: u8 = 4;
/// A number that is not an integer.
pub(crate) const T_FRAC: u8 = 8;
pub(crate) const T_NUM: u8 = T_INT | T_FRAC;
pub(crate) const T_STR: u8 = 16;
pub(crate) const T_ARR: u8 = 32;
pub(crate) const T_OBJ: u8 = 64;
pub(crate) const T_ALL: u8 = 127;

/// A compiled `pattern` / `patternProperties` regular expression.
///
/// A pattern that is an anchored sequence of character classes (the usual
/// shape in tool schemas) is matched by [`ClassSequence`], and one made of
/// classes, groups, alternation and quantifiers in up to 64 positions by a
/// [`PositionAutomaton`], both with no regex. Any other is checked when the schema compiles (its syntax and, for a
/// heavy pattern, its size), and its matcher is built on first use, once,
/// shared by every thread (a schema's patterns are often never used: a
/// request declares many tools and the model calls one or two).
#[derive(Debug)]
pub(crate) struct Pattern {
    pub(crate) source: Box<str>,
    matcher: Matcher,
}

#[derive(Debug)]
enum Matcher {
    Sequence(ClassSequence),
    Automaton(PositionAutomaton),
    Regex {
        translated: Box<str>,
        regex: std::sync::OnceLock<Option<regex::Regex>>,
    },
}

impl Pattern {
    /// Whether `s` matches. A build that fails on first use (which the
    /// compile-time checks leave no known way to reach) matches nothing:
    /// `pattern` then fails closed.
    #[inline]
    pub(crate) fn is_match(&self, s: &str) -> bool {
        match &self.matcher {
            Matcher::Sequence(seq) => seq.is_match(s),
            Matcher::Automaton(a) => a.is_match(s),
            Matcher::Regex { translated, regex } => regex
                .get_or_init(|| super::ecma::build(translated).ok())
                .as_ref()
                .is_some_and(|r| r.is_match(s)),
        }
    }

    /// Whether no regex is left to build (a class sequence, or a regex
    /// already built).
    #[cfg(test)]
    pub(crate) fn is_built(&self) -> bool {
        match &self.matcher {
            Matcher::Sequence(_) | Matcher::Automaton(_) => true,
            Matcher::Regex { regex, .. } => regex.get().is_some(),
        }
    }

    #[cfg(test)]
    pub(crate) fn is_sequence(&self) -> bool {
        matches!(self.matcher, Matcher::Sequence(_))
    }

    #[cfg(test)]
    pub(crate) fn is_automaton(&self) -> bool {
        matches!(self.matcher, Matcher::Automaton(_))
    }

    #[cfg(test)]
    pub(crate) fn has_follow_tables(&self) -> bool {
        matches!(&self.matcher, Matcher::Automaton(a) if a.has_tables())
    }
}

#[derive(Debug)]
pub(crate) struct ObjectKw {
    /// `properties`, sorted by key.
    pub(crate) props: Box<[(Name, NodeId)]>,
    /// For [`ObjectKw::prop_entry_after`]: for each position in `props`,
    /// the position of the property that followed it in the last object
    /// checked here, and at the end the one that came first (`u32::MAX`:
    /// none yet). Relaxed atomics: it is only a guess, which every lookup
    /// verifies, shared by the threads that use the schema.
    pub(crate) next_after: Box<[AtomicU32]>,
    /// `key_tag` of each name in `props`, in the same order: a lookup
    /// compares whole names only where the tags agree.
    pub(crate) tags: Box<[u32]>,
    /// Where a name's tag lands in `slots`, when no two tags do.
    pub(crate) slot_hash: Option<SlotHash>,
    pub(crate) patterns: Box<[(Pattern, NodeId)]>,
    pub(crate) additional: Option<NodeId>,
    /// Whether `additional` is the `false` schema (an unknown key fails at once).
    pub(crate) additional_false: bool,
    /// The node's `required` names as bits of their positions in `props`,
    /// when every one is there and `props` has at most 64 names: `is_valid`
    /// then checks `required` in the same pass as `properties`.
    pub(crate) required_mask: u64,
}

/// A collision-free table from property-name tags to properties, found
/// when the schema compiles: a lookup is one multiply, one slot read and
/// one name comparison, whatever the number of properties.
#[derive(Debug)]
pub(crate) struct SlotHash {
    seed: u32,
    shift: u32,
    slots: Box<[Slot]>,
}

/// One slot: everything a lookup needs in one place (a name of up to 16
/// bytes is compared against `head`, without reading `props`).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    tag: u32,
    /// Position in `props` plus one; 0 for an empty slot.
    pos: u32,
    node: NodeId,
    /// The name's length (a tag holds it only modulo 256).
    len: u32,
    /// The name's first 16 bytes, zero-padded.
    head: [u8; 16],
}

impl SlotHash {
    #[inline]
    fn slot(seed: u32, shift: u32, tag: u32) -> usize {
        (tag.wrapping_mul(seed) >> shift) as usize
    }

    /// A table for `props` and their `tags` (at most 64), if one of a few
    /// multipliers separates the tags in a table of at most 16 times their
    /// number.
    fn find(props: &[(Name, NodeId)], tags: &[u32]) -> Option<SlotHash> {
        const SEEDS: [u32; 8] = [
            0x9E37_79B1,
            0x85EB_CA77,
            0xC2B2_AE3D,
            0x27D4_EB2F,
            0x1656_67B1,
            0xD3A2_646D,
            0xFD70_46C5,
            0xB55A_4F09,
        ];
        if tags.is_empty() || tags.len() > 64 || tags.len() != props.len() {
            return None;
        }
        let min_bits = (tags.len() * 2).next_power_of_two().trailing_zeros().max(1);
        for bits in min_bits..=min_bits + 3 {
            let size = 1usize << bits;
            let shift = 32 - bits;
            // Multipliers are tried on an occupancy bitmap on the stack (at
            // most 1,024 slots: 64 tags, 16 per tag), cleared for each; the
            // table itself is built once, for the one that separates.
            let mut taken = [0u64; 16];
            let words = size.div_ceil(64).min(taken.len());
            'seeds: for seed in SEEDS {
                taken[..words].fill(0);
                for &t in tags {
                    let at = Self::slot(seed, shift, t);
                    let Some(word) = taken.get_mut(at / 64) else {
                        continue 'seeds;
                    };
                    let bit = 1u64 << (at % 64);
                    if *word & bit != 0 {
                        continue 'seeds;
                    }
                    *word |= bit;
                }
                let mut slots = vec![Slot::default(); size];
                for (i, (&t, (name, node))) in tags.iter().zip(props).enumerate() {
                    let mut head = [0u8; 16];
                    let n = name.len().min(16);
                    head[..n].copy_from_slice(&name.as_bytes()[..n]);
                    slots[Self::slot(seed, shift, t)] = Slot {
                        tag: t,
                        pos: (i + 1) as u32,
                        node: *node,
                        len: u32::try_from(name.len()).unwrap_or(u32::MAX),
                        head,
                    };
                }
                return Some(SlotHash {
                    seed,
                    shift,
                    slots: slots.into(),
                });
            }
        }
        None
    }
}

/// A fresh [`ObjectKw::next_after`] for `n` properties: nothing learned.
fn no_order_yet(n: usize) -> Box<[AtomicU32]> {
    (0..=n).map(|_| AtomicU32::new(u32::MAX)).collect()
}

/// Length, first, middle and last byte of a property name, packed: names
/// that differ in any of them never need a byte-wise comparison.
#[inline]
pub(crate) fn key_tag(key: &str) -> u32 {
    let b = key.as_bytes();
    let len = b.len() as u32;
    let first = b.first().copied().map_or(0, u32::from);
    let mid = b.get(b.len() / 2).copied().map_or(0, u32::from);
    let last = b.last().copied().map_or(0, u32::from);
    (len << 24) ^ (first << 16) ^ (mid << 8) ^ last
}

/// Whether two names are equal, comparing names of up to 16 bytes by word
/// loads (two overlapping ones each) rather than a `memcmp` call.
#[inline(always)]
pub(crate) fn same_name(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n <= 3 {
        return a == b;
    }
    if n <= 8 {
        let w = |s: &[u8]| (s.first_chunk::<4>().copied(), s.last_chunk::<4>().copied());
        return w(a) == w(b);
    }
    if n <= 16 {
        let w = |s: &[u8]| (s.first_chunk::<8>().copied(), s.last_chunk::<8>().copied());
        return w(a) == w(b);
    }
    a == b
}

impl ObjectKw {
    /// [`ObjectKw::prop_entry`], trying first the property that followed
    /// the previous one (`prev`: a position in `props`, or `props.len()`
    /// before the first key) the last time: arguments usually come in the
    /// same order call after call, and that guess needs neither a hash of
    /// the key nor a table read, so the property's checks can start before
    /// the key is compared. `prev` moves to the property found.
    #[inline(always)]
    pub(crate) fn prop_entry_after(&self, key: &str, prev: &mut usize) -> Option<(usize, NodeId)> {
        let slot = self.next_after.get(*prev);
        // Read once: another thread may store a new guess meanwhile, and
        // the position returned must be the one whose name was compared.
        if let Some(g) = slot {
            let guess = g.load(Relaxed);
            if let Some((name, node)) = self.props.get(guess as usize)
                && same_name(name.as_bytes(), key.as_bytes())
            {
                *prev = guess as usize;
                return Some((guess as usize, *node));
            }
        }
        let found = self.prop_entry(key);
        if let Some((pos, _)) = found {
            if let Some(s) = slot {
                s.store(pos as u32, Relaxed);
            }
            *prev = pos;
        }
        found
    }

    #[inline]
    pub(crate) fn prop(&self, key: &str) -> Option<NodeId> {
        self.prop_entry(key).map(|(_, n)| n)
    }

    /// The position in `props` and the node of property `key`.
    #[inline(always)]
    pub(crate) fn prop_entry(&self, key: &str) -> Option<(usize, NodeId)> {
        let tag = key_tag(key);
        if let Some(h) = &self.slot_hash {
            let slot = h.slots.get(SlotHash::slot(h.seed, h.shift, tag))?;
            if slot.tag != tag || slot.pos == 0 {
                return None;
            }
            let pos = slot.pos as usize - 1;
            let key = key.as_bytes();
            if slot.len as usize == key.len()
                && let Some(head) = slot.head.get(..key.len())
            {
                // A name of up to 16 bytes is all in `head`.
                return same_name(head, key).then_some((pos, slot.node));
            }
            let (k, n) = self.props.get(pos)?;
            return same_name(k.as_bytes(), key).then_some((pos, *n));
        }
        if self.props.len() <= 64 {
            self.tags
                .iter()
                .zip(self.props.iter())
                .position(|(t, (k, _))| *t == tag && same_name(k.as_bytes(), key.as_bytes()))
                .and_then(|i| Some((i, self.props.get(i)?.1)))
        } else {
            let i = self.props.binary_search_by(|(k, _)| (**k).cmp(key)).ok()?;
            Some((i, self.props.get(i)?.1))
        }
    }
}

#[derive(Debug)]
pub(crate) struct ItemsKw {
    pub(crate) prefix: Box<[NodeId]>,
    pub(crate) rest: Option<NodeId>,
}

impl ItemsKw {
    /// The subschema for the array item at `index`, if any applies.
    #[inline]
    pub(crate) fn node_for(&self, index: usize) -> Option<NodeId> {
        self.prefix.get(index).copied().or(self.rest)
    }
}

#[derive(Debug)]
pub(crate) struct DynRef {
    /// Where the reference points without dynamic scope.
    pub(crate) fallback: NodeId,
    /// Resources (by index) that define the `$dynamicAnchor`, and its node there.
    pub(crate) candidates: Box<[(u32, NodeId)]>,
}

/// `dependentRequired`: when the key is present, these must be too.
pub(crate) type Dependent = (Box<str>, Box<[Box<str>]>);

/// One keyword of a compiled node, with its checked argument.
#[derive(Debug)]
pub(crate) enum Kw {
    False,
    Type(u8),
    Enum(EnumOptions),
    Const(Box<Value>),
    Minimum(SchemaNumber),
    Maximum(SchemaNumber),
    ExclusiveMinimum(SchemaNumber),
    ExclusiveMaximum(SchemaNumber),
    MultipleOf(SchemaNumber),
    MinLength(u64),
    MaxLength(u64),
    Pattern(Box<Pattern>),
    Format(Format),
    Object(Box<ObjectKw>),
    Required(Box<[Name]>),
    MinProperties(u64),
    MaxProperties(u64),
    PropertyNames(NodeId),
    DependentRequired(Box<[Dependent]>),
    DependentSchemas(Box<[(Box<str>, NodeId)]>),
    Items(Box<ItemsKw>),
    MinItems(u64),
    MaxItems(u64),
    UniqueItems,
    Contains {
        node: NodeId,
        min: u64,
        max: Option<u64>,
    },
    AllOf(Box<[NodeId]>),
    AnyOf(Box<[NodeId]>),
    OneOf(Box<[NodeId]>),
    Not(NodeId),
    If {
        cond: NodeId,
        then: Option<NodeId>,
        els: Option<NodeId>,
    },
    Ref(NodeId),
    DynamicRef(Box<DynRef>),
    UnevaluatedProperties(NodeId),
    UnevaluatedItems(NodeId),
}

impl Kw {
    /// The keyword's name in the schema.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Kw::False => "false",
            Kw::Type(_) => "type",
            Kw::Enum(_) => "enum",
            Kw::Const(_) => "const",
            Kw::Minimum(_) => "minimum",
            Kw::Maximum(_) => "maximum",
            Kw::ExclusiveMinimum(_) => "exclusiveMinimum",
            Kw::ExclusiveMaximum(_) => "exclusiveMaximum",
            Kw::MultipleOf(_) => "multipleOf",
            Kw::MinLength(_) => "minLength",
            Kw::MaxLength(_) => "maxLength",
            Kw::Pattern(_) => "pattern",
            Kw::Format(_) => "format",
            Kw::Object(_) => "properties",
            Kw::Required(_) => "required",
            Kw::MinProperties(_) => "minProperties",
            Kw::MaxProperties(_) => "maxProperties",
            Kw::PropertyNames(_) => "propertyNames",
            Kw::DependentRequired(_) => "dependentRequired",
            Kw::DependentSchemas(_) => "dependentSchemas",
            Kw::Items(_) => "items",
            Kw::MinItems(_) => "minItems",
            Kw::MaxItems(_) => "maxItems",
            Kw::UniqueItems => "uniqueItems",
            Kw::Contains { .. } => "contains",
            Kw::AllOf(_) => "allOf",
            Kw::AnyOf(_) => "anyOf",
            Kw::OneOf(_) => "oneOf",
            Kw::Not(_) => "not",
            Kw::If { .. } => "if",
            Kw::Ref(_) => "$ref",
            Kw::DynamicRef(_) => "$dynamicRef",
            Kw::UnevaluatedProperties(_) => "unevaluatedProperties",
            Kw::UnevaluatedItems(_) => "unevaluatedItems",
        }
    }
}

/// A compiled subschema.
/// A node's keywords while it compiles.
type Kws = SmallVec<[Kw; 8]>;

#[derive(Debug)]
pub(crate) struct Node {
    /// Schema path of this subschema (JSON Pointer in the root document, or
    /// an absolute URI for other resources), in [`Program::loc`]'s text.
    pub(crate) loc: Span,
    /// Its keywords, in [`Program::kws`].
    kws: KwRange,
    /// Types an instance may have and still be valid (conservative).
    pub(crate) types: u8,
    /// Whether a keyword applies other nodes in place (`$ref`, `allOf`):
    /// the stream check then expands it.
    pub(crate) expands: bool,
    /// The resource (for `$dynamicRef` scope) this node belongs to.
    pub(crate) resource: u32,
    /// Whether this node starts a resource (`$id` or a document root).
    pub(crate) resource_root: bool,
    /// Whether its `required` is checked by `is_valid` with its
    /// `properties` (see [`ObjectKw::required_mask`]).
    pub(crate) required_in_object: bool,
    /// What `is_valid` checks in place of the keywords, when they are all
    /// of a leaf's kinds.
    pub(crate) leaf: Leaf,
    /// For the stream check, when a string value begins here: whether its
    /// text must be kept (a keyword beyond the lengths reads it), and from
    /// how many decoded bytes on its pieces' offsets must be exact
    /// (`usize::MAX`: never); see `stream::string_needs`.
    pub(crate) str_keep: bool,
    pub(crate) str_exact_from: usize,
    /// For the stream check: whether a string value's characters are
    /// counted here (`minLength` / `maxLength`).
    pub(crate) str_counts: bool,
}

/// A node whose keywords are only `type`, string length bounds, integer
/// number bounds and at most one `enum` or `pattern` (most of a tool
/// schema's properties), summed up so that `is_valid` checks a value
/// against it without walking the keywords.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Leaf {
    /// Whether the node is such a leaf (when not, the rest is unused).
    pub(crate) on: bool,
    /// The types a value may have (`T_ALL` without `type`).
    pub(crate) types: u8,
    /// Whether `lo` / `hi` are exclusive.
    pub(crate) lo_open: bool,
    pub(crate) hi_open: bool,
    /// Whether any number bound is set.
    pub(crate) bounded: bool,
    /// String length bounds, in code points.
    pub(crate) min_len: u64,
    pub(crate) max_len: u64,
    /// Number bounds (`i64::MIN` / `i64::MAX`, inclusive, when absent).
    pub(crate) lo: i64,
    pub(crate) hi: i64,
    /// The position in [`Program::kw_at`] of its one `enum` or `pattern`,
    /// or `u32::MAX`.
    pub(crate) extra: u32,
}

impl Leaf {
    const NONE: Leaf = Leaf {
        on: false,
        types: T_ALL,
        lo_open: false,
        hi_open: false,
        bounded: false,
        min_len: 0,
        max_len: u64::MAX,
        lo: i64::MIN,
        hi: i64::MAX,
        extra: u32::MAX,
    };

    /// The leaf summary of `kws`, which start at position `start` of the
    /// program's keywords, or one that is not `on`.
    fn of(kws: &[Kw], start: u32) -> Leaf {
        let mut l = Leaf::NONE;
        let (mut ty, mut min, mut max, mut lo, mut hi) = (false, false, false, false, false);
        let mut extra = false;
        // Each kind at most once (else the keywords are walked).
        let once = |seen: &mut bool| !std::mem::replace(seen, true);
        for (i, kw) in kws.iter().enumerate() {
            let ok = match kw {
                Kw::Enum(_) | Kw::Pattern(_) => match u32::try_from(i) {
                    Ok(i) => {
                        l.extra = start.saturating_add(i);
                        once(&mut extra)
                    }
                    Err(_) => false,
                },
                Kw::Type(m) => {
                    l.types = *m;
                    once(&mut ty)
                }
                Kw::MinLength(n) => {
                    l.min_len = *n;
                    once(&mut min)
                }
                Kw::MaxLength(n) => {
                    l.max_len = *n;
                    once(&mut max)
                }
                Kw::Minimum(b) | Kw::ExclusiveMinimum(b) => match b.int {
                    Some(i) => {
                        l.lo = i;
                        l.lo_open = matches!(kw, Kw::ExclusiveMinimum(_));
                        once(&mut lo)
                    }
                    None => false,
                },
                Kw::Maximum(b) | Kw::ExclusiveMaximum(b) => match b.int {
                    Some(i) => {
                        l.hi = i;
                        l.hi_open = matches!(kw, Kw::ExclusiveMaximum(_));
                        once(&mut hi)
                    }
                    None => false,
                },
                _ => false,
            };
            if !ok {
                return Leaf::NONE;
            }
        }
        l.bounded = lo || hi;
        l.on = true;
        l
    }
}

/// The compiled program behind a `CompiledSchema`.
#[derive(Debug)]
pub(crate) struct Program {
    /// Kept as built (a `Box<[_]>` would cost a shrinking reallocation of
    /// a few KiB per compile).
    pub(crate) nodes: Vec<Node>,
    /// Every node's keywords, end to end (see [`KwRange`]).
    kws: Vec<Kw>,
    /// Every node's schema path, end to end (see [`Span`]).
    locs: String,
    pub(crate) root: NodeId,
    pub(crate) ignored: Vec<String>,
    pub(crate) has_dynamic: bool,
}

impl Program {
    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        // Node ids come from the compiler and are always in range.
        &self.nodes[id as usize]
    }

    /// The keywords of `node`.
    #[inline]
    pub(crate) fn kws(&self, node: &Node) -> &[Kw] {
        node.kws.of(&self.kws)
    }

    /// The keywords of node `id`.
    #[inline]
    pub(crate) fn node_kws(&self, id: NodeId) -> &[Kw] {
        self.kws(self.node(id))
    }

    /// The keyword at position `i` of all the nodes' keywords.
    #[inline]
    pub(crate) fn kw_at(&self, i: u32) -> Option<&Kw> {
        self.kws.get(i as usize)
    }

    /// The schema path of `node`.
    pub(crate) fn loc(&self, node: &Node) -> &str {
        node.loc.of(&self.locs)
    }
}

/// A node's keywords as a range of [`Program::kws`]: a node's keywords
/// are appended there when it is done, so compiling a subschema allocates
/// no list of its own.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct KwRange {
    start: u32,
    end: u32,
}

impl KwRange {
    /// The keywords in this range of `kws`.
    #[inline]
    fn of(self, kws: &[Kw]) -> &[Kw] {
        kws.get(self.start as usize..self.end as usize)
            .unwrap_or(&[])
    }
}

/// A schema path as a range of the compiler's path text: every path is
/// written there once, a child's as its parent's plus one step, so that
/// compiling a subschema allocates no string for its path.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span {
    start: usize,
    end: usize,
}

impl Span {
    /// The path in this range of `text`.
    fn of(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) draft: Draft,
    pub(crate) strict: bool,
    pub(crate) assert_formats: bool,
    /// See [`super::SchemaBuilder::max_pattern_memory`].
    pub(crate) max_pattern_memory: u64,
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
    has_dynamic: bool,
    metas_loaded: bool,
    /// Follow-table entries the schema's pattern automata may still take
    /// (see [`super::automaton::FOLLOW_TABLE_BUDGET`]).
    follow_table_budget: usize,
    /// Bytes the schema's patterns may still take (see
    /// [`super::SchemaBuilder::max_pattern_memory`]).
    pattern_budget: u64,
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

static METASCHEMAS: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();

fn metaschemas() -> &'static [(&'static str, Value)] {
    METASCHEMAS.get_or_init(|| {
        let texts: [(&str, &str); 12] = [
            (
                "https://json-schema.org/draft/2020-12/schema",
                include_str!("meta/draft2020-12/schema.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/core",
                include_str!("meta/draft2020-12/meta/core.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/applicator",
                include_str!("meta/draft2020-12/meta/applicator.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/unevaluated",
                include_str!("meta/draft2020-12/meta/unevaluated.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/validation",
                include_str!("meta/draft2020-12/meta/validation.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/meta-data",
                include_str!("meta/draft2020-12/meta/meta-data.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/format-annotation",
                include_str!("meta/draft2020-12/meta/format-annotation.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/content",
                include_str!("meta/draft2020-12/meta/content.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/format-assertion",
                include_str!("meta/draft2020-12/meta/format-assertion.json"),
            ),
            (
                "http://json-schema.org/draft-07/schema",
                include_str!("meta/draft7.json"),
            ),
            (
                "http://json-schema.org/draft-06/schema",
                include_str!("meta/draft6.json"),
            ),
            (
                "http://json-schema.org/draft-04/schema",
                include_str!("meta/draft4.json"),
            ),
        ];
        texts
            .iter()
            .filter_map(|(u, t)| Some((*u, crate::from_str(t).ok()?)))
            .collect()
    })
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

    fn index_all(&mut self) {
        for i in 0..self.docs.len() {
            if !self.docs[i].2 {
                self.docs[i].2 = true;
                let (uri, root) = (self.docs[i].0.clone(), self.docs[i].1);
                let draft = self.opts.draft;
                self.index(root, &uri, draft, true);
            }
        }
    }

    fn index(&mut self, v: Doc<'a>, base: &str, draft: Draft, doc_root: bool) {
        let Some(m) = v.as_object() else {
            if doc_root {
                self.ids.entry(base.to_owned()).or_insert(v);
            }
            return;
        };
        let mut draft = draft;
        if let Some(s) = m.get("$schema").and_then(Doc::as_str)
            && let Some(d) = draft_of(s)
        {
            draft = d;
        }
        let mut base = base.to_owned();
        if doc_root {
            self.ids.entry(base.clone()).or_insert(v);
            self.bases.insert(
                v.addr(),
                Base {
                    uri: base.as_str().into(),
                    draft,
                },
            );
        }
        if let Some(id) = m.get("$id").and_then(Doc::as_str)
            && !(draft == Draft::Draft7 && m.contains_key("$ref"))
        {
            if draft == Draft::Draft7 && id.starts_with('#') {
                self.anchors.insert(format!("{base}{id}"), v);
            } else {
                let full = uri::resolve(&base, id);
                let (u, frag) = uri::split_fragment(&full);
                let u = u.to_owned();
                if !frag.is_empty() && draft == Draft::Draft7 {
                    self.anchors.insert(full.clone(), v);
                }
                base = u;
                self.ids.insert(base.clone(), v);
                self.bases.insert(
                    v.addr(),
                    Base {
                        uri: base.as_str().into(),
                        draft,
                    },
                );
            }
        }
        if let Some(a) = m.get("$anchor").and_then(Doc::as_str) {
            self.anchors.insert(format!("{base}#{a}"), v);
        }
        if let Some(a) = m.get("$dynamicAnchor").and_then(Doc::as_str) {
            self.anchors.entry(format!("{base}#{a}")).or_insert(v);
            self.dyn_anchors
                .entry(a.to_owned())
                .or_default()
                .push((base.clone(), v));
        }
        for (k, sub) in m.iter() {
            if SINGLE.contains(&k) {
                self.index(sub, &base, draft, false);
            } else if k == "items" {
                match sub.as_array() {
                    Some(a) => a.iter().for_each(|s| self.index(s, &base, draft, false)),
                    None => self.index(sub, &base, draft, false),
                }
            } else if ARRAYS.contains(&k) {
                if let Some(a) = sub.as_array() {
                    a.iter().for_each(|s| self.index(s, &base, draft, false));
                }
            } else if MAPS.contains(&k)
                && let Some(mm) = sub.as_object()
            {
                mm.values().for_each(|s| self.index(s, &base, draft, false));
            }
        }
    }

    fn base_at(&self, v: Doc<'_>) -> Option<&Base> {
        self.bases.get(&v.addr())
    }

    /// Resolves `reference` seen under `base`: the target and its place.
    fn resolve(
        &mut self,
        base: &str,
        draft: Draft,
        reference: &str,
        loc: Span,
    ) -> Result<Place<'a>, SchemaError> {
        let full = uri::resolve(base, reference);
        let (doc_uri, frag) = uri::split_fragment(&full);
        let (doc_uri, frag) = (doc_uri.to_owned(), uri::percent_decode(frag));
        if let Some(d) = self.docs.first_mut()
            && !d.2
        {
            d.2 = true;
            let (uri, root, draft) = (d.0.clone(), d.1, self.opts.draft);
            self.index(root, &uri, draft, true);
        }
        let mut resource = self.ids.get(&doc_uri).copied();
        if resource.is_none() {
            self.index_all();
            resource = self.ids.get(&doc_uri).copied();
        }
        if resource.is_none() && !self.metas_loaded {
            self.metas_loaded = true;
            for (u, v) in metaschemas() {
                self.docs.push(((*u).to_owned(), Doc::Own(v), false));
            }
            self.index_all();
            resource = self.ids.get(&doc_uri).copied();
        }
        let Some(root) = resource else {
            return Err(self.err(loc, "$ref", format!("cannot resolve {reference:?} (no schema has the URI {doc_uri:?}; register it with SchemaBuilder::resource)")));
        };
        let root_base = self.base_at(root).cloned().unwrap_or(Base {
            uri: doc_uri.as_str().into(),
            draft,
        });
        let in_root_doc = doc_uri == ROOT_URI || self.docs.first().is_some_and(|d| d.0 == doc_uri);
        if frag.is_empty() {
            let loc = if in_root_doc && root.addr() == self.docs.first().map_or(0, |d| d.1.addr()) {
                Span::default()
            } else {
                self.new_loc(&doc_uri)
            };
            return Ok(Place {
                value: root,
                base: root_base.uri,
                draft: root_base.draft,
                loc,
            });
        }
        if let Some(ptr) = frag.strip_prefix('/') {
            let mut cur = root;
            let mut b = root_base;
            for raw in ptr.split('/') {
                if let Some(nb) = self.base_at(cur) {
                    b = nb.clone();
                } else if let Some(m) = cur.as_object()
                    && let Some(id) = m.get("$id").and_then(Doc::as_str)
                    && !id.starts_with('#')
                {
                    b = Base {
                        uri: strip_empty_fragment(uri::resolve(&b.uri, id)).into(),
                        draft: b.draft,
                    };
                }
                let key = raw.replace("~1", "/").replace("~0", "~");
                let next = match (cur.as_object(), cur.as_array()) {
                    (Some(m), _) => m.get(&key),
                    (_, Some(a)) => key.parse::<usize>().ok().and_then(|i| a.get(i)),
                    _ => None,
                };
                let Some(next) = next else {
                    return Err(self.err(
                        loc,
                        "$ref",
                        format!("cannot resolve {reference:?}: no value at pointer #{frag}"),
                    ));
                };
                cur = next;
            }
            let loc = if in_root_doc {
                self.new_loc(&format!("/{ptr}"))
            } else {
                self.new_loc(&full)
            };
            return Ok(Place {
                value: cur,
                base: b.uri,
                draft: b.draft,
                loc,
            });
        }
        match self.anchors.get(&format!("{doc_uri}#{frag}")).copied() {
            Some(v) => {
                let b = self.base_at(v).cloned().unwrap_or(root_base);
                Ok(Place {
                    value: v,
                    base: b.uri,
                    draft: b.draft,
                    loc: self.new_loc(&full),
                })
            }
            None => Err(self.err(
                loc,
                "$ref",
                format!("cannot resolve {reference:?}: no anchor {frag:?} in {doc_uri:?}"),
            )),
        }
    }

    fn resource_index(&mut self, base: &Rc<str>) -> u32 {
        if let Some((last, i)) = &self.last_resource
            && (Rc::ptr_eq(last, base) || **last == **base)
        {
            return *i;
        }
        let n = match self.resources.get(&**base) {
            Some(&i) => i,
            None => {
                let n = self.resources.len() as u32;
                self.resources.insert(base.to_string(), n);
                n
            }
        };
        self.last_resource = Some((base.clone(), n));
        n
    }

    fn compile_ref(&mut self, place: Place<'a>) -> Result<NodeId, SchemaError> {
        let key = place.value.addr();
        if let Some(&id) = self.memo.get(&key) {
            return Ok(id);
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(None);
        self.memo.insert(key, id);
        self.pending.push((id, place));
        Ok(id)
    }

    /// Compiles pending `$ref` targets until only the first `keep` remain.
    fn drain(&mut self, keep: usize) -> Result<(), SchemaError> {
        while self.pending.len() > keep {
            let Some((id, place)) = self.pending.pop() else {
                break;
            };
            self.fill(id, place)?;
        }
        Ok(())
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

    fn pattern(&mut self, src: &str, loc: Span, kw: &str) -> Result<Option<Pattern>, SchemaError> {
        let chars: SmallVec<[char; 64]> = src.chars().collect();
        if let Err(e) = super::ecma::misplaced_quantifier(&chars) {
            self.bad(loc, kw, format!("pattern {src:?}: {e}"))?;
            return Ok(None);
        }
        let (memory, matcher) = if let Some(seq) = ClassSequence::parse_chars(&chars) {
            (seq.heap_bytes(), Matcher::Sequence(seq))
        } else if let Some(a) =
            PositionAutomaton::parse_chars(&chars, &mut self.follow_table_budget)
        {
            (a.heap_bytes(), Matcher::Automaton(a))
        } else {
            return self.regex_pattern(src, loc, kw);
        };
        if !self.take_pattern_memory(memory, src, loc, kw)? {
            return Ok(None);
        }
        Ok(Some(Pattern {
            source: src.into(),
            matcher,
        }))
    }

    /// A pattern for the `regex` crate: translated and parsed, weighed
    /// against the schema's pattern budget, then built at once if heavy
    /// (else on first use).
    fn regex_pattern(
        &mut self,
        src: &str,
        loc: Span,
        kw: &str,
    ) -> Result<Option<Pattern>, SchemaError> {
        let parsed = match super::ecma::check(src) {
            Ok(p) => p,
            Err(e) => {
                self.bad(loc, kw, format!("pattern {src:?}: {e}"))?;
                return Ok(None);
            }
        };
        // Weighed before it is built.
        let memory = parsed.memory();
        if !self.take_pattern_memory(memory, src, loc, kw)? {
            return Ok(None);
        }
        match parsed.finish() {
            Ok(checked) => Ok(Some(Pattern {
                source: src.into(),
                matcher: Matcher::Regex {
                    translated: checked.translated.into(),
                    regex: match checked.built {
                        Some(built) => std::sync::OnceLock::from(Some(built)),
                        None => std::sync::OnceLock::new(),
                    },
                },
            })),
            Err(e) => {
                // Not built: what it took goes back (lenient mode goes on).
                self.pattern_budget += memory;
                self.bad(loc, kw, format!("pattern {src:?}: {e}"))?;
                Ok(None)
            }
        }
    }

    /// Takes `bytes` from the schema's pattern budget and returns `true`;
    /// past the budget, fails as a malformed keyword does (an error when
    /// strict, ignored and listed when lenient) and returns `false`.
    fn take_pattern_memory(
        &mut self,
        bytes: u64,
        src: &str,
        loc: Span,
        kw: &str,
    ) -> Result<bool, SchemaError> {
        if bytes > self.pattern_budget {
            let limit = self.opts.max_pattern_memory;
            self.bad(
                loc,
                kw,
                format!(
                    "pattern {src:?}: the schema's patterns would take more than the {} KiB \
                     they may (this one about {} KiB; see SchemaBuilder::max_pattern_memory)",
                    limit >> 10,
                    bytes.div_ceil(1024)
                ),
            )?;
            return Ok(false);
        }
        self.pattern_budget -= bytes;
        Ok(true)
    }

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
                let kws = self.keep_kws(&mut kws);
                self.nodes[id as usize] = Some(Node {
                    loc,
                    kws,
                    types: 0,
                    expands: false,
                    resource: res,
                    resource_root,
                    required_in_object: false,
                    leaf: Leaf::NONE,
                    str_keep: false,
                    str_exact_from: usize::MAX,
                    str_counts: false,
                });
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
            let one = |name: &str| match name {
                "null" => Some(T_NULL),
                "boolean" => Some(T_BOOL),
                "integer" => Some(T_INT),
                "number" => Some(T_NUM),
                "string" => Some(T_STR),
                "array" => Some(T_ARR),
                "object" => Some(T_OBJ),
                _ => None,
            };
            let mut mask = 0u8;
            let mut ok = true;
            match (t.as_str(), t.as_array()) {
                (Some(s), _) => match one(s) {
                    Some(b) => mask |= b,
                    None => ok = false,
                },
                (_, Some(a)) => {
                    for x in a.iter() {
                        match x.as_str().and_then(one) {
                            Some(b) => mask |= b,
                            None => ok = false,
                        }
                    }
                }
                _ => ok = false,
            }
            if ok {
                kws.push(Kw::Type(mask));
            } else {
                self.bad(
                    loc,
                    "type",
                    format!("expected a type name or an array of them, found {t}"),
                )?;
            }
        }

        if let Some(r) = special.r#ref {
            match r.as_str() {
                Some(s) => {
                    let place = self.resolve(&base, draft, s, loc)?;
                    let target = self.compile_ref(place)?;
                    kws.push(Kw::Ref(target));
                }
                None => self.bad(
                    loc,
                    "$ref",
                    format!("expected a URI reference string, found {r}"),
                )?,
            }
        }
        if ref_only {
            self.nodes[id as usize] = Some(Node {
                loc,
                kws: self.keep_kws(&mut kws),
                types: 0,
                expands: false,
                resource,
                resource_root,
                required_in_object: false,
                leaf: Leaf::NONE,
                str_keep: false,
                str_exact_from: usize::MAX,
                str_counts: false,
            });
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

        let mut obj = ObjectKw {
            props: Box::new([]),
            next_after: Box::new([]),
            tags: Box::new([]),
            slot_hash: None,
            patterns: Box::new([]),
            additional: None,
            additional_false: false,
            required_mask: 0,
        };
        let mut has_obj = false;
        let mut prefix: Option<Box<[NodeId]>> = None;
        let mut rest: Option<NodeId> = None;
        let (mut min_c, mut max_c) = (None, None);
        let mut contains = None;
        let (mut cond, mut then, mut els) = (None, None, None);
        let (mut d4_excl_min, mut d4_excl_max) = (false, false);

        for (k, v) in m.iter() {
            // The keyword's own location, only for keywords holding subschemas.
            let kl = match k {
                "properties"
                | "patternProperties"
                | "additionalProperties"
                | "propertyNames"
                | "dependentRequired"
                | "dependentSchemas"
                | "dependencies"
                | "items"
                | "prefixItems"
                | "contains"
                | "allOf"
                | "anyOf"
                | "oneOf"
                | "not"
                | "if"
                | "then"
                | "else" => self.child(loc, k),
                _ => Span::default(),
            };
            match k {
                "type" | "$ref" | "$dynamicRef" | "$schema" | "$id" | "$anchor"
                | "$dynamicAnchor" | "$defs" | "definitions" | "$comment" | "$vocabulary" => {}
                "enum" => match v.as_array() {
                    Some(a) => kws.push(Kw::Enum(EnumOptions::new(a))),
                    None => {
                        self.bad(loc, k, format!("expected an array, found {}", v.kind_of()))?
                    }
                },
                "const" => kws.push(Kw::Const(Box::new(v.to_value()))),
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                    if draft == Draft::Draft7
                        && matches!(k, "exclusiveMinimum" | "exclusiveMaximum")
                        && v.as_bool().is_some()
                    {
                        // Draft-04 style: `true` makes `minimum` / `maximum` exclusive.
                        if v.as_bool() == Some(true) {
                            if k == "exclusiveMinimum" {
                                d4_excl_min = true;
                            } else {
                                d4_excl_max = true;
                            }
                        }
                        continue;
                    }
                    if let Some(n) = self.number(v, loc, k)? {
                        if k == "multipleOf" && (n.dec().is_zero() || n.dec().is_negative()) {
                            self.bad(
                                loc,
                                k,
                                format!("expected a number greater than 0, found {v}"),
                            )?;
                            continue;
                        }
                        kws.push(match k {
                            "minimum" => Kw::Minimum(n),
                            "maximum" => Kw::Maximum(n),
                            "exclusiveMinimum" => Kw::ExclusiveMinimum(n),
                            "exclusiveMaximum" => Kw::ExclusiveMaximum(n),
                            _ => Kw::MultipleOf(n),
                        });
                    }
                }
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties"
                | "maxProperties" | "minContains" | "maxContains" => {
                    if let Some(n) = self.non_neg(v, loc, k)? {
                        match k {
                            "minLength" => kws.push(Kw::MinLength(n)),
                            "maxLength" => kws.push(Kw::MaxLength(n)),
                            "minItems" => kws.push(Kw::MinItems(n)),
                            "maxItems" => kws.push(Kw::MaxItems(n)),
                            "minProperties" => kws.push(Kw::MinProperties(n)),
                            "maxProperties" => kws.push(Kw::MaxProperties(n)),
                            "minContains" if draft == Draft::Draft202012 => min_c = Some(n),
                            "maxContains" if draft == Draft::Draft202012 => max_c = Some(n),
                            _ => {}
                        }
                    }
                }
                "pattern" => match v.as_str() {
                    Some(s) => {
                        if let Some(p) = self.pattern(s, loc, k)? {
                            kws.push(Kw::Pattern(Box::new(p)));
                        }
                    }
                    None => {
                        self.bad(loc, k, format!("expected a string, found {}", v.kind_of()))?
                    }
                },
                "format" => match v.as_str() {
                    Some(s) => {
                        if self.opts.assert_formats {
                            match Format::from_name(s) {
                                Some(f) => kws.push(Kw::Format(f)),
                                // An unknown format stays an annotation (as
                                // other validators do), and is listed.
                                None => self.ignored.push(format!(
                                    "{}/format: format {s:?} is not known, kept as an annotation",
                                    self.loc_str(loc)
                                )),
                            }
                        }
                    }
                    None => {
                        self.bad(loc, k, format!("expected a string, found {}", v.kind_of()))?
                    }
                },
                "properties" => match v.as_object() {
                    Some(pm) => {
                        let mut props = Vec::with_capacity(pm.len());
                        for (pk, pv) in pm.iter() {
                            if self.schema_value(pv, kl, pk)? {
                                let child = self.child(kl, pk);
                                let n = self.sub(pv, &base, draft, child)?;
                                props.push((Name::from(pk), n));
                            }
                        }
                        props.sort_by(|a, b| a.0.cmp(&b.0));
                        props.dedup_by(|a, b| a.0 == b.0);
                        obj.next_after = no_order_yet(props.len());
                        obj.tags = props.iter().map(|(k, _)| key_tag(k)).collect();
                        obj.slot_hash = SlotHash::find(&props, &obj.tags);
                        obj.props = props.into();
                        has_obj = true;
                    }
                    None => {
                        self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?
                    }
                },
                "patternProperties" => match v.as_object() {
                    Some(pm) => {
                        let mut pats = Vec::with_capacity(pm.len());
                        for (pk, pv) in pm.iter() {
                            if self.schema_value(pv, kl, pk)?
                                && let Some(p) = self.pattern(pk, loc, k)?
                            {
                                let child = self.child(kl, pk);
                                let n = self.sub(pv, &base, draft, child)?;
                                pats.push((p, n));
                            }
                        }
                        obj.patterns = pats.into();
                        has_obj = true;
                    }
                    None => {
                        self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?
                    }
                },
                "additionalProperties" => {
                    if self.schema_value(v, loc, k)? {
                        obj.additional = Some(self.sub(v, &base, draft, kl)?);
                        obj.additional_false = v.as_bool() == Some(false);
                        has_obj = true;
                    }
                }
                "required" => match v.as_array() {
                    Some(a) if a.iter().all(Doc::is_string) => {
                        let names: Vec<Name> = a
                            .iter()
                            .map(|x| Name::from(x.as_str().unwrap_or("")))
                            .collect();
                        if !names.is_empty() {
                            kws.push(Kw::Required(names.into()));
                        }
                    }
                    _ => self.bad(loc, k, format!("expected an array of strings, found {v}"))?,
                },
                "propertyNames" => {
                    if self.schema_value(v, loc, k)? {
                        let n = self.sub(v, &base, draft, kl)?;
                        kws.push(Kw::PropertyNames(n));
                    }
                }
                "dependentRequired" | "dependentSchemas" | "dependencies" => {
                    let Some(dm) = v.as_object() else {
                        self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?;
                        continue;
                    };
                    if k == "dependencies" && draft != Draft::Draft7 {
                        continue;
                    }
                    let mut req = Vec::new();
                    let mut sch = Vec::new();
                    for (dk, dv) in dm.iter() {
                        match dv.as_array() {
                            Some(a) if k != "dependentSchemas" && a.iter().all(Doc::is_string) => {
                                req.push((
                                    Box::<str>::from(dk),
                                    a.iter().filter_map(|x| x.as_str().map(Box::from)).collect(),
                                ));
                            }
                            _ if (dv.is_object() || dv.as_bool().is_some())
                                && k != "dependentRequired" =>
                            {
                                let child = self.child(kl, dk);
                                let n = self.sub(dv, &base, draft, child)?;
                                sch.push((Box::<str>::from(dk), n));
                            }
                            _ => self.bad(
                                kl,
                                dk,
                                format!(
                                    "expected {}, found {}",
                                    if k == "dependentRequired" {
                                        "an array of strings"
                                    } else {
                                        "a schema"
                                    },
                                    dv.kind_of()
                                ),
                            )?,
                        }
                    }
                    if !req.is_empty() {
                        kws.push(Kw::DependentRequired(req.into()));
                    }
                    if !sch.is_empty() {
                        kws.push(Kw::DependentSchemas(sch.into()));
                    }
                }
                "items" => match (draft, v.as_array()) {
                    (Draft::Draft7, Some(a)) => {
                        let ids = self.sub_list(a, &base, draft, kl)?;
                        prefix = Some(ids.into());
                    }
                    _ => {
                        if self.schema_value(v, loc, k)? {
                            let n = self.sub(v, &base, draft, kl)?;
                            if draft == Draft::Draft7 {
                                // Draft-07 `items: {schema}` applies to every item.
                                rest = Some(n);
                                prefix.get_or_insert_with(|| Box::new([]));
                            } else {
                                rest = Some(n);
                            }
                        }
                    }
                },
                "prefixItems" if draft == Draft::Draft202012 => match v.as_array() {
                    Some(a) => {
                        let ids = self.sub_list(a, &base, draft, kl)?;
                        prefix = Some(ids.into());
                    }
                    None => self.bad(
                        loc,
                        k,
                        format!("expected an array of schemas, found {}", v.kind_of()),
                    )?,
                },
                "additionalItems" if draft == Draft::Draft7 => {}
                "uniqueItems" => match v.as_bool() {
                    Some(true) => kws.push(Kw::UniqueItems),
                    Some(false) => {}
                    None => self.bad(loc, k, format!("expected a boolean, found {v}"))?,
                },
                "contains" => {
                    if self.schema_value(v, loc, k)? {
                        contains = Some(self.sub(v, &base, draft, kl)?);
                    }
                }
                "allOf" | "anyOf" | "oneOf" => match v.as_array() {
                    Some(a) if !a.is_empty() => {
                        let ids = self.sub_list(a, &base, draft, kl)?;
                        kws.push(match k {
                            "allOf" => Kw::AllOf(ids.into()),
                            "anyOf" => Kw::AnyOf(ids.into()),
                            _ => Kw::OneOf(ids.into()),
                        });
                    }
                    _ => self.bad(
                        loc,
                        k,
                        format!("expected a non-empty array of schemas, found {v}"),
                    )?,
                },
                "not" => {
                    if self.schema_value(v, loc, k)? {
                        let n = self.sub(v, &base, draft, kl)?;
                        kws.push(Kw::Not(n));
                    }
                }
                "if" => {
                    if self.schema_value(v, loc, k)? {
                        cond = Some(self.sub(v, &base, draft, kl)?);
                    }
                }
                "then" => {
                    if self.schema_value(v, loc, k)? {
                        then = Some(self.sub(v, &base, draft, kl)?);
                    }
                }
                "else" => {
                    if self.schema_value(v, loc, k)? {
                        els = Some(self.sub(v, &base, draft, kl)?);
                    }
                }
                k if UNSUPPORTED.contains(&k) => {
                    let e = self.err(loc, k, format!("keyword {k:?} is not supported"));
                    if self.opts.strict {
                        return Err(e);
                    }
                    self.ignored.push(e.path);
                }
                _ => {}
            }
        }
        // draft-07 additionalItems applies only next to an array `items`.
        if draft == Draft::Draft7
            && special.items.is_some_and(|i| i.as_array().is_some())
            && let Some(ai) = special.additional_items
            && self.schema_value(ai, loc, "additionalItems")?
        {
            let child = self.child(loc, "additionalItems");
            rest = Some(self.sub(ai, &base, draft, child)?);
        }
        let mut required_in_object = false;
        if has_obj {
            if let Some(Kw::Required(names)) = kws.iter().find(|k| matches!(k, Kw::Required(_)))
                && obj.props.len() <= 64
            {
                let mut mask = 0u64;
                for name in names.iter() {
                    match obj
                        .props
                        .binary_search_by(|(k, _)| k.as_str().cmp(name.as_str()))
                    {
                        Ok(i) => mask |= 1 << i,
                        Err(_) => {
                            mask = 0;
                            break;
                        }
                    }
                }
                obj.required_mask = mask;
                required_in_object = mask != 0;
            }
            kws.push(Kw::Object(Box::new(obj)));
        }
        if prefix.is_some() || rest.is_some() {
            kws.push(Kw::Items(Box::new(ItemsKw {
                prefix: prefix.unwrap_or_default(),
                rest,
            })));
        }
        if let Some(node) = contains {
            kws.push(Kw::Contains {
                node,
                min: min_c.unwrap_or(1),
                max: max_c,
            });
        }
        if let Some(c) = cond
            && (then.is_some() || els.is_some())
        {
            kws.push(Kw::If { cond: c, then, els });
        }
        if d4_excl_min || d4_excl_max {
            for kw in kws.iter_mut() {
                let old = std::mem::replace(kw, Kw::UniqueItems);
                *kw = match old {
                    Kw::Minimum(n) if d4_excl_min => Kw::ExclusiveMinimum(n),
                    Kw::Maximum(n) if d4_excl_max => Kw::ExclusiveMaximum(n),
                    other => other,
                };
            }
        }
        // Last: they depend on what every other keyword evaluated.
        if draft == Draft::Draft202012 {
            for (k, v) in [
                ("unevaluatedItems", special.unevaluated_items),
                ("unevaluatedProperties", special.unevaluated_properties),
            ] {
                if let Some(v) = v
                    && self.schema_value(v, loc, k)?
                {
                    let child = self.child(loc, k);
                    let n = self.sub(v, &base, draft, child)?;
                    kws.push(if k == "unevaluatedItems" {
                        Kw::UnevaluatedItems(n)
                    } else {
                        Kw::UnevaluatedProperties(n)
                    });
                }
            }
        }
        self.nodes[id as usize] = Some(Node {
            loc,
            kws: self.keep_kws(&mut kws),
            types: 0,
            expands: false,
            resource,
            resource_root,
            required_in_object,
            leaf: Leaf::NONE,
            str_keep: false,
            str_exact_from: usize::MAX,
            str_counts: false,
        });
        Ok(())
    }

    fn dynamic_ref(
        &mut self,
        s: &str,
        base: &str,
        draft: Draft,
        loc: Span,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let place = self.resolve(base, draft, s, loc)?;
        let target_value = place.value;
        let fallback = self.compile_ref(place)?;
        let (_, frag) = uri::split_fragment(s);
        // Dynamic only when the static target itself declares the anchor.
        let is_dynamic = !frag.is_empty()
            && !frag.starts_with('/')
            && target_value
                .as_object()
                .and_then(|m| m.get("$dynamicAnchor"))
                .and_then(Doc::as_str)
                == Some(frag);
        let mut candidates = Vec::new();
        if is_dynamic {
            self.has_dynamic = true;
            self.index_all();
            let list = self.dyn_anchors.get(frag).cloned().unwrap_or_default();
            for (res_uri, v) in list {
                let b = self.base_at(v).cloned().unwrap_or(Base {
                    uri: res_uri.as_str().into(),
                    draft,
                });
                let mark = self.nodes.len() as NodeId;
                let keep = self.pending.len();
                let place = Place {
                    value: v,
                    base: b.uri,
                    draft: b.draft,
                    loc: self.new_loc(&format!("{res_uri}#{frag}")),
                };
                let compiled = match self.compile_ref(place) {
                    Ok(n) => self.drain(keep).map(|()| n),
                    Err(e) => Err(e),
                };
                match compiled {
                    Ok(n) => {
                        let r = self.resource_index(&Rc::from(res_uri.as_str()));
                        candidates.push((r, n));
                    }
                    Err(_) => {
                        // A resource that does not compile can only be in the
                        // dynamic scope if something else refers to it, which
                        // then fails on its own: roll this attempt back.
                        self.nodes.truncate(mark as usize);
                        self.memo.retain(|_, id| *id < mark);
                        self.pending.truncate(keep);
                    }
                }
            }
        }
        kws.push(Kw::DynamicRef(Box::new(DynRef {
            fallback,
            candidates: candidates.into(),
        })));
        Ok(())
    }
}

/// Children that apply to the same instance (the edges a `$ref` loop runs on).
pub(crate) fn in_place_children(kw: &Kw, out: &mut Vec<NodeId>) {
    match kw {
        Kw::AllOf(a) | Kw::AnyOf(a) | Kw::OneOf(a) => out.extend(a.iter().copied()),
        Kw::Not(n) | Kw::Ref(n) => out.push(*n),
        Kw::If { cond, then, els } => {
            out.push(*cond);
            out.extend(then.iter().copied());
            out.extend(els.iter().copied());
        }
        Kw::DependentSchemas(d) => out.extend(d.iter().map(|(_, n)| *n)),
        Kw::DynamicRef(d) => {
            out.push(d.fallback);
            out.extend(d.candidates.iter().map(|(_, n)| *n));
        }
        _ => {}
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
    // all the starts (a fresh one per start was an allocation per node).
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
        (node.str_keep, node.str_exact_from, node.str_counts) =
            super::stream::string_needs(kws_of(node));
        node.expands = kws_of(node)
            .iter()
            .any(|k| matches!(k, Kw::Ref(_) | Kw::AllOf(_)));
    }
    Ok(())
}

pub(crate) fn value_type(v: &Value) -> u8 {
    match v {
        Value::Null => T_NULL,
        Value::Bool(_) => T_BOOL,
        Value::Number(n) => {
            if super::number::lexeme_is_integer(n.as_str()) {
                T_INT
            } else {
                T_FRAC
            }
        }
        Value::String(_) => T_STR,
        Value::Array(_) => T_ARR,
        Value::Object(_) => T_OBJ,
    }
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
            Kw::Const(v) => t &= value_type(v),
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
        has_dynamic: false,
        metas_loaded: false,
        follow_table_budget: super::automaton::FOLLOW_TABLE_BUDGET,
        pattern_budget: opts.max_pattern_memory,
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
    Ok(Program {
        nodes,
        kws: c.kws,
        locs: c.locs,
        root: 0,
        ignored: c.ignored,
        has_dynamic: c.has_dynamic,
    })
}

#[cfg(test)]
mod lazy_pattern_tests {
    use super::{Kw, Pattern};
    use crate::schema::CompiledSchema;

    fn patterns(s: &CompiledSchema) -> Vec<&Pattern> {
        let mut out = Vec::new();
        for node in s.program().nodes.iter() {
            for kw in s.program().kws(node) {
                match kw {
                    Kw::Pattern(p) => out.push(&**p),
                    Kw::Object(o) => out.extend(o.patterns.iter().map(|(p, _)| p)),
                    _ => {}
                }
            }
        }
        out
    }

    #[test]
    fn follow_tables_stop_at_the_schema_budget() {
        // Each pattern is a 64-position automaton (62 for the group, then
        // `c` and a digit), whose tables take 8 x 256 entries: four fit in
        // the budget, the other six join follow sets bit by bit.
        let mut props = serde_json::Map::new();
        for k in 0..10 {
            props.insert(
                format!("p{k}"),
                serde_json::json!({"pattern": format!("^(a|b){{31}}c{k}$")}),
            );
        }
        let s = CompiledSchema::compile(&serde_json::json!({"properties": props})).unwrap();
        let ps = patterns(&s);
        assert_eq!(ps.len(), 10);
        assert!(ps.iter().all(|p| p.is_automaton()));
        let with_tables = ps.iter().filter(|p| p.has_follow_tables()).count();
        assert_eq!(
            with_tables,
            crate::schema::automaton::FOLLOW_TABLE_BUDGET / 2048
        );
        // Both kinds match as they should.
        let body = "ab".repeat(15) + "b";
        for k in 0..10 {
            let good = crate::from_str(&format!(r#"{{"p{k}": "{body}c{k}"}}"#)).unwrap();
            let wrong_digit =
                crate::from_str(&format!(r#"{{"p{k}": "{body}c{}"}}"#, (k + 1) % 10)).unwrap();
            let too_short = crate::from_str(&format!(r#"{{"p{k}": "abc{k}"}}"#)).unwrap();
            assert!(s.is_valid(&good), "p{k}");
            assert!(!s.is_valid(&wrong_digit), "p{k}");
            assert!(!s.is_valid(&too_short), "p{k}");
        }
    }

    #[test]
    fn patterns_take_from_the_schema_budget() {
        use crate::schema::automaton::PositionAutomaton;
        use crate::schema::sequence::ClassSequence;
        let seq = ClassSequence::parse("^[a-z]+0$").unwrap().heap_bytes();
        // With its follow tables, as each of these gets.
        let auto = PositionAutomaton::parse("^(ab|c)+0$").unwrap().heap_bytes();
        for (pattern, each) in [("^[a-z]+{k}$", seq), ("^(ab|c)+{k}$", auto)] {
            let mut props = serde_json::Map::new();
            for k in 0..10 {
                props.insert(
                    format!("p{k}"),
                    serde_json::json!({"pattern": pattern.replace("{k}", &k.to_string())}),
                );
            }
            let schema = serde_json::json!({"properties": props});
            // Three patterns and a half fit: the fourth fails.
            let b = CompiledSchema::builder().max_pattern_memory(3 * each + each / 2);
            let e = b.build(&schema).unwrap_err();
            assert_eq!(e.schema_path(), "/properties/p3/pattern", "{pattern}");
            assert!(
                e.message().contains("max_pattern_memory"),
                "{}",
                e.message()
            );
            let lenient = b.clone().strict(false).build(&schema).unwrap();
            assert_eq!(lenient.ignored_keywords().len(), 7, "{pattern}");
            assert!(
                lenient.is_valid(&crate::from_str(r#"{"p9": "!"}"#).unwrap()),
                "{pattern}: ignored"
            );
            assert!(!lenient.is_valid(&crate::from_str(r#"{"p2": "!"}"#).unwrap()));
            // With room for all ten.
            let all = CompiledSchema::builder()
                .max_pattern_memory(10 * each)
                .build(&schema);
            assert!(all.is_ok(), "{pattern}");
        }
    }

    #[test]
    fn a_pattern_that_fails_to_build_gives_its_budget_back() {
        // `\p{L}{200}` passes the regex crate's size limit when built (an
        // estimate of about 13 MiB); `\p{L}{100}` then fits in what is left
        // of 14 MiB only if the failed one gave its share back.
        let schema = serde_json::json!({"properties": {
            "a": {"pattern": "^\\p{L}{200}$"},
            "b": {"pattern": "^\\p{L}{100}$"}
        }});
        let s = CompiledSchema::builder()
            .strict(false)
            .max_pattern_memory(14 << 20)
            .build(&schema)
            .unwrap();
        assert_eq!(s.ignored_keywords().len(), 1, "{:?}", s.ignored_keywords());
        assert!(s.ignored_keywords()[0].contains("size limit"));
        let b = "é".repeat(100);
        assert!(s.is_valid(&crate::from_str(&format!(r#"{{"b": "{b}"}}"#)).unwrap()));
        assert!(!s.is_valid(&crate::from_str(r#"{"b": "x"}"#).unwrap()));
    }

    #[test]
    fn patterns_are_built_on_first_use_and_checked_at_compile() {
        let s = CompiledSchema::from_json_str(
            r#"{"properties": {"a": {"pattern": "^\\bx+$"}, "b": {"pattern": "^\\by$"}},
                "patternProperties": {"^\\bz": {"type": "integer"}}}"#,
        )
        .unwrap();
        let ps = patterns(&s);
        assert_eq!(ps.len(), 3);
        assert!(
            ps.iter().all(|p| !p.is_sequence() && !p.is_automaton()),
            "\\b takes the regex path"
        );
        assert!(ps.iter().all(|p| !p.is_built()), "built at compile time");
        assert!(s.is_valid(&crate::from_str(r#"{"a": "xx"}"#).unwrap()));
        assert!(!s.is_valid(&crate::from_str(r#"{"a": "xy"}"#).unwrap()));
        // Only the patterns that were used got built ("a"'s, and the
        // patternProperties one that every key is tried against).
        let unbuilt: Vec<&str> = patterns(&s)
            .iter()
            .filter(|p| !p.is_built())
            .map(|p| &*p.source)
            .collect();
        assert_eq!(unbuilt, [r"^\by$"]);
        // The others still give the right answers when first used, from
        // several threads at once.
        std::thread::scope(|t| {
            for _ in 0..4 {
                t.spawn(|| {
                    assert!(!s.is_valid(&crate::from_str(r#"{"b": "yy", "z1": "s"}"#).unwrap()));
                    assert!(s.is_valid(&crate::from_str(r#"{"b": "y", "z1": 2}"#).unwrap()));
                });
            }
        });
        assert!(patterns(&s).iter().all(|p| p.is_built()));

        // Syntax errors are still found when the schema compiles...
        let e = CompiledSchema::from_json_str(r#"{"pattern": "a(b"}"#).unwrap_err();
        assert!(
            e.to_string().contains("not a supported regular expression"),
            "{e}"
        );
        // ... and so is a pattern too big to build, which is built at once
        // (within the schema's pattern budget) ...
        let e = CompiledSchema::from_json_str(r#"{"pattern": "\\p{L}{200}"}"#).unwrap_err();
        assert!(e.to_string().contains("size limit"), "{e}");
        // ... and one past the budget, which is not built at all.
        let e = CompiledSchema::from_json_str(r#"{"pattern": "(?:\\w{1000}){1000}"}"#).unwrap_err();
        assert!(e.to_string().contains("max_pattern_memory"), "{e}");
        let heavy = CompiledSchema::from_json_str(r#"{"pattern": "^(?:ab{50}){100}$"}"#).unwrap();
        assert!(
            patterns(&heavy)[0].is_built(),
            "a heavy pattern is built at once"
        );
    }

    /// A schema with a pattern in each place (`pattern`, `patternProperties`,
    /// `propertyNames`): all three take the matcher `kind` says, and each
    /// fails where it should. `bad` are instances failing at `pattern`,
    /// `patternProperties` and `propertyNames`; `mixed` fails at the first
    /// two only.
    fn patterns_in_every_place(
        schema: &str,
        kind: fn(&Pattern) -> bool,
        ok: &str,
        bad: [&str; 3],
        mixed: &str,
    ) {
        let s = CompiledSchema::from_json_str(schema).unwrap();
        let ps = patterns(&s);
        assert_eq!(ps.len(), 3, "{ps:?}");
        assert!(ps.iter().all(|p| kind(p)), "{ps:?}");
        let valid = |t: &str| s.is_valid(&crate::from_str(t).unwrap());
        assert!(valid(ok));
        for (t, place) in bad
            .iter()
            .zip(["pattern", "patternProperties", "propertyNames"])
        {
            assert!(!valid(t), "{place}");
        }
        let errs = s.validate(&crate::from_str(mixed).unwrap()).unwrap_err();
        let kws: Vec<&str> = errs.iter().map(|e| e.keyword.as_str()).collect();
        assert_eq!(kws, ["pattern", "type"], "{errs:?}");
    }

    #[test]
    fn class_sequences_need_no_regex_and_match_in_every_place() {
        patterns_in_every_place(
            r#"{"properties": {"id": {"pattern": "^[a-z0-9_-]{3,32}$"}},
                "patternProperties": {"^x-[a-z]+$": {"type": "integer"}},
                "propertyNames": {"pattern": "^[a-z]"}}"#,
            Pattern::is_sequence,
            r#"{"id": "dev_01", "x-a": 1}"#,
            [r#"{"id": "Dev_01"}"#, r#"{"x-a": "s"}"#, r#"{"Id": 1}"#],
            r#"{"id": "no", "x-b": []}"#,
        );
    }

    #[test]
    fn group_patterns_take_the_automaton_and_match_in_every_place() {
        patterns_in_every_place(
            r#"{"properties": {"path": {"pattern": "^(/[a-z]+)+/?$"}},
                "patternProperties": {"^(x|y)-[0-9]+$": {"type": "integer"}},
                "propertyNames": {"pattern": "(a|x|y)"}}"#,
            Pattern::is_automaton,
            r#"{"path": "/usr/lib/", "x-1": 1, "y-22": 2}"#,
            [
                r#"{"path": "/usr//lib"}"#,
                r#"{"x-1": "s"}"#,
                r#"{"bcd": 1}"#,
            ],
            r#"{"path": "usr", "y-0": []}"#,
        );
    }
}

#[cfg(test)]
mod slot_hash_tests {
    use super::{ObjectKw, SlotHash, key_tag, same_name};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 5000,
            failure_persistence: None,
            ..ProptestConfig::default()
        })]
        /// Word-load comparison equals byte comparison, at every length
        /// (two letters, so that equal tags with different bytes are common).
        #[test]
        fn same_name_is_byte_equality(
            a in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'b')], 0..24),
            flips in proptest::collection::vec(any::<prop::sample::Index>(), 0..2),
        ) {
            let mut b = a.clone();
            for f in flips {
                if !b.is_empty() {
                    let i = f.index(b.len());
                    b[i] = if b[i] == b'a' { b'b' } else { b'a' };
                }
            }
            prop_assert_eq!(same_name(&a, &b), a == b);
            prop_assert!(!same_name(&a, &[a.as_slice(), b"a"].concat()));
        }
    }

    fn object(names: &[String]) -> ObjectKw {
        let mut props: Vec<(super::Name, u32)> = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.as_str().into(), i as u32))
            .collect();
        props.sort_by(|a, b| a.0.cmp(&b.0));
        props.dedup_by(|a, b| a.0 == b.0);
        let tags: Box<[u32]> = props.iter().map(|(k, _)| key_tag(k)).collect();
        ObjectKw {
            next_after: super::no_order_yet(props.len()),
            slot_hash: SlotHash::find(&props, &tags),
            tags,
            props: props.into(),
            patterns: Box::new([]),
            additional: None,
            additional_false: false,
            required_mask: 0,
        }
    }

    #[test]
    fn lookups_agree_with_a_search_with_and_without_a_table() {
        let mut with_table = 0;
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng
        };
        for round in 0..300 {
            let n = 1 + (next() % 40) as usize;
            let names: Vec<String> = (0..n)
                .map(|_| {
                    // Mostly short names (read from a slot), some past 16 bytes.
                    let len = 1 + (next() % if round % 3 == 0 { 40 } else { 12 }) as usize;
                    (0..len)
                        .map(|_| char::from(b'a' + (next() % 6) as u8))
                        .collect()
                })
                .collect();
            let o = object(&names);
            with_table += usize::from(o.slot_hash.is_some());
            for probe in
                names
                    .iter()
                    .cloned()
                    .chain(["zz".into(), String::new(), format!("{round}")])
            {
                let want = o.props.iter().find(|(k, _)| **k == *probe).map(|(_, n)| *n);
                assert_eq!(o.prop(&probe), want, "{probe:?} in {names:?}");
            }
            // Objects whose keys come in the declared order, then in
            // shuffled orders with unknown keys and repeats: the guessed
            // lookup finds exactly what the plain one does, whatever it
            // learned from the objects before.
            for object_round in 0..6 {
                let mut keys: Vec<String> = names.clone();
                if object_round > 0 {
                    for i in (1..keys.len()).rev() {
                        keys.swap(i, (next() % (i as u64 + 1)) as usize);
                    }
                    keys.truncate(1 + (next() % keys.len() as u64) as usize);
                    keys.push("zz".into());
                    if let Some(k) = keys.first().cloned() {
                        keys.push(k);
                    }
                }
                let mut prev = o.props.len();
                for key in &keys {
                    let got = o.prop_entry_after(key, &mut prev);
                    assert_eq!(got, o.prop_entry(key), "{key:?} in {keys:?}");
                    if let Some((pos, _)) = got {
                        assert_eq!(prev, pos);
                    }
                }
            }
        }
        // A tag holds a length modulo 256: a 260-byte name and a 4-byte
        // probe with the same first, middle and last bytes share a tag, and
        // the probe starts as the name does.
        let long = format!("ammb{}b", "m".repeat(255));
        let o = object(std::slice::from_ref(&long));
        assert_eq!(key_tag(&long), key_tag("ammb"));
        assert!(o.slot_hash.is_some());
        assert_eq!(o.prop("ammb"), None);
        assert_eq!(o.prop(&long), Some(0));
        // Both paths were taken: most sets get a table, sets with two names
        // of the same tag do not.
        assert!(
            with_table > 100 && with_table < 300,
            "{with_table} of 300 had a table"
        );
    }
}
