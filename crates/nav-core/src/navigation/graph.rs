//! The graph a format builds from its model: cells, directed edges and exits.

use core::fmt;

use crate::geometry::UpAxis;

/// A cell's id as the format's users know it: a Source area id, a node index, or (in a
/// container such as a Skyrim plugin) the part's FormID and the triangle's index in it.
///
/// Written `61` alone, or `0410E930:12` with a part (8 hex digits, a colon, the id).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellId {
    /// The part of a container the cell belongs to (a Skyrim navmesh's FormID), if any.
    pub part: Option<u32>,
    /// The id within the file or part.
    pub id: u64,
}

impl CellId {
    /// An id without a part.
    pub const fn new(id: u64) -> Self {
        CellId { part: None, id }
    }

    /// An id within a part of a container.
    pub const fn in_part(part: u32, id: u64) -> Self {
        CellId {
            part: Some(part),
            id,
        }
    }
}

impl fmt::Display for CellId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.part {
            Some(part) => write!(f, "{part:08X}:{}", self.id),
            None => write!(f, "{}", self.id),
        }
    }
}

/// Why a text is not a [`CellId`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CellIdError(String);

impl fmt::Display for CellIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a cell id (a number, or PART:NUMBER with PART in hex)",
            self.0
        )
    }
}

impl std::error::Error for CellIdError {}

impl core::str::FromStr for CellId {
    type Err = CellIdError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || CellIdError(s.to_string());
        let text = s.trim();
        match text.split_once(':') {
            Some((part, id)) => {
                let part = part.trim_start_matches("0x").trim_start_matches("0X");
                let part = u32::from_str_radix(part, 16).map_err(|_| bad())?;
                let id = id.parse().map_err(|_| bad())?;
                Ok(CellId::in_part(part, id))
            }
            None => text.parse().map(CellId::new).map_err(|_| bad()),
        }
    }
}

/// What kind of move an edge is, as the file says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum EdgeKind {
    /// Walking across a shared border or along a plain link.
    Walk,
    /// A jump (up, across or over a barrier).
    Jump,
    /// A drop down a ledge.
    Drop,
    /// Climbing a ladder up.
    LadderUp,
    /// Climbing a ladder down.
    LadderDown,
    /// Through a door (a Skyrim door link).
    Door,
    /// Riding an elevator or a moving platform.
    Elevator,
    /// A teleporter.
    Teleport,
    /// Swimming.
    Swim,
    /// Any other special traversal the file names.
    Special,
    /// A connection the file marks as blocked: kept in the graph, never followed.
    Blocked,
}

impl EdgeKind {
    /// Every kind, in declaration order.
    pub const ALL: [EdgeKind; 11] = [
        EdgeKind::Walk,
        EdgeKind::Jump,
        EdgeKind::Drop,
        EdgeKind::LadderUp,
        EdgeKind::LadderDown,
        EdgeKind::Door,
        EdgeKind::Elevator,
        EdgeKind::Teleport,
        EdgeKind::Swim,
        EdgeKind::Special,
        EdgeKind::Blocked,
    ];

    /// The kind's name, as the CLI and JSON show it (`ladder-up`).
    pub const fn name(self) -> &'static str {
        match self {
            EdgeKind::Walk => "walk",
            EdgeKind::Jump => "jump",
            EdgeKind::Drop => "drop",
            EdgeKind::LadderUp => "ladder-up",
            EdgeKind::LadderDown => "ladder-down",
            EdgeKind::Door => "door",
            EdgeKind::Elevator => "elevator",
            EdgeKind::Teleport => "teleport",
            EdgeKind::Swim => "swim",
            EdgeKind::Special => "special",
            EdgeKind::Blocked => "blocked",
        }
    }

    /// Whether a path may follow an edge of this kind: every kind but [`EdgeKind::Blocked`], and
    /// with `walk_only` only [`EdgeKind::Walk`].
    pub const fn followed(self, walk_only: bool) -> bool {
        match self {
            EdgeKind::Blocked => false,
            EdgeKind::Walk => true,
            _ => !walk_only,
        }
    }
}

impl fmt::Display for EdgeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A walkable cell.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The id users know.
    pub id: CellId,
    /// The mean of the polygon's corners, or a node's position; `None` when the cell has no
    /// usable polygon (fewer than three corners, or a corner that is not finite).
    pub centre: Option<[f32; 3]>,
    /// Where the cell's polygon lies in [`Graph::corners`] (`start..start + len`); empty for a
    /// node cell, and for a cell whose polygon is not usable.
    pub corners: (u32, u32),
    /// For a node cell: how far from its position a point still counts as on it, measured in
    /// plan (seen from above). `None` for a polygon cell.
    pub radius: Option<f32>,
}

/// A directed edge between two cells, by their index in [`Graph::cells`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Edge {
    /// The cell it leaves.
    pub from: u32,
    /// The cell it reaches.
    pub to: u32,
    /// What kind of move it is.
    pub kind: EdgeKind,
}

/// A link the file stores to something the graph does not hold: reported, not followed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    /// The cell the link leaves, by its index in [`Graph::cells`].
    pub from: u32,
    /// What it leads to, in words (`navmesh 0001A2B3 triangle 4, not in this plugin`).
    pub target: String,
    /// What kind of move it is.
    pub kind: EdgeKind,
}

/// Cells, directed edges between them and exits: what a format's `navigation` module builds
/// from its model. Build it with the `add_*` methods; query it through
/// [`crate::navigation::Navigator`].
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    /// Which axis points up.
    pub up: UpAxis,
    /// The cells, in the file's order.
    pub cells: Vec<Cell>,
    /// Every cell's polygon corners, one run per cell ([`Cell::corners`]).
    pub corners: Vec<[f32; 3]>,
    /// The directed edges.
    pub edges: Vec<Edge>,
    /// Links to what the graph does not hold.
    pub exits: Vec<Exit>,
}

impl Graph {
    /// An empty graph.
    pub fn new(up: UpAxis) -> Self {
        Graph {
            up,
            cells: Vec::new(),
            corners: Vec::new(),
            edges: Vec::new(),
            exits: Vec::new(),
        }
    }

    /// Adds a cell with a polygon and returns its index. Its centre is the mean of the corners
    /// (computed in `f64`); a polygon of fewer than three corners, or with a corner that is not
    /// finite, is not kept, and the cell gets no centre.
    pub fn add_polygon_cell(&mut self, id: CellId, corners: &[[f32; 3]]) -> u32 {
        let usable = corners.len() >= 3 && corners.iter().flatten().all(|c| c.is_finite());
        let (centre, run) = if usable {
            let start = len_u32(self.corners.len());
            self.corners.extend_from_slice(corners);
            (mean(corners), (start, len_u32(corners.len())))
        } else {
            (None, (len_u32(self.corners.len()), 0))
        };
        self.push(Cell {
            id,
            centre,
            corners: run,
            radius: None,
        })
    }

    /// Adds a node cell at `position` that covers points within `radius` of it in plan, and
    /// returns its index. A position that is not finite gives the cell no centre.
    pub fn add_node_cell(&mut self, id: CellId, position: [f32; 3], radius: f32) -> u32 {
        let centre = position.iter().all(|c| c.is_finite()).then_some(position);
        let at = len_u32(self.corners.len());
        self.push(Cell {
            id,
            centre,
            corners: (at, 0),
            radius: Some(radius),
        })
    }

    /// Adds a directed edge between two cells given by index.
    pub fn add_edge(&mut self, from: u32, to: u32, kind: EdgeKind) {
        self.edges.push(Edge { from, to, kind });
    }

    /// Adds an exit: a link from cell `from` to something the graph does not hold.
    pub fn add_exit(&mut self, from: u32, target: impl Into<String>, kind: EdgeKind) {
        self.exits.push(Exit {
            from,
            target: target.into(),
            kind,
        });
    }

    /// The polygon of the cell at `index` (empty for a node cell or an unusable polygon, and for
    /// an index past the cells).
    pub fn polygon(&self, index: u32) -> &[[f32; 3]] {
        let Some(cell) = self.cells.get(index as usize) else {
            return &[];
        };
        let (start, len) = (cell.corners.0 as usize, cell.corners.1 as usize);
        self.corners
            .get(start..start.saturating_add(len))
            .unwrap_or(&[])
    }

    /// Whether every edge and exit names a cell that exists and every polygon run lies inside
    /// [`Graph::corners`]. Format mappings keep this true; the queries rely on it.
    pub fn is_consistent(&self) -> bool {
        let n = self.cells.len();
        let in_range = |i: u32| (i as usize) < n;
        self.edges
            .iter()
            .all(|e| in_range(e.from) && in_range(e.to))
            && self.exits.iter().all(|e| in_range(e.from))
            && self.cells.iter().all(|c| {
                (c.corners.0 as usize)
                    .checked_add(c.corners.1 as usize)
                    .is_some_and(|end| end <= self.corners.len())
            })
    }

    fn push(&mut self, cell: Cell) -> u32 {
        self.cells.push(cell);
        len_u32(self.cells.len() - 1)
    }
}

/// A length or index as the `u32` the graph stores. Graphs hold far fewer than 2^32 cells and
/// corners (every format's own indices are 32 bits or narrower); past that it saturates, which
/// [`Graph::is_consistent`] then reports.
fn len_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The mean of the corners, computed in `f64`.
fn mean(corners: &[[f32; 3]]) -> Option<[f32; 3]> {
    if corners.is_empty() {
        return None;
    }
    let mut sum = [0f64; 3];
    for c in corners {
        for (s, v) in sum.iter_mut().zip(c) {
            *s += f64::from(*v);
        }
    }
    let n = corners.len() as f64;
    #[allow(clippy::cast_possible_truncation)] // the mean of f32 values fits an f32
    Some(sum.map(|s| (s / n) as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_ids_read_back_what_they_write() {
        for id in [CellId::new(61), CellId::in_part(0x0410_E930, 12)] {
            assert_eq!(id.to_string().parse::<CellId>(), Ok(id));
        }
        assert_eq!(CellId::in_part(0x1A2B, 3).to_string(), "00001A2B:3");
        assert_eq!("0x0410e930:7".parse(), Ok(CellId::in_part(0x0410_E930, 7)));
        assert!("x".parse::<CellId>().is_err());
        assert!("12:".parse::<CellId>().is_err());
        assert!("-3".parse::<CellId>().is_err());
    }

    #[test]
    fn unusable_polygons_get_no_centre() {
        let mut g = Graph::new(UpAxis::Z);
        let square = [
            [0.0, 0.0, 1.0],
            [2.0, 0.0, 1.0],
            [2.0, 2.0, 1.0],
            [0.0, 2.0, 1.0],
        ];
        let a = g.add_polygon_cell(CellId::new(1), &square);
        let b = g.add_polygon_cell(CellId::new(2), &square[..2]);
        let c = g.add_polygon_cell(CellId::new(3), &[[f32::NAN, 0.0, 0.0]; 3]);
        let d = g.add_node_cell(CellId::new(4), [5.0, 5.0, 0.0], 16.0);
        g.add_edge(a, d, EdgeKind::Jump);
        g.add_exit(b, "elsewhere", EdgeKind::Walk);
        assert_eq!(g.cells[a as usize].centre, Some([1.0, 1.0, 1.0]));
        assert_eq!(g.polygon(a), &square);
        for x in [b, c] {
            assert_eq!(g.cells[x as usize].centre, None);
            assert!(g.polygon(x).is_empty());
        }
        assert_eq!(g.cells[d as usize].radius, Some(16.0));
        assert!(g.polygon(d).is_empty());
        assert!(g.is_consistent());
        g.add_edge(a, 9, EdgeKind::Walk);
        assert!(!g.is_consistent());
    }

    #[test]
    fn only_blocked_edges_are_never_followed() {
        for kind in EdgeKind::ALL {
            assert_eq!(kind.followed(false), kind != EdgeKind::Blocked, "{kind}");
            assert_eq!(kind.followed(true), kind == EdgeKind::Walk, "{kind}");
        }
    }
}
