//! `navkit export` over many files (on every core, in a stable order, into a folder), and
//! `navkit roundtrip` over a folder of builder-made Silkroad regions.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

mod common;
use common::{fresh_dir, navkit, s, stderr, stdout};

#[test]
fn export_writes_every_file_into_a_folder_in_a_stable_order() {
    let dir = fresh_dir("export");
    let bad = dir.join("broken.nav");
    let sample =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/quake/room_nav2_v15.nav");
    let sample = std::fs::read(sample).unwrap();
    std::fs::write(&bad, &sample[..sample.len() - 3]).unwrap();

    let mut outputs = Vec::new();
    for jobs in ["1", "3"] {
        let out = dir.join(format!("out{jobs}"));
        let o = navkit(&[
            "export",
            "samples/silkroad",
            s(&bad),
            "samples/source/cs_v16_1.nav",
            "-o",
            s(&out),
            "--as",
            "obj",
            "--jobs",
            jobs,
        ]);
        let text = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{text}{}", stderr(&o));
        let lines: Vec<&str> = text.lines().collect();
        // Directory files in sorted order, then the named files in the order given.
        let firsts: Vec<&str> = lines
            .iter()
            .map(|l| l.split_whitespace().nth(1).unwrap_or(""))
            .collect();
        assert_eq!(
            firsts[..6],
            [
                "samples/silkroad/nv_11a5_legacy_planes.nvm",
                "samples/silkroad/nv_1f29_legacy.nvm",
                "samples/silkroad/nv_5c81_empty.nvm",
                "samples/silkroad/nv_61a8_town.nvm",
                s(&bad),
                "samples/source/cs_v16_1.nav",
            ],
            "{text}"
        );
        assert!(
            lines[4].starts_with("FAIL  ") && lines[4].contains("edicts"),
            "{text}"
        );
        assert_eq!(lines.last(), Some(&"5 exported, 1 failed"), "{text}");
        // Outputs keep their place below the directory, named after the input file.
        let town = out.join("nv_61a8_town.nvm.obj");
        let obj = std::fs::read_to_string(&town).unwrap();
        assert!(obj.lines().any(|l| l.starts_with("f ")), "{obj}");
        assert!(out.join("cs_v16_1.nav.obj").is_file());
        assert!(!out.join("broken.nav.obj").exists());
        outputs.push((
            text.replace(&format!("out{jobs}"), "out"),
            std::fs::read(town).unwrap(),
        ));
    }
    assert_eq!(outputs[0], outputs[1], "output depends on --jobs");

    // The same bytes as exporting the one file on its own.
    let one = dir.join("town.obj");
    let o = navkit(&["export", "samples/silkroad/nv_61a8_town.nvm", "-o", s(&one)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(one).unwrap(), outputs[0].1);

    // glb by default; a clean batch exits 0.
    let out = dir.join("glb");
    let o = navkit(&["export", "samples/skyrim", "-o", s(&out)]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let glb = std::fs::read(out.join("exterior_v12.nvnm.glb")).unwrap();
    assert_eq!(&glb[..4], b"glTF");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn export_refuses_a_batch_it_cannot_place() {
    let dir = fresh_dir("refuse");
    let two = [
        "samples/quake/room_nav2_v15.nav",
        "samples/quake/room_nav3_v6.nav",
    ];
    // Several inputs need a folder, not a file name.
    let o = navkit(&["export", two[0], two[1], "-o", s(&dir.join("x.glb"))]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("into a folder"), "{}", stderr(&o));
    // Two inputs with one output name.
    let o = navkit(&["export", two[0], two[0], "-o", s(&dir.join("out"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("would both be exported to"),
        "{}",
        stderr(&o)
    );
    assert!(
        !dir.join("out").exists(),
        "nothing is written before the check"
    );
    // A file where the folder should be.
    let file = dir.join("file");
    std::fs::write(&file, b"x").unwrap();
    let o = navkit(&["export", "samples/quake", "-o", s(&file)]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 11's scale in small: 200 different regions made by the builder round-trip, on every
/// core. (`cargo run --release -p jmxvnvm --example regions DIR 5000` makes the full set.)
#[test]
fn roundtrip_passes_over_200_builder_made_regions() {
    let dir = fresh_dir("regions");
    for seed in 0..200 {
        let bytes = jmxvnvm::write(&jmxvnvm::build::generated(seed)).unwrap();
        std::fs::write(dir.join(format!("nv_{seed:04x}.nvm")), bytes).unwrap();
    }
    let o = navkit(&["roundtrip", s(&dir)]);
    let text = stdout(&o);
    assert!(o.status.success(), "{text}{}", stderr(&o));
    assert_eq!(
        text.lines().filter(|l| l.starts_with("ok    ")).count(),
        200
    );
    assert!(text.ends_with("200 passed, 0 failed\n"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
