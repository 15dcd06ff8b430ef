//! Graph edits: node positions moved in a 3D tool, put back onto the file ([`match_graph`],
//! [`apply_graph`], [`crate::Format::apply_graph`]).
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
use crate::Format;
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
    let magnitude = original
        .nodes
        .iter()
        .flat_map(|n| n.position)
        .filter(|c| c.is_finite())
        .fold(0.0f64, |m, c| m.max(f64::from(c.abs())));
    let tolerance =
        f64::from(options.absolute.abs()) + f64::from(options.relative.abs()) * magnitude;
    let mut moved = Vec::new();
    for (k, (node, p)) in original.nodes.iter().zip(&edited.nodes).enumerate() {
        let q = node.position;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::UpAxis;

    /// A format whose model is a list of node positions, linked in a chain (0–1, 1–2, ...);
    /// with `polygons` its geometry also has a triangle, as a format whose graph derives from
    /// its mesh does.
    struct Chain {
        polygons: bool,
    }

    impl Format for Chain {
        type View<'a> = &'a [u8];
        type Model = Vec<[f32; 3]>;
        fn name(&self) -> &'static str {
            "chain"
        }
        fn description(&self) -> &'static str {
            "nodes in a chain"
        }
        fn extensions(&self) -> &'static [&'static str] {
            &[]
        }
        fn sniff(&self, _: &[u8]) -> bool {
            false
        }
        fn parse<'a>(&self, bytes: &'a [u8]) -> crate::Result<&'a [u8]> {
            Ok(bytes)
        }
        fn to_model(&self, _: &&[u8]) -> Vec<[f32; 3]> {
            Vec::new()
        }
        fn write(&self, _: &Vec<[f32; 3]>) -> crate::Result<Vec<u8>> {
            Ok(Vec::new())
        }
        fn validate(&self, _: &Vec<[f32; 3]>) -> Vec<crate::Finding> {
            Vec::new()
        }
        fn summary(&self, _: &Vec<[f32; 3]>) -> crate::Summary {
            crate::Summary::new("chain", "1")
        }
        fn geometry(&self, model: &Vec<[f32; 3]>) -> Option<Geometry> {
            let mut g = Geometry::new(UpAxis::Z);
            for (k, p) in (0u32..).zip(model) {
                g.push_node(*p, "node");
                if k > 0 {
                    g.push_link(k - 1, k, "walk");
                }
            }
            if self.polygons {
                g.push_polygon(&[[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], "walk");
            }
            Some(g)
        }
        fn apply_graph(
            &self,
            model: &mut Vec<[f32; 3]>,
            _: &Geometry,
            edit: &GraphEdit,
        ) -> Option<crate::Result<Vec<String>>> {
            if self.polygons {
                return None;
            }
            let mut lines = Vec::new();
            for (k, p) in &edit.moved {
                let slot = model.get_mut(*k as usize)?;
                *slot = *p;
                lines.push(format!("nodes[{k}]: origin moved to {}", show_point(*p)));
            }
            Some(Ok(lines))
        }
    }

    fn model() -> Vec<[f32; 3]> {
        vec![
            [1000.25, -2000.5, 64.125],
            [1064.0, -2000.5, 64.0],
            [1128.0, -1936.0, -0.0],
        ]
    }

    fn as_tool(model: &[[f32; 3]], links: &[[u32; 2]]) -> EditedGraph {
        EditedGraph {
            nodes: model.to_vec(),
            links: Some(links.to_vec()),
        }
    }

    fn apply(format: &Chain, graph: &EditedGraph) -> (crate::Result<Vec<String>>, Vec<[f32; 3]>) {
        let mut m = model();
        let result = apply_graph(format, &mut m, graph, &MatchOptions::default());
        (result, m)
    }

    #[test]
    fn an_unedited_graph_changes_nothing_even_rounded() {
        let chain = Chain { polygons: false };
        // Reversed, repeated and looping edges are the same links to a 3D tool.
        let graph = as_tool(&model(), &[[1, 0], [1, 2], [2, 1], [2, 2]]);
        assert_eq!(apply(&chain, &graph), (Ok(Vec::new()), model()));
        // Float rounding of an axis turn or a 6-decimal text format is no move: bits are kept.
        let mut rounded = model();
        rounded[0][0] += 1e-4;
        rounded[2][2] = 0.0;
        let (lines, m) = apply(&chain, &as_tool(&rounded, &[[0, 1], [1, 2]]));
        assert_eq!(lines, Ok(Vec::new()));
        assert_eq!(m[2][2].to_bits(), (-0.0f32).to_bits());
        // Without links, only the positions are compared.
        let graph = EditedGraph {
            nodes: model(),
            links: None,
        };
        assert!(
            match_graph(
                &chain.geometry(&model()).unwrap(),
                &graph,
                &MatchOptions::default()
            )
            .unwrap()
            .is_empty()
        );
    }

    #[test]
    fn a_coordinate_that_is_no_number_stays_so() {
        let chain = Chain { polygons: false };
        let mut m = model();
        m[1][1] = f32::NAN;
        let g = chain.geometry(&m).unwrap();
        let mut tool = as_tool(&m, &[[0, 1], [1, 2]]);
        tool.nodes[1][1] = f32::from_bits(0x7FC0_0001);
        assert!(
            match_graph(&g, &tool, &MatchOptions::default())
                .unwrap()
                .is_empty()
        );
        tool.nodes[1][0] = 1065.0;
        let e = match_graph(&g, &tool, &MatchOptions::default()).unwrap_err();
        assert!(
            e.0.contains("nodes[1]") && e.0.contains("not finite"),
            "{e}"
        );
    }

    #[test]
    fn a_moved_node_moves_that_node_only() {
        let chain = Chain { polygons: false };
        let mut moved = model();
        moved[1][2] = 80.5;
        let (lines, m) = apply(&chain, &as_tool(&moved, &[[0, 1], [1, 2]]));
        assert_eq!(
            lines.unwrap(),
            ["nodes[1]: origin moved to (1064, -2000.5, 80.5)"]
        );
        assert_eq!(m, moved);
    }

    #[test]
    fn added_or_deleted_nodes_and_links_are_refused_with_what_to_do() {
        let chain = Chain { polygons: false };
        let err = |graph: &EditedGraph| {
            let (result, m) = apply(&chain, graph);
            assert_eq!(m, model(), "the model is left as it was");
            result.unwrap_err().to_string()
        };
        let e = err(&as_tool(&model()[..2], &[[0, 1]]));
        assert!(e.contains("2 nodes where the file has 3"), "{e}");
        assert!(
            e.contains("cannot be added or deleted") && e.contains("to-json"),
            "{e}"
        );
        let e = err(&as_tool(&model(), &[[0, 1]]));
        assert!(e.contains("link between nodes 1 and 2 was deleted"), "{e}");
        let e = err(&as_tool(&model(), &[[0, 1], [1, 2], [2, 0]]));
        assert!(e.contains("link between nodes 0 and 2 was added"), "{e}");
        let mut nan = model();
        nan[2][0] = f32::NAN;
        let e = err(&as_tool(&nan, &[[0, 1], [1, 2]]));
        assert!(e.contains("nodes[2]") && e.contains("not finite"), "{e}");
    }

    #[test]
    fn a_graph_derived_from_polygons_takes_no_moves() {
        let chain = Chain { polygons: true };
        assert_eq!(
            apply(&chain, &as_tool(&model(), &[[0, 1], [1, 2]])),
            (Ok(Vec::new()), model())
        );
        let mut moved = model();
        moved[0][0] = 0.0;
        let (result, m) = apply(&chain, &as_tool(&moved, &[[0, 1], [1, 2]]));
        let e = result.unwrap_err().to_string();
        assert!(e.contains("derives from its polygons"), "{e}");
        assert_eq!(m, model());
    }
}
