//! The zero-copy view of a `NAVI` record's (inflated) data: every subrecord, with `NVMI`,
//! `NVPP`, `NVER` and `NVSI` read into borrowed structures.
//!
//! A subrecord whose payload does not read as its type stays [`NaviFieldView::Other`] and
//! carries the error, so that the rest of the record still reads and the plugin's validation
//! can say what is wrong; the model keeps such a payload raw.

use nav_core::scalar::{F32, U16, U32};
use nav_core::{Cursor, Error, Result};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::super::subrecord::subrecords;
use super::super::{FORMAT, Signature};
use crate::nvnm::Parent;

/// The fixed 24 bytes an `NVMI` entry starts with.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct NavmeshInfoHead {
    /// FormID of the navmesh (`NAVM` record).
    pub navmesh: U32,
    /// Flags: `0x20` island, `0x40` road-marker navmesh (see [`super::ISLAND`]).
    pub flags: U32,
    /// Centre: the mean of the navmesh's vertices.
    pub centre: [F32; 3],
    /// Unknown float, non-zero exactly when the preferred edge-link list is not empty.
    pub unknown: F32,
}

/// One door link of an `NVMI` entry.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct DoorLinkRaw {
    /// Door type: the CRC of `PathingDoor` (`0xE48B73F3`) in every known file.
    pub door_type: U32,
    /// FormID of the door reference (`REFR`).
    pub door: U32,
}

/// The bounds of an island: minimum x, y, z then maximum x, y, z.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct IslandBounds {
    /// Minimum corner.
    pub min: [F32; 3],
    /// Maximum corner.
    pub max: [F32; 3],
}

/// The last 12 bytes of an `NVMI` entry: the same as bytes 4..16 of the navmesh's `NVNM`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct NavmeshInfoTail {
    /// The CRC of `PathingCell` (`0xA5E9A03C`) in every known file.
    pub pathing_cell_crc: U32,
    /// FormID of the worldspace, 0 for an interior cell.
    pub worldspace: U32,
    /// The cell's FormID when the worldspace is 0, else grid Y then grid X (`i16` each).
    pub cell_or_grid: [u8; 4],
}

impl NavmeshInfoTail {
    /// The parent, decided by the worldspace field as in `NVNM`.
    pub fn parent(&self) -> Parent {
        let [a, b, c, d] = self.cell_or_grid;
        match self.worldspace.get() {
            0 => Parent::Cell {
                cell: u32::from_le_bytes([a, b, c, d]),
            },
            worldspace => Parent::Worldspace {
                worldspace,
                grid_y: i16::from_le_bytes([a, b]),
                grid_x: i16::from_le_bytes([c, d]),
            },
        }
    }
}

/// An island's summary mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct IslandView<'a> {
    /// The stored non-zero has-island byte (1 in every known file).
    pub(crate) marker: u8,
    /// The bounds of the island's navmesh.
    pub(crate) bounds: &'a IslandBounds,
    /// Triangles of the summary mesh (vertex indices).
    pub(crate) triangles: &'a [[U16; 3]],
    /// Vertices of the summary mesh.
    pub(crate) vertices: &'a [[F32; 3]],
}

impl<'a> IslandView<'a> {
    /// The stored non-zero has-island byte (1 in every known file).
    pub fn marker(&self) -> u8 {
        self.marker
    }

    /// The bounds of the island's navmesh.
    pub fn bounds(&self) -> &'a IslandBounds {
        self.bounds
    }

    /// Triangles of the summary mesh (vertex indices).
    pub fn triangles(&self) -> &'a [[U16; 3]] {
        self.triangles
    }

    /// Vertices of the summary mesh.
    pub fn vertices(&self) -> &'a [[F32; 3]] {
        self.vertices
    }
}

/// One `NVMI` entry.
#[derive(Debug, Clone, PartialEq)]
pub struct NavmeshInfoView<'a> {
    /// Navmesh, flags, centre and the unknown float.
    pub(crate) head: &'a NavmeshInfoHead,
    /// Navmeshes this one has edge links to.
    pub(crate) edge_links: &'a [U32],
    /// Navmeshes this one has preferred edge links to.
    pub(crate) preferred_edge_links: &'a [U32],
    /// Door links.
    pub(crate) doors: &'a [DoorLinkRaw],
    /// The island data, present when the has-island byte is not 0.
    pub(crate) island: Option<IslandView<'a>>,
    /// Pathing-cell CRC and parent.
    pub(crate) tail: &'a NavmeshInfoTail,
    /// Bytes after the parent (none in any known file), kept.
    pub(crate) trailing: &'a [u8],
}

impl<'a> NavmeshInfoView<'a> {
    /// Navmesh, flags, centre and the unknown float.
    pub fn head(&self) -> &'a NavmeshInfoHead {
        self.head
    }

    /// Navmeshes this one has edge links to.
    pub fn edge_links(&self) -> &'a [U32] {
        self.edge_links
    }

    /// Navmeshes this one has preferred edge links to.
    pub fn preferred_edge_links(&self) -> &'a [U32] {
        self.preferred_edge_links
    }

    /// Door links.
    pub fn doors(&self) -> &'a [DoorLinkRaw] {
        self.doors
    }

    /// The island data, present when the has-island byte is not 0.
    pub fn island(&self) -> Option<&IslandView<'a>> {
        self.island.as_ref()
    }

    /// Pathing-cell CRC and parent.
    pub fn tail(&self) -> &'a NavmeshInfoTail {
        self.tail
    }

    /// Bytes after the parent (none in any known file), kept.
    pub fn trailing(&self) -> &'a [u8] {
        self.trailing
    }
}

fn form_ids<'a>(cur: &mut Cursor<'a>, what: &str) -> Result<&'a [U32]> {
    let n = cur.u32(format_args!("{what} count"))?;
    cur.slice(n, what)
}

impl<'a> NavmeshInfoView<'a> {
    /// Reads one `NVMI` payload; offsets in errors are relative to the payload.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut cur = Cursor::new(FORMAT, data);
        let head: &NavmeshInfoHead = cur.read("head")?;
        let edge_links = form_ids(&mut cur, "edge links")?;
        let preferred_edge_links = form_ids(&mut cur, "preferred edge links")?;
        let n = cur.u32("door links count")?;
        let doors = cur.slice(n, "door links")?;
        let marker = cur.u8("has island")?;
        let island = if marker == 0 {
            None
        } else {
            let bounds = cur.read("island bounds")?;
            let nt = cur.u32("island triangles count")?;
            let triangles = cur.slice(nt, "island triangles")?;
            let nv = cur.u32("island vertices count")?;
            let vertices = cur.slice(nv, "island vertices")?;
            Some(IslandView {
                marker,
                bounds,
                triangles,
                vertices,
            })
        };
        let tail = cur.read("pathing cell CRC and parent")?;
        let trailing = cur.rest();
        Ok(NavmeshInfoView {
            head,
            edge_links,
            preferred_edge_links,
            doors,
            island,
            tail,
            trailing,
        })
    }

    /// FormID of the navmesh.
    pub fn navmesh(&self) -> u32 {
        self.head.navmesh.get()
    }
}

/// One road-marker node of `NVPP`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RoadMarkerRaw {
    /// FormID of the navmesh the road marker sits on.
    pub navmesh: U32,
    /// The node's row and column in the path matrix.
    pub index: U32,
}

/// The `NVPP` subrecord: precomputed paths between road-marker navmeshes.
#[derive(Debug, Clone, PartialEq)]
pub struct PreferredPathingView<'a> {
    /// The paths, each a list of navmesh FormIDs (row-major, N × N for N nodes).
    pub(crate) paths: Vec<&'a [U32]>,
    /// The road-marker nodes.
    pub(crate) nodes: &'a [RoadMarkerRaw],
    /// Bytes after the nodes (none in any known file), kept.
    pub(crate) trailing: &'a [u8],
}

impl<'a> PreferredPathingView<'a> {
    /// The paths, each a list of navmesh FormIDs (row-major, N × N for N nodes).
    pub fn paths(&self) -> &[&'a [U32]] {
        &self.paths
    }

    /// The road-marker nodes.
    pub fn nodes(&self) -> &'a [RoadMarkerRaw] {
        self.nodes
    }

    /// Bytes after the nodes (none in any known file), kept.
    pub fn trailing(&self) -> &'a [u8] {
        self.trailing
    }
}

impl<'a> PreferredPathingView<'a> {
    /// Reads one `NVPP` payload; offsets in errors are relative to the payload.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let mut cur = Cursor::new(FORMAT, data);
        let count = cur.u32("path count")?;
        // Every path takes at least its 4-byte count.
        let n = cur.count(count, 4, "paths")?;
        let mut paths = Vec::with_capacity(n);
        for i in 0..n {
            paths.push(form_ids(&mut cur, &format!("paths[{i}]"))?);
        }
        let n = cur.u32("road-marker node count")?;
        let nodes = cur.slice(n, "road-marker nodes")?;
        Ok(PreferredPathingView {
            paths,
            nodes,
            trailing: cur.rest(),
        })
    }
}

/// What one subrecord of a `NAVI` record holds.
#[derive(Debug, Clone, PartialEq)]
pub enum NaviFieldView<'a> {
    /// `NVER`: the navmesh format version (12 Skyrim, 15 Fallout 4).
    Version(u32),
    /// `NVMI`: what the game keeps about one navmesh.
    NavmeshInfo(NavmeshInfoView<'a>),
    /// `NVPP`: precomputed paths between road-marker navmeshes.
    PreferredPathing(PreferredPathingView<'a>),
    /// `NVSI`: FormIDs, with no count (never seen in a file).
    DeletedNavmeshes(&'a [U32]),
    /// Any other subrecord (`EDID`), or one whose payload does not read as its type.
    Other {
        /// Why a known subrecord did not read; `None` for an unknown type.
        error: Option<Error>,
    },
}

/// One subrecord of a `NAVI` record.
#[derive(Debug, Clone, PartialEq)]
pub struct NaviSubrecordView<'a> {
    /// Subrecord type.
    pub(crate) signature: Signature,
    /// Offset of the payload in the record's (inflated) data.
    pub(crate) offset: usize,
    /// The payload.
    pub(crate) data: &'a [u8],
    /// `Some(size field)` when an `XXXX` subrecord gave the real size.
    pub(crate) large: Option<u16>,
    /// What the payload holds.
    pub(crate) field: NaviFieldView<'a>,
}

impl<'a> NaviSubrecordView<'a> {
    /// Subrecord type.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// Offset of the payload in the record's (inflated) data.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The payload.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// `Some(size field)` when an `XXXX` subrecord gave the real size.
    pub fn large(&self) -> Option<u16> {
        self.large
    }

    /// What the payload holds.
    pub fn field(&self) -> &NaviFieldView<'a> {
        &self.field
    }
}

/// Reads one payload as what its signature names; `None` for an unknown signature.
pub(crate) fn read_field<'a>(sig: &[u8; 4], data: &'a [u8]) -> Option<Result<NaviFieldView<'a>>> {
    Some(match sig {
        b"NVER" => {
            let mut cur = Cursor::new(FORMAT, data);
            cur.u32("version").and_then(|v| {
                cur.expect_end("version")
                    .map(|()| NaviFieldView::Version(v))
            })
        }
        b"NVMI" => NavmeshInfoView::parse(data).map(NaviFieldView::NavmeshInfo),
        b"NVPP" => PreferredPathingView::parse(data).map(NaviFieldView::PreferredPathing),
        b"NVSI" => {
            let mut cur = Cursor::new(FORMAT, data);
            cur.slice(data.len() / 4, "deleted navmeshes")
                .and_then(|ids| {
                    cur.expect_end("deleted navmeshes")
                        .map(|()| NaviFieldView::DeletedNavmeshes(ids))
                })
        }
        _ => return None,
    })
}

/// A `NAVI` record's data, read.
#[derive(Debug, Clone, PartialEq)]
pub struct NaviView<'a> {
    /// The subrecords, in order.
    pub(crate) subrecords: Vec<NaviSubrecordView<'a>>,
}

impl<'a> NaviView<'a> {
    /// The subrecords, in order.
    pub fn subrecords(&self) -> &[NaviSubrecordView<'a>] {
        &self.subrecords
    }
}

impl<'a> NaviView<'a> {
    /// Reads a `NAVI` record's (inflated) data. Only the subrecord framing can fail; a payload
    /// that does not read as its type becomes [`NaviFieldView::Other`] with the error.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        let spans = subrecords(data)?;
        let mut out = Vec::with_capacity(spans.len());
        let mut counts = std::collections::HashMap::<[u8; 4], usize>::new();
        for s in spans {
            let payload = data.get(s.range.clone()).unwrap_or(&[]);
            let sig = s.signature.0;
            let nth = counts.entry(sig).or_insert(0);
            let field = match read_field(&sig, payload) {
                None => NaviFieldView::Other { error: None },
                Some(Ok(f)) => f,
                Some(Err(e)) => NaviFieldView::Other {
                    error: Some(
                        e.shifted(s.range.start)
                            .within(format_args!("{}[{nth}]", s.signature)),
                    ),
                },
            };
            *nth += 1;
            out.push(NaviSubrecordView {
                signature: s.signature,
                offset: s.range.start,
                data: payload,
                large: s.large,
                field,
            });
        }
        Ok(NaviView { subrecords: out })
    }

    /// The `NVMI` entries that read, in order.
    pub fn navmesh_infos(&self) -> impl Iterator<Item = &NavmeshInfoView<'a>> {
        self.subrecords.iter().filter_map(|s| match &s.field {
            NaviFieldView::NavmeshInfo(n) => Some(n),
            _ => None,
        })
    }
}
