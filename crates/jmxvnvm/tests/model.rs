//! Structured round trips of arbitrary models, and edits of built models.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use jmxvnvm::build::{empty, town};
use jmxvnvm::{
    CellQuad, LinkedEdge, NavMeshObj, NavMeshTerrain, Nvm, RegionId, TileMap, read, validate, write,
};
use nav_core::testing::{ArbitraryTally, arbitrary_models};
use nav_core::{ErrorKind, RawF32};

#[test]
fn arbitrary_models_round_trip() {
    let ArbitraryTally { written, refused } = arbitrary_models(
        &Nvm,
        3000,
        |seed| 64 + (seed as usize % 7) * 256,
        |model, bytes| assert_eq!(bytes.len(), model.encoded_len()),
    );
    assert!(written > 2000, "too few models were writable: {written}");
    assert!(
        refused > 0,
        "the generator should sometimes make unwritable models"
    );
}

#[test]
fn editing_a_town_keeps_it_valid() {
    let mut m = town(RegionId(0x61a8));
    // Add a linked pair of objects and list them in the cell they stand on.
    let base = m.objects.len() as i16;
    let mut o = m.objects[0].clone();
    o.local_position = [RawF32::new(990.0), RawF32::new(150.0), RawF32::new(990.0)];
    o.linked_edges = vec![LinkedEdge {
        other_object_index: base + 1,
        other_edge_index: 4,
        edge_index: 1,
    }];
    let mut o2 = o.clone();
    o2.linked_edges[0].other_object_index = base;
    m.objects.push(o);
    m.objects.push(o2);
    let cell = m.cell_at(990.0, 990.0).unwrap();
    m.cells[cell]
        .object_indices
        .extend([base as u16, base as u16 + 1]);
    // Raise the ground around it.
    for h in &mut m.height_map[..97] {
        *h = RawF32::new(h.get() + 10.0);
    }
    let bytes = write(&m).unwrap();
    let back = read(&bytes).unwrap();
    assert_eq!(back, m);
    assert_eq!(validate(&back), []);
}

#[test]
fn editing_can_break_validity_and_validate_says_where() {
    let mut m = empty(RegionId(0x5c81), 0.0);
    m.cells.push(CellQuad {
        min: [RawF32::new(5.0); 2],
        max: [RawF32::new(1.0); 2],
        object_indices: vec![3],
    });
    m.open_cell_count = 99;
    let findings = validate(&m);
    let text: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.contains("open cell count 99 exceeds the 37 cells")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("error: cells[36] object_indices[0]")),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("warning: cells[36]: rectangle")),
        "{text:#?}"
    );
    // Still writable: validation is not parsing.
    let back = read(&write(&m).unwrap()).unwrap();
    assert_eq!(back, m);
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    let mut m = empty(RegionId(1), 0.0);
    m.cells[0].object_indices = vec![0; 256];
    let e = write(&m).unwrap_err();
    assert_eq!(
        e.to_string(),
        "jmxvnvm: cells[0] object count: 256 does not fit the field's 8-bit range"
    );

    let mut m = empty(RegionId(1), 0.0);
    m.objects = vec![town(RegionId(1)).objects[0].clone(); 65_536];
    let e = write(&m).unwrap_err();
    assert!(
        e.to_string().contains("object count: 65536 does not fit"),
        "{e}"
    );

    let mut m = empty(RegionId(1), 0.0);
    let obj: &mut NavMeshObj = {
        m.objects.push(town(RegionId(1)).objects[0].clone());
        &mut m.objects[0]
    };
    obj.linked_edges = vec![
        LinkedEdge {
            other_object_index: -1,
            other_edge_index: -1,
            edge_index: -1
        };
        65_536
    ];
    assert!(
        write(&m)
            .unwrap_err()
            .to_string()
            .contains("objects[0] linked edge count")
    );

    let mut m = empty(RegionId(1), 0.0);
    m.height_map.pop();
    let e = write(&m).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unrepresentable { .. }));
    assert_eq!(
        e.to_string(),
        "jmxvnvm: height map: holds 9408 entries; the format has exactly 9409 (97 x 97)"
    );

    let mut m = empty(RegionId(1), 0.0);
    m.planes = None;
    let e = write(&m).unwrap_err();
    assert!(e.to_string().contains("needs the plane maps"), "{e}");

    let mut m = empty(RegionId(1), 0.0);
    if let TileMap::Modern(t) = &mut m.tile_map {
        t.push(t[0]);
    }
    assert!(
        write(&m)
            .unwrap_err()
            .to_string()
            .contains("holds 9217 entries")
    );

    let mut m = empty(RegionId(1), 0.0);
    m.planes.as_mut().unwrap().types.truncate(35);
    assert!(
        write(&m)
            .unwrap_err()
            .to_string()
            .starts_with("jmxvnvm: plane types: holds 35")
    );
}

#[test]
fn json_is_the_model() {
    let m = town(RegionId(0x61a8));
    let json = serde_json::to_value(&m).unwrap();
    assert_eq!(json["objects"][0]["resource_id"], 2088);
    assert_eq!(json["objects"][0]["is_static"], -1);
    assert!(json["tile_map"]["modern"].is_array());
    let back: NavMeshTerrain = serde_json::from_value(json).unwrap();
    assert_eq!(back, m);
    // Odd floats survive JSON too.
    let mut m = empty(RegionId(2), 0.0);
    m.height_map[5] = RawF32(0x7fc0_1234);
    m.height_map[6] = RawF32::new(-0.0);
    let text = serde_json::to_string(&m).unwrap();
    let back: NavMeshTerrain = serde_json::from_str(&text).unwrap();
    assert_eq!(back, m);
}
