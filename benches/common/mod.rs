//! Deterministic documents shaped like tool-call arguments, shared by the
//! benchmarks.
#![allow(dead_code)]

/// A pseudo-random generator, so every run benchmarks the same bytes.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

/// Source-like text: lines of code with quotes, backslashes, tabs and some
/// non-ASCII, the kind of content a write-file call carries.
pub fn source_text(target: usize, seed: u64) -> String {
    const LINES: &[&str] = &[
        "fn main() {",
        "    let path = \"C:\\\\Users\\\\dev\\\\notes.txt\";",
        "\tprintln!(\"héllo, wörld: {}\", path);",
        "    // naïve café ☕ — résumé",
        "    let re = Regex::new(r\"^\\d+\\.\\d+$\").unwrap();",
        "    if x < 10 && y > 20 { return Err(\"bad \\\"input\\\"\".into()); }",
        "}",
        "",
    ];
    let mut rng = Lcg(seed);
    let mut s = String::with_capacity(target + 64);
    while s.len() < target {
        s.push_str(LINES[(rng.next() % LINES.len() as u64) as usize]);
        s.push('\n');
    }
    s
}

/// `{"path": ..., "content": <escaped source text>}` of about `size` bytes.
pub fn write_file_args(size: usize) -> String {
    let content = source_text(size.saturating_sub(40) * 8 / 10, 7);
    let mut doc = serde_json::to_string(&serde_json::json!({
        "path": "src/main.rs",
        "content": content,
    }))
    .unwrap();
    // Grow or trim the content to land near `size` bytes, keeping it valid.
    while doc.len() < size {
        let extra = source_text(size - doc.len(), doc.len() as u64);
        let mut v: serde_json::Value = serde_json::from_str(&doc).unwrap();
        let c = v["content"].as_str().unwrap().to_owned() + &extra;
        v["content"] = c.into();
        doc = serde_json::to_string(&v).unwrap();
    }
    doc
}

/// A parallel-array document: `{"edits": [{"file", "line", "old", "new",
/// "confidence"}, ...]}` of about `size` bytes.
pub fn parallel_edits_args(size: usize) -> String {
    let mut rng = Lcg(11);
    let mut edits = Vec::new();
    let mut len = 12;
    while len < size {
        let e = serde_json::json!({
            "file": format!("src/module_{}.rs", rng.next() % 100),
            "line": rng.next() % 5000,
            "old": source_text(20 + (rng.next() % 40) as usize, rng.next()),
            "new": source_text(20 + (rng.next() % 40) as usize, rng.next()),
            "confidence": (rng.next() % 1000) as f64 / 1000.0,
        });
        len += serde_json::to_string(&e).unwrap().len() + 1;
        edits.push(e);
    }
    serde_json::to_string(&serde_json::json!({ "edits": edits })).unwrap()
}

/// A numeric array: `{"values": [ints and floats]}` of about `size` bytes.
pub fn numeric_array_args(size: usize) -> String {
    let mut rng = Lcg(3);
    let mut s = String::from("{\"values\":[");
    while s.len() < size {
        if s.len() > 11 {
            s.push(',');
        }
        match rng.next() % 3 {
            0 => s.push_str(&(rng.next() % 100000).to_string()),
            1 => s.push_str(&format!("-{}.{}", rng.next() % 1000, rng.next() % 1000)),
            _ => s.push_str(&format!(
                "{}.{}e-{}",
                rng.next() % 10,
                rng.next() % 100000,
                rng.next() % 20
            )),
        }
    }
    s.push_str("]}");
    s
}

/// A nested configuration: many small objects several levels deep.
pub fn nested_config_args(size: usize) -> String {
    let mut rng = Lcg(5);
    let mut services = Vec::new();
    let mut len = 16;
    while len < size {
        let n = rng.next();
        let svc = serde_json::json!({
            "name": format!("svc-{n}"),
            "enabled": n.is_multiple_of(2),
            "replicas": n % 8,
            "env": {"RUST_LOG": "info", "PORT": (8000 + n % 1000).to_string(), "REGION": "eu-west-1"},
            "limits": {"cpu": "500m", "memory": "256Mi", "timeout_s": 30.5},
            "ports": [{"name": "http", "port": 80}, {"name": "grpc", "port": 9090}],
            "tags": ["api", "edge", null],
        });
        len += serde_json::to_string(&svc).unwrap().len() + 1;
        services.push(svc);
    }
    serde_json::to_string(&serde_json::json!({"version": 3, "services": services})).unwrap()
}

/// Parses with tooljson in `chunk`-byte pieces and returns the value.
pub fn tooljson_chunked(doc: &[u8], chunk: usize) -> tooljson::Value {
    let mut p = tooljson::Parser::new();
    let mut b = tooljson::ValueBuilder::new();
    for c in doc.chunks(chunk) {
        p.feed(c, &mut b).unwrap();
    }
    p.finish(&mut b).unwrap();
    b.into_value().unwrap()
}

/// Parses with tooljson in `chunk`-byte pieces into a sink that only counts
/// events, as actson reports them: one per key, scalar and container begin
/// or end; a string counts once (at its end), whatever its parts.
pub fn tooljson_events_chunked(doc: &[u8], chunk: usize) -> usize {
    struct Count(usize);
    impl tooljson::TokenSink for Count {
        #[inline]
        fn token(&mut self, t: tooljson::Token<'_>, _at: &tooljson::parser::Location<'_>) {
            if !matches!(
                t,
                tooljson::Token::StringBegin | tooljson::Token::StringPart(_)
            ) {
                self.0 += 1;
            }
        }
    }
    let mut p = tooljson::Parser::new();
    let mut count = Count(0);
    for c in doc.chunks(chunk) {
        p.feed(c, &mut count).unwrap();
    }
    p.finish(&mut count).unwrap();
    count.0
}

/// Feeds actson's push parser `chunk`-byte pieces and counts its events.
pub fn actson_chunked(doc: &[u8], chunk: usize) -> usize {
    use actson::feeder::PushJsonFeeder;
    use actson::{JsonEvent, JsonParser};
    let mut parser = JsonParser::new(PushJsonFeeder::new());
    let mut pieces = doc.chunks(chunk);
    let mut current: &[u8] = &[];
    let mut events = 0;
    while let Some(ev) = parser.next_event().expect("actson accepts the document") {
        if ev == JsonEvent::NeedMoreInput {
            if current.is_empty() {
                match pieces.next() {
                    Some(p) => current = p,
                    None => {
                        parser.feeder.done();
                        continue;
                    }
                }
            }
            let n = parser.feeder.push_bytes(current);
            current = &current[n..];
        } else {
            events += 1;
        }
    }
    events
}

/// The fastest of `rounds` timed batches of `batch` runs each of `a` and
/// `b`, the two taking turns (a, b, a, b, ...) so that both see the same
/// load on a shared machine: `(seconds per run of a, seconds per run of b)`.
pub fn interleaved_best(
    rounds: usize,
    batch: usize,
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> (f64, f64) {
    let (mut best_a, mut best_b) = (f64::MAX, f64::MAX);
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        for _ in 0..batch {
            a();
        }
        best_a = best_a.min(t.elapsed().as_secs_f64());
        let t = std::time::Instant::now();
        for _ in 0..batch {
            b();
        }
        best_b = best_b.min(t.elapsed().as_secs_f64());
    }
    (best_a / batch as f64, best_b / batch as f64)
}
