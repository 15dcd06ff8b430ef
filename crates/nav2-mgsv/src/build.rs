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

fn refuse(field: &str, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, field, message)
}

/// Builds a file from `mesh` (world axes, Y up; triangles counter-clockwise seen from above).
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
    let mut edge_faces: HashMap<(u32, u32), Vec<(usize, usize)>> = HashMap::new();
    for (f, t) in faces.iter().enumerate() {
        for side in 0..3 {
            edge_faces
                .entry(edge_key(t, side))
                .or_default()
                .push((f, side));
        }
    }
    // The face across each side, where exactly two faces share the edge.
    let across: Vec<[Option<usize>; 3]> = faces
        .iter()
        .enumerate()
        .map(|(f, t)| {
            core::array::from_fn(|side| match edge_faces.get(&edge_key(t, side)) {
                Some(v) if v.len() == 2 => v.iter().map(|(g, _)| *g).find(|g| *g != f),
                _ => None,
            })
        })
        .collect();

    let segments = partition(&faces, &across)?;
    let mut segment_of = vec![0usize; faces.len()];
    for (s, fs) in segments.iter().enumerate() {
        for f in fs {
            if let Some(slot) = segment_of.get_mut(*f) {
                *slot = s;
            }
        }
    }
    // New face order: segment by segment.
    let order: Vec<usize> = segments.iter().flatten().copied().collect();
    let mut new_index = vec![0usize; faces.len()];
    for (k, f) in order.iter().enumerate() {
        if let Some(slot) = new_index.get_mut(*f) {
            *slot = k;
        }
    }

    let mut file = Nav2File::new(q.origin, q.denominator);
    let mut dc = DataChunk {
        uid: FileUid::new(GROUP, 0),
        ..DataChunk::default()
    };
    // Per segment: welded vertex → local position; undirected edge → local node.
    let mut local_nodes: Vec<BTreeMap<(u32, u32), u8>> = Vec::with_capacity(segments.len());
    let mut node_base = Vec::with_capacity(segments.len());
    for (s, fs) in segments.iter().enumerate() {
        let seg_index = u16::try_from(s).map_err(|_| refuse("segments", "too many"))?;
        let mut local_pos: BTreeMap<u32, u8> = BTreeMap::new();
        let mut pos_list: Vec<u32> = Vec::new();
        let mut nodes: BTreeMap<(u32, u32), u8> = BTreeMap::new();
        let mut node_list: Vec<(u32, u32)> = Vec::new();
        for f in fs {
            let t = faces.get(*f).copied().unwrap_or_default();
            for v in t {
                if let std::collections::btree_map::Entry::Vacant(e) = local_pos.entry(v) {
                    e.insert(u8::try_from(pos_list.len()).unwrap_or(u8::MAX));
                    pos_list.push(v);
                }
            }
            for side in 0..3 {
                let key = edge_key(&t, side);
                if let std::collections::btree_map::Entry::Vacant(e) = nodes.entry(key) {
                    e.insert(u8::try_from(node_list.len()).unwrap_or(u8::MAX));
                    node_list.push(key);
                }
            }
        }
        let stored = |v: u32| positions.get(v as usize).copied().unwrap_or_default();
        // Positions and bounds.
        let mut min = [u16::MAX; 3];
        let mut max = [0u16; 3];
        for v in &pos_list {
            let p = stored(*v);
            dc.navmesh_chunk.positions.push(p);
            for a in 0..3 {
                min[a] = min[a].min(p[a]);
                max[a] = max[a].max(p[a]);
            }
        }
        // Meshes.
        for f in fs {
            let t = faces.get(*f).copied().unwrap_or_default();
            let sides = across.get(*f).copied().unwrap_or_default();
            let mut neighbors = Vec::with_capacity(3);
            for g in sides {
                neighbors.push(match g.and_then(|g| new_index.get(g)) {
                    Some(k) => NeighborNavmeshInfo::new(
                        u16::try_from(*k).unwrap_or(u16::MAX),
                        NeighborKind::Inside,
                    ),
                    None => NeighborNavmeshInfo::NONE,
                });
            }
            dc.navmesh_chunk.meshes.push(Mesh {
                segment_index: seg_index,
                neighbors,
                positions: t
                    .iter()
                    .map(|v| local_pos.get(v).copied().unwrap_or_default())
                    .collect(),
                navigation_graph_nodes: (0..3)
                    .map(|side| nodes.get(&edge_key(&t, side)).copied().unwrap_or_default())
                    .collect(),
                crossing: None,
            });
        }
        // NavigationGraph nodes at the edge midpoints, and their edges.
        let base = dc.navigation_graph.nodes.len();
        let edge_base = dc.navigation_graph.edges.len();
        node_base.push(base);
        let midpoint = |(a, b): (u32, u32)| -> Position {
            let (pa, pb) = (stored(a), stored(b));
            core::array::from_fn(|i| (u32::from(pa[i]) + u32::from(pb[i])).div_ceil(2) as u16)
        };
        let mut pairs: BTreeSet<(u8, u8)> = BTreeSet::new();
        for f in fs {
            let t = faces.get(*f).copied().unwrap_or_default();
            let n: Vec<u8> = (0..3)
                .map(|side| nodes.get(&edge_key(&t, side)).copied().unwrap_or_default())
                .collect();
            for (a, b) in [(0, 1), (1, 2), (0, 2)] {
                let (x, y) = (n[a], n[b]);
                pairs.insert((x.min(y), x.max(y)));
            }
        }
        let pairs: Vec<(u8, u8)> = pairs.into_iter().collect();
        let edge_of = |x: u8, y: u8| -> u16 {
            let key = (x.min(y), x.max(y));
            let k = pairs.binary_search(&key).unwrap_or(0);
            u16::try_from(edge_base + k).unwrap_or(u16::MAX)
        };
        for (x, y) in &pairs {
            let (px, py) = (
                midpoint(node_list.get(usize::from(*x)).copied().unwrap_or_default()),
                midpoint(node_list.get(usize::from(*y)).copied().unwrap_or_default()),
            );
            dc.navigation_graph.edges.push(NavigationGraphEdge {
                weight: weight(&file, px, py),
                segment_index: seg_index,
                kind: 0,
                reserved: 0,
                node_indices: [*x, *y],
            });
        }
        for (local, key) in node_list.iter().enumerate() {
            let mut inside = Vec::new();
            let mut last_face = 0usize;
            for (f, side) in edge_faces.get(key).map(Vec::as_slice).unwrap_or_default() {
                if segment_of.get(*f) != Some(&s) {
                    continue;
                }
                let t = faces.get(*f).copied().unwrap_or_default();
                last_face = last_face.max(new_index.get(*f).copied().unwrap_or_default());
                for other in [(side + 1) % 3, (side + 2) % 3] {
                    let o = nodes.get(&edge_key(&t, other)).copied().unwrap_or_default();
                    let me = u8::try_from(local).unwrap_or(u8::MAX);
                    inside.push(NavigationGraphInsideLink {
                        node_index: u16::try_from(base + usize::from(o)).unwrap_or(u16::MAX),
                        edge_index: edge_of(me, o),
                    });
                }
            }
            dc.navigation_graph.nodes.push(NavigationGraphNode {
                position: midpoint(*key),
                segment_index: seg_index,
                navmesh_index: u16::try_from(last_face).unwrap_or(u16::MAX),
                inside_links: inside,
                ..NavigationGraphNode::default()
            });
        }
        dc.navigation_graph.attributes.push(ATTRIBUTE);
        dc.segment_chunk.segments.push(Segment {
            min,
            max,
            navmesh_position_count: count_u8(pos_list.len(), "NavmeshPositionCount")?,
            navmesh_count: count_u8(fs.len(), "NavmeshCount")?,
            navigation_graph_edge_count: count_u8(pairs.len(), "NavigationGraphEdgeCount")?,
            navigation_graph_node_count: count_u8(node_list.len(), "NavigationGraphNodeCount")?,
        });
        local_nodes.push(nodes);
    }
    if dc.navigation_graph.nodes.len() > usize::from(u16::MAX) {
        return Err(refuse(
            "NavigationGraph",
            format!(
                "{} nodes; NodeCount is a u16 (at most 65,535)",
                dc.navigation_graph.nodes.len()
            ),
        ));
    }

    // Crossing-segment links between the twin nodes of border edges, and the segment pairs.
    let mut borders: BTreeMap<(usize, usize), Vec<u8>> = BTreeMap::new();
    for (key, list) in &edge_faces {
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
            let la = local_nodes.get(a).and_then(|m| m.get(key)).copied();
            let lb = local_nodes.get(b).and_then(|m| m.get(key)).copied();
            let (Some(la), Some(lb)) = (la, lb) else {
                continue;
            };
            let ga = node_base.get(a).copied().unwrap_or_default() + usize::from(la);
            let gb = node_base.get(b).copied().unwrap_or_default() + usize::from(lb);
            if let Some(n) = dc.navigation_graph.nodes.get_mut(ga) {
                n.crossing_segment_link = Some(u16::try_from(gb).unwrap_or(u16::MAX));
            }
            borders.entry((a, b)).or_default().push(la);
        }
    }

    segment_graph(&mut file, &mut dc, &local_nodes, &node_base, borders)?;
    let uid = dc.uid;
    file.data_chunks.push(dc);
    file.search_space = Some(search_space(&file, uid));
    // Refuse here, naming the limit, what the writer cannot lay out.
    file.write()?;
    Ok(file)
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

/// The distance between two stored positions in world units × WeightDenominator, saturated.
fn weight(file: &Nav2File, a: Position, b: Position) -> u16 {
    let (pa, pb) = (file.decode_position(a), file.decode_position(b));
    let d = (0..3)
        .map(|i| f64::from(pa[i] - pb[i]).powi(2))
        .sum::<f64>()
        .sqrt();
    let w = (d * f64::from(file.weight_denominator)).round();
    if w.is_finite() && w < 65535.0 {
        w as u16
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
            denominator[a] = d.min(65535.0) as u16;
        }
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
                s.clamp(0.0, 65535.0) as u16
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

/// The SegmentGraph and the IslandGraph.
fn segment_graph(
    file: &mut Nav2File,
    dc: &mut DataChunk,
    local_nodes: &[BTreeMap<(u32, u32), u8>],
    node_base: &[usize],
    borders: BTreeMap<(usize, usize), Vec<u8>>,
) -> Result<()> {
    let segs = &dc.segment_chunk.segments;
    let ng = &dc.navigation_graph;
    let node_pos = |s: usize, local: u8| -> Position {
        ng.nodes
            .get(node_base.get(s).copied().unwrap_or_default() + usize::from(local))
            .map(|n| n.position)
            .unwrap_or_default()
    };
    // Positions: the segment's node nearest its bounds centre.
    let mut positions = Vec::with_capacity(segs.len());
    let mut central = Vec::with_capacity(segs.len());
    for (s, seg) in segs.iter().enumerate() {
        let centre: [i64; 3] =
            core::array::from_fn(|a| (i64::from(seg.min[a]) + i64::from(seg.max[a])) / 2);
        let count = local_nodes.get(s).map_or(0, BTreeMap::len);
        let best = (0..count)
            .map(|l| u8::try_from(l).unwrap_or(u8::MAX))
            .min_by_key(|l| {
                let p = node_pos(s, *l);
                (0..3)
                    .map(|a| (i64::from(p[a]) - centre[a]).pow(2))
                    .sum::<i64>()
            })
            .unwrap_or(0);
        positions.push(node_pos(s, best));
        central.push(best);
    }
    // Inside links, in target order; border nodes sorted.
    let mut links: Vec<Vec<(usize, Vec<u8>)>> = vec![Vec::new(); segs.len()];
    for ((a, b), mut via) in borders {
        via.sort_unstable();
        via.dedup();
        if let Some(l) = links.get_mut(a) {
            l.push((b, via));
        }
    }
    let mut nodes = Vec::with_capacity(segs.len());
    for (a, list) in links.iter().enumerate() {
        if list.len() > 255 {
            return Err(refuse(
                "SegmentGraph",
                "a segment borders more than 255 others (InsideLinkCount is a u8)",
            ));
        }
        let mut inside = Vec::with_capacity(list.len());
        for (b, via) in list {
            let first = via.first().copied().unwrap_or_default();
            let link_index = links
                .get(*b)
                .and_then(|l| l.iter().position(|(t, _)| *t == a))
                .unwrap_or_default();
            inside.push(SegmentGraphInsideLink {
                weight: weight(
                    file,
                    positions.get(a).copied().unwrap_or_default(),
                    node_pos(a, first),
                ),
                node_index: u16::try_from(*b).unwrap_or(u16::MAX),
                link_index: u8::try_from(link_index).unwrap_or(u8::MAX),
                navigation_graph_nodes: via.clone(),
            });
        }
        nodes.push(SegmentGraphNode {
            position: positions.get(a).copied().unwrap_or_default(),
            unknown: 0,
            island_graph_node_indices: [0xffff; 3],
            inside_links: inside,
            crossing_data_chunk_links: Vec::new(),
            crossing_tile_links: Vec::new(),
        });
    }
    // Islands: connected sets of segments.
    let mut island_of = vec![usize::MAX; segs.len()];
    let mut island_nodes = Vec::new();
    for seed in 0..segs.len() {
        if island_of.get(seed) != Some(&usize::MAX) {
            continue;
        }
        let island = island_nodes.len();
        let mut stack = vec![seed];
        let mut count = 0u32;
        while let Some(s) = stack.pop() {
            match island_of.get_mut(s) {
                Some(slot) if *slot == usize::MAX => *slot = island,
                _ => continue,
            }
            count += 1;
            for (b, _) in links.get(s).map(Vec::as_slice).unwrap_or_default() {
                stack.push(*b);
            }
        }
        let ng_node = node_base.get(seed).copied().unwrap_or_default()
            + usize::from(central.get(seed).copied().unwrap_or_default());
        island_nodes.push(IslandGraphNode {
            position: positions.get(seed).copied().unwrap_or_default(),
            attributes: ATTRIBUTE,
            low_graph_node_link: LowGraphNodeLink {
                data_chunk_uid: dc.uid,
                segment_graph_node_index: u16::try_from(seed).unwrap_or(u16::MAX),
                navigation_graph_node_index: u16::try_from(ng_node).unwrap_or(u16::MAX),
            },
            segment_count: u16::try_from(count).unwrap_or(u16::MAX),
            ..IslandGraphNode::default()
        });
    }
    for (n, island) in nodes.iter_mut().zip(&island_of) {
        n.island_graph_node_indices[0] = u16::try_from(*island).unwrap_or(u16::MAX);
    }
    if island_nodes.len() > usize::from(u16::MAX) {
        return Err(refuse("IslandGraph", "more than 65,535 islands"));
    }
    dc.segment_graph.nodes = nodes;
    file.island_graphs = vec![IslandGraph {
        nodes: island_nodes,
        connect_side_info_groups: [ConnectSideInfoGroup {
            tile_id: 0xffff,
            count: 0,
        }; 4],
        connect_side_infos: Vec::new(),
    }];
    Ok(())
}

/// The SearchSpace over the built data chunk.
fn search_space(file: &Nav2File, uid: DataChunkUid) -> SearchSpace {
    let segs = file
        .data_chunks
        .first()
        .map(|d| d.segment_chunk.segments.as_slice())
        .unwrap_or_default();
    let world = |p: Position| file.decode_position(p);
    let mut extent = [0f32; 3];
    let mut range_y = 0u16;
    for s in segs {
        let hi = world(s.max);
        for a in 0..3 {
            extent[a] = extent[a].max(hi[a] - file.origin[a].get());
        }
        range_y = range_y.max(s.max[1]);
    }
    // BlockSizeXZ: 10 world units (the game's), or larger so that no axis passes MAX_BLOCKS.
    let widest = extent[0].max(extent[2]).max(0.0);
    let size = ((widest / MAX_BLOCKS as f32).ceil() as u32).max(10);
    let blocks = |e: f32| ((e / size as f32).ceil() as u32).clamp(1, MAX_BLOCKS);
    let (bx, bz) = (blocks(extent[0]), blocks(extent[2]));
    let mut buckets = Vec::new();
    for z in 0..bz {
        for x in 0..bx {
            // The outer blocks reach past the grid, so that every segment lands in one.
            let edge = |i: u32, n: u32| {
                let lo = if i == 0 {
                    f32::NEG_INFINITY
                } else {
                    i as f32 * size as f32
                };
                let hi = if i + 1 == n {
                    f32::INFINITY
                } else {
                    (i + 1) as f32 * size as f32
                };
                (lo, hi)
            };
            let ((lx, hx), (lz, hz)) = (edge(x, bx), edge(z, bz));
            let (lo, hi) = ([lx, lz], [hx, hz]);
            let mut indices = Vec::new();
            let (mut min_y, mut max_y) = (u8::MAX, 0u8);
            for (k, s) in segs.iter().enumerate() {
                let (a, b) = (world(s.min), world(s.max));
                let rel = |p: [f32; 3], i: usize| p[i] - file.origin[i].get();
                let meets = rel(a, 0) < hi[0]
                    && rel(b, 0) >= lo[0]
                    && rel(a, 2) < hi[1]
                    && rel(b, 2) >= lo[1];
                if meets {
                    indices.push(u16::try_from(k).unwrap_or(u16::MAX));
                    min_y = min_y.min((s.min[1] >> 8) as u8);
                    max_y = max_y.max((s.max[1] >> 8) as u8);
                }
            }
            buckets.push(if indices.is_empty() {
                Bucket::default()
            } else {
                Bucket {
                    min_y,
                    max_y,
                    entries: vec![BucketEntry {
                        data_chunk_uid: uid,
                        segment_indices: indices,
                    }],
                }
            });
        }
    }
    SearchSpace {
        origin: file.origin,
        range_y,
        block_count: [bx, 1, bz],
        block_size_xz: size,
        block_size_y: 768,
        buckets,
    }
}
