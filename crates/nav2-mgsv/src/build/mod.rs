//! The builder: a new `.nav2` from a triangle mesh, laid out the way the game lays out its own
//! files (format notes, sections 2, 3 and 7).
//!
//! One data chunk (DataChunkUid index 4, the main group in MGSV) on tile 0:
//!
//! 1. **Quantisation.** The origin is the mesh's smallest corner; per axis the denominator is
//!    `⌊65535 / extent⌋` (at most 65,535), and each coordinate is stored *rounded*, so a decoded
//!    position is within half a step of the input. Corners that quantise to the same position
//!    are welded; triangles that collapse to a line or a point are left out.
//! 2. **Segments.** Faces are grown into segments across shared edges (breadth first), each
//!    segment stopping before it would pass [`MAX_SEGMENT_FACES`] faces or 255 positions or
//!    NavigationGraph nodes (the `u8` counts of a Segment, and local indices are `u8`). Each
//!    segment holds its own copy of its positions, as game files do.
//! 3. **NavmeshChunk.** Faces in segment order, counter-clockwise seen from above as in game
//!    files; neighbour `i` is the face across the edge from corner `i` to corner `i + 1`, an
//!    *inside* neighbour with a chunk-global face index; node `i` is the NavigationGraph node at
//!    that edge's midpoint.
//! 4. **NavigationGraph.** One node per mesh edge per segment, at the edge midpoint; inside links
//!    to the other two nodes of each face that has the edge; one edge per such pair, numbered per
//!    segment in node-pair order, its weight the distance in world units × WeightDenominator (127),
//!    as in game files (not Obj2Nav2's × 10). A node on the border between two segments links to
//!    its twin in the other segment (crossing segment). NavmeshIndices name the last face that
//!    has the node's edge. Every segment's attribute is 1249 (MGSV soldiers and animals).
//! 5. **SegmentChunk.** Bounds and counts; the writer computes the Base prefix sums.
//! 6. **SegmentGraph.** One node per segment (so NodeCount = SegmentCount, unlike Obj2Nav2), at
//!    the segment's NavigationGraph node nearest its bounds centre; an inside link per
//!    neighbouring segment, listing the border nodes, weighted by the distance to the first of
//!    them, with LinkIndex the position of the reverse link in the target's list (as game files
//!    have it).
//! 7. **IslandGraph.** One graph, one node per connected set of segments, at its first segment's
//!    SegmentGraph node; SegmentGraph nodes name their island node in the first slot.
//! 8. **SearchSpace.** Blocks of at least 10 world units (the game's size), grown so that no axis
//!    has more than [`MAX_BLOCKS`]; each bucket lists the segments whose bounds meet the block.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use nav_core::geometry::TriangleMesh;
use nav_core::{Error, RawF32, Result};

use crate::FORMAT;
use crate::model::*;

mod graphs;

pub use graphs::{island_graph, search_space, segment_graph};

/// The most faces a built segment holds: three NavigationGraph edges per face must fit the
/// segment's `u8` edge count.
pub const MAX_SEGMENT_FACES: usize = 64;
/// The most faces a data chunk can hold: NeighborNavmeshInfo has a 14-bit face index.
pub const MAX_FACES: usize = 0x4000;
/// The most segments: mesh and node records have a 12-bit SegmentIndex.
pub const MAX_SEGMENTS: usize = 0x1000;
/// The most SearchSpace blocks along X or Z.
pub const MAX_BLOCKS: u32 = 64;
/// The NavigationGraph attribute of every built segment (MGSV soldiers and animals).
pub const ATTRIBUTE: u16 = 1249;
/// The DataChunkUid index of the built data chunk (the main group in MGSV).
pub const GROUP: u16 = 4;

fn refuse(field: impl core::fmt::Display, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, field, message)
}

/// Builds a file from `mesh` (world axes, Y up; triangles counter-clockwise seen from above).
///
/// The builder quantises and welds the mesh, partitions it into segments and lays out the
/// NavmeshChunk (steps 1 and 2, and the geometry of step 3); everything else is derived from
/// that geometry by the same functions [`crate::fix()`] calls on an edited file:
/// [`navigation_graph`] (steps 3 to 5), [`segment_graph`] (step 6), [`island_graph`] (step 7)
/// and [`search_space`] (step 8).
pub fn build(mesh: &TriangleMesh) -> Result<Nav2File> {
    let q = Quantised::new(mesh)?;
    let faces = q.faces;
    if faces.is_empty() {
        return Err(refuse(
            "mesh",
            "no triangle with three distinct corners after quantisation",
        ));
    }
    if faces.len() > MAX_FACES {
        return Err(refuse(
            "mesh",
            format!(
                "{} triangles; a data chunk holds at most {MAX_FACES} (NeighborNavmeshInfo has a \
                 14-bit face index)",
                faces.len()
            ),
        ));
    }
    let positions = q.positions;

    // Faces across each undirected edge.
    let mut edge_faces: HashMap<(u32, u32), Vec<usize>> = HashMap::new();
    for (f, t) in faces.iter().enumerate() {
        for side in 0..3 {
            edge_faces.entry(edge_key(t, side)).or_default().push(f);
        }
    }
    // The face across each side, where exactly two faces share the edge.
    let across: Vec<[Option<usize>; 3]> = faces
        .iter()
        .enumerate()
        .map(|(f, t)| {
            core::array::from_fn(|side| match edge_faces.get(&edge_key(t, side)) {
                Some(v) if v.len() == 2 => v.iter().copied().find(|g| *g != f),
                _ => None,
            })
        })
        .collect();
    let segments = partition(&faces, &across)?;

    let mut file = Nav2File::new(q.origin, q.denominator);
    let mut dc = DataChunk {
        uid: FileUid::new(GROUP, 0),
        ..DataChunk::default()
    };
    // The geometry: segment by segment, the segment's own copy of its positions (in the order
    // its faces first use them) and its faces with segment-local corners.
    for (s, fs) in segments.iter().enumerate() {
        let seg_index = u16::try_from(s).map_err(|_| refuse("segments", "too many"))?;
        let mut local_pos: BTreeMap<u32, u8> = BTreeMap::new();
        for f in fs {
            let t = faces.get(*f).copied().unwrap_or_default();
            for v in t {
                let next = u8::try_from(local_pos.len()).unwrap_or(u8::MAX);
                if let std::collections::btree_map::Entry::Vacant(e) = local_pos.entry(v) {
                    e.insert(next);
                    dc.navmesh_chunk
                        .positions
                        .push(positions.get(v as usize).copied().unwrap_or_default());
                }
            }
            dc.navmesh_chunk.meshes.push(Mesh {
                segment_index: seg_index,
                positions: t
                    .map(|v| local_pos.get(&v).copied().unwrap_or_default())
                    .into(),
                ..Mesh::default()
            });
        }
        dc.segment_chunk.segments.push(Segment {
            navmesh_position_count: count_u8(local_pos.len(), "NavmeshPositionCount")?,
            navmesh_count: count_u8(fs.len(), "NavmeshCount")?,
            ..Segment::default()
        });
    }

    navigation_graph(&file, &mut dc)?;
    dc.segment_graph.nodes = segment_graph(&file, &dc)?;
    file.data_chunks.push(dc);
    let islands = island_graph(&mut file)?;
    file.island_graphs = vec![islands];
    file.search_space = Some(search_space(&file));
    // Refuse here, naming the limit, what the writer cannot lay out.
    file.write()?;
    Ok(file)
}

/// The corners of each mesh of a data chunk as vertex ids (positions welded by value: a
/// segment's copy of a shared corner is the same vertex), and the position of each id.
///
/// Refuses a mesh whose segment or corner names nothing, one with fewer than three corners, and
/// meshes that are not in segment order (segment-local indices need them grouped).
fn chunk_corners(dc: &DataChunk) -> Result<(Vec<Vec<u32>>, Vec<Position>)> {
    let nm = &dc.navmesh_chunk;
    let bases = crate::geometry::segment_bases(dc);
    let mut ids: HashMap<Position, u32> = HashMap::new();
    let mut id_pos: Vec<Position> = Vec::new();
    let mut corners = Vec::with_capacity(nm.meshes.len());
    let mut last_segment = 0u16;
    for (k, m) in nm.meshes.iter().enumerate() {
        if m.segment_index < last_segment {
            return Err(refuse(
                format!("NavmeshChunk Meshes[{k}]"),
                "meshes are not in segment order",
            ));
        }
        last_segment = m.segment_index;
        let base = bases
            .get(usize::from(m.segment_index))
            .map(|b| b[0])
            .ok_or_else(|| {
                refuse(
                    format!("NavmeshChunk Meshes[{k}] SegmentIndex"),
                    "names no segment",
                )
            })?;
        if m.positions.len() < 3 {
            return Err(refuse(
                format!("NavmeshChunk Meshes[{k}]"),
                "has fewer than three corners",
            ));
        }
        let mut c = Vec::with_capacity(m.positions.len());
        for p in &m.positions {
            let pos = nm.positions.get(base + usize::from(*p)).ok_or_else(|| {
                refuse(
                    format!("NavmeshChunk Meshes[{k}] position index"),
                    format!("{p} names no position"),
                )
            })?;
            let id = *ids.entry(*pos).or_insert_with(|| {
                id_pos.push(*pos);
                u32::try_from(id_pos.len() - 1).unwrap_or(u32::MAX)
            });
            c.push(id);
        }
        corners.push(c);
    }
    Ok((corners, id_pos))
}

/// Steps 3 to 5, from a data chunk's geometry: its positions, each mesh's segment and
/// segment-local corners, and each segment's NavmeshPositionCount. Computes each mesh's
/// neighbours (an *inside* neighbour across every side exactly two meshes of the chunk share)
/// and NavigationGraph node indices, the whole NavigationGraph (nodes at edge midpoints, inside
/// links, edges with their weights, crossing-segment links between the twin nodes of segment
/// borders; a segment keeps its attribute, a new one gets [`ATTRIBUTE`]), and each segment's
/// bounds, NavmeshCount and NavigationGraph counts.
///
/// Meshes may have three or four corners; each pair of a mesh's nodes gets an edge. Refuses a
/// chunk whose meshes name nothing or are not in segment order, and one that passes a limit of
/// the format (more than [`MAX_FACES`] meshes, 255 nodes or edges in a segment, 65,535 nodes).
/// Crossing neighbours and links to other data chunks and tiles are not made here.
pub fn navigation_graph(file: &Nav2File, dc: &mut DataChunk) -> Result<()> {
    if dc.navmesh_chunk.meshes.len() > MAX_FACES {
        return Err(refuse(
            "NavmeshChunk",
            format!(
                "{} meshes; a data chunk holds at most {MAX_FACES}",
                dc.navmesh_chunk.meshes.len()
            ),
        ));
    }
    let (corners, id_pos) = chunk_corners(dc)?;
    let key = |f: usize, side: usize| -> (u32, u32) {
        corners.get(f).map_or((0, 0), |c| polygon_edge_key(c, side))
    };
    // Meshes across each undirected edge, as (mesh, side), in mesh order.
    let mut edge_faces: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (f, c) in corners.iter().enumerate() {
        for side in 0..c.len() {
            edge_faces.entry(key(f, side)).or_default().push((f, side));
        }
    }
    let across = |f: usize, side: usize| -> Option<usize> {
        match edge_faces.get(&key(f, side)) {
            Some(v) if v.len() == 2 => v.iter().map(|(g, _)| *g).find(|g| *g != f),
            _ => None,
        }
    };
    let segment_of: Vec<usize> = dc
        .navmesh_chunk
        .meshes
        .iter()
        .map(|m| usize::from(m.segment_index))
        .collect();
    let bases = crate::geometry::segment_bases(dc);
    let segment_count = dc.segment_chunk.segments.len();
    let stored = |v: u32| id_pos.get(v as usize).copied().unwrap_or_default();
    let midpoint = |(a, b): (u32, u32)| -> Position {
        let (pa, pb) = (stored(a), stored(b));
        // The rounded-up mean of two `u16` values is at most 65,535: the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        core::array::from_fn(|i| (u32::from(pa[i]) + u32::from(pb[i])).div_ceil(2) as u16)
    };
    let old_attributes = core::mem::take(&mut dc.navigation_graph.attributes);
    let mut ng = NavigationGraph::default();
    let mut local_nodes: Vec<BTreeMap<(u32, u32), u8>> = Vec::with_capacity(segment_count);
    let mut node_base = Vec::with_capacity(segment_count);
    let mut first_face = 0usize;
    for s in 0..segment_count {
        let seg_index = u16::try_from(s).map_err(|_| refuse("segments", "too many"))?;
        let fs: Vec<usize> = (first_face..segment_of.len())
            .take_while(|f| segment_of.get(*f) == Some(&s))
            .collect();
        first_face += fs.len();
        // Nodes: one per undirected edge, numbered as the segment's faces first meet them.
        let mut nodes: BTreeMap<(u32, u32), u8> = BTreeMap::new();
        let mut node_list: Vec<(u32, u32)> = Vec::new();
        for f in &fs {
            for side in 0..corners.get(*f).map_or(0, Vec::len) {
                if let std::collections::btree_map::Entry::Vacant(e) = nodes.entry(key(*f, side)) {
                    e.insert(u8::try_from(node_list.len()).unwrap_or(u8::MAX));
                    node_list.push(key(*f, side));
                }
            }
        }
        let node_count = count_u8(node_list.len(), "NavigationGraphNodeCount")?;
        let node_of = |f: usize, side: usize| nodes.get(&key(f, side)).copied().unwrap_or_default();
        // Bounds over the segment's positions.
        let (pos_base, pos_count) = bases.get(s).map_or((0, 0), |b| {
            (
                b[0],
                dc.segment_chunk
                    .segments
                    .get(s)
                    .map_or(0, |g| usize::from(g.navmesh_position_count)),
            )
        });
        let mut min = [u16::MAX; 3];
        let mut max = [0u16; 3];
        for p in dc
            .navmesh_chunk
            .positions
            .iter()
            .skip(pos_base)
            .take(pos_count)
        {
            for a in 0..3 {
                min[a] = min[a].min(p[a]);
                max[a] = max[a].max(p[a]);
            }
        }
        // Meshes: neighbours and nodes.
        for f in &fs {
            let sides = corners.get(*f).map_or(0, Vec::len);
            // A mesh's corners come from its `positions`, so there are at most 4 of them.
            let too_many = |e: TooManySides| refuse(format!("NavmeshChunk Meshes[{f}]"), e);
            let neighbors = Sides::from_fn(sides, |side| match across(*f, side) {
                Some(g) => NeighborNavmeshInfo::new(
                    u16::try_from(g).unwrap_or(u16::MAX),
                    NeighborKind::Inside,
                ),
                None => NeighborNavmeshInfo::NONE,
            })
            .map_err(too_many)?;
            let navigation_graph_nodes =
                Sides::from_fn(sides, |side| node_of(*f, side)).map_err(too_many)?;
            if let Some(m) = dc.navmesh_chunk.meshes.get_mut(*f) {
                m.neighbors = neighbors;
                m.navigation_graph_nodes = navigation_graph_nodes;
                m.crossing = None;
            }
        }
        // Edges: each pair of nodes of a face, numbered per segment in pair order.
        let base = ng.nodes.len();
        let edge_base = ng.edges.len();
        node_base.push(base);
        let mut pairs: BTreeSet<(u8, u8)> = BTreeSet::new();
        for f in &fs {
            let n: Vec<u8> = (0..corners.get(*f).map_or(0, Vec::len))
                .map(|side| node_of(*f, side))
                .collect();
            for a in 0..n.len() {
                for b in a + 1..n.len() {
                    let (x, y) = (n[a], n[b]);
                    pairs.insert((x.min(y), x.max(y)));
                }
            }
        }
        let pairs: Vec<(u8, u8)> = pairs.into_iter().collect();
        let edge_count = count_u8(pairs.len(), "NavigationGraphEdgeCount")?;
        let edge_of = |x: u8, y: u8| -> u16 {
            let k = pairs.binary_search(&(x.min(y), x.max(y))).unwrap_or(0);
            u16::try_from(edge_base + k).unwrap_or(u16::MAX)
        };
        for (x, y) in &pairs {
            let (px, py) = (
                midpoint(node_list.get(usize::from(*x)).copied().unwrap_or_default()),
                midpoint(node_list.get(usize::from(*y)).copied().unwrap_or_default()),
            );
            ng.edges.push(NavigationGraphEdge {
                weight: weight(file, px, py),
                segment_index: seg_index,
                kind: 0,
                reserved: 0,
                node_indices: [*x, *y],
            });
        }
        // Nodes: inside links to the other nodes of each face of the segment with the edge.
        for (local, k) in node_list.iter().enumerate() {
            let me = u8::try_from(local).unwrap_or(u8::MAX);
            let mut inside = Vec::new();
            let mut last_face = 0usize;
            for (f, side) in edge_faces.get(k).map(Vec::as_slice).unwrap_or_default() {
                if segment_of.get(*f) != Some(&s) {
                    continue;
                }
                last_face = last_face.max(*f);
                let sides = corners.get(*f).map_or(0, Vec::len);
                for step in 1..sides {
                    let o = node_of(*f, (side + step) % sides);
                    inside.push(NavigationGraphInsideLink {
                        node_index: u16::try_from(base + usize::from(o)).unwrap_or(u16::MAX),
                        edge_index: edge_of(me, o),
                    });
                }
            }
            ng.nodes.push(NavigationGraphNode {
                position: midpoint(*k),
                segment_index: seg_index,
                navmesh_index: u16::try_from(last_face).unwrap_or(u16::MAX),
                inside_links: inside.into(),
                ..NavigationGraphNode::default()
            });
        }
        ng.attributes
            .push(old_attributes.get(s).copied().unwrap_or(ATTRIBUTE));
        if let Some(g) = dc.segment_chunk.segments.get_mut(s) {
            g.min = min;
            g.max = max;
            g.navmesh_count = count_u8(fs.len(), "NavmeshCount")?;
            g.navigation_graph_edge_count = edge_count;
            g.navigation_graph_node_count = node_count;
        }
        local_nodes.push(nodes);
    }
    if first_face != segment_of.len() {
        return Err(refuse(
            "NavmeshChunk Meshes",
            "a mesh names a segment past the segments",
        ));
    }
    if ng.nodes.len() > usize::from(u16::MAX) {
        return Err(refuse(
            "NavigationGraph",
            format!(
                "{} nodes; NodeCount is a u16 (at most 65,535)",
                ng.nodes.len()
            ),
        ));
    }
    // Crossing-segment links between the twin nodes of border edges.
    for (k, list) in &edge_faces {
        let [(f, _), (g, _)] = list.as_slice() else {
            continue;
        };
        let (sa, sb) = (
            segment_of.get(*f).copied().unwrap_or_default(),
            segment_of.get(*g).copied().unwrap_or_default(),
        );
        if sa == sb {
            continue;
        }
        for (a, b) in [(sa, sb), (sb, sa)] {
            let la = local_nodes.get(a).and_then(|m| m.get(k)).copied();
            let lb = local_nodes.get(b).and_then(|m| m.get(k)).copied();
            let (Some(la), Some(lb)) = (la, lb) else {
                continue;
            };
            let ga = node_base.get(a).copied().unwrap_or_default() + usize::from(la);
            let gb = node_base.get(b).copied().unwrap_or_default() + usize::from(lb);
            if let Some(n) = ng.nodes.get_mut(ga) {
                n.crossing_segment_link = Some(u16::try_from(gb).unwrap_or(u16::MAX));
            }
        }
    }
    dc.navigation_graph = ng;
    Ok(())
}

fn count_u8(n: usize, field: &str) -> Result<u8> {
    u8::try_from(n).map_err(|_| refuse(field, format!("{n} does not fit the segment's u8 count")))
}

/// The undirected edge of a triangle's side `side` (from corner `side` to the next).
fn edge_key(t: &[u32; 3], side: usize) -> (u32, u32) {
    let a = t[side % 3];
    let b = t[(side + 1) % 3];
    (a.min(b), a.max(b))
}

/// The undirected edge of a polygon's side `side` (from corner `side` to the next).
fn polygon_edge_key(corners: &[u32], side: usize) -> (u32, u32) {
    let n = corners.len().max(1);
    let a = corners.get(side % n).copied().unwrap_or_default();
    let b = corners.get((side + 1) % n).copied().unwrap_or_default();
    (a.min(b), a.max(b))
}

/// The distance between two stored positions in world units × WeightDenominator, saturated.
fn weight(file: &Nav2File, a: Position, b: Position) -> u16 {
    let (pa, pb) = (file.decode_position(a), file.decode_position(b));
    let d = (0..3)
        .map(|i| f64::from(pa[i] - pb[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    let w = (d * f64::from(file.weight_denominator)).round();
    if w.is_finite() {
        // Clamped to the `u16` range (a distance is never negative), so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let w = w.clamp(0.0, 65535.0) as u16;
        w
    } else {
        u16::MAX
    }
}

/// The mesh in stored units, welded.
struct Quantised {
    origin: [RawF32; 3],
    denominator: [u16; 3],
    positions: Vec<Position>,
    faces: Vec<[u32; 3]>,
}

impl Quantised {
    fn new(mesh: &TriangleMesh) -> Result<Quantised> {
        if mesh.triangles.is_empty() {
            return Err(refuse("mesh", "no triangles"));
        }
        let mut used = vec![false; mesh.vertices.len()];
        for (k, t) in mesh.triangles.iter().enumerate() {
            for v in t {
                match used.get_mut(*v as usize) {
                    Some(u) => *u = true,
                    None => {
                        return Err(refuse(
                            "mesh",
                            format!(
                                "triangle {k} names vertex {v}, but there are {}",
                                mesh.vertices.len()
                            ),
                        ));
                    }
                }
            }
        }
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for (v, u) in mesh.vertices.iter().zip(&used) {
            if !*u {
                continue;
            }
            for a in 0..3 {
                if !v[a].is_finite() {
                    return Err(refuse(
                        "mesh",
                        format!("vertex {v:?} has a coordinate that is not a finite number"),
                    ));
                }
                lo[a] = lo[a].min(f64::from(v[a]));
                hi[a] = hi[a].max(f64::from(v[a]));
            }
        }
        let mut denominator = [0u16; 3];
        for a in 0..3 {
            let extent = hi[a] - lo[a];
            let d = if extent > 0.0 {
                (65535.0 / extent).floor()
            } else {
                65535.0
            };
            if d < 1.0 {
                return Err(refuse(
                    "mesh",
                    format!(
                        "the mesh spans {extent} world units along axis {}; stored positions are \
                         u16 over a denominator of at least 1, so at most 65,535",
                        ["X", "Y", "Z"][a]
                    ),
                ));
            }
            // A whole number in 1..=65535 (checked above, clamped here): the cast is exact.
            #[allow(clippy::cast_possible_truncation)]
            let d = d.min(65535.0) as u16;
            denominator[a] = d;
        }
        // `lo` is the least of some used vertices' `f32` coordinates (there is at least one
        // triangle), widened: narrowing it back is exact.
        #[allow(clippy::cast_possible_truncation)]
        let origin = lo.map(|c| RawF32::new(c as f32));
        let mut welded: HashMap<Position, u32> = HashMap::new();
        let mut positions = Vec::new();
        let mut remap = vec![0u32; mesh.vertices.len()];
        for ((v, u), r) in mesh.vertices.iter().zip(&used).zip(&mut remap) {
            if !*u {
                continue;
            }
            let p: Position = core::array::from_fn(|a| {
                let s = ((f64::from(v[a]) - lo[a]) * f64::from(denominator[a])).round();
                // Clamped to the `u16` range (and whole), so the cast is exact.
                #[allow(clippy::cast_possible_truncation)]
                let s = s.clamp(0.0, 65535.0) as u16;
                s
            });
            *r = *welded.entry(p).or_insert_with(|| {
                positions.push(p);
                u32::try_from(positions.len() - 1).unwrap_or(u32::MAX)
            });
        }
        let faces = mesh
            .triangles
            .iter()
            .map(|t| t.map(|v| remap.get(v as usize).copied().unwrap_or_default()))
            .filter(|t| t[0] != t[1] && t[1] != t[2] && t[0] != t[2])
            .collect();
        Ok(Quantised {
            origin,
            denominator,
            positions,
            faces,
        })
    }
}

/// Grows segments breadth first across shared edges, within the per-segment limits.
fn partition(faces: &[[u32; 3]], across: &[[Option<usize>; 3]]) -> Result<Vec<Vec<usize>>> {
    let mut assigned = vec![false; faces.len()];
    let mut segments = Vec::new();
    for seed in 0..faces.len() {
        if assigned.get(seed).copied().unwrap_or(true) {
            continue;
        }
        let mut members = Vec::new();
        let mut verts: BTreeSet<u32> = BTreeSet::new();
        let mut edges: BTreeSet<(u32, u32)> = BTreeSet::new();
        let mut queue = VecDeque::from([seed]);
        let mut queued: BTreeSet<usize> = BTreeSet::from([seed]);
        while let Some(f) = queue.pop_front() {
            let Some(t) = faces.get(f) else { continue };
            let new_verts = t.iter().filter(|v| !verts.contains(v)).count();
            let new_edges = (0..3).filter(|s| !edges.contains(&edge_key(t, *s))).count();
            if members.len() + 1 > MAX_SEGMENT_FACES
                || verts.len() + new_verts > 255
                || edges.len() + new_edges > 255
            {
                continue;
            }
            members.push(f);
            if let Some(a) = assigned.get_mut(f) {
                *a = true;
            }
            verts.extend(t.iter().copied());
            edges.extend((0..3).map(|s| edge_key(t, s)));
            for g in across.get(f).into_iter().flatten().flatten() {
                if !assigned.get(*g).copied().unwrap_or(true) && queued.insert(*g) {
                    queue.push_back(*g);
                }
            }
        }
        segments.push(members);
    }
    if segments.len() > MAX_SEGMENTS {
        return Err(refuse(
            "SegmentChunk",
            format!(
                "{} segments; SegmentIndex has 12 bits (at most {MAX_SEGMENTS} segments)",
                segments.len()
            ),
        ));
    }
    Ok(segments)
}

/// The NavigationGraph node of segment `s` nearest the centre of its bounds, segment-local
/// (the first of equals; 0 for a segment without nodes).
fn central_node(dc: &DataChunk, bases: &[[usize; 4]], s: usize) -> u8 {
    let Some(seg) = dc.segment_chunk.segments.get(s) else {
        return 0;
    };
    let base = bases.get(s).map_or(0, |b| b[3]);
    let centre: [i64; 3] =
        core::array::from_fn(|a| (i64::from(seg.min[a]) + i64::from(seg.max[a])) / 2);
    (0..usize::from(seg.navigation_graph_node_count))
        .map(|l| u8::try_from(l).unwrap_or(u8::MAX))
        .min_by_key(|l| {
            let p = node_position(dc, base + usize::from(*l));
            (0..3)
                .map(|a| (i64::from(p[a]) - centre[a]).pow(2))
                .sum::<i64>()
        })
        .unwrap_or(0)
}

fn node_position(dc: &DataChunk, node: usize) -> Position {
    dc.navigation_graph
        .nodes
        .get(node)
        .map(|n| n.position)
        .unwrap_or_default()
}
