//! `fix` decides what to mend from the places of the findings, never from their text.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::Finding;

use super::{fix, fix_after, mends};
use crate::build::town;
use crate::model::{NavMeshTerrain, TileMap};
use crate::query::RegionId;
use crate::validate::validate;

/// The built town with an error of every kind fix mends.
fn broken() -> NavMeshTerrain {
    let mut m = town(RegionId(0x61a8));
    m.objects.pop();
    m.open_cell_count = u32::try_from(m.cells.len()).unwrap() + 5;
    if let TileMap::Modern(tiles) = &mut m.tile_map {
        tiles[0].cell_index = 60_000;
    }
    m.internal_edges[0].assoc_cell_index[0] = 30_000;
    m
}

/// Every finding with its location text and message replaced by words fix cannot read.
fn reworded(findings: &[Finding]) -> Vec<Finding> {
    findings
        .iter()
        .map(|f| Finding {
            location: "somewhere else".to_string(),
            message: "said otherwise".to_string(),
            ..f.clone()
        })
        .collect()
}

#[test]
fn reworded_findings_are_mended_all_the_same() {
    let m = broken();
    let findings = validate(&m);
    let kinds: Vec<_> = findings.iter().filter_map(super::kind_of).collect();
    for k in [
        super::Kind::CellObject,
        super::Kind::OpenCellCount,
        super::Kind::TileMap,
        super::Kind::InternalEdge,
    ] {
        assert!(kinds.contains(&k), "no {k:?} error in {findings:#?}");
    }
    let other = reworded(&findings);
    for (f, g) in findings.iter().zip(&other) {
        assert_eq!(mends(f), mends(g), "{f}");
    }
    let (mut a, mut b) = (m.clone(), m);
    let changes = fix(&mut a);
    assert!(!changes.is_empty());
    assert_eq!(fix_after(&mut b, &other), changes);
    assert_eq!(a, b);
    // Without the places, the same text asks for nothing.
    let mut c = broken();
    let placeless: Vec<Finding> = findings
        .iter()
        .map(|f| Finding {
            place: nav_core::Place::new(),
            ..f.clone()
        })
        .collect();
    assert_eq!(fix_after(&mut c, &placeless), Vec::<String>::new());
}
