//! The owned, editable model of a `JMXVNVM 1000` file.
//!
//! Every field of the file is here, in file order, with floats kept by their bits
//! ([`RawF32`]) and the fields whose meaning is unknown kept raw, so that
//! [`write`](crate::write::write) gives a parsed file back byte for byte. Counts that sit right
//! before their records (object, link, cell, per-cell object and edge counts) are not stored: they
//! are the lengths of the vectors. The one count that stands alone, the open-cell count, is kept.

use nav_core::RawF32;

/// Tiles per side of the tile map (96 × 96 tiles of 20 units).
pub const TILES_PER_SIDE: usize = 96;
/// Tiles in the tile map (96 × 96 = 9,216).
pub const TILE_COUNT: usize = TILES_PER_SIDE * TILES_PER_SIDE;
/// Vertices per side of the height map (97 × 97, one per tile corner).
pub const HEIGHTS_PER_SIDE: usize = TILES_PER_SIDE + 1;
/// Vertices in the height map (97 × 97 = 9,409).
pub const HEIGHT_COUNT: usize = HEIGHTS_PER_SIDE * HEIGHTS_PER_SIDE;
/// Plane blocks per side of the plane maps (6 × 6 blocks of 320 units).
pub const PLANES_PER_SIDE: usize = 6;
/// Entries in each plane map (6 × 6 = 36).
pub const PLANE_COUNT: usize = PLANES_PER_SIDE * PLANES_PER_SIDE;
/// Width of a region in world units.
pub const REGION_SIZE: f32 = 1920.0;
/// Width of a tile (and the spacing of height-map vertices) in world units.
pub const TILE_SIZE: f32 = 20.0;
/// Width of a plane block in world units (16 tiles).
pub const PLANE_SIZE: f32 = 320.0;

/// One terrain navmesh file (`RTNavMeshTerrain`): the navmesh of one 1920 × 1920 region.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NavMeshTerrain {
    /// The object instances placed on the region (`RTNavMeshObj`), in file order.
    pub objects: Vec<NavMeshObj>,
    /// `OpenCellCount` as stored: cells `0..open_cell_count` are open, the rest solid. Kept as
    /// stored even where it exceeds the number of cells (validate reports that).
    pub open_cell_count: u32,
    /// The terrain cells (`RTNavMeshCellQuad`), open cells first.
    pub cells: Vec<CellQuad>,
    /// Edges on the region border, shared with a neighbour region (`RTNavMeshEdgeGlobal`).
    pub global_edges: Vec<EdgeGlobal>,
    /// Edges between two cells of this region (`RTNavMeshEdgeInternal`).
    pub internal_edges: Vec<EdgeInternal>,
    /// The 96 × 96 tile map, row-major (`index = z * 96 + x`), in the file's record size.
    pub tile_map: TileMap,
    /// The 97 × 97 height map, row-major (`index = z * 97 + x`), one height per tile corner.
    /// Exactly [`HEIGHT_COUNT`] entries, or the writer refuses the model.
    pub height_map: Vec<RawF32>,
    /// The 6 × 6 plane maps; `None` only in legacy files that end after the height map.
    pub planes: Option<PlaneMaps>,
}

/// One object instance on the region (`RTNavMeshObj` / MapObject), 32 bytes plus its links.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavMeshObj {
    /// `ResourceID`: index into `navmesh/object.ifo`.
    pub resource_id: u32,
    /// `LocalPosition` (x, y, z): region-local, y is height; may lie outside 0..1920 for objects
    /// that spill in from a neighbour region.
    pub local_position: [RawF32; 3],
    /// `IsStatic` as stored: -1 (0xFFFF) static, 0 otherwise; other values are kept too.
    pub is_static: i16,
    /// `Yaw` in radians (clockwise).
    pub yaw: RawF32,
    /// `UID`: the instance id within the region.
    pub uid: u16,
    /// `unkShort01`: meaning unknown, kept raw.
    pub unk_short01: u16,
    /// `IsBig` as the raw byte (1: the object exceeds the region).
    pub is_big: u8,
    /// `IsStruct` as the raw byte (1: the object uses `objectstring.ifo`).
    pub is_struct: u8,
    /// `RegionId`: the region that owns the object (a neighbour's id for spilled-in objects).
    pub region_id: u16,
    /// `LinkedEdge` entries, in file order, duplicates and -1 entries kept.
    pub linked_edges: Vec<LinkedEdge>,
}

/// A link between an outline edge of this object and one of another object (`LinkedEdge`).
/// -1 in any field marks an invalid (removed) entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct LinkedEdge {
    /// `OtherObjectIndex`: index into this file's object list.
    pub other_object_index: i16,
    /// `OtherEdgeIndex`: index into the other object's outline (global) edges in its `.bms`.
    pub other_edge_index: i16,
    /// `EdgeIndex`: index into this object's outline (global) edges in its `.bms`.
    pub edge_index: i16,
}

/// One terrain cell (`RTNavMeshCellQuad`): an axis-aligned rectangle in region-local x/z, and the
/// objects that stand on it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct CellQuad {
    /// `Min` corner (x, z).
    pub min: [RawF32; 2],
    /// `Max` corner (x, z).
    pub max: [RawF32; 2],
    /// `ObjectIndex` list: indices into [`NavMeshTerrain::objects`] (at most 255).
    pub object_indices: Vec<u16>,
}

/// An edge on the region border (`RTNavMeshEdgeGlobal`), 27 bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct EdgeGlobal {
    /// `Min` endpoint (x, z).
    pub min: [RawF32; 2],
    /// `Max` endpoint (x, z).
    pub max: [RawF32; 2],
    /// `Flags`: see [`EdgeFlag`].
    pub flags: u8,
    /// `AssocDirection[0..2]`: the side of each associated cell the edge lies on, -1 for none.
    pub assoc_direction: [i8; 2],
    /// `AssocCellIndex[0..2]`: side 0 is a cell of this file, side 1 a cell of region
    /// `assoc_region_id[1]`; -1 for none.
    pub assoc_cell_index: [i16; 2],
    /// `AssocRegionId[0..2]`: the regions the two cells belong to.
    pub assoc_region_id: [u16; 2],
}

/// An edge between cells of this region (`RTNavMeshEdgeInternal`), 23 bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct EdgeInternal {
    /// `Min` endpoint (x, z).
    pub min: [RawF32; 2],
    /// `Max` endpoint (x, z).
    pub max: [RawF32; 2],
    /// `Flags`: see [`EdgeFlag`].
    pub flags: u8,
    /// `AssocDirection[0..2]`: the side of each associated cell the edge lies on, -1 for none.
    pub assoc_direction: [i8; 2],
    /// `AssocCellIndex[0..2]`: cells of this file, -1 for none.
    pub assoc_cell_index: [i16; 2],
}

/// The tile map in the record size the file uses.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TileMap {
    /// Modern files: 8-byte tile records. Exactly [`TILE_COUNT`] entries.
    Modern(Vec<Tile>),
    /// Legacy files (old regions 0x11a5–0x1fae): 4-byte tile records whose meaning is unknown
    /// (every one seen was zero), kept as raw dwords. Exactly [`TILE_COUNT`] entries.
    Legacy(Vec<u32>),
}

impl TileMap {
    /// Number of tiles held.
    pub fn len(&self) -> usize {
        match self {
            TileMap::Modern(t) => t.len(),
            TileMap::Legacy(t) => t.len(),
        }
    }

    /// Whether no tile is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes per tile record: 8 (modern) or 4 (legacy).
    pub fn record_size(&self) -> usize {
        match self {
            TileMap::Modern(_) => 8,
            TileMap::Legacy(_) => 4,
        }
    }
}

/// One tile of a modern tile map (8 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Tile {
    /// `CellIndex`: the cell that holds this tile.
    pub cell_index: i32,
    /// `Flags`: see [`TileFlag`]; unknown bits kept.
    pub flags: u16,
    /// `TextureID`: index into `tile2d.ifo` (footstep sounds).
    pub texture_id: u16,
}

/// The two 6 × 6 plane maps (water and ice surfaces), each block 320 units wide.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlaneMaps {
    /// `PlaneType[36]`, row-major: see [`PlaneType`]. Exactly [`PLANE_COUNT`] entries.
    pub types: Vec<u8>,
    /// `PlaneHeight[36]`, row-major. Exactly [`PLANE_COUNT`] entries.
    pub heights: Vec<RawF32>,
}

/// Which of the three layouts that share the signature a model has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Layout {
    /// 8-byte tiles, height map, plane maps (111,544 bytes after the edges).
    Modern,
    /// 4-byte tiles, height map, plane maps (74,680 bytes after the edges).
    LegacyWithPlanes,
    /// 4-byte tiles, height map, no plane maps (74,500 bytes after the edges).
    LegacyWithoutPlanes,
}

impl Layout {
    /// Every layout, in the order the crate tries them.
    pub const ALL: [Layout; 3] = [
        Layout::Modern,
        Layout::LegacyWithPlanes,
        Layout::LegacyWithoutPlanes,
    ];

    /// Bytes from the end of the internal edges to the end of the file.
    pub const fn tail_len(self) -> usize {
        match self {
            Layout::Modern => TILE_COUNT * 8 + HEIGHT_COUNT * 4 + PLANE_COUNT * 5,
            Layout::LegacyWithPlanes => TILE_COUNT * 4 + HEIGHT_COUNT * 4 + PLANE_COUNT * 5,
            Layout::LegacyWithoutPlanes => TILE_COUNT * 4 + HEIGHT_COUNT * 4,
        }
    }

    /// The layout whose tail is `len` bytes long.
    pub fn from_tail_len(len: usize) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.tail_len() == len)
    }

    /// A short name for people (`modern`, `legacy with plane maps`).
    pub const fn describe(self) -> &'static str {
        match self {
            Layout::Modern => "modern",
            Layout::LegacyWithPlanes => "legacy (4-byte tiles) with plane maps",
            Layout::LegacyWithoutPlanes => "legacy (4-byte tiles) without plane maps",
        }
    }
}

/// Bits of [`EdgeGlobal::flags`] and [`EdgeInternal::flags`] (`EdgeFlag`).
#[derive(Debug)]
pub struct EdgeFlag;

impl EdgeFlag {
    /// Movement from the second cell to the first is blocked.
    pub const BLOCK_DST_TO_SRC: u8 = 0x01;
    /// Movement from the first cell to the second is blocked.
    pub const BLOCK_SRC_TO_DST: u8 = 0x02;
    /// Both directions blocked.
    pub const BLOCKED: u8 = 0x03;
    /// An internal edge.
    pub const INTERNAL: u8 = 0x04;
    /// A global edge.
    pub const GLOBAL: u8 = 0x08;
    /// The railing of an elevated walkable surface.
    pub const UNDERPASS: u8 = 0x10;
    /// Dungeon entrance (obsolete?).
    pub const ENTRANCE: u8 = 0x20;
    /// Meaning unknown.
    pub const BIT6: u8 = 0x40;
    /// Attacks pass through (siege).
    pub const SIEGE: u8 = 0x80;
}

/// Bits of [`Tile::flags`] (`TileFlag`); the other bits are unknown and kept.
#[derive(Debug)]
pub struct TileFlag;

impl TileFlag {
    /// The tile cannot be walked on.
    pub const BLOCKED: u16 = 0x0001;
    /// Slope is ignored ("blue": painted under bridges).
    pub const IGNORE_SLOPE: u16 = 0x0002;
}

/// Values of [`PlaneMaps::types`] (`PlaneType`).
#[derive(Debug)]
pub struct PlaneType;

impl PlaneType {
    /// No plane.
    pub const NONE: u8 = 0;
    /// Water.
    pub const WATER: u8 = 1;
    /// Ice.
    pub const ICE: u8 = 2;
    /// Water and ice.
    pub const WATER_ICE: u8 = 3;
}

/// Values of [`EdgeGlobal::assoc_direction`] and [`EdgeInternal::assoc_direction`]
/// (`EdgeDirection`). Naming is disputed between sources; the crate keeps the raw `i8`.
#[derive(Debug)]
pub struct EdgeDirection;

impl EdgeDirection {
    /// No cell on this side.
    pub const INVALID: i8 = -1;
    /// The cell's minimum-z side (the builder's reading of "Bottom").
    pub const BOTTOM: i8 = 0;
    /// The cell's minimum-x side ("Left").
    pub const LEFT: i8 = 1;
    /// The cell's maximum-z side ("Top").
    pub const TOP: i8 = 2;
    /// The cell's maximum-x side ("Right").
    pub const RIGHT: i8 = 3;

    /// The direction facing the other way (-1 stays -1; values outside -1..=3 give `None`).
    pub const fn opposite(direction: i8) -> Option<i8> {
        match direction {
            -1 => Some(-1),
            0..=3 => Some((direction + 2) % 4),
            _ => None,
        }
    }
}

impl NavMeshTerrain {
    /// The layout this model is written in, or `None` for the one combination no file has:
    /// 8-byte tiles without plane maps.
    pub fn layout(&self) -> Option<Layout> {
        match (&self.tile_map, &self.planes) {
            (TileMap::Modern(_), Some(_)) => Some(Layout::Modern),
            (TileMap::Modern(_), None) => None,
            (TileMap::Legacy(_), Some(_)) => Some(Layout::LegacyWithPlanes),
            (TileMap::Legacy(_), None) => Some(Layout::LegacyWithoutPlanes),
        }
    }

    /// Linked edges over all objects.
    pub fn linked_edge_count(&self) -> usize {
        self.objects.iter().map(|o| o.linked_edges.len()).sum()
    }

    /// Object references over all cells.
    pub fn cell_object_count(&self) -> usize {
        self.cells.iter().map(|c| c.object_indices.len()).sum()
    }

    /// The size in bytes of the file this model writes to (counting every record as it is held,
    /// whether or not the writer accepts the model).
    pub fn encoded_len(&self) -> usize {
        let objects: usize = self
            .objects
            .iter()
            .map(|o| 32usize.saturating_add(o.linked_edges.len().saturating_mul(6)))
            .fold(0, usize::saturating_add);
        let cells: usize = self
            .cells
            .iter()
            .map(|c| 17usize.saturating_add(c.object_indices.len().saturating_mul(2)))
            .fold(0, usize::saturating_add);
        let tail = self
            .tile_map
            .len()
            .saturating_mul(self.tile_map.record_size())
            + self.height_map.len().saturating_mul(4)
            + self
                .planes
                .as_ref()
                .map_or(0, |p| p.types.len() + p.heights.len().saturating_mul(4));
        [
            12 + 2,
            objects,
            8,
            cells,
            4,
            self.global_edges.len().saturating_mul(27),
            4,
            self.internal_edges.len().saturating_mul(23),
            tail,
        ]
        .into_iter()
        .fold(0, usize::saturating_add)
    }
}

#[cfg(feature = "arbitrary")]
mod arbitrary_impl {
    //! A hand-written `Arbitrary` for the top level: the fixed maps get their exact sizes (by
    //! repeating a few arbitrary entries) in almost every case, so fuzzing spends its time on
    //! models the writer accepts.
    use super::*;
    use arbitrary::{Arbitrary, Result, Unstructured};

    fn fill<'a, T: Arbitrary<'a> + Copy + Default>(
        u: &mut Unstructured<'a>,
        len: usize,
    ) -> Result<Vec<T>> {
        let pattern_len = u.int_in_range(1..=4)?;
        let mut pattern = Vec::with_capacity(pattern_len);
        for _ in 0..pattern_len {
            pattern.push(T::arbitrary(u)?);
        }
        Ok(pattern.iter().copied().cycle().take(len).collect())
    }

    fn map_len(u: &mut Unstructured<'_>, len: usize) -> Result<usize> {
        // One model in 32 has a map of the wrong size, which the writer must refuse.
        Ok(if u.ratio(1, 32)? {
            u.int_in_range(0..=len + 1)?
        } else {
            len
        })
    }

    impl<'a> Arbitrary<'a> for PlaneMaps {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            let types_len = map_len(u, PLANE_COUNT)?;
            let heights_len = map_len(u, PLANE_COUNT)?;
            Ok(PlaneMaps {
                types: fill(u, types_len)?,
                heights: fill(u, heights_len)?,
            })
        }
    }

    impl<'a> Arbitrary<'a> for TileMap {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            let len = map_len(u, TILE_COUNT)?;
            Ok(if u.ratio(3, 4)? {
                TileMap::Modern(fill(u, len)?)
            } else {
                TileMap::Legacy(fill(u, len)?)
            })
        }
    }

    impl<'a> Arbitrary<'a> for NavMeshTerrain {
        fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
            let objects = Vec::arbitrary(u)?;
            let open_cell_count = u32::arbitrary(u)?;
            let cells = Vec::arbitrary(u)?;
            let global_edges = Vec::arbitrary(u)?;
            let internal_edges = Vec::arbitrary(u)?;
            let tile_map = TileMap::arbitrary(u)?;
            let heights_len = map_len(u, HEIGHT_COUNT)?;
            let height_map = fill(u, heights_len)?;
            let planes = match (&tile_map, u.ratio(1, 16)?) {
                // Modern files always carry plane maps; one in 16 tries the combination the
                // writer refuses.
                (TileMap::Modern(_), flip) => {
                    (!flip).then(|| PlaneMaps::arbitrary(u)).transpose()?
                }
                (TileMap::Legacy(_), _) => Option::<PlaneMaps>::arbitrary(u)?,
            };
            Ok(NavMeshTerrain {
                objects,
                open_cell_count,
                cells,
                global_edges,
                internal_edges,
                tile_map,
                height_map,
                planes,
            })
        }
    }
}
