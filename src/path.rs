//! Paths into a JSON value: object keys and array indices, displayed as
//! JSON Pointers (RFC 6901), so `{"a":[{"b":1}]}` names the `1` as `/a/0/b`.

use std::fmt;

/// One step of a [`Path`]: an object member's key or an array item's index.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Segment {
    /// The member of an object with this key.
    Key(String),
    /// The item of an array at this index.
    Index(usize),
}

impl Segment {
    /// The key, if this segment is one.
    pub fn as_key(&self) -> Option<&str> {
        match self {
            Segment::Key(k) => Some(k),
            Segment::Index(_) => None,
        }
    }

    /// The index, if this segment is one.
    pub fn as_index(&self) -> Option<usize> {
        match self {
            Segment::Index(i) => Some(*i),
            Segment::Key(_) => None,
        }
    }
}

impl From<&str> for Segment {
    fn from(key: &str) -> Self {
        Segment::Key(key.to_owned())
    }
}

impl From<String> for Segment {
    fn from(key: String) -> Self {
        Segment::Key(key)
    }
}

impl From<usize> for Segment {
    fn from(index: usize) -> Self {
        Segment::Index(index)
    }
}

/// An owned path from the root of a document to one of its values.
///
/// Displays as a JSON Pointer; the root is the empty pointer `""`.
///
/// # Examples
///
/// ```
/// use tooljson::{Path, Segment};
///
/// let path = Path::from_segments([Segment::from("a/b"), Segment::from(0), Segment::from("~x")]);
/// assert_eq!(path.to_string(), "/a~1b/0/~0x");
/// assert_eq!(Path::root().to_string(), "");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Path {
    segments: Vec<Segment>,
}

impl Path {
    /// The path of the root value.
    pub fn root() -> Self {
        Path::default()
    }

    /// Builds a path from its segments, outermost first.
    pub fn from_segments(segments: impl IntoIterator<Item = Segment>) -> Self {
        Path {
            segments: segments.into_iter().collect(),
        }
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Borrows this path as a [`PathRef`].
    pub fn as_ref(&self) -> PathRef<'_> {
        PathRef(&self.segments)
    }

    /// Appends a segment.
    pub fn push(&mut self, segment: Segment) {
        self.segments.push(segment);
    }

    /// Removes and returns the last segment.
    pub fn pop(&mut self) -> Option<Segment> {
        self.segments.pop()
    }

    /// A new path with `segment` appended.
    pub fn join(&self, segment: impl Into<Segment>) -> Path {
        let mut p = self.clone();
        p.push(segment.into());
        p
    }

    /// The number of segments (0 for the root).
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether this is the root path.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Parses a JSON Pointer (RFC 6901). Segments that are canonical decimal
    /// numbers become [`Segment::Index`], all others [`Segment::Key`].
    ///
    /// Returns `None` for text that is not a pointer (does not start with `/`,
    /// or has a `~` not followed by `0` or `1`).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::Path;
    /// let p = Path::parse_pointer("/a~1b/0").unwrap();
    /// assert_eq!(p.to_string(), "/a~1b/0");
    /// assert!(Path::parse_pointer("a").is_none());
    /// ```
    pub fn parse_pointer(pointer: &str) -> Option<Path> {
        if pointer.is_empty() {
            return Some(Path::root());
        }
        let rest = pointer.strip_prefix('/')?;
        let mut segments = Vec::new();
        for raw in rest.split('/') {
            let mut key = String::with_capacity(raw.len());
            let mut chars = raw.chars();
            while let Some(c) = chars.next() {
                if c == '~' {
                    match chars.next() {
                        Some('0') => key.push('~'),
                        Some('1') => key.push('/'),
                        _ => return None,
                    }
                } else {
                    key.push(c);
                }
            }
            let is_index = !key.is_empty()
                && key.bytes().all(|b| b.is_ascii_digit())
                && (key == "0" || !key.starts_with('0'));
            match key.parse::<usize>() {
                Ok(i) if is_index => segments.push(Segment::Index(i)),
                _ => segments.push(Segment::Key(key)),
            }
        }
        Some(Path { segments })
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_ref().fmt(f)
    }
}

impl From<PathRef<'_>> for Path {
    fn from(p: PathRef<'_>) -> Self {
        p.to_path()
    }
}

impl serde::Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A borrowed path, as the parser hands it to a [`crate::TokenSink`] without
/// allocating.
///
/// # Examples
///
/// ```
/// use tooljson::{PathRef, Segment};
/// let segs = [Segment::from("files"), Segment::from(2)];
/// assert_eq!(PathRef::new(&segs).to_string(), "/files/2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PathRef<'a>(&'a [Segment]);

impl<'a> PathRef<'a> {
    /// Wraps a slice of segments, outermost first.
    pub fn new(segments: &'a [Segment]) -> Self {
        PathRef(segments)
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &'a [Segment] {
        self.0
    }

    /// The number of segments (0 for the root).
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether this is the root path.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The last segment, `None` at the root.
    pub fn last(&self) -> Option<&'a Segment> {
        self.0.last()
    }

    /// Copies this path into an owned [`Path`].
    pub fn to_path(&self) -> Path {
        Path {
            segments: self.0.to_vec(),
        }
    }
}

impl fmt::Display for PathRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for seg in self.0 {
            f.write_str("/")?;
            match seg {
                Segment::Index(i) => write!(f, "{i}")?,
                Segment::Key(k) => {
                    if k.contains(['~', '/']) {
                        for c in k.chars() {
                            match c {
                                '~' => f.write_str("~0")?,
                                '/' => f.write_str("~1")?,
                                c => fmt::Write::write_char(f, c)?,
                            }
                        }
                    } else {
                        f.write_str(k)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl PartialEq<Path> for PathRef<'_> {
    fn eq(&self, other: &Path) -> bool {
        self.0 == other.segments.as_slice()
    }
}
