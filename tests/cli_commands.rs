//! The `tooljson` binary: input processed as it arrives (driven through a
//! pipe with a pause), arguments (`--version`, `--help`, usage errors), and
//! exit summaries that name what happened.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tooljson"))
}

fn corpus(name: &str) -> String {
    format!("{}/corpus/transcripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn run_stdin(args: &[&str], stdin: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A command that fails early may close its stdin first.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn temp_file(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("tooljson-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// The pause in the middle of the input. The target is the first line
/// within 0.1 s of the first bytes; the assertions allow the whole pause, so
/// a loaded machine does not fail them, while a program that waits for the
/// end of its input always does.
const PAUSE: Duration = Duration::from_millis(1500);

/// Runs `args` with `head` written to stdin, then a pause, then `tail`.
/// Returns each stdout line with when it arrived (from the first write), and
/// when the pause ended.
fn through_a_slow_pipe(
    args: &[&str],
    head: &[u8],
    tail: &[u8],
) -> (Vec<(Duration, String)>, Duration, Child) {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let start = Instant::now();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            if tx.send((start.elapsed(), line)).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(head).unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(PAUSE);
    let resumed = start.elapsed();
    // The command may have stopped reading (an early error): that is the point.
    let _ = stdin.write_all(tail);
    drop(stdin);
    reader.join().unwrap();
    (rx.into_iter().collect(), resumed, child)
}

#[test]
fn replay_prints_events_before_its_input_ends() {
    let path = corpus("anthropic-parallel-interleaved.sse");
    let text = std::fs::read(&path).unwrap();
    let (head, tail) = text.split_at(1500);
    let (lines, resumed, child) = through_a_slow_pipe(&["replay", "--ndjson", "-"], head, tail);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let (first, line) = &lines[0];
    eprintln!("first event after {first:?}: {line}");
    assert!(line.contains("\"message_started\""), "{line}");
    assert!(
        *first < resumed,
        "first event at {first:?}, after the input resumed at {resumed:?}"
    );
    // The events of the head arrived during the pause; those of the tail after.
    let early = lines.iter().filter(|(t, _)| *t < resumed).count();
    assert!(
        early >= 4 && early < lines.len(),
        "{early} of {}",
        lines.len()
    );
    // The same lines as from the file at once.
    let whole = run(&["replay", "--ndjson", &path]);
    let piped: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        piped,
        String::from_utf8(whole.stdout)
            .unwrap()
            .lines()
            .collect::<Vec<_>>()
    );
}

#[test]
fn parse_prints_events_before_its_input_ends() {
    let (lines, resumed, child) = through_a_slow_pipe(
        &["parse", "--events"],
        br#"{"path": "a.txt", "lines": [1, "#,
        br#"2]}"#,
    );
    assert_eq!(child.wait_with_output().unwrap().status.code(), Some(0));
    let early: Vec<&String> = lines
        .iter()
        .filter(|(t, _)| *t < resumed)
        .map(|(_, l)| l)
        .collect();
    assert!(
        early.iter().any(|l| l.contains("a.txt")),
        "no event before the input resumed: {lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|(t, l)| *t >= resumed && l.contains("\"/lines\"")),
        "{lines:?}"
    );
}

/// Invalid input ends the command as soon as it is read: it does not wait
/// for the rest of the input.
#[test]
fn invalid_input_exits_before_the_input_ends() {
    let schema = temp_file("any.json", "{}");
    for args in [
        vec!["parse"],
        vec!["validate", "--schema", schema.as_str()],
        vec!["validate", "--schema", schema.as_str(), "--chunk", "4"],
    ] {
        let mut child = bin()
            .args(&args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(b"{\"a\": ]").unwrap();
        stdin.flush().unwrap();
        let start = Instant::now();
        // stdin stays open: only the command's own decision can end it.
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            assert!(
                start.elapsed() < PAUSE * 4,
                "{args:?} waited for the end of its input"
            );
            std::thread::sleep(Duration::from_millis(10));
        };
        drop(stdin);
        assert_eq!(status.code(), Some(1), "{args:?}");
    }
}

#[test]
fn version_and_help_per_subcommand() {
    let o = run(&["--version"]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        String::from_utf8(o.stdout).unwrap().trim(),
        format!("tooljson {}", env!("CARGO_PKG_VERSION"))
    );
    for (sub, flag) in [
        ("parse", "--events"),
        ("validate", "--schema"),
        ("replay", "--ndjson"),
        ("demo", "--speed"),
    ] {
        let o = run(&[sub, "--help"]);
        assert_eq!(code(&o), 0, "{sub}");
        let text = String::from_utf8(o.stdout).unwrap();
        assert!(text.contains(flag), "{sub} --help: {text}");
    }
    let o = run(&["--help"]);
    assert!(String::from_utf8(o.stdout).unwrap().contains("Exit codes"));
}

#[test]
fn usage_errors_exit_2_with_a_message() {
    for args in [
        &["bogus"][..],
        &["parse", "--partial", "--events"],
        &["parse", "--chunk", "0"],
        &["parse", "--chunk", "x"],
        &["validate"],
        &["replay", "--speed", "-1"],
        &["replay", "--speed"],
        &["demo", "extra"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(
            stderr(&o).starts_with("error: "),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    let o = run(&["parse", "/nonexistent/x.json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("/nonexistent/x.json"), "{}", stderr(&o));
}

#[test]
fn parse_chunks_print_the_same_value() {
    let doc = r#"{"a": [1, 2.5e3, "caf\u00e9 ☕"], "b": {"c": null}}"#;
    let want = run_stdin(&["parse"], doc);
    assert_eq!(code(&want), 0);
    for chunk in ["1", "3", "1000"] {
        let o = run_stdin(&["parse", "--chunk", chunk], doc);
        assert_eq!(o.stdout, want.stdout, "--chunk {chunk}");
        // Appended text comes a piece per chunk; every other event is the same.
        let events = |args: &[&str]| -> Vec<String> {
            String::from_utf8(run_stdin(args, doc).stdout)
                .unwrap()
                .lines()
                .filter(|l| !l.contains("\"appended\""))
                .map(str::to_owned)
                .collect()
        };
        let one = events(&["parse", "--events"]);
        assert!(one.len() > 5, "{one:?}");
        assert_eq!(
            events(&["parse", "--events", "--chunk", chunk]),
            one,
            "--chunk {chunk}"
        );
    }
    let o = run_stdin(&["parse"], r#"{"a": "#);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).starts_with("error: "), "{}", stderr(&o));
}

#[test]
fn validate_names_the_root() {
    let schema = temp_file(
        "root.json",
        r#"{"type": "object", "required": ["a"], "properties": {"n": {"maximum": 3}}}"#,
    );
    for extra in [&[][..], &["--chunk", "2"]] {
        let mut args = vec!["validate", "--schema", schema.as_str()];
        args.extend_from_slice(extra);
        let o = run_stdin(&args, r#"{"n": 5}"#);
        assert_eq!(code(&o), 3);
        let out = String::from_utf8(o.stdout.clone()).unwrap();
        let mut lines = out.lines();
        assert_eq!(
            lines.next(),
            Some("(root): expected required property \"a\", found an object without it")
        );
        assert_eq!(lines.next(), Some("/n: expected a number <= 3, found 5"));
        assert!(stderr(&o).contains("2 violations of"), "{}", stderr(&o));
    }
}

/// Anthropic SSE with one tool call (`input` as given), then `tail`.
fn anthropic(id: &str, name: &str, input: &str, tail: &str) -> String {
    let delta = serde_json::json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "input_json_delta", "partial_json": input}});
    format!(
        "event: message_start\ndata: {{\"type\":\"message_start\",\"message\":{{\"id\":\"m\",\"content\":[]}}}}\n\n\
         event: content_block_start\ndata: {{\"type\":\"content_block_start\",\"index\":0,\"content_block\":{{\"type\":\"tool_use\",\"id\":\"{id}\",\"name\":\"{name}\",\"input\":{{}}}}}}\n\n\
         event: content_block_delta\ndata: {delta}\n\n{tail}"
    )
}

const STOP: &str = "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n\
    event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n\
    event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";

#[test]
fn exit_summaries_name_what_happened() {
    // Complete but invalid, at the root: not "not complete", and the root named.
    let tools = temp_file(
        "tools.json",
        r#"[{"name": "f", "input_schema": {"type": "object", "required": ["path"]}}]"#,
    );
    let sse = temp_file(
        "invalid.sse",
        &anthropic("toolu_1", "f", r#"{"x": 1}"#, STOP),
    );
    let o = run(&["replay", "--ndjson", "--tools", &tools, &sse]);
    assert_eq!(code(&o), 3);
    let err = stderr(&o);
    assert!(
        err.contains("1 of 1 call(s) not usable: 1 invalid"),
        "{err}"
    );
    assert!(
        err.contains(
            "call #0 f (toolu_1): complete but invalid: (root): expected required property \"path\""
        ),
        "{err}"
    );
    assert!(
        !err.contains("not complete") && !err.contains(": : "),
        "{err}"
    );

    // Truncated by max_tokens.
    let cut = "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"}}\n\n\
        event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let sse = temp_file("cut.sse", &anthropic("toolu_2", "f", r#"{"path": "a"#, cut));
    let err = stderr(&run(&["replay", &sse]));
    assert!(
        err.contains("response truncated: the model reached its output limit (max_tokens)"),
        "{err}"
    );
    assert!(
        err.contains(
            "call #0 f (toolu_2): truncated: the response stopped during the call (max_tokens)"
        ),
        "{err}"
    );

    // Aborted by a provider error, and which.
    let overloaded = "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    let sse = temp_file(
        "error.sse",
        &anthropic("toolu_3", "f", r#"{"path": "#, overloaded),
    );
    let o = run(&["replay", &sse]);
    assert_eq!(code(&o), 3);
    let err = stderr(&o);
    assert!(
        err.contains("response aborted by a provider error: overloaded_error: Overloaded"),
        "{err}"
    );
    assert!(err.contains("call #0 f (toolu_3): aborted by a provider error during the call: overloaded_error: Overloaded"), "{err}");

    // The input ended early.
    let sse = temp_file("eof.sse", &anthropic("toolu_4", "f", r#"{"pa"#, ""));
    let err = stderr(&run(&["replay", &sse]));
    assert!(
        err.contains("the input ended before the provider's final event"),
        "{err}"
    );
}

/// Issue 32, case 8, at the command line: the second call with an id is
/// invalid, the exit is 3 and the summary names the id.
#[test]
fn duplicate_ids_exit_3_naming_the_id() {
    let two = anthropic(
        "toolu_same",
        "f",
        "{}",
        "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
    ) + "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_same\",\"name\":\"f\",\"input\":{}}}\n\n\
           event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{}\"}}\n\n\
           event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n\
           event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\"}}\n\n\
           event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n";
    let o = run(&["replay", &temp_file("dup.sse", &two)]);
    assert_eq!(code(&o), 3);
    let err = stderr(&o);
    assert!(
        err.contains(
            "call #1 f (toolu_same): complete but invalid: duplicate tool call id \"toolu_same\""
        ),
        "{err}"
    );
    assert!(!err.contains("call #0"), "the first call is fine: {err}");
}
