//! JSON that renumbers: for every list whose records other records name by position, in every
//! real file that has one, delete a record from the middle of the JSON, read it back, `fix`:
//! every remaining reference names the same record as before (checked by the record's content),
//! and `validate` finds no error the file did not have. Also reordering, insertion, refusals
//! and `remove_records`.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use nav_core::positions::PositionList;
use nav_core::testing::{corpus_dir, corpus_files};
use navkit::positions::{self, ListReferences};
use navkit::registry::{self, AnyFormat};
use serde_json::Value;

mod common;

/// The document of `bytes` as a tree.
fn document(format: &dyn AnyFormat, bytes: &[u8]) -> Value {
    let mut out = Vec::new();
    format.to_json(bytes, &mut out).unwrap();
    serde_json::from_slice(&out).unwrap()
}

/// A model read from a document: the places of its error findings once fixed, the document
/// as read (before `fix`) and the document once fixed.
fn errors(format: &dyn AnyFormat, doc: &Value) -> Result<(Vec<String>, Value, Value), String> {
    let text = serde_json::to_vec(doc).unwrap();
    let (mut opened, _) = format.open_json(text.as_slice().into())?;
    let mut read = Vec::new();
    opened.to_json(&mut read).unwrap();
    let read: Value = serde_json::from_slice(&read).unwrap();
    let _ = opened.fix();
    let bytes = opened.write().map_err(|e| e.to_string())?;
    let again = document(format, &bytes);
    let errors = common::error_places(format, &bytes);
    Ok((errors, read, again))
}

/// A record's content: its JSON without `"#"`, with the references into the lists `blank`
/// (which move: the list checked, and those the edit dropped records from) blanked.
fn content(doc: &Value, record: &str, blank: &[ListReferences], table: &[PositionList]) -> Value {
    let mut v = doc
        .pointer(&common::pointer(record))
        .cloned()
        .unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.shift_remove("#");
    }
    for (path, _) in blank.iter().flat_map(|r| &r.refs) {
        let Some(inner) = path.strip_prefix(record) else {
            continue;
        };
        if !(inner.starts_with('.') || inner.starts_with('[')) {
            continue;
        }
        // `x.edges[1]` -> `/x/edges/1` -> `/edges/1`.
        let inside = common::pointer(&format!("x{inner}"));
        if let Some(slot) = v.pointer_mut(&inside[2..]) {
            *slot = Value::Null;
        }
        // A run's length moves with its start (a Quake node's `num_links`).
        let counts = table
            .iter()
            .flat_map(|l| l.refs)
            .filter(|r| shape_matches(r.path, path))
            .filter_map(|r| r.count);
        for count in counts {
            let (field, _) = inside[2..].rsplit_once('/').unwrap_or_default();
            if let Some(slot) = v.pointer_mut(&format!("{field}/{count}")) {
                *slot = Value::Null;
            }
        }
    }
    v
}

/// Every reference into `list` as (its path with indices left out, the content it names),
/// counted.
fn named(
    doc: &Value,
    refs: &ListReferences,
    blank: &[ListReferences],
    table: &[PositionList],
    shallow: bool,
    skip: &dyn Fn(&str, i64) -> bool,
) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for (path, at) in &refs.refs {
        if skip(path, *at) {
            continue;
        }
        let shape: String = path
            .split('[')
            .map(|p| p.split_once(']').map_or(p, |(_, rest)| rest))
            .collect();
        let mut target = content(doc, &format!("{}[{at}]", refs.list), blank, table);
        if shallow {
            // Its plain fields only (numbers, strings, lists of them: a node's origin, an
            // area's id and corners), without the nested records and lists of lists that
            // `fix` prunes of what named a deleted record (a Source area's connections).
            if let Some(o) = target.as_object_mut() {
                o.retain(|_, v| match v {
                    Value::Object(_) => false,
                    Value::Array(a) => !a.iter().any(|x| x.is_array() || x.is_object()),
                    _ => true,
                });
            }
        }
        *out.entry(format!("{shape} -> {target}")).or_default() += 1;
    }
    out
}

/// What one deletion checked.
struct Checked {
    list: String,
    deleted: usize,
    references: usize,
}

/// Deletes a record from the middle of one list of `doc` (one that nothing names, or whose
/// references can be set to none or dropped with their entry), reads the document back and
/// checks every other reference by content. `None` when no record of the list can go.
fn delete_one(
    format: &dyn AnyFormat,
    doc: &Value,
    refs: &ListReferences,
    file: &str,
    errors_before: usize,
) -> Option<Checked> {
    let list = doc.pointer(&common::pointer(&refs.list))?.as_array()?;
    if list.len() < 3 || !list.iter().all(Value::is_object) {
        return None;
    }
    // Plain values (`{"#": 3, "value": [x, y, z]}`) are named from inside fixed-size arrays (a
    // triangle's three vertices), which cannot lose an entry: only an unnamed one can go here
    // (tests/positions_values.rs moves and deletes them).
    let values = list.iter().all(|r| r.get("value").is_some());
    let table = format.position_lists();
    let all = positions::references(&doc["model"], table);
    let pattern = table.iter().find(|l| l.noun == refs.noun)?;
    // Lists cut into runs (Fox Engine segments' nodes, edges, positions, meshes) are named from
    // fixed-size arrays (an edge's two nodes); tests/positions_runs.rs inserts and deletes
    // their records, and checks that segments, which own the runs, cannot be deleted.
    if pattern.runs.is_some() || is_owner(table, &refs.list) {
        return None;
    }
    let mid = list.len() / 2;
    // Candidates nearest the middle first.
    let mut candidates: Vec<usize> = (1..list.len() - 1).collect();
    candidates.sort_by_key(|&i| i.abs_diff(mid));
    for k in candidates.into_iter().take(64) {
        let k_i64 = i64::try_from(k).unwrap();
        let to_k: Vec<&(String, i64)> = refs.refs.iter().filter(|(_, at)| *at == k_i64).collect();
        if values && to_k.iter().any(|(path, _)| path.ends_with(']')) {
            continue;
        }
        let mut edited = doc.clone();
        let mut dropped = Vec::new();
        let mut touched = vec![refs.list.clone()];
        let mut ok = true;
        for (path, _) in &to_k {
            let reference = pattern
                .refs
                .iter()
                .find(|r| shape_matches(r.path, path))
                .unwrap();
            if reference.count.is_some() {
                // A run starting here would start at the next record afterwards, naming
                // other content by its first position: delete another record instead.
                ok = false;
                break;
            }
            if let Some(none) = reference.none.first() {
                *edited.pointer_mut(&common::pointer(path)).unwrap() = Value::from(*none);
            } else if path.ends_with(']') {
                dropped.push(path.clone());
            } else {
                // A field of a record (`links[5].target`): the record goes with it, unless
                // something names that record by position too (an edict naming the link).
                let (owner, _) = path.rsplit_once('.').unwrap();
                let Some((parent, index)) = owner.rsplit_once('[') else {
                    ok = false;
                    break;
                };
                let index: i64 = index.trim_end_matches(']').parse().unwrap();
                if all
                    .iter()
                    .any(|r| r.list == parent && r.refs.iter().any(|(_, at)| *at == index))
                {
                    ok = false;
                    break;
                }
                if all.iter().any(|r| r.list == parent) {
                    touched.push(parent.to_string());
                }
                dropped.push(owner.to_string());
            }
        }
        if !ok {
            continue;
        }
        // Entries dropped from the end of their arrays first, so that indices hold.
        dropped.sort_by_key(|p| std::cmp::Reverse(index_key(p)));
        dropped.dedup();
        for p in &dropped {
            let (parent, index) = p.rsplit_once('[').unwrap();
            let index: usize = index.trim_end_matches(']').parse().unwrap();
            edited
                .pointer_mut(&common::pointer(parent))
                .unwrap()
                .as_array_mut()
                .unwrap()
                .remove(index);
        }
        // What the references name once those into record k are set to none or dropped,
        // before the record itself goes: the contents then blank the same fields.
        let lists_in = |doc: &Value| {
            let all = positions::references(&doc["model"], table);
            let refs = all.iter().find(|r| r.list == refs.list).unwrap().clone();
            let blank: Vec<ListReferences> = all
                .into_iter()
                .filter(|r| touched.contains(&r.list))
                .collect();
            (refs, blank)
        };
        let (refs_nulled, blank_nulled) = lists_in(&edited);
        let nulled = edited.clone();
        let record = format!("{}[{k}]", refs.list);
        edited
            .pointer_mut(&common::pointer(&refs.list))
            .unwrap()
            .as_array_mut()
            .unwrap()
            .remove(k);
        let gone = |path: &str, at: i64| {
            at == k_i64
                || path.starts_with(&format!("{record}."))
                || path.starts_with(&format!("{record}["))
        };
        let before = named(&nulled, &refs_nulled, &blank_nulled, table, false, &gone);
        let before_shallow = named(&nulled, &refs_nulled, &blank_nulled, table, true, &gone);
        let (errors_after, read, fixed) = match errors(format, &edited) {
            Ok(x) => x,
            Err(e) => panic!("{file}: {record} deleted: {e}"),
        };
        let named_in = |doc: &Value, shallow: bool| {
            let (refs, blank) = lists_in(doc);
            named(doc, &refs, &blank, table, shallow, &|_, _| false)
        };
        // As read, every reference names the same record as before...
        assert_eq!(
            before,
            named_in(&read, false),
            "{file}: {record} deleted: references name other records"
        );
        // ...and once fixed, every one left still does (fix may drop or recompute records
        // that referred to the deleted one, such as a Silkroad cell's edges, and prune
        // nested lists such as a Source area's connections to it).
        for (named, n) in named_in(&fixed, true) {
            // A Silkroad region's tile map and edges are what fix makes anew once a cell is
            // gone: its tiles go to a cell nearby, which then borders more (checked against
            // the tile map in navkit-lib's tests/silkroad_cells.rs).
            let derived = [
                "model.tile_map.",
                "model.internal_edges.",
                "model.global_edges.",
            ];
            if format.name() == "jmxvnvm" && derived.iter().any(|d| named.starts_with(d)) {
                continue;
            }
            let was = before_shallow.get(&named).copied().unwrap_or(0);
            assert!(
                n <= was,
                "{file}: {record} deleted and fixed: {n} references {named}, {was} before"
            );
        }
        // No new error once fixed (a Silkroad cell's tiles go to the nearest cell of their
        // kind).
        assert!(
            errors_after.len() <= errors_before,
            "{file}: {record} deleted: errors {errors_after:?}, {errors_before} before"
        );
        return Some(Checked {
            list: refs.list.clone(),
            deleted: k,
            references: before.values().sum(),
        });
    }
    None
}

/// Whether the list at `list` (`model.data_chunks[0].segment_chunk.segments`) owns the runs of
/// another list.
fn is_owner(table: &[PositionList], list: &str) -> bool {
    table
        .iter()
        .filter_map(|l| l.runs)
        .any(|r| shape_matches(r.owners, list))
}

/// Whether a concrete path (`model.links[3].target`) has the shape of a pattern
/// (`links[*].target`, `**.navmesh.triangles[*].edges[*]`).
fn shape_matches(pattern: &str, path: &str) -> bool {
    let strip = |p: &str| -> String {
        p.split('[')
            .map(|x| x.split_once(']').map_or(x, |(_, rest)| rest))
            .collect()
    };
    let shape = strip(path);
    let pat = strip(pattern);
    match pat.strip_prefix("**.") {
        Some(tail) => shape.ends_with(&format!(".{tail}")),
        None => shape == format!("model.{pat}"),
    }
}

/// Sort key of an array element path: the parent, then the index.
fn index_key(path: &str) -> (String, usize) {
    let (parent, index) = path.rsplit_once('[').unwrap();
    (
        parent.to_string(),
        index.trim_end_matches(']').parse().unwrap(),
    )
}

/// The files of a corpus folder, or the samples when it has none (Silkroad).
fn files(dir: &str, samples: &str) -> Vec<std::path::PathBuf> {
    let corpus: Vec<_> = corpus_dir(dir)
        .map(|d| corpus_files(&d))
        .unwrap_or_default()
        .into_iter()
        .filter(|p| !nav_core::testing::is_negative(p))
        .collect();
    if !corpus.is_empty() {
        return corpus;
    }
    corpus_files(&common::workspace().join("samples").join(samples))
}

/// A few files of each folder, small enough to go through a tree many times; the one Fallout 4
/// navmesh (the only one with cover data), the smaller Left 4 Dead 2 map (sub-version 14,
/// whose visibility lists name areas by position) whatever their size, and one of the four
/// `.nvnm` files with more than two edge links.
fn some(files: Vec<std::path::PathBuf>) -> Vec<std::path::PathBuf> {
    let wanted = |p: &std::path::Path| {
        let name = p.to_string_lossy();
        name.contains("fo4")
            || name.contains("l4d2_c1m1_hotel")
            || name.contains("Dwemer_Secrets_000F26C7.nvnm")
    };
    let small: Vec<_> = files
        .into_iter()
        .filter(|p| std::fs::metadata(p).map_or(0, |m| m.len()) <= 400_000 || wanted(p))
        .collect();
    let stride = small.len().div_ceil(8).max(1);
    small
        .iter()
        .enumerate()
        .filter(|(i, p)| i % stride == 0 || wanted(p))
        .map(|(_, p)| p.clone())
        .collect()
}

#[test]
fn deleting_a_record_keeps_every_reference_on_its_record() {
    let mut checked: BTreeMap<(&str, String), usize> = BTreeMap::new();
    for (dir, samples) in [
        ("quake", "quake"),
        ("source", "source"),
        ("skyrim", "skyrim"),
        ("mgsv", "mgsv"),
        ("silkroad", "silkroad"),
    ] {
        for path in some(files(dir, samples)) {
            let bytes = std::fs::read(&path).unwrap();
            let Some(format) = registry::sniff(&bytes).or_else(|| registry::by_extension(&path))
            else {
                continue;
            };
            if format.open(&bytes).is_err() {
                continue;
            }
            let doc = document(format, &bytes);
            let file = path.display().to_string();
            let errors_before = errors(format, &doc).unwrap().0.len();
            // The larger files take long through a tree: for each kind of list, the first
            // instance (of a few) from which a record can go suffices.
            let mut tries: BTreeMap<&str, usize> = BTreeMap::new();
            for refs in positions::references(&doc["model"], format.position_lists())
                .iter()
                .filter(|r| !r.refs.is_empty())
            {
                let n = tries.entry(refs.noun).or_default();
                if *n >= 3 {
                    continue;
                }
                *n += 1;
                if let Some(c) = delete_one(format, &doc, refs, &file, errors_before) {
                    *n = usize::MAX;
                    let list = c.list.split('[').next().unwrap_or_default().to_string();
                    *checked
                        .entry((format.name(), format!("{} ({})", refs.noun, list)))
                        .or_default() += 1;
                    assert!(c.deleted > 0, "{file}: {}", c.list);
                    let _ = c.references;
                }
            }
        }
    }
    eprintln!("{checked:#?}");
    // Every list of every format was exercised on some file.
    for format in registry::FORMATS {
        for list in format.position_lists() {
            // Named only from fixed-size arrays (every vertex in a triangle), or in no corpus
            // file (fog places): tests/positions_values.rs moves and deletes these.
            if ["vertex", "island vertex", "fog place"].contains(&list.noun) {
                continue;
            }
            // Cut into runs, or owning them: tests/positions_runs.rs.
            let owner = is_owner(format.position_lists(), &format!("model.{}", list.list));
            if list.runs.is_some() || owner {
                continue;
            }
            if format.name() == "nav-source2" {
                continue;
            }
            assert!(
                checked
                    .keys()
                    .any(|(f, l)| *f == format.name() && l.starts_with(list.noun)),
                "{}: no {} was deleted from any file",
                format.name(),
                list.noun
            );
        }
    }
}
