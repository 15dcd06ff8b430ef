//! The zero-copy view of a `.nav2` file.
//!
//! [`Nav2View::parse`] walks the file once: the FileHeader, the ChunkDescs, the chunks (stored by
//! type: every NavigationGraph, then every NavmeshChunk, SegmentChunk and SegmentGraph), the
//! IslandGraphs, the SearchSpace and the ConnectTileInfo (see `parse.rs`, one function per
//! section). Every region it reads is claimed in a coverage map, so a stored offset that points
//! into bytes another record already uses is refused (no overlap, no cycle), and the bytes no
//! record covers (padding, stale tails) are kept as residue when they are not zero.
//! Variable-length records (mesh records and link blocks) are checked in the same pass but not
//! collected: their getters decode them again from the node or mesh record that locates them (an
//! iterator, no allocation), which cannot fail on a view `parse` built.
//!
//! The views' fields are private: a view is only ever what `parse` built, and every getter is
//! infallible. [`crate::Nav2File::from_view`] copies a view into the owned model.

use nav_core::Result;
use nav_core::scalar::U16;
use nav_core::zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::records::*;

mod parse;
mod reader;

pub(crate) use reader::Packed;

impl<'a> Nav2View<'a> {
    /// Parses a whole file, checking every offset, size and count against the input.
    pub fn parse(data: &'a [u8]) -> Result<Self> {
        parse::file(data)
    }
}

/// Parses a whole file: [`Nav2View::parse`].
#[deprecated(note = "use Nav2View::parse")]
pub fn parse(data: &[u8]) -> Result<Nav2View<'_>> {
    Nav2View::parse(data)
}

/// A parsed file: borrowed records and the indexes of variable-length records.
#[derive(Debug, Clone)]
pub struct Nav2View<'a> {
    /// The input length.
    length: usize,
    /// FileHeader.
    header: &'a FileHeader,
    /// ChunkDescs EntryCount.
    chunk_desc_entry_count: u32,
    /// ChunkDescs, in file order.
    chunk_descs: &'a [ChunkDescRecord],
    /// The data chunks, one per DataChunkUid, in file order.
    data_chunks: Vec<DataChunkView<'a>>,
    /// IslandGraphs.
    island_graphs: Vec<IslandGraphView<'a>>,
    /// SearchSpace.
    search_space: Option<SearchSpaceView<'a>>,
    /// ConnectTileInfo.
    connect_tile_info: Option<ConnectTileInfoView<'a>>,
    /// Runs of non-zero bytes that no record covers: (offset, bytes).
    residue: Vec<(usize, &'a [u8])>,
}

impl<'a> Nav2View<'a> {
    /// The input length.
    pub fn length(&self) -> usize {
        self.length
    }
    /// FileHeader.
    pub fn header(&self) -> &'a FileHeader {
        self.header
    }
    /// ChunkDescs EntryCount.
    pub fn chunk_desc_entry_count(&self) -> u32 {
        self.chunk_desc_entry_count
    }
    /// ChunkDescs, in file order.
    pub fn chunk_descs(&self) -> &'a [ChunkDescRecord] {
        self.chunk_descs
    }
    /// The data chunks, one per DataChunkUid, in file order.
    pub fn data_chunks(&self) -> &[DataChunkView<'a>] {
        &self.data_chunks
    }
    /// IslandGraphs.
    pub fn island_graphs(&self) -> &[IslandGraphView<'a>] {
        &self.island_graphs
    }
    /// SearchSpace.
    pub fn search_space(&self) -> Option<&SearchSpaceView<'a>> {
        self.search_space.as_ref()
    }
    /// ConnectTileInfo.
    pub fn connect_tile_info(&self) -> Option<&ConnectTileInfoView<'a>> {
        self.connect_tile_info.as_ref()
    }
    /// Runs of non-zero bytes that no record covers: (offset, bytes).
    pub fn residue(&self) -> &[(usize, &'a [u8])] {
        &self.residue
    }
}

/// The four chunks of one DataChunkUid.
#[derive(Debug, Clone)]
pub struct DataChunkView<'a> {
    /// Chunk headers: NavigationGraph, NavmeshChunk, SegmentChunk, SegmentGraph.
    headers: [&'a ChunkHeader; 4],
    /// NavigationGraph.
    navigation_graph: NavigationGraphView<'a>,
    /// NavmeshChunk.
    navmesh_chunk: NavmeshChunkView<'a>,
    /// SegmentChunk.
    segment_chunk: SegmentChunkView<'a>,
    /// SegmentGraph.
    segment_graph: SegmentGraphView<'a>,
}

impl<'a> DataChunkView<'a> {
    /// Chunk headers: NavigationGraph, NavmeshChunk, SegmentChunk, SegmentGraph.
    pub fn headers(&self) -> [&'a ChunkHeader; 4] {
        self.headers
    }
    /// NavigationGraph.
    pub fn navigation_graph(&self) -> &NavigationGraphView<'a> {
        &self.navigation_graph
    }
    /// NavmeshChunk.
    pub fn navmesh_chunk(&self) -> &NavmeshChunkView<'a> {
        &self.navmesh_chunk
    }
    /// SegmentChunk.
    pub fn segment_chunk(&self) -> &SegmentChunkView<'a> {
        &self.segment_chunk
    }
    /// SegmentGraph.
    pub fn segment_graph(&self) -> &SegmentGraphView<'a> {
        &self.segment_graph
    }
}

/// A NavigationGraph.
#[derive(Debug, Clone)]
pub struct NavigationGraphView<'a> {
    /// Payload header.
    header: &'a NavigationGraphHeader,
    /// Positions (NodeCount).
    positions: &'a [PositionRecord],
    /// Nodes.
    nodes: &'a [NavigationGraphNodeRecord],
    /// The link data, from LinkDataOffset to the end of the chunk.
    link_data: &'a [u8],
    /// Edges.
    edges: &'a [NavigationGraphEdgeRecord],
    /// Attributes.
    attributes: &'a [U16],
    /// NavmeshIndices (NodeCount).
    navmesh_indices: &'a [U16],
    /// Where the link blocks lie when they are packed the game's way (the parser saw it as it
    /// claimed them).
    packed_links: Option<Packed>,
}

impl<'a> NavigationGraphView<'a> {
    /// Payload header.
    pub fn header(&self) -> &'a NavigationGraphHeader {
        self.header
    }
    /// Where the link blocks lie, in bytes from LinkDataOffset, when each follows the one before
    /// from offset 0 and no node uses the upper offset bits: `None` when they do not, or when
    /// the parser could not tell (it claimed them one by one).
    pub(crate) fn packed_links(&self) -> Option<Packed> {
        self.packed_links
    }
    /// Positions (NodeCount).
    pub fn positions(&self) -> &'a [PositionRecord] {
        self.positions
    }
    /// Nodes.
    pub fn nodes(&self) -> &'a [NavigationGraphNodeRecord] {
        self.nodes
    }
    /// One link block per node, decoded from the node record as it is reached.
    pub fn links(
        &self,
    ) -> impl ExactSizeIterator<Item = NavigationGraphLinkBlock<'a>> + Clone + use<'a> {
        let data = self.link_data;
        self.nodes
            .iter()
            .map(move |n| NavigationGraphLinkBlock::decode(data, n))
    }
    /// The link block of node `i`.
    pub fn link(&self, i: usize) -> Option<NavigationGraphLinkBlock<'a>> {
        let n = self.nodes.get(i)?;
        Some(NavigationGraphLinkBlock::decode(self.link_data, n))
    }
    /// Edges.
    pub fn edges(&self) -> &'a [NavigationGraphEdgeRecord] {
        self.edges
    }
    /// Attributes.
    pub fn attributes(&self) -> &'a [U16] {
        self.attributes
    }
    /// NavmeshIndices (NodeCount).
    pub fn navmesh_indices(&self) -> &'a [U16] {
        self.navmesh_indices
    }
}

/// The link block of one NavigationGraph node.
#[derive(Debug, Clone)]
pub struct NavigationGraphLinkBlock<'a> {
    /// Inside links.
    inside_links: &'a [NavigationGraphInsideLinkRecord],
    /// Crossing-segment link (NodeIndex).
    crossing_segment_link: Option<&'a U16>,
    /// Crossing-data-chunk link.
    crossing_data_chunk_link: Option<&'a NavigationGraphCrossingDataChunkLinkRecord>,
    /// Crossing-tile link.
    crossing_tile_link: Option<&'a NavigationGraphCrossingTileLinkRecord>,
}

impl<'a> NavigationGraphLinkBlock<'a> {
    /// The block `node` locates in `link_data` (the parser checked that it is there).
    fn decode(link_data: &'a [u8], node: &NavigationGraphNodeRecord) -> Self {
        let mut b = tail(link_data, node.link_block_offset());
        let inside_links = take(&mut b, usize::from(node.inside_link_count));
        let crossing_segment_link = if node.has_crossing_segment_link() {
            take_one(&mut b)
        } else {
            None
        };
        let crossing_data_chunk_link = if node.has_crossing_data_chunk_link() {
            take_one(&mut b)
        } else {
            None
        };
        let crossing_tile_link = if node.has_crossing_tile_link() {
            take_one(&mut b)
        } else {
            None
        };
        NavigationGraphLinkBlock {
            inside_links,
            crossing_segment_link,
            crossing_data_chunk_link,
            crossing_tile_link,
        }
    }
    /// Inside links.
    pub fn inside_links(&self) -> &'a [NavigationGraphInsideLinkRecord] {
        self.inside_links
    }
    /// Crossing-segment link (NodeIndex).
    pub fn crossing_segment_link(&self) -> Option<&'a U16> {
        self.crossing_segment_link
    }
    /// Crossing-data-chunk link.
    pub fn crossing_data_chunk_link(
        &self,
    ) -> Option<&'a NavigationGraphCrossingDataChunkLinkRecord> {
        self.crossing_data_chunk_link
    }
    /// Crossing-tile link.
    pub fn crossing_tile_link(&self) -> Option<&'a NavigationGraphCrossingTileLinkRecord> {
        self.crossing_tile_link
    }
}

/// A NavmeshChunk.
#[derive(Debug, Clone)]
pub struct NavmeshChunkView<'a> {
    /// Payload header.
    header: &'a NavmeshChunkHeader,
    /// Positions.
    positions: &'a [PositionRecord],
    /// Mesh descriptors.
    meshes: &'a [MeshRecord],
    /// The mesh data, from MeshDataOffset to the end of the chunk.
    mesh_data: &'a [u8],
    /// Where the mesh records lie when they are packed the game's way, each padded to 16 bytes.
    packed_records: Option<Packed>,
}

impl<'a> NavmeshChunkView<'a> {
    /// Payload header.
    pub fn header(&self) -> &'a NavmeshChunkHeader {
        self.header
    }
    /// Where the mesh records lie, in bytes from MeshDataOffset, when each follows the one
    /// before (padded to 16 bytes) from offset 0: `None` when they do not, or when the parser
    /// could not tell.
    pub(crate) fn packed_records(&self) -> Option<Packed> {
        self.packed_records
    }
    /// Positions.
    pub fn positions(&self) -> &'a [PositionRecord] {
        self.positions
    }
    /// Mesh descriptors.
    pub fn meshes(&self) -> &'a [MeshRecord] {
        self.meshes
    }
    /// One record per mesh, decoded from the mesh descriptor as it is reached.
    pub fn records(&self) -> impl ExactSizeIterator<Item = MeshDataView<'a>> + Clone + use<'a> {
        let data = self.mesh_data;
        self.meshes
            .iter()
            .map(move |m| MeshDataView::decode(data, m))
    }
    /// The mesh data, from MeshDataOffset to the end of the chunk.
    pub(crate) fn mesh_data(&self) -> &'a [u8] {
        self.mesh_data
    }
    /// The record of mesh `i`.
    pub fn record(&self, i: usize) -> Option<MeshDataView<'a>> {
        let m = self.meshes.get(i)?;
        Some(MeshDataView::decode(self.mesh_data, m))
    }
}

/// One mesh record.
#[derive(Debug, Clone)]
pub struct MeshDataView<'a> {
    /// NeighborNavmeshInfo per side.
    neighbors: &'a [U16],
    /// Position indices.
    positions: &'a [u8],
    /// NavigationGraph node indices.
    navigation_graph_nodes: &'a [u8],
    /// NeighborDataChunkIds and NeighborTileIds.
    crossing: Option<(&'a [U16], &'a [U16])>,
}

impl<'a> MeshDataView<'a> {
    /// The record `mesh` locates in `mesh_data` (the parser checked that it is there).
    fn decode(mesh_data: &'a [u8], mesh: &MeshRecord) -> Self {
        let at = usize::try_from(u64::from(mesh.data_offset()) * 2).unwrap_or(usize::MAX);
        let mut b = tail(mesh_data, at);
        let k = if mesh.use_4_neighbor_infos() { 4 } else { 3 };
        let nn = if mesh.use_4_navigation_graph_nodes() {
            4
        } else {
            3
        };
        let neighbors: &[U16] = take(&mut b, k);
        let positions: &[u8] = take(&mut b, k);
        let navigation_graph_nodes: &[u8] = take(&mut b, nn);
        let crossing = needs_crossing(neighbors).then(|| (take(&mut b, k), take(&mut b, k)));
        MeshDataView {
            neighbors,
            positions,
            navigation_graph_nodes,
            crossing,
        }
    }
    /// NeighborNavmeshInfo per side.
    pub fn neighbors(&self) -> &'a [U16] {
        self.neighbors
    }
    /// Position indices.
    pub fn positions(&self) -> &'a [u8] {
        self.positions
    }
    /// NavigationGraph node indices.
    pub fn navigation_graph_nodes(&self) -> &'a [u8] {
        self.navigation_graph_nodes
    }
    /// NeighborDataChunkIds and NeighborTileIds.
    pub fn crossing(&self) -> Option<(&'a [U16], &'a [U16])> {
        self.crossing
    }
    /// The record's length in bytes (without the padding after it).
    pub fn record_len(&self) -> usize {
        crate::records::mesh_record_len(
            self.neighbors.len(),
            self.navigation_graph_nodes.len(),
            self.crossing.is_some(),
        )
    }
}

/// A SegmentChunk.
#[derive(Debug, Clone)]
pub struct SegmentChunkView<'a> {
    /// Payload header.
    header: &'a SegmentChunkHeader,
    /// Bounds.
    bounds: &'a [BoundsRecord],
    /// Segments.
    segments: &'a [SegmentRecord],
}

impl<'a> SegmentChunkView<'a> {
    /// Payload header.
    pub fn header(&self) -> &'a SegmentChunkHeader {
        self.header
    }
    /// Bounds.
    pub fn bounds(&self) -> &'a [BoundsRecord] {
        self.bounds
    }
    /// Segments.
    pub fn segments(&self) -> &'a [SegmentRecord] {
        self.segments
    }
}

/// A SegmentGraph.
#[derive(Debug, Clone)]
pub struct SegmentGraphView<'a> {
    /// Payload header.
    header: &'a SegmentGraphHeader,
    /// Positions (NodeCount).
    positions: &'a [PositionRecord],
    /// Nodes.
    nodes: &'a [SegmentGraphNodeRecord],
    /// The link data, from LinkDataOffset to the end of the chunk.
    link_data: &'a [u8],
}

impl<'a> SegmentGraphView<'a> {
    /// Payload header.
    pub fn header(&self) -> &'a SegmentGraphHeader {
        self.header
    }
    /// Positions (NodeCount).
    pub fn positions(&self) -> &'a [PositionRecord] {
        self.positions
    }
    /// Nodes.
    pub fn nodes(&self) -> &'a [SegmentGraphNodeRecord] {
        self.nodes
    }
    /// One link block per node, decoded from the node record as it is reached.
    pub fn links(
        &self,
    ) -> impl ExactSizeIterator<Item = SegmentGraphLinkBlock<'a>> + Clone + use<'a> {
        let data = self.link_data;
        self.nodes
            .iter()
            .map(move |n| SegmentGraphLinkBlock::decode(data, n))
    }
    /// The link block of node `i`.
    pub fn link(&self, i: usize) -> Option<SegmentGraphLinkBlock<'a>> {
        let n = self.nodes.get(i)?;
        Some(SegmentGraphLinkBlock::decode(self.link_data, n))
    }
}

/// The link block of one SegmentGraph node.
#[derive(Debug, Clone)]
pub struct SegmentGraphLinkBlock<'a> {
    /// Inside links.
    inside_links: &'a [SegmentGraphInsideLinkRecord],
    /// Crossing-data-chunk links.
    crossing_data_chunk_links: &'a [SegmentGraphCrossingDataChunkLinkRecord],
    /// Crossing-tile links.
    crossing_tile_links: &'a [SegmentGraphCrossingTileLinkRecord],
    /// The NavigationGraph node indices of every link, concatenated in link order.
    navigation_graph_nodes: &'a [u8],
}

impl<'a> SegmentGraphLinkBlock<'a> {
    /// The block `node` locates in `link_data` (the parser checked that it is there).
    fn decode(link_data: &'a [u8], node: &SegmentGraphNodeRecord) -> Self {
        let at = usize::try_from(u64::from(node.link_data_offset()) * 2).unwrap_or(usize::MAX);
        let mut b = tail(link_data, at);
        let inside_links: &[SegmentGraphInsideLinkRecord] =
            take(&mut b, usize::from(node.inside_link_count()));
        let crossing_data_chunk_links: &[SegmentGraphCrossingDataChunkLinkRecord] =
            take(&mut b, usize::from(node.crossing_data_chunk_link_count));
        let crossing_tile_links: &[SegmentGraphCrossingTileLinkRecord] =
            take(&mut b, usize::from(node.crossing_tile_link_count));
        let total =
            sg_node_index_total(inside_links, crossing_data_chunk_links, crossing_tile_links);
        SegmentGraphLinkBlock {
            inside_links,
            crossing_data_chunk_links,
            crossing_tile_links,
            navigation_graph_nodes: take(&mut b, total),
        }
    }
    /// Inside links.
    pub fn inside_links(&self) -> &'a [SegmentGraphInsideLinkRecord] {
        self.inside_links
    }
    /// Crossing-data-chunk links.
    pub fn crossing_data_chunk_links(&self) -> &'a [SegmentGraphCrossingDataChunkLinkRecord] {
        self.crossing_data_chunk_links
    }
    /// Crossing-tile links.
    pub fn crossing_tile_links(&self) -> &'a [SegmentGraphCrossingTileLinkRecord] {
        self.crossing_tile_links
    }
    /// The NavigationGraph node indices of every link, concatenated in link order.
    pub fn navigation_graph_nodes(&self) -> &'a [u8] {
        self.navigation_graph_nodes
    }
}

/// One IslandGraph.
#[derive(Debug, Clone)]
pub struct IslandGraphView<'a> {
    /// Header.
    header: &'a IslandGraphHeader,
    /// Nodes.
    nodes: &'a [IslandGraphNodeRecord],
    /// The link data, from LinkDataOffset to the end of the graph.
    link_data: &'a [u8],
    /// LowGraphNodeLinks (NodeCount).
    low_graph_node_links: &'a [LowGraphNodeLinkRecord],
    /// SegmentCounts (NodeCount).
    segment_counts: &'a [U16],
    /// ConnectSideInfoGroups (4).
    connect_side_info_groups: &'a [ConnectSideInfoGroupRecord; 4],
    /// ConnectSideInfos.
    connect_side_infos: &'a [WeightNodeRecord],
}

impl<'a> IslandGraphView<'a> {
    /// Header.
    pub fn header(&self) -> &'a IslandGraphHeader {
        self.header
    }
    /// Nodes.
    pub fn nodes(&self) -> &'a [IslandGraphNodeRecord] {
        self.nodes
    }
    /// One link block per node, decoded from the node record as it is reached.
    pub fn links(
        &self,
    ) -> impl ExactSizeIterator<Item = IslandGraphLinkBlock<'a>> + Clone + use<'a> {
        let data = self.link_data;
        self.nodes
            .iter()
            .map(move |n| IslandGraphLinkBlock::decode(data, n))
    }
    /// The link block of node `i`.
    pub fn link(&self, i: usize) -> Option<IslandGraphLinkBlock<'a>> {
        let n = self.nodes.get(i)?;
        Some(IslandGraphLinkBlock::decode(self.link_data, n))
    }
    /// LowGraphNodeLinks (NodeCount).
    pub fn low_graph_node_links(&self) -> &'a [LowGraphNodeLinkRecord] {
        self.low_graph_node_links
    }
    /// SegmentCounts (NodeCount).
    pub fn segment_counts(&self) -> &'a [U16] {
        self.segment_counts
    }
    /// ConnectSideInfoGroups (4).
    pub fn connect_side_info_groups(&self) -> &'a [ConnectSideInfoGroupRecord; 4] {
        self.connect_side_info_groups
    }
    /// ConnectSideInfos.
    pub fn connect_side_infos(&self) -> &'a [WeightNodeRecord] {
        self.connect_side_infos
    }
}

/// The link block of one IslandGraph node.
#[derive(Debug, Clone)]
pub struct IslandGraphLinkBlock<'a> {
    /// Crossing-data-chunk links.
    crossing_data_chunk_links: &'a [IslandGraphCrossingDataChunkLinkRecord],
    /// Inside links.
    inside_links: &'a [WeightNodeRecord],
    /// Crossing-tile links.
    crossing_tile_links: &'a [U16],
}

impl<'a> IslandGraphLinkBlock<'a> {
    /// The block `node` locates in `link_data` (the parser checked that it is there).
    fn decode(link_data: &'a [u8], node: &IslandGraphNodeRecord) -> Self {
        let at = usize::from(node.link_data_offset.get());
        let mut b = tail(link_data, at);
        let crossing_data_chunk_links =
            take(&mut b, usize::from(node.crossing_data_chunk_link_count));
        let inside_links = take(&mut b, usize::from(node.inside_link_count));
        let crossing_tile_links = take(&mut b, usize::from(node.crossing_tile_link_count.get()));
        IslandGraphLinkBlock {
            crossing_data_chunk_links,
            inside_links,
            crossing_tile_links,
        }
    }
    /// Crossing-data-chunk links.
    pub fn crossing_data_chunk_links(&self) -> &'a [IslandGraphCrossingDataChunkLinkRecord] {
        self.crossing_data_chunk_links
    }
    /// Inside links.
    pub fn inside_links(&self) -> &'a [WeightNodeRecord] {
        self.inside_links
    }
    /// Crossing-tile links.
    pub fn crossing_tile_links(&self) -> &'a [U16] {
        self.crossing_tile_links
    }
}

/// The SearchSpace.
#[derive(Debug, Clone)]
pub struct SearchSpaceView<'a> {
    /// Header.
    header: &'a SearchSpaceHeader,
    /// BucketDescs.
    bucket_descs: &'a [BucketDescRecord],
    /// Every entry of every bucket, in bucket order (bucket `i` has `bucket_descs[i].count`).
    entries: Vec<BucketEntryView<'a>>,
}

impl<'a> SearchSpaceView<'a> {
    /// Header.
    pub fn header(&self) -> &'a SearchSpaceHeader {
        self.header
    }
    /// BucketDescs.
    pub fn bucket_descs(&self) -> &'a [BucketDescRecord] {
        self.bucket_descs
    }
    /// Every entry of every bucket, in bucket order (bucket `i` has `bucket_descs[i].count`).
    pub fn entries(&self) -> &[BucketEntryView<'a>] {
        &self.entries
    }
}

/// One bucket entry.
#[derive(Debug, Clone)]
pub struct BucketEntryView<'a> {
    /// Head.
    head: &'a BucketEntryRecord,
    /// Segment indices.
    segment_indices: &'a [U16],
}

impl<'a> BucketEntryView<'a> {
    /// Head.
    pub fn head(&self) -> &'a BucketEntryRecord {
        self.head
    }
    /// Segment indices.
    pub fn segment_indices(&self) -> &'a [U16] {
        self.segment_indices
    }
}

/// The ConnectTileInfo.
#[derive(Debug, Clone)]
pub struct ConnectTileInfoView<'a> {
    /// Header.
    header: &'a ConnectTileInfoHeader,
    /// Groups.
    groups: &'a [ConnectTileGroupRecord],
    /// Infos.
    infos: &'a [ConnectTilePairRecord],
    /// Nodes.
    nodes: &'a [ConnectTilePairRecord],
}

impl<'a> ConnectTileInfoView<'a> {
    /// Header.
    pub fn header(&self) -> &'a ConnectTileInfoHeader {
        self.header
    }
    /// Groups.
    pub fn groups(&self) -> &'a [ConnectTileGroupRecord] {
        self.groups
    }
    /// Infos.
    pub fn infos(&self) -> &'a [ConnectTilePairRecord] {
        self.infos
    }
    /// Nodes.
    pub fn nodes(&self) -> &'a [ConnectTilePairRecord] {
        self.nodes
    }
}

/// `data` from `at` on (empty past the end).
fn tail(data: &[u8], at: usize) -> &[u8] {
    data.get(at..).unwrap_or(&[])
}

/// Splits `n` records off the front of `b`; none when `b` is too short, which a block the parser
/// checked never is.
fn take<'a, T>(b: &mut &'a [u8], n: usize) -> &'a [T]
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    match <[T]>::ref_from_prefix_with_elems(b, n) {
        Ok((records, rest)) => {
            *b = rest;
            records
        }
        Err(_) => {
            *b = &[];
            &[]
        }
    }
}

/// Splits one record off the front of `b`, as [`take`] does.
fn take_one<'a, T>(b: &mut &'a [u8]) -> Option<&'a T>
where
    T: FromBytes + KnownLayout + Immutable + Unaligned,
{
    match T::ref_from_prefix(b) {
        Ok((record, rest)) => {
            *b = rest;
            Some(record)
        }
        Err(_) => {
            *b = &[];
            None
        }
    }
}

/// How many NavigationGraph node indices the links of one SegmentGraph link block list.
pub(crate) fn sg_node_index_total(
    inside: &[SegmentGraphInsideLinkRecord],
    crossing_data_chunk: &[SegmentGraphCrossingDataChunkLinkRecord],
    crossing_tile: &[SegmentGraphCrossingTileLinkRecord],
) -> usize {
    inside
        .iter()
        .map(|l| usize::from(l.navigation_graph_node_index_count))
        .chain(
            crossing_data_chunk
                .iter()
                .map(|l| usize::from(l.navigation_graph_node_index_count)),
        )
        .chain(
            crossing_tile
                .iter()
                .map(|l| usize::from(l.navigation_graph_node_index_count)),
        )
        .sum()
}
