//! `navkit diff`: every corpus file diffed with its own rewrite is empty; hand-made edits through
//! the JSON model give exactly the expected lines; exit status 0, 1 and 2; `--json` and `--all`.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};

use nav_core::testing::{corpus_files, corpus_root, is_negative, skip_without_corpus};
use navkit::registry;
use serde_json::Value;

mod common;
use common::{navkit, s, stderr, stdout, temp};

/// The file's model as JSON, edited by `edit`, written back as a navmesh; returns its path.
fn edited(sample: &str, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let json = temp(&format!("{name}.json"));
    let o = navkit(&["to-json", sample, "-o", s(&json)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    edit(&mut doc["model"]);
    std::fs::write(&json, serde_json::to_vec(&doc).unwrap()).unwrap();
    let out = temp(name);
    let o = navkit(&["from-json", s(&json), "-o", s(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

#[test]
fn every_corpus_file_equals_its_rewrite() {
    let Some(root) = corpus_root() else {
        skip_without_corpus("no corpus found");
        return;
    };
    let (mut checked, mut failures) = (0usize, Vec::new());
    // The previous file of each format: its tree and its rewritten bytes.
    let mut previous: std::collections::HashMap<&str, (String, navkit::diff::Tree, Vec<u8>)> =
        std::collections::HashMap::new();
    let mut pairs = 0usize;
    for path in corpus_files(&root) {
        if is_negative(&path) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Some(format) = registry::sniff(&bytes).or_else(|| registry::by_extension(&path)) else {
            continue;
        };
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let rewritten = match format.rewrite(&bytes) {
            Ok(r) => r,
            Err(e) => {
                failures.push(format!("{name}: rewrite: {e}"));
                continue;
            }
        };
        let a = format.model_tree(&bytes).unwrap();
        let b = format.model_tree(&rewritten).unwrap();
        let changes = navkit::diff::diff(format.name(), &a, &b);
        if !changes.is_empty() {
            failures.push(format!("{name}: {}", changes[0]));
        }
        checked += 1;
        // Two different files of one format differ in their models exactly when their bytes do.
        if let Some((other, t, r)) = previous.get(format.name()) {
            let equal = navkit::diff::diff(format.name(), t, &a).is_empty();
            if equal != (*r == rewritten) {
                failures.push(format!(
                    "{other} and {name}: models equal {equal}, bytes not"
                ));
            }
            pairs += 1;
        }
        previous.insert(format.name(), (name, a, rewritten));
    }
    eprintln!("{checked} corpus files diffed with their rewrite, {pairs} with the next file");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 200, "only {checked} corpus files");
}

#[test]
fn a_file_and_its_rewrite_exit_0_through_the_binary() {
    for sample in [
        "samples/source/cs_v16_1.nav",
        "samples/quake/room_nav2_v18.nav",
        "samples/mgsv/crossing.nav2",
    ] {
        let out = temp("rewritten");
        assert!(navkit(&["rewrite", sample, "-o", s(&out)]).status.success());
        let o = navkit(&["diff", sample, s(&out)]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{sample}: {}{}",
            stdout(&o),
            stderr(&o)
        );
        assert_eq!(stdout(&o), "", "{sample}");
    }
}

#[test]
fn source_edits_show_as_model_paths_by_area_id() {
    let sample = "samples/source/cs_v16_1.nav";
    let mut ids = Vec::new();
    let changed = edited(sample, "edited.nav", |m| {
        let areas = m["areas"].as_array_mut().unwrap();
        ids = areas.iter().map(|a| a["id"].as_u64().unwrap()).collect();
        areas[1]["attribute_flags"] = Value::from(4);
        areas.remove(0);
    });
    assert!(ids.len() >= 2);
    let (gone, flagged) = (ids[0], ids[1]);
    let o = navkit(&["diff", sample, s(&changed)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let mut expected = vec![
        format!("areas[id {gone}]: removed"),
        format!("areas[id {flagged}].attribute_flags: 0 -> 4"),
    ];
    expected.sort_by_key(|l| l.contains("removed") != (gone < flagged));
    assert_eq!(lines, expected, "{out}");
    // Swapped, the same change reads the other way.
    let o = navkit(&["diff", s(&changed), sample]);
    assert!(
        stdout(&o).contains(&format!("areas[id {gone}]: added")),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("attribute_flags: 4 -> 0"),
        "{}",
        stdout(&o)
    );

    // --json lists the same for tools.
    let o = navkit(&["diff", "--json", sample, s(&changed)]);
    assert_eq!(o.status.code(), Some(1));
    let doc: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(doc["format"], "nav-source");
    assert_eq!(doc["equal"], false);
    assert_eq!(doc["count"], 2);
    let flags = doc["differences"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["change"] == "changed")
        .unwrap();
    assert_eq!(
        flags["path"],
        format!("areas[id {flagged}].attribute_flags")
    );
    assert_eq!(
        (flags["old"].as_str(), flags["new"].as_str()),
        (Some("0"), Some("4"))
    );
}

#[test]
fn quake_edits_pair_by_index_and_floats_print_as_numbers() {
    let sample = "samples/quake/room_nav2_v15.nav";
    let changed = edited(sample, "edited_q.nav", |m| {
        let nodes = m["nodes"].as_array_mut().unwrap();
        nodes[2]["origin"][2] = Value::from(24.5);
        let mut extra = nodes[0].clone();
        // A new record: no "#" (that is node 0's position, see docs/json.md).
        extra.as_object_mut().unwrap().shift_remove("#");
        extra["num_links"] = Value::from(0);
        extra["first_link"] = Value::from(0);
        nodes.push(extra);
    });
    let o = navkit(&["diff", sample, s(&changed)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "nodes[2].origin: [256.0, 256.0, 24.0] -> [256.0, 256.0, 24.5]\nnodes[5]: added\n"
    );
}

#[test]
fn long_lists_are_capped_unless_all() {
    let sample = "samples/quake/room_nav2_v15.nav";
    // Sixty edits: more than the fifty lines shown by default.
    let changed = edited(sample, "many.nav", |m| {
        let nodes = m["nodes"].as_array_mut().unwrap();
        let mut first = nodes[0].clone();
        // New records: no "#" (that is node 0's position, see docs/json.md).
        first.as_object_mut().unwrap().shift_remove("#");
        for _ in 0..60 {
            let mut n = first.clone();
            n["num_links"] = Value::from(0);
            n["first_link"] = Value::from(0);
            nodes.push(n);
        }
    });
    let o = navkit(&["diff", sample, s(&changed)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 51, "{out}");
    assert!(
        out.ends_with("... and 10 more differences (--all shows them)\n"),
        "{out}"
    );
    // Sorted by path with numbers in numeric order.
    assert!(
        out.starts_with("nodes[5]: added\nnodes[6]: added\n"),
        "{out}"
    );
    let o = navkit(&["diff", "--all", sample, s(&changed)]);
    assert_eq!(stdout(&o).lines().count(), 60);
    assert!(stdout(&o).ends_with("nodes[64]: added\n"));
}

#[test]
fn usage_and_unreadable_files_exit_2() {
    let o = navkit(&["diff", "samples/quake/room_nav2_v15.nav"]);
    assert_eq!(o.status.code(), Some(2));
    let o = navkit(&[
        "diff",
        "samples/quake/room_nav2_v15.nav",
        "samples/source/cs_v16_1.nav",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("diff compares two files of one format"),
        "{}",
        stderr(&o)
    );
    let o = navkit(&[
        "diff",
        "samples/quake/room_nav2_v15.nav",
        "no/such/file.nav",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no/such/file.nav"), "{}", stderr(&o));
    let broken = temp("broken.nav");
    let bytes = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/quake/room_nav2_v15.nav"),
    )
    .unwrap();
    std::fs::write(&broken, &bytes[..bytes.len() - 3]).unwrap();
    let o = navkit(&["diff", "samples/quake/room_nav2_v15.nav", s(&broken)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("broken.nav"), "{}", stderr(&o));
}

#[test]
fn skyrim_plugin_records_pair_by_form_id() {
    let Some(plugin) = nav_core::testing::real_file("skyrim", "Portable Storage Room.esp") else {
        return;
    };
    let changed = edited(s(&plugin), "edited.esp", |m| {
        let groups = m["items"].as_array_mut().unwrap();
        let records = groups[0]["Group"]["items"].as_array_mut().unwrap();
        records.remove(1);
        records[0]["Record"]["flags"] = Value::from(32);
    });
    let o = navkit(&["diff", s(&plugin), s(&changed)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    // Records named by FormID inside the top group named by its record type.
    assert_eq!(
        out,
        "items[group TXST].items[FormID 0x050008E4].flags: 0 -> 32\n\
         items[group TXST].items[FormID 0x05000912]: removed\n",
        "{out}"
    );
}

/// Source 2 areas pair by their ids, as Source ones do: deleting the first area shows that area
/// removed, not every later area changed.
#[test]
fn source2_areas_pair_by_id() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/source2/room_v35.nav");
    let bytes = std::fs::read(path).unwrap();
    let format = navkit::registry::sniff(&bytes).unwrap();
    let before = format.open(&bytes).unwrap();
    let mut after = before.boxed_clone();
    let mesh = after
        .as_any_mut()
        .downcast_mut::<nav_source2::Source2Mesh>()
        .unwrap();
    assert!(mesh.areas.len() >= 2, "the sample has several areas");
    let gone = mesh.areas.remove(0).id;
    let changes = navkit::diff::diff(
        format.name(),
        &before.model_tree().unwrap(),
        &after.model_tree().unwrap(),
    );
    let areas: Vec<String> = changes
        .iter()
        .map(ToString::to_string)
        .filter(|c| c.starts_with("areas["))
        .collect();
    assert_eq!(areas, [format!("areas[id {gone}]: removed")]);
}
