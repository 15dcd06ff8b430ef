//! The `navkit` binary end to end: output, exit status, and files it writes.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;
use common::{navkit, s, stderr, stdout, temp, workspace};

const SAMPLE: &str = "samples/quake/room_nav2_v15.nav";

#[test]
fn roundtrip_over_the_samples_passes() {
    let o = navkit(&["roundtrip", "samples"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    let last = out.lines().last().unwrap();
    let (passed, failed) = last.split_once(" passed, ").unwrap();
    assert!(passed.parse::<usize>().unwrap() >= 12, "{last}");
    assert_eq!(failed, "0 failed");
    assert!(out.lines().filter(|l| l.starts_with("ok    ")).count() >= 12);
}

#[test]
fn roundtrip_reports_a_broken_file_and_exits_1() {
    let bad = temp("truncated.nav");
    let bytes = std::fs::read(workspace().join(SAMPLE)).unwrap();
    std::fs::write(&bad, &bytes[..bytes.len() - 3]).unwrap();
    let o = navkit(&["roundtrip", bad.to_str().unwrap(), SAMPLE]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("FAIL  ") && out.contains("edicts: count 1 at offset 0x"),
        "{out}"
    );
    assert!(out.ends_with("1 passed, 1 failed\n"), "{out}");

    let o = navkit(&["roundtrip", "--json", bad.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["failed"], 1);
    assert_eq!(v["files"][0]["ok"], false);
}

#[test]
fn info_text_and_json() {
    let o = navkit(&["info", SAMPLE]);
    assert!(o.status.success());
    insta::assert_snapshot!(stdout(&o));
    let o = navkit(&["info", "--json", SAMPLE]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "nav-quake");
    assert_eq!(v["version"], "NAV2 v15");
    assert_eq!(v["counts"]["nodes"], 5);
    assert_eq!(v["size"], 286);
}

#[test]
fn dump_is_readable() {
    let o = navkit(&["dump", "samples/quake/room_nav3_v4.nav"]);
    assert!(o.status.success());
    insta::assert_snapshot!(stdout(&o));
}

#[test]
fn to_json_and_back_gives_the_original_bytes() {
    let json = temp("room.json");
    let back = temp("room.nav");
    let o = navkit(&["to-json", SAMPLE, "-o", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&json).unwrap();
    assert!(text.contains("\"origin\": [128.0, 128.0, 88.0]"), "{text}");
    let o = navkit(&[
        "from-json",
        json.to_str().unwrap(),
        "-o",
        back.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(workspace().join(SAMPLE)).unwrap()
    );

    // An edit in the JSON shows up in the file.
    let edited = text.replacen("\"radius\": 32", "\"radius\": 40", 1);
    std::fs::write(&json, edited).unwrap();
    assert!(
        navkit(&[
            "from-json",
            json.to_str().unwrap(),
            "-o",
            back.to_str().unwrap()
        ])
        .status
        .success()
    );
    let o = navkit(&["dump", back.to_str().unwrap()]);
    assert!(
        stdout(&o).contains("[0] origin (0.0, 0.0, 24.0) radius 40"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn rewrite_writes_the_same_bytes() {
    let out = temp("rewritten.nav");
    let o = navkit(&[
        "rewrite",
        "--format",
        "nav-quake",
        SAMPLE,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(workspace().join(SAMPLE)).unwrap()
    );
}

#[test]
fn rewrite_stream_writes_the_same_bytes_for_every_format() {
    // One sample per format folder, through the streaming reader and writer that files of
    // 64 MiB or more take (the Skyrim plugin's reads record by record).
    let mut checked = 0;
    for dir in ["quake", "source", "source2", "mgsv", "skyrim", "silkroad"] {
        let mut files: Vec<_> = std::fs::read_dir(workspace().join("samples").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for file in &files {
            let out = temp(&format!("streamed-{dir}"));
            let o = navkit(&[
                "rewrite",
                "--stream",
                file.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}: {}", file.display(), stderr(&o));
            assert_eq!(
                std::fs::read(&out).unwrap(),
                std::fs::read(file).unwrap(),
                "{}",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} samples");
}

#[test]
fn rewrite_stream_names_the_field_of_a_broken_plugin() {
    let plugin = std::fs::read(workspace().join("samples/skyrim/navkit_room.esp")).unwrap();
    let cut = temp("cut.esp");
    std::fs::write(&cut, &plugin[..plugin.len() - 7]).unwrap();
    let out = temp("cut-out.esp");
    let o = navkit(&[
        "rewrite",
        "--stream",
        cut.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("cut.esp") && err.contains("offset 0x"),
        "{err}"
    );
}

#[test]
fn validate_exits_1_on_errors() {
    let json = temp("broken.json");
    let broken = temp("broken.nav");
    assert!(
        navkit(&["to-json", SAMPLE, "-o", json.to_str().unwrap()])
            .status
            .success()
    );
    let text =
        std::fs::read_to_string(&json)
            .unwrap()
            .replacen("\"target\": 1", "\"target\": 77", 1);
    std::fs::write(&json, text).unwrap();
    assert!(
        navkit(&[
            "from-json",
            json.to_str().unwrap(),
            "-o",
            broken.to_str().unwrap()
        ])
        .status
        .success()
    );
    let o = navkit(&["validate", broken.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("error: links[0]: target node 77 is past the 5 nodes"),
        "{}",
        stdout(&o)
    );
    let o = navkit(&["validate", "--json", broken.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["errors"], 1);
    assert_eq!(v["findings"][0]["location"], "links[0]");
    // The place, for scripts: the same location as steps, no text to parse.
    assert_eq!(
        v["findings"][0]["place"],
        serde_json::json!([{"field": "links", "index": 0}])
    );
    let o = navkit(&["validate", SAMPLE]);
    assert!(o.status.success());
}

#[test]
fn usage_errors_exit_2_and_bad_input_exits_1() {
    assert_eq!(navkit(&["info"]).status.code(), Some(2));
    assert_eq!(navkit(&["frobnicate"]).status.code(), Some(2));
    let o = navkit(&["--format", "nav-nothing", "info", SAMPLE]);
    assert_eq!(o.status.code(), Some(2));
    // The accepted names come from the registry, so every format is offered.
    let e = stderr(&o);
    assert!(
        e.contains("'nav-nothing'") && e.contains("possible values"),
        "{e}"
    );
    for f in navkit::registry::FORMATS {
        assert!(e.contains(f.name()), "{} not offered: {e}", f.name());
    }

    let o = navkit(&["info", "Cargo.toml"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("not a format this build recognises"),
        "{}",
        stderr(&o)
    );

    let bad = temp("absurd.nav");
    let mut bytes = b"NAV2".to_vec();
    for v in [15u32, u32::MAX, 0, 0, 0] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::write(&bad, &bytes).unwrap();
    let o = navkit(&["info", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("nav-quake: nodes: count 4294967295 at offset 0x14 exceeds the 4 bytes left"),
        "{err}"
    );
}

#[test]
fn help_explains_formats_and_exit_status() {
    let o = navkit(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for needle in [
        "roundtrip",
        "to-json",
        "--format",
        "Exit status: 0 success, 1 bad input",
        "nav-source",
        "--flavour",
        "l4d2  Left 4 Dead 2",
    ] {
        assert!(out.contains(needle), "--help lacks {needle}:\n{out}");
    }
    let o = navkit(&["formats"]);
    assert!(stdout(&o).contains("nav-quake"));
}

#[test]
fn source_2_files_are_refused_with_a_message_that_says_so() {
    let Some(dir) = nav_core::testing::corpus_dir("source") else {
        return;
    };
    let mut refused = 0;
    for entry in std::fs::read_dir(dir.join("negative")).unwrap() {
        let path = entry.unwrap().path();
        let o = navkit(&["info", "--format", "nav-source", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1), "{}", path.display());
        let err = stderr(&o);
        assert!(
            err.contains("nav-source") && err.contains("Source 2"),
            "{err}"
        );
        // Detected from their signature, they are nav-source2's and round-trip.
        let o = navkit(&["info", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("nav-source2"), "{}", stdout(&o));
        let o = navkit(&["roundtrip", path.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stdout(&o));
        refused += 1;
    }
    assert_eq!(refused, 2);
}

#[test]
fn build_makes_navmeshes_that_validate_clean_and_can_be_drawn() {
    for (format, mesh, up, ending) in [
        ("nav2-mgsv", "samples/meshes/two_rooms.obj", "y", "nav2"),
        // The Skyrim samples are in the game's Z-up axes.
        (
            "nvnm-skyrim",
            "samples/meshes/skyrim_two_rooms.obj",
            "z",
            "nvnm",
        ),
    ] {
        let out = temp(&format!("built.{ending}"));
        let o = navkit(&[
            "build",
            "--format",
            format,
            "--up",
            up,
            mesh,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        let o = navkit(&["validate", "--format", format, out.to_str().unwrap()]);
        assert!(o.status.success(), "{format}: {}", stdout(&o));
        assert!(
            stdout(&o).ends_with(": 0 errors, 0 warnings, 0 notes\n"),
            "{format}: {}",
            stdout(&o)
        );
        let o = navkit(&["roundtrip", "--format", format, out.to_str().unwrap()]);
        assert!(o.status.success(), "{format}: {}", stdout(&o));
        let png = temp(&format!("built-{ending}.png"));
        let o = navkit(&[
            "render",
            "--format",
            format,
            out.to_str().unwrap(),
            "-o",
            png.to_str().unwrap(),
            "--size",
            "200",
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    }
    // No --format: the tool cannot guess which game to build for.
    let o = navkit(&[
        "build",
        "samples/meshes/two_rooms.obj",
        "-o",
        temp("x.nav2").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    // A format without a builder says so.
    let o = navkit(&[
        "build",
        "--format",
        "nav-quake",
        "samples/meshes/two_rooms.obj",
        "-o",
        temp("x.nav").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("nav-quake has no builder"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn export_and_render_reject_unknown_endings() {
    let o = navkit(&["export", SAMPLE, "-o", temp("x.fbx").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = navkit(&["render", SAMPLE, "-o", temp("x.jpg").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let o = navkit(&[
        "render",
        SAMPLE,
        "-o",
        temp("x.png").to_str().unwrap(),
        "--size",
        "9",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--flavour NAME` reads a nav-source file as that game's layout in every command that reads one.
#[test]
fn flavour_forces_the_nav_source_layout() {
    let sample = "samples/source/l4d2_v16_14.nav";
    let variant = |args: &[&str]| {
        let o = navkit(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["variant"].as_str().unwrap().to_string()
    };
    // Detected from sub-version 14, then forced to l4d, whose rules read the same bytes.
    assert_eq!(variant(&["info", "--json", sample]), "l4d2");
    assert_eq!(
        variant(&["info", "--json", "--flavour", "l4d", sample]),
        "l4d"
    );
    assert_eq!(
        variant(&["--flavour", "l4d", "info", "--json", sample]),
        "l4d"
    );
    let o = navkit(&["dump", "--flavour", "l4d", sample]);
    assert!(
        stdout(&o).starts_with("nav-source 16.14 flavour l4d "),
        "{}",
        stdout(&o)
    );
    for args in [
        &["validate", "--flavour", "l4d", sample][..],
        &["roundtrip", "--flavour", "l4d", sample][..],
    ] {
        let o = navkit(args);
        assert!(o.status.success(), "{args:?}: {}{}", stdout(&o), stderr(&o));
    }
    let json = temp("forced.json");
    let o = navkit(&[
        "to-json",
        "--flavour",
        "l4d",
        sample,
        "-o",
        json.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(doc["model"]["flavour"], "l4d");
    let out = temp("forced.nav");
    let o = navkit(&[
        "rewrite",
        "--flavour",
        "l4d",
        sample,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(workspace().join(sample)).unwrap()
    );

    // A flavour that does not read the file: bad input, and where it stopped.
    let o = navkit(&["info", "--flavour", "cs", sample]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(": nav-source: "), "{}", stderr(&o));
    // A file of another format: bad input, and that it is not a nav-source file.
    let o = navkit(&["info", "--flavour", "cs", SAMPLE]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("nav-source: magic: magic \"NAV2\" at offset 0x0 is not 0xFEEDFACE"),
        "{}",
        stderr(&o)
    );
    // With --format naming another format, or an unknown flavour: usage.
    let o = navkit(&["info", "--format", "nav-quake", "--flavour", "cs", SAMPLE]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--flavour cs is a nav-source layout, but --format names nav-quake"),
        "{}",
        stderr(&o)
    );
    let o = navkit(&["info", "--flavour", "portal2", sample]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("[possible values: base, cs, tf2, l4d, l4d2]"),
        "{}",
        stderr(&o)
    );
}

/// The Left 4 Dead v12 development map (incoming, or in the corpus once it has moved there) is
/// detected as `l4d`, round-trips and validates clean through the binary.
#[test]
fn l4d_development_map_reads_end_to_end() {
    let Some(path) = nav_core::testing::real_file("source", "l4dfd_test_box2.nav") else {
        return;
    };
    let path = path.to_str().unwrap();
    let o = navkit(&["roundtrip", path]);
    assert!(o.status.success(), "{}", stdout(&o));
    let o = navkit(&["validate", path]);
    assert!(
        stdout(&o).ends_with(": 0 errors, 0 warnings, 0 notes\n"),
        "{}",
        stdout(&o)
    );
    let o = navkit(&["info", "--json", path]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (v["version"].as_str(), v["variant"].as_str()),
        (Some("12.12"), Some("l4d"))
    );
    // Read as a flavour that cannot, the error says where that flavour stopped.
    let o = navkit(&["info", "--flavour", "base", path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("nav-source: areas: count 1634100580 at offset 0x2f"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn from_json_reads_the_model_before_the_format_and_names_the_path_of_an_error() {
    let json = temp("reordered.json");
    let back = temp("reordered.nav");
    let o = navkit(&["to-json", SAMPLE, "-o", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    // The model first, the format last: read in two passes.
    let text = format!(
        "{{\"model\": {}, \"format\": {}}}",
        doc["model"], doc["format"]
    );
    std::fs::write(&json, &text).unwrap();
    let o = navkit(&["from-json", s(&json), "-o", s(&back)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(workspace().join(SAMPLE)).unwrap()
    );

    // A wrong value is named by its JSON path and line.
    let pretty =
        navkit::cli::pretty_json(&doc).replacen("\"radius\": 32", "\"radius\": \"wide\"", 1);
    let line = pretty.lines().position(|l| l.contains("\"wide\"")).unwrap() + 1;
    std::fs::write(&json, &pretty).unwrap();
    let o = navkit(&["from-json", s(&json), "-o", s(&back)]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("model.nodes[0].radius: invalid type: string \"wide\""),
        "{err}"
    );
    assert!(err.contains(&format!("at line {line} column")), "{err}");

    // No format anywhere: a clear message.
    std::fs::write(&json, format!("{{\"model\": {}}}", doc["model"])).unwrap();
    let o = navkit(&["from-json", s(&json), "-o", s(&back)]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no \"format\" field"), "{}", stderr(&o));
}

#[test]
fn source_place_names_are_plain_strings_and_the_old_form_still_reads() {
    let sample = "samples/source/l4d2_v16_14.nav";
    let json = temp("places.json");
    let back = temp("places.nav");
    assert!(
        navkit(&["to-json", sample, "-o", s(&json)])
            .status
            .success()
    );
    let text = std::fs::read_to_string(&json).unwrap();
    // Wrapped with its position, as areas name fog places by position.
    assert!(text.contains("\"value\": \"fog_street\""), "{text}");
    // As older versions wrote it, the terminator spelled out.
    let old = text.replace("\"fog_street\"", "\"fog_street\\u0000\"");
    std::fs::write(&json, old).unwrap();
    let o = navkit(&["from-json", s(&json), "-o", s(&back)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&back).unwrap(),
        std::fs::read(workspace().join(sample)).unwrap()
    );
}

#[test]
fn validate_walks_directories_in_a_stable_order_on_every_core() {
    let one = navkit(&["validate", "--jobs", "1", "samples"]);
    let two = navkit(&["validate", "--jobs", "2", "samples"]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(one.stdout, two.stdout, "output depends on --jobs");
    let out = String::from_utf8_lossy(&one.stdout);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.ends_with("files checked, 0 unreadable: 0 errors, 0 warnings, 0 notes")
            && !last.starts_with("0 "),
        "{out}"
    );
    // Every line but the total names its file.
    assert!(
        out.lines()
            .rev()
            .skip(1)
            .all(|l| l.starts_with("samples/") || l.contains("skipped")),
        "{out}"
    );
    // JSON: one report per file checked.
    let j = navkit(&["validate", "--json", "samples/quake", "samples/mgsv"]);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(
        v["files"].as_array().map(Vec::len),
        v["checked"].as_u64().and_then(|n| usize::try_from(n).ok())
    );
    assert_eq!(v["errors"], 0);
}
