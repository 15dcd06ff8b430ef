//! The real Silkroad files the tests read, and what they say when there is none.
//!
//! No public `.nvm` file could be obtained yet: the `silkroad` corpus folder holds only a README
//! saying so. A test that reads real files must not pass as if it had read some, so
//! [`real_nvm_files`] checks that this is still the state of the folder and prints that 0 real
//! files were checked; the day a file appears there, every caller reads it.
#![allow(dead_code)]

use std::path::PathBuf;

use nav_core::testing::{corpus_dir, is_negative, real_files};

/// The non-negative real files of the `silkroad` corpus and incoming folders. When there is
/// none, asserts that the corpus folder's README says no public file exists, and prints that
/// `test` checked 0 real files (without a corpus folder at all, [`corpus_dir`] skips with a note,
/// or fails under `NAVKIT_REQUIRE_CORPUS`).
pub fn real_nvm_files(test: &str) -> Vec<PathBuf> {
    let files: Vec<PathBuf> = real_files("silkroad")
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| !is_negative(f))
        .collect();
    if files.is_empty() {
        if let Some(dir) = corpus_dir("silkroad") {
            let readme = std::fs::read_to_string(dir.join("README.md")).unwrap_or_default();
            assert!(
                readme.contains("No public `.nvm` file"),
                "corpus/silkroad holds no real file, and its README does not say why"
            );
        }
        println!(
            "jmxvnvm: {test}: checked 0 real files: no public Silkroad .nvm file exists yet \
             (corpus/silkroad/README.md); the builder's files stand in"
        );
    }
    files
}

/// The repository's Silkroad samples (`samples/silkroad/*.nvm`, made by the builder), sorted.
// Test code: a panic is a failed test.
#[allow(clippy::unwrap_used)]
pub fn samples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "nvm"))
        .collect();
    files.sort();
    files
}
