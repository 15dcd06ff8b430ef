//! The files of `samples/skyrim/` are what the writer makes from the sample models today.
//! `NAVKIT_BLESS=1` rewrites them; otherwise a difference fails.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::PathBuf;

use nav_core::Format;
use nav_core::oracle::{roundtrip_bytes, roundtrip_model};
use nvnm_skyrim::{Nvnm, Plugin, samples};

fn samples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/skyrim")
}

/// Every sample: its file name and the bytes the writer makes now.
fn built() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "interior_v12.nvnm",
            Nvnm.write(&samples::interior()).unwrap(),
        ),
        (
            "exterior_v12.nvnm",
            Nvnm.write(&samples::exterior()).unwrap(),
        ),
        (
            "fallout4_v15.nvnm",
            Nvnm.write(&samples::fallout4()).unwrap(),
        ),
        ("navkit_room.esp", Plugin.write(&samples::plugin()).unwrap()),
    ]
}

#[test]
fn samples_are_current() {
    let dir = samples_dir();
    let mut stale = Vec::new();
    for (name, bytes) in built() {
        assert!(bytes.len() < 8 * 1024, "{name} is {} bytes", bytes.len());
        let path = dir.join(name);
        if let Err(e) = nav_core::testing::golden_file(&path, &bytes) {
            stale.push(e);
        }
    }
    assert!(
        stale.is_empty(),
        "samples are stale (rerun with NAVKIT_BLESS=1): {stale:?}"
    );
}

#[test]
fn samples_round_trip_and_validate_clean() {
    for model in [
        samples::interior(),
        samples::exterior(),
        samples::fallout4(),
    ] {
        let bytes = roundtrip_model(&Nvnm, &model).unwrap().unwrap();
        roundtrip_bytes(&Nvnm, &bytes).unwrap();
        assert_eq!(Nvnm.validate(&model), vec![], "{model:#?}");
    }
    let plugin = samples::plugin();
    let bytes = roundtrip_model(&Plugin, &plugin).unwrap().unwrap();
    let back = roundtrip_bytes(&Plugin, &bytes).unwrap();
    assert_eq!(Plugin.validate(&back), vec![]);
    let parts = Plugin.parts(&back);
    let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["00000801", "00000802"]);
    for p in &parts {
        roundtrip_bytes(&Nvnm, &p.bytes).unwrap();
    }
    // A part put back in place of itself changes nothing; an unknown name is refused.
    let mut same = back.clone();
    Plugin
        .replace_part(&mut same, "00000802", &parts[1].bytes)
        .unwrap();
    assert_eq!(same, back);
    assert!(
        Plugin
            .replace_part(&mut same, "00000999", &parts[1].bytes)
            .is_err()
    );
    assert!(
        Plugin
            .replace_part(&mut same, "not hex", &parts[1].bytes)
            .is_err()
    );
    let ids: Vec<u32> = back.navmeshes().iter().map(|(id, _)| *id).collect();
    assert_eq!(ids, [0x801, 0x802]);
}
