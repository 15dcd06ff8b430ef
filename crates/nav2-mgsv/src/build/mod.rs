//! The builder: a new `.nav2` from a triangle mesh, laid out the way the game lays out its own
//! files (format notes, sections 2, 3 and 7).
//!
//! One data chunk (DataChunkUid index 4, the main group in MGSV) on tile 0:
//!
//! 1. **Quantisation.** The origin is the mesh's smallest corner; per axis the denominator is
//!    `⌊65535 / extent⌋` (at most 65,535), and each coordinate is stored *rounded*, so a decoded
//!    position is within half a step of the input. Corners that quantise to the same position
//!    are welded; a triangle whose corners weld together (closer than a step) is left out, with
//!    a warning naming it. The mesh is first screened as every builder screens it
//!    ([`TriangleMesh::screen`], Y up): a missing vertex, a non-finite corner or a zero-length
//!    edge is refused; vertical, degenerate and clockwise triangles (game files have all three:
//!    `ssav_137_128_nav.nav2`'s triangle 576 is vertical) are kept, each with a warning.
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
//!
//! Every index the builder follows was made by the builder itself, from the records it indexes,
//! so the lookups cannot fail on what it builds; where one is not written as iteration over the
//! records (a face across an edge, a node of a link), it goes through a checked lookup (`at`)
//! that returns an error naming the record instead of letting a default value into the file.
//! The same steps serve [`crate::fix()`] on edited files, where such an error means that the
//! step refuses the chunk.

use std::collections::btree_map::Entry as BTreeEntry;
use std::collections::hash_map::Entry as HashEntry;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::ops::Range;

use nav_core::geometry::{TriangleMesh, UpAxis};
use nav_core::{Built, Error, Finding, Place, RawF32, Result};

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

/// `items[i]`, for an index the builder made from the records it indexes: in range by
/// construction. Should it not be, the error names the record (`record()`), so that a bug
/// fails the build rather than writing a default into the file.
fn at<T>(items: &[T], i: usize, record: impl FnOnce() -> String) -> Result<&T> {
    let len = items.len();
    items.get(i).ok_or_else(|| past(record(), i, len))
}

/// [`at`], for writing.
fn at_mut<T>(items: &mut [T], i: usize, record: impl FnOnce() -> String) -> Result<&mut T> {
    let len = items.len();
    items.get_mut(i).ok_or_else(|| past(record(), i, len))
}

#[cold]
fn past(record: String, i: usize, len: usize) -> Error {
    refuse(record, format!("index {i} names nothing (there are {len})"))
}

/// `n` as a `u16` record field (an index or a count), or an error naming the field.
fn to_u16(n: usize, field: impl FnOnce() -> String) -> Result<u16> {
    u16::try_from(n).map_err(|_| refuse(field(), format!("{n} does not fit its u16")))
}

/// Builds a file from `mesh` (world axes, Y up; triangles counter-clockwise seen from above),
/// with the warnings about triangles kept as they are or left out (see the module docs).
///
/// The builder quantises and welds the mesh, partitions it into segments and lays out the
/// NavmeshChunk (steps 1 and 2, and the geometry of step 3); everything else is derived from
/// that geometry by the same functions [`crate::fix()`] calls on an edited file:
/// [`navigation_graph`] (steps 3 to 5), [`segment_graph`] (step 6), [`island_graph`] (step 7)
/// and [`search_space`] (step 8).
pub fn build(mesh: &TriangleMesh) -> Result<Built<Nav2File>> {
    let mut warnings = mesh.screen(FORMAT, UpAxis::Y)?;
    let q = Quantised::new(mesh)?;
    warnings.extend(q.collapsed.iter().map(|k| {
        Finding::warning(
            Place::at("triangles", *k).cell(),
            "collapses on the stored grid (two corners closer than a step weld together): left out",
        )
    }));
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
            let t = at(&faces, *f, || format!("face {f}"))?;
            // Each corner's segment-local position, the segment's copy made where first met.
            let mut corners = [0u8; 3];
            for (corner, v) in corners.iter_mut().zip(t) {
                let next = local_pos.len();
                *corner = match local_pos.entry(*v) {
                    BTreeEntry::Occupied(e) => *e.get(),
                    BTreeEntry::Vacant(e) => {
                        let local = count_u8(next, "NavmeshPositionCount")?;
                        let p = at(&positions, *v as usize, || format!("face {f} corner {v}"))?;
                        dc.navmesh_chunk.positions.push(*p);
                        *e.insert(local)
                    }
                };
            }
            dc.navmesh_chunk.meshes.push(Mesh {
                segment_index: seg_index,
                positions: corners.into(),
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
    file.search_space = Some(search_space(&file)?);
    // Refuse here, naming the limit, what the writer cannot lay out.
    file.write()?;
    Ok(Built {
        model: file,
        warnings,
    })
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
            let id = match ids.entry(*pos) {
                HashEntry::Occupied(e) => *e.get(),
                HashEntry::Vacant(e) => {
                    let id = u32::try_from(id_pos.len())
                        .map_err(|_| refuse("NavmeshChunk Positions", "more than 2^32 vertices"))?;
                    id_pos.push(*pos);
                    *e.insert(id)
                }
            };
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
    // Each mesh's sides as undirected edges: side `i` runs from corner `i` to the next.
    let sides: Vec<Vec<(u32, u32)>> = corners.iter().map(|c| side_keys(c)).collect();
    // Meshes across each undirected edge, as (mesh, side), in mesh order.
    let mut edge_faces: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (f, keys) in sides.iter().enumerate() {
        for (side, key) in keys.iter().enumerate() {
            edge_faces.entry(*key).or_default().push((f, side));
        }
    }
    // The mesh across a side of mesh `f`: the other of exactly two that share the edge.
    let across = |f: usize, key: &(u32, u32)| -> Option<usize> {
        match edge_faces.get(key).map(Vec::as_slice) {
            Some([(a, _), (b, _)]) => [*a, *b].into_iter().find(|g| *g != f),
            _ => None,
        }
    };
    let segment_of: Vec<usize> = dc
        .navmesh_chunk
        .meshes
        .iter()
        .map(|m| usize::from(m.segment_index))
        .collect();
    let runs = segment_runs(&segment_of, dc.segment_chunk.segments.len())?;
    let bases = crate::geometry::segment_bases(dc);
    let midpoint = |(a, b): (u32, u32)| -> Result<Position> {
        let vertex = |v: u32| at(&id_pos, v as usize, || format!("NavmeshChunk vertex {v}"));
        let (pa, pb) = (vertex(a)?, vertex(b)?);
        // The rounded-up mean of two `u16` values is at most 65,535: the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        Ok(core::array::from_fn(|i| {
            (u32::from(pa[i]) + u32::from(pb[i])).div_ceil(2) as u16
        }))
    };
    let old_attributes = core::mem::take(&mut dc.navigation_graph.attributes);
    // A segment keeps its attribute; one past the old attributes gets the builder's.
    let attributes = old_attributes
        .into_iter()
        .chain(core::iter::repeat(ATTRIBUTE));
    let mut ng = NavigationGraph::default();
    let mut local_nodes: Vec<BTreeMap<(u32, u32), u8>> = Vec::with_capacity(runs.len());
    let mut node_base = Vec::with_capacity(runs.len());
    let segments = dc.segment_chunk.segments.iter_mut().zip(&bases);
    for (s, (((segment, base), run), attribute)) in segments.zip(&runs).zip(attributes).enumerate()
    {
        let seg_index = u16::try_from(s).map_err(|_| refuse("segments", "too many"))?;
        let record = || format!("SegmentChunk Segments[{s}]");
        let run_sides = sides
            .get(run.clone())
            .ok_or_else(|| past(record(), run.end, sides.len()))?;
        // Nodes: one per undirected edge, numbered as the segment's faces first meet them, and
        // each face's nodes side by side.
        let mut nodes: BTreeMap<(u32, u32), u8> = BTreeMap::new();
        let mut node_list: Vec<(u32, u32)> = Vec::new();
        let mut face_nodes: Vec<Vec<u8>> = Vec::with_capacity(run.len());
        for keys in run_sides {
            let mut ids = Vec::with_capacity(keys.len());
            for key in keys {
                let next = node_list.len();
                ids.push(match nodes.entry(*key) {
                    BTreeEntry::Occupied(e) => *e.get(),
                    BTreeEntry::Vacant(e) => {
                        node_list.push(*key);
                        *e.insert(count_u8(next, "NavigationGraphNodeCount")?)
                    }
                });
            }
            face_nodes.push(ids);
        }
        let node_count = count_u8(node_list.len(), "NavigationGraphNodeCount")?;
        // Bounds over the segment's positions: those of its range the chunk holds (an edit
        // that cut positions off leaves counts that add up past them; validate warns, and the
        // meshes, checked above, name none of the missing ones).
        let (first, count) = (base[0], usize::from(segment.navmesh_position_count));
        let own = dc.navmesh_chunk.positions.iter().skip(first).take(count);
        let mut min = [u16::MAX; 3];
        let mut max = [0u16; 3];
        for p in own {
            for a in 0..3 {
                min[a] = min[a].min(p[a]);
                max[a] = max[a].max(p[a]);
            }
        }
        // Meshes: neighbours and nodes.
        let meshes = dc.navmesh_chunk.meshes.get_mut(run.clone());
        let meshes = meshes.ok_or_else(|| past(record(), run.end, segment_of.len()))?;
        for ((f, m), (keys, ids)) in run
            .clone()
            .zip(meshes)
            .zip(run_sides.iter().zip(&face_nodes))
        {
            let record = || format!("NavmeshChunk Meshes[{f}]");
            let too_many = || refuse(record(), "more than 4 sides");
            let mut neighbors = Sides::new();
            for key in keys {
                let n = match across(f, key) {
                    Some(g) => NeighborNavmeshInfo::new(to_u16(g, record)?, NeighborKind::Inside),
                    None => NeighborNavmeshInfo::NONE,
                };
                neighbors.try_push(n).map_err(|_| too_many())?;
            }
            m.neighbors = neighbors;
            m.navigation_graph_nodes = Sides::from_slice(ids).map_err(|_| too_many())?;
            m.crossing = None;
        }
        // Edges: each pair of nodes of a face, numbered per segment in pair order.
        let first_node = ng.nodes.len();
        let edge_base = ng.edges.len();
        node_base.push(first_node);
        let mut pairs: BTreeSet<(u8, u8)> = BTreeSet::new();
        for ids in &face_nodes {
            for (a, x) in ids.iter().enumerate() {
                for y in ids.iter().skip(a + 1) {
                    pairs.insert((*x.min(y), *x.max(y)));
                }
            }
        }
        let pairs: Vec<(u8, u8)> = pairs.into_iter().collect();
        let edge_count = count_u8(pairs.len(), "NavigationGraphEdgeCount")?;
        let edge_of = |x: u8, y: u8| -> Result<u16> {
            let k = pairs.binary_search(&(x.min(y), x.max(y))).map_err(|_| {
                refuse(
                    record(),
                    format!("nodes {x} and {y} share a face but no edge"),
                )
            })?;
            to_u16(edge_base + k, || "NavigationGraph EdgeCount".into())
        };
        let positions = node_list
            .iter()
            .map(|k| midpoint(*k))
            .collect::<Result<Vec<Position>>>()?;
        for (x, y) in &pairs {
            let node = |n: u8| {
                at(&positions, usize::from(n), || {
                    format!("{} node {n}", record())
                })
            };
            ng.edges.push(NavigationGraphEdge {
                weight: weight(file, *node(*x)?, *node(*y)?),
                segment_index: seg_index,
                kind: 0,
                reserved: 0,
                node_indices: [*x, *y],
            });
        }
        // Nodes: inside links to the other nodes of each face of the segment with the edge
        // (there are at most 255 nodes, checked above, so every one has its `u8`).
        for ((me, key), position) in (0..=u8::MAX).zip(&node_list).zip(&positions) {
            let mut inside = Vec::new();
            let mut last_face = 0usize;
            let on_edge = edge_faces.get(key).map(Vec::as_slice);
            let on_edge = on_edge.ok_or_else(|| refuse(record(), "a node names no edge"))?;
            for (f, side) in on_edge {
                if !run.contains(f) {
                    continue;
                }
                last_face = last_face.max(*f);
                let ids = at(&face_nodes, f - run.start, || {
                    format!("NavmeshChunk Meshes[{f}]")
                })?;
                let others = ids
                    .iter()
                    .cycle()
                    .skip(side + 1)
                    .take(ids.len().saturating_sub(1));
                for o in others {
                    inside.push(NavigationGraphInsideLink {
                        node_index: to_u16(first_node + usize::from(*o), || {
                            "NavigationGraph NodeCount".into()
                        })?,
                        edge_index: edge_of(me, *o)?,
                    });
                }
            }
            ng.nodes.push(NavigationGraphNode {
                position: *position,
                segment_index: seg_index,
                navmesh_index: to_u16(last_face, || format!("{} NavmeshIndices", record()))?,
                inside_links: inside.into(),
                ..NavigationGraphNode::default()
            });
        }
        ng.attributes.push(attribute);
        segment.min = min;
        segment.max = max;
        segment.navmesh_count = count_u8(run.len(), "NavmeshCount")?;
        segment.navigation_graph_edge_count = edge_count;
        segment.navigation_graph_node_count = node_count;
        local_nodes.push(nodes);
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
    // Crossing-segment links between the twin nodes of border edges (every side of a mesh has
    // its node in the mesh's segment, made above).
    for (k, list) in &edge_faces {
        let [(f, _), (g, _)] = list.as_slice() else {
            continue;
        };
        let segment = |f: usize| at(&segment_of, f, || format!("NavmeshChunk Meshes[{f}]"));
        let (sa, sb) = (*segment(*f)?, *segment(*g)?);
        if sa == sb {
            continue;
        }
        let node = |s: usize| -> Result<usize> {
            let record = || format!("SegmentChunk Segments[{s}]");
            let local = at(&local_nodes, s, record)?.get(k);
            let local = local.ok_or_else(|| refuse(record(), "a border edge has no node"))?;
            Ok(at(&node_base, s, record)? + usize::from(*local))
        };
        let (na, nb) = (node(sa)?, node(sb)?);
        for (from, to) in [(na, nb), (nb, na)] {
            let to = to_u16(to, || "NavigationGraph NodeCount".into())?;
            at_mut(&mut ng.nodes, from, || {
                format!("NavigationGraph node {from}")
            })?
            .crossing_segment_link = Some(to);
        }
    }
    dc.navigation_graph = ng;
    Ok(())
}

/// The meshes of each of `segments` segments: runs in mesh order, as [`chunk_corners`] found
/// them (grouped by segment). Refuses a mesh that names a segment past the segments.
fn segment_runs(segment_of: &[usize], segments: usize) -> Result<Vec<Range<usize>>> {
    let mut runs = Vec::with_capacity(segments);
    let mut start = 0;
    for s in 0..segments {
        let len = segment_of
            .iter()
            .skip(start)
            .take_while(|x| **x == s)
            .count();
        runs.push(start..start + len);
        start += len;
    }
    if start != segment_of.len() {
        return Err(refuse(
            "NavmeshChunk Meshes",
            "a mesh names a segment past the segments",
        ));
    }
    Ok(runs)
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

/// The undirected edges of a polygon's sides, side `i` from corner `i` to the next.
fn side_keys(corners: &[u32]) -> Vec<(u32, u32)> {
    let next = corners.iter().cycle().skip(1);
    corners
        .iter()
        .zip(next)
        .map(|(a, b)| (*a.min(b), *a.max(b)))
        .collect()
}

/// The distance between two stored positions in world units × WeightDenominator, saturated.
pub(crate) fn weight(file: &Nav2File, a: Position, b: Position) -> u16 {
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
    /// The mesh triangles left out because their corners weld together.
    collapsed: Vec<usize>,
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
            *r = match welded.entry(p) {
                HashEntry::Occupied(e) => *e.get(),
                HashEntry::Vacant(e) => {
                    let id = u32::try_from(positions.len())
                        .map_err(|_| refuse("mesh", "more than 2^32 vertices"))?;
                    positions.push(p);
                    *e.insert(id)
                }
            };
        }
        // Every vertex a triangle names was checked above: `remap` has it.
        let mut faces = Vec::with_capacity(mesh.triangles.len());
        let mut collapsed = Vec::new();
        for (k, t) in mesh.triangles.iter().enumerate() {
            let mut f = [0u32; 3];
            for (corner, v) in f.iter_mut().zip(t) {
                *corner = *at(&remap, *v as usize, || format!("mesh triangle {k}"))?;
            }
            if f[0] != f[1] && f[1] != f[2] && f[0] != f[2] {
                faces.push(f);
            } else {
                collapsed.push(k);
            }
        }
        Ok(Quantised {
            origin,
            denominator,
            positions,
            faces,
            collapsed,
        })
    }
}

/// Grows segments breadth first across shared edges, within the per-segment limits.
fn partition(faces: &[[u32; 3]], across: &[[Option<usize>; 3]]) -> Result<Vec<Vec<usize>>> {
    let mut assigned = vec![false; faces.len()];
    let mut segments = Vec::new();
    let face = |f: usize| move || format!("face {f}");
    for seed in 0..faces.len() {
        if *at(&assigned, seed, face(seed))? {
            continue;
        }
        let mut members = Vec::new();
        let mut verts: BTreeSet<u32> = BTreeSet::new();
        let mut edges: BTreeSet<(u32, u32)> = BTreeSet::new();
        let mut queue = VecDeque::from([seed]);
        let mut queued: BTreeSet<usize> = BTreeSet::from([seed]);
        while let Some(f) = queue.pop_front() {
            let t = at(faces, f, face(f))?;
            let new_verts = t.iter().filter(|v| !verts.contains(v)).count();
            let new_edges = (0..3).filter(|s| !edges.contains(&edge_key(t, *s))).count();
            if members.len() + 1 > MAX_SEGMENT_FACES
                || verts.len() + new_verts > 255
                || edges.len() + new_edges > 255
            {
                continue;
            }
            members.push(f);
            *at_mut(&mut assigned, f, face(f))? = true;
            verts.extend(t.iter().copied());
            edges.extend((0..3).map(|s| edge_key(t, s)));
            for g in at(across, f, face(f))?.iter().flatten() {
                if !*at(&assigned, *g, face(*g))? && queued.insert(*g) {
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

/// The NavigationGraph node of segment `s` (`segment`, its first node `base`) nearest the
/// centre of its bounds: its segment-local index (the first of equals) and its position.
/// Refuses a segment whose nodes pass the NavigationGraph's, and one without nodes, which has
/// no node for its SegmentGraph and IslandGraph nodes.
fn central_node(
    dc: &DataChunk,
    s: usize,
    segment: &Segment,
    base: usize,
) -> Result<(u8, Position)> {
    let all = &dc.navigation_graph.nodes;
    let count = usize::from(segment.navigation_graph_node_count);
    let record = || format!("SegmentChunk Segments[{s}] NavigationGraphNodeCount");
    let nodes = all
        .get(base..base + count)
        .ok_or_else(|| past(record(), base + count, all.len()))?;
    let centre: [i64; 3] =
        core::array::from_fn(|a| (i64::from(segment.min[a]) + i64::from(segment.max[a])) / 2);
    // A segment has at most 255 nodes (a `u8` count): each has its `u8`.
    (0..=u8::MAX)
        .zip(nodes)
        .min_by_key(|(_, n)| {
            (0..3)
                .map(|a| (i64::from(n.position[a]) - centre[a]).pow(2))
                .sum::<i64>()
        })
        .map(|(local, n)| (local, n.position))
        .ok_or_else(|| refuse(record(), "0: the segment has no node to stand for it"))
}
