//! `navkit apply`: geometry edited in a 3D tool put back onto the original file
//! ([`crate::registry::Opened::apply`], or [`crate::registry::Opened::apply_graph`] for a file
//! that is a graph only), everything the mesh does not show kept.

use std::path::Path;

use nav_core::edit::MatchOptions;
use nav_core::geometry::UpAxis;
use serde_json::json;

use super::args::UpArg;
use super::output::{detect_or_fail, input_error, out_raw, print_json, read, write_out};
use super::{CmdResult, Failure};
use crate::registry::AnyFormat;

/// Reads `original`, matches the mesh `edited` against its geometry, applies the edit and
/// writes the result to `out`; prints one line per change (or JSON).
pub(super) fn apply(
    forced: Option<&'static dyn AnyFormat>,
    original: &Path,
    edited: &Path,
    up: UpArg,
    out: &Path,
    json: bool,
) -> CmdResult {
    if crate::import::MeshFile::of(edited).is_none() {
        return Err(Failure::Usage(format!(
            "{}: apply reads .obj, .gltf and .glb meshes",
            edited.display()
        )));
    }
    let bytes = read(original)?;
    let format = detect_or_fail(forced, original, &bytes)?;
    let mut opened = format.open(&bytes).map_err(|e| input_error(original, e))?;
    let geometry = opened.geometry().ok_or_else(|| {
        input_error(
            original,
            format!("{} has no geometry to apply a mesh to", format.name()),
        )
    })?;
    let target = geometry.up;
    let mesh_up = match up {
        UpArg::Y => UpAxis::Y,
        UpArg::Z => UpAxis::Z,
    };
    // A file that is a graph and nothing else (Quake) takes its nodes back from the OBJ's
    // vertices and lines; every other file takes a polygon mesh.
    let changes = if geometry.polygons.is_empty() && !geometry.nodes.is_empty() {
        if crate::import::MeshFile::of(edited) != Some(crate::import::MeshFile::Obj) {
            return Err(Failure::Usage(format!(
                "{}: {} is a graph: apply reads its nodes and links back from an .obj only",
                edited.display(),
                original.display()
            )));
        }
        let graph =
            crate::graph_obj::read_obj_graph(edited, mesh_up, target).map_err(Failure::Input)?;
        opened.apply_graph(&graph, &MatchOptions::default())
    } else {
        let mesh = crate::import::read_edited(edited, mesh_up, target).map_err(Failure::Input)?;
        opened.apply(&mesh, &MatchOptions::default())
    }
    .map_err(|e| input_error(edited, e))?;
    let result = if changes.is_empty() {
        bytes
    } else {
        opened.write().map_err(|e| input_error(original, e))?
    };
    write_out(out, &result)?;
    if json {
        print_json(&json!({
            "file": original.display().to_string(),
            "edited": edited.display().to_string(),
            "format": format.name(),
            "output": out.display().to_string(),
            "changes": changes,
        }));
    } else {
        for c in &changes {
            out!("{c}");
        }
        let n = changes.len();
        match n {
            0 => out!(
                "{}: the mesh changes nothing; wrote it unchanged to {}",
                original.display(),
                out.display()
            ),
            _ => out!(
                "{}: {n} change{}; wrote {}",
                original.display(),
                if n == 1 { "" } else { "s" },
                out.display()
            ),
        }
    }
    Ok(())
}
