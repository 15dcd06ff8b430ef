//! The zerocopy records of a `.nav2` file and the sizes the parser and the writer share.
//!
//! Each record is a `#[repr(C)]` struct of little-endian, alignment-1 fields, borrowed straight
//! from the input by the view and written whole by the writer. Bit fields keep their packed word;
//! accessors named after the engine's fields take them apart.

use nav_core::scalar::{F32, U16, U32};
use nav_core::zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// The version word that opens every known file (Metal Gear Solid V and Metal Gear Survive).
pub const VERSION: u32 = 201_403_242;
/// The older version word the community template also accepts (Ground Zeroes, unconfirmed).
pub const VERSION_OLD: u32 = 201_403_241;

/// The largest input the parser (and the writer) accepts: 16 MiB. Game files stay under 300 KB.
pub const MAX_FILE_LEN: usize = 1 << 24;

/// Size of the FileHeader.
pub const HEADER_SIZE: usize = 96;

/// The unpadded length of a mesh record.
pub(crate) fn mesh_record_len(sides: usize, nodes: usize, crossing: bool) -> usize {
    3 * sides + nodes + if crossing { 4 * sides } else { 0 }
}

macro_rules! record {
    ($(#[$m:meta])* $name:ident { $($(#[$fm:meta])* $f:ident : $t:ty),* $(,)? }) => {
        $(#[$m])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
        )]
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
    /// The size of the link block in bytes: 4 per inside link, then 2, 4 and 6 for the
    /// crossing-segment, crossing-data-chunk and crossing-tile links the flags announce.
    pub fn link_block_len(&self) -> usize {
        // At most 2 × 255 + 6 units: fits every usize.
        2 * self.link_block_units() as usize
    }
    /// [`NavigationGraphNodeRecord::link_block_len`] in 2-byte units, the unit of the stored
    /// offsets.
    pub(crate) fn link_block_units(&self) -> u32 {
        // Flag bits 0 and 1 weigh 1 and 2 units (their own value), bit 2 weighs 3.
        let f = u32::from(self.flags);
        2 * u32::from(self.inside_link_count) + (f & 3) + 3 * ((f >> 2) & 1)
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
    /// The length of the record this descriptor locates in `mesh_data` (the chunk's mesh data,
    /// from MeshDataOffset on): the descriptor gives the sides and the node count, the
    /// neighbours whether the crossing part follows. `None` when the neighbours are not all in
    /// `mesh_data`.
    pub(crate) fn record_len_in(&self, mesh_data: &[u8]) -> Option<usize> {
        self.record_len_at(mesh_data, u64::from(self.data_offset()) * 2)
    }
    /// The length of this descriptor's record were it at byte `at` of `mesh_data`: what
    /// [`MeshRecord::record_len_in`] gives when `at` is the stored offset.
    pub(crate) fn record_len_at(&self, mesh_data: &[u8], at: u64) -> Option<usize> {
        let k = 3 + usize::from(self.use_4_neighbor_infos());
        let nn = 3 + usize::from(self.use_4_navigation_graph_nodes());
        let at = usize::try_from(at).ok()?;
        let neighbors = mesh_data.get(at..)?.get(..2 * k)?;
        Some(mesh_record_len(k, nn, needs_crossing_le(neighbors)))
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

/// Whether a mesh record with these neighbours carries NeighborDataChunkIds and NeighborTileIds:
/// some neighbour is set and its Type is not 0.
pub(crate) fn needs_crossing(neighbors: &[U16]) -> bool {
    neighbors.iter().any(|n| neighbor_crosses(n.get()))
}

/// [`needs_crossing`] over the neighbours' little-endian bytes, as the parser finds them.
pub(crate) fn needs_crossing_le(neighbors: &[u8]) -> bool {
    // Without an exit per side: the parser and the game-layout check size every record.
    neighbors.chunks_exact(2).fold(false, |any, c| {
        any | neighbor_crosses(u16::from(c[0]) | u16::from(c[1]) << 8)
    })
}

/// Whether one neighbour is set and of a Type other than 0.
fn neighbor_crosses(v: u16) -> bool {
    (v != 0xffff) & (v >> 14 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_block_len_adds_each_announced_link() {
        for flags in 0..=255u8 {
            for inside in [0u8, 1, 7, 255] {
                let node = NavigationGraphNodeRecord {
                    link_data_offset: U16::new(0),
                    segment_and_upper: U16::new(0),
                    inside_link_count: inside,
                    flags,
                };
                let mut want = 4 * usize::from(inside);
                if node.has_crossing_segment_link() {
                    want += 2;
                }
                if node.has_crossing_data_chunk_link() {
                    want += 4;
                }
                if node.has_crossing_tile_link() {
                    want += 6;
                }
                assert_eq!(
                    node.link_block_len(),
                    want,
                    "flags {flags:#x}, {inside} inside"
                );
            }
        }
    }
}
