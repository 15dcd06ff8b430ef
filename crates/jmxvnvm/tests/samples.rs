//! The sample files in `samples/silkroad/` are made by the crate's own builder; this test keeps
//! them current (rewriting them when `NAVKIT_BLESS=1`).

use std::path::PathBuf;

use jmxvnvm::build::{empty, legacy, town};
use jmxvnvm::{Layout, NavMeshTerrain, Nvm, RegionId, write};
use nav_core::Format;

fn samples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/silkroad")
}

/// Every sample: file name and model.
fn samples() -> Vec<(&'static str, NavMeshTerrain)> {
    vec![
        ("nv_61a8_town.nvm", town(RegionId(0x61a8))),
        ("nv_5c81_empty.nvm", empty(RegionId(0x5c81), 212.5)),
        ("nv_1f29_legacy.nvm", legacy(RegionId(0x1f29), false)),
        ("nv_11a5_legacy_planes.nvm", legacy(RegionId(0x11a5), true)),
    ]
}

#[test]
fn samples_are_current() {
    let dir = samples_dir();
    let mut stale = Vec::new();
    for (name, model) in samples() {
        let bytes = write(&model).unwrap();
        assert!(bytes.len() < 256 * 1024, "{name} is {} bytes", bytes.len());
        // Every writer (view, model, streaming) gives the sample's bytes back.
        let back = nav_core::oracle::roundtrip_bytes(&Nvm, &bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back, model, "{name}");
        let path = dir.join(name);
        if let Err(e) = nav_core::testing::golden_file(&path, &bytes) {
            stale.push(e);
        }
    }
    assert!(
        stale.is_empty(),
        "samples are stale ({stale:?}); rerun with NAVKIT_BLESS=1 to rewrite them"
    );
}

#[test]
fn samples_cover_every_layout_and_validate_clean() {
    let mut layouts = Vec::new();
    for (name, model) in samples() {
        let findings = Nvm.validate(&model);
        assert!(findings.is_empty(), "{name}: {findings:#?}");
        layouts.push(model.layout().unwrap());
    }
    for l in Layout::ALL {
        assert!(layouts.contains(&l), "no sample has the {l:?} layout");
    }
    let town = &samples()[0].1;
    assert!(town.objects.len() >= 30, "a town has many objects");
    assert!(town.linked_edge_count() >= 20);
    assert!(
        town.objects.iter().any(|o| o.region_id != 0x61a8),
        "spill-in objects"
    );
    assert!(
        town.objects
            .iter()
            .flat_map(|o| &o.linked_edges)
            .any(|l| l.other_object_index == -1),
        "a removed link entry"
    );
}
