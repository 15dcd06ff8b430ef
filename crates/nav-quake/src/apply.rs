//! Nodes moved in a 3D tool put back onto the file ([`nav_core::Format::apply_graph`]),
//! everything else kept.
//!
//! The geometry ([`crate::geometry()`]) has one node per file node, in file order, at its
//! origin; so node `k` of a [`GraphEdit`] is `nodes[k]` here, and a move sets that node's origin
//! and nothing else.
//!
//! Nothing else in the file derives from an origin: the file stores no link length or cost (the
//! public Quake II loader weighs a link by the squared distance between its nodes when it
//! searches; `docs/formats/quake.md`, Navigation). What is kept as stored, even where it was
//! placed next to a node:
//!
//! - the **traversals** (funnel, start and end points, ladder plane) of jump, drop and ladder
//!   links, which are the path a bot follows, not the node: a node moved far from where its
//!   jump starts leaves the jump where it was (edit `traversals[i]` in the JSON to move it);
//! - the **edict** boxes that gate links (a door's bounds);
//! - the node's radius and flags, and every link.

use nav_core::edit::{GraphEdit, show_point};
use nav_core::geometry::Geometry;
use nav_core::{Error, RawF32, Result};

use crate::FORMAT;
use crate::model::NavFile;

/// Puts `edit`, matched against `original` (this model's geometry), onto `file`: each moved
/// node's origin set to its new position; one line per node (`"nodes[12]: origin moved to (1,
/// 2, 3)"`).
pub fn apply_graph(
    file: &mut NavFile,
    original: &Geometry,
    edit: &GraphEdit,
) -> Result<Vec<String>> {
    if original.nodes.len() != file.nodes.len() || !original.polygons.is_empty() {
        return Err(Error::unrepresentable(
            FORMAT,
            "apply graph",
            "the geometry is not this file's graph",
        ));
    }
    let mut lines = Vec::with_capacity(edit.moved.len());
    for &(k, p) in &edit.moved {
        let Some(node) = file.nodes.get_mut(k as usize) else {
            return Err(Error::unrepresentable(
                FORMAT,
                format_args!("nodes[{k}]"),
                format_args!("there are only {} nodes", original.nodes.len()),
            ));
        };
        node.origin = p.map(RawF32::new);
        lines.push(format!("nodes[{k}]: origin moved to {}", show_point(p)));
    }
    Ok(lines)
}
