//! Replays every fuzz seed (`corpus/fuzz/<target>/`) and every crash ever
//! found (`corpus/crashes/<target>/`) through the same checks the fuzz
//! targets run (`tests/common/checks.rs`), so a crash once found stays fixed
//! even where no fuzzing toolchain is installed.

use crate::common::checks;
use crate::common::eventstream_check;

use std::path::{Path, PathBuf};

/// The check behind each fuzz target, by target name. A corpus folder with
/// no entry here fails the test, so a new target cannot go unreplayed.
fn check_for(target: &str) -> Option<fn(&[u8])> {
    Some(match target {
        "parse_chunked" => checks::chunked,
        "differential" => checks::differential,
        "partial" => checks::partial,
        "sse" => checks::sse,
        "eventstream" => eventstream_check::eventstream,
        "providers" => checks::providers,
        "fast_path" => crate::common::fast_path_check::fast_path,
        "schema" => checks::schema,
        "protocol" => checks::protocol,
        #[cfg(feature = "decode")]
        "decode" => crate::common::decode_check::decode,
        _ => return None,
    })
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// (target, file name, bytes) for every file under `dir/<target>/`.
fn inputs(dir: &Path) -> Vec<(String, String, Vec<u8>)> {
    let mut out = Vec::new();
    let Ok(targets) = std::fs::read_dir(dir) else {
        return out;
    };
    for t in targets {
        let t = t.unwrap().path();
        if !t.is_dir() {
            continue;
        }
        let target = t.file_name().unwrap().to_string_lossy().into_owned();
        for f in std::fs::read_dir(&t).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            out.push((target.clone(), name, std::fs::read(&f).unwrap()));
        }
    }
    out.sort();
    out
}

fn replay(files: &[(String, String, Vec<u8>)]) {
    let mut failed = Vec::new();
    for (target, name, bytes) in files {
        let Some(check) = check_for(target) else {
            // The decode target's check needs the `decode` feature; the
            // all-features test run replays it.
            if target == "decode" && cfg!(not(feature = "decode")) {
                eprintln!("not replayed without the `decode` feature: decode/{name}");
                continue;
            }
            panic!("corpus folder {target:?} names no known fuzz target");
        };
        if std::panic::catch_unwind(|| check(bytes)).is_err() {
            failed.push(format!("{target}/{name}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} corpus files fail their checks (panics above): {failed:?}",
        failed.len()
    );
}

#[test]
fn every_seed_passes_its_target_check() {
    let dir = root().join("fuzz");
    let files = inputs(&dir);
    for target in [
        "parse_chunked",
        "differential",
        "partial",
        "sse",
        "providers",
    ] {
        let n = files.iter().filter(|(t, _, _)| t == target).count();
        assert!(
            n >= 10,
            "only {n} seeds for {target} under {}",
            dir.display()
        );
    }
    replay(&files);
    eprintln!("replayed {} seed files", files.len());
}

#[test]
fn every_recorded_crash_stays_fixed() {
    // An empty or missing folder means no crash was ever found; the count is
    // printed so that is visible.
    let files = inputs(&root().join("crashes"));
    replay(&files);
    eprintln!("replayed {} crash files", files.len());
}

/// The checks themselves can fail: a wrong verdict must be caught.
#[test]
fn checks_catch_a_broken_property() {
    let r = std::panic::catch_unwind(|| {
        // Two different chunkings must agree; a fake "whole" outcome that
        // claims success for a truncated document must not.
        let doc = br#"{"a": [1, 2"#;
        let real = checks::run_parser(
            doc,
            &[(0, doc.len())],
            tooljson::Limits::default(),
            tooljson::DuplicateKeys::LastWins,
            false,
        );
        assert!(real.result.is_err());
        assert_eq!(real.result, Ok(tooljson::Value::Null));
    });
    assert!(r.is_err());
    assert_eq!(
        checks::chunk_ranges(5, &[2, 0]),
        [(0, 2), (2, 2), (2, 4), (4, 4), (4, 5)]
    );
    assert_eq!(checks::chunk_ranges(3, &[]), [(0, 1), (1, 2), (2, 3)]);
}
