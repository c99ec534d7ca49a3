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
#[cfg(feature = "providers")]
pub mod fast_path_check;

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

/// The folders searched for test data, in order: `$TOOLJSON_TESTDATA` when
/// set (an override, and where the Llama 3.1 and Gemma 3 vocabularies,
/// whose licences keep them out of the repository, may be); `tests/data/`
/// (the byte copies of the public suites and recordings the repository
/// carries); `../shared/testdata` beside the project root (where the
/// project's own CI keeps the licensed vocabularies).
pub fn testdata_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    if let Some(d) = std::env::var_os("TOOLJSON_TESTDATA") {
        roots.push(PathBuf::from(d));
    }
    let root = project_root();
    roots.push(root.join("tests/data"));
    roots.push(root.join("../shared/testdata"));
    roots
}

/// `rel` (a file or folder of the test data, e.g.
/// `"JSONTestSuite/test_parsing"`) in the first of [`testdata_roots`] that
/// has it.
pub fn find_testdata(rel: &str) -> Option<PathBuf> {
    testdata_roots()
        .into_iter()
        .map(|r| r.join(rel))
        .find(|p| p.exists())
}

/// `rel` as [`find_testdata`] finds it. Panics with a plain message when no
/// folder has it, so a missing suite is a failure that says why, never a
/// quiet skip.
pub fn testdata(rel: &str) -> PathBuf {
    find_testdata(rel).unwrap_or_else(|| {
        let looked: Vec<String> = testdata_roots()
            .iter()
            .map(|r| r.display().to_string())
            .collect();
        panic!(
            "test data `{rel}` not found in {}: the repository carries it in tests/data/; \
             set TOOLJSON_TESTDATA to a folder holding it",
            looked.join(", ")
        )
    })
}

/// Says that a test did not run, and why, on one line of stderr that
/// `cargo test` shows: written to the stream itself, because libtest
/// captures `eprintln!` of a passing test; in one write, so that other
/// tests' output does not split the line.
pub fn skipped(what: &str) {
    use std::io::Write;
    let line = format!("SKIPPED: {what}\n");
    let _ = std::io::stderr().write_all(line.as_bytes());
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
