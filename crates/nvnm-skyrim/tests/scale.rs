//! The game-scale plugin layout and the streaming writer, on sample navmeshes (the benchmark and
//! `examples/scale.rs` build the same layout from the corpus, at 20,000 navmeshes).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::Format;
use nav_core::oracle::roundtrip_bytes;
use nvnm_skyrim::plugin::{Compression, Item, PluginFile, Record, RecordBody};
use nvnm_skyrim::{Nvnm, Plugin, samples};

fn blobs() -> Vec<Vec<u8>> {
    let mut big = samples::floor(60, 0.0, 4);
    big.parent = nvnm_skyrim::nvnm::Parent::Cell { cell: 0x0000_0900 };
    // 60 × 60 quads: 7,200 triangles, so this payload needs the XXXX large form.
    [samples::interior(), samples::exterior(), big]
        .iter()
        .map(|m| Nvnm.write(m).unwrap())
        .collect()
}

#[test]
fn the_game_scale_layout_round_trips_and_names_every_navmesh() {
    let blobs = blobs();
    assert!(blobs[2].len() > usize::from(u16::MAX));
    let big = samples::game_scale_plugin(&blobs, 403, 4).unwrap();
    assert_eq!((big.navmeshes, big.compressed), (403, 101));
    let bytes = Plugin.write(&big.plugin).unwrap();
    let model = roundtrip_bytes(&Plugin, &bytes).unwrap();
    assert_eq!(model, big.plugin);
    let records = model.records_in_groups();
    let navmeshes: Vec<_> = records
        .iter()
        .filter(|(r, _)| &r.signature.0 == b"NAVM")
        .collect();
    assert_eq!(navmeshes.len(), 403);
    let compressed = navmeshes
        .iter()
        .filter(|(r, _)| matches!(&r.body, RecordBody::Navmesh(b) if b.compression != Compression::None))
        .count();
    assert_eq!(compressed, 101);
    // Each navmesh sits in a cell's temporary children, under an interior sub-block (2 → 3 → 6
    // → 9) or a worldspace's exterior sub-block (1 → 4 → 5 → 6 → 9).
    for (r, groups) in &navmeshes {
        let types: Vec<i32> = groups.iter().map(|g| g.group_type).collect();
        assert!(
            types == [0, 2, 3, 6, 9] || types == [0, 1, 4, 5, 6, 9],
            "{:08X}: {types:?}",
            r.form_id
        );
    }
    assert_eq!(
        navmeshes
            .iter()
            .filter(|(_, g)| g[0].label == u32::from_le_bytes(*b"CELL"))
            .count(),
        100
    );
    // The NAVI names every navmesh once, and agrees with each NVNM.
    let navi = model.records().into_iter().find_map(Record::navi).unwrap();
    let mut named: Vec<u32> = navi.navmesh_infos().map(|i| i.navmesh).collect();
    let mut ids: Vec<u32> = navmeshes.iter().map(|(r, _)| r.form_id).collect();
    named.sort_unstable();
    ids.sort_unstable();
    assert_eq!(named, ids);
    assert_eq!(navi.version(), Some(12));
    let mut refreshed = model.clone();
    assert!(Plugin.refresh(&mut refreshed).is_empty());
    assert!(
        Plugin
            .validate(&model)
            .iter()
            .all(|f| f.severity != nav_core::Severity::Error)
    );
}

#[test]
fn the_streaming_writer_refuses_before_any_byte() {
    let blobs = blobs();
    let mut big = samples::game_scale_plugin(&blobs, 40, 4).unwrap().plugin;
    // Break the last navmesh of the file: an NVNM too long for its 16-bit size.
    fn last_navmesh(items: &mut [Item]) -> Option<&mut Record> {
        items.iter_mut().rev().find_map(|i| match i {
            Item::Group(g) => last_navmesh(&mut g.items),
            Item::Record(r) if &r.signature.0 == b"NAVM" => Some(r),
            Item::Record(_) => None,
        })
    }
    let r = last_navmesh(&mut big.items).unwrap();
    let RecordBody::Navmesh(body) = &mut r.body else {
        panic!("not a navmesh");
    };
    body.subrecords[0].data = vec![0; 70_000];
    body.subrecords[0].large = None;
    let mut out = Vec::new();
    let err = Plugin.write_to(&big, &mut out).unwrap_err();
    let refused = nav_core::error::refused(&err).expect("a refusal, not an I/O error");
    assert!(
        refused.to_string().contains("subrecords[0] NVNM"),
        "{refused}"
    );
    assert!(
        out.is_empty(),
        "{} bytes written before the refusal",
        out.len()
    );
    assert_eq!(
        Plugin.write(&big).unwrap_err().to_string(),
        refused.to_string()
    );
}

/// `PluginFile::read_from` of `bytes`, as `Format::read` gives it.
fn read_from(bytes: &[u8]) -> Result<PluginFile, String> {
    PluginFile::read_from(&mut &bytes[..], bytes.len() as u64).map_err(|e| {
        nav_core::error::refused(&e).map_or_else(|| format!("I/O: {e}"), ToString::to_string)
    })
}

fn read(bytes: &[u8]) -> Result<PluginFile, String> {
    Plugin.read(bytes).map_err(|e| e.to_string())
}

#[test]
fn the_streaming_reader_reads_what_a_read_reads() {
    let mut files = vec![
        Plugin.write(&samples::plugin()).unwrap(),
        Plugin
            .write(&samples::game_scale_plugin(&blobs(), 40, 4).unwrap().plugin)
            .unwrap(),
    ];
    files.extend(
        nav_core::testing::real_files("skyrim")
            .into_iter()
            .filter(|(dir, p)| p.parent() == Some(dir.as_path()))
            .map(|(_, p)| std::fs::read(p).unwrap()),
    );
    for bytes in &files {
        assert_eq!(read_from(bytes).unwrap(), read(bytes).unwrap());
    }
    // Every cut and every damaged byte of the sample plugin: the same model or the same error.
    let bytes = &files[0];
    for cut in 0..bytes.len() {
        assert_eq!(
            read_from(&bytes[..cut]),
            read(&bytes[..cut]),
            "cut at {cut}"
        );
    }
    let mut differing = 0;
    for at in 0..bytes.len() {
        for value in [0x00, 0x7f, 0xff] {
            let mut damaged = bytes.clone();
            damaged[at] = value;
            let (a, b) = (read_from(&damaged), read(&damaged));
            differing += usize::from(a.is_err());
            assert_eq!(a, b, "byte {at} set to {value:#x}");
        }
    }
    assert!(
        differing > 100,
        "only {differing} damaged files were refused"
    );
    // An input shorter than it says is an I/O error, not a model.
    let err = PluginFile::read_from(&mut &bytes[..100], bytes.len() as u64).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
}

#[test]
fn the_nvnm_streaming_writer_refuses_before_any_byte_and_streams_what_write_gives() {
    let mut mesh = samples::interior();
    let mut out = Vec::new();
    Nvnm.write_to(&mesh, &mut out).unwrap();
    assert_eq!(out, Nvnm.write(&mesh).unwrap());
    // A version-15 triangle field in a version-12 mesh is refused, before the first byte.
    mesh.triangles.last_mut().unwrap().extra = Some(nvnm_skyrim::nvnm::TriangleExtra {
        height: nav_core::RawF32::ZERO,
        unknown: 0,
    });
    let mut out = Vec::new();
    let err = Nvnm.write_to(&mesh, &mut out).unwrap_err();
    let refused = nav_core::error::refused(&err).expect("a refusal");
    assert!(
        out.is_empty(),
        "{} bytes written before the refusal",
        out.len()
    );
    assert_eq!(*refused, Nvnm.write(&mesh).unwrap_err());
}
