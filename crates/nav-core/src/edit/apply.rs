//! [`apply_mesh`]: match, then [`Format::apply`], in one call.

use super::{EditedMesh, MatchOptions, match_mesh};
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
