//! The crate's own promises over the conversions the SDK oracle checks
//! (`tests/sdk_oracle/cases.rs`): along every directed pair of Anthropic,
//! OpenAI Chat and OpenAI Responses, a conversion that reports no loss
//! comes back with the same meaning, and no text of the source is left out
//! of what is written. What the providers' SDKs say of the same outputs is
//! `tests/sdk_oracle/run` (in CI).

use std::collections::BTreeMap;

use crate::sdk_cases as cases;
use tooljson::protocol::Vendor;

const MODELLED: [Vendor; 3] = [
    Vendor::Anthropic,
    Vendor::OpenAiChat,
    Vendor::OpenAiResponses,
];

#[test]
fn lossless_conversions_come_back_equal_and_no_text_is_dropped() {
    let root = crate::common::project_root();
    let streams = cases::stream_turns(&cases::testdata(&root));
    assert!(
        streams.len() >= 20,
        "only {} recorded final messages",
        streams.len()
    );
    let all = cases::all_cases(&root, &streams);
    let mut failures = Vec::new();
    // Per pair: conversions, lossless, lossy.
    let mut counts: BTreeMap<(String, String), (usize, usize, usize)> = BTreeMap::new();
    for c in all
        .iter()
        .filter(|c| MODELLED.contains(&c.from) && MODELLED.contains(&c.to))
    {
        let n = counts
            .entry((c.from.to_string(), c.to.to_string()))
            .or_default();
        n.0 += 1;
        let what = format!("{} {} -> {}", c.conversation, c.from, c.to);
        if let Some(e) = &c.error {
            failures.push(format!("{what}: {e}"));
            continue;
        }
        if !c.texts_dropped.is_empty() {
            failures.push(format!("{what}: texts dropped {:?}", c.texts_dropped));
        }
        if c.losses.is_empty() {
            n.1 += 1;
            if !c.round_trip_equal {
                failures.push(format!(
                    "{what}: no loss reported, yet it comes back different\nsource {}\nback   {}",
                    c.source, c.back
                ));
            }
        } else {
            n.2 += 1;
        }
    }
    assert_eq!(
        counts.len(),
        6,
        "every directed pair of the three: {counts:?}"
    );
    // Lossless conversations exist on every pair: the check is not empty.
    for (pair, (total, clean, _)) in &counts {
        assert!(*clean * 2 > *total, "{pair:?}: {clean} of {total} lossless");
    }
    assert!(
        failures.is_empty(),
        "{} of the conversions fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
