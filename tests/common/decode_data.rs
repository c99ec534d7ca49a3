//! What the decode tests over jsonschemabench share: the schemas with their
//! valid instances, the tool-like subset, key shuffling, and feeding a text
//! to a matcher byte by byte or token by token.

use super::decode_check::allowed;
use tooljson::decode::{Constraint, Tokenizer, Vocabulary};
use tooljson::{CompiledSchema, Value};

/// One jsonschemabench file whose schema the validator compiles.
pub struct BenchCase {
    pub name: String,
    /// The schema as written in the file.
    pub doc: serde_json::Value,
    /// Compiled with format assertion on.
    pub schema: CompiledSchema,
    pub valid: Vec<Value>,
}

/// Every jsonschemabench file the validator compiles (format assertion on);
/// the others are left out.
pub fn bench_cases() -> Vec<BenchCase> {
    let dir = super::testdata("jsonschemabench/data");
    let files = super::files_in(&dir);
    assert!(
        files.len() >= 200,
        "expected the 206 jsonschemabench files in {}, found {}",
        dir.display(),
        files.len()
    );
    let mut out = Vec::new();
    for (name, bytes) in files {
        // Read by the crate's parser, which keeps each object's key order
        // (serde_json without `preserve_order` sorts them).
        let file = tooljson::from_slice(&bytes).unwrap();
        let Ok(schema) = super::compile_asserting_formats(&file["schema"]) else {
            continue;
        };
        let valid = file["tests"]
            .as_array()
            .map(|t| {
                t.iter()
                    .filter(|c| c["valid"] == Value::Bool(true))
                    .map(|c| c["data"].clone())
                    .collect()
            })
            .unwrap_or_default();
        out.push(BenchCase {
            name,
            doc: serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()["schema"].take(),
            schema,
            valid,
        });
    }
    out
}

/// The function-calling schemas (BFCL, Glaive, MCP spec, json-mode-eval),
/// as the benchmark counts them.
pub fn tool_like(name: &str) -> bool {
    ["BFCL", "Glaiveai2K", "MCPspec", "JME"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Every single byte as a token, and an end of sequence.
pub fn bytes_vocab() -> Vocabulary {
    let toks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).chain([Vec::new()]).collect();
    Vocabulary::from_bytes(toks, vec![256]).unwrap()
}

/// A vocabulary of every single byte plus some JSON-shaped multi-byte
/// tokens (quotes with letters, escapes, UTF-8 pieces), to cross token and
/// byte boundaries in many ways.
pub fn small_vocab() -> Vocabulary {
    let mut toks: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    for w in [
        "{\"",
        "\":",
        "\",\"",
        "\"}",
        "\"]",
        "[\"",
        "true",
        "false",
        "null",
        "12",
        "-1",
        "0.",
        ".5",
        "e+",
        "\\u00",
        "\\n",
        "\\\"",
        "é",
        "\u{1F600}",
        "a\"",
        "\":\"",
        "\"},{\"",
        "name",
        "type",
        "id",
        "[]",
        "{}",
        "\\ud83d",
        "\\ude00",
        "}]",
        "],",
    ] {
        toks.push(w.as_bytes().to_vec());
    }
    // A token that ends inside a UTF-8 sequence.
    toks.push(vec![b'a', 0xC3]);
    toks.push(Vec::new());
    let eos = (toks.len() - 1) as u32;
    Vocabulary::from_bytes(toks, vec![eos]).unwrap()
}

/// `v` with every object's keys in a shuffled order.
pub fn shuffled(v: &Value, seed: &mut u64) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m
                .iter()
                .map(|(k, v)| (k.to_string(), shuffled(v, seed)))
                .collect();
            for i in (1..entries.len()).rev() {
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                entries.swap(i, (*seed % (i as u64 + 1)) as usize);
            }
            let mut out = tooljson::Map::new();
            for (k, v) in entries {
                out.insert(k, v);
            }
            Value::Object(out)
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| shuffled(x, seed)).collect()),
        other => other.clone(),
    }
}

/// Feeds `text` byte by byte: the index of the first refused byte, or its
/// length when all is taken but the value is not complete.
pub fn refused_at(c: &Constraint, text: &[u8]) -> Option<usize> {
    let mut m = c.matcher();
    for (i, b) in text.iter().enumerate() {
        if m.commit_bytes(std::slice::from_ref(b)).is_err() {
            return Some(i);
        }
    }
    (!m.is_complete()).then_some(text.len())
}

/// Feeds `text` as `tok` tokenizes it, checking each token (and the end)
/// against the mask.
pub fn tokens_refused(c: &Constraint, tok: &Tokenizer, text: &str) -> Option<String> {
    let vocab = tok.vocabulary();
    let ids = match tok.encode(text) {
        Ok(ids) => ids,
        Err(e) => return Some(format!("tokenize: {e}")),
    };
    let mut m = c.matcher();
    let mut mask = vec![0u64; vocab.mask_words()];
    for (i, &id) in ids.iter().enumerate() {
        m.fill_mask(&mut mask);
        if !allowed(&mask, id) {
            return Some(format!("token {i} ({id}) refused by the mask"));
        }
        if let Err(e) = m.commit_token(id) {
            return Some(format!("token {i}: {e}"));
        }
    }
    m.fill_mask(&mut mask);
    let eos = vocab.eos_ids()[0];
    (!allowed(&mask, eos)).then(|| "end refused".to_owned())
}

/// Samples per schema: `TOOLJSON_DECODE_SAMPLES`, else `default` (kept
/// small for CI; 1,000 per schema is
/// `TOOLJSON_DECODE_SAMPLES=1000 cargo test --release --all-features --test main decode_bench_data`).
pub fn samples(default: usize) -> usize {
    std::env::var("TOOLJSON_DECODE_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}
