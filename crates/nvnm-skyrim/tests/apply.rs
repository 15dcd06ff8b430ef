//! Mesh edits put back onto plugins: every corpus plugin's own geometry, as a modelling tool
//! gives it back (n-gons, fanned triangles, triangles with their own vertices), changes nothing
//! and writes the original bytes; a moved vertex, a deleted and an added face in one navmesh
//! change that navmesh's `NVNM` alone, and exactly so.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use nav_core::Format;
use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};
use nav_core::testing::{as_ngons, check_unedited, is_negative, real_files, skip_without_corpus};
use nvnm_skyrim::nvnm::{NavmeshGeometry, Nvnm};
use nvnm_skyrim::plugin::{Plugin, PluginFile};

fn plugins() -> Vec<PathBuf> {
    real_files("skyrim")
        .into_iter()
        .map(|(_, p)| p)
        .filter(|p| !is_negative(p))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| ["esp", "esm", "esl"].contains(&e.to_string_lossy().as_ref()))
        })
        .collect()
}

fn apply(model: &mut PluginFile, mesh: &EditedMesh) -> nav_core::Result<Vec<String>> {
    apply_mesh(&Plugin, model, mesh, &MatchOptions::default())
}

fn navmeshes(model: &PluginFile) -> Vec<(u32, Vec<u8>)> {
    model
        .navmeshes()
        .into_iter()
        .map(|(f, n)| (f, n.to_vec()))
        .collect()
}

#[test]
fn unedited_geometry_gives_the_original_bytes_for_every_plugin() {
    let files = plugins();
    if files.is_empty() {
        skip_without_corpus("no plugin in the skyrim corpus");
        return;
    }
    let mut triangles = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.display();
        let model = Plugin.read(&bytes).unwrap();
        let g = check_unedited(&Plugin, &model, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        triangles += g.polygons.len();
    }
    println!(
        "{} plugins, {triangles} triangles: unedited meshes write the original bytes",
        files.len()
    );
}

/// The plugin with the most navmeshes, its model, and the geometry part of a navmesh in the
/// middle that has at least a few triangles.
fn sample() -> Option<(PluginFile, nav_core::geometry::Geometry, u32)> {
    let (model, g) = plugins()
        .iter()
        .map(|p| Plugin.read(&std::fs::read(p).unwrap()).unwrap())
        .map(|m| {
            let g = Plugin.geometry(&m).unwrap();
            (m, g)
        })
        .filter(|(_, g)| g.parts.len() >= 3)
        .max_by_key(|(_, g)| g.parts.len())?;
    let count = |part: u32| {
        g.polygons
            .iter()
            .filter(|p| p.record.is_some_and(|r| r.part == part))
            .count()
    };
    let middle = u32::try_from(g.parts.len() / 2).unwrap();
    let part = (middle..).find(|p| count(*p) >= 4)?;
    Some((model, g, part))
}

fn nvnm_of(model: &PluginFile, form_id: u32) -> NavmeshGeometry {
    let all = navmeshes(model);
    let (_, bytes) = all.iter().find(|(f, _)| *f == form_id).unwrap();
    Nvnm.read(bytes).unwrap()
}

#[test]
fn an_edit_of_one_navmesh_changes_that_navmesh_alone() {
    let Some((model, g, part)) = sample() else {
        skip_without_corpus("no plugin with three navmeshes in the skyrim corpus");
        return;
    };
    let form_id = u32::from_str_radix(&g.parts[part as usize], 16).unwrap();
    let before = nvnm_of(&model, form_id);
    let polygons: Vec<usize> = (0..g.polygons.len())
        .filter(|&p| g.polygons[p].record.is_some_and(|r| r.part == part))
        .collect();
    // The navmesh's first vertex: the lowest vertex index of its polygons.
    let base = polygons
        .iter()
        .flat_map(|&p| g.polygons[p].vertices.iter().copied())
        .min()
        .unwrap();
    let moved = g.polygons[polygons[0]].vertices[0];
    let local_moved = usize::try_from(moved - base).unwrap();
    // The last triangle away from the moved vertex.
    let deleted = *polygons
        .iter()
        .rev()
        .find(|&&p| !g.polygons[p].vertices.contains(&moved))
        .unwrap();
    let deleted_triangle = g.polygons[deleted].record.unwrap().index;
    let mut mesh = as_ngons(&g);
    mesh.vertices[moved as usize][2] += 3.25;
    mesh.faces.remove(deleted);
    // A new triangle on the navmesh's moved vertex and two new vertices beside it.
    let at = mesh.vertices[moved as usize];
    let n = u32::try_from(mesh.vertices.len()).unwrap();
    mesh.vertices.push([at[0] + 40.0, at[1], at[2]]);
    mesh.vertices.push([at[0], at[1] + 40.0, at[2]]);
    mesh.faces.push(vec![moved, n, n + 1]);

    let mut edited = model.clone();
    let lines = apply(&mut edited, &mesh).unwrap();
    let prefix = format!("navmesh {form_id:08X}: ");
    assert!(lines.iter().all(|l| l.starts_with(&prefix)), "{lines:#?}");
    let count = |what: &str| lines.iter().filter(|l| l.contains(what)).count();
    assert_eq!(count("moved to"), 1, "{lines:#?}");
    assert_eq!(count(": deleted"), 1, "{lines:#?}");
    assert_eq!(count("]: added from faces["), 1, "{lines:#?}");
    assert_eq!(count("]: added at"), 2, "{lines:#?}");

    // Written and read back: every other navmesh is byte for byte what it was.
    let written = Plugin.read(&Plugin.write(&edited).unwrap()).unwrap();
    let (old, new) = (navmeshes(&model), navmeshes(&written));
    assert_eq!(old.len(), new.len());
    for ((f, a), (g2, b)) in old.iter().zip(&new) {
        assert_eq!(f, g2);
        assert_eq!(f == &form_id, a != b, "navmesh {f:08X}");
    }
    // The edited navmesh: one vertex moved up, two added; one triangle fewer, then one more.
    let after = nvnm_of(&written, form_id);
    assert_eq!(after.vertices.len(), before.vertices.len() + 2);
    for (v, (a, b)) in before.vertices.iter().zip(&after.vertices).enumerate() {
        if v == local_moved {
            assert_eq!(b[2].get(), a[2].get() + 3.25);
            assert_eq!((a[0], a[1]), (b[0], b[1]));
        } else {
            assert_eq!(a, b, "vertex {v}");
        }
    }
    assert_eq!(after.triangles.len(), before.triangles.len());
    let kept: Vec<_> = before
        .triangles
        .iter()
        .enumerate()
        .filter(|(t, _)| *t != deleted_triangle as usize)
        .map(|(_, t)| t.vertices)
        .collect();
    let now: Vec<_> = after.triangles.iter().map(|t| t.vertices).collect();
    assert_eq!(now[..kept.len()], kept[..]);
    let added = now.last().unwrap();
    let local_moved = u16::try_from(local_moved).unwrap();
    assert!(added.contains(&local_moved), "{added:?}");
    let first_new = u16::try_from(before.vertices.len()).unwrap();
    assert!(added.contains(&first_new) && added.contains(&(first_new + 1)));
}
