//! Writes the conversions the SDK oracle checks: `cases.jsonl` in the
//! folder given, one directed conversion a line (see
//! `tests/sdk_oracle/cases.rs`), for `tests/sdk_oracle/check.py`.
//!
//! `cargo run --release -p tooljson-benches --bin protocol-cases -- OUTDIR`

#[path = "../tests/sdk_oracle/cases.rs"]
mod cases;

use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    let out: PathBuf = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            eprintln!("usage: protocol-cases OUTDIR");
            std::process::exit(2)
        });
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("benches/ has a parent")
        .to_owned();
    let streams = cases::stream_turns(&cases::testdata(&root));
    let all = cases::all_cases(&root, &streams);
    std::fs::create_dir_all(&out).expect("the output folder");
    let path = out.join("cases.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&path).expect("cases.jsonl"));
    for c in &all {
        writeln!(f, "{}", c.to_json()).expect("write");
    }
    f.flush().expect("write");
    eprintln!(
        "{} cases ({} recorded final messages) written to {}",
        all.len(),
        streams.len(),
        path.display()
    );
}
