//! The real Source 2 files the tests walk.
#![allow(dead_code)]

use std::path::PathBuf;

use nav_core::testing::{corpus_dir, corpus_files, real_files};

/// Every real file with a short name: the `source2` corpus and incoming folders (a missing corpus
/// folder is a note, or a failure under `NAVKIT_REQUIRE_CORPUS`, as [`real_files`] says), then
/// the Source 2 files among the Source 1 negatives (the Source 1 corpus is required the same way,
/// through [`corpus_dir`]).
pub fn source2_files() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for (dir, f) in real_files("source2") {
        let name = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
        out.push((format!("source2/{name}"), f));
    }
    if let Some(dir) = corpus_dir("source") {
        for f in corpus_files(&dir.join("negative")) {
            let name = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
            out.push((format!("source/{name}"), f));
        }
    }
    out
}
