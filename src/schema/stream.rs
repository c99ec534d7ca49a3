//! The stream check: a [`TokenSink`] that applies a compiled schema to the
//! parser's tokens as they come and reports each violation at the byte where
//! it became certain.
//!
//! State: a stack of open containers, each owning a range of "applications"
//! (schema nodes that apply to it, with the conjunctive `$ref` / `allOf`
//! closure expanded) on one shared vector, so steady-state checking does not
//! allocate. Scalars are checked by the finished-value validator the moment
//! they complete (strings also on the way: `maxLength` and `enum` / `const`
//! prefixes). Container keywords that are cheap to decide incrementally are:
//! `type` at the opening byte, unknown keys under `additionalProperties:
//! false` when the key closes, `maxProperties` / `maxItems` when one too many
//! arrives, `required` / `minProperties` / `minItems` at the close. Keywords
//! that need the whole subvalue (`anyOf`, `oneOf`, `not`, `if`,
//! `uniqueItems`, `contains`, `dependent*`, `enum` / `const` of containers)
//! buffer it: a [`ValueBuilder`] is fed the subvalue's tokens and the
//! validator decides at its end. Every keyword of every application is thus
//! decided exactly once, and each early report is one the validator would
//! also make, which is why [`StreamCheck::finish`] agrees with
//! [`super::CompiledSchema::validate`] on the final value.
//!
//! Advice for hackers: a node whose possible types exclude the value's type
//! (say `anyOf` of string and null, seeing `{`) is reported at the first
//! byte and then marked doomed: its other keywords are not checked, since
//! the verdict cannot change. A repeated key (the parser's default keeps the
//! last value) is checked at every occurrence, so the stream check can be
//! stricter than `validate` on such documents; use `DuplicateKeys::Error`
//! for tool arguments (the vendor layer does, for every call it checks).

use super::chars::{char_count, continuation_bytes};
use super::describe::{show, show_str, type_names, unknown_key_message};
use super::options::{OptionCursor, StringOptions};
use super::program::{Kw, NodeId, Program, expanded, in_place_children};
use super::types::{T_ARR, T_OBJ, T_STR};
use super::validate::{At, MAX_DEPTH, Validator, leaf_verdict};
use super::{CompiledSchema, Violation};
use crate::parser::{Location, Token, TokenSink, ValueBuilder};
use crate::{Path, PathRef, Segment, Value};

/// A violation and the input offset at which it became certain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StreamViolation {
    /// Bytes the parser had consumed when the violation became certain
    /// (the token's [`Location::offset`]).
    pub offset: u64,
    /// What is wrong, as `validate` words it.
    pub violation: Violation,
}

const DOOMED: u8 = 1;
const MAX_LEN_DONE: u8 = 2;
const ENUM_DONE: u8 = 4;
const MAX_COUNT_DONE: u8 = 8;
/// `const` on a string has failed (apart from `enum`'s [`ENUM_DONE`]: a node
/// with both reports each, as `validate` does, whichever fails first).
const CONST_DONE: u8 = 16;

#[derive(Clone, Copy, Debug)]
struct App {
    node: NodeId,
    flags: u8,
    /// `required` names seen so far (names past 64 are decided at the close).
    req_bits: u64,
    /// The validator's nesting depth for this node (see `MAX_DEPTH`).
    depth: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Object,
    Array,
}

#[derive(Debug)]
struct Frame {
    kind: Kind,
    apps_start: usize,
    apps_end: usize,
    count: u64,
    /// Whether this frame feeds the top builder.
    buffered: bool,
}

/// Applies a [`CompiledSchema`] to a token stream; see the module docs.
/// Feed it with a [`crate::Parser`] (it is a [`TokenSink`]). To run it
/// beside a consumer on the same pass there is one way for each: beside a
/// [`crate::Value`] being built, [`StreamCheck::beside`] with a
/// [`crate::ValueBuilder`] (a [`CheckedSink`]); beside the partial tree,
/// [`crate::PartialParser::attach_check`] (as the vendor adapters use it).
///
/// # Examples
///
/// ```
/// use tooljson::{CompiledSchema, PartialParser};
/// let schema = CompiledSchema::from_json_str(
///     r#"{"type": "object", "properties": {"unit": {"enum": ["celsius", "fahrenheit"]}}, "additionalProperties": false}"#,
/// )?;
/// let mut partial = PartialParser::new();
/// partial.attach_check(schema.stream_check());
/// partial.feed(br#"{"unit": "kel"#, &mut ())?;
/// // No option starts with "k": certain just past the `k`, before the string ends.
/// let first = &partial.check().unwrap().violations()[0];
/// assert_eq!((first.offset, first.violation.to_string().as_str()),
///     (11, r#"/unit: expected one of "celsius", "fahrenheit", found a string starting with "k""#));
/// partial.feed(br#"vin"}"#, &mut ())?;
/// partial.finish(&mut ())?;
/// assert_eq!(partial.take_check().unwrap().finish().unwrap_err().len(), 1);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct StreamCheck {
    schema: CompiledSchema,
    st: CheckState,
}

/// The check's state, apart from the schema it reads (so that no handler
/// clones the shared program to read it while the state changes).
#[derive(Debug)]
struct CheckState {
    frames: Vec<Frame>,
    apps: Vec<App>,
    /// Where the applications of the value about to begin start in `apps`.
    pending_start: usize,
    builders: Vec<ValueBuilder>,
    string: String,
    keep_string: bool,
    /// Whether the open string's characters are counted (some application
    /// has `minLength` or `maxLength`); `string_chars` is their count.
    count_chars: bool,
    string_chars: u64,
    /// A piece of the open string whose bytes keep the count below this
    /// needs nothing but the count (see `quiet_part`); 0 when every piece
    /// takes the full path (kept text, `enum` / `const`, enclosing
    /// builders, outside a string, and for the rest of a string once a
    /// violation's offset in it waits on the next token: `pending_fix`).
    quiet_until: u64,
    /// Apps of the open string value (its range in `apps`).
    string_apps: Option<(usize, usize)>,
    violations: Vec<StreamViolation>,
    root_started: bool,
    root_done: bool,
    /// `$dynamicRef` schemas: buffer the whole root and validate at its end.
    whole: bool,
    /// Offset of the previous token (where a string part's raw bytes start).
    last_offset: u64,
    /// A violation placed late inside a string part: (index, exact offset,
    /// surplus bytes, the part's offset); see `offset_in_part`.
    pending_fix: Option<(usize, u64, u64, u64)>,
    /// The string that has just begun is under `maxLength`, `enum` or
    /// `const`: from how many decoded bytes on its pieces' offsets should be
    /// exact.
    exact_from: Option<usize>,
    /// Per application of the open string (from its range's start): the
    /// first `enum` option that fits the text so far.
    option_cursor: Vec<usize>,
}

/// The flag that marks `kw` (`enum` or `const` on a string) as failed.
fn done_flag(kw: &Kw) -> u8 {
    if matches!(kw, Kw::Const(_)) {
        CONST_DONE
    } else {
        ENUM_DONE
    }
}

fn buffered_kw(kw: &Kw, kind: Kind) -> bool {
    match kw {
        Kw::Enum(_)
        | Kw::Const(_)
        | Kw::AnyOf(_)
        | Kw::OneOf(_)
        | Kw::Not(_)
        | Kw::If { .. }
        | Kw::DynamicRef(_) => true,
        Kw::UniqueItems | Kw::Contains { .. } => kind == Kind::Array,
        Kw::DependentRequired(_) | Kw::DependentSchemas(_) | Kw::UnevaluatedProperties(_) => {
            kind == Kind::Object
        }
        Kw::UnevaluatedItems(_) => kind == Kind::Array,
        Kw::Required(names) => kind == Kind::Object && names.len() > 64,
        _ => false,
    }
}

fn prefix_path(base: &Path, v: Violation) -> Violation {
    if base.is_empty() {
        return v;
    }
    let mut segs: Vec<Segment> = base.segments().to_vec();
    segs.extend(v.instance_path.segments().iter().cloned());
    Violation {
        instance_path: Path::from_segments(segs),
        ..v
    }
}

impl StreamCheck {
    pub(crate) fn new(schema: CompiledSchema) -> StreamCheck {
        let whole = schema.program().has_dynamic;
        let st = CheckState {
            frames: Vec::new(),
            apps: Vec::new(),
            pending_start: 0,
            builders: Vec::new(),
            string: String::new(),
            keep_string: false,
            count_chars: false,
            string_chars: 0,
            quiet_until: 0,
            string_apps: None,
            violations: Vec::new(),
            root_started: false,
            root_done: false,
            whole,
            last_offset: 0,
            pending_fix: None,
            exact_from: None,
            option_cursor: Vec::new(),
        };
        StreamCheck { schema, st }
    }

    /// The violations certain so far, in the order they became certain.
    pub fn violations(&self) -> &[StreamViolation] {
        &self.st.violations
    }

    /// The offset at which the first violation became certain.
    pub fn first_violation_offset(&self) -> Option<u64> {
        self.st.violations.first().map(|v| v.offset)
    }

    /// Whether some violation is already certain (the call can be stopped).
    pub fn is_doomed(&self) -> bool {
        !self.st.violations.is_empty()
    }

    /// The final verdict, once the parser has finished without error: equal
    /// to `validate` of the final value. A stream that ended before its root
    /// value closed is reported as one violation.
    pub fn finish(self) -> Result<(), Vec<Violation>> {
        let mut out: Vec<Violation> = self
            .st
            .violations
            .into_iter()
            .map(|v| v.violation)
            .collect();
        if !self.st.root_done && out.is_empty() {
            out.push(Violation {
                instance_path: Path::root(),
                schema_path: String::new(),
                keyword: String::new(),
                message: "expected a complete JSON value, found the stream ended before it closed"
                    .into(),
            });
        }
        if out.is_empty() { Ok(()) } else { Err(out) }
    }

    /// Forgets everything seen, to check another stream with the same schema.
    pub fn reset(&mut self) {
        self.st.frames.clear();
        self.st.apps.clear();
        self.st.pending_start = 0;
        self.st.builders.clear();
        self.st.string.clear();
        self.st.string_apps = None;
        self.st.violations.clear();
        self.st.root_started = false;
        self.st.root_done = false;
        self.st.last_offset = 0;
        self.st.pending_fix = None;
        self.st.exact_from = None;
        self.st.quiet_until = 0;
    }

    /// This check beside `sink` on one pass, as one sink: see
    /// [`CheckedSink`].
    pub fn beside<S: TokenSink>(self, sink: S) -> CheckedSink<S> {
        CheckedSink {
            sink,
            check: self,
            following: false,
            seen: 0,
        }
    }

    /// Whether the string value that has just begun needs nothing from its
    /// text but, at most, its character count (see `quiet_part`).
    pub(crate) fn counts_at_most(&self) -> bool {
        self.st.quiet_until > 0
    }

    /// Counts the characters of text of the open string that another sink's
    /// buffer received (whole, checked UTF-8 characters).
    fn count_elsewhere(&mut self, text: &[u8]) {
        if self.st.count_chars {
            self.st.string_chars += text.len() as u64 - continuation_bytes(text);
        }
    }

    /// Whether pieces of the open string of `bytes` bytes in all, on top
    /// of the count so far, need nothing but to be counted: the short path
    /// would take each of them (see `quiet_part`; a character is at least
    /// a byte).
    #[inline]
    pub(crate) fn only_counts(&self, bytes: u64) -> bool {
        self.st.string_chars.saturating_add(bytes) < self.st.quiet_until
    }

    /// Takes pieces of the open string that [`StreamCheck::only_counts`]
    /// allowed and that it was not shown, as the short path would have:
    /// `text` is their text, all of it, and `last_offset` the last one's
    /// offset.
    pub(crate) fn count_unseen(&mut self, text: &str, last_offset: u64) {
        self.count_elsewhere(text.as_bytes());
        self.st.last_offset = last_offset;
    }
}

/// A [`TokenSink`] (say a [`crate::ValueBuilder`]) with a [`StreamCheck`]
/// beside it on one pass: each token goes to the check, then the sink, and
/// where the check reads no more of a string than its length, the sink's
/// buffer for string text ([`TokenSink::string_bytes`]) is offered to the
/// parser. This is the way to run a check beside a [`crate::Value`] being
/// built; beside the partial tree it is
/// [`crate::PartialParser::attach_check`].
///
/// That matters when a long argument arrives in small deltas. A
/// [`crate::ValueBuilder`] alone takes such text into its buffer, a few
/// bytes at a time with no piece to make; beside a check that saw every
/// token it would get pieces, each checked and handed on as a token. Here the check counts the
/// buffer's new characters instead (`minLength` / `maxLength`), and asks
/// for pieces again, with exact offsets, before a `maxLength` bound could
/// be crossed. Strings whose keywords read the text (`enum`, `const`,
/// `pattern`, an asserted `format`), or inside a value that an `anyOf`,
/// `oneOf`, `enum`, `uniqueItems` or the like keeps whole, take pieces.
/// Tokens, violations and offsets are those of a check shown every token.
///
/// # Examples
///
/// ```
/// use tooljson::{CompiledSchema, Parser, ValueBuilder};
/// let schema = CompiledSchema::from_json_str(
///     r#"{"properties": {"content": {"type": "string", "maxLength": 300}}}"#,
/// )?;
/// let mut sink = schema.stream_check().beside(ValueBuilder::new());
/// let mut p = Parser::new();
/// // 120 lines of "ab" and an escaped newline: 360 characters.
/// let text = format!(r#"{{"content": "{}"}}"#, r"ab\n".repeat(120));
/// for delta in text.as_bytes().chunks(4) {
///     p.feed(delta, &mut sink)?;
/// }
/// p.finish(&mut sink)?;
/// // The 301st character, the `a` of the 101st line, ends 1 byte into it.
/// assert_eq!(sink.check().first_violation_offset(), Some(13 + 100 * 4 + 1));
/// let (builder, check) = sink.into_parts();
/// assert_eq!(builder.value().unwrap()["content"].as_str().unwrap().len(), 360);
/// assert!(check.finish().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct CheckedSink<S> {
    sink: S,
    check: StreamCheck,
    /// The open string's text may go into the sink's buffer, and the check
    /// counts what arrives there.
    following: bool,
    /// How much of the sink's buffer the check has counted.
    seen: usize,
}

impl<S: TokenSink> CheckedSink<S> {
    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The check.
    pub fn check(&self) -> &StreamCheck {
        &self.check
    }

    /// The sink and the check, apart.
    pub fn into_parts(self) -> (S, StreamCheck) {
        (self.sink, self.check)
    }

    /// Counts the text the parser appended to the sink's buffer since the
    /// check last looked (at the last string token).
    #[inline]
    fn catch_up(&mut self) {
        if let Some(buf) = self.sink.string_bytes()
            && let Some(new) = buf.get(self.seen..)
            && !new.is_empty()
        {
            self.check.count_elsewhere(new);
            self.seen = buf.len();
        }
    }
}

impl<S: TokenSink> TokenSink for CheckedSink<S> {
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        let string_token = matches!(token, Token::StringPart(_) | Token::StringEnd);
        if self.following && string_token {
            // Before the sink moves its buffer's text on.
            self.catch_up();
        }
        self.sink.token(token, at);
        self.check.token(token, at);
        match token {
            Token::StringBegin => {
                self.following = self.check.counts_at_most();
            }
            Token::StringEnd => self.following = false,
            _ => {}
        }
        if self.following && (string_token || token == Token::StringBegin) {
            self.seen = self.sink.string_bytes().map_or(0, |b| b.len());
        }
    }

    fn exact_string_offsets_from(&self) -> Option<usize> {
        crate::parser::earlier_bound(
            self.sink.exact_string_offsets_from(),
            self.check.exact_string_offsets_from(),
        )
    }

    fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
        // The text appended here is counted at the next piece or the
        // string's end, before the sink moves it on: until then no
        // `maxLength` can be passed (the parser stops appending short of
        // the bound), so nothing else needs the count.
        if self.following {
            self.sink.string_bytes()
        } else {
            None
        }
    }
}

impl CheckState {
    /// Records a violation, keeping the list in offset order (the order in
    /// which they became certain), whatever order the keywords are walked
    /// in: within one piece of a string an earlier keyword can fail at a
    /// later character than a later one (`{"const": "a", "maxLength": 0}`
    /// on `"aé"`). A violation placed by `offset_in_part` and still waiting
    /// for its fix (`pending_fix`, whose index is then `usize::MAX`) gets
    /// its place here.
    fn report(&mut self, offset: u64, v: Violation) {
        let at = if self.violations.last().is_none_or(|l| l.offset <= offset) {
            self.violations.len()
        } else {
            self.violations.partition_point(|w| w.offset <= offset)
        };
        self.violations.insert(
            at,
            StreamViolation {
                offset,
                violation: v,
            },
        );
        if let Some(p) = &mut self.pending_fix {
            if p.0 == usize::MAX {
                p.0 = at;
            } else if p.0 >= at {
                p.0 += 1;
            }
        }
    }

    fn violation(
        &self,
        sc: &CompiledSchema,
        node: NodeId,
        kw: &str,
        path: Path,
        message: String,
    ) -> Violation {
        Violation {
            instance_path: path,
            schema_path: format!("{}/{kw}", sc.program().loc(sc.program().node(node))),
            keyword: kw.to_owned(),
            message,
        }
    }

    /// Pushes `node` and its conjunctive closure (`$ref`, `allOf`), with the
    /// depth the validator would check it at. Past [`MAX_DEPTH`] the node
    /// fails closed, as in `validate`, and is not expanded further.
    #[inline]
    fn expand(&mut self, sc: &CompiledSchema, node: NodeId, depth: u32, at: &Location<'_>) {
        // The usual case, a node that applies no other in place, in line.
        super::budget::tally(1);
        if depth <= MAX_DEPTH && !sc.program().node(node).expands {
            self.apps.push(App {
                node,
                flags: 0,
                req_bits: 0,
                depth,
            });
            return;
        }
        self.expand_closure(sc, node, depth, at);
    }

    /// [`CheckState::expand`] of a node that expands, or past the depth bound.
    #[inline(never)]
    fn expand_closure(&mut self, sc: &CompiledSchema, node: NodeId, depth: u32, at: &Location<'_>) {
        if depth > MAX_DEPTH {
            let v = self.violation(
                sc,
                node,
                "$ref",
                at.path.to_path(),
                format!("expected schema nesting of at most {MAX_DEPTH} levels, found deeper"),
            );
            self.report(at.offset, v);
            self.apps.push(App {
                node,
                flags: DOOMED,
                req_bits: 0,
                depth,
            });
            return;
        }
        self.apps.push(App {
            node,
            flags: 0,
            req_bits: 0,
            depth,
        });
        let prog = sc.program();
        let n = prog.node(node);
        if !n.expands {
            return;
        }
        for kw in prog.kws(n).iter() {
            match kw {
                Kw::Ref(n) => self.expand(sc, *n, depth + 1, at),
                Kw::AllOf(list) => list.iter().for_each(|n| self.expand(sc, *n, depth + 1, at)),
                _ => {}
            }
        }
    }

    /// Whether every live application in `range` is a leaf (see
    /// [`super::program::Leaf`]) that the finished scalar `v` holds: then
    /// none of their keywords can fail, and they need not be walked.
    #[inline]
    fn leaves_hold(&self, sc: &CompiledSchema, range: (usize, usize), v: &Value) -> bool {
        let prog = sc.program();
        self.apps.get(range.0..range.1).is_some_and(|apps| {
            apps.iter().all(|a| {
                a.flags & DOOMED != 0 || leaf_verdict(prog, a.node, v, a.depth) == Some(true)
            })
        })
    }

    /// Runs the validator on a finished (sub)value for the keywords `pick` selects.
    fn run_keywords(
        &mut self,
        sc: &CompiledSchema,
        range: (usize, usize),
        v: &Value,
        path: PathRef<'_>,
        offset: u64,
        pick: impl Fn(&Kw, u8) -> bool,
    ) {
        let prog = sc.program();
        let val = Validator { prog };
        let mut errs = Vec::new();
        for i in range.0..range.1 {
            let Some(app) = self.apps.get(i).copied() else {
                break;
            };
            if app.flags & DOOMED != 0 {
                continue;
            }
            let node = prog.node(app.node);
            for kw in prog.kws(node).iter() {
                if !expanded(kw) && pick(kw, app.flags) {
                    // The usual keyword, and one that passes, decided here;
                    // the validator is called to word a failure.
                    if let Kw::Type(mask) = kw
                        && super::validate::type_matches(*mask, v)
                    {
                        continue;
                    }
                    val.keyword::<true>(node, kw, v, &At::ROOT, None, app.depth, &mut errs);
                }
            }
        }
        if errs.is_empty() {
            return;
        }
        let path = path.to_path();
        for e in errs {
            let e = prefix_path(&path, e);
            self.report(offset, e);
        }
    }

    /// First byte of a value: type checks against every application.
    #[inline]
    fn begin_checks(&mut self, sc: &CompiledSchema, bit: u8, found: &str, at: &Location<'_>) {
        let prog = sc.program();
        let fits = |a: &App| prog.node(a.node).types & bit != 0;
        if !self
            .apps
            .get(self.pending_start..)
            .is_some_and(|a| a.iter().all(fits))
        {
            self.type_mismatches(sc, bit, found, at);
        }
    }

    /// [`CheckState::begin_checks`] when some application rules the type
    /// out: reports each, naming the keyword that does.
    #[inline(never)]
    fn type_mismatches(&mut self, sc: &CompiledSchema, bit: u8, found: &str, at: &Location<'_>) {
        let prog = sc.program();
        for i in self.pending_start..self.apps.len() {
            let app = self.apps[i];
            let node = prog.node(app.node);
            if node.types & bit != 0 {
                continue;
            }
            // Name the keyword that rules the type out.
            let mut kw_name = "type";
            let mut expected = type_names(node.types);
            for kw in prog.kws(node).iter() {
                let (name, mask) = match kw {
                    Kw::False => ("false", 0),
                    Kw::Type(m) => ("type", *m),
                    Kw::Enum(_) => ("enum", node.types),
                    Kw::Const(_) => ("const", node.types),
                    Kw::AnyOf(_) => ("anyOf", node.types),
                    Kw::OneOf(_) => ("oneOf", node.types),
                    Kw::Ref(_) => ("$ref", node.types),
                    Kw::AllOf(_) => ("allOf", node.types),
                    _ => continue,
                };
                if mask & bit == 0 {
                    kw_name = name;
                    if let Kw::Type(m) = kw {
                        expected = type_names(*m);
                    }
                    break;
                }
            }
            let msg = if kw_name == "false" {
                format!("expected no value here (the schema is false), found {found}")
            } else {
                format!("expected {expected}, found {found}")
            };
            let v = self.violation(sc, app.node, kw_name, at.path.to_path(), msg);
            self.report(at.offset, v);
            if let Some(a) = self.apps.get_mut(i) {
                a.flags |= DOOMED;
            }
        }
    }

    /// A value begins inside an array: count it and push its applications.
    fn array_item(&mut self, sc: &CompiledSchema, at: &Location<'_>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        let idx = f.count;
        f.count += 1;
        let count = f.count;
        let (s, e) = (f.apps_start, f.apps_end);
        self.apps.truncate(e);
        self.pending_start = e;
        let prog = sc.program();
        for i in s..e {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                match kw {
                    Kw::MaxItems(max) if count > *max && app.flags & MAX_COUNT_DONE == 0 => {
                        if let Some(a) = self.apps.get_mut(i) {
                            a.flags |= MAX_COUNT_DONE;
                        }
                        let mut p = at.path.to_path();
                        p.pop();
                        let v = self.violation(
                            sc,
                            app.node,
                            "maxItems",
                            p,
                            format!(
                                "expected an array of at most {max} item{}, found more",
                                if *max == 1 { "" } else { "s" }
                            ),
                        );
                        self.report(at.offset, v);
                    }
                    Kw::Items(it) => {
                        if let Some(n) = it.node_for(idx as usize) {
                            self.expand(sc, n, app.depth + 1, at);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn key(&mut self, sc: &CompiledSchema, key: &str, at: &Location<'_>) {
        let Some(f) = self.frames.last_mut() else {
            return;
        };
        f.count += 1;
        let count = f.count;
        let (s, e) = (f.apps_start, f.apps_end);
        self.apps.truncate(e);
        self.pending_start = e;
        let prog = sc.program();
        for i in s..e {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            let node = prog.node(app.node);
            for kw in prog.kws(node).iter() {
                match kw {
                    Kw::MaxProperties(max) if count > *max && app.flags & MAX_COUNT_DONE == 0 => {
                        if let Some(a) = self.apps.get_mut(i) {
                            a.flags |= MAX_COUNT_DONE;
                        }
                        let mut p = at.path.to_path();
                        p.pop();
                        let v = self.violation(
                            sc,
                            app.node,
                            "maxProperties",
                            p,
                            format!(
                                "expected an object with at most {max} propert{}, found more",
                                if *max == 1 { "y" } else { "ies" }
                            ),
                        );
                        self.report(at.offset, v);
                    }
                    // With `required_in_object`, the `properties` lookup
                    // below marks the key by its position there instead.
                    Kw::Required(names) if names.len() <= 64 && !node.required_in_object => {
                        if let Some(j) = names.iter().position(|n| &**n == key)
                            && let Some(a) = self.apps.get_mut(i)
                        {
                            a.req_bits |= 1 << j;
                        }
                    }
                    Kw::PropertyNames(n) => {
                        let val = Validator { prog };
                        let kv = Value::String(key.to_owned());
                        let mut sub = Vec::new();
                        if !val.check::<true>(*n, &kv, &At::ROOT, None, app.depth + 1, &mut sub) {
                            let why = sub
                                .first()
                                .map_or(String::new(), |s| format!(": {}", s.message));
                            let mut p = at.path.to_path();
                            p.pop();
                            let v = self.violation(sc, app.node, "propertyNames", p, format!("expected property names valid against propertyNames, found {}{why}", show_str(key)));
                            self.report(at.offset, v);
                        }
                    }
                    Kw::Object(o) => {
                        let mut matched = false;
                        if let Some((pos, n)) = o.prop_entry(key) {
                            matched = true;
                            if node.required_in_object
                                && let Some(a) = self.apps.get_mut(i)
                            {
                                a.req_bits |= 1 << pos;
                            }
                            self.expand(sc, n, app.depth + 1, at);
                        }
                        for (p, n) in o.patterns.iter() {
                            if p.is_match(key) {
                                matched = true;
                                self.expand(sc, *n, app.depth + 1, at);
                            }
                        }
                        if !matched && let Some(n) = o.additional {
                            if o.additional_false {
                                let mut p = at.path.to_path();
                                p.pop();
                                let v = self.violation(
                                    sc,
                                    app.node,
                                    "additionalProperties",
                                    p,
                                    unknown_key_message(&o.props, key),
                                );
                                self.report(at.offset, v);
                            } else {
                                self.expand(sc, n, app.depth + 1, at);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    fn value_begin(&mut self, sc: &CompiledSchema, token: Token<'_>, at: &Location<'_>) {
        match self.frames.last().map(|f| f.kind) {
            Some(Kind::Array) => self.array_item(sc, at),
            Some(Kind::Object) => {}
            None => {
                if self.root_started {
                    return;
                }
                self.root_started = true;
                self.apps.clear();
                // Room for a tool schema's usual nesting at once, rather than
                // growing 4, 8, 16 as the value opens.
                self.apps.reserve(16);
                self.frames.reserve(8);
                self.pending_start = 0;
                let root = sc.program().root;
                self.expand(sc, root, 0, at);
            }
        }
        let range = (self.pending_start, self.apps.len());
        match token {
            Token::ObjectBegin | Token::ArrayBegin => {
                let (bit, kind, found) = if token == Token::ObjectBegin {
                    (T_OBJ, Kind::Object, "an object")
                } else {
                    (T_ARR, Kind::Array, "an array")
                };
                self.begin_checks(sc, bit, found, at);
                let prog = sc.program();
                let buffered = self.apps[range.0..range.1].iter().any(|a| {
                    a.flags & DOOMED == 0
                        && prog.node_kws(a.node).iter().any(|k| buffered_kw(k, kind))
                });
                if buffered {
                    let mut b = ValueBuilder::new();
                    b.token(token, at);
                    self.builders.push(b);
                }
                self.frames.push(Frame {
                    kind,
                    apps_start: range.0,
                    apps_end: range.1,
                    count: 0,
                    buffered,
                });
                self.pending_start = range.1;
            }
            Token::StringBegin => {
                self.begin_checks(sc, T_STR, "a string", at);
                let prog = sc.program();
                // What the string's keywords need (summed up per node when
                // the schema compiled): whether its text is kept, and from
                // where its pieces' offsets should be exact.
                let mut keep = false;
                let mut exact_from = usize::MAX;
                let mut counts = false;
                for a in &self.apps[range.0..range.1] {
                    if a.flags & DOOMED != 0 {
                        continue;
                    }
                    let n = prog.node(a.node);
                    keep |= n.str_keep;
                    exact_from = exact_from.min(n.str_exact_from);
                    counts |= n.str_counts;
                }
                self.keep_string = keep;
                self.count_chars = counts;
                self.exact_from = (exact_from != usize::MAX).then_some(exact_from);
                self.string.clear();
                self.string_chars = 0;
                self.option_cursor.clear();
                // A piece that cannot take the count past the smallest
                // `maxLength` (a character is at least a byte) is only
                // counted: nothing else reads it.
                self.quiet_until = if keep || !self.builders.is_empty() {
                    0
                } else {
                    match exact_from {
                        usize::MAX => u64::MAX,
                        from => (from as u64).saturating_add(1),
                    }
                };
                self.string_apps = Some(range);
            }
            Token::Number(n) => {
                let v = Value::Number(crate::Number::from_valid_lexeme(n));
                self.scalar_done(sc, range, &v, at);
            }
            Token::Bool(b) => self.scalar_done(sc, range, &Value::Bool(b), at),
            Token::Null => self.scalar_done(sc, range, &Value::Null, at),
            _ => {}
        }
    }

    fn scalar_done(
        &mut self,
        sc: &CompiledSchema,
        range: (usize, usize),
        v: &Value,
        at: &Location<'_>,
    ) {
        if !self.leaves_hold(sc, range, v) {
            self.run_keywords(sc, range, v, at.path, at.offset, |_, _| true);
        }
        self.apps.truncate(range.0);
        self.pending_start = range.0;
        if self.frames.is_empty() {
            self.root_done = true;
        }
    }

    /// The offset just past byte `end` (an index into the decoded `part`),
    /// never earlier than the byte that made it certain.
    ///
    /// The part's raw bytes run from the previous token's offset to this
    /// one's. Without escapes they map 1:1, except that the first character
    /// may have begun in the previous part (a UTF-8 sequence split by a
    /// chunk) and the span may end with the leading bytes of a split
    /// character or the closing quote. A leading split is visible (the span
    /// is shorter than the text); a trailing surplus `d` is assumed to lie
    /// before `end` (late, never early) and is corrected by
    /// `fix_pending` once the next token shows it was a split or the quote.
    /// With exact piece offsets (which this check asks the parser for) a
    /// piece is plain text mapping 1:1 or a single escaped character, so
    /// every offset is exact.
    fn offset_in_part(&mut self, part: &str, end: usize, at: &Location<'_>) -> u64 {
        let raw = at.offset.saturating_sub(self.last_offset);
        let len = part.len() as u64;
        if raw > len && part.chars().nth(1).is_none() {
            // One character from more bytes: an escape, handed on alone and
            // ending at this offset when the parser was asked for exact
            // offsets (`exact_string_offsets_from`), as it always is here
            // unless a wrapping sink did not pass the question on; in that
            // case this is late by the surplus, never early.
            return at.offset;
        }
        if raw >= len {
            let d = raw - len;
            if d > 0 {
                // The violation's index is set when it is reported.
                self.pending_fix = Some((usize::MAX, self.last_offset + end as u64, d, at.offset));
                // The next piece must see the fix: no short path for the
                // rest of this string. (Today only a string already past
                // its smallest `maxLength` or under `enum` / `const` gets
                // here, which the short path declines anyway; this keeps
                // that true whatever later keywords place violations.)
                self.quiet_until = 0;
            }
            (self.last_offset + end as u64 + d).min(at.offset)
        } else {
            // The first character began before this span.
            (at.offset - len + end as u64).min(at.offset)
        }
    }

    /// Lowers a pending offset once the token after the part shows that the
    /// surplus bytes were a split character's head or the closing quote.
    fn fix_pending(&mut self, token: &Token<'_>, at: &Location<'_>) {
        let Some((index, exact, d, part_end)) = self.pending_fix.take() else {
            return;
        };
        let explained = match token {
            Token::StringPart(p) => p.chars().next().is_some_and(|c| {
                d < c.len_utf8() as u64
                    && at.offset.saturating_sub(part_end) + d >= c.len_utf8() as u64 - 1
            }),
            Token::StringEnd => d == 1 && at.offset == part_end,
            _ => false,
        };
        if explained && let Some(v) = self.violations.get_mut(index) {
            v.offset = exact;
            // Earlier now than a violation reported after it in the same
            // piece: moved before it, so the list stays in offset order.
            let mut i = index;
            while i > 0
                && let (Some(a), Some(b)) = (self.violations.get(i - 1), self.violations.get(i))
                && a.offset > b.offset
            {
                self.violations.swap(i - 1, i);
                i -= 1;
            }
        }
    }

    fn string_part(&mut self, sc: &CompiledSchema, part: &str, at: &Location<'_>) {
        let Some(range) = self.string_apps else {
            return;
        };
        let before_chars = self.string_chars;
        let before_len = self.string.len();
        if self.count_chars {
            self.string_chars += char_count(part);
        }
        if self.keep_string {
            self.string.push_str(part);
        }
        // Only `maxLength`, `enum` and `const` look at a string's parts, and
        // they are exactly the keywords that ask for exact offsets: from 0
        // under `enum` / `const`, else from the smallest `maxLength` (see
        // `string_needs`), so that while the count has not passed it no
        // `maxLength` can have been exceeded, and the keywords are not
        // walked for every piece of a long string.
        match self.exact_from {
            None => return,
            Some(from) if from > 0 && self.string_chars <= from as u64 => return,
            Some(_) => {}
        }
        let prog = sc.program();
        for i in range.0..range.1 {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                match kw {
                    Kw::MaxLength(max)
                        if self.string_chars > *max && app.flags & MAX_LEN_DONE == 0 =>
                    {
                        if let Some(a) = self.apps.get_mut(i) {
                            a.flags |= MAX_LEN_DONE;
                        }
                        // The character that goes one past the limit.
                        let nth = max.saturating_sub(before_chars) as usize;
                        let end = part
                            .char_indices()
                            .nth(nth)
                            .map_or(part.len(), |(b, c)| b + c.len_utf8());
                        let offset = self.offset_in_part(part, end, at);
                        let v = self.violation(
                            sc,
                            app.node,
                            "maxLength",
                            at.path.to_path(),
                            format!(
                                "expected a string of at most {max} character{}, found more",
                                if *max == 1 { "" } else { "s" }
                            ),
                        );
                        self.report(offset, v);
                    }
                    Kw::Enum(_) | Kw::Const(_) if app.flags & done_flag(kw) == 0 => {
                        // Only the new piece is compared: the options that
                        // fit the text before it are known (see
                        // `OptionCursor`).
                        let slot = i - range.0;
                        if self.option_cursor.len() <= slot {
                            self.option_cursor.resize(slot + 1, 0);
                        }
                        let cursor = match kw {
                            Kw::Enum(o) => OptionCursor::Enum(o),
                            Kw::Const(c) => OptionCursor::Const(c),
                            _ => OptionCursor::Nothing,
                        };
                        let from = self.option_cursor[slot];
                        if let Some(k) = cursor.next_fitting(from, &self.string, before_len) {
                            self.option_cursor[slot] = k;
                            continue;
                        }
                        if let Some(a) = self.apps.get_mut(i) {
                            a.flags |= done_flag(kw);
                        }
                        // The first character after which no option fits:
                        // the one that ends past the longest match.
                        let longest = cursor.longest_match(from, &self.string, before_len);
                        let end = part
                            .char_indices()
                            .map(|(b, c)| b + c.len_utf8())
                            .find(|&e| e > longest)
                            .unwrap_or(part.len());
                        let offset = self.offset_in_part(part, end, at);
                        let shown = self.string.get(..before_len + end).unwrap_or(&self.string);
                        let listed: Vec<String> = match kw {
                            Kw::Enum(o) => o.shown(12),
                            Kw::Const(c) => vec![show(c)],
                            _ => Vec::new(),
                        };
                        let (name, exp) = match kw {
                            Kw::Enum(_) => ("enum", format!("one of {}", listed.join(", "))),
                            _ => ("const", listed.join(", ")),
                        };
                        let v = self.violation(
                            sc,
                            app.node,
                            name,
                            at.path.to_path(),
                            format!(
                                "expected {exp}, found a string starting with {}",
                                show_str(shown)
                            ),
                        );
                        self.report(offset, v);
                    }
                    _ => {}
                }
            }
        }
    }

    fn string_end(&mut self, sc: &CompiledSchema, at: &Location<'_>) {
        self.quiet_until = 0;
        let Some(range) = self.string_apps.take() else {
            return;
        };
        let v = Value::String(std::mem::take(&mut self.string));
        let path = at.path;
        if !self.keep_string {
            // Only lengths are checked: decide them from the count.
            self.lengths_at_end(sc, range, path, at.offset);
        }
        // A string not kept has no keyword but the lengths (decided above)
        // and `type` (at its first byte); a kept one that every leaf
        // application holds has nothing to report.
        if self.keep_string && !self.leaves_hold(sc, range, &v) {
            self.run_keywords(sc, range, &v, path, at.offset, |kw, flags| match kw {
                Kw::Type(_) => false,
                Kw::MaxLength(_) => flags & MAX_LEN_DONE == 0,
                Kw::Enum(_) | Kw::Const(_) => flags & done_flag(kw) == 0,
                _ => true,
            });
        }
        if let Value::String(mut s) = v {
            s.clear();
            self.string = s;
        }
        self.apps.truncate(range.0);
        self.pending_start = range.0;
        if self.frames.is_empty() {
            self.root_done = true;
        }
    }

    /// `minLength` / `maxLength` of a string that was not kept, from its count.
    fn lengths_at_end(
        &mut self,
        sc: &CompiledSchema,
        range: (usize, usize),
        path: PathRef<'_>,
        offset: u64,
    ) {
        let prog = sc.program();
        let n = self.string_chars;
        let plural = |k: u64| if k == 1 { "character" } else { "characters" };
        for i in range.0..range.1 {
            let Some(app) = self.apps.get(i).copied() else {
                break;
            };
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                let msg = match kw {
                    Kw::MinLength(min) if n < *min => (
                        "minLength",
                        format!(
                            "expected a string of at least {min} {}, found {n} {}",
                            plural(*min),
                            plural(n)
                        ),
                    ),
                    _ => continue,
                };
                let v = self.violation(sc, app.node, msg.0, path.to_path(), msg.1);
                self.report(offset, v);
            }
        }
    }

    fn container_end(&mut self, sc: &CompiledSchema, at: &Location<'_>) {
        let Some(f) = self.frames.pop() else { return };
        let value = if f.buffered {
            self.builders.pop().and_then(ValueBuilder::into_value)
        } else {
            None
        };
        let prog = sc.program();
        let path = at.path;
        for i in f.apps_start..f.apps_end.min(self.apps.len()) {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            for kw in prog.node_kws(app.node).iter() {
                let msg = match (kw, f.kind) {
                    (Kw::Required(names), Kind::Object) if names.len() <= 64 => {
                        let node = prog.node(app.node);
                        // The keys seen as bits of positions in `properties`
                        // (`required_in_object`) or in `names`.
                        let object = prog.kws(node).iter().find_map(|k| match k {
                            Kw::Object(o) if node.required_in_object => Some(o),
                            _ => None,
                        });
                        if object.is_some_and(|o| app.req_bits & o.required_mask == o.required_mask)
                        {
                            continue;
                        }
                        for (j, name) in names.iter().enumerate() {
                            let bit = match object {
                                Some(o) => o.prop_entry(name).map_or(0, |(pos, _)| 1 << pos),
                                None => 1 << j,
                            };
                            if app.req_bits & bit == 0 {
                                let v = self.violation(
                                    sc,
                                    app.node,
                                    "required",
                                    path.to_path(),
                                    format!(
                                        "expected required property {}, found an object without it",
                                        show_str(name)
                                    ),
                                );
                                self.report(at.offset, v);
                            }
                        }
                        None
                    }
                    (Kw::MinProperties(min), Kind::Object) if f.count < *min => Some((
                        "minProperties",
                        format!(
                            "expected an object with at least {min} propert{}, found {}",
                            if *min == 1 { "y" } else { "ies" },
                            f.count
                        ),
                    )),
                    (Kw::MinItems(min), Kind::Array) if f.count < *min => Some((
                        "minItems",
                        format!(
                            "expected an array of at least {min} item{}, found {} item{}",
                            if *min == 1 { "" } else { "s" },
                            f.count,
                            if f.count == 1 { "" } else { "s" }
                        ),
                    )),
                    _ => None,
                };
                if let Some((name, m)) = msg {
                    let v = self.violation(sc, app.node, name, path.to_path(), m);
                    self.report(at.offset, v);
                }
            }
        }
        if let Some(v) = value {
            let kind = f.kind;
            self.run_keywords(
                sc,
                (f.apps_start, f.apps_end),
                &v,
                path,
                at.offset,
                |kw, _| buffered_kw(kw, kind),
            );
        }
        self.apps.truncate(f.apps_start);
        self.pending_start = f.apps_start;
        if self.frames.is_empty() {
            self.root_done = true;
        }
    }

    fn whole_token(&mut self, sc: &CompiledSchema, token: Token<'_>, at: &Location<'_>) {
        if self.root_done {
            return;
        }
        if self.builders.is_empty() {
            self.root_started = true;
            self.builders.push(ValueBuilder::new());
        }
        if let Some(b) = self.builders.last_mut() {
            b.token(token, at);
            if let Some(v) = b.value() {
                self.root_done = true;
                if let Err(errs) = sc.validate(v) {
                    for e in errs {
                        self.report(at.offset, e);
                    }
                }
            }
        }
    }
}

impl TokenSink for StreamCheck {
    #[inline]
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        // The pieces of a long string are most of the tokens when a long
        // argument streams in small deltas: one that nothing but the count
        // reads takes this short path, not the whole handler.
        if let Token::StringPart(part) = token
            && self.st.quiet_part(part, at.offset)
        {
            return;
        }
        self.st.token(&self.schema, token, at);
    }

    fn exact_string_offsets_from(&self) -> Option<usize> {
        self.st.exact_from
    }
}

impl CheckState {
    /// Counts `part` of the open string and returns `true` when that is all
    /// it needs: no keyword reads the text, and even at one character per
    /// byte it cannot pass the smallest `maxLength` (`quiet_until`, which
    /// is 0 while a violation's offset waits on the next token, so one
    /// test covers both). Returns `false` having done nothing otherwise.
    /// In line, with only the count of a piece that is long or not ASCII
    /// out of line: a piece then costs no entry into the whole handler.
    #[inline(always)]
    fn quiet_part(&mut self, part: &str, offset: u64) -> bool {
        if self.string_chars.saturating_add(part.len() as u64) >= self.quiet_until {
            return false;
        }
        if self.count_chars {
            self.string_chars += char_count(part);
        }
        self.last_offset = offset;
        true
    }

    fn token(&mut self, sc: &CompiledSchema, token: Token<'_>, at: &Location<'_>) {
        if self.whole {
            self.whole_token(sc, token, at);
            return;
        }
        if self.root_done {
            return;
        }
        if self.pending_fix.is_some() {
            self.fix_pending(&token, at);
        }
        // Builders of enclosing buffered frames see every token of their subvalue.
        for b in self.builders.iter_mut() {
            b.token(token, at);
        }
        match token {
            Token::ObjectBegin
            | Token::ArrayBegin
            | Token::StringBegin
            | Token::Number(_)
            | Token::Bool(_)
            | Token::Null => {
                // A builder this opens is fed the token by `value_begin`.
                self.value_begin(sc, token, at);
            }
            Token::Key(k) => self.key(sc, k, at),
            Token::StringPart(s) => self.string_part(sc, s, at),
            Token::StringEnd => self.string_end(sc, at),
            Token::ObjectEnd | Token::ArrayEnd => self.container_end(sc, at),
        }
        self.last_offset = at.offset;
    }
}

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
                            if p.is_match(k) {
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
