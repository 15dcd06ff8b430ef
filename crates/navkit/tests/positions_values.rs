//! JSON that renumbers lists of plain values: records written as an array or a string (a Skyrim
//! vertex `[x, y, z]`, a plugin's island vertex, a Source place name, a Left 4 Dead fog place
//! name), which `to-json` wraps as `{"#": n, "value": ...}`. Moving a record from the middle to
//! the end, or deleting one from the middle, keeps every reference on the value it named
//! (checked by content), and the file written has no error it did not have.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use nav_core::testing::corpus_dir;
use navkit::positions::{self, ListReferences};
use navkit::registry::{self, AnyFormat};
use serde_json::{Value, json};

mod common;

/// A corpus file's format and document, `None` (and a note) without the corpus.
fn open(dir: &str, name: &str) -> Option<(&'static dyn AnyFormat, Value)> {
    let path = corpus_dir(dir)?.join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let format = registry::sniff(&bytes)
        .or_else(|| registry::by_extension(&path))
        .unwrap();
    let mut out = Vec::new();
    format.to_json(&bytes, &mut out).unwrap();
    Some((format, serde_json::from_slice(&out).unwrap()))
}

/// The document read in, written to a file and back to a document, and the file's errors.
fn read(format: &dyn AnyFormat, doc: &Value) -> Result<(Value, Vec<String>), String> {
    let text = serde_json::to_vec(doc).unwrap();
    let (opened, _) = format.open_json(text.as_slice().into())?;
    let bytes = opened.write().map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    format.to_json(&bytes, &mut out).unwrap();
    let errors = common::error_places(format, &bytes);
    Ok((serde_json::from_slice(&out).unwrap(), errors))
}

/// The value a wrapped record holds (`{"#": 3, "value": v}` gives `v`; a bare record itself).
fn unwrapped(record: &Value) -> Value {
    record
        .get("value")
        .cloned()
        .unwrap_or_else(|| record.clone())
}

/// Every reference into the lists called `noun`, by its path, to the value it names.
fn named(doc: &Value, format: &dyn AnyFormat, noun: &str) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    for refs in lists(doc, format, noun) {
        let records = doc
            .pointer(&common::pointer(&refs.list))
            .unwrap()
            .as_array()
            .unwrap();
        for (path, at) in &refs.refs {
            let record = records.get(usize::try_from(*at).unwrap()).unwrap();
            out.insert(path.clone(), unwrapped(record));
        }
    }
    out
}

/// The instances of the lists called `noun` in `doc`.
fn lists(doc: &Value, format: &dyn AnyFormat, noun: &str) -> Vec<ListReferences> {
    positions::references(&doc["model"], format.position_lists())
        .into_iter()
        .filter(|r| r.noun == noun)
        .collect()
}

/// The first instance of `noun` with at least 3 records and references into its middle.
fn busy_list(doc: &Value, format: &dyn AnyFormat, noun: &str) -> ListReferences {
    lists(doc, format, noun)
        .into_iter()
        .find(|r| {
            let n = doc
                .pointer(&common::pointer(&r.list))
                .unwrap()
                .as_array()
                .unwrap()
                .len();
            n >= 3 && r.refs.iter().any(|(_, at)| *at > 0)
        })
        .unwrap_or_else(|| panic!("no {noun} list with references"))
}

fn records<'d>(doc: &'d mut Value, list: &str) -> &'d mut Vec<Value> {
    doc.pointer_mut(&common::pointer(list))
        .unwrap()
        .as_array_mut()
        .unwrap()
}

#[test]
fn values_are_written_wrapped_with_their_position() {
    let Some((format, doc)) = open("source", "css_de_dust2.nav") else {
        return;
    };
    let places = doc["model"]["places"].as_array().unwrap();
    assert!(places.len() > 2);
    for (i, p) in places.iter().enumerate() {
        assert_eq!(p["#"], json!(i), "{p}");
        assert!(p["value"].is_string(), "{p}");
    }
    // Bare values read as well (as written before wrapping, or added by hand).
    let mut bare = doc.clone();
    for p in records(&mut bare, "model.places") {
        *p = p["value"].clone();
    }
    assert_eq!(
        read(format, &bare).unwrap().0,
        read(format, &doc).unwrap().0
    );
}

#[test]
fn a_value_moved_to_the_end_keeps_every_reference_on_it() {
    let cases = [
        ("skyrim", "nvnm/Mundusform_4067dc7_0410E629.nvnm", "vertex"),
        ("skyrim", "Cheat Room.esp", "vertex"),
        ("skyrim", "Cheat Room.esp", "island vertex"),
        ("source", "css_de_dust2.nav", "place"),
    ];
    for (dir, name, noun) in cases {
        let Some((format, doc)) = open(dir, name) else {
            continue;
        };
        let list = busy_list(&doc, format, noun);
        let before = named(&doc, format, noun);
        let mut edited = doc.clone();
        let all = records(&mut edited, &list.list);
        let mid = all.len() / 2;
        let moved = all.remove(mid);
        all.push(moved);
        let (after, errors) = read(format, &edited).unwrap();
        assert_eq!(
            before,
            named(&after, format, noun),
            "{name}: {noun} {mid} moved"
        );
        // The references did move: those to the moved record now name the last position.
        let last = i64::try_from(all_len(&doc, &list.list) - 1).unwrap();
        let renumbered = lists(&after, format, noun)
            .into_iter()
            .find(|r| r.list == list.list)
            .unwrap();
        let to_mid = list
            .refs
            .iter()
            .filter(|(_, at)| *at == i64::try_from(mid).unwrap());
        for (path, _) in to_mid {
            assert!(
                renumbered.refs.contains(&(path.clone(), last)),
                "{name}: {path}"
            );
        }
        let (_, errors_before) = read(format, &doc).unwrap();
        assert_eq!(errors, errors_before, "{name}: {noun} moved");
    }
}

fn all_len(doc: &Value, list: &str) -> usize {
    doc.pointer(&common::pointer(list))
        .unwrap()
        .as_array()
        .unwrap()
        .len()
}

#[test]
fn an_unused_vertex_deleted_from_the_middle_leaves_every_triangle_as_it_was() {
    let Some((format, doc)) = open("skyrim", "nvnm/Mundusform_4067dc7_0410E629.nvnm") else {
        return;
    };
    let list = busy_list(&doc, format, "vertex");
    let n = all_len(&doc, &list.list);
    let unused = (n / 4..n - 1)
        .find(|&i| {
            !list
                .refs
                .iter()
                .any(|(_, at)| *at == i64::try_from(i).unwrap())
        })
        .expect("the file has unused vertices past its first quarter");
    let before = named(&doc, format, "vertex");
    let mut edited = doc.clone();
    records(&mut edited, &list.list).remove(unused);
    let (after, errors) = read(format, &edited).unwrap();
    assert_eq!(all_len(&after, &list.list), n - 1);
    assert_eq!(
        before,
        named(&after, format, "vertex"),
        "vertex {unused} deleted"
    );
    assert_eq!(errors, read(format, &doc).unwrap().1);
    // The library's `remove_records` does the same to an opened model.
    let file = corpus_dir("skyrim")
        .unwrap()
        .join("nvnm/Mundusform_4067dc7_0410E629.nvnm");
    let mut opened = format.open(&std::fs::read(file).unwrap()).unwrap();
    let lines = opened.remove_records("vertices", &[unused]).unwrap();
    assert!(lines.is_empty(), "{lines:?}");
    let mut out = Vec::new();
    format.to_json(&opened.write().unwrap(), &mut out).unwrap();
    let removed: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(before, named(&removed, format, "vertex"), "remove_records");
    // A reference to a vertex deleted from the middle is refused, naming it.
    let used = (n / 2..n - 1)
        .find(|&i| {
            list.refs
                .iter()
                .any(|(_, at)| *at == i64::try_from(i).unwrap())
        })
        .unwrap();
    let mut broken = doc.clone();
    records(&mut broken, &list.list).remove(used);
    let err = read(format, &broken).unwrap_err();
    assert!(
        err.contains(&format!(
            "names vertex #{used}, which the document no longer holds"
        )),
        "{err}"
    );
}

#[test]
fn a_place_deleted_from_the_middle_leaves_every_area_on_its_place() {
    let Some((format, doc)) = open("source", "css_de_dust2.nav") else {
        return;
    };
    let list = busy_list(&doc, format, "place");
    let k = all_len(&doc, &list.list) / 2;
    // The areas in place k (1-based k + 1) lose their place; then place k goes.
    let mut edited = doc.clone();
    for (path, at) in &list.refs {
        if *at == i64::try_from(k).unwrap() {
            *edited.pointer_mut(&common::pointer(path)).unwrap() = json!(0);
        }
    }
    let before = named(&edited, format, "place");
    assert!(before.len() < list.refs.len(), "some area was in place {k}");
    records(&mut edited, &list.list).remove(k);
    let (after, errors) = read(format, &edited).unwrap();
    assert_eq!(before, named(&after, format, "place"), "place {k} deleted");
    assert_eq!(errors, read(format, &doc).unwrap().1);
}

#[test]
fn fog_places_renumber_like_places() {
    let Some((format, doc)) = open("source", "l4d2_c1m1_hotel.nav") else {
        return;
    };
    // The corpus files have no fog places: give three new ones (bare, no "#") to areas 0-2.
    let mut doc = doc;
    doc["model"]["terror"]["fog_places"] = json!(["fog_a", "fog_b", "fog_c"]);
    for (i, fog) in [1, 2, 3].into_iter().enumerate() {
        doc["model"]["areas"][i]["custom"]["Terror"]["fog_place"] = json!(fog);
    }
    let (doc, _) = read(format, &doc).unwrap();
    assert_eq!(
        doc["model"]["terror"]["fog_places"][1],
        json!({"#": 1, "value": "fog_b"})
    );
    // Area 1 leaves fog place #1, which goes; the other two keep theirs.
    let mut edited = doc.clone();
    edited["model"]["areas"][1]["custom"]["Terror"]["fog_place"] = json!(0);
    records(&mut edited, "model.terror.fog_places").remove(1);
    let (after, _) = read(format, &edited).unwrap();
    let fog = |i: usize| after["model"]["areas"][i]["custom"]["Terror"]["fog_place"].clone();
    assert_eq!((fog(0), fog(1), fog(2)), (json!(1), json!(0), json!(2)));
    assert_eq!(
        after["model"]["terror"]["fog_places"][1]["value"],
        json!("fog_c")
    );
    // Leaving area 1 on the deleted fog place is refused.
    let mut broken = doc.clone();
    records(&mut broken, "model.terror.fog_places").remove(1);
    let err = read(format, &broken).unwrap_err();
    assert!(
        err.contains("names fog place #1, which the document no longer holds"),
        "{err}"
    );
}
