//! Models: arbitrary ones (from a deterministic byte stream) must come back equal from their own
//! bytes, JSON keeps the model, and geometry maps every area.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use nav_core::Format;
use nav_core::testing::{ArbitraryTally, arbitrary_models};
use nav_source2::{Source2Mesh, Source2Nav};

#[test]
fn arbitrary_models_round_trip() {
    let ArbitraryTally { written, refused } = arbitrary_models(
        &Source2Nav,
        600,
        |seed| 2048 + (seed as usize % 7) * 512,
        |_, _| {},
    );
    assert!(written > 300, "only {written} models were writable");
    assert!(refused > 0, "the writer's refusals were never exercised");
}

#[test]
fn json_keeps_every_version() {
    for version in 30..=36 {
        let m = nav_source2::samples::room(version, 1);
        let json = serde_json::to_string(&m).unwrap();
        let back: Source2Mesh = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m, "v{version}");
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        // The custom data shows its decoded arealist beside its bytes.
        let custom = &value["custom_data"];
        assert_eq!(custom["format"], "7300f029-8e00-45f9-b9c3-32e1403c9620");
        let list = custom["decoded"]["arealist"].as_array().unwrap();
        assert_eq!(list.len(), 4);
        assert_eq!(list[0]["hidingspotdata"][0]["pos"][0], 32.0);
    }
}

#[test]
fn validate_sees_an_arealist_that_no_longer_matches() {
    let mut m = nav_source2::samples::room(36, 1);
    assert!(nav_source2::validate(&m).is_empty());
    m.areas.pop();
    m.areas[1].connections[2].clear();
    m.areas[2].connections[1].clear();
    m.areas[0].ladders_above.clear();
    m.ladders[0].top_forward_area_id = 0;
    let findings = nav_source2::validate(&m);
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(
        findings[0].to_string(),
        "warning: custom_data arealist: 4 entries for 3 areas: the bot analysis no longer matches the areas (re-analyse the map)"
    );
    m.areas[0].connections[0].push(nav_source2::Connection {
        area_id: 9,
        edge: 0,
    });
    m.areas[1].connections[3][0].edge = 7;
    let text: Vec<String> = nav_source2::validate(&m)
        .iter()
        .map(|f| f.to_string())
        .collect();
    assert!(
        text.contains(&"error: areas[0] connections[0][0]: area 9 does not exist".to_string()),
        "{text:?}"
    );
    assert!(
        text.contains(
            &"error: areas[1] connections[3][0]: edge 7 is past the 4 edges of area 1".to_string()
        ),
        "{text:?}"
    );
}

#[test]
fn geometry_maps_areas_to_polygons() {
    for version in [30, 31, 36] {
        let m = nav_source2::samples::room(version, 0);
        let g = Source2Nav.geometry(&m).unwrap();
        assert!(g.is_consistent());
        assert_eq!(g.polygons.len(), 4);
        assert_eq!(g.nodes.len(), 4);
        // Area 1 (index 0): edge 1 faces area 2, edge 2 faces area 3.
        assert_eq!(g.polygons[0].neighbours, [None, Some(1), Some(2), None]);
        assert_eq!(g.kind_name(g.polygons[3].kind), "crouch");
        assert_eq!(g.nodes[0].position, [64.0, 64.0, 8.0]);
        let ladders = g
            .links
            .iter()
            .filter(|l| g.kind_name(l.kind) == "ladder")
            .count();
        assert_eq!(
            (g.links.len(), ladders),
            (9, 1),
            "8 connections and a ladder"
        );
    }
    for (name, path) in common::source2_files() {
        let m = nav_source2::read(&std::fs::read(&path).unwrap()).unwrap();
        let g = Source2Nav.geometry(&m).unwrap();
        assert!(g.is_consistent(), "{name}");
        assert_eq!(g.nodes.len(), m.areas.len(), "{name}");
    }
}

#[test]
fn places_and_movable_meshes_round_trip_through_bytes_and_json() {
    use nav_core::RawF32;
    use nav_source2::{ByteString, MovableMesh};
    let mut m = nav_source2::samples::room(35, 0);
    m.places = vec![
        ByteString::from_text("BombsiteA"),
        ByteString(vec![0xff, 0, 7]),
    ];
    m.movable_meshes.push(MovableMesh {
        id: ByteString::from_text("12:34"),
        transform: [RawF32::new(1.0); 12],
    });
    m.polygons[1].movable_mesh_id = 0;
    m.generation_params.hull_preset_name = ByteString::from_text("cs2");
    let bytes = nav_source2::write(&m).unwrap();
    assert_eq!(nav_source2::read(&bytes).unwrap(), m);
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["places"][0], "BombsiteA");
    assert_eq!(json["places"][1], serde_json::json!([255, 0, 7]));
    assert_eq!(json["movable_meshes"][0]["id"], "12:34");
    let back: Source2Mesh = serde_json::from_value(json).unwrap();
    assert_eq!(back, m);
    // A NUL inside a NUL-terminated string cannot be written.
    m.movable_meshes[0].id.0.push(0);
    let err = nav_source2::write(&m).unwrap_err().to_string();
    assert!(err.contains("movable_meshes[0] id"), "{err}");
}

/// The streaming writer gives `write`'s bytes, and a model refused late in the file (an area's
/// hiding spots past the `u8` count) is refused before the first byte reaches the stream.
#[test]
fn write_to_streams_and_refuses_before_any_byte() {
    for version in 30..=36 {
        let mut m = nav_source2::samples::room(version, 1);
        let mut streamed = Vec::new();
        nav_source2::write_to(&m, &mut streamed).unwrap();
        assert_eq!(streamed, nav_source2::write(&m).unwrap(), "v{version}");
        let last = m.areas.last_mut().unwrap();
        last.hiding_spots = vec![nav_source2::HidingSpot::default(); 256];
        let mut out = Vec::new();
        let err = Source2Nav.write_to(&m, &mut out).unwrap_err();
        let refusal = nav_core::error::refused(&err).expect("a refusal, not an I/O error");
        assert!(
            refusal.to_string().contains("hiding_spots count"),
            "v{version}: {refusal}"
        );
        assert!(out.is_empty(), "v{version}: {} bytes written", out.len());
    }
}
