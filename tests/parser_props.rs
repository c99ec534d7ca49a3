//! Property tests of the parser against serde_json: a random value, written
//! compact, pretty and ASCII-escaped (`\uXXXX`, surrogate pairs for astral
//! characters), cut at random points, gives the tokens a walk of the value
//! predicts (string parts merged: where fragments break depends on the
//! chunks) and the value serde_json reads; every proper prefix of a valid
//! document is `Truncated` at `finish()`, never `Invalid`.

use proptest::prelude::*;
use tooljson::{Category, OwnedToken, Parser, Token, Value, ValueBuilder};

fn key_or_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{0,8}",
        // Escapes serde_json writes (quote, backslash, controls), unicode in
        // every UTF-8 length, line separators, astral characters.
        "[a-z\"\\\\/\n\r\t\u{0}-\u{1f}\u{7f}é߿ࠀ中\u{fffd}\u{ffff}𐀀😀\u{10ffff}\u{2028}\u{2029} ]{0,16}",
        any::<String>(),
    ]
}

fn number() -> impl Strategy<Value = serde_json::Value> {
    prop_oneof![
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<u64>().prop_map(|n| serde_json::json!(n)),
        Just(serde_json::json!(u64::MAX)),
        Just(serde_json::json!(i64::MIN)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| serde_json::json!(f)),
        Just(serde_json::json!(f64::MAX)),
        Just(serde_json::json!(f64::MIN_POSITIVE)),
        Just(serde_json::json!(5e-324)),
        (-1e6f64..1e6).prop_map(|f| serde_json::json!(f)),
    ]
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        number(),
        key_or_string().prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(6, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::Array),
            prop::collection::vec((key_or_string(), inner), 0..8)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

#[derive(Debug, Clone, Copy)]
enum Style {
    Compact,
    Pretty,
    Ascii,
}

/// Every non-ASCII character as `\uXXXX` (a surrogate pair above U+FFFF),
/// hex in upper or lower case. Non-ASCII can only occur inside strings in
/// serde_json's output, so this is a valid rewrite of the document.
fn ascii_escape(text: &str, upper: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            out.push(c);
            continue;
        }
        let mut units = [0u16; 2];
        for u in c.encode_utf16(&mut units) {
            if upper {
                out.push_str(&format!("\\u{u:04X}"));
            } else {
                out.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out
}

fn write(v: &serde_json::Value, style: Style, upper: bool) -> String {
    match style {
        Style::Compact => serde_json::to_string(v).unwrap(),
        Style::Pretty => serde_json::to_string_pretty(v).unwrap(),
        Style::Ascii => ascii_escape(&serde_json::to_string(v).unwrap(), upper),
    }
}

/// The tokens a walk of `v` predicts, string parts merged, empty parts left
/// out.
fn expected_tokens(v: &serde_json::Value, out: &mut Vec<OwnedToken>) {
    match v {
        serde_json::Value::Null => out.push(OwnedToken::Null),
        serde_json::Value::Bool(b) => out.push(OwnedToken::Bool(*b)),
        serde_json::Value::Number(n) => out.push(OwnedToken::Number(n.to_string())),
        serde_json::Value::String(s) => {
            out.push(OwnedToken::StringBegin);
            if !s.is_empty() {
                out.push(OwnedToken::StringPart(s.clone()));
            }
            out.push(OwnedToken::StringEnd);
        }
        serde_json::Value::Array(a) => {
            out.push(OwnedToken::ArrayBegin);
            for x in a {
                expected_tokens(x, out);
            }
            out.push(OwnedToken::ArrayEnd);
        }
        serde_json::Value::Object(m) => {
            out.push(OwnedToken::ObjectBegin);
            for (k, x) in m {
                out.push(OwnedToken::Key(k.clone()));
                expected_tokens(x, out);
            }
            out.push(OwnedToken::ObjectEnd);
        }
    }
}

/// Feeds `doc` cut at `cuts`, returning merged tokens and the value.
fn parse_cut(doc: &[u8], cuts: &[usize]) -> (Vec<OwnedToken>, Result<Value, tooljson::Error>) {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (doc.len() + 1)).collect();
    points.extend([0, doc.len()]);
    points.sort_unstable();
    let mut tokens: Vec<OwnedToken> = Vec::new();
    let mut builder = ValueBuilder::new();
    let mut p = Parser::new();
    let mut sink = |t: Token<'_>, at: &tooljson::Location<'_>| {
        tooljson::TokenSink::token(&mut builder, t, at);
        match (t, tokens.last_mut()) {
            (Token::StringPart(s), Some(OwnedToken::StringPart(prev))) => prev.push_str(s),
            (Token::StringPart(""), _) => {}
            _ => tokens.push(t.to_owned_token()),
        }
    };
    let mut result = Ok(());
    // Repeated points make empty chunks, as vendors send.
    for w in points.windows(2) {
        result = p.feed(&doc[w[0]..w[1]], &mut sink);
        if result.is_err() {
            break;
        }
    }
    let result = result.and_then(|()| p.finish(&mut sink));
    (
        tokens,
        result.map(|()| builder.into_value().unwrap_or_default()),
    )
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![
        Just(Style::Compact),
        Just(Style::Pretty),
        Just(Style::Ascii)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn cut_anywhere_gives_serde_json_tokens_and_value(
        v in json_value(),
        style in style(),
        upper in any::<bool>(),
        cuts in prop::collection::vec(any::<usize>(), 0..24),
    ) {
        let doc = write(&v, style, upper);
        let mut expected = Vec::new();
        expected_tokens(&v, &mut expected);
        let oracle: serde_json::Value = serde_json::from_str(&doc).unwrap();

        for cuts in [&[][..], &cuts[..]] {
            let (tokens, value) = parse_cut(doc.as_bytes(), cuts);
            let value = value.unwrap_or_else(|e| panic!("{e} for {doc:?}"));
            prop_assert_eq!(&tokens, &expected, "{:?} cut at {:?}", doc, cuts);
            prop_assert_eq!(value.to_serde_json().unwrap(), oracle.clone());
            // Numbers keep their lexeme exactly: the compact form of the
            // value is serde_json's compact form of the same document.
            prop_assert_eq!(value.to_string(), serde_json::to_string(&v).unwrap());
        }
    }

    #[test]
    fn big_number_lexemes_are_kept_and_read_as_serde_json_reads_them(
        lexemes in prop::collection::vec(
            "-?(0|[1-9][0-9]{0,80})(\\.[0-9]{1,40})?([eE][+-]?[0-9]{1,5})?", 1..8),
        cuts in prop::collection::vec(any::<usize>(), 0..16),
    ) {
        let doc = format!("[{}]", lexemes.join(", "));
        let (tokens, value) = parse_cut(doc.as_bytes(), &cuts);
        let value = value.unwrap();
        let mut expected = vec![OwnedToken::ArrayBegin];
        expected.extend(lexemes.iter().map(|l| OwnedToken::Number(l.clone())));
        expected.push(OwnedToken::ArrayEnd);
        prop_assert_eq!(tokens, expected);
        for (n, lexeme) in value.as_array().unwrap().iter().zip(&lexemes) {
            let n = n.as_number().unwrap();
            prop_assert_eq!(n.as_str(), lexeme.as_str());
            // serde_json (no arbitrary_precision) reads it as u64, i64 or
            // f64, or refuses it as out of range: so do the accessors.
            match serde_json::from_str::<serde_json::Value>(lexeme) {
                Ok(j) => prop_assert_eq!(n.to_serde_json(), j.as_number().cloned()),
                Err(e) => {
                    prop_assert!(e.to_string().starts_with("number out of range"), "{}", e);
                    prop_assert_eq!(n.as_f64(), None);
                    prop_assert_eq!(n.to_serde_json(), None);
                }
            }
        }
    }

    #[test]
    fn every_proper_prefix_is_truncated_never_invalid(
        v in json_value(),
        style in style(),
        cuts in prop::collection::vec(any::<usize>(), 0..4),
    ) {
        // A container root, so no proper prefix is itself a document.
        let root = match v {
            v @ (serde_json::Value::Array(_) | serde_json::Value::Object(_)) => v,
            other => serde_json::json!({ "v": other }),
        };
        let doc = write(&root, style, false);
        let bytes = doc.as_bytes();
        // Every prefix for small documents, an even spread for large ones.
        let step = (bytes.len() / 300).max(1);
        for end in (0..bytes.len()).step_by(step) {
            let (_, result) = parse_cut(&bytes[..end], &cuts);
            let err = result.expect_err("a proper prefix was accepted");
            prop_assert_eq!(err.category(), Category::Truncated, "{:?}: {}", String::from_utf8_lossy(&bytes[..end]), err);
            prop_assert_eq!(err.offset(), end as u64);
        }
    }
}
