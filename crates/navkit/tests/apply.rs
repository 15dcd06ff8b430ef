//! `navkit apply`: an unedited export gives the original bytes back (OBJ and GLB), and an OBJ
//! edited by hand (one vertex moved, one face deleted, one face added) gives exactly those
//! changes on real Skyrim navmeshes; and the same through Blender itself
//! (`scripts/blender_apply_check.py`) where `target/venv-bpy` holds `bpy`.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Instant;

use nav_core::testing::{real_files, skip_without_corpus};

mod common;
use common::{navkit, s, stderr, stdout, temp, workspace};

/// A few real NVNM blobs, smallest first.
fn nvnm_files(count: usize) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = real_files("skyrim")
        .into_iter()
        .map(|(_, f)| f)
        .filter(|f| f.extension().is_some_and(|e| e == "nvnm"))
        .collect();
    files.sort_by_key(|f| (std::fs::metadata(f).map_or(0, |m| m.len()), f.clone()));
    files.into_iter().take(count).collect()
}

fn apply(original: &Path, edited: &Path, out: &Path) -> Vec<String> {
    let o = navkit(&["apply", "--json", s(original), s(edited), "-o", s(out)]);
    assert!(
        o.status.success(),
        "apply {}: {}",
        edited.display(),
        stderr(&o)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    report["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect()
}

/// `navkit export FILE` to OBJ: the text.
fn exported_obj(file: &Path, name: &str) -> String {
    let exported = temp(name);
    assert!(
        navkit(&["export", s(file), "-o", s(&exported)])
            .status
            .success()
    );
    std::fs::read_to_string(&exported).unwrap()
}

#[test]
fn unedited_exports_give_the_original_bytes() {
    let files = nvnm_files(6);
    if files.is_empty() {
        skip_without_corpus("no NVNM blob in the skyrim corpus");
        return;
    }
    for file in &files {
        let name = file.file_stem().unwrap().to_str().unwrap();
        for mesh in ["obj", "glb"] {
            let exported = temp(&format!("{name}.{mesh}"));
            let o = navkit(&["export", s(file), "-o", s(&exported)]);
            assert!(o.status.success(), "{}", stderr(&o));
            let out = temp(&format!("{name}.{mesh}.nvnm"));
            let changes = apply(file, &exported, &out);
            assert!(changes.is_empty(), "{name} {mesh}: {changes:?}");
            assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(file).unwrap());
        }
    }
}

#[test]
fn a_hand_edited_obj_gives_exactly_its_changes() {
    let Some(file) = nvnm_files(usize::MAX)
        .into_iter()
        .find(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 4000))
    else {
        skip_without_corpus("no NVNM blob in the skyrim corpus");
        return;
    };
    let text = exported_obj(&file, "hand.obj");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Move the first vertex some units along X (Y-up OBJ: X is X).
    let first_v = lines.iter().position(|l| l.starts_with("v ")).unwrap();
    let mut xyz: Vec<f32> = lines[first_v][2..]
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    xyz[0] += 7.5;
    lines[first_v] = format!("v {} {} {}", xyz[0], xyz[1], xyz[2]);
    // Delete the last face that does not use vertex 1.
    let last_f = lines
        .iter()
        .rposition(|l| l.starts_with("f ") && !l.split(' ').skip(1).any(|v| v == "1"))
        .unwrap();
    lines.remove(last_f);
    // Add a triangle of new vertices far off the mesh, counter-clockwise seen from above
    // (Y up: from +Y, X right and -Z up the page).
    let n = lines.iter().filter(|l| l.starts_with("v ")).count();
    lines.push("v 100000 0 -100000".into());
    lines.push("v 100010 0 -100000".into());
    lines.push("v 100000 0 -100010".into());
    lines.push(format!("f {} {} {}", n + 1, n + 2, n + 3));
    let edited = temp("hand.edited.obj");
    std::fs::write(&edited, lines.join("\n") + "\n").unwrap();
    let out = temp("hand.edited.nvnm");
    let changes = apply(&file, &edited, &out);
    let count = |what: &str| changes.iter().filter(|c| c.contains(what)).count();
    assert_eq!(count("moved to"), 1, "{changes:#?}");
    assert!(
        changes
            .iter()
            .any(|c| c.starts_with("vertices[0]: moved to"))
    );
    assert_eq!(count(": deleted"), 1, "{changes:#?}");
    assert_eq!(count("]: added from faces["), 1, "{changes:#?}");
    assert_eq!(count("]: added at"), 3, "{changes:#?}");
    let o = navkit(&["validate", "--json", s(&out)]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let errors: Vec<_> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // A vertex moved in one face and not in another is refused, with what to do.
    let split = temp("split.obj");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    lines.push(format!("v {} {} {}", xyz[0], xyz[1], xyz[2]));
    let fresh = lines.iter().filter(|l| l.starts_with("v ")).count();
    let face = lines
        .iter()
        .position(|l| l.starts_with("f ") && l.split(' ').skip(1).any(|v| v == "1"))
        .unwrap();
    lines[face] = lines[face]
        .split(' ')
        .map(|v| {
            if v == "1" {
                fresh.to_string()
            } else {
                v.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    std::fs::write(&split, lines.join("\n") + "\n").unwrap();
    let o = navkit(&["apply", s(&file), s(&split), "-o", s(&temp("split.nvnm"))]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stderr(&o).contains("split"), "{}", stderr(&o));
}

/// Blender's own importers and exporters: runs `scripts/blender_apply_check.py` with the `bpy`
/// of `target/venv-bpy`. Without that virtualenv the test says so and passes, unless
/// `NAVKIT_REQUIRE_BPY=1`.
#[test]
fn through_blender() {
    let python = workspace().join("target/venv-bpy/bin/python");
    if !python.exists() {
        let required = std::env::var("NAVKIT_REQUIRE_BPY").is_ok_and(|v| v != "0");
        assert!(
            !required,
            "NAVKIT_REQUIRE_BPY is set but {} does not exist: python3.11 -m venv target/venv-bpy \
             && target/venv-bpy/bin/pip install 'bpy==4.5.*'",
            python.display()
        );
        eprintln!(
            "note: not run, no {} (bpy 4.5; NAVKIT_REQUIRE_BPY=1 requires it)",
            python.display()
        );
        return;
    }
    // Three small blobs of a few hundred triangles (the smallest have too few to edit).
    let files: Vec<PathBuf> = nvnm_files(usize::MAX)
        .into_iter()
        .filter(|f| std::fs::metadata(f).is_ok_and(|m| m.len() > 4000))
        .take(3)
        .collect();
    if files.is_empty() {
        skip_without_corpus("no NVNM blob in the skyrim corpus");
        return;
    }
    let work = temp("blender");
    let started = Instant::now();
    let mut cmd = std::process::Command::new(&python);
    cmd.arg(workspace().join("scripts/blender_apply_check.py"))
        .args(["--navkit", env!("CARGO_BIN_EXE_navkit"), "--work", s(&work)])
        .args(&files);
    let o = cmd.output().unwrap();
    eprintln!("{}{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "the Blender check failed");
    eprintln!("Blender check: {:.1} s", started.elapsed().as_secs_f64());
}

/// A plugin exported, one navmesh edited in the OBJ (first vertex moved, its last triangle
/// deleted, a triangle added on the moved vertex), applied: `navkit diff` shows that navmesh's
/// changes and its `NVMI` entry, nothing of any other navmesh.
#[test]
fn a_plugin_edit_shows_exactly_in_diff() {
    use nav_core::Format;
    let Some(file) = nav_core::testing::real_file("skyrim", "Dwemer Secrets.esp") else {
        skip_without_corpus("Dwemer Secrets.esp is not in the skyrim corpus");
        return;
    };
    let model = nvnm_skyrim::plugin::Plugin
        .read(&std::fs::read(&file).unwrap())
        .unwrap();
    let g = nvnm_skyrim::plugin::Plugin.geometry(&model).unwrap();
    assert!(g.parts.len() >= 2, "{:?}", g.parts);
    let form = &g.parts[0];
    let last = g
        .polygons
        .iter()
        .rposition(|p| p.record.is_some_and(|r| r.part == 0))
        .unwrap();
    let text = exported_obj(&file, "plugin.obj");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first_v = lines.iter().position(|l| l.starts_with("v ")).unwrap();
    let xyz: Vec<f32> = lines[first_v][2..]
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    lines[first_v] = format!("v {} {} {}", xyz[0] + 7.5, xyz[1], xyz[2]);
    let faces: Vec<usize> = (0..lines.len())
        .filter(|&k| lines[k].starts_with("f "))
        .collect();
    assert_eq!(faces.len(), g.polygons.len());
    lines.remove(faces[last]);
    let n = lines.iter().filter(|l| l.starts_with("v ")).count();
    lines.push(format!("v {} {} {}", xyz[0], xyz[1], xyz[2] + 100.0));
    lines.push(format!("v {} {} {}", xyz[0] + 100.0, xyz[1], xyz[2]));
    lines.push(format!("f 1 {} {}", n + 2, n + 1));
    let edited = temp("plugin.edited.obj");
    std::fs::write(&edited, lines.join("\n") + "\n").unwrap();
    let out = temp("plugin.edited.esp");
    let changes = apply(&file, &edited, &out);
    let prefix = format!("navmesh {form}: ");
    assert!(
        changes.iter().all(|c| c.starts_with(&prefix)),
        "{changes:#?}"
    );
    let o = navkit(&["diff", s(&file), s(&out)]);
    let diff = stdout(&o);
    let mine = format!("FormID 0x{form}]");
    let rows: Vec<&str> = diff.lines().filter(|l| !l.trim().is_empty()).collect();
    assert!(
        rows.iter()
            .all(|l| l.contains(&mine) || l.contains("items[group NAVI]")),
        "{diff}"
    );
    let has = |what: &str| rows.iter().any(|l| l.contains(&mine) && l.contains(what));
    assert!(has(".navmesh.vertices[0]: "), "{diff}");
    assert!(
        has(&format!(
            ".navmesh.triangles[{}].vertices: ",
            g.polygons[last].record.unwrap().index
        )),
        "{diff}"
    );
    assert_eq!(
        rows.iter()
            .filter(|l| l.ends_with(": added") && l.contains(".navmesh.vertices["))
            .count(),
        2,
        "{diff}"
    );
}

/// A Quake file is a graph: `apply` takes its nodes back from the OBJ's vertices and lines.
#[test]
fn a_graph_takes_moved_nodes_back_from_an_obj() {
    let Some(file) = nav_core::testing::real_file("quake", "ry_dm7_v15.nav") else {
        skip_without_corpus("ry_dm7_v15.nav is not in the quake corpus");
        return;
    };
    let exported = temp("ry_dm7.obj");
    let o = navkit(&["export", s(&file), "-o", s(&exported)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = temp("ry_dm7.obj.nav");
    assert!(apply(&file, &exported, &out).is_empty());
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&file).unwrap());

    // Node 5 is the sixth `v` line (Y up: x, z, -y); move it 16 units along x.
    let text = std::fs::read_to_string(&exported).unwrap();
    let mut seen = 0;
    let mut moved = None;
    let edited: String = text
        .lines()
        .map(|line| {
            let mut line = line.to_string();
            if let Some(rest) = line.strip_prefix("v ") {
                if seen == 5 {
                    let c: Vec<f32> = rest.split(' ').map(|w| w.parse().unwrap()).collect();
                    moved = Some([c[0] + 16.0, -c[2], c[1]]);
                    line = format!("v {} {} {}", c[0] + 16.0, c[1], c[2]);
                }
                seen += 1;
            }
            line + "\n"
        })
        .collect();
    let [x, y, z] = moved.unwrap();
    let moved_obj = temp("ry_dm7_moved.obj");
    std::fs::write(&moved_obj, &edited).unwrap();
    assert_eq!(
        apply(&file, &moved_obj, &out),
        [format!("nodes[5]: origin moved to ({x}, {y}, {z})")]
    );
    let o = navkit(&["diff", s(&file), s(&out)]);
    let diff = stdout(&o);
    assert_eq!(diff.lines().count(), 1, "{diff}");
    assert!(diff.starts_with("nodes[5].origin: "), "{diff}");

    // Every line into node 0 gone: refused, nothing written.
    let cut: String = edited
        .lines()
        .filter(|l| !(l.starts_with("l ") && l.split(' ').skip(1).any(|w| w == "1")))
        .map(|l| format!("{l}\n"))
        .collect();
    let cut_obj = temp("ry_dm7_cut.obj");
    std::fs::write(&cut_obj, cut).unwrap();
    let refused = temp("ry_dm7_cut.nav");
    let _ = std::fs::remove_file(&refused);
    let o = navkit(&["apply", s(&file), s(&cut_obj), "-o", s(&refused)]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("links cannot be added or deleted"),
        "{}",
        stderr(&o)
    );
    assert!(!refused.exists());
}
