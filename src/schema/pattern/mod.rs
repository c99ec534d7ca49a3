//! `pattern` and `patternProperties`: ECMA-262 regular expressions as a
//! schema means them. [`Pattern`] picks the cheapest matcher that gives the
//! same answers (a class sequence, a position automaton, or the `regex`
//! crate on a translated pattern, built on first use), within the budgets
//! a schema has for its patterns. Only a pattern with look-around or back
//! references goes to the backtracking engine (`fancy-regex`), whose every
//! match stops after [`SchemaBuilder::max_pattern_backtracks`](super::SchemaBuilder::max_pattern_backtracks)
//! backtracks: past that, [`Pattern::test`] says [`OverBudget`].

pub(crate) mod automaton;
pub(crate) mod ecma;
pub(crate) mod sequence;

use smallvec::SmallVec;

pub(crate) use automaton::PositionAutomaton;
#[cfg(feature = "decode")]
pub(crate) use sequence::Class;
pub(crate) use sequence::ClassSequence;

/// A compiled `pattern` / `patternProperties` regular expression.
///
/// A pattern that is an anchored sequence of character classes (the usual
/// shape in tool schemas) is matched by [`ClassSequence`], and one made of
/// classes, groups, alternation and quantifiers in up to 64 positions by a
/// [`PositionAutomaton`], both with no regex. Any other is checked when the schema compiles (its syntax and, for a
/// heavy pattern, its size), and its matcher is built on first use, once,
/// shared by every thread (a schema's patterns are often never used: a
/// request declares many tools and the model calls one or two). One with
/// look-around or back references is built when the schema compiles, for
/// the backtracking engine.
#[derive(Debug)]
pub(crate) struct Pattern {
    pub(crate) source: Box<str>,
    matcher: Matcher,
}

#[derive(Debug)]
enum Matcher {
    Sequence(ClassSequence),
    Automaton(PositionAutomaton),
    Regex {
        translated: Box<str>,
        regex: std::sync::OnceLock<Option<regex::Regex>>,
    },
    /// Look-around or back references: built when the schema compiles,
    /// each match within `limit` backtracks.
    Backtracking {
        regex: fancy_regex::Regex,
        limit: usize,
    },
}

/// A match on the backtracking engine that took more backtracks than the
/// schema allows (see `SchemaBuilder::max_pattern_backtracks`): no verdict.
/// `pattern` then fails and `patternProperties` reports the key, each with
/// a message naming the budget; neither is ever taken as valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OverBudget {
    /// The backtracks allowed.
    pub(crate) limit: usize,
}

impl OverBudget {
    /// The message of a violation this gives, for `what` (a string or a key).
    pub(crate) fn message(self, source: &str, what: &str) -> String {
        format!(
            "could not decide whether {what} matches the pattern {source:?} within {} \
             backtracks (SchemaBuilder::max_pattern_backtracks); taken as a violation",
            self.limit
        )
    }
}

#[cfg(feature = "decode")]
/// A pattern's regular form, for constrained decoding: a class sequence
/// or a position automaton (a pattern left to the `regex` crate has none).
pub(crate) enum Regular<'a> {
    Sequence(&'a ClassSequence),
    Automaton(&'a PositionAutomaton),
}

#[cfg(feature = "decode")]
/// An owned [`Regular`], read from a pattern text of the crate's own (a
/// format's form).
pub(crate) enum OwnedRegular {
    Sequence(ClassSequence),
    Automaton(PositionAutomaton),
}

#[cfg(feature = "decode")]
impl OwnedRegular {
    /// Reads `src` (ECMA-262) if it has a regular form.
    pub(crate) fn parse(src: &str) -> Option<OwnedRegular> {
        let chars: SmallVec<[char; 64]> = src.chars().collect();
        if let Some(seq) = ClassSequence::parse_chars(&chars) {
            return Some(OwnedRegular::Sequence(seq));
        }
        PositionAutomaton::parse_chars(&chars, &mut 0).map(OwnedRegular::Automaton)
    }

    pub(crate) fn as_regular(&self) -> Regular<'_> {
        match self {
            OwnedRegular::Sequence(s) => Regular::Sequence(s),
            OwnedRegular::Automaton(a) => Regular::Automaton(a),
        }
    }
}

impl Pattern {
    #[cfg(feature = "decode")]
    /// Its regular form, if it is matched without a regex.
    pub(crate) fn regular(&self) -> Option<Regular<'_>> {
        match &self.matcher {
            Matcher::Sequence(s) => Some(Regular::Sequence(s)),
            Matcher::Automaton(a) => Some(Regular::Automaton(a)),
            _ => None,
        }
    }

    /// Whether `s` matches; a match past the backtrack budget is no match
    /// (see [`Pattern::test`] for the callers that report it). A build
    /// that fails on first use (which the compile-time checks leave no
    /// known way to reach) matches nothing: `pattern` then fails closed.
    #[inline]
    pub(crate) fn is_match(&self, s: &str) -> bool {
        self.test(s).unwrap_or(false)
    }

    /// Whether `s` matches, or [`OverBudget`] when the backtracking engine
    /// gave up.
    #[inline]
    pub(crate) fn test(&self, s: &str) -> Result<bool, OverBudget> {
        match &self.matcher {
            Matcher::Sequence(seq) => Ok(seq.is_match(s)),
            Matcher::Automaton(a) => Ok(a.is_match(s)),
            Matcher::Regex { translated, regex } => Ok(regex
                .get_or_init(|| ecma::build(translated).ok())
                .as_ref()
                .is_some_and(|r| r.is_match(s))),
            Matcher::Backtracking { regex, limit } => match regex.is_match(s) {
                Ok(m) => Ok(m),
                // The only run-time error is the backtrack limit.
                Err(_) => Err(OverBudget { limit: *limit }),
            },
        }
    }

    /// Whether no regex is left to build (a class sequence, or a regex
    /// already built).
    #[cfg(test)]
    pub(crate) fn is_built(&self) -> bool {
        match &self.matcher {
            Matcher::Sequence(_) | Matcher::Automaton(_) => true,
            Matcher::Regex { regex, .. } => regex.get().is_some(),
            Matcher::Backtracking { .. } => true,
        }
    }

    #[cfg(test)]
    pub(crate) fn is_sequence(&self) -> bool {
        matches!(self.matcher, Matcher::Sequence(_))
    }

    #[cfg(test)]
    pub(crate) fn is_automaton(&self) -> bool {
        matches!(self.matcher, Matcher::Automaton(_))
    }

    #[cfg(test)]
    pub(crate) fn has_follow_tables(&self) -> bool {
        matches!(&self.matcher, Matcher::Automaton(a) if a.has_tables())
    }
}
/// What a schema's patterns may still take, all together: entries of the
/// automata's follow tables (see [`automaton::FOLLOW_TABLE_BUDGET`]) and
/// bytes (see `SchemaBuilder::max_pattern_memory`).
#[derive(Debug)]
pub(crate) struct PatternBudget {
    follow_tables: usize,
    memory: u64,
    /// `memory` before any pattern took from it, for the message.
    limit: u64,
    /// The backtracks each match on the backtracking engine may take.
    backtracks: usize,
}

impl PatternBudget {
    pub(crate) fn new(max_memory: u64, max_backtracks: usize) -> PatternBudget {
        PatternBudget {
            follow_tables: automaton::FOLLOW_TABLE_BUDGET,
            memory: max_memory,
            limit: max_memory,
            backtracks: max_backtracks,
        }
    }

    /// Takes `bytes`; past the budget, the message that refuses `src`.
    fn take(&mut self, bytes: u64, src: &str) -> Result<(), String> {
        if bytes > self.memory {
            return Err(format!(
                "pattern {src:?}: the schema's patterns would take more than the {} KiB \
                 they may (this one about {} KiB; see SchemaBuilder::max_pattern_memory)",
                self.limit >> 10,
                bytes.div_ceil(1024)
            ));
        }
        self.memory -= bytes;
        Ok(())
    }
}

impl Pattern {
    /// Compiles the ECMA-262 pattern `src` within `budget`, or says why
    /// the schema cannot have it (the compiler reports that as a malformed
    /// keyword).
    pub(crate) fn compile(src: &str, budget: &mut PatternBudget) -> Result<Pattern, String> {
        let chars: SmallVec<[char; 64]> = src.chars().collect();
        if let Err(e) = ecma::misplaced_quantifier(&chars) {
            return Err(format!("pattern {src:?}: {e}"));
        }
        let (memory, matcher) = if let Some(seq) = ClassSequence::parse_chars(&chars) {
            (seq.heap_bytes(), Matcher::Sequence(seq))
        } else if let Some(a) = PositionAutomaton::parse_chars(&chars, &mut budget.follow_tables) {
            (a.heap_bytes(), Matcher::Automaton(a))
        } else {
            return Pattern::regex(src, budget);
        };
        budget.take(memory, src)?;
        Ok(Pattern {
            source: src.into(),
            matcher,
        })
    }

    /// A pattern for the `regex` crate (or, with look-around or back
    /// references, the backtracking engine): translated and parsed, weighed
    /// against the budget, then built at once if heavy or backtracking
    /// (else on first use).
    fn regex(src: &str, budget: &mut PatternBudget) -> Result<Pattern, String> {
        let parsed = ecma::check(src).map_err(|e| format!("pattern {src:?}: {e}"))?;
        // Weighed before it is built.
        let memory = parsed.memory();
        budget.take(memory, src)?;
        match parsed.finish(budget.backtracks) {
            Ok(ecma::Checked::Regex { translated, built }) => Ok(Pattern {
                source: src.into(),
                matcher: Matcher::Regex {
                    translated: translated.into(),
                    regex: match built {
                        Some(built) => std::sync::OnceLock::from(Some(built)),
                        None => std::sync::OnceLock::new(),
                    },
                },
            }),
            Ok(ecma::Checked::Backtracking(regex)) => Ok(Pattern {
                source: src.into(),
                matcher: Matcher::Backtracking {
                    regex,
                    limit: budget.backtracks,
                },
            }),
            Err(e) => {
                // Not built: what it took goes back (lenient mode goes on).
                budget.memory += memory;
                Err(format!("pattern {src:?}: {e}"))
            }
        }
    }
}

#[cfg(test)]
mod lazy_pattern_tests {
    use super::Pattern;
    use crate::schema::CompiledSchema;
    use crate::schema::program::Kw;

    fn patterns(s: &CompiledSchema) -> Vec<&Pattern> {
        let mut out = Vec::new();
        for node in s.program().nodes.iter() {
            for kw in s.program().kws(node) {
                match kw {
                    Kw::Pattern(p) => out.push(&**p),
                    Kw::Object(o) => out.extend(o.patterns.iter().map(|(p, _)| p)),
                    _ => {}
                }
            }
        }
        out
    }

    #[test]
    fn follow_tables_stop_at_the_schema_budget() {
        // Each pattern is a 64-position automaton (62 for the group, then
        // `c` and a digit), whose tables take 8 x 256 entries: four fit in
        // the budget, the other six join follow sets bit by bit.
        let mut props = serde_json::Map::new();
        for k in 0..10 {
            props.insert(
                format!("p{k}"),
                serde_json::json!({"pattern": format!("^(a|b){{31}}c{k}$")}),
            );
        }
        let s = CompiledSchema::compile(&serde_json::json!({"properties": props})).unwrap();
        let ps = patterns(&s);
        assert_eq!(ps.len(), 10);
        assert!(ps.iter().all(|p| p.is_automaton()));
        let with_tables = ps.iter().filter(|p| p.has_follow_tables()).count();
        assert_eq!(
            with_tables,
            crate::schema::pattern::automaton::FOLLOW_TABLE_BUDGET / 2048
        );
        // Both kinds match as they should.
        let body = "ab".repeat(15) + "b";
        for k in 0..10 {
            let good = crate::from_str(&format!(r#"{{"p{k}": "{body}c{k}"}}"#)).unwrap();
            let wrong_digit =
                crate::from_str(&format!(r#"{{"p{k}": "{body}c{}"}}"#, (k + 1) % 10)).unwrap();
            let too_short = crate::from_str(&format!(r#"{{"p{k}": "abc{k}"}}"#)).unwrap();
            assert!(s.is_valid(&good), "p{k}");
            assert!(!s.is_valid(&wrong_digit), "p{k}");
            assert!(!s.is_valid(&too_short), "p{k}");
        }
    }

    #[test]
    fn patterns_take_from_the_schema_budget() {
        use crate::schema::pattern::automaton::PositionAutomaton;
        use crate::schema::pattern::sequence::ClassSequence;
        let seq = ClassSequence::parse("^[a-z]+0$").unwrap().heap_bytes();
        // With its follow tables, as each of these gets.
        let auto = PositionAutomaton::parse("^(ab|c)+0$").unwrap().heap_bytes();
        for (pattern, each) in [("^[a-z]+{k}$", seq), ("^(ab|c)+{k}$", auto)] {
            let mut props = serde_json::Map::new();
            for k in 0..10 {
                props.insert(
                    format!("p{k}"),
                    serde_json::json!({"pattern": pattern.replace("{k}", &k.to_string())}),
                );
            }
            let schema = serde_json::json!({"properties": props});
            // Three patterns and a half fit: the fourth fails.
            let b = CompiledSchema::builder().max_pattern_memory(3 * each + each / 2);
            let e = b.build(&schema).unwrap_err();
            assert_eq!(e.schema_path(), "/properties/p3/pattern", "{pattern}");
            assert!(
                e.message().contains("max_pattern_memory"),
                "{}",
                e.message()
            );
            let lenient = b.clone().strict(false).build(&schema).unwrap();
            assert_eq!(lenient.ignored_keywords().len(), 7, "{pattern}");
            assert!(
                lenient.is_valid(&crate::from_str(r#"{"p9": "!"}"#).unwrap()),
                "{pattern}: ignored"
            );
            assert!(!lenient.is_valid(&crate::from_str(r#"{"p2": "!"}"#).unwrap()));
            // With room for all ten.
            let all = CompiledSchema::builder()
                .max_pattern_memory(10 * each)
                .build(&schema);
            assert!(all.is_ok(), "{pattern}");
        }
    }

    #[test]
    fn a_pattern_that_fails_to_build_gives_its_budget_back() {
        // `\p{L}{200}` passes the regex crate's size limit when built (an
        // estimate of about 13 MiB); `\p{L}{100}` then fits in what is left
        // of 14 MiB only if the failed one gave its share back.
        let schema = serde_json::json!({"properties": {
            "a": {"pattern": "^\\p{L}{200}$"},
            "b": {"pattern": "^\\p{L}{100}$"}
        }});
        let s = CompiledSchema::builder()
            .strict(false)
            .max_pattern_memory(14 << 20)
            .build(&schema)
            .unwrap();
        assert_eq!(s.ignored_keywords().len(), 1, "{:?}", s.ignored_keywords());
        assert!(s.ignored_keywords()[0].contains("size limit"));
        let b = "é".repeat(100);
        assert!(s.is_valid(&crate::from_str(&format!(r#"{{"b": "{b}"}}"#)).unwrap()));
        assert!(!s.is_valid(&crate::from_str(r#"{"b": "x"}"#).unwrap()));
    }

    #[test]
    fn patterns_are_built_on_first_use_and_checked_at_compile() {
        let s = CompiledSchema::from_json_str(
            r#"{"properties": {"a": {"pattern": "^\\bx+$"}, "b": {"pattern": "^\\by$"}},
                "patternProperties": {"^\\bz": {"type": "integer"}}}"#,
        )
        .unwrap();
        let ps = patterns(&s);
        assert_eq!(ps.len(), 3);
        assert!(
            ps.iter().all(|p| !p.is_sequence() && !p.is_automaton()),
            "\\b takes the regex path"
        );
        assert!(ps.iter().all(|p| !p.is_built()), "built at compile time");
        assert!(s.is_valid(&crate::from_str(r#"{"a": "xx"}"#).unwrap()));
        assert!(!s.is_valid(&crate::from_str(r#"{"a": "xy"}"#).unwrap()));
        // Only the patterns that were used got built ("a"'s, and the
        // patternProperties one that every key is tried against).
        let unbuilt: Vec<&str> = patterns(&s)
            .iter()
            .filter(|p| !p.is_built())
            .map(|p| &*p.source)
            .collect();
        assert_eq!(unbuilt, [r"^\by$"]);
        // The others still give the right answers when first used, from
        // several threads at once.
        std::thread::scope(|t| {
            for _ in 0..4 {
                t.spawn(|| {
                    assert!(!s.is_valid(&crate::from_str(r#"{"b": "yy", "z1": "s"}"#).unwrap()));
                    assert!(s.is_valid(&crate::from_str(r#"{"b": "y", "z1": 2}"#).unwrap()));
                });
            }
        });
        assert!(patterns(&s).iter().all(|p| p.is_built()));

        // Syntax errors are still found when the schema compiles...
        let e = CompiledSchema::from_json_str(r#"{"pattern": "a(b"}"#).unwrap_err();
        assert!(
            e.to_string().contains("not a supported regular expression"),
            "{e}"
        );
        // ... and so is a pattern too big to build, which is built at once
        // (within the schema's pattern budget) ...
        let e = CompiledSchema::from_json_str(r#"{"pattern": "\\p{L}{200}"}"#).unwrap_err();
        assert!(e.to_string().contains("size limit"), "{e}");
        // ... and one past the budget, which is not built at all.
        let e = CompiledSchema::from_json_str(r#"{"pattern": "(?:\\w{1000}){1000}"}"#).unwrap_err();
        assert!(e.to_string().contains("max_pattern_memory"), "{e}");
        let heavy = CompiledSchema::from_json_str(r#"{"pattern": "^(?:ab{50}){100}$"}"#).unwrap();
        assert!(
            patterns(&heavy)[0].is_built(),
            "a heavy pattern is built at once"
        );
    }

    /// A schema with a pattern in each place (`pattern`, `patternProperties`,
    /// `propertyNames`): all three take the matcher `kind` says, and each
    /// fails where it should. `bad` are instances failing at `pattern`,
    /// `patternProperties` and `propertyNames`; `mixed` fails at the first
    /// two only.
    fn patterns_in_every_place(
        schema: &str,
        kind: fn(&Pattern) -> bool,
        ok: &str,
        bad: [&str; 3],
        mixed: &str,
    ) {
        let s = CompiledSchema::from_json_str(schema).unwrap();
        let ps = patterns(&s);
        assert_eq!(ps.len(), 3, "{ps:?}");
        assert!(ps.iter().all(|p| kind(p)), "{ps:?}");
        let valid = |t: &str| s.is_valid(&crate::from_str(t).unwrap());
        assert!(valid(ok));
        for (t, place) in bad
            .iter()
            .zip(["pattern", "patternProperties", "propertyNames"])
        {
            assert!(!valid(t), "{place}");
        }
        let errs = s.validate(&crate::from_str(mixed).unwrap()).unwrap_err();
        let kws: Vec<&str> = errs.iter().map(|e| e.keyword.as_str()).collect();
        assert_eq!(kws, ["pattern", "type"], "{errs:?}");
    }

    #[test]
    fn class_sequences_need_no_regex_and_match_in_every_place() {
        patterns_in_every_place(
            r#"{"properties": {"id": {"pattern": "^[a-z0-9_-]{3,32}$"}},
                "patternProperties": {"^x-[a-z]+$": {"type": "integer"}},
                "propertyNames": {"pattern": "^[a-z]"}}"#,
            Pattern::is_sequence,
            r#"{"id": "dev_01", "x-a": 1}"#,
            [r#"{"id": "Dev_01"}"#, r#"{"x-a": "s"}"#, r#"{"Id": 1}"#],
            r#"{"id": "no", "x-b": []}"#,
        );
    }

    #[test]
    fn group_patterns_take_the_automaton_and_match_in_every_place() {
        patterns_in_every_place(
            r#"{"properties": {"path": {"pattern": "^(/[a-z]+)+/?$"}},
                "patternProperties": {"^(x|y)-[0-9]+$": {"type": "integer"}},
                "propertyNames": {"pattern": "(a|x|y)"}}"#,
            Pattern::is_automaton,
            r#"{"path": "/usr/lib/", "x-1": 1, "y-22": 2}"#,
            [
                r#"{"path": "/usr//lib"}"#,
                r#"{"x-1": "s"}"#,
                r#"{"bcd": 1}"#,
            ],
            r#"{"path": "usr", "y-0": []}"#,
        );
    }
}
