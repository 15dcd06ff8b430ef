//! The zero-copy view: packed records borrowed straight from the file.
//!
//! The file is six arrays back to back with no offsets and no padding, so parsing is a walk that
//! checks each stored count against the bytes left and borrows the records:
//!
//! ```text
//! header (20 or 24 B) │ Node[n] 8 B │ origin[n] 12 B │ Link[l] 6 B │ Traversal[t] 36/48 B │ u32 e │ Edict[e]
//! ```

use nav_core::scalar::{F32, I32, U16, U32};
use nav_core::zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};
use nav_core::{ByteWriter, Cursor, ErrorKind, Result};

use crate::FORMAT;
use crate::layout::{EdictLayout, Layout, Magic};

/// Bytes one node takes: its record and its origin.
const NODE_AND_ORIGIN: usize = 8 + 12;

/// The five header fields every version has (20 bytes); the heuristic follows where the layout
/// has one.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawHeader {
    /// `NAV2` or `NAV3`.
    pub magic: [u8; 4],
    /// Written as a signed int by the engine, read as unsigned.
    pub version: U32,
    /// Node count (and origin count).
    pub num_nodes: U32,
    /// Link count.
    pub num_links: U32,
    /// Traversal count.
    pub num_traversals: U32,
}

/// Three floats, kept as their bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawVec3 {
    /// X.
    pub x: F32,
    /// Y.
    pub y: F32,
    /// Z.
    pub z: F32,
}

/// A node: 8 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawNode {
    /// Node flag bits ([`crate::NodeFlags`]).
    pub flags: U16,
    /// How many links, starting at `first_link`, leave this node.
    pub num_links: U16,
    /// Index of the node's first link.
    pub first_link: U16,
    /// Radius in world units.
    pub radius: U16,
}

/// A link: 6 bytes. The second word is a `u16` type in NAV2 up to v17, and a type byte plus a
/// flags byte in NAV2 v18 and NAV3; both bytes are kept apart and raw.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawLink {
    /// Node the link leads to.
    pub target: U16,
    /// Link type ([`crate::LinkType`]).
    pub link_type: u8,
    /// Link flags (NAV3, NAV2 v18) or the high byte of the old `u16` type (0 up to v17).
    pub flags: u8,
    /// Traversal index, `0xFFFF` for none.
    pub traversal: U16,
}

/// A traversal without a ladder plane: 36 bytes (NAV2, NAV3 before v4).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawTraversal {
    /// Funnel point, (0,0,0) when unused.
    pub funnel: RawVec3,
    /// Start point.
    pub start: RawVec3,
    /// End point.
    pub end: RawVec3,
}

/// A traversal with a ladder plane: 48 bytes (NAV3 v4 and later).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawLadderTraversal {
    /// Funnel point, (0,0,0) when unused.
    pub funnel: RawVec3,
    /// Start point.
    pub start: RawVec3,
    /// End point.
    pub end: RawVec3,
    /// Ladder plane normal.
    pub ladder_plane: RawVec3,
}

/// An edict of NAV2 v12: 26 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawEdictV12 {
    /// Index of the link the entity gates.
    pub link: U16,
    /// Bounding box minimum.
    pub mins: RawVec3,
    /// Bounding box maximum.
    pub maxs: RawVec3,
}

/// An edict of NAV2 v13 and v14: 34 bytes, two engine string ids after the box.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawEdictV14 {
    /// Index of the link the entity gates.
    pub link: U16,
    /// Bounding box minimum.
    pub mins: RawVec3,
    /// Bounding box maximum.
    pub maxs: RawVec3,
    /// Engine string id of the entity's targetname.
    pub targetname: I32,
    /// Engine string id of the entity's classname.
    pub classname: I32,
}

/// An edict of NAV2 v15 and later: 30 bytes, an entity id after the box.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawEdictV15 {
    /// Index of the link the entity gates.
    pub link: U16,
    /// Bounding box minimum.
    pub mins: RawVec3,
    /// Bounding box maximum.
    pub maxs: RawVec3,
    /// `-(entity index) - 1`.
    pub entity: I32,
}

/// An edict of NAV3: 30 bytes, the model index between the link and the box.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawEdictNav3 {
    /// Index of the link the entity gates.
    pub link: U16,
    /// Brush model index.
    pub model: I32,
    /// Bounding box minimum.
    pub mins: RawVec3,
    /// Bounding box maximum.
    pub maxs: RawVec3,
}

/// The traversal array, in its version's record size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Traversals<'a> {
    /// 36-byte records.
    Plain(&'a [RawTraversal]),
    /// 48-byte records with a ladder plane.
    Ladder(&'a [RawLadderTraversal]),
}

impl Traversals<'_> {
    /// Number of traversals.
    pub fn len(&self) -> usize {
        match self {
            Traversals::Plain(s) => s.len(),
            Traversals::Ladder(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Traversals::Plain(s) => s.as_bytes(),
            Traversals::Ladder(s) => s.as_bytes(),
        }
    }
}

/// The edict array, in its version's record layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edicts<'a> {
    /// NAV2 v12.
    V12(&'a [RawEdictV12]),
    /// NAV2 v13, v14.
    V14(&'a [RawEdictV14]),
    /// NAV2 v15 and later.
    V15(&'a [RawEdictV15]),
    /// NAV3.
    Nav3(&'a [RawEdictNav3]),
}

impl Edicts<'_> {
    /// Number of edicts.
    pub fn len(&self) -> usize {
        match self {
            Edicts::V12(s) => s.len(),
            Edicts::V14(s) => s.len(),
            Edicts::V15(s) => s.len(),
            Edicts::Nav3(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn as_bytes(&self) -> &[u8] {
        match self {
            Edicts::V12(s) => s.as_bytes(),
            Edicts::V14(s) => s.as_bytes(),
            Edicts::V15(s) => s.as_bytes(),
            Edicts::Nav3(s) => s.as_bytes(),
        }
    }
}

/// A parsed file: every array borrowed from the input. Only [`NavView::parse`] makes one; the
/// getters hand out what it checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NavView<'a> {
    header: &'a RawHeader,
    layout: Layout,
    heuristic: Option<&'a F32>,
    nodes: &'a [RawNode],
    origins: &'a [RawVec3],
    links: &'a [RawLink],
    traversals: Traversals<'a>,
    num_edicts: &'a U32,
    edicts: Edicts<'a>,
}

impl<'a> NavView<'a> {
    /// Parses a whole file. The file must end exactly after the last edict.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut cur = Cursor::new(FORMAT, bytes);
        // The common case reads the header at once; when that fails, or the magic is neither
        // NAV2 nor NAV3, the signature check names the failure, so that a short file of
        // another kind is called that rather than truncated.
        let found = cur
            .read::<RawHeader>("header")
            .map(|h| (h, Magic::from_bytes(&h.magic)));
        let (header, magic) = match found {
            Ok((header, Some(magic))) => (header, magic),
            Ok((_, None)) | Err(_) => return Err(Self::signature_error(bytes, found.err())),
        };
        let version = header.version.get();
        let Some(layout) = Layout::new(magic, version) else {
            return Err(cur.fail(
                "header",
                ErrorKind::UnsupportedVersion {
                    offset: 4,
                    version: u64::from(version),
                    supported: magic.supported().to_string(),
                },
            ));
        };
        let heuristic = if layout.has_heuristic() {
            Some(cur.read::<F32>("heuristic")?)
        } else {
            None
        };
        // One count for two arrays. Each checks its own size; when either does not fit, the
        // error is the count's, measured against both (each node takes its record and its
        // origin), out of the common path.
        let n = header.num_nodes.get();
        let at = cur.offset();
        let nodes = match cur.slice::<RawNode>(n, "nodes") {
            Ok(nodes) => nodes,
            Err(e) => return Err(Self::node_count_error(bytes, at, n, e)),
        };
        let origins = match cur.slice::<RawVec3>(n, "node origins") {
            Ok(origins) => origins,
            Err(e) => return Err(Self::node_count_error(bytes, at, n, e)),
        };
        let links = cur.slice::<RawLink>(header.num_links.get(), "links")?;
        let t = header.num_traversals.get();
        let traversals = if layout.has_ladder_plane() {
            Traversals::Ladder(cur.slice(t, "traversals")?)
        } else {
            Traversals::Plain(cur.slice(t, "traversals")?)
        };
        let num_edicts: &U32 = cur.read("edict count")?;
        let e = num_edicts.get();
        let edicts = match layout.edict_layout() {
            EdictLayout::V12 => Edicts::V12(cur.slice(e, "edicts")?),
            EdictLayout::V14 => Edicts::V14(cur.slice(e, "edicts")?),
            EdictLayout::V15 => Edicts::V15(cur.slice(e, "edicts")?),
            EdictLayout::Nav3 => Edicts::Nav3(cur.slice(e, "edicts")?),
        };
        cur.expect_end("end of file")?;
        Ok(NavView {
            header,
            layout,
            heuristic,
            nodes,
            origins,
            links,
            traversals,
            num_edicts,
            edicts,
        })
    }

    /// Why a file whose header did not read (`header`, when it was short) or whose magic is
    /// unknown does not parse: a wrong signature where the first bytes are not a known one (or
    /// a prefix of it at the end of the input), else the header's own error.
    #[cold]
    fn signature_error(bytes: &[u8], header: Option<nav_core::Error>) -> nav_core::Error {
        let magic = if bytes.starts_with(&Magic::Nav3.bytes()) {
            Magic::Nav3
        } else {
            Magic::Nav2
        };
        let mut cur = Cursor::new(FORMAT, bytes);
        match cur.magic(&magic.bytes(), "header", "NAV2 or NAV3") {
            Err(e) => e,
            Ok(()) => header
                .unwrap_or_else(|| cur.invalid("header", "the magic is neither NAV2 nor NAV3")),
        }
    }

    /// Why the nodes and their origins (`n` of each from offset `at`) do not fit: the count
    /// measured against both arrays, else the error of the array that did not fit.
    #[cold]
    fn node_count_error(
        bytes: &[u8],
        at: usize,
        n: u32,
        arrays: nav_core::Error,
    ) -> nav_core::Error {
        let mut cur = Cursor::new(FORMAT, bytes);
        let counted = cur
            .seek(at, "nodes")
            .and_then(|()| cur.count(n, NODE_AND_ORIGIN, "nodes"));
        counted.err().unwrap_or(arrays)
    }

    /// The five fixed header fields.
    pub fn header(&self) -> &'a RawHeader {
        self.header
    }

    /// The layout the magic and version select.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// The heuristic float, where the layout has one.
    pub fn heuristic(&self) -> Option<&'a F32> {
        self.heuristic
    }

    /// Nodes.
    pub fn nodes(&self) -> &'a [RawNode] {
        self.nodes
    }

    /// Node origins, one per node.
    pub fn origins(&self) -> &'a [RawVec3] {
        self.origins
    }

    /// Links.
    pub fn links(&self) -> &'a [RawLink] {
        self.links
    }

    /// Traversals, in the layout's record size.
    pub fn traversals(&self) -> Traversals<'a> {
        self.traversals
    }

    /// The stored edict count (the number of edicts).
    pub fn num_edicts(&self) -> u32 {
        self.num_edicts.get()
    }

    /// Edicts, in the layout's record.
    pub fn edicts(&self) -> Edicts<'a> {
        self.edicts
    }

    /// Writes the view's records back, in file order: the input bytes, byte for byte.
    pub fn write(&self) -> Vec<u8> {
        let mut w = ByteWriter::with_capacity(self.layout.file_size(
            self.nodes.len(),
            self.links.len(),
            self.traversals.len(),
            self.edicts.len(),
        ));
        w.put(self.header);
        if let Some(h) = self.heuristic {
            w.put(h);
        }
        w.put(self.nodes)
            .put(self.origins)
            .put(self.links)
            .bytes(self.traversals.as_bytes())
            .put(self.num_edicts)
            .bytes(self.edicts.as_bytes());
        w.into_inner()
    }
}
