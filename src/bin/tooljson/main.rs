//! The `tooljson` command line: `parse`, `validate`, `replay`, and (bare)
//! the bundled demo.
//!
//! Exit codes are a contract: 0 success, 1 invalid or truncated input,
//! 2 usage or I/O error, 3 a schema violation or a call that did not complete.

mod parse;
// -- validate module
mod validate;

// -- replay module
mod replay;

#[cfg(feature = "decode")]
mod decode;

// -- end of modules

use std::process::ExitCode;

const USAGE: &str = "\
usage: tooljson <command> [options]

commands:
  parse [--chunk N] [--partial | --events] [FILE]
                               parse JSON from FILE (or stdin) through the streaming parser;
                               --partial prints the snapshot after every chunk, --events NDJSON events
  validate --schema SCHEMA.json [--chunk N] [--assert-formats] [--lenient] [FILE]
                               check FILE (or stdin) against a JSON Schema; prints one line per
                               violation, `<instance pointer>: <message>`; with --chunk, streams in
                               N-byte chunks and adds `first violation certain at byte <offset>`
  replay [--tools TOOLS.json] [--ndjson] [--chunk N] [FILE]
                               replay a recorded vendor stream (SSE) from FILE (or stdin): a live
                               preview of the tool calls, or --ndjson one event per line; --tools
                               validates the calls against a request's tools and tool_choice
  (no command)                 replay the bundled demo transcript as a live preview

exit codes: 0 ok, 1 invalid or truncated JSON, 2 usage or I/O error or a schema that does not
compile, 3 schema violations or a call that is truncated, aborted or invalid";

/// A command's failure: its exit code and the line for stderr.
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: format!("{}\n\n{USAGE}", message.into()),
        }
    }
}

/// Reads FILE, or stdin when `path` is `None` or `-`.
pub fn read_input(path: Option<&str>) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    match path {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Failure {
                    code: 2,
                    message: format!("error: reading stdin: {e}"),
                })?;
            Ok(buf)
        }
        Some(p) => std::fs::read(p).map_err(|e| Failure {
            code: 2,
            message: format!("error: reading {p}: {e}"),
        }),
    }
}

/// Parses `--chunk N`: a positive byte count.
pub fn parse_chunk(value: Option<String>) -> Result<usize, Failure> {
    let v = value.ok_or_else(|| Failure::usage("error: --chunk needs a value"))?;
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Failure::usage(format!(
            "error: --chunk takes a positive number of bytes, got {v:?}"
        ))),
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let result = match args.next().as_deref() {
        Some("parse") => parse::run(args.collect()),
        // -- validate command
        Some("validate") => validate::run(args.collect()),

        // -- replay command
        Some("replay") => replay::run(args.collect()),
        None => replay::demo(),

        #[cfg(feature = "decode")]
        Some("decode") => decode::run(args.collect()),

        // -- end of commands
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(Failure::usage(format!("error: unknown command {other:?}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.code)
        }
    }
}
