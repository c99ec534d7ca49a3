//! `tooljson validate --schema SCHEMA.json [--chunk N] [--assert-formats]
//! [--lenient] [FILE]`: check a JSON document against a JSON Schema, the
//! document parsed as it arrives.
//!
//! Output contract:
//! - valid: nothing on stdout, exit 0;
//! - invalid: one line per violation on stdout, `<instance pointer>: <message>`
//!   (the root, whose JSON Pointer is empty, is written `(root)`), in schema
//!   order, exit 3. With `--chunk N` the document is fed to the parser and the
//!   stream check in N-byte chunks, and one more line follows:
//!   `first violation certain at byte <offset>` (bytes consumed when the first
//!   violation became certain);
//! - not JSON / truncated: `error: <message>` on stderr, exit 1;
//! - usage error, unreadable file, or a schema that does not compile:
//!   `error: ...` on stderr, exit 2.

use std::io::Write;
use std::path::PathBuf;

use tooljson::schema::Violation;
use tooljson::{CompiledSchema, Parser, ValueBuilder};

use crate::Failure;
use crate::input::Input;
use crate::parse::{BUDGET_STEP, DEFAULT_MAX_TREE_BYTES, byte_count, over_budget, tree_bytes};

/// Check FILE (or stdin) against a JSON Schema.
///
/// Prints one line per violation, `<instance pointer>: <message>` (`(root)`
/// for the document itself); with --chunk, streams in N-byte chunks and adds
/// `first violation certain at byte <offset>`.
#[derive(clap::Args)]
pub struct Args {
    /// The JSON Schema.
    #[arg(long, value_name = "SCHEMA.json")]
    schema: PathBuf,
    /// Feed the parser and the stream check N-byte chunks, and report the
    /// byte at which the first violation became certain.
    #[arg(long, value_name = "N", value_parser = byte_count)]
    chunk: Option<usize>,
    /// Assert `format` (email, date-time, ...) instead of annotating.
    #[arg(long)]
    assert_formats: bool,
    /// Accept schema keywords this draft does not know, and other leniencies.
    #[arg(long)]
    lenient: bool,
    /// The memory budget of the parsed value, in bytes (as
    /// `ValueBuilder::held_bytes` estimates it); past it the check stops
    /// with an error naming this option.
    #[arg(long, value_name = "BYTES", value_parser = tree_bytes, default_value_t = DEFAULT_MAX_TREE_BYTES)]
    max_tree_bytes: u64,
    /// The JSON document; stdin when absent or `-`.
    file: Option<PathBuf>,
}

/// A violation as printed: its instance pointer, `(root)` for the root.
pub struct Located<'a> {
    pub path: &'a tooljson::Path,
    pub message: &'a str,
}

impl std::fmt::Display for Located<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.path.is_empty() {
            write!(f, "(root): {}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl<'a> From<&'a Violation> for Located<'a> {
    fn from(v: &'a Violation) -> Located<'a> {
        Located {
            path: &v.instance_path,
            message: &v.message,
        }
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let schema_name = args.schema.display().to_string();
    // A schema past the parser's input limit is refused before it is read
    // (reading it, then building its tree up to the limit, took 400 MB).
    let limit = tooljson::Limits::default().max_input_bytes;
    if let Ok(meta) = std::fs::metadata(&args.schema)
        && meta.len() > limit
    {
        return Err(Failure {
            code: 2,
            message: format!(
                "error: {schema_name}: {} bytes, past the schema input limit of {limit} bytes (max_input_bytes)",
                meta.len()
            ),
        });
    }
    let schema_text = std::fs::read_to_string(&args.schema)
        .map_err(|e| Failure::io(&format!("reading {schema_name}"), e))?;
    let schema = CompiledSchema::builder()
        .assert_formats(args.assert_formats)
        .strict(!args.lenient)
        .build_str(&schema_text)
        .map_err(|e| Failure {
            code: 2,
            message: format!("error: {schema_name}: {e}"),
        })?;
    // What the schema leaves unchecked (a format with no checker, an
    // unknown format name, a keyword ignored when lenient) is said, never
    // silently passed.
    for what in schema.ignored_keywords() {
        eprintln!("warning: {schema_name}: {what}");
    }
    let input = Input::open(args.file.as_ref())?;

    let invalid_json = |e: tooljson::Error| Failure {
        code: 1,
        message: format!("error: {e}"),
    };
    let mut parser = Parser::new();
    let mut first_certain = None;
    let mut fed = Ok(());
    let budget = args.max_tree_bytes;
    let past = |b: &ValueBuilder, p: &Parser| {
        (b.held_bytes() > budget).then(|| over_budget(budget, b.held_bytes(), p.offset()))
    };
    let mut over = None;
    let (builder, total) = match args.chunk {
        Some(n) => {
            // The value and the stream check on one pass.
            let mut both = schema.stream_check().beside(ValueBuilder::new());
            let total = input.for_each_piece(Some(n), |piece| {
                for step in piece.chunks(BUDGET_STEP) {
                    fed = parser.feed(step, &mut both);
                    if over.is_none() {
                        over = past(both.sink(), &parser);
                    }
                    if fed.is_err() || over.is_some() {
                        break;
                    }
                }
                Ok(fed.is_ok() && over.is_none())
            })?;
            fed.map_err(invalid_json)?;
            over.map_or(Ok(()), Err)?;
            parser.finish(&mut both).map_err(invalid_json)?;
            first_certain = both.check().first_violation_offset();
            (both.into_parts().0, total)
        }
        None => {
            let mut builder = ValueBuilder::new();
            let total = input.for_each_piece(None, |piece| {
                for step in piece.chunks(BUDGET_STEP) {
                    fed = parser.feed(step, &mut builder);
                    if over.is_none() {
                        over = past(&builder, &parser);
                    }
                    if fed.is_err() || over.is_some() {
                        break;
                    }
                }
                Ok(fed.is_ok() && over.is_none())
            })?;
            fed.map_err(invalid_json)?;
            over.map_or(Ok(()), Err)?;
            parser.finish(&mut builder).map_err(invalid_json)?;
            (builder, total)
        }
    };
    let value = builder.into_value().unwrap_or_default();
    let Err(violations) = schema.validate(&value) else {
        return Ok(());
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for v in &violations {
        writeln!(out, "{}", Located::from(v)).map_err(Failure::write)?;
    }
    if args.chunk.is_some() {
        let o = first_certain.unwrap_or(total);
        writeln!(out, "first violation certain at byte {o}").map_err(Failure::write)?;
    }
    out.flush().map_err(Failure::write)?;
    Err(Failure {
        code: 3,
        message: format!(
            "{} violation{} of {schema_name}",
            violations.len(),
            if violations.len() == 1 { "" } else { "s" }
        ),
    })
}
