//! Mesh edits put back onto Source 2 `.nav` files: every real file's own geometry (and the
//! sample rooms of every version), as a modelling tool gives it back (n-gons, fanned triangles,
//! triangles with their own vertices), changes nothing and writes the original bytes; on a pool
//! file (v35) and an inline-corner file (v30), one moved vertex, one deleted face, one added face
//! and one attribute change come back as exactly that, and validate clean.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};
use nav_core::geometry::{Geometry, VertexIdentity};
use nav_core::testing::{as_ngons, as_split_triangles, check_unedited, is_negative, real_file};
use nav_core::{Format, RawF32, Severity};
use nav_source2::{Source2Mesh, Source2Nav};

fn apply(model: &mut Source2Mesh, mesh: &EditedMesh) -> nav_core::Result<Vec<String>> {
    apply_mesh(&Source2Nav, model, mesh, &MatchOptions::default())
}

fn no_errors(model: &Source2Mesh, what: &str) {
    let errors: Vec<_> = nav_source2::validate(model)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:?}");
}

/// Writes and reads back: the edit is what the file holds.
fn written(model: &Source2Mesh) -> Source2Mesh {
    nav_source2::read(&Source2Nav.write(model).unwrap()).unwrap()
}

/// The unedited mesh, three ways, changes nothing; returns the number of polygons.
fn unedited_is_unchanged(name: &str, bytes: &[u8]) -> usize {
    let model = nav_source2::read(bytes).unwrap();
    let g = Source2Nav.geometry(&model).unwrap();
    assert!(g.is_consistent(), "{name}");
    let identity = if model.version >= 31 {
        assert_eq!(
            g.vertices.len(),
            model.corners.len(),
            "{name}: the pool 1:1"
        );
        VertexIdentity::Shared
    } else {
        VertexIdentity::Corners
    };
    assert_eq!(g.vertex_identity, identity, "{name}");
    check_unedited(&Source2Nav, &model, bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    g.polygons.len()
}

#[test]
fn unedited_geometry_gives_the_original_bytes_for_every_real_file() {
    let (mut files, mut polygons) = (0, 0);
    for (name, path) in common::source2_files() {
        let bytes = std::fs::read(&path).unwrap();
        if is_negative(&path) && !nav_source2::sniff(&bytes) {
            continue;
        }
        polygons += unedited_is_unchanged(&name, &bytes);
        files += 1;
    }
    for version in 30..=36 {
        let bytes = nav_source2::write(&nav_source2::samples::room(version, 1)).unwrap();
        polygons += unedited_is_unchanged(&format!("room v{version}"), &bytes);
    }
    println!(
        "{files} real files and 7 rooms, {polygons} areas: unedited meshes write the original bytes"
    );
}

/// A real file's model, its geometry, and an area in the middle with a polygon.
fn sample(file: &str) -> Option<(Source2Mesh, Geometry, usize)> {
    let path = real_file("source2", file)?;
    let model = nav_source2::read(&std::fs::read(path).unwrap()).unwrap();
    let g = Source2Nav.geometry(&model).unwrap();
    assert_eq!(
        g.polygons.len(),
        model.areas.len(),
        "{file}: every area a polygon"
    );
    let a = model.areas.len() / 2;
    Some((model, g, a))
}

/// A pool file (v35, with CS2's arealist) and an inline-corner file (v30).
const FILES: [&str; 2] = ["vrf_de_mirage_v35.nav", "vrf_workshop_example_tilemesh.nav"];

#[test]
fn a_moved_vertex_moves_exactly_that_corner() {
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        let v = g.polygons[a].vertices[1];
        let p = g.vertices[v as usize];
        let to = [p[0] + 1.5, p[1], p[2] + 2.0];
        let mut expected = model.clone();
        let line = if model.version >= 31 {
            expected.corners[v as usize] = to.map(RawF32::new);
            format!("corners[{v}]: moved to ({}, {}, {})", to[0], to[1], to[2])
        } else {
            expected.areas[a].corners[1] = to.map(RawF32::new);
            format!(
                "areas[id {}].corners[1]: moved to ({}, {}, {})",
                model.areas[a].id, to[0], to[1], to[2]
            )
        };
        // Through n-gons, and through Blender's split triangles (every copy of the vertex in
        // the pool file, area a's own in the inline one).
        let mut ngons = as_ngons(&g);
        ngons.vertices[v as usize] = to;
        let mut split = as_split_triangles(&g);
        let first: usize = g.polygons[..a]
            .iter()
            .map(|p| 3 * (p.vertices.len() - 2))
            .sum();
        let own = 3 * (g.polygons[a].vertices.len() - 2);
        for (i, q) in split.vertices.iter_mut().enumerate() {
            let mine = model.version >= 31 || (first..first + own).contains(&i);
            if *q == p && mine {
                *q = to;
            }
        }
        for (how, mesh) in [("n-gons", ngons), ("split triangles", split)] {
            let mut edited = model.clone();
            let lines = apply(&mut edited, &mesh).unwrap();
            assert_eq!(lines, std::slice::from_ref(&line), "{file} {how}");
            assert_eq!(edited, expected, "{file} {how}");
        }
        assert_eq!(written(&expected), expected, "{file}");
        no_errors(&expected, file);
    }
}

#[test]
fn a_deleted_face_deletes_its_area_and_fix_drops_what_named_it() {
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        let mut mesh = as_ngons(&g);
        mesh.faces.remove(a);
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap();
        let id = model.areas[a].id;
        assert_eq!(lines[0], format!("areas[id {id}]: deleted"), "{file}");
        let mut expected = model.clone();
        let gone = expected.areas.remove(a);
        let mut rest = 1;
        if model.version >= 31 {
            // Its polygon was its own: it goes, and the later indices follow.
            assert!(
                model
                    .areas
                    .iter()
                    .filter(|x| x.polygon == gone.polygon)
                    .count()
                    == 1
            );
            expected.polygons.remove(gone.polygon as usize);
            for x in &mut expected.areas {
                if x.polygon > gone.polygon {
                    x.polygon -= 1;
                }
            }
            assert!(lines[rest].starts_with(&format!("polygons[{}]: removed", gone.polygon)));
            rest += 1;
        }
        if model.custom_data.is_some() {
            assert!(
                lines[rest].starts_with("custom_data: the arealist"),
                "{file}"
            );
            rest += 1;
        }
        let fixed = nav_source2::fix(&mut expected);
        assert!(!fixed.is_empty(), "{file}: nothing named area {id}");
        assert_eq!(lines[rest..], fixed[..], "{file}");
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);
    }
}

#[test]
fn an_added_face_is_a_new_area_sharing_the_corners_it_is_on() {
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        // A triangle hanging from area a's first corner: that corner is a's (a pool file
        // shares it), the two others are new. (A face on two of a's corners would be a's own
        // face with its other corners moved, to the matcher.)
        let v0 = g.polygons[a].vertices[0];
        let p0 = g.vertices[v0 as usize];
        let far = [
            [p0[0] + 40.0, p0[1] - 50.0, p0[2] + 700.0],
            [p0[0] + 90.0, p0[1], p0[2] + 700.0],
        ];
        let mut mesh = as_ngons(&g);
        let new = u32::try_from(mesh.vertices.len()).unwrap();
        mesh.vertices.extend(far);
        mesh.faces.push(vec![v0, new, new + 1]);
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap();
        let id = model.areas.iter().map(|x| x.id).max().unwrap() + 1;
        let mut expected = model.clone();
        let mut area = nav_source2::Area {
            id,
            connections: (0..3).map(|_| Default::default()).collect(),
            ..Default::default()
        };
        let show = |p: [f32; 3]| format!("({}, {}, {})", p[0], p[1], p[2]);
        let what = if model.version >= 31 {
            let c = u32::try_from(model.corners.len()).unwrap();
            expected.corners.extend(far.map(|p| p.map(RawF32::new)));
            area.polygon = u32::try_from(model.polygons.len()).unwrap();
            expected.polygons.push(nav_source2::Polygon {
                corners: vec![v0, c, c + 1].into(),
                ..Default::default()
            });
            format!("pool polygon {}", area.polygon)
        } else {
            area.corners = [p0, far[0], far[1]].map(|p| p.map(RawF32::new)).into();
            "its own corners".to_string()
        };
        expected.areas.push(area);
        assert_eq!(
            lines[0],
            format!(
                "areas[id {id}]: added from faces[{}], {what}, corners {} {} {}",
                g.polygons.len(),
                show(p0),
                show(far[0]),
                show(far[1])
            ),
            "{file}"
        );
        assert_eq!(
            lines.len(),
            1 + usize::from(model.custom_data.is_some()),
            "{file}"
        );
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);
    }
}

#[test]
fn an_attribute_change_sets_the_flags() {
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        assert_eq!(g.attributes, ["attribute_flags"]);
        let mut mesh = as_ngons(&g);
        let mut values: Vec<i64> = g.polygons.iter().map(|p| p.attributes[0]).collect();
        let was = model.areas[a].attribute_flags;
        let now = was ^ 0x10000; // crouch
        values[a] = i64::from_ne_bytes(now.to_ne_bytes());
        mesh.attributes = vec![("attribute_flags".into(), values)];
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap();
        assert_eq!(
            lines,
            [format!(
                "areas[id {}].attribute_flags: set to {now:#x} (was {was:#x})",
                model.areas[a].id
            )],
            "{file}"
        );
        let mut expected = model.clone();
        expected.areas[a].attribute_flags = now;
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);
    }
}

#[test]
fn a_pool_with_a_corner_that_is_not_finite_is_refused() {
    let mut model = nav_source2::samples::room(35, 0);
    // A pool corner no polygon uses: the areas still map, but the pool cannot be the vertices.
    model.corners.push([f32::NAN, 0.0, 0.0].map(RawF32::new));
    let g = Source2Nav.geometry(&model).unwrap();
    assert_eq!(g.vertex_identity, VertexIdentity::Unknown);
    assert_eq!(g.polygons.len(), 4);
    assert!(g.vertices.iter().flatten().all(|c| c.is_finite()));
    let mut edited = model.clone();
    let e = apply(&mut edited, &as_ngons(&g)).unwrap_err().to_string();
    assert!(e.contains("does not map its records"), "{e}");
    assert_eq!(edited, model);
}
