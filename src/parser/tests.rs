//! The fast paths (whole numbers, string runs and escapes decoded in one
//! go) against the byte-at-a-time state machine: every document gives the
//! same tokens, offsets, paths and errors fed whole as fed one byte (or a
//! few bytes) at a time, where the fast paths cannot apply.

use super::number::*;
use super::scan::*;
use super::*;

/// Records tokens with their offsets and paths; adjacent string parts
/// merged, as where a string is cut between parts depends on the chunking
/// (and so do their offsets). With `buffer`, it offers the parser a buffer
/// for string text ([`TokenSink::string_bytes`]), whose bytes count as a
/// part before the next token.
#[derive(Default)]
struct Recorder {
    out: Vec<(String, u64, String)>,
    bytes: Vec<u8>,
    buffer: bool,
}

impl Recorder {
    fn part(&mut self, s: &str, path: String) {
        match self.out.last_mut() {
            Some((last, _, _)) if last.starts_with("part:") => last.push_str(s),
            _ => self.out.push((format!("part:{s}"), 0, path)),
        }
    }
}

impl TokenSink for Recorder {
    fn token(&mut self, t: Token<'_>, at: &Location<'_>) {
        if !self.bytes.is_empty() {
            let bytes = std::mem::take(&mut self.bytes);
            let text = std::str::from_utf8(&bytes).expect("the parser appends checked UTF-8");
            self.part(text, at.path.to_string());
        }
        match t {
            Token::StringPart(s) => self.part(s, at.path.to_string()),
            other => self
                .out
                .push((format!("{other:?}"), at.offset, at.path.to_string())),
        }
    }

    fn string_bytes(&mut self) -> Option<&mut Vec<u8>> {
        self.buffer.then_some(&mut self.bytes)
    }
}

/// The tokens of `doc` fed in `chunk`-byte pieces, and its error; the parts
/// that precede an error are dropped (which ones do depends on the
/// chunking).
fn tokens(doc: &[u8], chunk: usize) -> (Vec<(String, u64, String)>, Option<String>) {
    tokens_with(doc, chunk, false, Limits::default())
}

fn tokens_with(
    doc: &[u8],
    chunk: usize,
    buffer: bool,
    limits: Limits,
) -> (Vec<(String, u64, String)>, Option<String>) {
    tokens_in(doc, &[chunk.max(1)], buffer, limits)
}

/// As [`tokens_with`], in chunks whose sizes cycle through `sizes`.
fn tokens_in(
    doc: &[u8],
    sizes: &[usize],
    buffer: bool,
    limits: Limits,
) -> (Vec<(String, u64, String)>, Option<String>) {
    let mut sink = Recorder {
        buffer,
        ..Recorder::default()
    };
    let mut p = Parser::with_limits(limits);
    let mut err = None;
    let mut rest = doc;
    for &size in sizes.iter().cycle() {
        if rest.is_empty() {
            break;
        }
        let (c, after) = rest.split_at(size.clamp(1, rest.len()));
        rest = after;
        if let Err(e) = p.feed(c, &mut sink) {
            err = Some(format!("{e} @{} {:?}", e.offset(), e.category()));
            break;
        }
    }
    if err.is_none()
        && let Err(e) = p.finish(&mut sink)
    {
        err = Some(format!("{e} @{} {:?}", e.offset(), e.category()));
    }
    let mut out = sink.out;
    if err.is_some() {
        out.retain(|(name, _, _)| !name.starts_with("part:"));
    }
    (out, err)
}

fn same_at_every_chunking(doc: &[u8]) {
    same_at_chunkings(doc);
    // Long enough for chunks that are validated up front, with the
    // document's strings lengthened too.
    let mut padded = vec![b' '; 70];
    padded.extend_from_slice(doc);
    same_at_chunkings(&padded);
    let text = String::from_utf8_lossy(doc);
    if !text.contains('\u{fffd}') {
        let long = text.replace("\"a", &format!("\"{}a", "\u{e9}x".repeat(40)));
        same_at_chunkings(long.as_bytes());
    }
    let mut long = Vec::new();
    for &b in doc {
        long.push(b);
        if b == b'"' {
            long.extend_from_slice("yz\u{2615}".repeat(20).as_bytes());
        }
    }
    same_at_chunkings(&long);
}

fn same_at_chunkings(doc: &[u8]) {
    let whole = tokens(doc, doc.len());
    for chunk in [
        1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 63, 64, 65, 66, 67, 100, 130,
    ] {
        for buffer in [false, true] {
            let got = tokens_with(doc, chunk, buffer, Limits::default());
            assert_eq!(
                got,
                whole,
                "{:?} in {chunk}-byte chunks (buffer: {buffer})",
                String::from_utf8_lossy(doc)
            );
        }
    }
}

#[test]
fn valid_documents_tokenize_alike_whole_and_chunked() {
    let docs: &[&str] = &[
        r#"{"a":[1,-2,3.5,-0.25e-3,1E+9,0,-0,12345678901234567890123],"b":"x"}"#,
        r#"[0,1,2,3,4,5,6,7,8,9,10,100,1000,1e1,1.0e-1,-1.5E2]"#,
        r#"{"path":"src/main.rs","content":"fn main() {\n\tprintln!(\"h\u00e9llo \\ w\u00f6rld\");\n}\n"}"#,
        "{\"k\\n\\\"ey\":\"v\\u00e9\\ud83d\\ude00\\/\\b\\f\\r\\t\",\"\u{e9}\":\"\u{2615}\u{1F600}\"}",
        r#"  [ "a" , "bcdefghijklmnopqrstuvwxyz0123456789" , true , false , null , { } , [ ] ]  "#,
        "\"a string root with a \\\"quote\\\" and a tab\\t\"",
        "-12.5e+3",
        "[1, 2,3 ,4,  5,\n6,-7, -8.5e1,0]",
        "{\"v\":[[1,2],[3, 4],{\"a\":[5,6]}]}",
        "[\"12345678\",\"1234567\",\"123456789\",\"\",\"\\\\\"]",
        "{\"a\":{\"b\":{\"c\":[[[{\"d\":1}]]]}},\"e\":[1,[2,[3]]]}",
    ];
    for doc in docs {
        same_at_every_chunking(doc.as_bytes());
        let ours = crate::from_slice(doc.as_bytes()).unwrap();
        assert_eq!(crate::from_str(&ours.to_string()).unwrap(), ours, "{doc}");
        #[cfg(feature = "serde_json")]
        let theirs: serde_json::Value = serde_json::from_str(doc).unwrap();
        #[cfg(feature = "serde_json")]
        assert_eq!(ours.to_serde_json().unwrap(), theirs, "{doc}");
    }
}

#[test]
fn invalid_documents_fail_alike_whole_and_chunked() {
    let docs: &[&[u8]] = &[
        b"[01]",
        b"[1.]",
        b"[1.5.3]",
        b"[2x]",
        b"[-]",
        b"[1e]",
        b"[1e+]",
        b"[1,]",
        b"[1,01]",
        b"[1, -]",
        b"[1,2x]",
        b"[1, 2 3]",
        b"{\"a\":1,2}",
        b"[1 2]",
        b"{\"a\":1x}",
        b"{\"a\" 1}",
        b"[\"a\x01b\"]",
        b"[\"ab\\x\"]",
        b"[\"ab\\ud800\"]",
        b"[\"ab\\udc00x\"]",
        b"[\"ab\xff\"]",
        b"[\"ab\xc3\"]",
        b"[\"ab\xe2\x98\"]",
        b"{\"a\xc3\":1}",
        b"[\"abc",
        b"[1,2",
        b"[12",
        b"{\"abc",
        b"{\"a\":1}{\"a\":2}",
        b"[1] 2",
        b"[tru]",
        b"[nul",
        b"\"\\u12",
    ];
    for doc in docs {
        let (_, err) = tokens(doc, doc.len());
        assert!(
            err.is_some(),
            "{:?} must fail",
            String::from_utf8_lossy(doc)
        );
        same_at_every_chunking(doc);
    }
}

#[test]
fn long_strings_into_a_sink_buffer_match_pieces_at_every_chunking() {
    // Past `DIRECT_FROM` decoded bytes (from its first byte, for a string
    // begun in a chunk of under 16 bytes) a string's text goes into a
    // buffering sink's buffer: same text, same errors at the same bytes, the string
    // limit included (crossed here about 100 bytes in), whatever crosses it
    // (plain text, an escape, a character split across chunks, a surrogate
    // pair).
    let head = "abcdefghij".repeat(9); // 90 bytes
    let tails = [
        "klmnopqrstuvwxyz",
        "k\\nlm\\\"opq",
        "klmnopqrs\\u00e9tuv",
        "klmnopq\u{e9}\u{e9}\u{2615}rst",
        "klmnopqr\\ud83d\\ude00stu",
        "klmnopqrs\\n\\t\\r",
    ];
    let mut docs: Vec<Vec<u8>> = Vec::new();
    for tail in tails {
        docs.push(format!("{{\"k\":\"{head}{tail}\",\"n\":[\"{head}\"]}}").into_bytes());
    }
    // Invalid text and a truncated document past the point.
    docs.push([format!("[\"{head}abc").as_bytes(), &[0xff], b"\"]"].concat());
    docs.push([format!("[\"{head}abc").as_bytes(), &[0xe2, 0x98], b"\"]"].concat());
    docs.push(format!("[\"{head}abc\\u12").into_bytes());
    docs.push(format!("[\"{head}ab\\ud83d\\n\"]").into_bytes());
    docs.push(format!("[\"{head}ab\x01\"]").into_bytes());
    // Each UTF-8 form `str::from_utf8` refuses, and the edges it accepts,
    // past the point and followed by text (so that a chunk ending inside
    // or just after one resumes there); escapes that are not one letter.
    let forms: [&[u8]; 29] = [
        &[0xc0, 0x80],
        &[0xc1, 0xbf],
        &[0xe0, 0x80, 0x80],
        &[0xe0, 0x9f, 0xbf],
        &[0xed, 0xa0, 0x80],
        &[0xf0, 0x80, 0x80, 0x80],
        &[0xf0, 0x8f, 0xbf, 0xbf],
        &[0xf4, 0x90, 0x80, 0x80],
        &[0xf5, 0x80, 0x80, 0x80],
        &[0x80],
        &[0xbf, 0x41],
        &[0xe2, 0x82, 0x41],
        &[0xc3, 0x41],
        &[0xf0, 0x9f, 0x98, 0x41],
        &[0xe2, 0x82, 0xc3, 0xa9],
        &[0xf0, 0x9f, 0xc3, 0xa9],
        &[0xf0, 0x9f, 0x98, 0xc3, 0xa9],
        &[0xe2, 0x82, b'"'],
        &[0xc2, 0x80],
        &[0xe0, 0xa0, 0x80],
        &[0xed, 0x9f, 0xbf],
        &[0xef, 0xbf, 0xbf],
        &[0xf0, 0x90, 0x80, 0x80],
        &[0xf4, 0x8f, 0xbf, 0xbf],
        b"\\x",
        b"\\\x02",
        b"\\u00",
        b"\\\"\\/\\b\\f",
        b"\\u0041\\",
    ];
    // Short strings whose 16th decoded byte (`DIRECT_FROM`, where a string
    // that begins in a chunk of 16 bytes or more goes into the buffer)
    // falls in an escape or a character.
    for short in [
        "abcdefghijklmn\\n\\u00e9\u{e9}\u{2615}xyz",
        "abcdefghijklmn\u{e9}\u{2615}\\\"x",
        "abcdefghijklm\u{2615}\\t\\ud83d\\ude00",
    ] {
        docs.push(format!("[\"{short}\",\"{short}{short}\"]").into_bytes());
    }
    for form in forms {
        for lead in ["abc", "abcd"] {
            docs.push(
                [
                    format!("[\"{head}{lead}").as_bytes(),
                    form,
                    "xyz\u{e9}\"]".as_bytes(),
                ]
                .concat(),
            );
        }
    }
    for limit in [usize::MAX, 100, 101, 102, 103, 106] {
        let limits = Limits {
            max_string_bytes: limit,
            ..Limits::default()
        };
        for doc in &docs {
            let whole = tokens_with(doc, doc.len(), false, limits);
            for chunk in (1..=20).chain([31, 32, 33, 63, 64, 65, 70, 97, 130]) {
                for buffer in [false, true] {
                    assert_eq!(
                        tokens_with(doc, chunk, buffer, limits),
                        whole,
                        "{:?} in {chunk}-byte chunks (buffer: {buffer}, limit {limit})",
                        String::from_utf8_lossy(doc)
                    );
                }
            }
            // Chunk sizes that change while a string is open: a string
            // that begins in a chunk too small to validate up front takes
            // the buffer from its first byte, one that begins in a larger
            // chunk only from `DIRECT_FROM` bytes, and either may then go on
            // in chunks of the other kind.
            for sizes in [
                &[3, 17, 1, 64, 5, 16, 2][..],
                &[15, 16],
                &[16, 15, 4, 33],
                &[40, 1, 2, 3],
                &[7, 70],
            ] {
                assert_eq!(
                    tokens_in(doc, sizes, true, limits),
                    whole,
                    "{:?} in chunks of {sizes:?} (limit {limit})",
                    String::from_utf8_lossy(doc)
                );
            }
        }
    }
}

#[test]
fn limits_hit_at_the_same_byte_whole_and_chunked() {
    let limits = Limits {
        max_string_bytes: 10,
        max_number_bytes: 5,
        ..Limits::default()
    };
    for doc in [
        &b"[\"0123456789a\"]"[..],
        b"[\"01234\\n56789\"]",
        b"[\"0123456789\\n\"]",
        b"[\"01234567\\u00e9\"]",
        b"{\"0123456789ab\":1}",
        b"[123456]",
        b"[12345,1.2345]",
        b"[-1.5e3]",
    ] {
        let run = |chunk: usize| {
            let mut p = Parser::with_limits(limits);
            let mut b = ValueBuilder::new();
            let mut r = Ok(());
            for c in doc.chunks(chunk) {
                r = p.feed(c, &mut b);
                if r.is_err() {
                    break;
                }
            }
            r.and_then(|()| p.finish(&mut b))
                .map(|()| b.into_value())
                .map_err(|e| (e.to_string(), e.offset()))
        };
        let whole = run(doc.len());
        for chunk in 1..=9 {
            assert_eq!(
                run(chunk),
                whole,
                "{:?} by {chunk}",
                String::from_utf8_lossy(doc)
            );
        }
    }
}

#[test]
fn string_runs_stop_at_the_first_special_byte() {
    // Every position of a quote, backslash or control byte, after ASCII
    // and after non-ASCII text, checked against a byte-by-byte scan.
    for special in [b'"', b'\\', b'\n', 0x00, 0x1f] {
        for lead in ["", "é", "☕"] {
            for pos in 0..20 {
                let mut s = lead.as_bytes().to_vec();
                s.extend(std::iter::repeat_n(b'a', pos));
                s.push(special);
                s.extend_from_slice(b"zz\xc3\xa9");
                let naive = s
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                    .unwrap_or(s.len());
                let (end, ascii) = scan_string_run(&s);
                assert_eq!(end, naive);
                assert_eq!(ascii, lead.is_empty());
            }
        }
    }
    assert_eq!(scan_string_run(b"abc"), (3, true));
    assert_eq!(scan_string_run("abcdefgh\u{e9}".as_bytes()), (10, false));
    assert_eq!(scan_string_run(b""), (0, true));
}

#[test]
fn value_builder_keeps_first_or_last_of_repeated_keys() {
    let doc = br#"{"a":1,"b":{"x":[1,{"y":2}]},"a":3}"#;
    for (policy, a) in [
        (DuplicateKeys::LastWins, "3"),
        (DuplicateKeys::FirstWins, "1"),
    ] {
        let mut p = Parser::new();
        let mut b = ValueBuilder::with_duplicate_keys(policy);
        p.feed(doc, &mut b).unwrap();
        p.finish(&mut b).unwrap();
        let v = b.into_value().unwrap();
        assert_eq!(
            v.to_string(),
            format!(r#"{{"a":{a},"b":{{"x":[1,{{"y":2}}]}}}}"#)
        );
    }
    // Past the hash-index size too.
    let mut doc = String::from("{");
    for i in 0..40 {
        doc.push_str(&format!("\"k{i}\":{i},"));
    }
    doc.push_str("\"k7\":\"last\"}");
    let v = crate::from_str(&doc).unwrap();
    assert_eq!(v["k7"].as_str(), Some("last"));
    assert_eq!(v.as_object().unwrap().len(), 40);
    assert_eq!(v.as_object().unwrap().get_index(7).unwrap().0, "k7");
}

#[test]
fn small_string_chunks_take_the_fast_path_with_the_same_results() {
    // Tokens, offsets and limit errors are those of the state machine,
    // through `feed` and `feed_str`, and a parser stopped by an error or by
    // `finish()` inside a string stays stopped.
    let run = |doc: &str, chunk: usize, limits: Limits, strs: bool| {
        let mut p = Parser::with_limits(limits);
        let mut out: Vec<(OwnedToken, u64)> = Vec::new();
        let mut sink = |t: Token<'_>, at: &Location<'_>| out.push((t.to_owned_token(), at.offset));
        let mut r = Ok(());
        let mut rest = doc;
        while !rest.is_empty() {
            let mut cut = chunk.min(rest.len());
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            let (c, tail) = rest.split_at(cut);
            rest = tail;
            r = if strs {
                p.feed_str(c, &mut sink)
            } else {
                p.feed(c.as_bytes(), &mut sink)
            };
            if r.is_err() {
                break;
            }
        }
        let r = r
            .and_then(|()| p.finish(&mut sink))
            .map_err(|e| (e.to_string(), e.offset()));
        let again = p.feed(b"abc", &mut ()).map_err(|e| e.to_string());
        let mut joined: Vec<(OwnedToken, u64)> = Vec::new();
        for (t, off) in out {
            if let (OwnedToken::StringPart(s), Some((OwnedToken::StringPart(last), last_off))) =
                (&t, joined.last_mut())
            {
                last.push_str(s);
                *last_off = 0;
                continue;
            }
            // Where a string is cut into parts (and so their offsets)
            // depends on the chunking.
            let off = if matches!(t, OwnedToken::StringPart(_)) {
                0
            } else {
                off
            };
            joined.push((t, off));
        }
        if r.is_err() {
            // Which parts precede an error depends on the chunking.
            joined.retain(|(t, _)| !matches!(t, OwnedToken::StringPart(_)));
        }
        (joined, r, again.is_err())
    };
    let doc = "{\"k\":\"abcdefghijklmnopqrstuvwxyz caf\u{e9} \\n ok\",\"n\":[\"x\"]}";
    for limits in [
        Limits::default(),
        Limits {
            max_string_bytes: 20,
            ..Limits::default()
        },
        Limits {
            max_input_bytes: 17,
            ..Limits::default()
        },
    ] {
        let whole = run(doc, doc.len(), limits, false);
        assert!(whole.2, "a stopped parser refuses more input");
        for chunk in 1..=20 {
            for strs in [false, true] {
                assert_eq!(
                    run(doc, chunk, limits, strs),
                    whole,
                    "{limits:?} by {chunk} (str: {strs})"
                );
            }
        }
    }
}

#[test]
fn digit_runs_stop_at_the_first_non_digit() {
    // Every byte value after every run length, checked against a
    // byte-by-byte scan, with digits and other bytes after it too.
    for stop in 0..=255u8 {
        for pos in 0..20 {
            for start in 0..3 {
                let mut s = b"-1.".to_vec();
                s.extend(std::iter::repeat_n(b'7', pos));
                s.push(stop);
                s.extend_from_slice(b"12\xc3\xa9345678");
                let naive = s[start..]
                    .iter()
                    .position(|b| !b.is_ascii_digit())
                    .map_or(s.len(), |p| p + start);
                assert_eq!(skip_digits(&s, start), naive, "{stop} after {pos}");
            }
        }
    }
    assert_eq!(skip_digits(b"", 0), 0);
    assert_eq!(skip_digits(b"123456789012", 0), 12);
}

/// The number grammar one byte at a time, as a table: the reference for
/// [`number_rest`], which scans runs of digits at once.
fn number_step(ns: NumState, b: u8) -> Option<NumState> {
    Some(match (ns, b) {
        (NumState::Start, b'-') => NumState::Minus,
        (NumState::Start | NumState::Minus, b'0') => NumState::Zero,
        (NumState::Start | NumState::Minus | NumState::Int, b'1'..=b'9') => NumState::Int,
        (NumState::Int, b'0') => NumState::Int,
        (NumState::Zero | NumState::Int, b'.') => NumState::Dot,
        (NumState::Dot | NumState::Frac, b'0'..=b'9') => NumState::Frac,
        (NumState::Zero | NumState::Int | NumState::Frac, b'e' | b'E') => NumState::E,
        (NumState::E, b'+' | b'-') => NumState::ESign,
        (NumState::E | NumState::ESign | NumState::Exp, b'0'..=b'9') => NumState::Exp,
        _ => return None,
    })
}

#[test]
fn number_scans_stop_where_the_byte_table_stops_from_every_state() {
    // Every string of up to five bytes over the number alphabet and a few
    // others, from each of the nine states (so every resume point of a
    // number cut by a chunk's end), and digit runs long enough for the
    // eight-at-a-time scan.
    let states = [
        NumState::Start,
        NumState::Minus,
        NumState::Zero,
        NumState::Int,
        NumState::Dot,
        NumState::Frac,
        NumState::E,
        NumState::ESign,
        NumState::Exp,
    ];
    let alphabet = b"05-+.eEx,";
    let mut inputs: Vec<Vec<u8>> = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..5 {
        let next: Vec<Vec<u8>> = last
            .iter()
            .flat_map(|p: &Vec<u8>| {
                alphabet.iter().map(move |&b| {
                    let mut q = p.clone();
                    q.push(b);
                    q
                })
            })
            .collect();
        inputs.extend(next.iter().cloned());
        last = next;
    }
    for tail in ["", ".", "e", "x", "9", ".5e+7"] {
        for digits in [7, 8, 9, 16, 17, 30] {
            for head in ["", "-", "1", "-0.", "1e", "2E-"] {
                inputs.push(format!("{head}{}{tail}", "3".repeat(digits)).into_bytes());
            }
        }
    }
    for input in &inputs {
        for &start in &states {
            let mut ns = start;
            let mut len = 0;
            while let Some(next) = input.get(len).and_then(|&b| number_step(ns, b)) {
                ns = next;
                len += 1;
            }
            let what = format!("{:?} from {start:?}", String::from_utf8_lossy(input));
            assert_eq!(number_rest(input, start), (len, ns), "{what}");
            if start == NumState::Start {
                assert_eq!(number_head(input), (len, ns), "{what}");
                let whole = input.get(len).is_some_and(|&b| ends_number(ns, b));
                assert_eq!(scan_number(input), whole.then_some(len), "{what}");
            }
        }
    }
}

#[test]
fn a_number_cut_by_a_chunk_end_carries_what_byte_chunks_carry() {
    // The fast path scans a number that starts in a chunk and runs to its
    // end, and carries its head and state; fed a byte at a time, the number
    // is resumed at every byte instead. Each head of each lexeme (valid or
    // not yet), after a number taken whole in the same chunk, in a short
    // chunk and in one long enough to be validated up front; then the rest.
    let lexemes = [
        "0",
        "-0",
        "7",
        "-",
        "12",
        "1.",
        "1.5",
        "-0.25e-3",
        "1E+9",
        "2e7",
        "1e",
        "1e+",
        "1.5e-12",
        "0.0",
        "123456789012345678901234",
        "-1.5E2",
        "9.99e99",
        "-12345.678901e+123",
    ];
    for lex in lexemes {
        for cut in 1..=lex.len() {
            let head = &lex.as_bytes()[..cut];
            for pad in [0, 20] {
                let mut start = b"[7,".to_vec();
                start.extend(std::iter::repeat_n(b' ', pad));
                let mut by_byte = Parser::new();
                let mut by_byte_sink = Recorder::default();
                by_byte.feed(&start, &mut by_byte_sink).unwrap();
                for b in head {
                    by_byte
                        .feed(std::slice::from_ref(b), &mut by_byte_sink)
                        .unwrap();
                }
                let mut one = Parser::new();
                let mut one_sink = Recorder::default();
                let mut chunk = start.clone();
                chunk.extend_from_slice(head);
                one.feed(&chunk, &mut one_sink).unwrap();
                let what = format!("{lex:?} cut at {cut} (pad {pad})");
                assert!(matches!(one.state, State::Num(_)), "{what}");
                assert_eq!(one.state, by_byte.state, "{what}");
                assert_eq!(one.num_buf, by_byte.num_buf, "{what}");
                assert_eq!(one.num_len, by_byte.num_len, "{what}");
                assert_eq!(one.offset, by_byte.offset, "{what}");
                let rest = |p: &mut Parser, sink: &mut Recorder| {
                    let r = p
                        .feed(&lex.as_bytes()[cut..], sink)
                        .and_then(|()| p.feed(b"]", sink))
                        .and_then(|()| p.finish(sink));
                    if let Err(e) = r {
                        sink.out.push((e.to_string(), e.offset(), String::new()));
                    }
                };
                rest(&mut one, &mut one_sink);
                rest(&mut by_byte, &mut by_byte_sink);
                assert_eq!(one_sink.out, by_byte_sink.out, "{what}");
            }
        }
    }
}
