//! Round trip of every real Source 2 file: the `source2` corpus folder where it exists, the
//! `source2` incoming folder, and the two Source 2 files kept in `source/negative/` (negatives
//! for nav-source, positives here). Each goes through the view writer, the model writer and
//! JSON, and validates without an error.

use std::path::PathBuf;

use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{corpus_dir, corpus_files, corpus_root, incoming_dir, real_files};
use nav_core::{Format, Severity};
use nav_source2::{Source2Mesh, Source2Nav};

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

#[test]
fn every_real_file_round_trips_and_validates() {
    let files = source2_files();
    let (mut checked, mut passed) = (0usize, 0usize);
    let mut failures = Vec::new();
    for (name, path) in &files {
        let bytes = std::fs::read(path).expect("readable");
        checked += 1;
        assert!(nav_source2::sniff(&bytes), "{name}: not sniffed");
        let model = match roundtrip_bytes(&Source2Nav, &bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let json = serde_json::to_string(&model).expect("serialises");
        let back: Source2Mesh = serde_json::from_str(&json).expect("deserialises");
        if back != model || nav_source2::write(&back).ok().as_deref() != Some(&bytes[..]) {
            failures.push(format!("{name}: the JSON round trip changed the file"));
            continue;
        }
        let errors: Vec<_> = Source2Nav
            .validate(&model)
            .into_iter()
            .filter(|f| f.severity >= Severity::Warning)
            .collect();
        if !errors.is_empty() {
            failures.push(format!("{name}: {errors:?}"));
            continue;
        }
        passed += 1;
    }
    println!("nav-source2 real files: {checked} checked, {passed} passed");
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert_eq!(passed, checked);
    if corpus_root().is_some() {
        assert!(
            checked >= 2,
            "the two Source 2 negatives of nav-source are read here"
        );
    }
}
