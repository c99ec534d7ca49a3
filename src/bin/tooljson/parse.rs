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
    /// The memory budget of the parsed value, in bytes (as
    /// `PartialParser::held_bytes` estimates it); past it the parse stops
    /// with an error naming this option.
    #[arg(long, value_name = "BYTES", value_parser = tree_bytes, default_value_t = DEFAULT_MAX_TREE_BYTES)]
    max_tree_bytes: u64,
    /// The JSON file; stdin when absent or `-`.
    file: Option<PathBuf>,
}

/// The default memory budget of `parse` and `validate`'s value. A value of
/// tiny items estimates at about 32 bytes per byte of text (`[1,1,...]`),
/// so without a budget the 64 MiB input limit lets one reach 1 GB; with it
/// such a document is refused after about 6 MiB (peak 105 MB measured;
/// `[{"a":1},...]` after 9 to 13 MiB, peak 162 MB), while 60 MiB of
/// 100-byte strings passes (peak 150 MB).
pub const DEFAULT_MAX_TREE_BYTES: u64 = 192 << 20;

/// How much input is fed between two checks of the budget: the budget is
/// passed by at most what this many bytes build.
pub const BUDGET_STEP: usize = 64 << 10;

/// `--max-tree-bytes BYTES`: a positive byte count.
pub fn tree_bytes(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("expected a positive number of bytes, got {s:?}")),
    }
}

/// The error of a value past its memory budget.
pub fn over_budget(budget: u64, held: u64, offset: u64) -> Failure {
    Failure {
        code: 1,
        message: format!(
            "error: the parsed value holds about {held} bytes at byte {offset}, past its memory \
             budget of {budget} bytes (--max-tree-bytes)"
        ),
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
    let mut over = None;
    input.for_each_piece(args.chunk, |piece| {
        // In steps, so a large piece cannot pass the budget by much.
        for step in piece.chunks(BUDGET_STEP) {
            result = parser.feed(step, &mut on_event);
            if parser.held_bytes() > args.max_tree_bytes {
                over = Some((parser.held_bytes(), parser.parser().offset()));
            }
            if result.is_err() || over.is_some() {
                break;
            }
        }
        write_chunk(&parser, &mut on_event, &mut out)?;
        Ok(result.is_ok() && over.is_none())
    })?;
    if let Some((held, offset)) = over {
        out.flush().map_err(Failure::write)?;
        return Err(over_budget(args.max_tree_bytes, held, offset));
    }
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
