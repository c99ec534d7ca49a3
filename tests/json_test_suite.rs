//! JSONTestSuite conformance: every `y_` accepted, every `n_` rejected, each
//! `i_` decided as the README lists, identically whole, in chunks of 1 to 8
//! bytes, and split at pseudo-random points.

use crate::common;

use tooljson::{Category, Error, Parser, Value, ValueBuilder};

fn parse_chunked(bytes: &[u8], sizes: &mut dyn FnMut() -> usize) -> Result<Value, Error> {
    let mut p = Parser::new();
    let mut b = ValueBuilder::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let k = sizes().clamp(1, rest.len());
        p.feed(&rest[..k], &mut b)?;
        rest = &rest[k..];
        p.feed(b"", &mut b)?;
    }
    p.finish(&mut b)?;
    Ok(b.into_value().expect("finish Ok means a root value"))
}

/// The decisions for the implementation-defined cases, as the README lists them.
fn i_decision(name: &str) -> bool {
    // Accepted: numbers of any size or exponent (kept as lexemes), and
    // non-ASCII structure that is valid UTF-8 inside strings.
    const ACCEPT: &[&str] = &[
        "i_number_double_huge_neg_exp.json",
        "i_number_huge_exp.json",
        "i_number_neg_int_huge_exp.json",
        "i_number_pos_double_huge_exp.json",
        "i_number_real_neg_overflow.json",
        "i_number_real_pos_overflow.json",
        "i_number_real_underflow.json",
        "i_number_too_big_neg_int.json",
        "i_number_too_big_pos_int.json",
        "i_number_very_big_negative_int.json",
        "i_structure_500_nested_arrays.json",
    ];
    if name == "i_structure_500_nested_arrays.json" {
        // 500 levels exceed the default depth limit of 128: a limit error.
        return false;
    }
    ACCEPT.contains(&name)
}

struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
}

#[test]
fn json_test_suite() {
    let dir = common::testdata("JSONTestSuite/test_parsing");
    let files = common::files_in(&dir);
    let (mut y, mut n, mut i) = (0, 0, 0);
    let mut failures = Vec::new();
    for (name, bytes) in &files {
        let whole = tooljson::from_slice(bytes);
        let expect_ok = match name.as_bytes()[0] {
            b'y' => {
                y += 1;
                true
            }
            b'n' => {
                n += 1;
                false
            }
            b'i' => {
                i += 1;
                i_decision(name)
            }
            _ => continue,
        };
        if whole.is_ok() != expect_ok {
            failures.push(format!("{name}: expected ok={expect_ok}, got {whole:?}"));
            continue;
        }
        // Accepted documents equal serde_json's reading where serde_json accepts.
        #[cfg(feature = "serde_json")]
        if let (Ok(v), Ok(j)) = (&whole, serde_json::from_slice::<serde_json::Value>(bytes))
            && v.to_serde_json().as_ref() != Ok(&j)
        {
            failures.push(format!("{name}: value differs from serde_json"));
        }
        for size in 1..=8 {
            let got = parse_chunked(bytes, &mut || size);
            if got != whole {
                failures.push(format!(
                    "{name}: chunk size {size} gave {got:?}, whole gave {whole:?}"
                ));
            }
        }
        let mut rng = Lcg(name.len() as u64 * 7919 + bytes.len() as u64);
        for _ in 0..4 {
            let got = parse_chunked(bytes, &mut || rng.next() % 13 + 1);
            if got != whole {
                failures.push(format!(
                    "{name}: random split gave {got:?}, whole gave {whole:?}"
                ));
            }
        }
    }
    assert_eq!((y, n, i), (95, 188, 35), "suite counts changed");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn opening_arrays_hit_the_depth_limit() {
    let dir = common::testdata("JSONTestSuite/test_parsing");
    let bytes = std::fs::read(dir.join("n_structure_100000_opening_arrays.json")).unwrap();
    let err = tooljson::from_slice(&bytes).unwrap_err();
    assert_eq!(err.category(), Category::LimitExceeded);
    assert_eq!(err.offset(), 128);
    assert_eq!(
        err.to_string().split(" at ").next(),
        Some("nesting depth limit of 128 exceeded")
    );
}
