//! Keeps the tree honest: no third-party corpus file and no large binary is tracked, and every
//! Rust source file starts by saying what it holds.

use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tracked_files() -> Option<Vec<PathBuf>> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(workspace())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        out.stdout
            .split(|b| *b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| workspace().join(String::from_utf8_lossy(s).as_ref()))
            .filter(|p| p.is_file())
            .collect(),
    )
}

#[test]
fn no_corpus_file_and_no_large_file_is_tracked() {
    let Some(files) = tracked_files() else {
        eprintln!("note: skipping: not a git checkout, or git is missing");
        return;
    };
    let corpus: Vec<(u64, PathBuf)> = match nav_core::testing::corpus_root() {
        Some(root) => nav_core::testing::corpus_files(&root)
            .into_iter()
            .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
            .collect(),
        None => {
            eprintln!("note: no corpus found; only checking sizes");
            Vec::new()
        }
    };
    let mut checked = 0;
    for file in &files {
        let len = std::fs::metadata(file).unwrap().len();
        let name = file
            .strip_prefix(workspace())
            .unwrap_or(file)
            .display()
            .to_string();
        assert!(
            len <= 256 * 1024 || name == "Cargo.lock",
            "{name} is {len} bytes: large files do not belong in the repository"
        );
        for (clen, cpath) in &corpus {
            if *clen == len && std::fs::read(file).unwrap() == std::fs::read(cpath).unwrap() {
                panic!(
                    "{name} is a copy of the third-party corpus file {}",
                    cpath.display()
                );
            }
        }
        checked += 1;
    }
    println!(
        "tidy: {checked} tracked files checked against {} corpus files",
        corpus.len()
    );
    assert!(checked > 0);
}

#[test]
fn every_rust_file_starts_with_module_docs() {
    let Some(files) = tracked_files() else {
        eprintln!("note: skipping: not a git checkout, or git is missing");
        return;
    };
    let mut missing = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with("#!["))
            .unwrap_or("");
        if !first.starts_with("//!") {
            missing.push(
                file.strip_prefix(workspace())
                    .unwrap_or(file)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        missing.is_empty(),
        "these files do not start with `//!` docs: {missing:#?}"
    );
}
