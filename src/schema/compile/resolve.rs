//! `$ref`, `$dynamicRef`, `$id` and anchors: the index of every document's
//! resources and anchors (built when the first reference needs it), the
//! resolution of a reference to the place it names, and the worklist that
//! compiles `$ref` targets without recursion (memoised by the target's
//! address, which is what makes recursive schemas finite).

use std::rc::Rc;

use super::{
    ARRAYS, Base, Compiler, Kws, MAPS, Place, ROOT_URI, SINGLE, draft_of, meta,
    strip_empty_fragment, uri,
};
use crate::schema::doc::Doc;
use crate::schema::program::{DynRef, Kw, NodeId, Span};
use crate::schema::{Draft, SchemaError};

impl<'a> Compiler<'a> {
    pub(super) fn index_all(&mut self) {
        for i in 0..self.docs.len() {
            if !self.docs[i].2 {
                self.docs[i].2 = true;
                let (uri, root) = (self.docs[i].0.clone(), self.docs[i].1);
                let draft = self.opts.draft;
                self.index(root, &uri, draft, true);
            }
        }
    }

    pub(super) fn index(&mut self, v: Doc<'a>, base: &str, draft: Draft, doc_root: bool) {
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

    pub(super) fn base_at(&self, v: Doc<'_>) -> Option<&Base> {
        self.bases.get(&v.addr())
    }

    /// Resolves `reference` seen under `base`: the target and its place.
    pub(super) fn resolve(
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
            for (u, v) in meta::metaschemas() {
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

    pub(super) fn resource_index(&mut self, base: &Rc<str>) -> u32 {
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

    pub(super) fn compile_ref(&mut self, place: Place<'a>) -> Result<NodeId, SchemaError> {
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
    pub(super) fn drain(&mut self, keep: usize) -> Result<(), SchemaError> {
        while self.pending.len() > keep {
            let Some((id, place)) = self.pending.pop() else {
                break;
            };
            self.fill(id, place)?;
        }
        Ok(())
    }

    /// `$ref`: resolved, and its target compiled (or queued).
    pub(super) fn ref_kw(
        &mut self,
        r: Doc<'a>,
        base: &Rc<str>,
        draft: Draft,
        loc: Span,
        kws: &mut Kws,
    ) -> Result<(), SchemaError> {
        match r.as_str() {
            Some(s) => {
                let place = self.resolve(base, draft, s, loc)?;
                let target = self.compile_ref(place)?;
                kws.push(Kw::Ref(target));
            }
            None => self.bad(
                loc,
                "$ref",
                format!("expected a URI reference string, found {r}"),
            )?,
        }
        Ok(())
    }

    pub(super) fn dynamic_ref(
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
