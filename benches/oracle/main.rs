//! The schema layer held against the `jsonschema` crate (the oracle): verdicts
//! on generated schemas and instances, formats, look-around patterns, and the
//! jsonschemabench corpus. Kept beside the benchmarks so that `jsonschema`
//! builds only here, never in the main crate's `cargo test`; run with
//! `cargo test --release -p tooljson-benches`.

#[path = "../../tests/common/mod.rs"]
mod common;

mod schema_bench_data;
mod schema_differential;
mod schema_formats_generated;
mod schema_generated;
mod schema_is_valid;
mod schema_lookaround;
