//! A `.nav2` file as format-neutral geometry: the NavmeshChunk faces and the NavigationGraph.
//!
//! Every data chunk contributes its positions (decoded to world units, Y up), its meshes as
//! polygons, and its NavigationGraph nodes and links. Segment-local indices are resolved through
//! the prefix sums of the segment counts, exactly as the engine does; anything that names nothing
//! (a fuzzed or hand-edited file) is left out rather than emitted as a bad index.
//!
//! Every polygon names its mesh ([`Record`]: part = the data chunk's place in the file, whose
//! name is in [`Geometry::parts`]; index = the mesh's place in its NavmeshChunk) and carries its
//! segment's NavigationGraph attribute as stored ([`ATTRIBUTES`]). Vertex `i` is the file's
//! position `i` (the data chunks' positions after one another, each segment's own copies
//! included), so the geometry's vertices are the file's, 1:1 ([`VertexIdentity::Shared`]).
//!
//! Kinds:
//! - faces: the segment's NavigationGraph attribute, as far as the format notes explain it:
//!   `1` is the value that lets Sahelanthropus (the boss) use the mesh, so it is `boss`;
//!   every other value (1249, 1257: soldiers and animals) is `walk`.
//! - nodes: `node`, or `tile border` for a node whose link leaves the tile (the target lives in
//!   another file, so that link is not drawn).
//! - links: `inside` (along a face), `crossing segment` (the co-located node of another segment)
//!   and `crossing chunk` (a node of another data chunk of the same file).

use nav_core::geometry::{Geometry, Polygon, Record, UpAxis, VertexIdentity};

use crate::model::{DataChunk, Nav2File, NeighborKind};

/// The names of [`Polygon::attributes`] of a mesh: its segment's entry of the NavigationGraph's
/// `attributes`, as the JSON names the list.
pub const ATTRIBUTES: [&str; 1] = ["attributes"];

/// The name of data chunk `c` in [`Geometry::parts`] (its place in the JSON).
pub fn part_name(c: usize) -> String {
    format!("data_chunks[{c}]")
}

/// The face kind of a NavigationGraph attribute value.
pub fn attribute_kind(attribute: Option<u16>) -> &'static str {
    match attribute {
        Some(1) => "boss",
        _ => "walk",
    }
}

/// The prefix sums of the segment counts: per segment, the first position, mesh, edge and node.
pub fn segment_bases(dc: &DataChunk) -> Vec<[usize; 4]> {
    let mut run = [0usize; 4];
    dc.segment_chunk
        .segments
        .iter()
        .map(|s| {
            let b = run;
            run[0] += usize::from(s.navmesh_position_count);
            run[1] += usize::from(s.navmesh_count);
            run[2] += usize::from(s.navigation_graph_edge_count);
            run[3] += usize::from(s.navigation_graph_node_count);
            b
        })
        .collect()
}

fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// The whole file: faces of every data chunk with per-edge neighbours inside the chunk, and the
/// NavigationGraph nodes and links.
pub fn geometry(file: &Nav2File) -> Geometry {
    let mut g = Geometry::new(UpAxis::Y);
    g.vertex_identity = VertexIdentity::Shared;
    g.attributes = ATTRIBUTES.map(String::from).to_vec();
    g.parts = (0..file.data_chunks.len()).map(part_name).collect();
    // Where each data chunk's NavigationGraph nodes start in `g.nodes`.
    let mut node_bases = Vec::with_capacity(file.data_chunks.len());
    for (part, dc) in (0u32..).zip(&file.data_chunks) {
        node_bases.push(g.nodes.len());
        faces(file, dc, part, &mut g);
        let tile = g.kind("tile border");
        let node = g.kind("node");
        for n in &dc.navigation_graph.nodes {
            g.nodes.push(nav_core::geometry::GraphNode {
                position: file.decode_position(n.position),
                kind: if n.crossing_tile_link.is_some() {
                    tile
                } else {
                    node
                },
            });
        }
    }
    for (dc, base) in file.data_chunks.iter().zip(&node_bases) {
        let count = dc.navigation_graph.nodes.len();
        for (k, n) in dc.navigation_graph.nodes.iter().enumerate() {
            let from = index(base + k);
            for l in &n.inside_links {
                if usize::from(l.node_index) < count {
                    g.push_link(from, index(base + usize::from(l.node_index)), "inside");
                }
            }
            if let Some(v) = n.crossing_segment_link {
                if usize::from(v) < count {
                    g.push_link(from, index(base + usize::from(v)), "crossing segment");
                }
            }
            if let Some(c) = n.crossing_data_chunk_link {
                let target = file
                    .data_chunks
                    .iter()
                    .zip(&node_bases)
                    .find(|(d, _)| d.uid.index() == c.data_chunk_id);
                if let Some((d, b)) = target {
                    if usize::from(c.node_index) < d.navigation_graph.nodes.len() {
                        g.push_link(from, index(b + usize::from(c.node_index)), "crossing chunk");
                    }
                }
            }
        }
    }
    g
}

/// The meshes of one data chunk as polygons over its decoded positions.
fn faces(file: &Nav2File, dc: &DataChunk, part: u32, g: &mut Geometry) {
    let nm = &dc.navmesh_chunk;
    let bases = segment_bases(dc);
    let vertex_base = g.vertices.len();
    for p in &nm.positions {
        g.vertices.push(file.decode_position(*p));
    }
    // Mesh index → polygon index, for the meshes whose corners all name a position.
    let first = g.polygons.len();
    let mut polygon_of = Vec::with_capacity(nm.meshes.len());
    let mut kept = 0usize;
    let corners: Vec<Option<Vec<u32>>> = nm
        .meshes
        .iter()
        .map(|m| {
            let base = bases.get(usize::from(m.segment_index))?[0];
            let v: Option<Vec<u32>> = m
                .positions
                .iter()
                .map(|p| {
                    let i = base.checked_add(usize::from(*p))?;
                    (i < nm.positions.len()).then(|| index(vertex_base + i))
                })
                .collect();
            v.filter(|v| v.len() >= 3)
        })
        .collect();
    for c in &corners {
        polygon_of.push(c.as_ref().map(|_| {
            kept += 1;
            index(first + kept - 1)
        }));
    }
    for ((m, c), k) in nm.meshes.iter().zip(corners).zip(0u32..) {
        let Some(vertices) = c else { continue };
        let attribute = dc
            .navigation_graph
            .attributes
            .get(usize::from(m.segment_index))
            .copied();
        let kind = g.kind(attribute_kind(attribute));
        let neighbours = (0..vertices.len())
            .map(|i| {
                let n = m.neighbors.get(i)?;
                if n.is_none() || n.kind() != NeighborKind::Inside {
                    return None;
                }
                *polygon_of.get(usize::from(n.navmesh_index()))?
            })
            .collect();
        g.polygons.push(Polygon {
            vertices,
            kind,
            neighbours,
            record: Some(Record {
                part,
                index: k,
                id: None,
            }),
            attributes: attribute.map(i64::from).into_iter().collect(),
        });
    }
}
