//! Every file of the `mgsv` corpus folder (and of the incoming folder, when it exists) goes
//! through `nav_core::testing::real_files_round_trip` (view writer, model writer, streaming
//! writer, fix leaving valid files alone) and, here, a serde_json round trip of the model. Game
//! files validate with no warning and follow the game's layout; the Obj2Nav2 files do neither.

use nav_core::testing::{corpus_dir, hex_diff, real_files_round_trip};
use nav_core::{Format, Severity};
use nav2_mgsv::{Nav2, Nav2File};

#[test]
fn every_corpus_file_round_trips() {
    let mut canonical = 0;
    let mut obj2nav2 = 0;
    let tally = real_files_round_trip(&Nav2, "mgsv", |file, model| {
        let name = file
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // serde_json: to_string → from_str → write gives the original bytes.
        let json = serde_json::to_string(model).map_err(|e| e.to_string())?;
        let back: Nav2File = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        if back != *model {
            return Err("the JSON model differs".into());
        }
        let written = nav2_mgsv::write(&back).map_err(|e| e.to_string())?;
        if let Some(diff) = hex_diff(&file.bytes, &written) {
            return Err(format!("JSON round trip: {diff}"));
        }
        let findings: Vec<_> = Nav2
            .validate(model)
            .into_iter()
            .filter(|f| f.severity >= Severity::Warning)
            .collect();
        if name.starts_with("obj2nav2_") {
            // Obj2Nav2 breaks several invariants of game files; validate must say so.
            if findings.is_empty() {
                return Err("no finding for an Obj2Nav2 file".into());
            }
            obj2nav2 += 1;
        } else if !findings.is_empty() {
            return Err(format!("{findings:#?}"));
        }
        if model.stored.is_none() {
            canonical += 1;
        } else if !name.starts_with("obj2nav2_") {
            // Only the two files Obj2Nav2 wrote break the game's layout.
            return Err("a game file does not follow the game's layout".into());
        }
        // The Phantom Pain tile is held to the same rules as the Survive tiles once it is here.
        if name == "ih_mbqf_102_102_nav.nav2" && model.weight_denominator != 585 {
            return Err(format!(
                "WeightDenominator {} where the TPP tile has 585",
                model.weight_denominator
            ));
        }
        Ok(())
    });
    eprintln!(
        "nav2-mgsv corpus: {} passed, {canonical} in the game's layout, {obj2nav2} from Obj2Nav2",
        tally.passed
    );
    // Validate finds errors in the Obj2Nav2 files only (they break the game's invariants).
    assert!(
        tally.with_errors.iter().all(|e| e.contains("obj2nav2_")),
        "{:#?}",
        tally.with_errors
    );
    if corpus_dir("mgsv").is_some() {
        assert!(tally.passed > 0, "the corpus folder holds no file");
        assert!(canonical > 0, "no corpus file follows the game's layout");
        assert_eq!(obj2nav2, 2, "the two Obj2Nav2 files of the corpus");
    }
}
