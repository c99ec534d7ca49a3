//! The parser's error: one small boxed value with a category, a byte position
//! (offset, line, column) and the path into the document where it happened.

use std::fmt;

use crate::path::Path;

/// What kind of failure an [`Error`] is. A caller must treat these
/// differently: only a complete, valid value may ever be executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// The input ended inside the value (`finish()` came too early): what was
    /// there may be a valid prefix, but it is not a value.
    Truncated,
    /// A byte that can never be part of JSON at this point.
    Invalid,
    /// Something other than whitespace after the root value closed, as in
    /// `{"a":1}{"a":2}`.
    TrailingData,
    /// A configured [`crate::Limits`] bound was exceeded.
    LimitExceeded,
    /// The API was used out of order (a feed after `finish()`).
    Misuse,
}

/// Which limit an [`ErrorCode::LimitExceeded`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// Nesting depth of arrays and objects.
    Depth,
    /// Total input bytes.
    InputBytes,
    /// Decoded bytes of one string (key or value).
    StringBytes,
    /// Bytes of one number's lexeme.
    NumberBytes,
}

impl LimitKind {
    fn describe(self) -> &'static str {
        match self {
            LimitKind::Depth => "nesting depth",
            LimitKind::InputBytes => "input length",
            LimitKind::StringBytes => "string length",
            LimitKind::NumberBytes => "number length",
        }
    }
}

/// The precise reason for an [`Error`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorCode {
    /// Input ended while parsing the named thing (`a value`, `a string`,
    /// `an object`, `a list`).
    Eof(&'static str),
    /// A byte that does not fit the grammar here.
    Expected {
        /// What the grammar allows here, e.g. `':'`.
        expected: &'static str,
        /// What was found, e.g. `'}'` or `byte 0xff`.
        found: String,
    },
    /// A raw control character (U+0000 to U+001F) inside a string.
    ControlCharacterInString(u8),
    /// Bytes in a string that are not UTF-8.
    InvalidUtf8,
    /// A `\uXXXX` high surrogate not followed by a `\uXXXX` low surrogate, or
    /// a low surrogate with no high one before it.
    LoneSurrogate(u16),
    /// A key appeared twice in one object under [`crate::parser::DuplicateKeys::Error`].
    DuplicateKey(String),
    /// Non-whitespace after the root value.
    TrailingCharacters(String),
    /// A limit was exceeded.
    LimitExceeded {
        /// Which limit.
        kind: LimitKind,
        /// Its configured value.
        limit: u64,
    },
    /// `feed` or `finish` was called after `finish`.
    AfterFinish,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct ErrorImpl {
    code: ErrorCode,
    offset: u64,
    line: u64,
    column: u64,
    path: Path,
}

/// A parse error: what went wrong, where (byte offset, line and column, all
/// counted in bytes), and at which path in the document.
///
/// # Examples
///
/// ```
/// use tooljson::Category;
/// let err = tooljson::from_str(r#"{"a" 1}"#).unwrap_err();
/// assert_eq!(err.category(), Category::Invalid);
/// assert_eq!(err.to_string(), "expected ':', found '1' at line 1 column 6 (at /a)");
/// assert_eq!((err.offset(), err.line(), err.column()), (5, 1, 6));
/// assert_eq!(err.path().to_string(), "/a");
///
/// let err = tooljson::from_str(r#"{"a": [1, 2"#).unwrap_err();
/// assert!(err.is_truncated());
/// assert_eq!(err.to_string(), "EOF while parsing a list at line 1 column 11 (at /a/1)");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    inner: Box<ErrorImpl>,
}

impl Error {
    #[cold]
    pub(crate) fn new(code: ErrorCode, offset: u64, line: u64, column: u64, path: Path) -> Error {
        Error {
            inner: Box::new(ErrorImpl {
                code,
                offset,
                line,
                column,
                path,
            }),
        }
    }

    /// The category: truncated, invalid, trailing data, limit or misuse.
    pub fn category(&self) -> Category {
        match self.inner.code {
            ErrorCode::Eof(_) => Category::Truncated,
            ErrorCode::Expected { .. }
            | ErrorCode::ControlCharacterInString(_)
            | ErrorCode::InvalidUtf8
            | ErrorCode::LoneSurrogate(_)
            | ErrorCode::DuplicateKey(_) => Category::Invalid,
            ErrorCode::TrailingCharacters(_) => Category::TrailingData,
            ErrorCode::LimitExceeded { .. } => Category::LimitExceeded,
            ErrorCode::AfterFinish => Category::Misuse,
        }
    }

    /// The precise reason.
    pub fn code(&self) -> &ErrorCode {
        &self.inner.code
    }

    /// Whether the input ended inside the value.
    pub fn is_truncated(&self) -> bool {
        self.category() == Category::Truncated
    }

    /// Whether a byte could never be JSON.
    pub fn is_invalid(&self) -> bool {
        self.category() == Category::Invalid
    }

    /// Whether data followed the root value.
    pub fn is_trailing_data(&self) -> bool {
        self.category() == Category::TrailingData
    }

    /// Whether a limit was exceeded.
    pub fn is_limit_exceeded(&self) -> bool {
        self.category() == Category::LimitExceeded
    }

    /// Whether the API was misused.
    pub fn is_misuse(&self) -> bool {
        self.category() == Category::Misuse
    }

    /// Zero-based byte offset of the offending byte (for truncation: the
    /// total input length).
    pub fn offset(&self) -> u64 {
        self.inner.offset
    }

    /// One-based line of the offending byte.
    pub fn line(&self) -> u64 {
        self.inner.line
    }

    /// One-based column (in bytes) of the offending byte; for truncation the
    /// column of the last byte, as serde_json reports it.
    pub fn column(&self) -> u64 {
        self.inner.column
    }

    /// Where in the document: the path of the value being parsed.
    pub fn path(&self) -> &Path {
        &self.inner.path
    }

    /// What the grammar allowed, for [`ErrorCode::Expected`].
    pub fn expected(&self) -> Option<&'static str> {
        match &self.inner.code {
            ErrorCode::Expected { expected, .. } => Some(expected),
            _ => None,
        }
    }

    /// What was found instead, for [`ErrorCode::Expected`] and trailing data.
    pub fn found(&self) -> Option<&str> {
        match &self.inner.code {
            ErrorCode::Expected { found, .. } | ErrorCode::TrailingCharacters(found) => Some(found),
            _ => None,
        }
    }

    /// The message without its position: `expected ':', found '}'`.
    pub fn description(&self) -> String {
        match &self.inner.code {
            ErrorCode::Eof(what) => format!("EOF while parsing {what}"),
            ErrorCode::Expected { expected, found } => {
                format!("expected {expected}, found {found}")
            }
            ErrorCode::ControlCharacterInString(b) => format!(
                "control character (\\u0000-\\u001F) found while parsing a string: U+{b:04X}"
            ),
            ErrorCode::InvalidUtf8 => "invalid UTF-8 in string".to_owned(),
            ErrorCode::LoneSurrogate(u) => format!("lone surrogate \\u{u:04x} in string"),
            ErrorCode::DuplicateKey(k) => format!("duplicate key {k:?}"),
            ErrorCode::TrailingCharacters(found) => {
                format!("trailing characters after the root value, found {found}")
            }
            ErrorCode::LimitExceeded { kind, limit } => {
                format!("{} limit of {limit} exceeded", kind.describe())
            }
            ErrorCode::AfterFinish => "parser used after finish()".to_owned(),
        }
    }
}

/// Describes a byte found where it does not fit: `'x'` for printable ASCII,
/// `'\n'` style for common escapes, `byte 0xNN` otherwise.
pub(crate) fn describe_byte(b: u8) -> String {
    match b {
        b'\n' => "'\\n'".to_owned(),
        b'\r' => "'\\r'".to_owned(),
        b'\t' => "'\\t'".to_owned(),
        b'\'' => "\"'\"".to_owned(),
        0x20..=0x7e => format!("'{}'", b as char),
        _ => format!("byte 0x{b:02x}"),
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.description(),
            self.inner.line,
            self.inner.column
        )?;
        if !self.inner.path.is_empty() {
            write!(f, " (at {})", self.inner.path)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Error({:?}, {:?}, offset {}, line {}, column {}, path {:?})",
            self.category(),
            self.description(),
            self.inner.offset,
            self.inner.line,
            self.inner.column,
            self.inner.path.to_string()
        )
    }
}

impl std::error::Error for Error {}
