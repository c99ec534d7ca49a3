//! Shared by the benchmarks: the documents (`documents.rs`), each parser
//! fed in chunks, and the interleaved timing.
#![allow(dead_code)]

mod documents;
pub mod gateway;
// Not every bench reads the documents.
#[allow(unused_imports)]
pub use documents::*;

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
