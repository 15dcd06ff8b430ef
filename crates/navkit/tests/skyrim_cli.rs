//! `navkit extract` and `navkit replace` on the real Skyrim plugins: the extracted blobs are the
//! corpus's own `.nvnm` files byte for byte, and putting one back unchanged gives the plugin back.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::Path;

mod common;
use common::{fresh_dir, navkit, stderr, stdout};

#[test]
fn extract_gives_the_corpus_blobs_and_replace_restores_the_plugin() {
    let Some(dir) = nav_core::testing::corpus_dir("skyrim") else {
        return;
    };
    let out = fresh_dir("extract");
    let mut plugins = 0;
    let mut blobs = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let plugin = entry.unwrap().path();
        if plugin.extension().is_none_or(|e| e != "esp") {
            continue;
        }
        let o = navkit(&[
            "extract",
            plugin.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}: {}", plugin.display(), stderr(&o));
        let listed = stdout(&o);
        let files: Vec<&str> = listed.lines().collect();
        for f in &files {
            let name = Path::new(f).file_name().unwrap();
            let reference = dir.join("nvnm").join(name);
            if reference.is_file() {
                assert_eq!(
                    std::fs::read(f).unwrap(),
                    std::fs::read(&reference).unwrap(),
                    "{f}"
                );
                blobs += 1;
            }
        }
        // Put the first navmesh back unchanged: the plugin must not change by a byte.
        if let Some(first) = files.first() {
            let stem = Path::new(first)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let form_id = stem.rsplit('_').next().unwrap().to_string();
            let rebuilt = out.join("rebuilt.esp");
            let o = navkit(&[
                "replace",
                plugin.to_str().unwrap(),
                &form_id,
                first,
                "-o",
                rebuilt.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", stderr(&o));
            assert_eq!(
                std::fs::read(&rebuilt).unwrap(),
                std::fs::read(&plugin).unwrap(),
                "{}",
                plugin.display()
            );
        }
        plugins += 1;
    }
    println!(
        "skyrim CLI: {plugins} plugins extracted, {blobs} blobs equal to the corpus's, one navmesh per plugin put back unchanged"
    );
    assert!(plugins > 0 && blobs > 0);
}

#[test]
fn replace_refuses_a_bad_form_id_and_a_bad_blob() {
    let Some(dir) = nav_core::testing::corpus_dir("skyrim") else {
        return;
    };
    let plugin = dir.join("Dwemer Secrets.esp");
    let out = fresh_dir("replace").join("x.esp");
    let o = navkit(&[
        "replace",
        plugin.to_str().unwrap(),
        "zz",
        "x.nvnm",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no part named `zz`"), "{}", stderr(&o));
    // A file that holds nothing is not a container.
    let nvnm_file = fresh_dir("plain").join("x.nvnm");
    std::fs::write(
        &nvnm_file,
        nav_core::Format::write(&nvnm_skyrim::Nvnm, &nvnm_skyrim::samples::interior()).unwrap(),
    )
    .unwrap();
    let o = navkit(&["extract", nvnm_file.to_str().unwrap(), "-o", "unused"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("holds no other files"));
    let junk = fresh_dir("junk").join("junk.nvnm");
    std::fs::write(&junk, [1u8, 2, 3]).unwrap();
    let o = navkit(&[
        "replace",
        plugin.to_str().unwrap(),
        "000B83E0",
        junk.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("junk.nvnm"));
}
