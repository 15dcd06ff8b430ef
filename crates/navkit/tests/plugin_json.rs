//! A plugin's JSON shows each navmesh as NVNM geometry, and a vertex edited there comes back as
//! a plugin whose record and group sizes are right and whose other records are unchanged: on
//! every real plugin, through the binary.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::Path;

use nav_core::Format;
use nav_core::testing::real_files;
use nvnm_skyrim::plugin::{PluginFile, Record, RecordBody};
use nvnm_skyrim::{Nvnm, Plugin};

mod common;
use common::{navkit, stderr, temp};

/// The FormIDs of the NAVM records whose NVNM subrecord the JSON shows, in document order;
/// FormIDs are read as the 8 hex digits the JSON shows them as.
fn navmeshes_in_json(v: &serde_json::Value, out: &mut Vec<u32>) -> Result<(), String> {
    match v {
        serde_json::Value::Object(o) => {
            if o.get("signature").and_then(|s| s.as_str()) == Some("NAVM") {
                let form_id = form_id_of(&o["form_id"]);
                let form_id = form_id.ok_or("NAVM without a FormID")?;
                let subs = o["body"]["Navmesh"]["subrecords"].as_array();
                for s in subs.into_iter().flatten() {
                    if s["signature"] == "NVNM" {
                        if s.get("navmesh").is_none() {
                            return Err(format!("NAVM {form_id:08X}: NVNM not shown as geometry"));
                        }
                        out.push(form_id);
                    }
                }
                return Ok(());
            }
            o.values().try_for_each(|x| navmeshes_in_json(x, out))
        }
        serde_json::Value::Array(a) => a.iter().try_for_each(|x| navmeshes_in_json(x, out)),
        _ => Ok(()),
    }
}

fn find_navmesh(v: &mut serde_json::Value, form_id: u32) -> Option<&mut serde_json::Value> {
    match v {
        serde_json::Value::Object(o) => {
            if o.get("signature").and_then(|s| s.as_str()) == Some("NAVM")
                && o.get("form_id").and_then(form_id_of) == Some(form_id)
            {
                return o
                    .get_mut("body")?
                    .get_mut("Navmesh")?
                    .get_mut("subrecords")?
                    .as_array_mut()?
                    .iter_mut()
                    .find(|s| s["signature"] == "NVNM")?
                    .get_mut("navmesh");
            }
            o.values_mut().find_map(|x| find_navmesh(x, form_id))
        }
        serde_json::Value::Array(a) => a.iter_mut().find_map(|x| find_navmesh(x, form_id)),
        _ => None,
    }
}

fn is_navm(r: &Record, form_id: u32) -> bool {
    &r.signature.0 == b"NAVM" && r.form_id == form_id
}

fn edit_one_vertex(path: &Path) -> Result<(), String> {
    let original = std::fs::read(path).unwrap();
    let before = Plugin.read(&original).map_err(|e| e.to_string())?;
    let json_path = temp("plugin.json");
    let o = navkit(&[
        "to-json",
        path.to_str().unwrap(),
        "-o",
        json_path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_path).unwrap()).unwrap();

    // Every navmesh of the plugin shows as geometry.
    let mut shown = Vec::new();
    navmeshes_in_json(&json, &mut shown)?;
    let with_nvnm = before
        .records()
        .into_iter()
        .filter(|r| r.nvnm().is_some())
        .count();
    if shown.len() != with_nvnm {
        return Err(format!(
            "{with_nvnm} navmeshes in the plugin, {} shown as geometry",
            shown.len()
        ));
    }
    let Some(&form_id) = shown.first() else {
        println!("{}: no navmesh to edit", path.display());
        return Ok(());
    };
    let geometry = find_navmesh(&mut json, form_id).ok_or("the navmesh went missing")?;
    // A vertex is written with its position: `{"#": 0, "value": [x, y, z]}`.
    let x = geometry["vertices"][0]["value"][0].as_f64().unwrap() as f32 + 1.0;
    geometry["vertices"][0]["value"][0] = serde_json::json!(x);
    std::fs::write(&json_path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();

    let out_path = temp("plugin.out.esp");
    let o = navkit(&[
        "from-json",
        json_path.to_str().unwrap(),
        "-o",
        out_path.to_str().unwrap(),
    ]);
    if !o.status.success() {
        return Err(format!("from-json: {}", stderr(&o)));
    }
    // It reads back: every group is exactly filled, so record and group sizes are right.
    let written = std::fs::read(&out_path).unwrap();
    let after = Plugin.read(&written).map_err(|e| format!("re-read: {e}"))?;

    // The edited navmesh has that one vertex moved, and nothing else of its geometry changed.
    let nvnm_of = |p: &PluginFile| {
        p.records()
            .into_iter()
            .find(|r| is_navm(r, form_id))
            .and_then(|r| r.nvnm())
            .map(|b| Nvnm.read(b).unwrap())
            .unwrap()
    };
    let (mut old, new) = (nvnm_of(&before), nvnm_of(&after));
    assert_ne!(old, new, "{form_id:08X}: the edit did not arrive");
    old.vertices[0][0] = nav_core::RawF32::new(x);
    assert_eq!(old, new, "{form_id:08X}: more than the vertex changed");

    // Every other record is as it was, bit for bit (NAVI entries may be refreshed).
    let (a, b) = (before.records(), after.records());
    assert_eq!(a.len(), b.len());
    for (ra, rb) in a.iter().zip(&b) {
        let navi = matches!(ra.body, RecordBody::NavigationInfo(_));
        if !is_navm(ra, form_id) && !navi {
            assert_eq!(ra, rb, "record {:08X} changed", ra.form_id);
        }
    }
    println!(
        "{}: NAVM {form_id:08X} vertex 0 edited through JSON; {} other records unchanged",
        path.display(),
        a.len() - 1
    );
    Ok(())
}

#[test]
fn a_vertex_edited_in_a_plugins_json_comes_back_with_everything_else_unchanged() {
    let files: Vec<_> = real_files("skyrim")
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| {
            matches!(
                f.extension().and_then(|e| e.to_str()),
                Some("esp" | "esm" | "esl")
            )
        })
        .collect();
    if files.is_empty() {
        nav_core::testing::skip_without_corpus("no real plugin in the skyrim corpus folder");
        return;
    }
    let failures: Vec<String> = files
        .iter()
        .filter_map(|f| {
            edit_one_vertex(f)
                .err()
                .map(|e| format!("{}: {e}", f.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A FormID in JSON: 8 hex digits (`"0410E930"`), as the model writes it.
fn form_id_of(v: &serde_json::Value) -> Option<u32> {
    u32::from_str_radix(v.as_str()?, 16).ok()
}

/// FormIDs are 8 hex digits in JSON; a document that holds them as numbers (as older ones do)
/// reads back to the same bytes, and a string that is not a FormID is refused naming its JSON
/// path: on the sample plugin, its record FormIDs and the NVNM parent cells inside.
#[test]
fn form_ids_are_hex_in_json_and_numbers_are_still_read() {
    let plugin = common::workspace().join("samples/skyrim/navkit_room.esp");
    let original = std::fs::read(&plugin).unwrap();
    let json_path = temp("form_ids.json");
    let o = navkit(&[
        "to-json",
        plugin.to_str().unwrap(),
        "-o",
        json_path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&json_path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut shown = Vec::new();
    navmeshes_in_json(&json, &mut shown).unwrap();
    let &form_id = shown.first().expect("the sample plugin has a navmesh");
    assert!(
        text.contains(&format!("\"form_id\": \"{form_id:08X}\"")),
        "the record FormID is not 8 hex digits"
    );
    let from_json = |doc: &serde_json::Value| {
        std::fs::write(&json_path, serde_json::to_vec(doc).unwrap()).unwrap();
        let out = temp("form_ids.esp");
        let o = navkit(&[
            "from-json",
            json_path.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        o.status
            .success()
            .then(|| std::fs::read(&out).unwrap())
            .ok_or_else(|| stderr(&o))
    };
    // Numbers where the hex strings were: the same plugin.
    let mut numbers = json.clone();
    let mut turned = 0;
    to_numbers(&mut numbers, &mut turned);
    assert!(turned >= 2, "only {turned} FormIDs turned into numbers");
    assert_eq!(from_json(&numbers).unwrap(), original);
    // A FormID that is not hex digits: refused, with where it is.
    let mut bad = json.clone();
    let geometry = find_navmesh(&mut bad, form_id).unwrap();
    let parent = geometry["parent"].as_object_mut().unwrap();
    let (kind, fields) = parent.iter_mut().next().unwrap();
    let kind = kind.clone();
    let field = if kind == "Cell" { "cell" } else { "worldspace" };
    fields[field] = serde_json::json!("0x12345G");
    let e = from_json(&bad).unwrap_err();
    assert!(
        e.contains(&format!("navmesh.parent.{kind}.{field}"))
            && e.contains("expected a FormID")
            && e.contains("0x12345G"),
        "{e}"
    );
}

/// Turns every FormID field (`form_id`, and `cell` or `worldspace` of a parent) that holds hex
/// digits into the number they spell; counts them in `turned`.
fn to_numbers(v: &mut serde_json::Value, turned: &mut usize) {
    match v {
        serde_json::Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                let id = matches!(k.as_str(), "form_id" | "cell" | "worldspace")
                    .then(|| form_id_of(x))
                    .flatten();
                match id {
                    Some(id) => {
                        *x = serde_json::json!(id);
                        *turned += 1;
                    }
                    None => to_numbers(x, turned),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(|x| to_numbers(x, turned)),
        _ => {}
    }
}
