//! The navmesh info map: the `NAVI` record of Skyrim and Fallout 4 plugins.
//!
//! One `NAVI` record (FormID `00012FB4` in Skyrim, `00000FF1` in Fallout 4, both overrides of
//! the master's) tells the game about every navmesh: `NVER` (the navmesh format version), one
//! `NVMI` per navmesh (its centre, the navmeshes it links to, door links, island data, parent
//! cell), one `NVPP` (precomputed paths between the road-marker navmeshes), and rarely `EDID`
//! and `NVSI`. The layout is the same in Skyrim LE, SE and Fallout 4.
//!
//! - [`view`]: [`NaviView`], borrowed structures over the record's (inflated) data.
//! - This module: the owned model ([`NaviBody`], [`NavmeshInfo`], [`PreferredPathing`]) and its
//!   serialisation ([`subrecord_bytes`]).
//! - [`sync`]: bringing an `NVMI` entry up to date with its navmesh, as the Creation Kit does.
//!
//! Every list is kept in file order (none is sorted in real files), floats as bits, and any
//! subrecord that does not read as its type raw, so that a record comes back byte for byte.

pub mod sync;
pub mod view;

use nav_core::error::Later;
use nav_core::write::narrow;
use nav_core::{ByteWriter, Error, RawF32, Result};

use super::model::Compression;
use super::{FORMAT, Signature};
use crate::nvnm::Parent;
pub use view::{NaviFieldView, NaviView, NavmeshInfoView, PreferredPathingView};

/// `NVMI` flag: the navmesh is an island (the entry carries island data).
pub const ISLAND: u32 = 0x20;

/// `NVMI` flag: a road marker sits on the navmesh (it is a node of `NVPP`).
pub const ROAD_MARKER: u32 = 0x40;

/// The CRC of `PathingCell`, the first of the last 12 bytes of every known `NVMI` entry.
pub const PATHING_CELL_CRC: u32 = 0xA5E9_A03C;

/// The CRC of `PathingDoor`, the type of every known door link.
pub const PATHING_DOOR_CRC: u32 = 0xE48B_73F3;

/// One door link of an `NVMI` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct DoorLink {
    /// Door type ([`PATHING_DOOR_CRC`] in every known file).
    pub door_type: u32,
    /// FormID of the door reference.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
    pub door: u32,
}

/// The island data of an `NVMI` entry: the navmesh's bounds and a reduced copy of its mesh
/// (empty for large meshes; how the Creation Kit reduces it is not known).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Island {
    /// The stored has-island byte; not 0 (1 in every known file).
    pub marker: u8,
    /// Minimum corner of the navmesh's vertices.
    pub min: [RawF32; 3],
    /// Maximum corner of the navmesh's vertices.
    pub max: [RawF32; 3],
    /// Triangles of the summary mesh.
    pub triangles: Vec<[u16; 3]>,
    /// Vertices of the summary mesh.
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "nav_core::positions::records")
    )]
    pub vertices: Vec<[RawF32; 3]>,
}

/// One `NVMI` entry: what the game keeps about one navmesh.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavmeshInfo {
    /// FormID of the navmesh.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
    pub navmesh: u32,
    /// Flags: [`ISLAND`], [`ROAD_MARKER`]; the other bits are 0 in every known file.
    pub flags: u32,
    /// The mean of the navmesh's vertices (f32 running sum in file order times f32(1/n)).
    pub centre: [RawF32; 3],
    /// Unknown: 0 exactly when `preferred_edge_links` is empty, else 0.015 to 0.214 in the
    /// known files. Older readers call it a "preferred merges flag"; it is a float.
    pub unknown: RawF32,
    /// The navmeshes this one has edge links to (the set of `NVNM` edge-link targets), in
    /// stored order.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::list"))]
    pub edge_links: Vec<u32>,
    /// The navmeshes this one has preferred edge links to.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::list"))]
    pub preferred_edge_links: Vec<u32>,
    /// Door links.
    pub doors: Vec<DoorLink>,
    /// Island data, when the has-island byte is not 0.
    pub island: Option<Island>,
    /// [`PATHING_CELL_CRC`] in every known file.
    pub pathing_cell_crc: u32,
    /// The cell, or worldspace and grid cell, the navmesh belongs to (as in its `NVNM`).
    pub parent: Parent,
    /// Bytes after the parent (none in any known file; hex in JSON).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "super::hex_bytes"
        )
    )]
    pub trailing: Vec<u8>,
}

/// One road-marker node of `NVPP`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RoadMarkerNode {
    /// FormID of the navmesh.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
    pub navmesh: u32,
    /// The node's row and column in the path matrix.
    pub index: u32,
}

/// The `NVPP` subrecord: for N road-marker navmeshes, N × N paths in row-major order (path
/// `k` runs from the node with index `k / N` to the node with index `k % N`), each a list of
/// navmesh FormIDs, then the nodes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct PreferredPathing {
    /// The paths.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::lists"))]
    pub paths: Vec<Vec<u32>>,
    /// The road-marker nodes, in stored order.
    pub nodes: Vec<RoadMarkerNode>,
    /// Bytes after the nodes (none in any known file; hex in JSON).
    #[cfg_attr(
        feature = "serde",
        serde(
            default,
            skip_serializing_if = "Vec::is_empty",
            with = "super::hex_bytes"
        )
    )]
    pub trailing: Vec<u8>,
}

/// What one subrecord of a `NAVI` record holds.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum NaviField {
    /// `NVER`: the navmesh format version (12 Skyrim, 15 Fallout 4).
    Version(u32),
    /// `NVMI`.
    NavmeshInfo(NavmeshInfo),
    /// `NVPP`.
    PreferredPathing(PreferredPathing),
    /// `NVSI`: FormIDs without a count (never seen in a file; xEdit names it "deleted
    /// navmeshes").
    DeletedNavmeshes(#[cfg_attr(feature = "serde", serde(with = "crate::form_id::list"))] Vec<u32>),
    /// Any other subrecord (`EDID`), or a known one whose payload does not read as its type.
    Other {
        /// Subrecord type.
        signature: Signature,
        /// The payload (hex in JSON).
        #[cfg_attr(feature = "serde", serde(with = "super::hex_bytes"))]
        data: Vec<u8>,
    },
}

impl NaviField {
    /// The subrecord type this field is written with.
    pub fn signature(&self) -> Signature {
        Signature(match self {
            NaviField::Version(_) => *b"NVER",
            NaviField::NavmeshInfo(_) => *b"NVMI",
            NaviField::PreferredPathing(_) => *b"NVPP",
            NaviField::DeletedNavmeshes(_) => *b"NVSI",
            NaviField::Other { signature, .. } => return *signature,
        })
    }
}

/// One subrecord of a `NAVI` record.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NaviSubrecord {
    /// What it holds.
    pub field: NaviField,
    /// `Some(size field)` for the `XXXX` large form (needed over 65,535 bytes).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub large: Option<u16>,
}

/// The opened data of a `NAVI` record.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NaviBody {
    /// How the data is stored (every known `NAVI` is uncompressed).
    pub compression: Compression,
    /// The subrecords, in order.
    pub subrecords: Vec<NaviSubrecord>,
}

fn ids(list: &[nav_core::scalar::U32]) -> Vec<u32> {
    list.iter().map(|v| v.get()).collect()
}

fn xyz(v: &[nav_core::scalar::F32; 3]) -> [RawF32; 3] {
    v.map(RawF32::from)
}

impl NavmeshInfo {
    /// Copies a view.
    pub fn from_view(v: &NavmeshInfoView<'_>) -> NavmeshInfo {
        NavmeshInfo {
            navmesh: v.head.navmesh.get(),
            flags: v.head.flags.get(),
            centre: xyz(&v.head.centre),
            unknown: RawF32::from(v.head.unknown),
            edge_links: ids(v.edge_links),
            preferred_edge_links: ids(v.preferred_edge_links),
            doors: v
                .doors
                .iter()
                .map(|d| DoorLink {
                    door_type: d.door_type.get(),
                    door: d.door.get(),
                })
                .collect(),
            island: v.island.as_ref().map(|i| Island {
                marker: i.marker,
                min: xyz(&i.bounds.min),
                max: xyz(&i.bounds.max),
                triangles: i.triangles.iter().map(|t| t.map(|x| x.get())).collect(),
                vertices: i.vertices.iter().map(xyz).collect(),
            }),
            pathing_cell_crc: v.tail.pathing_cell_crc.get(),
            parent: v.tail.parent(),
            trailing: v.trailing.to_vec(),
        }
    }
}

impl NaviField {
    fn from_view(signature: Signature, data: &[u8], v: &NaviFieldView<'_>) -> NaviField {
        match v {
            NaviFieldView::Version(n) => NaviField::Version(*n),
            NaviFieldView::NavmeshInfo(n) => NaviField::NavmeshInfo(NavmeshInfo::from_view(n)),
            NaviFieldView::PreferredPathing(p) => NaviField::PreferredPathing(PreferredPathing {
                paths: p.paths.iter().map(|path| ids(path)).collect(),
                nodes: p
                    .nodes
                    .iter()
                    .map(|n| RoadMarkerNode {
                        navmesh: n.navmesh.get(),
                        index: n.index.get(),
                    })
                    .collect(),
                trailing: p.trailing.to_vec(),
            }),
            NaviFieldView::DeletedNavmeshes(list) => NaviField::DeletedNavmeshes(ids(list)),
            NaviFieldView::Other { .. } => NaviField::Other {
                signature,
                data: data.to_vec(),
            },
        }
    }
}

impl NaviBody {
    /// Copies a view; `compression` is how the record's data was stored.
    pub fn from_view(view: &NaviView<'_>, compression: Compression) -> NaviBody {
        NaviBody {
            compression,
            subrecords: view
                .subrecords
                .iter()
                .map(|s| NaviSubrecord {
                    field: NaviField::from_view(s.signature, s.data, &s.field),
                    large: s.large,
                })
                .collect(),
        }
    }

    /// The `NVMI` entries, in order.
    pub fn navmesh_infos(&self) -> impl Iterator<Item = &NavmeshInfo> {
        self.subrecords.iter().filter_map(|s| match &s.field {
            NaviField::NavmeshInfo(n) => Some(n),
            _ => None,
        })
    }

    /// The `NVMI` entry of navmesh `form_id` (the first, should it repeat).
    pub fn navmesh_info_mut(&mut self, form_id: u32) -> Option<&mut NavmeshInfo> {
        self.subrecords.iter_mut().find_map(|s| match &mut s.field {
            NaviField::NavmeshInfo(n) if n.navmesh == form_id => Some(n),
            _ => None,
        })
    }

    /// The `NVER` version, if there is one.
    pub fn version(&self) -> Option<u32> {
        self.subrecords.iter().find_map(|s| match s.field {
            NaviField::Version(v) => Some(v),
            _ => None,
        })
    }
}

fn count(w: &mut ByteWriter, field: &dyn Fn() -> String, n: usize) -> Result<()> {
    w.u32(narrow(FORMAT, Later(field), n)?);
    Ok(())
}

fn put_xyz(w: &mut ByteWriter, v: &[RawF32; 3]) {
    for c in v {
        w.f32(*c);
    }
}

/// Serialises one `NVMI` payload.
pub fn navmesh_info_bytes(n: &NavmeshInfo, at: &dyn Fn() -> String) -> Result<Vec<u8>> {
    let mut w = ByteWriter::new();
    w.u32(n.navmesh).u32(n.flags);
    put_xyz(&mut w, &n.centre);
    w.f32(n.unknown);
    count(
        &mut w,
        &|| format!("{} edge links", at()),
        n.edge_links.len(),
    )?;
    n.edge_links.iter().for_each(|id| {
        w.u32(*id);
    });
    count(
        &mut w,
        &|| format!("{} preferred edge links", at()),
        n.preferred_edge_links.len(),
    )?;
    n.preferred_edge_links.iter().for_each(|id| {
        w.u32(*id);
    });
    count(&mut w, &|| format!("{} doors", at()), n.doors.len())?;
    for d in &n.doors {
        w.u32(d.door_type).u32(d.door);
    }
    match &n.island {
        None => {
            w.u8(0);
        }
        Some(i) => {
            if i.marker == 0 {
                return Err(Error::unrepresentable(
                    FORMAT,
                    format_args!("{} island marker", at()),
                    "an island's has-island byte must not be 0 (0 means no island data)",
                ));
            }
            w.u8(i.marker);
            put_xyz(&mut w, &i.min);
            put_xyz(&mut w, &i.max);
            count(
                &mut w,
                &|| format!("{} island triangles", at()),
                i.triangles.len(),
            )?;
            for t in &i.triangles {
                w.u16(t[0]).u16(t[1]).u16(t[2]);
            }
            count(
                &mut w,
                &|| format!("{} island vertices", at()),
                i.vertices.len(),
            )?;
            i.vertices.iter().for_each(|v| put_xyz(&mut w, v));
        }
    }
    w.u32(n.pathing_cell_crc);
    match n.parent {
        Parent::Cell { cell } => w.u32(0).u32(cell),
        Parent::Worldspace {
            worldspace: 0,
            grid_x,
            grid_y,
        } => {
            return Err(Error::unrepresentable(
                FORMAT,
                format_args!("{} parent", at()),
                format!(
                    "worldspace 0 means an interior cell; grid ({grid_x}, {grid_y}) cannot \
                     be stored with it"
                ),
            ));
        }
        Parent::Worldspace {
            worldspace,
            grid_x,
            grid_y,
        } => w.u32(worldspace).i16(grid_y).i16(grid_x),
    };
    w.bytes(&n.trailing);
    Ok(w.into_inner())
}

fn pathing_bytes(p: &PreferredPathing, at: &dyn Fn() -> String) -> Result<Vec<u8>> {
    let mut w = ByteWriter::new();
    count(&mut w, &|| format!("{} paths", at()), p.paths.len())?;
    for (i, path) in p.paths.iter().enumerate() {
        count(&mut w, &|| format!("{} paths[{i}]", at()), path.len())?;
        path.iter().for_each(|id| {
            w.u32(*id);
        });
    }
    count(&mut w, &|| format!("{} nodes", at()), p.nodes.len())?;
    for n in &p.nodes {
        w.u32(n.navmesh).u32(n.index);
    }
    w.bytes(&p.trailing);
    Ok(w.into_inner())
}

/// The payload of one subrecord. A raw payload of a known type that would read as that type
/// is refused: a read would give the structured form, not the raw one.
pub fn field_bytes(f: &NaviField, at: &dyn Fn() -> String) -> Result<Vec<u8>> {
    Ok(match f {
        NaviField::Version(v) => v.to_le_bytes().to_vec(),
        NaviField::NavmeshInfo(n) => navmesh_info_bytes(n, at)?,
        NaviField::PreferredPathing(p) => pathing_bytes(p, at)?,
        NaviField::DeletedNavmeshes(list) => list.iter().flat_map(|id| id.to_le_bytes()).collect(),
        NaviField::Other { signature, data } => {
            if let Some(Ok(_)) = view::read_field(&signature.0, data) {
                return Err(Error::unrepresentable(
                    FORMAT,
                    at(),
                    format!(
                        "this raw {signature} payload reads as a {signature}: give it in its \
                         structured form"
                    ),
                ));
            }
            data.clone()
        }
    })
}

/// The subrecords of a `NAVI` record, serialised (uncompressed).
pub fn subrecord_bytes(body: &NaviBody, form_id: u32) -> Result<Vec<u8>> {
    let mut w = ByteWriter::new();
    for (i, s) in body.subrecords.iter().enumerate() {
        let sig = s.field.signature();
        let at = || format!("NAVI record {form_id:08X} subrecords[{i}] {sig}");
        let data = field_bytes(&s.field, &at)?;
        super::subrecord::put_subrecord(&mut w, sig, s.large, &data, &at)?;
    }
    Ok(w.into_inner())
}
