//! Round trip of every real Source 2 file: the `source2` corpus folder where it exists and the
//! `source2` incoming folder through the shared corpus loop, then the two Source 2 files kept in
//! `source/negative/` (negatives for nav-source, positives here) through the same checks. Each
//! goes through the view writer, the model writer, the streaming writer and JSON, and validates
//! without an error or a warning.

use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{
    corpus_dir, corpus_files, real_files, real_files_round_trip, skip_without_corpus,
};
use nav_core::{Format, Severity};
use nav_source2::{Source2Mesh, Source2Nav};

/// The checks the shared loop does not make: the sniff, JSON, and no warnings either.
fn own_checks(bytes: &[u8], model: &Source2Mesh) -> Result<(), String> {
    if !nav_source2::sniff(bytes) {
        return Err("not sniffed".into());
    }
    let json = serde_json::to_string(model).map_err(|e| e.to_string())?;
    let back: Source2Mesh = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    if &back != model || nav_source2::write(&back).ok().as_deref() != Some(bytes) {
        return Err("the JSON round trip changed the file".into());
    }
    let findings: Vec<_> = Source2Nav
        .validate(model)
        .into_iter()
        .filter(|f| f.severity >= Severity::Warning)
        .map(|f| f.to_string())
        .collect();
    if findings.is_empty() {
        Ok(())
    } else {
        Err(format!("validate reports {findings:?}"))
    }
}

#[test]
fn every_real_file_round_trips_and_validates() {
    let tally = real_files_round_trip(&Source2Nav, "source2", |file, model| {
        own_checks(&file.bytes, model)
    });
    let files = real_files("source2");
    if files.is_empty() {
        skip_without_corpus("no real `source2` file");
        return;
    }
    assert!(tally.with_errors.is_empty(), "{:#?}", tally.with_errors);
    assert_eq!(tally.refused, 0, "no Source 2 file is a negative here");
    assert_eq!(
        tally.passed,
        files.len(),
        "every source2 real file was checked"
    );
}

#[test]
fn the_source_negatives_are_source2_files_that_round_trip() {
    let Some(dir) = corpus_dir("source") else {
        return;
    };
    let files = corpus_files(&dir.join("negative"));
    assert_eq!(
        files.len(),
        2,
        "the two Source 2 negatives of nav-source are read here"
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path.display();
        let bytes = std::fs::read(path).expect("readable");
        let model = match roundtrip_bytes(&Source2Nav, &bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        // What the shared loop checks of a clean file: fix finds nothing to change.
        let mut fixed = model.clone();
        let changes = Source2Nav.fix(&mut fixed);
        if !changes.is_empty() || fixed != model {
            failures.push(format!("{name}: fix changed it: {changes:?}"));
            continue;
        }
        if let Err(e) = own_checks(&bytes, &model) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
}
