//! `fix` decides what to mend from the places of the findings, never from their text.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::{Finding, Format, Place};

use super::{Mend, fix, fix_after, mend_of, mends};
use crate::Nav2;
use crate::model::Nav2File;
use crate::validate::validate;

/// The crossing sample with an error of every kind fix mends that the sample has room for.
fn broken() -> Nav2File {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/mgsv/crossing.nav2"
    );
    let mut m = Nav2.read(&std::fs::read(path).unwrap()).unwrap();
    let chunk = &mut m.data_chunks[0];
    chunk.navmesh_chunk.meshes[1].segment_index = 999;
    chunk.navigation_graph.nodes[0].segment_index = 999;
    if let Some(n) = chunk.segment_graph.nodes.first_mut() {
        if let Some(l) = n.inside_links.first_mut() {
            l.node_index = 999;
        }
    }
    if let Some(l) = m
        .island_graphs
        .first_mut()
        .and_then(|g| g.nodes.first_mut())
        .and_then(|n| n.inside_links.first_mut())
    {
        l.node_index = 999;
    }
    if let Some(e) = m
        .search_space
        .as_mut()
        .and_then(|s| s.buckets.first_mut())
        .and_then(|b| b.entries.first_mut())
    {
        e.data_chunk_uid.0 ^= 0x5a5a;
    }
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
    let wanted: Vec<Mend> = findings.iter().filter_map(mend_of).collect();
    assert!(
        wanted.contains(&Mend::DropMesh { chunk: 0, mesh: 1 }),
        "{findings:#?}"
    );
    assert!(wanted.contains(&Mend::Navigation(0)), "{findings:#?}");
    let other = reworded(&findings);
    for (f, g) in findings.iter().zip(&other) {
        assert_eq!(mend_of(f), mend_of(g), "{f}");
        assert_eq!(mends(f), mends(g), "{f}");
    }
    let (mut a, mut b) = (m.clone(), m);
    let changes = fix(&mut a);
    assert!(!changes.is_empty());
    // The change lines quote the messages, for people; the changes are the same.
    let again = fix_after(&mut b, other);
    assert_eq!(a, b);
    assert_eq!(again.len(), changes.len(), "{again:#?}");
    assert_eq!(
        again[0],
        "data_chunks[0] NavmeshChunk Meshes[1]: dropped the mesh: its SegmentIndex said otherwise"
    );
    assert_eq!(again[1..], changes[1..]);
    // The same text without the places asks for nothing.
    let mut c = broken();
    let placeless: Vec<Finding> = findings
        .iter()
        .map(|f| Finding {
            place: Place::new(),
            ..f.clone()
        })
        .collect();
    assert_eq!(fix_after(&mut c, placeless), Vec::<String>::new());
}

#[test]
fn each_kind_of_place_asks_for_its_mend() {
    let at = |p: Place| mend_of(&Finding::error(p, "x"));
    let chunk = || Place::at("data_chunks", 2);
    let mesh = || chunk().field("NavmeshChunk").index("Meshes", 7).cell();
    assert_eq!(
        at(mesh().field("SegmentIndex")),
        Some(Mend::DropMesh { chunk: 2, mesh: 7 })
    );
    assert_eq!(
        at(mesh().field("position index")),
        Some(Mend::DropMesh { chunk: 2, mesh: 7 })
    );
    assert_eq!(
        at(mesh().field("NeighborNavmeshInfo")),
        Some(Mend::Navigation(2))
    );
    assert_eq!(
        at(chunk().field("NavigationGraph").index("Edges", 1)),
        Some(Mend::Navigation(2))
    );
    assert_eq!(
        at(chunk().field("SegmentGraph").index("Nodes", 1)),
        Some(Mend::SegmentGraph(2))
    );
    assert_eq!(at(Place::at("IslandGraphs", 0)), Some(Mend::Islands));
    assert_eq!(at(Place::of("SearchSpace")), Some(Mend::SearchSpace));
    assert_eq!(at(Place::of("FileHeader").field("WeightDenominator")), None);
    assert_eq!(at(Place::of("layout")), None);
    assert_eq!(
        mend_of(&Finding::warning(Place::at("IslandGraphs", 0), "x")),
        None
    );
}
