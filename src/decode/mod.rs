//! Constrained decoding: a tool's schema as a token mask, so that a sampler
//! can only write text that stays a viable prefix of a valid instance.
//!
//! A [`Vocabulary`] (each token's bytes and the end-of-sequence ids, with a
//! token trie) is prepared once per model and shared. A [`Constraint`] is
//! compiled from a [`CompiledSchema`] and a vocabulary, once per schema. A
//! [`Matcher`] follows one sequence: [`Matcher::fill_mask`] writes the
//! allowed tokens into a caller's bitset ([`fill_masks`]: a batch of
//! sequences, on threads if the caller asks), [`Matcher::commit_token`] and
//! [`Matcher::commit_bytes`] advance, [`Matcher::rollback`] undoes tokens
//! (speculative decoding), [`Matcher::forced_bytes`] gives the bytes that
//! must come next (fast-forward), [`Matcher::is_complete`] says whether the
//! text may end, and [`Matcher::shortest_completion`] finishes it. A
//! matcher is cheap to clone, to fork a sequence.
//!
//! # Example: mask a tiny vocabulary
//!
//! ```
//! use tooljson::CompiledSchema;
//! use tooljson::decode::{Constraint, Vocabulary};
//! let schema = CompiledSchema::from_json_str(r#"{"enum": ["read", "write"]}"#)?;
//! let words = ["\"", "read", "write", "wr", "ite\"", "\"", "x", ""];
//! let vocab = Vocabulary::from_bytes(words.iter().map(|w| w.as_bytes().to_vec()).collect(), vec![7])?;
//! let constraint = Constraint::new(&schema, &vocab)?;
//! let mut m = constraint.matcher();
//! m.commit_token(0)?; // `"`
//! let mut mask = vec![0u64; vocab.mask_words()];
//! m.fill_mask(&mut mask);
//! let allowed: Vec<u32> = (0..8).filter(|&i| mask[0] >> i & 1 == 1).collect();
//! assert_eq!(allowed, [1, 2, 3]); // `read`, `write`, `wr`
//! m.commit_token(3)?;
//! assert_eq!(m.forced_bytes(), b"ite\"");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The output policy
//!
//! A token is allowed iff the text with it is still the prefix of some
//! text that the crate's strict parser reads and [`CompiledSchema::validate`]
//! accepts, written this way:
//!
//! - compact JSON: no whitespace outside strings (with
//!   [`Whitespace::Bounded`]`(n)`, up to `n` bytes of space, tab, CR or LF
//!   in a row between tokens: around the root value, after `{` `[` `,`
//!   `:` and a key, before `,` `}` `]`);
//! - object keys in any order, each at most once (with
//!   [`KeyOrder::Properties`], the keys named in `properties` in the
//!   order the schema lists them, any other key after them); every
//!   required key before the object closes; a key is written as `serde_json` writes it
//!   (escapes only for `"`, `\` and control characters), so that it is
//!   compared as written; keys outside `properties` are told apart by a
//!   64-bit hash of their text;
//! - integers in plain digits (no fraction, no exponent); a number under a
//!   bound without an exponent;
//! - an `enum` / `const` value exactly as the schema writes it (compact);
//! - every `format` asserted (unless
//!   [`DecodeOptions::formats_as_annotations`]), host names without IDNA
//!   A-labels (see [Formats](#formats));
//! - nesting at most [`MAX_DEPTH`] arrays and objects deep.
//!
//! [`DecodeOptions`] chooses the key order and the whitespace; the
//! defaults are the ones above.
//!
//! ```
//! use tooljson::CompiledSchema;
//! use tooljson::decode::{Constraint, DecodeOptions, KeyOrder, Vocabulary, Whitespace};
//! let schema = CompiledSchema::from_json_str(
//!     r#"{"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "integer"}}}"#,
//! )?;
//! let vocab = Vocabulary::from_bytes((0..=255u8).map(|b| vec![b]).chain([vec![]]).collect(), vec![256])?;
//! let opts = DecodeOptions {
//!     key_order: KeyOrder::Properties,
//!     whitespace: Whitespace::Bounded(1),
//!     ..DecodeOptions::default()
//! };
//! let c = Constraint::with_options(&schema, &vocab, &opts)?;
//! let mut m = c.matcher();
//! assert!(m.clone().commit_bytes(br#"{"b": 1, "a": 2}"#).is_ok());
//! assert!(m.clone().commit_bytes(br#"{"a": 2, "b": 1}"#).is_err()); // out of order
//! assert!(m.commit_bytes(br#"{"b":  1}"#).is_err()); // two spaces
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What compiles
//!
//! `type`, `properties`, `required`, `additionalProperties`,
//! `minProperties` / `maxProperties`, `items` / `prefixItems` (and
//! draft-07 `additionalItems`), `minItems` / `maxItems`, `minLength` /
//! `maxLength` (code points, escapes exact, surrogate pairs checked),
//! `enum` / `const` (every other keyword of the same subschema then holds
//! exactly, since each option is checked by `validate`), integer bounds on
//! integers and numbers, `allOf` and `$ref` (merged; recursion is a
//! reference, unrolled on the matcher's stack), `anyOf` (distributed),
//! `oneOf` when no two branches accept a value of the same type. A
//! `minProperties` or `minItems` above 65,536, and a `minLength` from
//! 2^20 on, count as allowing no value (so that compiling a hostile
//! schema stays cheap): such a subschema is left out of an `anyOf`, and
//! one the value cannot avoid makes the schema refused as unsatisfiable.
//!
//! `pattern`, when the crate matches it without a regex (an anchored
//! sequence of character classes, or classes with groups, alternation and
//! quantifiers in up to 64 positions, 62 without `^` and `$`): the string
//! is followed code point by code point as its escapes and UTF-8 decode,
//! and a prefix is refused as soon as no continuation matches within
//! `minLength` / `maxLength` (a code point still being written is allowed
//! while one it may become keeps a match possible). A pattern left to the
//! `regex` crate (look-around, back references, `\b`, `\u`, more
//! positions) is refused, naming `pattern`; so is a second pattern or
//! format on the same string. Formats are asserted (see [Formats](#formats)).
//!
//! Any other keyword that constrains a value (`multipleOf`, non-integer
//! bounds, `not`, `if`, `patternProperties`, `propertyNames`,
//! `dependent*`, `uniqueItems`, `contains`, `unevaluated*`,
//! `$dynamicRef`, overlapping `oneOf`) fails [`Constraint::new`] with
//! [`DecodeError::Unsupported`] naming it, unless the caller opts into
//! approximations.
//!
//! # Formats
//!
//! Every `format` is asserted by default, also where the schema keeps it
//! an annotation ([`CompiledSchema`] compiled without
//! [`SchemaBuilder::assert_formats`](crate::SchemaBuilder::assert_formats)):
//! the texts are then those that [`CompiledSchema::validate`] accepts
//! with formats asserted. [`DecodeOptions::formats_as_annotations`] (the
//! command line's `--format-annotation`) leaves the schema's annotations
//! unconstrained; the formats a schema itself asserts always hold.
//!
//! - `date`, `ipv4`, `uuid`, `duration`, `json-pointer` and
//!   `relative-json-pointer`: the pattern of exactly the strings the
//!   format checker accepts;
//! - `date-time`, `time`, `uri`, `uri-reference`, `ipv6`, `hostname` and
//!   `email` (RFC 5321 `Mailbox`: a dot-atom or quoted local part, then a
//!   host name or an address literal): hand-built automata equal to the
//!   checker, with `minLength` / `maxLength` exact. One output policy
//!   narrows them: a host name (alone, or an email's domain) is written
//!   without `--` as its label's third and fourth characters, so no IDNA
//!   A-label (`xn--…`): the checker accepts one only when its Punycode
//!   decodes to a valid IDNA2008 label, which no automaton here can tell
//!   from a prefix;
//! - `idn-email`, `idn-hostname`, `iri`, `iri-reference`: refused,
//!   naming `format` (the format checker does not assert them, and
//!   IDNA2008's contextual and bidirectional rules over a whole Unicode
//!   label are no language this decoder follows); `regex` and
//!   `uri-template` are refused too;
//! - a `format` that is no JSON Schema format (`int32`, `phone`, ...)
//!   stays an annotation, as the format checker keeps it.
//!
//! An `enum` / `const` string that breaks an asserted format is left out.
//!
//! # Approximations
//!
//! By default a constraint is exact or refused: never a silent
//! approximation. With [`DecodeOptions::approximate`] on, each refused
//! keyword that can be widened is approximated instead, and listed by
//! [`Constraint::approximations`] as an [`Approximation`] naming the
//! keyword, its schema path and what the mask allows in its place. The
//! mask then allows a superset of the schema's texts: no valid instance
//! is refused, but a text it allows may fail [`CompiledSchema::validate`],
//! so validate the finished value. What each becomes:
//!
//! - `multipleOf`, `not`, `if` / `then` / `else`, `propertyNames`,
//!   `dependentRequired`, `dependentSchemas`, `uniqueItems`, `contains`,
//!   `unevaluatedProperties`, `unevaluatedItems`, `$dynamicRef`: not
//!   enforced;
//! - a `oneOf` whose branches overlap: read as `anyOf`;
//! - a `minimum` / `maximum` (or exclusive) that is not an integer within
//!   64 bits: widened outward to an integer (inclusive), or dropped past
//!   2^53;
//! - `patternProperties`: a key outside `properties` takes any value, its
//!   pattern's schema and a restrictive `additionalProperties` both
//!   unchecked (a key in `properties` keeps its schema);
//! - a `pattern` or asserted `format` the decoder cannot follow, or a
//!   second one on the same string: not enforced (any string, or the one
//!   that is followed).
//!
//! Still refused with the option on: an object with more than 64 named
//! keys (or an `enum` object option with more than 64), a schema that no
//! value satisfies, and a budget exceeded.
//!
//! ```
//! use tooljson::CompiledSchema;
//! use tooljson::decode::{Constraint, DecodeOptions, Vocabulary};
//! let vocab = Vocabulary::from_bytes((0..=255u8).map(|b| vec![b]).chain([vec![]]).collect(), vec![256])?;
//! let schema = CompiledSchema::from_json_str(r#"{"type": "integer", "multipleOf": 5}"#)?;
//! assert_eq!(Constraint::new(&schema, &vocab).unwrap_err().keyword(), Some("multipleOf"));
//! let opts = DecodeOptions { approximate: true, ..DecodeOptions::default() };
//! let c = Constraint::with_options(&schema, &vocab, &opts)?;
//! assert_eq!(c.approximations()[0].to_string(), "multipleOf at /multipleOf: not enforced (not decidable on a prefix by this decoder)");
//! assert!(c.matcher().commit_bytes(b"7").is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Where each keyword family lives
//!
//! The families are those the schema compiler reads
//! (`schema/compile/keywords/`). `keywords.rs` reads every family's
//! keywords of a node set and `shape.rs` builds the shape from them; the
//! byte automaton (`step.rs`, with the mask walk's fast path in
//! `fast.rs`) then follows each family in its own place:
//!
//! | family | read | built into shapes, then followed byte by byte |
//! |---|---|---|
//! | `type` | `keywords.rs` | `shape.rs` (one alternative per type), `step.rs` (`start`) |
//! | `enum` / `const` | `keywords.rs` | `shape.rs` (`literals`), `step.rs` (literal frames) |
//! | numbers | `keywords.rs` | `number.rs` (bounds), `step.rs` (number frames) |
//! | strings (`minLength`, `maxLength`, `pattern`) | `keywords.rs`, `strkw.rs` | `string.rs`, `step.rs` (string frames), `pattern.rs` |
//! | `format` | `keywords.rs`, `strkw.rs` | `forms.rs` (hand-built automata), `pattern.rs` |
//! | objects | `keywords.rs` | `shape.rs` (`object`), `object.rs` (can a key come, can it close), `step.rs` (object and key frames) |
//! | arrays | `keywords.rs` | `shape.rs` (`array`), `step.rs` (array frames) |
//! | applicators (`$ref`, `allOf`, `anyOf`, `oneOf`) | `keywords.rs`, `shape.rs` (`conj`) | `shape.rs` (`disjunction`): one configuration per branch |
//!
//! # Cost
//!
//! A mask is a depth-first walk of the token trie from each configuration
//! of the text (more than one only while `anyOf` branches agree). The walk
//! carries the configuration's top frame by value: a byte that only moves
//! the top frame (string text, a number's digits, a key's or a literal's
//! bytes) costs a few comparisons and no copy; only a byte that ends or
//! opens a value steps the whole configuration. A subtree is skipped at
//! its first refused byte.
//!
//! Most tokens are decided by the lexical state alone. The vocabulary
//! keeps, per string state (plain text, after `\`, inside a UTF-8
//! sequence, between the halves of a surrogate pair), the set of tokens
//! that stay inside the string as a bitset and those that close it as a
//! small trie: a string with room for any token costs the bitset plus one
//! step past its closing quote and a walk of the distinct suffixes that
//! closing tokens have after their quote, each suffix accepted standing
//! for every token that ends with it (a key outside the named ones
//! likewise, but for the tokens that may end a named key or close a
//! second key, which are walked whole);
//! near a `maxLength`, the plain tokens are taken by their length in code
//! points and only the others walked. A string under a `pattern` walks
//! the trie, with two shortcuts: where any plain text keeps a match
//! possible (past a match with no `$`, before one with no `^` when there
//! is no `maxLength`, or in a last unbounded item whose class takes every
//! character a plain token holds, as `^.*$` does) the plain tokens are
//! taken as a set and only the others walked (a plain token holds no
//! quote, backslash, control character, U+2028 or U+2029); and a trie
//! subtree whose bytes all leave the pattern's state as it is (a run of
//! URI path characters, say) is taken whole; where the walk reaches a
//! state from which any plain text matches (past `^[a-z]` with no `$`),
//! the plain tokens below are taken by their length and only the others
//! walked. Under an asserted format
//! with a hand-built automaton (`date-time`, `uri`, `email`, ...) the
//! tokens that stay inside the string depend on the automaton's state
//! alone, so the vocabulary keeps them per state for every constraint: a
//! URI's parts (scheme, authority, path, ...) each cost a walk on their
//! first use in the process, and only the closing tokens after that. A
//! state that counts (an email's local part, a host name's octets and
//! labels) shares the set of the same state with the most room: only the
//! tokens long enough for its count to bind are walked again.
//!
//! Finished masks are cached in the [`Constraint`], shared by its
//! matchers, keyed by the configurations with what cannot change the mask
//! left out (a string's length beyond the longest token, an unbounded
//! number's value, the text of a key that matches no named one). Tool
//! schemas revisit the same positions, so most masks are a cache hit: a
//! copy of the precomputed sets and a list of ids (a bitset when the ids
//! are many). The cache holds at most a few thousand masks and starts over
//! past that. A grammar has at most [`MAX_SHAPES`] shapes.

mod approx;
mod batch;
mod bpe;
mod closing;
mod fast;
mod forms;
mod hf;
mod keywords;
mod mask;
mod matcher;
mod number;
mod object;
mod pattern;
mod sample;
mod shape;
mod step;
mod string;
mod strkw;
mod vocab;

use std::fmt;
use std::sync::Arc;

pub use approx::Approximation;
pub use batch::fill_masks;
pub use bpe::Tokenizer;
pub use matcher::{Matcher, apply_mask};
pub use sample::{Sample, Sampler};
pub use shape::MAX_SHAPES;
pub use step::MAX_DEPTH;
pub use vocab::Vocabulary;

use crate::CompiledSchema;

/// Why a schema cannot be decoded, a vocabulary cannot be read, or a token
/// was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A keyword the decoder cannot decide exactly on a prefix.
    Unsupported {
        /// The keyword, e.g. `pattern`.
        keyword: String,
        /// Where it is in the schema.
        schema_path: String,
        /// Why it is refused.
        why: String,
    },
    /// A budget of the decoder was exceeded.
    Budget {
        /// What went past it.
        what: String,
    },
    /// A vocabulary that cannot be read.
    Vocabulary(String),
    /// A token (or bytes, `token: None`) that the mask refuses.
    Refused {
        /// The token id.
        token: Option<u32>,
        /// Why.
        why: String,
    },
}

impl DecodeError {
    /// The keyword of an [`DecodeError::Unsupported`] error.
    pub fn keyword(&self) -> Option<&str> {
        match self {
            DecodeError::Unsupported { keyword, .. } => Some(keyword),
            _ => None,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Unsupported {
                keyword,
                schema_path,
                why,
            } => write!(f, "cannot decode `{keyword}` at {schema_path}: {why}"),
            DecodeError::Budget { what } => write!(f, "decoder budget exceeded: {what}"),
            DecodeError::Vocabulary(m) => write!(f, "vocabulary: {m}"),
            DecodeError::Refused {
                token: Some(t),
                why,
            } => write!(f, "token {t} refused: {why}"),
            DecodeError::Refused { token: None, why } => write!(f, "bytes refused: {why}"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// The order of object keys the decoder writes (see the output policy in
/// the [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyOrder {
    /// Any order, each key at most once.
    #[default]
    Any,
    /// The keys named in `properties` in the order the schema lists them
    /// (as compiled: declaration order when serde_json keeps it, with the
    /// `protocol` feature; by name otherwise), any other key after them.
    Properties,
}

/// Whitespace between tokens (see the output policy in the
/// [module docs](self)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Whitespace {
    /// None: compact JSON.
    #[default]
    None,
    /// Up to this many bytes of space, tab, CR or LF in a row between two
    /// tokens.
    Bounded(u8),
}

/// How a [`Constraint`] writes what the schema leaves open, and whether
/// it asserts formats; the default is compact JSON with keys in any order
/// and every `format` asserted.
///
/// # Examples
///
/// ```
/// use tooljson::decode::{DecodeOptions, KeyOrder, Whitespace};
/// let opts = DecodeOptions { key_order: KeyOrder::Properties, ..DecodeOptions::default() };
/// assert_eq!(opts.whitespace, Whitespace::None);
/// assert!(opts.assert_formats);
/// assert!(!DecodeOptions::formats_as_annotations().assert_formats);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// The order of object keys.
    pub key_order: KeyOrder,
    /// The whitespace between tokens.
    pub whitespace: Whitespace,
    /// Approximate the keywords that cannot be decided exactly, listing
    /// each on the constraint, instead of refusing them (see
    /// [Approximations](self#approximations)); off by default.
    pub approximate: bool,
    /// Assert every `format` of the schema, also those the schema keeps
    /// as annotations (see [Formats](self#formats)); on by default. Off,
    /// only the formats the schema itself asserts
    /// ([`SchemaBuilder::assert_formats`](crate::SchemaBuilder::assert_formats))
    /// constrain the text.
    pub assert_formats: bool,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            key_order: KeyOrder::default(),
            whitespace: Whitespace::default(),
            approximate: false,
            assert_formats: true,
        }
    }
}

impl DecodeOptions {
    /// The defaults, but with each `format` the schema keeps as an
    /// annotation left unconstrained (formats the schema itself asserts
    /// still hold).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// use tooljson::decode::{Constraint, DecodeOptions, Vocabulary};
    /// let vocab = Vocabulary::from_bytes((0..=255u8).map(|b| vec![b]).chain([vec![]]).collect(), vec![256])?;
    /// let schema = CompiledSchema::from_json_str(r#"{"type": "string", "format": "email"}"#)?;
    /// let asserted = Constraint::new(&schema, &vocab)?;
    /// assert!(asserted.matcher().commit_bytes(br#""not an email""#).is_err());
    /// let opts = DecodeOptions::formats_as_annotations();
    /// let annotated = Constraint::with_options(&schema, &vocab, &opts)?;
    /// assert!(annotated.matcher().commit_bytes(br#""not an email""#).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn formats_as_annotations() -> DecodeOptions {
        DecodeOptions {
            assert_formats: false,
            ..DecodeOptions::default()
        }
    }
}

#[derive(Debug)]
pub(crate) struct ConstraintInner {
    pub(crate) grammar: shape::Grammar,
    pub(crate) vocab: Vocabulary,
    /// Masks already computed, for every matcher of this constraint.
    pub(crate) masks: mask::MaskCache,
    /// The keywords not enforced exactly (with the opt-in).
    pub(crate) approximations: Box<[Approximation]>,
}

/// A schema compiled for decoding over one vocabulary: immutable, shared
/// (`Arc`), and the source of [`Matcher`]s.
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// use tooljson::decode::{Constraint, DecodeError, Vocabulary};
/// let vocab = Vocabulary::from_bytes(vec![b"a".to_vec(), Vec::new()], vec![1])?;
/// // A pattern the crate matches without a regex compiles...
/// let s = CompiledSchema::from_json_str(r#"{"type": "string", "pattern": "^a+$"}"#)?;
/// assert!(Constraint::new(&s, &vocab).is_ok());
/// // ...one with a back reference does not.
/// let s = CompiledSchema::from_json_str(r#"{"type": "string", "pattern": "^(a)\\1$"}"#)?;
/// let err = Constraint::new(&s, &vocab).unwrap_err();
/// assert_eq!(err.keyword(), Some("pattern"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Constraint {
    pub(crate) inner: Arc<ConstraintInner>,
}

impl Constraint {
    /// Compiles `schema` for decoding with `vocab`, with the default
    /// [`DecodeOptions`].
    pub fn new(schema: &CompiledSchema, vocab: &Vocabulary) -> Result<Constraint, DecodeError> {
        Constraint::with_options(schema, vocab, &DecodeOptions::default())
    }

    /// Compiles `schema` for decoding with `vocab`, writing keys and
    /// whitespace as `opts` says, and approximating if it allows.
    pub fn with_options(
        schema: &CompiledSchema,
        vocab: &Vocabulary,
        opts: &DecodeOptions,
    ) -> Result<Constraint, DecodeError> {
        let prog = crate::schema::decode_view::program(schema);
        let (grammar, approximations) = shape::compile(prog, opts)?;
        if !grammar.sat(grammar.root) {
            return Err(DecodeError::Unsupported {
                keyword: "(schema)".into(),
                schema_path: String::new(),
                why: "no value satisfies the schema".into(),
            });
        }
        Ok(Constraint {
            inner: Arc::new(ConstraintInner {
                grammar,
                vocab: vocab.clone(),
                masks: mask::MaskCache::default(),
                approximations,
            }),
        })
    }

    /// A matcher at the start of a sequence.
    pub fn matcher(&self) -> Matcher {
        Matcher::new(self.clone())
    }

    /// The vocabulary.
    pub fn vocabulary(&self) -> &Vocabulary {
        &self.inner.vocab
    }

    /// The keywords this constraint does not enforce exactly, once per
    /// keyword and schema path, in the order they were met; empty unless
    /// [`DecodeOptions::approximate`] is on (and then empty when every
    /// keyword is decided exactly).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// use tooljson::decode::{Constraint, DecodeOptions, Vocabulary};
    /// let vocab = Vocabulary::from_bytes(vec![b"1".to_vec(), Vec::new()], vec![1])?;
    /// let schema = CompiledSchema::from_json_str(r#"{"type": "integer", "maximum": 9}"#)?;
    /// let opts = DecodeOptions { approximate: true, ..DecodeOptions::default() };
    /// assert!(Constraint::with_options(&schema, &vocab, &opts)?.approximations().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn approximations(&self) -> &[Approximation] {
        &self.inner.approximations
    }
}
