//! What the schema says at a path of a partial value: the nodes that apply
//! there, the string options they allow, the one option a prefix can still
//! become.
use crate::schema::options::StringOptions;
use crate::schema::program::{Kw, NodeId, Program, in_place_children};
use crate::{PathRef, Segment};

/// Collects the nodes that apply at `path`, following applicators too
/// (`anyOf` / `oneOf` / `if` branches included: holding back is conservative).
fn nodes_at(prog: &Program, path: PathRef<'_>) -> Vec<NodeId> {
    // `seen` marks the nodes of the set being built, so that each is added
    // and walked once (searching the set for each node would be quadratic
    // in the schema's size, for every string a partial tree asks about).
    fn close(prog: &Program, n: NodeId, out: &mut Vec<NodeId>, seen: &mut [bool]) {
        let Some(mark) = seen.get_mut(n as usize) else {
            return;
        };
        if *mark || out.len() > 4096 {
            return;
        }
        *mark = true;
        out.push(n);
        let mut kids = Vec::new();
        for kw in prog.node_kws(n).iter() {
            in_place_children(kw, &mut kids);
        }
        for k in kids {
            close(prog, k, out, seen);
        }
    }
    // On the stack for a schema of up to 256 nodes: this runs for every
    // string value a partial tree with held strings opens.
    let mut seen: smallvec::SmallVec<[bool; 256]> = smallvec::smallvec![false; prog.nodes.len()];
    let mut cur = Vec::new();
    close(prog, prog.root, &mut cur, &mut seen);
    for seg in path.segments() {
        // A new set: its marks start clear.
        for &n in &cur {
            if let Some(mark) = seen.get_mut(n as usize) {
                *mark = false;
            }
        }
        let mut next = Vec::new();
        for &n in &cur {
            for kw in prog.node_kws(n).iter() {
                match (kw, seg) {
                    (Kw::Object(o), Segment::Key(k)) => {
                        let mut matched = false;
                        if let Some(c) = o.prop(k) {
                            matched = true;
                            close(prog, c, &mut next, &mut seen);
                        }
                        for (p, c) in o.patterns.iter() {
                            // Past the backtrack budget: taken as matched
                            // (the nodes that may apply, a superset).
                            if p.test(k).unwrap_or(true) {
                                matched = true;
                                close(prog, *c, &mut next, &mut seen);
                            }
                        }
                        if !matched && let Some(c) = o.additional {
                            close(prog, c, &mut next, &mut seen);
                        }
                    }
                    (Kw::Items(it), Segment::Index(i)) => {
                        if let Some(c) = it.node_for(*i) {
                            close(prog, c, &mut next, &mut seen);
                        }
                    }
                    (Kw::Contains { node, .. }, Segment::Index(_)) => {
                        close(prog, *node, &mut next, &mut seen)
                    }
                    _ => {}
                }
            }
        }
        cur = next;
        if cur.is_empty() {
            break;
        }
    }
    cur
}

/// Whether some `enum` / `const` with a string option applies at `path`;
/// `each` sees every string option.
pub(crate) fn string_options_at(
    prog: &Program,
    path: PathRef<'_>,
    each: &mut dyn FnMut(&str) -> bool,
) -> bool {
    let mut found = false;
    for n in nodes_at(prog, path) {
        for kw in prog.node_kws(n).iter() {
            let opts = match kw {
                Kw::Enum(o) => o.strings(),
                Kw::Const(c) => StringOptions::of_const(c),
                _ => continue,
            };
            for s in opts {
                found = true;
                if !each(s) {
                    return true;
                }
            }
        }
    }
    found
}

pub(crate) fn unique_option_at<'p>(
    prog: &'p Program,
    path: PathRef<'_>,
    prefix: &str,
) -> Option<&'p str> {
    let mut hit: Option<&'p str> = None;
    let mut many = false;
    for n in nodes_at(prog, path) {
        for kw in prog.node_kws(n).iter() {
            let opts = match kw {
                Kw::Enum(o) => o.strings(),
                Kw::Const(c) => StringOptions::of_const(c),
                _ => continue,
            };
            for s in opts {
                if s.starts_with(prefix) {
                    match hit {
                        Some(h) if h != s => many = true,
                        _ => hit = Some(s),
                    }
                }
            }
        }
    }
    if many { None } else { hit }
}

#[cfg(test)]
mod tests {
    /// A node in the sets of two path segments in a row (the root, through
    /// `$ref: "#"`): its `enum` is found at every depth.
    #[test]
    fn a_recursive_schema_holds_strings_at_every_depth() {
        let s = crate::CompiledSchema::from_json_str(
            r##"{"anyOf": [{"type": "object", "properties": {"a": {"$ref": "#"}}}, {"enum": ["x", "y"]}]}"##,
        )
        .unwrap();
        let at = |p: &str| s.holds_string_at(crate::Path::parse_pointer(p).unwrap().as_ref());
        for p in ["", "/a", "/a/a", "/a/a/a"] {
            assert!(at(p), "{p}");
        }
        assert!(!at("/b"));
    }
}
