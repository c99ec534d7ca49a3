//! The live preview in a real terminal: `tooljson demo` runs on a
//! pseudo-terminal (util-linux `script`, sized with `stty`), and its output is
//! read back by a terminal emulator (`vt100`) before, during and after the
//! stream. A frame that wrapped or scrolled off the screen could not be
//! erased by the next redraw: such piled frames show as lines in the
//! scrollback, or as two status lines.

use std::process::Command;

/// Runs `tooljson ARGS` on a `cols` x `rows` terminal; returns its output.
fn on_terminal(cols: u16, rows: u16, env: &[(&str, &str)], args: &str) -> Vec<u8> {
    let bin = env!("CARGO_BIN_EXE_tooljson");
    let inner = format!("stty cols {cols} rows {rows} && exec '{bin}' {args}");
    let mut cmd = Command::new("script");
    cmd.args(["-q", "-e", "-c", &inner, "/dev/null"])
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap_or_else(|e| {
        panic!("util-linux `script` (a pseudo-terminal for this test) did not run: {e}")
    });
    assert!(
        o.status.success(),
        "{args} on a terminal: {:?}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    o.stdout
}

/// Every line the terminal holds, the scrollback first.
fn history(p: &mut vt100::Parser) -> Vec<String> {
    let screen = p.screen_mut();
    let (_, cols) = screen.size();
    screen.set_scrollback(usize::MAX);
    let back = screen.scrollback();
    let mut lines = Vec::new();
    for offset in (1..=back).rev() {
        screen.set_scrollback(offset);
        lines.push(screen.rows(0, cols).next().unwrap());
    }
    screen.set_scrollback(0);
    lines.extend(screen.rows(0, cols));
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines
}

fn is_status(line: &str) -> bool {
    line.starts_with("streaming…") || line.starts_with("stream finished")
}

/// Checks the preview of the demo on a `cols` x `rows` terminal; returns a
/// screen captured mid-stream and the final text.
fn check_preview(cols: u16, rows: u16) -> (String, String) {
    let out = on_terminal(cols, rows, &[], "demo --speed 4");
    // The final frame replaces the live region with the last erase.
    let erase_at = find_last_erase(&out).expect("the preview redrew in place");
    let mut p = vt100::Parser::new(rows, cols, 10_000);
    let mut frames = 0;
    let mut taller = false;
    let mut middle = String::new();
    process_checking_clears(&mut vt100::Parser::new(rows, cols, 10_000), &out);
    for (i, step) in out[..erase_at].chunks(97).enumerate() {
        p.process(step);
        let lines = history(&mut p);
        // Nothing scrolled into the scrollback, nothing wrapped: the redraw
        // reached every line it drew.
        assert!(
            p.screen().scrollback() == 0 && lines.len() < rows as usize,
            "{cols}x{rows}: the live region outgrew the screen:\n{}",
            lines.join("\n")
        );
        for r in 0..rows {
            assert!(!p.screen().row_wrapped(r), "{cols}x{rows}: row {r} wrapped");
        }
        let statuses = lines.iter().filter(|l| is_status(l)).count();
        assert!(
            statuses <= 1,
            "{cols}x{rows}: piled frames:\n{}",
            lines.join("\n")
        );
        frames += statuses;
        taller |= lines.iter().any(|l| l.contains("line(s) above"));
        // A whole frame from the second half of the stream, to show.
        let whole = lines.last().is_some_and(|l| l.starts_with("streaming…"));
        if whole && (middle.is_empty() || i < out[..erase_at].len() / 97 / 2) {
            middle = lines.join("\n");
        }
    }
    assert!(frames > 10, "{cols}x{rows}: only {frames} live frames seen");
    p.process(&out[erase_at..]);
    let lines = history(&mut p);
    let text = lines.join("\n");
    // One final frame, whole, once: each call's header once, one status line.
    assert_eq!(lines.iter().filter(|l| is_status(l)).count(), 1, "{text}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("stream finished: tool_use")),
        "{text}"
    );
    for head in ["✓ #0 write_file", "✓ #1 run_command"] {
        assert_eq!(
            lines.iter().filter(|l| l.starts_with(head)).count(),
            1,
            "{head}: {text}"
        );
    }
    assert!(
        lines.iter().all(|l| l.chars().count() < cols as usize),
        "{text}"
    );
    assert_eq!(
        taller,
        lines.len() >= rows as usize,
        "{cols}x{rows}: a frame of {} lines, cut: {taller}",
        lines.len()
    );
    (middle, text)
}

/// Where the last redraw (`CR ESC [ n A`: back up over the live region)
/// starts.
fn find_last_erase(out: &[u8]) -> Option<usize> {
    let mut last = None;
    let mut i = 0;
    while let Some(at) = out[i..].windows(3).position(|w| w == b"\r\x1b[") {
        let start = i + at;
        let digits = out[start + 3..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits > 0 && out[start + 3 + digits..].starts_with(b"A") {
            last = Some(start);
        }
        i = start + 3;
    }
    last
}

/// Feeds `out` to the terminal, checking that no clear-below (`ESC [ J`) is
/// written with the cursor at the top-left corner: tmux keeps a screen
/// cleared from there in its scrollback, so each frame would pile up there.
fn process_checking_clears(p: &mut vt100::Parser, out: &[u8]) {
    let mut rest = out;
    while let Some(at) = rest.windows(3).position(|w| w == b"\x1b[J") {
        p.process(&rest[..at]);
        assert_ne!(
            p.screen().cursor_position(),
            (0, 0),
            "a clear from the top-left corner"
        );
        p.process(&rest[at..at + 3]);
        rest = &rest[at + 3..];
    }
    p.process(rest);
}

#[test]
fn preview_in_a_50x12_terminal() {
    let (middle, end) = check_preview(50, 12);
    eprintln!("50x12, during:\n{middle}\n\n50x12, after:\n{end}");
}

#[test]
fn preview_in_a_120x40_terminal() {
    let (middle, end) = check_preview(120, 40);
    eprintln!("120x40, during:\n{middle}\n\n120x40, after:\n{end}");
}

/// A frame taller than the screen: only its last lines that fit are drawn.
#[test]
fn preview_taller_than_a_40x6_terminal() {
    let (middle, end) = check_preview(40, 6);
    eprintln!("40x6, during:\n{middle}\n\n40x6, after:\n{end}");
}

#[test]
fn no_color_writes_no_escape_byte() {
    for (cols, rows) in [(50, 12), (120, 40)] {
        let out = on_terminal(cols, rows, &[("NO_COLOR", "1")], "demo --speed 4");
        let text = String::from_utf8_lossy(&out);
        assert!(!out.contains(&0x1b), "{cols}x{rows}: {text}");
        assert!(text.contains("stream finished: tool_use"), "{text}");
        assert!(text.contains("✓ #0 write_file"), "{text}");
    }
    // TERM=dumb likewise; with neither, the same run does redraw.
    let out = on_terminal(80, 24, &[("TERM", "dumb")], "demo --speed 0");
    assert!(!out.contains(&0x1b));
    let out = on_terminal(80, 24, &[], "demo --speed 0");
    assert!(find_last_erase(&out).is_some());
}
