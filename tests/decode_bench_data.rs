//! Constrained decoding on the jsonschemabench schemas (from `tests/data/`,
//! see `common::testdata`; the tests fail with a plain message when it is
//! absent): which schemas compile for decoding
//! (and why the others do not), every valid instance accepted byte by byte
//! and token by token in its own key order and a shuffled one, and random
//! samples that always parse and validate, with no dead end.
use crate::common;
use crate::common::decode_check::allowed;
use crate::common::decode_data::{
    bench_cases, refused_at, samples, shuffled, small_vocab, tokens_refused, tool_like,
};

use std::collections::BTreeMap;

use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, DecodeError, Matcher, Sampler, Tokenizer, Vocabulary};

/// Feeds `text` as tokens of the small vocabulary (greedy longest match),
/// checking each against the mask.
fn mask_refuses(c: &Constraint, vocab: &Vocabulary, text: &[u8]) -> Option<String> {
    let mut m: Matcher = c.matcher();
    let mut mask = vec![0u64; vocab.mask_words()];
    let mut i = 0;
    while i < text.len() {
        let mut best = (1, text[i] as u32);
        for id in 256..vocab.len() as u32 {
            let t = vocab.token_bytes(id);
            if !t.is_empty() && t.len() > best.0 && text[i..].starts_with(t) {
                best = (t.len(), id);
            }
        }
        m.fill_mask(&mut mask);
        let id = best.1;
        if !allowed(&mask, id) {
            return Some(format!("token {id} at byte {i} refused by the mask"));
        }
        if let Err(e) = m.commit_token(id) {
            return Some(format!("commit at byte {i}: {e}"));
        }
        i += best.0;
    }
    m.fill_mask(&mut mask);
    let eos = vocab.eos_ids()[0];
    (!allowed(&mask, eos)).then(|| "end refused".to_owned())
}

fn check_sample(schema: &CompiledSchema, text: &[u8]) -> Result<(), String> {
    let v =
        crate::common::decode_check::parse_no_repeats(text).map_err(|e| format!("parse: {e}"))?;
    schema
        .validate(&v)
        .map_err(|e| format!("invalid: {}", e[0]))
}

/// Compiles every case for `vocab`; checks valid instances (byte by byte,
/// and token by token with `tok` or greedily with the small vocabulary),
/// and `samples` random samples per schema. Prints the coverage.
fn run(
    label: &str,
    vocab: &Vocabulary,
    tok: Option<&Tokenizer>,
    samples: usize,
    max_tokens: usize,
) {
    let mut compiled = 0;
    let mut tool = (0, 0);
    let mut refused: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    let cases = bench_cases();
    let mut sampled = 0;
    for case in &cases {
        let tl = tool_like(&case.name);
        tool.1 += usize::from(tl);
        let c = match Constraint::new(&case.schema, vocab) {
            Ok(c) => c,
            Err(e) => {
                let k = match &e {
                    DecodeError::Unsupported { keyword, .. } => keyword.clone(),
                    other => other.to_string(),
                };
                refused.entry(k).or_default().push(case.name.clone());
                continue;
            }
        };
        compiled += 1;
        tool.0 += usize::from(tl);
        let mut seed = 0x1234_5678u64;
        for (i, v) in case.valid.iter().enumerate() {
            for (how, v) in [
                ("own order", v.clone()),
                ("shuffled", shuffled(v, &mut seed)),
            ] {
                let text = v.to_string();
                let p = match refused_at(&c, text.as_bytes()) {
                    Some(at) => Some(format!(
                        "valid instance refused at byte {at}: {}",
                        &text[..at.min(text.len())]
                    )),
                    None => match tok {
                        Some(t) => tokens_refused(&c, t, &text),
                        None => mask_refuses(&c, vocab, text.as_bytes()),
                    },
                };
                if let Some(p) = p {
                    problems.push(format!("{label} {}#{i} ({how}): {p}", case.name));
                }
            }
        }
        let mut sampler = Sampler::new(&c, 42, max_tokens);
        for k in 0..samples {
            sampled += 1;
            match sampler.sample() {
                Ok(s) => {
                    if let Err(e) = check_sample(&case.schema, &s.text) {
                        problems.push(format!(
                            "{label} {} sample {k}: {e}: {}",
                            case.name,
                            String::from_utf8_lossy(&s.text)
                        ));
                    }
                }
                Err(e) => problems.push(format!("{label} {} sample {k}: {e}", case.name)),
            }
        }
    }
    println!(
        "{label}: compiled for decoding {compiled}/{} ({}/{} tool-like); {sampled} samples",
        cases.len(),
        tool.0,
        tool.1
    );
    for (k, v) in &refused {
        println!("  refused, {k}: {}", v.len());
    }
    for p in problems.iter().take(40) {
        println!("{p}");
    }
    assert!(problems.is_empty(), "{label}: {} problems", problems.len());
    assert!(compiled > 100, "{label}: only {compiled} schemas compiled");
}

#[test]
fn small_vocabulary() {
    run("small", &small_vocab(), None, samples(20), 200);
}

#[cfg(feature = "tiktoken")]
#[test]
fn o200k() {
    let tok = Tokenizer::o200k().unwrap();
    run("o200k", tok.vocabulary(), Some(&tok), samples(3), 120);
}

/// A Hugging Face vocabulary's `tokenizer.json` text: from the first test
/// data folder that has it, plain or gzip-compressed (the repository
/// carries Qwen3's as `tokenizers/qwen3.tokenizer.json.gz`).
fn tokenizer_json(name: &str) -> Option<String> {
    let plain = format!("tokenizers/{name}.tokenizer.json");
    let gz = format!("{plain}.gz");
    for root in common::testdata_roots() {
        let path = root.join(&plain);
        if path.is_file() {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            return Some(text);
        }
        let path = root.join(&gz);
        if path.is_file() {
            let file = std::fs::File::open(&path)
                .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
            let mut text = String::new();
            std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(file), &mut text)
                .unwrap_or_else(|e| panic!("cannot decompress {}: {e}", path.display()));
            return Some(text);
        }
    }
    None
}

/// Runs [`run`] on a Hugging Face vocabulary.
fn hf(name: &str, text: &str) {
    let tok = Tokenizer::from_tokenizer_json(text, &[]).unwrap();
    run(name, tok.vocabulary(), Some(&tok), samples(2), 120);
}

/// [`hf`] on a vocabulary the repository may not carry (its publisher's
/// licence): run when `$TOOLJSON_TESTDATA` or `../shared/testdata` has it,
/// else one `SKIPPED:` line says what did not run.
fn hf_licensed(name: &str) {
    match tokenizer_json(name) {
        Some(text) => hf(name, &text),
        None => common::skipped(&format!(
            "decode_bench_data::{name}: the {name} tokenizer (tokenizers/{name}.tokenizer.json) \
             was not found; set TOOLJSON_TESTDATA to a folder that has it"
        )),
    }
}

#[test]
fn llama3_1() {
    hf_licensed("llama3_1");
}

#[test]
fn qwen3() {
    // Carried in tests/data/tokenizers/ (Apache-2.0), so it always runs.
    let text = tokenizer_json("qwen3").unwrap_or_else(|| {
        panic!(
            "tokenizers/qwen3.tokenizer.json(.gz) not found in any of {:?}",
            common::testdata_roots()
        )
    });
    hf("qwen3", &text);
}

#[test]
fn gemma3() {
    hf_licensed("gemma3");
}
