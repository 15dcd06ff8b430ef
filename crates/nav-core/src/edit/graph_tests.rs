//! Graph edits on a format whose model is a chain of nodes: unedited and rounded graphs change
//! nothing, a moved node moves, added or deleted nodes and links are refused, and a graph drawn
//! from polygons takes no moves.

use super::*;
use crate::Format;
use crate::geometry::{Geometry, UpAxis};

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

#[test]
fn a_node_near_the_origin_moves_within_the_far_nodes_tolerance() {
    // Node 2 at 0.5 from the origin, node 1 at 2e5: a move of 0.01 of node 2 is well under the
    // far node's tolerance (0.2) but far over its own (1e-5 + 5e-7).
    let chain = Chain { polygons: false };
    let mut m = vec![
        [1000.25, -2000.5, 64.125],
        [2.0e5, 0.0, 0.0],
        [0.5, 0.5, 0.0],
    ];
    let mut moved = m.clone();
    moved[2][0] = 0.51;
    let graph = as_tool(&moved, &[[0, 1], [1, 2]]);
    let lines = apply_graph(&chain, &mut m, &graph, &MatchOptions::default()).unwrap();
    assert_eq!(lines, ["nodes[2]: origin moved to (0.51, 0.5, 0)"]);
    assert_eq!(m, moved);
}
