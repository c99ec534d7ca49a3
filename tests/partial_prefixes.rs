//! The partial-value contract, prefix by prefix: what the snapshot shows
//! after feeding a prefix (without `finish()`), fed whole and byte by byte.

use tooljson::Category;
use tooljson::partial::PartialParser;

/// (prefix, expected snapshot as compact JSON; "" = nothing visible yet)
const TABLE: &[(&str, &str)] = &[
    (r#"{"a": "hel"#, r#"{"a":"hel"}"#),
    (r#"{"a"#, "{}"),
    (r#"{"a""#, "{}"),
    (r#"{"a":"#, "{}"),
    (r#"{"a": 12"#, "{}"),
    (r#"{"a": 12."#, "{}"),
    (r#"{"a": 12.5"#, "{}"),
    (r#"{"a": 12,"#, r#"{"a":12}"#),
    (r#"{"a": -"#, "{}"),
    (r#"{"a": 1e-"#, "{}"),
    (r#"{"a": 1e-7}"#, r#"{"a":1e-7}"#),
    (r#"{"a": tru"#, "{}"),
    (r#"{"a": true"#, r#"{"a":true}"#),
    (r#"{"a": nul"#, "{}"),
    (r#"{"a": "x\"#, r#"{"a":"x"}"#),
    (r#"{"a": "x\u00"#, r#"{"a":"x"}"#),
    (r#"{"a": "x\u00e9"#, r#"{"a":"xé"}"#),
    (r#"{"a": "x\ud83d"#, r#"{"a":"x"}"#),
    (r#"{"a": "x\ud83d\u"#, r#"{"a":"x"}"#),
    (r#"{"a": "x\ud83d\ude00"#, r#"{"a":"x😀"}"#),
    ("{\"a\": \"x\u{e9}", r#"{"a":"xé"}"#),
    (r#"["a", "b", "c""#, r#"["a","b","c"]"#),
    (r#"["a", "b", "c"#, r#"["a","b","c"]"#),
    (r#"[1, 2"#, "[1]"),
    (r#"[1, 2,"#, "[1,2]"),
    (r#"[true, fa"#, "[true]"),
    (r#"[true, false"#, "[true,false]"),
    (r#"{"a": {"b": [{"c": ["#, r#"{"a":{"b":[{"c":[]}]}}"#),
    (
        r#"{"a": {"b": [{"c": [1, {"#,
        r#"{"a":{"b":[{"c":[1,{}]}]}}"#,
    ),
    (r#"{"a": 1,"#, r#"{"a":1}"#),
    (r#"{"a": 1, "#, r#"{"a":1}"#),
    (r#"{"a": 1, "b"#, r#"{"a":1}"#),
    (r#"[1,"#, "[1]"),
    (r#""top-lev"#, r#""top-lev""#),
    (r#""top-level""#, r#""top-level""#),
    ("12", ""),
    ("12 ", "12"),
    ("-0.5e+3 ", "-0.5e+3"),
    ("", ""),
    ("   ", ""),
    ("[", "[]"),
    ("{", "{}"),
    (r#"{"":"#, "{}"),
    (r#"{"": ""#, r#"{"":""}"#),
    (r#"{"a": [], "b": {}"#, r#"{"a":[],"b":{}}"#),
    (
        r#"{"path": "src/main.rs", "content": "fn main() {\n    println!(\"hi\");\n"#,
        r#"{"path":"src/main.rs","content":"fn main() {\n    println!(\"hi\");\n"}"#,
    ),
];

fn snapshot_after(prefix: &[u8], chunk: usize) -> String {
    let mut p = PartialParser::new();
    for c in prefix.chunks(chunk.max(1)) {
        p.feed(c, &mut ())
            .unwrap_or_else(|e| panic!("{:?}: {e}", String::from_utf8_lossy(prefix)));
    }
    p.snapshot().map(|n| n.to_string()).unwrap_or_default()
}

#[test]
fn prefixes_show_what_the_contract_says() {
    assert!(TABLE.len() >= 30);
    let mut failures = Vec::new();
    for (prefix, want) in TABLE {
        for chunk in [prefix.len(), 1, 3] {
            let got = snapshot_after(prefix.as_bytes(), chunk);
            if got != *want {
                failures.push(format!(
                    "{prefix:?} (chunk {chunk}): want {want:?}, got {got:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn complete_value_then_trailing_data() {
    let mut p = PartialParser::new();
    let err = p.feed(br#"{"a":1}{"a":2}"#, &mut ()).unwrap_err();
    assert_eq!(err.category(), Category::TrailingData);
    assert_eq!(err.offset(), 7);
    // The first value stays visible and complete; nothing of the second shows.
    let snap = p.snapshot().unwrap();
    assert!(snap.is_complete());
    assert_eq!(snap.to_string(), r#"{"a":1}"#);
}

#[test]
fn finish_turns_a_root_number_visible_and_truncation_is_an_error() {
    let mut p = PartialParser::new();
    p.feed(b"12", &mut ()).unwrap();
    assert!(p.snapshot().is_none());
    p.finish(&mut ()).unwrap();
    assert_eq!(p.value().unwrap().to_string(), "12");

    let mut p = PartialParser::new();
    p.feed(br#"{"a": "unfinished"#, &mut ()).unwrap();
    let err = p.finish(&mut ()).unwrap_err();
    assert_eq!(err.category(), Category::Truncated);
    assert!(
        p.value().is_none(),
        "a truncated document has no final value"
    );
    assert_eq!(p.snapshot().unwrap().to_string(), r#"{"a":"unfinished"}"#);
}

#[test]
fn completeness_is_per_node() {
    let mut p = PartialParser::new();
    p.feed(br#"{"done": [1, 2], "open": [3, "fo"#, &mut ())
        .unwrap();
    let snap = p.snapshot().unwrap();
    assert!(!snap.is_complete());
    assert!(snap.get("done").unwrap().is_complete());
    let open = snap.get("open").unwrap();
    assert!(!open.is_complete());
    let tooljson::partial::NodeRef::Partial(open) = open else {
        panic!("open node is partial")
    };
    assert!(open.item(0).unwrap().is_complete());
    assert_eq!(open.item(1).unwrap().as_str(), Some("fo"));
    assert!(!open.item(1).unwrap().is_complete());
}

#[test]
fn typed_preview_of_option_fields() {
    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct WriteFile {
        path: Option<String>,
        content: Option<String>,
        overwrite: Option<bool>,
    }
    let mut p = PartialParser::new();
    p.feed(br#"{"path": "a.txt", "content": "partial text"#, &mut ())
        .unwrap();
    let preview: WriteFile =
        serde_json::from_value(p.snapshot().unwrap().to_complete_members_json()).unwrap();
    assert_eq!(
        preview,
        WriteFile {
            path: Some("a.txt".into()),
            content: None,
            overwrite: None
        }
    );
    p.feed(br#"", "overwrite": true}"#, &mut ()).unwrap();
    p.finish(&mut ()).unwrap();
    let done: WriteFile = p.value().unwrap().deserialize_into().unwrap();
    assert_eq!(done.content.as_deref(), Some("partial text"));
    assert_eq!(done.overwrite, Some(true));
    // Snapshots serialize with serde too, e.g. to send on to a UI.
    let mut p = PartialParser::new();
    p.feed(br#"{"q": "rust stre"#, &mut ()).unwrap();
    assert_eq!(
        serde_json::to_string(p.snapshot().unwrap()).unwrap(),
        r#"{"q":"rust stre"}"#
    );
}
