//! `SourceNavAs` (what `navkit --flavour` uses) answers every `Format` method as `SourceNav` does
//! on a file of the flavour it names: only the parse is the flavour's own, so a capability
//! `SourceNav` gains cannot vanish under `--flavour`.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::Format;
use nav_core::geometry::TriangleMesh;
use nav_core::testing::{is_negative, real_files};
use nav_source::{Flavour, SourceMesh, SourceNav, SourceNavAs};

/// Calls every method of the trait on both and compares the answers.
fn agree(name: &str, bytes: &[u8]) {
    let auto = SourceNav;
    let view = auto.parse(bytes).unwrap();
    let flavour = view.flavour();
    let chosen = SourceNavAs(flavour);
    let chosen_view = chosen.parse(bytes).unwrap();

    assert_eq!(auto.name(), chosen.name(), "{name}");
    assert_eq!(auto.description(), chosen.description(), "{name}");
    assert_eq!(auto.extensions(), chosen.extensions(), "{name}");
    assert_eq!(auto.sniff(bytes), chosen.sniff(bytes), "{name}");
    assert_eq!(auto.has_signature(), chosen.has_signature(), "{name}");
    assert_eq!(auto.attribute_bits(), chosen.attribute_bits(), "{name}");

    let model = auto.to_model(&view);
    assert_eq!(model, chosen.to_model(&chosen_view), "{name}: to_model");
    assert_eq!(
        model,
        chosen.to_model(&view),
        "{name}: to_model of one view"
    );
    assert_eq!(
        Some(&model),
        chosen.read(bytes).ok().as_ref(),
        "{name}: read"
    );
    let from = |f: &dyn Fn(&mut &[u8]) -> std::io::Result<SourceMesh>| f(&mut &bytes[..]).ok();
    assert_eq!(
        from(&|r| auto.read_from(r, bytes.len() as u64)),
        from(&|r| chosen.read_from(r, bytes.len() as u64)),
        "{name}: read_from"
    );

    let written = auto.write(&model).unwrap();
    assert_eq!(written, bytes, "{name}: write");
    assert_eq!(chosen.write(&model).unwrap(), written, "{name}: write");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    auto.write_into(&model, &mut a).unwrap();
    chosen.write_into(&model, &mut b).unwrap();
    assert_eq!(a, b, "{name}: write_into");
    let (mut a, mut b) = (Vec::new(), Vec::new());
    auto.write_to(&model, &mut a).unwrap();
    chosen.write_to(&model, &mut b).unwrap();
    assert_eq!(a, b, "{name}: write_to");
    assert_eq!(
        auto.write_view(&view).unwrap(),
        chosen.write_view(&chosen_view).unwrap(),
        "{name}: write_view"
    );

    assert_eq!(auto.validate(&model), chosen.validate(&model), "{name}");
    assert_eq!(auto.summary(&model), chosen.summary(&model), "{name}");
    assert_eq!(
        auto.view_summary(&view),
        chosen.view_summary(&chosen_view),
        "{name}: view_summary"
    );
    let (mut a, mut b) = (model.clone(), model.clone());
    assert_eq!(auto.refresh(&mut a), chosen.refresh(&mut b), "{name}");
    assert_eq!(a, b, "{name}: refresh");
    assert_eq!(auto.fix(&mut a), chosen.fix(&mut b), "{name}");
    assert_eq!(a, b, "{name}: fix");
    let (mut a, mut b) = (String::new(), String::new());
    auto.dump(&model, &mut a).unwrap();
    chosen.dump(&model, &mut b).unwrap();
    assert_eq!(a, b, "{name}: dump");
    assert_eq!(auto.parts(&model), chosen.parts(&model), "{name}: parts");
    let (mut a, mut b) = (model.clone(), model.clone());
    assert_eq!(
        auto.replace_part(&mut a, "x", bytes)
            .map_err(|e| e.to_string()),
        chosen
            .replace_part(&mut b, "x", bytes)
            .map_err(|e| e.to_string()),
        "{name}: replace_part"
    );
    assert_eq!(a, b, "{name}: replace_part");

    let geometry = auto.geometry(&model);
    assert!(geometry.is_some(), "{name}: geometry");
    assert_eq!(geometry, chosen.geometry(&model), "{name}: geometry");
    if let Some(g) = &geometry {
        // A move and a deletion: both answer the same (a result, or the same refusal).
        let edit = nav_core::edit::MeshEdit {
            moved: g
                .vertices
                .first()
                .map(|p| (0, [p[0], p[1], p[2] + 8.0]))
                .into_iter()
                .collect(),
            deleted: vec![u32::try_from(g.polygons.len().saturating_sub(1)).unwrap()],
            ..Default::default()
        };
        let (mut a, mut b) = (model.clone(), model.clone());
        let applied = auto.apply(&mut a, g, &edit);
        assert!(applied.is_some(), "{name}: apply");
        assert_eq!(
            applied.map(|r| r.map_err(|e| e.to_string())),
            chosen
                .apply(&mut b, g, &edit)
                .map(|r| r.map_err(|e| e.to_string())),
            "{name}: apply"
        );
        assert_eq!(a, b, "{name}: apply");
    }
    let graph = auto.navigation(&model);
    assert!(graph.is_some(), "{name}: navigation");
    assert_eq!(graph, chosen.navigation(&model), "{name}: navigation");
    let mesh = TriangleMesh {
        vertices: vec![[0.0, 0.0, 0.0], [64.0, 0.0, 0.0], [0.0, 64.0, 0.0]],
        triangles: vec![[0, 1, 2]],
    };
    assert_eq!(
        auto.build(&mesh).map(|r| r.map_err(|e| e.to_string())),
        chosen.build(&mesh).map(|r| r.map_err(|e| e.to_string())),
        "{name}: build"
    );
}

#[test]
fn flavour_as_agrees_with_auto_detection_on_every_method() {
    let files: Vec<_> = real_files("source")
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| !is_negative(p))
        .collect();
    let mut flavours = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display().to_string();
        agree(&name, &bytes);
        let flavour = SourceNav.parse(&bytes).unwrap().flavour();
        if !flavours.contains(&flavour) {
            flavours.push(flavour);
        }
    }
    println!(
        "SourceNavAs agrees with SourceNav on {} files, flavours {flavours:?}",
        files.len()
    );
    if !files.is_empty() {
        for f in Flavour::ALL {
            assert!(flavours.contains(&f), "no corpus file of {f:?}");
        }
    }
}
