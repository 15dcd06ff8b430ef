//! Mesh edits put back onto `.nav` files: every corpus file's own geometry, as a modelling tool
//! gives it back (n-gons, fanned triangles, triangles with their own vertices), changes nothing
//! and writes the original bytes; on a few files one moved side, one deleted face, one added
//! face and one attribute change come back as exactly that, and validate clean.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};
use nav_core::geometry::Geometry;
use nav_core::testing::{
    as_fans, as_ngons, as_split_triangles, check_unedited, is_negative, real_file, real_files,
};
use nav_core::{Format, RawF32, Severity};
use nav_source::{AreaCustom, SourceMesh, SourceNav};

fn apply(model: &mut SourceMesh, mesh: &EditedMesh) -> nav_core::Result<Vec<String>> {
    apply_mesh(&SourceNav, model, mesh, &MatchOptions::default())
}

fn no_errors(model: &SourceMesh, what: &str) {
    let errors: Vec<_> = nav_source::validate(model)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:?}");
}

/// Writes and reads back: the edit is what the file holds.
fn written(model: &SourceMesh) -> SourceMesh {
    let bytes = SourceNav.write(model).unwrap();
    nav_source::read(&bytes).unwrap()
}

#[test]
fn unedited_geometry_gives_the_original_bytes_for_every_corpus_file() {
    let mut files = 0;
    let mut polygons = 0;
    for (_, path) in real_files("source") {
        if is_negative(&path) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        let model = nav_source::read(&bytes).unwrap();
        let g = SourceNav.geometry(&model).unwrap();
        assert!(g.is_consistent(), "{name}");
        check_unedited(&SourceNav, &model, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        files += 1;
        polygons += g.polygons.len();
    }
    println!("{files} files, {polygons} areas: unedited meshes write the original bytes");
}

/// A corpus file's model, its geometry, and an area in the middle with real extent.
fn sample(file: &str) -> Option<(SourceMesh, Geometry, usize)> {
    let path = real_file("source", file)?;
    let model = nav_source::read(&std::fs::read(path).unwrap()).unwrap();
    let g = SourceNav.geometry(&model).unwrap();
    let a = (model.areas.len() / 2..model.areas.len())
        .find(|a| {
            let c = nav_source::geometry::corners(&model.areas[*a]);
            c[0][0] < c[2][0] && c[0][1] < c[2][1]
        })
        .unwrap();
    Some((model, g, a))
}

const FILES: [&str; 4] = [
    "css_de_dust2.nav",
    "tfnm_itemtest.nav",
    "gs_fy_matrix.nav",
    "l4dfd_tutorial03.nav",
];

#[test]
fn a_moved_side_moves_exactly_those_fields() {
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        // The east side (NE, SE: corners 1 and 2) 3.5 units further east, NE also 2 up, in the
        // n-gons (area a's own vertices).
        let ne = g.vertices[g.polygons[a].vertices[1] as usize];
        let se = g.vertices[g.polygons[a].vertices[2] as usize];
        let shift = |v: &mut [f32; 3]| {
            if *v == ne {
                *v = [ne[0] + 3.5, ne[1], ne[2] + 2.0];
            } else if *v == se {
                *v = [se[0] + 3.5, se[1], se[2]];
            }
        };
        let mut mesh_ngons = as_ngons(&g);
        for k in [1usize, 2] {
            shift(&mut mesh_ngons.vertices[g.polygons[a].vertices[k] as usize]);
        }
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh_ngons).unwrap();
        let id = model.areas[a].id;
        assert_eq!(
            lines,
            [
                format!(
                    "areas[id {id}]: corner NE moved to ({}, {}, {})",
                    ne[0] + 3.5,
                    ne[1],
                    ne[2] + 2.0
                ),
                format!(
                    "areas[id {id}]: corner SE moved to ({}, {}, {})",
                    se[0] + 3.5,
                    se[1],
                    se[2]
                ),
            ],
            "{file}"
        );
        let mut expected = model.clone();
        expected.areas[a].se_corner[0] = RawF32::new(se[0] + 3.5);
        expected.areas[a].ne_z = RawF32::new(ne[2] + 2.0);
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);

        // NE 2 up through Blender's split triangles (area a's two triangles only).
        let mut mesh = as_split_triangles(&g);
        let first: usize = g.polygons[..a]
            .iter()
            .map(|p| 3 * (p.vertices.len() - 2))
            .sum();
        for v in &mut mesh.vertices[first..first + 6] {
            if *v == ne {
                v[2] += 2.0;
            }
        }
        let mut again = model.clone();
        assert_eq!(
            apply(&mut again, &mesh).unwrap(),
            [format!(
                "areas[id {id}]: corner NE moved to ({}, {}, {})",
                ne[0],
                ne[1],
                ne[2] + 2.0
            )],
            "{file}"
        );
        let mut expected = model.clone();
        expected.areas[a].ne_z = RawF32::new(ne[2] + 2.0);
        assert_eq!(again, expected, "{file}");
    }
}

#[test]
fn one_corner_moved_sideways_is_refused_naming_the_area() {
    let Some((model, g, a)) = sample("css_de_dust2.nav") else {
        return;
    };
    let mut mesh = as_ngons(&g);
    let v = g.polygons[a].vertices[1] as usize;
    mesh.vertices[v][0] += 5.0;
    let mut edited = model.clone();
    let e = apply(&mut edited, &mesh).unwrap_err().to_string();
    let id = model.areas[a].id;
    assert!(e.contains(&format!("areas[id {id}]")), "{e}");
    assert!(e.contains("axis-aligned rectangle"), "{e}");
    assert_eq!(edited, model);
}

#[test]
fn a_deleted_face_deletes_its_area_and_fix_drops_what_named_it() {
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        let mut mesh = as_fans(&g);
        let n: usize = g.polygons[..a].iter().map(|p| p.vertices.len() - 2).sum();
        mesh.faces.drain(n..n + 2);
        let mut edited = model.clone();
        let result = apply(&mut edited, &mesh);
        let id = model.areas[a].id;
        let lines = result.unwrap();
        assert_eq!(lines[0], format!("areas[id {id}]: deleted"), "{file}");
        if model.layout().terror_visibility_by_index() {
            // Renumbered (see the test below); here: nothing else changed.
            no_errors(&edited, file);
            continue;
        }
        let mut expected = model.clone();
        expected.areas.remove(a);
        let fixed = nav_source::fix(&mut expected);
        assert!(!fixed.is_empty(), "{file}: nothing named area {id}");
        assert_eq!(lines[1..], fixed[..], "{file}");
        assert!(
            fixed.iter().all(|l| l.contains(&format!(" {id}"))),
            "{file}: {fixed:?}"
        );
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);
    }
}

#[test]
fn an_added_rectangle_is_a_new_area_and_anything_else_is_refused() {
    for file in FILES {
        let Some((model, g, _)) = sample(file) else {
            continue;
        };
        let top = g
            .vertices
            .iter()
            .map(|p| p[2])
            .fold(f32::NEG_INFINITY, f32::max);
        let z = top + 1000.0;
        let mut mesh = as_ngons(&g);
        let base = u32::try_from(mesh.vertices.len()).unwrap();
        // Wound from the south-west corner, the other way round: a rectangle has no winding.
        mesh.vertices.extend([
            [100.0, 250.0, z + 1.0],
            [100.0, 200.0, z],
            [150.0, 200.0, z],
            [150.0, 250.0, z + 2.0],
        ]);
        mesh.faces.push(vec![base, base + 1, base + 2, base + 3]);
        let id = model.areas.iter().map(|a| a.id).max().unwrap() + 1;
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap();
        assert_eq!(
            lines,
            [format!(
                "areas[id {id}]: added from faces[{}], NW (100, 200, {z}) to SE (150, 250, {})",
                g.polygons.len(),
                z + 2.0
            )],
            "{file}"
        );
        let mut expected = model.clone();
        let mut area = nav_source::apply::new_area(&model, id);
        area.nw_corner = [100.0, 200.0, z].map(RawF32::new);
        area.se_corner = [150.0, 250.0, z + 2.0].map(RawF32::new);
        area.ne_z = RawF32::new(z);
        area.sw_z = RawF32::new(z + 1.0);
        expected.areas.push(area);
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);

        // A triangle, and a quad that is not along the axes, are refused naming the face.
        let face = g.polygons.len();
        let mut tri = mesh.clone();
        tri.faces.last_mut().unwrap().pop();
        let e = apply(&mut model.clone(), &tri).unwrap_err().to_string();
        assert!(
            e.contains(&format!("faces[{face}]")) && e.contains("3 corners"),
            "{e}"
        );
        let mut skew = mesh.clone();
        let last = skew.vertices.len() - 1;
        skew.vertices[last][0] += 7.0;
        let e = apply(&mut model.clone(), &skew).unwrap_err().to_string();
        assert!(e.contains(&format!("faces[{face}]")), "{e}");
    }
}

#[test]
fn an_attribute_change_sets_the_flags() {
    let mut words_checked = 0;
    for file in FILES {
        let Some((model, g, a)) = sample(file) else {
            continue;
        };
        assert_eq!(g.attributes[0], "attribute_flags");
        let mut mesh = as_ngons(&g);
        let values: Vec<i64> = g.polygons.iter().map(|p| p.attributes[0]).collect();
        let mut changed = values.clone();
        let was = model.areas[a].attribute_flags;
        let now = was ^ 0x2; // NAV_MESH_JUMP
        changed[a] = i64::from(now);
        mesh.attributes = vec![("attribute_flags".into(), changed)];
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap();
        let id = model.areas[a].id;
        assert_eq!(
            lines,
            [format!(
                "areas[id {id}].attribute_flags: set to {now:#x} (was {was:#x})"
            )],
            "{file}"
        );
        let mut expected = model.clone();
        expected.areas[a].attribute_flags = now;
        assert_eq!(edited, expected, "{file}");
        assert_eq!(written(&edited), expected, "{file}");
        no_errors(&edited, file);

        // The flavour's word (TF2's tf_attributes, Left 4 Dead's spawn_attributes) likewise.
        if let Some(word) = g.attributes.get(1) {
            let mut words: Vec<i64> = g.polygons.iter().map(|p| p.attributes[1]).collect();
            let was = words[a];
            words[a] ^= 0x4;
            let mut mesh = as_split_triangles(&g);
            mesh.attributes = vec![(
                word.clone(),
                words.iter().flat_map(|w| [*w, *w]).collect(), // two triangles an area
            )];
            let mut edited = model.clone();
            let lines = apply(&mut edited, &mesh).unwrap();
            assert_eq!(
                lines,
                [format!(
                    "areas[id {id}].{word}: set to {:#x} (was {was:#x})",
                    was ^ 0x4
                )],
                "{file}"
            );
            assert_eq!(
                nav_source::geometry::attribute_values(&[&g.attributes[0], word], &edited.areas[a])
                    [1],
                was ^ 0x4
            );
            words_checked += 1;
        }

        // A value the version's flags cannot hold is refused.
        let mut wide = values;
        wide[a] = 1 << 40;
        mesh.attributes = vec![("attribute_flags".into(), wide)];
        let e = apply(&mut model.clone(), &mesh).unwrap_err().to_string();
        assert!(e.contains("does not fit"), "{file}: {e}");
    }
    if nav_core::testing::corpus_required() {
        assert_eq!(
            words_checked, 2,
            "a TF2 and a Left 4 Dead file change their own word"
        );
    }
}

/// Each area's visible areas as area ids (positions looked up in the area list), by area id.
fn visible_ids(model: &SourceMesh) -> Vec<(u32, Vec<u32>)> {
    model
        .areas
        .iter()
        .map(|a| {
            let ids = match &a.custom {
                AreaCustom::Terror { visible_areas, .. } => visible_areas
                    .iter()
                    .map(|v| model.areas[{ v.area_index } as usize].id)
                    .collect(),
                _ => Vec::new(),
            };
            (a.id, ids)
        })
        .collect()
}

/// Left 4 Dead from sub-version 14 (visible areas named by position): on every such corpus
/// file, deleting the face of a middle area that other areas see deletes it and renumbers every
/// visible-area entry: the file written validates, each entry left names the same area id as
/// before, and the entries naming the deleted area are gone (one line each).
#[test]
fn a_deleted_area_renumbers_left_4_dead_visible_areas() {
    let mut checked = 0;
    for (_, path) in real_files("source") {
        if is_negative(&path) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let file = path.display().to_string();
        let Ok(model) = nav_source::read(&bytes) else {
            continue;
        };
        if !model.layout().terror_visibility_by_index() {
            continue;
        }
        // How many entries of other areas' lists name each area.
        let mut seen = vec![0usize; model.areas.len()];
        for (i, a) in model.areas.iter().enumerate() {
            if let AreaCustom::Terror { visible_areas, .. } = &a.custom {
                for v in visible_areas {
                    if { v.area_index } as usize != i {
                        seen[{ v.area_index } as usize] += 1;
                    }
                }
            }
        }
        let n = model.areas.len();
        let Some(a) = (n / 2..n).chain(0..n / 2).find(|&a| seen[a] > 0) else {
            continue; // no area lists another
        };
        let g = SourceNav.geometry(&model).unwrap();
        let mut mesh = as_ngons(&g);
        mesh.faces.remove(a);
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap_or_else(|e| panic!("{file}: {e}"));
        let id = model.areas[a].id;
        assert_eq!(lines[0], format!("areas[id {id}]: deleted"), "{file}");
        let dropped = lines
            .iter()
            .filter(|l| l.contains("dropped area index"))
            .count();
        assert_eq!(dropped, seen[a], "{file}: {lines:?}");
        let back = written(&edited);
        assert_eq!(back, edited, "{file}");
        no_errors(&back, &file);
        let findings = SourceNav.validate(&back).len();
        assert!(
            findings <= SourceNav.validate(&model).len(),
            "{file}: new findings"
        );
        // Every entry names the same area id as before, those naming the deleted one gone.
        let expected: Vec<(u32, Vec<u32>)> = visible_ids(&model)
            .into_iter()
            .filter(|(owner, _)| *owner != id)
            .map(|(owner, ids)| (owner, ids.into_iter().filter(|v| *v != id).collect()))
            .collect();
        assert_eq!(visible_ids(&back), expected, "{file}");
        eprintln!(
            "{file}: area id {id} (position {a} of {n}) deleted, {dropped} entries dropped; {}",
            lines
                .iter()
                .find(|l| l.starts_with("visible_areas:"))
                .unwrap()
        );
        checked += 1;
    }
    if checked == 0 {
        nav_core::testing::skip_without_corpus("no Left 4 Dead file of sub-version 14 or more");
    }
}
