//! Point queries on built regions: tiles, cells, heights, blocking and planes.

use jmxvnvm::build::{legacy, town};
use jmxvnvm::model::{HEIGHTS_PER_SIDE, TILE_SIZE};
use jmxvnvm::{PlaneType, RegionId, TileMap};

#[test]
fn every_tile_centre_lies_in_its_cell() {
    let m = town(RegionId(0x61a8));
    let TileMap::Modern(tiles) = &m.tile_map else {
        panic!("town is modern")
    };
    for (i, t) in tiles.iter().enumerate() {
        let x = (i % 96) as f32 * TILE_SIZE + 10.0;
        let z = (i / 96) as f32 * TILE_SIZE + 10.0;
        assert_eq!(m.tile_at(x, z), Some(i));
        let c = m.cell_at(x, z).unwrap();
        assert_eq!(c, t.cell_index as usize);
        let cell = &m.cells[c];
        assert!(cell.min[0].get() <= x && x <= cell.max[0].get());
        assert!(cell.min[1].get() <= z && z <= cell.max[1].get());
        assert_eq!(m.is_blocked(x, z), Some(c >= m.open_cell_count as usize));
    }
}

#[test]
fn heights_match_the_map_at_vertices_and_interpolate_between() {
    let m = town(RegionId(0x61a8));
    for (vx, vz) in [(0usize, 0usize), (5, 7), (96, 96), (40, 95), (96, 0)] {
        let expected = m.height_map[vz * HEIGHTS_PER_SIDE + vx].get();
        let got = m
            .height_at(vx as f32 * TILE_SIZE, vz as f32 * TILE_SIZE)
            .unwrap();
        assert_eq!(got, expected, "vertex ({vx}, {vz})");
    }
    // Halfway between four vertices: their mean.
    let h = |x: usize, z: usize| m.height_map[z * HEIGHTS_PER_SIDE + x].get();
    let mean = (h(10, 20) + h(11, 20) + h(10, 21) + h(11, 21)) / 4.0;
    let got = m.height_at(210.0, 410.0).unwrap();
    assert!((got - mean).abs() < 1e-3, "{got} vs {mean}");
    assert_eq!(m.height_at(1920.5, 0.0), None);
    assert_eq!(m.height_at(0.0, f32::INFINITY), None);
}

#[test]
fn blocking_planes_and_legacy_fallbacks() {
    let m = town(RegionId(0x61a8));
    // The west cliff, a house, the town square, the bridge over the river.
    assert_eq!(m.is_blocked(10.0, 10.0), Some(true));
    assert_eq!(
        m.is_blocked(43.0 * 20.0 + 5.0, 33.0 * 20.0 + 5.0),
        Some(true)
    );
    assert_eq!(m.is_blocked(1100.0, 1000.0), Some(false));
    assert_eq!(m.is_blocked(78.0 * 20.0, 55.0 * 20.0), Some(false));
    assert_eq!(m.is_blocked(78.0 * 20.0, 20.0 * 20.0), Some(true));
    assert_eq!(m.plane_at(1300.0, 10.0), Some((PlaneType::WATER, 118.5)));
    assert_eq!(m.plane_at(10.0, 10.0), Some((PlaneType::NONE, 800.0)));
    assert_eq!(m.is_blocked(-1.0, 0.0), None);

    let old = legacy(RegionId(0x1f29), false);
    assert_eq!(old.cell_at(1000.0, 1000.0), Some(0));
    assert_eq!(old.is_blocked(1000.0, 1000.0), Some(false));
    assert_eq!(old.plane_at(1000.0, 1000.0), None);
    let mut closed = old.clone();
    closed.open_cell_count = 0;
    assert_eq!(closed.is_blocked(1000.0, 1000.0), Some(true));
    closed.cells.clear();
    assert_eq!(closed.cell_at(1000.0, 1000.0), None);
    assert_eq!(closed.is_blocked(1000.0, 1000.0), Some(true));
}
