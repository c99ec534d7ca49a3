//! `tooljson validate --schema SCHEMA.json [--chunk N] [--assert-formats]
//! [--lenient] [FILE]`: check a JSON document against a JSON Schema.
//!
//! Output contract:
//! - valid: nothing on stdout, exit 0;
//! - invalid: one line per violation on stdout, `<instance pointer>: <message>`
//!   (the root's pointer is empty, so its lines start with `: `), in schema
//!   order, exit 3. With `--chunk N` the document is fed to the parser and the
//!   stream check in N-byte chunks, and one more line follows:
//!   `first violation certain at byte <offset>` (bytes consumed when the first
//!   violation became certain);
//! - not JSON / truncated: `error: <message>` on stderr, exit 1;
//! - usage error, unreadable file, or a schema that does not compile:
//!   `error: ...` on stderr, exit 2.

use std::io::Write;

use tooljson::{CompiledSchema, Parser, ValueBuilder};

use crate::{Failure, parse_chunk, read_input};

fn write_failure(e: std::io::Error) -> Failure {
    Failure {
        code: 2,
        message: format!("error: writing stdout: {e}"),
    }
}

pub fn run(args: Vec<String>) -> Result<(), Failure> {
    let mut schema_path = None;
    let mut chunk = None;
    let mut file = None;
    let mut assert_formats = false;
    let mut strict = true;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--schema" => {
                schema_path = Some(
                    it.next()
                        .ok_or_else(|| Failure::usage("error: --schema needs a file"))?,
                )
            }
            "--chunk" => chunk = Some(parse_chunk(it.next())?),
            "--assert-formats" => assert_formats = true,
            "--lenient" => strict = false,
            s if s.starts_with("--") => {
                return Err(Failure::usage(format!("error: unknown option {s:?}")));
            }
            _ if file.is_some() => return Err(Failure::usage("error: more than one FILE")),
            _ => file = Some(a),
        }
    }
    let schema_path =
        schema_path.ok_or_else(|| Failure::usage("error: validate needs --schema SCHEMA.json"))?;
    let schema_text = std::fs::read_to_string(&schema_path).map_err(|e| Failure {
        code: 2,
        message: format!("error: reading {schema_path}: {e}"),
    })?;
    let schema = CompiledSchema::builder()
        .assert_formats(assert_formats)
        .strict(strict)
        .build_str(&schema_text)
        .map_err(|e| Failure {
            code: 2,
            message: format!("error: {schema_path}: {e}"),
        })?;
    let input = read_input(file.as_deref())?;

    let invalid_json = |e: tooljson::Error| Failure {
        code: 1,
        message: format!("error: {e}"),
    };
    let mut parser = Parser::new();
    let mut first_certain = None;
    let builder = match chunk {
        Some(n) => {
            // The value and the stream check on one pass.
            let mut both = schema.stream_check().beside(ValueBuilder::new());
            for piece in input.chunks(n) {
                parser.feed(piece, &mut both).map_err(invalid_json)?;
            }
            parser.finish(&mut both).map_err(invalid_json)?;
            first_certain = both.check().first_violation_offset();
            both.into_parts().0
        }
        None => {
            let mut builder = ValueBuilder::new();
            parser.feed(&input, &mut builder).map_err(invalid_json)?;
            parser.finish(&mut builder).map_err(invalid_json)?;
            builder
        }
    };
    let value = builder.into_value().unwrap_or_default();
    let Err(violations) = schema.validate(&value) else {
        return Ok(());
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for v in &violations {
        writeln!(out, "{v}").map_err(write_failure)?;
    }
    if chunk.is_some() {
        match first_certain {
            Some(o) => writeln!(out, "first violation certain at byte {o}"),
            None => writeln!(out, "first violation certain at byte {}", input.len()),
        }
        .map_err(write_failure)?;
    }
    out.flush().map_err(write_failure)?;
    Err(Failure {
        code: 3,
        message: format!(
            "{} violation{} of {schema_path}",
            violations.len(),
            if violations.len() == 1 { "" } else { "s" }
        ),
    })
}
