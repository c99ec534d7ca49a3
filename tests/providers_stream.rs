//! The `stream` feature: `CallEvents` over a `futures_core::Stream` of
//! `bytes::Bytes` chunks gives the same events as feeding the sans-IO core,
//! through `Pending` polls, and reports transport failures.
//! Runs with `cargo test --release --all-features` (`required-features`).

use crate::common;

use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use futures_core::Stream;
use tooljson::providers::futures::CallEventsError;
use tooljson::providers::{CallEvent, CallStatus, ToolCallStream};

/// Chunks with a `Pending` before every other one, then an optional error.
struct Body {
    chunks: VecDeque<Bytes>,
    pend: bool,
    fail_at_end: bool,
}

impl Stream for Body {
    type Item = Result<Bytes, std::io::Error>;
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.pend = !self.pend;
        if self.pend {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        match self.chunks.pop_front() {
            Some(c) => Poll::Ready(Some(Ok(c))),
            None if self.fail_at_end => {
                self.fail_at_end = false;
                Poll::Ready(Some(Err(std::io::Error::other("connection reset"))))
            }
            None => Poll::Ready(None),
        }
    }
}

fn corpus(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/corpus/transcripts/{name}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn collect(
    bytes: &[u8],
    chunk: usize,
    fail_at_end: bool,
) -> (
    Vec<CallEvent>,
    Vec<CallEventsError<std::io::Error>>,
    ToolCallStream,
) {
    let body = Body {
        chunks: bytes.chunks(chunk).map(Bytes::copy_from_slice).collect(),
        pend: false,
        fail_at_end,
    };
    let mut s = ToolCallStream::new().into_events(body);
    let mut cx = Context::from_waker(Waker::noop());
    let (mut events, mut failures, mut pendings) = (Vec::new(), Vec::new(), 0);
    loop {
        match Pin::new(&mut s).poll_next(&mut cx) {
            Poll::Pending => pendings += 1,
            Poll::Ready(Some(Ok(e))) => events.push(e),
            Poll::Ready(Some(Err(f))) => failures.push(f),
            Poll::Ready(None) => break,
        }
    }
    assert!(pendings > 0);
    (events, failures, s.into_tool_call_stream())
}

#[test]
fn same_events_as_the_core() {
    let bytes = corpus("anthropic-parallel-interleaved.sse");
    let mut core = ToolCallStream::new();
    core.feed(&bytes).unwrap();
    core.finish().unwrap();
    let want: Vec<CallEvent> = core.drain_events().collect();
    for chunk in [1, 7, 64, bytes.len()] {
        let (events, failures, calls) = collect(&bytes, chunk, false);
        assert!(failures.is_empty());
        assert_eq!(events, want, "chunk {chunk}");
        assert!(
            calls
                .calls()
                .iter()
                .all(|c| c.status() == CallStatus::Complete)
        );
    }
}

#[test]
fn transport_error_truncates_open_calls() {
    let bytes = corpus("anthropic-parallel-interleaved.sse");
    let half = &bytes[..bytes.len() / 2];
    let (events, failures, calls) = collect(half, 64, true);
    assert_eq!(failures.len(), 1);
    assert!(
        matches!(&failures[0], CallEventsError::Transport(e) if e.to_string() == "connection reset")
    );
    assert!(matches!(
        events.last(),
        Some(CallEvent::StreamFinished { .. })
    ));
    assert!(!calls.calls().is_empty());
    assert!(
        calls
            .calls()
            .iter()
            .all(|c| c.status() == CallStatus::Truncated)
    );
}

#[test]
fn protocol_error_is_yielded_after_its_events() {
    let bytes = std::fs::read(common::testdata(
        "vendor-streams/anthropic/vercel-spliced-message-start-INVALID.sse",
    ))
    .unwrap();
    let (events, failures, calls) = collect(&bytes, 7, false);
    assert_eq!(failures.len(), 1);
    assert!(
        matches!(&failures[0], CallEventsError::Stream(e) if e.to_string().contains("second message_start"))
    );
    assert!(matches!(
        events.last(),
        Some(CallEvent::StreamFinished { .. })
    ));
    assert_eq!(calls.calls()[0].status(), CallStatus::Aborted);
}
