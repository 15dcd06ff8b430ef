//! Geometry of NVNM blobs and plugins: counts and kinds of the hand-built samples, neighbours and
//! graph nodes, and consistency over every corpus file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::Format;
use nav_core::geometry::UpAxis;
use nav_core::testing::noise;
use nav_core::testing::{is_negative, real_files};
use nvnm_skyrim::nvnm::{DoorTriangle, EdgeLink, triangle_flags};
use nvnm_skyrim::{Nvnm, Plugin, samples};

#[test]
fn interior_sample_counts_and_kinds() {
    let m = samples::interior();
    let g = Nvnm.geometry(&m).unwrap();
    assert!(g.is_consistent());
    assert_eq!(g.up, UpAxis::Z);
    assert_eq!(g.vertices.len(), 16);
    assert_eq!(g.polygons.len(), 18);
    assert_eq!(g.vertices[5], [128.0, 128.0, 64.0]);
    // Triangle 0 is the door; the rest walk. One door node, at the door triangle's centroid.
    assert_eq!(g.kind_name(g.polygons[0].kind), "door");
    assert!(
        g.polygons[1..]
            .iter()
            .all(|p| g.kind_name(p.kind) == "walk")
    );
    assert_eq!(g.nodes.len(), 1);
    assert_eq!(g.kind_name(g.nodes[0].kind), "door");
    let c = g.nodes[0].position;
    assert!((c[0] - 256.0 / 3.0).abs() < 1e-3 && (c[1] - 128.0 / 3.0).abs() < 1e-3);
    assert!(g.links.is_empty());
    // Neighbours as stored: the two triangles of a quad share its diagonal.
    for (t, p) in g.polygons.iter().enumerate() {
        assert_eq!(p.neighbours.len(), 3);
        for (k, n) in p.neighbours.iter().enumerate() {
            let stored = m.triangles[t].edges[k];
            assert_eq!(*n, u32::try_from(stored).ok(), "triangle {t} edge {k}");
        }
    }
    assert_eq!(g.polygons[0].neighbours[2], Some(1));
}

#[test]
fn exterior_sample_has_portal_nodes_at_the_linked_edges() {
    let g = Nvnm.geometry(&samples::exterior()).unwrap();
    assert!(g.is_consistent());
    assert_eq!((g.vertices.len(), g.polygons.len()), (9, 8));
    assert_eq!(g.nodes.len(), 2);
    for n in &g.nodes {
        assert_eq!(g.kind_name(n.kind), "portal");
        // Midpoints of the west edge's two segments.
        assert_eq!(n.position[0], 0.0);
        assert!(n.position[1] == 64.0 || n.position[1] == 192.0);
        assert_eq!(n.position[2], -12.5);
    }
    // Edge-link edges have no in-mesh neighbour.
    assert_eq!(g.polygons[1].neighbours[2], None);
}

#[test]
fn every_flag_has_its_kind() {
    let mut m = samples::floor(2, 0.0, 1);
    let flags = [
        triangle_flags::WATER,
        triangle_flags::DOOR | triangle_flags::WATER,
        triangle_flags::PREFERRED,
        triangle_flags::NO_LARGE_CREATURES,
        triangle_flags::DELETED | triangle_flags::DOOR,
        triangle_flags::FOUND,
        triangle_flags::OVERLAPPING,
        0,
    ];
    for (t, f) in m.triangles.iter_mut().zip(flags) {
        t.flags = f;
    }
    let g = Nvnm.geometry(&m).unwrap();
    let kinds: Vec<&str> = g.polygons.iter().map(|p| g.kind_name(p.kind)).collect();
    assert_eq!(
        kinds,
        [
            "water",
            "door",
            "preferred",
            "no large creatures",
            "deleted",
            "walk",
            "walk",
            "walk"
        ]
    );
}

#[test]
fn dangling_references_are_left_out() {
    let mut m = samples::floor(2, 0.0, 1);
    // Triangle 3 names a missing vertex; triangle 2's neighbour across to it disappears, and the
    // polygons after it move down by one.
    m.triangles[3].vertices[1] = 999;
    m.triangles[4].edges = [-5, 3, 700];
    m.triangles[5].flags |= triangle_flags::EDGE_LINK_0_1;
    m.triangles[5].edges[0] = 4; // no edge link 4
    m.door_triangles.push(DoorTriangle {
        triangle: 3,
        door_type: 0,
        door: 1,
    });
    m.door_triangles.push(DoorTriangle {
        triangle: -2,
        door_type: 0,
        door: 1,
    });
    m.edge_links.push(EdgeLink {
        link_type: 9,
        navmesh: 5,
        triangle: 0,
        edge_index: None,
    });
    m.triangles[6].flags |= triangle_flags::EDGE_LINK_1_2;
    m.triangles[6].edges[1] = 0;
    let g = Nvnm.geometry(&m).unwrap();
    assert!(g.is_consistent());
    assert_eq!(g.polygons.len(), 7);
    assert!(
        g.polygons
            .iter()
            .all(|p| p.neighbours.iter().flatten().all(|n| *n < 7))
    );
    assert_eq!(g.polygons[3].neighbours, [None, None, None]);
    // Only the valid edge link gives a node; neither door entry does.
    assert_eq!(g.nodes.len(), 1);
    assert_eq!(g.kind_name(g.nodes[0].kind), "link type 9");
}

#[test]
fn plugin_sample_holds_both_navmeshes() {
    let plugin = samples::plugin();
    let g = Plugin.geometry(&plugin).unwrap();
    assert!(g.is_consistent());
    let one = Nvnm.geometry(&samples::interior()).unwrap();
    // The interior (16 vertices, 18 triangles) and a 1×1 floor (4 vertices, 2 triangles).
    assert_eq!(g.vertices.len(), one.vertices.len() + 4);
    assert_eq!(g.polygons.len(), one.polygons.len() + 2);
    // The second mesh's indices are offset past the first's.
    let last = g.polygons.last().unwrap();
    assert!(last.vertices.iter().all(|v| *v >= 16));
    assert!(last.neighbours.iter().flatten().all(|n| *n >= 18));
}

#[test]
fn plugin_meshes_that_link_to_each_other_are_joined() {
    use nvnm_skyrim::plugin::{Item, RecordBody};
    // Two 1×1 floors side by side; triangle 1 of A (west edge) links to triangle 0 of B, and back.
    let mut a = samples::floor(1, 0.0, 1);
    let mut b = samples::floor(1, 0.0, 1);
    for v in &mut b.vertices {
        v[0] = nav_core::RawF32::new(v[0].get() + 128.0);
    }
    a.triangles[0].flags |= triangle_flags::EDGE_LINK_1_2;
    a.triangles[0].edges[1] = 0;
    a.edge_links.push(EdgeLink {
        link_type: 0,
        navmesh: 0x0000_0802,
        triangle: 1,
        edge_index: None,
    });
    b.triangles[1].flags |= triangle_flags::EDGE_LINK_2_0;
    b.triangles[1].edges[2] = 0;
    b.edge_links.push(EdgeLink {
        link_type: 0,
        navmesh: 0x0000_0801,
        triangle: 0,
        edge_index: None,
    });
    let mut plugin = samples::plugin();
    plugin.replace_nvnm(0x801, Nvnm.write(&a).unwrap()).unwrap();
    plugin.replace_nvnm(0x802, Nvnm.write(&b).unwrap()).unwrap();
    let g = Plugin.geometry(&plugin).unwrap();
    assert!(g.is_consistent());
    assert_eq!(g.polygons.len(), 4);
    assert_eq!(g.nodes.len(), 2);
    // Both portal nodes sit on the shared edge x = 128.
    assert!(g.nodes.iter().all(|n| n.position[0] == 128.0));
    let pairs: Vec<(u32, u32)> = g.links.iter().map(|l| (l.from, l.to)).collect();
    assert_eq!(pairs, [(0, 1), (1, 0)]);
    assert!(g.links.iter().all(|l| g.kind_name(l.kind) == "portal"));
    let _ = (Item::Group, RecordBody::Raw);
}

#[test]
fn every_corpus_file_maps_consistently() {
    let mut blobs = 0;
    {
        let files = real_files("skyrim/nvnm").into_iter().map(|(_, f)| f);
        for path in files.filter(|p| !is_negative(p)) {
            let m = Nvnm.read(&std::fs::read(&path).unwrap()).unwrap();
            let g = Nvnm.geometry(&m).unwrap();
            assert!(g.is_consistent(), "{}", path.display());
            assert_eq!(g.polygons.len(), m.triangles.len(), "{}", path.display());
            assert_eq!(g.vertices.len(), m.vertices.len());
            let link_edges: usize = m
                .triangles
                .iter()
                .map(|t| (0..3).filter(|&k| t.flags & (1 << k) != 0).count())
                .sum();
            assert_eq!(
                g.nodes.len(),
                link_edges + m.door_triangles.len(),
                "{}",
                path.display()
            );
            blobs += 1;
        }
    }
    let (mut plugins, mut links) = (0, 0);
    {
        let files = real_files("skyrim").into_iter().map(|(_, f)| f);
        for path in files.filter(|p| !is_negative(p) && p.extension().is_some_and(|e| e == "esp")) {
            let model = Plugin.read(&std::fs::read(&path).unwrap()).unwrap();
            let g = Plugin.geometry(&model).unwrap();
            assert!(g.is_consistent(), "{}", path.display());
            let triangles: usize = model
                .navmeshes()
                .iter()
                .map(|(_, n)| Nvnm.read(n).unwrap().triangles.len())
                .sum();
            assert_eq!(g.polygons.len(), triangles, "{}", path.display());
            links += g.links.len();
            plugins += 1;
        }
    }
    eprintln!("skyrim: {blobs} NVNM blobs and {plugins} plugins mapped ({links} graph links)");
}

#[test]
fn arbitrary_models_map_consistently() {
    use arbitrary::{Arbitrary, Unstructured};
    use nvnm_skyrim::NavmeshGeometry;
    let mut mapped = 0;
    for seed in 0..4000u64 {
        let data = noise(seed, 64 + (seed as usize % 9) * 150);
        let Ok(mut model) = NavmeshGeometry::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        // Small vertex indices and edge values so that many references resolve.
        let nv = model.vertices.len().max(1) as u16;
        for (i, t) in model.triangles.iter_mut().enumerate() {
            if i % 3 != 0 {
                t.vertices = t.vertices.map(|v| v % (nv + 1));
                t.edges = t.edges.map(|e| e % 8);
            }
        }
        let g = Nvnm.geometry(&model).unwrap();
        assert!(g.is_consistent(), "seed {seed}");
        assert!(g.polygons.len() <= model.triangles.len());
        let plugin = plugin_geometry_of_two(&model);
        assert!(plugin.is_consistent(), "seed {seed}");
        mapped += 1;
    }
    assert!(mapped > 3000, "{mapped}");
}

/// The model twice, as navmeshes 1 and 2 of a plugin whose edge links name each other.
fn plugin_geometry_of_two(model: &nvnm_skyrim::NavmeshGeometry) -> nav_core::geometry::Geometry {
    let mut a = model.clone();
    let mut b = model.clone();
    for l in &mut a.edge_links {
        l.navmesh = 2;
    }
    for l in &mut b.edge_links {
        l.navmesh = 1;
    }
    nvnm_skyrim::geometry::plugin_geometry(&[(1, a), (2, b), (1, model.clone())])
}
