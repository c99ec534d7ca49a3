//! Constrained decoding of the formats with hand-built automata
//! (`date-time`, `time`, `uri`, `uri-reference`, `ipv6`, `hostname`,
//! `email`) and the new regular forms (`duration`, `json-pointer`,
//! `relative-json-pointer`) through the public API:
//! instances accepted byte by byte exactly when `validate` accepts them,
//! escapes and code points split across tokens, `minLength` / `maxLength`
//! with a format (exact: every prefix of a valid instance in the window is
//! viable, and a viable prefix's shortest completion validates), random
//! samples always valid.
use crate::common::decode_data::refused_at;

use tooljson::decode::{Constraint, Sampler, Vocabulary};
use tooljson::{CompiledSchema, Value};

/// Every single byte, a few format-shaped tokens, and the end of sequence.
fn vocab() -> Vocabulary {
    let mut t: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    for w in [
        "\"20", "-0", "T1", ":00", "Z\"", "+01:00", "https", "://", ".com", "/a", "?q=", "#f",
        "\\u00", "\\/", "[::", "]:", "%2",
    ] {
        t.push(w.as_bytes().to_vec());
    }
    t.push(Vec::new());
    let eos = t.len() as u32 - 1;
    Vocabulary::from_bytes(t, vec![eos]).unwrap()
}

fn schema(format: &str, bounds: &str) -> CompiledSchema {
    let text = format!(r#"{{"type": "string", "format": "{format}"{bounds}}}"#);
    CompiledSchema::builder()
        .assert_formats(true)
        .build_str(&text)
        .unwrap()
}

fn json(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

const CASES: &[(&str, &[&str])] = &[
    (
        "date-time",
        &[
            "1998-12-31T23:59:60Z",
            "1998-12-31T23:58:60Z",
            "1990-12-31T15:59:60-08:00",
            "1990-12-31T15:59:60+08:00",
            "2000-02-29t00:00:00.000001z",
            "1900-02-29T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-01-01T24:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01T00:00:00+0100",
            "2024-01-01 00:00:00Z",
            "",
        ],
    ),
    (
        "time",
        &[
            "23:59:60Z",
            "08:30:00.5+05:30",
            "08:30:00",
            "8:30:00Z",
            "12:00:00-24:00",
        ],
    ),
    (
        "uri",
        &[
            "https://user:pw@example.com:8080/a/b?q=1#frag",
            "urn:isbn:0451450523",
            "s://[::ffff:1.2.3.4]:1/p",
            "s://[v7.a:b]/",
            "s://[1::2::3]/",
            "s://h:8a/",
            "s://a@b@c/",
            "a:%4",
            "a:%41",
            "//example.com",
            "1a:b",
            "a:b c",
            "",
        ],
    ),
    (
        "email",
        &[
            "joe@example.com",
            "a.b+c@x-y.z",
            "\"j\\\"o e\"@h",
            "\"a@b\"@h",
            "u@[1.2.3.4]",
            "u@[IPv6:::1]",
            "u@[ipv6:1:2:3:4:5:6:7:8]",
            "joe",
            "joe@",
            "@h",
            "a..b@h",
            ".a@h",
            "a.@h",
            "a@-h",
            "a@h-",
            "a@h..c",
            "a@[1.2.3]",
            "a@[IPv6:1]",
            "a b@h",
        ],
    ),
    (
        "hostname",
        &[
            "example.com",
            "a",
            "a-b.c0",
            "-a",
            "a-",
            "a..b",
            "a.",
            "a_b",
            "ab--c",
            "",
        ],
    ),
    (
        "ipv6",
        &[
            "::",
            "::1",
            "fe80::1:2",
            "::ffff:1.2.3.4",
            "1:2:3:4:5:6:7:8",
            "1:2:3:4:5:6:7",
            "1::2::3",
            ":1::",
            "1.2.3.4",
            "12345::",
            "",
        ],
    ),
    (
        "duration",
        &[
            "P1Y", "P1Y2M3D", "PT1H3S", "P1W", "P1Y3D", "P1DT", "PT", "P", "P1W2D",
        ],
    ),
    ("json-pointer", &["", "/a/b", "/~0~1", "a", "/~2", "/~"]),
    (
        "relative-json-pointer",
        &["0", "1#", "10/a", "01", "#", "0/~"],
    ),
    (
        "uri-reference",
        &[
            "",
            "//example.com/p?q#f",
            "./a:b",
            "a:b",
            "a@b:c",
            "?q",
            "#f#g",
            "%zz",
        ],
    ),
];

#[test]
fn instances_are_taken_exactly_when_they_validate() {
    let v = vocab();
    let mut checked = 0;
    for (format, texts) in CASES {
        let s = schema(format, "");
        let c = Constraint::new(&s, &v).unwrap();
        for t in *texts {
            let valid = s.is_valid(&Value::from(t.to_string()));
            let text = json(t);
            assert_eq!(
                refused_at(&c, text.as_bytes()).is_none(),
                valid,
                "{format} {text}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 38 + 19 + 10 + 11 + 9 + 6 + 6);
}

#[test]
fn escapes_and_split_code_points_are_followed() {
    let v = vocab();
    let c = Constraint::new(&schema("date-time", ""), &v).unwrap();
    let ok = br#""\u0032\u00300\u0030-01-01T00:00:00Z""#;
    assert_eq!(refused_at(&c, ok), None);
    // `\u00e` can only become a non-ASCII character: refused at its `e`.
    assert_eq!(refused_at(&c, br#""2\u00e9"#), Some(6));
    // UTF-8 is refused at its lead byte.
    assert_eq!(refused_at(&c, "\"2é".as_bytes()), Some(2));
    let u = Constraint::new(&schema("uri", ""), &v).unwrap();
    assert_eq!(refused_at(&u, br#""a:\/\/h\/p""#), None);
    // `\"` and `\\` are no URI characters.
    assert_eq!(refused_at(&u, br#""a:\""#), Some(4));
    assert_eq!(refused_at(&u, br#""a:\\""#), Some(4));
    // A forced completion after a pending escape.
    let mut m = u.matcher();
    m.commit_bytes(br#""a:\u00"#).unwrap();
    let rest = m.shortest_completion();
    let whole = [br#""a:\u00"#.as_slice(), &rest].concat();
    let val = tooljson::from_slice(&whole).unwrap();
    assert!(
        schema("uri", "").is_valid(&val),
        "{}",
        String::from_utf8_lossy(&whole)
    );
}

/// Instances of many lengths (the valid ones kept), for the length
/// windows.
fn pool(format: &str) -> Vec<String> {
    let mut out = Vec::new();
    match format {
        "date-time" | "time" => {
            for frac in ["", ".5", ".25", ".125", ".0000001"] {
                for off in ["Z", "+01:30", "-00:00"] {
                    let t = format!("23:59:59{frac}{off}");
                    out.push(if format == "time" {
                        t
                    } else {
                        format!("2024-02-29T{t}")
                    });
                }
            }
        }
        "email" | "hostname" | "ipv6" => {
            let (pre, post) = match format {
                "email" => ("a", "@b.c"),
                "hostname" => ("a", ".b"),
                _ => ("1::", ":2"),
            };
            for pad in 0..6 {
                out.push(format!("{pre}{}{post}", "1".repeat(pad)));
                out.push(format!("{pre}{}", "1".repeat(pad)));
                out.push(format!("{}{post}", "1".repeat(pad)));
            }
        }
        _ => {
            for s in [
                "a:",
                "ab:",
                "a:b",
                "a:/",
                "s://h",
                "s://h:1",
                "s://[::]",
                "s://[::1]/p?q#f",
            ] {
                for pad in 0..4 {
                    out.push(format!("{s}{}", "0".repeat(pad)));
                }
            }
            if format == "uri-reference" {
                out.extend(["", "a", "ab", "/"].map(String::from));
            }
        }
    }
    out
}

#[test]
fn length_bounds_with_a_format_are_exact() {
    let v = vocab();
    let mut prefixes = 0;
    for format in [
        "date-time",
        "time",
        "uri",
        "uri-reference",
        "email",
        "hostname",
        "ipv6",
    ] {
        let any = schema(format, "");
        let pool: Vec<String> = pool(format)
            .into_iter()
            .filter(|p| any.is_valid(&Value::from(p.as_str())))
            .collect();
        assert!(pool.len() >= 9, "{format}: {pool:?}");
        for (min, max) in [
            (0, 2),
            (2, 3),
            (9, 9),
            (10, 10),
            (11, 12),
            (20, 21),
            (21, 21),
            (22, 22),
            (25, 30),
            (3, 100),
        ] {
            let s = schema(
                format,
                &format!(r#", "minLength": {min}, "maxLength": {max}"#),
            );
            // A window no instance fits: nothing to write.
            let empty = match format {
                "date-time" => (min..=max).all(|l| l < 20 || l == 21),
                "time" => (min..=max).all(|l| l < 9 || l == 10),
                "uri" | "ipv6" => max < 2,
                "email" => max < 3,
                _ => max < 1,
            };
            let c = match Constraint::new(&s, &v) {
                Ok(c) => c,
                Err(e) => {
                    assert!(empty, "{format} {min}..={max}: {e}");
                    continue;
                }
            };
            assert_eq!(
                refused_at(&c, b"\"") == Some(0),
                empty,
                "{format} {min}..={max}"
            );
            let fits: Vec<&String> = pool
                .iter()
                .filter(|p| (min..=max).contains(&p.chars().count()))
                .collect();
            for p in &pool {
                let text = json(p);
                let want = s.is_valid(&Value::from(p.to_string()));
                assert_eq!(want, fits.contains(&p), "{format} {p:?}");
                assert_eq!(
                    refused_at(&c, text.as_bytes()).is_none(),
                    want,
                    "{format} {min}..={max} {p:?}"
                );
            }
            // Every prefix of an instance that fits is viable, and its
            // shortest completion validates.
            for p in &fits {
                let text = json(p);
                for cut in 0..text.len() {
                    let mut m = c.matcher();
                    m.commit_bytes(&text.as_bytes()[..cut]).unwrap();
                    let whole = [&text.as_bytes()[..cut], &m.shortest_completion()].concat();
                    let val = tooljson::from_slice(&whole).unwrap();
                    assert!(
                        s.is_valid(&val),
                        "{format} {min}..={max}: {}",
                        String::from_utf8_lossy(&whole)
                    );
                    prefixes += 1;
                }
            }
        }
    }
    assert!(prefixes > 1000, "{prefixes}");
}

#[test]
fn samples_are_valid() {
    let v = vocab();
    for (format, bounds) in [
        ("date-time", ""),
        ("time", r#", "maxLength": 12"#),
        ("uri", ""),
        ("uri", r#", "minLength": 10, "maxLength": 12"#),
        ("uri-reference", ""),
        ("email", ""),
        ("email", r#", "maxLength": 12"#),
        ("hostname", ""),
        ("hostname", r#", "minLength": 5, "maxLength": 7"#),
        ("ipv6", ""),
        ("ipv6", r#", "minLength": 20"#),
        ("duration", ""),
    ] {
        let s = schema(format, bounds);
        let c = Constraint::new(&s, &v).unwrap();
        let mut sampler = Sampler::new(&c, 11, 60);
        for _ in 0..200 {
            let out = sampler.sample().unwrap();
            let val = tooljson::from_slice(&out.text).unwrap();
            assert!(
                s.is_valid(&val),
                "{format}{bounds}: {}",
                String::from_utf8_lossy(&out.text)
            );
        }
    }
}

/// Formats are asserted by default, whether or not the schema asserts
/// them; `DecodeOptions::formats_as_annotations` leaves the schema's
/// annotations unconstrained; the formats the format checker does not
/// know are refused, naming the reason, and unknown names stay
/// annotations.
#[test]
fn formats_are_asserted_by_default_and_annotations_on_request() {
    use tooljson::decode::DecodeOptions;
    let v = vocab();
    let asserted = schema("email", "");
    let annotated =
        CompiledSchema::from_json_str(r#"{"type": "string", "format": "email"}"#).unwrap();
    let bad = json("not an email");
    for s in [&asserted, &annotated] {
        let c = Constraint::new(s, &v).unwrap();
        assert!(refused_at(&c, bad.as_bytes()).is_some());
        assert_eq!(refused_at(&c, json("joe@example.com").as_bytes()), None);
        // Every sample holds the format as the checker asserts it.
        let mut sampler = Sampler::new(&c, 3, 40);
        for _ in 0..50 {
            let out = sampler.sample().unwrap();
            let val = tooljson::from_slice(&out.text).unwrap();
            assert!(
                asserted.is_valid(&val),
                "{}",
                String::from_utf8_lossy(&out.text)
            );
        }
    }
    let opts = DecodeOptions::formats_as_annotations();
    let c = Constraint::with_options(&annotated, &v, &opts).unwrap();
    assert_eq!(refused_at(&c, bad.as_bytes()), None);
    // A schema that asserts its formats keeps them asserted.
    let c = Constraint::with_options(&asserted, &v, &opts).unwrap();
    assert!(refused_at(&c, bad.as_bytes()).is_some());
    // An enum option that breaks the format is left out.
    let e = CompiledSchema::from_json_str(r#"{"enum": ["x", "a@b"], "format": "email"}"#).unwrap();
    let c = Constraint::new(&e, &v).unwrap();
    assert!(refused_at(&c, br#""x""#).is_some());
    assert_eq!(refused_at(&c, br#""a@b""#), None);
    for name in ["idn-email", "idn-hostname", "iri", "iri-reference"] {
        let s =
            CompiledSchema::from_json_str(&format!(r#"{{"type": "string", "format": "{name}"}}"#))
                .unwrap();
        let err = Constraint::new(&s, &v).unwrap_err();
        assert_eq!(err.keyword(), Some("format"), "{name}");
        assert!(err.to_string().contains(name), "{err}");
        assert!(Constraint::with_options(&s, &v, &opts).is_ok());
    }
    let s = CompiledSchema::from_json_str(r#"{"type": "string", "format": "int32"}"#).unwrap();
    let c = Constraint::new(&s, &v).unwrap();
    assert_eq!(refused_at(&c, br#""anything""#), None);
}
