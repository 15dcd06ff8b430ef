//! Round trip of every real file in the `silkroad` corpus folder (none is public today) and of
//! every sample file the crate's builder made (`samples/silkroad/`).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};

use jmxvnvm::Nvm;
use nav_core::Format;
use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{corpus_dir, corpus_files, is_negative};

/// Round-trips every file below `dir`; returns (checked, passed) and the failures.
fn check_dir(dir: &Path) -> (usize, usize, Vec<String>) {
    let (mut checked, mut passed, mut failures) = (0, 0, Vec::new());
    for path in corpus_files(dir) {
        let bytes = std::fs::read(&path).unwrap();
        checked += 1;
        if is_negative(&path) {
            match Nvm.parse(&bytes) {
                Err(e) if e.to_string().starts_with("jmxvnvm: ") && e.offset().is_some() => {
                    passed += 1
                }
                Err(e) => failures.push(format!("{}: unclear error {e}", path.display())),
                Ok(_) => failures.push(format!("{}: negative file parsed", path.display())),
            }
            continue;
        }
        match roundtrip_bytes(&Nvm, &bytes) {
            Ok(model) => {
                assert!(Nvm.sniff(&bytes));
                let _ = Nvm.validate(&model);
                passed += 1;
            }
            Err(e) => failures.push(format!("{}: {e}", path.display())),
        }
    }
    (checked, passed, failures)
}

#[test]
fn corpus_round_trips() {
    let Some(dir) = corpus_dir("silkroad") else {
        return;
    };
    let (checked, passed, failures) = check_dir(&dir);
    // No public .nvm file exists, so the folder may be empty; every file that is there must pass.
    println!("jmxvnvm corpus: {checked} files checked, {passed} passed");
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(checked, passed);
}

#[test]
fn samples_round_trip() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad");
    let (checked, passed, failures) = check_dir(&dir);
    println!("jmxvnvm samples: {checked} files checked, {passed} passed");
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(checked, passed);
    assert!(checked > 0, "no sample in {}", dir.display());
}
