//! Landmarks: a lower bound of a route's cost, sharper than the straight line, for A*.
//!
//! For a few cells `L` (the landmarks), the cost of the cheapest route from `L` to every cell
//! and from every cell to `L` is computed once. The triangle inequality then bounds the cost
//! of any route from `v` to `t` from below by `d(L, t) − d(L, v)` and by `d(v, L) − d(t, L)`;
//! the largest of these bounds over the landmarks, and the straight line, is a consistent
//! heuristic that steers A* along corridors and around walls that the straight line ignores.
//! On `vrf_de_mirage_v35.nav` it halves the cells a search closes.
//!
//! The bounds also prove a route impossible: when a landmark reaches `v` but not `t`, or `t`
//! reaches a landmark that `v` cannot, no route leads from `v` to `t`, and the search drops `v`
//! at once.
//!
//! Landmarks cost one Dijkstra per landmark and direction (about as much as a few dozen routes
//! on a map), made on the first route of a weight that needs a search, and kept.

use std::sync::OnceLock;

use super::search::{Adjacency, Weight};

/// The landmarks of one weight and one choice of followed edges.
#[derive(Debug, Clone)]
pub(crate) struct Landmarks {
    /// How many landmarks there are (0: none, every bound is 0).
    count: usize,
    /// Per cell, its costs from and to each landmark (one cache line a cell).
    rows: Vec<Row>,
    /// What every bound is lowered by: [`MARGIN`] of the largest finite cost.
    margin: f64,
}

/// One cell's costs from and to each landmark, as `f32` (infinite where no route; NaN past the
/// last landmark, which every bound passes over).
#[derive(Debug, Clone, Copy)]
struct Row {
    /// From each landmark to the cell.
    from: [f32; Landmarks::MAX],
    /// From the cell to each landmark.
    to: [f32; Landmarks::MAX],
}

/// How much a bound is lowered, relative to the largest landmark cost, so that rounding (of the
/// costs to `f32`, and of the differences) can never make it exceed a route's true cost: each
/// rounding is at most 2⁻²⁴ of the largest cost, and there are three.
const MARGIN: f64 = 1.0 / (1u32 << 20) as f64;

/// The largest cost kept as `f32`: a graph whose landmark costs go past it gets no landmarks.
const LARGEST: f64 = 1e30;

impl Landmarks {
    /// The largest number of landmarks made.
    const MAX: usize = 8;

    /// The largest graph given landmarks. Making them costs about a microsecond a cell (17
    /// Dijkstras), paid by the first route asked for: at most some 80 ms, and 4 MiB kept. A
    /// larger graph is searched with the straight line alone, so that one route over a whole
    /// game's plugin does not wait for a second of set-up.
    const LARGEST_GRAPH: usize = 1 << 16;

    /// No landmarks: every bound is 0.
    const fn none() -> Self {
        Landmarks {
            count: 0,
            rows: Vec::new(),
            margin: 0.0,
        }
    }

    /// The landmarks of `adjacency` under `weight` and `walk_only`, in the largest component of
    /// `labels` (each cell's component label): the cell farthest from the component's first
    /// cell, then each time the cell farthest, either way, from every landmark chosen so far.
    pub(crate) fn build(
        adjacency: &Adjacency,
        labels: &[u32],
        weight: Weight,
        walk_only: bool,
    ) -> Self {
        let n = labels.len();
        let mut sizes = vec![0u32; n];
        for &label in labels {
            if let Some(s) = sizes.get_mut(label as usize) {
                *s += 1;
            }
        }
        let largest = (0..n).max_by_key(|&i| (sizes.get(i).copied(), core::cmp::Reverse(i)));
        let Some(largest) = largest.and_then(|i| u32::try_from(i).ok()) else {
            return Self::none();
        };
        let in_largest = |i: usize| labels.get(i) == Some(&largest);
        // The cell of the component farthest by `nearest` (a cell no landmark reaches nor is
        // reached from is the farthest); the smallest index among ties.
        let farthest = |nearest: &[f64]| -> Option<u32> {
            let mut pick: Option<(f64, usize)> = None;
            for (i, &d) in nearest.iter().enumerate() {
                if in_largest(i) && pick.is_none_or(|(best, _)| d > best) {
                    pick = Some((d, i));
                }
            }
            pick.and_then(|(_, i)| u32::try_from(i).ok())
        };
        let reversed = adjacency.reversed();
        let mut rows = vec![
            Row {
                from: [f32::NAN; Self::MAX],
                to: [f32::NAN; Self::MAX],
            };
            n
        ];
        let mut largest_cost = 0.0f64;
        let mut count = 0;
        let mut nearest = adjacency.distances(largest, weight, walk_only);
        while count < Self::MAX {
            let Some(next) = farthest(&nearest) else {
                break;
            };
            if count == 0 {
                nearest.fill(f64::INFINITY);
            } else if nearest.get(next as usize) == Some(&0.0) {
                break; // every cell the landmarks reach is a landmark already
            }
            let from = adjacency.distances(next, weight, walk_only);
            let to = reversed.distances(next, weight, walk_only);
            for (cell, row) in rows.iter_mut().enumerate() {
                let (a, b) = (from.get(cell).copied(), to.get(cell).copied());
                let (a, b) = (a.unwrap_or(f64::INFINITY), b.unwrap_or(f64::INFINITY));
                for d in [a, b] {
                    if d.is_finite() {
                        largest_cost = largest_cost.max(d);
                    }
                }
                if let (Some(f), Some(t), Some(m)) = (
                    row.from.get_mut(count),
                    row.to.get_mut(count),
                    nearest.get_mut(cell),
                ) {
                    // Rounded to nearest; MARGIN covers it. Infinity stays infinity.
                    #[allow(clippy::cast_possible_truncation)]
                    {
                        (*f, *t) = (a as f32, b as f32);
                    }
                    *m = m.min(a).min(b);
                }
            }
            count += 1;
        }
        if largest_cost > LARGEST {
            return Self::none();
        }
        Landmarks {
            count,
            rows,
            margin: MARGIN * largest_cost,
        }
    }

    /// A lower bound of the cost of any route from a cell to `goal` (infinite where none can
    /// exist), for [`Adjacency::astar`].
    pub(crate) fn bound_to(&self, goal: u32) -> impl Fn(u32) -> f64 + '_ {
        let goal = self.rows.get(goal as usize).copied();
        // Where a landmark reaches the cell but not the goal (or the goal reaches a landmark
        // the cell cannot), a difference is +∞: no route. Where it reaches neither, or past the
        // last landmark, the difference is NaN, which the comparisons pass over.
        move |cell| {
            let (Some(goal), Some(row)) = (goal, self.rows.get(cell as usize)) else {
                return 0.0;
            };
            if self.count == 0 {
                return 0.0;
            }
            let mut best = 0.0f32;
            for k in 0..Self::MAX {
                let d = goal.from[k] - row.from[k];
                best = if d > best { d } else { best };
                let d = row.to[k] - goal.to[k];
                best = if d > best { d } else { best };
            }
            f64::from(best) - self.margin
        }
    }
}

/// The landmarks of a graph given none.
static NONE: Landmarks = Landmarks::none();

/// The landmarks a navigator makes, one set per weight and choice of followed edges, each on
/// the first search that needs it, and kept. Every search of a graph that has landmarks uses
/// them, so that a query's answer never depends on the queries asked before it (among routes of
/// equal cost, A* with other bounds may pick another). A clone keeps the sets made.
#[derive(Debug, Clone, Default)]
pub(crate) struct LandmarkSets {
    /// The sets, by [`LandmarkSets::slot`].
    sets: [OnceLock<Landmarks>; 4],
}

impl LandmarkSets {
    /// Where the set of `weight` and `walk_only` is kept.
    fn slot(weight: Weight, walk_only: bool) -> usize {
        let w = match weight {
            Weight::Distance => 0,
            Weight::Hops => 2,
        };
        w + usize::from(walk_only)
    }

    /// The landmarks of `weight` and `walk_only` for a graph of `cells` cells, made by `make` the
    /// first time; none (every bound 0) for a graph too large to be given landmarks.
    pub(crate) fn get(
        &self,
        weight: Weight,
        walk_only: bool,
        cells: usize,
        make: impl FnOnce() -> Landmarks,
    ) -> &Landmarks {
        match self.sets.get(Self::slot(weight, walk_only)) {
            Some(set) if cells <= Landmarks::LARGEST_GRAPH => set.get_or_init(make),
            _ => &NONE,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::graph::{CellId, EdgeKind, Graph};
    use super::*;
    use crate::geometry::UpAxis;

    /// Each cell's centre in `f64`, as the navigator keeps them.
    fn centres_of(g: &Graph) -> Vec<Option<[f64; 3]>> {
        g.cells
            .iter()
            .map(|c| c.centre.map(|p| p.map(f64::from)))
            .collect()
    }

    /// A line of cells 0-1-2-3 (walk both ways) with a one-way drop 3 → 4.
    fn line() -> (Adjacency, Vec<u32>) {
        let mut g = Graph::new(UpAxis::Z);
        for i in 0..5u8 {
            let x = f32::from(i) * 2.0;
            g.add_polygon_cell(
                CellId::new(u64::from(i)),
                &[[x, 0.0, 0.0], [x + 1.0, 0.0, 0.0], [x, 1.0, 0.0]],
            );
        }
        for i in 0..3 {
            g.add_edge(i, i + 1, EdgeKind::Walk);
            g.add_edge(i + 1, i, EdgeKind::Walk);
        }
        g.add_edge(3, 4, EdgeKind::Drop);
        let centres = centres_of(&g);
        let adjacency = Adjacency::build(&g, &centres);
        let labels = adjacency.components(g.cells.len(), false);
        (adjacency, labels)
    }

    #[test]
    fn bounds_never_exceed_the_true_cost_and_prove_dead_ends() {
        let (adjacency, labels) = line();
        let marks = Landmarks::build(&adjacency, &labels, Weight::Hops, false);
        assert!(marks.count >= 2, "{marks:?}");
        for goal in 0..5u32 {
            let truth = adjacency.distances(goal, Weight::Hops, false);
            let reversed = adjacency.reversed().distances(goal, Weight::Hops, false);
            let bound = marks.bound_to(goal);
            for cell in 0..5u32 {
                let cost = reversed[cell as usize];
                let b = bound(cell);
                assert!(b <= cost, "{cell} -> {goal}: bound {b}, cost {cost}");
                // From the end of the drop nothing leads back: the bound says so.
                if cell == 4 && goal != 4 {
                    assert_eq!(b, f64::INFINITY, "{cell} -> {goal}");
                }
            }
            assert_eq!(truth[goal as usize], 0.0);
        }
        // Along the line, the landmarks at its ends make the bound exact.
        assert_eq!(marks.bound_to(3)(0), 3.0 - 4.0 * MARGIN);
        assert!(marks.count < Landmarks::MAX, "{marks:?}");
    }

    #[test]
    fn astar_with_landmarks_costs_what_dijkstra_does() {
        // A 12 x 12 grid of squares with some walls and some one-way drops, two islands.
        let (w, h) = (12u32, 12u32);
        let mut g = Graph::new(UpAxis::Z);
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for y in 0..h {
            for x in 0..w {
                let (fx, fy) = (
                    f32::from(u16::try_from(x).unwrap_or(0)),
                    f32::from(u16::try_from(y).unwrap_or(0)),
                );
                let z = f32::from(u16::try_from(next() % 3).unwrap_or(0));
                g.add_polygon_cell(
                    CellId::new(u64::from(y * w + x)),
                    &[
                        [fx, fy, z],
                        [fx + 1.0, fy, z],
                        [fx + 1.0, fy + 1.0, z],
                        [fx, fy + 1.0, z],
                    ],
                );
            }
        }
        for y in 0..h {
            for x in 0..w {
                let c = y * w + x;
                for n in [(x + 1 < w).then(|| c + 1), (y + 1 < h).then(|| c + w)] {
                    let Some(n) = n else { continue };
                    if x == 6 && n == c + 1 {
                        continue; // a wall down the middle, but for one drop
                    }
                    match next() % 10 {
                        0 => {}                                // wall
                        1 => g.add_edge(c, n, EdgeKind::Drop), // one way
                        _ => {
                            g.add_edge(c, n, EdgeKind::Walk);
                            g.add_edge(n, c, EdgeKind::Walk);
                        }
                    }
                }
            }
        }
        g.add_edge(6 * w + 6, 6 * w + 7, EdgeKind::Drop);
        let centres = centres_of(&g);
        let adjacency = Adjacency::build(&g, &centres);
        let mut scratch = super::super::search::Scratch::default();
        for (weight, walk_only) in [
            (Weight::Distance, false),
            (Weight::Distance, true),
            (Weight::Hops, false),
        ] {
            let labels = adjacency.components(g.cells.len(), walk_only);
            let marks = Landmarks::build(&adjacency, &labels, weight, walk_only);
            assert_eq!(marks.count, Landmarks::MAX);
            for from in (0..w * h).step_by(7) {
                let truth = adjacency.distances(from, weight, walk_only);
                for to in (0..w * h).step_by(5).filter(|&to| to != from) {
                    let route = (from, to);
                    let with = adjacency.astar(
                        &centres,
                        route,
                        weight,
                        walk_only,
                        marks.bound_to(to),
                        &mut scratch,
                    );
                    let without =
                        adjacency.astar(&centres, route, weight, walk_only, |_| 0.0, &mut scratch);
                    let expected = truth[to as usize];
                    for found in [&with, &without] {
                        match found {
                            Some((_, cost)) => assert!(
                                (cost - expected).abs() <= 1e-9 * expected,
                                "{route:?} {weight:?}: {cost} against {expected}"
                            ),
                            None => assert_eq!(expected, f64::INFINITY, "{route:?} {weight:?}"),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn an_empty_graph_has_no_landmarks() {
        let g = Graph::new(UpAxis::Z);
        let adjacency = Adjacency::build(&g, &[]);
        let marks = Landmarks::build(&adjacency, &[], Weight::Distance, true);
        assert_eq!(marks.count, 0);
        assert_eq!(marks.bound_to(0)(0), 0.0);
    }
}
