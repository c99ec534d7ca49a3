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

// The keyword families, one file each (the same names as in
// `compile/keywords/` and `validate/`); the families the stream check
// leaves to the validator at a value's end (numbers, `format`,
// `unevaluated*`) have none.
mod applicators;
mod arrays;
mod enum_const;
mod objects;
mod strings;
mod types;

mod apps;
mod beside_tree;
mod paths;
mod sink;

pub(crate) use paths::{string_options_at, unique_option_at};
pub use sink::CheckedSink;

use super::chars::continuation_bytes;
use super::program::{Kw, NodeId};
use super::types::{T_ARR, T_OBJ, T_STR};
use super::{CompiledSchema, Violation};
use crate::parser::{Location, Token, TokenSink, ValueBuilder};
use crate::{Path, Segment, Value};

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
    /// The shared nodes (`Node::shared`) applied to the value about to
    /// begin, with their depths, once it has more than a few applications:
    /// a node two keywords apply is kept once per value, so that a
    /// recursive schema applying one definition twice does not double the
    /// applications per level of the instance.
    applied_here: std::collections::HashSet<(NodeId, u32)>,
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
            applied_here: std::collections::HashSet::new(),
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
        self.st.applied_here.clear();
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

    fn value_begin(&mut self, sc: &CompiledSchema, token: Token<'_>, at: &Location<'_>) {
        match self.frames.last().map(|f| f.kind) {
            Some(Kind::Array) => self.array_item(sc, at),
            Some(Kind::Object) => {}
            None => {
                if self.root_started {
                    return;
                }
                self.root_started = true;
                self.new_value_at(0);
                // Room for a tool schema's usual nesting at once, rather than
                // growing 4, 8, 16 as the value opens.
                self.apps.reserve(16);
                self.frames.reserve(8);
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

    fn container_end(&mut self, sc: &CompiledSchema, at: &Location<'_>) {
        let Some(f) = self.frames.pop() else { return };
        let value = if f.buffered {
            self.builders.pop().and_then(ValueBuilder::into_value)
        } else {
            None
        };
        let path = at.path;
        for i in f.apps_start..f.apps_end.min(self.apps.len()) {
            let app = self.apps[i];
            if app.flags & DOOMED != 0 {
                continue;
            }
            match f.kind {
                Kind::Object => self.object_close(sc, app, f.count, at),
                Kind::Array => self.array_close(sc, app, f.count, at),
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
