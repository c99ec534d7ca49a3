//! The keywords of a set of nodes that apply to one value, read family by
//! family as `schema/compile/keywords/` compiles them (`type`, `enum` /
//! `const`, numbers, strings, `format`, objects, arrays, applicators) into
//! what `shape.rs` builds a shape from.

use super::DecodeError;
use super::approx::{Approximations, unsupported};
use super::strkw::{PatternKw, UNCHECKED_FORMATS};
use crate::Value;
use crate::schema::decode_view::{
    Format, ItemsKw, Kw, NodeId, ObjectKw, Program, T_ALL, format_notes, node_accepts,
};

/// A number bound: an integer and whether it is exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bound {
    pub(crate) at: i128,
    pub(crate) open: bool,
}

/// An `anyOf` / `oneOf` still to choose a branch of: its keyword's
/// position, its branches, and its node when it is a `oneOf`.
pub(super) type Disjunction<'p> = (u32, &'p [NodeId], Option<NodeId>);

/// What the keywords of one set of nodes say about their value.
pub(super) struct Keywords<'p> {
    // `type`
    pub(super) types: u8,
    // `enum` / `const`: the first one met.
    pub(super) literal: Option<Vec<Value>>,
    // Numbers: the tightest bounds.
    pub(super) lo: Option<Bound>,
    pub(super) hi: Option<Bound>,
    // Strings.
    pub(super) min_len: u64,
    pub(super) max_len: u64,
    /// `pattern` / asserted `format` on strings, with where they are.
    pub(super) patterns: Vec<(NodeId, PatternKw<'p>)>,
    // `format`: those asserted here that the schema keeps as annotations
    // (literal options are checked against them too).
    noted: Vec<Format>,
    // Objects.
    pub(super) objects: Vec<&'p ObjectKw>,
    pub(super) required: Vec<&'p str>,
    pub(super) min_props: u64,
    pub(super) max_props: u64,
    // Arrays.
    pub(super) items: Vec<&'p ItemsKw>,
    pub(super) min_items: u64,
    pub(super) max_items: u64,
    // Applicators: the first `anyOf` / `oneOf` not yet chosen (`$ref` and
    // `allOf` are merged into the set before).
    pub(super) disjunction: Option<Disjunction<'p>>,
}

/// Where the keywords are read: the program, whether formats kept as
/// annotations are asserted, and the keywords approximated so far.
pub(super) struct Reading<'a, 'p> {
    pub(super) prog: &'p Program,
    pub(super) assert_formats: bool,
    pub(super) approx: &'a mut Approximations,
}

impl<'p> Keywords<'p> {
    /// Reads the keywords of `set`, the `anyOf` / `oneOf` keywords at
    /// positions `done` already chosen.
    pub(super) fn read(
        r: &mut Reading<'_, 'p>,
        set: &[NodeId],
        done: &[u32],
    ) -> Result<Keywords<'p>, DecodeError> {
        let prog = r.prog;
        let mut k = Keywords {
            types: T_ALL,
            literal: None,
            lo: None,
            hi: None,
            min_len: 0,
            max_len: u64::MAX,
            patterns: Vec::new(),
            noted: Vec::new(),
            objects: Vec::new(),
            required: Vec::new(),
            min_props: 0,
            max_props: u64::MAX,
            items: Vec::new(),
            min_items: 0,
            max_items: u64::MAX,
            disjunction: None,
        };
        // Literal options are checked against whole nodes, so any keyword
        // is exact under `enum` / `const`.
        let has_lit = set_has_literal(prog, set);
        for &n in set {
            if r.assert_formats {
                k.noted_formats(prog, n);
            }
            let node = prog.node(n);
            for (i, kw) in prog.kws(node).iter().enumerate() {
                let pos = node.kws.start + i as u32;
                k.keyword(r, n, pos, kw, has_lit, done)?;
            }
        }
        Ok(k)
    }

    /// One keyword of node `n` (at position `pos`), by family.
    fn keyword(
        &mut self,
        r: &mut Reading<'_, 'p>,
        n: NodeId,
        pos: u32,
        kw: &'p Kw,
        has_lit: bool,
        done: &[u32],
    ) -> Result<(), DecodeError> {
        match kw {
            // `type`
            Kw::False => self.types = 0,
            Kw::Type(m) => self.types &= *m,
            // `enum` / `const`
            Kw::Enum(opts) => {
                let vals: Vec<Value> = match opts.values() {
                    None => opts
                        .strings()
                        .map(|s| Value::String(s.to_owned()))
                        .collect(),
                    Some(v) => v.to_vec(),
                };
                self.literal.get_or_insert(vals);
            }
            Kw::Const(v) => {
                self.literal.get_or_insert_with(|| vec![(**v).clone()]);
            }
            // Numbers.
            Kw::Minimum(_) | Kw::ExclusiveMinimum(_) | Kw::Maximum(_) | Kw::ExclusiveMaximum(_) => {
                self.number_bound(r, n, kw, has_lit)?
            }
            // Strings and `format`.
            Kw::MinLength(m) => self.min_len = self.min_len.max(*m),
            Kw::MaxLength(m) => self.max_len = self.max_len.min(*m),
            Kw::Pattern(p) => self.patterns.push((n, PatternKw::Pattern(p))),
            Kw::Format(f) => self.patterns.push((n, PatternKw::Format(*f))),
            // Objects.
            Kw::Object(o) => self.object(r, n, o, has_lit)?,
            Kw::Required(req) => self.required.extend(req.iter().map(|s| s.as_str())),
            Kw::MinProperties(m) => self.min_props = self.min_props.max(*m),
            Kw::MaxProperties(m) => self.max_props = self.max_props.min(*m),
            // Arrays.
            Kw::Items(it) => self.items.push(&**it),
            Kw::MinItems(m) => self.min_items = self.min_items.max(*m),
            Kw::MaxItems(m) => self.max_items = self.max_items.min(*m),
            // Applicators.
            Kw::Ref(_) | Kw::AllOf(_) => {}
            Kw::AnyOf(a) | Kw::OneOf(a) => {
                if !done.contains(&pos) && self.disjunction.is_none() {
                    self.disjunction = Some((pos, a, matches!(kw, Kw::OneOf(_)).then_some(n)));
                }
            }
            Kw::MultipleOf(_)
            | Kw::PropertyNames(_)
            | Kw::DependentRequired(_)
            | Kw::DependentSchemas(_)
            | Kw::UniqueItems
            | Kw::Contains { .. }
            | Kw::Not(_)
            | Kw::If { .. }
            | Kw::DynamicRef(_)
            | Kw::UnevaluatedProperties(_)
            | Kw::UnevaluatedItems(_) => {
                if !has_lit {
                    let e = unsupported(
                        r.prog,
                        n,
                        kw.name(),
                        "not decidable on a prefix by this decoder",
                    );
                    r.approx.record(e, "not enforced")?;
                }
            }
        }
        Ok(())
    }

    /// The formats node `n` keeps as annotations, asserted here.
    fn noted_formats(&mut self, prog: &'p Program, n: NodeId) {
        for name in format_notes(prog, n) {
            match Format::from_name(name) {
                Some(f) => {
                    self.noted.push(f);
                    self.patterns.push((n, PatternKw::Format(f)));
                }
                None if UNCHECKED_FORMATS.contains(&name) => {
                    self.patterns.push((n, PatternKw::Unchecked(name)));
                }
                // Not a JSON Schema format: an annotation, as the format
                // checker keeps it.
                None => {}
            }
        }
    }

    /// `minimum`, `maximum` or an exclusive one: the tighter bound wins; at
    /// the same number, the open one.
    fn number_bound(
        &mut self,
        r: &mut Reading<'_, 'p>,
        n: NodeId,
        kw: &Kw,
        has_lit: bool,
    ) -> Result<(), DecodeError> {
        let (Kw::Minimum(b) | Kw::ExclusiveMinimum(b) | Kw::Maximum(b) | Kw::ExclusiveMaximum(b)) =
            kw
        else {
            return Ok(());
        };
        let open = matches!(kw, Kw::ExclusiveMinimum(_) | Kw::ExclusiveMaximum(_));
        let nb = match b.int {
            Some(at) => Bound {
                at: at.into(),
                open,
            },
            None => match r.approx.inexact_bound(r.prog, n, kw, has_lit)? {
                Some(at) => Bound { at, open: false },
                None => return Ok(()),
            },
        };
        if matches!(kw, Kw::Minimum(_) | Kw::ExclusiveMinimum(_)) {
            self.lo = Some(match self.lo {
                Some(o) if (o.at, o.open) > (nb.at, nb.open) => o,
                _ => nb,
            });
        } else {
            self.hi = Some(match self.hi {
                Some(o) if (o.at, !o.open) < (nb.at, !nb.open) => o,
                _ => nb,
            });
        }
        Ok(())
    }

    /// `properties`, `patternProperties` and `additionalProperties`.
    fn object(
        &mut self,
        r: &mut Reading<'_, 'p>,
        n: NodeId,
        o: &'p ObjectKw,
        has_lit: bool,
    ) -> Result<(), DecodeError> {
        // Exact under a literal; approximated, `object` leaves such an
        // object open to any other key.
        let exact = has_lit && r.approx.allowed();
        if !o.patterns.is_empty() && !exact {
            let e = unsupported(
                r.prog,
                n,
                "patternProperties",
                "a key's schema depends on a pattern over the key's text",
            );
            r.approx.record(
                e,
                "not enforced: a key outside `properties` takes any value, \
                 its pattern's schema and `additionalProperties` both unchecked",
            )?;
        }
        self.objects.push(o);
        Ok(())
    }

    /// The literal options that every node of `set` accepts (and the
    /// formats asserted here, for a string).
    pub(super) fn kept_literals<'v>(
        &self,
        prog: &Program,
        set: &[NodeId],
        opts: &'v [Value],
    ) -> Vec<&'v Value> {
        opts.iter()
            .filter(|v| set.iter().all(|&n| node_accepts(prog, n, v)))
            .filter(|v| match v {
                Value::String(s) => self.noted.iter().all(|f| f.check(s)),
                _ => true,
            })
            .collect()
    }
}

/// Whether a node of `set` has `enum` or `const`.
fn set_has_literal(prog: &Program, set: &[NodeId]) -> bool {
    set.iter().any(|&n| {
        prog.node_kws(n)
            .iter()
            .any(|k| matches!(k, Kw::Enum(_) | Kw::Const(_)))
    })
}
