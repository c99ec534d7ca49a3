//! The deepest schema nesting a value can meet: how many subschema
//! applications (`$ref`, `allOf`, `properties`, `items`, ...) `validate`
//! can stack up from the root within a number of instance levels. The
//! decoder reads it so that it never writes a text that `validate` then
//! refuses for going past [`MAX_SCHEMA_NESTING`](super::MAX_DEPTH).

use crate::schema::program::{NodeId, Program, applied_nodes, in_place_children};

/// The deepest `depth` at which `validate` checks a node (the root at 0,
/// each applied subschema one more, as `Validator::check` counts it) over
/// instances nested at most `levels` values deep, or the first figure
/// past `stop` once it is certain to be reached.
///
/// Cost: O(min(levels, the schema's own instance depth) × (N + E)) for
/// `N` nodes and `E` subschema edges: one pass per instance level over the
/// in-place graph (a DAG: the compiler refuses in-place cycles), children
/// before parents, stopping once a pass changes nothing.
pub(crate) fn deepest_nesting(prog: &Program, levels: u32, stop: u32) -> u32 {
    let n = prog.nodes.len();
    let mut inplace: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    let mut child: Vec<Vec<NodeId>> = vec![Vec::new(); n];
    for id in 0..n {
        let (mut all, mut here) = (Vec::new(), Vec::new());
        for kw in prog.node_kws(id as NodeId) {
            in_place_children(kw, &mut here);
            applied_nodes(kw, |c| all.push(c));
        }
        // Whatever is applied and not in place applies to a child value
        // (a member, an item, a key).
        for c in &here {
            if let Some(i) = all.iter().position(|a| a == c) {
                all.swap_remove(i);
            }
        }
        inplace[id] = here;
        child[id] = all;
    }
    let order = post_order(&inplace);
    // below[k][id]: the deepest application under `id` using at most k
    // child steps (as depth added to `id`'s own).
    let mut prev: Vec<u32> = vec![0; n];
    let mut cur: Vec<u32> = vec![0; n];
    for level in 0..=levels {
        for &id in &order {
            let id = id as usize;
            let mut d = 0u32;
            for &c in &inplace[id] {
                d = d.max(cur[c as usize].saturating_add(1));
            }
            if level > 0 {
                for &c in &child[id] {
                    d = d.max(prev[c as usize].saturating_add(1));
                }
            }
            cur[id] = d;
        }
        let root = cur[prog.root as usize];
        if root > stop || (level > 0 && cur == prev) {
            return root;
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[prog.root as usize]
}

/// The nodes in an order where every in-place child comes before its
/// parent (iterative, so a chain of any length takes no stack).
fn post_order(inplace: &[Vec<NodeId>]) -> Vec<NodeId> {
    let n = inplace.len();
    let mut state = vec![0u8; n]; // 0 new, 1 open, 2 done
    let mut order = Vec::with_capacity(n);
    let mut stack: Vec<(NodeId, usize)> = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        stack.push((start as NodeId, 0));
        state[start] = 1;
        while let Some(top) = stack.last_mut() {
            let (id, next) = *top;
            if let Some(&c) = inplace[id as usize].get(next) {
                top.1 += 1;
                // An open child would be an in-place cycle, which the
                // compiler refuses; skip it rather than loop.
                if state[c as usize] == 0 {
                    state[c as usize] = 1;
                    stack.push((c, 0));
                }
            } else {
                state[id as usize] = 2;
                order.push(id);
                stack.pop();
            }
        }
    }
    order
}
