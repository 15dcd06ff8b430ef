//! JSON that renumbers lists cut into runs (a Fox Engine segment owns a run of the data chunk's
//! navigation-graph nodes, edges, navmesh positions and meshes, and names its nodes and
//! positions counting from the start of its run), and the references into them from other data
//! chunks and the island graphs.
//!
//! For each such list of real files: a record inserted in the middle of a segment's run keeps
//! every reference on the record it named (checked by content), lengthens that run only, and
//! adds no error; deleting it again from the middle of the list gives the original file byte
//! for byte. Moving a record out of its run, deleting a record that is still named, and deleting
//! a segment are refused, saying why.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use nav_core::testing::corpus_dir;
use navkit::positions;
use navkit::registry::{self, AnyFormat};
use serde_json::Value;

mod common;

/// The files: one of Metal Gear Solid V's (five data chunks, linked to each other) and one of
/// Metal Gear Survive's.
const FILES: [&str; 2] = ["ssav_136_127_nav.nav2", "ih_mbqf_102_102_nav.nav2"];

/// The lists cut into segment runs: (noun, list in a data chunk, the segment's count field).
const LISTS: [(&str, &str, &str); 4] = [
    (
        "navmesh position",
        "navmesh_chunk/positions",
        "navmesh_position_count",
    ),
    (
        "navigation-graph node",
        "navigation_graph/nodes",
        "navigation_graph_node_count",
    ),
    ("mesh", "navmesh_chunk/meshes", "navmesh_count"),
    (
        "navigation-graph edge",
        "navigation_graph/edges",
        "navigation_graph_edge_count",
    ),
];

/// A corpus file's bytes, format and document; `None` without the corpus.
fn open(name: &str) -> Option<(Vec<u8>, &'static dyn AnyFormat, Value)> {
    let path = corpus_dir("mgsv")?.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let format = registry::sniff(&bytes).unwrap();
    let doc = document(format, &bytes);
    Some((bytes, format, doc))
}

/// The JSON document `to-json` writes for `bytes`.
fn document(format: &dyn AnyFormat, bytes: &[u8]) -> Value {
    let mut out = Vec::new();
    format.to_json(bytes, &mut out).unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// The file `from-json` writes for `doc`, or its refusal.
fn write(format: &dyn AnyFormat, doc: &Value) -> Result<Vec<u8>, String> {
    let text = serde_json::to_vec(doc).unwrap();
    let (opened, _) = format.open_json(text.as_slice().into())?;
    opened.write().map_err(|e| e.to_string())
}

/// What a record is, without what renumbering changes: a position's coordinates, a node's
/// place and segment, a mesh's segment and corners (counted in its segment), an edge's fields.
fn content(noun: &str, record: &Value) -> Value {
    let pick = |keys: &[&str]| {
        Value::Array(
            keys.iter()
                .map(|k| record.get(*k).cloned().unwrap_or(Value::Null))
                .collect(),
        )
    };
    match noun {
        "navmesh position" => pick(&["value"]),
        "navigation-graph node" => pick(&["position", "segment_index"]),
        "mesh" => pick(&["segment_index", "positions"]),
        _ => pick(&["weight", "segment_index", "kind", "node_indices"]),
    }
}

/// Every reference into the lists called `noun`, as (its path without indices, the content of
/// the record it names), counted; references made by the record at `except` are left out.
fn named(doc: &Value, format: &dyn AnyFormat, noun: &str, except: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for refs in positions::references(&doc["model"], format.position_lists()) {
        if refs.noun != noun {
            continue;
        }
        let records = doc
            .pointer(&common::pointer(&refs.list))
            .unwrap()
            .as_array()
            .unwrap();
        for (path, at) in &refs.refs {
            if path.starts_with(&format!("{except}.")) || path.starts_with(&format!("{except}[")) {
                continue;
            }
            let record = usize::try_from(*at).ok().and_then(|at| records.get(at));
            let target = record.map_or(Value::Null, |r| content(noun, r));
            let shape: String = path
                .split('[')
                .map(|p| p.split_once(']').map_or(p, |(_, rest)| rest))
                .collect();
            *out.entry(format!("{shape} -> {target}")).or_default() += 1;
        }
    }
    out
}

/// The counts `field` of chunk `c`'s segments.
fn counts(doc: &Value, c: usize, field: &str) -> Vec<u64> {
    doc.pointer(&format!("/model/data_chunks/{c}/segment_chunk/segments"))
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[field].as_u64().unwrap())
        .collect()
}

/// A chunk and segment whose run of `field` has a record, with segments before it: the chunk,
/// the segment and where its run starts.
fn pick_run(doc: &Value, field: &str) -> (usize, usize, usize) {
    let chunks = doc["model"]["data_chunks"].as_array().unwrap().len();
    for c in 0..chunks {
        let n = counts(doc, c, field);
        let Some(s) = (n.len() / 2..n.len()).find(|&s| n[s] > 0) else {
            continue;
        };
        if s == 0 {
            continue;
        }
        let start: u64 = n[..s].iter().sum();
        return (c, s, usize::try_from(start).unwrap());
    }
    panic!("no chunk has a run of {field} past its first segment");
}

/// A record like `like` that names nothing a test would have to keep.
fn new_record(noun: &str, like: &Value) -> Value {
    let mut r = like.clone();
    let o = r.as_object_mut().unwrap();
    o.shift_remove("#");
    match noun {
        "navigation-graph node" => {
            o.insert("inside_links".into(), Value::Array(Vec::new()));
            for k in [
                "crossing_segment_link",
                "crossing_data_chunk_link",
                "crossing_tile_link",
            ] {
                o.insert(k.into(), Value::Null);
            }
        }
        "mesh" => {
            let sides = o["neighbors"].as_array().unwrap().len();
            o.insert(
                "neighbors".into(),
                Value::Array(vec![Value::from(0xffff); sides]),
            );
            o.insert("crossing".into(), Value::Null);
        }
        "navmesh position" => {
            o.shift_remove("#");
        }
        _ => {}
    }
    r
}

#[test]
fn a_record_inserted_in_a_run_then_deleted_keeps_every_reference() {
    for file in FILES {
        let Some((bytes, format, doc)) = open(file) else {
            return; // No corpus (corpus_dir says so, and fails under NAVKIT_REQUIRE_CORPUS).
        };
        let errors_before = common::error_places(format, &bytes);
        for (noun, list, field) in LISTS {
            let (c, s, start) = pick_run(&doc, field);
            let run = usize::try_from(counts(&doc, c, field)[s]).unwrap();
            let at = start + (run / 2).max(1);
            let list_ptr = format!("/model/data_chunks/{c}/{list}");
            let mut edited = doc.clone();
            let records = edited
                .pointer_mut(&list_ptr)
                .unwrap()
                .as_array_mut()
                .unwrap();
            let record = new_record(noun, &records[at - 1]);
            records.insert(at, record);
            let written = write(format, &edited)
                .unwrap_or_else(|e| panic!("{file}: a {noun} inserted at {at}: {e}"));
            let after = document(format, &written);

            // Only the segment's run is longer.
            let mut want = counts(&doc, c, field);
            want[s] += 1;
            assert_eq!(counts(&after, c, field), want, "{file}: {noun} counts");
            // Every reference names the same record as before.
            let inserted = format!("model.data_chunks[{c}].{}[{at}]", list.replace('/', "."));
            assert_eq!(
                named(&doc, format, noun, "-"),
                named(&after, format, noun, &inserted),
                "{file}: a {noun} inserted at {at} of chunk {c}: references name other records"
            );
            assert!(
                common::error_places(format, &written).len() <= errors_before.len(),
                "{file}: a {noun} inserted: {:?}",
                common::error_places(format, &written)
            );

            // Deleted again from the middle of the list: the original file.
            let mut back = after.clone();
            back.pointer_mut(&list_ptr)
                .unwrap()
                .as_array_mut()
                .unwrap()
                .remove(at);
            let written = write(format, &back)
                .unwrap_or_else(|e| panic!("{file}: the {noun} at {at} deleted: {e}"));
            assert!(
                written == bytes,
                "{file}: a {noun} inserted at {at} and deleted is not the original file"
            );
        }
    }
}

#[test]
fn moving_a_record_out_of_its_run_deleting_a_named_one_or_a_segment_is_refused() {
    let Some((_, format, doc)) = open(FILES[0]) else {
        return; // No corpus (corpus_dir says so, and fails under NAVKIT_REQUIRE_CORPUS).
    };
    // A position moved from its segment's run to the end of the list.
    let (c, s, start) = pick_run(&doc, "navmesh_position_count");
    let mut edited = doc.clone();
    let records = edited
        .pointer_mut(&format!("/model/data_chunks/{c}/navmesh_chunk/positions"))
        .unwrap()
        .as_array_mut()
        .unwrap();
    let moved = records.remove(start);
    records.push(moved);
    let e = write(format, &edited).unwrap_err();
    assert!(
        e.contains("keep the records of each run together")
            && e.contains(&format!(
                "belongs to the run of model.data_chunks[{c}].segment_chunk.segments[{s}]"
            )),
        "{e}"
    );

    // A position that meshes name by its place in their segment's run.
    let mut edited = doc.clone();
    edited
        .pointer_mut(&format!("/model/data_chunks/{c}/navmesh_chunk/positions"))
        .unwrap()
        .as_array_mut()
        .unwrap()
        .remove(start);
    let e = write(format, &edited).unwrap_err();
    assert!(
        e.contains(&format!(
            "names navmesh position #{start} (0 of its run), which the document no longer holds"
        )),
        "{e}"
    );

    // A segment from the middle: its runs could no longer be told apart.
    let mut edited = doc.clone();
    let segments = edited
        .pointer_mut("/model/data_chunks/0/segment_chunk/segments")
        .unwrap()
        .as_array_mut()
        .unwrap();
    let mid = segments.len() / 2;
    segments.remove(mid);
    let e = write(format, &edited).unwrap_err();
    assert!(e.contains("own runs of"), "{e}");
}
