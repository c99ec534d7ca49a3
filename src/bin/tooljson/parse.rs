//! `tooljson parse [--chunk N] [--partial | --events] [FILE]`: the streaming
//! parser on a file or stdin, fed each piece as it arrives.

use std::io::Write;
use std::path::PathBuf;

use tooljson::partial::{EventSink, PartialParser, ValueEvent};

use crate::Failure;
use crate::input::Input;

/// Parse JSON from FILE (or stdin) through the streaming parser.
///
/// Prints the final value; with --partial the snapshot after every chunk,
/// with --events one NDJSON event per line, each written as soon as its
/// chunk has arrived.
#[derive(clap::Args)]
pub struct Args {
    /// Feed the parser N-byte chunks (default: each read as it arrives).
    #[arg(long, value_name = "N", value_parser = byte_count)]
    chunk: Option<usize>,
    /// Print the partial snapshot after every chunk.
    #[arg(long, conflicts_with = "events")]
    partial: bool,
    /// Print the parser's events as NDJSON.
    #[arg(long)]
    events: bool,
    /// The JSON file; stdin when absent or `-`.
    file: Option<PathBuf>,
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

pub fn run(args: Args) -> Result<(), Failure> {
    let input = Input::open(args.file.as_ref())?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // Events are gathered per chunk and written after it, with the snapshot.
    let mut on_event = EventLines {
        enabled: args.events,
        pending: String::new(),
    };
    let mut parser = PartialParser::new();
    let mut result = Ok(());
    let write_chunk = |parser: &PartialParser,
                       on_event: &mut EventLines,
                       out: &mut std::io::BufWriter<std::io::StdoutLock<'_>>|
     -> Result<(), Failure> {
        out.write_all(on_event.pending.as_bytes())
            .map_err(Failure::write)?;
        on_event.pending.clear();
        if args.partial
            && let Some(s) = parser.snapshot()
        {
            writeln!(out, "{s}").map_err(Failure::write)?;
        }
        out.flush().map_err(Failure::write)
    };
    input.for_each_piece(args.chunk, |piece| {
        result = parser.feed(piece, &mut on_event);
        write_chunk(&parser, &mut on_event, &mut out)?;
        Ok(result.is_ok())
    })?;
    if result.is_ok() {
        result = parser.finish(&mut on_event);
        write_chunk(&parser, &mut on_event, &mut out)?;
    }
    if !args.partial
        && !args.events
        && result.is_ok()
        && let Some(v) = parser.value()
    {
        writeln!(out, "{v}").map_err(Failure::write)?;
    }
    out.flush().map_err(Failure::write)?;
    result.map_err(|e| Failure {
        code: 1,
        message: format!("error: {e}"),
    })
}

/// `--chunk N`: a positive byte count.
pub fn byte_count(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("expected a positive number of bytes, got {s:?}")),
    }
}
