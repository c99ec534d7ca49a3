//! The `stream` feature: [`CallEvents`], a thin adapter from a
//! `futures_core::Stream` of body chunks to a `Stream` of [`CallEvent`]s,
//! over the sans-IO [`ToolCallStream`]. A chunk is a [`BodyChunk`]:
//! `Result<B, E>` with `B: AsRef<[u8]>` (reqwest's `bytes_stream()` gives
//! `Result<Bytes, reqwest::Error>`), or plain bytes (`Bytes`, `Vec<u8>`,
//! `&[u8]`, `String`, `&str`), as `futures::stream::iter(chunks)` gives.
//!
//! The one way in is [`ToolCallStream::into_events`]: configure the
//! stream (vendor, tools, budgets), then hand it the body. The body stream
//! must be `Unpin` (reqwest's `bytes_stream()` and `stream::iter` are; pin
//! any other with `Box::pin`).
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
//! let stream = events.into_tool_call_stream();
//! assert_eq!(stream.call_by_id("call_1").unwrap().value().unwrap().to_string(), r#"{"a":1}"#);
//! # Ok::<(), tooljson::providers::futures::CallEventsError<std::io::Error>>(())
//! ```
//!
//! Plain chunks, with no transport error (the error type is
//! [`Infallible`]):
//!
//! ```
//! use std::pin::Pin;
//! use std::task::{Context, Poll, Waker};
//! use futures_core::Stream;
//! use tooljson::providers::{CallEvent, ToolCallStream};
//!
//! /// `futures::stream::iter(chunks)` in real code.
//! struct Iter(std::vec::IntoIter<Vec<u8>>);
//! impl Stream for Iter {
//!     type Item = Vec<u8>;
//!     fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Vec<u8>>> {
//!         Poll::Ready(self.0.next())
//!     }
//! }
//! let body = b"data: {\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
//! let chunks: Vec<Vec<u8>> = body.chunks(7).map(<[u8]>::to_vec).collect();
//! let mut events = ToolCallStream::new().into_events(Iter(chunks.into_iter()));
//! let mut cx = Context::from_waker(Waker::noop());
//! while let Poll::Ready(Some(item)) = Pin::new(&mut events).poll_next(&mut cx) {
//!     let _event: CallEvent = item?;
//! }
//! assert_eq!(events.tool_call_stream().text(0), "Hi");
//! # Ok::<(), tooljson::providers::futures::CallEventsError<std::convert::Infallible>>(())
//! ```

use std::convert::Infallible;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use super::{CallEvent, StreamError, ToolCallStream};

/// One item of a body stream: the chunk's bytes, or the transport's error.
///
/// Implemented for `Result<B, E>` with `B: AsRef<[u8]>` (what HTTP clients
/// give: reqwest's `bytes_stream()`) and for plain chunks, which cannot
/// fail (their error is [`Infallible`]): `bytes::Bytes`, `Vec<u8>`,
/// `&[u8]`, `&[u8; N]`, `Box<[u8]>`, `String`, `&str`.
pub trait BodyChunk {
    /// The chunk's bytes.
    type Bytes: AsRef<[u8]>;
    /// The transport's error.
    type Error;
    /// The bytes, or the error.
    ///
    /// # Errors
    ///
    /// The transport's error, as the body stream gave it.
    fn into_bytes(self) -> Result<Self::Bytes, Self::Error>;
}

impl<B: AsRef<[u8]>, E> BodyChunk for Result<B, E> {
    type Bytes = B;
    type Error = E;
    fn into_bytes(self) -> Result<B, E> {
        self
    }
}

macro_rules! plain_chunk {
    ($($t:ty),* $(,)?) => {$(
        impl BodyChunk for $t {
            type Bytes = $t;
            type Error = Infallible;
            fn into_bytes(self) -> Result<$t, Infallible> {
                Ok(self)
            }
        }
    )*};
}

plain_chunk!(bytes::Bytes, Vec<u8>, Box<[u8]>, String);

impl<'a> BodyChunk for &'a [u8] {
    type Bytes = &'a [u8];
    type Error = Infallible;
    fn into_bytes(self) -> Result<&'a [u8], Infallible> {
        Ok(self)
    }
}

impl<'a, const N: usize> BodyChunk for &'a [u8; N] {
    type Bytes = &'a [u8; N];
    type Error = Infallible;
    fn into_bytes(self) -> Result<&'a [u8; N], Infallible> {
        Ok(self)
    }
}

impl<'a> BodyChunk for &'a str {
    type Bytes = &'a str;
    type Error = Infallible;
    fn into_bytes(self) -> Result<&'a str, Infallible> {
        Ok(self)
    }
}

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

/// A `Stream` of [`CallEvent`]s over a `Stream` of body chunks (any
/// [`BodyChunk`]; `E` is its transport error), made by
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
    /// chunks ([`BodyChunk`]: `Result<Bytes, E>` from reqwest's
    /// `bytes_stream()`, or plain `Bytes`, `Vec<u8>`, `&[u8]`); see the
    /// [module docs](self) for an example. Feature `stream`.
    pub fn into_events<S>(self, body: S) -> CallEvents<S, <S::Item as BodyChunk>::Error>
    where
        S: Stream + Unpin,
        S::Item: BodyChunk,
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
    /// The [`ToolCallStream`] underneath: the calls so far, the text, the
    /// usage; at the end, the final message.
    pub fn tool_call_stream(&self) -> &ToolCallStream {
        &self.calls
    }

    /// Takes the [`ToolCallStream`] back, e.g. once the stream has ended.
    pub fn into_tool_call_stream(self) -> ToolCallStream {
        self.calls
    }
}

impl<S, E> Stream for CallEvents<S, E>
where
    S: Stream + Unpin,
    S::Item: BodyChunk<Error = E>,
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
                Poll::Ready(Some(chunk)) => match chunk.into_bytes() {
                    Ok(bytes) => {
                        if let Err(e) = this.calls.feed(bytes.as_ref()) {
                            this.body_done = true;
                            this.failure = Some(CallEventsError::Stream(e));
                        }
                    }
                    Err(e) => {
                        this.body_done = true;
                        // The input ended here: open calls end truncated.
                        let _ = this.calls.finish();
                        this.failure = Some(CallEventsError::Transport(e));
                    }
                },
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
