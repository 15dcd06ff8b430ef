//! [`Navigator`]: a graph made ready for queries, and the queries themselves.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::graph::{CellId, Graph};
use super::landmarks::{LandmarkSets, Landmarks};
use super::search::{self, Adjacency, ScratchPool, Weight, distance};
use super::spatial::{Grid, Planned, polygon_contains, span_distance, surface, tolerance};

/// Why the navigator refuses a graph or a query.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NavError {
    /// The graph names cells or corners it does not hold ([`Graph::is_consistent`] is false).
    #[error("the navigation graph is not consistent: {0}")]
    Inconsistent(String),
    /// No cell has this id.
    #[error("no cell has the id {0}")]
    UnknownCell(CellId),
}

/// Where a point was found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Located {
    /// The cell, by its index in [`Graph::cells`].
    pub cell: u32,
    /// For a polygon cell, how far the point is above or below the cell's surface; for a node
    /// cell, the 3D distance from the node.
    pub distance: f32,
}

/// One end of a route: a cell by id, or a point that is located first ([`Navigator::locate`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Endpoint {
    /// A cell by the id users know.
    Cell(CellId),
    /// A point in the graph's coordinates.
    Point([f32; 3]),
}

/// A route between two cells, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The cell the route starts on (`None` when the start is a point on no cell).
    pub from: Option<u32>,
    /// The cell the route ends on (`None` when the end is a point on no cell).
    pub to: Option<u32>,
    /// The cells from `from` to `to`, both included, by index in [`Graph::cells`]; empty when
    /// unreachable.
    pub cells: Vec<u32>,
    /// The route's cost under the weight asked for (0 when unreachable).
    pub cost: f64,
    /// Whether a route exists.
    pub reachable: bool,
    /// Why not, when unreachable.
    pub reason: Option<String>,
}

impl Route {
    fn unreachable(from: Option<u32>, to: Option<u32>, reason: String) -> Self {
        Route {
            from,
            to,
            cells: Vec::new(),
            cost: 0.0,
            reachable: false,
            reason: Some(reason),
        }
    }
}

/// A [`Graph`] made ready for queries: built once (the adjacency in compressed rows, an id map
/// and a uniform grid over the cells' plan boxes), then asked any number of times, from any
/// number of threads.
///
/// - [`Navigator::locate`]: the cell under a point.
/// - [`Navigator::path`]: the cheapest route between two cells or points (A*).
/// - [`Navigator::islands`]: the connected components.
#[derive(Debug, Clone)]
pub struct Navigator {
    graph: Graph,
    ids: HashMap<CellId, u32>,
    adjacency: Adjacency,
    centres: Vec<Option<[f64; 3]>>,
    grid: Grid,
    /// The per-cell state of [`Navigator::path`]'s search, reused across queries.
    scratch: ScratchPool,
    /// Each cell's component label ([`Adjacency::components`]), every edge kind followed and
    /// walking only, made on the first route asked for: two cells of different labels have no
    /// route, which [`Navigator::path`] then answers without searching the whole component.
    components: [OnceLock<Vec<u32>>; 2],
    /// Landmarks for the searches of each weight, made on the first search of that weight.
    landmarks: LandmarkSets,
}

impl Navigator {
    /// Makes `graph` ready for queries. Refuses a graph that is not
    /// [consistent](Graph::is_consistent), naming the first fault. Where two cells share an id,
    /// [`Navigator::cell_index`] gives the first.
    pub fn new(graph: Graph) -> Result<Navigator, NavError> {
        if !graph.is_consistent() {
            return Err(NavError::Inconsistent(inconsistency(&graph)));
        }
        let mut ids = HashMap::with_capacity(graph.cells.len());
        for (i, cell) in graph.cells.iter().enumerate() {
            if let Ok(i) = u32::try_from(i) {
                ids.entry(cell.id).or_insert(i);
            }
        }
        let centres: Vec<Option<[f64; 3]>> = graph
            .cells
            .iter()
            .map(|c| {
                c.centre
                    .filter(|p| p.iter().all(|v| v.is_finite()))
                    .map(|p| p.map(f64::from))
            })
            .collect();
        Ok(Navigator {
            adjacency: Adjacency::build(&graph, &centres),
            grid: Grid::build(&graph),
            ids,
            centres,
            graph,
            scratch: ScratchPool::default(),
            components: [OnceLock::new(), OnceLock::new()],
            landmarks: LandmarkSets::default(),
        })
    }

    /// The graph the navigator was made from.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// The index of the cell with this id (the first, if several share it).
    pub fn cell_index(&self, id: CellId) -> Option<u32> {
        self.ids.get(&id).copied()
    }

    /// The ids of `cells` (indices in [`Graph::cells`]; an index past the cells is skipped).
    pub fn route_cells(&self, cells: &[u32]) -> Vec<CellId> {
        cells
            .iter()
            .filter_map(|&i| self.graph.cells.get(i as usize).map(|c| c.id))
            .collect()
    }

    /// How many distinct directed edges between different cells the navigator follows or
    /// blocks (repeats and edges from a cell to itself are dropped).
    pub fn edge_count(&self) -> usize {
        self.adjacency.len()
    }

    /// The cell under point `p`, or `None` when no cell covers it.
    ///
    /// - A polygon cell covers `p` when its polygon contains `p` seen from above (even-odd
    ///   rule; a point on an edge, within four `f32` ulps, counts). Its surface height there is
    ///   the plane of the fan triangle (corners `0 i i+1`) that contains the point, so a
    ///   non-planar quad is taken as the two triangles either side of its diagonal from corner
    ///   0; a concave polygon whose fan misses the point uses the plane of Newell's normal
    ///   through the corners' mean, and a vertical or degenerate one the span of its corners'
    ///   heights. `distance` is how far `p` is above or below that surface.
    /// - A node cell covers `p` when their plan distance is within its radius; `distance` is the
    ///   3D distance.
    ///
    /// Of the cells that cover `p` (stacked floors, a bridge over a tunnel) the one with the
    /// smallest `distance` wins, then the smallest index. A point that is not finite is on no
    /// cell.
    pub fn locate(&self, p: [f32; 3]) -> Option<Located> {
        let q = Planned::new(self.graph.up, p);
        if !q.is_finite() {
            return None;
        }
        let tol = tolerance(q.plan);
        let mut corners: Vec<Planned> = Vec::new();
        let mut best: Option<(f64, u32)> = None;
        for index in self.grid.candidates(q.plan) {
            let Some(d) = self.cover(index, q, tol, &mut corners) else {
                continue;
            };
            if best.is_none_or(|(bd, bi)| d < bd || (d == bd && index < bi)) {
                best = Some((d, index));
            }
        }
        best.map(|(d, cell)| Located {
            cell,
            #[allow(clippy::cast_possible_truncation)] // a distance between f32 points
            distance: d as f32,
        })
    }

    /// How far `q` is from cell `index` when the cell covers it (see [`Navigator::locate`]).
    /// `corners` is scratch space.
    fn cover(&self, index: u32, q: Planned, tol: f64, corners: &mut Vec<Planned>) -> Option<f64> {
        let polygon = self.graph.polygon(index);
        if polygon.len() >= 3 {
            corners.clear();
            corners.extend(polygon.iter().map(|&c| Planned::new(self.graph.up, c)));
            if !corners.iter().all(Planned::is_finite) || !polygon_contains(corners, q.plan, tol) {
                return None;
            }
            return Some(span_distance(surface(corners, q.plan), q.height));
        }
        let cell = self.graph.cells.get(index as usize)?;
        let radius = f64::from(cell.radius?);
        let centre = Planned::new(self.graph.up, cell.centre?);
        let (dx, dy) = (centre.plan[0] - q.plan[0], centre.plan[1] - q.plan[1]);
        let within = (dx * dx + dy * dy).sqrt() <= radius + tol; // false for NaN
        if !within {
            return None;
        }
        let dh = centre.height - q.height;
        Some((dx * dx + dy * dy + dh * dh).sqrt())
    }

    /// The height of cell `index`'s surface under `p` (a node's own height), when the cell
    /// covers `p` as [`Navigator::locate`] counts it: the middle of the span for a vertical or
    /// degenerate polygon. For the checks in [`crate::testing`].
    #[cfg(feature = "testing")]
    pub(crate) fn height_under(&self, index: u32, p: [f32; 3]) -> Option<f64> {
        let q = Planned::new(self.graph.up, p);
        let tol = tolerance(q.plan);
        self.cover(index, q, tol, &mut Vec::new())?;
        let polygon = self.graph.polygon(index);
        if polygon.len() >= 3 {
            let corners: Vec<Planned> = polygon
                .iter()
                .map(|&c| Planned::new(self.graph.up, c))
                .collect();
            let (lo, hi) = surface(&corners, q.plan);
            return Some(lo.midpoint(hi));
        }
        let centre = self.graph.cells.get(index as usize)?.centre?;
        Some(Planned::new(self.graph.up, centre).height)
    }

    /// The centre of cell `index` in `f64`, where it has a finite one.
    #[cfg(feature = "testing")]
    pub(crate) fn centre(&self, index: u32) -> Option<[f64; 3]> {
        self.centres.get(index as usize).copied().flatten()
    }

    /// The cheapest route from `from` to `to` under `weight`, following only the edges whose
    /// kind [`EdgeKind::followed`](super::EdgeKind::followed) allows under `walk_only`.
    ///
    /// A* over the directed edges: under [`Weight::Distance`] a step costs the 3D distance
    /// between the two cells' centres and the heuristic is the straight line to the goal's
    /// centre; under [`Weight::Hops`] a step costs 1 and the heuristic is 0. Both are
    /// admissible, so the route is a cheapest one (which of several equal ones is not
    /// specified).
    ///
    /// No route is an answer, not an error: [`Route::reachable`] is false and [`Route::reason`]
    /// says why (a point on no cell, a cell without a centre under [`Weight::Distance`], no
    /// followed edges between them). A cell id that no cell has is an error. A route from a
    /// cell to itself is that one cell, at cost 0.
    pub fn path(
        &self,
        from: Endpoint,
        to: Endpoint,
        weight: Weight,
        walk_only: bool,
    ) -> Result<Route, NavError> {
        let (start, end) = (self.resolve(from)?, self.resolve(to)?);
        let (a, b) = match (start, end) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(why), end) => {
                return Ok(Route::unreachable(None, end.ok(), format!("start {why}")));
            }
            (start, Err(why)) => {
                return Ok(Route::unreachable(start.ok(), None, format!("end {why}")));
            }
        };
        if a == b {
            return Ok(Route {
                from: Some(a),
                to: Some(b),
                cells: vec![a],
                cost: 0.0,
                reachable: true,
                reason: None,
            });
        }
        if weight == Weight::Distance {
            for cell in [a, b] {
                if self.centres.get(cell as usize).copied().flatten().is_none() {
                    let id = self.id_text(cell);
                    let why = format!("cell {id} has no centre, so no distance to or from it");
                    return Ok(Route::unreachable(Some(a), Some(b), why));
                }
            }
        }
        let labels = self.labels(walk_only);
        let apart = labels.get(a as usize) != labels.get(b as usize);
        let found = if apart {
            None
        } else {
            self.search((a, b), weight, walk_only, labels)
        };
        Ok(match found {
            Some((cells, cost)) => Route {
                from: Some(a),
                to: Some(b),
                cells,
                cost,
                reachable: true,
                reason: None,
            },
            None => {
                let how = if walk_only { " walking only" } else { "" };
                let why = match weight {
                    Weight::Distance => " between cells with centres",
                    Weight::Hops => "",
                };
                let reason = format!(
                    "no route from cell {} to cell {} follows the edges{how}{why}",
                    self.id_text(a),
                    self.id_text(b)
                );
                Route::unreachable(Some(a), Some(b), reason)
            }
        })
    }

    /// A* from cell `a` to cell `b` (different, of one component of `labels`), with the
    /// landmarks of `weight` and `walk_only`, made on the first search that needs them (none
    /// for a graph too large for them).
    fn search(
        &self,
        (a, b): (u32, u32),
        weight: Weight,
        walk_only: bool,
        labels: &[u32],
    ) -> Option<(Vec<u32>, f64)> {
        let marks = self
            .landmarks
            .get(weight, walk_only, self.graph.cells.len(), || {
                Landmarks::build(&self.adjacency, labels, weight, walk_only)
            });
        let bound = marks.bound_to(b);
        self.scratch.with(|scratch| {
            self.adjacency
                .astar(&self.centres, (a, b), weight, walk_only, bound, scratch)
        })
    }

    /// An endpoint's cell: `Err(NavError)` for an unknown id, `Ok(Err(reason))` for a point on
    /// no cell.
    #[allow(clippy::type_complexity)]
    fn resolve(&self, end: Endpoint) -> Result<Result<u32, String>, NavError> {
        match end {
            Endpoint::Cell(id) => self.cell_index(id).map(Ok).ok_or(NavError::UnknownCell(id)),
            Endpoint::Point(p) => Ok(self
                .locate(p)
                .map(|l| l.cell)
                .ok_or_else(|| format!("point ({}, {}, {}) is on no cell", p[0], p[1], p[2]))),
        }
    }

    /// A cell's id as text (its index if past the cells, which no caller passes).
    fn id_text(&self, cell: u32) -> String {
        self.graph
            .cells
            .get(cell as usize)
            .map_or_else(|| format!("#{cell}"), |c| c.id.to_string())
    }

    /// The connected components over the edges followed under `walk_only`, **each edge taken
    /// both ways** (a one-way drop joins the two cells it links): every cell is in exactly one
    /// island. Largest first, ties by smallest cell index; each island's cells (indices in
    /// [`Graph::cells`]) sorted.
    pub fn islands(&self, walk_only: bool) -> Vec<Vec<u32>> {
        search::islands(self.labels(walk_only))
    }

    /// Each cell's component label under `walk_only`, made on first use and kept.
    fn labels(&self, walk_only: bool) -> &[u32] {
        self.components[usize::from(walk_only)]
            .get_or_init(|| self.adjacency.components(self.graph.cells.len(), walk_only))
    }

    /// Checks that `route` (as [`Navigator::path`] gave it for `weight` and `walk_only`) is a
    /// route of this graph: every step is an edge whose kind is followed, it starts at
    /// `route.from` and ends at `route.to`, and its cost is the sum of its steps' costs (within
    /// 1e-9 relative). Says what is wrong.
    pub fn check_route(
        &self,
        route: &Route,
        weight: Weight,
        walk_only: bool,
    ) -> Result<(), String> {
        if !route.reachable {
            return if route.cells.is_empty() && route.reason.is_some() {
                Ok(())
            } else {
                Err("an unreachable route has cells or no reason".into())
            };
        }
        let (Some(&first), Some(&last)) = (route.cells.first(), route.cells.last()) else {
            return Err("a reachable route has no cells".into());
        };
        if Some(first) != route.from || Some(last) != route.to {
            return Err(format!(
                "the route runs {first}..{last} but says {:?}..{:?}",
                route.from, route.to
            ));
        }
        let mut cost = 0.0;
        for step in route.cells.windows(2) {
            let (a, b) = (step[0], step[1]);
            if !self.adjacency.follows(a, b, walk_only) {
                return Err(format!(
                    "step {} -> {} is not a followed edge",
                    self.id_text(a),
                    self.id_text(b)
                ));
            }
            cost += match weight {
                Weight::Hops => 1.0,
                Weight::Distance => {
                    let centre = |c: u32| self.centres.get(c as usize).copied().flatten();
                    match (centre(a), centre(b)) {
                        (Some(pa), Some(pb)) => distance(pa, pb),
                        _ => return Err(format!("step {a} -> {b} crosses a cell without centre")),
                    }
                }
            };
        }
        if (cost - route.cost).abs() > 1e-9 * cost.abs().max(1.0) {
            return Err(format!(
                "the route's steps cost {cost}, it says {}",
                route.cost
            ));
        }
        Ok(())
    }
}

/// The first thing that makes `graph` inconsistent, in words.
fn inconsistency(graph: &Graph) -> String {
    let n = graph.cells.len();
    if let Some((i, e)) = graph
        .edges
        .iter()
        .enumerate()
        .find(|(_, e)| e.from as usize >= n || e.to as usize >= n)
    {
        return format!("edge {i} links cell {} to cell {}, of {n}", e.from, e.to);
    }
    if let Some((i, e)) = graph
        .exits
        .iter()
        .enumerate()
        .find(|(_, e)| e.from as usize >= n)
    {
        return format!("exit {i} leaves cell {}, of {n}", e.from);
    }
    let corners = graph.corners.len();
    match graph.cells.iter().find(|c| {
        (c.corners.0 as usize)
            .checked_add(c.corners.1 as usize)
            .is_none_or(|end| end > corners)
    }) {
        Some(c) => format!(
            "cell {}'s corners {}+{} run past the {corners} corners",
            c.id, c.corners.0, c.corners.1
        ),
        None => "it says it is not".into(),
    }
}
