//! The matcher on synthetic meshes: what a modelling tool does to an export (triangulates,
//! splits and reorders vertices, rounds to 6 decimals) changes nothing; one moved vertex, one
//! deleted face, one added face come back as exactly that; ambiguity is refused.

#![allow(clippy::cast_possible_truncation)] // small synthetic meshes

use super::*;
use crate::geometry::{Geometry, Polygon, Record, UpAxis, VertexIdentity};

/// A 3 × 3 grid of shared vertices (index `y * 3 + x`, 10 units apart, away from the origin)
/// and its four quads, counter-clockwise from above; attribute `flags` = 10 + the quad's index.
fn grid(identity: VertexIdentity) -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = identity;
    g.attributes = vec!["flags".into()];
    for y in 0..3 {
        for x in 0..3 {
            g.vertex([1000.25 + 10.0 * x as f32, 2000.5 + 10.0 * y as f32, 7.125]);
        }
    }
    let kind = g.kind("walk");
    for (q, (x, y)) in [(0, 0), (1, 0), (0, 1), (1, 1)].into_iter().enumerate() {
        let v = |dx: u32, dy: u32| (y + dy) * 3 + x + dx;
        g.polygons.push(Polygon {
            vertices: [v(0, 0), v(1, 0), v(1, 1), v(0, 1)].into(),
            kind,
            record: Some(Record {
                part: 0,
                index: q as u32,
                id: None,
            }),
            attributes: [10 + q as i64].into(),
            ..Polygon::default()
        });
    }
    g
}

/// The geometry as an OBJ would give it back: the same vertices, one n-gon per polygon.
fn as_ngons(g: &Geometry) -> EditedMesh {
    EditedMesh {
        vertices: g.vertices.clone(),
        faces: g.polygons.iter().map(|p| p.vertices.to_vec()).collect(),
        attributes: Vec::new(),
    }
}

/// The geometry as Blender's glTF gives it back: every polygon fanned into triangles from
/// corner `start`, every triangle with its own copy of its vertices, faces in reverse order.
fn as_split_triangles(g: &Geometry, start: usize) -> EditedMesh {
    let mut mesh = EditedMesh::default();
    for p in g.polygons.iter().rev() {
        let n = p.vertices.len();
        let at = |i: usize| g.vertices[p.vertices[(start + i) % n] as usize];
        for i in 1..n - 1 {
            let base = mesh.vertices.len() as u32;
            mesh.vertices.extend([at(0), at(i), at(i + 1)]);
            mesh.faces.push(vec![base, base + 1, base + 2]);
        }
    }
    mesh
}

fn matched(g: &Geometry, mesh: &EditedMesh) -> MeshEdit {
    match_mesh(g, mesh, &MatchOptions::default()).unwrap()
}

#[test]
fn unedited_meshes_change_nothing() {
    let g = grid(VertexIdentity::Shared);
    assert!(matched(&g, &as_ngons(&g)).is_empty());
    assert!(matched(&g, &as_split_triangles(&g, 0)).is_empty());
    assert!(matched(&g, &as_split_triangles(&g, 1)).is_empty());
    // Rounded to 6 decimals, the way Blender writes OBJ.
    let mut rounded = as_split_triangles(&g, 2);
    for v in &mut rounded.vertices {
        *v = v.map(|c| ((f64::from(c) * 1e6).round() / 1e6 + 4e-7) as f32);
    }
    assert!(matched(&g, &rounded).is_empty());
}

#[test]
fn a_moved_vertex_is_found_through_its_faces() {
    let g = grid(VertexIdentity::Shared);
    let to = [1013.0, 2012.0, 9.5];
    for start in 0..4 {
        let mut mesh = as_split_triangles(&g, start);
        for v in &mut mesh.vertices {
            if *v == g.vertices[4] {
                *v = to;
            }
        }
        let edit = matched(&g, &mesh);
        assert_eq!(edit.moved, vec![(4, to)], "fan from corner {start}");
        assert!(edit.deleted.is_empty() && edit.added.is_empty());
    }
    // A corner vertex of one quad only, in n-gons.
    let mut mesh = as_ngons(&g);
    mesh.vertices[0] = [990.0, 1990.0, 7.125];
    assert_eq!(matched(&g, &mesh).moved, vec![(0, [990.0, 1990.0, 7.125])]);
}

#[test]
fn a_deleted_face_deletes_its_polygon() {
    let g = grid(VertexIdentity::Shared);
    let mut mesh = as_ngons(&g);
    mesh.faces.remove(2);
    let edit = matched(&g, &mesh);
    assert_eq!(edit.deleted, vec![2]);
    assert!(edit.moved.is_empty() && edit.added.is_empty());
    // Both triangles of a quad in a triangulated mesh.
    let mut mesh = as_split_triangles(&g, 0);
    mesh.faces.drain(0..2); // the last quad's, as the faces are in reverse
    assert_eq!(matched(&g, &mesh).deleted, vec![3]);
}

#[test]
fn an_added_face_shares_the_vertices_it_touches() {
    let g = grid(VertexIdentity::Shared);
    let mut mesh = as_split_triangles(&g, 0);
    let base = mesh.vertices.len() as u32;
    // Off the grid's right side: two grid vertices and a new one.
    mesh.vertices
        .extend([g.vertices[2], [1030.25, 2000.5, 7.125], g.vertices[5]]);
    mesh.faces.push(vec![base, base + 1, base + 2]);
    let edit = matched(&g, &mesh);
    assert!(edit.moved.is_empty() && edit.deleted.is_empty());
    assert_eq!(edit.new_vertices, vec![[1030.25, 2000.5, 7.125]]);
    assert_eq!(edit.added.len(), 1);
    let added = &edit.added[0];
    assert_eq!(added.face, 8);
    assert_eq!(
        added.corners,
        vec![Corner::Vertex(2), Corner::New(0), Corner::Vertex(5)]
    );
    assert_eq!(added.positions[2], g.vertices[5]);
}

#[test]
fn attribute_values_the_mesh_carries_are_compared() {
    let g = grid(VertexIdentity::Shared);
    let mut mesh = as_ngons(&g);
    mesh.attributes = vec![
        ("flags".into(), vec![10, 11, 99, 13]),
        ("other".into(), vec![]),
    ];
    let edit = matched(&g, &mesh);
    assert_eq!(
        edit.attributes,
        vec![AttributeChange {
            polygon: 2,
            attribute: 0,
            value: 99
        }]
    );
    mesh.attributes[0].1.pop();
    assert!(match_mesh(&g, &mesh, &MatchOptions::default()).is_err());
}

#[test]
fn a_split_vertex_is_refused() {
    let g = grid(VertexIdentity::Shared);
    let mut mesh = as_split_triangles(&g, 0);
    // Move the centre in the faces of quad 3 only (the first two triangles).
    for v in &mut mesh.vertices[..6] {
        if *v == g.vertices[4] {
            *v = [1015.0, 2015.0, 7.125];
        }
    }
    let err = match_mesh(&g, &mesh, &MatchOptions::default()).unwrap_err();
    assert!(err.0.contains("vertex 4"), "{err}");
    assert!(err.0.contains("split"), "{err}");
}

#[test]
fn a_partly_deleted_polygon_is_refused() {
    let g = grid(VertexIdentity::Shared);
    let mut mesh = as_split_triangles(&g, 0);
    mesh.faces.remove(0);
    let err = match_mesh(&g, &mesh, &MatchOptions::default()).unwrap_err();
    assert!(err.0.contains("only partly made"), "{err}");
    assert!(err.0.contains("record 3"), "{err}");
}

#[test]
fn own_corners_move_one_polygon_at_a_time() {
    // Two quads side by side, each with its own four corners.
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = VertexIdentity::Corners;
    for x in [0.0, 1.0] {
        let corners =
            [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]].map(|[a, b]| [x + a, b, 0.0]);
        g.push_polygon(&corners, "walk");
    }
    assert!(matched(&g, &as_split_triangles(&g, 1)).is_empty());
    let mut mesh = as_ngons(&g);
    mesh.vertices[1] = [1.5, 0.0, 0.0];
    mesh.vertices[2] = [1.5, 1.0, 0.0];
    let edit = matched(&g, &mesh);
    assert_eq!(edit.moved, vec![(1, [1.5, 0.0, 0.0]), (2, [1.5, 1.0, 0.0])]);
}

#[test]
fn duplicate_polygons_take_their_faces_in_order() {
    let mut g = grid(VertexIdentity::Shared);
    let copy = g.polygons[1].clone();
    g.polygons.push(copy);
    assert!(matched(&g, &as_ngons(&g)).is_empty());
    assert!(matched(&g, &as_split_triangles(&g, 0)).is_empty());
    let mut mesh = as_ngons(&g);
    mesh.faces.push(mesh.faces[0].clone());
    let err = match_mesh(&g, &mesh, &MatchOptions::default()).unwrap_err();
    assert!(err.0.contains("duplicate"), "{err}");
}

#[test]
fn bad_meshes_are_refused_not_panicked_on() {
    let g = grid(VertexIdentity::Shared);
    let mut mesh = as_ngons(&g);
    mesh.faces.push(vec![0, 1, 99]);
    assert!(match_mesh(&g, &mesh, &MatchOptions::default()).is_err());
    let mut mesh = as_ngons(&g);
    mesh.vertices[0][1] = f32::NAN;
    assert!(match_mesh(&g, &mesh, &MatchOptions::default()).is_err());
    // Faces of fewer than three distinct corners are no faces; an empty mesh deletes all.
    let mut mesh = as_ngons(&g);
    mesh.faces.push(vec![0, 0, 1]);
    assert!(matched(&g, &mesh).is_empty());
    assert_eq!(
        matched(&g, &EditedMesh::default()).deleted,
        vec![0, 1, 2, 3]
    );
}

#[test]
fn polygons_at_the_same_places_take_their_faces_in_order() {
    // Two triangles over their own vertices at the same three places, the second stored from
    // another corner (as a plugin's navmesh and its copy, or a triangle stored twice).
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = VertexIdentity::Shared;
    let places = [[0.0, 0.0, 1.0], [10.0, 0.0, 1.0], [0.0, 10.0, 1.0]];
    for p in places.iter().chain(&places) {
        g.vertex(*p);
    }
    let kind = g.kind("walk");
    for (index, vertices) in [(0, [0, 1, 2]), (1, [4, 5, 3])] {
        g.polygons.push(Polygon {
            vertices: vertices.into(),
            kind,
            record: Some(Record {
                part: index,
                index: 0,
                id: None,
            }),
            ..Polygon::default()
        });
    }
    assert!(matched(&g, &as_ngons(&g)).is_empty());
    assert!(matched(&g, &as_split_triangles(&g, 1)).is_empty());
    // One of them deleted: the other is kept, whichever the face went to.
    let mut one = as_ngons(&g);
    one.faces.pop();
    assert_eq!(matched(&g, &one).deleted.len(), 1);
    // Three faces on two polygons: the third is a duplicate, refused.
    let mut three = as_ngons(&g);
    three.faces.push(vec![0, 1, 2]);
    assert!(match_mesh(&g, &three, &MatchOptions::default()).is_err());
}

#[test]
fn the_tolerance_grows_with_the_largest_coordinate() {
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex([0.0, -2.0e5, f32::NAN]);
    let t = MatchOptions::default().tolerance(&g);
    assert!((t - (1e-5 + 0.2)).abs() < 1e-6, "{t}");
}

#[test]
fn each_vertex_matches_within_its_own_tolerance() {
    let o = MatchOptions::default();
    assert_eq!(o.tolerance_at([0.0, 0.0, 0.0]), 1e-5);
    assert!((o.tolerance_at([3.0, -2.0e5, f32::NAN]) - (1e-5 + 0.2)).abs() < 1e-6);
    // A quad at the origin and one 200,000 units away: the map's largest tolerance is 0.2.
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = VertexIdentity::Shared;
    for (x, y) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
        g.vertex([x, y, 0.0]);
    }
    for (x, y) in [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)] {
        g.vertex([2.0e5 + x, y, 0.0]);
    }
    let kind = g.kind("walk");
    for q in 0..2u32 {
        g.polygons.push(Polygon {
            vertices: (q * 4..q * 4 + 4).collect(),
            kind,
            ..Polygon::default()
        });
    }
    assert!((o.tolerance(&g) - (1e-5 + 0.2)).abs() < 1e-6);
    assert!(matched(&g, &as_ngons(&g)).is_empty());
    // A vertex at the origin moved by 0.01 (a twentieth of the map's largest tolerance) moved.
    let mut mesh = as_ngons(&g);
    mesh.vertices[2] = [1.01, 1.0, 0.0];
    assert_eq!(matched(&g, &mesh).moved, vec![(2, [1.01, 1.0, 0.0])]);
    // The far vertex moved as much is within its own float precision: unmoved.
    let mut mesh = as_ngons(&g);
    mesh.vertices[6] = [2.0e5 + 1.0, 1.01, 0.0];
    assert!(matched(&g, &mesh).is_empty());
}

/// The grid's mesh with `moves` applied to every copy of the vertices they name.
fn moved(g: &Geometry, mut mesh: EditedMesh, moves: &[(u32, [f32; 3])]) -> EditedMesh {
    for v in &mut mesh.vertices {
        if let Some((_, to)) = moves.iter().find(|(w, _)| g.vertices[*w as usize] == *v) {
            *v = *to;
        }
    }
    mesh
}

#[test]
fn a_side_moved_in_a_fanned_quad_keeps_the_quad() {
    let g = grid(VertexIdentity::Shared);
    // The right side of quad 1 (vertices 2 and 5), in from the grid's edge; vertex 5 is also
    // quad 3's. From every fan corner, one of quad 1's triangles keeps only one corner.
    let side = [(2, [1016.0, 2001.0, 7.125]), (5, [1017.0, 2011.0, 8.0])];
    // The side quads 0 and 1 share (vertices 1 and 4, 4 also in quads 2 and 3).
    let shared = [(1, [1011.0, 1999.0, 7.125]), (4, [1012.0, 2012.0, 7.5])];
    for moves in [&side[..], &shared[..]] {
        for start in 0..4 {
            let mesh = moved(&g, as_split_triangles(&g, start), moves);
            let edit = matched(&g, &mesh);
            assert_eq!(edit.moved, moves, "fan from corner {start}");
            assert!(edit.deleted.is_empty(), "fan from corner {start}");
            assert!(edit.added.is_empty() && edit.new_vertices.is_empty());
        }
    }
}

/// A pentagon of shared vertices (0 to 4, counter-clockwise) and a quad on its side 0–4.
fn pentagon() -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    g.vertex_identity = VertexIdentity::Shared;
    for p in [
        [0.0, 0.0, 1.0],
        [10.0, 0.0, 1.0],
        [13.0, 8.0, 1.0],
        [5.0, 14.0, 1.0],
        [-3.0, 8.0, 1.0],
        [-13.0, 8.0, 1.0],
        [-10.0, 0.0, 1.0],
    ] {
        g.vertex(p);
    }
    let kind = g.kind("walk");
    for (index, vertices) in [(0, vec![0, 1, 2, 3, 4]), (1, vec![0, 4, 5, 6])] {
        g.polygons.push(Polygon {
            vertices: vertices.into(),
            kind,
            record: Some(Record {
                part: 0,
                index,
                id: None,
            }),
            ..Polygon::default()
        });
    }
    g
}

#[test]
fn a_fanned_pentagon_with_several_moved_corners_is_kept() {
    let g = pentagon();
    let two = [(1, [11.0, -1.0, 1.0]), (2, [14.0, 9.0, 2.0])];
    // Three in a row: from corner 2 the fan has a triangle with no unmoved corner at all, which
    // joins once its neighbour has.
    let three = [
        (1, [11.0, -1.0, 1.0]),
        (2, [14.0, 9.0, 2.0]),
        (3, [5.0, 15.0, 1.0]),
    ];
    for moves in [&two[..], &three[..]] {
        for start in 0..5 {
            let mesh = moved(&g, as_split_triangles(&g, start), moves);
            let edit = matched(&g, &mesh);
            assert_eq!(edit.moved, moves, "fan from corner {start}");
            assert!(edit.deleted.is_empty() && edit.added.is_empty());
        }
    }
}

#[test]
fn a_face_that_could_complete_two_polygons_is_refused() {
    let g = grid(VertexIdentity::Shared);
    let (one, two) = ([1011.0, 1999.0, 7.125], [1021.0, 1999.0, 7.125]);
    let v = |i: usize| g.vertices[i];
    let mut mesh = EditedMesh::default();
    // Quad 0 keeps one triangle (1', 4, 3) of two; quad 1 has (4, 2', 5) and (4, 1', 2'), the
    // latter touching quad 0's triangle along 1'–4 as well.
    for face in [[one, v(4), v(3)], [v(4), two, v(5)], [v(4), one, two]] {
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend(face);
        mesh.faces.push(vec![base, base + 1, base + 2]);
    }
    for q in &g.polygons[2..] {
        let base = mesh.vertices.len() as u32;
        mesh.vertices
            .extend(q.vertices.iter().map(|&w| g.vertices[w as usize]));
        mesh.faces.push((base..base + 4).collect());
    }
    let err = match_mesh(&g, &mesh, &MatchOptions::default()).unwrap_err();
    assert!(err.0.contains("faces[2] could complete"), "{err}");
    assert!(
        err.0.contains("record 0") && err.0.contains("record 1"),
        "{err}"
    );
    // Without quad 0's triangle, the face completes quad 1 alone.
    mesh.faces.remove(0);
    let edit = matched(&g, &mesh);
    assert_eq!(edit.moved, vec![(1, one), (2, two)]);
    assert_eq!(edit.deleted, vec![0]);
}
