//! JSON Schema, compiled once: validate finished tool-call arguments, and
//! check them while they stream. This module's docs are the manual of the
//! schema layer.
//!
//! [`CompiledSchema`] is built from a schema (draft 2020-12 by default,
//! draft-07 when `$schema` says so or [`SchemaBuilder::draft`] asks), given
//! as a `serde_json::Value` (read in place, not converted), a [`Value`] of
//! this crate or JSON text, into a flat arena of nodes with precomputed
//! keyword lists. It is immutable once compiled (nothing is written when it
//! is used, so one schema shared by many threads keeps its cache lines
//! clean), `Send + Sync`, and cheap to clone (an `Arc`).
//! [`CompiledSchema::validate`] returns every [`Violation`] with its instance
//! path, schema path, keyword and a message worded "expected X, found Y"
//! that can be sent back to a model as is; [`CompiledSchema::validate_json`]
//! and [`CompiledSchema::is_valid_json`] read a `serde_json::Value` where it
//! lies, with the same answers. [`StreamCheck`] is a
//! [`crate::TokenSink`]: fed the parser's tokens, it reports each violation
//! at the byte offset where it became certain, and its
//! [`StreamCheck::finish`] verdict equals `validate` of the final value.
//!
//! # Example: validate arguments and send the errors back
//!
//! ```
//! use tooljson::CompiledSchema;
//! let schema = CompiledSchema::compile(&serde_json::json!({
//!     "type": "object",
//!     "properties": {
//!         "path": {"type": "string"},
//!         "mode": {"enum": ["read", "write"]}
//!     },
//!     "required": ["path"],
//!     "additionalProperties": false
//! }))?;
//! let args = tooljson::from_str(r#"{"mode": "append", "force": true}"#)?;
//! let errors = schema.validate(&args).unwrap_err();
//! let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
//! assert_eq!(lines, [
//!     r#": expected required property "path", found an object without it"#,
//!     r#"/mode: expected one of "read", "write", found "append""#,
//!     r#": expected only properties "mode", "path", found unexpected property "force""#,
//! ]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Example: stop a doomed call while it streams
//!
//! ```
//! use tooljson::{CompiledSchema, Parser};
//! let schema = CompiledSchema::from_json_str(r#"{"properties": {"n": {"maximum": 10}}}"#)?;
//! let mut check = schema.stream_check();
//! let mut parser = Parser::new();
//! parser.feed(br#"{"n": 11, "rest": "#, &mut check)?;
//! assert!(check.is_doomed());
//! assert_eq!(check.first_violation_offset(), Some(9)); // the byte after `11`
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Drafts and keywords
//!
//! Every validation keyword of draft 2020-12 and draft-07: `type`, `enum`,
//! `const`; `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`
//! (in draft-07 also the draft-04 boolean form) and `multipleOf`;
//! `minLength` / `maxLength` (counted in code points), `pattern`, `format`;
//! `properties`, `patternProperties`, `additionalProperties`,
//! `propertyNames`, `required`, `dependentRequired`, `dependentSchemas`
//! (draft-07 `dependencies`), `minProperties` / `maxProperties`,
//! `unevaluatedProperties`; `prefixItems`, `items` (draft-07 array `items`
//! with `additionalItems`), `contains` with `minContains` / `maxContains`,
//! `uniqueItems`, `minItems` / `maxItems`, `unevaluatedItems`; `allOf`,
//! `anyOf`, `oneOf`, `not`, `if` / `then` / `else`; and boolean schemas.
//!
//! `$ref` resolves `$defs` / `definitions`, JSON pointers, `$id`, `$anchor`
//! and `$dynamicRef` / `$dynamicAnchor`, recursion included, against the
//! bundled metaschemas (2020-12 with its vocabularies, draft-07, -06 and -04)
//! and the documents registered with [`SchemaBuilder::resource`]; there is
//! no network access. In draft-07 a `$ref` overrides its sibling keywords.
//! A `$ref` loop that never steps into the instance (`a` refers to `b`,
//! `b` back to `a`) is refused when the schema compiles, since validating
//! it would never end. The 2019-09 `$recursiveRef` is refused in strict
//! mode and listed by [`CompiledSchema::ignored_keywords`] in lenient mode,
//! never silently taken as valid. Annotations (`title`, `description`, `default`,
//! `examples`, unknown keywords) are ignored.
//!
//! # Numbers, patterns and formats
//!
//! Numbers compare exactly, by decimal arithmetic on their lexemes:
//! `1e400`, 40-digit integers and `multipleOf: 0.01` on `19.99` behave as
//! written, with no rounding through `f64`.
//!
//! `pattern` and `patternProperties` are ECMA-262 regular expressions. The
//! usual tool-schema shapes need no regex engine: an anchored sequence of
//! character classes (`^[a-z0-9_-]{3,32}$`) is matched in one greedy pass,
//! and any pattern of classes, groups, `|` and quantifiers within 64
//! positions (`^(/[A-Za-z0-9._-]+)+/?$`, `^(get|set)_[a-z]+$`) by a
//! bit-parallel position automaton, both read from the ECMA text. Other
//! patterns are translated for the `regex` crate (ASCII `\d \w \b`, ECMA
//! `\s` and `.`, `\uXXXX` surrogate pairs, `\cX`, named groups, a literal
//! `{`, Annex B's `[a-]` and `[\d-z]`), checked when the schema compiles and
//! built on first use; matching is linear in the text. Patterns ECMA-262
//! itself refuses (`a**`, `^*`) fail compilation with a message naming the
//! fault.
//!
//! Only a pattern with look-around (`(?=`, `(?!`, `(?<=`, `(?<!`) or back
//! references (`\1`, `\k<name>`), which no linear-time engine has, runs on
//! a backtracking engine (`fancy-regex`, given the same ECMA translation;
//! the parts without look-around still run on the `regex` crate inside
//! it), built when the schema compiles. The guarantee: one match takes at
//! most [`SchemaBuilder::max_pattern_backtracks`] backtracks (default
//! [`DEFAULT_MAX_PATTERN_BACKTRACKS`], 1,000,000), each followed by work
//! linear in the string. A match that would take more has no verdict and
//! is a violation whose message names the budget (a `pattern` fails, a key
//! tried against a `patternProperties` pattern is reported at that key, in
//! `validate` and the stream check alike): never a hang, never taken as
//! valid, the same on every run. A back reference to a group that took no
//! part in the match matches the empty string, as ECMA-262 says (the
//! `jsonschema` crate fails it); one written before its group closes
//! (`\1(a)`, `(a\1)`) is refused with a message saying so.
//!
//! `format` is an annotation unless [`SchemaBuilder::assert_formats`] is
//! set (the decoder asserts formats by default: see
//! [`crate::decode`]). What each format name does then, the same in
//! `validate`, `is_valid` and the stream check:
//!
//! | format | asserted as | decoder ([`crate::decode`]) |
//! |---|---|---|
//! | `date-time`, `date`, `time`, `duration` | RFC 3339 (with its appendix A durations) | exact |
//! | `email` | RFC 5321 `Mailbox`: dot-atom or quoted local part, host name or address literal | exact, no A-label in the domain |
//! | `hostname` | RFC 1123, A-labels decoded and checked against IDNA2008 (`PVALID` approximated by general category) | exact, no A-labels |
//! | `ipv4`, `ipv6`, `uuid`, `json-pointer`, `relative-json-pointer` | their RFCs' text forms | exact |
//! | `uri`, `uri-reference` | RFC 3986 | exact |
//! | `regex` | ECMA-262 syntax, parsed, never built | refused (approximated: not enforced) |
//! | `uri-template` | RFC 6570 | refused (approximated: not enforced) |
//! | `idn-email`, `idn-hostname`, `iri`, `iri-reference` | **not asserted** (no checker): kept as annotations and listed by [`CompiledSchema::ignored_keywords`]; `tooljson validate` and `decode` print each as a warning | refused, naming `format` (approximated: not enforced) |
//! | any other name (`int32`, `phone`, ...) | not a JSON Schema format: an annotation, listed and warned about as above | an annotation (warned about by `tooljson decode`) |
//!
//! # Options
//!
//! [`SchemaBuilder`] sets the draft for schemas whose `$schema` names none,
//! strict or lenient compilation (strict, the default, refuses an
//! unsupported keyword or a keyword with a malformed value; lenient ignores
//! it and lists it in [`CompiledSchema::ignored_keywords`]), format
//! assertion, the memory the schema's patterns may take
//! ([`SchemaBuilder::max_pattern_memory`]), the backtracks one match of a
//! look-around pattern may take ([`SchemaBuilder::max_pattern_backtracks`])
//! and the extra documents `$ref` may name.
//!
//! # The stream check
//!
//! [`CompiledSchema::stream_check`] gives a [`StreamCheck`], a
//! [`crate::TokenSink`]. Feed it from a [`crate::Parser`], beside a
//! [`crate::ValueBuilder`] on the same pass ([`StreamCheck::beside`], a
//! [`CheckedSink`]), or attached to a partial tree
//! ([`crate::PartialParser::attach_check`], as the vendor adapters do). It
//! reports each violation with the offset at which it became certain:
//!
//! | what fails | reported at |
//! |---|---|
//! | `type` (and a node whose possible types exclude the value's) | the value's first byte |
//! | an unknown key under `additionalProperties: false` | the key's end |
//! | a string that no `enum` / `const` option can start with | just past the first impossible character |
//! | `maxLength`, `maxItems`, `maxProperties` | the character, item or property one too many |
//! | numeric bounds, `multipleOf`, `pattern`, `format`, `minLength` | the end of the number or string |
//! | `required`, `minItems`, `minProperties` | the container's close |
//! | `anyOf`, `oneOf`, `not`, `if`, `uniqueItems`, `contains`, `dependent*`, `enum` / `const` of containers, `unevaluated*` | the end of the subvalue, which is buffered and validated |
//! | anything, in a schema using `$dynamicRef` | the end of the root, buffered whole |
//!
//! The contract: every violation it reports is one `validate` reports on
//! the final value, none is reported on a valid value, the offsets do not
//! depend on how the input is cut into chunks (offsets inside a string are
//! exact, escapes included: the check asks the parser for pieces of its
//! own through `TokenSink::exact_string_offsets_from`, and a sink that wraps
//! the check must pass that request on, or offsets come late, never early),
//! and [`StreamCheck::finish`] gives `validate`'s verdict.
//! [`StreamCheck::is_doomed`] says the call can be stopped now. One
//! exception: with a repeated key the check checks every occurrence while
//! the final value keeps the last, so it can be stricter than `validate`;
//! parse with `DuplicateKeys::Error` (the vendor layer does for every call
//! it checks).
//!
//! For a partial view, [`CompiledSchema::holds_string_at`] says that a
//! string at a path is held by `enum` / `const` (so a UI should show it only
//! when complete), and [`CompiledSchema::unique_option_at`] names the one
//! option a prefix can still become.
//!
//! # Limits and hostile input
//!
//! Compiling is bounded by the schema's size, validating by the schema's
//! and the instance's; each shape that could blow up has a bound:
//!
//! | input | behaviour |
//! |---|---|
//! | a schema nested deeper than [`MAX_SCHEMA_DEPTH`] (512) arrays / objects | refused before the compiler recurses |
//! | a `$ref` chain thousands long | compiled from a worklist, without recursion |
//! | a `$ref` loop that never steps into the instance | refused when the schema compiles |
//! | an instance nested past 512 schema applications (a recursive schema) | invalid, "expected schema nesting of at most 512 levels", in `validate` and the stream check alike (fails closed, bounded stack) |
//! | patterns short in text and large compiled (`^(?:\S+\s+){0,999}\S+$`) | each weighed before it is built; past [`DEFAULT_MAX_PATTERN_MEMORY`] (32 MiB) for the whole schema, the pattern that crosses it fails compilation, naming `max_pattern_memory` |
//! | thousands of automaton patterns | their follow tables share a fixed budget per schema; past it they work without tables |
//! | `^(a+)+$` on a long text | linear time: no backtracking engine |
//! | `^((?=a)a+)+$` (look-around, so backtracking) on `aaa…ab` | stops after [`DEFAULT_MAX_PATTERN_BACKTRACKS`] backtracks ([`SchemaBuilder::max_pattern_backtracks`]): a violation naming the budget, never valid |
//! | a `regex` format value | parsed, never built, so an instance cannot make the check build a large matcher |
//! | an in-place fan-out (`$ref` / `allOf` / `anyOf` / `oneOf` / `unevaluated*` multiplying, 2^30 visits in 2 KB) | refused at compile time past [`SchemaBuilder::max_fanout`] ([`DEFAULT_MAX_FANOUT`], 100,000 visits per location), naming `max_fanout` |
//! | one definition applied twice per level of a recursive schema | each node referred to by more than one keyword is evaluated once per value (remembered verdicts), so the levels add rather than multiply |
//! | `uniqueItems`, `enum` / `const` in pieces, `multipleOf` with huge numbers, `format: "regex"` on megabytes | linear: hashing, one option followed, exponents past the divisor's digits ignored, patterns checked in pieces |
//! | `tooljson parse` / `validate` of `[1,1,1,…]` (n bytes; a tree costs about 32 bytes per byte) | the value's memory budget `--max-tree-bytes` (192 MiB as `PartialParser::held_bytes` / `ValueBuilder::held_bytes` estimate it), checked every 64 KiB of input: refused after about 6 MiB, naming the option (0.12 s, 105 MB peak); `[{"a":1},…]` after 9 to 13 MiB (162 MB); 60 MiB of 100-byte strings pass (150 MB). Memory O(min(n, budget)) |
//! | `tooljson replay --speed 1e-300` (or `1e-12`) | a usage error naming `--speed` (0, or from 0.01: at most 1.2 s per piece), never a pause no `Duration` holds |
//! | `replay` of n bytes of blank lines before a provider is recognised | held in O(1) (at most 4 KiB, then the open line's first 64 bytes) and fed as one piece: 200 MiB in 0.44 to 0.73 s (a loaded machine), 4.9 MB peak |
//! | a Gemini stream opening a new candidate index per chunk (3×10^5 chunks) | past 1,024 candidates the stream ends with a protocol error naming the bound: 0.01 s, 6.8 MB |
//! | Gemini `partialArgs` coming back to a closed key (`$.a.b.c`, `$.d`, `$.a.b.e`) or continuing a string after a sibling | a malformed event, the entry skipped: the value first written stays; O(keys) memory per open object |
//! | `decode` of a schema whose values meet more than [`MAX_SCHEMA_NESTING`] (512) schema applications (a chain of 600 `$ref`s; a recursion spending four per level) | refused when the constraint compiles, a `DecodeError::Budget` naming `MAX_SCHEMA_NESTING`, the bound `validate` and the stream check hold, so the decoder never writes a text they refuse for its depth (511 links: both accept; 512: both refuse). One pass per value level over the schema's graph: O(min(120, the schema's depth) × (nodes + edges)); `tooljson decode` of 600 links 0.70 s, 131 MB, all of it the o200k vocabulary's load (0.58 s, 131 MB for a one-byte text) |
//! | `tooljson decode --check` of 1 MiB of NUL bytes, or 40,000 `é` in a string (n bytes) | tokenized in pieces of at most 1 KiB, cut where the o200k / cl100k split patterns end a piece (so ordinary text gets tiktoken's own tokens), a run with no such place every 256 bytes: O(n × 256), never a panic (tiktoken-rs's unwrapped regex error is out of reach, and caught if it comes). 1 MiB NUL: 0.74 s, 131 MB with o200k (0.58 s of it the vocabulary), 0.32 s, 70 MB with cl100k; 40,000 `é`: 0.70 s, 131 MB (5.16 s before) |
//! | `format` with no checker (`idn-email`, `idn-hostname`, `iri`, `iri-reference`) or no such format (`int32`) under `assert_formats` | an annotation, listed by [`CompiledSchema::ignored_keywords`] and printed as a warning by `tooljson validate` (whole and `--chunk`) and `decode`; the decoder refuses the four unchecked ones, naming `format` (see the formats table above). O(1) |
//! | a schema file past the 64 MiB input limit (`tooljson validate` / `decode`) | refused from its size before it is read, naming `max_input_bytes`: 0.00 s, 3.5 MB for 70 MiB. A schema under the limit is read whole and its tree built (up to some 400 MB for a dense 64 MiB schema) |
//! | `decode` compile of a 30,000-member integer `enum` or 10^5 strings | linear: an `enum` of more than 32 options keeps a hash index, so checking each option against its node is one hash; about 0.5 s for 30k or 10^5 integers and 10^5 strings with `tooljson decode --sample 3` (most of it the vocabulary); 10^5 object options are refused by the 20,000-shape budget |
//! | `decode` of an `anyOf` of 1,000 object branches, one required key each | 0.26 s, 72 MB for `tooljson decode --sample 3` with cl100k (mask p99 0.18 ms, max 3.7 ms); not yet bounded: an `anyOf` nested 20 deep written inline, and a pattern such as `^[\s\S]{500}[^a]{500}$` (about 15 ms per mask) |
//! | numbers in arguments (`12345678901234567890123`, `-0`, `1E2`, `1e-400`, `1e400`) through final messages, conversions, Gemini `args` / `partialArgs` and `replay --ndjson` | kept as written (the crate's [`Value`] holds the lexeme); a target that reads numbers as doubles (Gemini) reports each number a double does not give back as a loss. O(n) |
//! | arguments repeating a key (`{"a":1,"a":2}`), in a streamed call or in a conversion's input | the text alone ([`Arguments::Invalid`](crate::protocol::Arguments::Invalid)): kept by a target that takes text (Chat, Responses), a reported loss for one that takes an object; a stream checked against a tool's schema makes the call invalid at the repeated key. O(n) |
//! | a turn of n `tool_use` blocks converted | O(n): 64k calls read, written and read back per vendor in 1.17 s, 174 MB |
//! | a first Bedrock frame whose prelude claims 2^32−1 bytes | a body whose first byte no text starts with (a control byte, `0x80`–`0xC1`, `0xF5`–`0xFF`) is read as frames: the frame bound's error at byte 0 after 12 bytes, as later in the stream (0.00 s, 4.9 MB) |
//!
//! In sizes (`S` the schema, `N` its nodes, `E` its subschema references,
//! `n` the instance's bytes, `L` its values): compiling takes O(S) time and
//! memory plus the patterns (within `max_pattern_memory`); `is_valid` O(n +
//! L × min(B, N + E)) time with `B` the fan-out budget, O(depth) stack and
//! at most one remembered verdict per (shared node, value); `validate` the same plus at most 6 more passes
//! over a subvalue per failed `anyOf` / `oneOf` / `propertyNames` (their
//! reasons); the stream check O(n) plus the same visits, and O(n) memory
//! for a kept string or buffered subvalue. The derivation is in the docs of
//! `src/schema/budget.rs`; the hostile cases measured before and after,
//! with the commands that reproduce them (`corpus/hostile/make_cases.py`,
//! `corpus/hostile/measure.sh`), are in `benches/README.md`.
//!
//! # Conformance
//!
//! `cargo test --release --test main schema_suite::` runs JSON-Schema-Test-Suite
//! (from `tests/data/`, `remotes/` registered as
//! `http://localhost:1234/`). Every case goes through `validate`,
//! `is_valid`, the stream check fed whole and in 1- and 7-byte chunks and a
//! partial tree in 3-byte chunks; all must give the expected verdict, no
//! streamed violation may appear on a valid instance, and the first
//! violation's offset must not depend on the chunking. All cases pass:
//! draft 2020-12 core, draft-07 core, the optional bignum, float-overflow,
//! ecmascript-regex and non-bmp-regex, and the format cases with assertion
//! on; no case is excluded.
//!
//! Further tests hold the layer against others and against itself:
//! `schema_bench_data` (the JSONSchemaBench sample, every labelled
//! instance), `schema_differential` (`is_valid` against the `jsonschema`
//! crate, on the same data and on mutants of it), `schema_generated`
//! (generated schemas of every keyword and instances for them, through
//! every consumer and chunking, against the crate), `schema_formats_generated`
//! (each asserted format at the edges of its RFC grammar) and
//! `schema_regex_ecma` (patterns against verdicts recorded from
//! ECMAScript's own `RegExp`). The documented differences from the crate
//! are numbers past 2^53 (read exactly here) and `format: uuid` in draft-04
//! schemas.
//!
//! # Inside
//!
//! | file | owns |
//! |---|---|
//! | `budget.rs` | the cost guarantees and the fan-out budget that bounds them |
//! | `mod.rs` | [`CompiledSchema`], [`SchemaBuilder`], [`Violation`], [`SchemaError`]: the public face |
//! | `program.rs` | the compiled program every reader imports: nodes, keywords, property lookup, what a string needs |
//! | `types.rs` | JSON types as bits, a value's type, value equality, name comparison |
//! | `describe.rs` | the words of a violation, shared by `validate` and the stream check |
//! | `compile/` | the compiler: `mod.rs` (nodes, the last pass), `keywords/` (one file per keyword family, see below), `resolve.rs` (`$ref`, `$id`, anchors), `meta.rs` (bundled metaschemas), `uri.rs` (RFC 3986 resolution) |
//! | `instance.rs` | what the validator reads of an instance: one view over [`Value`] and `serde_json::Value` |
//! | `validate.rs`, `validate/` | validation of a finished value (`validate.rs`: the walk, and `Validator::keyword`, which hands each keyword to its family's file, see below), `is_valid`'s walk and the leaves (`quick.rs`), the verdicts of shared nodes remembered (`memo.rs`), `uniqueItems`' duplicate search (`unique.rs`) and the keywords read for the fan-out budget (`fanout.rs`) |
//! | `stream.rs`, `stream/` | the stream check: its state and token handlers (`stream.rs`), the applications of each value and the validator's part (`apps.rs`), the keyword families it decides before a value ends (see below; `strings.rs` also reads string values piece by piece), [`CheckedSink`] (`sink.rs`), what applies at a path of a partial value (`paths.rs`) |
//! | `chars.rs` | counting a string's code points fast (for the stream check's lengths) |
//! | `options.rs` | an `enum`'s options, kept end to end, with a hash index when long |
//! | `number.rs` | exact decimal numbers |
//! | `pattern/` | `pattern`: the front end and budgets (`mod.rs`), ECMA-262 translation for the `regex` crate and the backtracking engine (`ecma.rs`), class sequences (`sequence.rs`), the position automaton (`automaton.rs`) |
//! | `format.rs`, `idna.rs` | asserted formats, and IDNA2008 for host names |
//! | `doc.rs` | one read-only view of a schema given as a `serde_json::Value` or a [`Value`] |
//!
//! Each keyword family has one file in each engine, under the same name,
//! so a new keyword is added in one obvious place per engine: the
//! compiler reads it (`compile/keywords/`), the validator checks it on a
//! finished value (`validate/`), the stream check decides it early where
//! it can (`stream/`; a family without a file there is left to the
//! validator at the value's end, `stream/apps.rs`), and constrained
//! decoding enforces it byte by byte (`src/decode/`: `keywords.rs` reads
//! every family, then each is followed where its row says). Two lists cut across the families: the
//! stream check keeps a container whole for the keywords it cannot decide
//! before the container ends (`buffered_kw` in `stream.rs`: a new keyword
//! on objects or arrays is named there or in its family's file), and
//! `is_valid`'s walk (`validate/quick.rs`) answers the keywords tool
//! schemas are made of in line, handing the rest to the families (a new
//! keyword needs nothing there).
//!
//! | family | `compile/` | `validate/` | `stream/` (the stream check) | `src/decode/` |
//! |---|---|---|---|---|
//! | `type` (and the `false` schema) | `keywords/types.rs` | `types.rs` | `types.rs` | `keywords.rs`; `shape.rs`, `step.rs` |
//! | `enum` / `const` | `keywords/enum_const.rs` | `enum_const.rs` | `enum_const.rs` | `keywords.rs`; `shape.rs`, `step.rs` |
//! | numbers (`minimum`, `maximum`, `exclusive*`, `multipleOf`) | `keywords/numbers.rs` | `numbers.rs` | (the validator) | `keywords.rs`; `number.rs`, `step.rs`, `approx.rs` |
//! | strings (`minLength`, `maxLength`, `pattern`) | `keywords/strings.rs` | `strings.rs` | `strings.rs` | `keywords.rs`, `strkw.rs`; `string.rs`, `pattern.rs` |
//! | `format` | `keywords/formats.rs` | `formats.rs` | (the validator) | `keywords.rs`, `strkw.rs`; `forms.rs`, `pattern.rs` |
//! | objects (`properties`, `patternProperties`, `additionalProperties`, `required`, `propertyNames`, `dependent*`, `min` / `maxProperties`) | `keywords/objects.rs` | `objects.rs` | `objects.rs` | `keywords.rs`; `shape.rs`, `object.rs`, `step.rs`, `fast.rs` |
//! | arrays (`prefixItems`, `items`, `additionalItems`, `contains`, `uniqueItems`, `min` / `maxItems`) | `keywords/arrays.rs` | `arrays.rs` | `arrays.rs` | `keywords.rs`; `shape.rs`, `step.rs` |
//! | applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`, `$ref`, `$dynamicRef`) | `keywords/applicators.rs` (`$ref`, `$dynamicRef`: `resolve.rs`) | `applicators.rs` | `applicators.rs` | `keywords.rs`; `shape.rs` (one configuration per branch) |
//! | `unevaluatedProperties`, `unevaluatedItems` | `keywords/unevaluated.rs` | `unevaluated.rs` | (the validator) | `keywords.rs`; `shape.rs`, `approx.rs` |

mod budget;
mod chars;
mod compile;
#[cfg(feature = "decode")]
pub(crate) mod decode_view;
mod describe;
mod doc;
mod format;
mod idna;
mod instance;
mod number;
mod options;
mod pattern;
mod program;
mod stream;
mod types;
mod validate;

use std::fmt;
use std::sync::Arc;

pub use budget::DEFAULT_MAX_FANOUT;
#[cfg(feature = "cost-counters")]
pub use budget::{reset_work, work_done};
pub use compile::MAX_SCHEMA_DEPTH;
pub use stream::{CheckedSink, StreamCheck, StreamViolation};
pub use validate::MAX_SCHEMA_NESTING;

use crate::{Path, PathRef, Value};

/// The JSON Schema dialect a schema is read as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Draft {
    /// Draft 2020-12 (the default).
    #[default]
    Draft202012,
    /// Draft-07 (array `items` + `additionalItems`, `definitions`,
    /// `dependencies`, `$ref` overriding its siblings).
    Draft7,
}

/// A schema that does not compile: what is wrong and where in the schema.
///
/// # Examples
///
/// ```
/// let err = tooljson::CompiledSchema::from_json_str(r#"{"properties": {"a": {"minLength": -1}}}"#).unwrap_err();
/// assert_eq!(err.to_string(), "invalid schema at /properties/a/minLength: expected a non-negative integer, found -1");
/// assert_eq!(err.schema_path(), "/properties/a/minLength");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SchemaError {
    path: String,
    message: String,
}

impl SchemaError {
    pub(crate) fn new(path: String, message: String) -> SchemaError {
        SchemaError { path, message }
    }

    /// Where in the schema (a JSON Pointer, or a URI for other resources).
    pub fn schema_path(&self) -> &str {
        &self.path
    }

    /// What is wrong, without the location.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for SchemaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "invalid schema at the root: {}", self.message)
        } else {
            write!(f, "invalid schema at {}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for SchemaError {}

/// One way an instance fails its schema.
///
/// Displays as `<instance pointer>: <message>`, e.g.
/// `/mode: expected one of "read", "write", found "append"`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Where in the instance (JSON Pointer display; the root is `""`).
    pub instance_path: Path,
    /// Where in the schema the failing keyword is, e.g. `/properties/mode/enum`.
    pub schema_path: String,
    /// The failing keyword, e.g. `enum`.
    pub keyword: String,
    /// "expected X, found Y".
    pub message: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.instance_path, self.message)
    }
}

/// The default of [`SchemaBuilder::max_pattern_backtracks`].
pub const DEFAULT_MAX_PATTERN_BACKTRACKS: usize = 1_000_000;

/// The default of [`SchemaBuilder::max_pattern_memory`]: 32 MiB.
pub const DEFAULT_MAX_PATTERN_MEMORY: u64 = 32 << 20;

/// Options for compiling a schema; see [`CompiledSchema::builder`].
///
/// # Examples
///
/// ```
/// use tooljson::{CompiledSchema, Draft};
/// let schema = CompiledSchema::builder()
///     .draft(Draft::Draft7)
///     .assert_formats(true)
///     .resource("http://example.com/name.json", serde_json::json!({"type": "string", "minLength": 1}))
///     .build(&serde_json::json!({"properties": {"name": {"$ref": "http://example.com/name.json"}, "at": {"format": "date"}}}))?;
/// assert!(schema.is_valid(&tooljson::from_str(r#"{"name": "x", "at": "2024-02-29"}"#)?));
/// assert!(!schema.is_valid(&tooljson::from_str(r#"{"name": "", "at": "2023-02-29"}"#)?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct SchemaBuilder {
    opts: compile::Options,
    resources: Vec<(String, Value)>,
    /// See [`SchemaBuilder::max_fanout`].
    max_fanout: u64,
}

impl Default for SchemaBuilder {
    fn default() -> Self {
        SchemaBuilder::new()
    }
}

impl SchemaBuilder {
    /// Defaults: draft 2020-12 unless `$schema` says otherwise, strict,
    /// formats as annotations, patterns within
    /// [`DEFAULT_MAX_PATTERN_MEMORY`] (32 MiB) once compiled.
    pub fn new() -> SchemaBuilder {
        SchemaBuilder {
            opts: compile::Options {
                draft: Draft::Draft202012,
                strict: true,
                assert_formats: false,
                max_pattern_memory: DEFAULT_MAX_PATTERN_MEMORY,
                max_pattern_backtracks: DEFAULT_MAX_PATTERN_BACKTRACKS,
            },
            resources: Vec::new(),
            max_fanout: DEFAULT_MAX_FANOUT,
        }
    }

    /// The draft for schemas whose `$schema` does not name one.
    pub fn draft(mut self, draft: Draft) -> SchemaBuilder {
        self.opts.draft = draft;
        self
    }

    /// Strict (the default): a keyword that affects validity and is not
    /// supported, or a keyword with a malformed value, fails compilation.
    /// Lenient: such keywords are ignored and listed by
    /// [`CompiledSchema::ignored_keywords`].
    pub fn strict(mut self, strict: bool) -> SchemaBuilder {
        self.opts.strict = strict;
        self
    }

    /// Assert `format` (date-time, date, time, email, hostname, ipv4, ipv6,
    /// uri, uri-reference, uuid, json-pointer, relative-json-pointer, regex,
    /// duration, uri-template) instead of treating it as an annotation.
    /// Other format names (`idn-email`, `idn-hostname`, `iri`,
    /// `iri-reference`, which have no checker here, and names that are no
    /// JSON Schema format) stay annotations and are listed by
    /// [`CompiledSchema::ignored_keywords`]: see the table in the
    /// [module docs](crate::schema).
    pub fn assert_formats(mut self, assert: bool) -> SchemaBuilder {
        self.opts.assert_formats = assert;
        self
    }

    /// The memory, in bytes, that the schema's `pattern`s and
    /// `patternProperties` may take once compiled, all together (default
    /// [`DEFAULT_MAX_PATTERN_MEMORY`], 32 MiB). A pattern short in text can
    /// be large compiled: `^(?:\\S+\\s+){0,999}\\S+$`, 22 characters, takes
    /// about 3 MiB in the `regex` crate, so a schema from an untrusted source
    /// could otherwise ask for gigabytes. Past the limit, the pattern that
    /// crosses it fails compilation as a malformed keyword does (an error
    /// when strict, ignored and listed when lenient).
    ///
    /// What a pattern takes is an estimate made before it is built: the
    /// exact size of the tables of the patterns matched without a regex,
    /// and for the others a bound from their parsed form (repetitions
    /// multiplied out) that covers the compiled program and the caches of
    /// its first searches.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// let schema = serde_json::json!({"type": "string", "pattern": "^(?:\\S+\\s+){0,999}\\S+$"});
    /// let err = CompiledSchema::builder().max_pattern_memory(1 << 20).build(&schema).unwrap_err();
    /// assert!(err.message().contains("max_pattern_memory"));
    /// assert!(CompiledSchema::builder().build(&schema).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_pattern_memory(mut self, bytes: u64) -> SchemaBuilder {
        self.opts.max_pattern_memory = bytes;
        self
    }

    /// The backtracks one match of a pattern with look-around or back
    /// references may take (default [`DEFAULT_MAX_PATTERN_BACKTRACKS`],
    /// 1,000,000). Only such patterns run on a backtracking engine (every
    /// other runs in time linear in the string); this bounds the time a
    /// hostile string can make them take. A match that needs more has no
    /// verdict, and is a violation whose message names this budget: a
    /// `pattern` fails, a key tried against a `patternProperties` pattern
    /// is reported; never taken as valid, the same on every run.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// // A look-ahead inside a nested repetition: exponential backtracking.
    /// let schema = serde_json::json!({"pattern": "^((?=a)a+)+$"});
    /// let s = CompiledSchema::builder().max_pattern_backtracks(10_000).build(&schema)?;
    /// let hostile = tooljson::from_str(&format!("\"{}b\"", "a".repeat(40))).unwrap();
    /// let errs = s.validate(&hostile).unwrap_err();
    /// assert!(errs[0].message.contains("max_pattern_backtracks"));
    /// assert!(s.is_valid(&tooljson::from_str("\"aaaa\"").unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_pattern_backtracks(mut self, backtracks: usize) -> SchemaBuilder {
        self.opts.max_pattern_backtracks = backtracks;
        self
    }

    /// Registers a schema document under `uri`, for `$ref`s to it.
    pub fn resource(mut self, uri: impl Into<String>, schema: serde_json::Value) -> SchemaBuilder {
        self.resources.push((uri.into(), Value::from(schema)));
        self
    }

    /// [`SchemaBuilder::resource`] for a [`Value`] (keeps number lexemes exact).
    pub fn resource_value(mut self, uri: impl Into<String>, schema: Value) -> SchemaBuilder {
        self.resources.push((uri.into(), schema));
        self
    }

    /// Compiles a `serde_json::Value` schema, read in place (not converted
    /// to a [`Value`] first).
    pub fn build(&self, schema: &serde_json::Value) -> Result<CompiledSchema, SchemaError> {
        self.build_doc(doc::Doc::Serde(schema))
    }

    /// Compiles a schema given as a [`Value`] (numbers keep their exact lexeme).
    pub fn build_value(&self, schema: &Value) -> Result<CompiledSchema, SchemaError> {
        self.build_doc(doc::Doc::Own(schema))
    }

    fn build_doc(&self, schema: doc::Doc<'_>) -> Result<CompiledSchema, SchemaError> {
        let prog = compile::compile(schema, &self.resources, &self.opts)?;
        validate::check_fanout(&prog, self.max_fanout)?;
        Ok(CompiledSchema {
            prog: Arc::new(prog),
        })
    }

    /// Compiles a schema given as JSON text.
    pub fn build_str(&self, text: &str) -> Result<CompiledSchema, SchemaError> {
        let v = crate::from_str(text).map_err(|e| {
            SchemaError::new(String::new(), format!("schema is not valid JSON: {e}"))
        })?;
        self.build_value(&v)
    }
}

/// A compiled JSON Schema: immutable, `Send + Sync`, cheap to clone (an
/// `Arc`).
///
/// # Examples
///
/// ```
/// use tooljson::CompiledSchema;
/// let schema = CompiledSchema::from_json_str(r#"{"type": "integer", "maximum": 18446744073709551616}"#)?;
/// assert!(schema.is_valid(&tooljson::from_str("18446744073709551616")?));
/// assert!(!schema.is_valid(&tooljson::from_str("18446744073709551617")?));
/// let err = &schema.validate(&tooljson::from_str("1.5")?).unwrap_err()[0];
/// assert_eq!(err.message, "expected integer, found number 1.5");
/// assert_eq!(err.schema_path, "/type");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct CompiledSchema {
    prog: Arc<program::Program>,
}

impl CompiledSchema {
    /// A builder for non-default options.
    pub fn builder() -> SchemaBuilder {
        SchemaBuilder::new()
    }

    /// Compiles with the defaults: draft 2020-12 unless `$schema` says
    /// draft-07, strict, formats as annotations.
    pub fn compile(schema: &serde_json::Value) -> Result<CompiledSchema, SchemaError> {
        SchemaBuilder::new().build(schema)
    }

    /// Compiles a schema held as a [`Value`].
    pub fn from_value(schema: &Value) -> Result<CompiledSchema, SchemaError> {
        SchemaBuilder::new().build_value(schema)
    }

    /// Compiles a schema given as JSON text.
    pub fn from_json_str(text: &str) -> Result<CompiledSchema, SchemaError> {
        SchemaBuilder::new().build_str(text)
    }

    /// Every violation of `instance`, in schema order.
    pub fn validate(&self, instance: &Value) -> Result<(), Vec<Violation>> {
        self.validate_any(instance)
    }

    /// Whether `instance` is valid (stops at the first failure).
    pub fn is_valid(&self, instance: &Value) -> bool {
        self.is_valid_any(instance)
    }

    /// [`CompiledSchema::validate`] of a `serde_json::Value`, read where it
    /// lies (not converted to a [`Value`] first). The violations are those
    /// `validate` reports on the same tree converted with
    /// `Value::from(&instance)`, in the same order; numbers are read as
    /// `serde_json` writes them.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// let schema = CompiledSchema::compile(&serde_json::json!({
    ///     "properties": {"path": {"type": "string"}, "n": {"maximum": 3}}
    /// }))?;
    /// let args = serde_json::json!({"path": 7, "n": 2.5});
    /// let errors = schema.validate_json(&args).unwrap_err();
    /// assert_eq!(errors[0].to_string(), "/path: expected string, found number 7");
    /// assert!(schema.validate_json(&serde_json::json!({"path": "a", "n": 3})).is_ok());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validate_json(&self, instance: &serde_json::Value) -> Result<(), Vec<Violation>> {
        self.validate_any(instance)
    }

    /// [`CompiledSchema::is_valid`] of a `serde_json::Value`, read where it
    /// lies (see [`CompiledSchema::validate_json`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// let schema = CompiledSchema::compile(&serde_json::json!({"type": "array", "uniqueItems": true}))?;
    /// assert!(schema.is_valid_json(&serde_json::json!([1, 2, 3])));
    /// assert!(!schema.is_valid_json(&serde_json::json!([1, 2, 1.0])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_valid_json(&self, instance: &serde_json::Value) -> bool {
        self.is_valid_any(instance)
    }

    fn validate_any(&self, instance: &impl instance::Instance) -> Result<(), Vec<Violation>> {
        let mut errs = Vec::new();
        let v = validate::Validator::new(&self.prog);
        if v.check::<true>(
            self.prog.root,
            instance,
            &validate::At::ROOT,
            None,
            0,
            &mut errs,
        ) {
            Ok(())
        } else {
            if errs.is_empty() {
                // Every failing path pushes; this is a guard, not a path taken.
                errs.push(Violation {
                    instance_path: Path::root(),
                    schema_path: String::new(),
                    keyword: String::new(),
                    message: "expected a valid value, found an invalid one".into(),
                });
            }
            Err(errs)
        }
    }

    fn is_valid_any(&self, instance: &impl instance::Instance) -> bool {
        let v = validate::Validator::new(&self.prog);
        v.check::<false>(
            self.prog.root,
            instance,
            &validate::At::ROOT,
            None,
            0,
            &mut Vec::new(),
        )
    }

    /// Keywords ignored in lenient mode (unsupported, or with a malformed
    /// value), and unknown formats under [`SchemaBuilder::assert_formats`]
    /// (in either mode), as `schema path` or `schema path: why`.
    pub fn ignored_keywords(&self) -> &[String] {
        &self.prog.ignored
    }

    /// A fresh stream check; it owns a clone of this schema.
    pub fn stream_check(&self) -> StreamCheck {
        StreamCheck::new(self.clone())
    }

    /// Contract point 7: whether the value at `path` is held by a string
    /// `enum` / `const` (so a partial view should show it only when complete).
    ///
    /// Public for partial views: it is what
    /// [`crate::PartialParser::hold_strings`] is given (the vendor layer
    /// does so for every schema-checked call), and what a UI with a view of
    /// its own asks.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::{CompiledSchema, Path};
    /// let s = CompiledSchema::from_json_str(r#"{"properties": {"name": {"enum": ["Alice", "Bob"]}, "note": {"type": "string"}}}"#)?;
    /// assert!(s.holds_string_at(Path::parse_pointer("/name").unwrap().as_ref()));
    /// assert!(!s.holds_string_at(Path::parse_pointer("/note").unwrap().as_ref()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn holds_string_at(&self, path: PathRef<'_>) -> bool {
        stream::string_options_at(&self.prog, path, &mut |_| true)
    }

    /// The one `enum` / `const` string at `path` that starts with `prefix`,
    /// if exactly one does: lets a partial view show a prefix that can only
    /// become that option.
    ///
    /// Public for UIs that show a held string early (contract point 7
    /// allows a prefix that matches exactly one option); nothing in this
    /// crate calls it.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::{CompiledSchema, Path};
    /// let s = CompiledSchema::from_json_str(r#"{"properties": {"name": {"enum": ["Alice", "Albert", "Bob"]}}}"#)?;
    /// let p = Path::parse_pointer("/name").unwrap();
    /// assert_eq!(s.unique_option_at(p.as_ref(), "B"), Some("Bob"));
    /// assert_eq!(s.unique_option_at(p.as_ref(), "Al"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn unique_option_at(&self, path: PathRef<'_>, prefix: &str) -> Option<&str> {
        stream::unique_option_at(&self.prog, path, prefix)
    }

    pub(crate) fn program(&self) -> &program::Program {
        &self.prog
    }
}

impl SchemaBuilder {
    /// The fan-out budget: the most subschema visits that validating one
    /// value may cost at its own location (default [`DEFAULT_MAX_FANOUT`],
    /// 100,000). In-place applicators multiply: a definition that refers to
    /// the one before it twice, 30 levels deep, is 2^30 visits in 2 KB of
    /// schema, and `anyOf` / `oneOf` / `unevaluated*` fan-outs do the same.
    /// A schema over the budget fails compilation with an error that names
    /// it, so that `validate`, `is_valid` and the stream check all stay
    /// within the budget per instance location.
    ///
    /// # Examples
    ///
    /// ```
    /// use tooljson::CompiledSchema;
    /// // Each definition refers to the one before twice: 2^20 visits.
    /// let mut defs = serde_json::Map::new();
    /// defs.insert("d0".into(), serde_json::json!({"type": "integer"}));
    /// for i in 1..=20 {
    ///     let prev = format!("#/$defs/d{}", i - 1);
    ///     defs.insert(format!("d{i}"), serde_json::json!({"allOf": [{"$ref": prev}, {"$ref": prev}]}));
    /// }
    /// let schema = serde_json::json!({"$defs": defs, "$ref": "#/$defs/d20"});
    /// let err = CompiledSchema::compile(&schema).unwrap_err();
    /// assert!(err.message().contains("max_fanout"), "{err}");
    /// let allowed = CompiledSchema::builder().max_fanout(1 << 22).build(&schema)?;
    /// assert!(allowed.is_valid(&tooljson::from_str("1")?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn max_fanout(mut self, visits: u64) -> SchemaBuilder {
        self.max_fanout = visits;
        self
    }
}
