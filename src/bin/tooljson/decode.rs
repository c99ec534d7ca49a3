//! `tooljson decode --schema SCHEMA.json [--vocab o200k|cl100k|tokenizer.json]
//! [--format-annotation] [--approximate] (--check FILE | --sample N [--seed S] [--max-tokens M])`:
//! constrained decoding from the command line.
//!
//! Output contract:
//! - every `format` is asserted (the texts, and the `--check` file, hold
//!   it), unless `--format-annotation` makes each an annotation that
//!   constrains nothing; `--assert-formats`, the default, is still read;
//! - `--approximate`: a keyword the decoder cannot decide exactly is
//!   approximated (the mask allows more) instead of refused; each
//!   approximation is first written to stderr as one line
//!   `approximated: <keyword> at <schema path>: <what>`;
//! - `--check FILE`: FILE's text is tokenized (canonical BPE) and each token
//!   checked against the mask, then the end against the end-of-sequence
//!   mask. All allowed: exit 0. One refused: a line
//!   `{"refused": <token index>, "token": <id or null for the end>, "text": "<text so far>"}`,
//!   exit 3;
//! - `--sample N`: N lines `{"text": "...", "tokens": n}`, texts drawn
//!   uniformly among the allowed tokens (steered to a shortest completion
//!   as `--max-tokens`, default 256, nears), seeded by `--seed` (default 0);
//!   a dead end is an error, exit 1;
//! - both end with `{"masks": n, "mask_us": {"avg": a, "p50": b, "p99": c, "max": d}}`;
//! - a schema that cannot be compiled for decoding (without
//!   `--approximate`, any keyword it cannot decide exactly): `error: ...`
//!   naming the keyword on stderr, exit 2; so are usage and I/O errors.

use std::io::Write;
use std::time::Instant;

use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, DecodeOptions, Matcher, Sampler, Tokenizer};

use crate::Failure;

fn fail(code: u8, message: impl Into<String>) -> Failure {
    Failure {
        code,
        message: message.into(),
    }
}

fn tokenizer(name: &str) -> Result<Tokenizer, Failure> {
    match name {
        #[cfg(feature = "tiktoken")]
        "o200k" => Tokenizer::o200k().map_err(|e| fail(2, format!("error: {e}"))),
        #[cfg(feature = "tiktoken")]
        "cl100k" => Tokenizer::cl100k().map_err(|e| fail(2, format!("error: {e}"))),
        #[cfg(not(feature = "tiktoken"))]
        "o200k" | "cl100k" => Err(fail(
            2,
            "error: this build has no o200k / cl100k (feature `tiktoken`); give a tokenizer.json",
        )),
        path => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| fail(2, format!("error: reading {path}: {e}")))?;
            Tokenizer::from_tokenizer_json(&text, &[]).map_err(|e| fail(2, format!("error: {e}")))
        }
    }
}

/// Mask times in microseconds.
#[derive(Default)]
struct Times(Vec<f64>);

impl Times {
    fn fill(&mut self, m: &Matcher, mask: &mut [u64]) {
        let t = Instant::now();
        m.fill_mask(mask);
        self.0.push(t.elapsed().as_secs_f64() * 1e6);
    }

    fn line(mut self) -> String {
        self.0.sort_by(f64::total_cmp);
        let n = self.0.len();
        let at = |q: f64| {
            if n == 0 {
                0.0
            } else {
                self.0[((n as f64 - 1.0) * q).round() as usize]
            }
        };
        let avg = if n == 0 {
            0.0
        } else {
            self.0.iter().sum::<f64>() / n as f64
        };
        serde_json::json!({
            "masks": n,
            "mask_us": {"avg": round(avg), "p50": round(at(0.5)), "p99": round(at(0.99)), "max": round(at(1.0))}
        })
        .to_string()
    }
}

fn round(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// Constrained decoding: check a text token by token against a schema's
/// mask, or sample texts the mask allows.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("mode").required(true).args(["check", "sample"])))]
pub struct Args {
    /// The JSON Schema to decode under.
    #[arg(long, value_name = "SCHEMA.json")]
    schema: String,
    /// `o200k`, `cl100k` (feature `tiktoken`, the default there) or a
    /// Hugging Face tokenizer.json.
    #[arg(long, value_name = "o200k|cl100k|tokenizer.json")]
    vocab: Option<String>,
    /// Tokenize FILE (canonical BPE) and check each token against the mask.
    #[arg(long, value_name = "FILE")]
    check: Option<String>,
    /// Generate N texts, choosing uniformly among the allowed tokens.
    #[arg(long, value_name = "N")]
    sample: Option<u64>,
    /// The sampler's seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The token budget a sample steers to finish within.
    #[arg(long, value_name = "M", default_value_t = 256)]
    max_tokens: usize,
    /// Treat `format` as an assertion (the default).
    #[arg(long, conflicts_with = "format_annotation")]
    assert_formats: bool,
    /// Treat `format` as an annotation: it constrains nothing.
    #[arg(long)]
    format_annotation: bool,
    /// Approximate (allow more than) the keywords the decoder cannot decide
    /// exactly instead of refusing the schema; each is listed on stderr.
    #[arg(long)]
    approximate: bool,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let Args {
        schema: schema_path,
        vocab,
        check,
        sample,
        seed,
        max_tokens,
        assert_formats: _,
        format_annotation,
        approximate,
    } = args;
    let assert_formats = !format_annotation;
    // A schema past the parser's input limit is refused before it is read
    // (reading it, then building its tree up to the limit, took 400 MB).
    let limit = tooljson::Limits::default().max_input_bytes;
    if let Ok(meta) = std::fs::metadata(&schema_path)
        && meta.len() > limit
    {
        return Err(fail(
            2,
            format!(
                "error: {schema_path}: {} bytes, past the schema input limit of {limit} bytes (max_input_bytes)",
                meta.len()
            ),
        ));
    }
    let text = std::fs::read_to_string(&schema_path)
        .map_err(|e| fail(2, format!("error: reading {schema_path}: {e}")))?;
    let schema = CompiledSchema::builder()
        .assert_formats(assert_formats)
        .build_str(&text)
        .map_err(|e| fail(2, format!("error: {e}")))?;
    // A format name the decoder leaves unconstrained is said, as
    // `validate` says it.
    for what in schema.ignored_keywords() {
        eprintln!("warning: {schema_path}: {what}");
    }
    let default_vocab = if cfg!(feature = "tiktoken") {
        "o200k"
    } else {
        ""
    };
    let vocab_name = vocab.as_deref().unwrap_or(default_vocab);
    if vocab_name.is_empty() {
        return Err(Failure::usage(
            "error: decode needs --vocab tokenizer.json in this build",
        ));
    }
    let tok = tokenizer(vocab_name)?;
    let opts = DecodeOptions {
        approximate,
        assert_formats,
        ..DecodeOptions::default()
    };
    let constraint = Constraint::with_options(&schema, tok.vocabulary(), &opts)
        .map_err(|e| fail(2, format!("error: {e}")))?;
    for a in constraint.approximations() {
        eprintln!("approximated: {a}");
    }
    let mut out = std::io::stdout().lock();
    let werr = |e: std::io::Error| fail(2, format!("error: writing stdout: {e}"));
    let mut times = Times::default();
    match (check, sample) {
        (Some(file), None) => {
            let bytes = crate::read_input(Some(&file))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| fail(2, format!("error: {file} is not UTF-8")))?;
            let ids = tok
                .encode(&text)
                .map_err(|e| fail(2, format!("error: {e}")))?;
            let vocab = tok.vocabulary();
            let mut m = constraint.matcher();
            let mut mask = vec![0u64; vocab.mask_words()];
            let mut so_far = Vec::new();
            let eos = vocab.eos_ids().first().copied();
            let steps = ids.iter().map(|&i| Some(i)).chain([None]);
            for (i, id) in steps.enumerate() {
                times.fill(&m, &mut mask);
                let t = id.or(eos).unwrap_or(u32::MAX);
                let allowed = mask
                    .get(t as usize / 64)
                    .is_some_and(|w| w >> (t % 64) & 1 == 1);
                if !allowed || m.commit_token(t).is_err() {
                    let line = serde_json::json!({
                        "refused": i,
                        "token": id,
                        "text": String::from_utf8_lossy(&so_far),
                    });
                    writeln!(out, "{line}").map_err(werr)?;
                    writeln!(out, "{}", times.line()).map_err(werr)?;
                    return Err(fail(3, format!("refused: token {i}")));
                }
                if let Some(id) = id {
                    so_far.extend_from_slice(vocab.token_bytes(id));
                }
            }
            writeln!(out, "{}", times.line()).map_err(werr)?;
            Ok(())
        }
        (None, Some(n)) => {
            let mut sampler = Sampler::new(&constraint, seed, max_tokens);
            for _ in 0..n {
                let s = sampler
                    .sample_with(|m, mask| times.fill(m, mask))
                    .map_err(|e| fail(1, format!("error: {e}")))?;
                let line = serde_json::json!({
                    "text": String::from_utf8_lossy(&s.text),
                    "tokens": s.tokens.len(),
                });
                writeln!(out, "{line}").map_err(werr)?;
            }
            writeln!(out, "{}", times.line()).map_err(werr)?;
            Ok(())
        }
        _ => Err(Failure::usage(
            "error: decode needs exactly one of --check FILE and --sample N",
        )),
    }
}
