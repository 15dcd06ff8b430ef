//! Structured round trips of arbitrary models, and edits of built and read models.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use arbitrary::{Arbitrary, Unstructured};
use nav_core::oracle::roundtrip_model;
use nav_core::testing::noise;
use nav_core::testing::{corpus_dir, corpus_files};
use nav_core::{Format, Severity};
use nav2_mgsv::*;

#[test]
fn arbitrary_models_round_trip() {
    let mut written = 0;
    let mut refused = 0;
    let mut stored = 0;
    for seed in 0..3000u64 {
        let data = noise(seed, 512 + (seed as usize % 7) * 512);
        let mut u = Unstructured::new(&data);
        let Ok(model) = Nav2File::arbitrary(&mut u) else {
            continue;
        };
        let _ = Nav2.validate(&model);
        match roundtrip_model(&Nav2, &model) {
            Ok(Some(bytes)) => {
                written += 1;
                stored += usize::from(model.stored.is_some());
                assert!(Nav2.sniff(&bytes) || model.version != VERSION);
            }
            Ok(None) => refused += 1,
            Err(e) => panic!("seed {seed}: {e}\n{model:#?}"),
        }
    }
    eprintln!(
        "arbitrary models: {written} written and read back ({stored} with a stored layout), \
         {refused} refused"
    );
    assert!(stored > 0, "no model with a stored layout was written");
    assert!(
        written > 1000,
        "only {written} of 3000 models were writable"
    );
}

fn clean(model: &Nav2File) {
    let bad: Vec<_> = Nav2
        .validate(model)
        .into_iter()
        .filter(|f| f.severity >= Severity::Warning)
        .collect();
    assert!(bad.is_empty(), "{bad:#?}");
}

fn reread(model: &Nav2File) -> Nav2File {
    let bytes = Nav2.write(model).expect("the edited model is writable");
    let back = Nav2.read(&bytes).expect("the written file parses");
    assert_eq!(&back, model, "the edit did not come back");
    back
}

/// Moves a vertex and adds a mesh (and its new vertex) to the last segment of a data chunk.
fn edit(model: &mut Nav2File, chunk: usize) {
    let dc = &mut model.data_chunks[chunk];
    let nm = &mut dc.navmesh_chunk;
    nm.positions[0][1] = nm.positions[0][1].wrapping_add(3);
    let seg_index = dc.segment_chunk.segments.len() - 1;
    let seg = &mut dc.segment_chunk.segments[seg_index];
    assert!(seg.navmesh_position_count < 255 && seg.navmesh_count < 255);
    let local = seg.navmesh_position_count;
    seg.navmesh_position_count += 1;
    seg.navmesh_count += 1;
    let last = *nm.positions.last().unwrap();
    nm.positions
        .push([last[0].saturating_add(2), last[1], last[2]]);
    nm.meshes.push(Mesh {
        segment_index: seg_index as u16,
        neighbors: [NeighborNavmeshInfo::NONE; 3].into(),
        positions: [0, local - 1, local].into(),
        navigation_graph_nodes: [0, 0, 0].into(),
        crossing: None,
    });
}

#[test]
fn built_samples_round_trip_and_validate_clean() {
    for (name, model) in common::samples() {
        let back = reread(&model);
        assert!(back.stored.is_none(), "{name}");
        clean(&model);
    }
    let empty = Nav2.write(&common::empty_split()).unwrap();
    assert_eq!(
        empty.len(),
        112,
        "an empty split file is 112 bytes, as in the game"
    );
}

#[test]
fn edited_sample_comes_back_and_validates_clean() {
    let mut model = common::square();
    edit(&mut model, 0);
    let back = reread(&model);
    assert_eq!(back.data_chunks[0].navmesh_chunk.meshes.len(), 3);
    assert_eq!(back.data_chunks[0].navmesh_chunk.positions[0], [0, 3, 0]);
    clean(&back);
}

#[test]
fn edited_corpus_files_come_back() {
    let Some(dir) = corpus_dir("mgsv") else {
        return;
    };
    let mut edited = 0;
    for path in corpus_files(&dir) {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut model = Nav2.read(&bytes).unwrap();
        if model.data_chunks.is_empty() {
            continue;
        }
        let Some(chunk) = model.data_chunks.iter().position(|d| {
            d.segment_chunk.segments.last().is_some_and(|s| {
                s.navmesh_position_count > 0
                    && s.navmesh_position_count < 255
                    && s.navmesh_count < 255
            })
        }) else {
            continue;
        };
        let was_stored = model.stored.is_some();
        edit(&mut model, chunk);
        if was_stored {
            // A stored layout no longer fits the edited model: the writer lays it out the game's
            // way, and what it wrote reads back as the edited model in that layout.
            let bytes = Nav2.write(&model).unwrap();
            model.relayout();
            assert_eq!(Nav2.read(&bytes).unwrap(), model, "{name}");
        }
        let back = reread(&model);
        assert!(
            back.stored.is_none(),
            "{name}: an edited file gets the game's layout"
        );
        if !name.starts_with("obj2nav2_") {
            clean(&back);
        }
        edited += 1;
    }
    eprintln!("edited {edited} corpus files");
    assert!(edited > 0);
}

#[test]
fn writer_refuses_what_the_format_cannot_hold() {
    let mut m = common::square();
    m.data_chunks[0].navigation_graph.nodes[0].segment_index = 0x1000;
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("SegmentIndex") && e.contains("12 bits"), "{e}");

    let mut m = common::square();
    m.data_chunks[0].navigation_graph.nodes[0].inside_links =
        vec![NavigationGraphInsideLink::default(); 256].into();
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("InsideLinkCount"), "{e}");

    // The writer packs every edge before it looks for the one at fault: the error still names
    // it, and its field.
    let mut m = common::square();
    let edges = &mut m.data_chunks[0].navigation_graph.edges;
    let last = edges.len() - 1;
    edges[last].kind = 4;
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains(&format!("Edges[{last}] Kind")), "{e}");

    let mut m = common::square();
    m.data_chunks[0].navmesh_chunk.meshes[0].neighbors.pop();
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("3 or 4 sides"), "{e}");

    let mut m = common::square();
    m.data_chunks[0].navmesh_chunk.meshes[0].neighbors[0] =
        NeighborNavmeshInfo::new(3, NeighborKind::CrossingTile);
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("crossing"), "{e}");

    let mut m = common::square();
    m.search_space.as_mut().unwrap().block_count = [2, 1, 1];
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("buckets"), "{e}");

    let mut m = common::square();
    m.island_graphs = vec![common::island_graph(&m.data_chunks); 256];
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("IslandGraphCount"), "{e}");

    let mut m = common::square();
    m.island_graphs[0].connect_side_info_groups[0].count = 1;
    let e = Nav2.write(&m).unwrap_err().to_string();
    assert!(e.contains("ConnectSideInfos"), "{e}");
}

#[test]
fn json_gives_a_mesh_its_sides_as_plain_lists_and_refuses_a_fifth() {
    let m = common::square();
    let mesh = &m.data_chunks[0].navmesh_chunk.meshes[0];
    let json = serde_json::to_value(mesh).unwrap();
    let list = |v: &Sides<u8>| v.iter().map(|&x| serde_json::json!(x)).collect::<Vec<_>>();
    assert_eq!(
        json["positions"],
        serde_json::Value::Array(list(&mesh.positions))
    );
    assert_eq!(serde_json::from_value::<Mesh>(json.clone()).unwrap(), *mesh);

    let mut five = json.clone();
    five["navigation_graph_nodes"] = serde_json::json!([0, 1, 2, 3, 4]);
    let e = serde_json::from_value::<Mesh>(five)
        .unwrap_err()
        .to_string();
    assert!(e.contains("at most 4 items"), "{e}");
    let mut two = json;
    two["neighbors"] = serde_json::json!([65535, 65535]);
    let two: Mesh = serde_json::from_value(two).unwrap();
    assert_eq!(
        two.neighbors.len(),
        2,
        "fewer than 3 is the writer's to refuse"
    );
}

#[test]
fn a_mesh_holds_its_sides_inline() {
    // Four per-side lists of at most 4 items and the segment: no heap, 44 bytes a mesh.
    assert!(
        std::mem::size_of::<Mesh>() <= 44,
        "{}",
        std::mem::size_of::<Mesh>()
    );
}

#[test]
fn a_stored_layout_equal_to_the_computed_one_is_written_as_the_game_layout() {
    let mut m = common::square();
    let bytes = Nav2.write(&m).unwrap();
    m.stored = Some(Box::new(nav2_mgsv::layout::compute(&m).unwrap()));
    // A file does not keep the game's own layout (it would read back with `stored: None`), so
    // the writer does not take it at its word: it gives the game's layout, which is the same.
    assert_eq!(Nav2.write(&m).unwrap(), bytes);
    m.relayout();
    assert_eq!(Nav2.write(&m).unwrap(), bytes);
    assert_eq!(Nav2.read(&bytes).unwrap(), m);
}

/// The Obj2Nav2 files of the corpus: the two whose layout is not the game's.
fn obj2nav2_files() -> Vec<(String, Vec<u8>)> {
    let Some(dir) = corpus_dir("mgsv") else {
        return Vec::new();
    };
    corpus_files(&dir)
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .filter(|(name, _)| name.starts_with("obj2nav2_"))
        .collect()
}

#[test]
fn an_obj2nav2_file_with_a_moved_position_keeps_its_layout() {
    for (name, bytes) in obj2nav2_files() {
        let mut model = Nav2.read(&bytes).unwrap();
        assert!(model.stored.is_some(), "{name}");
        // Unedited, it is written byte for byte.
        nav_core::assert_bytes_eq!(Nav2.write(&model).unwrap(), bytes);
        // A moved position keeps every offset: the stored layout still describes the model, so
        // the file keeps it and differs in that position's bytes only.
        let p = &mut model.data_chunks[0].navmesh_chunk.positions[0];
        p[1] = p[1].wrapping_add(3);
        let written = Nav2.write(&model).unwrap();
        assert_eq!(written.len(), bytes.len(), "{name}");
        let changed = written.iter().zip(&bytes).filter(|(a, b)| a != b).count();
        assert!(
            (1..=2).contains(&changed),
            "{name}: {changed} bytes changed"
        );
        let back = Nav2.read(&written).unwrap();
        assert_eq!(back, model, "{name}: read back with its stored layout");
    }
}

#[test]
fn an_obj2nav2_file_with_an_added_node_gets_the_game_layout() {
    let files = obj2nav2_files();
    for (name, bytes) in &files {
        let mut model = Nav2.read(bytes).unwrap();
        let ng = &mut model.data_chunks[0].navigation_graph;
        let mut node = ng.nodes[0].clone();
        node.inside_links.clear();
        node.position[0] = node.position[0].wrapping_add(1);
        ng.nodes.push(node);
        model.data_chunks[0].segment_chunk.segments[0].navigation_graph_node_count += 1;
        // The stored offsets cannot hold one node more: the writer lays the file out anew
        // instead of refusing it, and it reads back as the edited model in the game's layout.
        let written = Nav2.write(&model).unwrap();
        let back = Nav2.read(&written).unwrap();
        assert!(back.stored.is_none(), "{name}");
        assert_eq!(
            back.data_chunks[0].navigation_graph.nodes.len(),
            model.data_chunks[0].navigation_graph.nodes.len()
        );
        model.relayout();
        assert_eq!(back, model, "{name}");
        assert_eq!(
            Nav2.write(&back).unwrap(),
            written,
            "{name}: written twice alike"
        );
    }
    if std::env::var_os("NAVKIT_REQUIRE_CORPUS").is_some() {
        assert_eq!(files.len(), 2, "the two Obj2Nav2 files of the corpus");
    }
}

/// Records every `write` call it gets; fails the call numbered `fail_at`, if any.
#[derive(Default)]
struct Calls {
    bytes: Vec<u8>,
    calls: usize,
    fail_at: Option<usize>,
}

impl std::io::Write for Calls {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if Some(self.calls) == self.fail_at {
            return Err(std::io::Error::other("disk full"));
        }
        self.calls += 1;
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn write_to_streams_the_same_bytes_section_by_section() {
    for (name, m) in common::samples() {
        let mut out = Calls::default();
        m.write_to(&mut out).unwrap();
        let whole = m.write().unwrap();
        assert_eq!(out.bytes, whole, "{name}");
        // Through the Format trait too.
        let mut via_trait = Vec::new();
        Nav2.write_to(&m, &mut via_trait).unwrap();
        assert_eq!(via_trait, whole, "{name}");
        // One call per section at least: header with descriptors, then four chunks a data chunk.
        if !m.data_chunks.is_empty() {
            assert!(
                out.calls > 4 * m.data_chunks.len(),
                "{name}: {} calls",
                out.calls
            );
        }
        assert_eq!(
            Nav2File::from_view(&Nav2View::parse(&out.bytes).unwrap()),
            m
        );
    }
}

#[test]
fn write_to_refuses_before_writing_and_passes_io_errors_on() {
    let m = common::square();
    // A model the format cannot hold, in the last chunk written: InvalidData, with the field
    // named inside, and not one byte written before.
    let mut bad = m.clone();
    let last = bad.data_chunks.len() - 1;
    bad.data_chunks[last].segment_graph.nodes[0].unknown = 0x10;
    assert!(bad.write().is_err());
    let mut out = Calls::default();
    let e = bad.write_to(&mut out).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
    let inner = nav_core::error::refused(&e).unwrap();
    assert!(inner.to_string().contains("Unknown"), "{inner}");
    assert!(
        out.bytes.is_empty() && out.calls == 0,
        "{} bytes",
        out.bytes.len()
    );
    let mut bad = m.clone();
    bad.data_chunks[0].navigation_graph.nodes[0].segment_index = 0x1000;
    let e = bad.write_to(&mut Calls::default()).unwrap_err();
    assert!(
        nav_core::error::refused(&e)
            .unwrap()
            .to_string()
            .contains("SegmentIndex")
    );
    // The destination's own error comes back as it is, not as a refusal.
    let mut failing = Calls {
        fail_at: Some(1),
        ..Calls::default()
    };
    let e = m.write_to(&mut failing).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::Other);
    assert!(nav_core::error::refused(&e).is_none());
}

#[test]
fn decoded_coordinates_and_weights() {
    let m = common::square();
    // Origin (-2560, 12.5, -3456), Denominator (4, 16, 4).
    assert_eq!(m.decode_position([40, 16, 8]), [-2550.0, 13.5, -3454.0]);
    assert_eq!(m.decode_weight(254), 2.0);
    let uid = FileUid::new(5, common::TILE);
    assert_eq!(
        (uid.index(), uid.tile_id(), uid.reserved()),
        (5, common::TILE, false)
    );
}
