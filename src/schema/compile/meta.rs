//! The bundled metaschemas (draft 2020-12 with its vocabularies, draft-07,
//! draft-06 and draft-04), parsed once per process when a `$ref` first
//! names one: no network access.

use std::sync::OnceLock;

use crate::Value;

static METASCHEMAS: OnceLock<Vec<(&'static str, Value)>> = OnceLock::new();

/// Each metaschema's URI and its document, parsed on first use.
pub(super) fn metaschemas() -> &'static [(&'static str, Value)] {
    METASCHEMAS.get_or_init(|| {
        let texts: [(&str, &str); 12] = [
            (
                "https://json-schema.org/draft/2020-12/schema",
                include_str!("meta/draft2020-12/schema.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/core",
                include_str!("meta/draft2020-12/meta/core.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/applicator",
                include_str!("meta/draft2020-12/meta/applicator.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/unevaluated",
                include_str!("meta/draft2020-12/meta/unevaluated.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/validation",
                include_str!("meta/draft2020-12/meta/validation.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/meta-data",
                include_str!("meta/draft2020-12/meta/meta-data.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/format-annotation",
                include_str!("meta/draft2020-12/meta/format-annotation.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/content",
                include_str!("meta/draft2020-12/meta/content.json"),
            ),
            (
                "https://json-schema.org/draft/2020-12/meta/format-assertion",
                include_str!("meta/draft2020-12/meta/format-assertion.json"),
            ),
            (
                "http://json-schema.org/draft-07/schema",
                include_str!("meta/draft7.json"),
            ),
            (
                "http://json-schema.org/draft-06/schema",
                include_str!("meta/draft6.json"),
            ),
            (
                "http://json-schema.org/draft-04/schema",
                include_str!("meta/draft4.json"),
            ),
        ];
        texts
            .iter()
            .filter_map(|(u, t)| Some((*u, crate::from_str(t).ok()?)))
            .collect()
    })
}
