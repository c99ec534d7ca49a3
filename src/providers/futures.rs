//! The `stream` feature: [`CallEvents`], a thin adapter from a
//! `futures_core::Stream` of body chunks (`Result<Bytes, E>`, as reqwest's
//! `bytes_stream()` gives) to a `Stream` of [`CallEvent`]s, over the sans-IO
//! [`ToolCallStream`].
//!
//! The one way in is [`ToolCallStream::into_events`]: configure the
//! stream (vendor, tools, budgets), then hand it the body. The body stream
//! must be `Unpin` (reqwest's `bytes_stream()` is; pin any other with
//! `Box::pin`).
//!
//! # Examples
//!
//! ```
//! use std::pin::Pin;
//! use std::task::{Context, Poll, Waker};
//! use bytes::Bytes;
//! use futures_core::Stream;
//! use tooljson::providers::{CallEvent, CallStatus, ToolCallStream};
//!
//! /// A body that arrives in pieces (reqwest's `bytes_stream()` in real code).
//! struct Body(Vec<Bytes>);
//! impl Stream for Body {
//!     type Item = Result<Bytes, std::io::Error>;
//!     fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
//!         Poll::Ready(if self.0.is_empty() { None } else { Some(Ok(self.0.remove(0))) })
//!     }
//! }
//!
//! let body = Body(vec![
//!     Bytes::from_static(b"data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\":\"}}]}}]}\n\n"),
//!     Bytes::from_static(b"data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"1}\"}}]},\"finish_reason\":\"tool_calls\"}]}\n\ndata: [DONE]\n\n"),
//! ]);
//! let mut events = ToolCallStream::new().into_events(body);
//! let mut cx = Context::from_waker(Waker::noop());
//! let mut statuses = Vec::new();
//! while let Poll::Ready(Some(item)) = Pin::new(&mut events).poll_next(&mut cx) {
//!     if let CallEvent::CallFinished { status, .. } = item? {
//!         statuses.push(status);
//!     }
//! }
//! assert_eq!(statuses, [CallStatus::Complete]);
//! let calls = events.into_tool_calls();
//! assert_eq!(calls.call_by_id("call_1").unwrap().value().unwrap().to_string(), r#"{"a":1}"#);
//! # Ok::<(), tooljson::providers::futures::CallEventsError<std::io::Error>>(())
//! ```

use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use super::{CallEvent, StreamError, ToolCallStream};

/// Why a [`CallEvents`] stream failed.
#[derive(Debug)]
pub enum CallEventsError<E> {
    /// The body stream failed (the connection broke). Open calls were
    /// finished as at the end of the input (truncated).
    Transport(E),
    /// The response could not be followed; see [`StreamError`].
    Stream(StreamError),
}

impl<E: fmt::Display> fmt::Display for CallEventsError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallEventsError::Transport(e) => write!(f, "reading the response body: {e}"),
            CallEventsError::Stream(e) => write!(f, "{e}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for CallEventsError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CallEventsError::Transport(e) => Some(e),
            CallEventsError::Stream(e) => Some(e),
        }
    }
}

/// A `Stream` of [`CallEvent`]s over a `Stream` of body chunks
/// (`Result<B, E>` with `B: AsRef<[u8]>`, e.g. `bytes::Bytes`), made by
/// [`ToolCallStream::into_events`]. Every event
/// queued by a chunk is yielded before the next chunk is polled; a failure
/// is yielded once, after the events it queued (the last being
/// [`CallEvent::StreamFinished`]), and then the stream ends.
pub struct CallEvents<S, E> {
    body: S,
    calls: ToolCallStream,
    body_done: bool,
    failure: Option<CallEventsError<E>>,
}

// Nothing is ever pinned in place: a stored failure is only moved out.
impl<S: Unpin, E> Unpin for CallEvents<S, E> {}

impl<S, E: fmt::Debug> fmt::Debug for CallEvents<S, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallEvents")
            .field("calls", &self.calls)
            .field("body_done", &self.body_done)
            .field("failure", &self.failure)
            .finish()
    }
}

impl ToolCallStream {
    /// This stream as a `Stream` of [`CallEvent`]s over a body stream of
    /// chunks (`Result<B, E>` with `B: AsRef<[u8]>`: `bytes::Bytes` from
    /// reqwest's `bytes_stream()`, `Vec<u8>`, `&[u8]`); see the
    /// [module docs](self) for an example. Feature `stream`.
    pub fn into_events<S, B, E>(self, body: S) -> CallEvents<S, E>
    where
        S: Stream<Item = Result<B, E>> + Unpin,
        B: AsRef<[u8]>,
    {
        CallEvents {
            body,
            calls: self,
            body_done: false,
            failure: None,
        }
    }
}

impl<S, E> CallEvents<S, E> {
    /// The calls so far (ids, names, statuses, values).
    pub fn tool_calls(&self) -> &ToolCallStream {
        &self.calls
    }

    /// Takes the [`ToolCallStream`] back, e.g. once the stream has ended.
    pub fn into_tool_calls(self) -> ToolCallStream {
        self.calls
    }
}

impl<S, B, E> Stream for CallEvents<S, E>
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    type Item = Result<CallEvent, CallEventsError<E>>;

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = Pin::into_inner(self);
        loop {
            if let Some(event) = this.calls.next_event() {
                return Poll::Ready(Some(Ok(event)));
            }
            if let Some(f) = this.failure.take() {
                return Poll::Ready(Some(Err(f)));
            }
            if this.body_done {
                return Poll::Ready(None);
            }
            match Pin::new(&mut this.body).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Some(Ok(chunk))) => {
                    if let Err(e) = this.calls.feed(chunk.as_ref()) {
                        this.body_done = true;
                        this.failure = Some(CallEventsError::Stream(e));
                    }
                }
                Poll::Ready(Some(Err(e))) => {
                    this.body_done = true;
                    // The input ended here: open calls end truncated.
                    let _ = this.calls.finish();
                    this.failure = Some(CallEventsError::Transport(e));
                }
                Poll::Ready(None) => {
                    this.body_done = true;
                    if let Err(e) = this.calls.finish() {
                        this.failure = Some(CallEventsError::Stream(e));
                    }
                }
            }
        }
    }
}
