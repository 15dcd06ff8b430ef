//! `navkit conflicts` end to end: the corpus's two plugins with 30 equal FormIDs, and a
//! hand-made plugin that still links to the navmesh a corpus plugin deletes.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::PathBuf;

use nav_core::Format;
use nvnm_skyrim::plugin::{Item, RecordBody};
use nvnm_skyrim::{Nvnm, Plugin, samples};

mod common;
use common::{navkit, stderr, stdout};

#[test]
fn two_corpus_plugins_with_30_equal_formids() {
    let Some(dir) = nav_core::testing::corpus_dir("skyrim") else {
        return;
    };
    let a = dir.join("Mundusform_4067dc7.esp");
    let b = dir.join("Undaunted.esp");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let o = navkit(&["conflicts", a, b]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("30 navmeshes defined by more than one plugin (0 overrides"),
        "{out}"
    );
    assert!(out.contains("0 deleted navmeshes"), "{out}");
    let o = navkit(&["conflicts", "--json", a, b]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let shared = v["shared"].as_array().unwrap();
    assert_eq!(shared.len(), 30);
    assert!(shared.iter().all(|s| s["winner"] == "Undaunted.esp"));
    assert!(shared.iter().all(|s| s["kind"] == "SameFormId"));
    assert_eq!(v["plugins"][0], "Mundusform_4067dc7.esp");
}

/// The sample plugin, with Skyrim.esm as master and its navmesh 00000801 turned into an
/// override of Skyrim.esm's 000B0001: the exterior sample, its edge links all to 000F26C9.
fn linking_plugin() -> Vec<u8> {
    let mut m = samples::plugin();
    if let RecordBody::Raw(h) = &mut m.header.body {
        for (sig, data) in [(&b"MAST", &b"Skyrim.esm\0"[..]), (&b"DATA", &[0u8; 8][..])] {
            h.extend(*sig);
            h.extend((data.len() as u16).to_le_bytes());
            h.extend(data);
        }
    }
    let mut stack: Vec<&mut Item> = m.items.iter_mut().collect();
    while let Some(item) = stack.pop() {
        match item {
            Item::Group(g) => stack.extend(g.items.iter_mut()),
            Item::Record(r) if r.form_id == 0x801 => {
                r.form_id = 0x000B_0001;
                if let RecordBody::Navmesh(body) = &mut r.body {
                    let mut mesh = samples::exterior();
                    mesh.edge_links
                        .iter_mut()
                        .for_each(|l| l.navmesh = 0x000F_26C9);
                    body.subrecords[0].data = Nvnm.write(&mesh).unwrap();
                }
            }
            Item::Record(_) => {}
        }
    }
    Plugin.write(&m).unwrap()
}

#[test]
fn a_deleted_navmesh_still_linked_from_another_plugin() {
    let Some(dir) = nav_core::testing::corpus_dir("skyrim") else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("navkit-conflicts-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let linker: PathBuf = tmp.join("Linker.esp");
    std::fs::write(&linker, linking_plugin()).unwrap();
    let deleter = dir.join("Dwemer Secrets.esp");
    let o = navkit(&[
        "conflicts",
        deleter.to_str().unwrap(),
        linker.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1 deleted navmeshes"), "{out}");
    assert!(
        out.contains("000F26C9 (0F26C9:Skyrim.esm) deleted by Dwemer Secrets.esp in cell "),
        "{out}"
    );
    assert!(
        out.contains("still linked from Linker.esp NAVM 000B0001"),
        "{out}"
    );
    let o = navkit(&[
        "conflicts",
        "--json",
        deleter.to_str().unwrap(),
        linker.to_str().unwrap(),
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["deleted"][0]["linked_from"][0]["plugin"], "Linker.esp");
    assert_eq!(v["deleted"][0]["deletion_wins"], true);
    // Without the linking plugin, nothing links to it.
    let o = navkit(&["conflicts", deleter.to_str().unwrap()]);
    assert!(stdout(&o).contains("no navmesh of these plugins links to it"));
    // A file that is not a plugin: exit 1 with its name.
    let junk = tmp.join("junk.esp");
    std::fs::write(&junk, b"TES4").unwrap();
    let o = navkit(&["conflicts", junk.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("junk.esp"));
    // No plugin at all is a usage error.
    assert_eq!(navkit(&["conflicts"]).status.code(), Some(2));
}
