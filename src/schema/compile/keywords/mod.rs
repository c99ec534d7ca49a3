//! The keywords of one subschema read into compiled [`Kw`]s, one function
//! per keyword family, each family in its own file (the same names in
//! `validate/` and `stream/`): `types`, `enum_const`, `numbers`,
//! `strings`, `formats`, `objects`, `arrays`, `applicators` and
//! `unevaluated`. [`Compiler::members`] hands each member to its family.
//! Keywords that span several members (`items` with `additionalItems`,
//! `contains` with its bounds, `if` / `then` / `else`, the properties of an
//! object) are gathered in [`NodeParts`] and put together when every member
//! is read.

mod applicators;
mod arrays;
mod enum_const;
mod formats;
mod numbers;
mod objects;
mod strings;
mod types;
mod unevaluated;

use std::rc::Rc;

use super::{Compiler, Kws};
use crate::schema::doc::Obj;
use crate::schema::program::{ItemsKw, Kw, NodeId, ObjectKw, Span};
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
