//! ECMA-262 regular expressions (what JSON Schema's `pattern` means) turned
//! into the `regex` crate's syntax.
//!
//! What changes: `\d` `\w` `\s` `\b` get their ECMA meaning (ASCII digits and
//! word characters, ECMA white space), `.` excludes all four line
//! terminators, `\uXXXX` (with surrogate pairs), `\xXX`, `\cX` and `\0`
//! become `\x{..}`, `(?<name>` becomes `(?P<name>`, a `{` that is not a
//! quantifier is a literal, `[^]` matches anything.
//!
//! Look-around and back references, which the `regex` crate (linear time)
//! does not have, are written for `fancy-regex` instead ([`Dialect::Backtracking`]),
//! whose backtracking runs within a bound of backtracks per match. A back
//! reference to a group that has not matched matches the empty string, as in
//! ECMA-262 (`(?(N)\N|)`); one that comes before its group closes (a forward
//! or self reference, which ECMA-262 also reads as empty) is refused.

use std::fmt::Write as _;

/// ECMA-262 `WhiteSpace` and `LineTerminator` code points, as class items.
const WS: &str = r"\t\n\x0B\x0C\r \x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";

/// The error of a quantifier with nothing to repeat, which ECMA-262 (Annex
/// B included) refuses: one at the start of the pattern, a group or an
/// alternative, after an assertion (`^`, `$`, `\b`, `\B`), or after another
/// quantifier (`a**`, `a{2}{3}`; the lazy `?` of `a*?` aside). The `regex`
/// crate and this crate's own matchers would otherwise give such a pattern
/// a meaning of their own.
pub(crate) fn misplaced_quantifier(chars: &[char]) -> Result<(), String> {
    #[derive(Clone, Copy, PartialEq)]
    enum Last {
        /// The start of the pattern, a group or an alternative.
        Nothing,
        Atom,
        Assertion,
        Quantifier,
        /// A quantifier made lazy by `?`.
        Lazy,
    }
    let mut last = Last::Nothing;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        let start = i;
        i += 1;
        let quantifier = match c {
            '*' | '+' | '?' => true,
            '{' => match quantifier_end(chars, i) {
                Some(end) => {
                    i = end;
                    true
                }
                None => false,
            },
            _ => false,
        };
        if quantifier {
            last = match last {
                Last::Atom => Last::Quantifier,
                Last::Quantifier if c == '?' => Last::Lazy,
                _ => {
                    let text: String = chars.get(start..i).unwrap_or(&[]).iter().collect();
                    return Err(format!(
                        "quantifier `{text}` at character {} has nothing to repeat",
                        start + 1
                    ));
                }
            };
            continue;
        }
        last = match c {
            '^' | '$' => Last::Assertion,
            '(' | '|' => {
                // Group syntax (`?:`, `?<name>`, look-around) is read by the
                // translation; it is not a quantifier.
                if c == '(' && chars.get(i) == Some(&'?') {
                    i += 1;
                    if chars.get(i) == Some(&'<') && !matches!(chars.get(i + 1), Some('=' | '!')) {
                        while chars.get(i).is_some_and(|&n| n != '>') {
                            i += 1;
                        }
                    }
                    i += 1;
                }
                Last::Nothing
            }
            '\\' => {
                let e = chars.get(i).copied();
                i += 1;
                match e {
                    Some('b' | 'B') => Last::Assertion,
                    // `\u{..}` and `\p{..}`: their braces are not a quantifier.
                    Some('u' | 'p' | 'P') if chars.get(i) == Some(&'{') => {
                        while chars.get(i).is_some_and(|&n| n != '}') {
                            i += 1;
                        }
                        i += 1;
                        Last::Atom
                    }
                    _ => Last::Atom,
                }
            }
            '[' => {
                // To the closing `]` (a `]` first in the class closes it:
                // `[]` is the empty class), skipping escapes.
                while let Some(&n) = chars.get(i) {
                    i += 1;
                    match n {
                        ']' => break,
                        '\\' => i += 1,
                        _ => {}
                    }
                }
                Last::Atom
            }
            _ => Last::Atom,
        };
    }
    Ok(())
}

/// The quantifier at `chars[at..]` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`,
/// with a lazy `?` after it): its minimum and how many characters it uses.
fn quantifier_at(chars: &[char], at: usize) -> Option<(u32, usize)> {
    let (min, end) = match chars.get(at)? {
        '*' | '?' => (0, at + 1),
        '+' => (1, at + 1),
        '{' => {
            let end = quantifier_end(chars, at + 1)?;
            let digits: String = chars[at + 1..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            (digits.parse().unwrap_or(u32::MAX), end)
        }
        _ => return None,
    };
    let end = if chars.get(end) == Some(&'?') {
        end + 1
    } else {
        end
    };
    Some((min, end - at))
}

/// Where a `{` at `chars[at - 1]` that reads `{n}`, `{n,}` or `{n,m}` ends
/// (just past its `}`); `None` for a literal brace.
fn quantifier_end(chars: &[char], at: usize) -> Option<usize> {
    let mut j = at;
    let digits = |j: &mut usize| {
        let from = *j;
        while chars.get(*j).is_some_and(char::is_ascii_digit) {
            *j += 1;
        }
        *j > from
    };
    if !digits(&mut j) {
        return None;
    }
    if chars.get(j) == Some(&',') {
        j += 1;
        digits(&mut j);
    }
    (chars.get(j) == Some(&'}')).then_some(j + 1)
}

/// What a translation is written for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Dialect {
    /// The `regex` crate alone (the tests' translation): look-around and
    /// back references are errors.
    #[cfg(test)]
    Regex,
    /// `fancy-regex`: look-around and back references kept.
    Backtracking,
    /// The `regex` crate's syntax with look-around groups read as plain
    /// groups and back references as empty: parsed only, to find syntax
    /// errors and weigh the pattern before the backtracking one is built.
    Weighing,
}

/// A translated pattern.
pub(crate) struct Translation {
    pub(crate) text: String,
    /// Whether the pattern has look-around or back references (so needs
    /// the backtracking engine).
    pub(crate) backtracking: bool,
}

/// Translates `pattern` for the `regex` crate; the error says which
/// construct has no equivalent.
#[cfg(test)]
pub(crate) fn translate(pattern: &str) -> Result<String, String> {
    translate_for(pattern, Dialect::Regex).map(|t| t.text)
}

/// Translates `pattern` for `dialect`.
pub(crate) fn translate_for(pattern: &str, dialect: Dialect) -> Result<Translation, String> {
    let chars: Vec<char> = pattern.chars().collect();
    misplaced_quantifier(&chars)?;
    let mut t = Translator {
        chars: &chars,
        dialect,
        out: String::with_capacity(pattern.len() + 8),
        groups: Groups::default(),
        backtracking: false,
        i: 0,
        in_class: false,
        class_start: false,
        class_last: ClassItem::Start,
    };
    while let Some(&c) = chars.get(t.i) {
        t.i += 1;
        if t.in_class {
            t.class_char(c)?;
        } else {
            t.outside_class(c)?;
        }
    }
    if t.in_class {
        return Err("unterminated character class `[`".into());
    }
    Ok(Translation {
        text: t.out,
        backtracking: t.backtracking,
    })
}

/// A translation under way: the pattern's characters, the next one's
/// index, the text written so far, and the groups and class read so far.
struct Translator<'a> {
    chars: &'a [char],
    dialect: Dialect,
    out: String,
    groups: Groups,
    backtracking: bool,
    i: usize,
    in_class: bool,
    class_start: bool,
    /// In a class: what the last item was, which decides what a `-` is.
    class_last: ClassItem,
}

impl Translator<'_> {
    /// Character `c` inside a bracket class.
    fn class_char(&mut self, c: char) -> Result<(), String> {
        let chars = self.chars;
        let first = self.class_start;
        self.class_start = false;
        // ECMA-262 reads `-` as a range only between two single characters
        // (`[--{]` is `-` to `{`); everywhere else it is a literal, which
        // is written `\-` so that the `regex` crate, whose rules differ,
        // reads the same.
        let last = std::mem::replace(&mut self.class_last, ClassItem::Char);
        match c {
            ']' => {
                self.in_class = false;
                self.out.push(']');
            }
            '^' if first => {
                self.out.push('^');
                self.class_last = ClassItem::Start;
            }
            // (Annex B reads `[a-\d]` as `a`, `-` and the digits.)
            '-' if last == ClassItem::Char
                && chars.get(self.i).is_some_and(|&n| n != ']')
                && !class_escape_at(chars, self.i) =>
            {
                self.out.push('-');
                self.class_last = ClassItem::RangeDash;
            }
            '\\' => {
                let set = class_escape_at(chars, self.i - 1);
                let (text, used) = escape(chars, self.i, true)?;
                self.i += used;
                self.out.push_str(&text);
                if set {
                    self.class_last = ClassItem::Set;
                }
            }
            c => self
                .out
                .push_str(&regex::escape(c.encode_utf8(&mut [0; 4]))),
        }
        if last == ClassItem::RangeDash && self.class_last != ClassItem::RangeDash {
            // A range's upper end cannot start another range.
            self.class_last = ClassItem::RangeEnd;
        }
        Ok(())
    }

    /// Character `c` outside a class.
    fn outside_class(&mut self, c: char) -> Result<(), String> {
        let chars = self.chars;
        match c {
            '\\' => self.escape_outside()?,
            ')' => self.close_group(),
            '[' => {
                if chars.get(self.i) == Some(&']') {
                    // `[]` matches nothing.
                    self.out.push_str(r"[^\x{0}-\x{10FFFF}]");
                    self.i += 1;
                } else if chars.get(self.i) == Some(&'^') && chars.get(self.i + 1) == Some(&']') {
                    self.out.push_str("(?s:.)");
                    self.i += 2;
                } else {
                    self.in_class = true;
                    self.class_start = true;
                    self.class_last = ClassItem::Start;
                    self.out.push('[');
                }
            }
            '.' => self.out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
            '(' => self.open_group()?,
            // A quantifier only if it reads {n}, {n,} or {n,m}: copied
            // whole, its closing brace included; else a literal brace.
            '{' => match quantifier_end(chars, self.i) {
                Some(end) => {
                    self.out.push('{');
                    self.out.extend(&chars[self.i..end]);
                    self.i = end;
                }
                None => self.out.push_str(r"\{"),
            },
            // Not the end of a quantifier (that was copied with its `{`).
            '}' => self.out.push_str(r"\}"),
            c => self.out.push(c),
        }
        Ok(())
    }

    /// An escape outside a class (its `\` read): a back reference, an
    /// ASCII word boundary for the backtracking engine, or any other.
    fn escape_outside(&mut self) -> Result<(), String> {
        let chars = self.chars;
        let i = self.i;
        if let Some((group, used)) = back_reference(chars, i, &self.groups, self.dialect)? {
            self.backtracking = true;
            self.i += used;
            match self.dialect {
                #[cfg(test)]
                Dialect::Regex => {
                    return Err(format!(
                        "back reference `\\{}` is not supported",
                        chars[i..i + used].iter().collect::<String>()
                    ));
                }
                Dialect::Backtracking => {
                    let _ = write!(self.out, "(?:(?({group})\\{group}|))");
                }
                Dialect::Weighing => self.out.push_str("(?:)"),
            }
            return Ok(());
        }
        if self.dialect == Dialect::Backtracking
            && let Some(boundary) = ascii_word_boundary(chars.get(i))
        {
            self.out.push_str(boundary);
            self.i += 1;
            return Ok(());
        }
        let (text, used) = escape(chars, i, false)?;
        self.i += used;
        self.out.push_str(&text);
        Ok(())
    }

    /// A `)`, and the end of the group wrapped around a look-around.
    fn close_group(&mut self) {
        self.out.push(')');
        if self.groups.close() {
            // A quantified look-ahead (Annex B), which the engine refuses:
            // with a minimum of 0 it is a choice of asserting or not, else
            // one assertion.
            if let Some((min, used)) = quantifier_at(self.chars, self.i) {
                self.i += used;
                if min == 0 {
                    self.out.push('|');
                }
            }
            self.out.push(')');
        }
    }

    /// A `(`: a capture, a named capture, a non-capturing group or a
    /// look-around.
    fn open_group(&mut self) -> Result<(), String> {
        let chars = self.chars;
        let i = self.i;
        if chars.get(i) != Some(&'?') {
            self.groups.open(Some(String::new()));
            self.out.push('(');
            return Ok(());
        }
        let look = match (chars.get(i + 1), chars.get(i + 2)) {
            (Some('='), _) => Some(("look-ahead", "(?=")),
            (Some('!'), _) => Some(("negative look-ahead", "(?!")),
            (Some('<'), Some('=')) => Some(("look-behind", "(?<=")),
            (Some('<'), Some('!')) => Some(("negative look-behind", "(?<!")),
            _ => None,
        };
        if let Some((name, syntax)) = look {
            return self.look_around(name, syntax);
        }
        match (chars.get(i + 1), chars.get(i + 2)) {
            (Some('<'), _) => {
                let name: String = chars[i + 2..].iter().take_while(|&&n| n != '>').collect();
                self.groups.open(Some(name));
                self.out.push_str("(?P<");
                self.i += 2;
            }
            (Some(':'), _) => {
                self.groups.open(None);
                self.out.push_str("(?:");
                self.i += 2;
            }
            _ => return Err("unknown group syntax `(?`".into()),
        }
        Ok(())
    }

    /// A look-around group (`name`, written `syntax`) for the dialect.
    fn look_around(&mut self, _name: &str, syntax: &str) -> Result<(), String> {
        self.backtracking = true;
        self.i += syntax.len() - 1;
        match self.dialect {
            #[cfg(test)]
            Dialect::Regex => Err(format!("{_name} `{syntax}` is not supported")),
            Dialect::Backtracking => {
                // In a group of its own, which Annex B lets a quantifier
                // follow (`(?=a)?`).
                self.groups.open_wrapped();
                self.out.push_str("(?:");
                self.out.push_str(syntax);
                Ok(())
            }
            Dialect::Weighing => {
                self.groups.open(None);
                self.out.push_str("(?:");
                Ok(())
            }
        }
    }
}

/// The groups of a pattern read so far, for its back references.
#[derive(Default)]
struct Groups {
    /// The open groups, innermost last: a capture's number (0 for a group
    /// that does not capture), and whether it was written inside a group
    /// of its own (a look-around for the backtracking engine).
    open: Vec<(usize, bool)>,
    /// Per capture (numbered from 1, at index n - 1): its name (empty when
    /// it has none) and whether it has closed.
    captures: Vec<(String, bool)>,
}

impl Groups {
    /// A group opens: `name` is `None` for one that does not capture.
    fn open(&mut self, name: Option<String>) {
        match name {
            Some(name) => {
                self.captures.push((name, false));
                self.open.push((self.captures.len(), false));
            }
            None => self.open.push((0, false)),
        }
    }

    /// A look-around opens, written inside a group of its own.
    fn open_wrapped(&mut self) {
        self.open.push((0, true));
    }

    /// The innermost group closes: whether it was written inside a group
    /// of its own (which then needs a second `)`).
    fn close(&mut self) -> bool {
        let Some((n, wrapped)) = self.open.pop() else {
            return false;
        };
        if let Some(c) = n.checked_sub(1).and_then(|k| self.captures.get_mut(k)) {
            c.1 = true;
        }
        wrapped
    }
}

/// The back reference whose backslash precedes `chars[at]`, if that is one
/// (`\1`..`\99`, `\k<name>`): its group number and how many characters
/// after the backslash it used. An error for one before its group closes,
/// or naming no group so far.
///
/// For [`Dialect::Weighing`] only the syntax is read (the group is not
/// looked up, and its number is 0 for a name): syntax checks stay local to
/// one atom (see the `regex` format, which checks long patterns in pieces).
fn back_reference(
    chars: &[char],
    at: usize,
    groups: &Groups,
    dialect: Dialect,
) -> Result<Option<(usize, usize)>, String> {
    let (number, used) = match chars.get(at) {
        Some('1'..='9') => {
            let digits = chars[at..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .take(2)
                .count();
            let text: String = chars[at..at + digits].iter().collect();
            (text.parse::<usize>().unwrap_or(usize::MAX), digits)
        }
        Some('k') if chars.get(at + 1) == Some(&'<') => {
            let name: String = chars[at + 2..].iter().take_while(|&&n| n != '>').collect();
            let used = 3 + name.chars().count();
            if dialect == Dialect::Weighing {
                return Ok(chars
                    .get(at + used - 1)
                    .is_some_and(|&c| c == '>')
                    .then_some((0, used)));
            }
            match groups
                .captures
                .iter()
                .position(|(n, _)| !n.is_empty() && *n == name)
            {
                Some(k) => (k + 1, used),
                None => {
                    return Err(format!(
                        "back reference `\\k<{name}>` names no group before it"
                    ));
                }
            }
        }
        _ => return Ok(None),
    };
    if dialect == Dialect::Weighing {
        return Ok(Some((number, used)));
    }
    match number.checked_sub(1).and_then(|k| groups.captures.get(k)) {
        Some((_, true)) => Ok(Some((number, used))),
        Some((_, false)) => Err(format!(
            "back reference to group {number} inside that group is not supported"
        )),
        None => Err(format!(
            "back reference to group {number} before that group is not supported"
        )),
    }
}

/// ECMA-262's `\b` and `\B` (ASCII word characters) for the backtracking
/// engine, which has no `(?-u:\b)`: written with look-around.
fn ascii_word_boundary(c: Option<&char>) -> Option<&'static str> {
    match c {
        Some('b') => {
            Some("(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))")
        }
        Some('B') => {
            Some("(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))")
        }
        _ => None,
    }
}

/// Whether `chars[at..]` starts with a class escape (`\d`, `\w`, `\s`, their
/// negations, `\p{..}`, `\P{..}`): a set, not a single character.
fn class_escape_at(chars: &[char], at: usize) -> bool {
    chars.get(at) == Some(&'\\')
        && match chars.get(at + 1) {
            Some('d' | 'D' | 'w' | 'W' | 's' | 'S') => true,
            Some('p' | 'P') => chars.get(at + 2) == Some(&'{'),
            _ => false,
        }
}

/// What came last in a bracket class, for reading the next `-`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ClassItem {
    /// Nothing yet (after `[` or `[^`).
    Start,
    /// A single character: a `-` after it starts a range.
    Char,
    /// `\d`, `\w`, `\p{..}` and the like: a `-` after it is a literal.
    Set,
    /// A `-` that makes a range: the next item is its upper end.
    RangeDash,
    /// A range's upper end: a `-` after it is a literal.
    RangeEnd,
}

fn hex(chars: &[char], at: usize, n: usize) -> Option<u32> {
    let mut v = 0;
    for k in 0..n {
        v = v * 16 + chars.get(at + k)?.to_digit(16)?;
    }
    Some(v)
}

fn code_point(cp: u32) -> String {
    format!(r"\x{{{cp:X}}}")
}

/// Translates the escape whose backslash precedes `chars[at]`; returns the
/// text and how many characters after the backslash it used.
fn escape(chars: &[char], at: usize, in_class: bool) -> Result<(String, usize), String> {
    let Some(&c) = chars.get(at) else {
        return Err("pattern ends with a lone `\\`".into());
    };
    let nested = |s: &str| format!("[{s}]");
    Ok(match c {
        'd' => (nested("0-9"), 1),
        'D' => (nested("^0-9"), 1),
        'w' => (nested("0-9A-Za-z_"), 1),
        'W' => (nested("^0-9A-Za-z_"), 1),
        's' => (nested(WS), 1),
        'S' => (format!("[^{WS}]"), 1),
        'b' if in_class => (r"\x{8}".into(), 1),
        'b' => (r"(?-u:\b)".into(), 1),
        'B' if in_class => {
            return Err(
                "`\\B` inside a class is not a character (a literal `B` only in \
                        Annex B's legacy syntax)"
                    .into(),
            );
        }
        'B' => (r"(?-u:\B)".into(), 1),
        't' | 'n' | 'r' | 'f' | 'v' => (format!("\\{c}"), 1),
        '0' if !chars.get(at + 1).is_some_and(|d| d.is_ascii_digit()) => (r"\x{0}".into(), 1),
        '1'..='9' if !in_class => {
            return Err(format!("back reference `\\{c}` is not supported"));
        }
        'k' if chars.get(at + 1) == Some(&'<') => {
            return Err("named back reference `\\k<..>` is not supported".into());
        }
        'c' => match chars.get(at + 1) {
            Some(l) if l.is_ascii_alphabetic() => (code_point(u32::from(*l) % 32), 2),
            _ => (r"\\c".into(), 1),
        },
        'x' => match hex(chars, at + 1, 2) {
            Some(v) => (code_point(v), 3),
            None => ("x".into(), 1),
        },
        'u' => {
            if chars.get(at + 1) == Some(&'{') {
                let mut j = at + 2;
                let mut v: u32 = 0;
                while let Some(d) = chars.get(j).and_then(|c| c.to_digit(16)) {
                    v = v.saturating_mul(16).saturating_add(d);
                    j += 1;
                }
                if chars.get(j) == Some(&'}') && j > at + 2 && char::from_u32(v).is_some() {
                    return Ok((code_point(v), j + 1 - at));
                }
                return Err("invalid `\\u{...}` escape".into());
            }
            match hex(chars, at + 1, 4) {
                Some(hi @ 0xD800..=0xDBFF) => {
                    if chars.get(at + 5) == Some(&'\\')
                        && chars.get(at + 6) == Some(&'u')
                        && let Some(lo @ 0xDC00..=0xDFFF) = hex(chars, at + 7, 4)
                    {
                        let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                        (code_point(cp), 11)
                    } else {
                        return Err(format!("lone surrogate `\\u{hi:04X}` cannot match text"));
                    }
                }
                Some(0xDC00..=0xDFFF) => {
                    return Err("lone surrogate escape cannot match text".into());
                }
                Some(v) => (code_point(v), 5),
                None => ("u".into(), 1),
            }
        }
        'p' | 'P' => {
            // Unicode property: `\p{..}` passes through (the `regex` crate knows
            // the general categories and scripts ECMA names).
            if chars.get(at + 1) == Some(&'{') {
                let mut j = at + 2;
                let mut s = String::new();
                while let Some(&ch) = chars.get(j) {
                    if ch == '}' {
                        break;
                    }
                    s.push(ch);
                    j += 1;
                }
                if chars.get(j) != Some(&'}') {
                    return Err("unterminated `\\p{` escape".into());
                }
                let mut t = String::new();
                let _ = write!(t, "\\{c}{{{s}}}");
                (t, j + 1 - at)
            } else {
                (c.to_string(), 1)
            }
        }
        c if c.is_ascii_alphanumeric() => (c.to_string(), 1),
        c => (regex::escape(&c.to_string()), 1),
    })
}

/// The `regex` crate's bound on a compiled program, in bytes.
const SIZE_LIMIT: usize = 8 << 20;

/// Patterns whose [`weight`] is at most this are built on first use; heavier
/// ones are built at once, so that a pattern too big for [`SIZE_LIMIT`]
/// fails when the schema compiles, never later.
const LAZY_WEIGHT: u64 = 4096;

/// Compiles an ECMA-262 pattern with the `regex` crate at once (the tests'
/// helper; schemas use [`check`] and build on first use).
#[cfg(test)]
pub(crate) fn compile(pattern: &str) -> Result<regex::Regex, String> {
    build(&translate(pattern)?)
}

/// Builds an already translated pattern.
pub(crate) fn build(translated: &str) -> Result<regex::Regex, String> {
    regex::RegexBuilder::new(translated)
        .size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::Syntax(s) => syntax_message(&s),
            other => other.to_string(),
        })
}

fn syntax_message(s: &str) -> String {
    format!(
        "not a supported regular expression: {}",
        s.lines().last().unwrap_or("")
    )
}

/// Memory a pattern built by the `regex` crate is taken to need, whatever
/// its size: the matcher's engines and the caches of its first searches
/// (about 20 KiB measured on small patterns).
pub(crate) const REGEX_BASE_BYTES: u64 = 16 << 10;

/// Memory taken to be needed per unit of [`weight`] (18 to 20 bytes
/// measured, caches of a first match included, on `^(?:\S+\s+){0,999}\S+$`
/// and the like).
pub(crate) const REGEX_BYTES_PER_WEIGHT: u64 = 24;

/// A pattern translated and parsed, not yet built: see [`check`].
pub(crate) struct Parsed {
    translated: String,
    weight: u64,
    /// The pattern itself, when it has look-around or back references
    /// (translated for the backtracking engine by [`Parsed::finish`]).
    backtracking: Option<String>,
}

impl Parsed {
    /// An estimate of the memory the built pattern takes, in bytes.
    pub(crate) fn memory(&self) -> u64 {
        self.weight
            .saturating_mul(REGEX_BYTES_PER_WEIGHT)
            .saturating_add(REGEX_BASE_BYTES)
    }

    /// Builds the pattern at once if it is heavy (so that one too big for
    /// [`SIZE_LIMIT`] fails when the schema compiles, never later) or needs
    /// the backtracking engine (whose own errors are found then); a light
    /// one is built on first use.
    pub(crate) fn finish(self, backtrack_limit: usize) -> Result<Checked, String> {
        if let Some(pattern) = self.backtracking {
            let text = translate_for(&pattern, Dialect::Backtracking)?.text;
            let built = build_backtracking(&text, backtrack_limit)?;
            return Ok(Checked::Backtracking(built));
        }
        let built = if self.weight > LAZY_WEIGHT {
            Some(build(&self.translated)?)
        } else {
            None
        };
        Ok(Checked::Regex {
            translated: self.translated,
            built,
        })
    }
}

/// A checked pattern.
pub(crate) enum Checked {
    /// For the `regex` crate: its translation, and the built regex when it
    /// was built at once (heavy patterns).
    Regex {
        translated: String,
        built: Option<regex::Regex>,
    },
    /// For the backtracking engine, built.
    Backtracking(fancy_regex::Regex),
}

/// Builds a pattern translated for [`Dialect::Backtracking`], whose
/// matches stop after `backtrack_limit` backtracks.
pub(crate) fn build_backtracking(
    translated: &str,
    backtrack_limit: usize,
) -> Result<fancy_regex::Regex, String> {
    fancy_regex::RegexBuilder::new(translated)
        .backtrack_limit(backtrack_limit)
        .delegate_size_limit(SIZE_LIMIT)
        .delegate_dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            fancy_regex::Error::ParseError(_, p) => {
                format!("not a supported regular expression: {p}")
            }
            fancy_regex::Error::CompileError(c) => {
                format!("not a supported regular expression: {c}")
            }
            other => other.to_string(),
        })
}

/// Translates and parses an ECMA-262 pattern, which finds every syntax
/// error, without building the matcher (which costs some ten times more);
/// [`Parsed::memory`] then tells what building it would take, and
/// [`Parsed::finish`] builds heavy patterns at once. A pattern with
/// look-around or back references is parsed and weighed with those read
/// as plain groups (see [`Dialect::Weighing`]).
pub(crate) fn check(pattern: &str) -> Result<Parsed, String> {
    let weighing = translate_for(pattern, Dialect::Weighing)?;
    // The same parser, with the same defaults, as `RegexBuilder` uses.
    let hir = regex_syntax::ParserBuilder::new()
        .build()
        .parse(&weighing.text)
        .map_err(|e| syntax_message(&e.to_string()))?;
    let backtracking = weighing.backtracking.then(|| pattern.to_owned());
    Ok(Parsed {
        weight: weight(&hir),
        translated: weighing.text,
        backtracking,
    })
}

/// A bound on the size of the program a pattern compiles to, in rough units
/// (a literal byte, a class range, an assertion): repetitions multiply.
/// Recursion is bounded by the parser's nesting limit.
fn weight(hir: &regex_syntax::hir::Hir) -> u64 {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => 1,
        HirKind::Literal(l) => l.0.len() as u64,
        HirKind::Class(Class::Unicode(c)) => c.ranges().len() as u64 * 4,
        HirKind::Class(Class::Bytes(c)) => c.ranges().len() as u64,
        HirKind::Repetition(r) => {
            let times = r.max.unwrap_or(r.min.saturating_add(1)).max(1);
            weight(&r.sub).saturating_mul(u64::from(times))
        }
        HirKind::Capture(c) => weight(&c.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => {
            subs.iter().map(weight).fold(0u64, u64::saturating_add)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::compile;

    #[test]
    fn ecma_meanings() {
        let m = |p: &str, s: &str| compile(p).unwrap().is_match(s);
        assert!(m(r"^\d+$", "123"));
        assert!(!m(r"^\d$", "\u{0660}"));
        assert!(m(r"^\s$", "\u{FEFF}"));
        assert!(!m(r"^.$", "\n"));
        assert!(!m(r"^.$", "\u{2028}"));
        assert!(m(r"^\u00e9$", "é"));
        assert!(m(r"^\uD83D\uDE00$", "😀"));
        assert!(m(r"^a{$", "a{"));
        assert!(m(r"^a{2}$", "aa"));
        // An escaped backslash before a quantifier is not an escaped brace.
        assert!(m(r"^\\{2}$", r"\\"));
        assert!(m(r"^(|\\{0})$", ""));
        assert!(m(r"^a}$", "a}"));
        assert!(m(r"^a{1,2}}$", "aa}"));
        assert!(m(r"^[\d-]+$", "1-2"));
        // `-` as ECMA-262 reads it in a class: a range only between two
        // single characters.
        assert!(m(r"^[--{]$", "a"));
        assert!(!m(r"^[--{]$", ","));
        assert!(m(r"^[a-c-e]+$", "b-e"));
        assert!(!m(r"^[a-c-e]$", "d"));
        assert!(m(r"^[-a]+$", "-a"));
        assert!(m(r"^[a-]+$", "-a"));
        assert!(m(r"^[^-a]$", "b"));
        assert!(!m(r"^[^-a]$", "-"));
        assert!(m(r"^[\w-z]+$", "_-z"));
        assert!(!m(r"^[\w-z]$", "!"));
        assert!(m(r"^[&~#]+$", "&~#"));
        // A class escape at a range's end: Annex B's union, not a range.
        assert!(m(r"^[a-\d]+$", "a-5"));
        assert!(!m(r"^[a-\d]$", "b"));
        assert!(m(r"^[\0-\S]+$", "\0-x"));
        assert!(!m(r"^[\0-\S]$", " "));
        assert!(m(r"^\cJ$", "\n"));
        assert!(m(r"^[^]$", "\n"));
        assert!(!m(r"[]", "a"));
        assert!(m(r"(?<year>\d{4})", "2024"));
        assert!(compile(r"(a)\1").unwrap_err().contains("back reference"));
        assert!(compile(r"a(?=b)").unwrap_err().contains("look-ahead"));
        // A quantifier with nothing to repeat is a syntax error in ECMA-262.
        for p in [
            "*a", "a**", "a+*", "a{2}{3}", "^*", "a$+", r"\b?", "(*a)", "a|+b", "a*??", "(?:+)",
        ] {
            let e = compile(p).unwrap_err();
            assert!(e.contains("nothing to repeat"), "{p}: {e}");
        }
        assert_eq!(
            compile("ab{2}{3}").unwrap_err(),
            "quantifier `{3}` at character 6 has nothing to repeat"
        );
        // What is not a quantifier, or follows something to repeat.
        for p in [
            "a*?", "a+?b", "a{2}?", "{", "a{,2}", "x{a}*", r"\u{41}*", r"\p{L}+", "[*]+", "[]]*",
            r"[\]*]+", "(?:a)*", "(?<n>a)+", r"\\*", "a|b*", "()*",
        ] {
            assert!(compile(p).is_ok(), "{p}: {:?}", compile(p).err());
        }
    }
}
