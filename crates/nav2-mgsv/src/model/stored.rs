//! The stored layout a model keeps when its file was not laid out the way the game does.

use super::DataChunkUid;

/// Every offset, size, count and prefix sum of a file as stored, plus the content of bytes that
/// no record covers (non-zero padding, stale tails). Kept only when it differs from the layout
/// the writer computes.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct StoredLayout {
    /// The length of the file in bytes (which may differ from `file_size`).
    pub length: u32,
    /// FileHeader.FileSize.
    pub file_size: u32,
    /// FileHeader.ChunksOffset.
    pub chunks_offset: u32,
    /// FileHeader.ChunkCount.
    pub chunk_count: u32,
    /// FileHeader.SearchSpaceOffset.
    pub search_space_offset: u32,
    /// FileHeader.IslandGraphsOffset.
    pub island_graphs_offset: u32,
    /// FileHeader.ConnectTileInfoOffset.
    pub connect_tile_info_offset: u32,
    /// FileHeader.ChunkDescsOffset.
    pub chunk_descs_offset: u32,
    /// FileHeader.ChunkDescsDataSize.
    pub chunk_descs_data_size: u32,
    /// ChunkDescs: EntryCount.
    pub chunk_desc_entry_count: u32,
    /// ChunkDescs: the descriptors in file order (3 × EntryCount of them).
    pub chunk_descs: Vec<ChunkDesc>,
    /// Per data chunk, the layout of its four chunks.
    pub data_chunks: Vec<DataChunkLayout>,
    /// Per island graph.
    pub island_graphs: Vec<IslandGraphLayout>,
    /// SearchSpace.
    pub search_space: Option<SearchSpaceLayout>,
    /// ConnectTileInfo: GroupsOffset, InfosOffset, NodesOffset (2-byte units).
    pub connect_tile_info: Option<[u16; 3]>,
    /// Bytes no record covers that are not zero, in runs of non-zero bytes.
    pub residue: Vec<Residue>,
}

/// A run of non-zero bytes that no record covers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Residue {
    /// Absolute offset.
    pub offset: u32,
    /// The bytes (none of them zero).
    pub bytes: Vec<u8>,
}

/// One ChunkDesc as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ChunkDesc {
    /// DataChunkUid.
    pub uid: DataChunkUid,
    /// DataOffset: absolute offset of the chunk payload.
    pub data_offset: u32,
    /// `Type:8 · DataSize:24` as stored.
    pub type_and_size: u32,
}

impl ChunkDesc {
    /// Type (low byte).
    pub fn chunk_type(self) -> u8 {
        (self.type_and_size & 0xff) as u8
    }
    /// DataSize (24 bits): the whole chunk, header included.
    pub fn data_size(self) -> u32 {
        self.type_and_size >> 8
    }
}

/// The chunk headers of one data chunk as stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ChunkLayout {
    /// NextChunkOffset (the chunk size).
    pub next_chunk_offset: u32,
    /// DataOffset (payload start from the chunk start).
    pub data_offset: u32,
}

/// The stored layout of one data chunk's four chunks.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct DataChunkLayout {
    /// Chunk headers: NavigationGraph, NavmeshChunk, SegmentChunk, SegmentGraph.
    pub chunks: [ChunkLayout; 4],
    /// NavigationGraph offsets: Positions, Nodes, Edges, LinkData, Attributes, NavmeshIndices.
    pub navigation_graph_offsets: [u32; 6],
    /// Per NavigationGraph node: `LinkDataOffset | LinkDataOffsetUpper << 16`.
    pub navigation_graph_link_offsets: Vec<u32>,
    /// NavmeshChunk offsets: Positions, Meshes, MeshData.
    pub navmesh_offsets: [u32; 3],
    /// Per mesh: DataOffset (18 bits, 2-byte units).
    pub mesh_data_offsets: Vec<u32>,
    /// SegmentChunk: BoundsOffset, SegmentsOffset, SelfSize.
    pub segment_chunk_offsets: [u32; 3],
    /// Per segment: BaseNavmeshPositionIndex, BaseNavmeshIndex, BaseNavigationGraphEdgeIndex,
    /// BaseNavigationGraphNodeIndex.
    pub segment_bases: Vec<[u16; 4]>,
    /// SegmentGraph: PositionsOffset, NodesOffset, LinkDataOffset, SelfSize.
    pub segment_graph_offsets: [u32; 4],
    /// SegmentGraph TotalNavigationGraphNodeIndexCount.
    pub segment_graph_total_node_index_count: u16,
    /// Per SegmentGraph node: LinkDataOffset (20 bits, 2-byte units).
    pub segment_graph_link_offsets: Vec<u32>,
}

/// The stored layout of one island graph.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct IslandGraphLayout {
    /// NextGraphOffset, NodesOffset, (NodeCount skipped), LinkDataOffset, LowGraphNodeLinksOffset,
    /// SegmentCountsOffset, ConnectSideInfoGroupsOffset, ConnectSideInfosOffset.
    pub offsets: [u16; 7],
    /// Per node: LinkDataOffset (bytes from LinkDataOffset).
    pub link_offsets: Vec<u16>,
    /// ConnectSideInfoGroup StartIndex, per group.
    pub group_start_indices: [u16; 4],
}

/// The stored layout of the SearchSpace.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct SearchSpaceLayout {
    /// BucketDescsOffset, BucketEntriesOffset, SelfSize.
    pub offsets: [u32; 3],
    /// Per bucket: StartOffset (relative to its desc).
    pub start_offsets: Vec<u32>,
}
