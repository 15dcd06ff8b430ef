//! `export` and `build` are inverses: for every non-empty real file of every format with a
//! builder, export (OBJ) -> build -> export gives the same vertex positions and the same surface
//! area; and the same loop end to end through the binary, in OBJ and glTF, with `--up z`, turned
//! and refused triangles.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::collections::{HashMap, HashSet};

use nav_core::geometry::{Geometry, UpAxis};
use nav_core::testing::{real_file, real_files, skip_without_corpus};
use navkit::registry::{self, AnyFormat};

mod common;
use common::{navkit, stderr, temp};

/// The Y-up positions of the vertices polygons use.
fn used_positions(g: &Geometry) -> Vec<[f32; 3]> {
    let mut used = vec![false; g.vertices.len()];
    for p in &g.polygons {
        for v in &p.vertices {
            used[*v as usize] = true;
        }
    }
    g.vertices
        .iter()
        .zip(used)
        .filter(|(_, u)| *u)
        .map(|(v, _)| g.y_up(*v))
        .collect()
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f64; 3] {
    core::array::from_fn(|i| f64::from(a[i]) - f64::from(b[i]))
}

fn norm(v: [f64; 3]) -> f64 {
    v.iter().map(|c| c * c).sum::<f64>().sqrt()
}

/// Each polygon fanned from its first corner, as export's consumers triangulate it.
fn triangles(g: &Geometry) -> impl Iterator<Item = [[f32; 3]; 3]> + '_ {
    g.polygons.iter().flat_map(move |p| {
        let c: Vec<[f32; 3]> = p.vertices.iter().map(|v| g.vertices[*v as usize]).collect();
        (1..c.len() - 1).map(move |i| [c[0], c[i], c[i + 1]])
    })
}

/// Total 3D surface area.
fn area(g: &Geometry) -> f64 {
    triangles(g)
        .map(|[a, b, c]| {
            let (u, v) = (sub(b, a), sub(c, a));
            0.5 * norm([
                u[1] * v[2] - u[2] * v[1],
                u[2] * v[0] - u[0] * v[2],
                u[0] * v[1] - u[1] * v[0],
            ])
        })
        .sum()
}

/// Whether every point of `a` has one of `b` within `tol` on each axis (a grid of `tol` cells;
/// no quadratic search).
fn covered(a: &[[f32; 3]], b: &[[f32; 3]], tol: [f64; 3]) -> Result<(), String> {
    let cell = |p: [f32; 3]| -> [i64; 3] {
        core::array::from_fn(|i| (f64::from(p[i]) / tol[i]).floor() as i64)
    };
    let mut grid: HashMap<[i64; 3], Vec<[f32; 3]>> = HashMap::new();
    for p in b {
        grid.entry(cell(*p)).or_default().push(*p);
    }
    for p in a {
        let c = cell(*p);
        let near =
            (-1..=1).flat_map(|x| (-1..=1).flat_map(move |y| (-1..=1).map(move |z| [x, y, z])));
        let hit = near
            .filter_map(|d: [i64; 3]| grid.get(&[c[0] + d[0], c[1] + d[1], c[2] + d[2]]))
            .flatten()
            .any(|q| (0..3).all(|i| (f64::from(p[i]) - f64::from(q[i])).abs() <= tol[i]));
        if !hit {
            return Err(format!("{p:?} has no counterpart within {tol:?}"));
        }
    }
    Ok(())
}

/// What the loop gave for one file.
enum Outcome {
    Same,
    /// The build refused triangles that cannot face up (the message).
    Refused(String),
    /// The builder refuses the file's own triangles, taken straight from its geometry without
    /// export and import, with this error: a limit of the builder, not of the loop.
    BuilderRefuses(String),
}

/// The geometry's polygons, fanned, straight into a mesh (no export, no import, no welding).
fn direct_mesh(g: &Geometry) -> nav_core::geometry::TriangleMesh {
    nav_core::geometry::TriangleMesh {
        vertices: g.vertices.clone(),
        triangles: g
            .polygons
            .iter()
            .flat_map(|p| {
                (1..p.vertices.len() - 1).map(|i| [p.vertices[0], p.vertices[i], p.vertices[i + 1]])
            })
            .collect(),
    }
}

/// geometry -> OBJ -> import -> build -> geometry, compared with the first geometry.
fn export_build_export(
    format: &dyn AnyFormat,
    name: &str,
    g: &Geometry,
) -> Result<Outcome, String> {
    let obj = temp(&format!("{}.obj", name.replace('/', "_")));
    std::fs::write(&obj, navkit::export::to_obj(g, name)).unwrap();
    let up = navkit::import::target_up(format).unwrap()?;
    assert_eq!(up, g.up, "the builder's axes are its geometry's");
    let mut mesh = navkit::import::read_mesh(&obj, UpAxis::Y, up)?;
    std::fs::remove_file(&obj).ok();
    if let Err(refused) = mesh.face_up(up) {
        let list: Vec<String> = refused.iter().map(ToString::to_string).collect();
        return Ok(Outcome::Refused(list.join("; ")));
    }
    let built = match format.build(&mesh).unwrap() {
        Ok(b) => b,
        Err(e) => {
            let mut direct = direct_mesh(g);
            let _ = direct.face_up(up);
            return match format.build(&direct).unwrap() {
                Err(direct_error) => Ok(Outcome::BuilderRefuses(direct_error.to_string())),
                Ok(_) => Err(format!("build: {e} (the file's own triangles build)")),
            };
        }
    };
    let h = format.geometry(&built).map_err(|e| e.to_string())?.unwrap();
    let (a, b) = (used_positions(g), used_positions(&h));

    // Tolerances. Skyrim's builder keeps every vertex bit for bit, and the axis mapping only
    // swaps and negates: positions compare exactly. nav2's builder quantises again on its own
    // grid (`floor(65535 / extent)` steps per world unit, positions rounded): each position moves
    // by at most half a step, plus the f32 rounding of decoding (a few ulp of the coordinate).
    let step: [f64; 3] = match format.name() {
        "nav2-mgsv" => core::array::from_fn(|i| {
            let (lo, hi) = mesh
                .vertices
                .iter()
                .fold((f64::MAX, f64::MIN), |(lo, hi), v| {
                    (lo.min(f64::from(v[i])), hi.max(f64::from(v[i])))
                });
            let extent = hi - lo;
            let d = if extent > 0.0 {
                (65535.0 / extent).floor()
            } else {
                65535.0
            };
            let magnitude = lo.abs().max(hi.abs());
            0.5 / d.min(65535.0) + magnitude * 4.0 * f64::from(f32::EPSILON)
        }),
        _ => [0.0; 3],
    };
    if step == [0.0; 3] {
        let bits = |s: &[[f32; 3]]| -> HashSet<[u32; 3]> {
            s.iter().map(|p| p.map(f32::to_bits)).collect()
        };
        if bits(&a) != bits(&b) {
            return Err(format!(
                "vertex positions differ: {} before, {} after, {} in common",
                bits(&a).len(),
                bits(&b).len(),
                bits(&a).intersection(&bits(&b)).count()
            ));
        }
    } else {
        // Y-up export axes: the nav2 world axes are those already.
        covered(&a, &b, step).map_err(|e| format!("before -> after: {e}"))?;
        covered(&b, &a, step).map_err(|e| format!("after -> before: {e}"))?;
    }
    // Area: equal up to summation order when nothing moved; otherwise each triangle's area
    // changes by at most (half its perimeter) x (the longest move) per corner, to first order,
    // bounded here by perimeter x move + 3 move^2.
    let (before, after) = (area(g), area(&h));
    let moved = norm(step);
    let bound = triangles(g)
        .map(|[p, q, r]| {
            let perimeter = norm(sub(q, p)) + norm(sub(r, q)) + norm(sub(p, r));
            perimeter * moved + 3.0 * moved * moved
        })
        .sum::<f64>()
        + before * 1e-9;
    if (before - after).abs() > bound {
        return Err(format!(
            "surface area {before} -> {after} (difference {}, allowed {bound})",
            (before - after).abs()
        ));
    }
    Ok(Outcome::Same)
}

/// The real files whose triangles `face_up` refuses after export and import, each with the
/// index of every triangle refused: vertical or degenerate triangles, or ones that repeat a
/// vertex, never a matter of orientation. Any other refusal fails the test. Indices count the
/// exported OBJ's triangles, whose faces are in record order (not grouped by kind).
const CANNOT_FACE_UP: &[(&str, &[usize])] = &[
    ("Mundusform_4067dc7_040F437A.nvnm", &[404]),
    ("Mundusform_4067dc7_041832A2.nvnm", &[262]),
    ("Undaunted_040F437A.nvnm", &[404]),
    (
        "obj2nav2_test.nav2",
        &[
            5, 7, 9, 11, 13, 15, 17, 19, 23, 27, 31, 33, 35, 37, 39, 41, 43, 45, 51, 52, 55, 59,
            69, 71, 73, 75, 77, 83, 84, 87, 91, 93, 97, 101, 103, 105, 109, 117, 121, 123, 125,
            130, 135, 137, 145, 151, 155, 157, 160, 161, 163, 164, 168, 170, 174, 180, 184, 186,
            188, 191, 195, 199, 201, 205, 207, 213, 217, 219, 221, 223, 225, 227, 228, 233, 241,
            251, 256, 258, 262, 264, 266, 271, 272, 275, 277, 290, 291, 293, 301, 305, 309, 317,
            318, 320, 325, 329, 338, 342, 343, 345, 348, 351, 357, 363, 365,
        ],
    ),
    ("ssav_136_127_nav.nav2", &[160, 870]),
    ("ssav_136_135_nav.nav2", &[520]),
    ("ssav_137_128_nav.nav2", &[576]),
    ("ssav_137_129_nav.nav2", &[622]),
    ("ssav_137_130_nav.nav2", &[530]),
    ("ssav_137_131_nav.nav2", &[165]),
    ("ssav_137_134_nav.nav2", &[206]),
    ("ssav_138_127_nav.nav2", &[259, 1273]),
    ("ssav_139_131_nav.nav2", &[788]),
    ("ssav_140_130_nav.nav2", &[791, 1380, 1669, 2042]),
    ("ssav_140_135_nav.nav2", &[860]),
    ("ssav_141_134_nav.nav2", &[116]),
    ("ssav_142_135_nav.nav2", &[293]),
    ("ssav_143_131_nav.nav2", &[721]),
    ("ssav_144_127_nav.nav2", &[949]),
    ("ssav_144_128_nav.nav2", &[1018]),
    ("ssav_144_132_nav.nav2", &[109]),
    ("ssav_144_133_nav.nav2", &[165]),
    ("ssav_144_134_nav.nav2", &[474]),
];

/// The real files whose own triangles (straight from their geometry, without export and import)
/// the builder refuses too, each with the triangle and edge of the refusal: limits of the
/// builder, not of the loop. Any other refusal fails the test.
const BUILDER_REFUSES: &[(&str, &str)] = &[
    (
        "Mundusform_4067dc7_04064E6D.nvnm",
        "triangles[435]: runs edge 57-443 the same way as triangle 434",
    ),
    (
        "Mundusform_4067dc7_0407431E.nvnm",
        "triangles[1070]: runs edge 214-961 the same way as triangle 1016",
    ),
    (
        "Mundusform_4067dc7_0408D8F9.nvnm",
        "triangles[1010]: runs edge 221-260 the same way as triangle 685",
    ),
    (
        "Mundusform_4067dc7_04103FBE.nvnm",
        "triangles[267]: runs edge 4-206 the same way as triangle 8",
    ),
    (
        "Mundusform_4067dc7_0410E629.nvnm",
        "triangles[745]: runs edge 16-1216 the same way as triangle 536",
    ),
    (
        "Mundusform_4067dc7_041832A3.nvnm",
        "triangles[114]: runs edge 31-102 the same way as triangle 22",
    ),
    (
        "Portable_Storage_Room_050008BA.nvnm",
        "triangles[396]: runs edge 162-165 the same way as triangle 380",
    ),
    (
        "Undaunted_04064E6D.nvnm",
        "triangles[435]: runs edge 57-443 the same way as triangle 434",
    ),
    (
        "Undaunted_0407431E.nvnm",
        "triangles[1070]: runs edge 214-961 the same way as triangle 1016",
    ),
    (
        "Undaunted_0408D8F9.nvnm",
        "triangles[1010]: runs edge 221-260 the same way as triangle 685",
    ),
    (
        "Undaunted_04103FBE.nvnm",
        "triangles[267]: runs edge 4-206 the same way as triangle 8",
    ),
    (
        "Undaunted_0410E629.nvnm",
        "triangles[745]: runs edge 16-1216 the same way as triangle 536",
    ),
    (
        "Undaunted_041832A3.nvnm",
        "triangles[114]: runs edge 31-102 the same way as triangle 22",
    ),
    (
        "Undaunted_042186DF.nvnm",
        "triangles[226]: runs edge 189-242 the same way as triangle 193",
    ),
];

#[test]
fn export_build_export_keeps_positions_and_area_on_every_real_file() {
    let mut failures = Vec::new();
    let (mut refused, mut builder) = (Vec::new(), Vec::new());
    let mut every_folder = true;
    for (folder, name) in [("skyrim/nvnm", "nvnm-skyrim"), ("mgsv", "nav2-mgsv")] {
        let format = registry::by_name(name).unwrap();
        assert!(
            navkit::import::target_up(format).is_some(),
            "{name} has a builder"
        );
        let files = real_files(folder);
        if files.is_empty() {
            skip_without_corpus(&format!("no real file in {folder}"));
            every_folder = false;
            continue;
        }
        let (mut same, mut empty) = (0, 0);
        for (dir, path) in files {
            let rel = path.strip_prefix(&dir).unwrap().display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            let g = format.geometry(&bytes).unwrap().unwrap();
            if g.polygons.is_empty() {
                empty += 1;
                continue;
            }
            match export_build_export(format, &rel, &g) {
                Ok(Outcome::Same) => same += 1,
                Ok(Outcome::Refused(why)) => refused.push((rel, why)),
                Ok(Outcome::BuilderRefuses(why)) => builder.push((rel, why)),
                Err(e) => failures.push(format!("{name}: {rel}: {e}")),
            }
        }
        eprintln!("{name}: {same} files the same after export -> build -> export, {empty} empty");
        assert!(same > 0, "{name}: no file went through the loop");
    }
    for (rel, why) in &refused {
        eprintln!("  cannot face up: {rel}: {why}");
    }
    for (rel, why) in &builder {
        eprintln!("  builder refuses the original triangles too: {rel}: {why}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each refusal is expected, by file and triangle, and each expected one happens (the lists
    // are of the whole corpus: with a folder missing, only its files are compared).
    let kept = |f: &str| every_folder || refused.iter().chain(&builder).any(|(g, _)| g == f);
    let got: Vec<(&str, Vec<usize>)> = refused
        .iter()
        .map(|(f, why)| {
            let indices = why
                .split("; ")
                .map(|one| {
                    assert!(
                        ["is vertical", "is degenerate", "repeats a vertex"]
                            .iter()
                            .any(|r| one.contains(r)),
                        "{f}: {one}"
                    );
                    let at = one.strip_prefix("triangles[").expect(one);
                    at[..at.find(']').expect(one)].parse().expect(one)
                })
                .collect();
            (f.as_str(), indices)
        })
        .collect();
    let expected: Vec<(&str, Vec<usize>)> = CANNOT_FACE_UP
        .iter()
        .filter(|(f, _)| kept(f))
        .map(|(f, i)| (*f, i.to_vec()))
        .collect();
    assert_eq!(got, expected, "triangles that cannot face up");
    let got: Vec<(&str, &str)> = builder
        .iter()
        .map(|(f, why)| (f.as_str(), why.as_str()))
        .collect();
    let expected: Vec<(&str, String)> = BUILDER_REFUSES
        .iter()
        .filter(|(f, _)| kept(f))
        .map(|(f, e)| {
            let why = format!("nvnm-skyrim: mesh {e}: one of them is flipped or a duplicate");
            (*f, why)
        })
        .collect();
    let expected: Vec<(&str, &str)> = expected.iter().map(|(f, e)| (*f, e.as_str())).collect();
    assert_eq!(got, expected, "builder refusals");
}

#[test]
fn the_loop_through_the_binary_in_obj_and_gltf() {
    // A Skyrim blob: export (Y up), build back, both ways give the same file.
    let Some(blob) = real_file("skyrim/nvnm", "Cheat_Room_05005793.nvnm") else {
        return;
    };
    let blob = blob.to_str().unwrap().to_string();
    let mut built = Vec::new();
    for ending in ["obj", "glb"] {
        let mesh = temp(&format!("loop.{ending}"));
        let out = temp(&format!("loop-{ending}.nvnm"));
        let o = navkit(&["export", &blob, "-o", mesh.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = navkit(&[
            "build",
            "--format",
            "nvnm-skyrim",
            mesh.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{ending}: {}", stderr(&o));
        assert!(!stderr(&o).contains("cannot face up"), "{}", stderr(&o));
        built.push(std::fs::read(&out).unwrap());
    }
    assert_eq!(built[0], built[1], "OBJ and glTF give the same navmesh");
    // The built blob exports to the same positions as the original (the OBJ vertex lines, as a
    // set: the builder drops nothing, adds nothing and moves nothing).
    let vertex_lines = |file: &str| -> HashSet<String> {
        let obj = temp("v.obj");
        let o = navkit(&[
            "export",
            "--format",
            "nvnm-skyrim",
            file,
            "-o",
            obj.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(&obj)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("v "))
            .map(str::to_string)
            .collect()
    };
    let rebuilt = temp("loop-obj.nvnm");
    let before = vertex_lines(&blob);
    let after = vertex_lines(rebuilt.to_str().unwrap());
    assert!(!before.is_empty());
    let new: Vec<_> = after.difference(&before).collect();
    let dropped: Vec<_> = before.difference(&after).collect();
    assert!(new.is_empty(), "new positions: {new:?}");
    assert!(dropped.is_empty(), "dropped positions: {dropped:?}");
}

#[test]
fn build_reads_y_up_by_default_and_z_up_when_told() {
    // The Z-up sample read as Y-up stands on its side: every triangle is refused as vertical.
    let out = temp("zup.nvnm");
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        "samples/meshes/skyrim_flat_square.obj",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("8 triangles cannot face up"), "{err}");
    assert!(
        err.contains("triangles[0] is vertical") && err.contains("triangles[7] is vertical"),
        "{err}"
    );
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        "--up",
        "z",
        "samples/meshes/skyrim_flat_square.obj",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    // And a Y-up mesh with --up z reads as it is: Y-up sample into nav2 (Y up) stands upright.
    let o = navkit(&[
        "build",
        "--format",
        "nav2-mgsv",
        "--up",
        "z",
        "samples/meshes/flat_square.obj",
        "-o",
        temp("x.nav2").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("is vertical"), "{}", stderr(&o));
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        "--up",
        "x",
        "m.obj",
        "-o",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn down_facing_triangles_are_turned_and_counted() {
    // Blender's default OBJ export: Y up; one triangle wound clockwise seen from above.
    let obj = temp("mixed.obj");
    std::fs::write(
        &obj,
        "v 0 0 0\nv 10 0 0\nv 10 0 -10\nv 0 0 -10\nv 0 5 0\nv 10 5 0\nf 1 2 3\nf 1 4 3\n",
    )
    .unwrap();
    for format in ["nvnm-skyrim", "nav2-mgsv"] {
        let out = temp(&format!("mixed-{format}"));
        let o = navkit(&[
            "build",
            "--format",
            format,
            obj.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("turned 1 triangle that faced down to face up"),
            "{format}: {}",
            stderr(&o)
        );
        let o = navkit(&["validate", "--format", format, out.to_str().unwrap()]);
        assert!(o.status.success(), "{format}");
    }
    // A wall and a sliver are refused by index; the good triangles do not hide them.
    std::fs::write(
        &obj,
        "v 0 0 0\nv 10 0 0\nv 10 0 -10\nv 0 5 0\nv 20 0 0\nf 1 2 3\nf 1 2 4\nf 1 2 5\n",
    )
    .unwrap();
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        obj.to_str().unwrap(),
        "-o",
        temp("bad").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("2 triangles cannot face up"), "{err}");
    assert!(err.contains("triangles[1] is vertical"), "{err}");
    assert!(err.contains("triangles[2] is degenerate"), "{err}");
    assert!(!err.contains("triangles[0]"), "{err}");
    // glTF without a BIN chunk or with a broken buffer is refused with the file's name.
    let gltf = temp("broken.gltf");
    std::fs::write(
        &gltf,
        r#"{"asset":{"version":"2.0"},"buffers":[{"byteLength":12,"uri":"missing.bin"}]}"#,
    )
    .unwrap();
    let o = navkit(&[
        "build",
        "--format",
        "nav2-mgsv",
        gltf.to_str().unwrap(),
        "-o",
        temp("y").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("broken.gltf: buffers[0]"),
        "{}",
        stderr(&o)
    );
    let o = navkit(&["build", "--format", "nav2-mgsv", "mesh.fbx", "-o", "y"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn gltf_node_transforms_and_data_uris_are_read() {
    // One triangle, counter-clockwise seen from above (Y up), in a node moved by (100, 5, 0);
    // its buffer inline as base64.
    let gltf = temp("moved.gltf");
    std::fs::write(
        &gltf,
        r#"{"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],
        "nodes":[{"mesh":0,"translation":[100,5,0]}],
        "meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],
        "accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3",
          "min":[0,0,-10],"max":[10,0,0]}],
        "bufferViews":[{"buffer":0,"byteLength":36}],
        "buffers":[{"byteLength":36,
          "uri":"data:application/octet-stream;base64,AAAAAAAAAAAAAAAAAAAgQQAAAAAAAAAAAAAgQQAAAAAAACDB"}]}"#,
    )
    .unwrap();
    let out = temp("moved.nvnm");
    let o = navkit(&[
        "build",
        "--format",
        "nvnm-skyrim",
        gltf.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("turned"), "{}", stderr(&o));
    // Skyrim is Z up: (x, y, z) Y-up is (x, -z, y) there; export turns it back.
    let bytes = std::fs::read(&out).unwrap();
    let g = registry::by_name("nvnm-skyrim")
        .unwrap()
        .geometry(&bytes)
        .unwrap()
        .unwrap();
    assert_eq!(
        g.vertices,
        [[100.0, 0.0, 5.0], [110.0, 0.0, 5.0], [110.0, 10.0, 5.0]]
    );
}
