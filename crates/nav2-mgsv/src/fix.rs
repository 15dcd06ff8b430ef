//! Making an edited file consistent again (`navkit fix`, [`nav_core::Format::fix`]).
//!
//! The geometry of a data chunk is its NavmeshChunk: the positions, each mesh's segment and
//! segment-local corners, and each segment's NavmeshPositionCount. Everything else is derived
//! from it, and [`fix`] recomputes a derived structure with the builder's own steps
//! ([`crate::build`]) where [`crate::validate()`] finds an error in it, and leaves every
//! structure it finds no error in as the file has it:
//!
//! 1. **Meshes** whose SegmentIndex or corner names nothing are dropped (one line each).
//! 2. **NavigationGraph** of a chunk that lost meshes, or whose nodes, edges, or mesh neighbours
//!    and node indices name nothing: recomputed with [`build::navigation_graph`], together with
//!    each mesh's neighbours and node indices and each segment's bounds and counts. What the
//!    builder does not make is carried over: a mesh side that leads to another data chunk or
//!    tile keeps that neighbour, a node keeps its links to other chunks and tiles (matched by
//!    segment and edge), and references from other chunks and from the IslandGraphs to the
//!    chunk's nodes and meshes are renumbered.
//! 3. **SegmentGraph** of a chunk whose NavigationGraph was recomputed, or whose nodes name
//!    nothing: recomputed with [`build::segment_graph`]; each node keeps its crossing links and
//!    island indices.
//! 4. **IslandGraphs** with an error, or that a recomputed SegmentGraph no longer matches (a new
//!    node, a LowGraphNodeLink to a node that is gone): recomputed with [`build::island_graph`]
//!    (one graph over every chunk), keeping the first graph's connections to other tiles, each
//!    on the recomputed island of the segment its node stood for (see the `tiles` module).
//! 5. **SearchSpace** with an error, or whose segments' bounds changed: recomputed with
//!    [`build::search_space`].
//!
//! A file kept with its stored layout ([`Nav2File::stored`]) that the fixed model no longer fits
//! is laid out the way the game does (`stored` is dropped), so that the fixed model writes and
//! reads back equal. Header errors (a zero denominator) and a model too large to lay out are not
//! mended. A model with no error finding is left exactly as it is.

use std::collections::{BTreeSet, HashMap};

use nav_core::{Finding, Severity};

use crate::build;
use crate::geometry::segment_bases;
use crate::model::*;
use crate::validate::validate;
use search_space::recompute_search_space;

/// What an error finding asks `fix` to mend.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mend {
    /// Drop mesh `mesh` of chunk `chunk`.
    DropMesh { chunk: usize, mesh: usize },
    /// Recompute the NavigationGraph of a chunk.
    Navigation(usize),
    /// Recompute the SegmentGraph of a chunk.
    SegmentGraph(usize),
    /// Recompute the IslandGraphs.
    Islands,
    /// Recompute the SearchSpace.
    SearchSpace,
}

/// What `finding` (an error of [`crate::validate()`]) asks to mend, if fix mends it: read from
/// its place, never its text.
fn mend_of(finding: &Finding) -> Option<Mend> {
    if finding.severity != Severity::Error {
        return None;
    }
    let p = &finding.place;
    match p.root()? {
        "IslandGraphs" => return Some(Mend::Islands),
        "SearchSpace" => return Some(Mend::SearchSpace),
        "data_chunks" => {}
        _ => return None,
    }
    let chunk = p.steps().first()?.index()?;
    match p.steps().get(1)?.field {
        "NavmeshChunk" => {
            let mesh = p.index_of("Meshes")?;
            match p.leaf()? {
                "SegmentIndex" | "position index" => Some(Mend::DropMesh { chunk, mesh }),
                _ => Some(Mend::Navigation(chunk)),
            }
        }
        "NavigationGraph" => Some(Mend::Navigation(chunk)),
        "SegmentGraph" => Some(Mend::SegmentGraph(chunk)),
        _ => None,
    }
}

/// Whether `finding` is an error of a kind [`fix`] mends: a mesh, NavigationGraph,
/// SegmentGraph, IslandGraph or SearchSpace index that names nothing. The others (a zero
/// denominator in the header, a model too large to lay out) it leaves.
pub fn mends(finding: &Finding) -> bool {
    mend_of(finding).is_some()
}

/// What to do, per chunk and for the file.
#[derive(Debug, Default)]
struct Plan {
    drop: Vec<BTreeSet<usize>>,
    /// Mesh errors per dropped mesh, for the change line.
    why: HashMap<(usize, usize), String>,
    navigation: Vec<bool>,
    segment_graph: Vec<bool>,
    islands: bool,
    search_space: bool,
}

impl Plan {
    fn new(findings: &[Finding], chunks: usize) -> Plan {
        let mut p = Plan {
            drop: vec![BTreeSet::new(); chunks],
            navigation: vec![false; chunks],
            segment_graph: vec![false; chunks],
            ..Plan::default()
        };
        for f in findings {
            match mend_of(f) {
                Some(Mend::DropMesh { chunk, mesh }) => {
                    if let Some(d) = p.drop.get_mut(chunk) {
                        d.insert(mesh);
                        let what = f.place.leaf().unwrap_or_default();
                        p.why
                            .entry((chunk, mesh))
                            .or_insert_with(|| format!("its {what} {}", f.message));
                    }
                }
                Some(Mend::Navigation(c)) => set(&mut p.navigation, c),
                Some(Mend::SegmentGraph(c)) => set(&mut p.segment_graph, c),
                Some(Mend::Islands) => p.islands = true,
                Some(Mend::SearchSpace) => p.search_space = true,
                None => {}
            }
        }
        p
    }
}

fn set(flags: &mut [bool], i: usize) {
    if let Some(f) = flags.get_mut(i) {
        *f = true;
    }
}

/// Makes an edited model consistent again (see the module docs for the rules) and returns one
/// line per change, `"<location>: <what changed>"`. A model in which [`crate::validate()`] finds
/// no error is left exactly as it is, and the list is empty.
pub fn fix(m: &mut Nav2File) -> Vec<String> {
    let findings = validate(m);
    fix_after(m, findings)
}

/// [`fix`], given the findings of [`crate::validate()`] on `m`: what to mend is read from
/// their places.
fn fix_after(m: &mut Nav2File, findings: Vec<Finding>) -> Vec<String> {
    fix_with(m, findings, &[], &[])
}

/// [`fix`] after a mesh edit ([`crate::apply`]): besides what [`validate`] finds, drops the
/// meshes `deleted` (data chunk, mesh) with everything that named them, and recomputes the
/// NavigationGraph of the data chunks in `changed` (which gained meshes).
pub(crate) fn fix_edited(
    m: &mut Nav2File,
    deleted: &[(usize, usize)],
    changed: &[usize],
) -> Vec<String> {
    let findings = validate(m);
    fix_with(m, findings, deleted, changed)
}

/// [`fix_after`], with meshes to drop and chunks to recompute besides.
fn fix_with(
    m: &mut Nav2File,
    findings: Vec<Finding>,
    deleted: &[(usize, usize)],
    changed: &[usize],
) -> Vec<String> {
    let errors: Vec<Finding> = findings
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    if !errors.iter().any(mends) && deleted.is_empty() && changed.is_empty() {
        return Vec::new();
    }
    let chunks = m.data_chunks.len();
    let mut plan = Plan::new(&errors, chunks);
    for &(c, k) in deleted {
        if let Some(d) = plan.drop.get_mut(c) {
            d.insert(k);
            plan.why.insert((c, k), "the edit deleted it".to_string());
        }
    }
    for &c in changed {
        set(&mut plan.navigation, c);
    }
    let mut out = Vec::new();

    // 1. Meshes that name nothing; a chunk whose NavigationGraph is recomputed also gets its
    //    meshes back in segment order, should an edit have moved one.
    for c in 0..chunks {
        let drops = plan.drop.get(c).cloned().unwrap_or_default();
        if drops.is_empty() && plan.navigation.get(c) != Some(&true) {
            continue;
        }
        if let Some(map) = drop_and_sort_meshes(m, c, &drops, &plan.why, &mut out) {
            renumber_meshes_elsewhere(m, c, &map, &mut out);
        }
        set(&mut plan.navigation, c);
    }
    // 2. NavigationGraphs.
    let mut remaps: Vec<Option<NodeRemap>> = (0..chunks).map(|_| None).collect();
    for c in 0..chunks {
        if plan.navigation.get(c) != Some(&true) {
            continue;
        }
        if let Some(remap) = recompute_navigation(m, c, &mut out) {
            set(&mut plan.segment_graph, c);
            plan.search_space |= remap.bounds_changed;
            plan.islands |= !renumber_nodes_elsewhere(m, c, &remap.map, &mut out);
            if let Some(slot) = remaps.get_mut(c) {
                *slot = Some(remap);
            }
        }
    }
    // 3. SegmentGraphs; where the IslandGraphs are recomputed, also those without one node per
    //    segment (the IslandGraph names one island per segment).
    let mut done = vec![false; chunks];
    for _ in 0..2 {
        for c in 0..chunks {
            let mismatch = m
                .data_chunks
                .get(c)
                .is_some_and(|d| d.segment_graph.nodes.len() != d.segment_chunk.segments.len());
            let wanted = plan.segment_graph.get(c) == Some(&true) || (plan.islands && mismatch);
            if !wanted || done.get(c) == Some(&true) {
                continue;
            }
            set(&mut done, c);
            let remap = remaps.get(c).and_then(Option::as_ref);
            if let Some(keeps_islands) = recompute_segment_graph(m, c, remap, &mut out) {
                plan.islands |= !keeps_islands;
            }
        }
    }
    // 4 and 5. IslandGraphs and SearchSpace.
    if plan.islands {
        recompute_islands(m, &mut out);
    }
    if plan.search_space && m.search_space.is_some() {
        recompute_search_space(m, &mut out);
    }
    if !out.is_empty() {
        if let Some(stored) = m.stored.as_deref() {
            if crate::write::stored_bytes(m, stored).is_none() {
                m.stored = None;
                out.push(
                    "layout: the stored offsets cannot hold the fixed file; it is laid out the \
                     way the game lays out its files"
                        .to_string(),
                );
            }
        }
    }
    out
}

/// Drops the meshes `drops` of chunk `c` and puts the rest in segment order. Returns, when
/// anything moved, each old mesh's new index (`None`: dropped).
fn drop_and_sort_meshes(
    m: &mut Nav2File,
    c: usize,
    drops: &BTreeSet<usize>,
    why: &HashMap<(usize, usize), String>,
    out: &mut Vec<String>,
) -> Option<Vec<Option<usize>>> {
    let dc = m.data_chunks.get_mut(c)?;
    let meshes = core::mem::take(&mut dc.navmesh_chunk.meshes);
    let n = meshes.len();
    let mut keep: Vec<(usize, Mesh)> = Vec::with_capacity(n);
    for (k, mesh) in meshes.into_iter().enumerate() {
        if drops.contains(&k) {
            let reason = why.get(&(c, k)).map_or("", String::as_str);
            out.push(format!(
                "data_chunks[{c}] NavmeshChunk Meshes[{k}]: dropped the mesh: {reason}"
            ));
        } else {
            keep.push((k, mesh));
        }
    }
    let in_order = keep
        .windows(2)
        .all(|w| w[0].1.segment_index <= w[1].1.segment_index);
    if !in_order {
        keep.sort_by_key(|(_, mesh)| mesh.segment_index);
        out.push(format!(
            "data_chunks[{c}] NavmeshChunk Meshes: put back in segment order"
        ));
    }
    let mut map = vec![None; n];
    for (new, (old, _)) in keep.iter().enumerate() {
        if let Some(slot) = map.get_mut(*old) {
            *slot = Some(new);
        }
    }
    dc.navmesh_chunk.meshes = keep.into_iter().map(|(_, mesh)| mesh).collect();
    (keep_changed(&map)).then_some(map)
}

/// `1 link`, `2 links`.
fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn keep_changed(map: &[Option<usize>]) -> bool {
    map.iter().enumerate().any(|(k, v)| *v != Some(k))
}

/// Keeps `crossing` present exactly when a neighbour leads out of the chunk, one entry per side.
fn settle_crossing(mesh: &mut Mesh) {
    if !mesh.needs_crossing() {
        mesh.crossing = None;
        return;
    }
    let sides = mesh.neighbors.len();
    let x = mesh.crossing.get_or_insert_with(MeshCrossing::default);
    // `sides` is the length of a `Sides`, so both resizes fit.
    let _ = x.data_chunk_ids.resize(sides, 0xffff);
    let _ = x.tile_ids.resize(sides, 0);
}

/// Points the neighbours that other chunks' meshes have in chunk `c` at the meshes' new
/// indices; a neighbour whose mesh was dropped becomes none.
fn renumber_meshes_elsewhere(
    m: &mut Nav2File,
    c: usize,
    map: &[Option<usize>],
    out: &mut Vec<String>,
) {
    let Some(id) = m.data_chunks.get(c).map(|d| d.uid.index()) else {
        return;
    };
    for (d, dc) in m.data_chunks.iter_mut().enumerate() {
        if d == c {
            continue;
        }
        let (mut renumbered, mut dropped) = (0usize, 0usize);
        for mesh in &mut dc.navmesh_chunk.meshes {
            let mut touched = false;
            for side in 0..mesh.neighbors.len() {
                let Some(nb) = mesh.neighbors.get(side).copied() else {
                    continue;
                };
                let into_c = mesh
                    .crossing
                    .as_ref()
                    .and_then(|x| x.data_chunk_ids.get(side))
                    == Some(&id);
                if nb.is_none() || nb.kind() != NeighborKind::CrossingDataChunk || !into_c {
                    continue;
                }
                let new = match map.get(usize::from(nb.navmesh_index())).copied().flatten() {
                    Some(k) => {
                        NeighborNavmeshInfo::new(u16::try_from(k).unwrap_or(u16::MAX), nb.kind())
                    }
                    None => NeighborNavmeshInfo::NONE,
                };
                if new != nb {
                    if new.is_none() {
                        dropped += 1;
                        if let Some(x) = mesh.crossing.as_mut() {
                            if let Some(v) = x.data_chunk_ids.get_mut(side) {
                                *v = 0xffff;
                            }
                        }
                    } else {
                        renumbered += 1;
                    }
                    if let Some(slot) = mesh.neighbors.get_mut(side) {
                        *slot = new;
                    }
                    touched = true;
                }
            }
            if touched {
                settle_crossing(mesh);
            }
        }
        if renumbered + dropped > 0 {
            out.push(format!(
                "data_chunks[{d}] NavmeshChunk Meshes: {} in DataChunkId {id} renumbered, {} \
                 to a dropped mesh removed",
                plural(renumbered, "neighbour"),
                dropped
            ));
        }
    }
}

/// How a recomputed NavigationGraph renumbered its nodes.
struct NodeRemap {
    /// Old node index → new node index, for the nodes whose segment and edge are still there.
    map: HashMap<usize, usize>,
    old_bases: Vec<[usize; 4]>,
    new_bases: Vec<[usize; 4]>,
    bounds_changed: bool,
}

/// Each node that a mesh side names, by segment and edge (the two corner positions, sorted).
fn node_keys(dc: &DataChunk, bases: &[[usize; 4]]) -> HashMap<usize, (usize, Position, Position)> {
    let nm = &dc.navmesh_chunk;
    let mut keys = HashMap::new();
    for mesh in &nm.meshes {
        let s = usize::from(mesh.segment_index);
        let Some(b) = bases.get(s) else { continue };
        let corners: Option<Vec<Position>> = mesh
            .positions
            .iter()
            .map(|p| nm.positions.get(b[0] + usize::from(*p)).copied())
            .collect();
        let Some(corners) = corners else { continue };
        let n = corners.len();
        for (side, local) in mesh.navigation_graph_nodes.iter().enumerate().take(n) {
            let (Some(p), Some(q)) = (corners.get(side), corners.get((side + 1) % n)) else {
                continue;
            };
            let g = b[3] + usize::from(*local);
            if g < dc.navigation_graph.nodes.len() {
                keys.entry(g).or_insert((s, *p.min(q), *p.max(q)));
            }
        }
    }
    keys
}

/// Recomputes chunk `c`'s NavigationGraph, mesh neighbours and node indices, and segment bounds
/// and counts from its geometry, and carries over what leads out of the chunk. `None` when the
/// builder refuses the chunk or nothing changed.
fn recompute_navigation(m: &mut Nav2File, c: usize, out: &mut Vec<String>) -> Option<NodeRemap> {
    let before = m.data_chunks.get(c)?.clone();
    let mut dc = before.clone();
    build::navigation_graph(m, &mut dc).ok()?;
    let old_bases = segment_bases(&before);
    let new_bases = segment_bases(&dc);
    let old_keys = node_keys(&before, &old_bases);
    let new_by_key: HashMap<(usize, Position, Position), usize> = node_keys(&dc, &new_bases)
        .into_iter()
        .map(|(g, k)| (k, g))
        .collect();
    let mut map = HashMap::new();
    let mut lost = 0usize;
    for (g, key) in &old_keys {
        let new = new_by_key.get(key).copied();
        if let Some(n) = new {
            map.insert(*g, n);
        }
        let Some(old) = before.navigation_graph.nodes.get(*g) else {
            continue;
        };
        if old.crossing_data_chunk_link.is_none() && old.crossing_tile_link.is_none() {
            continue;
        }
        match new.and_then(|n| dc.navigation_graph.nodes.get_mut(n)) {
            Some(node) => {
                node.crossing_data_chunk_link = old.crossing_data_chunk_link;
                node.crossing_tile_link = old.crossing_tile_link;
            }
            None => lost += 1,
        }
    }
    // Sides that led out of the chunk keep their neighbour where no mesh of the chunk is across.
    for (new, old) in dc
        .navmesh_chunk
        .meshes
        .iter_mut()
        .zip(&before.navmesh_chunk.meshes)
    {
        for (side, nb) in new.neighbors.iter_mut().enumerate() {
            let Some(was) = old.neighbors.get(side) else {
                continue;
            };
            if nb.is_none() && !was.is_none() && was.kind() != NeighborKind::Inside {
                *nb = *was;
            }
        }
        if new.needs_crossing() {
            new.crossing = old.crossing.clone();
        }
        settle_crossing(new);
    }
    if dc == before {
        return None;
    }
    let (ng0, ng) = (&before.navigation_graph, &dc.navigation_graph);
    out.push(format!(
        "data_chunks[{c}] NavigationGraph: recomputed from the NavmeshChunk: {} nodes and {} \
         edges (were {} and {})",
        ng.nodes.len(),
        ng.edges.len(),
        ng0.nodes.len(),
        ng0.edges.len()
    ));
    if ng.attributes.len() != ng0.attributes.len() {
        out.push(format!(
            "data_chunks[{c}] NavigationGraph Attributes: one per segment, {} (were {})",
            ng.attributes.len(),
            ng0.attributes.len()
        ));
    }
    if lost > 0 {
        out.push(format!(
            "data_chunks[{c}] NavigationGraph: dropped the links to other data chunks or tiles \
             of {} whose edge is gone",
            plural(lost, "node")
        ));
    }
    let meshes = dc
        .navmesh_chunk
        .meshes
        .iter()
        .zip(&before.navmesh_chunk.meshes)
        .filter(|(a, b)| a != b)
        .count();
    if meshes > 0 {
        out.push(format!(
            "data_chunks[{c}] NavmeshChunk Meshes: recomputed the neighbours and NavigationGraph \
             node indices of {meshes} of {} meshes",
            dc.navmesh_chunk.meshes.len()
        ));
    }
    let segs = &dc.segment_chunk.segments;
    let changed = segs
        .iter()
        .zip(&before.segment_chunk.segments)
        .filter(|(a, b)| a != b)
        .count();
    if changed > 0 {
        out.push(format!(
            "data_chunks[{c}] SegmentChunk Segments: recomputed the bounds and counts of \
             {changed} of {} segments",
            segs.len()
        ));
    }
    let bounds_changed = segs
        .iter()
        .zip(&before.segment_chunk.segments)
        .any(|(a, b)| a.min != b.min || a.max != b.max);
    if let Some(slot) = m.data_chunks.get_mut(c) {
        *slot = dc;
    }
    Some(NodeRemap {
        map,
        old_bases,
        new_bases,
        bounds_changed,
    })
}

/// Points the links other chunks' nodes and the IslandGraphs' LowGraphNodeLinks have to chunk
/// `c`'s nodes at the new indices. A node link whose node is gone is dropped. Returns `false`
/// when a LowGraphNodeLink names a node that is gone (the IslandGraphs must be recomputed).
fn renumber_nodes_elsewhere(
    m: &mut Nav2File,
    c: usize,
    map: &HashMap<usize, usize>,
    out: &mut Vec<String>,
) -> bool {
    let Some(uid) = m.data_chunks.get(c).map(|d| d.uid) else {
        return true;
    };
    for (d, dc) in m.data_chunks.iter_mut().enumerate() {
        if d == c {
            continue;
        }
        let (mut renumbered, mut dropped) = (0usize, 0usize);
        for node in &mut dc.navigation_graph.nodes {
            let Some(link) = node.crossing_data_chunk_link.as_mut() else {
                continue;
            };
            if link.data_chunk_id != uid.index() {
                continue;
            }
            match map.get(&usize::from(link.node_index)) {
                Some(n) => {
                    let n = u16::try_from(*n).unwrap_or(u16::MAX);
                    if n != link.node_index {
                        link.node_index = n;
                        renumbered += 1;
                    }
                }
                None => {
                    node.crossing_data_chunk_link = None;
                    dropped += 1;
                }
            }
        }
        if renumbered + dropped > 0 {
            out.push(format!(
                "data_chunks[{d}] NavigationGraph: {} to DataChunkId {} renumbered, {dropped} to \
                 a node that is gone dropped",
                plural(renumbered, "link"),
                uid.index()
            ));
        }
    }
    let mut kept = true;
    for (i, g) in m.island_graphs.iter_mut().enumerate() {
        for (k, n) in g.nodes.iter_mut().enumerate() {
            let low = &mut n.low_graph_node_link;
            if low.data_chunk_uid != uid {
                continue;
            }
            match map.get(&usize::from(low.navigation_graph_node_index)) {
                Some(new) => {
                    let new = u16::try_from(*new).unwrap_or(u16::MAX);
                    if new != low.navigation_graph_node_index {
                        out.push(format!(
                            "IslandGraphs[{i}] Nodes[{k}] LowGraphNodeLink: NavigationGraph node \
                             {} renumbered to {new}",
                            low.navigation_graph_node_index
                        ));
                        low.navigation_graph_node_index = new;
                    }
                }
                None => kept = false,
            }
        }
    }
    kept
}

/// A via list of segment `s` in the node numbering after `remap`; `None` when none of its nodes
/// is left.
fn remap_via(remap: Option<&NodeRemap>, s: usize, via: &[u8]) -> Option<Vec<u8>> {
    let Some(r) = remap else {
        return Some(via.to_vec());
    };
    let old_base = r.old_bases.get(s)?[3];
    let new_base = r.new_bases.get(s)?[3];
    let out: Vec<u8> = via
        .iter()
        .filter_map(|l| {
            let n = *r.map.get(&(old_base + usize::from(*l)))?;
            u8::try_from(n.checked_sub(new_base)?).ok()
        })
        .collect();
    (!out.is_empty()).then_some(out)
}

/// The inside links of a SegmentGraph as (segment, target) pairs.
fn inside_pairs(nodes: &[SegmentGraphNode]) -> BTreeSet<(usize, u16)> {
    nodes
        .iter()
        .enumerate()
        .flat_map(|(s, n)| n.inside_links.iter().map(move |l| (s, l.node_index)))
        .collect()
}

/// Recomputes chunk `c`'s SegmentGraph; each node keeps its island indices and its crossing
/// links (their border nodes renumbered after `remap`). `Some(keeps_islands)` unless the builder
/// refuses; `keeps_islands` is false when the IslandGraphs no longer match (a new node, or
/// segments connected differently).
fn recompute_segment_graph(
    m: &mut Nav2File,
    c: usize,
    remap: Option<&NodeRemap>,
    out: &mut Vec<String>,
) -> Option<bool> {
    let dc = m.data_chunks.get(c)?;
    let mut nodes = build::segment_graph(m, dc).ok()?;
    let old = &dc.segment_graph.nodes;
    let mut keeps = inside_pairs(old) == inside_pairs(&nodes);
    let mut lost = 0usize;
    for (s, n) in nodes.iter_mut().enumerate() {
        let Some(o) = old.get(s) else {
            keeps = false;
            continue;
        };
        n.island_graph_node_indices = o.island_graph_node_indices;
        for l in &o.crossing_data_chunk_links {
            match remap_via(remap, s, &l.navigation_graph_nodes) {
                Some(via) => n
                    .crossing_data_chunk_links
                    .push(SegmentGraphCrossingDataChunkLink {
                        navigation_graph_nodes: via.into(),
                        ..l.clone()
                    }),
                None => lost += 1,
            }
        }
        for l in &o.crossing_tile_links {
            match remap_via(remap, s, &l.navigation_graph_nodes) {
                Some(via) => n.crossing_tile_links.push(SegmentGraphCrossingTileLink {
                    navigation_graph_nodes: via.into(),
                    ..l.clone()
                }),
                None => lost += 1,
            }
        }
    }
    if nodes == *old {
        return Some(true);
    }
    let links = |n: &[SegmentGraphNode]| n.iter().map(|x| x.inside_links.len()).sum::<usize>();
    out.push(format!(
        "data_chunks[{c}] SegmentGraph: recomputed from the NavigationGraph: {} nodes and {} \
         inside links (were {} and {})",
        nodes.len(),
        links(&nodes),
        old.len(),
        links(old)
    ));
    if lost > 0 {
        out.push(format!(
            "data_chunks[{c}] SegmentGraph: dropped {} none of whose border nodes is left",
            plural(lost, "crossing link")
        ));
    }
    if let Some(dc) = m.data_chunks.get_mut(c) {
        dc.segment_graph.nodes = nodes;
    }
    Some(keeps)
}

/// Recomputes the IslandGraphs over every chunk (one graph) and the SegmentGraph nodes' island
/// indices.
fn recompute_islands(m: &mut Nav2File, out: &mut Vec<String>) {
    let before = std::mem::take(&mut m.island_graphs);
    let indices_before: Vec<Vec<[u16; 3]>> = m
        .data_chunks
        .iter()
        .map(|d| {
            d.segment_graph
                .nodes
                .iter()
                .map(|n| n.island_graph_node_indices)
                .collect()
        })
        .collect();
    let Ok(mut graph) = build::island_graph(m) else {
        m.island_graphs = before;
        return;
    };
    let slots: Vec<Vec<u16>> = indices_before
        .iter()
        .map(|c| c.iter().map(|i| i[0]).collect())
        .collect();
    let kept = tiles::keep_tile_connections(&before, &slots, m, &mut graph);
    let after = vec![graph];
    if after != before {
        let nodes = |g: &[IslandGraph]| g.iter().map(|x| x.nodes.len()).sum::<usize>();
        let mut tiles = String::new();
        if kept.links > 0 {
            tiles += &format!("; {} to other tiles kept", plural(kept.links, "connection"));
        }
        if kept.dropped > 0 {
            tiles += &format!(
                "; {} to other tiles dropped (no island holds their segments)",
                plural(kept.dropped, "connection")
            );
        }
        if kept.other_graphs > 0 {
            tiles += &format!(
                "; the other graphs' {} to other tiles dropped with them",
                plural(kept.other_graphs, "connection")
            );
        }
        out.push(format!(
            "IslandGraphs: recomputed from the SegmentGraphs: 1 graph of {} nodes (were {} graphs \
             of {} nodes{tiles})",
            nodes(&after),
            before.len(),
            nodes(&before),
        ));
    }
    for (c, (dc, was)) in m.data_chunks.iter().zip(&indices_before).enumerate() {
        let changed = dc
            .segment_graph
            .nodes
            .iter()
            .zip(was)
            .filter(|(n, w)| n.island_graph_node_indices != **w)
            .count();
        if changed > 0 {
            out.push(format!(
                "data_chunks[{c}] SegmentGraph: island indices of {} set to the recomputed \
                 IslandGraph",
                plural(changed, "node")
            ));
        }
    }
    m.island_graphs = after;
}

mod search_space;
#[cfg(test)]
mod tests;
mod tiles;
