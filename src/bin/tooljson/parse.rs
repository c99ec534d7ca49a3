//! `tooljson parse [--chunk N] [FILE]`: the streaming parser on a file.

use std::io::Write;

use tooljson::{Parser, ValueBuilder};

use crate::{Failure, parse_chunk, read_input};

pub fn run(args: Vec<String>) -> Result<(), Failure> {
    let mut chunk = None;
    let mut file = None;
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--chunk" => chunk = Some(parse_chunk(it.next())?),
            s if s.starts_with("--") => {
                return Err(Failure::usage(format!("error: unknown option {s:?}")));
            }
            _ if file.is_some() => return Err(Failure::usage("error: more than one FILE")),
            _ => file = Some(a),
        }
    }
    let input = read_input(file.as_deref())?;
    let chunk = chunk.unwrap_or(input.len().max(1));
    let mut parser = Parser::new();
    let mut builder = ValueBuilder::new();
    let result = input
        .chunks(chunk)
        .try_for_each(|c| parser.feed(c, &mut builder))
        .and_then(|()| parser.finish(&mut builder));
    match result {
        Ok(()) => {
            let value = builder.into_value().unwrap_or_default();
            let mut out = std::io::stdout().lock();
            writeln!(out, "{value}").map_err(|e| Failure {
                code: 2,
                message: format!("error: writing stdout: {e}"),
            })
        }
        Err(e) => Err(Failure {
            code: 1,
            message: format!("error: {e}"),
        }),
    }
}
