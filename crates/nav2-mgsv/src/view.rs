//! The zero-copy view of a `.nav2` file and the parser that builds it.
//!
//! [`parse`] walks the file once: the FileHeader, the ChunkDescs, the chunks (stored by type:
//! every NavigationGraph, then every NavmeshChunk, SegmentChunk and SegmentGraph), the
//! IslandGraphs, the SearchSpace and the ConnectTileInfo. Every region it reads is marked in a
//! coverage map, so a stored offset that points into bytes another record already uses is
//! refused (no overlap, no cycle), and the bytes no record covers (padding, stale tails) are
//! kept as residue when they are not zero. Variable-length records (mesh records and link blocks)
//! get one index, built in the same pass.

use core::fmt;

use nav_core::scalar::{F32, U16, U32};
use nav_core::zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};
use nav_core::{Cursor, Error, ErrorKind, Result};

use crate::FORMAT;
use crate::model::{VERSION, VERSION_OLD};

/// The largest input the parser (and the writer) accepts: 16 MiB. Game files stay under 300 KB.
pub const MAX_FILE_LEN: usize = 1 << 24;

/// Size of the FileHeader.
pub const HEADER_SIZE: usize = 96;

macro_rules! record {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $f:ident : $t:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, FromBytes, KnownLayout, Immutable, Unaligned)]
        #[repr(C)]
        pub struct $name { $($(#[$fm])* pub $f: $t),* }
    };
}

record!(
    /// FileHeader, 96 bytes at offset 0.
    FileHeader {
        /// Version.
        version: U32,
        /// FileSize.
        file_size: U32,
        /// ChunksOffset.
        chunks_offset: U32,
        /// ChunkCount.
        chunk_count: U32,
        /// SearchSpaceOffset.
        search_space_offset: U32,
        /// FileUid.
        file_uid: U32,
        /// IslandGraphsOffset.
        island_graphs_offset: U32,
        /// Unknown_CrossingTileLinkRelated.
        unknown_crossing_tile_link_related: U32,
        /// Origin.
        origin: [F32; 3],
        /// ConnectTileInfoOffset.
        connect_tile_info_offset: U32,
        /// Padding0.
        padding0: U32,
        /// ChunkDescsOffset.
        chunk_descs_offset: U32,
        /// ChunkDescsDataSize.
        chunk_descs_data_size: U32,
        /// Padding1, Padding2.
        padding1: [U32; 2],
        /// Denominator (x, y, z).
        denominator: [U16; 3],
        /// WeightDenominator.
        weight_denominator: U16,
        /// FeatureFlags.
        feature_flags: u8,
        /// IslandGraphCount.
        island_graph_count: u8,
        /// Pre2014_UnknownIndex.
        pre2014_unknown_index: u8,
        /// Padding3.
        padding3: u8,
        /// The 16 undescribed bytes at 0x50.
        tail: [u8; 16],
    }
);

record!(
    /// ChunkDesc, 12 bytes.
    ChunkDescRecord {
        /// DataChunkUid.
        uid: U32,
        /// DataOffset (absolute offset of the payload).
        data_offset: U32,
        /// Type:8, DataSize:24.
        type_and_size: U32,
    }
);

record!(
    /// Chunk header, 16 bytes.
    ChunkHeader {
        /// Type (0, 1, 3 or 4).
        chunk_type: U32,
        /// NextChunkOffset (the chunk size).
        next_chunk_offset: U32,
        /// DataOffset (payload start from the chunk start).
        data_offset: U32,
        /// DataChunkUid.
        uid: U32,
    }
);

record!(
    /// A stored position: three `u16`.
    PositionRecord {
        /// x, y, z.
        xyz: [U16; 3],
    }
);

impl PositionRecord {
    /// The three values.
    pub fn get(&self) -> [u16; 3] {
        [self.xyz[0].get(), self.xyz[1].get(), self.xyz[2].get()]
    }
}

record!(
    /// NavigationGraph payload header, 48 bytes.
    NavigationGraphHeader {
        /// PositionsOffset.
        positions_offset: U32,
        /// NodesOffset.
        nodes_offset: U32,
        /// EdgesOffset.
        edges_offset: U32,
        /// LinkDataOffset.
        link_data_offset: U32,
        /// Two zero words.
        zero0: [U32; 2],
        /// AttributesOffset.
        attributes_offset: U32,
        /// A zero word.
        zero1: U32,
        /// NavmeshIndicesOffset.
        navmesh_indices_offset: U32,
        /// NodeCount.
        node_count: U16,
        /// EdgeCount.
        edge_count: U16,
        /// Zero.
        zero2: [u8; 6],
        /// AttributesCount.
        attributes_count: U16,
    }
);

record!(
    /// NavigationGraph node, 6 bytes.
    NavigationGraphNodeRecord {
        /// LinkDataOffset (2-byte units).
        link_data_offset: U16,
        /// SegmentIndex:12, LinkDataOffsetUpper:4.
        segment_and_upper: U16,
        /// InsideLinkCount.
        inside_link_count: u8,
        /// HasCrossingSegmentLink:1, HasCrossingDataChunkLink:1, HasCrossingTileLink:1, Kind:2.
        flags: u8,
    }
);

impl NavigationGraphNodeRecord {
    /// SegmentIndex (12 bits).
    pub fn segment_index(&self) -> u16 {
        self.segment_and_upper.get() & 0x0fff
    }
    /// LinkDataOffsetUpper (4 bits).
    pub fn link_data_offset_upper(&self) -> u16 {
        self.segment_and_upper.get() >> 12
    }
    /// HasCrossingSegmentLink.
    pub fn has_crossing_segment_link(&self) -> bool {
        self.flags & 1 != 0
    }
    /// HasCrossingDataChunkLink.
    pub fn has_crossing_data_chunk_link(&self) -> bool {
        self.flags & 2 != 0
    }
    /// HasCrossingTileLink.
    pub fn has_crossing_tile_link(&self) -> bool {
        self.flags & 4 != 0
    }
    /// Kind (2 bits, 0 = static).
    pub fn kind(&self) -> u8 {
        (self.flags >> 3) & 3
    }
    /// The byte offset of the link block from the graph's LinkData.
    pub fn link_block_offset(&self) -> usize {
        usize::from(self.link_data_offset_upper()) * 16
            + usize::from(self.link_data_offset.get()) * 2
    }
}

record!(
    /// NavigationGraph inside link, 4 bytes.
    NavigationGraphInsideLinkRecord {
        /// NodeIndex.
        node_index: U16,
        /// EdgeIndex.
        edge_index: U16,
    }
);

record!(
    /// NavigationGraph crossing-data-chunk link, 4 bytes.
    NavigationGraphCrossingDataChunkLinkRecord {
        /// DataChunkId.
        data_chunk_id: U16,
        /// NodeIndex.
        node_index: U16,
    }
);

record!(
    /// NavigationGraph crossing-tile link, 6 bytes.
    NavigationGraphCrossingTileLinkRecord {
        /// TileId.
        tile_id: U16,
        /// DataChunkId.
        data_chunk_id: U16,
        /// NodeIndex.
        node_index: U16,
    }
);

record!(
    /// NavigationGraph edge, 6 bytes.
    NavigationGraphEdgeRecord {
        /// Weight.
        weight: U16,
        /// SegmentIndex:12, Kind:2, reserved:2.
        segment_and_kind: U16,
        /// NodeIndex0, NodeIndex1 (segment-local).
        node_indices: [u8; 2],
    }
);

impl NavigationGraphEdgeRecord {
    /// SegmentIndex (12 bits).
    pub fn segment_index(&self) -> u16 {
        self.segment_and_kind.get() & 0x0fff
    }
    /// Kind (2 bits).
    pub fn kind(&self) -> u8 {
        ((self.segment_and_kind.get() >> 12) & 3) as u8
    }
}

record!(
    /// NavmeshChunk payload header, 32 bytes.
    NavmeshChunkHeader {
        /// PositionsOffset.
        positions_offset: U32,
        /// MeshesOffset.
        meshes_offset: U32,
        /// MeshDataOffset.
        mesh_data_offset: U32,
        /// Zero.
        zero0: [u8; 12],
        /// MeshCount.
        mesh_count: U16,
        /// PositionCount.
        position_count: U16,
        /// Zero.
        zero1: U32,
    }
);

record!(
    /// Mesh descriptor: DataOffset:18, Use4NeighborInfos:1, Use4NavigationGraphNodes:1,
    /// SegmentIndex:12.
    MeshRecord {
        /// The packed word.
        packed: U32,
    }
);

impl MeshRecord {
    /// DataOffset (18 bits, 2-byte units from MeshDataOffset).
    pub fn data_offset(&self) -> u32 {
        self.packed.get() & 0x3ffff
    }
    /// Use4NeighborInfos.
    pub fn use_4_neighbor_infos(&self) -> bool {
        self.packed.get() & (1 << 18) != 0
    }
    /// Use4NavigationGraphNodes.
    pub fn use_4_navigation_graph_nodes(&self) -> bool {
        self.packed.get() & (1 << 19) != 0
    }
    /// SegmentIndex (12 bits).
    pub fn segment_index(&self) -> u16 {
        (self.packed.get() >> 20) as u16
    }
}

record!(
    /// SegmentChunk payload header, 16 bytes.
    SegmentChunkHeader {
        /// BoundsOffset.
        bounds_offset: U32,
        /// SegmentsOffset.
        segments_offset: U32,
        /// SelfSize.
        self_size: U32,
        /// SegmentCount.
        segment_count: U32,
    }
);

record!(
    /// Segment bounds, 12 bytes.
    BoundsRecord {
        /// Min.
        min: PositionRecord,
        /// Max.
        max: PositionRecord,
    }
);

record!(
    /// Segment, 12 bytes.
    SegmentRecord {
        /// BaseNavmeshPositionIndex, BaseNavmeshIndex, BaseNavigationGraphEdgeIndex,
        /// BaseNavigationGraphNodeIndex.
        bases: [U16; 4],
        /// NavmeshPositionCount, NavmeshCount, NavigationGraphEdgeCount, NavigationGraphNodeCount.
        counts: [u8; 4],
    }
);

record!(
    /// SegmentGraph payload header, 32 bytes.
    SegmentGraphHeader {
        /// PositionsOffset.
        positions_offset: U32,
        /// NodesOffset.
        nodes_offset: U32,
        /// LinkDataOffset.
        link_data_offset: U32,
        /// Zero.
        zero0: U32,
        /// SelfSize.
        self_size: U32,
        /// NodeCount.
        node_count: U16,
        /// Zero.
        zero1: [u8; 4],
        /// TotalNavigationGraphNodeIndexCount.
        total_navigation_graph_node_index_count: U16,
        /// Zero.
        zero2: [u8; 4],
    }
);

record!(
    /// SegmentGraph node, 12 bytes.
    SegmentGraphNodeRecord {
        /// LinkDataOffset:20, Unknown:4, InsideLinkCount:8.
        packed: U32,
        /// IslandGraphNodeIndices.
        island_graph_node_indices: [U16; 3],
        /// CrossingDataChunkLinkCount.
        crossing_data_chunk_link_count: u8,
        /// CrossingTileLinkCount.
        crossing_tile_link_count: u8,
    }
);

impl SegmentGraphNodeRecord {
    /// LinkDataOffset (20 bits, 2-byte units).
    pub fn link_data_offset(&self) -> u32 {
        self.packed.get() & 0xf_ffff
    }
    /// Unknown (4 bits).
    pub fn unknown(&self) -> u8 {
        ((self.packed.get() >> 20) & 0xf) as u8
    }
    /// InsideLinkCount.
    pub fn inside_link_count(&self) -> u8 {
        (self.packed.get() >> 24) as u8
    }
}

record!(
    /// SegmentGraph inside link, 6 bytes.
    SegmentGraphInsideLinkRecord {
        /// Weight.
        weight: U16,
        /// NodeIndex.
        node_index: U16,
        /// NavGraphNodeIndexCount.
        navigation_graph_node_index_count: u8,
        /// LinkIndex.
        link_index: u8,
    }
);

record!(
    /// SegmentGraph crossing-data-chunk link, 8 bytes.
    SegmentGraphCrossingDataChunkLinkRecord {
        /// DataChunkId.
        data_chunk_id: U16,
        /// Weight.
        weight: U16,
        /// NodeIndex.
        node_index: U16,
        /// NavGraphNodeIndexCount.
        navigation_graph_node_index_count: u8,
        /// LinkIndex.
        link_index: u8,
    }
);

record!(
    /// SegmentGraph crossing-tile link, 10 bytes.
    SegmentGraphCrossingTileLinkRecord {
        /// TileId.
        tile_id: U16,
        /// DataChunkId.
        data_chunk_id: U16,
        /// Weight.
        weight: U16,
        /// NodeIndex.
        node_index: U16,
        /// NavGraphNodeIndexCount.
        navigation_graph_node_index_count: u8,
        /// LinkIndex.
        link_index: u8,
    }
);

record!(
    /// IslandGraph header, 16 bytes: NextGraphOffset, NodesOffset, NodeCount, LinkDataOffset,
    /// LowGraphNodeLinksOffset, SegmentCountsOffset, ConnectSideInfoGroupsOffset,
    /// ConnectSideInfosOffset.
    IslandGraphHeader {
        /// The eight words.
        words: [U16; 8],
    }
);

impl IslandGraphHeader {
    /// NextGraphOffset.
    pub fn next_graph_offset(&self) -> u16 {
        self.words[0].get()
    }
    /// NodeCount.
    pub fn node_count(&self) -> u16 {
        self.words[2].get()
    }
}

record!(
    /// IslandGraph node, 14 bytes.
    IslandGraphNodeRecord {
        /// Position.
        position: PositionRecord,
        /// Attributes.
        attributes: U16,
        /// LinkDataOffset (bytes from the graph's LinkDataOffset).
        link_data_offset: U16,
        /// CrossingTileLinkCount.
        crossing_tile_link_count: U16,
        /// InsideLinkCount.
        inside_link_count: u8,
        /// CrossingDataChunkLinkCount.
        crossing_data_chunk_link_count: u8,
    }
);

record!(
    /// IslandGraph crossing-data-chunk link, 8 bytes.
    IslandGraphCrossingDataChunkLinkRecord {
        /// DataChunkUid.
        data_chunk_uid: U32,
        /// Weight.
        weight: U16,
        /// NodeIndex.
        node_index: U16,
    }
);

record!(
    /// A `{u16 Weight, u16 NodeIndex}` pair (IslandGraph inside link, ConnectSideInfo).
    WeightNodeRecord {
        /// Weight.
        weight: U16,
        /// NodeIndex.
        node_index: U16,
    }
);

record!(
    /// LowGraphNodeLink, 8 bytes.
    LowGraphNodeLinkRecord {
        /// DataChunkUid.
        data_chunk_uid: U32,
        /// SegmentGraphNodeIndex.
        segment_graph_node_index: U16,
        /// NavigationGraphNodeIndex.
        navigation_graph_node_index: U16,
    }
);

record!(
    /// ConnectSideInfoGroup, 6 bytes.
    ConnectSideInfoGroupRecord {
        /// TileId.
        tile_id: U16,
        /// StartIndex.
        start_index: U16,
        /// Count.
        count: U16,
    }
);

record!(
    /// SearchSpace header, 48 bytes.
    SearchSpaceHeader {
        /// Origin.
        origin: [F32; 3],
        /// RangeY.
        range_y: U16,
        /// Zero.
        zero: U16,
        /// BlockCountX, BlockCountY, BlockCountZ.
        block_count: [U32; 3],
        /// BlockSizeXZ.
        block_size_xz: U32,
        /// BlockSizeY.
        block_size_y: U32,
        /// BucketDescsOffset.
        bucket_descs_offset: U32,
        /// BucketEntriesOffset.
        bucket_entries_offset: U32,
        /// SelfSize.
        self_size: U32,
    }
);

record!(
    /// BucketDesc, 8 bytes.
    BucketDescRecord {
        /// StartOffset (relative to this desc).
        start_offset: U32,
        /// Count.
        count: U16,
        /// MinY.
        min_y: u8,
        /// MaxY.
        max_y: u8,
    }
);

record!(
    /// BucketEntry head, 8 bytes (then SegmentCount `u16` indices).
    BucketEntryRecord {
        /// DataChunkUid.
        data_chunk_uid: U32,
        /// SegmentCount.
        segment_count: U32,
    }
);

record!(
    /// ConnectTileInfo header, 12 bytes: GroupsOffset, InfosOffset, NodesOffset (2-byte units),
    /// GroupCount, InfoCount, NodeCount.
    ConnectTileInfoHeader {
        /// The six words.
        words: [U16; 6],
    }
);

record!(
    /// ConnectTileInfo group, 6 bytes.
    ConnectTileGroupRecord {
        /// Name (StrCode32).
        name: U32,
        /// Count:5, StartIndex:11.
        packed: U16,
    }
);

record!(
    /// A `{u16, u16}` ConnectTileInfo record (info or node).
    ConnectTilePairRecord {
        /// DataChunkId (info) or NavigationGraphNodeIndex (node).
        first: U16,
        /// Count:5, StartIndex:11 (info) or NavmeshIndex:14, NavmeshNeighborIndex:2 (node).
        packed: U16,
    }
);

/// A parsed file: borrowed records and the indexes of variable-length records.
#[derive(Debug, Clone)]
pub struct Nav2View<'a> {
    /// The input length.
    pub length: usize,
    /// FileHeader.
    pub header: &'a FileHeader,
    /// ChunkDescs EntryCount.
    pub chunk_desc_entry_count: u32,
    /// ChunkDescs, in file order.
    pub chunk_descs: &'a [ChunkDescRecord],
    /// The data chunks, one per DataChunkUid, in file order.
    pub data_chunks: Vec<DataChunkView<'a>>,
    /// IslandGraphs.
    pub island_graphs: Vec<IslandGraphView<'a>>,
    /// SearchSpace.
    pub search_space: Option<SearchSpaceView<'a>>,
    /// ConnectTileInfo.
    pub connect_tile_info: Option<ConnectTileInfoView<'a>>,
    /// Runs of non-zero bytes that no record covers: (offset, bytes).
    pub residue: Vec<(usize, &'a [u8])>,
}

/// The four chunks of one DataChunkUid.
#[derive(Debug, Clone)]
pub struct DataChunkView<'a> {
    /// Chunk headers: NavigationGraph, NavmeshChunk, SegmentChunk, SegmentGraph.
    pub headers: [&'a ChunkHeader; 4],
    /// NavigationGraph.
    pub navigation_graph: NavigationGraphView<'a>,
    /// NavmeshChunk.
    pub navmesh_chunk: NavmeshChunkView<'a>,
    /// SegmentChunk.
    pub segment_chunk: SegmentChunkView<'a>,
    /// SegmentGraph.
    pub segment_graph: SegmentGraphView<'a>,
}

/// A NavigationGraph.
#[derive(Debug, Clone)]
pub struct NavigationGraphView<'a> {
    /// Payload header.
    pub header: &'a NavigationGraphHeader,
    /// Positions (NodeCount).
    pub positions: &'a [PositionRecord],
    /// Nodes.
    pub nodes: &'a [NavigationGraphNodeRecord],
    /// One link block per node.
    pub links: Vec<NavigationGraphLinkBlock<'a>>,
    /// Edges.
    pub edges: &'a [NavigationGraphEdgeRecord],
    /// Attributes.
    pub attributes: &'a [U16],
    /// NavmeshIndices (NodeCount).
    pub navmesh_indices: &'a [U16],
}

/// The link block of one NavigationGraph node.
#[derive(Debug, Clone)]
pub struct NavigationGraphLinkBlock<'a> {
    /// Inside links.
    pub inside_links: &'a [NavigationGraphInsideLinkRecord],
    /// Crossing-segment link (NodeIndex).
    pub crossing_segment_link: Option<&'a U16>,
    /// Crossing-data-chunk link.
    pub crossing_data_chunk_link: Option<&'a NavigationGraphCrossingDataChunkLinkRecord>,
    /// Crossing-tile link.
    pub crossing_tile_link: Option<&'a NavigationGraphCrossingTileLinkRecord>,
}

/// A NavmeshChunk.
#[derive(Debug, Clone)]
pub struct NavmeshChunkView<'a> {
    /// Payload header.
    pub header: &'a NavmeshChunkHeader,
    /// Positions.
    pub positions: &'a [PositionRecord],
    /// Mesh descriptors.
    pub meshes: &'a [MeshRecord],
    /// One record per mesh.
    pub records: Vec<MeshDataView<'a>>,
}

/// One mesh record.
#[derive(Debug, Clone)]
pub struct MeshDataView<'a> {
    /// NeighborNavmeshInfo per side.
    pub neighbors: &'a [U16],
    /// Position indices.
    pub positions: &'a [u8],
    /// NavigationGraph node indices.
    pub navigation_graph_nodes: &'a [u8],
    /// NeighborDataChunkIds and NeighborTileIds.
    pub crossing: Option<(&'a [U16], &'a [U16])>,
}

/// A SegmentChunk.
#[derive(Debug, Clone)]
pub struct SegmentChunkView<'a> {
    /// Payload header.
    pub header: &'a SegmentChunkHeader,
    /// Bounds.
    pub bounds: &'a [BoundsRecord],
    /// Segments.
    pub segments: &'a [SegmentRecord],
}

/// A SegmentGraph.
#[derive(Debug, Clone)]
pub struct SegmentGraphView<'a> {
    /// Payload header.
    pub header: &'a SegmentGraphHeader,
    /// Positions (NodeCount).
    pub positions: &'a [PositionRecord],
    /// Nodes.
    pub nodes: &'a [SegmentGraphNodeRecord],
    /// One link block per node.
    pub links: Vec<SegmentGraphLinkBlock<'a>>,
}

/// The link block of one SegmentGraph node.
#[derive(Debug, Clone)]
pub struct SegmentGraphLinkBlock<'a> {
    /// Inside links.
    pub inside_links: &'a [SegmentGraphInsideLinkRecord],
    /// Crossing-data-chunk links.
    pub crossing_data_chunk_links: &'a [SegmentGraphCrossingDataChunkLinkRecord],
    /// Crossing-tile links.
    pub crossing_tile_links: &'a [SegmentGraphCrossingTileLinkRecord],
    /// The NavigationGraph node indices of every link, concatenated in link order.
    pub navigation_graph_nodes: &'a [u8],
}

/// One IslandGraph.
#[derive(Debug, Clone)]
pub struct IslandGraphView<'a> {
    /// Header.
    pub header: &'a IslandGraphHeader,
    /// Nodes.
    pub nodes: &'a [IslandGraphNodeRecord],
    /// One link block per node.
    pub links: Vec<IslandGraphLinkBlock<'a>>,
    /// LowGraphNodeLinks (NodeCount).
    pub low_graph_node_links: &'a [LowGraphNodeLinkRecord],
    /// SegmentCounts (NodeCount).
    pub segment_counts: &'a [U16],
    /// ConnectSideInfoGroups (4).
    pub connect_side_info_groups: &'a [ConnectSideInfoGroupRecord; 4],
    /// ConnectSideInfos.
    pub connect_side_infos: &'a [WeightNodeRecord],
}

/// The link block of one IslandGraph node.
#[derive(Debug, Clone)]
pub struct IslandGraphLinkBlock<'a> {
    /// Crossing-data-chunk links.
    pub crossing_data_chunk_links: &'a [IslandGraphCrossingDataChunkLinkRecord],
    /// Inside links.
    pub inside_links: &'a [WeightNodeRecord],
    /// Crossing-tile links.
    pub crossing_tile_links: &'a [U16],
}

/// The SearchSpace.
#[derive(Debug, Clone)]
pub struct SearchSpaceView<'a> {
    /// Header.
    pub header: &'a SearchSpaceHeader,
    /// BucketDescs.
    pub bucket_descs: &'a [BucketDescRecord],
    /// Every entry of every bucket, in bucket order (bucket `i` has `bucket_descs[i].count`).
    pub entries: Vec<BucketEntryView<'a>>,
}

/// One bucket entry.
#[derive(Debug, Clone)]
pub struct BucketEntryView<'a> {
    /// Head.
    pub head: &'a BucketEntryRecord,
    /// Segment indices.
    pub segment_indices: &'a [U16],
}

/// The ConnectTileInfo.
#[derive(Debug, Clone)]
pub struct ConnectTileInfoView<'a> {
    /// Header.
    pub header: &'a ConnectTileInfoHeader,
    /// Groups.
    pub groups: &'a [ConnectTileGroupRecord],
    /// Infos.
    pub infos: &'a [ConnectTilePairRecord],
    /// Nodes.
    pub nodes: &'a [ConnectTilePairRecord],
}

/// Which bytes records use, one bit per byte; refuses overlaps.
struct Coverage {
    words: Vec<u64>,
    len: usize,
}

impl Coverage {
    fn new(len: usize) -> Self {
        Coverage {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// Whether byte `i` belongs to a record (bytes past the end count as used).
    fn is_used(&self, i: usize) -> bool {
        i >= self.len
            || self
                .words
                .get(i / 64)
                .is_none_or(|w| (w >> (i % 64)) & 1 == 1)
    }

    /// Whether the 64 bytes from `i` (a multiple of 64) all belong to records.
    fn word_full(&self, i: usize) -> bool {
        i % 64 == 0 && self.words.get(i / 64).is_some_and(|w| *w == u64::MAX)
    }

    fn mark(&mut self, start: usize, len: usize, field: impl fmt::Display) -> Result<()> {
        let end = start.checked_add(len).filter(|e| *e <= self.len);
        let Some(end) = end else {
            return Err(Error::new(
                FORMAT,
                field,
                ErrorKind::Truncated {
                    offset: start,
                    needed: len,
                    left: self.len.saturating_sub(start),
                },
            ));
        };
        let mut i = start;
        while i < end {
            let bit = i % 64;
            let n = (64 - bit).min(end - i);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << bit
            };
            let Some(word) = self.words.get_mut(i / 64) else {
                return Ok(());
            };
            let clash = *word & mask;
            if clash != 0 {
                let at = (i - bit).saturating_add(clash.trailing_zeros() as usize);
                return Err(Error::invalid(
                    FORMAT,
                    field,
                    at,
                    "record overlaps bytes another record already uses",
                ));
            }
            *word |= mask;
            i += n;
        }
        Ok(())
    }
}

/// Reads records at absolute offsets inside one bounded region of the input, marking what it
/// reads.
struct Reader<'a, 'c> {
    data: &'a [u8],
    /// The region's end (exclusive).
    end: usize,
    /// What the region is, for errors (`NavigationGraph of chunk 4`).
    what: &'static str,
    cov: &'c mut Coverage,
}

impl<'a> Reader<'a, '_> {
    fn cursor(&self, at: usize, field: impl fmt::Display) -> Result<Cursor<'a>> {
        let bounded = self.data.get(..self.end).unwrap_or(self.data);
        if at > bounded.len() {
            return Err(Error::bad_offset(
                FORMAT,
                field,
                at,
                at as u64,
                format!("past the end of the {} at {:#x}", self.what, self.end),
            ));
        }
        Cursor::at(FORMAT, bounded, at, field)
    }

    fn read<T>(&mut self, at: usize, field: impl fmt::Display + Copy) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let r = self.cursor(at, field)?.read::<T>(field)?;
        self.cov.mark(at, core::mem::size_of::<T>(), field)?;
        Ok(r)
    }

    fn slice<T>(
        &mut self,
        at: usize,
        count: usize,
        field: impl fmt::Display + Copy,
    ) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let r = self.cursor(at, field)?.slice::<T>(count, field)?;
        self.cov.mark(at, core::mem::size_of_val(r), field)?;
        Ok(r)
    }

    /// Marks part of a record read whole (so that padding fields stay uncovered).
    fn mark(&mut self, at: usize, len: usize, field: impl fmt::Display) -> Result<()> {
        self.cov.mark(at, len, field)
    }
}

fn add(base: usize, off: impl Into<u64>, field: impl fmt::Display) -> Result<usize> {
    let off: u64 = off.into();
    usize::try_from(off)
        .ok()
        .and_then(|o| base.checked_add(o))
        .ok_or_else(|| Error::bad_offset(FORMAT, field, base, off, "too large"))
}

/// Refuses a stored offset or size that the parser does not follow but that must still point
/// inside `limit` bytes.
fn within(
    target: u64,
    limit: usize,
    stored_at: usize,
    field: impl fmt::Display,
    what: &str,
) -> Result<()> {
    if target > limit as u64 {
        return Err(Error::bad_offset(
            FORMAT,
            field,
            stored_at,
            target,
            format_args!("past the end of the {what} ({limit:#x})"),
        ));
    }
    Ok(())
}

/// Parses a whole file.
pub fn parse(data: &[u8]) -> Result<Nav2View<'_>> {
    if data.len() > MAX_FILE_LEN {
        return Err(Error::invalid(
            FORMAT,
            "file",
            0,
            format!(
                "{} bytes is more than the {MAX_FILE_LEN} bytes this crate reads",
                data.len()
            ),
        ));
    }
    let mut top = Cursor::new(FORMAT, data);
    if let Ok(v) = top.clone().u32("FileHeader Version") {
        if v != VERSION && v != VERSION_OLD {
            return Err(Error::new(
                FORMAT,
                "FileHeader Version",
                ErrorKind::UnsupportedVersion {
                    offset: 0,
                    version: u64::from(v),
                    supported: format!("{VERSION} or {VERSION_OLD}"),
                },
            ));
        }
    }
    let header: &FileHeader = top.read("FileHeader")?;
    let mut cov = Coverage::new(data.len());
    // The header, without its padding fields.
    for (start, end) in [(0, 0x30), (0x34, 0x3c), (0x44, 0x4f), (0x50, 0x60)] {
        cov.mark(start, end - start, "FileHeader")?;
    }
    let mut r = Reader {
        data,
        end: data.len(),
        what: "file",
        cov: &mut cov,
    };

    // ChunkDescs.
    let descs_at = header.chunk_descs_offset.get() as usize;
    let entry_count: &U32 = r.read(descs_at, "ChunkDescs EntryCount")?;
    let desc_count = u64::from(entry_count.get()) * 3;
    let chunk_descs: &[ChunkDescRecord] = {
        let at = descs_at.saturating_add(4);
        let c = r
            .cursor(at, "ChunkDescs")?
            .slice::<ChunkDescRecord>(desc_count, "ChunkDescs")?;
        r.mark(at, core::mem::size_of_val(c), "ChunkDescs")?;
        c
    };

    for (i, d) in chunk_descs.iter().enumerate() {
        within(
            u64::from(d.data_offset.get()),
            data.len(),
            descs_at.saturating_add(4 + 12 * i + 4),
            At("ChunkDescs", i, " DataOffset"),
            "file",
        )?;
    }
    within(
        u64::from(header.chunks_offset.get()),
        data.len(),
        0x08,
        "FileHeader ChunksOffset",
        "file",
    )?;
    within(
        u64::from(header.island_graphs_offset.get()),
        data.len(),
        0x18,
        "FileHeader IslandGraphsOffset",
        "file",
    )?;

    // Chunks, stored by type.
    let chunk_count = header.chunk_count.get();
    if chunk_count % 4 != 0 {
        return Err(Error::invalid(
            FORMAT,
            "FileHeader ChunkCount",
            0x0c,
            format!("{chunk_count} is not a multiple of 4 (four chunks per DataChunkUid)"),
        ));
    }
    // Every chunk takes at least its 16-byte header.
    let groups = Cursor::at(FORMAT, data, 0x0c, "FileHeader ChunkCount")?.count(
        chunk_count,
        16,
        "FileHeader ChunkCount",
    )? / 4;
    let mut at = header.chunks_offset.get() as usize;
    let mut ngs = Vec::with_capacity(groups);
    let mut nms = Vec::with_capacity(groups);
    let mut scs = Vec::with_capacity(groups);
    let mut sgs = Vec::with_capacity(groups);
    let mut heads: Vec<[Option<&ChunkHeader>; 4]> = vec![[None; 4]; groups];
    const TYPES: [(u32, &str); 4] = [
        (0, "NavigationGraph"),
        (1, "NavmeshChunk"),
        (4, "SegmentChunk"),
        (3, "SegmentGraph"),
    ];
    for i in 0..chunk_count as usize {
        let kind = i / groups.max(1);
        let group = i % groups.max(1);
        let (ty, ty_name) = TYPES.get(kind).copied().unwrap_or((0, "?"));
        let ctx = ChunkCtx { index: i, ty_name };
        let head: &ChunkHeader = r.read(at, ctx)?;
        if head.chunk_type.get() != ty {
            return Err(Error::invalid(
                FORMAT,
                ctx,
                at,
                format!(
                    "type {} where the type-major order puts a {ty_name} (type {ty})",
                    head.chunk_type.get()
                ),
            ));
        }
        if let Some(first) = heads.get(group).and_then(|h| h[0]) {
            if first.uid != head.uid {
                return Err(Error::invalid(
                    FORMAT,
                    ctx,
                    at.saturating_add(12),
                    format!(
                        "DataChunkUid {:#x} differs from the {:#x} of the NavigationGraph in the same position",
                        head.uid.get(),
                        first.uid.get()
                    ),
                ));
            }
        }
        if let Some(h) = heads.get_mut(group).and_then(|h| h.get_mut(kind)) {
            *h = Some(head);
        }
        let size = head.next_chunk_offset.get() as usize;
        let data_offset = head.data_offset.get() as usize;
        if size < 16 || size > data.len().saturating_sub(at) {
            return Err(Error::bad_offset(
                FORMAT,
                ctx,
                at.saturating_add(4),
                size as u64,
                format!(
                    "not a chunk size: it must be at least 16 and stay inside the {}-byte file",
                    data.len()
                ),
            ));
        }
        if data_offset < 16 || data_offset > size {
            return Err(Error::bad_offset(
                FORMAT,
                ctx,
                at.saturating_add(8),
                data_offset as u64,
                format!("not a payload start inside the {size}-byte chunk"),
            ));
        }
        let end = at + size;
        let p = at + data_offset;
        let mut cr = Reader {
            data,
            end,
            what: ty_name,
            cov: &mut *r.cov,
        };
        let res = match kind {
            0 => parse_navigation_graph(&mut cr, p).map(|v| ngs.push(v)),
            1 => parse_navmesh_chunk(&mut cr, p).map(|v| nms.push(v)),
            2 => parse_segment_chunk(&mut cr, p).map(|v| scs.push(v)),
            _ => parse_segment_graph(&mut cr, p).map(|v| sgs.push(v)),
        };
        res.map_err(|e| e.within(ctx))?;
        at = end;
    }
    let mut data_chunks = Vec::with_capacity(groups);
    for ((((ng, nm), sc), sg), h) in ngs.into_iter().zip(nms).zip(scs).zip(sgs).zip(heads) {
        if let [Some(a), Some(b), Some(c), Some(d)] = h {
            data_chunks.push(DataChunkView {
                headers: [a, b, c, d],
                navigation_graph: ng,
                navmesh_chunk: nm,
                segment_chunk: sc,
                segment_graph: sg,
            });
        }
    }

    // IslandGraphs.
    let graph_count = header.island_graph_count as usize;
    let mut island_graphs = Vec::with_capacity(graph_count);
    let mut at = header.island_graphs_offset.get() as usize;
    if graph_count > 0 && at == 0 {
        return Err(Error::bad_offset(
            FORMAT,
            "FileHeader IslandGraphsOffset",
            0x18,
            0,
            format!("0 while IslandGraphCount is {graph_count}"),
        ));
    }
    for g in 0..graph_count {
        let ctx = At("IslandGraphs", g, "");
        let head: &IslandGraphHeader = r.read(at, ctx)?;
        let size = usize::from(head.next_graph_offset());
        if size < 16 || size > data.len().saturating_sub(at) {
            return Err(Error::bad_offset(
                FORMAT,
                ctx,
                at,
                size as u64,
                "not a graph size: it must be at least 16 and stay inside the file",
            ));
        }
        let mut gr = Reader {
            data,
            end: at + size,
            what: "IslandGraph",
            cov: &mut *r.cov,
        };
        island_graphs.push(parse_island_graph(&mut gr, at, head).map_err(|e| e.within(ctx))?);
        at += size;
    }

    // SearchSpace.
    let ss_at = header.search_space_offset.get() as usize;
    let search_space = if ss_at == 0 {
        None
    } else {
        Some(parse_search_space(&mut r, ss_at).map_err(|e| e.within("SearchSpace"))?)
    };

    // ConnectTileInfo.
    let cti_at = header.connect_tile_info_offset.get() as usize;
    let connect_tile_info = if cti_at == 0 {
        None
    } else {
        Some(parse_connect_tile_info(&mut r, cti_at).map_err(|e| e.within("ConnectTileInfo"))?)
    };

    // Residue: runs of non-zero bytes outside every record.
    let mut residue = Vec::new();
    let mut i = 0;
    while i < data.len() {
        if cov.word_full(i) {
            i += 64;
            continue;
        }
        let free_nonzero = |j: usize| !cov.is_used(j) && data.get(j).is_some_and(|b| *b != 0);
        if free_nonzero(i) {
            let start = i;
            while i < data.len() && free_nonzero(i) {
                i += 1;
            }
            residue.push((start, data.get(start..i).unwrap_or(&[])));
        } else {
            i += 1;
        }
    }

    Ok(Nav2View {
        length: data.len(),
        header,
        chunk_desc_entry_count: entry_count.get(),
        chunk_descs,
        data_chunks,
        island_graphs,
        search_space,
        connect_tile_info,
        residue,
    })
}

/// `list[index]what`, built only when an error is.
#[derive(Clone, Copy)]
pub(crate) struct At(pub &'static str, pub usize, pub &'static str);

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]{}", self.0, self.1, self.2)
    }
}

#[derive(Clone, Copy)]
struct ChunkCtx {
    index: usize,
    ty_name: &'static str,
}

impl fmt::Display for ChunkCtx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "chunks[{}] ({})", self.index, self.ty_name)
    }
}

fn parse_navigation_graph<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<NavigationGraphView<'a>> {
    let header: &NavigationGraphHeader = r.cursor(p, "header")?.read("header")?;
    for (s, e) in [(0, 16), (24, 28), (32, 40), (46, 48)] {
        r.mark(p + s, e - s, "header")?;
    }
    let n = usize::from(header.node_count.get());
    let positions = r.slice(
        add(p, header.positions_offset.get(), "PositionsOffset")?,
        n,
        "Positions",
    )?;
    let nodes: &[NavigationGraphNodeRecord] = r.slice(
        add(p, header.nodes_offset.get(), "NodesOffset")?,
        n,
        "Nodes",
    )?;
    let link_base = add(p, header.link_data_offset.get(), "LinkDataOffset")?;
    let mut links = Vec::with_capacity(n);
    for (i, node) in nodes.iter().enumerate() {
        let ctx = At("Nodes", i, " link block");
        let mut at = add(link_base, node.link_block_offset() as u64, ctx)?;
        let count = usize::from(node.inside_link_count);
        let inside_links = r.slice::<NavigationGraphInsideLinkRecord>(at, count, ctx)?;
        at += count * 4;
        let crossing_segment_link = if node.has_crossing_segment_link() {
            let v = r.read::<U16>(at, ctx)?;
            at += 2;
            Some(v)
        } else {
            None
        };
        let crossing_data_chunk_link = if node.has_crossing_data_chunk_link() {
            let v = r.read::<NavigationGraphCrossingDataChunkLinkRecord>(at, ctx)?;
            at += 4;
            Some(v)
        } else {
            None
        };
        let crossing_tile_link = if node.has_crossing_tile_link() {
            Some(r.read::<NavigationGraphCrossingTileLinkRecord>(at, ctx)?)
        } else {
            None
        };
        links.push(NavigationGraphLinkBlock {
            inside_links,
            crossing_segment_link,
            crossing_data_chunk_link,
            crossing_tile_link,
        });
    }
    let edges = r.slice(
        add(p, header.edges_offset.get(), "EdgesOffset")?,
        usize::from(header.edge_count.get()),
        "Edges",
    )?;
    let attributes = r.slice(
        add(p, header.attributes_offset.get(), "AttributesOffset")?,
        usize::from(header.attributes_count.get()),
        "Attributes",
    )?;
    let navmesh_indices = r.slice(
        add(
            p,
            header.navmesh_indices_offset.get(),
            "NavmeshIndicesOffset",
        )?,
        n,
        "NavmeshIndices",
    )?;
    Ok(NavigationGraphView {
        header,
        positions,
        nodes,
        links,
        edges,
        attributes,
        navmesh_indices,
    })
}

/// The unpadded length of a mesh record.
pub(crate) fn mesh_record_len(sides: usize, nodes: usize, crossing: bool) -> usize {
    3 * sides + nodes + if crossing { 4 * sides } else { 0 }
}

fn parse_navmesh_chunk<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<NavmeshChunkView<'a>> {
    let header: &NavmeshChunkHeader = r.cursor(p, "header")?.read("header")?;
    for (s, e) in [(0, 12), (24, 28)] {
        r.mark(p + s, e - s, "header")?;
    }
    let positions = r.slice(
        add(p, header.positions_offset.get(), "PositionsOffset")?,
        usize::from(header.position_count.get()),
        "Positions",
    )?;
    let meshes: &[MeshRecord] = r.slice(
        add(p, header.meshes_offset.get(), "MeshesOffset")?,
        usize::from(header.mesh_count.get()),
        "Meshes",
    )?;
    let base = add(p, header.mesh_data_offset.get(), "MeshDataOffset")?;
    let mut records = Vec::with_capacity(meshes.len());
    for (i, m) in meshes.iter().enumerate() {
        let ctx = At("Meshes", i, " record");
        let at = add(base, u64::from(m.data_offset()) * 2, ctx)?;
        let k = if m.use_4_neighbor_infos() { 4 } else { 3 };
        let nn = if m.use_4_navigation_graph_nodes() {
            4
        } else {
            3
        };
        let mut c = r.cursor(at, ctx)?;
        let neighbors: &[U16] = c.slice(k, ctx)?;
        let pos = c.bytes(k, ctx)?;
        let nodes = c.bytes(nn, ctx)?;
        let crossing_needed = neighbors.iter().any(|n| {
            let v = n.get();
            v != 0xffff && v >> 14 != 0
        });
        let crossing = if crossing_needed {
            Some((c.slice::<U16>(k, ctx)?, c.slice::<U16>(k, ctx)?))
        } else {
            None
        };
        r.mark(at, mesh_record_len(k, nn, crossing_needed), ctx)?;
        records.push(MeshDataView {
            neighbors,
            positions: pos,
            navigation_graph_nodes: nodes,
            crossing,
        });
    }
    Ok(NavmeshChunkView {
        header,
        positions,
        meshes,
        records,
    })
}

fn parse_segment_chunk<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<SegmentChunkView<'a>> {
    let header: &SegmentChunkHeader = r.read(p, "header")?;
    within(
        (p as u64).saturating_add(u64::from(header.self_size.get())),
        r.end,
        p + 8,
        "SelfSize",
        "chunk",
    )?;
    let n = header.segment_count.get() as usize;
    let bounds = r.slice(
        add(p, header.bounds_offset.get(), "BoundsOffset")?,
        n,
        "Bounds",
    )?;
    let segments = r.slice(
        add(p, header.segments_offset.get(), "SegmentsOffset")?,
        n,
        "Segments",
    )?;
    Ok(SegmentChunkView {
        header,
        bounds,
        segments,
    })
}

fn parse_segment_graph<'a>(r: &mut Reader<'a, '_>, p: usize) -> Result<SegmentGraphView<'a>> {
    let header: &SegmentGraphHeader = r.cursor(p, "header")?.read("header")?;
    for (s, e) in [(0, 12), (16, 22), (26, 28)] {
        r.mark(p + s, e - s, "header")?;
    }
    within(
        (p as u64).saturating_add(u64::from(header.self_size.get())),
        r.end,
        p + 16,
        "SelfSize",
        "chunk",
    )?;
    let n = usize::from(header.node_count.get());
    let positions = r.slice(
        add(p, header.positions_offset.get(), "PositionsOffset")?,
        n,
        "Positions",
    )?;
    let nodes: &[SegmentGraphNodeRecord] = r.slice(
        add(p, header.nodes_offset.get(), "NodesOffset")?,
        n,
        "Nodes",
    )?;
    let base = add(p, header.link_data_offset.get(), "LinkDataOffset")?;
    let mut links = Vec::with_capacity(n);
    for (i, node) in nodes.iter().enumerate() {
        let ctx = At("Nodes", i, " link block");
        let mut at = add(base, u64::from(node.link_data_offset()) * 2, ctx)?;
        let inside_links: &[SegmentGraphInsideLinkRecord] =
            r.slice(at, usize::from(node.inside_link_count()), ctx)?;
        at += inside_links.len() * 6;
        let crossing_data_chunk_links: &[SegmentGraphCrossingDataChunkLinkRecord] =
            r.slice(at, usize::from(node.crossing_data_chunk_link_count), ctx)?;
        at += crossing_data_chunk_links.len() * 8;
        let crossing_tile_links: &[SegmentGraphCrossingTileLinkRecord] =
            r.slice(at, usize::from(node.crossing_tile_link_count), ctx)?;
        at += crossing_tile_links.len() * 10;
        let total: usize = inside_links
            .iter()
            .map(|l| usize::from(l.navigation_graph_node_index_count))
            .chain(
                crossing_data_chunk_links
                    .iter()
                    .map(|l| usize::from(l.navigation_graph_node_index_count)),
            )
            .chain(
                crossing_tile_links
                    .iter()
                    .map(|l| usize::from(l.navigation_graph_node_index_count)),
            )
            .sum();
        let navigation_graph_nodes: &[u8] = r.slice(at, total, ctx)?;
        links.push(SegmentGraphLinkBlock {
            inside_links,
            crossing_data_chunk_links,
            crossing_tile_links,
            navigation_graph_nodes,
        });
    }
    Ok(SegmentGraphView {
        header,
        positions,
        nodes,
        links,
    })
}

fn parse_island_graph<'a>(
    r: &mut Reader<'a, '_>,
    g: usize,
    header: &'a IslandGraphHeader,
) -> Result<IslandGraphView<'a>> {
    let w = |i: usize| header.words.get(i).map_or(0, |v| v.get());
    let n = usize::from(header.node_count());
    let nodes: &[IslandGraphNodeRecord] = r.slice(add(g, w(1), "NodesOffset")?, n, "Nodes")?;
    let base = add(g, w(3), "LinkDataOffset")?;
    let mut links = Vec::with_capacity(n);
    for (i, node) in nodes.iter().enumerate() {
        let ctx = At("Nodes", i, " link block");
        let mut at = add(base, node.link_data_offset.get(), ctx)?;
        let crossing_data_chunk_links: &[IslandGraphCrossingDataChunkLinkRecord] =
            r.slice(at, usize::from(node.crossing_data_chunk_link_count), ctx)?;
        at += crossing_data_chunk_links.len() * 8;
        let inside_links: &[WeightNodeRecord] =
            r.slice(at, usize::from(node.inside_link_count), ctx)?;
        at += inside_links.len() * 4;
        let crossing_tile_links: &[U16] =
            r.slice(at, usize::from(node.crossing_tile_link_count.get()), ctx)?;
        links.push(IslandGraphLinkBlock {
            crossing_data_chunk_links,
            inside_links,
            crossing_tile_links,
        });
    }
    let low_graph_node_links = r.slice(
        add(g, w(4), "LowGraphNodeLinksOffset")?,
        n,
        "LowGraphNodeLinks",
    )?;
    let segment_counts = r.slice(add(g, w(5), "SegmentCountsOffset")?, n, "SegmentCounts")?;
    let connect_side_info_groups: &[ConnectSideInfoGroupRecord; 4] = r.read(
        add(g, w(6), "ConnectSideInfoGroupsOffset")?,
        "ConnectSideInfoGroups",
    )?;
    let info_count: usize = connect_side_info_groups
        .iter()
        .map(|c| usize::from(c.count.get()))
        .sum();
    let connect_side_infos = r.slice(
        add(g, w(7), "ConnectSideInfosOffset")?,
        info_count,
        "ConnectSideInfos",
    )?;
    Ok(IslandGraphView {
        header,
        nodes,
        links,
        low_graph_node_links,
        segment_counts,
        connect_side_info_groups,
        connect_side_infos,
    })
}

fn parse_search_space<'a>(r: &mut Reader<'a, '_>, s: usize) -> Result<SearchSpaceView<'a>> {
    let header: &SearchSpaceHeader = r.cursor(s, "header")?.read("header")?;
    r.mark(s, 14, "header")?;
    r.mark(s + 16, 32, "header")?;
    let bucket_count = header
        .block_count
        .iter()
        .try_fold(1u64, |acc, c| acc.checked_mul(u64::from(c.get())))
        .unwrap_or(u64::MAX);
    within(
        (s as u64).saturating_add(u64::from(header.bucket_entries_offset.get())),
        r.end,
        s + 40,
        "BucketEntriesOffset",
        "file",
    )?;
    let descs_at = add(s, header.bucket_descs_offset.get(), "BucketDescsOffset")?;
    let bucket_descs: &[BucketDescRecord] = {
        let c = r
            .cursor(descs_at, "BucketDescs")?
            .slice::<BucketDescRecord>(bucket_count, "BucketDescs (BlockCountX · Y · Z)")?;
        r.mark(descs_at, core::mem::size_of_val(c), "BucketDescs")?;
        c
    };
    let mut entries = Vec::new();
    for (i, d) in bucket_descs.iter().enumerate() {
        let ctx = At("BucketDescs", i, " entries");
        let mut at = add(descs_at + 8 * i, d.start_offset.get(), ctx)?;
        let count = usize::from(d.count.get());
        // Each entry takes at least 8 bytes; refuse a count the input cannot hold before
        // reserving room for it.
        r.cursor(at, ctx)?.count(count, 8, ctx)?;
        entries.reserve(count);
        for _ in 0..count {
            let head: &BucketEntryRecord = r.read(at, ctx)?;
            at += 8;
            let segment_indices: &[U16] = r.slice(at, head.segment_count.get() as usize, ctx)?;
            at += segment_indices.len() * 2;
            entries.push(BucketEntryView {
                head,
                segment_indices,
            });
        }
    }
    Ok(SearchSpaceView {
        header,
        bucket_descs,
        entries,
    })
}

fn parse_connect_tile_info<'a>(
    r: &mut Reader<'a, '_>,
    c: usize,
) -> Result<ConnectTileInfoView<'a>> {
    let header: &ConnectTileInfoHeader = r.read(c, "header")?;
    let w = |i: usize| header.words.get(i).map_or(0, |v| u64::from(v.get()));
    let groups = r.slice(add(c, w(0) * 2, "GroupsOffset")?, w(3) as usize, "Groups")?;
    let infos = r.slice(add(c, w(1) * 2, "InfosOffset")?, w(4) as usize, "Infos")?;
    let nodes = r.slice(add(c, w(2) * 2, "NodesOffset")?, w(5) as usize, "Nodes")?;
    Ok(ConnectTileInfoView {
        header,
        groups,
        infos,
        nodes,
    })
}

impl Nav2View<'_> {
    /// Copies the view into the owned model. The stored layout is kept only when it differs
    /// from the one the writer computes.
    pub fn to_model(&self) -> crate::model::Nav2File {
        use crate::model::*;
        let h = self.header;
        let pos = |p: &PositionRecord| p.get();
        let mut data_chunks = Vec::with_capacity(self.data_chunks.len());
        let mut dls = Vec::with_capacity(self.data_chunks.len());
        for dc in &self.data_chunks {
            let ng = &dc.navigation_graph;
            let nodes = ng
                .nodes
                .iter()
                .zip(ng.positions)
                .zip(ng.navmesh_indices)
                .zip(&ng.links)
                .map(|(((n, p), mi), l)| NavigationGraphNode {
                    position: p.get(),
                    segment_index: n.segment_index(),
                    kind: n.kind(),
                    reserved_flags: n.flags >> 5,
                    navmesh_index: mi.get(),
                    inside_links: l
                        .inside_links
                        .iter()
                        .map(|x| NavigationGraphInsideLink {
                            node_index: x.node_index.get(),
                            edge_index: x.edge_index.get(),
                        })
                        .collect(),
                    crossing_segment_link: l.crossing_segment_link.map(|v| v.get()),
                    crossing_data_chunk_link: l.crossing_data_chunk_link.map(|x| {
                        NavigationGraphCrossingDataChunkLink {
                            data_chunk_id: x.data_chunk_id.get(),
                            node_index: x.node_index.get(),
                        }
                    }),
                    crossing_tile_link: l.crossing_tile_link.map(|x| {
                        NavigationGraphCrossingTileLink {
                            tile_id: x.tile_id.get(),
                            data_chunk_id: x.data_chunk_id.get(),
                            node_index: x.node_index.get(),
                        }
                    }),
                })
                .collect();
            let edges = ng
                .edges
                .iter()
                .map(|e| NavigationGraphEdge {
                    weight: e.weight.get(),
                    segment_index: e.segment_index(),
                    kind: e.kind(),
                    reserved: (e.segment_and_kind.get() >> 14) as u8,
                    node_indices: e.node_indices,
                })
                .collect();
            let nm = &dc.navmesh_chunk;
            let meshes = nm
                .meshes
                .iter()
                .zip(&nm.records)
                .map(|(m, r)| Mesh {
                    segment_index: m.segment_index(),
                    neighbors: r
                        .neighbors
                        .iter()
                        .map(|n| NeighborNavmeshInfo(n.get()))
                        .collect(),
                    positions: r.positions.to_vec(),
                    navigation_graph_nodes: r.navigation_graph_nodes.to_vec(),
                    crossing: r.crossing.map(|(d, t)| MeshCrossing {
                        data_chunk_ids: d.iter().map(|v| v.get()).collect(),
                        tile_ids: t.iter().map(|v| v.get()).collect(),
                    }),
                })
                .collect();
            let sc = &dc.segment_chunk;
            let segments = sc
                .bounds
                .iter()
                .zip(sc.segments)
                .map(|(b, s)| Segment {
                    min: b.min.get(),
                    max: b.max.get(),
                    navmesh_position_count: s.counts[0],
                    navmesh_count: s.counts[1],
                    navigation_graph_edge_count: s.counts[2],
                    navigation_graph_node_count: s.counts[3],
                })
                .collect();
            let sg = &dc.segment_graph;
            let sg_nodes = sg
                .nodes
                .iter()
                .zip(sg.positions)
                .zip(&sg.links)
                .map(|((n, p), l)| {
                    let mut lists = l.navigation_graph_nodes;
                    let mut take = |k: u8| {
                        let (a, b) = lists.split_at(usize::from(k).min(lists.len()));
                        lists = b;
                        a.to_vec()
                    };
                    let inside_links = l
                        .inside_links
                        .iter()
                        .map(|x| SegmentGraphInsideLink {
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        })
                        .collect();
                    let crossing_data_chunk_links = l
                        .crossing_data_chunk_links
                        .iter()
                        .map(|x| SegmentGraphCrossingDataChunkLink {
                            data_chunk_id: x.data_chunk_id.get(),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        })
                        .collect();
                    let crossing_tile_links = l
                        .crossing_tile_links
                        .iter()
                        .map(|x| SegmentGraphCrossingTileLink {
                            tile_id: x.tile_id.get(),
                            data_chunk_id: x.data_chunk_id.get(),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                            link_index: x.link_index,
                            navigation_graph_nodes: take(x.navigation_graph_node_index_count),
                        })
                        .collect();
                    SegmentGraphNode {
                        position: pos(p),
                        unknown: n.unknown(),
                        island_graph_node_indices: n.island_graph_node_indices.map(|v| v.get()),
                        inside_links,
                        crossing_data_chunk_links,
                        crossing_tile_links,
                    }
                })
                .collect();
            data_chunks.push(DataChunk {
                uid: FileUid(dc.headers[0].uid.get()),
                navigation_graph: NavigationGraph {
                    nodes,
                    edges,
                    attributes: ng.attributes.iter().map(|v| v.get()).collect(),
                },
                navmesh_chunk: NavmeshChunk {
                    positions: nm.positions.iter().map(pos).collect(),
                    meshes,
                },
                segment_chunk: SegmentChunk { segments },
                segment_graph: SegmentGraph { nodes: sg_nodes },
            });
            let ngh = ng.header;
            dls.push(DataChunkLayout {
                chunks: dc.headers.map(|c| ChunkLayout {
                    next_chunk_offset: c.next_chunk_offset.get(),
                    data_offset: c.data_offset.get(),
                }),
                navigation_graph_offsets: [
                    ngh.positions_offset.get(),
                    ngh.nodes_offset.get(),
                    ngh.edges_offset.get(),
                    ngh.link_data_offset.get(),
                    ngh.attributes_offset.get(),
                    ngh.navmesh_indices_offset.get(),
                ],
                navigation_graph_link_offsets: ng
                    .nodes
                    .iter()
                    .map(|n| {
                        u32::from(n.link_data_offset.get())
                            | u32::from(n.link_data_offset_upper()) << 16
                    })
                    .collect(),
                navmesh_offsets: [
                    nm.header.positions_offset.get(),
                    nm.header.meshes_offset.get(),
                    nm.header.mesh_data_offset.get(),
                ],
                mesh_data_offsets: nm.meshes.iter().map(|m| m.data_offset()).collect(),
                segment_chunk_offsets: [
                    sc.header.bounds_offset.get(),
                    sc.header.segments_offset.get(),
                    sc.header.self_size.get(),
                ],
                segment_bases: sc
                    .segments
                    .iter()
                    .map(|s| s.bases.map(|b| b.get()))
                    .collect(),
                segment_graph_offsets: [
                    sg.header.positions_offset.get(),
                    sg.header.nodes_offset.get(),
                    sg.header.link_data_offset.get(),
                    sg.header.self_size.get(),
                ],
                segment_graph_total_node_index_count: sg
                    .header
                    .total_navigation_graph_node_index_count
                    .get(),
                segment_graph_link_offsets: sg.nodes.iter().map(|n| n.link_data_offset()).collect(),
            });
        }

        let mut island_graphs = Vec::with_capacity(self.island_graphs.len());
        let mut igls = Vec::with_capacity(self.island_graphs.len());
        for g in &self.island_graphs {
            let nodes = g
                .nodes
                .iter()
                .zip(&g.links)
                .zip(g.low_graph_node_links)
                .zip(g.segment_counts)
                .map(|(((n, l), lo), sc)| IslandGraphNode {
                    position: n.position.get(),
                    attributes: n.attributes.get(),
                    crossing_data_chunk_links: l
                        .crossing_data_chunk_links
                        .iter()
                        .map(|x| IslandGraphCrossingDataChunkLink {
                            data_chunk_uid: FileUid(x.data_chunk_uid.get()),
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                        })
                        .collect(),
                    inside_links: l
                        .inside_links
                        .iter()
                        .map(|x| IslandGraphInsideLink {
                            weight: x.weight.get(),
                            node_index: x.node_index.get(),
                        })
                        .collect(),
                    crossing_tile_links: l
                        .crossing_tile_links
                        .iter()
                        .map(|x| IslandGraphCrossingTileLink(x.get()))
                        .collect(),
                    low_graph_node_link: LowGraphNodeLink {
                        data_chunk_uid: FileUid(lo.data_chunk_uid.get()),
                        segment_graph_node_index: lo.segment_graph_node_index.get(),
                        navigation_graph_node_index: lo.navigation_graph_node_index.get(),
                    },
                    segment_count: sc.get(),
                })
                .collect();
            let groups = g.connect_side_info_groups.map(|c| ConnectSideInfoGroup {
                tile_id: c.tile_id.get(),
                count: c.count.get(),
            });
            island_graphs.push(IslandGraph {
                nodes,
                connect_side_info_groups: groups,
                connect_side_infos: g
                    .connect_side_infos
                    .iter()
                    .map(|x| ConnectSideInfo {
                        weight: x.weight.get(),
                        node_index: x.node_index.get(),
                    })
                    .collect(),
            });
            let w = g.header.words.map(|v| v.get());
            igls.push(IslandGraphLayout {
                offsets: [w[0], w[1], w[3], w[4], w[5], w[6], w[7]],
                link_offsets: g.nodes.iter().map(|n| n.link_data_offset.get()).collect(),
                group_start_indices: g.connect_side_info_groups.map(|c| c.start_index.get()),
            });
        }

        let (search_space, ssl) = match &self.search_space {
            None => (None, None),
            Some(s) => {
                let sh = s.header;
                let mut entries = s.entries.iter();
                let buckets = s
                    .bucket_descs
                    .iter()
                    .map(|d| Bucket {
                        min_y: d.min_y,
                        max_y: d.max_y,
                        entries: entries
                            .by_ref()
                            .take(usize::from(d.count.get()))
                            .map(|e| BucketEntry {
                                data_chunk_uid: FileUid(e.head.data_chunk_uid.get()),
                                segment_indices: e
                                    .segment_indices
                                    .iter()
                                    .map(|v| v.get())
                                    .collect(),
                            })
                            .collect(),
                    })
                    .collect();
                (
                    Some(SearchSpace {
                        origin: sh.origin.map(nav_core::RawF32::from),
                        range_y: sh.range_y.get(),
                        block_count: sh.block_count.map(|v| v.get()),
                        block_size_xz: sh.block_size_xz.get(),
                        block_size_y: sh.block_size_y.get(),
                        buckets,
                    }),
                    Some(SearchSpaceLayout {
                        offsets: [
                            sh.bucket_descs_offset.get(),
                            sh.bucket_entries_offset.get(),
                            sh.self_size.get(),
                        ],
                        start_offsets: s
                            .bucket_descs
                            .iter()
                            .map(|d| d.start_offset.get())
                            .collect(),
                    }),
                )
            }
        };

        let (connect_tile_info, ctl) = match &self.connect_tile_info {
            None => (None, None),
            Some(c) => {
                let w = c.header.words.map(|v| v.get());
                (
                    Some(ConnectTileInfo {
                        groups: c
                            .groups
                            .iter()
                            .map(|g| ConnectTileGroup {
                                name: g.name.get(),
                                count: (g.packed.get() & 0x1f) as u8,
                                start_index: g.packed.get() >> 5,
                            })
                            .collect(),
                        infos: c
                            .infos
                            .iter()
                            .map(|g| ConnectTileInfoEntry {
                                data_chunk_id: g.first.get(),
                                count: (g.packed.get() & 0x1f) as u8,
                                start_index: g.packed.get() >> 5,
                            })
                            .collect(),
                        nodes: c
                            .nodes
                            .iter()
                            .map(|g| ConnectTileNode {
                                navigation_graph_node_index: g.first.get(),
                                navmesh_index: g.packed.get() & 0x3fff,
                                navmesh_neighbor_index: (g.packed.get() >> 14) as u8,
                            })
                            .collect(),
                    }),
                    Some([w[0], w[1], w[2]]),
                )
            }
        };

        let stored = StoredLayout {
            length: self.length as u32,
            file_size: h.file_size.get(),
            chunks_offset: h.chunks_offset.get(),
            chunk_count: h.chunk_count.get(),
            search_space_offset: h.search_space_offset.get(),
            island_graphs_offset: h.island_graphs_offset.get(),
            connect_tile_info_offset: h.connect_tile_info_offset.get(),
            chunk_descs_offset: h.chunk_descs_offset.get(),
            chunk_descs_data_size: h.chunk_descs_data_size.get(),
            chunk_desc_entry_count: self.chunk_desc_entry_count,
            chunk_descs: self
                .chunk_descs
                .iter()
                .map(|d| ChunkDesc {
                    uid: FileUid(d.uid.get()),
                    data_offset: d.data_offset.get(),
                    type_and_size: d.type_and_size.get(),
                })
                .collect(),
            data_chunks: dls,
            island_graphs: igls,
            search_space: ssl,
            connect_tile_info: ctl,
            residue: self
                .residue
                .iter()
                .map(|(o, b)| Residue {
                    offset: *o as u32,
                    bytes: b.to_vec(),
                })
                .collect(),
        };
        let mut model = Nav2File {
            version: h.version.get(),
            file_uid: FileUid(h.file_uid.get()),
            unknown_crossing_tile_link_related: h.unknown_crossing_tile_link_related.get(),
            origin: h.origin.map(nav_core::RawF32::from),
            denominator: h.denominator.map(|v| v.get()),
            weight_denominator: h.weight_denominator.get(),
            feature_flags: h.feature_flags,
            pre2014_unknown_index: h.pre2014_unknown_index,
            header_tail: h.tail,
            data_chunks,
            island_graphs,
            search_space,
            connect_tile_info,
            stored: None,
        };
        let canonical = crate::layout::compute(&model).is_ok_and(|c| c == stored);
        if !canonical {
            model.stored = Some(Box::new(stored));
        }
        model
    }
}
