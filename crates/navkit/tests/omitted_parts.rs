//! A plugin navmesh whose `NVNM` does not parse is named on standard error by `export` and
//! `render`, which then write nothing and exit 1, unless `--skip-bad-parts` asks for the rest.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};

use nav_core::Format;
use nvnm_skyrim::plugin::{Item, RecordBody};
use nvnm_skyrim::{Plugin, samples};

mod common;
use common::{fresh_dir, navkit, s, stderr, stdout};

/// The navmesh whose `NVNM` is cut short.
const BAD: u32 = 0x0000_0802;

/// Cuts the `NVNM` of navmesh `form_id` to half its length.
fn cut_nvnm(items: &mut [Item], form_id: u32) {
    for item in items {
        match item {
            Item::Group(g) => cut_nvnm(&mut g.items, form_id),
            Item::Record(r) if r.form_id == form_id => {
                if let RecordBody::Navmesh(b) = &mut r.body {
                    for sub in &mut b.subrecords {
                        if &sub.signature.0 == b"NVNM" {
                            let half = sub.data.len() / 2;
                            sub.data.truncate(half);
                        }
                    }
                }
            }
            Item::Record(_) => {}
        }
    }
}

/// The sample plugin (two navmeshes) written to `dir` as `good.esp`, and with the `NVNM` of
/// navmesh `00000802` cut short as `bad.esp`.
fn plugins(dir: &Path) -> (PathBuf, PathBuf) {
    let good = samples::plugin();
    let mut bad = good.clone();
    cut_nvnm(&mut bad.items, BAD);
    assert_ne!(good, bad);
    let (good_path, bad_path) = (dir.join("good.esp"), dir.join("bad.esp"));
    std::fs::write(&good_path, Plugin.write(&good).unwrap()).unwrap();
    std::fs::write(&bad_path, Plugin.write(&bad).unwrap()).unwrap();
    (good_path, bad_path)
}

/// The line naming the navmesh left out, for the plugin at `path`.
fn left_out_line(path: &Path) -> String {
    format!("navkit: {}: navmesh {BAD:08X} left out: ", path.display())
}

/// The polygon count of `navkit: wrote X (N polygons, ...)`.
fn polygons_written(err: &str) -> usize {
    let line = err.lines().find(|l| l.contains(": wrote ")).unwrap();
    let (_, rest) = line.split_once(" (").unwrap();
    rest.split_once(' ').unwrap().0.parse().unwrap()
}

#[test]
fn the_geometry_names_the_navmesh_it_left_out() {
    let good = samples::plugin();
    let mut bad = good.clone();
    cut_nvnm(&mut bad.items, BAD);
    let whole = Plugin.geometry(&good).unwrap();
    assert!(whole.omitted.is_empty());
    let g = Plugin.geometry(&bad).unwrap();
    assert_eq!(g.omitted.len(), 1);
    assert_eq!(g.omitted[0].part, "navmesh 00000802");
    assert!(!g.omitted[0].reason.is_empty());
    // The other navmesh is still there.
    assert!(!g.polygons.is_empty() && g.polygons.len() < whole.polygons.len());
}

#[test]
fn export_of_a_plugin_with_a_bad_navmesh_fails_unless_told_to_skip_it() {
    let dir = fresh_dir("omitted-export");
    let (good, bad) = plugins(&dir);
    let out = dir.join("bad.obj");
    let o = navkit(&["export", s(&bad), "-o", s(&out)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err.lines()
            .filter(|l| l.starts_with(&left_out_line(&bad)))
            .count(),
        1,
        "{err}"
    );
    assert!(err.contains("--skip-bad-parts"), "{err}");
    assert!(!out.exists(), "nothing is written without --skip-bad-parts");

    let o = navkit(&["export", s(&bad), "-o", s(&out), "--skip-bad-parts"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.contains(&left_out_line(&bad)), "{err}");
    let partial = polygons_written(&err);
    assert!(std::fs::read(&out).unwrap().starts_with(b"#"));

    // The whole plugin: nothing left out, more polygons.
    let o = navkit(&["export", s(&good), "-o", s(&dir.join("good.obj"))]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("left out"), "{err}");
    assert!(polygons_written(&err) > partial, "{err}");
}

#[test]
fn batch_export_fails_the_plugin_with_a_bad_navmesh() {
    let dir = fresh_dir("omitted-batch");
    let (good, bad) = plugins(&dir);
    let out = dir.join("exported");
    let o = navkit(&["export", s(&good), s(&bad), "-o", s(&out), "--jobs", "2"]);
    let (text, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{text}{err}");
    assert!(text.ends_with("1 exported, 1 failed\n"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with(&format!("FAIL  {}", bad.display())) && l.contains("left out")),
        "{text}"
    );
    assert!(err.contains(&left_out_line(&bad)), "{err}");
    assert!(!out.join("bad.esp.glb").exists());

    let o = navkit(&[
        "export",
        s(&good),
        s(&bad),
        "-o",
        s(&out),
        "--skip-bad-parts",
    ]);
    let (text, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{text}{err}");
    assert!(text.ends_with("2 exported, 0 failed\n"), "{text}");
    assert_eq!(err.matches("left out").count(), 1, "{err}");
    assert!(err.contains(&left_out_line(&bad)), "{err}");
    assert!(out.join("bad.esp.glb").is_file());
}

#[test]
fn render_of_a_plugin_with_a_bad_navmesh_fails_unless_told_to_skip_it() {
    let dir = fresh_dir("omitted-render");
    let (_, bad) = plugins(&dir);
    let out = dir.join("bad.svg");
    let o = navkit(&["render", s(&bad), "-o", s(&out)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.starts_with(&left_out_line(&bad)), "{err}");
    assert!(!out.exists());
    let o = navkit(&["render", s(&bad), "-o", s(&out), "--skip-bad-parts"]);
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(err.starts_with(&left_out_line(&bad)), "{err}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("<svg"));
}
