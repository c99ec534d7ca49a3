//! The mask against its definition on a real vocabulary (o200k): after
//! each prefix of some instances, a token is allowed exactly when
//! committing it succeeds (the matcher steps byte by byte through the
//! reference automaton; the mask walks the token trie with its shortcuts:
//! precomputed sets, plain tokens under a pattern that any text keeps
//! viable, and subtrees whose characters leave a pattern's state as it is).
//! Schemas: strings under `uri`, `date-time`, anchored and unanchored
//! patterns, bounded lengths, and free keys.

use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, Tokenizer};

/// Every prefix cut at each byte of `text`; each mask checked against
/// committing every token.
fn check(tok: &Tokenizer, schema: &str, text: &str) -> usize {
    let schema = CompiledSchema::builder()
        .assert_formats(true)
        .build_value(&tooljson::from_slice(schema.as_bytes()).unwrap())
        .unwrap();
    let vocab = tok.vocabulary();
    let c = Constraint::new(&schema, vocab).unwrap_or_else(|e| panic!("{e}"));
    let mut mask = vec![0u64; vocab.mask_words()];
    let mut checked = 0;
    for cut in 0..=text.len() {
        let mut m = c.matcher();
        m.commit_bytes(&text.as_bytes()[..cut])
            .unwrap_or_else(|e| panic!("prefix {:?}: {e}", &text.as_bytes()[..cut]));
        m.fill_mask(&mut mask);
        for id in 0..vocab.len() as u32 {
            let allowed = mask[id as usize / 64] >> (id % 64) & 1 == 1;
            let commits = m.clone().commit_token(id).is_ok();
            assert_eq!(
                allowed,
                commits,
                "after {:?}, token {id} {:?}: mask {allowed}, commit {commits}",
                String::from_utf8_lossy(&text.as_bytes()[..cut]),
                String::from_utf8_lossy(vocab.token_bytes(id))
            );
        }
        checked += 1;
    }
    checked
}

#[test]
fn masks_equal_commits_under_patterns_and_formats() {
    let tok = Tokenizer::o200k().unwrap();
    let cases = [
        (
            r#"{"type": "object", "properties": {"uri": {"type": "string", "format": "uri"}}, "required": ["uri"], "additionalProperties": false}"#,
            r#"{"uri":"https://ex.com:8080/a/b?q=1#f"}"#,
        ),
        (
            r#"{"type": "string", "format": "date-time"}"#,
            r#""2024-02-29T23:59:60.5+00:00""#,
        ),
        (
            r#"{"type": "string", "pattern": "[a-f0-9]{4}"}"#,
            r#""xyz 0a9fq""#,
        ),
        (
            r#"{"type": "string", "pattern": "^[A-Z][a-z]+( [A-Z][a-z]+)*$"}"#,
            r#""Ada Lovelace""#,
        ),
        (
            r#"{"type": "string", "pattern": "^[a-z_]+$", "maxLength": 12}"#,
            r#""snake_case""#,
        ),
        (
            r#"{"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}}, "additionalProperties": {"type": "integer"}}"#,
            r#"{"a":"xy","zz":12}"#,
        ),
        (
            // Free after the first character (no `$`), length bounded.
            r#"{"type": "string", "pattern": "^[A-Za-z][A-Za-z0-9_]*", "minLength": 1, "maxLength": 18}"#,
            r#""Temperature_1 x""#,
        ),
        (
            // Named keys among free ones, a second free key, `minLength`
            // on a string with room for any token.
            r#"{"type": "object", "properties": {"name": {"type": "string", "minLength": 3}, "id": {"type": "string"}}, "required": ["name"]}"#,
            r#"{"id":"ab","name":"xyz","x":"q","y":[1]}"#,
        ),
    ];
    let mut prefixes = 0;
    for (schema, text) in cases {
        prefixes += check(&tok, schema, text);
    }
    eprintln!("{prefixes} prefixes, each mask checked against every o200k token");
    assert!(prefixes > 100);
}
