//! Structured round trips of arbitrary models, and model edits.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use arbitrary::{Arbitrary, Unstructured};
use nav_core::Format;
use nav_core::oracle::{roundtrip_bytes, roundtrip_model};
use nav_core::testing::noise;
use nvnm_skyrim::nvnm::{NavmeshGeometry, Parent, Triangle};
use nvnm_skyrim::plugin::{Item, PluginFile, RecordBody};
use nvnm_skyrim::{Nvnm, Plugin, samples};

#[test]
fn arbitrary_nvnm_models_round_trip() {
    let (mut written, mut refused) = (0, 0);
    for seed in 0..4000u64 {
        let data = noise(seed, 64 + (seed as usize % 7) * 200);
        let mut u = Unstructured::new(&data);
        let Ok(model) = NavmeshGeometry::arbitrary(&mut u) else {
            continue;
        };
        match roundtrip_model(&Nvnm, &model) {
            Ok(Some(bytes)) => {
                written += 1;
                roundtrip_bytes(&Nvnm, &bytes).unwrap();
                let _ = Nvnm.validate(&model);
                // And through JSON.
                let json = serde_json::to_string(&model).unwrap();
                let back: NavmeshGeometry = serde_json::from_str(&json).unwrap();
                assert_eq!(back, model, "seed {seed}: {json}");
            }
            Ok(None) => refused += 1,
            Err(e) => panic!("seed {seed}: {e}\n{model:#?}"),
        }
    }
    eprintln!("{written} models written, {refused} refused");
    // The generator makes mostly writable models.
    assert!(written > 3000, "only {written} written, {refused} refused");
    assert!(refused > 0, "the writer's refusals were never exercised");
}

#[test]
fn arbitrary_plugin_models_round_trip() {
    let (mut written, mut refused, mut navmeshes) = (0, 0, 0);
    for seed in 0..1500u64 {
        let data = noise(seed ^ 0xABCD, 48 + (seed as usize % 5) * 60);
        let mut u = Unstructured::new(&data);
        let Ok(model) = PluginFile::arbitrary(&mut u) else {
            continue;
        };
        match roundtrip_model(&Plugin, &model) {
            Ok(Some(_)) => {
                written += 1;
                navmeshes += model.navmeshes().len();
                let _ = Plugin.validate(&model);
            }
            Ok(None) => refused += 1,
            Err(e) => panic!("seed {seed}: {e}\n{model:#?}"),
        }
    }
    eprintln!("{written} plugin models written ({navmeshes} navmeshes), {refused} refused");
    // The generator makes mostly writable models, with navmeshes in them.
    assert!(written > 1000, "only {written} written, {refused} refused");
    assert!(
        navmeshes > 500,
        "only {navmeshes} navmeshes in the written models"
    );
    assert!(refused > 0);
}

/// The generator's trees stay bounded however much input it is given.
#[test]
fn arbitrary_plugin_models_are_bounded() {
    for seed in 0..64u64 {
        let data = noise(seed, 1 << 16);
        let Ok(model) = PluginFile::arbitrary_take_rest(Unstructured::new(&data)) else {
            continue;
        };
        fn count(items: &[Item], depth: usize, deepest: &mut usize) -> usize {
            *deepest = (*deepest).max(depth);
            items
                .iter()
                .map(|i| match i {
                    Item::Group(g) => 1 + count(&g.items, depth + 1, deepest),
                    Item::Record(_) => 1,
                })
                .sum()
        }
        let mut deepest = 0;
        assert!(count(&model.items, 0, &mut deepest) <= 48, "seed {seed}");
        assert!(deepest <= nvnm_skyrim::plugin::MAX_DEPTH + 3, "seed {seed}");
    }
}

#[test]
fn a_plugin_model_survives_json() {
    let bytes = Plugin.write(&samples::plugin()).unwrap();
    let model = Plugin.read(&bytes).unwrap();
    let json = serde_json::to_value(&model).unwrap();
    // Readable: signatures as text, flags as numbers.
    assert_eq!(json["header"]["signature"], "TES4");
    // Raw bytes are hex: HEDR, 12 bytes, version 1.71 …
    let raw = json["header"]["body"]["Raw"].as_str().unwrap();
    assert!(raw.starts_with("484544520c0048e1da3f"), "{raw}");
    let back: PluginFile = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, model);
    assert_eq!(Plugin.write(&back).unwrap(), bytes);
    // An array of numbers reads too; odd or non-hex digits do not.
    let mut json = json;
    json["header"]["body"]["Raw"] = serde_json::json!([0x48, 0x45]);
    let edited: PluginFile = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(edited.header.body, RecordBody::Raw(vec![0x48, 0x45]));
    for bad in ["abc", "zz", "é0"] {
        json["header"]["body"]["Raw"] = serde_json::json!(bad);
        assert!(
            serde_json::from_value::<PluginFile>(json.clone()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn build_edit_write_reparse_validate() {
    // Build: a 4×4 floor, split one quad differently, relink and regrid.
    let mut m = samples::floor(4, 10.0, 3);
    m.parent = Parent::Cell { cell: 0x0100_0D00 };
    assert_eq!(Nvnm.validate(&m), vec![]);
    let bytes = Nvnm.write(&m).unwrap();
    assert_eq!(Nvnm.read(&bytes).unwrap(), m);
    // Edit: drop the last two triangles, add a bridge triangle out of the floor.
    m.triangles.truncate(m.triangles.len() - 2);
    let n = m.vertices.len() as u16;
    m.vertices.push(nav_core::testing::vec3(600.0, 600.0, 40.0));
    m.triangles.push(Triangle {
        vertices: [24, 19, n],
        edges: [-1; 3],
        extra: None,
        flags: 0,
        cover_flags: 0,
    });
    m.link_neighbours();
    m.rebuild_grid(4);
    let bytes = Nvnm.write(&m).unwrap();
    let back = roundtrip_bytes(&Nvnm, &bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(Nvnm.validate(&back), vec![]);
    // The grid holds every triangle at least once, and lists are sorted.
    let mut seen = vec![false; m.triangles.len()];
    for cell in &back.grid.cells {
        assert!(cell.windows(2).all(|w| w[0] < w[1]));
        for &t in cell {
            seen[t as usize] = true;
        }
    }
    assert!(seen.iter().all(|&s| s));
    // The edited mesh goes into the sample plugin and comes back out.
    let plugin = Plugin.write(&samples::plugin()).unwrap();
    let out = Plugin::replace_nvnm(&plugin, 0x801, &bytes).unwrap();
    let model = Plugin.read(&out).unwrap();
    assert_eq!(model.navmeshes()[0], (0x801, bytes.as_slice()));
    assert_eq!(Plugin.validate(&model), vec![]);
}
