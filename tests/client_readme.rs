//! The README's client loop and preview snippet, as written there, over
//! every recorded transcript of the five providers
//! (`../shared/testdata/vendor-streams/`, the `.sse` and `.eventstream`
//! bodies and the `.jsonl` event logs beside them) and every synthetic one
//! (`corpus/transcripts/`), in reads of 1, 7 and 64 bytes: no panic; the
//! text and thinking of each choice equal what the recording's events say,
//! read by a small reader written here (its own SSE split, serde_json, its
//! own event-stream frame walk with its own CRC check), itself held against
//! the providers' SDK accumulations in `corpus/transcripts/expected/`;
//! every recording that ends in a provider's error ends in the
//! `StreamError::Provider` the README promises, with that error's kind;
//! every final message has its stop reason.

use crate::common;
use crate::common::eventstream_check::crc32;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value as J;
use tooljson::providers::{CallEvent, StreamError, ToolCallStream};

/// The README's loop: the lines from `stream.feed(&chunk)?;` to the end of
/// the chunk loop are the README's own (held by
/// `the_readme_holds_the_loop_tested_here`); the chunks are the recording's.
// As written in the README, where the chunk is `Bytes` and the borrow is needed.
#[allow(clippy::needless_borrow)]
#[rustfmt::skip]
fn readme_loop(body: &[u8], n: usize) -> (ToolCallStream, Result<(), StreamError>) {
    let mut stream = ToolCallStream::new(); // the provider is detected
    let fed = (|| -> Result<(), StreamError> {
        for chunk in body.chunks(n) {
            stream.feed(&chunk)?;
            while let Some(event) = stream.next_event() {
                match event {
                    CallEvent::TextAppended { choice: 0, text, .. } => print!("{text}"),
                    CallEvent::ArgumentsAppended { call, preview_changed: true, .. } => {
                        // The arguments so far (a custom tool's: its text), redrawn only when they changed.
                        let preview = stream.calls()[call].partial().expect("shown once changed");
                        println!("{preview}"); // {"city":"Par"} ... redraw in place in a UI
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    })();
    let finished = match fed {
        Ok(()) => stream.finish(),
        Err(e) => Err(e),
    };
    (stream, finished)
}

#[test]
fn the_readme_holds_the_loop_tested_here() {
    let readme = std::fs::read_to_string(common::project_root().join("README.md")).unwrap();
    let trimmed =
        |text: &str| -> Vec<String> { text.lines().map(|l| l.trim().to_owned()).collect() };
    let readme_lines = trimmed(&readme);
    let start = readme_lines
        .iter()
        .position(|l| l == "stream.feed(&chunk)?;")
        .expect("the README's loop feeds chunks");
    let end = start
        + readme_lines[start..]
            .iter()
            .position(|l| l == "match stream.finish() {")
            .expect("the README's loop finishes the stream");
    let block = &readme_lines[start..end];
    assert!(block.len() > 10, "{block:?}");
    let here = trimmed(include_str!("client_readme.rs"));
    assert!(
        here.windows(block.len()).any(|w| w == block),
        "the README's loop is not the one this test runs:\n{}",
        block.join("\n")
    );
    // And its retry of an error the provider calls overloaded.
    assert!(
        readme_lines.contains(&"Err(e) if e.is_retryable() && attempt < 3 => continue,".to_owned())
    );
}

/// What the recording says, read without the crate.
#[derive(Debug, Default)]
struct Said {
    text: BTreeMap<u64, String>,
    thinking: BTreeMap<u64, String>,
    /// The provider's error kind, for a recording that ends in one.
    error: Option<String>,
    /// The recording breaks its protocol (a second `message_start`, a bad
    /// frame CRC): the stream stops there with an error of its own.
    broken: bool,
}

impl Said {
    fn text(&mut self, choice: u64, t: Option<&str>) {
        if let Some(t) = t.filter(|t| !t.is_empty()) {
            self.text.entry(choice).or_default().push_str(t);
        }
    }
    fn thinking(&mut self, choice: u64, t: Option<&str>) {
        if let Some(t) = t.filter(|t| !t.is_empty()) {
            self.thinking.entry(choice).or_default().push_str(t);
        }
    }
}

/// SSE events as (name, data): blocks split at blank lines, `data:` lines
/// joined with newlines.
fn sse_events(bytes: &[u8]) -> Vec<(Option<String>, String)> {
    let text = String::from_utf8_lossy(bytes).replace("\r\n", "\n");
    text.split("\n\n")
        .filter_map(|block| {
            let mut name = None;
            let mut data = Vec::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event:") {
                    name = Some(v.trim().to_owned());
                } else if let Some(v) = line.strip_prefix("data:") {
                    data.push(v.strip_prefix(' ').unwrap_or(v));
                }
            }
            (!data.is_empty()).then(|| (name, data.join("\n")))
        })
        .collect()
}

fn s(v: &J) -> Option<&str> {
    v.as_str()
}

fn read_sse(provider: &str, bytes: &[u8]) -> Said {
    let mut said = Said::default();
    let mut message_starts = 0;
    for (_, data) in sse_events(bytes) {
        let Ok(e) = serde_json::from_str::<J>(&data) else {
            continue; // `[DONE]`, or data broken on purpose
        };
        if said.error.is_some() {
            break;
        }
        match provider {
            "anthropic" => match s(&e["type"]) {
                Some("message_start") => {
                    message_starts += 1;
                    if message_starts > 1 {
                        said.broken = true;
                        break;
                    }
                }
                Some("content_block_delta") => match s(&e["delta"]["type"]) {
                    Some("text_delta") => said.text(0, s(&e["delta"]["text"])),
                    Some("thinking_delta") => said.thinking(0, s(&e["delta"]["thinking"])),
                    _ => {}
                },
                Some("error") => said.error = s(&e["error"]["type"]).map(str::to_owned),
                _ => {}
            },
            "openai-chat" => {
                if let Some(err) = e.get("error").filter(|x| !x.is_null()) {
                    said.error = s(&err["type"]).or(s(&err["code"])).map(str::to_owned);
                    continue;
                }
                for (i, c) in e["choices"].as_array().into_iter().flatten().enumerate() {
                    let choice = c["index"].as_u64().unwrap_or(i as u64);
                    said.text(choice, s(&c["delta"]["content"]));
                    let reasoning =
                        s(&c["delta"]["reasoning_content"]).or(s(&c["delta"]["reasoning"]));
                    said.thinking(choice, reasoning);
                }
            }
            "openai-responses" => match s(&e["type"]) {
                Some("response.output_text.delta") => said.text(0, s(&e["delta"])),
                Some("response.reasoning_summary_text.delta" | "response.reasoning_text.delta") => {
                    said.thinking(0, s(&e["delta"]))
                }
                Some("error") => {
                    said.error = s(&e["code"])
                        .or(s(&e["error"]["code"]))
                        .or(s(&e["error"]["type"]))
                        .map(str::to_owned)
                }
                Some("response.failed") => {
                    said.error = s(&e["response"]["error"]["code"]).map(str::to_owned)
                }
                _ => {}
            },
            "gemini" => {
                if let Some(err) = e.get("error") {
                    said.error = s(&err["status"]).map(str::to_owned);
                    continue;
                }
                for (i, c) in e["candidates"].as_array().into_iter().flatten().enumerate() {
                    let choice = c["index"].as_u64().unwrap_or(i as u64);
                    for part in c["content"]["parts"].as_array().into_iter().flatten() {
                        if part["thought"] == J::Bool(true) {
                            said.thinking(choice, s(&part["text"]));
                        } else {
                            said.text(choice, s(&part["text"]));
                        }
                    }
                }
            }
            other => panic!("no SSE reader for {other}"),
        }
    }
    said
}

/// AWS event-stream frames (prelude: total and header lengths, CRC; string
/// headers; payload; message CRC), walked here with this test's own CRC.
fn read_eventstream(bytes: &[u8]) -> Said {
    let mut said = Said::default();
    let mut at = 0;
    while at + 16 <= bytes.len() {
        let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
        let (total, headers_len) = (be(at), be(at + 4));
        if total < 16
            || at + total > bytes.len()
            || crc32(&bytes[at..at + total - 4]) as usize != be(at + total - 4)
        {
            said.broken = true;
            break;
        }
        let mut headers = BTreeMap::new();
        let mut h = at + 12;
        while h < at + 12 + headers_len {
            let name_len = bytes[h] as usize;
            let name = String::from_utf8_lossy(&bytes[h + 1..h + 1 + name_len]).into_owned();
            h += 1 + name_len;
            assert_eq!(bytes[h], 7, "only string headers here");
            let len = u16::from_be_bytes([bytes[h + 1], bytes[h + 2]]) as usize;
            headers.insert(
                name,
                String::from_utf8_lossy(&bytes[h + 3..h + 3 + len]).into_owned(),
            );
            h += 3 + len;
        }
        let payload: J = serde_json::from_slice(&bytes[at + 12 + headers_len..at + total - 4])
            .unwrap_or(J::Null);
        match (
            headers.get(":message-type").map(String::as_str),
            headers.get(":event-type").map(String::as_str),
        ) {
            (Some("exception"), _) => {
                said.error = headers.get(":exception-type").cloned();
                break;
            }
            (_, Some("contentBlockDelta")) => {
                said.text(0, s(&payload["delta"]["text"]));
                said.thinking(0, s(&payload["delta"]["reasoningContent"]["text"]));
            }
            _ => {}
        }
        at += total;
    }
    said
}

/// The SDKs' accumulated text and thinking per choice, for a recording that
/// has a file in `corpus/transcripts/expected/` and did not fail.
fn sdk_said(provider: &str, file: &str) -> Option<(BTreeMap<u64, String>, BTreeMap<u64, String>)> {
    let path = common::project_root()
        .join("corpus/transcripts/expected")
        .join(provider)
        .join(format!("{file}.json"));
    let want: J = serde_json::from_slice(&std::fs::read(path).ok()?).unwrap();
    if want.get("sdk_error").is_some() {
        return None;
    }
    let mut text: BTreeMap<u64, String> = BTreeMap::new();
    let mut thinking: BTreeMap<u64, String> = BTreeMap::new();
    let add = |m: &mut BTreeMap<u64, String>, c: u64, t: Option<&str>| {
        if let Some(t) = t.filter(|t| !t.is_empty()) {
            m.entry(c).or_default().push_str(t);
        }
    };
    for (i, m) in want["messages"].as_array().unwrap().iter().enumerate() {
        let i = i as u64;
        match provider {
            "anthropic" => {
                for b in m["content"].as_array().into_iter().flatten() {
                    match s(&b["type"]) {
                        Some("text") => add(&mut text, 0, s(&b["text"])),
                        Some("thinking") => add(&mut thinking, 0, s(&b["thinking"])),
                        _ => {}
                    }
                }
            }
            "openai-chat" => {
                let c = m["index"].as_u64().unwrap_or(i);
                add(&mut text, c, s(&m["message"]["content"]));
                add(
                    &mut thinking,
                    c,
                    s(&m["message"]["reasoning_content"]).or(s(&m["message"]["reasoning"])),
                );
            }
            "openai-responses" => {
                for item in m["output"].as_array().into_iter().flatten() {
                    for p in item["content"].as_array().into_iter().flatten() {
                        match (s(&item["type"]), s(&p["type"])) {
                            (Some("message"), Some("output_text")) => {
                                add(&mut text, 0, s(&p["text"]))
                            }
                            (Some("reasoning"), Some("reasoning_text")) => {
                                add(&mut thinking, 0, s(&p["text"]))
                            }
                            _ => {}
                        }
                    }
                    for p in item["summary"].as_array().into_iter().flatten() {
                        add(&mut thinking, 0, s(&p["text"]));
                    }
                }
            }
            "gemini" => {
                let c = m["index"].as_u64().unwrap_or(i);
                for p in m["content"]["parts"].as_array().into_iter().flatten() {
                    if p["thought"] == J::Bool(true) {
                        add(&mut thinking, c, s(&p["text"]));
                    } else {
                        add(&mut text, c, s(&p["text"]));
                    }
                }
            }
            "bedrock" => {
                for b in m["output"]["message"]["content"]
                    .as_array()
                    .into_iter()
                    .flatten()
                {
                    add(&mut text, 0, s(&b["text"]));
                    add(
                        &mut thinking,
                        0,
                        s(&b["reasoningContent"]["reasoningText"]["text"]),
                    );
                }
            }
            _ => return None,
        }
    }
    Some((text, thinking))
}

/// Every recording: (provider, file name, path).
fn recordings() -> Vec<(String, String, PathBuf)> {
    let mut out = Vec::new();
    let root = common::testdata("vendor-streams");
    for provider in [
        "anthropic",
        "openai-chat",
        "openai-responses",
        "gemini",
        "bedrock",
    ] {
        for (name, _) in common::files_in(&root.join(provider)) {
            out.push((
                provider.to_owned(),
                name.clone(),
                root.join(provider).join(name),
            ));
        }
    }
    let corpus = common::project_root().join("corpus/transcripts");
    let mut names: Vec<String> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for name in names {
        let provider = if name.starts_with("demo-parallel") || name.starts_with("readme-anthropic")
        {
            "anthropic"
        } else if name.starts_with("readme-openai-chat") {
            "openai-chat"
        } else {
            match [
                "anthropic",
                "openai-chat",
                "openai-responses",
                "gemini",
                "bedrock",
            ]
            .into_iter()
            .find(|p| name.starts_with(p))
            {
                Some(p) => p,
                None => continue, // demo-tools.json, README.md, make_transcripts.py
            }
        };
        if !(name.ends_with(".sse") || name.ends_with(".eventstream")) {
            continue;
        }
        out.push((provider.to_owned(), name.clone(), corpus.join(&name)));
    }
    out
}

/// The stop reason in a final message's own JSON.
fn native_stop<'a>(provider: &str, m: &'a J) -> Option<&'a str> {
    match provider {
        "anthropic" => s(&m["stop_reason"]),
        "openai-chat" => s(&m["finish_reason"]),
        "openai-responses" => s(&m["status"]),
        "gemini" => s(&m["finishReason"]),
        _ => s(&m["stopReason"]),
    }
}

#[test]
fn the_readme_loop_over_every_recording_at_1_7_and_64_byte_reads() {
    let (mut runs, mut errors, mut sdk_checked) = (0, 0, 0);
    let mut failures = Vec::new();
    let mut providers_seen = std::collections::BTreeSet::new();
    for (provider, name, path) in recordings() {
        let bytes = std::fs::read(&path).unwrap();
        let what = format!("{provider}/{name}");
        if name.ends_with(".jsonl") {
            // An event log, not a body: no provider's stream is recognised.
            for n in [1, 7, 64] {
                let (stream, finished) = readme_loop(&bytes, n);
                match finished {
                    Err(StreamError::Unrecognized {
                        bytes: b,
                        events: 0,
                        ..
                    }) if b == bytes.len() as u64 => {}
                    other => failures.push(format!("{what} ({n}): {other:?}, not Unrecognized")),
                }
                assert_eq!(stream.text(0), "", "{what}");
                runs += 1;
            }
            continue;
        }
        providers_seen.insert(provider.clone());
        let said = if name.ends_with(".eventstream") {
            read_eventstream(&bytes)
        } else {
            read_sse(&provider, &bytes)
        };
        // The reader agrees with the SDKs where they accumulated the file.
        if let Some((text, thinking)) = sdk_said(&provider, &name) {
            assert_eq!(
                said.text, text,
                "{what}: this test's reader against the SDK's text"
            );
            assert_eq!(
                said.thinking, thinking,
                "{what}: this test's reader against the SDK's thinking"
            );
            sdk_checked += 1;
        }
        for n in [1, 7, 64] {
            let (stream, finished) = readme_loop(&bytes, n);
            runs += 1;
            let at = format!("{what} ({n}-byte reads)");
            for c in said
                .text
                .keys()
                .chain(said.thinking.keys())
                .chain(&stream.choices())
            {
                let want_text = said.text.get(c).map_or("", String::as_str);
                let want_thinking = said.thinking.get(c).map_or("", String::as_str);
                if stream.text(*c) != want_text || stream.thinking(*c) != want_thinking {
                    failures.push(format!(
                        "{at}: choice {c}: text {:?} / thinking {:?}, the recording says {want_text:?} / {want_thinking:?}",
                        stream.text(*c),
                        stream.thinking(*c)
                    ));
                }
            }
            match (&said.error, said.broken, &finished) {
                (Some(kind), _, Err(StreamError::Provider { kind: got, .. })) if got == kind => {
                    errors += 1
                }
                (None, true, Err(StreamError::Protocol(_) | StreamError::EventStream(_))) => {
                    errors += 1
                }
                (None, false, Ok(())) => {}
                _ => failures.push(format!(
                    "{at}: finish gave {finished:?}; the recording: error {:?}, broken {}",
                    said.error, said.broken
                )),
            }
            let Some(stop) = stream.stop_reason() else {
                failures.push(format!("{at}: no stop reason"));
                continue;
            };
            if matches!(
                provider.as_str(),
                "anthropic" | "openai-chat" | "openai-responses"
            ) {
                match stream.to_assistant_messages() {
                    Ok(turns)
                        if !turns.is_empty() && turns.iter().all(|t| t.stop_reason.is_some()) => {}
                    // An error before any message began (the overloaded
                    // recording holds the error event alone): no message.
                    Ok(turns) if turns.is_empty() && (said.broken || said.error.is_some()) => {}
                    other => failures.push(format!(
                        "{at}: final messages without a stop reason: {other:?}"
                    )),
                }
            }
            if stop.is_normal() {
                for m in stream.final_messages_json() {
                    if native_stop(&provider, &m.to_serde_json().unwrap()).is_none() {
                        failures.push(format!(
                            "{at}: final message JSON without its stop reason: {m}"
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(providers_seen.len(), 5, "{providers_seen:?}");
    assert!(
        sdk_checked >= 30,
        "only {sdk_checked} recordings held against the SDKs"
    );
    // overloaded_error, insufficient_quota, the Chat error mid-call, the
    // spliced message_start, the bad CRC: five, at three read sizes.
    assert_eq!(errors, 5 * 3, "recordings ending in an error");
    assert!(runs >= 3 * 45, "{runs} runs");
}

#[test]
fn an_overloaded_reply_is_a_retryable_error_and_a_quota_one_is_not() {
    let root = common::testdata("vendor-streams");
    let read = |p: &str| std::fs::read(root.join(p)).unwrap();
    let (stream, finished) =
        readme_loop(&read("anthropic/sdk-python-error-event-overloaded.sse"), 7);
    let err = finished.unwrap_err();
    assert!(err.is_retryable(), "{err}");
    assert_eq!(
        err.to_string(),
        "the provider reported overloaded_error: Overloaded"
    );
    assert!(stream.calls().is_empty() && stream.is_finished());
    let (_, finished) = readme_loop(
        &read("openai-responses/vercel-error-event-then-response-failed.sse"),
        7,
    );
    let err = finished.unwrap_err();
    assert!(
        matches!(&err, StreamError::Provider { kind, .. } if kind == "insufficient_quota"),
        "{err:?}"
    );
    assert!(!err.is_retryable());
}
