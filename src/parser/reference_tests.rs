//! The fast [`Parser`] against the plain byte-at-a-time [`ReferenceParser`]:
//! the same tokens (string parts merged, as where a string is cut between
//! parts depends on the chunking; every other token with its offset and
//! path) and the same error (code, offset, line, column, path), on every
//! JSONTestSuite file, every file under `corpus/` and random documents and
//! JSON-ish bytes, each fed whole, cut at random points and byte by byte,
//! into sinks that take strings as pieces, into a buffer, or with exact
//! offsets, under the default limits and small ones.

use std::path::{Path, PathBuf};

use proptest::prelude::*;

use super::reference::ReferenceParser;
use crate::parser::Location;
use crate::{DuplicateKeys, Error, Limits, OwnedToken, Parser, Token, TokenSink};

/// How the sink takes string text: the three ways the fast parser hands it
/// on take different paths through it.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// `StringPart`s only.
    Pieces,
    /// A buffer offered through `TokenSink::string_bytes`.
    Buffer,
    /// Exact piece offsets asked from this many decoded bytes on.
    Exact(usize),
}

const MODES: [Mode; 4] = [Mode::Pieces, Mode::Buffer, Mode::Exact(0), Mode::Exact(90)];

/// Records tokens with their offsets and paths; the text of each string
/// (its parts and any buffered bytes, in order) as one `StringPart`.
struct Recorder {
    mode: Mode,
    tokens: Vec<(OwnedToken, u64, String)>,
    text: String,
    bytes: Vec<u8>,
}

impl Recorder {
    fn new(mode: Mode) -> Recorder {
        Recorder {
            mode,
            tokens: Vec::new(),
            text: String::new(),
            bytes: Vec::new(),
        }
    }

    fn settle(&mut self) {
        let bytes = std::mem::take(&mut self.bytes);
        let text = std::str::from_utf8(&bytes).expect("the buffer holds checked UTF-8");
        self.text.push_str(text);
    }
}

impl TokenSink for Recorder {
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        self.settle();
        if let Token::StringPart(s) = token {
            self.text.push_str(s);
            return;
        }
        if !self.text.is_empty() {
            let text = std::mem::take(&mut self.text);
            self.tokens
                .push((OwnedToken::StringPart(text), 0, String::new()));
        }
        let path = at.path.to_string();
        self.tokens.push((token.to_owned_token(), at.offset, path));
    }

    fn exact_string_offsets_from(&self) -> Option<usize> {
        match self.mode {
            Mode::Exact(n) => Some(n),
            _ => None,
        }
    }

    fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
        match self.mode {
            Mode::Buffer => Some(&mut self.bytes),
            _ => None,
        }
    }
}

/// What one parse gave: the tokens and the error, if any.
#[derive(Debug, PartialEq)]
struct Outcome {
    tokens: Vec<(OwnedToken, u64, String)>,
    error: Option<Error>,
    /// Whether the error came from `feed` (rather than `finish`).
    in_feed: bool,
}

/// The settings a parse runs under.
#[derive(Clone, Copy, Debug)]
struct Setup {
    limits: Limits,
    duplicate_keys: DuplicateKeys,
}

impl Setup {
    const DEFAULT: Setup = Setup {
        limits: Limits {
            max_depth: 128,
            max_input_bytes: 64 << 20,
            max_string_bytes: 16 << 20,
            max_number_bytes: 4096,
        },
        duplicate_keys: DuplicateKeys::LastWins,
    };

    /// Small limits, so that each is hit somewhere in most inputs, and
    /// repeated keys refused.
    fn tight(len: usize) -> Setup {
        Setup {
            limits: Limits {
                max_depth: 3,
                max_input_bytes: (len as u64 * 3 / 4).max(1),
                max_string_bytes: 6,
                max_number_bytes: 5,
            },
            duplicate_keys: DuplicateKeys::Error,
        }
    }
}

/// The pieces of `doc` between the cut points (which may repeat: an empty
/// chunk, as vendors send).
fn pieces<'a>(doc: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (doc.len() + 1)).collect();
    points.extend([0, doc.len()]);
    points.sort_unstable();
    points.windows(2).map(|w| &doc[w[0]..w[1]]).collect()
}

/// A parse that stopped in `feed` may have handed on less of the string it
/// stopped in (the fast paths check a run before handing it on); only a
/// parse that reached `finish` has all its text out.
fn outcome(mut sink: Recorder, error: Option<Error>, in_feed: bool) -> Outcome {
    if !in_feed {
        sink.settle();
        if !sink.text.is_empty() {
            let text = std::mem::take(&mut sink.text);
            sink.tokens
                .push((OwnedToken::StringPart(text), 0, String::new()));
        }
    }
    Outcome {
        tokens: sink.tokens,
        error,
        in_feed,
    }
}

fn fast(doc: &[u8], cuts: &[usize], setup: Setup, mode: Mode, as_str: bool) -> Outcome {
    let mut parser = Parser::with_limits(setup.limits);
    parser.set_duplicate_keys(setup.duplicate_keys);
    let mut sink = Recorder::new(mode);
    for piece in pieces(doc, cuts) {
        let result = match std::str::from_utf8(piece) {
            Ok(s) if as_str => parser.feed_str(s, &mut sink),
            _ => parser.feed(piece, &mut sink),
        };
        if let Err(e) = result {
            return outcome(sink, Some(e), true);
        }
    }
    let error = parser.finish(&mut sink).err();
    outcome(sink, error, false)
}

fn reference(doc: &[u8], cuts: &[usize], setup: Setup) -> Outcome {
    let mut parser = ReferenceParser::with_limits(setup.limits);
    parser.set_duplicate_keys(setup.duplicate_keys);
    let mut sink = Recorder::new(Mode::Pieces);
    for piece in pieces(doc, cuts) {
        if let Err(e) = parser.feed(piece, &mut sink) {
            return outcome(sink, Some(e), true);
        }
    }
    let error = parser.finish(&mut sink).err();
    outcome(sink, error, false)
}

/// Compares the fast parser in every mode, fed as `&[u8]` and as `&str`,
/// with the reference, both cut at `cuts`; describes the first difference.
fn differ(doc: &[u8], cuts: &[usize], setup: Setup) -> Option<String> {
    let want = reference(doc, cuts, setup);
    for mode in MODES {
        for as_str in [false, true] {
            let mut got = fast(doc, cuts, setup, mode, as_str);
            if want.in_feed && got.in_feed {
                // Cut short alike in `feed`: the text of the string it
                // stopped in may differ in length, not in what came before.
                let mut want_tokens = want.tokens.clone();
                if matches!(want_tokens.last(), Some((OwnedToken::StringPart(_), ..))) {
                    want_tokens.pop();
                }
                if matches!(got.tokens.last(), Some((OwnedToken::StringPart(_), ..))) {
                    got.tokens.pop();
                }
                if want_tokens == got.tokens && want.error == got.error {
                    continue;
                }
            } else if got == want {
                continue;
            }
            return Some(format!(
                "{mode:?} (as str: {as_str}) with {setup:?} cut at {cuts:?}:\n  fast:      {got:?}\n  reference: {want:?}"
            ));
        }
    }
    None
}

/// Pseudo-random cut points, so the suites replay the same cuts every run.
fn random_cuts(seed: u64, len: usize, count: usize) -> Vec<usize> {
    let mut state = seed
        .wrapping_add(len as u64)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        | 1;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        })
        .collect()
}

/// Every cutting a file is fed at: whole, byte by byte, in chunks of 2, 5,
/// 16 and 64 bytes, and at three sets of random points.
fn cuttings(len: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(), (1..len).collect()];
    for size in [2, 5, 16, 64] {
        out.push((size..len).step_by(size).collect());
    }
    for seed in 1..4 {
        out.push(random_cuts(seed, len, 1 + len / 8));
    }
    out
}

/// Runs every file at every cutting under the default and the tight setup,
/// and fails with every difference found.
fn replay(files: &[(String, Vec<u8>)]) {
    let mut failures = Vec::new();
    for (name, bytes) in files {
        for setup in [Setup::DEFAULT, Setup::tight(bytes.len())] {
            for cuts in cuttings(bytes.len()) {
                if let Some(d) = differ(bytes, &cuts, setup) {
                    failures.push(format!("{name}: {d}"));
                    break;
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

#[test]
fn json_test_suite_gives_the_reference_tokens_and_errors() {
    let dir = testdata("JSONTestSuite/test_parsing");
    let mut files = Vec::new();
    walk(&dir, &mut files);
    files.sort();
    assert!(
        files.len() > 300,
        "JSONTestSuite is incomplete at {}",
        dir.display()
    );
    replay(&files);
}

/// `rel` (a folder of the test data) in the first of `$TOOLJSON_TESTDATA`,
/// the repository's `tests/data` and `../shared/testdata` that has it; a
/// missing suite fails the test, never skips it.
fn testdata(rel: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let roots = std::env::var_os("TOOLJSON_TESTDATA")
        .map(PathBuf::from)
        .into_iter()
        .chain([root.join("tests/data"), root.join("../shared/testdata")]);
    roots
        .map(|r| r.join(rel))
        .find(|p| p.exists())
        .unwrap_or_else(|| {
            panic!("test data `{rel}` not found: the repository carries it in tests/data/")
        })
}

/// Every file under `dir`, recursively, named by its path.
fn walk(dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, out);
        } else {
            let bytes = std::fs::read(&path).unwrap();
            out.push((path.display().to_string(), bytes));
        }
    }
}

#[test]
fn corpus_files_give_the_reference_tokens_and_errors() {
    // Every file, not only the `.json` ones: the fuzz seeds and crashes are
    // the inputs that once broke a fast path.
    let mut files = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"),
        &mut files,
    );
    files.sort();
    assert!(
        files.iter().filter(|(n, _)| n.ends_with(".json")).count() >= 10,
        "the corpus' JSON files are missing"
    );
    replay(&files);
}

#[test]
fn the_comparison_sees_a_difference() {
    // The same input under two limits gives two errors: a comparison that
    // could not tell them apart would pass anything.
    let doc = br#"{"key": "a long string value"}"#;
    let a = reference(doc, &[], Setup::DEFAULT);
    let b = reference(doc, &[], Setup::tight(doc.len()));
    assert_ne!(a, b);
    assert!(a.error.is_none());
    assert!(b.error.is_some_and(|e| e.is_limit_exceeded()));
}

/// JSON-ish bytes: fragments of the grammar (escapes, surrogates, split
/// UTF-8, number parts, literals, structure) mixed with arbitrary bytes.
fn jsonish() -> impl Strategy<Value = Vec<u8>> {
    let fragment = prop_oneof![
        4 => prop::sample::select(vec![
            "{", "}", "[", "]", ":", ",", "\"", "\"", "\"", " ", "\n", "\t", "\r\n", "\\", "\\n",
            "\\\"", "\\/", "\\\\", "\\b", "\\f", "\\r", "\\t", "\\u", "\\u00e9", "\\ud83d", "\\ude00", "\\uD800\\uDC00", "0", "1", "-", ".",
            "e", "E", "+", "12", "0.5", "-3e+7", "true", "false", "null", "tru", "nul", "x",
            "abc", "hello world", "\u{e9}", "\u{4e2d}", "\u{1f600}",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::sample::select(vec![
            vec![0xC3u8], vec![0xA9], vec![0xE2, 0x82], vec![0xF0, 0x9F], vec![0x98, 0x80],
            vec![0xED, 0xA0, 0x80], vec![0xC0, 0x80], vec![0xF4, 0x90], vec![0xFF], vec![0x00],
            vec![0x1F], vec![0x7F],
        ]),
        1 => any::<u8>().prop_map(|b| vec![b]),
        1 => "[a-z0-9 ]{16,80}".prop_map(|s| s.into_bytes()),
    ];
    prop::collection::vec(fragment, 0..40).prop_map(|parts| parts.concat())
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let text = prop_oneof![
        "[a-z]{0,8}",
        "[a-z\"\\\\/\n\t\u{0}-\u{1f}é中😀\u{2028} ]{0,24}",
        "[a-z ]{60,200}",
        any::<String>(),
    ];
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        any::<i64>().prop_map(|n| serde_json::json!(n)),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| serde_json::json!(f)),
        text.clone().prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::vec((text.clone(), inner), 0..6)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// A valid document: compact, pretty, or with every non-ASCII character
/// as a `\u` escape (surrogate pairs above U+FFFF).
fn document() -> impl Strategy<Value = Vec<u8>> {
    (json_value(), 0..3u8).prop_map(|(v, style)| {
        let text = match style {
            0 => serde_json::to_string(&v).unwrap(),
            1 => serde_json::to_string_pretty(&v).unwrap(),
            _ => {
                let mut out = String::new();
                for c in serde_json::to_string(&v).unwrap().chars() {
                    if c.is_ascii() {
                        out.push(c);
                    } else {
                        for u in c.encode_utf16(&mut [0; 2]) {
                            out.push_str(&format!("\\u{u:04x}"));
                        }
                    }
                }
                out
            }
        };
        text.into_bytes()
    })
}

/// Fed whole, at random cuts and byte by byte, under the default or the
/// tight setup.
fn check(doc: &[u8], cuts: &[usize], tight: bool) -> Result<(), TestCaseError> {
    let setup = if tight {
        Setup::tight(doc.len())
    } else {
        Setup::DEFAULT
    };
    let bytewise: Vec<usize> = (1..doc.len()).collect();
    for cuts in [&[][..], cuts, &bytewise[..]] {
        if let Some(d) = differ(doc, cuts, setup) {
            return Err(TestCaseError::fail(format!(
                "{:?}: {d}",
                String::from_utf8_lossy(doc)
            )));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn jsonish_bytes_give_the_reference_tokens_and_errors(
        doc in jsonish(),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        tight in prop::bool::weighted(0.3),
    ) {
        check(&doc, &cuts, tight)?;
    }

    #[test]
    fn valid_documents_give_the_reference_tokens(
        doc in document(),
        cuts in prop::collection::vec(any::<usize>(), 0..12),
        tight in prop::bool::weighted(0.3),
    ) {
        check(&doc, &cuts, tight)?;
    }
}
