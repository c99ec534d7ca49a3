//! Token bytes from a Hugging Face `tokenizer.json`: byte-level BPE
//! vocabularies spell each byte as one character of GPT-2's byte map;
//! SentencePiece-style ones spell a space as `▁` and unknown bytes as
//! `<0xNN>` tokens.

use super::DecodeError;

const DEFAULT_EOS: &[&str] = &[
    "<|eot_id|>",
    "<|end_of_text|>",
    "<|im_end|>",
    "<|endoftext|>",
    "<end_of_turn>",
    "<eos>",
    "</s>",
];

/// GPT-2's map from bytes to printable characters, inverted.
pub(crate) fn byte_level_decoder() -> std::collections::HashMap<char, u8> {
    let mut bs: Vec<u32> = (b'!'..=b'~')
        .chain(0xA1..=0xAC)
        .chain(0xAE..=0xFF)
        .map(u32::from)
        .collect();
    let mut cs = bs.clone();
    let mut n = 0;
    for b in 0..256u32 {
        if !bs.contains(&b) {
            bs.push(b);
            cs.push(256 + n);
            n += 1;
        }
    }
    bs.iter()
        .zip(&cs)
        .filter_map(|(&b, &c)| Some((char::from_u32(c)?, b as u8)))
        .collect()
}

fn bad(msg: impl Into<String>) -> DecodeError {
    DecodeError::Vocabulary(msg.into())
}

/// Each id's bytes and the end-of-sequence ids.
pub(crate) fn read(text: &str, eos: &[&str]) -> Result<(Vec<Vec<u8>>, Vec<u32>), DecodeError> {
    let doc: serde_json::Value =
        serde_json::from_str(text).map_err(|e| bad(format!("tokenizer.json: {e}")))?;
    let model = doc
        .get("model")
        .ok_or_else(|| bad("tokenizer.json has no `model`"))?;
    let vocab = model
        .get("vocab")
        .and_then(|v| v.as_object())
        .ok_or_else(|| {
            bad("tokenizer.json: `model.vocab` is not an object (only BPE models are read)")
        })?;
    let byte_fallback = model.get("byte_fallback").and_then(|b| b.as_bool()) == Some(true);
    let byte_level = !byte_fallback && text.contains("\"ByteLevel\"");
    let map = byte_level_decoder();
    let mut tokens: Vec<Vec<u8>> = Vec::new();
    let put = |id: usize, bytes: Vec<u8>, tokens: &mut Vec<Vec<u8>>| {
        if tokens.len() <= id {
            tokens.resize(id + 1, Vec::new());
        }
        tokens[id] = bytes;
    };
    for (s, id) in vocab {
        let id = id
            .as_u64()
            .filter(|&i| i < 1 << 24)
            .ok_or_else(|| bad(format!("tokenizer.json: bad id for {s:?}")))?
            as usize;
        let bytes = if byte_level {
            s.chars()
                .map(|c| map.get(&c).copied())
                .collect::<Option<Vec<u8>>>()
                .ok_or_else(|| bad(format!("tokenizer.json: {s:?} is not byte-level text")))?
        } else if let Some(b) = byte_token(s) {
            vec![b]
        } else {
            s.replace('\u{2581}', " ").into_bytes()
        };
        put(id, bytes, &mut tokens);
    }
    let mut eos_ids = Vec::new();
    let mut specials = Vec::new();
    if let Some(added) = doc.get("added_tokens").and_then(|a| a.as_array()) {
        for a in added {
            let (Some(id), Some(content)) = (
                a.get("id")
                    .and_then(|i| i.as_u64())
                    .filter(|&i| i < 1 << 24),
                a.get("content").and_then(|c| c.as_str()),
            ) else {
                return Err(bad("tokenizer.json: an added token without id or content"));
            };
            let special = a.get("special").and_then(|s| s.as_bool()) != Some(false);
            let bytes = if special {
                Vec::new()
            } else {
                content.replace('\u{2581}', " ").into_bytes()
            };
            put(id as usize, bytes, &mut tokens);
            specials.push((content.to_owned(), id as u32));
        }
    }
    let names: &[&str] = if eos.is_empty() { DEFAULT_EOS } else { eos };
    for name in names {
        if let Some((_, id)) = specials.iter().find(|(c, _)| c == name) {
            eos_ids.push(*id);
            if eos.is_empty() {
                break;
            }
        } else if !eos.is_empty() {
            return Err(bad(format!("tokenizer.json has no token {name:?}")));
        }
    }
    if eos_ids.is_empty() {
        return Err(bad(
            "tokenizer.json: no end-of-sequence token found; name one",
        ));
    }
    Ok((tokens, eos_ids))
}

/// `<0xNN>` as the byte NN.
fn byte_token(s: &str) -> Option<u8> {
    let hex = s.strip_prefix("<0x")?.strip_suffix('>')?;
    if hex.len() != 2 {
        return None;
    }
    u8::from_str_radix(hex, 16).ok()
}
