//! One function per keyword family, each reading its keywords of one
//! subschema into compiled [`Kw`]s: `type`, `enum` / `const`, numbers,
//! strings, `format`, objects, arrays, and the applicators. Keywords that
//! span several members (`items` with `additionalItems`, `contains` with
//! its bounds, `if` / `then` / `else`, the properties of an object) are
//! gathered in [`NodeParts`] and put together when every member is read.

use std::rc::Rc;

use super::{Compiler, Kws, Special};
use crate::schema::doc::{Doc, Obj};
use crate::schema::format::Format;
use crate::schema::options::EnumOptions;
use crate::schema::program::{ItemsKw, Kw, Name, NodeId, ObjectKw, SlotHash, Span, key_tag};
use crate::schema::types::{T_ARR, T_BOOL, T_INT, T_NULL, T_NUM, T_OBJ, T_STR};
use crate::schema::{Draft, SchemaError};

/// Where a keyword is read: its subschema's base URI, draft and path, and
/// the keyword's own path (only for keywords that hold subschemas).
#[derive(Clone, Copy)]
pub(super) struct KwAt<'b> {
    pub(super) base: &'b Rc<str>,
    pub(super) draft: Draft,
    pub(super) loc: Span,
    pub(super) kl: Span,
}

/// The parts of a subschema's keywords that are put together only once
/// every member is read.
#[derive(Default)]
pub(super) struct NodeParts {
    /// `properties`, `patternProperties` and `additionalProperties`, once
    /// one of them is read.
    obj: Option<ObjectKw>,
    prefix: Option<Box<[NodeId]>>,
    rest: Option<NodeId>,
    min_contains: Option<u64>,
    max_contains: Option<u64>,
    contains: Option<NodeId>,
    cond: Option<NodeId>,
    then: Option<NodeId>,
    els: Option<NodeId>,
    /// Draft-04 boolean `exclusiveMinimum` / `exclusiveMaximum`.
    d4_excl_min: bool,
    d4_excl_max: bool,
}

impl NodeParts {
    /// The object keyword, empty until a member fills it.
    fn obj(&mut self) -> &mut ObjectKw {
        self.obj.get_or_insert_with(|| ObjectKw {
            props: Box::new([]),
            tags: Box::new([]),
            slot_hash: None,
            patterns: Box::new([]),
            additional: None,
            additional_false: false,
            required_mask: 0,
        })
    }

    /// Adds to `kws` the keywords put together from several members, in
    /// the order `validate` reports them (the `unevaluated*` keywords come
    /// after), and says whether `required` is checked with `properties`
    /// (see [`ObjectKw::required_mask`]).
    pub(super) fn put_together(&mut self, kws: &mut Kws) -> bool {
        let mut required_in_object = false;
        if let Some(mut obj) = self.obj.take() {
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
        if self.prefix.is_some() || self.rest.is_some() {
            kws.push(Kw::Items(Box::new(ItemsKw {
                prefix: self.prefix.take().unwrap_or_default(),
                rest: self.rest,
            })));
        }
        if let Some(node) = self.contains {
            kws.push(Kw::Contains {
                node,
                min: self.min_contains.unwrap_or(1),
                max: self.max_contains,
            });
        }
        if let Some(c) = self.cond
            && (self.then.is_some() || self.els.is_some())
        {
            kws.push(Kw::If {
                cond: c,
                then: self.then,
                els: self.els,
            });
        }
        // Draft-04 `exclusiveMinimum: true` makes `minimum` exclusive (and
        // the same for the maximum).
        let (d4_excl_min, d4_excl_max) = (self.d4_excl_min, self.d4_excl_max);
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
        required_in_object
    }
}

impl<'a> Compiler<'a> {
    /// `type`: a name or an array of names, as a mask of type bits.
    pub(super) fn type_kw(
        &mut self,
        t: Doc<'_>,
        loc: Span,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
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
        Ok(())
    }

    /// `enum` and `const`.
    pub(super) fn enum_const(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        match k {
            "enum" => match v.as_array() {
                Some(a) => kws.push(Kw::Enum(EnumOptions::new(a))),
                None => self.bad(
                    at.loc,
                    k,
                    format!("expected an array, found {}", v.kind_of()),
                )?,
            },
            _ => kws.push(Kw::Const(Box::new(v.to_value()))),
        }
        Ok(())
    }

    /// `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum` (a
    /// number, or in draft-07 a draft-04 boolean) and `multipleOf`.
    pub(super) fn numbers(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let (draft, loc) = (at.draft, at.loc);
        if draft == Draft::Draft7
            && matches!(k, "exclusiveMinimum" | "exclusiveMaximum")
            && v.as_bool().is_some()
        {
            // Draft-04 style: `true` makes `minimum` / `maximum` exclusive.
            if v.as_bool() == Some(true) {
                if k == "exclusiveMinimum" {
                    parts.d4_excl_min = true;
                } else {
                    parts.d4_excl_max = true;
                }
            }
            return Ok(());
        }
        if let Some(n) = self.number(v, loc, k)? {
            if k == "multipleOf" && (n.dec().is_zero() || n.dec().is_negative()) {
                self.bad(
                    loc,
                    k,
                    format!("expected a number greater than 0, found {v}"),
                )?;
                return Ok(());
            }
            kws.push(match k {
                "minimum" => Kw::Minimum(n),
                "maximum" => Kw::Maximum(n),
                "exclusiveMinimum" => Kw::ExclusiveMinimum(n),
                "exclusiveMaximum" => Kw::ExclusiveMaximum(n),
                _ => Kw::MultipleOf(n),
            });
        }
        Ok(())
    }

    /// `minLength`, `maxLength` and `pattern`.
    pub(super) fn strings(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let loc = at.loc;
        match k {
            "pattern" => match v.as_str() {
                Some(s) => {
                    if let Some(p) = self.pattern(s, loc, k)? {
                        kws.push(Kw::Pattern(Box::new(p)));
                    }
                }
                None => self.bad(loc, k, format!("expected a string, found {}", v.kind_of()))?,
            },
            _ => {
                if let Some(n) = self.non_neg(v, loc, k)? {
                    kws.push(if k == "minLength" {
                        Kw::MinLength(n)
                    } else {
                        Kw::MaxLength(n)
                    });
                }
            }
        }
        Ok(())
    }

    /// `format`: asserted when the builder asks, else an annotation.
    pub(super) fn format(
        &mut self,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let (k, loc) = ("format", at.loc);
        match v.as_str() {
            Some(s) => match (self.opts.assert_formats, Format::from_name(s)) {
                (true, Some(f)) => kws.push(Kw::Format(f)),
                (assert, _) => {
                    // An unknown format stays an annotation (as other
                    // validators do), and is listed.
                    if assert {
                        let why = if Format::UNASSERTED.contains(&s) {
                            "is not asserted here (no checker), kept as an annotation"
                        } else {
                            "is not a JSON Schema format, kept as an annotation"
                        };
                        self.ignored
                            .push(format!("{}/format: format {s:?} {why}", self.loc_str(loc)));
                    }
                    // Kept for a reader that asserts formats itself
                    // (constrained decoding).
                    self.format_notes.push((loc, s.into()));
                }
            },
            None => self.bad(loc, k, format!("expected a string, found {}", v.kind_of()))?,
        }
        Ok(())
    }

    /// `properties`, `patternProperties`, `additionalProperties`,
    /// `required`, `propertyNames`, `dependentRequired`,
    /// `dependentSchemas`, draft-07 `dependencies`, `minProperties` and
    /// `maxProperties`.
    pub(super) fn objects(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let KwAt {
            base,
            draft,
            loc,
            kl,
        } = at;
        match k {
            "properties" => match v.as_object() {
                Some(pm) => {
                    let mut props = Vec::with_capacity(pm.len());
                    for (pk, pv) in pm.iter() {
                        if self.schema_value(pv, kl, pk)? {
                            let child = self.child(kl, pk);
                            let n = self.sub(pv, base, draft, child)?;
                            props.push((Name::from(pk), n));
                        }
                    }
                    props.sort_by(|a, b| a.0.cmp(&b.0));
                    props.dedup_by(|a, b| a.0 == b.0);
                    let obj = parts.obj();
                    obj.tags = props.iter().map(|(k, _)| key_tag(k)).collect();
                    obj.slot_hash = SlotHash::find(&props, &obj.tags);
                    obj.props = props.into();
                }
                None => self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?,
            },
            "patternProperties" => match v.as_object() {
                Some(pm) => {
                    let mut pats = Vec::with_capacity(pm.len());
                    for (pk, pv) in pm.iter() {
                        if self.schema_value(pv, kl, pk)?
                            && let Some(p) = self.pattern(pk, loc, k)?
                        {
                            let child = self.child(kl, pk);
                            let n = self.sub(pv, base, draft, child)?;
                            pats.push((p, n));
                        }
                    }
                    parts.obj().patterns = pats.into();
                }
                None => self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?,
            },
            "additionalProperties" => {
                if self.schema_value(v, loc, k)? {
                    let additional = self.sub(v, base, draft, kl)?;
                    let obj = parts.obj();
                    obj.additional = Some(additional);
                    obj.additional_false = v.as_bool() == Some(false);
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
                    let n = self.sub(v, base, draft, kl)?;
                    kws.push(Kw::PropertyNames(n));
                }
            }
            "dependentRequired" | "dependentSchemas" | "dependencies" => {
                let Some(dm) = v.as_object() else {
                    self.bad(loc, k, format!("expected an object, found {}", v.kind_of()))?;
                    return Ok(());
                };
                if k == "dependencies" && draft != Draft::Draft7 {
                    return Ok(());
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
                            let n = self.sub(dv, base, draft, child)?;
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
            _ => {
                if let Some(n) = self.non_neg(v, loc, k)? {
                    kws.push(if k == "minProperties" {
                        Kw::MinProperties(n)
                    } else {
                        Kw::MaxProperties(n)
                    });
                }
            }
        }
        Ok(())
    }

    /// `items`, `prefixItems`, `additionalItems` (see
    /// [`Compiler::additional_items`]), `uniqueItems`, `contains`,
    /// `minItems`, `maxItems`, `minContains` and `maxContains`.
    pub(super) fn arrays(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let KwAt {
            base,
            draft,
            loc,
            kl,
        } = at;
        match k {
            "items" => match (draft, v.as_array()) {
                (Draft::Draft7, Some(a)) => {
                    let ids = self.sub_list(a, base, draft, kl)?;
                    parts.prefix = Some(ids.into());
                }
                _ => {
                    if self.schema_value(v, loc, k)? {
                        let n = self.sub(v, base, draft, kl)?;
                        if draft == Draft::Draft7 {
                            // Draft-07 `items: {schema}` applies to every item.
                            parts.rest = Some(n);
                            parts.prefix.get_or_insert_with(|| Box::new([]));
                        } else {
                            parts.rest = Some(n);
                        }
                    }
                }
            },
            "prefixItems" => {
                if draft == Draft::Draft202012 {
                    match v.as_array() {
                        Some(a) => {
                            let ids = self.sub_list(a, base, draft, kl)?;
                            parts.prefix = Some(ids.into());
                        }
                        None => self.bad(
                            loc,
                            k,
                            format!("expected an array of schemas, found {}", v.kind_of()),
                        )?,
                    }
                }
            }
            // Read with `items` once every member is read.
            "additionalItems" => {}
            "uniqueItems" => match v.as_bool() {
                Some(true) => kws.push(Kw::UniqueItems),
                Some(false) => {}
                None => self.bad(loc, k, format!("expected a boolean, found {v}"))?,
            },
            "contains" => {
                if self.schema_value(v, loc, k)? {
                    parts.contains = Some(self.sub(v, base, draft, kl)?);
                }
            }
            _ => {
                if let Some(n) = self.non_neg(v, loc, k)? {
                    match k {
                        "minItems" => kws.push(Kw::MinItems(n)),
                        "maxItems" => kws.push(Kw::MaxItems(n)),
                        "minContains" if draft == Draft::Draft202012 => {
                            parts.min_contains = Some(n)
                        }
                        "maxContains" if draft == Draft::Draft202012 => {
                            parts.max_contains = Some(n)
                        }
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    /// Draft-07 `additionalItems`, which applies only next to an array `items`.
    pub(super) fn additional_items(
        &mut self,
        special: &Special<'a>,
        at: KwAt<'_>,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let (draft, loc) = (at.draft, at.loc);
        if draft == Draft::Draft7
            && special.items.is_some_and(|i| i.as_array().is_some())
            && let Some(ai) = special.additional_items
            && self.schema_value(ai, loc, "additionalItems")?
        {
            let child = self.child(loc, "additionalItems");
            parts.rest = Some(self.sub(ai, at.base, draft, child)?);
        }
        Ok(())
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then` and `else`.
    pub(super) fn applicators(
        &mut self,
        k: &str,
        v: Doc<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
        let KwAt {
            base,
            draft,
            loc,
            kl,
        } = at;
        match k {
            "allOf" | "anyOf" | "oneOf" => match v.as_array() {
                Some(a) if !a.is_empty() => {
                    let ids = self.sub_list(a, base, draft, kl)?;
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
                    let n = self.sub(v, base, draft, kl)?;
                    kws.push(Kw::Not(n));
                }
            }
            "if" => {
                if self.schema_value(v, loc, k)? {
                    parts.cond = Some(self.sub(v, base, draft, kl)?);
                }
            }
            "then" => {
                if self.schema_value(v, loc, k)? {
                    parts.then = Some(self.sub(v, base, draft, kl)?);
                }
            }
            _ => {
                if self.schema_value(v, loc, k)? {
                    parts.els = Some(self.sub(v, base, draft, kl)?);
                }
            }
        }
        Ok(())
    }

    /// `unevaluatedItems` and `unevaluatedProperties` (draft 2020-12),
    /// last: they depend on what every other keyword evaluated.
    pub(super) fn unevaluated(
        &mut self,
        special: &Special<'a>,
        at: KwAt<'_>,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        let (draft, loc) = (at.draft, at.loc);
        if draft == Draft::Draft202012 {
            for (k, v) in [
                ("unevaluatedItems", special.unevaluated_items),
                ("unevaluatedProperties", special.unevaluated_properties),
            ] {
                if let Some(v) = v
                    && self.schema_value(v, loc, k)?
                {
                    let child = self.child(loc, k);
                    let n = self.sub(v, at.base, draft, child)?;
                    kws.push(if k == "unevaluatedItems" {
                        Kw::UnevaluatedItems(n)
                    } else {
                        Kw::UnevaluatedProperties(n)
                    });
                }
            }
        }
        Ok(())
    }

    /// The members of subschema `m`, each read by its family's function.
    pub(super) fn members(
        &mut self,
        m: Obj<'a>,
        base: &Rc<str>,
        draft: Draft,
        loc: Span,
        kws: &mut Kws,
        parts: &mut NodeParts,
    ) -> Result<(), SchemaError> {
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
            let at = KwAt {
                base,
                draft,
                loc,
                kl,
            };
            match k {
                "type" | "$ref" | "$dynamicRef" | "$schema" | "$id" | "$anchor"
                | "$dynamicAnchor" | "$defs" | "definitions" | "$comment" | "$vocabulary" => {}
                "enum" | "const" => self.enum_const(k, v, at, kws)?,
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => {
                    self.numbers(k, v, at, kws, parts)?
                }
                "minLength" | "maxLength" | "pattern" => self.strings(k, v, at, kws)?,
                "format" => self.format(v, at, kws)?,
                "properties"
                | "patternProperties"
                | "additionalProperties"
                | "required"
                | "propertyNames"
                | "dependentRequired"
                | "dependentSchemas"
                | "dependencies"
                | "minProperties"
                | "maxProperties" => self.objects(k, v, at, kws, parts)?,
                "items" | "prefixItems" | "additionalItems" | "uniqueItems" | "contains"
                | "minItems" | "maxItems" | "minContains" | "maxContains" => {
                    self.arrays(k, v, at, kws, parts)?
                }
                "allOf" | "anyOf" | "oneOf" | "not" | "if" | "then" | "else" => {
                    self.applicators(k, v, at, kws, parts)?
                }
                k if super::UNSUPPORTED.contains(&k) => {
                    let e = self.err(loc, k, format!("keyword {k:?} is not supported"));
                    if self.opts.strict {
                        return Err(e);
                    }
                    self.ignored.push(e.path);
                }
                _ => {}
            }
        }
        Ok(())
    }
}
