//! The live preview of `tooljson replay` and the demo: one block per call,
//! its name and arguments growing, then its status, and a summary line.
//!
//! On a terminal (stdout is one, `NO_COLOR` is unset and `TERM` is not
//! `dumb`) the frame is redrawn in place. The redraw moves the cursor up over
//! the lines it drew, which only works if none of them wrapped or scrolled
//! off the screen: so every line is cut to the terminal's width in display
//! columns (a wide character counts two), and a frame taller than the screen
//! shows only its last lines that fit. The final frame is printed whole, once.
//! Lines are overwritten in place rather than the region cleared first: no
//! flicker, and no terminal that keeps cleared screens (tmux) fills its
//! scrollback with frames.
//! Elsewhere no escape code is written and only the final frame is printed.

use std::io::{IsTerminal, Write};
use std::time::Duration;

use tooljson::Value;
use tooljson::partial::PartialNode;
use tooljson::providers::{CallError, CallStatus, ToolCallStream};
use unicode_width::UnicodeWidthChar;

use crate::Failure;

/// Whether to draw live (with escape codes) on stdout.
pub fn stdout_is_live() -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    std::io::stdout().is_terminal() && !no_color && !dumb
}

/// The terminal's size in columns and rows, from the terminal itself; `None`
/// when stdout is not a terminal.
fn terminal_size() -> Option<(usize, usize)> {
    let (terminal_size::Width(w), terminal_size::Height(h)) =
        terminal_size::terminal_size_of(std::io::stdout())?;
    (w > 0 && h > 0).then_some((w.into(), h.into()))
}

/// The width of a frame that is not drawn live (a file, a pipe): wide enough
/// for most values, the same on every machine.
const PLAIN_WIDTH: usize = 100;

/// Below these the frame is cut at these anyway (a line of a few columns
/// helps nobody, and wraps are then the terminal's to make).
const MIN_WIDTH: usize = 20;
const MIN_HEIGHT: usize = 3;

/// Progress figures for the summary line.
#[derive(Clone, Copy)]
pub struct Progress {
    pub bytes: u64,
    pub elapsed: Duration,
}

impl Progress {
    fn summary(&self) -> String {
        let secs = self.elapsed.as_secs_f64();
        let rate = if secs > 0.0 {
            format!("{}/s", human_bytes(self.bytes as f64 / secs))
        } else {
            "-".to_owned()
        };
        format!(
            "{:.2} s · {} · {rate}",
            secs,
            human_bytes(self.bytes as f64)
        )
    }
}

fn human_bytes(n: f64) -> String {
    if n < 1024.0 {
        format!("{n:.0} B")
    } else if n < 1024.0 * 1024.0 {
        format!("{:.1} KiB", n / 1024.0)
    } else {
        format!("{:.1} MiB", n / (1024.0 * 1024.0))
    }
}

/// The preview on stdout.
pub struct Screen {
    live: bool,
    /// Lines of the live region on screen now (the cursor is below them).
    drawn: usize,
}

impl Screen {
    pub fn new(live: bool) -> Screen {
        Screen { live, drawn: 0 }
    }

    pub fn is_live(&self) -> bool {
        self.live
    }

    /// Redraws the live region in place; nothing when not live.
    pub fn draw_live(
        &mut self,
        stream: &ToolCallStream,
        progress: Progress,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        if !self.live {
            return Ok(());
        }
        let (cols, rows) = terminal_size().unwrap_or((80, 24));
        // The last column stays empty (some terminals wrap on writing it) and
        // so does the last row (the newline after the last line would scroll
        // the first one out of reach).
        let width = cols.saturating_sub(1).max(MIN_WIDTH);
        let height = rows.saturating_sub(1).max(MIN_HEIGHT);
        let mut lines = frame(stream, width);
        lines.push(Styled::dim(fit(&footer(stream, progress), width, false)));
        if lines.len() > height {
            let hidden = lines.len() - (height - 1);
            let tail = lines.split_off(hidden);
            lines = vec![Styled::dim(format!("… {hidden} line(s) above"))];
            lines.extend(tail);
        }
        let text = self.redraw(&lines);
        out.write_all(text.as_bytes()).map_err(Failure::write)
    }

    /// Replaces the live region (if any) with the whole final frame.
    pub fn draw_final(
        &mut self,
        stream: &ToolCallStream,
        progress: Progress,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let width = match terminal_size() {
            Some((cols, _)) if self.live => cols.saturating_sub(1).max(MIN_WIDTH),
            _ => PLAIN_WIDTH,
        };
        let mut lines = frame(stream, width);
        lines.push(Styled::dim(fit(&footer(stream, progress), width, false)));
        if let Some(e) = stream.choice_error() {
            let l = format!("tool_choice not met: {}", printable(&e.to_string()));
            lines.push(Styled::red(fit(&l, width, false)));
        }
        let text = self.redraw(&lines);
        self.drawn = 0;
        out.write_all(text.as_bytes()).map_err(Failure::write)
    }

    /// `lines` over the live region: each line overwritten in place and
    /// cleared to its end, then what is left of a taller region cleared.
    /// Never a clear from the top-left corner: some terminals (tmux) keep a
    /// screen cleared from there in their scrollback, one copy per frame.
    fn redraw(&mut self, lines: &[Styled]) -> String {
        let mut text = String::new();
        if !self.live {
            for l in lines {
                l.render(false, &mut text);
                text.push('\n');
            }
            return text;
        }
        if self.drawn > 0 {
            text.push_str(&format!("\r\x1b[{}A", self.drawn));
        }
        for l in lines {
            l.render(true, &mut text);
            text.push_str("\x1b[K\n");
        }
        if lines.len() < self.drawn {
            text.push_str("\x1b[J");
        }
        self.drawn = lines.len();
        text
    }
}

/// One line of the frame and its colour.
struct Styled {
    text: String,
    sgr: Option<&'static str>,
}

impl Styled {
    fn plain(text: String) -> Styled {
        Styled { text, sgr: None }
    }
    fn dim(text: String) -> Styled {
        Styled {
            text,
            sgr: Some("2"),
        }
    }
    fn red(text: String) -> Styled {
        Styled {
            text,
            sgr: Some("31"),
        }
    }

    fn render(&self, ansi: bool, out: &mut String) {
        match self.sgr {
            Some(code) if ansi => {
                out.push_str("\x1b[");
                out.push_str(code);
                out.push('m');
                out.push_str(&self.text);
                out.push_str("\x1b[0m");
            }
            _ => out.push_str(&self.text),
        }
    }
}

/// `s` with control characters (and so any escape code a model or a
/// recording could carry) shown as `\u{..}`: the text must never drive the
/// terminal, nor break a line the redraw counts on.
fn printable(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn width_of(c: char) -> usize {
    c.width().unwrap_or(0)
}

/// Cuts `s` to `max` display columns: the tail when the value is still
/// growing (so the growth shows), else the head. Control characters are
/// shown escaped first. Only the part that can be shown is looked at.
fn fit(s: &str, max: usize, growing: bool) -> String {
    fit_excerpt(s, false, max, growing)
}

/// [`fit`] for an excerpt that `cut` says is already shorter than its source.
fn fit_excerpt(s: &str, cut: bool, max: usize, growing: bool) -> String {
    // Every character takes at least one column once escaped (zero-width
    // ones aside): more than `max + 1` of them cannot be shown.
    let (s, cut_here) = side(s, max + 1, growing);
    let s = printable(s);
    let total: usize = s.chars().map(width_of).sum();
    if total <= max && !(cut || cut_here) {
        return s;
    }
    // One column for the ellipsis.
    let room = max.saturating_sub(1);
    let mut used = 0;
    if growing {
        let mut tail: Vec<char> = Vec::new();
        for c in s.chars().rev() {
            used += width_of(c);
            if used > room {
                break;
            }
            tail.push(c);
        }
        let mut out = String::from("…");
        out.extend(tail.iter().rev());
        out
    } else {
        let mut out = String::new();
        for c in s.chars() {
            used += width_of(c);
            if used > room {
                break;
            }
            out.push(c);
        }
        out.push('…');
        out
    }
}

/// At most `n` characters of `s`, its last ones with `tail`, and whether
/// that cut anything.
fn side(s: &str, n: usize, tail: bool) -> (&str, bool) {
    if n == 0 {
        return ("", !s.is_empty());
    }
    let at = if tail {
        s.char_indices()
            .rev()
            .nth(n.saturating_sub(1))
            .map(|(i, _)| i)
    } else {
        s.char_indices().nth(n).map(|(i, _)| i)
    };
    match at {
        Some(i) if tail && i > 0 => (&s[i..], true),
        Some(i) if !tail => (&s[..i], true),
        _ => (s, false),
    }
}

/// A node of the preview: open (partial) or finished.
#[derive(Clone, Copy)]
enum Node<'a> {
    Partial(&'a PartialNode),
    Value(&'a Value),
}

/// Compact JSON of a node, numbers as written, cut to its first (or with
/// `tail`, its last) `n` characters, and whether it was cut. Written from
/// the end for a tail, so the cost is that of the excerpt, never of the whole
/// value (a call's arguments can be as large as the input).
fn excerpt(node: Node<'_>, n: usize, tail: bool) -> (String, bool) {
    let mut ex = Excerpt {
        left: n,
        tail,
        parts: Vec::new(),
        cut: false,
    };
    ex.node(node);
    if tail {
        ex.parts.reverse();
    }
    (ex.parts.concat(), ex.cut)
}

struct Excerpt {
    /// Characters still wanted.
    left: usize,
    tail: bool,
    /// The text, in writing order (reversed for a tail).
    parts: Vec<String>,
    cut: bool,
}

impl Excerpt {
    /// Adds `s`, or as much of it as is wanted; false once full.
    fn push(&mut self, s: &str) -> bool {
        let (part, cut) = side(s, self.left, self.tail);
        self.left -= part.chars().count();
        self.parts.push(part.to_owned());
        self.cut |= cut;
        !self.cut
    }

    /// A JSON string, escaping only the part that can be shown.
    fn string(&mut self, s: &str) -> bool {
        let (part, cut) = side(s, self.left + 1, self.tail);
        let mut e = String::new();
        tooljson::value::write_json_string(&mut e, part);
        if cut {
            // The string goes on past the excerpt: no quote on that side.
            if self.tail {
                e.remove(0);
            } else {
                e.pop();
            }
        }
        self.push(&e)
    }

    /// `open`, the items (`item(i)`) between commas, `close`; backwards for
    /// a tail.
    fn seq(
        &mut self,
        open: &str,
        close: &str,
        len: usize,
        mut item: impl FnMut(usize, &mut Excerpt) -> bool,
    ) -> bool {
        if self.tail {
            self.push(close)
                && (0..len)
                    .rev()
                    .all(|i| item(i, self) && (i == 0 || self.push(",")))
                && self.push(open)
        } else {
            self.push(open)
                && (0..len).all(|i| (i == 0 || self.push(",")) && item(i, self))
                && self.push(close)
        }
    }

    /// `"key":value`, backwards for a tail.
    fn member(&mut self, key: &str, value: Node<'_>) -> bool {
        if self.tail {
            self.node(value) && self.push(":") && self.string(key)
        } else {
            self.string(key) && self.push(":") && self.node(value)
        }
    }

    fn node(&mut self, node: Node<'_>) -> bool {
        match node {
            Node::Value(Value::Null) => self.push("null"),
            Node::Value(Value::Bool(b)) => self.push(if *b { "true" } else { "false" }),
            Node::Value(Value::Number(n)) => self.push(n.as_str()),
            Node::Value(Value::String(s)) | Node::Partial(PartialNode::String(s)) => self.string(s),
            Node::Value(Value::Array(a)) => {
                self.seq("[", "]", a.len(), |i, ex| ex.node(Node::Value(&a[i])))
            }
            Node::Value(Value::Object(m)) => self.seq("{", "}", m.len(), |i, ex| {
                m.get_index(i)
                    .is_some_and(|(k, v)| ex.member(k, Node::Value(v)))
            }),
            Node::Partial(PartialNode::Complete(v)) => self.node(Node::Value(v)),
            Node::Partial(PartialNode::Array(items)) => self.seq("[", "]", items.len(), |i, ex| {
                ex.node(Node::Partial(&items[i]))
            }),
            Node::Partial(PartialNode::Object(members)) => {
                self.seq("{", "}", members.len(), |i, ex| {
                    let (k, v) = &members[i];
                    ex.member(k, Node::Partial(v))
                })
            }
        }
    }
}

/// A node cut to `max` columns, as [`fit`] cuts text.
fn fit_node(node: Node<'_>, max: usize, growing: bool) -> String {
    let (text, cut) = excerpt(node, max + 1, growing);
    fit_excerpt(&text, cut, max, growing)
}

/// Object members shown per call; the rest are counted.
const MAX_MEMBERS: usize = 12;

/// A call's error as printed: a root violation names the root.
pub fn describe_error(e: &CallError) -> String {
    match e {
        CallError::Schema(v) => crate::validate::Located {
            path: &v.violation.instance_path,
            message: &v.violation.message,
        }
        .to_string(),
        other => other.to_string(),
    }
}

/// The frame's call blocks, each line at most `width` columns.
fn frame(stream: &ToolCallStream, width: usize) -> Vec<Styled> {
    let mut lines = Vec::new();
    if stream.calls().is_empty() {
        lines.push(Styled::plain("(no tool calls yet)".to_owned()));
    }
    for (n, c) in stream.calls().iter().enumerate() {
        let (mark, sgr) = match c.status() {
            CallStatus::Streaming => ("…", "33"),
            CallStatus::Complete => ("✓", "32"),
            _ => ("✗", "31"),
        };
        let head = format!(
            "{mark} #{n} {} {} [{}] {} · {} bytes",
            c.name().unwrap_or("?"),
            c.id().unwrap_or("-"),
            c.kind(),
            c.status(),
            c.arguments_text().len()
        );
        lines.push(Styled {
            text: fit(&head, width, false),
            sgr: Some(sgr),
        });
        // Members as (key, node, still growing); a non-object under "".
        let members: Vec<(&str, Node<'_>, bool)> = match c.partial() {
            Some(PartialNode::Object(ms)) => ms
                .iter()
                .map(|(k, v)| (k.as_str(), Node::Partial(v), !v.is_complete()))
                .collect(),
            Some(PartialNode::Complete(Value::Object(m))) => {
                m.iter().map(|(k, v)| (k, Node::Value(v), false)).collect()
            }
            Some(other) => vec![("", Node::Partial(other), !other.is_complete())],
            None => vec![],
        };
        let raw = c.partial().is_none() && !c.arguments_text().is_empty();
        if raw {
            // Text that is not JSON (a custom tool's input, a broken call).
            let growing = c.status() == CallStatus::Streaming;
            let line = format!(
                "    {}",
                fit(c.arguments_text(), width.saturating_sub(4), growing)
            );
            lines.push(Styled::plain(line));
        }
        for (k, v, growing) in members.iter().take(MAX_MEMBERS) {
            let label = if k.is_empty() {
                "    ".to_owned()
            } else {
                format!("    {}: ", fit(k, width / 2, false))
            };
            let used: usize = label.chars().map(width_of).sum();
            let room = width.saturating_sub(used).max(8);
            let line = format!("{label}{}", fit_node(*v, room, *growing));
            lines.push(Styled::plain(fit(&line, width, false)));
        }
        if members.len() > MAX_MEMBERS {
            let more = format!("    … {} more", members.len() - MAX_MEMBERS);
            lines.push(Styled::plain(more));
        }
        if c.status().is_finished() && c.status() != CallStatus::Complete {
            for e in c.errors().iter().take(3) {
                let l = format!("    ! {}", describe_error(e));
                lines.push(Styled::red(fit(&l, width, false)));
            }
        }
    }
    lines
}

/// The status line: what the stream did, then elapsed time and throughput.
fn footer(stream: &ToolCallStream, progress: Progress) -> String {
    let checked = if stream.tools().is_some() {
        " · validated"
    } else {
        ""
    };
    let state = match stream.stop_reason() {
        Some(r) => format!(
            "stream finished: {r} · {} · {} call(s){checked}",
            stream.provider_name().unwrap_or("?"),
            stream.calls().len()
        ),
        None => "streaming…".to_owned(),
    };
    format!("{state} · {}", progress.summary())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(s: &str) -> usize {
        s.chars().map(width_of).sum()
    }

    #[test]
    fn lines_fit_in_display_columns() {
        let wide = "日本語のテキスト".repeat(10);
        for max in [8, 9, 10, 31] {
            assert!(cols(&fit(&wide, max, false)) <= max, "{max}");
            assert!(cols(&fit(&wide, max, true)) <= max, "{max}");
        }
        assert_eq!(fit("abcdef", 4, false), "abc…");
        assert_eq!(fit("abcdef", 4, true), "…def");
        assert_eq!(fit("abc", 4, true), "abc");
    }

    #[test]
    fn excerpts_match_the_whole_text() {
        let v = tooljson::from_str(
            r#"{"a":[1,2.50,"x\"y",{"k\n":null,"t":true}],"s":"héllo wörld","e":{}}"#,
        )
        .unwrap();
        let whole = v.to_string();
        let n = whole.chars().count();
        for len in 1..n + 2 {
            let (head, cut) = excerpt(Node::Value(&v), len, false);
            let want: String = whole.chars().take(len).collect();
            assert_eq!((head.as_str(), cut), (want.as_str(), len < n), "head {len}");
            let (tail, cut) = excerpt(Node::Value(&v), len, true);
            let want: String = whole.chars().skip(n.saturating_sub(len)).collect();
            assert_eq!((tail.as_str(), cut), (want.as_str(), len < n), "tail {len}");
        }
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        let s = fit("a\x1b[2Jb\nc\u{9b}d", 100, false);
        assert_eq!(s, "a\\u{1b}[2Jb\\u{a}c\\u{9b}d");
        assert!(!s.chars().any(char::is_control));
    }
}
