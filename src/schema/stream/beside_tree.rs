//! The stream check beside the partial tree: [`StreamCheck`] as the tree's
//! [`Watcher`], and the [`PartialParser`] methods that attach it, read it
//! and take it back.

use std::any::Any;

use super::StreamCheck;
use crate::partial::PartialParser;
use crate::partial::watch::Watcher;

impl Watcher for StreamCheck {
    /// The short path's bound (`quiet_part`), from the count so far: a
    /// piece that keeps the count below it is only counted.
    fn counts_only_below(&self) -> u64 {
        self.st.quiet_until.saturating_sub(self.st.string_chars)
    }

    fn count_unseen(&mut self, text: &str, last_offset: u64) {
        self.count_elsewhere(text.as_bytes());
        self.st.last_offset = last_offset;
    }
}

impl PartialParser {
    /// Attaches a schema's stream check, to be fed the same tokens as the
    /// tree on the same pass by every later [`feed`](PartialParser::feed)
    /// and [`finish`](PartialParser::finish). This is the one way to run a
    /// check beside the partial tree (beside a [`Value`](crate::Value)
    /// being built, it is [`StreamCheck::beside`]); it is cheaper than
    /// showing the check every token when a long string arrives in small
    /// deltas. While the check needs no more of a string than its length
    /// (no `enum`, `const`, `pattern` or asserted `format` on it) and the
    /// text so far cannot pass its smallest `maxLength` even at one
    /// character per byte, the string's pieces go to the tree alone, and
    /// the check counts their characters from the tree's text when it next
    /// needs the count. Its violations, their offsets and its verdict are
    /// the same. Attach it before the first fragment (a check sees only the
    /// tokens fed after it is attached); it replaces a check attached
    /// before, and [`reset`](PartialParser::reset) drops it.
    ///
    /// ```
    /// use serde_json::json;
    /// use tooljson::{CompiledSchema, partial::PartialParser};
    ///
    /// let schema = CompiledSchema::compile(&json!({
    ///     "type": "object",
    ///     "properties": {"path": {"type": "string", "maxLength": 8}},
    ///     "additionalProperties": false
    /// }))?;
    /// let mut p = PartialParser::new();
    /// p.attach_check(schema.stream_check());
    /// p.feed(br#"{"path": "src/"#, &mut ())?;
    /// assert!(!p.check().unwrap().is_doomed());
    /// p.feed(br#"main.rs"}"#, &mut ())?;
    /// // Certain once the ninth character, `.`, has been read: 19 bytes in.
    /// assert_eq!(p.check().unwrap().first_violation_offset(), Some(19));
    /// p.finish(&mut ())?;
    /// assert!(p.take_check().unwrap().finish().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn attach_check(&mut self, check: StreamCheck) {
        self.attach_watcher(Box::new(check));
    }

    /// The attached check ([`PartialParser::attach_check`]): its violations
    /// so far are all those certain in the input fed so far.
    pub fn check(&self) -> Option<&StreamCheck> {
        // The one watcher attached is a check (`attach_check`).
        let watcher: &dyn Any = self.watcher()?;
        watcher.downcast_ref()
    }

    /// Detaches the check, having shown it what it had not been shown of
    /// the open string; call [`StreamCheck::finish`] on it for the verdict
    /// once the parser has finished.
    pub fn take_check(&mut self) -> Option<StreamCheck> {
        let watcher: Box<dyn Any> = self.take_watcher()?;
        watcher.downcast().ok().map(|check| *check)
    }
}
