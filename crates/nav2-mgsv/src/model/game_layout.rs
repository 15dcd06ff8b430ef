//! Whether a parsed file is laid out the way the game lays files out: the question
//! [`Nav2File::from_view`](super::Nav2File::from_view) asks to decide whether the model keeps
//! the stored layout.
//!
//! The answer is what `layout::compute(&Nav2File::from_view(view)) == stored_layout(view)` gives,
//! found without building either layout. The game's rules ([`super::layout`]'s section helpers
//! and running sums) are applied to the sizes of the file's own records, and each value is
//! compared with the stored one as soon as it is known, so that the first difference ends the
//! walk. The two long per-record lists (NavigationGraph link blocks, mesh records) are the
//! exception: they are [`Run`]s, one folded difference each, which `from_view` takes while it
//! copies the records (or straight from the view, where the parser saw the list [`Packed`]),
//! and the walk only reads their totals. Where [`layout::compute`] refuses
//! a value narrower than its stored field (a NavigationGraph link offset past 16 bits, a chunk
//! size past 24), the walk refuses it too.

use super::ChunkLayout;
use super::layout::{self, a16};
use super::stored_offsets::{
    chunk_layout, cti_offsets, ig_offsets, ng_link_offset, ng_offsets, nm_offsets, sc_offsets,
    sg_offsets, ss_offsets, view_length,
};
use crate::records::{HEADER_SIZE, MeshRecord, NavigationGraphNodeRecord};
use crate::view::{DataChunkView, Nav2View, Packed};

fn n64(n: usize) -> u64 {
    n as u64
}

/// Whether each stored value equals the computed one (compared as `u64`, so that a computed
/// value too wide for its field never matches).
fn same<const N: usize, T: Into<u64> + Copy>(stored: [T; N], computed: [u64; N]) -> bool {
    stored.iter().zip(computed).all(|(s, c)| (*s).into() == c)
}

/// Records that the game's layout puts one right after another from offset 0 (a
/// NavigationGraph's link blocks, a NavmeshChunk's mesh records), each with its stored offset:
/// whether every stored offset is the running sum of the sizes before it.
///
/// The stored offsets are folded into one difference rather than compared one by one: a file is
/// the game's or not as a whole, and a step without an exit is a few instructions, so that
/// [`Nav2File::from_view`](super::Nav2File::from_view) takes it for each record it copies
/// anyway, where the record is already at hand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Run {
    /// The running sum: where the next record goes.
    next: u64,
    /// Where the last record went.
    last: u64,
    /// The bits in which some stored offset differs from its running sum.
    differs: u64,
}

impl Run {
    /// One more record, stored at `stored`, of `size` (both in the offsets' unit).
    #[inline(always)]
    pub(crate) fn step(&mut self, stored: u32, size: u64) {
        self.differs |= u64::from(stored) ^ self.next;
        self.last = self.next;
        self.next += size;
    }

    /// The run of records the parser saw [`Packed`] the game's way: what stepping over each of
    /// them gives, in 2-byte units (`packed` is in bytes, and even: the records' sizes and
    /// padding are).
    pub(crate) fn packed(packed: Packed) -> Run {
        Run {
            next: n64(packed.end) / 2,
            last: n64(packed.last) / 2,
            differs: 0,
        }
    }

    /// A record whose size cannot be known: the run is not the game's.
    pub(crate) fn broken(&mut self) {
        self.differs |= 1 << 63;
    }

    /// The records' total size when every stored offset was its running sum and none was past
    /// `max` (the widest offset the game's writer gives).
    fn total(self, max: u64) -> Option<u64> {
        (self.differs == 0 && self.last <= max).then_some(self.next)
    }
}

/// The per-record runs of one data chunk.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ChunkRuns {
    /// The NavigationGraph's link blocks, in 2-byte units.
    pub(crate) links: Run,
    /// The NavmeshChunk's mesh records, each padded to 16 bytes, in 2-byte units.
    pub(crate) meshes: Run,
}

/// The NavigationGraph node's link block, as a step of [`ChunkRuns::links`].
#[inline(always)]
pub(crate) fn link_step(run: &mut Run, node: &NavigationGraphNodeRecord) {
    run.step(ng_link_offset(node), u64::from(node.link_block_units()));
}

/// A mesh record of `len` bytes, as a step of [`ChunkRuns::meshes`].
#[inline(always)]
pub(crate) fn mesh_step(run: &mut Run, mesh: &MeshRecord, len: usize) {
    run.step(mesh.data_offset(), a16(n64(len)) / 2);
}

/// A data chunk's runs, from the view alone: what `from_view` gathers as it copies the records.
/// Where the parser saw a list [`Packed`], its run is taken from that.
pub(crate) fn chunk_runs(dc: &DataChunkView<'_>) -> ChunkRuns {
    let stepped = stepped_runs(dc);
    ChunkRuns {
        links: dc
            .navigation_graph()
            .packed_links()
            .map_or(stepped.links, Run::packed),
        meshes: dc
            .navmesh_chunk()
            .packed_records()
            .map_or(stepped.meshes, Run::packed),
    }
}

/// A data chunk's runs, stepped over every record.
pub(crate) fn stepped_runs(dc: &DataChunkView<'_>) -> ChunkRuns {
    let mut runs = ChunkRuns::default();
    for node in dc.navigation_graph().nodes() {
        link_step(&mut runs.links, node);
    }
    // Each record is sized where the running sum (not the stored offset) puts it, so that the
    // records are read in order; where the two differ, the run is not the game's either way.
    let nm = dc.navmesh_chunk();
    let data = nm.mesh_data();
    for m in nm.meshes() {
        match m.record_len_at(data, 2 * runs.meshes.next) {
            Some(len) => mesh_step(&mut runs.meshes, m, len),
            None => {
                runs.meshes.broken();
                break;
            }
        }
    }
    runs
}

/// Whether the view's file stores the offsets, sizes, counts and prefix sums that
/// [`layout::compute`] gives its model, and has no residue.
pub(crate) fn is_game_layout(view: &Nav2View<'_>) -> bool {
    let runs: Vec<ChunkRuns> = view.data_chunks().iter().map(chunk_runs).collect();
    is_game_layout_with(view, &runs)
}

/// [`is_game_layout`], given each data chunk's per-record runs.
pub(crate) fn is_game_layout_with(view: &Nav2View<'_>, runs: &[ChunkRuns]) -> bool {
    let h = view.header();
    let chunks = view.data_chunks();
    if runs.len() != chunks.len() {
        return false;
    }
    let n = n64(chunks.len());
    let (descs_size, chunks_offset) = layout::head(n);
    let head = view.residue().is_empty()
        && u64::from(h.chunk_descs_offset.get()) == n64(HEADER_SIZE)
        && u64::from(h.chunk_descs_data_size.get()) == descs_size
        && u64::from(h.chunks_offset.get()) == chunks_offset
        && u64::from(h.chunk_count.get()) == 4 * n
        && u64::from(view.chunk_desc_entry_count()) == n
        && view.chunk_descs().len() == 3 * chunks.len();
    if !head {
        return false;
    }
    // The chunks, by kind, each right after the one before; their starts for the descriptors.
    let mut pos = chunks_offset;
    let mut starts = vec![[0u64; 4]; chunks.len()];
    for kind in 0..4 {
        for ((dc, start), runs) in chunks.iter().zip(starts.iter_mut()).zip(runs) {
            let size = match kind {
                0 => navigation_graph(dc, runs.links),
                1 => navmesh_chunk(dc, runs.meshes),
                2 => segment_chunk(dc),
                _ => segment_graph(dc),
            };
            let Some(size) = size.filter(|s| *s <= 0x00ff_ffff) else {
                return false;
            };
            let header = dc.headers()[kind];
            let want = ChunkLayout {
                next_chunk_offset: u32::try_from(size).unwrap_or(u32::MAX),
                data_offset: 16,
            };
            if chunk_layout(header) != want {
                return false;
            }
            start[kind] = pos;
            pos += size;
        }
    }
    // Descriptors: NavigationGraph, SegmentGraph, NavmeshChunk, each naming its data chunk.
    let mut descs = view.chunk_descs().iter();
    for (kind, ty) in [(0usize, 0u64), (3, 3), (1, 1)] {
        for (dc, start) in chunks.iter().zip(&starts) {
            let Some(d) = descs.next() else {
                return false;
            };
            let size = u64::from(dc.headers()[kind].next_chunk_offset.get());
            // The model keeps one uid per data chunk: the first chunk header's.
            if d.uid.get() != dc.headers()[0].uid.get()
                || u64::from(d.data_offset.get()) != start[kind] + 16
                || u64::from(d.type_and_size.get()) != ty | size << 8
            {
                return false;
            }
        }
    }
    island_graphs(view, &mut pos)
        && search_space(view, &mut pos)
        && connect_tile_info(view, &mut pos)
        && u64::from(h.file_size.get()) == pos
        && u64::from(view_length(view)) == pos
}

/// The NavigationGraph's size when its offsets are the game's; `links` is its link blocks' run.
fn navigation_graph(dc: &DataChunkView<'_>, links: Run) -> Option<u64> {
    let ng = dc.navigation_graph();
    // The game's writer keeps the link offsets to 16 bits.
    let run = 2 * links.total(0xffff)?;
    let (offsets, size) = layout::ng_sections(
        n64(ng.nodes().len()),
        run,
        n64(ng.edges().len()),
        n64(ng.attributes().len()),
    );
    same(ng_offsets(ng.header()), offsets).then_some(size)
}

/// The NavmeshChunk's size when its offsets are the game's; `meshes` is its records' run.
fn navmesh_chunk(dc: &DataChunkView<'_>, meshes: Run) -> Option<u64> {
    let nm = dc.navmesh_chunk();
    // An offset past the stored field's 18 bits never equals the stored one.
    let run = 2 * meshes.total(u64::MAX)?;
    let (offsets, size) =
        layout::nm_sections(n64(nm.positions().len()), n64(nm.meshes().len()), run);
    same(nm_offsets(nm.header()), offsets).then_some(size)
}

/// The SegmentChunk's size when its offsets and bases are the game's.
fn segment_chunk(dc: &DataChunkView<'_>) -> Option<u64> {
    let sc = dc.segment_chunk();
    let mut sums = [0u64; 4];
    for s in sc.segments() {
        if !same(s.bases.map(|b| b.get()), sums) {
            return None;
        }
        for (sum, c) in sums.iter_mut().zip(s.counts) {
            *sum += u64::from(c);
        }
    }
    let (offsets, size) = layout::sc_sections(n64(sc.segments().len()));
    same(sc_offsets(sc.header()), offsets).then_some(size)
}

/// The SegmentGraph's size when its offsets and count are the game's.
fn segment_graph(dc: &DataChunkView<'_>) -> Option<u64> {
    let sg = dc.segment_graph();
    let (mut run, mut total) = (0u64, 0u64);
    for (node, l) in sg.nodes().iter().zip(sg.links()) {
        run = layout::sg_block_start(run);
        if u64::from(node.link_data_offset()) != run / 2 {
            return None;
        }
        let lists = n64(l.navigation_graph_nodes().len());
        run += layout::sg_link_block_bytes(
            l.inside_links().len(),
            l.crossing_data_chunk_links().len(),
            l.crossing_tile_links().len(),
            lists,
        );
        total += lists;
    }
    let (offsets, size) = layout::sg_sections(n64(sg.nodes().len()), run);
    let count = sg.header().total_navigation_graph_node_index_count.get();
    (same(sg_offsets(sg.header()), offsets) && u64::from(count) == total).then_some(size)
}

fn island_graphs(view: &Nav2View<'_>, pos: &mut u64) -> bool {
    let graphs = view.island_graphs();
    // Without graphs, the offset keeps its default of 0.
    let at = if graphs.is_empty() { 0 } else { *pos };
    if u64::from(view.header().island_graphs_offset.get()) != at {
        return false;
    }
    for g in graphs {
        let mut run = 0u64;
        for (node, l) in g.nodes().iter().zip(g.links()) {
            if u64::from(node.link_data_offset.get()) != run {
                return false;
            }
            run += layout::ig_link_block_bytes(
                l.crossing_data_chunk_links().len(),
                l.inside_links().len(),
                l.crossing_tile_links().len(),
            );
        }
        let mut sum = 0u64;
        for grp in g.connect_side_info_groups() {
            if u64::from(grp.start_index.get()) != sum {
                return false;
            }
            sum += u64::from(grp.count.get());
        }
        let sections =
            layout::ig_sections(n64(g.nodes().len()), run, n64(g.connect_side_infos().len()));
        if !same(ig_offsets(g.header()), sections) {
            return false;
        }
        *pos += sections[0];
    }
    true
}

fn search_space(view: &Nav2View<'_>, pos: &mut u64) -> bool {
    let stored = u64::from(view.header().search_space_offset.get());
    let Some(s) = view.search_space() else {
        return stored == 0;
    };
    if stored != *pos {
        return false;
    }
    let [_, entries_at, _] = layout::ss_sections(n64(s.bucket_descs().len()), 0);
    let mut run = entries_at;
    // Each bucket takes the next `count` entries, as the model's buckets do.
    let mut entries = s.entries();
    for (i, d) in s.bucket_descs().iter().enumerate() {
        if u64::from(d.start_offset.get()) != layout::ss_start_offset(n64(i), run) {
            return false;
        }
        let (mine, rest) = entries.split_at(usize::from(d.count.get()).min(entries.len()));
        entries = rest;
        run += mine
            .iter()
            .map(|e| layout::bucket_entry_bytes(e.segment_indices().len()))
            .sum::<u64>();
    }
    let sections = layout::ss_sections(n64(s.bucket_descs().len()), run - entries_at);
    *pos += sections[2];
    same(ss_offsets(s.header()), sections)
}

fn connect_tile_info(view: &Nav2View<'_>, pos: &mut u64) -> bool {
    let stored = u64::from(view.header().connect_tile_info_offset.get());
    let Some(c) = view.connect_tile_info() else {
        return stored == 0;
    };
    if stored != *pos {
        return false;
    }
    let (bytes, end) = layout::cti_sections(
        n64(c.groups().len()),
        n64(c.infos().len()),
        n64(c.nodes().len()),
    );
    *pos += a16(end);
    same(cti_offsets(c.header()), bytes.map(|b| b / 2))
}
