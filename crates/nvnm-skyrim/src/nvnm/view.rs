//! The zero-copy view of an `NVNM` blob: borrowed records over the input bytes.
//!
//! [`NavmeshGeometryView::parse`] walks the blob once: the 16-byte header, the counted arrays of
//! the version's layout, then the triangle grid. The grid's `divisor²` cell lists have variable
//! length, so the pass records one slice per cell; every other array is one borrowed slice.

use nav_core::scalar::{F32, I16, U16, U32};
use nav_core::{Cursor, Error, ErrorKind, Result};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::{Edge, FORMAT, Layout, PATHING_CELL_CRC};

/// The fixed 16-byte header.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct HeaderRecord {
    /// NVNM version: 12 (Skyrim LE and SE) or 15 (Fallout 4).
    pub version: U32,
    /// CRC of the pathing-cell type name (`0xA5E9A03C`, "PathingCell", in every known file).
    pub pathing_cell_crc: U32,
    /// Parent worldspace FormID; 0 for an interior cell.
    pub worldspace: U32,
    /// Parent cell FormID (interior), or the grid coordinates `i16 y, i16 x` (exterior).
    pub parent: [u8; 4],
}

impl HeaderRecord {
    /// The parent of the navmesh, read from the worldspace and parent fields.
    pub fn parent(&self) -> super::Parent {
        let worldspace = self.worldspace.get();
        let [a, b, c, d] = self.parent;
        if worldspace == 0 {
            super::Parent::Cell {
                cell: u32::from_le_bytes(self.parent),
            }
        } else {
            super::Parent::Worldspace {
                worldspace,
                grid_x: i16::from_le_bytes([c, d]),
                grid_y: i16::from_le_bytes([a, b]),
            }
        }
    }
}

/// One vertex: `f32 x, y, z` in world coordinates.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct VertexRecord {
    /// X, Y and Z.
    pub position: [F32; 3],
}

/// A version-12 (Skyrim) triangle, 16 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Triangle12Record {
    /// Vertex indices.
    pub vertices: [U16; 3],
    /// Edge values of edges 0-1, 1-2 and 2-0 (see [`Edge`]).
    pub edges: [I16; 3],
    /// Triangle flags (bits 0-2: the edge is an edge link).
    pub flags: U16,
    /// Cover flags of edges 0-1 and 1-2.
    pub cover_flags: U16,
}

/// A version-15 (Fallout 4) triangle, 21 bytes: the v12 fields with a height and an unknown
/// byte between the edges and the flags (checked on a real Fallout 4 file).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Triangle15Record {
    /// Vertex indices.
    pub vertices: [U16; 3],
    /// Edge values of edges 0-1, 1-2 and 2-0 (see [`Edge`]).
    pub edges: [I16; 3],
    /// Height (xEdit's name). On the one real file, the grid's maximum Z is the highest vertex
    /// plus this height: a vertical clearance above the triangle, by inference.
    pub height: F32,
    /// A byte of unknown meaning (0 on the one real file).
    pub unknown: u8,
    /// Triangle flags (bits 0-2: the edge is an edge link).
    pub flags: U16,
    /// Cover flags, kept raw. On the one real file, bit `i` is set exactly where edge `i` has a
    /// cover-triangle mapping (inferred; not the v12 meaning).
    pub cover_flags: U16,
}

/// A version-12 edge link, 10 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct EdgeLink12Record {
    /// Link type: 0 portal, 1 ledge up, 2 ledge down, 3 enable/disable portal.
    pub link_type: U32,
    /// FormID of the navmesh on the other side.
    pub navmesh: U32,
    /// Triangle in that navmesh.
    pub triangle: I16,
}

/// A version-15 edge link, 11 bytes (from xEdit, Mutagen and Wrye Bash; no real file has one
/// yet).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct EdgeLink15Record {
    /// Link type: 0 portal, 1 ledge up, 2 ledge down, 3 enable/disable portal.
    pub link_type: U32,
    /// FormID of the navmesh on the other side.
    pub navmesh: U32,
    /// Triangle in that navmesh.
    pub triangle: I16,
    /// Edge of that triangle.
    pub edge_index: u8,
}

/// A door triangle, 10 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct DoorTriangleRecord {
    /// Triangle of this navmesh.
    pub triangle: I16,
    /// 0, or the CRC of "PathingDoor" (`0xE48B73F3`).
    pub door_type: U32,
    /// FormID of the door reference.
    pub door: U32,
}

/// An entry of the version-15 cover array, 8 bytes: one cover edge of the mesh.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct CoverRecord {
    /// The two vertices of the cover edge. On the one real file they are the vertices of a
    /// triangle edge, in the reverse of the triangle's winding.
    pub vertices: [U16; 2],
    /// Four bytes of cover data (xEdit's "Data"), meaning unknown, kept raw.
    pub data: [u8; 4],
}

/// A version-15 cover-triangle mapping, 4 bytes: the triangle edge a cover entry lies on.
///
/// xEdit and Mutagen name the two fields (cover, triangle); the one real file fits neither that
/// order nor the reverse. It fits, for every entry, a first field packing triangle and edge,
/// `triangle << 2 | edge`, and a second field indexing the cover array (see
/// `docs/formats/skyrim.md`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct CoverMappingRecord {
    /// Triangle and edge, `triangle << 2 | edge` (edge 0: 0-1, 1: 1-2, 2: 2-0).
    pub triangle_edge: U16,
    /// Index into the cover array.
    pub cover: U16,
}

/// A version-15 waypoint, 18 bytes (from xEdit and Mutagen; no real file has one yet).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct WaypointRecord {
    /// X, Y and Z.
    pub position: [F32; 3],
    /// Triangle index.
    pub triangle: I16,
    /// Waypoint flags.
    pub flags: U32,
}

/// The fixed part of the triangle grid, 36 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct GridHeaderRecord {
    /// Cells per axis; the grid has `divisor²` cells.
    pub divisor: U32,
    /// Cell width and depth: `(max - min) / divisor` in files the Creation Kit wrote.
    pub cell_size: [F32; 2],
    /// Minimum corner of the grid.
    pub min: [F32; 3],
    /// Maximum corner of the grid.
    pub max: [F32; 3],
}

/// The triangles of either layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TrianglesView<'a> {
    /// Version 12: 16-byte triangles.
    V12(&'a [Triangle12Record]),
    /// Version 15: 21-byte triangles.
    V15(&'a [Triangle15Record]),
}

/// The edge links of either layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EdgeLinksView<'a> {
    /// Version 12: 10-byte edge links.
    V12(&'a [EdgeLink12Record]),
    /// Version 15: 11-byte edge links.
    V15(&'a [EdgeLink15Record]),
}

/// The cover triangles of either layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CoverTrianglesView<'a> {
    /// Version 12: a list of triangle indices.
    V12(&'a [I16]),
    /// Version 15: cover-triangle mappings.
    V15(&'a [CoverMappingRecord]),
}

/// One triangle, whatever the layout, as plain values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleRef {
    /// Vertex indices.
    pub vertices: [u16; 3],
    /// Raw edge values.
    pub edges: [i16; 3],
    /// Triangle flags.
    pub flags: u16,
}

impl TriangleRef {
    /// What edge `i` (0: 0-1, 1: 1-2, 2: 2-0) leads to.
    pub fn edge(&self, i: usize) -> Edge {
        Edge::decode(self.flags, i, self.edges.get(i).copied().unwrap_or(-1))
    }
}

/// A parsed `NVNM` blob, borrowing the input.
#[derive(Debug, Clone, PartialEq)]
pub struct NavmeshGeometryView<'a> {
    bytes: &'a [u8],
    header: &'a HeaderRecord,
    layout: Layout,
    vertices: &'a [VertexRecord],
    triangles: TrianglesView<'a>,
    edge_links: EdgeLinksView<'a>,
    door_triangles: &'a [DoorTriangleRecord],
    cover_array: &'a [CoverRecord],
    cover_triangles: CoverTrianglesView<'a>,
    waypoints: &'a [WaypointRecord],
    grid: &'a GridHeaderRecord,
    cells: Vec<&'a [I16]>,
}

/// Reads a `u32` count and that many records.
fn counted<'a, T>(cur: &mut Cursor<'a>, name: &str) -> Result<&'a [T]>
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    let n = cur.u32(format_args!("{name} count"))?;
    cur.slice::<T>(n, name)
}

impl<'a> NavmeshGeometryView<'a> {
    /// Parses a whole blob (the payload of an `NVNM` subrecord).
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut cur = Cursor::new(FORMAT, bytes);
        let header: &HeaderRecord = cur.read("header")?;
        let version = header.version.get();
        let layout = match version {
            12 => Layout::Skyrim,
            15 => Layout::Fallout4,
            v => {
                return Err(Error::new(
                    FORMAT,
                    "header version",
                    ErrorKind::UnsupportedVersion {
                        offset: 0,
                        version: v.into(),
                        supported: "12 (Skyrim LE/SE) or 15 (Fallout 4)".into(),
                    },
                ));
            }
        };
        let vertices = counted::<VertexRecord>(&mut cur, "vertices")?;
        let triangles = match layout {
            Layout::Skyrim => TrianglesView::V12(counted(&mut cur, "triangles")?),
            Layout::Fallout4 => TrianglesView::V15(counted(&mut cur, "triangles")?),
        };
        let edge_links = match layout {
            Layout::Skyrim => EdgeLinksView::V12(counted(&mut cur, "edge links")?),
            Layout::Fallout4 => EdgeLinksView::V15(counted(&mut cur, "edge links")?),
        };
        let door_triangles = counted::<DoorTriangleRecord>(&mut cur, "door triangles")?;
        let (cover_array, cover_triangles) = match layout {
            Layout::Skyrim => (
                &[][..],
                CoverTrianglesView::V12(counted(&mut cur, "cover triangles")?),
            ),
            Layout::Fallout4 => {
                let cover = counted::<CoverRecord>(&mut cur, "cover array")?;
                let maps = counted(&mut cur, "cover triangle mappings")?;
                (cover, CoverTrianglesView::V15(maps))
            }
        };
        let waypoints = match layout {
            Layout::Skyrim => &[][..],
            Layout::Fallout4 => counted::<WaypointRecord>(&mut cur, "waypoints")?,
        };
        let grid: &GridHeaderRecord = cur.read("grid")?;
        let divisor = u64::from(grid.divisor.get());
        let cell_count = divisor.saturating_mul(divisor);
        // Every cell takes at least its 4-byte count: refuse an absurd divisor before allocating.
        let left = cur.remaining();
        if cell_count.saturating_mul(4) > left as u64 {
            let offset = cur.offset();
            return Err(cur.fail(
                "grid cells",
                ErrorKind::CountTooLarge {
                    count: cell_count,
                    record_size: 4,
                    offset,
                    left,
                },
            ));
        }
        // `cell_count * 4 <= left`, so it fits a usize.
        let mut cells = Vec::with_capacity(usize::try_from(cell_count).unwrap_or(0));
        for k in 0..cell_count {
            let n = cur.u32(format_args!("grid cells[{k}] count"))?;
            cells.push(cur.slice::<I16>(n, format_args!("grid cells[{k}]"))?);
        }
        cur.expect_end("end of the grid")?;
        Ok(NavmeshGeometryView {
            bytes,
            header,
            layout,
            vertices,
            triangles,
            edge_links,
            door_triangles,
            cover_array,
            cover_triangles,
            waypoints,
            grid,
            cells,
        })
    }

    /// The input bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The header.
    pub fn header(&self) -> &'a HeaderRecord {
        self.header
    }

    /// The NVNM version (12 or 15).
    pub fn version(&self) -> u32 {
        self.header.version.get()
    }

    /// Which layout the version selects.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The vertices.
    pub fn vertices(&self) -> &'a [VertexRecord] {
        self.vertices
    }

    /// The triangles, in the version's layout.
    pub fn triangles(&self) -> TrianglesView<'a> {
        self.triangles
    }

    /// How many triangles there are.
    pub fn triangle_count(&self) -> usize {
        match self.triangles {
            TrianglesView::V12(t) => t.len(),
            TrianglesView::V15(t) => t.len(),
        }
    }

    /// Triangle `i` as plain values, whatever the layout.
    pub fn triangle(&self, i: usize) -> Option<TriangleRef> {
        match self.triangles {
            TrianglesView::V12(t) => t.get(i).map(|t| TriangleRef {
                vertices: t.vertices.map(|v| v.get()),
                edges: t.edges.map(|e| e.get()),
                flags: t.flags.get(),
            }),
            TrianglesView::V15(t) => t.get(i).map(|t| TriangleRef {
                vertices: t.vertices.map(|v| v.get()),
                edges: t.edges.map(|e| e.get()),
                flags: t.flags.get(),
            }),
        }
    }

    /// The edge links, in the version's layout.
    pub fn edge_links(&self) -> EdgeLinksView<'a> {
        self.edge_links
    }

    /// How many edge links there are.
    pub fn edge_link_count(&self) -> usize {
        match self.edge_links {
            EdgeLinksView::V12(l) => l.len(),
            EdgeLinksView::V15(l) => l.len(),
        }
    }

    /// The door triangles.
    pub fn door_triangles(&self) -> &'a [DoorTriangleRecord] {
        self.door_triangles
    }

    /// The cover array (empty in version 12).
    pub fn cover_array(&self) -> &'a [CoverRecord] {
        self.cover_array
    }

    /// The cover triangles (version 12) or cover-triangle mappings (version 15).
    pub fn cover_triangles(&self) -> CoverTrianglesView<'a> {
        self.cover_triangles
    }

    /// The waypoints (empty in version 12).
    pub fn waypoints(&self) -> &'a [WaypointRecord] {
        self.waypoints
    }

    /// The fixed part of the triangle grid.
    pub fn grid(&self) -> &'a GridHeaderRecord {
        self.grid
    }

    /// The grid cells, `divisor²` lists of triangle indices, cell `iy * divisor + ix`.
    pub fn cells(&self) -> &[&'a [I16]] {
        &self.cells
    }

    /// Whether the pathing-cell CRC is the usual one.
    pub fn has_usual_crc(&self) -> bool {
        self.header.pathing_cell_crc.get() == PATHING_CELL_CRC
    }
}
