//! Graph edits: node positions moved in a 3D tool, put back onto the file ([`match_graph`],
//! [`super::apply_graph`], [`crate::Format::apply_graph`]).
//!
//! A graph format (Quake's nodes and links) comes into a 3D tool as loose vertices joined by
//! edges, one vertex per [`Geometry::nodes`] entry, in order. A tool keeps that order as long as
//! nothing is added or deleted, so node `k` of the edited graph *is* node `k` of the file; only
//! its position can change. Adding or deleting nodes or links would re-index every link that
//! names a node by its position, which a mesh cannot say safely: those are refused, with a
//! pointer to the JSON, where `from-json` renumbers.
//!
//! A node is moved when one of its coordinates differs from the file's by more than the
//! tolerance of [`MatchOptions`] (the same that decides whether a mesh vertex moved); a node
//! within it keeps its raw bits, so an unedited graph gives back the original bytes.

use std::collections::BTreeSet;

use super::{MatchError, MatchOptions, show_point};
use crate::geometry::{Geometry, GraphLink};

/// A graph as a 3D tool gives it back: node positions in the format's world axes, one per
/// [`crate::geometry::Geometry::nodes`] entry in the same order, and the edges between them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct EditedGraph {
    /// Node positions, in the format's world axes.
    pub nodes: Vec<[f32; 3]>,
    /// The edges as node index pairs, where the caller has them (a Blender object's edges);
    /// `None` takes the links as unchanged. They are compared as a 3D tool holds them:
    /// undirected, one per pair of nodes, none from a node to itself.
    pub links: Option<Vec<[u32; 2]>>,
}

/// What an [`EditedGraph`] changed in a [`crate::geometry::Geometry`]'s graph.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GraphEdit {
    /// Nodes that moved (indices into [`crate::geometry::Geometry::nodes`]) and where to,
    /// ascending by node.
    pub moved: Vec<(u32, [f32; 3])>,
}

impl GraphEdit {
    /// Whether the edit changes nothing.
    pub fn is_empty(&self) -> bool {
        self.moved.is_empty()
    }
}

/// What to do instead of adding or deleting graph records in a mesh.
const USE_JSON: &str = "edit the JSON (navkit to-json, then from-json and fix) for that";

/// The links as a 3D tool holds them: undirected pairs, once each, no loops.
fn edges(links: impl IntoIterator<Item = [u32; 2]>) -> BTreeSet<[u32; 2]> {
    links
        .into_iter()
        .filter(|[a, b]| a != b)
        .map(|[a, b]| [a.min(b), a.max(b)])
        .collect()
}

/// Which nodes of `edited` moved from `original`'s graph, or why the edit cannot be told: a
/// different node count, a changed set of links (when `edited` has them), a moved node whose
/// new position is not finite.
pub fn match_graph(
    original: &Geometry,
    edited: &EditedGraph,
    options: &MatchOptions,
) -> Result<GraphEdit, MatchError> {
    let refuse = |m: String| Err(MatchError(m));
    if edited.nodes.len() != original.nodes.len() {
        return refuse(format!(
            "the graph has {} nodes where the file has {}: nodes cannot be added or deleted in \
             the mesh: {USE_JSON}",
            edited.nodes.len(),
            original.nodes.len()
        ));
    }
    if let Some(links) = &edited.links {
        let before = edges(original.links.iter().map(|l: &GraphLink| [l.from, l.to]));
        let after = edges(links.iter().copied());
        let added = after.difference(&before).next();
        let gone = before.difference(&after).next();
        if let Some([a, b]) = added.or(gone) {
            let what = if added.is_some() { "added" } else { "deleted" };
            return refuse(format!(
                "the link between nodes {a} and {b} was {what}: links cannot be added or \
                 deleted in the mesh (only nodes moved): {USE_JSON}"
            ));
        }
    }
    let mut moved = Vec::new();
    for (k, (node, p)) in original.nodes.iter().zip(&edited.nodes).enumerate() {
        let q = node.position;
        let tolerance = f64::from(options.tolerance_at(q));
        // A coordinate that is not a number in both stays as the file has it (a tool may not
        // keep a NaN's payload bits).
        let same = p.iter().zip(&q).all(|(a, b)| {
            a.to_bits() == b.to_bits()
                || (a.is_nan() && b.is_nan())
                || (f64::from(*a) - f64::from(*b)).abs() <= tolerance
        });
        if same {
            continue;
        }
        if !p.iter().all(|c| c.is_finite()) {
            return refuse(format!(
                "nodes[{k}]: the new position {} is not finite",
                show_point(*p)
            ));
        }
        let Ok(k) = u32::try_from(k) else {
            return refuse(format!("nodes[{k}]: past the u32 range"));
        };
        moved.push((k, *p));
    }
    Ok(GraphEdit { moved })
}
