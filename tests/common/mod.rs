//! Shared helpers for the integration tests: where the public test suites
//! are, the fuzz targets' checks, and the counting allocator.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

#[cfg(feature = "providers")]
pub mod checks;
pub mod counting_alloc;
#[cfg(feature = "decode")]
pub mod decode_check;
#[cfg(feature = "decode")]
pub mod decode_data;
#[cfg(feature = "providers")]
pub mod eventstream_check;

/// The project root: the main crate's folder, also when this file is built
/// into the benchmark package (`benches/`, one below it).
pub fn project_root() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    if dir.join("src/lib.rs").is_file() {
        dir.to_owned()
    } else {
        dir.parent().expect("benches/ has a parent").to_owned()
    }
}

/// The public test data folder: `TOOLJSON_TESTDATA`, else `../shared/testdata`
/// beside the project root. Panics with a plain message when it is absent, so
/// a missing suite is a failure that says why, never a quiet skip.
pub fn testdata() -> PathBuf {
    let dir = match std::env::var_os("TOOLJSON_TESTDATA") {
        Some(d) => PathBuf::from(d),
        None => project_root().join("../shared/testdata"),
    };
    assert!(
        dir.is_dir(),
        "test data not found at {}: set TOOLJSON_TESTDATA to the folder holding JSONTestSuite/, \
         JSON-Schema-Test-Suite/, jsonschemabench/ and vendor-streams/ (see README)",
        dir.display()
    );
    dir
}

/// Every file in `dir` (sorted), with its name.
pub fn files_in(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[cfg(feature = "schema")]
/// Every file under `dir`, recursively, as (path relative to `dir`, file).
pub fn walk(dir: &std::path::Path, rel: &str, out: &mut Vec<(String, std::path::PathBuf)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let r = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if p.is_dir() {
            walk(&p, &r, out);
        } else {
            out.push((r, p));
        }
    }
}

#[cfg(feature = "schema")]
/// The schema tests' compile: the builder with format assertion on, the
/// draft from `$schema`.
pub fn compile_asserting_formats(
    schema: &tooljson::Value,
) -> Result<tooljson::CompiledSchema, tooljson::SchemaError> {
    tooljson::CompiledSchema::builder()
        .assert_formats(true)
        .build_value(schema)
}

#[cfg(feature = "schema")]
/// A compile refusal's kind: the message up to its first detail (quote or
/// colon), for counting refusals by reason.
pub fn refusal_kind(e: &tooljson::SchemaError) -> String {
    let m = e.message();
    m.split([':', '"', '`'])
        .next()
        .unwrap_or(m)
        .trim()
        .to_owned()
}
