//! Mesh edits put back onto `.nav2` files: every corpus file's own geometry, as a modelling tool
//! gives it back (n-gons, fanned triangles, triangles with their own vertices), changes nothing
//! and writes the original bytes; on game files and an Obj2Nav2 file, one moved vertex, one
//! deleted face, one added face and one attribute change come back as exactly that, and
//! validate clean; what the format cannot hold is refused.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};

mod derived;
use derived::errors;

use nav_core::Format;
use nav_core::edit::{EditedMesh, MatchOptions, MeshEdit, apply_mesh};
use nav_core::geometry::{Geometry, UpAxis, VertexIdentity};
use nav_core::testing::{as_fans, as_ngons, is_negative, real_file, real_paths};
use nav2_mgsv::geometry::segment_bases;
use nav2_mgsv::{Nav2, Nav2File, Position};

/// As Blender's glTF gives it back: fanned triangles, each with its own copy of its vertices.
/// Also returns, per triangle, the polygon it comes from.
fn as_split_triangles(g: &Geometry) -> (EditedMesh, Vec<usize>) {
    let mut mesh = EditedMesh::default();
    let mut from = Vec::new();
    for (p, poly) in g.polygons.iter().enumerate() {
        let v = &poly.vertices;
        for i in 1..v.len() - 1 {
            let base = u32::try_from(mesh.vertices.len()).unwrap();
            for k in [v[0], v[i], v[i + 1]] {
                mesh.vertices.push(g.vertices[k as usize]);
            }
            mesh.faces.push(vec![base, base + 1, base + 2]);
            from.push(p);
        }
    }
    (mesh, from)
}

fn apply(model: &mut Nav2File, mesh: &EditedMesh) -> nav_core::Result<Vec<String>> {
    apply_mesh(&Nav2, model, mesh, &MatchOptions::default())
}

/// Writes and reads back: the edit is what the file holds.
fn written(model: &Nav2File) -> Nav2File {
    nav2_mgsv::read(&Nav2.write(model).unwrap()).unwrap()
}

/// The unedited mesh, three ways, changes nothing, and an empty edit applied directly changes
/// nothing either; returns the number of polygons.
fn unedited_is_unchanged(name: &str, bytes: &[u8]) -> usize {
    let model = nav2_mgsv::read(bytes).unwrap();
    let g = Nav2.geometry(&model).unwrap();
    assert!(g.is_consistent(), "{name}");
    assert_eq!(g.vertex_identity, VertexIdentity::Shared, "{name}");
    let positions: usize = model
        .data_chunks
        .iter()
        .map(|d| d.navmesh_chunk.positions.len())
        .sum();
    assert_eq!(g.vertices.len(), positions, "{name}: the positions 1:1");
    for (p, poly) in g.polygons.iter().enumerate() {
        let r = poly.record.unwrap();
        let dc = &model.data_chunks[r.part as usize];
        let mesh = &dc.navmesh_chunk.meshes[r.index as usize];
        assert_eq!(
            poly.attributes,
            vec![i64::from(
                dc.navigation_graph.attributes[usize::from(mesh.segment_index)]
            )],
            "{name}: polygon {p}"
        );
    }
    let (split, _) = as_split_triangles(&g);
    for (how, mesh) in [
        ("n-gons", as_ngons(&g)),
        ("fans", as_fans(&g)),
        ("split triangles", split),
    ] {
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap_or_else(|e| panic!("{name} {how}: {e}"));
        assert!(lines.is_empty(), "{name} {how}: {lines:?}");
        assert!(
            Nav2.write(&edited).unwrap() == bytes,
            "{name} {how}: bytes differ"
        );
    }
    // The format's own apply, given an empty edit, changes nothing either; except on a file
    // with errors (obj2nav2_test.nav2, whose meshes all name segment 0's first positions),
    // which its fix mends.
    if errors(&model).is_empty() {
        let mut edited = model.clone();
        let lines = Nav2.apply(&mut edited, &g, &MeshEdit::default()).unwrap();
        assert_eq!(lines.unwrap(), Vec::<String>::new(), "{name}: empty edit");
        assert!(Nav2.write(&edited).unwrap() == bytes, "{name}: empty edit");
    } else {
        assert_eq!(name, "obj2nav2_test.nav2", "{:?}", errors(&model));
    }
    g.polygons.len()
}

#[test]
fn unedited_geometry_gives_the_original_bytes_for_every_corpus_file() {
    let (mut files, mut polygons, mut refused) = (0, 0, 0);
    let mut failed = Vec::new();
    for path in real_paths("mgsv") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        if is_negative(&path) {
            // Negative files are ones the reader refuses: nothing to apply onto.
            assert!(nav2_mgsv::read(&bytes).is_err(), "{name}");
            refused += 1;
            continue;
        }
        match std::panic::catch_unwind(|| unedited_is_unchanged(&name, &bytes)) {
            Ok(n) => polygons += n,
            Err(_) => failed.push(name),
        }
        files += 1;
    }
    assert!(files > 0);
    assert_eq!(failed, Vec::<String>::new());
    println!(
        "{files} files, {polygons} meshes: unedited meshes write the original bytes \
         ({refused} negative or ambiguous files refused)"
    );
}

/// A real file's model and geometry.
fn sample(file: &str) -> Option<(Nav2File, Geometry)> {
    let path = real_file("mgsv", file)?;
    let model = nav2_mgsv::read(&std::fs::read(path).unwrap()).unwrap();
    let g = Nav2.geometry(&model).unwrap();
    assert!(errors(&model).is_empty(), "{file}");
    Some((model, g))
}

/// Three game tiles (one of several data chunks) and a boss mesh.
const FILES: [&str; 4] = [
    "ssav_136_127_nav.nav2",
    "ih_mbqf_102_102_nav.nav2",
    "ssav_139_130_nav_boss.nav2",
    "ssav_137_128_nav.nav2",
];

/// (data chunk, index into its positions) of geometry vertex `v`.
fn position_of(model: &Nav2File, mut v: usize) -> (usize, usize) {
    for (c, dc) in model.data_chunks.iter().enumerate() {
        let n = dc.navmesh_chunk.positions.len();
        if v < n {
            return (c, v);
        }
        v -= n;
    }
    panic!("vertex past the positions");
}

/// Each mesh of the model by content: data chunk, segment and corner positions.
fn mesh_contents(model: &Nav2File) -> Vec<(usize, u16, Vec<Position>)> {
    let mut out = Vec::new();
    for (c, dc) in model.data_chunks.iter().enumerate() {
        let bases = segment_bases(dc);
        for m in &dc.navmesh_chunk.meshes {
            let base = bases[usize::from(m.segment_index)][0];
            let corners = m
                .positions
                .iter()
                .map(|p| dc.navmesh_chunk.positions[base + usize::from(*p)])
                .collect();
            out.push((c, m.segment_index, corners));
        }
    }
    out
}

#[test]
fn a_moved_vertex_moves_that_position_and_what_derives_from_it() {
    let mut changed_nodes = 0;
    for file in FILES {
        let Some((model, g)) = sample(file) else {
            continue;
        };
        let a = g.polygons.len() / 2;
        let v = g.polygons[a].vertices[1] as usize;
        let (c, i) = position_of(&model, v);
        let old = model.data_chunks[c].navmesh_chunk.positions[i];
        let new = [old[0] + 3, old[1].saturating_sub(2), old[2] + 5];
        let to = model.decode_position(new);
        let p = g.vertices[v];
        let line = format!(
            "data_chunks[{c}] NavmeshChunk Positions[{i}]: moved to ({}, {}, {}) (stored {new:?})",
            to[0], to[1], to[2]
        );
        let mut ngons = as_ngons(&g);
        ngons.vertices[v] = to;
        // In Blender's split triangles: the copies of the triangles of the polygons using v.
        let (mut split, from) = as_split_triangles(&g);
        for (t, face) in split.faces.iter().enumerate() {
            let poly = &g.polygons[from[t]];
            for w in face {
                if split.vertices[*w as usize] == p
                    && poly.vertices.contains(&u32::try_from(v).unwrap())
                {
                    split.vertices[*w as usize] = to;
                }
            }
        }
        let mut first: Option<Nav2File> = None;
        for (how, mesh) in [("n-gons", ngons), ("split triangles", split)] {
            let mut edited = model.clone();
            let lines = apply(&mut edited, &mesh).unwrap_or_else(|e| panic!("{file} {how}: {e}"));
            assert_eq!(lines[0], line, "{file} {how}");
            let derived = only_derived_changes(&model, &edited, c, i, new);
            assert_eq!(lines.len(), 1 + derived.0, "{file} {how}: {lines:#?}");
            changed_nodes += derived.1;
            // Both ways of giving the mesh back make the same file.
            if let Some(f) = &first {
                assert!(edited == *f, "{file} {how}: not as the n-gons");
            }
            assert!(written(&edited) == edited, "{file}");
            assert_eq!(errors(&edited), Vec::<String>::new(), "{file}");
            if first.is_none() {
                eprintln!("{file}: {}", lines.join("\n  "));
            }
            first = Some(edited);
        }
        // A move smaller than the stored step (within the match tolerance, or kept) changes
        // nothing at all.
        let mut ngons = as_ngons(&g);
        let step = 0.25 / f32::from(model.denominator[0]);
        ngons.vertices[v] = [p[0] + step, p[1], p[2]];
        let mut edited = model.clone();
        let lines = apply(&mut edited, &ngons).unwrap();
        assert!(
            lines.iter().all(|l| l.contains("kept")),
            "{file}: {lines:?}"
        );
        assert!(
            edited == model,
            "{file}: a move within the step changed the file"
        );
    }
    assert!(
        changed_nodes > 0,
        "no NavigationGraph node stood on a moved edge"
    );
}

/// Checks that `edited` is `model` with position `i` of chunk `c` at `new`, and besides only
/// what derives from it: the bounds of the segments holding it (recomputed), the NavigationGraph
/// nodes on a mesh side with that corner (at the floor or ceiling of the side's new midpoint in
/// each coordinate) and the weights of those nodes' edges. Returns how many kinds of derived
/// change there are (one line each) and how many nodes moved.
fn only_derived_changes(
    model: &Nav2File,
    edited: &Nav2File,
    c: usize,
    i: usize,
    new: Position,
) -> (usize, usize) {
    let (dc, ed) = (&model.data_chunks[c], &edited.data_chunks[c]);
    assert_eq!(ed.navmesh_chunk.positions[i], new);
    let bases = segment_bases(dc);
    let pos = &ed.navmesh_chunk.positions;
    // Segments.
    let mut bounds = 0;
    for (s, (a, b)) in dc
        .segment_chunk
        .segments
        .iter()
        .zip(&ed.segment_chunk.segments)
        .enumerate()
    {
        let own = bases[s][0]..bases[s][0] + usize::from(a.navmesh_position_count);
        if own.contains(&i) {
            let min =
                core::array::from_fn(|k| pos[own.clone()].iter().map(|p| p[k]).min().unwrap());
            let max =
                core::array::from_fn(|k| pos[own.clone()].iter().map(|p| p[k]).max().unwrap());
            assert_eq!((b.min, b.max), (min, max), "segment {s}");
            bounds += usize::from((a.min, a.max) != (b.min, b.max));
        } else {
            assert_eq!(a, b, "segment {s}");
        }
    }
    // Nodes on a side with corner i.
    let mut on_edge: BTreeMap<usize, [Position; 2]> = BTreeMap::new();
    for m in &dc.navmesh_chunk.meshes {
        let b = bases[usize::from(m.segment_index)];
        let n = m.positions.len();
        for side in 0..n {
            let (x, y) = (
                b[0] + usize::from(m.positions[side]),
                b[0] + usize::from(m.positions[(side + 1) % n]),
            );
            if x == i || y == i {
                on_edge.insert(
                    b[3] + usize::from(m.navigation_graph_nodes[side]),
                    [pos[x], pos[y]],
                );
            }
        }
    }
    let mut moved = BTreeSet::new();
    for (k, (a, b)) in dc
        .navigation_graph
        .nodes
        .iter()
        .zip(&ed.navigation_graph.nodes)
        .enumerate()
    {
        if a.position == b.position {
            assert_eq!(a, b, "node {k}");
            continue;
        }
        let ends = on_edge
            .get(&k)
            .unwrap_or_else(|| panic!("node {k} moved off the edit"));
        for a in 0..3 {
            let sum = u32::from(ends[0][a]) + u32::from(ends[1][a]);
            let p = u32::from(b.position[a]);
            assert!(
                p == sum / 2 || p == sum.div_ceil(2),
                "node {k}: {b:?} for {ends:?}"
            );
        }
        let mut back = b.clone();
        back.position = a.position;
        assert_eq!(*a, back, "node {k}");
        moved.insert(k);
    }
    // Edges: only weights of edges with a moved node.
    let mut weights = 0;
    for (e, (a, b)) in dc
        .navigation_graph
        .edges
        .iter()
        .zip(&ed.navigation_graph.edges)
        .enumerate()
    {
        if a.weight != b.weight {
            let base = bases[usize::from(a.segment_index)][3];
            assert!(
                a.node_indices
                    .iter()
                    .any(|n| moved.contains(&(base + usize::from(*n)))),
                "edge {e}"
            );
            weights += 1;
        }
        assert_eq!(
            (a.segment_index, a.kind, a.node_indices),
            (b.segment_index, b.kind, b.node_indices)
        );
    }
    // Above: the SegmentGraph, IslandGraphs and SearchSpace follow their rules.
    let upper = derived::check_upper(model, edited, c);
    // Nothing else.
    let mut rest = edited.clone();
    rest.data_chunks[c] = dc.clone();
    rest.island_graphs.clone_from(&model.island_graphs);
    rest.search_space.clone_from(&model.search_space);
    assert!(rest == *model, "changes outside the derived data");
    assert_eq!(ed.navmesh_chunk, {
        let mut n = dc.navmesh_chunk.clone();
        n.positions[i] = new;
        n
    });
    let mut ng = ed.navigation_graph.clone();
    for (x, y) in ng.nodes.iter_mut().zip(&dc.navigation_graph.nodes) {
        x.position = y.position;
    }
    for (x, y) in ng.edges.iter_mut().zip(&dc.navigation_graph.edges) {
        x.weight = y.weight;
    }
    assert_eq!(ng, dc.navigation_graph);
    let (mut sc, mut sc0) = (ed.segment_chunk.clone(), dc.segment_chunk.clone());
    for s in sc.segments.iter_mut().chain(sc0.segments.iter_mut()) {
        (s.min, s.max) = ([0; 3], [0; 3]);
    }
    assert_eq!(sc, sc0);
    let mut rest = ed.clone();
    (
        rest.navmesh_chunk,
        rest.navigation_graph,
        rest.segment_chunk,
        rest.segment_graph,
    ) = (
        dc.navmesh_chunk.clone(),
        dc.navigation_graph.clone(),
        dc.segment_chunk.clone(),
        dc.segment_graph.clone(),
    );
    assert!(
        rest == *dc,
        "data chunk {c}: changes outside the derived data"
    );
    let kinds = [bounds, moved.len(), weights]
        .iter()
        .chain(&upper)
        .filter(|n| **n > 0)
        .count();
    (kinds, moved.len())
}

#[test]
fn a_deleted_face_drops_its_mesh_and_fix_renumbers_what_named_it() {
    for file in FILES {
        let Some((model, g)) = sample(file) else {
            continue;
        };
        let a = g.polygons.len() / 2;
        let r = g.polygons[a].record.unwrap();
        let (c, k) = (r.part as usize, r.index as usize);
        let mut mesh = as_ngons(&g);
        mesh.faces.remove(a);
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            lines[0],
            format!(
                "data_chunks[{c}] NavmeshChunk Meshes[{k}]: dropped the mesh: the edit deleted it"
            ),
            "{file}"
        );
        assert!(
            lines[1..]
                .iter()
                .any(|l| l.contains("NavigationGraph: recomputed")),
            "{file}: {lines:?}"
        );
        // Every other mesh is still there, by content, in its order; the positions all stay.
        let mut expected = mesh_contents(&model);
        let before: usize = model.data_chunks[..c]
            .iter()
            .map(|d| d.navmesh_chunk.meshes.len())
            .sum();
        expected.remove(before + k);
        assert_eq!(mesh_contents(&edited), expected, "{file}");
        for (d, e) in model.data_chunks.iter().zip(&edited.data_chunks) {
            assert_eq!(
                d.navmesh_chunk.positions, e.navmesh_chunk.positions,
                "{file}"
            );
        }
        assert_eq!(
            Nav2.geometry(&edited).unwrap().polygons.len(),
            g.polygons.len() - 1,
            "{file}"
        );
        assert!(written(&edited) == edited, "{file}");
        assert_eq!(errors(&edited), Vec::<String>::new(), "{file}");
        // fix has nothing left to do.
        assert_eq!(
            nav2_mgsv::fix(&mut edited.clone()),
            Vec::<String>::new(),
            "{file}"
        );
    }
}

#[test]
fn an_added_face_is_a_new_mesh_in_the_segment_of_its_corner() {
    for file in FILES {
        let Some((model, g)) = sample(file) else {
            continue;
        };
        // A triangle hanging from polygon a's first corner, the two others new vertices a few
        // steps away (inside the tile), wound clockwise seen from above (away from a tile
        // edge): it comes out turned.
        let a = g.polygons.len() / 2;
        let r = g.polygons[a].record.unwrap();
        let c = r.part as usize;
        let v0 = g.polygons[a].vertices[0];
        let (_, i0) = position_of(&model, v0 as usize);
        let old = model.data_chunks[c].navmesh_chunk.positions[i0];
        let step = |dx: i32, dz: i32| {
            let p = [
                u16::try_from(i32::from(old[0]) + dx).unwrap(),
                old[1],
                u16::try_from(i32::from(old[2]) + dz).unwrap(),
            ];
            (p, model.decode_position(p))
        };
        let dx = if old[0] > 60000 { -37 } else { 37 };
        let dz = if old[2] > 60000 { -41 } else { 41 };
        let (p1, w1) = step(dx, 0);
        let (p2, w2) = step(0, dz);
        let mut mesh = as_ngons(&g);
        let n = u32::try_from(mesh.vertices.len()).unwrap();
        mesh.vertices.extend([w1, w2]);
        mesh.faces.push(vec![v0, n, n + 1]);
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap_or_else(|e| panic!("{file}: {e}"));

        // One more mesh, over the corner and the two new positions; the rest unchanged.
        let after = mesh_contents(&edited);
        let mut rest = after.clone();
        let new = rest
            .iter()
            .position(|m| m.2.contains(&p1) && m.2.contains(&p2))
            .unwrap_or_else(|| panic!("{file}: no new mesh"));
        let added = rest.remove(new);
        // In the data chunk and segment of the corner: polygon a's, or another segment's (or
        // data chunk's) copy of that position.
        assert_eq!(
            lines[0],
            format!(
                "data_chunks[{}] NavmeshChunk: added a mesh in segment {} for face {} (3 \
                 corners, 2 new positions)",
                added.0,
                added.1,
                g.polygons.len()
            ),
            "{file}"
        );
        let bases = segment_bases(&edited.data_chunks[added.0]);
        let b = bases[usize::from(added.1)][0];
        let count = usize::from(
            edited.data_chunks[added.0].segment_chunk.segments[usize::from(added.1)]
                .navmesh_position_count,
        );
        assert!(
            edited.data_chunks[added.0].navmesh_chunk.positions[b..b + count].contains(&old),
            "{file}"
        );
        assert_eq!(added.2.len(), 3);
        assert!(added.2.contains(&old));
        assert_eq!(rest, mesh_contents(&model), "{file}");
        // Counter-clockwise seen from above, like the game's own meshes.
        let points: Vec<[f32; 3]> = added.2.iter().map(|p| edited.decode_position(*p)).collect();
        assert!(counter_clockwise(&points), "{file}: clockwise");
        assert_eq!(
            Nav2.geometry(&edited).unwrap().polygons.len(),
            g.polygons.len() + 1
        );
        assert!(written(&edited) == edited, "{file}");
        assert_eq!(errors(&edited), Vec::<String>::new(), "{file}");
    }
}

/// Whether a polygon of Y-up points runs counter-clockwise seen from above.
fn counter_clockwise(points: &[[f32; 3]]) -> bool {
    // Relative to the first point: tiles are far from the origin, faces small.
    let o = UpAxis::Y.plan(points[0]);
    let q: Vec<(f32, f32)> = points
        .iter()
        .map(|p| {
            let (x, y) = UpAxis::Y.plan(*p);
            (x - o.0, y - o.1)
        })
        .collect();
    let n = q.len();
    (0..n)
        .map(|i| q[i].0 * q[(i + 1) % n].1 - q[(i + 1) % n].0 * q[i].1)
        .sum::<f32>()
        > 0.0
}

/// The game's own meshes run counter-clockwise seen from above: the winding an added face gets.
#[test]
fn game_meshes_are_counter_clockwise_seen_from_above() {
    let Some((_, g)) = sample("ssav_136_127_nav.nav2") else {
        return;
    };
    let ccw = g
        .polygons
        .iter()
        .filter(|p| {
            let points: Vec<[f32; 3]> =
                p.vertices.iter().map(|v| g.vertices[*v as usize]).collect();
            counter_clockwise(&points)
        })
        .count();
    assert!(
        ccw * 10 > g.polygons.len() * 9,
        "{ccw} of {}",
        g.polygons.len()
    );
}

/// The n-gons of `g` with every face's attribute, `set` applied.
fn with_attributes(g: &Geometry, set: impl Fn(usize, i64) -> i64) -> EditedMesh {
    let mut mesh = as_ngons(g);
    let values = g
        .polygons
        .iter()
        .enumerate()
        .map(|(p, poly)| set(p, poly.attributes[0]))
        .collect();
    mesh.attributes = vec![("attributes".to_string(), values)];
    mesh
}

#[test]
fn an_attribute_change_sets_the_segment_attribute_of_all_its_meshes() {
    for file in FILES {
        let Some((model, g)) = sample(file) else {
            continue;
        };
        assert_eq!(g.attributes, ["attributes"]);
        let a = g.polygons.len() / 2;
        let r = g.polygons[a].record.unwrap();
        let c = r.part as usize;
        let s = model.data_chunks[c].navmesh_chunk.meshes[r.index as usize].segment_index;
        let in_segment = |p: usize| {
            let q = g.polygons[p].record.unwrap();
            q.part as usize == c
                && model.data_chunks[c].navmesh_chunk.meshes[q.index as usize].segment_index == s
        };
        let was = model.data_chunks[c].navigation_graph.attributes[usize::from(s)];
        let value = if was == 1 { 1257 } else { 1 };
        let count = (0..g.polygons.len()).filter(|p| in_segment(*p)).count();
        let mesh = with_attributes(&g, |p, v| if in_segment(p) { value } else { v });
        let mut edited = model.clone();
        let lines = apply(&mut edited, &mesh).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(
            lines,
            [format!(
                "data_chunks[{c}] NavigationGraph attributes[{s}]: set to {value} (was {was}) \
                 for its {count} meshes"
            )],
            "{file}"
        );
        let mut expected = model.clone();
        expected.data_chunks[c].navigation_graph.attributes[usize::from(s)] =
            u16::try_from(value).unwrap();
        assert!(edited == expected, "{file}");
        assert!(written(&edited) == edited, "{file}");
        assert_eq!(errors(&edited), Vec::<String>::new(), "{file}");
        // Some of the segment's meshes only: refused, naming the segment.
        if count > 1 {
            let mesh = with_attributes(&g, |p, v| if p == a { value } else { v });
            let e = apply(&mut model.clone(), &mesh).unwrap_err().to_string();
            assert!(
                e.contains(&format!("segment {s}")) && e.contains("same value"),
                "{file}: {e}"
            );
        }
    }
}

#[test]
fn what_a_nav2_file_cannot_hold_is_refused() {
    let Some((model, g)) = sample("ssav_136_127_nav.nav2") else {
        return;
    };
    // A vertex moved out of the tile's stored range.
    let mut mesh = as_ngons(&g);
    let v = g.polygons[0].vertices[0] as usize;
    mesh.vertices[v][0] = model.origin[0].get() - 100.0;
    let e = apply(&mut model.clone(), &mesh).unwrap_err().to_string();
    assert!(e.contains("keep the edit inside the tile"), "{e}");
    // A pentagon.
    let mut mesh = as_ngons(&g);
    let n = u32::try_from(mesh.vertices.len()).unwrap();
    let p = g.vertices[v];
    for k in 0..5u8 {
        let t = f32::from(k) * 1.2566;
        mesh.vertices
            .push([p[0] + 0.5 + t.cos(), p[1], p[2] + 0.5 + t.sin()]);
    }
    mesh.faces.push((n..n + 5).collect());
    let e = apply(&mut model.clone(), &mesh).unwrap_err().to_string();
    assert!(
        e.contains("has 5 corners") && e.contains("triangulate"),
        "{e}"
    );
}
