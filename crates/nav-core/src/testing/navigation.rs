//! [`check_navigation`]: the queries of [`Navigator`] checked on a format's graph against a
//! plain reference search, for the format crates' corpus tests.

use core::fmt;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::navigation::{Endpoint, Graph, Navigator, Weight};

/// What [`check_navigation`] checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NavigationReport {
    /// Cells in the graph.
    pub cells: usize,
    /// Distinct directed edges between different cells.
    pub edges: usize,
    /// Islands over every edge that is not blocked.
    pub islands: usize,
    /// Cells in the largest of them.
    pub largest_island: usize,
    /// Random pairs searched (each under three settings: distance, distance walking only, hops).
    pub pairs: usize,
    /// How many of the pairs are reachable by distance, walking only.
    pub reachable: usize,
    /// Cells whose centre was located (on the cell, or on one at the same height there).
    pub located: usize,
    /// Cells whose centre was not checked: no centre, or a centre outside the cell's own polygon
    /// or radius (a concave or degenerate polygon, a node without a usable radius).
    pub unlocatable: usize,
}

impl fmt::Display for NavigationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cells, {} edges, {} islands (largest {}); {} pairs agree with Dijkstra ({} reachable \
             walking); {} centres located, {} not locatable",
            self.cells,
            self.edges,
            self.islands,
            self.largest_island,
            self.pairs,
            self.reachable,
            self.located,
            self.unlocatable
        )
    }
}

/// Checks a format's navigation graph with the queries of [`Navigator`], failing with the first
/// disagreement:
///
/// - the navigator accepts the graph;
/// - on `pairs` random pairs of cells (from `seed`), under [`Weight::Distance`] (walking only or
///   not) and [`Weight::Hops`], A* agrees with a plain Dijkstra written separately here on
///   reachability and on cost (within 1e-6 relative), every step of every route is an edge of a
///   followed kind ([`Navigator::check_route`]), and reachable cells share an island;
/// - [`Navigator::locate`] of each cell's centre gives that cell, or one whose surface covers the
///   same point at least as near in height as the cell's own (within 1e-3, relative to heights
///   over 1: a centre off its own non-planar surface may lie nearer a cell stacked close by, and
///   locate answers the nearest surface); cells whose centre
///   lies outside their own polygon or radius are counted, not checked;
/// - the islands (walking only, and not) partition the cells, largest first, ties by smallest
///   cell, each sorted.
pub fn check_navigation(
    graph: &Graph,
    pairs: usize,
    seed: u64,
) -> Result<NavigationReport, String> {
    let nav = Navigator::new(graph.clone()).map_err(|e| e.to_string())?;
    let n = graph.cells.len();
    let mut report = NavigationReport {
        cells: n,
        edges: nav.edge_count(),
        ..NavigationReport::default()
    };
    let all = nav.islands(false);
    partition(&all, n).map_err(|e| format!("islands: {e}"))?;
    let walking = nav.islands(true);
    partition(&walking, n).map_err(|e| format!("islands walking only: {e}"))?;
    report.islands = all.len();
    report.largest_island = all.first().map_or(0, Vec::len);
    let island_of = |islands: &[Vec<u32>]| {
        let mut of = vec![0usize; n];
        for (k, island) in islands.iter().enumerate() {
            for &c in island {
                if let Some(slot) = of.get_mut(c as usize) {
                    *slot = k;
                }
            }
        }
        of
    };
    let (island_all, island_walking) = (island_of(&all), island_of(&walking));

    let reference = Reference::new(&nav);
    let mut rng = seed ^ 0x6A09_E667_F3BC_C908;
    for _ in 0..if n == 0 { 0 } else { pairs } {
        let (a, b) = (pick(&mut rng, n), pick(&mut rng, n));
        // Searched by id, so a shared id means its first cell.
        let (Some(ca), Some(cb)) = (graph.cells.get(a), graph.cells.get(b)) else {
            continue;
        };
        let (Some(a), Some(b)) = (nav.cell_index(ca.id), nav.cell_index(cb.id)) else {
            return Err(format!(
                "cell {} or {} is not found by its id",
                ca.id, cb.id
            ));
        };
        for (weight, walk_only) in [
            (Weight::Distance, false),
            (Weight::Distance, true),
            (Weight::Hops, false),
        ] {
            let route = nav
                .path(
                    Endpoint::Cell(ca.id),
                    Endpoint::Cell(cb.id),
                    weight,
                    walk_only,
                )
                .map_err(|e| e.to_string())?;
            let expected = reference.cost(a, b, weight, walk_only);
            let what = || {
                format!(
                    "{} -> {} ({}, walk only {walk_only})",
                    ca.id,
                    cb.id,
                    weight.name()
                )
            };
            match expected {
                None if route.reachable => {
                    return Err(format!("{}: A* finds a route, Dijkstra none", what()));
                }
                Some(_) if !route.reachable => {
                    return Err(format!(
                        "{}: Dijkstra finds a route, A* none ({:?})",
                        what(),
                        route.reason
                    ));
                }
                Some(cost) if (cost - route.cost).abs() > 1e-6 * cost.abs().max(1.0) => {
                    return Err(format!(
                        "{}: A* costs {}, Dijkstra {cost}",
                        what(),
                        route.cost
                    ));
                }
                _ => {}
            }
            nav.check_route(&route, weight, walk_only)
                .map_err(|e| format!("{}: {e}", what()))?;
            let islands = if walk_only {
                &island_walking
            } else {
                &island_all
            };
            if route.reachable && islands.get(a as usize) != islands.get(b as usize) {
                return Err(format!("{}: reachable across islands", what()));
            }
            if route.reachable && walk_only {
                report.reachable += 1;
            }
        }
        report.pairs += 1;
    }

    for (i, cell) in graph.cells.iter().enumerate() {
        let i = u32::try_from(i).map_err(|_| "more than 2^32 cells")?;
        let (Some(centre), Some(own)) = (
            cell.centre,
            cell.centre.and_then(|c| nav.height_under(i, c)),
        ) else {
            report.unlocatable += 1;
            continue;
        };
        let Some(found) = nav.locate(centre) else {
            return Err(format!(
                "cell {}'s centre {centre:?} is on no cell",
                cell.id
            ));
        };
        if found.cell != i {
            // Another cell is right when its surface covers the centre at least as near in
            // height as the cell's own: a centre off its own (non-planar) surface may lie nearer
            // a cell stacked close by, and locate answers the nearest surface.
            let other = nav.height_under(found.cell, centre);
            let up = match graph.up {
                crate::geometry::UpAxis::Z => 2,
                crate::geometry::UpAxis::Y => 1,
            };
            let height = f64::from(centre[up]);
            let tolerance = 1e-3 * own.abs().max(1.0);
            if other.is_none_or(|h| (h - height).abs() > (own - height).abs() + tolerance) {
                return Err(format!(
                    "cell {}'s centre {centre:?} (surface at {own}) is located on cell {} (at {other:?})",
                    cell.id,
                    graph
                        .cells
                        .get(found.cell as usize)
                        .map_or(CellLabel::None, |c| CellLabel::Id(c.id)),
                ));
            }
        }
        report.located += 1;
    }
    Ok(report)
}

/// A cell's id for a message, or a note that there is none.
enum CellLabel {
    Id(crate::navigation::CellId),
    None,
}

impl fmt::Display for CellLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CellLabel::Id(id) => write!(f, "{id}"),
            CellLabel::None => f.write_str("(past the cells)"),
        }
    }
}

/// A cell index below `n` (> 0), from a splitmix64 stream.
fn pick(state: &mut u64, n: usize) -> usize {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    usize::try_from(z % n as u64).unwrap_or(0)
}

/// Whether `islands` hold each of `n` cells exactly once, largest first, ties by smallest cell,
/// each sorted.
fn partition(islands: &[Vec<u32>], n: usize) -> Result<(), String> {
    let mut seen = vec![false; n];
    for island in islands {
        if island.is_empty() || !island.windows(2).all(|w| w[0] < w[1]) {
            return Err(format!("an island is empty or unsorted: {island:?}"));
        }
        for &c in island {
            match seen.get_mut(c as usize) {
                Some(s) if !*s => *s = true,
                _ => return Err(format!("cell {c} is in two islands or past the cells")),
            }
        }
    }
    if let Some(c) = seen.iter().position(|s| !s) {
        return Err(format!("cell {c} is in no island"));
    }
    for w in islands.windows(2) {
        let order = (Reverse(w[0].len()), w[0].first()).cmp(&(Reverse(w[1].len()), w[1].first()));
        if order.is_gt() {
            return Err("the islands are not largest first, ties by smallest cell".into());
        }
    }
    Ok(())
}

/// A plain Dijkstra over the graph's edges, written apart from the navigator's search so that
/// the two check each other: an adjacency list per cell, a binary heap of (cost, cell).
struct Reference {
    out: Vec<Vec<(u32, crate::navigation::EdgeKind)>>,
    centres: Vec<Option<[f64; 3]>>,
}

impl Reference {
    fn new(nav: &Navigator) -> Self {
        let graph = nav.graph();
        let mut out = vec![Vec::new(); graph.cells.len()];
        for e in &graph.edges {
            if let Some(list) = out.get_mut(e.from as usize) {
                list.push((e.to, e.kind));
            }
        }
        let centres = (0..graph.cells.len())
            .map(|i| u32::try_from(i).ok().and_then(|i| nav.centre(i)))
            .collect();
        Reference { out, centres }
    }

    /// The cheapest cost from `a` to `b`, or `None` when unreachable.
    fn cost(&self, a: u32, b: u32, weight: Weight, walk_only: bool) -> Option<f64> {
        if a == b {
            return Some(0.0);
        }
        let centre = |c: u32| self.centres.get(c as usize).copied().flatten();
        if weight == Weight::Distance && (centre(a).is_none() || centre(b).is_none()) {
            return None;
        }
        let mut dist = vec![f64::INFINITY; self.out.len()];
        *dist.get_mut(a as usize)? = 0.0;
        let mut heap = BinaryHeap::new();
        heap.push(Reverse((Ordered(0.0), a)));
        while let Some(Reverse((Ordered(d), c))) = heap.pop() {
            if c == b {
                return Some(d);
            }
            if d > dist[c as usize] {
                continue;
            }
            for &(t, kind) in self.out.get(c as usize)? {
                if !kind.followed(walk_only) {
                    continue;
                }
                let step = match weight {
                    Weight::Hops => 1.0,
                    Weight::Distance => match (centre(c), centre(t)) {
                        (Some(p), Some(q)) => {
                            let s: f64 = (0..3).map(|k| (p[k] - q[k]) * (p[k] - q[k])).sum();
                            s.sqrt()
                        }
                        _ => continue,
                    },
                };
                let slot = dist.get_mut(t as usize)?;
                if d + step < *slot {
                    *slot = d + step;
                    heap.push(Reverse((Ordered(d + step), t)));
                }
            }
        }
        None
    }
}

/// An `f64` ordered by [`f64::total_cmp`].
#[derive(Debug, Clone, Copy)]
struct Ordered(f64);

impl PartialEq for Ordered {
    fn eq(&self, other: &Self) -> bool {
        self.0.total_cmp(&other.0).is_eq()
    }
}

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::UpAxis;
    use crate::navigation::{CellId, EdgeKind};

    #[test]
    fn a_hand_made_graph_passes_and_a_broken_one_fails() {
        let mut g = Graph::new(UpAxis::Z);
        for i in 0..30u16 {
            let x = f32::from(i % 6);
            let y = f32::from(i / 6);
            let z = f32::from(i % 4);
            g.add_polygon_cell(
                CellId::new(u64::from(i)),
                &[
                    [x, y, z],
                    [x + 1.0, y, z],
                    [x + 1.0, y + 1.0, z],
                    [x, y + 1.0, z],
                ],
            );
        }
        for i in 0..29u32 {
            let kind = [
                EdgeKind::Walk,
                EdgeKind::Jump,
                EdgeKind::Walk,
                EdgeKind::Blocked,
            ][i as usize % 4];
            g.add_edge(i, i + 1, kind);
            if i % 3 == 0 {
                g.add_edge(i + 1, i, EdgeKind::Walk);
            }
        }
        g.add_node_cell(CellId::new(99), [40.0, 0.0, 0.0], 2.0);
        g.add_polygon_cell(CellId::new(100), &[[50.0, 0.0, 0.0], [51.0, 0.0, 0.0]]);
        let report = check_navigation(&g, 200, 7).unwrap();
        assert_eq!(
            (
                report.cells,
                report.pairs,
                report.located,
                report.unlocatable
            ),
            (32, 200, 31, 1)
        );
        assert!(report.reachable > 0 && report.islands > 2, "{report}");
        let mut bad = g.clone();
        bad.add_edge(0, 500, EdgeKind::Walk);
        assert!(
            check_navigation(&bad, 1, 1)
                .unwrap_err()
                .contains("not consistent")
        );
        assert_eq!(
            partition(&[vec![1], vec![0]], 2),
            Err("the islands are not largest first, ties by smallest cell".into())
        );
        assert!(partition(&[vec![0, 1]], 3).is_err());
        assert_eq!(
            check_navigation(&Graph::new(UpAxis::Y), 5, 1).map(|r| r.pairs),
            Ok(0)
        );
    }
}
