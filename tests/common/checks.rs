//! The checks shared by the fuzz targets (`fuzz/fuzz_targets/*.rs` include
//! this file with `#[path]`) and by `tests/corpus_replay.rs`, which replays
//! every file under `corpus/fuzz/` and `corpus/crashes/` through them: one
//! definition of "correct" for both, and nothing of it in the library.
//!
//! Each check takes the raw fuzz input and panics when a property fails.
//!
//! Input layout of the chunked checks (`chunked`, `partial`), decoded with
//! `arbitrary::Unstructured`: byte 0 is a config byte (bits 0-2: how many
//! chunk-size bytes follow; bit 3: small limits; bits 4-5: duplicate-key
//! policy), then the chunk sizes (cycled; 0 feeds an empty chunk; none, or
//! all zero, means one byte at a time), then the document.
#![allow(dead_code)]

use arbitrary::Unstructured;
use tooljson::partial::{NodeRef, OwnedValueEvent, PartialNode, PartialParser};
use tooljson::{DuplicateKeys, Error, Limits, OwnedToken, Parser, Token, Value, ValueBuilder};

/// How a chunked check feeds one document.
#[derive(Debug, Clone)]
pub struct Plan<'a> {
    /// Chunk sizes, cycled; a 0 is an empty chunk.
    pub sizes: Vec<usize>,
    /// Small limits (so limit paths are reachable by short inputs).
    pub small_limits: bool,
    /// Duplicate-key policy.
    pub policy: DuplicateKeys,
    /// The document bytes.
    pub doc: &'a [u8],
}

/// Decodes a fuzz input into a [`Plan`].
pub fn plan(input: &[u8]) -> Plan<'_> {
    let mut u = Unstructured::new(input);
    let config: u8 = u.arbitrary().unwrap_or(0);
    let n = usize::from(config & 7);
    let sizes: Vec<usize> = u
        .bytes(n.min(u.len()))
        .unwrap_or(&[])
        .iter()
        .map(|&b| usize::from(b))
        .collect();
    let policy = match (config >> 4) & 3 {
        1 => DuplicateKeys::FirstWins,
        2 => DuplicateKeys::Error,
        _ => DuplicateKeys::LastWins,
    };
    Plan {
        sizes,
        small_limits: config & 8 != 0,
        policy,
        doc: u.take_rest(),
    }
}

/// The limits a plan runs under.
pub fn limits_for(small: bool) -> Limits {
    if small {
        Limits {
            max_depth: 4,
            max_input_bytes: 200,
            max_string_bytes: 12,
            max_number_bytes: 8,
        }
    } else {
        Limits::default()
    }
}

/// Cuts `len` bytes into chunk ranges following `sizes` (cycled, 0 = empty
/// chunk); with no nonzero size, one byte per chunk.
pub fn chunk_ranges(len: usize, sizes: &[usize]) -> Vec<(usize, usize)> {
    let sizes: &[usize] = if sizes.iter().any(|&s| s > 0) {
        sizes
    } else {
        &[1]
    };
    let mut out = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while at < len {
        let s = sizes[i % sizes.len()];
        let end = (at + s).min(len);
        out.push((at, end));
        at = end;
        i += 1;
    }
    out
}

/// A token with the parts of a string merged (where fragments break depends
/// on the chunking), the path it came with, and its offset (omitted for
/// string parts, whose offsets depend on where the chunks end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    /// The token.
    pub token: OwnedToken,
    /// Its path as a JSON Pointer.
    pub path: String,
    /// Its offset, `None` for merged string parts.
    pub offset: Option<u64>,
}

/// A sink that records [`Seen`] tokens and builds the value at once.
#[derive(Default)]
pub struct Recorder {
    /// The tokens.
    pub seen: Vec<Seen>,
    /// The value under construction.
    pub builder: ValueBuilder,
    /// Ask for exact string-piece offsets, and record every piece in
    /// `pieces` as (text, previous token's offset, its offset).
    pub exact: bool,
    /// The string pieces, when `exact`.
    pub pieces: Vec<(String, u64, u64)>,
    last: u64,
}

impl tooljson::TokenSink for Recorder {
    fn exact_string_offsets_from(&self) -> Option<usize> {
        self.exact.then_some(0)
    }

    fn token(&mut self, token: Token<'_>, at: &tooljson::Location<'_>) {
        self.builder.token(token, at);
        if self.exact {
            if let Token::StringPart(s) = token {
                self.pieces.push((s.to_owned(), self.last, at.offset));
            }
            self.last = at.offset;
        }
        if let Token::StringPart(s) = token {
            if let Some(Seen {
                token: OwnedToken::StringPart(prev),
                ..
            }) = self.seen.last_mut()
            {
                prev.push_str(s);
                return;
            }
            // Empty parts carry nothing; a chunking may or may not produce them.
            if s.is_empty() {
                return;
            }
            self.seen.push(Seen {
                token: token.to_owned_token(),
                path: at.path.to_string(),
                offset: None,
            });
            return;
        }
        self.seen.push(Seen {
            token: token.to_owned_token(),
            path: at.path.to_string(),
            offset: Some(at.offset),
        });
    }
}

/// The outcome of parsing one document.
#[derive(Debug, PartialEq)]
pub struct Outcome {
    /// The tokens seen (complete only when `result` is `Ok`).
    pub seen: Vec<Seen>,
    /// The value, or the error.
    pub result: Result<Value, Error>,
}

fn new_parser(limits: Limits, policy: DuplicateKeys) -> Parser {
    let mut p = Parser::with_limits(limits);
    p.set_duplicate_keys(policy);
    p
}

/// Feeds `doc` in the given ranges (as `&[u8]`, or as `&str` when `as_str`
/// and every range is a valid `&str`), then finishes. Also checks the
/// poisoning and misuse rules on the way out.
pub fn run_parser(
    doc: &[u8],
    ranges: &[(usize, usize)],
    limits: Limits,
    policy: DuplicateKeys,
    as_str: bool,
) -> Outcome {
    run_parser_with(doc, ranges, limits, policy, as_str, false).0
}

/// The value (or error) of `doc` fed in `ranges` straight into a
/// [`ValueBuilder`], which offers the parser its string buffer.
pub fn run_builder(
    doc: &[u8],
    ranges: &[(usize, usize)],
    limits: Limits,
    policy: DuplicateKeys,
) -> Result<Value, Error> {
    let mut p = new_parser(limits, policy);
    let mut builder = ValueBuilder::with_duplicate_keys(policy);
    for &(a, b) in ranges {
        p.feed(&doc[a..b], &mut builder)?;
    }
    p.finish(&mut builder)?;
    Ok(builder
        .into_value()
        .expect("finish() returned Ok but no root value was built"))
}

/// [`run_parser`], optionally with a sink that asks for exact string-piece
/// offsets; returns the pieces it saw too.
pub fn run_parser_with(
    doc: &[u8],
    ranges: &[(usize, usize)],
    limits: Limits,
    policy: DuplicateKeys,
    as_str: bool,
    exact: bool,
) -> (Outcome, Vec<(String, u64, u64)>) {
    let mut p = new_parser(limits, policy);
    let mut rec = Recorder {
        builder: ValueBuilder::with_duplicate_keys(policy),
        exact,
        ..Recorder::default()
    };
    let mut result = Ok(());
    for &(a, b) in ranges {
        let chunk = &doc[a..b];
        result = match (as_str, std::str::from_utf8(chunk)) {
            (true, Ok(s)) => p.feed_str(s, &mut rec),
            _ => p.feed(chunk, &mut rec),
        };
        if result.is_err() {
            break;
        }
    }
    let result = result.and_then(|()| p.finish(&mut rec));
    // A poisoned parser repeats its error; a finished one refuses more input.
    let again = p.feed(b" ", &mut ());
    match &result {
        Err(e) => assert_eq!(again.as_ref(), Err(e), "error not sticky"),
        Ok(()) => {
            let e = again.expect_err("feed after finish accepted");
            assert!(e.is_misuse(), "feed after finish: {e:?}");
        }
    }
    let result = result.map(|()| {
        rec.builder
            .value()
            .cloned()
            .expect("finish() returned Ok but no root value was built")
    });
    (
        Outcome {
            seen: rec.seen,
            result,
        },
        rec.pieces,
    )
}

/// With exact piece offsets, every string piece is either the input bytes
/// just before its offset, or one character whose input bytes (from the
/// previous token's offset) are an escape that decodes to it.
fn check_exact_pieces(doc: &[u8], pieces: &[(String, u64, u64)]) {
    for (text, from, to) in pieces {
        let raw = doc
            .get(*from as usize..*to as usize)
            .unwrap_or_else(|| panic!("piece {text:?} at {from}..{to} outside the input"));
        if raw == text.as_bytes() {
            continue;
        }
        assert_eq!(
            text.chars().count(),
            1,
            "a piece of several characters not 1:1 with its input bytes: {text:?} from {:?} in {:?}",
            String::from_utf8_lossy(raw),
            String::from_utf8_lossy(doc)
        );
        let quoted = [&b"\""[..], raw, &b"\""[..]].concat();
        assert_eq!(
            tooljson::from_slice(&quoted).ok(),
            Some(Value::String(text.clone())),
            "the bytes before a one-character piece {text:?} are not its escape: {:?} in {:?}",
            String::from_utf8_lossy(raw),
            String::from_utf8_lossy(doc)
        );
    }
}

/// Raw bytes with `arbitrary` chunk splits: no panic, and the verdict, the
/// error (category, position, path), the tokens and the value equal those of
/// the same bytes fed whole; the same again through `feed_str` at char
/// boundaries.
pub fn chunked(input: &[u8]) {
    let plan = plan(input);
    let limits = limits_for(plan.small_limits);
    let doc = plan.doc;
    let whole = run_parser(doc, &[(0, doc.len())], limits, plan.policy, false);
    let ranges = chunk_ranges(doc.len(), &plan.sizes);
    let split = run_parser(doc, &ranges, limits, plan.policy, false);
    compare(&whole, &split, "bytes", doc, &ranges);
    // A sink asking for exact string-piece offsets: the same tokens (pieces
    // merged) and value, and pieces that map exactly onto the input.
    let (exact, pieces) = run_parser_with(doc, &ranges, limits, plan.policy, false, true);
    compare(&whole, &exact, "exact pieces", doc, &ranges);
    if exact.result.is_ok() {
        check_exact_pieces(doc, &pieces);
    }
    // A bare `ValueBuilder` takes a long string's text into its buffer
    // (`TokenSink::string_bytes`) rather than in pieces: the same verdict
    // and value.
    let direct = run_builder(doc, &ranges, limits, plan.policy);
    assert_eq!(
        whole.result,
        direct,
        "string buffer: verdict differs for {:?} in chunks {ranges:?}",
        String::from_utf8_lossy(doc)
    );
    if std::str::from_utf8(doc).is_ok() {
        let str_ranges = char_ranges(doc, &ranges);
        let split = run_parser(doc, &str_ranges, limits, plan.policy, true);
        compare(&whole, &split, "str", doc, &str_ranges);
    }
    // Whole-document verdict agrees with the one-shot API under defaults.
    if !plan.small_limits && plan.policy != DuplicateKeys::Error {
        let one_shot = tooljson::from_slice(doc);
        if plan.policy == DuplicateKeys::LastWins {
            assert_eq!(
                one_shot, whole.result,
                "from_slice differs from feed+finish"
            );
        } else {
            assert_eq!(one_shot.is_ok(), whole.result.is_ok());
        }
    }
    if let Ok(v) = &whole.result {
        // Compact output parses back to the same value.
        let text = v.to_string();
        let back = tooljson::from_str(&text)
            .unwrap_or_else(|e| panic!("compact output {text:?} does not parse: {e}"));
        assert_eq!(&back, v, "compact output round trip");
    }
}

fn compare(whole: &Outcome, split: &Outcome, how: &str, doc: &[u8], ranges: &[(usize, usize)]) {
    assert_eq!(
        whole.result,
        split.result,
        "{how}: verdict differs for {:?} in chunks {ranges:?}",
        String::from_utf8_lossy(doc)
    );
    if whole.result.is_ok() {
        assert_eq!(
            whole.seen,
            split.seen,
            "{how}: tokens differ for {:?} in chunks {ranges:?}",
            String::from_utf8_lossy(doc)
        );
    }
}

/// Moves every cut of `ranges` forward to a char boundary of `doc` (valid
/// UTF-8), keeping empty chunks.
pub fn char_ranges(doc: &[u8], ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let is_boundary = |i: usize| i >= doc.len() || (doc[i] & 0xC0) != 0x80;
    let mut out = Vec::new();
    let mut start = 0;
    for &(_, b) in ranges {
        let mut end = b.max(start);
        while !is_boundary(end) {
            end += 1;
        }
        out.push((start, end));
        start = end;
    }
    if start < doc.len() {
        out.push((start, doc.len()));
    }
    out
}

/// Known, intended differences from serde_json, each asserted precisely:
///
/// - numbers out of f64 range (`1e400`): we accept and keep the lexeme,
///   serde_json says "number out of range";
/// - nesting: serde_json stops at a depth of 128 with "recursion limit
///   exceeded", we allow exactly 128 (our `max_depth`), so depth 128 is
///   accepted by us only;
/// - invalid UTF-8 in a string that is not closed: we report the bad byte
///   (invalid), serde_json validates at the closing quote and reports EOF;
/// - a `\u` escape cut short by a quote near the end (`"\udc"`): we report
///   the byte that is no hex digit (invalid), serde_json reads four bytes
///   first and reports EOF;
/// - a number longer than our 4096-byte lexeme limit: our limit error.
///
/// Everything else must agree: accept/reject, the value, and whether the
/// error is an EOF (truncated) or not.
pub fn differential(doc: &[u8]) {
    let ours = tooljson::from_slice(doc);
    let theirs = serde_json::from_slice::<serde_json::Value>(doc);
    let shown = || String::from_utf8_lossy(doc).into_owned();
    match (&ours, &theirs) {
        (Ok(v), Ok(t)) => {
            let mine = v
                .to_serde_json()
                .unwrap_or_else(|e| panic!("serde_json accepted a number we cannot convert: {e}"));
            assert_eq!(&mine, t, "values differ for {:?}", shown());
        }
        (Ok(v), Err(t)) => {
            let msg = t.to_string();
            // (The out-of-range number may be gone from our value: a later
            // duplicate key replaced it.)
            let out_of_range = msg.starts_with("number out of range");
            let depth = msg.starts_with("recursion limit exceeded") && depth_of(v) == 128;
            assert!(
                out_of_range || depth,
                "we accept, serde_json rejects ({msg}) for {:?}",
                shown()
            );
        }
        (Err(e), Ok(_)) => {
            let number_limit = matches!(
                e.code(),
                tooljson::error::ErrorCode::LimitExceeded {
                    kind: tooljson::error::LimitKind::NumberBytes,
                    ..
                }
            );
            assert!(
                number_limit,
                "we reject ({e}), serde_json accepts {:?}",
                shown()
            );
        }
        (Err(e), Err(t)) => {
            let their_eof = t.classify() == serde_json::error::Category::Eof;
            if e.is_truncated() != their_eof {
                let utf8_then_eof =
                    their_eof && matches!(e.code(), tooljson::error::ErrorCode::InvalidUtf8);
                // serde_json takes the four bytes after `\u` before looking at
                // them, so `"\udc"` is EOF there; a `"` is no hex digit here.
                let short_escape = their_eof && e.expected() == Some("hex digit");
                // serde_json stops at its first refusal (depth, range); we go on
                // and may stop later, for another reason.
                let theirs_earlier = t.to_string().starts_with("recursion limit exceeded")
                    || t.to_string().starts_with("number out of range");
                let limits = e.is_limit_exceeded() || theirs_earlier;
                assert!(
                    utf8_then_eof || short_escape || limits,
                    "error kinds differ for {:?}: ours {e:?}, serde_json {t}",
                    shown()
                );
            }
        }
    }
}

/// Nesting depth of a value (a scalar is 0, `[]` is 1).
pub fn depth_of(v: &Value) -> usize {
    let mut max = 0;
    let mut stack = vec![(v, 0usize)];
    while let Some((v, d)) = stack.pop() {
        match v {
            Value::Array(a) => {
                max = max.max(d + 1);
                stack.extend(a.iter().map(|x| (x, d + 1)));
            }
            Value::Object(m) => {
                max = max.max(d + 1);
                stack.extend(m.values().map(|x| (x, d + 1)));
            }
            _ => {}
        }
    }
    max
}

/// What one partial run produced.
#[derive(Debug)]
pub struct PartialOutcome {
    /// Events with consecutive appends to one path merged.
    pub events: Vec<OwnedValueEvent>,
    /// The final value or the error.
    pub result: Result<Option<Value>, Error>,
}

/// Feeds `doc` into a [`PartialParser`] in `ranges`, checking after every
/// feed that the snapshot extends the one before (the monotone contract).
pub fn run_partial(
    doc: &[u8],
    ranges: &[(usize, usize)],
    limits: Limits,
    policy: DuplicateKeys,
    keep_tree: bool,
) -> PartialOutcome {
    let mut p = PartialParser::with_parser(new_parser(limits, policy), keep_tree);
    let mut events: Vec<OwnedValueEvent> = Vec::new();
    let mut prev: Option<PartialNode> = None;
    let mut result = Ok(());
    // Documented: a streaming object shows every occurrence of a repeated
    // key, and completion applies the policy, so growth is only promised
    // for documents without repeats.
    let check = keep_tree && (policy == DuplicateKeys::Error || !has_duplicate_key(doc, limits));
    for &(a, b) in ranges {
        result = p.feed(&doc[a..b], &mut events);
        if !keep_tree {
            assert!(p.snapshot().is_none(), "events-only mode grew a tree");
        }
        check_growth(&prev, p.snapshot(), check);
        prev = p.snapshot().cloned();
        if result.is_err() {
            break;
        }
    }
    let result = result.and_then(|()| p.finish(&mut events));
    check_growth(&prev, p.snapshot(), check);
    if result.is_ok() && keep_tree {
        assert!(p.value().is_some(), "finished without a complete root");
    }
    PartialOutcome {
        events: merge_appends(events),
        result: result.map(|()| p.into_value()),
    }
}

/// Whether `doc` repeats a key in one object before any other error.
pub fn has_duplicate_key(doc: &[u8], limits: Limits) -> bool {
    let mut p = new_parser(limits, DuplicateKeys::Error);
    let r = p.feed(doc, &mut ()).and_then(|()| p.finish(&mut ()));
    matches!(
        r.as_ref().map_err(Error::code),
        Err(tooljson::error::ErrorCode::DuplicateKey(_))
    )
}

fn check_growth(prev: &Option<PartialNode>, next: Option<&PartialNode>, check: bool) {
    if !check {
        return;
    }
    match (prev, next) {
        (Some(a), Some(b)) => {
            if let Err(e) = extends(NodeRef::Partial(a), NodeRef::Partial(b)) {
                panic!("snapshot not monotone: {e}\n before: {a}\n after: {b}");
            }
        }
        (Some(a), None) => panic!("snapshot {a} vanished"),
        _ => {}
    }
}

/// The partial tree: snapshots grow monotonically at any chunking, events
/// (appends merged) and the final value do not depend on the chunking, the
/// final value equals the plain parser's, and events-only mode reports the
/// same events.
pub fn partial(input: &[u8]) {
    let plan = plan(input);
    let limits = limits_for(plan.small_limits);
    let doc = plan.doc;
    let whole = run_partial(doc, &[(0, doc.len())], limits, plan.policy, true);
    let ranges = chunk_ranges(doc.len(), &plan.sizes);
    let split = run_partial(doc, &ranges, limits, plan.policy, true);
    let shown = || String::from_utf8_lossy(doc).into_owned();
    assert_eq!(
        whole.result,
        split.result,
        "partial verdict differs for {:?} in {ranges:?}",
        shown()
    );
    let plain = run_parser(doc, &[(0, doc.len())], limits, plan.policy, false);
    match (&whole.result, &plain.result) {
        (Ok(a), Ok(b)) => assert_eq!(a.as_ref(), Some(b), "partial value != parser value"),
        (Err(a), Err(b)) => assert_eq!(a, b, "partial error != parser error"),
        (a, b) => panic!("partial {a:?} vs parser {b:?} for {:?}", shown()),
    }
    if whole.result.is_ok() {
        assert_eq!(
            whole.events,
            split.events,
            "events depend on chunking for {:?} in {ranges:?}",
            shown()
        );
        let only = run_partial(doc, &ranges, limits, plan.policy, false);
        assert_eq!(only.result.as_ref().ok(), Some(&None));
        assert_eq!(only.events.len(), whole.events.len(), "events-only count");
        for (a, b) in only.events.iter().zip(&whole.events) {
            match (a, b) {
                (
                    OwnedValueEvent::Completed {
                        path: pa,
                        value: va,
                    },
                    OwnedValueEvent::Completed {
                        path: pb,
                        value: vb,
                    },
                ) => {
                    assert_eq!(pa, pb);
                    match vb {
                        Some(Value::String(_) | Value::Array(_) | Value::Object(_)) => {
                            assert!(va.is_none(), "events-only carried a container")
                        }
                        _ => assert_eq!(va, vb),
                    }
                }
                _ => assert_eq!(a, b),
            }
        }
    }
}

/// Joins consecutive `Appended` events on one path (where string fragments
/// break is the only place chunking may show) and drops empty ones.
pub fn merge_appends(events: Vec<OwnedValueEvent>) -> Vec<OwnedValueEvent> {
    let mut out: Vec<OwnedValueEvent> = Vec::new();
    for e in events {
        if let OwnedValueEvent::Appended { path, text } = &e {
            if let Some(OwnedValueEvent::Appended { path: p0, text: t0 }) = out.last_mut()
                && p0 == path
            {
                t0.push_str(text);
                continue;
            }
            if text.is_empty() {
                continue;
            }
        }
        out.push(e);
    }
    out
}

/// Whether `next` is a monotone extension of `prev` (contract points 1-5).
pub fn extends(prev: NodeRef<'_>, next: NodeRef<'_>) -> Result<(), String> {
    if let Some(pv) = prev.as_complete() {
        return match next.as_complete() {
            Some(nv) if nv == pv => Ok(()),
            other => Err(format!("complete value {pv} became {other:?}")),
        };
    }
    let NodeRef::Partial(p) = prev else {
        return Err("a Value view that is not complete".to_owned());
    };
    match p {
        PartialNode::String(s) => match next.as_str() {
            Some(t) if t.starts_with(s.as_str()) => Ok(()),
            other => Err(format!("string {s:?} became {other:?}")),
        },
        PartialNode::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                let n = child_item(next, i).ok_or_else(|| format!("item {i} vanished"))?;
                extends(NodeRef::Partial(item), n)?;
            }
            Ok(())
        }
        PartialNode::Object(members) => {
            for (i, (k, m)) in members.iter().enumerate() {
                let (nk, n) =
                    child_member(next, i).ok_or_else(|| format!("member {k:?} vanished"))?;
                if nk != *k {
                    return Err(format!("member {i} key {k:?} became {nk:?}"));
                }
                extends(NodeRef::Partial(m), n)?;
            }
            Ok(())
        }
        PartialNode::Complete(_) => Err("complete node not caught".to_owned()),
    }
}

fn child_item(n: NodeRef<'_>, i: usize) -> Option<NodeRef<'_>> {
    match n {
        NodeRef::Partial(PartialNode::Array(items)) => items.get(i).map(NodeRef::Partial),
        NodeRef::Partial(PartialNode::Complete(Value::Array(a)))
        | NodeRef::Value(Value::Array(a)) => a.get(i).map(NodeRef::Value),
        _ => None,
    }
}

fn child_member(n: NodeRef<'_>, i: usize) -> Option<(String, NodeRef<'_>)> {
    match n {
        NodeRef::Partial(PartialNode::Object(m)) => {
            m.get(i).map(|(k, v)| (k.clone(), NodeRef::Partial(v)))
        }
        NodeRef::Partial(PartialNode::Complete(Value::Object(m)))
        | NodeRef::Value(Value::Object(m)) => m
            .get_index(i)
            .map(|(k, v)| (k.to_owned(), NodeRef::Value(v))),
        _ => None,
    }
}

/// One SSE event, owned.
type SseEvent = (String, bool, String, String);

fn run_sse(doc: &[u8], ranges: &[(usize, usize)]) -> (Vec<SseEvent>, Result<bool, String>) {
    let mut d = tooljson::sse::Decoder::with_max_line_bytes(256);
    let mut got: Vec<SseEvent> = Vec::new();
    let mut on = |e: tooljson::sse::Event<'_>| {
        got.push((
            e.event.to_owned(),
            e.named,
            e.data.to_owned(),
            e.id.to_owned(),
        ))
    };
    for &(a, b) in ranges {
        if let Err(e) = d.feed(&doc[a..b], &mut on) {
            return (got, Err(e.to_string()));
        }
    }
    let flushed = d.finish_flush(&mut on);
    (got, Ok(flushed))
}

/// The SSE decoder on arbitrary bytes (a 256-byte line bound, so the bound
/// is reachable): no panic, and the events, the error and the end-of-input
/// verdict do not depend on where the chunks end.
pub fn sse(input: &[u8]) {
    let plan = plan(input);
    let doc = plan.doc;
    let whole = run_sse(doc, &[(0, doc.len())]);
    let ranges = chunk_ranges(doc.len(), &plan.sizes);
    let split = run_sse(doc, &ranges);
    assert_eq!(
        whole,
        split,
        "SSE events depend on chunking for {:?} in {ranges:?}",
        String::from_utf8_lossy(doc)
    );
}

/// Tools under the names the recorded transcripts and seeds call, with
/// schemas that some of their arguments break: the providers target runs each
/// input with and without them.
fn fuzz_tools() -> &'static tooljson::protocol::ToolSet {
    static TOOLS: std::sync::OnceLock<tooljson::protocol::ToolSet> = std::sync::OnceLock::new();
    TOOLS.get_or_init(|| {
        let s = |props: serde_json::Value, required: serde_json::Value| {
            serde_json::json!({"type": "object", "properties": props, "required": required,
                "additionalProperties": false})
        };
        let tools = serde_json::json!({"tools": [
            {"name": "get_weather", "input_schema": s(serde_json::json!({
                "location": {"type": "string", "maxLength": 40},
                "unit": {"enum": ["celsius", "fahrenheit"]}}), serde_json::json!(["location"]))},
            {"name": "write_file", "input_schema": s(serde_json::json!({
                "path": {"type": "string", "pattern": "^[A-Za-z0-9_./-]+$"},
                "content": {"type": "string"}}), serde_json::json!(["path", "content"]))},
            {"name": "get_capital", "input_schema": s(serde_json::json!({
                "country": {"type": "string", "minLength": 2}}), serde_json::json!(["country"]))},
            {"name": "echo", "input_schema": {"type": "object"}},
            {"name": "final_result", "input_schema": {"type": "object", "minProperties": 1,
                "maxProperties": 3, "additionalProperties": {"type": ["string", "number", "array"],
                "items": {"type": "integer", "minimum": 0}}}},
            {"name": "write_sql", "input_schema": {"type": "object", "properties": {
                "query": {"type": "string", "maxLength": 200}},
                "oneOf": [{"required": ["query"]}, {"required": ["sql"]}]}}
        ]});
        tooljson::protocol::ToolSet::from_request_json(&tools.into())
            .expect("the fuzz tools compile")
    })
}

fn run_providers(doc: &[u8], ranges: &[(usize, usize)], with_tools: bool) -> String {
    use std::fmt::Write;
    use tooljson::providers::{CallError, CallStatus};
    let mut s = tooljson::providers::ToolCallStream::new();
    if with_tools {
        s = s.with_tools(fuzz_tools().clone());
    }
    let mut out = String::new();
    let mut result = Ok(());
    for &(a, b) in ranges {
        result = s.feed(&doc[a..b]);
        for e in s.drain_events() {
            // Argument fragments are per SSE event, not per byte chunk.
            let _ = writeln!(out, "{e:?}");
        }
        if result.is_err() {
            break;
        }
    }
    let fin = s.finish();
    for e in s.drain_events() {
        let _ = writeln!(out, "{e:?}");
    }
    let _ = writeln!(
        out,
        "feed {result:?} finish {fin:?} stop {:?}",
        s.stop_reason()
    );
    // The final message, in every provider's form, is chunking-invariant too.
    let _ = writeln!(out, "message {:?}", s.final_messages_json());
    for c in s.calls() {
        let _ = writeln!(
            out,
            "call {:?} {:?} {:?} {:?} {:?} text {:?} value {:?}",
            c.key(),
            c.id(),
            c.name(),
            c.kind(),
            c.status(),
            c.arguments_text(),
            c.value()
        );
        // Never a final value for a call that did not complete.
        if c.is_executable() {
            assert_eq!(c.status(), tooljson::providers::CallStatus::Complete);
            let v = c.value().expect("an executable call has its value");
            if !c.arguments_text().trim().is_empty() {
                assert_eq!(
                    tooljson::from_str(c.arguments_text()).as_ref(),
                    Ok(v),
                    "the final value is not the argument text"
                );
            }
        }
        if matches!(
            c.status(),
            tooljson::providers::CallStatus::Truncated | tooljson::providers::CallStatus::Aborted
        ) {
            assert!(!c.is_executable());
        }
        // With tools, the schema verdict is the one `validate` gives.
        let schema = fuzz_tools()
            .tools()
            .iter()
            .find(|t| Some(t.name()) == c.name())
            .map(|t| t.compiled_schema());
        // (Only client calls have a client schema; a custom call's value is
        // its free text.)
        if let (true, Some(schema), tooljson::providers::CallKind::Client) =
            (with_tools, schema, c.kind())
        {
            let schema_errors = c
                .errors()
                .iter()
                .filter(|e| matches!(e, CallError::Schema(_)))
                .count();
            if c.status() == CallStatus::Complete {
                let v = c.value().expect("a complete call has its value");
                assert_eq!(schema_errors, 0, "a complete call with schema errors");
                assert_eq!(
                    schema.validate(v).map_err(|vs| vs.len()),
                    Ok(()),
                    "a complete call whose value breaks its schema: {:?}",
                    c.arguments_text()
                );
            }
            let only_schema = c.errors().iter().all(|e| matches!(e, CallError::Schema(_)));
            if schema_errors > 0
                && only_schema
                && c.status() == CallStatus::Invalid
                && !c.arguments_text().trim().is_empty()
                && let Ok(v) = tooljson::from_str(c.arguments_text())
            {
                assert!(
                    schema.validate(&v).is_err(),
                    "schema errors on arguments that validate: {:?} {:?}",
                    c.arguments_text(),
                    c.errors()
                );
            }
        }
    }
    out
}

/// The provider adapters (provider detected from the stream) on arbitrary bytes
/// and mutated transcripts, with and without a set of tools: no panic, the
/// events and final calls do not depend on the chunking, only a complete
/// call has a final value, equal to its argument text parsed, and a call's
/// schema verdict is `validate`'s (complete: its value validates; invalid
/// by schema errors alone: its arguments do not).
pub fn providers(input: &[u8]) {
    let plan = plan(input);
    let doc = plan.doc;
    let ranges = chunk_ranges(doc.len(), &plan.sizes);
    for with_tools in [false, true] {
        let whole = run_providers(doc, &[(0, doc.len())], with_tools);
        let split = run_providers(doc, &ranges, with_tools);
        assert_eq!(
            whole,
            split,
            "providers outcome (tools: {with_tools}) depends on chunking for {:?} in {ranges:?}",
            String::from_utf8_lossy(doc)
        );
    }
}

/// Target `schema`: bytes up to the first NUL are a schema (JSON text), the
/// rest an instance; the plan's chunk sizes (taken from the instance part's
/// first bytes, see [`plan`]) cut the instance. Compiling any schema returns
/// `Ok` or a `SchemaError`; when both parse and the schema compiles, the
/// stream check fed in chunks ends with the same verdict as `validate` and
/// `is_valid`, and reports no violation on a valid instance.
pub fn schema(input: &[u8]) {
    use tooljson::CompiledSchema;
    let (schema_text, rest) = match input.iter().position(|&b| b == 0) {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => (input, &b""[..]),
    };
    let Ok(schema_value) = tooljson::from_slice(schema_text) else {
        return;
    };
    let assert_formats = schema_text.len() % 2 == 0;
    let builder = CompiledSchema::builder().assert_formats(assert_formats);
    // A serde_json schema is read in place (schema::doc), not converted:
    // it must compile exactly as its conversion to a Value does.
    let serde_pair = serde_json::from_slice::<serde_json::Value>(schema_text)
        .ok()
        .map(|j| {
            let direct = builder.build(&j);
            let converted = builder.build_value(&tooljson::Value::from(&j));
            assert_eq!(
                direct.as_ref().map(|s| s.ignored_keywords().to_vec()),
                converted.as_ref().map(|s| s.ignored_keywords().to_vec()),
                "a serde_json schema compiles unlike its conversion"
            );
            (direct, converted)
        });
    let Ok(schema) = builder.build_value(&schema_value) else {
        return;
    };
    let plan = plan(rest);
    let Ok(instance) = tooljson::from_slice(plan.doc) else {
        return;
    };
    if let Some((Ok(direct), Ok(converted))) = &serde_pair {
        assert_eq!(
            direct.validate(&instance),
            converted.validate(&instance),
            "a serde_json schema validates unlike its conversion"
        );
    }
    let verdict = schema.validate(&instance);
    assert_eq!(
        verdict.is_ok(),
        schema.is_valid(&instance),
        "is_valid != validate"
    );
    // Known, documented (README, schema section): with a repeated key the
    // stream check checks every occurrence while the final value keeps the
    // last, so it may be stricter than `validate`; found by this target
    // (corpus/crashes/schema/repeated-key-stricter-stream). Such documents
    // only need to run without a panic.
    if has_duplicate_key(plan.doc, Limits::default()) {
        let mut check = schema.stream_check();
        let mut parser = Parser::new();
        let _ = parser.feed(plan.doc, &mut check);
        let _ = parser.finish(&mut check);
        let _ = check.finish();
        return;
    }
    let ranges = chunk_ranges(plan.doc.len(), &plan.sizes);
    let mut first = None;
    for r in [vec![(0, plan.doc.len())], ranges] {
        let mut check = schema.stream_check();
        let mut parser = Parser::new();
        for &(a, b) in &r {
            parser.feed(&plan.doc[a..b], &mut check).unwrap();
        }
        parser.finish(&mut check).unwrap();
        let offsets: Vec<u64> = check.violations().iter().map(|v| v.offset).collect();
        if verdict.is_ok() {
            assert!(
                offsets.is_empty(),
                "stream violation on a valid instance: {:?}",
                check
                    .violations()
                    .iter()
                    .map(|v| v.violation.to_string())
                    .collect::<Vec<_>>()
            );
        }
        // Escapes included: the check asks the parser for exact piece
        // offsets (an escape inside a string once made this depend on the
        // chunking: corpus/crashes/schema/escaped-string-max-length-offset).
        match &first {
            None => first = Some(check.first_violation_offset()),
            Some(f) => assert_eq!(
                *f,
                check.first_violation_offset(),
                "first violation offset depends on chunking"
            ),
        }
        // The same beside a value builder in one sink (`CheckedSink`, which
        // lets the builder take string text into its buffer): the same
        // violations at the same offsets, and the value.
        let mut beside = schema.stream_check().beside(tooljson::ValueBuilder::new());
        let mut parser = Parser::new();
        for &(a, b) in &r {
            parser.feed(&plan.doc[a..b], &mut beside).unwrap();
        }
        parser.finish(&mut beside).unwrap();
        let (builder, beside) = beside.into_parts();
        assert_eq!(
            beside
                .violations()
                .iter()
                .map(|v| v.offset)
                .collect::<Vec<_>>(),
            offsets,
            "a check beside a builder reports unlike the check alone"
        );
        assert_eq!(builder.value(), Some(&instance));
        assert_eq!(
            beside.finish().is_ok(),
            verdict.is_ok(),
            "beside a builder: stream verdict != validate"
        );
        // The same attached to a partial tree (the vendor adapters' path,
        // which lets the tree alone take a string's pieces while the check
        // only needs their count), with the check's `enum` / `const`
        // strings held back as the adapters hold them: the same violations
        // at the same offsets, and the value.
        let mut partial = tooljson::partial::PartialParser::new();
        let held = schema.clone();
        partial.hold_strings(move |path| held.holds_string_at(path));
        partial.attach_check(schema.stream_check());
        for &(a, b) in &r {
            partial.feed(&plan.doc[a..b], &mut ()).unwrap();
        }
        partial.finish(&mut ()).unwrap();
        let attached = partial.take_check().unwrap();
        assert_eq!(
            attached
                .violations()
                .iter()
                .map(|v| v.offset)
                .collect::<Vec<_>>(),
            offsets,
            "a check attached to a partial tree reports unlike the check alone"
        );
        assert_eq!(partial.value(), Some(&instance));
        assert_eq!(
            attached.finish().is_ok(),
            verdict.is_ok(),
            "attached to a partial tree: stream verdict != validate"
        );
        assert_eq!(
            check.finish().is_ok(),
            verdict.is_ok(),
            "stream verdict != validate"
        );
    }
}

/// Target `protocol`: any JSON text read as an assistant turn, a results
/// message and a request's tools of each vendor gives `Ok` or a typed error;
/// what is read writes back to JSON that reads back to the same JSON (a
/// fixed point after one round).
pub fn protocol(input: &[u8]) {
    use tooljson::protocol::{AssistantTurn, ToolResults, ToolSet, Vendor};
    let Ok(v) = tooljson::from_slice(input) else {
        return;
    };
    for vendor in [
        Vendor::Anthropic,
        Vendor::OpenAiChat,
        Vendor::OpenAiResponses,
    ] {
        if let Ok(turn) = AssistantTurn::from_vendor(vendor, &v) {
            let once = turn.to_vendor(vendor).accept_losses().0;
            let again = AssistantTurn::from_vendor(vendor, &once).unwrap_or_else(|e| {
                panic!("{vendor:?} turn written by us does not read back: {e}\n{once}")
            });
            assert_eq!(
                again.to_vendor(vendor).accept_losses().0,
                once,
                "{vendor:?} turn is not a fixed point"
            );
            for other in [
                Vendor::Anthropic,
                Vendor::OpenAiChat,
                Vendor::OpenAiResponses,
            ] {
                let there = turn.to_vendor(other).accept_losses().0;
                AssistantTurn::from_vendor(other, &there).unwrap_or_else(|e| {
                    panic!("{vendor:?} turn as {other:?} does not read back: {e}\n{there}")
                });
            }
        }
        let messages: Vec<tooljson::Value> = match &v {
            tooljson::Value::Array(a) => a.clone(),
            other => vec![other.clone()],
        };
        if let Ok(results) = ToolResults::from_vendor(vendor, &messages) {
            let once = results.to_vendor(vendor).accept_losses().0;
            let again = ToolResults::from_vendor(vendor, &once).unwrap_or_else(|e| {
                panic!("{vendor:?} results written by us do not read back: {e}")
            });
            assert_eq!(
                again.to_vendor(vendor).accept_losses().0,
                once,
                "{vendor:?} results are not a fixed point"
            );
        }
    }
    if let Ok(tools) = ToolSet::from_request_json(&v) {
        for vendor in Vendor::ALL {
            let (once, _) = tools.to_request_json(vendor).accept_losses();
            let again = ToolSet::from_request_json(&once)
                .unwrap_or_else(|e| panic!("tools as {vendor:?} do not read back: {e}\n{once}"));
            assert_eq!(
                again.to_request_json(vendor).lossless().unwrap(),
                once,
                "tools as {vendor:?}: not a fixed point"
            );
        }
    }
}
