//! What runs beside the tree on the same pass: the [`Watcher`] trait, which
//! this layer defines and a layer above implements (the schema's stream
//! check), and the sink that feeds a watcher beside the tree, keeping from
//! it the pieces of a string whose length is all it needs.

use std::any::Any;
use std::fmt;

use super::tree::PartialTree;
use super::{EventSink, PartialParser};
use crate::parser::{Location, Token, TokenSink};

/// A [`TokenSink`] fed the tokens of the partial tree on the same pass: the
/// parser's tokens go to the watcher, then to the tree, so that a
/// watcher's positions are the tree's. Defined here, by the layer that
/// calls it, so that the tree needs nothing from the layers above; the
/// schema's stream check implements it, and
/// [`PartialParser::attach_check`](crate::PartialParser::attach_check)
/// attaches one.
///
/// The tree's text of a string is a second copy of what a watcher would be
/// shown piece by piece. A watcher that needs no more of a string than its
/// length says so when the string begins ([`Watcher::counts_only_below`]);
/// the tree then keeps the pieces from it (one comparison per piece, no
/// call) and hands it their text in one go ([`Watcher::count_unseen`])
/// before its next token, or when it is detached. Its state is then what it
/// would have been had it been shown every piece.
///
/// Every watcher is `Send + Sync` (a [`PartialParser`] moves between
/// threads) and `Any`, so that the layer that attached one gets its own
/// type back.
pub(crate) trait Watcher: TokenSink + Any + Send + Sync + fmt::Debug {
    /// Asked right after this watcher took a [`Token::StringBegin`]: the
    /// pieces of that string whose bytes, all together, stay below the
    /// bound returned here need only be counted (shown one by one, they
    /// would change nothing but a count and make no violation). The tree
    /// keeps such pieces from it and hands it their text with
    /// [`Watcher::count_unseen`] before anything else of the string. 0: it
    /// is shown every piece.
    fn counts_only_below(&self) -> u64;

    /// Takes the pieces of the open string it was kept from (see
    /// [`Watcher::counts_only_below`]) as it would have taken them one by
    /// one: `text` is their text, all of it, and `last_offset` the offset
    /// of the last one.
    fn count_unseen(&mut self, text: &str, last_offset: u64);
}

// A parser, with or without a watcher, moves between threads (a gateway
// checks calls on other tasks): every watcher is `Send + Sync` for this.
const _: fn() = || {
    fn shared<T: Send + Sync>() {}
    shared::<PartialParser>();
};

/// A [`Watcher`] fed beside the tree, and how much of the open string it
/// has not been shown.
#[derive(Debug)]
pub(super) struct AttachedWatcher {
    watcher: Box<dyn Watcher>,
    /// While the open string's pieces, all together, stay below this many
    /// bytes they go to the tree alone ([`Watcher::counts_only_below`]); 0
    /// when every token goes to the watcher.
    quiet_below: u64,
    /// Bytes of the open string's pieces the watcher has not been shown.
    pending: u64,
    /// The offset of the last of those pieces.
    last_offset: u64,
}

impl AttachedWatcher {
    /// Shows the watcher what it has not been shown of the open string:
    /// its text, read from the tree in one go, and the last piece's offset.
    /// After this the string's pieces go to the watcher too.
    fn catch_up(&mut self, tree: &mut PartialTree) {
        self.quiet_below = 0;
        if self.pending > 0 {
            if let Some(text) = tree.open_string_text() {
                self.watcher.count_unseen(text, self.last_offset);
            }
            self.pending = 0;
        }
    }
}

/// The tree's sink with a watcher beside it. While the pieces of the open
/// string not shown to the watcher stay below its bound
/// ([`Watcher::counts_only_below`]), a piece goes to the tree alone; at the
/// string's next token that could matter (a piece that would reach the
/// bound, or its end) the watcher is shown the tree's text first, then
/// takes the token as it would have. Its state is then what it would have
/// been had it been shown every piece: no violation can lie in text it
/// only counted.
pub(super) struct WatchedTreeSink<'t, 'e, 'w, E: ?Sized> {
    pub(super) tree: &'t mut PartialTree,
    pub(super) events: &'e mut E,
    pub(super) attached: &'w mut AttachedWatcher,
}

impl<E: EventSink + ?Sized> TokenSink for WatchedTreeSink<'_, '_, '_, E> {
    /// The piece the tree alone takes in line, as the tree's own sink
    /// takes every token; the rest out of line.
    #[inline(always)]
    fn token(&mut self, token: Token<'_>, at: &Location<'_>) {
        let a = &mut *self.attached;
        if let Token::StringPart(part) = token {
            let pending = a.pending + part.len() as u64;
            if pending < a.quiet_below {
                a.pending = pending;
                a.last_offset = at.offset;
                self.tree.handle(token, at, self.events);
                return;
            }
        }
        self.watched_token(token, at);
    }

    fn exact_string_offsets_from(&self) -> Option<usize> {
        self.attached.watcher.exact_string_offsets_from()
    }
}

impl<E: EventSink + ?Sized> WatchedTreeSink<'_, '_, '_, E> {
    /// A token the watcher is shown (after what it was not shown of the
    /// open string), then the tree.
    #[inline(never)]
    fn watched_token(&mut self, token: Token<'_>, at: &Location<'_>) {
        let a = &mut *self.attached;
        if a.quiet_below > 0 {
            a.catch_up(self.tree);
        }
        a.watcher.token(token, at);
        self.tree.handle(token, at, self.events);
        if token == Token::StringBegin {
            let bound = a.watcher.counts_only_below();
            // Without a tree (events only) there is no text to count from.
            if bound > 0 && self.tree.open_string_text().is_some() {
                a.quiet_below = bound;
            }
        }
    }
}

/// The watcher's side of [`PartialParser`], for the layer that implements
/// [`Watcher`]: it wraps these in methods typed with its own watcher.
#[allow(
    dead_code,
    reason = "a build whose features implement no watcher attaches none"
)]
impl PartialParser {
    /// Attaches `watcher`, to be fed the same tokens as the tree on the
    /// same pass by every later [`feed`](PartialParser::feed) and
    /// [`finish`](PartialParser::finish); it replaces one attached before,
    /// and [`reset`](PartialParser::reset) drops it.
    pub(crate) fn attach_watcher(&mut self, watcher: Box<dyn Watcher>) {
        self.watcher = Some(Box::new(AttachedWatcher {
            watcher,
            quiet_below: 0,
            pending: 0,
            last_offset: 0,
        }));
    }

    /// Detaches the watcher, having shown it what it had not been shown of
    /// the open string.
    pub(crate) fn take_watcher(&mut self) -> Option<Box<dyn Watcher>> {
        let mut attached = self.watcher.take()?;
        attached.catch_up(&mut self.tree);
        Some(attached.watcher)
    }
}

impl PartialParser {
    /// The attached watcher.
    pub(crate) fn watcher(&self) -> Option<&dyn Watcher> {
        self.watcher.as_ref().map(|a| &*a.watcher)
    }
}
