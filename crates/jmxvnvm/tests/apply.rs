//! Mesh edits on a built region: the unedited geometry changes nothing; a cell side moved by
//! both its corners moves; a deleted face deletes its cell, everything else named the same;
//! one corner alone and a lone added triangle are refused (tests/apply_add.rs adds cells).
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use jmxvnvm::{Nvm, RegionId, TerrainBuilder};
use nav_core::Format;
use nav_core::edit::{EditedMesh, MatchOptions, apply_mesh};

fn region() -> jmxvnvm::NavMeshTerrain {
    TerrainBuilder::new(RegionId(0x61a8))
        .heights(|x, z| 100.0 + (x + z) as f32)
        .block_tiles(10, 10, 12, 20)
        .build()
}

fn mesh_of(m: &jmxvnvm::NavMeshTerrain) -> EditedMesh {
    let g = Nvm.geometry(m).unwrap();
    EditedMesh {
        vertices: g.vertices.clone(),
        faces: g.polygons.iter().map(|p| p.vertices.to_vec()).collect(),
        attributes: Vec::new(),
    }
}

#[test]
fn unedited_changes_nothing_and_moved_sides_move() {
    let mut m = region();
    let before = Nvm.write(&m).unwrap();
    let unedited = mesh_of(&m);
    let lines = apply_mesh(&Nvm, &mut m, &unedited, &MatchOptions::default()).unwrap();
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(Nvm.write(&m).unwrap(), before);

    // Cell 0's max-x side (corners 1 and 2) moved 20 units further, on the height grid.
    let mut mesh = mesh_of(&m);
    let max_x = m.cells[0].max[0].get();
    let target = max_x - 20.0;
    for k in [1, 2] {
        mesh.vertices[k][0] = target;
    }
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    assert!(lines[0].starts_with("cells[0]: now"), "{lines:?}");
    assert_eq!(m.cells[0].max[0].get(), target);
}

#[test]
fn what_a_cell_cannot_be_is_refused() {
    let m = region();
    // One corner alone: the cell would not be a rectangle.
    let mut mesh = mesh_of(&m);
    mesh.vertices[1][0] -= 20.0;
    let mut edited = m.clone();
    let err = apply_mesh(&Nvm, &mut edited, &mesh, &MatchOptions::default()).unwrap_err();
    assert!(err.to_string().contains("rectangle"), "{err}");
    assert_eq!(edited, m, "a refused edit leaves the model as it was");
    // An added face.
    let mut mesh = mesh_of(&m);
    let n = u32::try_from(mesh.vertices.len()).unwrap();
    mesh.vertices.extend([
        [5000.0, 0.0, 5000.0],
        [5020.0, 0.0, 5000.0],
        [5020.0, 0.0, 4980.0],
    ]);
    mesh.faces.push(vec![n, n + 1, n + 2]);
    let err = apply_mesh(&Nvm, &mut edited, &mesh, &MatchOptions::default()).unwrap_err();
    assert!(err.to_string().contains("is a triangle"), "{err}");
}

#[test]
fn a_deleted_face_deletes_its_cell_and_fix_covers_its_tiles() {
    let mut m = region();
    let before = m.clone();
    assert!(
        Nvm.validate(&m)
            .iter()
            .all(|f| f.severity != nav_core::Severity::Error)
    );
    let g = Nvm.geometry(&m).unwrap();
    // A cell from the middle of the list, with cells of its kind on both sides.
    let k = m.cells.len() / 2;
    let face = g
        .polygons
        .iter()
        .position(|p| p.record.map(|r| r.index as usize) == Some(k))
        .unwrap();
    let mut mesh = mesh_of(&m);
    mesh.faces.remove(face);
    let lines = apply_mesh(&Nvm, &mut m, &mesh, &MatchOptions::default()).unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("cells[{k}]: deleted"))),
        "{lines:?}"
    );
    assert_eq!(m.cells.len(), before.cells.len() - 1);
    let errors: Vec<_> = Nvm
        .validate(&m)
        .into_iter()
        .filter(|f| f.severity == nav_core::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    // Every other cell is there, in order, as it was.
    let mut others = before.cells.clone();
    others.remove(k);
    assert_eq!(m.cells, others);
    // Every tile that named a kept cell names the same cell (by its rectangle); the deleted
    // cell's tiles name a cell now.
    let (jmxvnvm::TileMap::Modern(was), jmxvnvm::TileMap::Modern(now)) =
        (&before.tile_map, &m.tile_map)
    else {
        panic!("a built region has a modern tile map");
    };
    let mut moved = 0;
    for (t, (a, b)) in was.iter().zip(now).enumerate() {
        let a = usize::try_from(a.cell_index).unwrap();
        let b = usize::try_from(b.cell_index).unwrap();
        if a == k {
            moved += 1;
        } else {
            assert_eq!(before.cells[a], m.cells[b], "tile {t}");
        }
    }
    assert!(moved > 0);
}
