//! Mask equivalence against an exact oracle: small schemas whose valid
//! instances over a small alphabet are few enough to list. Every valid
//! compact text (each key order) is listed and checked by `validate`; a
//! byte is viable after a prefix iff prefix + byte starts one of them. The
//! decoder must agree on every byte of the alphabet after every prefix
//! (allowed => a valid text continues it; refused => none does), and its
//! token masks must agree with committing each token.
use std::collections::HashSet;

use proptest::prelude::*;
use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, Vocabulary};

/// The alphabet: JSON structure, digits, the letters of the literals and
/// keys, and `é` (two bytes, so a prefix can end inside a character).
const SIGMA: &[u8] = b"{}[],:\"-0123456789abcelnrstuxy\xc3\xa9";

#[derive(Clone, Debug)]
enum Kind {
    Int(i64, i64),
    Str(u64, u64),
    Enum,
    Bool,
    Arr(u64, u64),
}

impl Kind {
    fn schema(&self) -> serde_json::Value {
        use serde_json::json;
        match *self {
            Kind::Int(lo, hi) => json!({"type": "integer", "minimum": lo, "maximum": hi}),
            Kind::Str(min, max) => json!({"type": "string", "minLength": min, "maxLength": max}),
            Kind::Enum => json!({"enum": ["x", "ab", 1, true]}),
            Kind::Bool => json!({"type": ["boolean", "null"]}),
            Kind::Arr(min, max) => {
                json!({"type": "array", "items": {"type": "boolean"}, "minItems": min, "maxItems": max})
            }
        }
    }

    /// Candidate texts: every valid one and some invalid ones around them.
    fn texts(&self) -> Vec<String> {
        match *self {
            Kind::Int(lo, hi) => {
                let mut v: Vec<String> = (lo..=hi).map(|i| i.to_string()).collect();
                v.push("-0".into());
                v
            }
            Kind::Str(_, max) => {
                // Every character of the alphabet that a string may hold.
                let chars: Vec<String> = SIGMA
                    .iter()
                    .filter(|&&b| b != b'"' && b < 0x80)
                    .map(|&b| (b as char).to_string())
                    .chain(["é".to_string()])
                    .collect();
                let mut out = vec![String::new()];
                let mut all = vec![String::new()];
                for _ in 0..max {
                    out = out
                        .iter()
                        .flat_map(|s| chars.iter().map(move |c| format!("{s}{c}")))
                        .collect();
                    all.extend(out.iter().cloned());
                }
                all.into_iter().map(|s| format!("\"{s}\"")).collect()
            }
            Kind::Enum => ["\"x\"", "\"ab\"", "1", "true", "\"y\"", "false"]
                .map(String::from)
                .to_vec(),
            Kind::Bool => ["true", "false", "null"].map(String::from).to_vec(),
            Kind::Arr(_, max) => {
                let mut all = vec!["[]".to_string()];
                let mut cur = vec![Vec::<&str>::new()];
                for _ in 0..=max {
                    cur = cur
                        .iter()
                        .flat_map(|v| {
                            ["true", "false"].map(|b| {
                                let mut w = v.clone();
                                w.push(b);
                                w
                            })
                        })
                        .collect();
                    all.extend(cur.iter().map(|v| format!("[{}]", v.join(","))));
                }
                all
            }
        }
    }
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![
        (-3i64..11, 0i64..4).prop_map(|(lo, w)| Kind::Int(lo, lo + w)),
        (0u64..2, 0u64..2).prop_map(|(a, b)| Kind::Str(a.min(b), b)),
        Just(Kind::Enum),
        Just(Kind::Bool),
        (0u64..2, 0u64..3).prop_map(|(a, b)| Kind::Arr(a.min(b), b)),
    ]
}

/// Every subset of `keys` in every order.
fn arrangements(keys: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    let mut frontier = vec![vec![]];
    for _ in 0..keys.len() {
        let mut next = Vec::new();
        for a in &frontier {
            for &k in keys {
                if !a.contains(&k) {
                    let mut b: Vec<usize> = a.clone();
                    b.push(k);
                    next.push(b);
                }
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

fn valid_texts(schema: &CompiledSchema, props: &[Kind], alt: bool) -> Vec<String> {
    let names = ["a", "b", "c"];
    let mut cands = Vec::new();
    for arr in arrangements(&(0..props.len()).collect::<Vec<_>>()) {
        let mut partial = vec![String::new()];
        for (i, &k) in arr.iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            partial = partial
                .iter()
                .flat_map(|p| {
                    props[k]
                        .texts()
                        .into_iter()
                        .map(move |t| format!("{p}{sep}\"{}\":{t}", names[k]))
                })
                .collect();
        }
        cands.extend(partial.into_iter().map(|p| format!("{{{p}}}")));
    }
    if alt {
        cands.extend(Kind::Int(-1, 3).texts());
    }
    cands
        .into_iter()
        .filter(|t| {
            tooljson::from_str(t)
                .map(|v| schema.is_valid(&v))
                .unwrap_or(false)
        })
        .collect()
}

fn vocab() -> Vocabulary {
    let mut toks: Vec<Vec<u8>> = SIGMA.iter().map(|&b| vec![b]).collect();
    for w in [
        "\"a\":", "\"b\":", "\"c\":", "true", "false", "null", "10", "-0", ",\"", "é", "aé\"",
        "[true", "\"}",
    ] {
        toks.push(w.as_bytes().to_vec());
    }
    toks.push(vec![b'a', 0xc3]);
    toks.push(Vec::new());
    let eos = toks.len() as u32 - 1;
    Vocabulary::from_bytes(toks, vec![eos]).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn masks_match_the_listed_valid_texts(
        props in proptest::collection::vec(kind(), 1..=3),
        required in 0u8..8,
        alt in any::<bool>(),
    ) {
        use serde_json::json;
        let names = ["a", "b", "c"];
        let mut p = serde_json::Map::new();
        for (i, k) in props.iter().enumerate() {
            p.insert(names[i].into(), k.schema());
        }
        let req: Vec<&str> = (0..props.len()).filter(|i| required >> i & 1 == 1).map(|i| names[i]).collect();
        let obj = json!({"type": "object", "properties": p, "required": req, "additionalProperties": false});
        let doc = if alt { json!({"anyOf": [obj, {"type": "integer", "minimum": -1, "maximum": 3}]}) } else { obj };
        let schema = CompiledSchema::compile(&doc).unwrap();
        let valid = valid_texts(&schema, &props, alt);
        prop_assert!(!valid.is_empty());
        let mut prefixes: HashSet<&[u8]> = HashSet::new();
        for t in &valid {
            for n in 0..=t.len() {
                prefixes.insert(&t.as_bytes()[..n]);
            }
        }
        let complete: HashSet<&[u8]> = valid.iter().map(|t| t.as_bytes()).collect();
        let v = vocab();
        let c = Constraint::new(&schema, &v).unwrap();
        let mut mask = vec![0u64; v.mask_words()];
        // Every listed prefix, every byte, and each token's mask bit.
        let mut list: Vec<&[u8]> = prefixes.iter().copied().collect();
        list.sort();
        for pre in list.iter().step_by(1 + list.len() / 300) {
            let mut m = c.matcher();
            prop_assert!(m.commit_bytes(pre).is_ok() || pre.is_empty(), "valid prefix refused: {:?}", String::from_utf8_lossy(pre));
            prop_assert_eq!(m.is_complete(), complete.contains(pre), "completeness of {:?}", String::from_utf8_lossy(pre));
            for &b in SIGMA {
                let mut with = pre.to_vec();
                with.push(b);
                let oracle = prefixes.contains(with.as_slice());
                let mut m2 = m.clone();
                let ours = m2.commit_bytes(&[b]).is_ok();
                prop_assert_eq!(ours, oracle, "byte {:?} after {:?}", b as char, String::from_utf8_lossy(pre));
                if ours {
                    // Allowed: the shortest completion makes it valid.
                    let mut text = with.clone();
                    text.extend(m2.shortest_completion());
                    let val = tooljson::from_slice(&text).map(|x| schema.is_valid(&x));
                    prop_assert_eq!(val.ok(), Some(true), "completion {:?}", String::from_utf8_lossy(&text));
                }
            }
            m.fill_mask(&mut mask);
            for id in 0..v.len() as u32 {
                let bit = mask[id as usize / 64] >> (id % 64) & 1 == 1;
                let mut m3 = m.clone();
                let ok = m3.commit_token(id).is_ok();
                prop_assert_eq!(bit, ok, "token {} ({:?}) after {:?}", id, String::from_utf8_lossy(v.token_bytes(id)), String::from_utf8_lossy(pre));
            }
        }
    }
}
