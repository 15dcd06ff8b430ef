//! `export` and `build` are inverses on what the games ship: for every non-empty real file of
//! every format with a builder (Fox Engine `.nav2`, Skyrim `NVNM` blobs, and the navmeshes of
//! every Skyrim plugin through their `NVNM`), export (OBJ) -> build -> export gives the same
//! triangle corners (as a multiset of positions) and the same surface area, the build's
//! warnings name the triangles of unusual shape (counted by kind), and `validate` finds no error
//! on the built file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::collections::{BTreeMap, HashMap};

use nav_core::Severity;
use nav_core::geometry::{Geometry, UpAxis};
use nav_core::testing::{real_files, skip_without_corpus};
use navkit::registry::{self, AnyFormat};

mod common;
use common::temp;

fn sub(a: [f32; 3], b: [f32; 3]) -> [f64; 3] {
    core::array::from_fn(|i| f64::from(a[i]) - f64::from(b[i]))
}

fn norm(v: [f64; 3]) -> f64 {
    v.iter().map(|c| c * c).sum::<f64>().sqrt()
}

/// Each polygon fanned from its first corner (as export's consumers triangulate it), Y up.
fn triangles(g: &Geometry) -> Vec<[[f32; 3]; 3]> {
    g.polygons
        .iter()
        .flat_map(move |p| {
            let c: Vec<[f32; 3]> = p
                .vertices
                .iter()
                .map(|v| g.y_up(g.vertices[*v as usize]))
                .collect();
            (1..c.len() - 1)
                .map(|i| [c[0], c[i], c[i + 1]])
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Total 3D surface area.
fn area(tris: &[[[f32; 3]; 3]]) -> f64 {
    tris.iter()
        .map(|[a, b, c]| {
            let (u, v) = (sub(*b, *a), sub(*c, *a));
            0.5 * norm([
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ])
        })
        .sum()
}

/// Whether the corners of `a` and of `b` are the same multiset of positions, each paired with
/// one of the other within `tol` on each axis (exact bits when `tol` is zero). Pairs greedily
/// over a grid of `tol` cells (no quadratic search).
fn same_corners(a: &[[f32; 3]], b: &[[f32; 3]], tol: [f64; 3]) -> Result<(), String> {
    if a.len() != b.len() {
        return Err(format!("{} corners before, {} after", a.len(), b.len()));
    }
    if tol == [0.0; 3] {
        let count = |s: &[[f32; 3]]| {
            let mut m: HashMap<[u32; 3], usize> = HashMap::new();
            for p in s {
                *m.entry(p.map(f32::to_bits)).or_default() += 1;
            }
            m
        };
        let (ca, cb) = (count(a), count(b));
        return match ca.iter().find(|(k, n)| cb.get(*k) != Some(n)) {
            None => Ok(()),
            Some((k, n)) => Err(format!(
                "{:?} is {n} corners before, {} after",
                k.map(f32::from_bits),
                cb.get(k).copied().unwrap_or(0)
            )),
        };
    }
    let cell = |p: [f32; 3]| -> [i64; 3] {
        core::array::from_fn(|i| (f64::from(p[i]) / tol[i]).floor() as i64)
    };
    let mut grid: HashMap<[i64; 3], Vec<([f32; 3], bool)>> = HashMap::new();
    for p in b {
        grid.entry(cell(*p)).or_default().push((*p, false));
    }
    for p in a {
        let c = cell(*p);
        let mut found = false;
        'near: for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let Some(list) = grid.get_mut(&[c[0] + dx, c[1] + dy, c[2] + dz]) else {
                        continue;
                    };
                    let near = |q: &[f32; 3]| {
                        (0..3).all(|i| (f64::from(p[i]) - f64::from(q[i])).abs() <= tol[i])
                    };
                    if let Some(slot) = list.iter_mut().find(|(q, used)| !used && near(q)) {
                        slot.1 = true;
                        found = true;
                        break 'near;
                    }
                }
            }
        }
        if !found {
            return Err(format!("{p:?} has no counterpart left within {tol:?}"));
        }
    }
    Ok(())
}

/// How far a `.nav2` rebuild may move a coordinate: half a step of the builder's own grid
/// (`floor(65535 / extent)` steps per world unit) plus a few ulp of the coordinate for the
/// decoding; Y-up world axes are the export's.
fn nav2_tolerance(corners: &[[f32; 3]]) -> [f64; 3] {
    core::array::from_fn(|i| {
        let (lo, hi) = corners.iter().fold((f64::MAX, f64::MIN), |(lo, hi), v| {
            (lo.min(f64::from(v[i])), hi.max(f64::from(v[i])))
        });
        let extent = hi - lo;
        let d = if extent > 0.0 {
            (65535.0 / extent).floor()
        } else {
            65535.0
        };
        0.5 / d.min(65535.0) + lo.abs().max(hi.abs()) * 4.0 * f64::from(f32::EPSILON)
    })
}

/// The kind of a build warning, from its text.
fn kind(message: &str) -> &'static str {
    const KINDS: [(&str, &str); 6] = [
        ("is vertical", "vertical"),
        ("is degenerate", "degenerate (corners on a line)"),
        ("faces down", "faces down"),
        ("the same way as triangle", "shared edge run the same way"),
        ("triangles (", "edge shared by 3+ triangles"),
        ("collapses on the stored grid", "collapsed on the grid"),
    ];
    KINDS
        .iter()
        .find(|(text, _)| message.contains(text))
        .map_or("other", |(_, k)| k)
}

/// What the loop over one format's corpus counted.
#[derive(Default)]
struct Tally {
    files: usize,
    empty: usize,
    triangles: usize,
    warnings: BTreeMap<&'static str, usize>,
    /// Files with a warning, and the first warning of each (for the report).
    warned: Vec<String>,
    /// Warnings `validate` gives on the built files, by message with digits dropped.
    validate_warnings: BTreeMap<String, usize>,
    /// Refused files: name and the refusal.
    refused: Vec<(String, String)>,
    failures: Vec<String>,
}

impl Tally {
    fn print(&self, what: &str) {
        eprintln!(
            "{what}: {} files ({} empty, with nothing to export), {} triangles; build \
             warnings {:?}; validate on the built files: no error, warnings {:?}",
            self.files, self.empty, self.triangles, self.warnings, self.validate_warnings
        );
        for w in &self.warned {
            eprintln!("  {w}");
        }
        for (f, why) in &self.refused {
            eprintln!("  refused: {f}: {why}");
        }
    }
}

/// geometry -> OBJ -> import -> face up -> build -> validate -> geometry, compared with the first
/// geometry; counts into `tally`.
fn export_build_export(format: &dyn AnyFormat, name: &str, g: &Geometry, tally: &mut Tally) {
    if g.polygons.is_empty() {
        tally.empty += 1;
        return;
    }
    tally.files += 1;
    let fail = |tally: &mut Tally, e: String| tally.failures.push(format!("{name}: {e}"));
    let obj = temp(&format!("bce-{}.obj", name.replace(['/', ' '], "_")));
    std::fs::write(&obj, navkit::export::to_obj(g, name)).unwrap();
    let up = navkit::import::target_up(format).unwrap().unwrap();
    assert_eq!(up, g.up, "the builder's axes are its geometry's");
    let mut mesh = navkit::import::read_mesh(&obj, UpAxis::Y, up).unwrap();
    std::fs::remove_file(&obj).ok();
    tally.triangles += mesh.triangles.len();
    if let Err(refused) = mesh.face_up(up) {
        let list: Vec<String> = refused.iter().map(ToString::to_string).collect();
        tally.refused.push((
            name.to_string(),
            format!("{}: {}", list.len(), list.join("; ")),
        ));
        return;
    }
    let built = match format.build(&mesh).unwrap() {
        Ok(b) => b,
        Err(e) => return fail(tally, format!("build: {e}")),
    };
    for w in &built.warnings {
        assert_eq!(w.severity, Severity::Warning, "{name}: {w}");
        assert_eq!(w.place.root(), Some("triangles"), "{name}: {w}");
        *tally.warnings.entry(kind(&w.message)).or_default() += 1;
    }
    if let Some(first) = built.warnings.first() {
        tally.warned.push(format!(
            "{name}: {} warnings, first {first}",
            built.warnings.len()
        ));
    }
    for f in format.validate(&built.model).unwrap() {
        match f.severity {
            Severity::Error => fail(tally, format!("validate on the built file: {f}")),
            Severity::Warning => {
                let text: String = f.message.chars().filter(|c| !c.is_ascii_digit()).collect();
                *tally.validate_warnings.entry(text).or_default() += 1;
            }
            Severity::Info => {}
        }
    }
    let h = format.geometry(&built.model).unwrap().unwrap();
    let (before, after) = (triangles(g), triangles(&h));
    let corners = |t: &[[[f32; 3]; 3]]| -> Vec<[f32; 3]> { t.iter().flatten().copied().collect() };
    let tol = match format.name() {
        "nav2-mgsv" => nav2_tolerance(&corners(&before)),
        // Skyrim's builder keeps every vertex bit for bit, and the axis mapping only swaps and
        // negates: positions compare exactly.
        _ => [0.0; 3],
    };
    if let Err(e) = same_corners(&corners(&before), &corners(&after), tol) {
        return fail(tally, format!("triangle corners differ: {e}"));
    }
    let (a0, a1) = (area(&before), area(&after));
    let allowed = if tol == [0.0; 3] { 1e-9 } else { 1e-4 } * a0;
    if (a0 - a1).abs() > allowed {
        fail(
            tally,
            format!("surface area {a0} -> {a1} (allowed {allowed})"),
        );
    }
}

fn format(name: &str) -> &'static dyn AnyFormat {
    let f = registry::by_name(name).unwrap();
    assert!(
        navkit::import::target_up(f).is_some(),
        "{name} has a builder"
    );
    f
}

/// The files of `folder` ending in one of `endings`, read; a loud skip (a failure in CI) when
/// there are none.
fn corpus(folder: &str, endings: &[&str]) -> Vec<(String, Vec<u8>)> {
    let files: Vec<(String, Vec<u8>)> = real_files(folder)
        .into_iter()
        .filter(|(_, p)| {
            let n = p.to_string_lossy().to_ascii_lowercase();
            endings.iter().any(|e| n.ends_with(e))
        })
        .map(|(dir, p)| {
            let rel = p.strip_prefix(&dir).unwrap().display().to_string();
            (rel, std::fs::read(&p).unwrap())
        })
        .collect();
    if files.is_empty() {
        skip_without_corpus(&format!("no real {endings:?} file in {folder}"));
    }
    files
}

#[test]
fn every_real_nvnm_blob_survives_export_build_export() {
    let nvnm = format("nvnm-skyrim");
    let files = corpus("skyrim/nvnm", &[".nvnm"]);
    if files.is_empty() {
        return;
    }
    let mut tally = Tally::default();
    for (name, bytes) in &files {
        let g = nvnm.geometry(bytes).unwrap().unwrap();
        export_build_export(nvnm, name, &g, &mut tally);
    }
    tally.print("nvnm-skyrim blobs");
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    assert!(tally.refused.is_empty(), "refused: {:?}", tally.refused);
    assert!(tally.files > 100, "{} files", tally.files);
    // The shapes the issue names build with warnings now, and no warning is of an unknown kind.
    assert!(
        !tally.warnings.contains_key("other"),
        "{:?}",
        tally.warnings
    );
    for k in [
        "vertical",
        "shared edge run the same way",
        "edge shared by 3+ triangles",
    ] {
        assert!(
            tally.warnings.get(k).is_some_and(|n| *n > 0),
            "{k}: {:?}",
            tally.warnings
        );
    }
    assert!(
        tally
            .warned
            .iter()
            .any(|w| w.starts_with("Mundusform_4067dc7_04103FBE.nvnm")),
        "{:?}",
        tally.warned
    );
}

#[test]
fn every_navmesh_of_every_real_skyrim_plugin_survives_export_build_export() {
    let plugin = registry::by_name("skyrim-plugin").unwrap();
    let nvnm = format("nvnm-skyrim");
    let files = corpus("skyrim", &[".esp", ".esm", ".esl"]);
    if files.is_empty() {
        return;
    }
    let mut tally = Tally::default();
    let mut navmeshes = 0;
    for (name, bytes) in &files {
        for part in plugin.parts(bytes).unwrap() {
            assert_eq!(part.format, "nvnm-skyrim", "{name}: part {}", part.name);
            navmeshes += 1;
            let g = nvnm.geometry(&part.bytes).unwrap().unwrap();
            export_build_export(nvnm, &format!("{name} {}", part.name), &g, &mut tally);
        }
    }
    tally.print(&format!("{} skyrim plugins' navmeshes", files.len()));
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    assert!(tally.refused.is_empty(), "refused: {:?}", tally.refused);
    assert_eq!(tally.files + tally.empty, navmeshes);
    assert!(tally.files > 100, "{} navmeshes", tally.files);
    assert!(
        !tally.warnings.contains_key("other"),
        "{:?}",
        tally.warnings
    );
}

/// The one real `.nav2` the build refuses, and why: Obj2Nav2's test output (a tool's, not the
/// game's) stores triangles with two corners at one position; after export and import those
/// corners are one vertex, a zero-length edge, which no navmesh can store.
const NAV2_REFUSED: &[(&str, usize)] = &[("obj2nav2_test.nav2", 95)];

#[test]
fn every_real_nav2_file_survives_export_build_export() {
    let nav2 = format("nav2-mgsv");
    let files = corpus("mgsv", &[".nav2"]);
    if files.is_empty() {
        return;
    }
    let mut tally = Tally::default();
    for (name, bytes) in &files {
        let g = nav2.geometry(bytes).unwrap().unwrap();
        export_build_export(nav2, name, &g, &mut tally);
    }
    tally.print("nav2-mgsv");
    assert!(tally.failures.is_empty(), "{}", tally.failures.join("\n"));
    assert!(tally.files > 50, "{} files", tally.files);
    assert!(
        !tally.warnings.contains_key("other"),
        "{:?}",
        tally.warnings
    );
    assert!(
        tally.warnings.get("vertical").is_some_and(|n| *n > 0),
        "{:?}",
        tally.warnings
    );
    for f in ["ssav_137_128_nav.nav2", "ssav_140_130_nav.nav2"] {
        assert!(
            tally.warned.iter().any(|w| w.starts_with(f)),
            "{f}: {:?}",
            tally.warned
        );
    }
    // Each refusal is expected, with its count of zero-length edges, and happens.
    let got: Vec<(&str, usize)> = tally
        .refused
        .iter()
        .map(|(f, why)| {
            let (n, list) = why.split_once(": ").unwrap();
            assert!(
                list.split("; ").all(|r| r.contains("zero-length edge")),
                "{f}: {list}"
            );
            (f.as_str(), n.parse().unwrap())
        })
        .collect();
    assert_eq!(got, NAV2_REFUSED, "refused files");
}
