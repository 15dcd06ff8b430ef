//! The owned, editable model of a `.nav2` file.
//!
//! Every record is a plain Rust value, named after the engine's own fields. Bit fields are split
//! into their parts (`segment_index`, `kind`); the writer refuses a part that does not fit its bits.
//! Floats are [`RawF32`] (kept by their bits), positions stay the stored `u16` triples (see
//! [`Nav2File::decode_position`] for world coordinates) and weights the stored `u16` (see
//! [`Nav2File::decode_weight`]).
//!
//! Offsets, sizes and prefix sums are not part of the records: the writer computes them the way
//! the game lays a file out. A file whose stored layout differs from that (files written by
//! Obj2Nav2 do) keeps its stored values in [`Nav2File::stored`], and the writer then reproduces
//! them exactly, as long as they still describe the model; after an edit they cannot hold, the
//! writer lays the model out the game's way. Setting `stored` to `None` ([`Nav2File::relayout`])
//! asks for the game's layout in any case.

use nav_core::RawF32;

pub use crate::records::{VERSION, VERSION_OLD};
pub use nav_core::ShortVec;
pub use sides::{MAX_SIDES, Sides, TooManySides};
pub use stored::*;
pub use uid::{DataChunkUid, FileUid};

mod from_view;
pub(crate) mod game_layout;
pub mod layout;
mod sides;
mod stored;
mod stored_offsets;
mod uid;

/// A stored position: three `u16`, decoded as `value / denominator + origin` per axis.
pub type Position = [u16; 3];

/// A whole `.nav2` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Nav2File {
    /// FileHeader.Version: [`VERSION`] in every known file.
    pub version: u32,
    /// FileHeader.FileUid: split-file index and tile id.
    pub file_uid: FileUid,
    /// FileHeader.Unknown_CrossingTileLinkRelated (0 in every known file).
    pub unknown_crossing_tile_link_related: u32,
    /// FileHeader.Origin: the world position of stored coordinate `(0, 0, 0)`.
    pub origin: [RawF32; 3],
    /// FileHeader.Denominator: stored units per world unit, per axis (x, y, z).
    pub denominator: [u16; 3],
    /// FileHeader.WeightDenominator: stored weight units per metre (127 in Metal Gear Survive
    /// files, 585 in the known Phantom Pain tile).
    pub weight_denominator: u16,
    /// FileHeader.FeatureFlags (bits A = 1, B = 2, C = 4, D = 0x80; meanings unknown).
    pub feature_flags: u8,
    /// FileHeader.Pre2014_UnknownIndex (0 in every known file).
    pub pre2014_unknown_index: u8,
    /// The 16 bytes at 0x50 that no source describes (they look like a hash); kept as found.
    pub header_tail: [u8; 16],
    /// One entry per DataChunkUid: its four chunks.
    pub data_chunks: Vec<DataChunk>,
    /// IslandGraphs, in file order (FileHeader.IslandGraphCount of them, at most 255).
    pub island_graphs: Vec<IslandGraph>,
    /// SearchSpace; absent only in split files without chunks.
    pub search_space: Option<SearchSpace>,
    /// ConnectTileInfo; no known file has one.
    pub connect_tile_info: Option<ConnectTileInfo>,
    /// The layout as stored, when it is not the one the writer computes; `None` for built files
    /// and for files laid out the way the game does.
    pub stored: Option<Box<StoredLayout>>,
}

/// The four chunks of one DataChunkUid. In the file they are stored by type, not by group.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct DataChunk {
    /// The uid every one of the four chunk headers carries.
    pub uid: DataChunkUid,
    /// Chunk type 0.
    pub navigation_graph: NavigationGraph,
    /// Chunk type 1.
    pub navmesh_chunk: NavmeshChunk,
    /// Chunk type 4.
    pub segment_chunk: SegmentChunk,
    /// Chunk type 3.
    pub segment_graph: SegmentGraph,
}

/// NavigationGraph (chunk type 0): one node per navmesh edge per segment, and the edges between
/// nodes of a face.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavigationGraph {
    /// Nodes, with their position, navmesh index and link block.
    pub nodes: Vec<NavigationGraphNode>,
    /// Edges.
    pub edges: Vec<NavigationGraphEdge>,
    /// Attributes, one per segment (1249 for soldiers and animals in MGSV).
    pub attributes: Vec<u16>,
}

/// One NavigationGraph node.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NavigationGraphNode {
    /// Position (stored units).
    pub position: Position,
    /// SegmentIndex (12 bits).
    pub segment_index: u16,
    /// Kind (2 bits; 0 = static).
    pub kind: u8,
    /// The three top bits of the flag byte (0 in every known file).
    pub reserved_flags: u8,
    /// NavmeshIndices entry: the mesh this node belongs to.
    pub navmesh_index: u16,
    /// Inside links (InsideLinkCount, at most 255; at most 4 in known files, held inline).
    pub inside_links: ShortVec<NavigationGraphInsideLink, 4>,
    /// The co-located node in another segment (HasCrossingSegmentLink).
    pub crossing_segment_link: Option<u16>,
    /// HasCrossingDataChunkLink.
    pub crossing_data_chunk_link: Option<NavigationGraphCrossingDataChunkLink>,
    /// HasCrossingTileLink.
    pub crossing_tile_link: Option<NavigationGraphCrossingTileLink>,
}

/// A link to another node of the same NavigationGraph, along an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavigationGraphInsideLink {
    /// NodeIndex.
    pub node_index: u16,
    /// EdgeIndex.
    pub edge_index: u16,
}

/// A link to a node of another data chunk of the same tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavigationGraphCrossingDataChunkLink {
    /// DataChunkId.
    pub data_chunk_id: u16,
    /// NodeIndex.
    pub node_index: u16,
}

/// A link to a node of another tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavigationGraphCrossingTileLink {
    /// TileId.
    pub tile_id: u16,
    /// DataChunkId.
    pub data_chunk_id: u16,
    /// NodeIndex (0xFFFF in files: patched at run time).
    pub node_index: u16,
}

/// One NavigationGraph edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NavigationGraphEdge {
    /// Weight (divide by the header's WeightDenominator).
    pub weight: u16,
    /// SegmentIndex (12 bits).
    pub segment_index: u16,
    /// Kind (2 bits).
    pub kind: u8,
    /// The top 2 bits of the word (0 in every known file).
    pub reserved: u8,
    /// NodeIndex0 and NodeIndex1, segment-local (add the segment's BaseNavigationGraphNodeIndex).
    pub node_indices: [u8; 2],
}

/// NavmeshChunk (chunk type 1): vertices and faces.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavmeshChunk {
    /// Positions (vertices, stored units). In JSON each may be wrapped with its position
    /// (`{"#": 3, "value": [x, y, z]}`, see [`nav_core::positions`]).
    #[cfg_attr(
        feature = "serde",
        serde(deserialize_with = "nav_core::positions::records")
    )]
    pub positions: Vec<Position>,
    /// Meshes (faces).
    pub meshes: Vec<Mesh>,
}

/// One mesh (face) of a NavmeshChunk: 3 or 4 sides.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mesh {
    /// SegmentIndex (12 bits): the owning segment.
    pub segment_index: u16,
    /// NeighborNavmeshInfo per side (3, or 4 with Use4NeighborInfos).
    pub neighbors: Sides<NeighborNavmeshInfo>,
    /// Position (vertex) indices per side, segment-local (one per neighbour).
    pub positions: Sides<u8>,
    /// NavigationGraph node indices (3, or 4 with Use4NavigationGraphNodes), segment-local.
    pub navigation_graph_nodes: Sides<u8>,
    /// NeighborDataChunkIds and NeighborTileIds: present exactly when some neighbour crosses a
    /// data chunk or a tile (or is dynamic).
    pub crossing: Option<MeshCrossing>,
}

impl Mesh {
    /// Whether the record must carry [`MeshCrossing`]: some neighbour has a Type other than 0.
    pub fn needs_crossing(&self) -> bool {
        // All 4 slots, each masked by whether it is one of the sides, with no branch on the
        // data: which neighbours cross is random from mesh to mesh, and the writer asks this
        // of every mesh twice (to size its record and to check its shape).
        let sides = self.neighbors.len();
        let mut any = false;
        for (i, n) in self.neighbors.slots().iter().enumerate() {
            any |= (i < sides) & !n.is_none() & (n.kind() != NeighborKind::Inside);
        }
        any
    }
}

/// The crossing part of a mesh record, one entry per side.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct MeshCrossing {
    /// NeighborDataChunkIds (0xFFFF for unused sides).
    pub data_chunk_ids: Sides<u16>,
    /// NeighborTileIds (0 for unused sides).
    pub tile_ids: Sides<u16>,
}

/// NeighborNavmeshInfo: `0xFFFF` = none, else `{NavmeshIndex:14, Type:2}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NeighborNavmeshInfo(pub u16);

/// NeighborNavmeshInfo.Type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NeighborKind {
    /// 0: a mesh of the same chunk (NavmeshIndex is chunk-global).
    Inside,
    /// 1: a mesh of another data chunk.
    CrossingDataChunk,
    /// 2: a mesh of another tile.
    CrossingTile,
    /// 3: dynamic.
    Dynamic,
}

impl NeighborNavmeshInfo {
    /// No neighbour on this side.
    pub const NONE: NeighborNavmeshInfo = NeighborNavmeshInfo(0xffff);

    /// A neighbour from its parts; an index over 14 bits is cut.
    pub fn new(navmesh_index: u16, kind: NeighborKind) -> Self {
        let k = match kind {
            NeighborKind::Inside => 0,
            NeighborKind::CrossingDataChunk => 1,
            NeighborKind::CrossingTile => 2,
            NeighborKind::Dynamic => 3,
        };
        NeighborNavmeshInfo((navmesh_index & 0x3fff) | (k << 14))
    }
    /// Whether the side has no neighbour.
    pub fn is_none(self) -> bool {
        self.0 == 0xffff
    }
    /// NavmeshIndex (14 bits).
    pub fn navmesh_index(self) -> u16 {
        self.0 & 0x3fff
    }
    /// Type (2 bits).
    pub fn kind(self) -> NeighborKind {
        match self.0 >> 14 {
            0 => NeighborKind::Inside,
            1 => NeighborKind::CrossingDataChunk,
            2 => NeighborKind::CrossingTile,
            _ => NeighborKind::Dynamic,
        }
    }
}

/// SegmentChunk (chunk type 4): the segments that partition a data chunk.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SegmentChunk {
    /// Segments, each with its bounds.
    pub segments: Vec<Segment>,
}

/// One segment: bounds and the counts of what it owns. Its Base fields are the prefix sums of the
/// counts and are computed by the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Segment {
    /// Bounds.Min.
    pub min: Position,
    /// Bounds.Max.
    pub max: Position,
    /// NavmeshPositionCount.
    pub navmesh_position_count: u8,
    /// NavmeshCount.
    pub navmesh_count: u8,
    /// NavigationGraphEdgeCount.
    pub navigation_graph_edge_count: u8,
    /// NavigationGraphNodeCount.
    pub navigation_graph_node_count: u8,
}

/// SegmentGraph (chunk type 3): one node per segment and the links between segments.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SegmentGraph {
    /// Nodes.
    pub nodes: Vec<SegmentGraphNode>,
}

/// One SegmentGraph node with its link block.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SegmentGraphNode {
    /// Position (stored units).
    pub position: Position,
    /// The 4-bit Unknown field (0 in every known file).
    pub unknown: u8,
    /// IslandGraphNodeIndices: one per island graph, 0xFFFF = none.
    pub island_graph_node_indices: [u16; 3],
    /// Inside links (at most 255).
    pub inside_links: ShortVec<SegmentGraphInsideLink, 4>,
    /// Crossing-data-chunk links (at most 255).
    pub crossing_data_chunk_links: ShortVec<SegmentGraphCrossingDataChunkLink, 2>,
    /// Crossing-tile links (at most 255).
    pub crossing_tile_links: ShortVec<SegmentGraphCrossingTileLink, 1>,
}

/// A SegmentGraph link to another segment of the same data chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SegmentGraphInsideLink {
    /// Weight.
    pub weight: u16,
    /// NodeIndex.
    pub node_index: u16,
    /// LinkIndex.
    pub link_index: u8,
    /// The NavigationGraph node indices on the border (count = NavGraphNodeIndexCount).
    pub navigation_graph_nodes: ShortVec<u8, 16>,
}

/// A SegmentGraph link to a segment of another data chunk.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SegmentGraphCrossingDataChunkLink {
    /// DataChunkId.
    pub data_chunk_id: u16,
    /// Weight.
    pub weight: u16,
    /// NodeIndex.
    pub node_index: u16,
    /// LinkIndex.
    pub link_index: u8,
    /// The NavigationGraph node indices on the border.
    pub navigation_graph_nodes: ShortVec<u8, 16>,
}

/// A SegmentGraph link to a segment of another tile.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SegmentGraphCrossingTileLink {
    /// TileId.
    pub tile_id: u16,
    /// DataChunkId.
    pub data_chunk_id: u16,
    /// Weight.
    pub weight: u16,
    /// NodeIndex (0x0FFF in files).
    pub node_index: u16,
    /// LinkIndex.
    pub link_index: u8,
    /// The NavigationGraph node indices on the border.
    pub navigation_graph_nodes: ShortVec<u8, 16>,
}

/// One IslandGraph: a coarse graph over the SegmentGraphs of the tile.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct IslandGraph {
    /// Nodes.
    pub nodes: Vec<IslandGraphNode>,
    /// ConnectSideInfoGroups: always four.
    pub connect_side_info_groups: [ConnectSideInfoGroup; 4],
    /// ConnectSideInfos (as many as the groups' counts add up to).
    pub connect_side_infos: Vec<ConnectSideInfo>,
}

/// One IslandGraph node, its link block, LowGraphNodeLink and SegmentCount.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct IslandGraphNode {
    /// Position (stored units).
    pub position: Position,
    /// Attributes (flags).
    pub attributes: u16,
    /// Crossing-data-chunk links (at most 255).
    pub crossing_data_chunk_links: ShortVec<IslandGraphCrossingDataChunkLink, 2>,
    /// Inside links (at most 255).
    pub inside_links: ShortVec<IslandGraphInsideLink, 4>,
    /// Crossing-tile links (at most 65,535).
    pub crossing_tile_links: ShortVec<IslandGraphCrossingTileLink, 8>,
    /// LowGraphNodeLinks entry.
    pub low_graph_node_link: LowGraphNodeLink,
    /// SegmentCounts entry.
    pub segment_count: u16,
}

/// An IslandGraph link to a node of another data chunk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct IslandGraphCrossingDataChunkLink {
    /// DataChunkUid.
    pub data_chunk_uid: DataChunkUid,
    /// Weight.
    pub weight: u16,
    /// NodeIndex.
    pub node_index: u16,
}

/// An IslandGraph link inside the graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct IslandGraphInsideLink {
    /// Weight.
    pub weight: u16,
    /// NodeIndex.
    pub node_index: u16,
}

/// An IslandGraph crossing-tile link: `{ConnectSideInfoIndex:14, ConnectSideIndex:2}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct IslandGraphCrossingTileLink(pub u16);

impl IslandGraphCrossingTileLink {
    /// ConnectSideInfoIndex (14 bits).
    pub fn connect_side_info_index(self) -> u16 {
        self.0 & 0x3fff
    }
    /// ConnectSideIndex (2 bits): which of the four ConnectSideInfoGroups.
    pub fn connect_side_index(self) -> u8 {
        (self.0 >> 14) as u8
    }
}

/// LowGraphNodeLink: where an island node sits in the lower graphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct LowGraphNodeLink {
    /// DataChunkUid.
    pub data_chunk_uid: DataChunkUid,
    /// SegmentGraphNodeIndex.
    pub segment_graph_node_index: u16,
    /// NavigationGraphNodeIndex.
    pub navigation_graph_node_index: u16,
}

/// ConnectSideInfoGroup: the infos facing one neighbour tile. Its StartIndex is the prefix sum
/// of the counts and is computed by the writer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ConnectSideInfoGroup {
    /// TileId.
    pub tile_id: u16,
    /// Count.
    pub count: u16,
}

/// ConnectSideInfo.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ConnectSideInfo {
    /// Weight.
    pub weight: u16,
    /// NodeIndex.
    pub node_index: u16,
}

/// SearchSpace: a grid of buckets that lists the segments in each block.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SearchSpace {
    /// Origin.
    pub origin: [RawF32; 3],
    /// RangeY (divide by Denominator.y).
    pub range_y: u16,
    /// BlockCountX, BlockCountY, BlockCountZ.
    pub block_count: [u32; 3],
    /// BlockSizeXZ.
    pub block_size_xz: u32,
    /// BlockSizeY.
    pub block_size_y: u32,
    /// Buckets, one per block (x · y · z of them).
    pub buckets: Vec<Bucket>,
}

/// One SearchSpace bucket.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Bucket {
    /// MinY (`v · 256 / Denominator.y + Origin.y`).
    pub min_y: u8,
    /// MaxY.
    pub max_y: u8,
    /// Entries (at most 65,535).
    pub entries: ShortVec<BucketEntry, 2>,
}

/// One bucket entry: the segments of one data chunk in the block.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct BucketEntry {
    /// DataChunkUid.
    pub data_chunk_uid: DataChunkUid,
    /// Segment indices.
    pub segment_indices: ShortVec<u16, 8>,
}

/// ConnectTileInfo, from the community template only (no known file has one).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ConnectTileInfo {
    /// Groups.
    pub groups: Vec<ConnectTileGroup>,
    /// Infos.
    pub infos: Vec<ConnectTileInfoEntry>,
    /// Nodes.
    pub nodes: Vec<ConnectTileNode>,
}

/// A ConnectTileInfo group: `u32 Name` (StrCode32) and `{Count:5, StartIndex:11}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConnectTileGroup {
    /// Name (StrCode32 hash).
    pub name: u32,
    /// Count (5 bits).
    pub count: u8,
    /// StartIndex (11 bits).
    pub start_index: u16,
}

/// A ConnectTileInfo info: `u16 DataChunkId` and `{Count:5, StartIndex:11}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConnectTileInfoEntry {
    /// DataChunkId.
    pub data_chunk_id: u16,
    /// Count (5 bits).
    pub count: u8,
    /// StartIndex (11 bits).
    pub start_index: u16,
}

/// A ConnectTileInfo node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ConnectTileNode {
    /// NavigationGraphNodeIndex.
    pub navigation_graph_node_index: u16,
    /// NavmeshIndex (14 bits).
    pub navmesh_index: u16,
    /// NavmeshNeighborIndex (2 bits).
    pub navmesh_neighbor_index: u8,
}

impl Nav2File {
    /// An empty file with the game's header constants: no chunks, no SearchSpace.
    pub fn new(origin: [RawF32; 3], denominator: [u16; 3]) -> Self {
        Nav2File {
            version: VERSION,
            file_uid: FileUid::default(),
            unknown_crossing_tile_link_related: 0,
            origin,
            denominator,
            weight_denominator: 127,
            feature_flags: 1,
            pre2014_unknown_index: 0,
            header_tail: [0; 16],
            data_chunks: Vec::new(),
            island_graphs: Vec::new(),
            search_space: None,
            connect_tile_info: None,
            stored: None,
        }
    }

    /// Drops the stored layout, so that the next write lays the file out the way the game does
    /// and recomputes every offset, size, count and prefix sum. The writer does so by itself
    /// after an edit the stored layout cannot hold; call this to drop one that still fits (an
    /// Obj2Nav2 header, non-zero padding).
    pub fn relayout(&mut self) {
        self.stored = None;
    }

    /// The world coordinates of a stored position: `value / denominator + origin` per axis.
    /// A zero denominator gives an infinite or NaN coordinate.
    pub fn decode_position(&self, position: Position) -> [f32; 3] {
        let mut out = [0.0; 3];
        for (i, o) in out.iter_mut().enumerate() {
            let d = f32::from(self.denominator[i]);
            *o = f32::from(position[i]) / d + self.origin[i].get();
        }
        out
    }

    /// A weight in the units of the game: `weight / WeightDenominator`.
    pub fn decode_weight(&self, weight: u16) -> f32 {
        f32::from(weight) / f32::from(self.weight_denominator)
    }

    /// The data chunk with this DataChunkUid index.
    pub fn data_chunk(&self, index: u16) -> Option<&DataChunk> {
        self.data_chunks.iter().find(|d| d.uid.index() == index)
    }
}
