//! Every file of the `mgsv` corpus folder (and of the incoming folder, when it exists) round-trips
//! byte for byte: through the view writer, the model writer, and a serde_json round trip of the
//! model. Game files validate with no warning.

use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{hex_diff, is_negative, real_files};
use nav_core::{Format, Severity};
use nav2_mgsv::{Nav2, Nav2File};

#[test]
fn every_corpus_file_round_trips() {
    let files = real_files("mgsv");
    if files.is_empty() {
        return;
    }
    let mut checked = 0;
    let mut passed = 0;
    let mut canonical = 0;
    let mut failures = Vec::new();
    for (_, path) in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        checked += 1;
        if is_negative(path) {
            match Nav2.parse(&bytes) {
                Err(e) if e.to_string().starts_with("nav2-mgsv: ") => passed += 1,
                Err(e) => failures.push(format!("{name}: unclear error {e}")),
                Ok(_) => failures.push(format!("{name}: a negative file parsed")),
            }
            continue;
        }
        let model = match roundtrip_bytes(&Nav2, &bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        // serde_json: to_string → from_str → write gives the original bytes.
        let json = serde_json::to_string(&model).unwrap();
        let back: Nav2File = serde_json::from_str(&json).unwrap();
        assert_eq!(back, model, "{name}: the JSON model differs");
        let written = Nav2.write(&back).unwrap();
        if let Some(diff) = hex_diff(&bytes, &written) {
            failures.push(format!("{name}: JSON round trip: {diff}"));
            continue;
        }
        let findings: Vec<_> = Nav2
            .validate(&model)
            .into_iter()
            .filter(|f| f.severity >= Severity::Warning)
            .collect();
        if name.starts_with("obj2nav2_") {
            // Obj2Nav2 breaks several invariants of game files; validate must say so.
            assert!(
                !findings.is_empty(),
                "{name}: no finding for an Obj2Nav2 file"
            );
        } else {
            assert!(findings.is_empty(), "{name}: {findings:#?}");
        }
        if model.stored.is_none() {
            canonical += 1;
        } else {
            // Only the two files Obj2Nav2 wrote break the game's layout.
            assert!(
                name.starts_with("obj2nav2_"),
                "{name}: a game file does not follow the game's layout: {:#?}",
                Nav2.validate(&model)
            );
        }
        passed += 1;
    }
    eprintln!(
        "nav2-mgsv corpus: {checked} files checked, {passed} passed, {canonical} in the game's layout"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed, checked);
    assert!(checked > 0, "the corpus folder holds no file");
    // The Phantom Pain tile is held to the same rules as the Survive tiles once it is here.
    if let Some((_, tpp)) = files
        .iter()
        .find(|(_, p)| p.ends_with("ih_mbqf_102_102_nav.nav2"))
    {
        let model = Nav2.read(&std::fs::read(tpp).unwrap()).unwrap();
        assert_eq!(model.weight_denominator, 585);
        assert!(
            model.stored.is_none(),
            "the TPP tile follows the game's layout"
        );
    }
}
