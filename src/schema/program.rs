//! The compiled program: a flat arena of nodes, each with its keywords
//! (their arguments checked and precomputed), its schema path, the JSON
//! types it may accept, and what a string value under it needs from the
//! stream check. The compiler writes it once; `validate`, the stream check
//! and the partial view's lookups only read it.

use super::format::Format;
use super::number::SchemaNumber;
use super::options::EnumOptions;
use super::pattern::Pattern;
use super::types::{T_ALL, same_name};
use crate::Value;

pub(crate) type NodeId = u32;

/// A property name kept by a compiled schema (inline up to 24 bytes).
pub(crate) type Name = compact_str::CompactString;

#[derive(Debug)]
pub(crate) struct ObjectKw {
    /// `properties`, sorted by key.
    pub(crate) props: Box<[(Name, NodeId)]>,
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
    pub(crate) fn find(props: &[(Name, NodeId)], tags: &[u32]) -> Option<SlotHash> {
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
impl ObjectKw {
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
#[derive(Debug)]
pub(crate) struct Node {
    /// Schema path of this subschema (JSON Pointer in the root document, or
    /// an absolute URI for other resources), in [`Program::loc`]'s text.
    pub(crate) loc: Span,
    /// Its keywords, in [`Program::kws`].
    pub(crate) kws: KwRange,
    /// Types an instance may have and still be valid (conservative).
    pub(crate) types: u8,
    /// Whether a keyword applies other nodes in place (`$ref`, `allOf`):
    /// the stream check then expands it.
    pub(crate) expands: bool,
    /// Whether more than one keyword refers to this node (or it is the
    /// root and one does): only such a node can be applied twice at one
    /// instance location, so only here do `validate`, `is_valid` and the
    /// stream check remember what they found (see `budget.rs`).
    pub(crate) shared: bool,
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
    pub(crate) const NONE: Leaf = Leaf {
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
    pub(crate) fn of(kws: &[Kw], start: u32) -> Leaf {
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
    pub(crate) kws: Vec<Kw>,
    /// Every node's schema path, end to end (see [`Span`]).
    pub(crate) locs: String,
    pub(crate) root: NodeId,
    pub(crate) ignored: Vec<String>,
    /// The `format` values left annotations (not asserted, or unknown),
    /// by node, sorted: read by constrained decoding, which asserts them.
    #[cfg_attr(not(feature = "decode"), allow(dead_code))]
    pub(crate) format_notes: Vec<(NodeId, Box<str>)>,
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
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl KwRange {
    /// The keywords in this range of `kws`.
    #[inline]
    pub(crate) fn of(self, kws: &[Kw]) -> &[Kw] {
        kws.get(self.start as usize..self.end as usize)
            .unwrap_or(&[])
    }
}

/// A schema path as a range of the compiler's path text: every path is
/// written there once, a child's as its parent's plus one step, so that
/// compiling a subschema allocates no string for its path.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Span {
    pub(crate) start: usize,
    pub(crate) end: usize,
}

impl Span {
    /// The path in this range of `text`.
    pub(crate) fn of(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
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

/// Keywords expanded into separate applications, or decided elsewhere.
/// Calls `f` with every node that `kw` applies, in place or to a child
/// value.
pub(crate) fn applied_nodes(kw: &Kw, mut f: impl FnMut(NodeId)) {
    match kw {
        Kw::Object(o) => {
            o.props.iter().for_each(|(_, n)| f(*n));
            o.patterns.iter().for_each(|(_, n)| f(*n));
            o.additional.into_iter().for_each(f);
        }
        Kw::PropertyNames(n)
        | Kw::Not(n)
        | Kw::Ref(n)
        | Kw::UnevaluatedProperties(n)
        | Kw::UnevaluatedItems(n)
        | Kw::Contains { node: n, .. } => f(*n),
        Kw::DependentSchemas(deps) => deps.iter().for_each(|(_, n)| f(*n)),
        Kw::Items(it) => {
            it.prefix.iter().for_each(|n| f(*n));
            it.rest.into_iter().for_each(f);
        }
        Kw::AllOf(list) | Kw::AnyOf(list) | Kw::OneOf(list) => list.iter().for_each(|n| f(*n)),
        Kw::If { cond, then, els } => {
            f(*cond);
            then.iter().chain(els.iter()).for_each(|n| f(*n));
        }
        Kw::DynamicRef(dr) => {
            f(dr.fallback);
            dr.candidates.iter().for_each(|(_, n)| f(*n));
        }
        Kw::False
        | Kw::Type(_)
        | Kw::Enum(_)
        | Kw::Const(_)
        | Kw::Minimum(_)
        | Kw::Maximum(_)
        | Kw::ExclusiveMinimum(_)
        | Kw::ExclusiveMaximum(_)
        | Kw::MultipleOf(_)
        | Kw::MinLength(_)
        | Kw::MaxLength(_)
        | Kw::Pattern(_)
        | Kw::Format(_)
        | Kw::Required(_)
        | Kw::MinProperties(_)
        | Kw::MaxProperties(_)
        | Kw::DependentRequired(_)
        | Kw::MinItems(_)
        | Kw::MaxItems(_)
        | Kw::UniqueItems => {}
    }
}

pub(crate) fn expanded(kw: &Kw) -> bool {
    matches!(kw, Kw::AllOf(_) | Kw::Ref(_))
}

/// What a string value under a node with keywords `kws` needs from the
/// check: whether its text is kept (anything beyond the lengths reads it),
/// and from how many decoded bytes on its pieces' offsets should be exact
/// (from the start under `enum` / `const`, from the bound under
/// `maxLength`, where a character past it ends past that many decoded
/// bytes; `usize::MAX` for never), and whether its characters are counted
/// (for `minLength` / `maxLength`). Summed up per node when the schema
/// compiles ([`Node::str_keep`]).
pub(crate) fn string_needs(kws: &[Kw]) -> (bool, usize, bool) {
    let mut keep = false;
    let mut exact_from = usize::MAX;
    let mut counts = false;
    for k in kws {
        let from = match k {
            Kw::Type(_) => continue,
            Kw::MinLength(_) => {
                counts = true;
                continue;
            }
            Kw::MaxLength(max) => {
                counts = true;
                usize::try_from(*max).unwrap_or(usize::MAX)
            }
            _ => {
                keep |= !expanded(k);
                if !matches!(k, Kw::Enum(_) | Kw::Const(_)) {
                    continue;
                }
                0
            }
        };
        exact_from = exact_from.min(from);
    }
    (keep, exact_from, counts)
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
