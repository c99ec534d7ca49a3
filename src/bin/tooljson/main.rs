//! The `tooljson` command line: `parse`, `validate`, `replay`, `demo`, and
//! (bare) the bundled demo.
//!
//! Every subcommand reads its input as it arrives (see `input`), so
//! `curl -N ... | tooljson replay --ndjson` prints each event as soon as its
//! bytes are in.
//!
//! Exit codes are a contract: 0 success, 1 invalid or truncated input,
//! 2 usage or I/O error, 3 a schema violation or a call that did not complete.

#![forbid(unsafe_code)]

mod input;
mod ndjson;
mod parse;
mod preview;
mod replay;
mod summary;
mod validate;

#[cfg(feature = "decode")]
mod decode;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

const EXIT_CODES: &str = "\
Exit codes: 0 ok, 1 invalid or truncated JSON or a malformed stream, 2 usage or I/O error or a
schema that does not compile, 3 schema violations or a call that is truncated, aborted or invalid";

/// Streaming JSON for LLM tool calls: parse, validate and replay vendor
/// streams as they arrive.
#[derive(Parser)]
#[command(name = "tooljson", version, after_help = EXIT_CODES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

/// The subcommands; bare `tooljson` is `demo`.
#[derive(Subcommand)]
enum Command {
    Parse(parse::Args),
    Validate(validate::Args),
    Replay(replay::Args),
    Demo(replay::DemoArgs),
    #[cfg(feature = "decode")]
    Decode(decode::Args),
}

/// A command's failure: its exit code and the line for stderr.
pub struct Failure {
    pub code: u8,
    pub message: String,
}

impl Failure {
    /// Exit 2: an I/O error on `what`.
    pub fn io(what: &str, e: std::io::Error) -> Failure {
        Failure {
            code: 2,
            message: format!("error: {what}: {e}"),
        }
    }

    /// Exit 2: writing stdout failed.
    pub fn write(e: std::io::Error) -> Failure {
        Failure::io("writing stdout", e)
    }

    /// Exit 2: a usage error found after parsing (a bad file given to an
    /// option); `message` starts with `error: `.
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            code: 2,
            message: message.into(),
        }
    }
}

/// Reads a whole small file an option names (a schema, a tools file, a
/// vocabulary), or stdin for `None` and `-`. The input a command streams is
/// read with `input::Input` instead.
pub fn read_input(path: Option<&str>) -> Result<Vec<u8>, Failure> {
    use std::io::Read;
    match path {
        None | Some("-") => {
            let mut buf = Vec::new();
            std::io::stdin()
                .read_to_end(&mut buf)
                .map_err(|e| Failure::io("reading stdin", e))?;
            Ok(buf)
        }
        Some(p) => std::fs::read(p).map_err(|e| Failure::io(&format!("reading {p}"), e)),
    }
}

fn main() -> ExitCode {
    // clap prints help and version on stdout (exit 0) and usage errors on
    // stderr (exit 2), as the contract above says.
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Parse(a)) => parse::run(a),
        Some(Command::Validate(a)) => validate::run(a),
        Some(Command::Replay(a)) => replay::run(a),
        Some(Command::Demo(a)) => replay::demo(a),
        #[cfg(feature = "decode")]
        Some(Command::Decode(a)) => decode::run(a),
        None => replay::demo(replay::DemoArgs::default()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("{}", f.message);
            ExitCode::from(f.code)
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
