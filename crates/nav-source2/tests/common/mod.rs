//! The real Source 2 files the tests walk.
#![allow(dead_code)]

use std::path::PathBuf;

use nav_core::testing::{corpus_dir, corpus_files, corpus_root, incoming_dir, real_files};

/// Every real file with a short name: `source2` corpus and incoming folders, then the Source 2
/// files among the Source 1 negatives. The `source2` corpus folder does not exist until the
/// incoming files move there, so it is walked only where it exists; the Source 1 corpus is
/// required (under `NAVKIT_REQUIRE_CORPUS`) through [`corpus_dir`].
pub fn source2_files() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    let walked = if corpus_root().is_some_and(|r| r.join("source2").is_dir()) {
        real_files("source2")
    } else {
        incoming_dir("source2")
            .into_iter()
            .flat_map(|d| corpus_files(&d).into_iter().map(move |f| (d.clone(), f)))
            .collect()
    };
    for (dir, f) in walked {
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
