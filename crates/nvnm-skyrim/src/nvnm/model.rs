//! The owned, editable model of an `NVNM` blob.
//!
//! Counts are not stored: every array's count is its length. Floats are kept as [`RawF32`] bits,
//! unknown bytes raw, and the grid's bounds and cell sizes verbatim (the Creation Kit does not
//! always recompute them). The fields that only version 15 (Fallout 4) has are `Option`s or
//! lists that stay empty in version 12; the writer refuses a model that mixes the two layouts.

use nav_core::RawF32;

use super::view::{CoverTrianglesView, EdgeLinksView, NavmeshGeometryView, TrianglesView};
use super::{Edge, Layout, Parent};

/// One triangle.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Triangle {
    /// Vertex indices.
    pub vertices: [u16; 3],
    /// Raw edge values of edges 0-1, 1-2 and 2-0; [`Triangle::edge`] says what they lead to.
    pub edges: [i16; 3],
    /// Version 15 only: height and an unknown byte; `None` in version 12.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub extra: Option<TriangleExtra>,
    /// Triangle flags (bits 0-2: the edge is an edge link; see [`super::triangle_flags`]).
    pub flags: u16,
    /// The cover word, kept raw. Version 12: cover values of edges 0-1 and 1-2 (xEdit's
    /// reading). Version 15, inferred from one real file: bit `i` set where edge `i` has a
    /// cover-triangle mapping.
    pub cover_flags: u16,
}

impl Triangle {
    /// What edge `i` (0: 0-1, 1: 1-2, 2: 2-0) leads to, by the flag bit of that edge.
    pub fn edge(&self, i: usize) -> Edge {
        Edge::decode(self.flags, i, self.edges.get(i).copied().unwrap_or(-1))
    }
}

/// The fields a version-15 triangle adds, between its edges and its flags.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TriangleExtra {
    /// Height (xEdit's name). On the one real Fallout 4 file, the grid's maximum Z is the
    /// highest vertex plus this height: a clearance above the triangle, by inference.
    pub height: RawF32,
    /// A byte of unknown meaning (0 on the one real file; an old xEdit comment says "flags").
    pub unknown: u8,
}

/// A link from an edge of this navmesh to a triangle of another navmesh.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct EdgeLink {
    /// Link type: 0 portal, 1 ledge up, 2 ledge down, 3 enable/disable portal.
    pub link_type: u32,
    /// FormID of the other navmesh.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
    pub navmesh: u32,
    /// Triangle in the other navmesh.
    pub triangle: i16,
    /// Version 15 only: the edge of that triangle; `None` in version 12.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub edge_index: Option<u8>,
}

/// A triangle that leads through a door.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct DoorTriangle {
    /// Triangle of this navmesh.
    pub triangle: i16,
    /// 0, or the CRC of "PathingDoor" ([`super::PATHING_DOOR_CRC`]).
    pub door_type: u32,
    /// FormID of the door reference.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
    pub door: u32,
}

/// An entry of the version-15 cover array: one cover edge.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Cover {
    /// The two vertices of the cover edge: on the one real file, the vertices of the mapped
    /// triangle edge in the reverse of the triangle's winding.
    pub vertices: [u16; 2],
    /// Four bytes of cover data (xEdit's "Data"), meaning unknown, kept raw.
    pub data: [u8; 4],
}

/// A version-15 cover-triangle mapping: the triangle edge that cover entry `cover` lies on.
///
/// The first stored field packs a triangle and one of its edges, `triangle << 2 | edge`; the
/// second indexes [`NavmeshGeometry::cover_array`]. xEdit and Mutagen call the two fields
/// "Cover" and "Triangle", in that order, but the one real file fits neither that order nor
/// the reverse, and fits this reading for every entry (see `docs/formats/skyrim.md`). The
/// packed field is kept raw, so any value round-trips.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CoverMapping {
    /// Triangle and edge, `triangle << 2 | edge` (edge 0: 0-1, 1: 1-2, 2: 2-0).
    pub triangle_edge: u16,
    /// Index into the cover array.
    pub cover: u16,
}

impl CoverMapping {
    /// The mapping of edge `edge` (0: 0-1, 1: 1-2, 2: 2-0) of `triangle` to cover entry
    /// `cover`, or `None` when the edge is past 2 or the triangle does not fit the 14 bits the
    /// packed field leaves it.
    pub fn new(triangle: u16, edge: u8, cover: u16) -> Option<CoverMapping> {
        if edge > 2 || triangle > u16::MAX >> 2 {
            return None;
        }
        Some(CoverMapping {
            triangle_edge: triangle << 2 | u16::from(edge),
            cover,
        })
    }

    /// The triangle: the packed field's upper 14 bits.
    pub fn triangle(&self) -> u16 {
        self.triangle_edge >> 2
    }

    /// The edge of that triangle: the packed field's lower 2 bits (3 names no edge).
    pub fn edge(&self) -> u8 {
        (self.triangle_edge & 3) as u8
    }
}

/// A version-15 waypoint.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Waypoint {
    /// X, Y and Z.
    pub position: [RawF32; 3],
    /// Triangle index.
    pub triangle: i16,
    /// Waypoint flags.
    pub flags: u32,
}

/// The triangle grid: a spatial index of triangles over the XY plane.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Grid {
    /// Cells per axis. `cells` must hold `divisor²` lists.
    pub divisor: u32,
    /// Cell width (X) and depth (Y), stored verbatim.
    pub cell_size: [RawF32; 2],
    /// Minimum corner, stored verbatim.
    pub min: [RawF32; 3],
    /// Maximum corner, stored verbatim.
    pub max: [RawF32; 3],
    /// Triangle lists, cell `iy * divisor + ix` (X varies fastest).
    pub cells: Vec<Vec<i16>>,
}

impl Grid {
    /// A grid of `divisor²` empty cells over the given bounds, with the cell sizes the Creation
    /// Kit computes (`(max - min) / divisor`). Real grids use divisors 1 to 12; the `u8` keeps a
    /// built grid small.
    pub fn empty(divisor: u8, min: [RawF32; 3], max: [RawF32; 3]) -> Grid {
        let d = f32::from(divisor.max(1));
        let size = |a: usize| {
            let lo = min.get(a).map_or(0.0, |v| v.get());
            let hi = max.get(a).map_or(0.0, |v| v.get());
            RawF32::new((hi - lo) / d)
        };
        let n = usize::from(divisor) * usize::from(divisor);
        Grid {
            divisor: u32::from(divisor),
            cell_size: [size(0), size(1)],
            min,
            max,
            cells: vec![Vec::new(); n],
        }
    }
}

/// The owned model of an `NVNM` blob.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NavmeshGeometry {
    /// NVNM version: 12 (Skyrim LE and SE) or 15 (Fallout 4).
    pub version: u32,
    /// CRC of the pathing-cell type name ([`super::PATHING_CELL_CRC`] in every known file).
    pub pathing_cell_crc: u32,
    /// The interior cell or the worldspace grid cell the navmesh belongs to.
    pub parent: Parent,
    /// Vertex positions, `x, y, z` (in JSON, each may be wrapped with its position:
    /// [`nav_core::positions::records`]).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "nav_core::positions::records")
    )]
    pub vertices: Vec<[RawF32; 3]>,
    /// Triangles.
    pub triangles: Vec<Triangle>,
    /// Links to other navmeshes, named by flagged triangle edges.
    pub edge_links: Vec<EdgeLink>,
    /// Triangles that lead through doors.
    pub door_triangles: Vec<DoorTriangle>,
    /// Version 15 only: the cover array.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub cover_array: Vec<Cover>,
    /// Version 12 only: indices of the triangles that give cover.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub cover_triangles: Vec<i16>,
    /// Version 15 only: cover-triangle mappings, in stored order (not sorted on the one real
    /// file).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub cover_mappings: Vec<CoverMapping>,
    /// Version 15 only: waypoints.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Vec::is_empty")
    )]
    pub waypoints: Vec<Waypoint>,
    /// The triangle grid.
    pub grid: Grid,
}

impl NavmeshGeometry {
    /// An empty version-12 (Skyrim) navmesh of an interior cell, with a 1×1 grid.
    pub fn new_skyrim(cell: u32) -> NavmeshGeometry {
        NavmeshGeometry {
            version: 12,
            pathing_cell_crc: super::PATHING_CELL_CRC,
            parent: Parent::Cell { cell },
            vertices: Vec::new(),
            triangles: Vec::new(),
            edge_links: Vec::new(),
            door_triangles: Vec::new(),
            cover_array: Vec::new(),
            cover_triangles: Vec::new(),
            cover_mappings: Vec::new(),
            waypoints: Vec::new(),
            grid: Grid::empty(1, [RawF32::ZERO; 3], [RawF32::ZERO; 3]),
        }
    }

    /// The layout the version selects, or `None` for a version the crate cannot write.
    pub fn layout(&self) -> Option<Layout> {
        Layout::of_version(self.version)
    }

    /// Recomputes the grid bounds from the vertices, and fills the cells of a `divisor`-wide grid
    /// with every triangle whose XY bounding box touches the cell (lists sorted ascending), as
    /// the Creation Kit lays it out. Triangle indices past `i16::MAX` are left out.
    ///
    /// A version-15 triangle raises the maximum Z to its highest vertex plus its height, as on
    /// the one real Fallout 4 file (whose triangles all have the same height, so it cannot
    /// tell this from the highest vertex plus the greatest height).
    pub fn rebuild_grid(&mut self, divisor: u8) {
        let mut min = [f32::INFINITY; 3];
        let mut max = [f32::NEG_INFINITY; 3];
        for v in &self.vertices {
            for a in 0..3 {
                min[a] = min[a].min(v[a].get());
                max[a] = max[a].max(v[a].get());
            }
        }
        if self.vertices.is_empty() {
            min = [0.0; 3];
            max = [0.0; 3];
        }
        for tri in &self.triangles {
            let Some(extra) = tri.extra else { continue };
            let top = tri
                .vertices
                .iter()
                .filter_map(|&v| self.vertices.get(usize::from(v)))
                .map(|p| p[2].get())
                .fold(f32::NEG_INFINITY, f32::max);
            let raised = top + extra.height.get();
            if raised.is_finite() {
                max[2] = max[2].max(raised);
            }
        }
        let mut grid = Grid::empty(divisor, min.map(RawF32::new), max.map(RawF32::new));
        let d = usize::from(divisor);
        let cw = grid.cell_size[0].get();
        let ch = grid.cell_size[1].get();
        let cell_of = |value: f32, lo: f32, size: f32| -> usize {
            if size > 0.0 && size.is_finite() {
                let c = ((value - lo) / size).floor();
                if c.is_nan() || c <= 0.0 {
                    0
                } else {
                    // Clamped to the last cell first (`d` comes from a `u16`, exact in `f32`),
                    // so the cast is exact.
                    #[allow(clippy::cast_possible_truncation)]
                    let cell = c.min(d.saturating_sub(1) as f32) as usize;
                    cell
                }
            } else {
                0
            }
        };
        for (t, tri) in self.triangles.iter().enumerate() {
            let Ok(index) = i16::try_from(t) else { break };
            let mut lo = [f32::INFINITY; 2];
            let mut hi = [f32::NEG_INFINITY; 2];
            for &v in &tri.vertices {
                if let Some(p) = self.vertices.get(usize::from(v)) {
                    for a in 0..2 {
                        lo[a] = lo[a].min(p[a].get());
                        hi[a] = hi[a].max(p[a].get());
                    }
                }
            }
            if lo[0] > hi[0] || d == 0 {
                continue;
            }
            let (x0, x1) = (cell_of(lo[0], min[0], cw), cell_of(hi[0], min[0], cw));
            let (y0, y1) = (cell_of(lo[1], min[1], ch), cell_of(hi[1], min[1], ch));
            for iy in y0..=y1 {
                for ix in x0..=x1 {
                    if let Some(cell) = grid.cells.get_mut(iy * d + ix) {
                        cell.push(index);
                    }
                }
            }
        }
        self.grid = grid;
    }

    /// Sets every edge that is not an edge link (its flag bit clear) to the triangle that shares
    /// it, or to -1 when none does (or when that triangle's index does not fit an `i16`).
    pub fn link_neighbours(&mut self) {
        let mut by_edge = std::collections::HashMap::new();
        for (t, tri) in self.triangles.iter().enumerate() {
            for k in 0..3 {
                let (a, b) = (tri.vertices[k], tri.vertices[(k + 1) % 3]);
                by_edge
                    .entry((a.min(b), a.max(b)))
                    .or_insert_with(Vec::new)
                    .push(t);
            }
        }
        for t in 0..self.triangles.len() {
            for k in 0..3 {
                let Some(tri) = self.triangles.get(t) else {
                    break;
                };
                if tri.flags & (1 << k) != 0 {
                    continue;
                }
                let (a, b) = (tri.vertices[k], tri.vertices[(k + 1) % 3]);
                let other = by_edge
                    .get(&(a.min(b), a.max(b)))
                    .and_then(|ts| ts.iter().copied().find(|&o| o != t))
                    .and_then(|o| i16::try_from(o).ok())
                    .unwrap_or(-1);
                if let Some(tri) = self.triangles.get_mut(t) {
                    tri.edges[k] = other;
                }
            }
        }
    }

    /// Copies a view into the owned model.
    pub fn from_view(view: &NavmeshGeometryView<'_>) -> NavmeshGeometry {
        let header = view.header();
        let triangles = match view.triangles() {
            TrianglesView::V12(ts) => ts
                .iter()
                .map(|t| Triangle {
                    vertices: t.vertices.map(|v| v.get()),
                    edges: t.edges.map(|e| e.get()),
                    extra: None,
                    flags: t.flags.get(),
                    cover_flags: t.cover_flags.get(),
                })
                .collect(),
            TrianglesView::V15(ts) => ts
                .iter()
                .map(|t| Triangle {
                    vertices: t.vertices.map(|v| v.get()),
                    edges: t.edges.map(|e| e.get()),
                    extra: Some(TriangleExtra {
                        height: t.height.into(),
                        unknown: t.unknown,
                    }),
                    flags: t.flags.get(),
                    cover_flags: t.cover_flags.get(),
                })
                .collect(),
        };
        let edge_links = match view.edge_links() {
            EdgeLinksView::V12(ls) => ls
                .iter()
                .map(|l| EdgeLink {
                    link_type: l.link_type.get(),
                    navmesh: l.navmesh.get(),
                    triangle: l.triangle.get(),
                    edge_index: None,
                })
                .collect(),
            EdgeLinksView::V15(ls) => ls
                .iter()
                .map(|l| EdgeLink {
                    link_type: l.link_type.get(),
                    navmesh: l.navmesh.get(),
                    triangle: l.triangle.get(),
                    edge_index: Some(l.edge_index),
                })
                .collect(),
        };
        let (cover_triangles, cover_mappings) = match view.cover_triangles() {
            CoverTrianglesView::V12(c) => (c.iter().map(|t| t.get()).collect(), Vec::new()),
            CoverTrianglesView::V15(m) => (
                Vec::new(),
                m.iter()
                    .map(|m| CoverMapping {
                        triangle_edge: m.triangle_edge.get(),
                        cover: m.cover.get(),
                    })
                    .collect(),
            ),
        };
        let g = view.grid();
        NavmeshGeometry {
            version: header.version.get(),
            pathing_cell_crc: header.pathing_cell_crc.get(),
            parent: header.parent(),
            vertices: view
                .vertices()
                .iter()
                .map(|v| v.position.map(RawF32::from))
                .collect(),
            triangles,
            edge_links,
            door_triangles: view
                .door_triangles()
                .iter()
                .map(|d| DoorTriangle {
                    triangle: d.triangle.get(),
                    door_type: d.door_type.get(),
                    door: d.door.get(),
                })
                .collect(),
            cover_array: view
                .cover_array()
                .iter()
                .map(|c| Cover {
                    vertices: c.vertices.map(|v| v.get()),
                    data: c.data,
                })
                .collect(),
            cover_triangles,
            cover_mappings,
            waypoints: view
                .waypoints()
                .iter()
                .map(|w| Waypoint {
                    position: w.position.map(RawF32::from),
                    triangle: w.triangle.get(),
                    flags: w.flags.get(),
                })
                .collect(),
            grid: Grid {
                divisor: g.divisor.get(),
                cell_size: g.cell_size.map(RawF32::from),
                min: g.min.map(RawF32::from),
                max: g.max.map(RawF32::from),
                cells: view
                    .cells()
                    .iter()
                    .map(|c| c.iter().map(|t| t.get()).collect())
                    .collect(),
            },
        }
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for NavmeshGeometry {
    /// Mostly models the writer accepts (one layout, a grid of `divisor²` cells), and one in
    /// sixteen with anything at all so that the writer's refusals are exercised too.
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let choice: u8 = u.arbitrary()?;
        let wild = choice % 16 == 0;
        let fo4 = choice & 0x10 != 0;
        let version = match (wild, fo4) {
            (true, _) => u.arbitrary()?,
            (false, true) => 15,
            (false, false) => 12,
        };
        let mut parent: Parent = u.arbitrary()?;
        if let Parent::Worldspace { worldspace, .. } = &mut parent {
            if *worldspace == 0 && !wild {
                *worldspace = 0x3c;
            }
        }
        let mut triangles: Vec<Triangle> = u.arbitrary()?;
        let mut edge_links: Vec<EdgeLink> = u.arbitrary()?;
        let mut model = NavmeshGeometry {
            version,
            pathing_cell_crc: if u.arbitrary()? {
                super::PATHING_CELL_CRC
            } else {
                u.arbitrary()?
            },
            parent,
            vertices: u.arbitrary()?,
            triangles: Vec::new(),
            edge_links: Vec::new(),
            door_triangles: u.arbitrary()?,
            cover_array: u.arbitrary()?,
            cover_triangles: u.arbitrary()?,
            cover_mappings: u.arbitrary()?,
            waypoints: u.arbitrary()?,
            grid: Grid {
                divisor: 0,
                cell_size: u.arbitrary()?,
                min: u.arbitrary()?,
                max: u.arbitrary()?,
                cells: Vec::new(),
            },
        };
        if wild {
            model.grid.divisor = u.arbitrary()?;
            model.grid.cells = u.arbitrary()?;
        } else {
            let d = u.int_in_range(0..=3u32)?;
            model.grid.divisor = d;
            for _ in 0..d * d {
                model.grid.cells.push(u.arbitrary()?);
            }
            for t in &mut triangles {
                match (fo4, &t.extra) {
                    (true, None) => {
                        t.extra = Some(TriangleExtra {
                            height: u.arbitrary()?,
                            unknown: u.arbitrary()?,
                        })
                    }
                    (false, Some(_)) => t.extra = None,
                    _ => {}
                }
            }
            for l in &mut edge_links {
                l.edge_index = match (fo4, l.edge_index) {
                    (true, None) => Some(u.arbitrary()?),
                    (false, _) => None,
                    (true, e) => e,
                };
            }
            if fo4 {
                model.cover_triangles.clear();
            } else {
                model.cover_array.clear();
                model.cover_mappings.clear();
                model.waypoints.clear();
            }
        }
        model.triangles = triangles;
        model.edge_links = edge_links;
        Ok(model)
    }
}
