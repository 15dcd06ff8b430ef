//! The offsets and sizes a file stores, read from its records: what
//! [`Nav2File::from_view`](super::Nav2File::from_view) keeps of a layout that is not the game's,
//! and what [`super::game_layout`] compares with the game's rules. Below both.

use super::ChunkLayout;
use crate::records::{
    ChunkHeader, ConnectTileInfoHeader, IslandGraphHeader, NavigationGraphHeader,
    NavigationGraphNodeRecord, NavmeshChunkHeader, SearchSpaceHeader, SegmentChunkHeader,
    SegmentGraphHeader,
};
use crate::view::Nav2View;

/// The file's length, as the `u32` its offsets are.
pub(super) fn view_length(view: &Nav2View<'_>) -> u32 {
    // The parser refuses input longer than MAX_FILE_LEN (16 MiB), so the length and every
    // residue offset inside it fit a `u32`.
    const _: () = assert!(crate::records::MAX_FILE_LEN <= u32::MAX as usize);
    #[allow(clippy::cast_possible_truncation)]
    let length = view.length() as u32;
    length
}

/// A chunk header's stored offsets.
pub(super) fn chunk_layout(c: &ChunkHeader) -> ChunkLayout {
    ChunkLayout {
        next_chunk_offset: c.next_chunk_offset.get(),
        data_offset: c.data_offset.get(),
    }
}

/// A NavigationGraph header's stored offsets.
pub(super) fn ng_offsets(h: &NavigationGraphHeader) -> [u32; 6] {
    [
        h.positions_offset.get(),
        h.nodes_offset.get(),
        h.edges_offset.get(),
        h.link_data_offset.get(),
        h.attributes_offset.get(),
        h.navmesh_indices_offset.get(),
    ]
}

/// A NavigationGraph node's stored link-data offset, all 20 bits.
pub(super) fn ng_link_offset(n: &NavigationGraphNodeRecord) -> u32 {
    u32::from(n.link_data_offset.get()) | u32::from(n.link_data_offset_upper()) << 16
}

/// A NavmeshChunk header's stored offsets.
pub(super) fn nm_offsets(h: &NavmeshChunkHeader) -> [u32; 3] {
    [
        h.positions_offset.get(),
        h.meshes_offset.get(),
        h.mesh_data_offset.get(),
    ]
}

/// A SegmentChunk header's stored offsets and size.
pub(super) fn sc_offsets(h: &SegmentChunkHeader) -> [u32; 3] {
    [
        h.bounds_offset.get(),
        h.segments_offset.get(),
        h.self_size.get(),
    ]
}

/// A SegmentGraph header's stored offsets and size.
pub(super) fn sg_offsets(h: &SegmentGraphHeader) -> [u32; 4] {
    [
        h.positions_offset.get(),
        h.nodes_offset.get(),
        h.link_data_offset.get(),
        h.self_size.get(),
    ]
}

/// An IslandGraph header's stored offsets (its node count left out).
pub(super) fn ig_offsets(h: &IslandGraphHeader) -> [u16; 7] {
    let w = h.words.map(|v| v.get());
    [w[0], w[1], w[3], w[4], w[5], w[6], w[7]]
}

/// A SearchSpace header's stored offsets and size.
pub(super) fn ss_offsets(h: &SearchSpaceHeader) -> [u32; 3] {
    [
        h.bucket_descs_offset.get(),
        h.bucket_entries_offset.get(),
        h.self_size.get(),
    ]
}

/// A ConnectTileInfo header's stored offsets.
pub(super) fn cti_offsets(h: &ConnectTileInfoHeader) -> [u16; 3] {
    let w = h.words.map(|v| v.get());
    [w[0], w[1], w[2]]
}
