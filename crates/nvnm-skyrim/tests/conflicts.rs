//! Navmeshes shared by several plugins of a load order, and deleted navmeshes still linked to:
//! on the corpus (two plugins by one author with 30 equal FormIDs, one plugin that deletes a
//! Skyrim.esm navmesh) and on hand-made plugins.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::Format;
use nav_core::testing::corpus_dir;
use nvnm_skyrim::plugin::conflicts::{GeometryComparison, SharedKind, conflicts};
use nvnm_skyrim::plugin::{
    Compression, DELETED, Item, NavmeshBody, PluginFile, Record, RecordBody,
};
use nvnm_skyrim::{Nvnm, Plugin, samples};

fn corpus_plugin(name: &str) -> Option<PluginFile> {
    let dir = corpus_dir("skyrim")?;
    let bytes = std::fs::read(dir.join(name)).unwrap();
    Some(Plugin.read(&bytes).unwrap())
}

#[test]
fn two_plugins_by_one_author_share_30_formids() {
    let (Some(a), Some(b)) = (
        corpus_plugin("Mundusform_4067dc7.esp"),
        corpus_plugin("Undaunted.esp"),
    ) else {
        return;
    };
    let report = conflicts(&[("Mundusform_4067dc7.esp", &a), ("Undaunted.esp", &b)]);
    assert_eq!(report.shared.len(), 30, "{report}");
    // Both plugins have four masters, so mod index 04 is each one's own: the same numbers,
    // not the same records.
    assert!(
        report
            .shared
            .iter()
            .all(|s| s.kind == SharedKind::SameFormId)
    );
    assert!(report.shared.iter().all(|s| s.winner == "Undaunted.esp"));
    assert!(
        report
            .shared
            .iter()
            .all(|s| s.definitions.len() == 2 && s.definitions[0].form_id >> 24 == 4)
    );
    assert!(report.deleted.is_empty());
    let differ = report
        .shared
        .iter()
        .filter(|s| s.geometry != GeometryComparison::Identical)
        .count();
    eprintln!(
        "Mundusform_4067dc7 + Undaunted: {} shared FormIDs, {differ} with other NVNM data",
        report.shared.len()
    );
    insta::assert_snapshot!(report.to_string());
    // The other load order names the other winner.
    let reversed = conflicts(&[("Undaunted.esp", &b), ("Mundusform_4067dc7.esp", &a)]);
    assert_eq!(reversed.shared.len(), 30);
    assert!(
        reversed
            .shared
            .iter()
            .all(|s| s.winner == "Mundusform_4067dc7.esp")
    );
}

#[test]
fn the_deleted_navmesh_of_the_corpus_is_listed() {
    let Some(d) = corpus_plugin("Dwemer Secrets.esp") else {
        return;
    };
    let report = conflicts(&[("Dwemer Secrets.esp", &d)]);
    assert!(report.shared.is_empty());
    assert_eq!(report.deleted.len(), 1);
    let del = &report.deleted[0];
    assert_eq!(del.form_id, 0x000F_26C9);
    assert_eq!(del.navmesh.to_string(), "0F26C9:Skyrim.esm");
    assert!(del.deletion_wins);
    assert!(del.location.starts_with("cell "), "{}", del.location);
}

// ---- hand-made plugins ----

/// The sample plugin with `Skyrim.esm` as its one master, so that FormIDs with top byte 00 are
/// Skyrim.esm's and 01 the plugin's own.
fn with_master() -> PluginFile {
    let mut model = samples::plugin();
    if let RecordBody::Raw(data) = &mut model.header.body {
        let name = b"Skyrim.esm\0";
        data.extend(b"MAST");
        data.extend((name.len() as u16).to_le_bytes());
        data.extend(name);
        data.extend(b"DATA");
        data.extend(8u16.to_le_bytes());
        data.extend([0u8; 8]);
    }
    model
}

fn navmesh_records(items: &mut [Item], f: &mut dyn FnMut(&mut Record)) {
    for item in items {
        match item {
            Item::Group(g) => navmesh_records(&mut g.items, f),
            Item::Record(r) if &r.signature.0 == b"NAVM" => f(r),
            Item::Record(_) => {}
        }
    }
}

/// Plugin A deletes Skyrim.esm's navmesh 000F26C9 (its record 00000801 becomes that FormID).
fn deleting() -> PluginFile {
    let mut a = with_master();
    navmesh_records(&mut a.items, &mut |r| {
        if r.form_id == 0x801 {
            r.form_id = 0x000F_26C9;
            r.flags = DELETED;
            r.body = RecordBody::Navmesh(NavmeshBody {
                compression: Compression::None,
                subrecords: vec![],
            });
        } else {
            r.form_id = 0x0100_0802;
        }
    });
    a
}

/// Plugin B overrides Skyrim.esm's navmesh 000F0001 (record 00000801), whose edge links lead
/// to 000F26C9, and has its own navmesh 01000802.
fn linking(z: f32) -> PluginFile {
    let mut b = with_master();
    navmesh_records(&mut b.items, &mut |r| {
        if r.form_id == 0x801 {
            r.form_id = 0x000F_0001;
            let RecordBody::Navmesh(body) = &mut r.body else {
                unreachable!()
            };
            let sub = body
                .subrecords
                .iter_mut()
                .find(|s| &s.signature.0 == b"NVNM")
                .unwrap();
            // The exterior sample's two edge links, both to 000F26C9.
            let mut mesh = samples::exterior();
            mesh.edge_links
                .iter_mut()
                .for_each(|l| l.navmesh = 0x000F_26C9);
            mesh.vertices[0][2] = nav_core::RawF32::new(z);
            sub.data = Nvnm.write(&mesh).unwrap();
        } else {
            r.form_id = 0x0100_0802;
        }
    });
    b
}

#[test]
fn a_deleted_navmesh_another_plugin_links_to() {
    let a = deleting();
    let b = linking(0.0);
    // Each hand-made plugin survives the writer, so the report is about real files.
    for m in [&a, &b] {
        let bytes = Plugin.write(m).unwrap();
        assert_eq!(&Plugin.read(&bytes).unwrap(), m);
    }
    let report = conflicts(&[("A.esp", &a), ("B.esp", &b)]);
    assert_eq!(report.deleted.len(), 1, "{report}");
    let del = &report.deleted[0];
    assert_eq!(del.plugin, "A.esp");
    assert_eq!(del.location, "cell 00000800");
    assert!(del.deletion_wins);
    assert_eq!(del.linked_from.len(), 1, "{report}");
    assert_eq!(del.linked_from[0].plugin, "B.esp");
    assert_eq!(del.linked_from[0].navmesh, 0x000F_0001);
    assert!(del.linked_from[0].links >= 1);
    // 01000802 is each plugin's own: same FormID, different records.
    assert_eq!(report.shared.len(), 1, "{report}");
    assert_eq!(report.shared[0].kind, SharedKind::SameFormId);
    assert_eq!(report.shared[0].geometry, GeometryComparison::Identical);
    insta::assert_snapshot!(report.to_string());
}

#[test]
fn overrides_of_one_master_navmesh_compare_geometry_and_links() {
    let b1 = linking(0.0);
    let b2 = linking(5.0);
    let mut b3 = linking(0.0);
    // b3's override drops the link to 000F26C9 (points it at 000F0002 instead).
    navmesh_records(&mut b3.items, &mut |r| {
        if r.form_id == 0x000F_0001 {
            let RecordBody::Navmesh(body) = &mut r.body else {
                unreachable!()
            };
            let sub = &mut body.subrecords[0];
            let mut mesh = Nvnm.read(&sub.data).unwrap();
            for l in &mut mesh.edge_links {
                if l.navmesh == 0x000F_26C9 {
                    l.navmesh = 0x000F_0002;
                }
            }
            sub.data = Nvnm.write(&mesh).unwrap();
        }
    });
    let report = conflicts(&[("B1.esp", &b1), ("B2.esp", &b2), ("B3.esp", &b3)]);
    let o = report
        .shared
        .iter()
        .find(|s| s.kind == SharedKind::Override)
        .unwrap();
    assert_eq!(o.navmesh.to_string(), "0F0001:Skyrim.esm");
    assert_eq!(o.winner, "B3.esp");
    assert_eq!(o.geometry, GeometryComparison::Differs);
    let to = |t: &str| o.edge_links.iter().find(|l| l.target.to_string() == t);
    let gone = to("0F26C9:Skyrim.esm").unwrap();
    assert_eq!(gone.links[2], 0);
    assert!(gone.links[0] > 0 && gone.links[0] == gone.links[1]);
    let new = to("0F0002:Skyrim.esm").unwrap();
    assert_eq!(new.links[..2], [0, 0]);
    // Two identical overrides: nothing differs.
    let same = conflicts(&[("B1.esp", &b1), ("B1copy.esp", &b1)]);
    let o = same
        .shared
        .iter()
        .find(|s| s.kind == SharedKind::Override)
        .unwrap();
    assert_eq!(o.geometry, GeometryComparison::Identical);
    assert!(o.edge_links.is_empty());
    // A later plugin that defines the deleted navmesh again: the deletion does not win.
    let mut restore = linking(0.0);
    navmesh_records(&mut restore.items, &mut |r| {
        if r.form_id == 0x000F_0001 {
            r.form_id = 0x000F_26C9;
        }
    });
    let r = conflicts(&[("A.esp", &deleting()), ("R.esp", &restore)]);
    assert!(!r.deleted[0].deletion_wins, "{r}");
    assert!(r.to_string().contains("a later plugin defines it again"));
}
