//! The zero-copy view of a `JMXVNVM 1000` file.
//!
//! [`NavMeshTerrainView::parse`] walks the file once. Fixed-size records are borrowed as slices of alignment-1
//! zerocopy structs; the two variable-length streams (objects with their links, cells with their
//! object lists) get one index each, built in that same pass, holding the borrowed record and its
//! borrowed trailing list. The tail (tile map, height map, plane maps) is told apart by the number
//! of bytes left after the internal edges. After a successful parse every getter is infallible.

use nav_core::scalar::{
    F32, FromBytes, I16, I32, Immutable, IntoBytes, KnownLayout, U16, U32, Unaligned,
};
use nav_core::{Cursor, RawF32, Result};

use crate::model::{
    CellQuad, EdgeGlobal, EdgeInternal, HEIGHT_COUNT, Layout, LinkedEdge, NavMeshObj,
    NavMeshTerrain, PLANE_COUNT, PlaneMaps, TILE_COUNT, Tile, TileMap,
};
use crate::{FORMAT, SIGNATURE};

/// The fixed 32-byte part of an object entry (up to and including its link count).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, PartialEq)]
#[repr(C)]
pub struct ObjRecord {
    /// `ResourceID`.
    pub resource_id: U32,
    /// `LocalPosition` (x, y, z).
    pub local_position: [F32; 3],
    /// `IsStatic` (-1 or 0).
    pub is_static: I16,
    /// `Yaw` in radians.
    pub yaw: F32,
    /// `UID`.
    pub uid: U16,
    /// `unkShort01`.
    pub unk_short01: U16,
    /// `IsBig`.
    pub is_big: u8,
    /// `IsStruct`.
    pub is_struct: u8,
    /// `RegionId`.
    pub region_id: U16,
    /// `LinkedEdgeCount`.
    pub linked_edge_count: U16,
}

/// One `LinkedEdge` (6 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, PartialEq)]
#[repr(C)]
pub struct LinkedEdgeRecord {
    /// `OtherObjectIndex`.
    pub other_object_index: I16,
    /// `OtherEdgeIndex`.
    pub other_edge_index: I16,
    /// `EdgeIndex`.
    pub edge_index: I16,
}

/// The fixed 17-byte part of a cell (rectangle and object-index count).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, PartialEq)]
#[repr(C)]
pub struct CellRecord {
    /// `Min` (x, z).
    pub min: [F32; 2],
    /// `Max` (x, z).
    pub max: [F32; 2],
    /// `ObjectCount`: how many object indices follow.
    pub object_count: u8,
}

/// One global edge (27 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, PartialEq)]
#[repr(C)]
pub struct EdgeGlobalRecord {
    /// `Min` endpoint (x, z).
    pub min: [F32; 2],
    /// `Max` endpoint (x, z).
    pub max: [F32; 2],
    /// `Flags`.
    pub flags: u8,
    /// `AssocDirection[2]` (signed bytes).
    pub assoc_direction: [u8; 2],
    /// `AssocCellIndex[2]`.
    pub assoc_cell_index: [I16; 2],
    /// `AssocRegionId[2]`.
    pub assoc_region_id: [U16; 2],
}

/// One internal edge (23 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, PartialEq)]
#[repr(C)]
pub struct EdgeInternalRecord {
    /// `Min` endpoint (x, z).
    pub min: [F32; 2],
    /// `Max` endpoint (x, z).
    pub max: [F32; 2],
    /// `Flags`.
    pub flags: u8,
    /// `AssocDirection[2]` (signed bytes).
    pub assoc_direction: [u8; 2],
    /// `AssocCellIndex[2]`.
    pub assoc_cell_index: [I16; 2],
}

/// One modern tile (8 bytes).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned, PartialEq)]
#[repr(C)]
pub struct TileRecord {
    /// `CellIndex`.
    pub cell_index: I32,
    /// `Flags`.
    pub flags: U16,
    /// `TextureID`.
    pub texture_id: U16,
}

/// An object entry: its fixed record and its links, both borrowed (made only by the parser).
#[derive(Debug, Clone, Copy)]
pub struct ObjView<'a> {
    record: &'a ObjRecord,
    linked_edges: &'a [LinkedEdgeRecord],
}

impl<'a> ObjView<'a> {
    /// The fixed part.
    pub fn record(&self) -> &'a ObjRecord {
        self.record
    }

    /// The `LinkedEdge` entries (`record().linked_edge_count` of them).
    pub fn linked_edges(&self) -> &'a [LinkedEdgeRecord] {
        self.linked_edges
    }
}

/// A cell: its fixed record and its object indices, both borrowed (made only by the parser).
#[derive(Debug, Clone, Copy)]
pub struct CellView<'a> {
    record: &'a CellRecord,
    object_indices: &'a [U16],
}

impl<'a> CellView<'a> {
    /// The rectangle and the object-index count.
    pub fn record(&self) -> &'a CellRecord {
        self.record
    }

    /// The `ObjectIndex` list (`record().object_count` of them).
    pub fn object_indices(&self) -> &'a [U16] {
        self.object_indices
    }
}

/// The tile map as borrowed records.
#[derive(Debug, Clone, Copy)]
pub enum TileMapView<'a> {
    /// 8-byte tiles.
    Modern(&'a [TileRecord]),
    /// 4-byte legacy tiles (raw dwords).
    Legacy(&'a [U32]),
}

/// The plane maps as borrowed records (made only by the parser, 36 of each).
#[derive(Debug, Clone, Copy)]
pub struct PlaneMapsView<'a> {
    types: &'a [u8],
    heights: &'a [F32],
}

impl<'a> PlaneMapsView<'a> {
    /// `PlaneType[36]`.
    pub fn types(&self) -> &'a [u8] {
        self.types
    }

    /// `PlaneHeight[36]`.
    pub fn heights(&self) -> &'a [F32] {
        self.heights
    }
}

/// A parsed `JMXVNVM 1000` file, borrowing the input.
#[derive(Debug, Clone)]
pub struct NavMeshTerrainView<'a> {
    data: &'a [u8],
    layout: Layout,
    objects: Vec<ObjView<'a>>,
    open_cell_count: u32,
    cells: Vec<CellView<'a>>,
    global_edges: &'a [EdgeGlobalRecord],
    internal_edges: &'a [EdgeInternalRecord],
    tile_map: TileMapView<'a>,
    height_map: &'a [F32],
    planes: Option<PlaneMapsView<'a>>,
}

/// Parses a whole file into a view ([`NavMeshTerrainView::parse`]).
pub(crate) fn parse(data: &[u8]) -> Result<NavMeshTerrainView<'_>> {
    let mut cur = Cursor::new(FORMAT, data);
    cur.magic(SIGNATURE.as_slice(), "signature", "JMXVNVM 1000")?;

    let object_count = cur.u16("object count")?;
    let object_count = cur.count(object_count, 32, "objects")?;
    let mut objects = Vec::with_capacity(object_count);
    for i in 0..object_count {
        let record: &ObjRecord = cur.read(format_args!("objects[{i}]"))?;
        let linked_edges = cur.slice(
            record.linked_edge_count.get(),
            format_args!("objects[{i}] linked edges"),
        )?;
        objects.push(ObjView {
            record,
            linked_edges,
        });
    }

    let cell_count = cur.u32("cell count")?;
    let open_cell_count = cur.u32("open cell count")?;
    let cell_count = cur.count(cell_count, 17, "cells")?;
    let mut cells = Vec::with_capacity(cell_count);
    for i in 0..cell_count {
        let record: &CellRecord = cur.read(format_args!("cells[{i}]"))?;
        let object_indices = cur.slice(
            record.object_count,
            format_args!("cells[{i}] object indices"),
        )?;
        cells.push(CellView {
            record,
            object_indices,
        });
    }

    let global_edge_count = cur.u32("global edge count")?;
    let global_edges = cur.slice(global_edge_count, "global edges")?;
    let internal_edge_count = cur.u32("internal edge count")?;
    let internal_edges = cur.slice(internal_edge_count, "internal edges")?;

    let tail = cur.remaining();
    let Some(layout) = Layout::from_tail_len(tail) else {
        return Err(cur.invalid(
            "tile map",
            format_args!(
                "{tail} bytes follow the internal edges, but a file ends with exactly {} (modern: \
                 8-byte tiles, height map, plane maps), {} (legacy: 4-byte tiles, height map, plane \
                 maps) or {} (legacy: 4-byte tiles, height map, no plane maps); the tail starts",
                Layout::Modern.tail_len(),
                Layout::LegacyWithPlanes.tail_len(),
                Layout::LegacyWithoutPlanes.tail_len(),
            ),
        ));
    };
    let tile_map = match layout {
        Layout::Modern => TileMapView::Modern(cur.slice(TILE_COUNT, "tile map")?),
        Layout::LegacyWithPlanes | Layout::LegacyWithoutPlanes => {
            TileMapView::Legacy(cur.slice(TILE_COUNT, "tile map")?)
        }
    };
    let height_map = cur.slice(HEIGHT_COUNT, "height map")?;
    let planes = match layout {
        Layout::Modern | Layout::LegacyWithPlanes => Some(PlaneMapsView {
            types: cur.slice(PLANE_COUNT, "plane types")?,
            heights: cur.slice(PLANE_COUNT, "plane heights")?,
        }),
        Layout::LegacyWithoutPlanes => None,
    };
    cur.expect_end("end of file")?;

    Ok(NavMeshTerrainView {
        data,
        layout,
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

fn raw(f: &F32) -> RawF32 {
    RawF32::from(f)
}

fn raw2(v: &[F32; 2]) -> [RawF32; 2] {
    [raw(&v[0]), raw(&v[1])]
}

fn dir(v: [u8; 2]) -> [i8; 2] {
    v.map(|b| i8::from_le_bytes([b]))
}

impl<'a> NavMeshTerrainView<'a> {
    /// The whole input.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// Which of the three layouts the file has.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The objects with their links.
    pub fn objects(&self) -> &[ObjView<'a>] {
        &self.objects
    }

    /// `OpenCellCount` as stored.
    pub fn open_cell_count(&self) -> u32 {
        self.open_cell_count
    }

    /// The cells with their object lists.
    pub fn cells(&self) -> &[CellView<'a>] {
        &self.cells
    }

    /// The global edges.
    pub fn global_edges(&self) -> &'a [EdgeGlobalRecord] {
        self.global_edges
    }

    /// The internal edges.
    pub fn internal_edges(&self) -> &'a [EdgeInternalRecord] {
        self.internal_edges
    }

    /// The tile map (exactly 9,216 records).
    pub fn tile_map(&self) -> TileMapView<'a> {
        self.tile_map
    }

    /// The height map (exactly 9,409 heights).
    pub fn height_map(&self) -> &'a [F32] {
        self.height_map
    }

    /// The plane maps, absent in one legacy layout.
    pub fn planes(&self) -> Option<PlaneMapsView<'a>> {
        self.planes
    }
}

impl NavMeshTerrain {
    /// Copies a view into the owned model.
    pub fn from_view(view: &NavMeshTerrainView<'_>) -> NavMeshTerrain {
        let objects = view
            .objects
            .iter()
            .map(|o| {
                let r = o.record;
                NavMeshObj {
                    resource_id: r.resource_id.get(),
                    local_position: r.local_position.each_ref().map(raw),
                    is_static: r.is_static.get(),
                    yaw: raw(&r.yaw),
                    uid: r.uid.get(),
                    unk_short01: r.unk_short01.get(),
                    is_big: r.is_big,
                    is_struct: r.is_struct,
                    region_id: r.region_id.get(),
                    linked_edges: o
                        .linked_edges
                        .iter()
                        .map(|l| LinkedEdge {
                            other_object_index: l.other_object_index.get(),
                            other_edge_index: l.other_edge_index.get(),
                            edge_index: l.edge_index.get(),
                        })
                        .collect(),
                }
            })
            .collect();
        let cells = view
            .cells
            .iter()
            .map(|c| CellQuad {
                min: raw2(&c.record.min),
                max: raw2(&c.record.max),
                object_indices: c.object_indices.iter().map(|i| i.get()).collect(),
            })
            .collect();
        let global_edges = view
            .global_edges
            .iter()
            .map(|e| EdgeGlobal {
                min: raw2(&e.min),
                max: raw2(&e.max),
                flags: e.flags,
                assoc_direction: dir(e.assoc_direction),
                assoc_cell_index: e.assoc_cell_index.map(|v| v.get()),
                assoc_region_id: e.assoc_region_id.map(|v| v.get()),
            })
            .collect();
        let internal_edges = view
            .internal_edges
            .iter()
            .map(|e| EdgeInternal {
                min: raw2(&e.min),
                max: raw2(&e.max),
                flags: e.flags,
                assoc_direction: dir(e.assoc_direction),
                assoc_cell_index: e.assoc_cell_index.map(|v| v.get()),
            })
            .collect();
        let tile_map = match view.tile_map {
            TileMapView::Modern(tiles) => TileMap::Modern(
                tiles
                    .iter()
                    .map(|t| Tile {
                        cell_index: t.cell_index.get(),
                        flags: t.flags.get(),
                        texture_id: t.texture_id.get(),
                    })
                    .collect(),
            ),
            TileMapView::Legacy(tiles) => TileMap::Legacy(tiles.iter().map(|t| t.get()).collect()),
        };
        NavMeshTerrain {
            objects,
            open_cell_count: view.open_cell_count,
            cells,
            global_edges,
            internal_edges,
            tile_map,
            height_map: view.height_map.iter().map(raw).collect(),
            planes: view.planes.map(|p| PlaneMaps {
                types: p.types.to_vec(),
                heights: p.heights.iter().map(raw).collect(),
            }),
        }
    }
}
