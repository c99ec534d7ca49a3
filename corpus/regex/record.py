#!/usr/bin/env python3
"""Records what ECMAScript itself (node's RegExp) says about random patterns,
for tests/schema_regex_ecma.rs: for each pattern, whether it compiles with
the `u` flag and without (Annex B), and which of a few strings it matches.

    python3 corpus/regex/record.py > corpus/regex/ecma_verdicts.json

The patterns are built from the characters that matter to the syntax and
from small pieces (escapes, classes, ranges, quantifiers, groups); the
strings from characters those pieces tell apart. Deterministic (seeded).
"""
import json
import random
import subprocess

random.seed(20261205)
SYNTAX = list("^$\\.*+?()[]{}|:-,abdw012é") + [
    "\\u0041", "\\x41", "\\cJ", "\\-", "[\\d-z]", "[a-]", "\\S", "\\W", "\\D",
    "[\\b]", "\\0", "\\n", "\\t", "{,}", "\\/", "A", "\t", "[^-a]", "[--{]",
    "(?=a)", "\\B", "\\d", "\\w", "\\s", "[a-c]", "[^a]", "{2}", "{1,3}", "(?:",
    "\\1", "[a-\\d]", "\\p{L}", "(?<n>", "\\uD83D\\uDE00",
]
ALPHABET = ["a", "b", "c", "1", "-", "_", ".", " ", "é", "\n", "ü", "{", "}", "]",
            "\\", ",", "0", "2", "d", "w", "A", "\t", "😀"]

cases = []
for _ in range(1200):
    p = "".join(random.choice(SYNTAX) for _ in range(random.randint(1, 9)))
    s = ["".join(random.choice(ALPHABET) for _ in range(random.randint(0, 5)))
         for _ in range(6)]
    cases.append({"p": p, "s": s})

JS = r"""
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const run = (c, flags) => {
  let re;
  try { re = new RegExp(c.p, flags); } catch (e) { return null; }
  return c.s.map(s => re.test(s));
};
for (const c of cases) { c.u = run(c, 'u'); c.annex_b = run(c, ''); }
console.log(JSON.stringify(cases));
"""
out = subprocess.run(["node", "-e", JS], input=json.dumps(cases),
                     capture_output=True, text=True, check=True).stdout
version = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
recorded = json.loads(out)
print(json.dumps({
    "recorded_with": "node " + version + " RegExp, by corpus/regex/record.py",
    "cases": recorded,
}, ensure_ascii=False, separators=(",", ":")))
