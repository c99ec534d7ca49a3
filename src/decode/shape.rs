//! The decoder's grammar: a compiled schema's nodes translated into shapes,
//! one per set of nodes that apply to the same value (`allOf` and `$ref`
//! merge, `anyOf` distributes), each a JSON type with the bounds a byte
//! automaton can decide exactly. Recursion stays a reference to a shape, so
//! the matcher's stack (not the grammar) unrolls it.

use std::collections::HashMap;

use super::approx::{Approximation, Approximations, unsupported};
pub(crate) use super::keywords::Bound;
use super::keywords::{Disjunction, Keywords, Reading};
use super::pattern::StrPattern;
use super::strkw::PatternKw;
use super::{DecodeError, DecodeOptions, KeyOrder, Whitespace};
use crate::Value;
use crate::schema::MAX_SCHEMA_NESTING;
use crate::schema::decode_view::{
    Kw, NodeId, Program, T_ALL, T_ARR, T_BOOL, T_FRAC, T_INT, T_NULL, T_OBJ, T_STR, deepest_nesting,
};

pub(crate) type ShapeId = u32;

/// The most shapes one schema may expand to (`anyOf` inside `allOf`
/// multiplies); past it the schema is refused, naming the budget.
pub const MAX_SHAPES: usize = 20_000;

/// The most keys an object shape may name (its used keys are one `u64`).
pub(crate) const MAX_KEYS: usize = 64;

#[derive(Debug)]
pub(crate) struct ObjShape {
    /// Key texts as written (JSON-escaped, without quotes), sorted by bytes.
    pub(crate) keys: Box<[Box<[u8]>]>,
    pub(crate) vals: Box<[ShapeId]>,
    /// Bits of required keys' positions in `keys`.
    pub(crate) required: u64,
    /// The shape of any other key's value; `None` when no other key is allowed.
    pub(crate) additional: Option<ShapeId>,
    pub(crate) min: u64,
    pub(crate) max: u64,
    /// Under [`KeyOrder::Properties`]: for each key, the keys that may
    /// come after it (`None`: any order). A key outside them then comes
    /// after every named one.
    pub(crate) after: Option<Box<[u64]>>,
}

impl ObjShape {
    /// The named keys that may still be written, with `used` written and
    /// `count` keys in all.
    #[inline]
    pub(crate) fn open_keys(&self, used: u64, count: u64) -> u64 {
        let all = if self.keys.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << self.keys.len()) - 1
        };
        let Some(after) = &self.after else {
            return all & !used;
        };
        if count > u64::from(used.count_ones()) {
            // A key outside the named ones was written: they are behind.
            return 0;
        }
        let mut open = all & !used;
        let mut rest = used;
        while rest != 0 {
            open &= after[rest.trailing_zeros() as usize];
            rest &= rest - 1;
        }
        open
    }
}

#[derive(Debug)]
pub(crate) struct ArrShape {
    pub(crate) prefix: Box<[ShapeId]>,
    /// Items past the prefix; `None` when there may be none.
    pub(crate) rest: Option<ShapeId>,
    pub(crate) min: u64,
    pub(crate) max: u64,
}

#[derive(Debug)]
pub(crate) enum Shape {
    /// Any JSON value.
    Any,
    /// One of several shapes.
    Alt(Box<[ShapeId]>),
    /// Exactly one of these compact JSON texts, sorted by bytes.
    Lits(Box<[Box<[u8]>]>),
    /// A string of `min..=max` code points, matching pattern `pat` (an
    /// index in [`Grammar::patterns`]) if any.
    Str {
        min: u64,
        max: u64,
        pat: Option<u32>,
    },
    /// An integer, written in plain digits.
    Int {
        lo: Option<i128>,
        hi: Option<i128>,
    },
    /// A number; with a bound it is written without an exponent.
    Num {
        lo: Option<Bound>,
        hi: Option<Bound>,
    },
    Obj(ObjShape),
    Arr(ArrShape),
    /// No value (an unsatisfiable conjunction).
    Never,
}

/// The grammar of one schema.
#[derive(Debug)]
pub(crate) struct Grammar {
    pub(crate) shapes: Vec<Shape>,
    pub(crate) root: ShapeId,
    /// `false`, `null`, `true`: the literals of any value.
    pub(crate) any_lits: ShapeId,
    /// The shortest text of each shape (`None`: no value fits).
    pub(crate) min_text: Vec<Option<Box<[u8]>>>,
    /// The patterns strings must match (`pattern`, `format`).
    pub(crate) patterns: Vec<StrPattern>,
    /// The most whitespace bytes in a row between tokens (0: none).
    pub(crate) ws_max: u8,
}

impl Grammar {
    #[inline]
    pub(crate) fn shape(&self, id: ShapeId) -> &Shape {
        &self.shapes[id as usize]
    }

    #[inline]
    pub(crate) fn sat(&self, id: ShapeId) -> bool {
        self.min_text[id as usize].is_some()
    }

    #[inline]
    pub(crate) fn pattern(&self, id: u32) -> &StrPattern {
        &self.patterns[id as usize]
    }

    pub(crate) fn text(&self, id: ShapeId) -> &[u8] {
        self.min_text[id as usize].as_deref().unwrap_or(b"")
    }
}

type Key = (Vec<NodeId>, Vec<u32>);

struct Builder<'p> {
    prog: &'p Program,
    shapes: Vec<Shape>,
    memo: HashMap<Key, ShapeId>,
    any: Option<ShapeId>,
    patterns: Vec<StrPattern>,
    key_order: KeyOrder,
    approx: Approximations,
    /// Whether the formats the schema keeps as annotations are asserted.
    assert_formats: bool,
}

/// Compiles `prog` into a grammar, with the keywords it approximates.
pub(crate) fn compile(
    prog: &Program,
    opts: &DecodeOptions,
) -> Result<(Grammar, Box<[Approximation]>), DecodeError> {
    // `validate` refuses a value met past this many schema applications;
    // the matcher unrolls recursion up to `MAX_DEPTH` values deep, so a
    // schema that can go past it there is refused rather than decoded into
    // texts `validate` refuses.
    let deepest = deepest_nesting(prog, super::MAX_DEPTH as u32, MAX_SCHEMA_NESTING);
    if deepest > MAX_SCHEMA_NESTING {
        return Err(DecodeError::Budget {
            what: format!(
                "a value can meet more than {MAX_SCHEMA_NESTING} levels of schema nesting \
                 (`$ref`, `allOf`, `properties`, ... applied in a chain; `MAX_SCHEMA_NESTING`, \
                 the bound `validate` holds) within the decoder's {} levels of values",
                super::MAX_DEPTH
            ),
        });
    }
    let mut b = Builder {
        prog,
        shapes: Vec::new(),
        memo: HashMap::new(),
        any: None,
        patterns: Vec::new(),
        key_order: opts.key_order,
        approx: Approximations::new(opts.approximate),
        assert_formats: opts.assert_formats,
    };
    let root = b.conj(vec![prog.root], Vec::new())?;
    let any_lits = b.push(Shape::Lits(Box::new([
        b"false".as_slice().into(),
        b"null".as_slice().into(),
        b"true".as_slice().into(),
    ])))?;
    let min_text = shortest_texts(&b.shapes, &b.patterns);
    let grammar = Grammar {
        shapes: b.shapes,
        root,
        any_lits,
        min_text,
        patterns: b.patterns,
        ws_max: match opts.whitespace {
            Whitespace::None => 0,
            Whitespace::Bounded(n) => n,
        },
    };
    Ok((grammar, b.approx.into_list()))
}

impl Builder<'_> {
    fn push(&mut self, s: Shape) -> Result<ShapeId, DecodeError> {
        if self.shapes.len() >= MAX_SHAPES {
            return Err(DecodeError::Budget {
                what: format!("the schema expands to more than {MAX_SHAPES} shapes"),
            });
        }
        self.shapes.push(s);
        Ok((self.shapes.len() - 1) as ShapeId)
    }

    fn any(&mut self) -> Result<ShapeId, DecodeError> {
        if let Some(a) = self.any {
            return Ok(a);
        }
        let a = self.push(Shape::Any)?;
        self.any = Some(a);
        Ok(a)
    }

    /// The shape of a value that every node in `nodes` applies to, with
    /// the `anyOf` / `oneOf` keywords at positions `done` already chosen.
    fn conj(&mut self, nodes: Vec<NodeId>, done: Vec<u32>) -> Result<ShapeId, DecodeError> {
        let prog = self.prog;
        // Close over in-place applicators that merge: `$ref`, `allOf`.
        let mut set: Vec<NodeId> = Vec::new();
        let mut work = nodes;
        while let Some(n) = work.pop() {
            if set.contains(&n) {
                continue;
            }
            set.push(n);
            for kw in prog.node_kws(n) {
                match kw {
                    Kw::Ref(t) => work.push(*t),
                    Kw::AllOf(a) => work.extend(a.iter().copied()),
                    _ => {}
                }
            }
        }
        set.sort_unstable();
        let key = (set.clone(), done.clone());
        if let Some(&id) = self.memo.get(&key) {
            return Ok(id);
        }
        if set.is_empty() {
            return self.any();
        }
        let id = self.push(Shape::Never)?;
        self.memo.insert(key, id);
        let shape = self.build(&set, &done)?;
        self.shapes[id as usize] = shape;
        Ok(id)
    }

    /// The shape of the value that every node of `set` applies to: its
    /// literal options, a choice among its first `anyOf` / `oneOf`'s
    /// branches, or one alternative per JSON type it allows.
    fn build(&mut self, set: &[NodeId], done: &[u32]) -> Result<Shape, DecodeError> {
        let mut reading = Reading {
            prog: self.prog,
            assert_formats: self.assert_formats,
            approx: &mut self.approx,
        };
        let kws = Keywords::read(&mut reading, set, done)?;
        if let Some(opts) = &kws.literal {
            let kept = kws.kept_literals(self.prog, set, opts);
            return self.literals(set[0], &kept);
        }
        if let Some(d) = kws.disjunction {
            return self.disjunction(set, done, d);
        }
        self.typed(set[0], &kws)
    }

    /// One shape per branch of an `anyOf` / `oneOf` (`d`), each with the
    /// rest of `set`.
    fn disjunction(
        &mut self,
        set: &[NodeId],
        done: &[u32],
        (pos, branches, one_of): Disjunction<'_>,
    ) -> Result<Shape, DecodeError> {
        let mut alts = Vec::with_capacity(branches.len());
        let mut done2 = done.to_vec();
        done2.push(pos);
        done2.sort_unstable();
        for &b in branches {
            let mut nodes = set.to_vec();
            nodes.push(b);
            alts.push(self.conj(nodes, done2.clone())?);
        }
        if let Some(at) = one_of {
            // Exact only when no value can match two branches.
            let ts: Vec<u8> = alts.iter().map(|&a| self.types_of(a, 0)).collect();
            let overlap = (0..ts.len()).any(|i| (i + 1..ts.len()).any(|j| ts[i] & ts[j] != 0));
            if overlap {
                let e = unsupported(
                    self.prog,
                    at,
                    "oneOf",
                    "two branches accept values of the same type, so one value could match both",
                );
                self.approx.record(
                    e,
                    "read as `anyOf`: a value matching two branches is allowed",
                )?;
            }
        }
        Ok(Shape::Alt(alts.into()))
    }

    /// One alternative per JSON type that `kws` allows, each under the
    /// keywords of its family (`first`: the node an object's errors name).
    fn typed(&mut self, first: NodeId, kws: &Keywords<'_>) -> Result<Shape, DecodeError> {
        let types = kws.types;
        let mut alts = Vec::new();
        if types & T_NULL != 0 {
            alts.push(self.push(Shape::Lits(Box::new([b"null".as_slice().into()])))?);
        }
        if types & T_BOOL != 0 {
            alts.push(self.push(Shape::Lits(Box::new([
                b"false".as_slice().into(),
                b"true".as_slice().into(),
            ])))?);
        }
        if types & T_FRAC != 0 {
            alts.push(self.push(Shape::Num {
                lo: kws.lo,
                hi: kws.hi,
            })?);
        } else if types & T_INT != 0 {
            let lo = kws.lo.map(|b| if b.open { b.at + 1 } else { b.at });
            let hi = kws.hi.map(|b| if b.open { b.at - 1 } else { b.at });
            alts.push(self.push(Shape::Int { lo, hi })?);
        }
        if types & T_STR != 0 {
            let pat = match self.string_pattern(&kws.patterns) {
                Ok(p) => p,
                Err(e) if e.keyword().is_some() && self.approx.allowed() => {
                    self.some_pattern(&kws.patterns)?
                }
                Err(e) => return Err(e),
            };
            alts.push(self.push(Shape::Str {
                min: kws.min_len,
                max: kws.max_len,
                pat,
            })?);
        }
        if types & T_ARR != 0 {
            let shape = self.array(kws)?;
            alts.push(self.push(shape)?);
        }
        if types & T_OBJ != 0 {
            let shape = self.object(
                first,
                &kws.objects,
                &kws.required,
                kws.min_props,
                kws.max_props,
            )?;
            alts.push(self.push(shape)?);
        }
        Ok(match alts.len() {
            0 => Shape::Never,
            1 => std::mem::replace(&mut self.shapes[alts[0] as usize], Shape::Never),
            _ => Shape::Alt(alts.into()),
        })
    }

    /// An array's shape: its prefix items and the rest, each the
    /// conjunction of every `items` keyword's schema there.
    fn array(&mut self, kws: &Keywords<'_>) -> Result<Shape, DecodeError> {
        let items = &kws.items;
        let n = items.iter().map(|i| i.prefix.len()).max().unwrap_or(0);
        let mut prefix = Vec::with_capacity(n);
        for i in 0..n {
            let nodes = items.iter().filter_map(|it| it.node_for(i)).collect();
            prefix.push(self.conj(nodes, Vec::new())?);
        }
        let rest_nodes: Vec<NodeId> = items.iter().filter_map(|it| it.rest).collect();
        let rest = Some(self.conj(rest_nodes, Vec::new())?);
        Ok(Shape::Arr(ArrShape {
            prefix: prefix.into(),
            rest,
            min: kws.min_items,
            max: kws.max_items,
        }))
    }

    /// With approximations allowed, the first of a string's `pattern` and
    /// `format` keywords that the decoder follows; each other one is
    /// recorded as not enforced.
    fn some_pattern(
        &mut self,
        kws: &[(NodeId, PatternKw<'_>)],
    ) -> Result<Option<u32>, DecodeError> {
        let mut chosen = None;
        for kw in kws {
            if chosen.is_some() {
                let e = unsupported(
                    self.prog,
                    kw.0,
                    kw.1.name(),
                    "a second pattern or format on the same string (only one is followed)",
                );
                self.approx.record(e, "not enforced")?;
                continue;
            }
            match self.string_pattern(std::slice::from_ref(kw)) {
                Ok(p) => chosen = p,
                Err(e) => self.approx.record(e, "not enforced: any string")?,
            }
        }
        Ok(chosen)
    }

    /// The pattern a string must match, from its `pattern` and asserted
    /// `format` keywords; a pattern the decoder cannot follow exactly is
    /// refused, naming it.
    fn string_pattern(
        &mut self,
        kws: &[(NodeId, PatternKw<'_>)],
    ) -> Result<Option<u32>, DecodeError> {
        let prog = self.prog;
        let Some((n, kw)) = kws.first() else {
            return Ok(None);
        };
        if let Some((n2, k2)) = kws.get(1) {
            return Err(unsupported(
                prog,
                *n2,
                k2.name(),
                "a second pattern or format on the same string (only one is followed)",
            ));
        }
        let form = kw.form(prog, *n)?;
        self.patterns.push(form);
        Ok(Some((self.patterns.len() - 1) as u32))
    }

    /// The shape of exactly these values: scalars as texts, objects with
    /// their keys in any order, arrays item by item.
    fn literals(&mut self, at: NodeId, vals: &[&Value]) -> Result<Shape, DecodeError> {
        let mut texts: Vec<Box<[u8]>> = Vec::new();
        let mut alts = Vec::new();
        for v in vals {
            match v {
                Value::Object(m) => {
                    let mut entries: Vec<(Box<[u8]>, &Value)> = m
                        .iter()
                        .map(|(k, v)| {
                            let t = serde_json::to_string(k).unwrap_or_default();
                            let t = &t.as_bytes()[1..t.len().saturating_sub(1).max(1)];
                            (t.into(), v)
                        })
                        .collect();
                    if entries.len() > MAX_KEYS {
                        return Err(unsupported(
                            self.prog,
                            at,
                            "enum",
                            "an object option with more than 64 keys",
                        ));
                    }
                    entries.sort_by(|a, b| a.0.cmp(&b.0));
                    let mut vals_ = Vec::with_capacity(entries.len());
                    for (_, v) in &entries {
                        let s = self.literals(at, &[v])?;
                        vals_.push(self.push(s)?);
                    }
                    let n = entries.len();
                    let shape = Shape::Obj(ObjShape {
                        keys: entries.into_iter().map(|e| e.0).collect(),
                        vals: vals_.into(),
                        required: if n == 64 { u64::MAX } else { (1u64 << n) - 1 },
                        additional: None,
                        min: 0,
                        max: u64::MAX,
                        after: None,
                    });
                    alts.push(self.push(shape)?);
                }
                Value::Array(a) => {
                    let mut items = Vec::with_capacity(a.len());
                    for x in a {
                        let s = self.literals(at, &[x])?;
                        items.push(self.push(s)?);
                    }
                    let n = a.len() as u64;
                    alts.push(self.push(Shape::Arr(ArrShape {
                        prefix: items.into(),
                        rest: None,
                        min: n,
                        max: n,
                    }))?);
                }
                other => texts.push(other.to_string().into_bytes().into_boxed_slice()),
            }
        }
        texts.sort();
        texts.dedup();
        if alts.is_empty() {
            return Ok(Shape::Lits(texts.into()));
        }
        if !texts.is_empty() {
            alts.push(self.push(Shape::Lits(texts.into()))?);
        }
        Ok(if alts.len() == 1 {
            std::mem::replace(&mut self.shapes[alts[0] as usize], Shape::Never)
        } else {
            Shape::Alt(alts.into())
        })
    }

    fn object(
        &mut self,
        at: NodeId,
        objects: &[&crate::schema::decode_view::ObjectKw],
        required: &[&str],
        min: u64,
        max: u64,
    ) -> Result<Shape, DecodeError> {
        let mut names: Vec<&str> = objects
            .iter()
            .flat_map(|o| o.props.iter().map(|(k, _)| k.as_str()))
            .chain(required.iter().copied())
            .collect();
        names.sort_unstable();
        names.dedup();
        // An object with `patternProperties` (only here approximated) lets
        // any key outside its `properties` take any value.
        let open = |o: &crate::schema::decode_view::ObjectKw| !o.patterns.is_empty();
        let additional_allowed = objects.iter().all(|o| open(o) || !o.additional_false);
        // Each name's place in `properties`: its subschema's node id, as
        // nodes are numbered in the order the schema's map lists them
        // (declaration order with serde_json's `preserve_order`, which the
        // `protocol` feature turns on; by name without it). Names only in
        // `required` come after them.
        let rank = |name: &str| -> (u32, u32) {
            objects
                .iter()
                .filter_map(|o| o.prop(name))
                .min()
                .map_or((1, 0), |n| (0, n))
        };
        // (key text, value shape, required, place in `properties`)
        let mut entries: Vec<Entry> = Vec::new();
        for name in names {
            let mut nodes = Vec::new();
            let mut allowed = true;
            for o in objects {
                match o.prop(name) {
                    Some(n) => nodes.push(n),
                    None if open(o) => {}
                    None if o.additional_false => allowed = false,
                    None => nodes.extend(o.additional),
                }
            }
            if !allowed {
                if required.contains(&name) {
                    return Ok(Shape::Never);
                }
                continue;
            }
            let val = self.conj(nodes, Vec::new())?;
            let text = serde_json::to_string(name).unwrap_or_default();
            let text = text.as_bytes();
            let inner = &text[1..text.len().saturating_sub(1).max(1)];
            entries.push((inner.into(), val, required.contains(&name), rank(name)));
        }
        if entries.len() > MAX_KEYS {
            return Err(unsupported(
                self.prog,
                at,
                "properties",
                "more than 64 named keys in one object",
            ));
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let additional = if additional_allowed {
            let nodes = objects
                .iter()
                .filter(|o| !open(o))
                .filter_map(|o| o.additional)
                .collect();
            Some(self.conj(nodes, Vec::new())?)
        } else {
            None
        };
        let mut req = 0u64;
        for (i, e) in entries.iter().enumerate() {
            if e.2 {
                req |= 1 << i;
            }
        }
        let after = (self.key_order == KeyOrder::Properties).then(|| {
            entries
                .iter()
                .map(|e| {
                    entries
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| (f.3, &f.0) > (e.3, &e.0))
                        .fold(0u64, |m, (j, _)| m | 1 << j)
                })
                .collect()
        });
        Ok(Shape::Obj(ObjShape {
            keys: entries.iter().map(|e| e.0.clone()).collect(),
            vals: entries.iter().map(|e| e.1).collect(),
            required: req,
            additional,
            min,
            max,
            after,
        }))
    }

    /// The JSON types (`T_*`, numbers as `T_INT | T_FRAC` alike) a shape may have.
    fn types_of(&self, id: ShapeId, depth: u32) -> u8 {
        if depth > 64 {
            return T_ALL;
        }
        match &self.shapes[id as usize] {
            Shape::Any => T_ALL,
            Shape::Alt(a) => a.iter().fold(0, |t, &x| t | self.types_of(x, depth + 1)),
            Shape::Lits(l) => l.iter().fold(0, |t, x| {
                t | match x.first() {
                    Some(b'n') => T_NULL,
                    Some(b't' | b'f') => T_BOOL,
                    Some(b'"') => T_STR,
                    Some(b'[') => T_ARR,
                    Some(b'{') => T_OBJ,
                    _ => T_INT | T_FRAC,
                }
            }),
            Shape::Str { .. } => T_STR,
            Shape::Int { .. } | Shape::Num { .. } => T_INT | T_FRAC,
            Shape::Obj(_) => T_OBJ,
            Shape::Arr(_) => T_ARR,
            Shape::Never => 0,
        }
    }
}

/// A named key of an object shape being built: its text, its value's
/// shape, whether it is required, and its place in `properties`.
type Entry = (Box<[u8]>, ShapeId, bool, (u32, u32));

/// The smallest integer in `[lo, hi]` by written length, if any.
pub(crate) fn shortest_int(lo: Option<i128>, hi: Option<i128>) -> Option<i128> {
    let (l, h) = (lo.unwrap_or(i128::MIN), hi.unwrap_or(i128::MAX));
    if l > h {
        return None;
    }
    Some(if l <= 0 && h >= 0 {
        0
    } else if l > 0 {
        l
    } else {
        h
    })
}

/// The shortest number text within the bounds.
fn shortest_num(lo: Option<Bound>, hi: Option<Bound>) -> Option<String> {
    let l = lo.map(|b| if b.open { b.at + 1 } else { b.at });
    let h = hi.map(|b| if b.open { b.at - 1 } else { b.at });
    if let Some(i) = shortest_int(l, h) {
        return Some(i.to_string());
    }
    // No integer fits: an open interval `(k, k + 1)` holds `k.5`.
    match (lo, hi) {
        (Some(a), Some(b)) if a.at < b.at && b.at - a.at == 1 => Some(if a.at >= 0 {
            format!("{}.5", a.at)
        } else {
            format!("-{}.5", b.at.unsigned_abs())
        }),
        _ => None,
    }
}

/// The shortest text of every shape, by fixpoint (recursive shapes refer
/// to each other; a shape no text fits stays `None`).
/// The most members or items a shortest text is built with
/// (`minProperties`, `minItems`): past it the shape counts as having no
/// value, so a hostile count cannot make compiling build it.
const MAX_MIN_COUNT: u64 = 1 << 16;

fn shortest_texts(shapes: &[Shape], patterns: &[StrPattern]) -> Vec<Option<Box<[u8]>>> {
    let mut best: Vec<Option<Box<[u8]>>> = vec![None; shapes.len()];
    loop {
        let mut changed = false;
        for (i, s) in shapes.iter().enumerate() {
            let t = shortest_of(s, &best, patterns);
            if let Some(t) = t
                && best[i].as_ref().is_none_or(|b| t.len() < b.len())
            {
                best[i] = Some(t.into());
                changed = true;
            }
        }
        if !changed {
            return best;
        }
    }
}

fn shortest_of(s: &Shape, best: &[Option<Box<[u8]>>], patterns: &[StrPattern]) -> Option<Vec<u8>> {
    let get = |id: ShapeId| best[id as usize].as_deref();
    match s {
        Shape::Any => Some(b"0".to_vec()),
        Shape::Never => None,
        Shape::Lits(l) => l.iter().min_by_key(|t| t.len()).map(|t| t.to_vec()),
        Shape::Str {
            min,
            max,
            pat: Some(p),
        } => patterns.get(*p as usize)?.shortest_text(*min, *max),
        Shape::Str { min, max, .. } => (min <= max && *min < 1 << 20).then(|| {
            let mut v = vec![b'"'];
            v.extend(std::iter::repeat_n(b'a', *min as usize));
            v.push(b'"');
            v
        }),
        Shape::Int { lo, hi } => shortest_int(*lo, *hi).map(|i| i.to_string().into_bytes()),
        Shape::Num { lo, hi } => shortest_num(*lo, *hi).map(String::into_bytes),
        Shape::Alt(a) => a
            .iter()
            .filter_map(|&x| get(x))
            .min_by_key(|t| t.len())
            .map(<[u8]>::to_vec),
        Shape::Arr(a) => {
            if a.min > a.max || a.min > MAX_MIN_COUNT {
                return None;
            }
            let mut v = vec![b'['];
            for i in 0..a.min as usize {
                let id = a.prefix.get(i).copied().or(a.rest)?;
                if i > 0 {
                    v.push(b',');
                }
                v.extend_from_slice(get(id)?);
            }
            v.push(b']');
            Some(v)
        }
        // Past `MAX_MIN_COUNT` members (or items), no text is built: such a
        // shape counts as having no value.
        Shape::Obj(o) if o.min > o.max || o.min > MAX_MIN_COUNT => None,
        Shape::Obj(o) if o.after.is_some() => shortest_ordered(o, best),
        Shape::Obj(o) => {
            let mut v = vec![b'{'];
            let mut count = 0u64;
            for (i, k) in o.keys.iter().enumerate() {
                if o.required & (1 << i) != 0 {
                    obj_member(&mut v, k, get(o.vals[i])?, count);
                    count += 1;
                }
            }
            // `minProperties`: optional keys, then made-up ones.
            let mut extra = (0..o.keys.len())
                .filter(|i| o.required & (1 << i) == 0)
                .filter_map(|i| Some((o.keys[i].clone(), get(o.vals[i])?)))
                .collect::<Vec<_>>();
            extra.sort_by_key(|(k, t)| k.len() + t.len());
            let mut extra = extra.into_iter();
            let mut made = 0u64;
            while count < o.min {
                if let Some((k, t)) = extra.next() {
                    obj_member(&mut v, &k, t, count);
                } else {
                    let t = get(o.additional?)?;
                    let k = made_up_key(&o.keys, &mut made);
                    obj_member(&mut v, &k, t, count);
                }
                count += 1;
            }
            if count > o.max {
                return None;
            }
            v.push(b'}');
            Some(v)
        }
    }
}

/// The shortest text of an object whose keys come in order: the required
/// keys, and for `minProperties` the shortest optional ones, written in
/// that order; then made-up keys.
fn shortest_ordered(o: &ObjShape, best: &[Option<Box<[u8]>>]) -> Option<Vec<u8>> {
    let get = |id: ShapeId| best[id as usize].as_deref();
    let after = o.after.as_deref()?;
    let n = o.keys.len();
    let mut chosen = o.required;
    for i in 0..n {
        if chosen & (1 << i) != 0 {
            get(o.vals[i])?;
        }
    }
    let mut extra: Vec<usize> = (0..n)
        .filter(|&i| chosen & (1 << i) == 0 && get(o.vals[i]).is_some())
        .collect();
    extra.sort_by_key(|&i| o.keys[i].len() + get(o.vals[i]).map_or(0, <[u8]>::len));
    let mut extra = extra.into_iter();
    let mut count = u64::from(chosen.count_ones());
    while count < o.min {
        let Some(i) = extra.next() else { break };
        chosen |= 1 << i;
        count += 1;
    }
    // In order: each chosen key before the ones that come after it.
    let mut order: Vec<usize> = (0..n).filter(|&i| chosen & (1 << i) != 0).collect();
    order.sort_by_key(|&i| (chosen & after[i]).count_ones());
    order.reverse();
    let mut v = vec![b'{'];
    let mut written = 0u64;
    for i in order {
        obj_member(&mut v, &o.keys[i], get(o.vals[i])?, written);
        written += 1;
    }
    let mut made = 0u64;
    while written < o.min {
        let t = get(o.additional?)?;
        let k = made_up_key(&o.keys, &mut made);
        obj_member(&mut v, &k, t, written);
        written += 1;
    }
    if written > o.max {
        return None;
    }
    v.push(b'}');
    Some(v)
}

fn obj_member(v: &mut Vec<u8>, key: &[u8], val: &[u8], count: u64) {
    if count > 0 {
        v.push(b',');
    }
    v.push(b'"');
    v.extend_from_slice(key);
    v.extend_from_slice(b"\":");
    v.extend_from_slice(val);
}

/// A key none of `keys` is: `0`, `1`, ... in turn from `*next`.
pub(crate) fn made_up_key(keys: &[Box<[u8]>], next: &mut u64) -> Box<[u8]> {
    loop {
        let k = next.to_string().into_bytes().into_boxed_slice();
        *next += 1;
        if keys.binary_search(&k).is_err() {
            return k;
        }
    }
}

#[cfg(test)]
mod tests {
    /// The formats the decoder refuses as having no checker are those the
    /// schema layer lists as not asserted.
    #[test]
    fn unchecked_formats_are_the_schema_layers_unasserted_ones() {
        assert_eq!(
            super::super::strkw::UNCHECKED_FORMATS,
            crate::schema::decode_view::Format::UNASSERTED
        );
    }
}
