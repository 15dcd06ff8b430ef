//! The navmesh info map (`NAVI`): every corpus plugin's record read as data and written back
//! byte for byte, hand-built edge cases, validation across records, and the `NVMI` update
//! after a navmesh is replaced.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::testing::{LeBuilder, corpus_dir, corpus_files};
use nav_core::{ErrorKind, Format, RawF32, Severity};
use nvnm_skyrim::plugin::navi::sync;
use nvnm_skyrim::plugin::navi::{
    DoorLink, Island, NaviBody, NaviField, NaviSubrecord, NaviView, NavmeshInfo, PreferredPathing,
    RoadMarkerNode, field_bytes,
};
use nvnm_skyrim::plugin::{
    COMPRESSED, Compression, DELETED, Group, Item, PluginFile, Record, RecordBody, Signature,
};
use nvnm_skyrim::{Nvnm, Plugin, samples};

/// The plugins directly in the corpus's `skyrim/` folder, with their names.
fn corpus_plugins() -> Option<Vec<(String, Vec<u8>)>> {
    let dir = corpus_dir("skyrim")?;
    let out: Vec<_> = corpus_files(&dir)
        .into_iter()
        .filter(|p| p.parent() == Some(dir.as_path()))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    assert!(!out.is_empty(), "no plugins in {}", dir.display());
    Some(out)
}

#[test]
fn every_corpus_navi_reads_as_data_and_writes_back_byte_for_byte() {
    let Some(plugins) = corpus_plugins() else {
        return;
    };
    let (mut navis, mut entries, mut pathing) = (0usize, 0usize, 0usize);
    for (name, bytes) in &plugins {
        let view = Plugin.parse(bytes).unwrap();
        let model = Plugin.to_model(&view);
        let mut here = 0;
        for r in view.records().filter(|r| &r.header().signature == b"NAVI") {
            let navi = r.navi().unwrap();
            // Everything reads as its type: nothing is left raw.
            for s in navi.subrecords() {
                assert!(
                    !matches!(
                        s.field(),
                        nvnm_skyrim::plugin::navi::NaviFieldView::Other { .. }
                    ),
                    "{name}: {} at {:#x} did not read",
                    s.signature(),
                    s.offset()
                );
                if let nvnm_skyrim::plugin::navi::NaviFieldView::NavmeshInfo(n) = &s.field() {
                    assert!(n.trailing().is_empty(), "{name}: NVMI with trailing bytes");
                }
            }
            let record = model
                .records()
                .into_iter()
                .find(|m| m.form_id == r.form_id() && &m.signature.0 == b"NAVI")
                .unwrap();
            let body = record.navi().unwrap();
            assert_eq!(body.compression, Compression::None, "{name}");
            // The structured fields alone give the record's data back.
            let written = nvnm_skyrim::plugin::navi::subrecord_bytes(body, r.form_id()).unwrap();
            assert_eq!(written, r.data(), "{name}: NAVI differs when rewritten");
            // And so does JSON.
            let json = serde_json::to_string(body).unwrap();
            let back: NaviBody = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, body, "{name}: NAVI differs after JSON");
            let version = body.version().unwrap();
            assert!(version == 12 || version == 15, "{name}: NVER {version}");
            here += body.navmesh_infos().count();
            let p = body
                .subrecords
                .iter()
                .find_map(|s| match &s.field {
                    NaviField::PreferredPathing(p) => Some(p),
                    _ => None,
                })
                .unwrap();
            assert_eq!(p.paths.len(), p.nodes.len() * p.nodes.len(), "{name}");
            pathing += 1;
            navis += 1;
        }
        assert!(here > 0, "{name}: no NVMI entries");
        entries += here;
        // The whole plugin still comes back byte for byte.
        assert_eq!(&Plugin.write(&model).unwrap(), bytes, "{name}");
    }
    eprintln!(
        "NAVI: {} plugins, {navis} NAVI records, {entries} NVMI entries, {pathing} NVPP, all \
         byte-exact",
        plugins.len()
    );
    assert_eq!(navis, plugins.len(), "every corpus plugin has one NAVI");
}

#[test]
fn corpus_entries_agree_with_their_navmeshes() {
    let Some(plugins) = corpus_plugins() else {
        return;
    };
    let (mut local, mut islands) = (0usize, 0usize);
    for (name, bytes) in &plugins {
        let model = Plugin.read(bytes).unwrap();
        let meshes: Vec<(u32, nvnm_skyrim::NavmeshGeometry)> = model
            .navmeshes()
            .into_iter()
            .map(|(id, n)| (id, Nvnm.read(n).unwrap()))
            .collect();
        for r in model.records() {
            let Some(navi) = r.navi() else { continue };
            for info in navi.navmesh_infos() {
                let Some((_, mesh)) = meshes.iter().find(|(id, _)| *id == info.navmesh) else {
                    continue;
                };
                local += 1;
                // The centre, bounds, parent and edge-link set are what the NVNM gives.
                assert_eq!(
                    sync::disagreements(info, mesh),
                    Vec::<String>::new(),
                    "{name} {:08X}",
                    info.navmesh
                );
                // So bringing the entry up to date changes nothing.
                let mut copy = info.clone();
                assert!(
                    !sync::update(&mut copy, mesh),
                    "{name} {:08X}",
                    info.navmesh
                );
                islands += usize::from(info.island.is_some());
            }
        }
    }
    eprintln!("NVMI: {local} entries of navmeshes in the same plugin agree, {islands} islands");
    assert!(
        local >= 131 && islands >= 73,
        "{local} local entries, {islands} islands"
    );
}

/// One `NVMI` payload by hand: island with 1 triangle and 3 vertices, 2 doors, in a worldspace.
fn nvmi_bytes() -> Vec<u8> {
    LeBuilder::new()
        .u32(0x0001_2345) // navmesh
        .u32(0x60)
        .vec3(1.0, 2.0, 3.0)
        .f32(0.25)
        .u32(2)
        .u32(0x10)
        .u32(0x11)
        .u32(1)
        .u32(0x20)
        .u32(2)
        .u32(0xE48B_73F3)
        .u32(0x30)
        .u32(0xE48B_73F3)
        .u32(0x31)
        .u8(1)
        .vec3(0.0, 0.0, 0.0)
        .vec3(4.0, 4.0, 4.0)
        .u32(1)
        .u16(0)
        .u16(1)
        .u16(2)
        .u32(3)
        .vec3(0.0, 0.0, 0.0)
        .vec3(4.0, 0.0, 0.0)
        .vec3(0.0, 4.0, 4.0)
        .u32(0xA5E9_A03C)
        .u32(0x3C)
        .i16(-7) // grid y
        .i16(12) // grid x
        .finish()
}

fn navi_bytes(nvmi: &[u8]) -> Vec<u8> {
    let sub = |sig: &[u8], data: &[u8]| {
        LeBuilder::new()
            .bytes(sig)
            .u16(data.len() as u16)
            .bytes(data)
            .finish()
    };
    let nvpp = LeBuilder::new()
        .u32(1)
        .u32(1)
        .u32(0x0001_2345)
        .u32(1)
        .u32(0x0001_2345)
        .u32(0)
        .finish();
    [
        sub(b"NVER", &12u32.to_le_bytes()),
        sub(b"NVMI", nvmi),
        sub(b"NVPP", &nvpp),
    ]
    .concat()
}

#[test]
fn a_hand_built_entry_reads_field_by_field() {
    let data = navi_bytes(&nvmi_bytes());
    let view = NaviView::parse(&data).unwrap();
    let body = NaviBody::from_view(&view, Compression::None);
    let info = body.navmesh_infos().next().unwrap();
    assert_eq!(info.navmesh, 0x0001_2345);
    assert_eq!(info.flags, 0x60);
    assert_eq!(info.unknown, RawF32::new(0.25));
    assert_eq!(info.edge_links, vec![0x10, 0x11]);
    assert_eq!(info.preferred_edge_links, vec![0x20]);
    assert_eq!(
        info.doors,
        vec![
            DoorLink {
                door_type: 0xE48B_73F3,
                door: 0x30
            },
            DoorLink {
                door_type: 0xE48B_73F3,
                door: 0x31
            }
        ]
    );
    let island = info.island.as_ref().unwrap();
    assert_eq!(island.triangles, vec![[0, 1, 2]]);
    assert_eq!(island.vertices.len(), 3);
    assert_eq!(
        info.parent,
        nvnm_skyrim::nvnm::Parent::Worldspace {
            worldspace: 0x3C,
            grid_x: 12,
            grid_y: -7
        }
    );
    let p = body
        .subrecords
        .iter()
        .find_map(|s| match &s.field {
            NaviField::PreferredPathing(p) => Some(p.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        p,
        PreferredPathing {
            paths: vec![vec![0x0001_2345]],
            nodes: vec![RoadMarkerNode {
                navmesh: 0x0001_2345,
                index: 0
            }],
            trailing: vec![],
        }
    );
    assert_eq!(
        nvnm_skyrim::plugin::navi::subrecord_bytes(&body, 1).unwrap(),
        data
    );
}

#[test]
fn a_truncated_entry_fails_at_every_length_and_is_kept_raw() {
    let nvmi = nvmi_bytes();
    for len in 0..nvmi.len() {
        let cut = &nvmi[..len];
        let err = nvnm_skyrim::plugin::navi::NavmeshInfoView::parse(cut).unwrap_err();
        assert!(err.offset().is_some_and(|o| o <= len), "{len}: {err}");
        assert!(err.to_string().starts_with("skyrim-plugin: "), "{err}");
        // Inside a record, the entry stays raw and the rest still reads.
        let data = navi_bytes(cut);
        let view = NaviView::parse(&data).unwrap();
        let body = NaviBody::from_view(&view, Compression::None);
        assert!(matches!(
            &body.subrecords[1].field,
            NaviField::Other { data, .. } if data == cut
        ));
        assert_eq!(
            nvnm_skyrim::plugin::navi::subrecord_bytes(&body, 1).unwrap(),
            data
        );
    }
    // Bytes after the parent are kept.
    let mut longer = nvmi.clone();
    longer.extend([9, 9]);
    let view = nvnm_skyrim::plugin::navi::NavmeshInfoView::parse(&longer).unwrap();
    assert_eq!(view.trailing(), &[9, 9]);
}

#[test]
fn absurd_counts_are_refused_before_allocating() {
    let mut nvmi = nvmi_bytes();
    nvmi[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = nvnm_skyrim::plugin::navi::NavmeshInfoView::parse(&nvmi).unwrap_err();
    assert!(
        matches!(
            err.kind(),
            ErrorKind::CountTooLarge {
                count: 4_294_967_295,
                offset: 28,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("edge links"), "{err}");
    let nvpp = LeBuilder::new().u32(u32::MAX).u32(0).finish();
    let err = nvnm_skyrim::plugin::navi::PreferredPathingView::parse(&nvpp).unwrap_err();
    assert!(err.to_string().contains("paths: count 4294967295"), "{err}");
    let nvpp = LeBuilder::new().u32(1).u32(0x4000_0000).finish();
    let err = nvnm_skyrim::plugin::navi::PreferredPathingView::parse(&nvpp).unwrap_err();
    assert!(err.to_string().contains("paths[0]"), "{err}");
}

#[test]
fn the_writer_refuses_what_a_read_would_not_give_back() {
    let data = navi_bytes(&nvmi_bytes());
    let body = NaviBody::from_view(&NaviView::parse(&data).unwrap(), Compression::None);
    let mut info = body.navmesh_infos().next().unwrap().clone();
    let at = || "test".to_string();
    info.island.as_mut().unwrap().marker = 0;
    assert!(field_bytes(&NaviField::NavmeshInfo(info.clone()), &at).is_err());
    info.island = None;
    info.parent = nvnm_skyrim::nvnm::Parent::Worldspace {
        worldspace: 0,
        grid_x: 1,
        grid_y: 1,
    };
    let err = field_bytes(&NaviField::NavmeshInfo(info), &at).unwrap_err();
    assert!(err.to_string().contains("worldspace 0"), "{err}");
    // A raw NVMI that reads as one.
    let raw = NaviField::Other {
        signature: Signature(*b"NVMI"),
        data: nvmi_bytes(),
    };
    assert!(field_bytes(&raw, &at).is_err());
    let raw = NaviField::Other {
        signature: Signature(*b"XXXX"),
        data: vec![],
    };
    let mut b = body.clone();
    b.subrecords.push(NaviSubrecord {
        field: raw,
        large: None,
    });
    assert!(nvnm_skyrim::plugin::navi::subrecord_bytes(&b, 1).is_err());
}

// ---- hand-made plugins ----

/// The sample plugin (navmeshes 00000801 and 00000802 in cell 00000800), with a `NAVI` that
/// lists both as the Creation Kit would.
fn plugin_with_navi(compressed: bool) -> PluginFile {
    let mut model = samples::plugin();
    let mut subrecords = vec![NaviSubrecord {
        field: NaviField::Version(12),
        large: None,
    }];
    for (id, nvnm) in model.navmeshes() {
        let mesh = Nvnm.read(nvnm).unwrap();
        let mut info = NavmeshInfo {
            navmesh: id,
            flags: 0,
            centre: [RawF32::ZERO; 3],
            unknown: RawF32::ZERO,
            edge_links: vec![],
            preferred_edge_links: vec![],
            doors: vec![],
            island: None,
            pathing_cell_crc: 0,
            parent: mesh.parent,
            trailing: vec![],
        };
        if id == 0x802 {
            info.flags = 0x20;
            info.island = Some(Island {
                marker: 1,
                min: [RawF32::ZERO; 3],
                max: [RawF32::ZERO; 3],
                triangles: vec![],
                vertices: vec![],
            });
        }
        sync::update(&mut info, &mesh);
        subrecords.push(NaviSubrecord {
            field: NaviField::NavmeshInfo(info),
            large: None,
        });
    }
    subrecords.push(NaviSubrecord {
        field: NaviField::PreferredPathing(PreferredPathing {
            paths: vec![],
            nodes: vec![],
            trailing: vec![],
        }),
        large: None,
    });
    let navi = Record {
        signature: Signature(*b"NAVI"),
        flags: if compressed { COMPRESSED } else { 0 },
        form_id: 0x0001_2FB4,
        timestamp: 0,
        version_control: 0,
        form_version: 44,
        version_control_2: 0,
        body: RecordBody::NavigationInfo(NaviBody {
            compression: if compressed {
                Compression::Zlib { level: 9 }
            } else {
                Compression::None
            },
            subrecords,
        }),
    };
    model.items.push(Item::Group(Group {
        label: u32::from_le_bytes(*b"NAVI"),
        group_type: 0,
        timestamp: 0,
        version_control: 0,
        unknown: 0,
        items: vec![Item::Record(navi)],
    }));
    model
}

fn navi_of(model: &mut PluginFile) -> &mut NaviBody {
    for item in &mut model.items {
        if let Item::Group(g) = item {
            for i in &mut g.items {
                if let Item::Record(Record {
                    body: RecordBody::NavigationInfo(n),
                    ..
                }) = i
                {
                    return n;
                }
            }
        }
    }
    panic!("no NAVI")
}

fn findings(model: &PluginFile) -> Vec<String> {
    Plugin
        .validate(model)
        .into_iter()
        .filter(|f| f.location.starts_with("NAV") && !f.location.contains(" NVNM"))
        .map(|f| f.to_string())
        .collect()
}

#[test]
fn a_plugin_with_a_navi_round_trips_plain_and_compressed() {
    for compressed in [false, true] {
        let model = plugin_with_navi(compressed);
        let bytes = Plugin.write(&model).unwrap();
        let back = Plugin.read(&bytes).unwrap();
        assert_eq!(back, model);
        assert_eq!(Plugin.write(&back).unwrap(), bytes);
        assert_eq!(
            findings(&back),
            Vec::<String>::new(),
            "compressed {compressed}"
        );
        // A raw NAVI body is refused: a read opens it.
        let mut raw = back.clone();
        let navi = navi_of(&mut raw).clone();
        for item in &mut raw.items {
            if let Item::Group(g) = item {
                for i in &mut g.items {
                    if let Item::Record(r) = i {
                        if r.navi().is_some() {
                            r.body = RecordBody::Raw(vec![]);
                        }
                    }
                }
            }
        }
        assert!(Plugin.write(&raw).is_err());
        assert!(navi.navmesh_infos().count() == 2);
    }
    // The text dump shows the entries as data.
    let mut text = String::new();
    Plugin.dump(&plugin_with_navi(false), &mut text).unwrap();
    insta::assert_snapshot!(text);
}

#[test]
fn validate_names_an_entry_without_its_navmesh_and_a_centre_outside_the_bounds() {
    let mut model = plugin_with_navi(false);
    let navi = navi_of(&mut model);
    let mut ghost = navi.navmesh_infos().next().unwrap().clone();
    ghost.navmesh = 0x0000_0999;
    navi.subrecords.insert(
        1,
        NaviSubrecord {
            field: NaviField::NavmeshInfo(ghost),
            large: None,
        },
    );
    let first = navi.navmesh_info_mut(0x801).unwrap();
    first.centre[0] = RawF32::new(1.0e6);
    let second = navi.navmesh_info_mut(0x802).unwrap();
    second.flags = 0;
    let f = findings(&model);
    insta::assert_snapshot!(f.join("\n"));
    assert!(f.iter().any(|l| l.contains("NVMI[0] 00000999")
        && l.contains("no such NAVM")
        && l.starts_with("warning")));
    assert!(
        f.iter()
            .any(|l| l.contains("00000801") && l.contains("outside the navmesh's bounds"))
    );
    assert!(
        f.iter()
            .any(|l| l.contains("00000802") && l.contains("island flag 0x20 is clear"))
    );
}

#[test]
fn a_deleted_navmesh_is_an_error_with_its_cell() {
    let mut model = plugin_with_navi(false);
    // Delete navmesh 00000802: flag 0x20, empty body, and no NVMI entry (as the CK leaves it).
    fn delete(items: &mut [Item]) {
        for item in items {
            match item {
                Item::Group(g) => delete(&mut g.items),
                Item::Record(r) if r.form_id == 0x802 => {
                    r.flags |= DELETED;
                    r.body = RecordBody::Navmesh(nvnm_skyrim::plugin::NavmeshBody {
                        compression: Compression::None,
                        subrecords: vec![],
                    });
                }
                Item::Record(_) => {}
            }
        }
    }
    delete(&mut model.items);
    let navi = navi_of(&mut model);
    navi.subrecords
        .retain(|s| !matches!(&s.field, NaviField::NavmeshInfo(n) if n.navmesh == 0x802));
    // The entry of 00000801 still lists it among its edge links.
    navi.navmesh_info_mut(0x801).unwrap().edge_links.push(0x802);
    let bytes = Plugin.write(&model).unwrap();
    let back = Plugin.read(&bytes).unwrap();
    let all = Plugin.validate(&back);
    let errors: Vec<_> = all
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 1, "{all:#?}");
    let e = errors[0].to_string();
    assert!(
        e.starts_with("error: NAVM 00000802: deleted navmesh"),
        "{e}"
    );
    assert!(e.contains("in cell 00000800"), "{e}");
    assert!(e.contains("crashes"), "{e}");
    assert!(
        e.contains("(the NAVI entries of 00000801 list it among their edge links)"),
        "{e}"
    );
}

#[test]
fn corpus_plugins_report_what_they_hold() {
    let Some(plugins) = corpus_plugins() else {
        return;
    };
    let mut report = String::new();
    for (name, bytes) in &plugins {
        let model = Plugin.read(bytes).unwrap();
        let f: Vec<_> = nvnm_skyrim::plugin::validate::across_records(&model);
        let count = |s: Severity| f.iter().filter(|x| x.severity == s).count();
        report.push_str(&format!(
            "{name}: {} errors, {} warnings, {} notes\n",
            count(Severity::Error),
            count(Severity::Warning),
            count(Severity::Info)
        ));
        for x in f.iter().filter(|x| x.severity != Severity::Info) {
            report.push_str(&format!("  {x}\n"));
        }
        if name == "Dwemer Secrets.esp" {
            assert!(
                f.iter().any(|x| x.severity == Severity::Error
                    && x.location == "NAVM 000F26C9"
                    && x.message.contains("Skyrim.esm's navmesh")),
                "{f:#?}"
            );
        } else {
            assert_eq!(count(Severity::Error), 0, "{name}: {f:#?}");
        }
    }
    insta::assert_snapshot!(report);
}

#[test]
fn replacing_a_navmesh_brings_its_entry_up_to_date() {
    let model = plugin_with_navi(false);
    let bytes = Plugin.write(&model).unwrap();
    // The same navmesh: not a byte changes.
    let nvnm = model
        .navmeshes()
        .into_iter()
        .find(|(id, _)| *id == 0x802)
        .map(|(_, n)| n.to_vec())
        .unwrap();
    assert_eq!(Plugin::replace_nvnm(&bytes, 0x802, &nvnm).unwrap(), bytes);
    // Moved by +1000 in x, and into another cell: centre, bounds and parent follow.
    let mut mesh = Nvnm.read(&nvnm).unwrap();
    for v in &mut mesh.vertices {
        v[0] = RawF32::new(v[0].get() + 1000.0);
    }
    mesh.parent = nvnm_skyrim::nvnm::Parent::Cell { cell: 0x0000_0777 };
    let moved = Nvnm.write(&mesh).unwrap();
    let out = Plugin::replace_nvnm(&bytes, 0x802, &moved).unwrap();
    let mut back = Plugin.read(&out).unwrap();
    let before = navi_of(&mut model.clone())
        .navmesh_info_mut(0x802)
        .unwrap()
        .clone();
    let after = navi_of(&mut back).navmesh_info_mut(0x802).unwrap().clone();
    assert_eq!(after.centre, sync::centre(&mesh.vertices).unwrap());
    assert_eq!(
        after.centre[0].get(),
        before.centre[0].get() + 1000.0,
        "{before:?} {after:?}"
    );
    let (min, max) = sync::bounds(&mesh.vertices).unwrap();
    let island = after.island.as_ref().unwrap();
    assert_eq!((island.min, island.max), (min, max));
    assert_eq!(after.parent, mesh.parent);
    // Kept: flags, the island's summary mesh, the other entry.
    assert_eq!(after.flags, before.flags);
    assert_eq!(island.vertices, before.island.as_ref().unwrap().vertices);
    assert_eq!(
        navi_of(&mut back).navmesh_info_mut(0x801),
        navi_of(&mut model.clone()).navmesh_info_mut(0x801)
    );
    assert!(findings(&back).is_empty(), "{:?}", findings(&back));
}

#[test]
fn replacing_a_corpus_navmesh_with_itself_leaves_the_plugin_unchanged() {
    let Some(plugins) = corpus_plugins() else {
        return;
    };
    for (name, bytes) in &plugins {
        let model = Plugin.read(bytes).unwrap();
        let (id, nvnm) = model.navmeshes()[0];
        assert_eq!(
            &Plugin::replace_nvnm(bytes, id, nvnm).unwrap(),
            bytes,
            "{name}"
        );
        // Forcing the update changes nothing either: every corpus entry is up to date.
        let mut m = model.clone();
        assert_eq!(m.update_navmesh_info(id), 0, "{name}");
    }
}

#[test]
fn the_dump_shows_a_corpus_navi_field_by_field() {
    let Some(dir) = corpus_dir("skyrim") else {
        return;
    };
    let model = Plugin
        .read(&std::fs::read(dir.join("Mundusform.esp")).unwrap())
        .unwrap();
    let mut text = String::new();
    Plugin.dump(&model, &mut text).unwrap();
    // The top group NAVI and what it holds, up to the next top group.
    let start = text.find("GRUP type 0 label NAVI").unwrap();
    let rest = &text[start..];
    let end = rest[1..].find("\nGRUP ").map_or(rest.len(), |e| e + 1);
    let navi = &rest[..end];
    assert!(navi.contains("NVMI[11] 000B87DF flags 0x40"), "{navi}");
    assert!(
        navi.contains("NVPP 100 paths, 10 road-marker nodes"),
        "{navi}"
    );
    insta::assert_snapshot!(navi);
}

#[test]
fn arbitrary_navi_bodies_write_and_read_back_or_are_refused() {
    use arbitrary::{Arbitrary, Unstructured};
    let (mut written, mut refused) = (0, 0);
    for seed in 0..2000u64 {
        let data = nav_core::testing::noise(seed ^ 0x4E41_5649, 64 + (seed as usize % 7) * 48);
        let Ok(mut body) = NaviBody::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        body.compression = Compression::None;
        match nvnm_skyrim::plugin::navi::subrecord_bytes(&body, 1) {
            Ok(bytes) => {
                let back =
                    NaviBody::from_view(&NaviView::parse(&bytes).unwrap(), Compression::None);
                assert_eq!(back, body, "seed {seed}");
                written += 1;
            }
            Err(e) => {
                assert!(
                    e.to_string()
                        .starts_with("skyrim-plugin: NAVI record 00000001"),
                    "{e}"
                );
                refused += 1;
            }
        }
    }
    eprintln!("{written} NAVI bodies written and read back, {refused} refused");
    assert!(
        written > 500 && refused > 0,
        "{written} written, {refused} refused"
    );
}

#[test]
fn a_corpus_navi_cut_anywhere_never_panics() {
    let Some(plugins) = corpus_plugins() else {
        return;
    };
    let (_, bytes) = plugins
        .iter()
        .find(|(n, _)| n == "Mundusform.esp")
        .or(plugins.first())
        .unwrap();
    let view = Plugin.parse(bytes).unwrap();
    let navi = view
        .records()
        .find(|r| &r.header().signature == b"NAVI")
        .unwrap();
    let data = navi.data();
    let mut cuts = 0;
    // Every byte of the first 2 KiB (NVER and the NVMI entries), then every 61st.
    for len in (0..data.len()).filter(|&l| l < 2048 || l % 61 == 0) {
        match NaviView::parse(&data[..len]) {
            Err(e) => assert!(e.offset().is_some_and(|o| o <= len), "{len}: {e}"),
            Ok(v) => {
                // The framing held: the subrecord cut short stays raw and writes back as is.
                let body = NaviBody::from_view(&v, Compression::None);
                assert_eq!(
                    nvnm_skyrim::plugin::navi::subrecord_bytes(&body, 1).unwrap(),
                    &data[..len]
                );
            }
        }
        cuts += 1;
    }
    assert!(cuts > 2000);
}

/// Replaces, anywhere in a JSON tree, the string `from` with `to`; returns how many it replaced.
/// The structured NVNM geometry of record `form_id` in a plugin's JSON.
fn navmesh_json(v: &mut serde_json::Value, form_id: u32) -> Option<&mut serde_json::Value> {
    match v {
        serde_json::Value::Object(o) => {
            if o.get("signature").and_then(|s| s.as_str()) == Some("NAVM")
                && o.get("form_id").and_then(form_id_of) == Some(form_id)
            {
                let subs = o
                    .get_mut("body")?
                    .get_mut("Navmesh")?
                    .get_mut("subrecords")?;
                return subs
                    .as_array_mut()?
                    .iter_mut()
                    .find(|s| s["signature"] == "NVNM")?
                    .get_mut("navmesh");
            }
            o.values_mut().find_map(|x| navmesh_json(x, form_id))
        }
        serde_json::Value::Array(a) => a.iter_mut().find_map(|x| navmesh_json(x, form_id)),
        _ => None,
    }
}

#[test]
fn a_navmesh_edited_in_json_brings_its_entry_up_to_date_on_refresh() {
    let model = plugin_with_navi(false);
    let nvnm = model
        .navmeshes()
        .into_iter()
        .find(|(id, _)| *id == 0x802)
        .map(|(_, n)| n.to_vec())
        .unwrap();
    // Unedited: refresh changes nothing, so to-json then from-json gives the same bytes.
    let mut same = model.clone();
    assert!(Plugin.refresh(&mut same).is_empty());
    assert_eq!(same, model);
    // The navmesh moved by +500 in y, edited in the plugin's JSON as a user would: the NVNM
    // subrecord shows as geometry, not hex.
    let mut mesh = Nvnm.read(&nvnm).unwrap();
    for v in &mut mesh.vertices {
        v[1] = RawF32::new(v[1].get() + 500.0);
    }
    let mut json = serde_json::to_value(&model).unwrap();
    let geometry = navmesh_json(&mut json, 0x802).expect("NVNM shown as geometry");
    let vertices = geometry["vertices"].as_array_mut().unwrap();
    assert_eq!(vertices.len(), mesh.vertices.len());
    for v in vertices.iter_mut() {
        let y = v[1].as_f64().unwrap() as f32 + 500.0;
        v[1] = serde_json::json!(y);
    }
    let mut edited: PluginFile = serde_json::from_value(json).unwrap();
    let stale = findings(&edited);
    assert!(
        !stale.is_empty(),
        "the stale entry is reported before the refresh"
    );
    let lines = Plugin.refresh(&mut edited);
    assert_eq!(
        lines,
        ["NVMI 00000802: brought up to date with its edited NVNM"]
    );
    let entry = navi_of(&mut edited)
        .navmesh_info_mut(0x802)
        .unwrap()
        .clone();
    assert_eq!(entry.centre, sync::centre(&mesh.vertices).unwrap());
    assert!(findings(&edited).is_empty(), "{:?}", findings(&edited));
    // A second refresh has nothing left to do, and the plugin writes and reads back equal.
    assert!(Plugin.refresh(&mut edited).is_empty());
    let out = Plugin.write(&edited).unwrap();
    assert_eq!(Plugin.read(&out).unwrap(), edited);
}

/// A FormID in JSON: 8 hex digits (`"0410E930"`), as the model writes it.
fn form_id_of(v: &serde_json::Value) -> Option<u32> {
    u32::from_str_radix(v.as_str()?, 16).ok()
}
