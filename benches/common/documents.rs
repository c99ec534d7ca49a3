//! Deterministic documents shaped like tool-call arguments, shared by the
//! benchmarks and by the memory tests (`tests/partial_memory.rs`, which
//! include this file alone: it needs nothing but serde_json).
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
