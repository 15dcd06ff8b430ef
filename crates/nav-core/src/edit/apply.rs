//! [`apply_mesh`] and [`apply_graph`]: match, then [`Format::apply`] or
//! [`Format::apply_graph`], in one call.

use super::{EditedGraph, EditedMesh, MatchOptions, match_graph, match_mesh};
use crate::Format;
use crate::geometry::VertexIdentity;

/// Matches `mesh` against the model's geometry ([`match_mesh`]) and applies the edit
/// ([`Format::apply`]); returns one line per change. An edit that changes nothing leaves the
/// model untouched (so it writes the original bytes); on an error the model is left as it was.
///
/// Refuses a format without geometry, one whose geometry does not say what its vertices are
/// ([`VertexIdentity::Unknown`]), one that cannot apply edits yet, and a mesh the matcher
/// refuses.
pub fn apply_mesh<F: Format + ?Sized>(
    format: &F,
    model: &mut F::Model,
    mesh: &EditedMesh,
    options: &MatchOptions,
) -> crate::Result<Vec<String>> {
    let refuse = |message: &dyn core::fmt::Display| {
        crate::Error::unrepresentable(format.name(), "apply", message)
    };
    let Some(geometry) = format.geometry(model) else {
        return Err(refuse(&"this format has no geometry to apply a mesh to"));
    };
    if geometry.vertex_identity == VertexIdentity::Unknown {
        return Err(refuse(
            &"this format does not map its records to mesh faces yet",
        ));
    }
    let edit = match_mesh(&geometry, mesh, options).map_err(|e| refuse(&e))?;
    if edit.is_empty() {
        return Ok(Vec::new());
    }
    let mut edited = model.clone();
    match format.apply(&mut edited, &geometry, &edit) {
        None => Err(refuse(&"this format cannot apply mesh edits yet")),
        Some(Err(e)) => Err(e),
        Some(Ok(lines)) => {
            *model = edited;
            Ok(lines)
        }
    }
}

/// Matches `graph` against the model's geometry ([`match_graph`]) and applies the moves
/// ([`Format::apply_graph`]); returns one line per change (`"nodes[12]: origin moved to (1, 2,
/// 3)"`). An edit that changes nothing leaves the model untouched (so it writes the original
/// bytes), whatever the format; on an error the model is left as it was.
///
/// Refuses a format without geometry, a graph the matcher refuses, and a moved node in a format
/// that cannot apply graph edits: one whose graph derives from its polygons (Fox Engine,
/// Source), where the polygons are what to edit.
pub fn apply_graph<F: Format + ?Sized>(
    format: &F,
    model: &mut F::Model,
    graph: &EditedGraph,
    options: &MatchOptions,
) -> crate::Result<Vec<String>> {
    let refuse = |message: &dyn core::fmt::Display| {
        crate::Error::unrepresentable(format.name(), "apply graph", message)
    };
    let Some(geometry) = format.geometry(model) else {
        return Err(refuse(&"this format has no geometry to apply a graph to"));
    };
    let edit = match_graph(&geometry, graph, options).map_err(|e| refuse(&e))?;
    if edit.is_empty() {
        return Ok(Vec::new());
    }
    let mut edited = model.clone();
    match format.apply_graph(&mut edited, &geometry, &edit) {
        None if !geometry.polygons.is_empty() => Err(refuse(
            &"this file's graph derives from its polygons and other records and takes no edits \
              of its own: move the polygons' vertices instead (apply the mesh), or edit the JSON",
        )),
        None => Err(refuse(&"this format cannot apply graph edits yet")),
        Some(Err(e)) => Err(e),
        Some(Ok(lines)) => {
            *model = edited;
            Ok(lines)
        }
    }
}
