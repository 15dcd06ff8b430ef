//! Reading a graph back from a Wavefront OBJ for `navkit apply`: its vertices (`v`) are the
//! nodes, in order, and its lines (`l`) the links, as navkit's export writes a graph format's
//! file (Quake) and as Blender writes an object of vertices and edges back (same order, 6
//! decimals, which the matcher's tolerance covers).
//!
//! Only `v` and `l` lines are read; a face (`f`) means the OBJ is a polygon mesh, which a graph
//! file cannot take, and is refused. Indices are 1-based, or negative counting back from the
//! last vertex read, as OBJ has them; a line of several vertices is a chain of links.

use std::path::Path;

use nav_core::edit::EditedGraph;
use nav_core::geometry::UpAxis;

/// The graph in the OBJ at `path`, with coordinates turned from `mesh_up` into `target_up`'s
/// axes (as [`crate::import::read_edited`] turns them).
pub fn read_obj_graph(
    path: &Path,
    mesh_up: UpAxis,
    target_up: UpAxis,
) -> Result<EditedGraph, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut graph = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if mesh_up != target_up {
        for p in &mut graph.nodes {
            *p = target_up.from_y_up(mesh_up.to_y_up(*p));
        }
    }
    Ok(graph)
}

/// The `v` and `l` lines of OBJ text as a graph, in the text's own axes.
fn parse(text: &str) -> Result<EditedGraph, String> {
    let mut nodes = Vec::new();
    let mut links = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let at = n + 1;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let mut c = [0.0f32; 3];
                for slot in &mut c {
                    *slot = words
                        .next()
                        .and_then(|w| w.parse().ok())
                        .ok_or_else(|| format!("line {at}: a vertex needs three numbers"))?;
                }
                nodes.push(c);
            }
            Some("l") => {
                let ends = words
                    .map(|w| index(w, nodes.len()).ok_or_else(|| bad_index(at, w)))
                    .collect::<Result<Vec<u32>, String>>()?;
                links.extend(ends.windows(2).map(|w| [w[0], w[1]]));
            }
            Some("f") => {
                return Err(format!(
                    "line {at}: a face: the file is a graph (nodes and links), so apply reads \
                     the OBJ's vertices and lines only; export the graph object alone"
                ));
            }
            _ => {}
        }
    }
    Ok(EditedGraph {
        nodes,
        links: Some(links),
    })
}

fn bad_index(at: usize, word: &str) -> String {
    format!("line {at}: `{word}` names no vertex read before it")
}

/// A vertex reference (`3`, `-1`, `3/7`) as a 0-based index below `count`.
fn index(word: &str, count: usize) -> Option<u32> {
    let i: i64 = word.split('/').next()?.parse().ok()?;
    let count = i64::try_from(count).ok()?;
    let zero_based = if i > 0 { i - 1 } else { count + i };
    if !(0..count).contains(&zero_based) {
        return None;
    }
    u32::try_from(zero_based).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_and_lines_become_nodes_and_links() {
        let g = parse("# c\no graph\nv 1 2 3\nv 4 5 6\nv 7 8 9.5\nl 1 2\nl 2/1 -1 1\n").unwrap();
        assert_eq!(g.nodes, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.5]]);
        assert_eq!(g.links, Some(vec![[0, 1], [1, 2], [2, 0]]));
    }

    #[test]
    fn faces_and_bad_references_are_refused() {
        for (text, what) in [
            ("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "a face"),
            ("v 0 0 0\nl 1 2\n", "`2` names no vertex"),
            ("v 0 0 0\nl 1 0\n", "`0` names no vertex"),
            ("v 0 0 0\nl 1 -2\n", "`-2` names no vertex"),
            ("v 0 0\n", "three numbers"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }
}
