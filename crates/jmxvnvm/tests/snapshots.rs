//! Snapshots of dumps and summaries of files the crate's own builder makes.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use jmxvnvm::build::{empty, legacy, town};
use jmxvnvm::model::TILE_SIZE;
use jmxvnvm::{
    LinkedEdge, NavMeshObj, NavMeshTerrain, Nvm, PlaneType, RegionId, TerrainBuilder, read, write,
};
use nav_core::{Format, RawF32};

fn dump(m: &NavMeshTerrain) -> String {
    // Through the bytes, so the snapshot shows what a file holds.
    let back = read(&write(m).unwrap()).unwrap();
    let mut out = String::new();
    Nvm.dump(&back, &mut out).unwrap();
    out
}

fn summary(m: &NavMeshTerrain) -> String {
    let s = Nvm.summary(m);
    let mut out = format!(
        "{} {} ({})\n",
        s.format,
        s.version,
        s.variant.unwrap_or_default()
    );
    for (name, n) in s.counts {
        out.push_str(&format!("{name}: {n}\n"));
    }
    out
}

/// A hamlet: two linked huts on flat ground by a pond, in 48-tile blocks.
fn hamlet() -> NavMeshTerrain {
    let hut = |x: f32, z: f32, uid: u16, other: i16| NavMeshObj {
        resource_id: 77,
        local_position: [RawF32::new(x), RawF32::new(30.0), RawF32::new(z)],
        is_static: -1,
        yaw: RawF32::new(0.5),
        uid,
        unk_short01: 0,
        is_big: 0,
        is_struct: 1,
        region_id: 0x6000,
        linked_edges: vec![
            LinkedEdge {
                other_object_index: other,
                other_edge_index: 2,
                edge_index: 0,
            },
            LinkedEdge {
                other_object_index: -1,
                other_edge_index: -1,
                edge_index: -1,
            },
        ],
    };
    TerrainBuilder::new(RegionId(0x6000))
        .block_size(48)
        .heights(|x, z| if x == 10 && z == 10 { 31.0 } else { 30.0 })
        .textures(|x, _| if x < 48 { 1 } else { 2 })
        .block_tiles(50, 50, 60, 52)
        .object(hut(10.0 * TILE_SIZE, 10.0 * TILE_SIZE, 1, 1), 30.0)
        .object(hut(12.0 * TILE_SIZE, 10.0 * TILE_SIZE, 2, 0), 30.0)
        .plane(5, 5, PlaneType::WATER, 29.5)
        .build()
}

#[test]
fn dump_of_a_hamlet() {
    insta::assert_snapshot!(dump(&hamlet()));
}

#[test]
fn dump_of_an_empty_region() {
    insta::assert_snapshot!(dump(&empty(RegionId(0x5c81), 212.5)));
}

#[test]
fn dump_of_a_flat_legacy_region() {
    let mut m = legacy(RegionId(0x1f29), false);
    for h in &mut m.height_map {
        *h = RawF32::new(40.0);
    }
    insta::assert_snapshot!(dump(&m));
}

#[test]
fn dump_of_the_town_begins_with_its_objects() {
    let text = dump(&town(RegionId(0x61a8)));
    let head: String = text
        .lines()
        .take_while(|l| !l.starts_with("cells[12]"))
        .map(|l| format!("{l}\n"))
        .collect();
    insta::assert_snapshot!(head);
}

#[test]
fn summaries_of_the_samples() {
    let mut out = String::new();
    for m in [
        town(RegionId(0x61a8)),
        empty(RegionId(0x5c81), 212.5),
        legacy(RegionId(0x1f29), false),
        legacy(RegionId(0x11a5), true),
    ] {
        out.push_str(&summary(&m));
        out.push('\n');
    }
    insta::assert_snapshot!(out);
}
