//! The builder: files made from the sample meshes and a generated grid validate clean, read back
//! byte for byte, and their geometry is the input mesh (positions within half a quantisation
//! step, the same triangles and the same adjacency).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use nav_core::Format;
use nav_core::geometry::TriangleMesh;
use nav2_mgsv::{Nav2, Nav2File};

fn samples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/meshes")
}

/// `v` and `f` lines of an OBJ file, polygons fanned into triangles.
fn read_obj(name: &str) -> TriangleMesh {
    let text = std::fs::read_to_string(samples().join(name)).unwrap();
    let mut mesh = TriangleMesh::default();
    for line in text.lines() {
        let mut it = line.split_whitespace();
        match it.next() {
            Some("v") => {
                let c: Vec<f32> = it.map(|s| s.parse().unwrap()).collect();
                mesh.vertices.push([c[0], c[1], c[2]]);
            }
            Some("f") => {
                let v: Vec<u32> = it
                    .map(|s| s.split('/').next().unwrap().parse::<u32>().unwrap() - 1)
                    .collect();
                for k in 1..v.len() - 1 {
                    mesh.triangles.push([v[0], v[k], v[k + 1]]);
                }
            }
            _ => {}
        }
    }
    mesh
}

/// A flat grid of `n` × `n` one-metre quads, two triangles each.
fn grid(n: u32) -> TriangleMesh {
    let mut mesh = TriangleMesh::default();
    for z in 0..=n {
        for x in 0..=n {
            // A little relief, so that Y is quantised too.
            let y = ((x * 7 + z * 3) % 5) as f32 * 0.1;
            mesh.vertices.push([x as f32, y, -(z as f32)]);
        }
    }
    let at = |x: u32, z: u32| z * (n + 1) + x;
    for z in 0..n {
        for x in 0..n {
            let (a, b, c, d) = (at(x, z), at(x + 1, z), at(x + 1, z + 1), at(x, z + 1));
            mesh.triangles.push([a, b, c]);
            mesh.triangles.push([a, c, d]);
        }
    }
    mesh
}

/// A triangle as input-vertex ids (positions welded), rotated to start at its smallest id so
/// that the winding is kept.
fn key(t: [usize; 3]) -> [usize; 3] {
    let i = (0..3).min_by_key(|i| t[*i]).unwrap();
    [t[i], t[(i + 1) % 3], t[(i + 2) % 3]]
}

/// Builds, validates, round-trips and compares the geometry with the input.
fn check(mesh: &TriangleMesh) -> Nav2File {
    let model = Nav2
        .build(mesh)
        .expect("a builder")
        .expect("the mesh builds")
        .model;
    let findings = Nav2.validate(&model);
    assert!(
        findings.is_empty(),
        "findings on a built file: {findings:#?}"
    );

    let bytes = Nav2.write(&model).unwrap();
    let back = Nav2.read(&bytes).unwrap();
    assert_eq!(back, model, "the written file reads back as the model");
    assert!(back.stored.is_none(), "the game's layout");
    assert_eq!(Nav2.write(&back).unwrap(), bytes, "byte-exact round trip");

    // Input vertices welded by position.
    let mut ids: HashMap<[u32; 3], usize> = HashMap::new();
    let welded: Vec<usize> = mesh
        .vertices
        .iter()
        .map(|v| {
            let n = ids.len();
            *ids.entry(v.map(f32::to_bits)).or_insert(n)
        })
        .collect();
    let mut positions = vec![[0f32; 3]; ids.len()];
    for (v, id) in mesh.vertices.iter().zip(&welded) {
        positions[*id] = *v;
    }
    let input: Vec<[usize; 3]> = mesh
        .triangles
        .iter()
        .map(|t| key(t.map(|v| welded[v as usize])))
        .collect();

    let g = Nav2.geometry(&back).unwrap();
    assert!(g.is_consistent());
    assert_eq!(g.polygons.len(), mesh.triangles.len(), "triangle count");
    let step = back.denominator.map(|d| 0.5 / f32::from(d));
    let nearest = |p: [f32; 3]| -> usize {
        let (id, q) = positions
            .iter()
            .enumerate()
            .min_by(|(_, a), (_, b)| {
                let d = |q: &[f32; 3]| (0..3).map(|i| (q[i] - p[i]).powi(2)).sum::<f32>();
                d(a).total_cmp(&d(b))
            })
            .unwrap();
        for i in 0..3 {
            let tolerance = step[i] + q[i].abs().max(1.0) * 4.0 * f32::EPSILON;
            assert!(
                (q[i] - p[i]).abs() <= tolerance,
                "decoded {p:?} is more than half a step ({:?}) from {q:?}",
                step
            );
        }
        id
    };
    let built: Vec<[usize; 3]> = g
        .polygons
        .iter()
        .map(|p| {
            assert_eq!(p.vertices.len(), 3);
            key(core::array::from_fn(|i| {
                nearest(g.vertices[p.vertices[i] as usize])
            }))
        })
        .collect();
    let sorted = |v: &[[usize; 3]]| {
        let mut v = v.to_vec();
        v.sort_unstable();
        v
    };
    assert_eq!(
        sorted(&built),
        sorted(&input),
        "the same triangles, same winding"
    );

    // Adjacency: pairs of triangles across an edge that exactly two of them share.
    let mut by_edge: HashMap<(usize, usize), Vec<[usize; 3]>> = HashMap::new();
    for t in &input {
        for i in 0..3 {
            let (a, b) = (t[i], t[(i + 1) % 3]);
            by_edge.entry((a.min(b), a.max(b))).or_default().push(*t);
        }
    }
    let expected: BTreeSet<([usize; 3], [usize; 3])> = by_edge
        .values()
        .filter(|v| v.len() == 2)
        .map(|v| (v[0].min(v[1]), v[0].max(v[1])))
        .collect();
    let mut found = BTreeSet::new();
    for (p, k) in g.polygons.iter().zip(&built) {
        for (i, n) in p.neighbours.iter().enumerate() {
            if let Some(n) = n {
                let other = built[*n as usize];
                // Neighbour i lies across the edge from corner i to corner i + 1.
                let q = &g.polygons[*n as usize];
                let corners: BTreeSet<usize> = q
                    .vertices
                    .iter()
                    .map(|v| nearest(g.vertices[*v as usize]))
                    .collect();
                let a = nearest(g.vertices[p.vertices[i] as usize]);
                let b = nearest(g.vertices[p.vertices[(i + 1) % 3] as usize]);
                assert!(corners.contains(&a) && corners.contains(&b));
                found.insert(((*k).min(other), (*k).max(other)));
            }
        }
    }
    assert_eq!(found, expected, "the same adjacency");
    model
}

#[test]
fn flat_square() {
    let m = check(&read_obj("flat_square.obj"));
    let dc = &m.data_chunks[0];
    assert_eq!(dc.navmesh_chunk.meshes.len(), 2);
    assert_eq!(dc.segment_chunk.segments.len(), 1);
    // Five mesh edges, so five nodes at their midpoints, three graph edges per face.
    assert_eq!(dc.navigation_graph.nodes.len(), 5);
    assert_eq!(dc.navigation_graph.edges.len(), 6);
    assert_eq!(dc.segment_graph.nodes.len(), 1);
    assert_eq!(m.island_graphs.len(), 1);
    assert_eq!(m.island_graphs[0].nodes.len(), 1);
    // Game weights: world distance × 127, not Obj2Nav2's × 10.
    let e = dc.navigation_graph.edges[0];
    let n = &dc.navigation_graph.nodes;
    let [a, b] = e
        .node_indices
        .map(|i| m.decode_position(n[usize::from(i)].position));
    let d = (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt();
    assert!((f32::from(e.weight) - d * 127.0).abs() <= 1.0);
}

#[test]
fn ramp() {
    let m = check(&read_obj("ramp.obj"));
    assert_eq!(m.data_chunks[0].navmesh_chunk.meshes.len(), 6);
    assert!(
        m.denominator[1] < 65535,
        "Y is quantised over the ramp's height"
    );
}

#[test]
fn two_rooms() {
    let m = check(&read_obj("two_rooms.obj"));
    assert_eq!(m.data_chunks[0].navmesh_chunk.meshes.len(), 28);
    // One walkable island: both rooms are reachable through the corridor.
    assert_eq!(m.island_graphs[0].nodes.len(), 1);
}

#[test]
fn grid_needs_several_segments() {
    let m = check(&grid(40));
    let dc = &m.data_chunks[0];
    let segments = dc.segment_chunk.segments.len();
    assert!(segments > 10, "{segments} segments");
    assert_eq!(dc.segment_graph.nodes.len(), segments);
    assert!(
        dc.navigation_graph
            .nodes
            .iter()
            .any(|n| n.crossing_segment_link.is_some())
    );
    let links: usize = dc
        .segment_graph
        .nodes
        .iter()
        .map(|n| n.inside_links.len())
        .sum();
    assert!(links >= 2 * (segments - 1), "segments are linked");
    assert_eq!(m.island_graphs[0].nodes.len(), 1);
    let s = m.search_space.as_ref().unwrap();
    assert_eq!(s.block_size_xz, 10);
    assert_eq!(s.block_count, [4, 1, 4]);
}

#[test]
fn two_separate_squares_are_two_islands() {
    let mut mesh = read_obj("flat_square.obj");
    let more: Vec<[f32; 3]> = mesh
        .vertices
        .iter()
        .map(|v| [v[0] + 20.0, v[1], v[2]])
        .collect();
    let tris: Vec<[u32; 3]> = mesh.triangles.iter().map(|t| t.map(|v| v + 4)).collect();
    mesh.vertices.extend(more);
    mesh.triangles.extend(tris);
    let m = check(&mesh);
    assert_eq!(m.island_graphs[0].nodes.len(), 2);
}

#[test]
fn a_triangle_soup_is_welded() {
    // Every triangle with its own corners, as some exporters write them.
    let rooms = read_obj("two_rooms.obj");
    let mut soup = TriangleMesh::default();
    for t in &rooms.triangles {
        let base = soup.vertices.len() as u32;
        soup.vertices.extend(t.map(|v| rooms.vertices[v as usize]));
        soup.triangles.push([base, base + 1, base + 2]);
    }
    let m = check(&soup);
    assert_eq!(m.island_graphs[0].nodes.len(), 1);
}

#[test]
fn an_edge_of_three_triangles_has_no_neighbour() {
    // A fin standing on the square's diagonal: three faces share the edge from 0 to 2.
    let mut mesh = read_obj("flat_square.obj");
    mesh.vertices.push([5.0, 5.0, -5.0]);
    mesh.triangles.push([0, 2, 4]);
    let built = Nav2.build(&mesh).unwrap().unwrap();
    // The fin is upright, seen from above: kept, with a warning.
    let w: Vec<String> = built.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        w,
        ["warning: triangles[2]: is vertical: it has no area seen from above"]
    );
    let m = built.model;
    assert!(Nav2.validate(&m).is_empty());
    let g = Nav2.geometry(&m).unwrap();
    assert_eq!(g.polygons.len(), 3);
    assert!(
        g.polygons
            .iter()
            .all(|p| p.neighbours.iter().all(Option::is_none))
    );
}

#[test]
fn limits_are_named() {
    let err = |mesh: &TriangleMesh| Nav2.build(mesh).unwrap().unwrap_err().to_string();

    let mut wide = read_obj("flat_square.obj");
    wide.vertices[1][0] = 100_000.0;
    assert!(err(&wide).contains("65,535"), "{}", err(&wide));

    let mut nan = read_obj("flat_square.obj");
    nan.vertices[2][1] = f32::NAN;
    assert!(err(&nan).contains("finite"), "{}", err(&nan));

    let mut dangling = read_obj("flat_square.obj");
    dangling.triangles.push([0, 1, 9]);
    assert!(
        err(&dangling).contains("triangles[2]: names a vertex that does not exist"),
        "{}",
        err(&dangling)
    );

    let big = grid(91);
    assert!(big.triangles.len() > 16_383);
    assert!(err(&big).contains("14-bit"), "{}", err(&big));

    let flat = TriangleMesh {
        vertices: vec![[0.0; 3]; 3],
        triangles: vec![[0, 1, 2]],
    };
    assert!(err(&flat).contains("zero-length edge"), "{}", err(&flat));

    // Corners closer than a step of the grid weld: every triangle collapses, nothing is left.
    let tiny = TriangleMesh {
        vertices: vec![
            [0.0; 3],
            [1e-6, 0.0, 0.0],
            [0.0, 0.0, -1e-6],
            [100.0, 0.0, 0.0],
        ],
        triangles: vec![[0, 1, 2]],
    };
    assert!(err(&tiny).contains("distinct"), "{}", err(&tiny));
}

#[test]
fn triangles_that_collapse_on_the_grid_are_left_out_with_a_warning() {
    // A square of 100 units (steps of 1/655) and a sliver triangle a millionth wide on its edge.
    let mut mesh = read_obj("flat_square.obj");
    let n = u32::try_from(mesh.vertices.len()).unwrap();
    let [a, b] = [mesh.vertices[0], mesh.vertices[1]];
    let mid = core::array::from_fn(|i| (a[i] + b[i]) / 2.0);
    mesh.vertices.push(mid);
    mesh.vertices.push([mid[0] + 1e-6, mid[1], mid[2] - 1e-6]);
    mesh.triangles.push([0, n + 1, n]);
    let built = Nav2.build(&mesh).unwrap().unwrap();
    let w: Vec<String> = built.warnings.iter().map(ToString::to_string).collect();
    assert!(
        w.iter().any(|w| w.starts_with(&format!(
            "warning: triangles[{}]: collapses",
            mesh.triangles.len() - 1
        ))),
        "{w:?}"
    );
    assert!(Nav2.validate(&built.model).is_empty());
    assert_eq!(
        Nav2.geometry(&built.model).unwrap().polygons.len(),
        mesh.triangles.len() - 1
    );
}

/// The fuzz oracle for builds over arbitrary meshes: whatever the builder accepts validates with
/// no error, writes and reads back equal. Its lookups of what it made itself cannot fail, so no
/// accepted mesh may come back refused by one of them ("names nothing").
#[test]
fn arbitrary_meshes_hold_the_build_oracle() {
    use arbitrary::{Arbitrary, Unstructured};
    let mut built = 0;
    for seed in 0..600u64 {
        let data = nav_core::testing::noise(seed, 256 + (seed as usize % 9) * 256);
        let Ok(mesh) = TriangleMesh::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        match nav_core::oracle::check_build(&Nav2, &mesh) {
            Ok(true) => built += 1,
            Ok(false) => {
                let refusal = Nav2.build(&mesh).unwrap().unwrap_err().to_string();
                assert!(!refusal.contains("names nothing"), "seed {seed}: {refusal}");
            }
            Err(e) => panic!("seed {seed}: {e}\n{mesh:?}"),
        }
    }
    assert!(built > 200, "only {built} meshes built");
}
