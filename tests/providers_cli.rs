//! `tooljson replay` and bare `tooljson`: exit codes and the NDJSON format.

use crate::common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value as J;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tooljson"))
}

fn corpus(name: &str) -> String {
    format!("{}/corpus/transcripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A recorded transcript of `vendor-streams/` (see `common::testdata`).
fn recording(path: &str) -> String {
    common::testdata("vendor-streams")
        .join(path)
        .display()
        .to_string()
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap()
}

fn ndjson(o: &Output) -> Vec<J> {
    String::from_utf8(o.stdout.clone())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

fn of<'a>(lines: &'a [J], event: &str) -> Vec<&'a J> {
    lines.iter().filter(|l| l["event"] == event).collect()
}

#[test]
fn complete_calls_exit_0_with_the_documented_lines() {
    let o = run(&["replay", "--ndjson", &corpus("demo-parallel-write.sse")]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let lines = ndjson(&o);
    // Every line starts with its event name.
    for l in &lines {
        let text = l.to_string();
        assert!(l["event"].is_string(), "{text}");
    }
    let started = of(&lines, "call_started");
    assert_eq!(started.len(), 2);
    assert_eq!(started[0]["key"], 1);
    assert_eq!(started[0]["id"], "toolu_demo_write");
    assert_eq!(started[0]["name"], "write_file");
    assert_eq!(started[0]["kind"], "client");
    let finished = of(&lines, "call_finished");
    assert_eq!(finished.len(), 2);
    for f in &finished {
        assert_eq!(f["status"], "complete");
        assert_eq!(f["errors"], J::Array(vec![]));
        assert!(f["arguments"].is_object());
        assert!(
            f.get("partial").is_none(),
            "partial only for incomplete calls"
        );
        let raw: J = serde_json::from_str(f["raw"].as_str().unwrap()).unwrap();
        assert_eq!(raw, f["arguments"], "raw text parses to the arguments");
    }
    assert_eq!(finished[0]["name"], "run_command"); // its block stopped first
    assert_eq!(finished[1]["arguments"]["path"], "docs/PLAN.md");
    // Appended texts concatenate to the raw text, per call.
    for f in &finished {
        let text: String = of(&lines, "arguments_appended")
            .iter()
            .filter(|l| l["call"] == f["call"])
            .map(|l| l["text"].as_str().unwrap())
            .collect();
        assert_eq!(text, f["raw"].as_str().unwrap());
    }
    let completed = of(&lines, "value_completed");
    assert!(
        completed
            .iter()
            .any(|l| l["path"] == "/path" && l["value"] == "docs/PLAN.md")
    );
    let last = lines.last().unwrap();
    assert_eq!(last["event"], "stream_finished");
    assert_eq!(last["stop_reason"], "tool_use");
    assert_eq!(last["vendor"], "anthropic");
    assert_eq!(last["calls"], 2);
    assert_eq!(last["error"], J::Null);
}

#[test]
fn every_chunking_and_stdin_print_the_same_lines() {
    let path = corpus("anthropic-parallel-interleaved.sse");
    let want = run(&["replay", "--ndjson", &path]);
    assert_eq!(code(&want), 0);
    for chunk in ["1", "7", "64"] {
        let o = run(&["replay", "--ndjson", "--chunk", chunk, &path]);
        assert_eq!(code(&o), 0);
        assert_eq!(o.stdout, want.stdout, "--chunk {chunk}");
    }
    let mut child = bin()
        .args(["replay", "--ndjson"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&std::fs::read(&path).unwrap())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0);
    assert_eq!(o.stdout, want.stdout, "stdin");
}

#[test]
fn aborted_and_truncated_calls_exit_3() {
    let o = run(&[
        "replay",
        "--ndjson",
        &corpus("openai-chat-error-mid-call.sse"),
    ]);
    assert_eq!(code(&o), 3);
    let lines = ndjson(&o);
    let f = of(&lines, "call_finished");
    assert_eq!(f.len(), 1);
    assert_eq!(f[0]["status"], "aborted");
    assert_eq!(f[0]["arguments"], J::Null);
    assert_eq!(f[0]["partial"]["path"], "notes/todo.md");
    assert!(f[0]["errors"][0].as_str().unwrap().contains("server_error"));
    assert_eq!(lines.last().unwrap()["stop_reason"], "error");

    let o = run(&[
        "replay",
        "--ndjson",
        &corpus("anthropic-cut-inside-unicode-escape.sse"),
    ]);
    assert_eq!(code(&o), 3);
    let lines = ndjson(&o);
    assert_eq!(of(&lines, "call_finished")[0]["status"], "truncated");
    assert_eq!(
        of(&lines, "call_finished")[0]["partial"]["text"],
        "caf\u{e9} "
    );
    assert_eq!(lines.last().unwrap()["stop_reason"], "max_tokens");

    // A recorded truncation and a recorded error event, no calls open.
    assert_eq!(
        code(&run(&[
            "replay",
            &recording("anthropic/sdk-python-max-tokens-truncated-tool-input.sse")
        ])),
        3
    );
    assert_eq!(
        code(&run(&[
            "replay",
            &recording("anthropic/sdk-python-error-event-overloaded.sse")
        ])),
        3
    );
}

#[test]
fn malformed_streams_exit_1() {
    // A second message_start while a tool block is open: fatal.
    let o = run(&[
        "replay",
        "--ndjson",
        &recording("anthropic/vercel-spliced-message-start-INVALID.sse"),
    ]);
    assert_eq!(code(&o), 1);
    let lines = ndjson(&o);
    assert_eq!(of(&lines, "call_finished")[0]["status"], "aborted");
    assert_eq!(lines.last().unwrap()["event"], "stream_finished");
    assert!(String::from_utf8_lossy(&o.stderr).contains("second message_start"));
    // Two unreadable events: reported, skipped, and the exit says malformed.
    let o = run(&[
        "replay",
        "--ndjson",
        &recording("openai-responses/vercel-multi-tool-use-parallel-wrapper-SYNTHETIC.sse"),
    ]);
    assert_eq!(code(&o), 1);
    assert_eq!(of(&ndjson(&o), "malformed").len(), 2);
    assert_eq!(of(&ndjson(&o), "call_finished")[0]["status"], "complete");
    // Not a vendor stream at all.
    let mut child = bin()
        .arg("replay")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"data: hello\n\n")
        .unwrap();
    assert_eq!(code(&child.wait_with_output().unwrap()), 1);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&run(&["replay", "--bogus"])), 2);
    assert_eq!(
        code(&run(&[
            "replay",
            "--chunk",
            "0",
            &corpus("demo-parallel-write.sse")
        ])),
        2
    );
    assert_eq!(code(&run(&["replay", "--chunk"])), 2);
    assert_eq!(code(&run(&["replay", "a.sse", "b.sse"])), 2);
    assert_eq!(code(&run(&["replay", "/nonexistent/x.sse"])), 2);
}

#[test]
fn one_event_per_line_files_are_read() {
    let o = run(&[
        "replay",
        "--ndjson",
        &recording("anthropic/sdk-go-interleaved-content-blocks.jsonl"),
    ]);
    assert_eq!(code(&o), 0);
    let lines = ndjson(&o);
    assert_eq!(
        of(&lines, "call_finished")[0]["arguments"]["city"],
        "Los Angeles"
    );
}

#[test]
fn bare_tooljson_replays_the_demo() {
    let o = bin().stdout(Stdio::piped()).output().unwrap();
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    // Not a terminal: the final frame only, plain.
    assert!(!text.contains('\x1b'), "{text}");
    assert!(
        text.contains("✓ #0 write_file toolu_demo_write [client] complete"),
        "{text}"
    );
    assert!(
        text.contains("✓ #1 run_command toolu_demo_run [client] complete"),
        "{text}"
    );
    assert!(text.contains("    path: \"docs/PLAN.md\""), "{text}");
    // The last line: what the stream did, then elapsed time, bytes and bytes/s.
    let last = text.trim_end().lines().last().unwrap();
    assert!(
        last.starts_with("stream finished: tool_use · anthropic · 2 call(s) · validated · "),
        "{text}"
    );
    let size = std::fs::metadata(corpus("demo-parallel-write.sse"))
        .unwrap()
        .len();
    assert!(
        last.contains(&format!(" s · {:.1} KiB · ", size as f64 / 1024.0)) && last.ends_with("/s"),
        "{last}"
    );
}

#[test]
fn preview_shows_truncated_calls_with_their_reason() {
    let o = run(&["replay", &corpus("openai-chat-error-mid-call.sse")]);
    assert_eq!(code(&o), 3);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("✗ #0 write_file call_synth_err [client] aborted"),
        "{text}"
    );
    assert!(text.contains("    path: \"notes/todo.md\""), "{text}");
    assert!(text.contains("! response ended during the call"), "{text}");
}

fn temp_file(name: &str, text: &str) -> String {
    let p = std::env::temp_dir().join(format!("tooljson-vendor-cli-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn tools_validate_calls_and_tool_choice() {
    let demo = corpus("demo-parallel-write.sse");
    let o = run(&[
        "replay",
        "--ndjson",
        "--tools",
        &corpus("demo-tools.json"),
        &demo,
    ]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let lines = ndjson(&o);
    assert!(
        of(&lines, "call_finished")
            .iter()
            .all(|f| f["status"] == "complete")
    );
    assert_eq!(lines.last().unwrap()["choice_error"], J::Null);

    // A schema the write_file call breaks: timeout_s too small is not it;
    // here `overwrite` must be a string, so the call is invalid.
    let strict = temp_file(
        "strict.json",
        r#"{"tools": [
        {"name": "write_file", "input_schema": {"type": "object", "properties": {"overwrite": {"type": "string"}}}},
        {"name": "run_command", "input_schema": {"type": "object"}}]}"#,
    );
    let o = run(&["replay", "--ndjson", "--tools", &strict, &demo]);
    assert_eq!(code(&o), 3);
    let lines = ndjson(&o);
    let doomed = of(&lines, "call_doomed");
    assert_eq!(doomed.len(), 1);
    assert_eq!(doomed[0]["name"], "write_file");
    let f: Vec<&J> = of(&lines, "call_finished")
        .into_iter()
        .filter(|f| f["name"] == "write_file")
        .collect();
    assert_eq!(f[0]["status"], "invalid");
    assert_eq!(f[0]["arguments"], J::Null);
    assert!(
        f[0]["errors"][0]
            .as_str()
            .unwrap()
            .starts_with("/overwrite: expected string"),
        "{}",
        f[0]["errors"]
    );

    // An unknown tool, and tool_choice none.
    let only_run = temp_file(
        "none.json",
        r#"{"tools": [{"name": "run_command", "input_schema": {"type": "object"}}], "tool_choice": {"type": "none"}}"#,
    );
    let o = run(&["replay", "--ndjson", "--tools", &only_run, &demo]);
    assert_eq!(code(&o), 3);
    let lines = ndjson(&o);
    let f: Vec<&J> = of(&lines, "call_finished")
        .into_iter()
        .filter(|f| f["name"] == "write_file")
        .collect();
    assert_eq!(f[0]["status"], "invalid");
    assert!(f[0]["errors"][0].as_str().unwrap().contains("unknown tool"));
    assert!(lines.last().unwrap()["choice_error"].is_string());

    // A tools file that is not JSON: usage error.
    let bad = temp_file("bad.json", "{not json");
    assert_eq!(code(&run(&["replay", "--tools", &bad, &demo])), 2);
    assert_eq!(code(&run(&["replay", "--tools"])), 2);
}
