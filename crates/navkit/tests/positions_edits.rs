//! JSON that renumbers, on a small Quake graph (5 nodes, 10 links): reordered and inserted
//! records keep every reference on its record, a reference to a deleted record and a `"#"`
//! given twice are refused naming the JSON path (through the CLI), a document without `"#"`
//! reads as before, and `remove_records` deletes from a model for `fix` to finish.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use navkit::registry::{self, AnyFormat};
use serde_json::{Value, json};

mod common;

const SAMPLE: &str = "samples/quake/room_nav2_v14.nav";

fn sample() -> (&'static dyn AnyFormat, Vec<u8>, Value) {
    let bytes = std::fs::read(common::workspace().join(SAMPLE)).unwrap();
    let format = registry::sniff(&bytes).unwrap();
    let mut out = Vec::new();
    format.to_json(&bytes, &mut out).unwrap();
    (format, bytes, serde_json::from_slice(&out).unwrap())
}

/// The model read from `doc`, written, and its document again.
fn read(format: &dyn AnyFormat, doc: &Value) -> Result<(Vec<u8>, Value), String> {
    let text = serde_json::to_vec(doc).unwrap();
    let (opened, _) = format.open_json(text.as_slice().into())?;
    let bytes = opened.write().map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    format.to_json(&bytes, &mut out).unwrap();
    Ok((bytes, serde_json::from_slice(&out).unwrap()))
}

/// Each link as (the origin of its node, the origin of its target, its traversal's content):
/// what the links mean, whatever the positions.
fn meaning(doc: &Value) -> Vec<(Value, Value, Value)> {
    let m = &doc["model"];
    let nodes = m["nodes"].as_array().unwrap();
    let links = m["links"].as_array().unwrap();
    let mut out = Vec::new();
    for node in nodes {
        let first = node["first_link"].as_u64().unwrap();
        let count = node["num_links"].as_u64().unwrap();
        for l in first..first + count {
            let link = &links[usize::try_from(l).unwrap()];
            let target = &nodes[usize::try_from(link["target"].as_u64().unwrap()).unwrap()];
            let traversal = link["traversal"].as_u64().unwrap();
            let traversal = m["traversals"]
                .get(usize::try_from(traversal).unwrap())
                .cloned()
                .map(|mut t| {
                    t.as_object_mut().unwrap().shift_remove("#");
                    t
                })
                .unwrap_or(Value::Null);
            out.push((node["origin"].clone(), target["origin"].clone(), traversal));
        }
    }
    out.sort_by_key(|t| format!("{t:?}"));
    out
}

fn nodes(doc: &mut Value) -> &mut Vec<Value> {
    doc["model"]["nodes"].as_array_mut().unwrap()
}

#[test]
fn the_document_carries_positions_and_reads_back_without_them() {
    let (format, bytes, doc) = sample();
    let m = &doc["model"];
    for list in ["nodes", "links", "traversals"] {
        for (i, record) in m[list].as_array().unwrap().iter().enumerate() {
            // `"#"` first, and the record's position.
            let (key, value) = record.as_object().unwrap().iter().next().unwrap();
            assert_eq!((key.as_str(), value), ("#", &json!(i)), "{list}[{i}]");
        }
    }
    // Beside each list, how many records it had: `"#nodes": 5`.
    for list in ["nodes", "links", "traversals"] {
        let n = m[list].as_array().unwrap().len();
        assert_eq!(m[format!("#{list}")], json!(n), "{list}");
    }
    assert_eq!(read(format, &doc).unwrap().0, bytes);
    // Without any `"#"` or count: the same file.
    let mut bare = doc.clone();
    for list in ["nodes", "links", "traversals"] {
        for r in bare["model"][list].as_array_mut().unwrap() {
            r.as_object_mut().unwrap().shift_remove("#");
        }
        bare["model"]
            .as_object_mut()
            .unwrap()
            .shift_remove(&format!("#{list}"));
    }
    assert_eq!(read(format, &bare).unwrap().0, bytes);
}

#[test]
fn a_record_deleted_from_the_end_is_seen_by_the_count() {
    let (format, _, doc) = sample();
    let last = nodes(&mut doc.clone()).len() - 1;
    let named = doc["model"]["links"]
        .as_array()
        .unwrap()
        .iter()
        .position(|l| l["target"] == json!(last))
        .expect("a link to the last node");
    let mut edited = doc.clone();
    nodes(&mut edited).pop();
    let err = from_json_refused(&edited);
    let want = format!(
        "model.links[{named}].target: names node #{last}, which the document no longer holds"
    );
    assert!(err.contains(&want), "{err}");
    // The last traversal, once no link names it, can go: the links keep theirs.
    let mut edited = doc.clone();
    let traversals = edited["model"]["traversals"].as_array_mut().unwrap();
    let t = traversals.len() - 1;
    traversals.pop();
    for l in edited["model"]["links"].as_array_mut().unwrap() {
        if l["traversal"] == json!(t) {
            l["traversal"] = json!(0xFFFF);
        }
    }
    let (_, after) = read(format, &edited).unwrap();
    assert_eq!(after["model"]["#traversals"], json!(t));
    // The count itself must be a count.
    let mut wrong = doc.clone();
    wrong["model"]["#nodes"] = json!("five");
    let err = from_json_refused(&wrong);
    assert!(
        err.contains("model.\"#nodes\": \"five\" is not a record count"),
        "{err}"
    );
}

#[test]
fn reordered_nodes_and_traversals_keep_their_references() {
    let (format, _, doc) = sample();
    let mut edited = doc.clone();
    nodes(&mut edited).reverse();
    // (Links are named in runs, first and count: they can be deleted or inserted within a
    // run, not moved out of it.)
    edited["model"]["traversals"]
        .as_array_mut()
        .unwrap()
        .reverse();
    let (_, after) = read(format, &edited).unwrap();
    assert_eq!(meaning(&after), meaning(&doc));
    // The nodes are in their new order.
    let origins = |d: &Value| -> Vec<Value> {
        d["model"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n["origin"].clone())
            .collect()
    };
    let mut reversed = origins(&doc);
    reversed.reverse();
    assert_eq!(origins(&after), reversed);
}

#[test]
fn an_inserted_node_takes_its_place_and_references_follow() {
    let (format, _, doc) = sample();
    let mut edited = doc.clone();
    let mut new = nodes(&mut edited)[0].clone();
    let o = new.as_object_mut().unwrap();
    o.shift_remove("#");
    o.insert("origin".into(), json!([1.0, 2.0, 3.0]));
    o.insert("num_links".into(), json!(0));
    nodes(&mut edited).insert(2, new);
    let (_, after) = read(format, &edited).unwrap();
    assert_eq!(meaning(&after), meaning(&doc));
    assert_eq!(after["model"]["nodes"][2]["origin"], json!([1.0, 2.0, 3.0]));
    assert_eq!(after["model"]["nodes"].as_array().unwrap().len(), 6);
}

#[test]
fn a_reference_to_a_deleted_record_is_refused_with_its_path() {
    let (_, _, doc) = sample();
    let mut edited = doc.clone();
    nodes(&mut edited).remove(1);
    let named: Vec<usize> = doc["model"]["links"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(_, l)| l["target"] == json!(1))
        .map(|(i, _)| i)
        .collect();
    assert!(!named.is_empty());
    let err = from_json_refused(&edited);
    let want = format!(
        "model.links[{}].target: names node #1, which the document no longer holds",
        named[0]
    );
    assert!(err.contains(&want), "{err}");

    // A "#" given twice.
    let mut twice = doc.clone();
    nodes(&mut twice)[3]["#"] = json!(1);
    let err = from_json_refused(&twice);
    assert!(
        err.contains("model.nodes[3].\"#\": 1 is also the \"#\" of model.nodes[1]"),
        "{err}"
    );
}

/// `navkit from-json` of `doc`: it must fail and write nothing; what it printed.
fn from_json_refused(doc: &Value) -> String {
    // Tests run side by side: each call its own files.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let input = common::temp(&format!("edited{n}.json"));
    std::fs::write(&input, serde_json::to_vec(doc).unwrap()).unwrap();
    let output = common::temp(&format!("edited{n}.nav"));
    let o = common::navkit(&[
        "from-json".as_ref(),
        input.as_os_str(),
        "-o".as_ref(),
        output.as_os_str(),
    ]);
    let err = common::stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(!output.exists(), "{err}");
    err
}

#[test]
fn remove_records_deletes_and_fix_drops_what_named_it() {
    let (format, bytes, doc) = sample();
    let mut opened = format.open(&bytes).unwrap();
    // A path that is not a position list, and a position past the list, change nothing.
    assert!(opened.remove_records("edicts", &[0]).is_err());
    assert!(opened.remove_records("nodes", &[99]).is_err());
    assert_eq!(opened.write().unwrap(), bytes);

    // The last node: the links to it are left past the end, and said so.
    let mut last = format.open(&bytes).unwrap();
    let lines = last.remove_records("nodes", &[4]).unwrap();
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.contains("named node 4")),
        "{lines:?}"
    );

    let lines = opened.remove_records("nodes", &[1]).unwrap();
    assert!(
        !lines.is_empty() && lines.iter().all(|l| l.contains("named node 1")),
        "{lines:?}"
    );
    let fixed = opened.fix();
    assert!(!fixed.is_empty());
    let written = opened.write().unwrap();
    let errors = common::error_places(format, &written);
    assert!(errors.is_empty(), "{errors:?}");
    let mut out = Vec::new();
    format.to_json(&written, &mut out).unwrap();
    let after: Value = serde_json::from_slice(&out).unwrap();
    // Every link left means what it meant, but those to or from node 1.
    let gone = &doc["model"]["nodes"][1]["origin"];
    let mut want = meaning(&doc);
    want.retain(|(from, to, _)| from != gone && to != gone);
    assert_eq!(meaning(&after), want);
}

#[test]
fn a_link_moved_out_of_its_node_s_run_is_refused() {
    let (_, _, doc) = sample();
    // The first node with two links or more gives its first link to the end of the list.
    let node = doc["model"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .position(|n| n["num_links"].as_u64().unwrap() >= 2)
        .unwrap();
    let first = doc["model"]["nodes"][node]["first_link"].as_u64().unwrap();
    let count = doc["model"]["nodes"][node]["num_links"].as_u64().unwrap();
    let links_after = doc["model"]["links"].as_array().unwrap().len() as u64 - (first + count);
    assert!(
        links_after > 0,
        "the sample has links after node {node}'s run"
    );
    let mut edited = doc.clone();
    let links = edited["model"]["links"].as_array_mut().unwrap();
    let moved = links.remove(usize::try_from(first + 1).unwrap());
    links.push(moved);
    let err = from_json_refused(&edited);
    assert!(
        err.contains(&format!(
            "model.nodes[{node}].first_link: its run of links (#{first} to #{})",
            first + count - 1
        )) && err.contains("which was not in it; keep the records of each run together"),
        "{err}"
    );
}
