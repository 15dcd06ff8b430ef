//! A geometry as modelling tools give it back, for tests of [`crate::edit`]: the same
//! vertices with one n-gon per polygon (an OBJ), fanned triangles, and fanned triangles that
//! each have their own copy of their corners (Blender's glTF); and [`check_unedited`], which
//! puts all three back onto a model and expects the original bytes.

use crate::Format;
use crate::edit::{EditedMesh, MatchOptions, apply_mesh};
use crate::geometry::Geometry;

/// The geometry as an OBJ gives it back: the same vertices, one n-gon per polygon.
pub fn as_ngons(g: &Geometry) -> EditedMesh {
    EditedMesh {
        vertices: g.vertices.clone(),
        faces: g.polygons.iter().map(|p| p.vertices.clone()).collect(),
        attributes: Vec::new(),
    }
}

/// Polygon `p` fanned from its first corner: one triangle per corner past the second.
pub fn fan(p: &[u32]) -> Vec<[u32; 3]> {
    let Some((&first, rest)) = p.split_first() else {
        return Vec::new();
    };
    rest.windows(2)
        .filter_map(|w| match w {
            [b, c] => Some([first, *b, *c]),
            _ => None,
        })
        .collect()
}

/// Every polygon fanned into triangles over the same vertices.
pub fn as_fans(g: &Geometry) -> EditedMesh {
    let mut mesh = as_ngons(g);
    mesh.faces = g
        .polygons
        .iter()
        .flat_map(|p| fan(&p.vertices))
        .map(Vec::from)
        .collect();
    mesh
}

/// As Blender's glTF gives it back: fanned triangles, each with its own copy of its vertices
/// (a corner past the geometry's vertices is placed at the origin).
pub fn as_split_triangles(g: &Geometry) -> EditedMesh {
    let mut mesh = EditedMesh::default();
    for face in g.polygons.iter().flat_map(|p| fan(&p.vertices)) {
        let Ok(base) = u32::try_from(mesh.vertices.len()) else {
            break;
        };
        mesh.vertices.extend(
            face.iter()
                .map(|v| g.vertices.get(*v as usize).copied().unwrap_or_default()),
        );
        mesh.faces
            .push(vec![base, base + 1, base.saturating_add(2)]);
    }
    mesh
}

/// Applies the model's own geometry as each tool gives it back ([`as_ngons`], [`as_fans`],
/// [`as_split_triangles`]) with [`apply_mesh`]; each must change nothing and write `bytes`,
/// the model's original bytes. Returns the geometry, or what went wrong with which mesh.
pub fn check_unedited<F: Format>(
    format: &F,
    model: &F::Model,
    bytes: &[u8],
) -> Result<Geometry, String> {
    let g = format
        .geometry(model)
        .ok_or_else(|| "the format has no geometry".to_string())?;
    for (how, mesh) in [
        ("n-gons", as_ngons(&g)),
        ("fans", as_fans(&g)),
        ("split triangles", as_split_triangles(&g)),
    ] {
        let mut edited = model.clone();
        let lines = apply_mesh(format, &mut edited, &mesh, &MatchOptions::default())
            .map_err(|e| format!("{how}: {e}"))?;
        if !lines.is_empty() {
            return Err(format!("{how}: changes {lines:?}"));
        }
        let written = format.write(&edited).map_err(|e| format!("{how}: {e}"))?;
        if written != bytes {
            return Err(format!("{how}: bytes differ"));
        }
    }
    Ok(g)
}
