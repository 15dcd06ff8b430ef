//! The writer's ways of placing link blocks and mesh records (listed offsets, running offsets,
//! the one pass that grows the output), compared.

// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use super::*;

/// The bytes, or the refusal, of `m` placed with every offset listed, as the writer gave them
/// before it used the running sums.
fn listed(m: &Nav2File) -> Result<Vec<u8>> {
    check_version(m)?;
    place(m, &layout::compute(m)?, RecordOffsets::Listed)
}

/// `got` is `want`, or the test fails with the lengths and the first byte that differs.
fn same_bytes(got: &[u8], want: &[u8], what: core::fmt::Arguments<'_>) {
    let first_diff = got.iter().zip(want).position(|(a, b)| a != b);
    assert!(
        got == want,
        "{what}: {} bytes against {}, first difference at {first_diff:?}",
        got.len(),
        want.len()
    );
}

/// `got` is `want`: the same bytes or the same refusal.
fn same_outcome(
    got: &core::result::Result<Vec<u8>, String>,
    want: &core::result::Result<Vec<u8>, String>,
    what: core::fmt::Arguments<'_>,
) {
    match (got, want) {
        (Ok(got), Ok(want)) => same_bytes(got, want, what),
        (Err(got), Err(want)) => assert_eq!(got, want, "{what}"),
        (Ok(got), Err(want)) => panic!("{what}: {} bytes, where refused: {want}", got.len()),
        (Err(got), Ok(want)) => panic!("{what}: refused ({got}), where {} bytes", want.len()),
    }
}

/// What `write`, `write_into` and `stream` give `m`: the same bytes as `listed`, or the same
/// refusal. Where
/// `listed` places the model, the running offsets and the one pass that grows the output place
/// it too, without falling back.
fn same_as_listed(m: &Nav2File, what: &str) -> bool {
    let want = listed(m).map_err(|e| e.to_string());
    if let Ok(bytes) = &want {
        let l = layout::compute_running(m).unwrap();
        let running = place(m, &l, RecordOffsets::Running).unwrap();
        same_bytes(&running, bytes, format_args!("{what}: running offsets"));
        let grown = grown::place(m, vec![0xaa; 64]).unwrap();
        same_bytes(&grown, bytes, format_args!("{what}: grown in one pass"));
    }
    let got = m.write().map_err(|e| e.to_string());
    same_outcome(&got, &want, format_args!("{what}: write"));
    // Into a buffer that held something else, longer than the file (a rewrite's input).
    let mut into = vec![0x55; 300_000];
    let got = nav_core::Format::write_into(&crate::Nav2, m, &mut into).map(|()| into);
    same_outcome(
        &got.map_err(|e| e.to_string()),
        &want,
        format_args!("{what}: write_into"),
    );
    let mut streamed = Vec::new();
    let s = stream(m, &mut streamed).map(|()| streamed);
    same_outcome(
        &s.map_err(|e| e.to_string()),
        &want,
        format_args!("{what}: stream"),
    );
    want.is_ok()
}

/// The running offsets place every real file laid out again exactly as the listed ones do,
/// from a layout that differs from `compute`'s only by the two lists it leaves out; so do
/// the files with their link blocks reshaped (links dropped, crossing links added), so that
/// no offset is the file's own. A model that does not fit (a part out of its bits, link
/// blocks past 2^16 units) is refused in the same words as before.
#[test]
fn running_offsets_place_what_listed_offsets_place() {
    let mut files = 0;
    for (_, path) in nav_core::testing::real_files("mgsv") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(view) = Nav2View::parse(&bytes) else {
            continue;
        };
        let what = path.display().to_string();
        let mut m = Nav2File::from_view(&view);
        m.relayout();
        let mut full = layout::compute(&m).unwrap();
        let running = layout::compute_running(&m).unwrap();
        for d in &mut full.data_chunks {
            d.navigation_graph_link_offsets.clear();
            d.mesh_data_offsets.clear();
        }
        assert_eq!(running, full, "{what}: the layout without its two lists");
        assert!(same_as_listed(&m, &what));

        for dc in &mut m.data_chunks {
            for (i, n) in dc.navigation_graph.nodes.iter_mut().enumerate() {
                if i % 3 == 0 {
                    n.inside_links.pop();
                }
                if i % 5 == 0 {
                    n.crossing_segment_link = Some(7);
                }
            }
            let every_other = dc.navmesh_chunk.meshes.iter().step_by(2).cloned();
            dc.navmesh_chunk.meshes = every_other.collect();
        }
        assert!(same_as_listed(&m, &format!("{what}, reshaped")));

        // A mesh whose crossing part disagrees with its neighbours (the running sizes take the
        // part as given, the listed ones as the neighbours want it): refused the same way.
        if let Some(mesh) = m
            .data_chunks
            .first_mut()
            .and_then(|dc| dc.navmesh_chunk.meshes.first_mut())
        {
            let crossing = mesh.crossing.take();
            if crossing.is_none() {
                mesh.crossing = Some(MeshCrossing::default());
            }
            assert!(!same_as_listed(
                &m,
                &format!("{what}, crossing part flipped")
            ));
            if let Some(mesh) = m.data_chunks[0].navmesh_chunk.meshes.first_mut() {
                mesh.crossing = crossing;
            }
            assert!(same_as_listed(
                &m,
                &format!("{what}, crossing part restored")
            ));
        }

        let Some(dc) = m.data_chunks.first_mut() else {
            continue;
        };
        if let Some(n) = dc.navigation_graph.nodes.last_mut() {
            n.segment_index = 0x1000;
            assert!(!same_as_listed(&m, &format!("{what}, SegmentIndex 0x1000")));
        }
        files += 1;
    }
    // Link blocks past 2^16 units: the first node out is named.
    let mut m = square();
    let link = NavigationGraphInsideLink::default();
    let nodes = &mut m.data_chunks[0].navigation_graph.nodes;
    let template = nodes[0].clone();
    nodes.resize(200, template);
    for n in nodes.iter_mut() {
        n.inside_links = vec![link; 255].into();
    }
    m.relayout();
    assert!(!same_as_listed(&m, "long link blocks"));
    let e = m.write().unwrap_err().to_string();
    assert!(e.contains("Nodes[129] LinkDataOffset"), "{e}");
    // Half as many fit: blocks of the largest size, many times the room the one-pass writer
    // grows the output by at a time.
    m.data_chunks[0].navigation_graph.nodes.truncate(100);
    m.relayout();
    assert!(same_as_listed(&m, "long link blocks that fit"));
    println!("running offsets checked on {files} real files");
}

/// A small model of this crate's own making: a square of two triangles.
fn square() -> Nav2File {
    let mesh = nav_core::geometry::TriangleMesh {
        vertices: vec![
            [0.0, 0.0, 0.0],
            [4.0, 0.0, 0.0],
            [4.0, 0.0, 4.0],
            [0.0, 0.0, 4.0],
        ],
        triangles: vec![[0, 1, 2], [0, 2, 3]],
    };
    crate::build::build(&mesh).unwrap().model
}

/// Every count of inside links from 0 to 6 (the writer takes 4 and 2 by case and the others link
/// by link), on every node at once and mixed from node to node, with and without crossing links,
/// reads back as the model it was written from.
#[test]
fn every_count_of_inside_links_reads_back() {
    let base = square();
    let link = |i: usize| NavigationGraphInsideLink {
        node_index: u16::try_from(i).unwrap(),
        edge_index: u16::try_from(100 + i).unwrap(),
    };
    for mixed in [false, true] {
        for count in 0..=6 {
            let mut m = base.clone();
            for (i, n) in m.data_chunks[0]
                .navigation_graph
                .nodes
                .iter_mut()
                .enumerate()
            {
                let k = if mixed { (count + i) % 7 } else { count };
                n.inside_links = (0..k).map(link).collect();
                n.crossing_segment_link = (i % 2 == 0).then_some(9);
                n.crossing_tile_link = (i % 3 == 0).then_some(NavigationGraphCrossingTileLink {
                    tile_id: 1,
                    data_chunk_id: 2,
                    node_index: 3,
                });
            }
            m.relayout();
            let bytes = m.write().unwrap();
            let back = Nav2File::from_view(&Nav2View::parse(&bytes).unwrap());
            assert_eq!(back, m, "count {count}, mixed {mixed}");
        }
    }
}

/// Models of the fuzz targets' making (`Arbitrary`, from a fixed stream of pseudo-random bytes),
/// some with a field pushed out of range: `write` and `stream` give what the listed offsets
/// give, bytes or refusal, and where those place the model the one pass does too.
#[cfg(feature = "arbitrary")]
#[test]
fn arbitrary_models_are_placed_alike() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let (mut placed, mut refused) = (0, 0);
    for round in 0..3000 {
        let len = usize::try_from(next() % 6000).unwrap();
        let bytes: Vec<u8> = (0..len).map(|_| next().to_le_bytes()[3]).collect();
        let Ok(mut m) = Nav2File::arbitrary(&mut Unstructured::new(&bytes)) else {
            continue;
        };
        m.stored = None;
        let dc = m.data_chunks.first_mut();
        match (round % 5, dc) {
            (1, Some(dc)) => {
                if let Some(n) = dc.navigation_graph.nodes.last_mut() {
                    n.segment_index |= 0x1000;
                }
            }
            (2, Some(dc)) => {
                if let Some(mesh) = dc.navmesh_chunk.meshes.last_mut() {
                    mesh.navigation_graph_nodes.clear();
                }
            }
            (3, Some(dc)) => {
                if let Some(e) = dc.navigation_graph.edges.first_mut() {
                    e.kind = 4;
                }
            }
            _ => {}
        }
        if same_as_listed(&m, &format!("model {round}")) {
            placed += 1;
        } else {
            refused += 1;
        }
    }
    println!("{placed} models placed alike, {refused} refused alike");
    assert!(
        placed > 500 && refused > 200,
        "{placed} placed, {refused} refused"
    );
}
