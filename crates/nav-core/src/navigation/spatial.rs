//! Which cells lie under a point: plan-view geometry and a uniform grid over the cells' plan
//! bounding boxes.
//!
//! Everything here works in `f64` on the two plan coordinates ([`UpAxis::plan`]) and the height
//! (the remaining axis). A point counts as inside a polygon when it is inside by the even-odd
//! rule or within a border tolerance of one of its edges ([`tolerance`]), so a point on a shared
//! border lies on both cells.

use crate::geometry::UpAxis;

use super::graph::Graph;

/// A point split into its plan coordinates (east, north) and its height.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Planned {
    /// East and north, as [`UpAxis::plan`] gives them.
    pub(crate) plan: [f64; 2],
    /// The coordinate along the up axis.
    pub(crate) height: f64,
}

impl Planned {
    /// `p` in `up`'s convention, split.
    pub(crate) fn new(up: UpAxis, p: [f32; 3]) -> Self {
        let (east, north) = up.plan(p);
        let height = match up {
            UpAxis::Z => p[2],
            UpAxis::Y => p[1],
        };
        Planned {
            plan: [f64::from(east), f64::from(north)],
            height: f64::from(height),
        }
    }

    /// Whether every coordinate is finite.
    pub(crate) fn is_finite(&self) -> bool {
        self.plan.iter().all(|c| c.is_finite()) && self.height.is_finite()
    }
}

/// How close to a polygon's edge (in plan, world units) a point still counts as on the border:
/// four `f32` ulps of the larger plan coordinate, since corners are stored as `f32`.
pub(crate) fn tolerance(q: [f64; 2]) -> f64 {
    let magnitude = q[0].abs().max(q[1].abs());
    4.0 * f64::from(f32::EPSILON) * (1.0 + magnitude)
}

/// The squared plan distance from `q` to the segment `a`–`b`.
fn segment_distance2(a: [f64; 2], b: [f64; 2], q: [f64; 2]) -> f64 {
    let (dx, dy) = (b[0] - a[0], b[1] - a[1]);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((q[0] - a[0]) * dx + (q[1] - a[1]) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (ex, ey) = (a[0] + t * dx - q[0], a[1] + t * dy - q[1]);
    ex * ex + ey * ey
}

/// Whether the polygon whose plan corners are `corners` contains `q`: inside by the even-odd
/// rule, or within `tol` of an edge. Fewer than three corners contain nothing.
pub(crate) fn polygon_contains(corners: &[Planned], q: [f64; 2], tol: f64) -> bool {
    let n = corners.len();
    if n < 3 {
        return false;
    }
    let tol2 = tol * tol;
    let mut inside = false;
    let mut j = n - 1;
    for (i, ci) in corners.iter().enumerate() {
        let (a, b) = (corners[j].plan, ci.plan);
        if segment_distance2(a, b, q) <= tol2 {
            return true;
        }
        if (b[1] > q[1]) != (a[1] > q[1]) {
            let x = (a[0] - b[0]) * (q[1] - b[1]) / (a[1] - b[1]) + b[0];
            if q[0] < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// The surface of a polygon over a plan point, as a height range: one height where the surface
/// is a plane there, the corners' span where it is vertical or degenerate.
pub(crate) type Span = (f64, f64);

/// How far `height` is from `span` (0 inside it).
pub(crate) fn span_distance(span: Span, height: f64) -> f64 {
    (span.0 - height).max(height - span.1).max(0.0)
}

/// The height over `q` of the plane through triangle `a b c`, or `None` when `q` is outside the
/// triangle (beyond a relative tolerance) or the triangle has no area in plan.
fn triangle_height(a: Planned, b: Planned, c: Planned, q: [f64; 2]) -> Option<f64> {
    let (abx, aby) = (b.plan[0] - a.plan[0], b.plan[1] - a.plan[1]);
    let (acx, acy) = (c.plan[0] - a.plan[0], c.plan[1] - a.plan[1]);
    let (aqx, aqy) = (q[0] - a.plan[0], q[1] - a.plan[1]);
    let det = abx * acy - aby * acx;
    let scale = (abx.abs() + aby.abs()) * (acx.abs() + acy.abs());
    let has_area = det.abs() > 1e-12 * scale; // false for NaN
    if !has_area {
        return None;
    }
    let u = (aqx * acy - aqy * acx) / det;
    let v = (abx * aqy - aby * aqx) / det;
    const SLACK: f64 = 1e-6;
    if u < -SLACK || v < -SLACK || u + v > 1.0 + SLACK {
        return None;
    }
    Some(a.height + u * (b.height - a.height) + v * (c.height - a.height))
}

/// The surface height of a polygon over `q` (a point it contains):
///
/// - a triangle: its plane;
/// - more corners: the first triangle of the fan from corner 0 (`0 1 2`, `0 2 3`, …) that
///   contains `q`, so a non-planar quad is the two triangles either side of its diagonal `0–2`;
/// - where no fan triangle holds `q` (a concave polygon whose fan leaves it) the plane through the
///   corners' mean with Newell's normal;
/// - where that plane is vertical, or the polygon has no area in plan, the span of the corners'
///   heights.
pub(crate) fn surface(corners: &[Planned], q: [f64; 2]) -> Span {
    if let Some(first) = corners.first() {
        for pair in corners.get(1..).unwrap_or_default().windows(2) {
            if let Some(h) = triangle_height(*first, pair[0], pair[1], q) {
                return (h, h);
            }
        }
    }
    newell_height(corners, q).map_or_else(|| height_span(corners), |h| (h, h))
}

/// The height over `q` of the plane through the corners' mean with Newell's normal, or `None`
/// when that plane is (nearly) vertical.
fn newell_height(corners: &[Planned], q: [f64; 2]) -> Option<f64> {
    let n = corners.len();
    if n < 3 {
        return None;
    }
    let mut normal = [0f64; 3];
    let mut mean = [0f64; 3];
    for (i, a) in corners.iter().enumerate() {
        let b = corners[(i + 1) % n];
        let (a3, b3) = (
            [a.plan[0], a.plan[1], a.height],
            [b.plan[0], b.plan[1], b.height],
        );
        normal[0] += (a3[1] - b3[1]) * (a3[2] + b3[2]);
        normal[1] += (a3[2] - b3[2]) * (a3[0] + b3[0]);
        normal[2] += (a3[0] - b3[0]) * (a3[1] + b3[1]);
        for (m, v) in mean.iter_mut().zip(a3) {
            *m += v;
        }
    }
    let count = n as f64;
    let mean = mean.map(|m| m / count);
    let length = normal.iter().map(|c| c * c).sum::<f64>().sqrt();
    let tilted = normal[2].abs() > 1e-9 * length; // false for NaN
    if !tilted {
        return None;
    }
    let h = mean[2] - (normal[0] * (q[0] - mean[0]) + normal[1] * (q[1] - mean[1])) / normal[2];
    h.is_finite().then_some(h)
}

/// The lowest and highest corner heights.
fn height_span(corners: &[Planned]) -> Span {
    corners
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), c| {
            (lo.min(c.height), hi.max(c.height))
        })
}

/// A plan bounding box: min east, min north, max east, max north.
type Bounds = [f64; 4];

/// How many grid squares one cell may cover before it goes on the list every query checks.
const MAX_SQUARES_PER_CELL: usize = 64;

/// A uniform grid over the cells' plan bounding boxes: each square lists the cells whose box
/// (widened by the border tolerance) overlaps it. Cells too large for the grid, over
/// [`MAX_SQUARES_PER_CELL`] squares, are listed once and checked by every query, so the grid
/// holds at most that many entries per cell.
#[derive(Debug, Clone, Default)]
pub(crate) struct Grid {
    /// The grid's lower corner in plan.
    origin: [f64; 2],
    /// Squares per world unit, east and north.
    scale: [f64; 2],
    /// Squares east and north (0 for an empty grid).
    dims: [usize; 2],
    /// Where each square's run starts in `items` (`dims[0] * dims[1] + 1` entries).
    starts: Vec<usize>,
    /// Cell indices, square by square.
    items: Vec<u32>,
    /// Cells every query checks.
    large: Vec<u32>,
}

/// A cell's plan box widened by the border tolerance, or `None` for a cell nothing can be
/// located on (no polygon, no usable node radius, a coordinate that is not finite).
fn cell_bounds(graph: &Graph, index: u32) -> Option<Bounds> {
    let cell = graph.cells.get(index as usize)?;
    let mut b = [
        f64::INFINITY,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
    ];
    let mut extend = |q: [f64; 2], r: f64| {
        b = [
            b[0].min(q[0] - r),
            b[1].min(q[1] - r),
            b[2].max(q[0] + r),
            b[3].max(q[1] + r),
        ];
    };
    let polygon = graph.polygon(index);
    if polygon.len() >= 3 {
        for &corner in polygon {
            extend(Planned::new(graph.up, corner).plan, 0.0);
        }
    } else {
        let (Some(centre), Some(radius)) = (cell.centre, cell.radius) else {
            return None;
        };
        let radius = f64::from(radius);
        let usable = radius >= 0.0; // false for NaN
        if !usable {
            return None;
        }
        extend(Planned::new(graph.up, centre).plan, radius);
    }
    if !b.iter().all(|v| v.is_finite()) {
        return None;
    }
    let tol = 2.0 * tolerance([b[0].abs().max(b[2].abs()), b[1].abs().max(b[3].abs())]);
    Some([b[0] - tol, b[1] - tol, b[2] + tol, b[3] + tol])
}

impl Grid {
    /// The grid over every cell of `graph` that something can be located on.
    pub(crate) fn build(graph: &Graph) -> Self {
        let boxes: Vec<(u32, Bounds)> = (0..graph.cells.len())
            .filter_map(|i| {
                let i = u32::try_from(i).ok()?;
                cell_bounds(graph, i).map(|b| (i, b))
            })
            .collect();
        if boxes.is_empty() {
            return Grid::default();
        }
        let all = boxes.iter().fold(
            [
                f64::INFINITY,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
            ],
            |a, (_, b)| {
                [
                    a[0].min(b[0]),
                    a[1].min(b[1]),
                    a[2].max(b[2]),
                    a[3].max(b[3]),
                ]
            },
        );
        let extent = [all[2] - all[0], all[3] - all[1]];
        // About one square per cell, the squares no smaller than the average cell.
        let count = boxes.len() as f64;
        let mean_side = boxes
            .iter()
            .map(|(_, b)| ((b[2] - b[0]) + (b[3] - b[1])) / 2.0)
            .sum::<f64>()
            / count;
        let side = (extent[0] * extent[1] / count)
            .sqrt()
            .max(mean_side)
            .max(f64::MIN_POSITIVE);
        let dim = |e: f64| -> usize {
            let d = (e / side).ceil();
            if d.is_finite() && d >= 1.0 {
                // At most 4096 squares a side (and about one per cell overall, below).
                #[allow(clippy::cast_possible_truncation)] // clamped to 1..=4096 first
                let d = d.min(4096.0) as usize;
                d
            } else {
                1
            }
        };
        let mut dims = [dim(extent[0]), dim(extent[1])];
        while dims[0].saturating_mul(dims[1]) > 4 * boxes.len() + 16 {
            dims = [dims[0].div_ceil(2), dims[1].div_ceil(2)];
        }
        let scale = [0, 1].map(|a| {
            let s = dims[a] as f64 / extent[a];
            if s.is_finite() { s } else { 0.0 }
        });
        let mut grid = Grid {
            origin: [all[0], all[1]],
            scale,
            dims,
            starts: vec![0; dims[0] * dims[1] + 1],
            items: Vec::new(),
            large: Vec::new(),
        };
        // Count, then place: the squares' runs in one array.
        let mut placed = Vec::with_capacity(boxes.len());
        for &(i, b) in &boxes {
            let (x0, y0) = (grid.square(0, b[0]), grid.square(1, b[1]));
            let (x1, y1) = (grid.square(0, b[2]), grid.square(1, b[3]));
            if (x1 - x0 + 1).saturating_mul(y1 - y0 + 1) > MAX_SQUARES_PER_CELL {
                grid.large.push(i);
                continue;
            }
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(s) = grid.starts.get_mut(y * dims[0] + x + 1) {
                        *s += 1;
                    }
                }
            }
            placed.push((i, [x0, y0, x1, y1]));
        }
        for k in 1..grid.starts.len() {
            grid.starts[k] += grid.starts[k - 1];
        }
        let mut next = grid.starts.clone();
        grid.items = vec![0; grid.starts.last().copied().unwrap_or(0)];
        for (i, [x0, y0, x1, y1]) in placed {
            for y in y0..=y1 {
                for x in x0..=x1 {
                    if let Some(at) = next.get_mut(y * dims[0] + x) {
                        if let Some(slot) = grid.items.get_mut(*at) {
                            *slot = i;
                        }
                        *at += 1;
                    }
                }
            }
        }
        grid
    }

    /// The square along axis `axis` (0 east, 1 north) that coordinate `v` falls in, clamped to
    /// the grid.
    fn square(&self, axis: usize, v: f64) -> usize {
        let last = self.dims[axis].saturating_sub(1);
        let s = ((v - self.origin[axis]) * self.scale[axis]).floor();
        if s >= 0.0 {
            // In range: clamped to the last square before the cast.
            #[allow(clippy::cast_possible_truncation)]
            let s = s.min(last as f64) as usize;
            s
        } else {
            0
        }
    }

    /// The cells whose box may hold plan point `q` (a superset: each must still be tested).
    pub(crate) fn candidates(&self, q: [f64; 2]) -> impl Iterator<Item = u32> + '_ {
        let here = if self.dims[0] == 0 {
            &[][..]
        } else {
            let k = self.square(1, q[1]) * self.dims[0] + self.square(0, q[0]);
            match (self.starts.get(k), self.starts.get(k + 1)) {
                (Some(&a), Some(&b)) => self.items.get(a..b).unwrap_or_default(),
                _ => &[],
            }
        };
        here.iter().chain(&self.large).copied()
    }

    /// How many entries the grid holds, the large list included.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> usize {
        self.items.len() + self.large.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planned(points: &[[f64; 3]]) -> Vec<Planned> {
        points
            .iter()
            .map(|p| Planned {
                plan: [p[0], p[1]],
                height: p[2],
            })
            .collect()
    }

    #[test]
    fn borders_count_and_the_even_odd_rule_holds_inside() {
        let square = planned(&[[0., 0., 0.], [2., 0., 0.], [2., 2., 0.], [0., 2., 0.]]);
        let tol = tolerance([2.0, 2.0]);
        for q in [[1.0, 1.0], [0.0, 0.0], [2.0, 1.0], [1.0, 2.0], [0.0, 1.3]] {
            assert!(polygon_contains(&square, q, tol), "{q:?}");
        }
        for q in [[-0.01, 1.0], [2.01, 2.0], [1.0, 3.0]] {
            assert!(!polygon_contains(&square, q, tol), "{q:?}");
        }
        // Concave: an L whose notch is outside.
        let l = planned(&[
            [0., 0., 0.],
            [2., 0., 0.],
            [2., 1., 0.],
            [1., 1., 0.],
            [1., 2., 0.],
            [0., 2., 0.],
        ]);
        assert!(polygon_contains(&l, [0.5, 1.5], tol));
        assert!(!polygon_contains(&l, [1.5, 1.5], tol));
        assert!(!polygon_contains(&l[..2], [1.0, 0.0], tol));
    }

    #[test]
    fn surfaces_follow_the_fan_and_fall_back_to_a_span() {
        // A quad folded along its diagonal 0-2: corner 1 raised.
        let quad = planned(&[[0., 0., 0.], [2., 0., 2.], [2., 2., 0.], [0., 2., 0.]]);
        assert_eq!(surface(&quad, [1.5, 0.5]), (1.0, 1.0));
        assert_eq!(surface(&quad, [0.5, 1.5]), (0.0, 0.0));
        // A vertical wall has no plane over its footprint: the corners' span.
        let wall = planned(&[[0., 0., 0.], [1., 0., 0.], [1., 0., 5.], [0., 0., 5.]]);
        assert_eq!(surface(&wall, [0.5, 0.0]), (0.0, 5.0));
        assert_eq!(span_distance((0.0, 5.0), 7.0), 2.0);
        assert_eq!(span_distance((0.0, 5.0), 3.0), 0.0);
        // A concave polygon whose fan leaves it: Newell's plane (here the flat z = 4).
        let dart = planned(&[[0., 0., 4.], [4., 2., 4.], [0., 4., 4.], [1., 2., 4.]]);
        assert_eq!(surface(&dart, [0.5, 2.0]).0, 4.0);
    }

    #[test]
    fn the_grid_finds_every_cell_under_a_point() {
        let mut g = Graph::new(UpAxis::Z);
        for i in 0..100u64 {
            #[allow(clippy::cast_precision_loss)]
            let (x, y) = ((i % 10) as f32, (i / 10) as f32);
            let c = [[x, y, 0.0], [x + 1.0, y, 0.0], [x + 1.0, y + 1.0, 0.0]];
            g.add_polygon_cell(super::super::CellId::new(i), &c);
        }
        // One cell covers everything: it goes on the large list.
        let big = [[-50.0, -50.0, 9.0], [60.0, -50.0, 9.0], [0.0, 60.0, 9.0]];
        g.add_polygon_cell(super::super::CellId::new(100), &big);
        let grid = Grid::build(&g);
        assert!(grid.entries() < 100 * MAX_SQUARES_PER_CELL);
        let found: Vec<u32> = grid.candidates([3.5, 4.2]).collect();
        assert!(found.contains(&43) && found.contains(&100), "{found:?}");
        assert!(Grid::default().candidates([0.0, 0.0]).next().is_none());
    }
}
