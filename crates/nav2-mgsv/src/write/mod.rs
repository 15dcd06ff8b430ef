//! The writer.
//!
//! A stored layout, and [`stream`], take two phases: first the layout (the stored one of a parsed
//! file, or the game's layout that [`crate::model::layout::compute`] derives from the model), then
//! every record is placed at the offset that layout gives it, in one buffer of the file's length
//! (or, for [`stream`], one window per section): whole zerocopy records for the
//! arrays (`chunks.rs` and `navmesh.rs` for the four chunk kinds, `sections.rs` for the
//! IslandGraphs, the SearchSpace and the ConnectTileInfo), and each variable-length block (link
//! blocks, mesh records) filled in place, in a slot of its computed size (`Fill`). Bit fields
//! and counts are narrowed with an error naming the field, never wrapped.
//!
//! [`Nav2File::write`] and `Format::write_into` put a model without a stored layout the game's
//! way in one pass, without computing the layout first (`grown.rs`): the output grows section by
//! section, and the headers that hold later sizes and offsets are put last. [`stream`], which
//! must refuse a model before it writes a byte, computes the game's layout first, without its two
//! per-record offset lists (one per NavigationGraph node, one per mesh): the writer places those
//! link blocks and mesh records one after the other and adds their sizes up as it goes. Only a
//! model that does not fit is laid out again with every offset listed, by the record-by-record
//! writer, which names the first field out of range.
//!
//! A stored layout (a file not laid out the way the game does, such as Obj2Nav2 output) is taken
//! at its word only while it describes the model: the writer parses what it placed and keeps it
//! when it reads back as the same model, so an unedited file, or one whose edits keep every
//! offset (a moved position), is written byte for byte. An edit the stored offsets cannot hold (a
//! node or a mesh more) makes the writer lay the model out the game's way instead, recomputing
//! every offset, size, count and prefix sum; reading that back gives the model with
//! `stored: None`, as [`Nav2File::relayout`] would.

use core::fmt;

use nav_core::scalar::{U16, U32};
use nav_core::zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};
use nav_core::{Error, Result};

use crate::FORMAT;
use crate::model::layout::{self, RecordOffsets};
use crate::model::*;
use crate::records::*;
use crate::view::Nav2View;
use chunks::{navigation_graph, segment_chunk, segment_graph};
use navmesh::navmesh_chunk;
use sections::{connect_tile_info, island_graph, search_space};

mod chunks;
mod grown;
mod navmesh;
mod sections;

/// Serialises a model: [`Nav2File::write`] (the crate's entry points are [`crate::read`],
/// [`write()`], [`crate::validate()`] and [`crate::fix()`], as in the other format crates).
pub fn write(model: &Nav2File) -> Result<Vec<u8>> {
    model.write()
}

impl Nav2File {
    /// The file's bytes: laid out with the stored layout while it still describes the model
    /// (a file read and left as it was gives its bytes back), else the way the game lays files
    /// out. Refuses, naming the field, what the format cannot hold.
    pub fn write(&self) -> Result<Vec<u8>> {
        to_bytes(self)
    }

    /// Writes the same bytes as [`Nav2File::write`] to `out`, section by section (the file
    /// header and descriptors, each chunk, each IslandGraph, the SearchSpace, the
    /// ConnectTileInfo), so that no copy of the whole file is held: see [`stream`].
    ///
    /// A model the format cannot hold fails with [`std::io::ErrorKind::InvalidData`] and the
    /// [`nav_core::Error`] inside ([`nav_core::error::refused`] reads it back), before any byte
    /// is written.
    pub fn write_to(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        stream(self, out)
    }
}

fn check_version(model: &Nav2File) -> Result<()> {
    if model.version != VERSION && model.version != VERSION_OLD {
        return Err(shape(
            "version",
            format!(
                "{} is not a version this crate reads ({VERSION} or {VERSION_OLD})",
                model.version
            ),
        ));
    }
    Ok(())
}

fn to_bytes(model: &Nav2File) -> Result<Vec<u8>> {
    into_buffer(model, Vec::new())
}

/// The bytes [`Nav2File::write`] gives, in `buf`'s memory when the model is put in one pass (its
/// contents are dropped): [`nav_core::Format::write_into`], where a rewrite hands over the
/// buffer it read the file into.
pub(crate) fn into_buffer(model: &Nav2File, buf: Vec<u8>) -> Result<Vec<u8>> {
    check_version(model)?;
    if let Some(out) = model.stored.as_deref().and_then(|s| stored_bytes(model, s)) {
        return Ok(out);
    }
    // The game's layout, put in one pass over the model; a model that does not fit is laid out
    // again with every offset listed, which finds and names the first field out of range.
    if let Ok(out) = grown::place(model, buf) {
        return Ok(out);
    }
    place(model, &layout::compute(model)?, RecordOffsets::Listed)
}

/// Streams the bytes [`Nav2File::write`] gives to `out`: [`Nav2File::write_to`] and
/// [`nav_core::Format::write_to`].
///
/// The game's layout is computed first (refusing offsets and sizes that do not fit), then every
/// record is placed once into a window that holds one section (the FileHeader with the
/// ChunkDescs, one chunk, one IslandGraph, the SearchSpace, the ConnectTileInfo) and discarded,
/// which refuses every field that does not fit its bits; only then is each section placed again
/// and handed to `out` as soon as it is complete. A refusal therefore comes before any byte is
/// written, and the memory held is the largest section, not the file. A model that keeps a
/// stored layout is written whole first (its layout is kept only when the written bytes read
/// back as the model), then handed over in one `write_all`.
pub fn stream(model: &Nav2File, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use nav_core::error::refusal;
    check_version(model).map_err(refusal)?;
    if let Some(bytes) = model.stored.as_deref().and_then(|s| stored_bytes(model, s)) {
        return out.write_all(&bytes);
    }
    // As `write`: the running offsets first, and every offset listed when the model does not
    // fit them, to name the field at fault.
    let dry_run = |l: &StoredLayout, r: RecordOffsets| {
        let mut dry = Out::window(l, Sink::Discard);
        place_into(model, l, r, &mut dry).and_then(|()| dry.finish())
    };
    let (l, r) = match layout::compute_running(model) {
        Some(l) if dry_run(&l, RecordOffsets::Running).is_ok() => (l, RecordOffsets::Running),
        _ => {
            let l = layout::compute(model).map_err(refusal)?;
            dry_run(&l, RecordOffsets::Listed).map_err(refusal)?;
            (l, RecordOffsets::Listed)
        }
    };
    let mut o = Out::window(&l, Sink::Stream(out));
    match place_into(model, &l, r, &mut o).and_then(|()| o.finish()) {
        Ok(()) => Ok(()),
        Err(e) => Err(o.io_error.take().unwrap_or_else(|| refusal(e))),
    }
}

/// The bytes of `model` laid out with `stored`, when that layout still describes the model:
/// every record finds its place and the output reads back as this very model. `None` when the
/// model was edited past what the stored offsets can hold (or the layout is the game's own, which
/// a file does not keep), so that the writer lays the model out the game's way instead.
pub(crate) fn stored_bytes(model: &Nav2File, stored: &StoredLayout) -> Option<Vec<u8>> {
    let out = place(model, stored, RecordOffsets::Listed).ok()?;
    let view = Nav2View::parse(&out).ok()?;
    (Nav2File::from_view(&view) == *model).then_some(out)
}

/// A value that must fit `width` bits.
fn bits(value: u64, width: u32, field: impl fmt::Display) -> Result<u32> {
    match u32::try_from(value) {
        Ok(v) if value >> width == 0 => Ok(v),
        _ => Err(Error::unrepresentable(
            FORMAT,
            field,
            format!("{value} does not fit the field's {width} bits"),
        )),
    }
}

fn len_u8(n: usize, field: impl fmt::Display) -> Result<u8> {
    nav_core::write::narrow::<u8, usize>(FORMAT, field, n)
}

fn len_u16(n: usize, field: impl fmt::Display) -> Result<u16> {
    nav_core::write::narrow::<u16, usize>(FORMAT, field, n)
}

fn len_u32(n: usize, field: impl fmt::Display) -> Result<u32> {
    nav_core::write::narrow::<u32, usize>(FORMAT, field, n)
}

fn shape(field: impl fmt::Display, message: impl fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, field, message)
}

/// Where placed bytes go.
enum Sink<'w> {
    /// One buffer of the file's length (`write`).
    Buffer,
    /// A window per section, checked and dropped (the refusal pass of [`stream`]).
    Discard,
    /// A window per section, handed to the writer once complete.
    Stream(&'w mut dyn std::io::Write),
}

/// The output: records are put at absolute offsets, whole, as their zerocopy bytes.
///
/// `buf` holds the bytes from `base` on: the whole file for [`Sink::Buffer`], the current
/// section otherwise (it grows as records land in it, up to the file's length). Sections come
/// in file order; [`Out::section`] hands the previous one over.
struct Out<'w> {
    buf: Vec<u8>,
    base: u64,
    /// The file's length: nothing is placed past it.
    length: u64,
    sink: Sink<'w>,
    /// The writer's error, when handing a section over failed.
    io_error: Option<std::io::Error>,
}

impl<'w> Out<'w> {
    /// A buffer for the whole file.
    fn buffer(length: usize) -> Self {
        Out {
            buf: vec![0u8; length],
            base: 0,
            length: length as u64,
            sink: Sink::Buffer,
            io_error: None,
        }
    }

    /// A buffer that grows as records are put, up to the most this crate writes, in the memory
    /// of `buf` (emptied) with room for `capacity` bytes ([`grown`]).
    fn growing(mut buf: Vec<u8>, capacity: usize) -> Self {
        buf.clear();
        buf.reserve(capacity);
        Out {
            buf,
            base: 0,
            length: MAX_FILE_LEN as u64,
            sink: Sink::Buffer,
            io_error: None,
        }
    }

    /// A section window for the file `l` describes.
    fn window(l: &StoredLayout, sink: Sink<'w>) -> Self {
        Out {
            buf: Vec::new(),
            base: 0,
            length: u64::from(l.length),
            sink,
            io_error: None,
        }
    }

    /// Starts the section at `start`: hands over the bytes placed so far and the zero bytes up to
    /// `start`. A no-op for the whole-file buffer.
    fn section(&mut self, start: u64) -> Result<()> {
        if matches!(self.sink, Sink::Buffer) {
            return Ok(());
        }
        let end = self.base + self.buf.len() as u64;
        if start < end || start > self.length {
            return Err(shape(
                "layout",
                format!("a section at {start:#x} does not follow the one that ends at {end:#x}"),
            ));
        }
        let buf = core::mem::take(&mut self.buf);
        self.emit(&buf)?;
        self.buf = buf;
        self.buf.clear();
        self.zeros(start - end)?;
        self.base = start;
        Ok(())
    }

    /// Hands over the last section and the zero bytes up to the file's length.
    fn finish(&mut self) -> Result<()> {
        let start = self.length;
        self.section(start)
    }

    fn zeros(&mut self, mut n: u64) -> Result<()> {
        const ZEROS: [u8; 256] = [0; 256];
        while n > 0 {
            let k = n.min(ZEROS.len() as u64);
            self.emit(ZEROS.get(..usize::try_from(k).unwrap_or(0)).unwrap_or(&[]))?;
            n -= k;
        }
        Ok(())
    }

    fn emit(&mut self, bytes: &[u8]) -> Result<()> {
        if let Sink::Stream(w) = &mut self.sink {
            if let Err(e) = w.write_all(bytes) {
                self.io_error = Some(e);
                return Err(shape("output", "the writer failed"));
            }
        }
        Ok(())
    }

    /// The `len` bytes at `at`, or an error naming `field` when they are past the file (or
    /// before the current section).
    #[inline]
    fn slot(&mut self, at: u64, len: usize, field: impl fmt::Display) -> Result<&mut [u8]> {
        let range = at
            .checked_sub(self.base)
            .and_then(|s| usize::try_from(s).ok())
            .and_then(|s| s.checked_add(len).map(|e| s..e))
            .filter(|r| self.base + r.end as u64 <= self.length);
        let Some(range) = range else {
            return Err(past_the_file(field, len, at, self.length));
        };
        if range.end > self.buf.len() {
            self.buf.resize(range.end, 0);
        }
        match self.buf.get_mut(range) {
            Some(slot) => Ok(slot),
            None => Err(past_the_file(field, len, at, self.length)),
        }
    }

    #[inline]
    fn put_bytes(&mut self, at: u64, bytes: &[u8], field: impl fmt::Display) -> Result<()> {
        self.slot(at, bytes.len(), field)?.copy_from_slice(bytes);
        Ok(())
    }

    /// One record (or a slice of records), as its bytes.
    #[inline]
    fn put<T: IntoBytes + Immutable + ?Sized>(
        &mut self,
        at: u64,
        value: &T,
        field: impl fmt::Display,
    ) -> Result<()> {
        self.put_bytes(at, value.as_bytes(), field)
    }

    /// `n` records at `at`, to be filled in place.
    #[inline]
    fn records<T: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned>(
        &mut self,
        at: u64,
        n: usize,
        field: impl fmt::Display,
    ) -> Result<&mut [T]> {
        let len = n.saturating_mul(core::mem::size_of::<T>());
        let slot = self.slot(at, len, &field)?;
        <[T]>::mut_from_bytes(slot).map_err(|_| shape(field, "records do not fit their type"))
    }
}

/// A block being filled front to back, one whole record at a time. Each record's size is known
/// at compile time, so its copy is a few moves rather than a call to `memcpy`; the block is cut
/// to the size computed beforehand, so nothing is left over or missing.
struct Fill<'a> {
    rest: &'a mut [u8],
}

impl Fill<'_> {
    /// Appends one record (a no-op past the end, which a block of the computed size never
    /// reaches; [`Fill::done`] checks it in debug builds).
    #[inline]
    fn put<T: IntoBytes + Immutable>(&mut self, value: &T) {
        let size = core::mem::size_of::<T>();
        if self.rest.len() >= size {
            let (head, tail) = core::mem::take(&mut self.rest).split_at_mut(size);
            head.copy_from_slice(value.as_bytes());
            self.rest = tail;
        }
    }

    /// Appends bytes (as [`Fill::put`] does, a no-op past the end).
    #[inline]
    fn put_bytes(&mut self, bytes: &[u8]) {
        if let Some((head, tail)) =
            core::mem::take(&mut self.rest).split_at_mut_checked(bytes.len())
        {
            head.copy_from_slice(bytes);
            self.rest = tail;
        }
    }

    /// Every byte of the block was written.
    #[inline]
    fn done(self) {
        debug_assert!(self.rest.is_empty(), "block size computed exactly");
    }
}

#[cold]
fn past_the_file(field: impl fmt::Display, len: usize, at: u64, total: u64) -> Error {
    shape(
        field,
        format!(
            "{len} bytes at offset {at:#x} do not fit the {total}-byte file the layout describes"
        ),
    )
}

#[inline]
fn position(p: &Position) -> PositionRecord {
    PositionRecord {
        xyz: p.map(U16::new),
    }
}

fn pos_bytes(p: &Position) -> [u8; 6] {
    let mut b = [0u8; 6];
    for (i, v) in p.iter().enumerate() {
        if let Some(s) = b.get_mut(2 * i..2 * i + 2) {
            s.copy_from_slice(&v.to_le_bytes());
        }
    }
    b
}

/// The little-endian bytes of `v`, to extend a buffer with (no buffer of their own: these run
/// once per record).
fn u16s(v: &[u16]) -> impl Iterator<Item = u8> + '_ {
    v.iter().flat_map(|x| x.to_le_bytes())
}

/// The little-endian bytes of `v`, as [`u16s`].
fn words(v: &[u32]) -> impl Iterator<Item = u8> + '_ {
    v.iter().flat_map(|x| x.to_le_bytes())
}

/// Puts every record of `m` where `l` says (the link blocks and mesh records where `r` says), in
/// one buffer of the file's length.
pub(crate) fn place(m: &Nav2File, l: &StoredLayout, r: RecordOffsets) -> Result<Vec<u8>> {
    let length = l.length as usize;
    if length > MAX_FILE_LEN {
        return Err(too_long(length));
    }
    let mut o = Out::buffer(length);
    place_into(m, l, r, &mut o)?;
    Ok(o.buf)
}

#[cold]
fn too_long(length: usize) -> Error {
    shape(
        "stored length",
        format!("{length} bytes is more than the {MAX_FILE_LEN} bytes this crate writes"),
    )
}

/// The FileHeader and the ChunkDescs, with the offsets, sizes and counts of `l` (its per-chunk
/// layouts are not read).
fn file_head(o: &mut Out<'_>, m: &Nav2File, l: &StoredLayout) -> Result<()> {
    // FileHeader.
    let graph_count = len_u8(m.island_graphs.len(), "IslandGraphCount")?;
    let mut h = Vec::with_capacity(96);
    h.extend(words(&[
        m.version,
        l.file_size,
        l.chunks_offset,
        l.chunk_count,
        l.search_space_offset,
        m.file_uid.0,
        l.island_graphs_offset,
        m.unknown_crossing_tile_link_related,
    ]));
    h.extend(words(&m.origin.map(|f| f.0)));
    h.extend(words(&[
        l.connect_tile_info_offset,
        0,
        l.chunk_descs_offset,
        l.chunk_descs_data_size,
        0,
        0,
    ]));
    h.extend(u16s(&m.denominator));
    h.extend(m.weight_denominator.to_le_bytes());
    h.extend([m.feature_flags, graph_count, m.pre2014_unknown_index, 0]);
    h.extend(m.header_tail);
    o.put_bytes(0, &h, "FileHeader")?;

    // ChunkDescs.
    let descs_at = u64::from(l.chunk_descs_offset);
    o.put(
        descs_at,
        &U32::new(l.chunk_desc_entry_count),
        "ChunkDescs EntryCount",
    )?;
    let descs = o.records::<ChunkDescRecord>(descs_at + 4, l.chunk_descs.len(), "ChunkDescs")?;
    for (r, c) in descs.iter_mut().zip(&l.chunk_descs) {
        *r = ChunkDescRecord {
            uid: U32::new(c.uid.0),
            data_offset: U32::new(c.data_offset),
            type_and_size: U32::new(c.type_and_size),
        };
    }
    Ok(())
}

/// Puts every record of `m` where `l` says into `o`, section by section in file order (which
/// the game's layout follows; a stored layout is only ever placed into one whole buffer).
fn place_into(m: &Nav2File, l: &StoredLayout, r: RecordOffsets, o: &mut Out<'_>) -> Result<()> {
    let length = l.length as usize;
    if length > MAX_FILE_LEN {
        return Err(too_long(length));
    }
    if l.data_chunks.len() != m.data_chunks.len()
        || l.island_graphs.len() != m.island_graphs.len()
        || l.search_space.is_some() != m.search_space.is_some()
        || l.connect_tile_info.is_some() != m.connect_tile_info.is_some()
    {
        return Err(shape(
            "stored",
            "the stored layout has a different number of chunks or sections than the model",
        ));
    }

    o.section(0)?;
    file_head(o, m, l)?;

    // Chunks, by type.
    let mut at = u64::from(l.chunks_offset);
    for (kind, ty) in [(0usize, 0u32), (1, 1), (2, 4), (3, 3)] {
        for (i, (dc, dl)) in m.data_chunks.iter().zip(&l.data_chunks).enumerate() {
            let c = dl.chunks.get(kind).copied().unwrap_or_default();
            let ctx = format_args!("data_chunks[{i}] chunk type {ty}");
            o.section(at)?;
            let head = ChunkHeader {
                chunk_type: U32::new(ty),
                next_chunk_offset: U32::new(c.next_chunk_offset),
                data_offset: U32::new(c.data_offset),
                uid: U32::new(dc.uid.0),
            };
            o.put(at, &head, ctx)?;
            let p = at + u64::from(c.data_offset);
            let placed = match kind {
                0 => navigation_graph(o, p, &dc.navigation_graph, dl, r),
                1 => navmesh_chunk(o, p, &dc.navmesh_chunk, dl, r),
                2 => segment_chunk(o, p, &dc.segment_chunk, dl),
                _ => segment_graph(o, p, &dc.segment_graph, dl),
            };
            placed.map_err(|e| e.within(format_args!("data_chunks[{i}] chunk type {ty}")))?;
            at += u64::from(c.next_chunk_offset);
        }
    }

    // IslandGraphs.
    let mut at = u64::from(l.island_graphs_offset);
    for (i, (g, gl)) in m.island_graphs.iter().zip(&l.island_graphs).enumerate() {
        o.section(at)?;
        island_graph(o, at, g, gl).map_err(|e| e.within(format_args!("IslandGraphs[{i}]")))?;
        at += u64::from(gl.offsets[0]);
    }

    if let (Some(ss), Some(sl)) = (&m.search_space, &l.search_space) {
        o.section(u64::from(l.search_space_offset))?;
        search_space(o, u64::from(l.search_space_offset), ss, sl)
            .map_err(|e| e.within("SearchSpace"))?;
    }
    if let (Some(c), Some(cl)) = (&m.connect_tile_info, &l.connect_tile_info) {
        o.section(u64::from(l.connect_tile_info_offset))?;
        connect_tile_info(o, u64::from(l.connect_tile_info_offset), c, cl)
            .map_err(|e| e.within("ConnectTileInfo"))?;
    }
    for (i, r) in l.residue.iter().enumerate() {
        o.put_bytes(
            u64::from(r.offset),
            &r.bytes,
            format_args!("stored residue[{i}]"),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
