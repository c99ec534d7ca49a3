//! The two engines behind one interface, over the same vocabulary (the
//! token bytes of a tooljson [`Vocabulary`], copied into llguidance's
//! token trie), so the workload code cannot favour either.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{SimpleVob, TokEnv, TokRxInfo, TokTrie, TokenId, TokenizerEnv};
use llguidance::{JsonCompileOptions, Matcher as LlgMatcher, ParserFactory};
use serde_json::Value;
use tooljson::CompiledSchema;
use tooljson::decode::{Constraint, Matcher, Vocabulary};

/// A constrained-decoding engine: compile a schema, follow one sequence.
pub trait Engine {
    /// A compiled schema.
    type Compiled;
    /// One sequence's state.
    type Seq;
    /// A computed mask.
    type Mask;
    fn name(&self) -> &'static str;
    /// Compiles a jsonschemabench schema (a JSON value in memory).
    fn compile(&self, schema: &Value) -> Result<Self::Compiled, String>;
    /// A sequence at its start.
    fn start(&self, c: &Self::Compiled) -> Self::Seq;
    /// An empty mask buffer.
    fn new_mask(&self) -> Self::Mask;
    /// Computes the mask of the next token into `mask`: the timed step.
    fn mask(&self, seq: &mut Self::Seq, mask: &mut Self::Mask) -> Result<(), String>;
    fn allows(&self, mask: &Self::Mask, id: u32) -> bool;
    fn commit(&self, seq: &mut Self::Seq, id: u32) -> Result<(), String>;
    /// Drops what the engine cached about the current state, so that a
    /// repeated mask is computed again (llguidance caches the last mask).
    fn forget(&self, seq: &mut Self::Seq);
}

/// tooljson's `decode` module.
pub struct Tooljson {
    pub vocab: Vocabulary,
}

impl Engine for Tooljson {
    type Compiled = Constraint;
    type Seq = Matcher;
    type Mask = Vec<u64>;

    fn name(&self) -> &'static str {
        "tooljson"
    }

    /// Formats asserted, as the decode tests and jsonschemabench's labels
    /// have them (llguidance asserts the formats it knows, too).
    fn compile(&self, schema: &Value) -> Result<Constraint, String> {
        let s = CompiledSchema::builder()
            .assert_formats(true)
            .build(schema)
            .map_err(|e| format!("schema: {e}"))?;
        Constraint::new(&s, &self.vocab).map_err(|e| match e.keyword() {
            Some(k) => format!("unsupported `{k}`"),
            None => e.to_string(),
        })
    }

    fn start(&self, c: &Constraint) -> Matcher {
        c.matcher()
    }

    fn new_mask(&self) -> Vec<u64> {
        vec![0; self.vocab.mask_words()]
    }

    fn mask(&self, seq: &mut Matcher, mask: &mut Vec<u64>) -> Result<(), String> {
        seq.fill_mask(mask);
        Ok(())
    }

    fn allows(&self, mask: &Vec<u64>, id: u32) -> bool {
        mask.get(id as usize / 64)
            .is_some_and(|w| w >> (id % 64) & 1 == 1)
    }

    fn commit(&self, seq: &mut Matcher, id: u32) -> Result<(), String> {
        seq.commit_token(id).map_err(|e| e.to_string())
    }

    fn forget(&self, _seq: &mut Matcher) {}
}

/// llguidance's token environment over a tooljson vocabulary: the same ids
/// and bytes; tokens without text (specials) get llguidance's special
/// marker so they never match text.
struct TrieEnv {
    trie: TokTrie,
}

impl TokenizerEnv for TrieEnv {
    fn tok_trie(&self) -> &TokTrie {
        &self.trie
    }

    fn tokenize_bytes(&self, s: &[u8]) -> Vec<TokenId> {
        self.trie.greedy_tokenize(s)
    }

    /// Greedy is not the model's tokenization: llguidance then does not
    /// force tokens ahead of the text (tooljson's mask does not either).
    fn tokenize_is_canonical(&self) -> bool {
        false
    }
}

/// llguidance, with the JSON options set to tooljson's output policy.
pub struct Llguidance {
    factory: ParserFactory,
    options: JsonCompileOptions,
}

impl Llguidance {
    /// Prepares the vocabulary (token trie and the factory's token slices),
    /// once per vocabulary, as tooljson's [`Vocabulary`] is.
    pub fn new(vocab: &Vocabulary) -> Llguidance {
        let eos = vocab.eos_ids()[0];
        let words: Vec<Vec<u8>> = (0..vocab.len() as u32)
            .map(|id| {
                let b = vocab.token_bytes(id);
                if b.is_empty() {
                    let mut w = vec![TokTrie::SPECIAL_TOKEN_MARKER];
                    w.extend_from_slice(format!("<|special_{id}|>").as_bytes());
                    w
                } else {
                    b.to_vec()
                }
            })
            .collect();
        let trie = TokTrie::from(&TokRxInfo::new(vocab.len() as u32, eos), &words);
        let env: TokEnv = Arc::new(TrieEnv { trie });
        let mut factory = ParserFactory::new_simple(&env).expect("llguidance factory");
        factory.quiet();
        // Compact JSON (no whitespace between tokens), `,` and `:` as the
        // separators; `oneOf` stays refused rather than read as `anyOf`
        // (tooljson refuses overlapping `oneOf` too); not lenient, so an
        // unknown keyword or format is an error, not ignored.
        let options = JsonCompileOptions {
            whitespace_flexible: false,
            coerce_one_of: false,
            lenient: false,
            ..JsonCompileOptions::default()
        };
        Llguidance { factory, options }
    }
}

/// The first line of an error or panic message, shortened.
fn short(msg: &str) -> String {
    let line = msg.lines().next().unwrap_or("");
    line.chars().take(120).collect()
}

impl Engine for Llguidance {
    /// A matcher at the start, cloned for each sequence (clones share the
    /// lexer's lazily built states, as a server reusing a grammar does).
    type Compiled = LlgMatcher;
    type Seq = LlgMatcher;
    type Mask = Option<SimpleVob>;

    fn name(&self) -> &'static str {
        "llguidance"
    }

    fn compile(&self, schema: &Value) -> Result<LlgMatcher, String> {
        let mut schema = schema.clone();
        if schema.is_object() {
            self.options.apply_to(&mut schema);
        }
        let grammar = TopLevelGrammar::from_json_schema(schema);
        match catch_unwind(AssertUnwindSafe(|| self.factory.create_parser(grammar))) {
            Ok(Ok(p)) => Ok(LlgMatcher::new(Ok(p))),
            Ok(Err(e)) => Err(short(&e.to_string())),
            Err(_) => Err("panicked".to_owned()),
        }
    }

    fn start(&self, c: &LlgMatcher) -> LlgMatcher {
        c.clone()
    }

    fn new_mask(&self) -> Option<SimpleVob> {
        None
    }

    fn mask(&self, seq: &mut LlgMatcher, mask: &mut Option<SimpleVob>) -> Result<(), String> {
        // After the last token of a complete value llguidance stops; its
        // mask is then EOS alone.
        match seq.compute_mask_or_eos() {
            Ok(m) => {
                *mask = Some(m);
                Ok(())
            }
            Err(e) => Err(short(&e.to_string())),
        }
    }

    fn allows(&self, mask: &Option<SimpleVob>, id: u32) -> bool {
        mask.as_ref().is_some_and(|m| m.is_allowed(id))
    }

    fn commit(&self, seq: &mut LlgMatcher, id: u32) -> Result<(), String> {
        seq.consume_token(id).map_err(|e| short(&e.to_string()))
    }

    fn forget(&self, seq: &mut LlgMatcher) {
        seq.invalidate_bias_cache();
    }
}
