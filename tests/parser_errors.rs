//! The parser's error messages as a table of exact strings (serde_json's
//! wording where it has one, plus what was found and the path), each with
//! its category and byte offset, checked fed whole, byte by byte and in
//! chunks of 2, 3 and 7 bytes: the same error at the same position every time.
//! Where serde_json reports the same problem, the line and column agree
//! with its message too (marked `sj` in the table).

use tooljson::{Category, DuplicateKeys, Error, Limits, Parser};

use Category::{Invalid, LimitExceeded, TrailingData, Truncated};

struct Case {
    doc: &'static [u8],
    limits: Limits,
    policy: DuplicateKeys,
    message: &'static str,
    category: Category,
    offset: u64,
    /// serde_json rejects it at the same line and column.
    sj: bool,
}

const fn case(
    doc: &'static [u8],
    message: &'static str,
    category: Category,
    offset: u64,
    sj: bool,
) -> Case {
    Case {
        doc,
        limits: DEFAULT,
        policy: DuplicateKeys::LastWins,
        message,
        category,
        offset,
        sj,
    }
}

const DEFAULT: Limits = Limits {
    max_depth: 128,
    max_input_bytes: 64 << 20,
    max_string_bytes: 16 << 20,
    max_number_bytes: 4096,
};

const fn limited(mut c: Case, limits: Limits) -> Case {
    c.limits = limits;
    c
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    // Truncated: the input ended inside the value.
    case(b"", "EOF while parsing a value at line 1 column 0", Truncated, 0, true),
    case(b"  \n ", "EOF while parsing a value at line 2 column 1", Truncated, 4, true),
    case(br#"{"a": [1, 2"#, "EOF while parsing a list at line 1 column 11 (at /a/1)", Truncated, 11, true),
    case(br#"{"a": "hel"#, "EOF while parsing a string at line 1 column 10 (at /a)", Truncated, 10, true),
    case(br#"{"a""#, "EOF while parsing an object at line 1 column 4 (at /a)", Truncated, 4, true),
    case(br#"{"a":"#, "EOF while parsing a value at line 1 column 5 (at /a)", Truncated, 5, true),
    case(b"[tr", "EOF while parsing a value at line 1 column 3 (at /0)", Truncated, 3, true),
    case(b"[1.", "EOF while parsing a value at line 1 column 3 (at /0)", Truncated, 3, true),
    case(b"\"\\u00", "EOF while parsing a string at line 1 column 5", Truncated, 5, true),
    case(b"\"\\ud83d", "EOF while parsing a string at line 1 column 7", Truncated, 7, true),
    case(b"\"\xc3", "EOF while parsing a string at line 1 column 2", Truncated, 2, true),
    case(b"{\n  \"a\": {\n    \"b\": [", "EOF while parsing a list at line 3 column 10 (at /a/b/0)", Truncated, 21, true),
    // Invalid: expected / found.
    case(br#"{"a" 1}"#, "expected ':', found '1' at line 1 column 6 (at /a)", Invalid, 5, true),
    case(br#"{"abc" 1}"#, "expected ':', found '1' at line 1 column 8 (at /abc)", Invalid, 7, true),
    case(b"[1,]", "expected value, found ']' at line 1 column 4 (at /1)", Invalid, 3, true),
    case(b"{,}", "expected string key or '}', found ',' at line 1 column 2", Invalid, 1, true),
    case(br#"{"a":1,}"#, "expected string key, found '}' at line 1 column 8", Invalid, 7, true),
    case(b"[1 2]", "expected ',' or ']', found '2' at line 1 column 4 (at /0)", Invalid, 3, true),
    case(b"{\"a\":1 \"b\":2}", "expected ',' or '}', found '\"' at line 1 column 8 (at /a)", Invalid, 7, true),
    case(b"[\"a\"\n:1]", "expected ',' or ']', found ':' at line 2 column 1 (at /0)", Invalid, 5, true),
    case(b"{1:2}", "expected string key or '}', found '1' at line 1 column 2", Invalid, 1, true),
    case(b"[01]", "expected end of number, found '1' at line 1 column 3 (at /0)", Invalid, 2, true),
    case(b"[1.e5]", "expected digit, found 'e' at line 1 column 4 (at /0)", Invalid, 3, true),
    case(b"[-]", "expected digit, found ']' at line 1 column 3 (at /0)", Invalid, 2, true),
    case(b"[1e+]", "expected digit, found ']' at line 1 column 5 (at /0)", Invalid, 4, true),
    case(b"[truE]", "expected 'true', found 'E' at line 1 column 5 (at /0)", Invalid, 4, true),
    case(b"[NaN]", "expected value, found 'N' at line 1 column 2 (at /0)", Invalid, 1, true),
    case(b"'a'", "expected value, found \"'\" at line 1 column 1", Invalid, 0, true),
    case(b"\xef\xbb\xbf{}", "expected value, found byte 0xef at line 1 column 1", Invalid, 0, true),
    case(b"{\n  \"a\": [1,\n    x]}", "expected value, found 'x' at line 3 column 5 (at /a/1)", Invalid, 17, true),
    // serde_json calls `12a` trailing characters; here a word glued to a
    // number is a malformed number, in the root as in an array.
    case(b"12a", "expected end of number, found 'a' at line 1 column 3", Invalid, 2, true),
    case(b"[\"a\x01\"]", "control character (\\u0000-\\u001F) found while parsing a string: U+0001 at line 1 column 4 (at /0)", Invalid, 3, true),
    case(b"[\"\\x\"]", "expected escape character (one of \" \\ / b f n r t u), found 'x' at line 1 column 4 (at /0)", Invalid, 3, true),
    // serde_json points one column later, past the escape.
    case(b"[\"\\u12G4\"]", "expected hex digit, found 'G' at line 1 column 7 (at /0)", Invalid, 6, false),
    // Surrogates: a high half not followed by a low one, a low half alone.
    case(b"[\"\\ud800\"]", "lone surrogate \\ud800 in string at line 1 column 9 (at /0)", Invalid, 8, true),
    case(b"[\"\\udc00\"]", "lone surrogate \\udc00 in string at line 1 column 8 (at /0)", Invalid, 7, true),
    case(b"[\"\\ud800\\u0041\"]", "lone surrogate \\ud800 in string at line 1 column 14 (at /0)", Invalid, 13, true),
    // UTF-8: a stray byte, an overlong '/', an encoded surrogate.
    case(b"[\"a\xff\"]", "invalid UTF-8 in string at line 1 column 4 (at /0)", Invalid, 3, true),
    case(b"\"\xc0\xaf\"", "invalid UTF-8 in string at line 1 column 2", Invalid, 1, true),
    case(b"\"\xed\xa0\x80\"", "invalid UTF-8 in string at line 1 column 2", Invalid, 1, true),
    // Trailing data.
    case(br#"{"a":1}{"a":2}"#, "trailing characters after the root value, found '{' at line 1 column 8", TrailingData, 7, true),
    case(b"1 2", "trailing characters after the root value, found '2' at line 1 column 3", TrailingData, 2, true),
    case(b"[1]]", "trailing characters after the root value, found ']' at line 1 column 4", TrailingData, 3, true),
    case(b"[]\n\n x", "trailing characters after the root value, found 'x' at line 3 column 2", TrailingData, 5, true),
    case(b"nullx", "trailing characters after the root value, found 'x' at line 1 column 5", TrailingData, 4, true),
    // Limits, each at the first byte past it.
    limited(case(b"[[[1]]]", "nesting depth limit of 2 exceeded at line 1 column 3 (at /0/0)", LimitExceeded, 2, false),
        Limits { max_depth: 2, ..DEFAULT }),
    limited(case(br#"{"a":[1,2,3]}"#, "input length limit of 8 exceeded at line 1 column 9 (at /a/1)", LimitExceeded, 8, false),
        Limits { max_input_bytes: 8, ..DEFAULT }),
    limited(case(br#"{"key":"abcdef"}"#, "string length limit of 4 exceeded at line 1 column 13 (at /key)", LimitExceeded, 12, false),
        Limits { max_string_bytes: 4, ..DEFAULT }),
    limited(case(br#"{"long-key":1}"#, "string length limit of 4 exceeded at line 1 column 7", LimitExceeded, 6, false),
        Limits { max_string_bytes: 4, ..DEFAULT }),
    limited(case(br#"["\u00e9\u00e9\u00e9"]"#, "string length limit of 5 exceeded at line 1 column 20 (at /0)", LimitExceeded, 19, false),
        Limits { max_string_bytes: 5, ..DEFAULT }),
    limited(case(br#"[1, 123456]"#, "number length limit of 4 exceeded at line 1 column 9 (at /1)", LimitExceeded, 8, false),
        Limits { max_number_bytes: 4, ..DEFAULT }),
    Case { policy: DuplicateKeys::Error, ..case(br#"{"a":1,"a":2}"#, "duplicate key \"a\" at line 1 column 10 (at /a)", Invalid, 9, false) },
];

fn parse(c: &Case, chunk: usize) -> Error {
    let mut p = Parser::with_limits(c.limits);
    p.set_duplicate_keys(c.policy);
    for piece in c.doc.chunks(chunk.max(1)) {
        if let Err(e) = p.feed(piece, &mut ()) {
            return e;
        }
    }
    p.finish(&mut ()).expect_err("document was accepted")
}

#[test]
fn error_table_fed_whole_and_in_pieces() {
    let mut failures = Vec::new();
    for c in CASES {
        let shown = String::from_utf8_lossy(c.doc);
        for chunk in [c.doc.len(), 1, 2, 3, 7] {
            let e = parse(c, chunk);
            let got = (e.to_string(), e.category(), e.offset());
            let want = (c.message.to_owned(), c.category, c.offset);
            if got != want {
                failures.push(format!(
                    "{shown:?} in chunks of {chunk}: got {got:?}, want {want:?}"
                ));
            }
            // Line and column agree with the offset on this input.
            let before = &c.doc[..(e.offset() as usize).min(c.doc.len())];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u64;
            assert_eq!(e.line(), line, "{shown:?}: line");
        }
        if c.sj {
            let sj = serde_json::from_slice::<serde_json::Value>(c.doc)
                .expect_err("serde_json accepted an error case");
            let suffix = format!(
                "at line {} column {}",
                parse(c, c.doc.len()).line(),
                parse(c, c.doc.len()).column()
            );
            assert!(
                sj.to_string().ends_with(&suffix),
                "{shown:?}: serde_json says {sj}, we say {suffix}"
            );
            assert_eq!(
                sj.is_eof(),
                c.category == Truncated,
                "{shown:?}: EOF vs {sj}"
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_category_is_in_the_table() {
    for cat in [Truncated, Invalid, TrailingData, LimitExceeded] {
        assert!(CASES.iter().any(|c| c.category == cat), "{cat:?} missing");
    }
}

#[test]
fn misuse_after_finish_is_its_own_error() {
    let mut p = Parser::new();
    p.feed(b"[1]", &mut ()).unwrap();
    p.finish(&mut ()).unwrap();
    let e = p.feed(b" ", &mut ()).unwrap_err();
    assert_eq!(e.category(), Category::Misuse);
    assert_eq!(
        e.to_string(),
        "parser used after finish() at line 1 column 4"
    );
    assert_eq!(e.offset(), 3);
    let e = p.finish(&mut ()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "parser used after finish() at line 1 column 4"
    );
    assert!(e.is_misuse());
    // Even an empty chunk after finish is misuse.
    assert!(p.feed(b"", &mut ()).unwrap_err().is_misuse());
    // After reset the parser takes a new document.
    p.reset();
    p.feed(b"{}", &mut ()).unwrap();
    p.finish(&mut ()).unwrap();
}

#[test]
fn an_error_is_sticky_and_finish_does_not_mask_it() {
    for c in CASES {
        let first = parse(c, 1);
        let mut p = Parser::with_limits(c.limits);
        p.set_duplicate_keys(c.policy);
        let _ = p.feed(c.doc, &mut ());
        let _ = p.finish(&mut ());
        // Whatever happened first is what every later call reports.
        assert_eq!(p.feed(b"]", &mut ()).unwrap_err(), first);
        assert_eq!(p.finish(&mut ()).unwrap_err(), first);
        assert_eq!(p.error(), Some(&first));
    }
}
