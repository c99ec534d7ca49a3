//! Mask equivalence on the jsonschemabench schemas (`tests/data/`, found by
//! `common::testdata`; the tests fail with a plain message when it is
//! absent), on sampled (prefix, token) pairs.
//!
//! Prefixes: cuts of random samples (token boundaries) and of the valid
//! instances (any byte). At each, tokens the mask allows and tokens it
//! refuses are drawn at random; most refused ones are near misses (their
//! first byte alone would be taken), the rest uniform.
//! - An allowed token is shown viable: committed, then completed with the
//!   matcher's shortest completion, the text parses strictly and
//!   `validate` (format assertion on) accepts it.
//! - A refused token is an error when a valid instance of the schema
//!   (in its own key order or shuffled) starts with the text it makes.
//!   Otherwise it is shown not viable by, in this order: the strict parser
//!   (not JSON, or data after the value); the output policy (whitespace
//!   outside strings, a repeated key, a key escape `serde_json` would not
//!   write); the stream check (a violation already certain); the stream
//!   check on every key the text can still become (the key closed as it
//!   is and each listed name that goes on from it); each of these in every
//!   branch of the root's `anyOf` / `oneOf` (which the stream check
//!   decides only once the value is whole). What is left is searched:
//!   every continuation of at most [`SEARCH_DEPTH`] bytes of
//!   [`SEARCH_BYTES`], and every tail of every valid instance, is
//!   validated, and a valid one is an error unless the
//!   policy writes that number otherwise (an integer in plain digits, a
//!   number under a bound without an exponent). A text ending in a number
//!   with a fraction or exponent counts as the policy's. The refusals no
//!   step decides (mostly a string that a `pattern` or `format` can no
//!   longer complete, and keys inside nested `anyOf`) are counted and
//!   printed: the figures are in `benches/README.md`.
use crate::common::decode_check::{allowed, parse_no_repeats};
use crate::common::decode_data::{bench_cases, samples, shuffled, small_vocab};

use std::collections::BTreeMap;

use tooljson::decode::{Constraint, Matcher, Sampler, Vocabulary};
use tooljson::{CompiledSchema, DuplicateKeys, Parser};

/// The bytes the search appends: JSON's structure, digits, and the letters
/// of its literals.
const SEARCH_BYTES: &[u8] = b"\"{}[],:0123456789-.eaflnrstu";
/// The longest continuation the search tries.
const SEARCH_DEPTH: usize = 2;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Why a text that a refused token makes is not viable, or `None`.
fn not_viable(schema: &CompiledSchema, text: &[u8]) -> Option<&'static str> {
    let mut parser = Parser::new();
    parser.set_duplicate_keys(DuplicateKeys::Error);
    let mut check = schema.stream_check();
    if let Err(e) = parser.feed(text, &mut check) {
        return Some(match e.code() {
            tooljson::error::ErrorCode::DuplicateKey(_) => "policy: a repeated key",
            _ if e.is_trailing_data() => "parser: data after the value",
            _ => "parser: not JSON",
        });
    }
    if let Some(why) = policy(text) {
        return Some(why);
    }
    if check.is_doomed() {
        return Some("stream check");
    }
    None
}

/// What one pass over a JSON prefix shows: the first output-policy rule
/// it breaks, and where the key it ends inside starts.
struct Scan {
    policy: Option<&'static str>,
    /// Just past the quote of the key the text ends inside, when it does
    /// (and the key has no escape).
    open_key: Option<usize>,
}

fn scan(text: &[u8]) -> Scan {
    const KEY_ESCAPE: Option<&str> = Some("policy: a key escape serde_json would not write");
    let (mut in_string, mut escaped, mut key) = (false, false, false);
    // Open containers, the last structural byte, where the string began.
    let (mut stack, mut last, mut start) = (Vec::new(), 0u8, 0);
    let mut policy = None;
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
                if key && !matches!(b, b'"' | b'\\' | b'u' | b'b' | b'f' | b'n' | b'r' | b't') {
                    policy = policy.or(KEY_ESCAPE);
                }
                if key && b == b'u' {
                    // `\u` in a key is written only for control characters.
                    let hex = &text[i + 1..text.len().min(i + 5)];
                    if !b"00".starts_with(&hex[..hex.len().min(2)])
                        || hex.get(2).is_some_and(|d| !matches!(d, b'0' | b'1'))
                    {
                        policy = policy.or(KEY_ESCAPE);
                    }
                }
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b' ' | b'\t' | b'\n' | b'\r' => {
                policy = policy.or(Some("policy: whitespace outside a string"));
            }
            b'"' => {
                in_string = true;
                // A key: after `{` or `,` in an object.
                key = stack.last() == Some(&b'{') && matches!(last, b'{' | b',');
                start = i + 1;
            }
            b'{' | b'[' => stack.push(b),
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        last = b;
    }
    let open_key =
        (in_string && key && !escaped && !text[start..].contains(&b'\\')).then_some(start);
    Scan { policy, open_key }
}

/// The output policy's rules that a text shows on its own.
fn policy(text: &[u8]) -> Option<&'static str> {
    scan(text).policy
}

/// Whether the text ends inside a number with a fraction or an exponent:
/// the policy writes integers, and numbers under a bound, without them.
/// Tried after the search, since a number with no bound may have them.
fn number_not_plain(text: &[u8]) -> bool {
    let tail: Vec<u8> = text
        .iter()
        .rev()
        .take_while(|b| matches!(b, b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'))
        .copied()
        .collect();
    tail.iter().any(|b| matches!(b, b'.' | b'e' | b'E'))
        && tail.iter().any(u8::is_ascii_digit)
        && !text[..text.len() - tail.len()].ends_with(b"\"")
}

const NUMBER_BYTES: &[u8] = b"-+.eE0123456789";

/// Why the policy refuses the number that ends at or spans byte `at` of
/// the valid text `whole`: a position that takes integers only (the
/// number with a half added is invalid), where the policy writes plain
/// digits; or an exponent under a bound. `None`: the policy allows it.
fn number_policy(schema: &CompiledSchema, whole: &[u8], at: usize) -> Option<&'static str> {
    let start = whole[..at]
        .iter()
        .rposition(|b| !NUMBER_BYTES.contains(b))
        .map_or(0, |i| i + 1);
    let end = whole[at..]
        .iter()
        .position(|b| !NUMBER_BYTES.contains(b))
        .map_or(whole.len(), |i| at + i);
    let lexeme = &whole[start..end];
    let with = |r: &[u8]| {
        let mut t = whole[..start].to_vec();
        t.extend_from_slice(r);
        t.extend_from_slice(&whole[end..]);
        valid(schema, &t)
    };
    let int_len = lexeme
        .iter()
        .position(|b| matches!(b, b'.' | b'e' | b'E'))
        .unwrap_or(lexeme.len());
    let mut half = lexeme[..int_len].to_vec();
    half.extend_from_slice(b".5");
    if !with(&half) {
        return Some("policy: an integer in plain digits");
    }
    let exponent = lexeme.iter().any(|b| matches!(b, b'e' | b'E'));
    if exponent && !(with(b"1e300") && with(b"-1e300")) {
        return Some("policy: a number under a bound without an exponent");
    }
    None
}

/// Whether no key that starts as `text` ends can be written: the key
/// closed as it is, and every name the schema lists that goes on from it,
/// are each refused by the stream check or the parser (an unknown key
/// under `additionalProperties: false`, or a repeated one). A key outside
/// the listed names is taken to fare as the key closed as it is.
fn no_key_goes_on(schema: &CompiledSchema, names: &[Vec<u8>], text: &[u8]) -> bool {
    let Some(start) = scan(text).open_key else {
        return false;
    };
    let partial = &text[start..];
    std::iter::once(&[][..])
        .chain(
            names
                .iter()
                .filter(|n| n.starts_with(partial) && n.len() > partial.len())
                .map(|n| &n[partial.len()..]),
        )
        .all(|rest| {
            let mut t = text.to_vec();
            t.extend_from_slice(rest);
            t.extend_from_slice(b"\":");
            not_viable(schema, &t).is_some()
        })
}

/// Why `text` is not viable under `schema`, by the parser, the policy or
/// the stream check, or `None`.
fn decided(schema: &CompiledSchema, names: &[Vec<u8>], text: &[u8]) -> Option<&'static str> {
    not_viable(schema, text).or_else(|| {
        no_key_goes_on(schema, names, text).then_some("stream check: no key that starts so")
    })
}

/// The root's `anyOf` / `oneOf` branches, each compiled as the root with
/// that branch alone (`$ref`s to the root's definitions still resolve). A
/// text none of them can continue is not viable: the stream check decides
/// such a node only once its value is whole. Empty when the root has
/// neither, or a branch does not compile alone.
fn root_branches(doc: &serde_json::Value) -> Vec<CompiledSchema> {
    let serde_json::Value::Object(root) = doc else {
        return Vec::new();
    };
    let Some((kw, serde_json::Value::Array(branches))) = ["anyOf", "oneOf"]
        .iter()
        .find_map(|k| root.get(*k).map(|v| (*k, v)))
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for b in branches {
        let mut one = root.clone();
        one.remove(kw);
        let mut all = match one.remove("allOf") {
            Some(serde_json::Value::Array(a)) => a,
            _ => Vec::new(),
        };
        all.push(b.clone());
        one.insert("allOf".into(), serde_json::Value::Array(all));
        let one = tooljson::Value::from(&serde_json::Value::Object(one));
        match crate::common::compile_asserting_formats(&one) {
            Ok(c) => out.push(c),
            Err(_) => return Vec::new(),
        }
    }
    out
}

/// Every name under `properties` anywhere in `doc`, as JSON writes it
/// inside its quotes.
fn property_names(doc: &serde_json::Value, out: &mut Vec<Vec<u8>>) {
    match doc {
        serde_json::Value::Object(m) => {
            for (k, v) in m {
                if k == "properties"
                    && let serde_json::Value::Object(props) = v
                {
                    for name in props.keys() {
                        let quoted = serde_json::to_string(name).unwrap();
                        out.push(quoted.as_bytes()[1..quoted.len() - 1].to_vec());
                    }
                }
                property_names(v, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|v| property_names(v, out)),
        _ => {}
    }
}

/// Whether `text` parses strictly, with no key repeated (the policy writes
/// each key once), and is valid.
fn valid(schema: &CompiledSchema, text: &[u8]) -> bool {
    parse_no_repeats(text).is_ok_and(|v| schema.is_valid(&v))
}

/// A continuation that makes `text` a valid whole text: any of at most
/// `SEARCH_DEPTH` bytes of `SEARCH_BYTES`, or a tail of one of `instances`
/// (what a valid text goes on with, spliced on).
fn completion(schema: &CompiledSchema, text: &[u8], instances: &[Vec<u8>]) -> Option<Vec<u8>> {
    let mut frontier = vec![Vec::new()];
    for _ in 0..SEARCH_DEPTH {
        let mut next = Vec::new();
        for c in &frontier {
            for &b in SEARCH_BYTES {
                let mut t = text.to_vec();
                t.extend_from_slice(c);
                t.push(b);
                if valid(schema, &t) {
                    return Some(t[text.len()..].to_vec());
                }
                let mut c = c.clone();
                c.push(b);
                next.push(c);
            }
        }
        frontier = next;
    }
    let mut t = text.to_vec();
    for v in instances {
        for k in 1..v.len() {
            t.truncate(text.len());
            t.extend_from_slice(&v[k..]);
            if valid(schema, &t) {
                return Some(v[k..].to_vec());
            }
        }
    }
    None
}

#[derive(Default)]
struct Tally {
    prefixes: usize,
    allowed: usize,
    refused: usize,
    by: BTreeMap<&'static str, usize>,
    undecided: Vec<String>,
    errors: Vec<String>,
}

/// One schema under test.
struct Subject<'a> {
    name: &'a str,
    schema: &'a CompiledSchema,
    vocab: &'a Vocabulary,
    /// Its valid instances, compact, in their own key order and shuffled.
    instances: Vec<Vec<u8>>,
    /// The names its `properties` list.
    names: Vec<Vec<u8>>,
    /// See [`root_branches`].
    branches: Vec<CompiledSchema>,
}

/// The checks at one prefix: `m` has committed `prefix`.
fn check_at(s: &Subject, m: &Matcher, prefix: &[u8], rng: &mut Rng, t: &mut Tally) {
    let Subject {
        name,
        schema,
        vocab,
        ..
    } = *s;
    let (instances, names) = (&s.instances, &s.names);
    t.prefixes += 1;
    let mut mask = vec![0u64; vocab.mask_words()];
    m.fill_mask(&mut mask);
    let eos = vocab.eos_ids()[0];
    let show = |x: &[u8]| String::from_utf8_lossy(x).into_owned();
    let (mut yes, mut near, mut no) = (Vec::new(), Vec::new(), Vec::new());
    let first_ok: Vec<bool> = (0..=255u8)
        .map(|b| m.clone().commit_bytes(&[b]).is_ok())
        .collect();
    for id in 0..vocab.len() as u32 {
        let tb = vocab.token_bytes(id);
        if allowed(&mask, id) {
            yes.push(id);
        } else if !tb.is_empty() && first_ok[tb[0] as usize] {
            near.push(id);
        } else {
            no.push(id);
        }
    }
    let pick = |v: &[u32], n: usize, rng: &mut Rng| -> Vec<u32> {
        (0..n.min(v.len())).map(|_| v[rng.below(v.len())]).collect()
    };
    for id in pick(&yes, 3, rng) {
        t.allowed += 1;
        let mut text = prefix.to_vec();
        if id == eos || vocab.token_bytes(id).is_empty() {
            if !valid(schema, &text) {
                t.errors.push(format!(
                    "{name}: end allowed after {:?}, not valid",
                    show(&text)
                ));
            }
            continue;
        }
        let mut m2 = m.clone();
        if let Err(e) = m2.commit_token(id) {
            t.errors
                .push(format!("{name}: allowed token {id} does not commit: {e}"));
            continue;
        }
        text.extend_from_slice(vocab.token_bytes(id));
        text.extend(m2.shortest_completion());
        if !valid(schema, &text) {
            t.errors.push(format!(
                "{name}: allowed token {id} completes to {:?}, not valid",
                show(&text)
            ));
        }
    }
    let mut refused = pick(&near, 6, rng);
    refused.extend(pick(&no, 2, rng));
    if !allowed(&mask, eos) {
        refused.push(eos);
    }
    for id in refused {
        t.refused += 1;
        let mut text = prefix.to_vec();
        text.extend_from_slice(vocab.token_bytes(id));
        if id == eos || vocab.token_bytes(id).is_empty() {
            // An end (or a token with no text) refused: the text so far is
            // not a valid whole.
            if valid(schema, &text) {
                t.errors.push(format!(
                    "{name}: end refused after the valid {:?}",
                    show(&text)
                ));
            } else {
                *t.by.entry("end: not a valid whole").or_default() += 1;
            }
            continue;
        }
        if let Some(v) = instances.iter().find(|v| v.starts_with(&text)) {
            t.errors.push(format!(
                "{name}: token {id} {:?} refused after {:?}, but the valid {:?} goes on so",
                show(vocab.token_bytes(id)),
                show(prefix),
                show(v)
            ));
            continue;
        }
        if let Some(why) = decided(schema, names, &text) {
            *t.by.entry(why).or_default() += 1;
            continue;
        }
        if !s.branches.is_empty()
            && s.branches
                .iter()
                .all(|b| decided(b, names, &text).is_some())
        {
            *t.by
                .entry("the above, in every branch of the root's anyOf / oneOf")
                .or_default() += 1;
            continue;
        }
        if let Some(c) = completion(schema, &text, instances) {
            let mut whole = text.clone();
            whole.extend_from_slice(&c);
            if number_not_plain(&text)
                && let Some(why) = number_policy(schema, &whole, text.len())
            {
                *t.by.entry(why).or_default() += 1;
                continue;
            }
            t.errors.push(format!(
                "{name}: token {id} {:?} refused after {:?}, but {:?} completes it",
                show(vocab.token_bytes(id)),
                show(prefix),
                show(&c)
            ));
            continue;
        }
        if number_not_plain(&text) {
            *t.by
                .entry("policy: a number not in plain digits")
                .or_default() += 1;
            continue;
        }
        *t.by.entry("undecided: no completion found").or_default() += 1;
        t.undecided.push(format!(
            "{name}: {:?} + {:?}",
            show(prefix),
            show(vocab.token_bytes(id))
        ));
    }
}

fn run(label: &str, vocab: &Vocabulary, per_schema: usize) {
    let mut t = Tally::default();
    let mut compiled = 0;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in bench_cases() {
        let Ok(c) = Constraint::new(&case.schema, vocab) else {
            continue;
        };
        compiled += 1;
        let mut names = Vec::new();
        property_names(&case.doc, &mut names);
        let mut seed = 7u64;
        let instances = case
            .valid
            .iter()
            .flat_map(|v| [v.to_string(), shuffled(v, &mut seed).to_string()])
            .map(String::into_bytes)
            .collect();
        let subject = Subject {
            name: &case.name,
            schema: &case.schema,
            vocab,
            instances,
            names,
            branches: root_branches(&case.doc),
        };
        // Cuts of random samples, at token boundaries.
        let mut sampler = Sampler::new(&c, rng.next(), 120);
        for _ in 0..per_schema {
            let s = match sampler.sample() {
                Ok(s) => s,
                Err(e) => {
                    t.errors.push(format!("{}: sampling: {e}", case.name));
                    continue;
                }
            };
            let cut = rng.below(s.tokens.len() + 1);
            let mut m = c.matcher();
            let mut prefix = Vec::new();
            for &id in &s.tokens[..cut] {
                m.commit_token(id).unwrap();
                prefix.extend_from_slice(vocab.token_bytes(id));
            }
            check_at(&subject, &m, &prefix, &mut rng, &mut t);
        }
        // Cuts of the valid instances, at any byte.
        for text in subject.instances.iter().step_by(2).take(per_schema) {
            let prefix = &text[..rng.below(text.len() + 1)];
            let mut m = c.matcher();
            if let Err(e) = m.commit_bytes(prefix) {
                t.errors.push(format!(
                    "{}: a valid instance's prefix refused: {e}",
                    case.name
                ));
                continue;
            }
            check_at(&subject, &m, prefix, &mut rng, &mut t);
        }
    }
    println!(
        "{label}: {compiled} schemas, {} prefixes, {} allowed tokens completed and valid, {} refused tokens",
        t.prefixes, t.allowed, t.refused
    );
    for (why, n) in &t.by {
        println!("  refused, shown by {why}: {n}");
    }
    for u in t.undecided.iter().take(25) {
        println!("  undecided: {u}");
    }
    for e in t.errors.iter().take(40) {
        println!("ERROR {e}");
    }
    assert!(t.errors.is_empty(), "{label}: {} errors", t.errors.len());
    assert!(compiled > 100, "{label}: only {compiled} schemas compiled");
    assert!(t.refused > 0 && t.allowed > 0, "{label}: nothing checked");
}

#[test]
fn small_vocabulary() {
    run("small", &small_vocab(), samples(4));
}

#[cfg(feature = "tiktoken")]
#[test]
fn o200k() {
    let tok = tooljson::decode::Tokenizer::o200k().unwrap();
    run("o200k", tok.vocabulary(), samples(2));
}

/// The classifier of refusals names each rule on a text that breaks it.
#[test]
fn the_policy_rules_are_seen() {
    assert_eq!(
        policy(br#"{"a": 1"#),
        Some("policy: whitespace outside a string")
    );
    assert_eq!(policy(br#"{"a":"x y"}"#), None);
    assert_eq!(
        policy(br#"{"\/a":1}"#),
        Some("policy: a key escape serde_json would not write")
    );
    assert_eq!(
        policy(br#"{"\u0041":1}"#),
        Some("policy: a key escape serde_json would not write")
    );
    assert_eq!(policy(br#"{"\u0001":1}"#), None);
    assert_eq!(policy(br#"{"a":"\/"}"#), None);
    assert!(number_not_plain(br#"{"a":1.5"#));
    assert!(number_not_plain(br#"{"a":[-2e"#));
    assert!(!number_not_plain(br#"{"a":15"#));
    assert!(!number_not_plain(br#"{"a":"1.5"#));
    let ints = CompiledSchema::from_json_str(r#"{"type":"integer"}"#).unwrap();
    assert_eq!(
        number_policy(&ints, b"30.0", 3),
        Some("policy: an integer in plain digits")
    );
    let bounded = CompiledSchema::from_json_str(r#"{"type":"number","maximum":100}"#).unwrap();
    assert_eq!(
        number_policy(&bounded, b"1e1", 2),
        Some("policy: a number under a bound without an exponent")
    );
    assert_eq!(number_policy(&bounded, b"1.5", 2), None);
    let any = CompiledSchema::from_json_str(r#"{"type":"number"}"#).unwrap();
    assert_eq!(number_policy(&any, b"1e1", 2), None);
    let schema = CompiledSchema::from_json_str(r#"{"type":"object","maxProperties":1}"#).unwrap();
    assert_eq!(
        not_viable(&schema, br#"{"a":1,"a""#),
        Some("policy: a repeated key")
    );
    assert_eq!(not_viable(&schema, br#"{"a":1,"b":"#), Some("stream check"));
    assert_eq!(not_viable(&schema, br#"{"a":1]"#), Some("parser: not JSON"));
    assert_eq!(
        not_viable(&schema, br#"{"a":1} x"#),
        Some("parser: data after the value")
    );
    assert_eq!(not_viable(&schema, br#"{"a":1"#), None);
}
