//! `tooljson parse [--chunk N] [--partial | --events] [FILE]`: the streaming
//! parser on a file.

use std::io::Write;

use tooljson::partial::{EventSink, PartialParser, ValueEvent};

use crate::{Failure, parse_chunk, read_input};

#[derive(Clone, Copy, PartialEq)]
enum Output {
    Final,
    Partial,
    Events,
}

fn write_failure(e: std::io::Error) -> Failure {
    Failure {
        code: 2,
        message: format!("error: writing stdout: {e}"),
    }
}

/// Gathers NDJSON event lines for one chunk.
struct EventLines {
    enabled: bool,
    pending: String,
}

impl EventSink for EventLines {
    fn event(&mut self, e: ValueEvent<'_>) {
        if self.enabled {
            e.write_json(&mut self.pending);
            self.pending.push('\n');
        }
    }
}

pub fn run(args: Vec<String>) -> Result<(), Failure> {
    let mut chunk = None;
    let mut file = None;
    let mut output = Output::Final;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--chunk" => chunk = Some(parse_chunk(it.next())?),
            "--partial" | "--events" if output != Output::Final => {
                return Err(Failure::usage(
                    "error: --partial and --events exclude each other",
                ));
            }
            "--partial" => output = Output::Partial,
            "--events" => output = Output::Events,
            s if s.starts_with("--") => {
                return Err(Failure::usage(format!("error: unknown option {s:?}")));
            }
            _ if file.is_some() => return Err(Failure::usage("error: more than one FILE")),
            _ => file = Some(a),
        }
    }
    let input = read_input(file.as_deref())?;
    let chunk = chunk.unwrap_or(input.len().max(1));
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // Events are gathered per chunk and written after it, with the snapshot.
    let mut on_event = EventLines {
        enabled: output == Output::Events,
        pending: String::new(),
    };
    let mut parser = PartialParser::new();
    let mut result;
    let mut chunks = input.chunks(chunk);
    loop {
        let last = match chunks.next() {
            Some(c) => {
                result = parser.feed(c, &mut on_event);
                false
            }
            None => {
                result = parser.finish(&mut on_event);
                true
            }
        };
        out.write_all(on_event.pending.as_bytes())
            .map_err(write_failure)?;
        on_event.pending.clear();
        if output == Output::Partial
            && let Some(s) = parser.snapshot()
        {
            writeln!(out, "{s}").map_err(write_failure)?;
        }
        if last || result.is_err() {
            break;
        }
    }
    if output == Output::Final
        && result.is_ok()
        && let Some(v) = parser.value()
    {
        writeln!(out, "{v}").map_err(write_failure)?;
    }
    out.flush().map_err(write_failure)?;
    result.map_err(|e| Failure {
        code: 1,
        message: format!("error: {e}"),
    })
}
