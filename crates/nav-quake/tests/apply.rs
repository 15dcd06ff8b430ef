//! Graph edits from a 3D tool on every real file: an unedited graph gives the file's own bytes,
//! a moved node changes that node's origin and nothing else, and added or deleted nodes and
//! links are refused.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::Format;
use nav_core::edit::{EditedGraph, MatchOptions, apply_graph};
use nav_core::geometry::Geometry;
use nav_core::testing::{is_negative, real_files};
use nav_quake::{NavFile, Quake};

mod common;

/// The graph as Blender holds it after an import: every node, every link as an edge.
fn as_tool(g: &Geometry) -> EditedGraph {
    EditedGraph {
        nodes: g.nodes.iter().map(|n| n.position).collect(),
        links: Some(g.links.iter().map(|l| [l.from, l.to]).collect()),
    }
}

fn apply(file: &mut NavFile, graph: &EditedGraph) -> nav_core::Result<Vec<String>> {
    apply_graph(&Quake, file, graph, &MatchOptions::default())
}

/// Moves node `k` by a few units and checks the result: one line, that origin, nothing else.
fn move_node(name: &str, original: &NavFile, k: usize) {
    let g = Quake.geometry(original).unwrap();
    let mut graph = as_tool(&g);
    let old = graph.nodes[k];
    let new = [old[0] + 16.0, old[1] - 8.5, old[2] + 32.25];
    graph.nodes[k] = new;
    let mut file = original.clone();
    let lines = apply(&mut file, &graph).unwrap();
    assert_eq!(
        lines,
        [format!(
            "nodes[{k}]: origin moved to ({}, {}, {})",
            new[0], new[1], new[2]
        )],
        "{name}"
    );
    let back = nav_quake::read(&nav_quake::write(&file).unwrap()).unwrap();
    assert_eq!(back.nodes[k].origin.map(|c| c.get()), new, "{name}");
    let mut restored = back;
    restored.nodes[k].origin = original.nodes[k].origin;
    assert_eq!(
        &restored, original,
        "{name}: only nodes[{k}].origin changed"
    );
}

#[test]
fn every_corpus_graph_takes_node_moves_and_nothing_else() {
    let files: Vec<_> = real_files("quake")
        .into_iter()
        .filter(|(_, p)| !is_negative(p))
        .collect();
    let mut moved = 0;
    for (dir, path) in &files {
        let name = path.strip_prefix(dir).unwrap().display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let original = nav_quake::read(&bytes).unwrap();
        let g = Quake.geometry(&original).unwrap();
        assert_eq!(g.nodes.len(), original.nodes.len(), "{name}");

        // Unedited: no change, the same bytes.
        let mut file = original.clone();
        assert_eq!(
            apply(&mut file, &as_tool(&g)).unwrap(),
            Vec::<String>::new(),
            "{name}"
        );
        assert_eq!(nav_quake::write(&file).unwrap(), bytes, "{name}");

        let n = original.nodes.len();
        if n == 0 {
            continue;
        }
        for k in [0, n / 2, n - 1] {
            move_node(&name, &original, k);
        }
        moved += 1;

        // A deleted node (Blender's vertex delete takes its edges along) is refused, and the
        // model is left as it was.
        let mut graph = as_tool(&g);
        graph.nodes.pop();
        let last = u32::try_from(n - 1).unwrap();
        graph.links.as_mut().unwrap().retain(|l| !l.contains(&last));
        let mut file = original.clone();
        let err = apply(&mut file, &graph).unwrap_err().to_string();
        assert!(
            err.contains("nodes cannot be added or deleted"),
            "{name}: {err}"
        );
        assert_eq!(file, original, "{name}");
    }
    if nav_core::testing::corpus_dir("quake").is_some() {
        assert!(moved >= 30, "only {moved} corpus files had nodes to move");
    }
    eprintln!(
        "{} Quake files: unedited graphs unchanged; {moved} took node moves",
        files.len()
    );
}

#[test]
fn a_link_deleted_in_the_mesh_is_refused() {
    let original = common::room(nav_quake::Magic::Nav3, 6);
    let g = Quake.geometry(&original).unwrap();
    let mut graph = as_tool(&g);
    let [a, b] = graph.links.as_ref().unwrap()[0];
    graph
        .links
        .as_mut()
        .unwrap()
        .retain(|l| *l != [a, b] && *l != [b, a]);
    let mut file = original.clone();
    let err = apply(&mut file, &graph).unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "link between nodes {} and {} was deleted",
            a.min(b),
            a.max(b)
        )),
        "{err}"
    );
    assert!(err.contains("to-json"), "{err}");
    assert_eq!(file, original);
}
