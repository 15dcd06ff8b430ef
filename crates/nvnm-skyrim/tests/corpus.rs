//! Round trip of every real file: the NVNM blobs of `skyrim/nvnm` and the plugins of `skyrim`,
//! in the corpus and in the incoming folder (the same expectations for both).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};

use nav_core::Format;
use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{
    corpus_dir, incoming_dir, is_negative, real_files, real_files_round_trip,
    real_files_round_trip_where, skip_without_corpus,
};
use nvnm_skyrim::plugin::{Compression, PluginFile, RecordBody};
use nvnm_skyrim::{NavmeshGeometry, Nvnm, Plugin};

/// Every blob round-trips through the shared corpus loop (view, model and streaming writers,
/// fix leaves it alone), survives JSON bit for bit, and has no error finding; the count of each
/// version is printed.
#[test]
fn every_nvnm_blob_round_trips_and_validates() {
    let mut versions = std::collections::BTreeMap::new();
    let tally = real_files_round_trip(&Nvnm, "skyrim/nvnm", |file, model| {
        *versions.entry(model.version).or_insert(0usize) += 1;
        // The model survives JSON too, bit for bit.
        let json = serde_json::to_string(model).map_err(|e| e.to_string())?;
        let back: NavmeshGeometry = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        if back != *model || Nvnm.write(&back).map_err(|e| e.to_string())? != file.bytes {
            return Err("the JSON round trip differs".into());
        }
        Ok(())
    });
    eprintln!("skyrim/nvnm: blobs by version: {versions:?}");
    assert!(tally.with_errors.is_empty(), "{:#?}", tally.with_errors);
    if corpus_dir("skyrim/nvnm").is_some() {
        assert!(tally.passed > 100, "only {} blobs checked", tally.passed);
        assert!(versions.contains_key(&12) && versions.contains_key(&15));
    }
}

/// A negative blob is refused with an error that names the format.
#[test]
fn negative_blobs_are_refused_by_name() {
    for (_, path) in real_files("skyrim/nvnm") {
        if is_negative(&path) {
            let e = Nvnm.parse(&std::fs::read(&path).unwrap()).unwrap_err();
            assert!(e.to_string().starts_with("nvnm-skyrim: "), "{e}");
        }
    }
}

/// The plugins directly in `skyrim/` of the corpus and of the incoming folder (not the blobs
/// in `skyrim/nvnm/`).
fn plugins() -> Option<Vec<PathBuf>> {
    let files: Vec<_> = real_files("skyrim")
        .into_iter()
        .filter(|(dir, p)| is_plugin_file(dir, p))
        .map(|(_, p)| p)
        .collect();
    if files.is_empty() {
        skip_without_corpus("no plugin in skyrim of the corpus or incoming folder");
    }
    (!files.is_empty()).then_some(files)
}

/// Whether `path`, found walking `dir`, is a plugin: directly in `skyrim/` (the blobs are in
/// `skyrim/nvnm/`), or a negative sample.
fn is_plugin_file(dir: &Path, path: &Path) -> bool {
    path.parent() == Some(dir) || is_negative(path)
}

#[test]
fn every_plugin_rewrites_byte_exactly_with_every_navmesh() {
    let mut parts = 0usize;
    let mut errors = Vec::new();
    let tally = real_files_round_trip_where(&Plugin, "skyrim", is_plugin_file, |file, model| {
        let name = file.path.file_name().unwrap_or_default().to_string_lossy();
        errors.extend(
            Plugin
                .validate(model)
                .into_iter()
                .filter(|f| f.severity == nav_core::Severity::Error)
                .map(|f| format!("{name}: {f}")),
        );
        let results = Plugin.parts(model);
        if results.is_empty() {
            return Err("no navmesh found".into());
        }
        for part in results {
            parts += 1;
            assert_eq!(part.format, Nvnm.name());
            roundtrip_bytes(&Nvnm, &part.bytes).map_err(|e| format!("NVNM {}: {e}", part.name))?;
        }
        // Every compressed navmesh is reproduced by a zlib level, not kept.
        for r in model.records() {
            if let RecordBody::Navmesh(b) = &r.body {
                if b.compression != Compression::None && b.compression.level().is_none() {
                    return Err(format!(
                        "{:08X}: no zlib level reproduces the stream",
                        r.form_id
                    ));
                }
            }
        }
        Ok(())
    });
    eprintln!("skyrim plugins: {} navmeshes inside", parts);
    let Some(files) = plugins() else {
        return;
    };
    assert!(tally.passed > 0);
    assert_eq!(tally.passed + tally.refused, files.len());
    // Every negative plugin is refused by the plugin reader, in its own words.
    for path in files.iter().filter(|p| is_negative(p)) {
        let e = Plugin.parse(&std::fs::read(path).unwrap()).unwrap_err();
        assert!(e.to_string().starts_with("skyrim-plugin: "), "{e}");
    }
    // One real plugin deletes one of Skyrim.esm's navmeshes; no other error in any plugin.
    let expected: Vec<String> = files
        .iter()
        .filter(|p| p.ends_with("Dwemer Secrets.esp"))
        .map(|_| {
            "Dwemer Secrets.esp: error: NAVM 000F26C9: deleted navmesh (Skyrim.esm's navmesh, in \
             cell 0000937E of worldspace 0000003C): the game crashes when it reaches a deleted \
             navmesh through another navmesh's edge links; restore it and edit it in the \
             Creation Kit instead of deleting it"
                .to_string()
        })
        .collect();
    assert_eq!(errors, expected);
}

/// The blobs in `skyrim/nvnm/` were extracted from these plugins: extraction gives them back.
#[test]
fn extracted_navmeshes_equal_the_corpus_blobs() {
    let Some(files) = plugins() else {
        return;
    };
    let folders: Vec<PathBuf> = [corpus_dir("skyrim/nvnm"), incoming_dir("skyrim/nvnm")]
        .into_iter()
        .flatten()
        .collect();
    let mut matched = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let view = Plugin.parse(&bytes).unwrap();
        let stem = path
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .replace(' ', "_");
        for (form_id, nvnm) in view.navmeshes() {
            let name = format!("{stem}_{form_id:08X}.nvnm");
            for blob in folders.iter().map(|d| d.join(&name)) {
                if let Ok(expected) = std::fs::read(&blob) {
                    nav_core::assert_bytes_eq!(expected, nvnm, "{}", blob.display());
                    matched += 1;
                }
            }
        }
    }
    eprintln!("{matched} extracted navmeshes equal their corpus blobs");
    assert!(matched > 100, "only {matched} blobs matched");
}

#[test]
fn replacing_a_navmesh_with_an_edited_one_changes_only_that_record() {
    let Some(files) = plugins() else {
        return;
    };
    // A plugin whose navmeshes sit in nested groups: Dwemer Secrets (exterior) if present.
    let path = files
        .iter()
        .find(|p| p.to_string_lossy().contains("Dwemer Secrets"))
        .unwrap_or(&files[0]);
    let bytes = std::fs::read(path).unwrap();
    let original = Plugin.read(&bytes).unwrap();
    let (form_id, nvnm) = original.navmeshes()[0];
    let nvnm = nvnm.to_vec();
    // Edit: move every vertex up by 8 units and add one isolated triangle.
    let mut mesh = Nvnm.read(&nvnm).unwrap();
    for v in &mut mesh.vertices {
        v[2] = nav_core::RawF32::new(v[2].get() + 8.0);
    }
    let n = mesh.vertices.len() as u16;
    mesh.vertices.push(nav_core::testing::vec3(0.0, 0.0, 0.0));
    mesh.vertices.push(nav_core::testing::vec3(1.0, 0.0, 0.0));
    mesh.vertices.push(nav_core::testing::vec3(0.0, 1.0, 0.0));
    mesh.triangles.push(nvnm_skyrim::nvnm::Triangle {
        vertices: [n, n + 1, n + 2],
        edges: [-1; 3],
        extra: None,
        flags: 0,
        cover_flags: 0,
    });
    let edited = Nvnm.write(&mesh).unwrap();
    let out = Plugin::replace_nvnm(&bytes, form_id, &edited).unwrap();
    assert!(out.len() > bytes.len());
    let back = Plugin.read(&out).unwrap();
    // The edited navmesh comes back out.
    let (_, got) = back
        .navmeshes()
        .into_iter()
        .find(|(id, _)| *id == form_id)
        .unwrap();
    nav_core::assert_bytes_eq!(edited, got);
    assert_eq!(Nvnm.read(got).unwrap(), mesh);
    // Every other record is unchanged (but the NAVI, whose entry for the navmesh follows it),
    // and the file round-trips.
    let other =
        |r: &&nvnm_skyrim::plugin::Record| r.form_id != form_id && &r.signature.0 != b"NAVI";
    let before: Vec<_> = original.records().into_iter().filter(other).collect();
    let after: Vec<_> = back.records().into_iter().filter(other).collect();
    assert_eq!(before, after);
    roundtrip_bytes(&Plugin, &out).unwrap();
    // Putting the original back gives the original file, byte for byte.
    let restored = Plugin::replace_nvnm(&out, form_id, &nvnm).unwrap();
    nav_core::assert_bytes_eq!(bytes, restored);
}

/// Each record's stored data (as in the file) by signature and FormID.
fn stored_records(bytes: &[u8]) -> Vec<([u8; 4], u32, Vec<u8>)> {
    let view = Plugin.parse(bytes).unwrap();
    view.nodes()
        .iter()
        .filter_map(|n| match n {
            nvnm_skyrim::plugin::view::Node::Record(r) => Some((
                r.header().signature,
                r.header().form_id.get(),
                r.data().to_vec(),
            )),
            nvnm_skyrim::plugin::view::Node::Group(_) => None,
        })
        .collect()
}

/// Writes `edited` (a model read from `bytes`, then changed) and checks each record: one equal
/// to its original keeps its stored data byte for byte; a changed compressed one is recompressed
/// at the level that reproduces its original stream.
fn check_only_changed_records_recompressed(
    path: &std::path::Path,
    bytes: &[u8],
    edited: &PluginFile,
) {
    let original = Plugin.read(bytes).unwrap();
    let out = Plugin.write(edited).unwrap();
    let (before, after) = (stored_records(bytes), stored_records(&out));
    let (old, new) = (original.records(), edited.records());
    assert_eq!(before.len(), after.len());
    assert_eq!(old.len(), new.len());
    for (((o, n), b), a) in old.iter().zip(&new).zip(&before).zip(&after) {
        if o == n {
            assert!(b == a, "{} {:08X} changed", path.display(), a.1);
            continue;
        }
        let (plain, compression) = match (&o.body, &n.body) {
            (RecordBody::Navmesh(ob), RecordBody::Navmesh(nb)) => (
                nvnm_skyrim::plugin::write::subrecord_bytes(nb, n.form_id).unwrap(),
                &ob.compression,
            ),
            (RecordBody::NavigationInfo(ob), RecordBody::NavigationInfo(nb)) => (
                nvnm_skyrim::plugin::navi::subrecord_bytes(nb, n.form_id).unwrap(),
                &ob.compression,
            ),
            _ => panic!("{} {:08X}: body kind changed", path.display(), n.form_id),
        };
        match compression.level() {
            Some(level) => {
                assert_eq!(a.2[4..], nvnm_skyrim::plugin::deflate(&plain, level)[..]);
            }
            None => assert_eq!(a.2, plain, "{} {:08X}", path.display(), n.form_id),
        }
    }
}

#[test]
fn only_a_changed_record_is_recompressed() {
    let Some(files) = plugins() else {
        return;
    };
    for path in files.iter().filter(|p| !is_negative(p)) {
        let bytes = std::fs::read(path).unwrap();
        // refresh and fix: whatever they change is recompressed, nothing else.
        let mut model = Plugin.read(&bytes).unwrap();
        let _ = Plugin.refresh(&mut model);
        check_only_changed_records_recompressed(path, &bytes, &model);
        let mut model = Plugin.read(&bytes).unwrap();
        let _ = Plugin.fix(&mut model);
        check_only_changed_records_recompressed(path, &bytes, &model);
        // One navmesh edited (its NVMI entry follows it).
        let mut model = Plugin.read(&bytes).unwrap();
        let Some(&(form_id, nvnm)) = model.navmeshes().first() else {
            continue;
        };
        let mut mesh = Nvnm.read(nvnm).unwrap();
        for v in &mut mesh.vertices {
            v[2] = nav_core::RawF32::new(v[2].get() + 8.0);
        }
        model
            .replace_nvnm(form_id, Nvnm.write(&mesh).unwrap())
            .unwrap();
        check_only_changed_records_recompressed(path, &bytes, &model);
    }
}
