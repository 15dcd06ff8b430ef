//! Round trip of every real Source 2 file: the `source2` corpus folder where it exists, the
//! `source2` incoming folder, and the two Source 2 files kept in `source/negative/` (negatives
//! for nav-source, positives here). Each goes through the view writer, the model writer and
//! JSON, and validates without an error.

mod common;

use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::corpus_root;
use nav_core::{Format, Severity};
use nav_source2::{Source2Mesh, Source2Nav};

#[test]
fn every_real_file_round_trips_and_validates() {
    let files = common::source2_files();
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
