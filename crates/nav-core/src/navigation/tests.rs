//! Tests of the queries on hand-made graphs.

use super::*;
use crate::geometry::UpAxis;

/// An axis-aligned square of side `s` at (`x`, `y`), height `z`.
fn square(x: f32, y: f32, z: f32, s: f32) -> [[f32; 3]; 4] {
    [[x, y, z], [x + s, y, z], [x + s, y + s, z], [x, y + s, z]]
}

fn id(i: u64) -> Endpoint {
    Endpoint::Cell(CellId::new(i))
}

/// Two ways both ways, as a shared border gives.
fn both(g: &mut Graph, a: u32, b: u32, kind: EdgeKind) {
    g.add_edge(a, b, kind);
    g.add_edge(b, a, kind);
}

#[test]
fn stacked_floors_are_told_apart_by_height() {
    let mut g = Graph::new(UpAxis::Z);
    let low = g.add_polygon_cell(CellId::new(10), &square(0.0, 0.0, 0.0, 4.0));
    let high = g.add_polygon_cell(CellId::new(11), &square(0.0, 0.0, 100.0, 4.0));
    let nav = Navigator::new(g).unwrap();
    let at = |z| nav.locate([1.0, 1.0, z]);
    assert_eq!(
        at(5.0),
        Some(Located {
            cell: low,
            distance: 5.0
        })
    );
    assert_eq!(
        at(95.0),
        Some(Located {
            cell: high,
            distance: 5.0
        })
    );
    assert_eq!(at(-20.0).map(|l| l.cell), Some(low));
    // Halfway: the smaller index.
    assert_eq!(at(50.0).map(|l| l.cell), Some(low));
    // Borders count; beyond them nothing.
    assert_eq!(nav.locate([4.0, 4.0, 99.0]).map(|l| l.cell), Some(high));
    assert_eq!(nav.locate([4.01, 2.0, 0.0]), None);
    assert_eq!(nav.locate([f32::NAN, 2.0, 0.0]), None);
    assert_eq!(nav.locate([1.0, 1.0, f32::INFINITY]), None);
}

#[test]
fn a_sloped_floor_is_measured_from_its_plane_not_its_centre() {
    // A ramp rising 1 in 1 eastward over a flat floor 3 units below its centre: at its low end
    // the ramp's surface is nearer the flat floor's height than its own centre is.
    let mut g = Graph::new(UpAxis::Z);
    let ramp = [[0., 0., 0.], [10., 0., 10.], [10., 2., 10.], [0., 2., 0.]];
    let r = g.add_polygon_cell(CellId::new(1), &ramp);
    let f = g.add_polygon_cell(CellId::new(2), &square(0.0, 0.0, 2.0, 10.0)[..]);
    let nav = Navigator::new(g).unwrap();
    // At x = 9 the ramp is at 9: a point at 8 is 1 below the ramp and 6 above the floor.
    assert_eq!(
        nav.locate([9.0, 1.0, 8.0]),
        Some(Located {
            cell: r,
            distance: 1.0
        })
    );
    // At x = 1 the ramp is at 1, the floor at 2: a point at 2.2 is on the floor.
    let l = nav.locate([1.0, 1.0, 2.2]).unwrap();
    assert_eq!(l.cell, f);
    assert!((l.distance - 0.2).abs() < 1e-5, "{l:?}");
}

#[test]
fn one_way_edges_are_followed_one_way_and_islands_join_them() {
    let mut g = Graph::new(UpAxis::Z);
    let a = g.add_polygon_cell(CellId::new(1), &square(0.0, 0.0, 0.0, 1.0));
    let b = g.add_polygon_cell(CellId::new(2), &square(1.0, 0.0, -5.0, 1.0));
    g.add_edge(a, b, EdgeKind::Drop);
    let nav = Navigator::new(g).unwrap();
    let down = nav.path(id(1), id(2), Weight::Hops, false).unwrap();
    assert_eq!(
        (down.cells.clone(), down.cost, down.reachable),
        (vec![a, b], 1.0, true)
    );
    nav.check_route(&down, Weight::Hops, false).unwrap();
    let up = nav.path(id(2), id(1), Weight::Hops, false).unwrap();
    assert!(!up.reachable && up.cells.is_empty());
    assert!(
        up.reason
            .as_deref()
            .unwrap()
            .contains("no route from cell 2 to cell 1")
    );
    // A drop is not a walk.
    assert!(
        !nav.path(id(1), id(2), Weight::Hops, true)
            .unwrap()
            .reachable
    );
    assert_eq!(nav.islands(false), vec![vec![a, b]]);
    assert_eq!(nav.islands(true), vec![vec![a], vec![b]]);
}

#[test]
fn ladders_are_climbed_unless_walking_only_and_blocked_edges_never() {
    let mut g = Graph::new(UpAxis::Z);
    let ground = g.add_polygon_cell(CellId::new(1), &square(0.0, 0.0, 0.0, 1.0));
    let roof = g.add_polygon_cell(CellId::new(2), &square(0.0, 0.0, 50.0, 1.0));
    let shed = g.add_polygon_cell(CellId::new(3), &square(1.0, 0.0, 0.0, 1.0));
    g.add_edge(ground, roof, EdgeKind::LadderUp);
    g.add_edge(roof, ground, EdgeKind::LadderDown);
    both(&mut g, ground, shed, EdgeKind::Blocked);
    let nav = Navigator::new(g).unwrap();
    let climb = nav.path(id(1), id(2), Weight::Distance, false).unwrap();
    assert_eq!(
        (climb.cells.clone(), climb.cost),
        (vec![ground, roof], 50.0)
    );
    nav.check_route(&climb, Weight::Distance, false).unwrap();
    assert!(nav.check_route(&climb, Weight::Distance, true).is_err());
    assert!(
        !nav.path(id(1), id(2), Weight::Distance, true)
            .unwrap()
            .reachable
    );
    for walk_only in [false, true] {
        assert!(
            !nav.path(id(1), id(3), Weight::Hops, walk_only)
                .unwrap()
                .reachable
        );
    }
    assert_eq!(nav.islands(false), vec![vec![ground, roof], vec![shed]]);
    assert_eq!(
        nav.islands(true),
        vec![vec![ground], vec![roof], vec![shed]]
    );
}

#[test]
fn distance_and_hops_choose_different_routes() {
    // 0 - 1 - 2 along a straight line (cost 2), or 0 - 3 - 2 round a far corner (cost > 2).
    let mut g = Graph::new(UpAxis::Z);
    let c: Vec<u32> = [(0., 0.), (1., 0.), (2., 0.), (1., 30.)]
        .iter()
        .zip(0..)
        .map(|(&(x, y), i)| g.add_node_cell(CellId::new(i), [x, y, 0.0], 0.4))
        .collect();
    both(&mut g, c[0], c[1], EdgeKind::Walk);
    both(&mut g, c[1], c[2], EdgeKind::Walk);
    both(&mut g, c[0], c[3], EdgeKind::Walk);
    both(&mut g, c[3], c[2], EdgeKind::Walk);
    // And a direct jump that only counts when not walking.
    g.add_edge(c[0], c[2], EdgeKind::Jump);
    let nav = Navigator::new(g).unwrap();
    let walk = nav.path(id(0), id(2), Weight::Distance, true).unwrap();
    assert_eq!((walk.cells.clone(), walk.cost), (vec![0, 1, 2], 2.0));
    let jump = nav.path(id(0), id(2), Weight::Hops, false).unwrap();
    assert_eq!((jump.cells.clone(), jump.cost), (vec![0, 2], 1.0));
    for (r, w, wo) in [
        (&walk, Weight::Distance, true),
        (&jump, Weight::Hops, false),
    ] {
        nav.check_route(r, w, wo).unwrap();
    }
    // From points: located first.
    let r = nav
        .path(
            Endpoint::Point([0.1, 0.1, 3.0]),
            Endpoint::Point([1.0, 30.2, 0.0]),
            Weight::Hops,
            true,
        )
        .unwrap();
    assert_eq!((r.from, r.to, r.cells), (Some(0), Some(3), vec![0, 3]));
    let off = nav
        .path(Endpoint::Point([9.0, 9.0, 0.0]), id(2), Weight::Hops, true)
        .unwrap();
    assert_eq!((off.from, off.to, off.reachable), (None, Some(2), false));
    assert!(
        off.reason
            .unwrap()
            .starts_with("start point (9, 9, 0) is on no cell")
    );
}

#[test]
fn nodes_cover_their_radius_in_plan_and_the_nearest_wins() {
    let mut g = Graph::new(UpAxis::Z);
    let low = g.add_node_cell(CellId::new(1), [0.0, 0.0, 0.0], 10.0);
    let high = g.add_node_cell(CellId::new(2), [3.0, 0.0, 40.0], 10.0);
    g.add_node_cell(CellId::new(3), [100.0, 0.0, 0.0], f32::NAN);
    g.add_node_cell(CellId::new(4), [200.0, 0.0, 0.0], -1.0);
    g.add_node_cell(CellId::new(5), [f32::NAN, 0.0, 0.0], 5.0);
    let nav = Navigator::new(g).unwrap();
    assert_eq!(
        nav.locate([0.0, 0.0, 4.0]),
        Some(Located {
            cell: low,
            distance: 4.0
        })
    );
    assert_eq!(
        nav.locate([3.0, 0.0, 36.0]),
        Some(Located {
            cell: high,
            distance: 4.0
        })
    );
    // Within the radius in plan however far above.
    assert_eq!(nav.locate([-10.0, 0.0, -500.0]).map(|l| l.cell), Some(low));
    assert_eq!(nav.locate([-10.5, 0.0, 0.0]), None);
    for x in [100.0, 200.0] {
        assert_eq!(nav.locate([x, 0.0, 0.0]), None);
    }
    // A node without a centre has no distance to anything.
    let r = nav.path(id(1), id(5), Weight::Distance, false).unwrap();
    assert!(r.reason.unwrap().contains("cell 5 has no centre"));
}

#[test]
fn concave_and_degenerate_polygons_and_not_a_number_do_not_panic() {
    let mut g = Graph::new(UpAxis::Z);
    let l_shape = [
        [0., 0., 0.],
        [2., 0., 0.],
        [2., 1., 0.],
        [1., 1., 0.],
        [1., 2., 0.],
        [0., 2., 0.],
    ];
    let l = g.add_polygon_cell(CellId::new(1), &l_shape);
    let line = g.add_polygon_cell(CellId::new(2), &[[5., 5., 0.], [6., 5., 0.]]);
    let flat = g.add_polygon_cell(CellId::new(3), &[[7., 7., 0.], [8., 8., 0.], [9., 9., 0.]]);
    let nan = g.add_polygon_cell(CellId::new(4), &[[f32::NAN, 0., 0.]; 3]);
    // A cell built by hand around the checks: NaN corners in the run, NaN centre.
    g.corners.extend([
        [f32::NAN, 1.0, 0.0],
        [1.0, f32::NAN, 0.0],
        [0.0, 0.0, f32::NAN],
    ]);
    let at = u32::try_from(g.corners.len() - 3).unwrap();
    g.cells.push(Cell {
        id: CellId::new(5),
        centre: Some([f32::NAN; 3]),
        corners: (at, 3),
        radius: None,
    });
    for (a, b) in [
        (l, line),
        (line, flat),
        (flat, nan),
        (nan, 4),
        (4, l),
        (l, l),
        (l, line),
    ] {
        g.add_edge(a, b, EdgeKind::Walk);
    }
    let nav = Navigator::new(g).unwrap();
    assert_eq!(
        nav.edge_count(),
        5,
        "the self-edge and the repeat are dropped"
    );
    assert_eq!(nav.locate([0.5, 1.5, 0.0]).map(|l| l.cell), Some(l));
    assert_eq!(nav.locate([1.5, 1.5, 0.0]), None, "the L's notch");
    // A polygon with no area in plan holds its own line, at its height span.
    assert_eq!(
        nav.locate([8.0, 8.0, 1.0]),
        Some(Located {
            cell: flat,
            distance: 1.0
        })
    );
    assert_eq!(nav.locate([5.5, 5.0, 0.0]), None);
    let hops = nav.path(id(1), id(5), Weight::Hops, true).unwrap();
    assert_eq!(hops.cells, vec![0, 1, 2, 3, 4]);
    nav.check_route(&hops, Weight::Hops, true).unwrap();
    let far = nav.path(id(1), id(3), Weight::Distance, true).unwrap();
    assert!(!far.reachable, "cell 2 has no centre to measure through");
    assert!(
        nav.path(id(1), id(5), Weight::Distance, true)
            .unwrap()
            .reason
            .unwrap()
            .contains("cell 5 has no centre")
    );
    assert_eq!(nav.islands(true), vec![vec![0, 1, 2, 3, 4]]);
}

#[test]
fn ids_and_consistency_are_checked() {
    let mut g = Graph::new(UpAxis::Z);
    let a = g.add_polygon_cell(CellId::in_part(7, 1), &square(0.0, 0.0, 0.0, 1.0));
    g.add_polygon_cell(CellId::in_part(7, 1), &square(5.0, 0.0, 0.0, 1.0));
    let nav = Navigator::new(g.clone()).unwrap();
    assert_eq!(
        nav.cell_index(CellId::in_part(7, 1)),
        Some(a),
        "the first of a shared id"
    );
    assert_eq!(nav.cell_index(CellId::new(1)), None);
    assert_eq!(
        nav.path(
            id(9),
            Endpoint::Cell(CellId::in_part(7, 1)),
            Weight::Hops,
            false
        ),
        Err(NavError::UnknownCell(CellId::new(9)))
    );
    let same = nav
        .path(
            Endpoint::Cell(CellId::in_part(7, 1)),
            Endpoint::Point([0.5, 0.5, 0.0]),
            Weight::Distance,
            false,
        )
        .unwrap();
    assert_eq!(
        (same.cells, same.cost, same.reachable),
        (vec![a], 0.0, true)
    );
    assert_eq!(nav.route_cells(&[1, 0, 99]), vec![CellId::in_part(7, 1); 2]);
    let mut bad = g.clone();
    bad.add_edge(0, 2, EdgeKind::Walk);
    let err = Navigator::new(bad).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the navigation graph is not consistent: edge 0 links cell 0 to cell 2, of 2"
    );
    let mut bad = g;
    bad.cells[1].corners = (u32::MAX, 4);
    assert!(
        Navigator::new(bad)
            .unwrap_err()
            .to_string()
            .contains("run past")
    );
}

#[test]
fn y_up_graphs_use_x_and_z_in_plan() {
    let mut g = Graph::new(UpAxis::Y);
    let quad = [[0., 3., 0.], [0., 3., -2.], [2., 3., -2.], [2., 3., 0.]];
    let a = g.add_polygon_cell(CellId::new(1), &quad);
    let nav = Navigator::new(g).unwrap();
    assert_eq!(
        nav.locate([1.0, 5.0, -1.0]),
        Some(Located {
            cell: a,
            distance: 2.0
        })
    );
    assert_eq!(nav.locate([1.0, 3.0, 1.0]), None);
}

#[test]
fn large_grids_and_huge_coordinates() {
    // 100 x 100 unit squares, four-way connected: corner to corner is 198 steps either way.
    let mut g = Graph::new(UpAxis::Z);
    let n = 100u32;
    for y in 0..n {
        for x in 0..n {
            #[allow(clippy::cast_precision_loss)]
            g.add_polygon_cell(
                CellId::new(u64::from(y * n + x)),
                &square(x as f32, y as f32, 0.0, 1.0),
            );
        }
    }
    for y in 0..n {
        for x in 0..n {
            let i = y * n + x;
            if x + 1 < n {
                both(&mut g, i, i + 1, EdgeKind::Walk);
            }
            if y + 1 < n {
                both(&mut g, i, i + n, EdgeKind::Walk);
            }
        }
    }
    let nav = Navigator::new(g).unwrap();
    for w in [Weight::Distance, Weight::Hops] {
        let r = nav.path(id(0), id(u64::from(n * n - 1)), w, true).unwrap();
        assert_eq!((r.cells.len(), r.cost), (199, 198.0), "{w:?}");
        nav.check_route(&r, w, true).unwrap();
    }
    assert_eq!(
        nav.locate([55.5, 44.5, 0.0]).map(|l| l.cell),
        Some(44 * n + 55)
    );
    assert_eq!(nav.islands(true).len(), 1);

    let mut g = Graph::new(UpAxis::Z);
    g.add_polygon_cell(
        CellId::new(1),
        &[[-3e38, -3e38, 0.], [3e38, -3e38, 0.], [0., 3e38, 3e38]],
    );
    g.add_polygon_cell(CellId::new(2), &square(0.0, 0.0, 0.0, 1e-30));
    g.add_node_cell(CellId::new(3), [1e38, 1e38, 1e38], f32::MAX);
    both(&mut g, 0, 1, EdgeKind::Walk);
    both(&mut g, 1, 2, EdgeKind::Walk);
    let nav = Navigator::new(g).unwrap();
    let _ = nav.locate([0.0, 0.0, 0.0]);
    let _ = nav.locate([1e38, -1e38, 1e38]);
    let r = nav.path(id(1), id(3), Weight::Distance, false).unwrap();
    assert!(r.reachable && r.cost.is_finite());
    nav.check_route(&r, Weight::Distance, false).unwrap();
}

#[test]
fn an_empty_graph_answers_nothing() {
    let nav = Navigator::new(Graph::new(UpAxis::Z)).unwrap();
    assert_eq!(nav.locate([0.0; 3]), None);
    assert!(nav.islands(false).is_empty());
    assert!(
        nav.path(
            Endpoint::Point([0.0; 3]),
            Endpoint::Point([1.0; 3]),
            Weight::Hops,
            false
        )
        .is_ok()
    );
}

#[test]
fn the_navigator_is_send_and_sync() {
    fn shared<T: Send + Sync>() {}
    shared::<Navigator>();
}
