//! The NavmeshChunk (chunk type 1): its header, positions, packed mesh words and mesh records.

use super::chunks::{half, not_running, one_pass_done};
use super::*;

pub(super) fn navmesh_chunk(
    o: &mut Out<'_>,
    p: u64,
    c: &NavmeshChunk,
    l: &DataChunkLayout,
    r: RecordOffsets,
) -> Result<()> {
    if r == RecordOffsets::Listed && l.mesh_data_offsets.len() != c.meshes.len() {
        return Err(shape(
            "NavmeshChunk",
            "stored mesh offsets do not match the meshes",
        ));
    }
    header_and_positions(o, p, c, l.navmesh_offsets)?;
    match r {
        RecordOffsets::Listed => {
            if !meshes_in_one_pass::<true>(o, p, c, l)? {
                mesh_records(o, p, c, l)?;
            }
        }
        RecordOffsets::Running => {
            if !meshes_in_one_pass::<false>(o, p, c, l)? {
                return Err(not_running("NavmeshChunk"));
            }
        }
    }
    Ok(())
}

/// The NavmeshChunk payload header at `p`, with the section offsets `offsets` (Positions,
/// Meshes, MeshData) and the counts, each checked to fit, and the positions.
pub(super) fn header_and_positions(
    o: &mut Out<'_>,
    p: u64,
    c: &NavmeshChunk,
    offsets: [u32; 3],
) -> Result<()> {
    let [pos, meshes, data] = offsets;
    let header = NavmeshChunkHeader {
        positions_offset: U32::new(pos),
        meshes_offset: U32::new(meshes),
        mesh_data_offset: U32::new(data),
        zero0: [0; 12],
        mesh_count: U16::new(len_u16(c.meshes.len(), "MeshCount")?),
        position_count: U16::new(len_u16(c.positions.len(), "PositionCount")?),
        zero1: U32::ZERO,
    };
    o.put(p, &header, "header")?;
    let out = o.records::<PositionRecord>(p + u64::from(pos), c.positions.len(), "Positions")?;
    for (r, q) in out.iter_mut().zip(&c.positions) {
        *r = position(q);
    }
    Ok(())
}

/// The packed mesh words and the mesh records in one pass over the meshes, for the layout the
/// game writes: the words before the records, and every record (padded to 16 bytes) right
/// after the one before it, its offset the running sum of the padded sizes before it.
///
/// `LISTED` as for the NavigationGraph's one-pass writer: each running offset checked against
/// the layout's list, or taken as the offset.
///
/// `Ok(false)` when the layout is another one, or a mesh does not fit its record: the records
/// it put are then zeroed again, so that [`mesh_records`], which places every record by its own
/// offset and names the first part out of range, starts from what it would have found.
fn meshes_in_one_pass<const LISTED: bool>(
    o: &mut Out<'_>,
    p: u64,
    c: &NavmeshChunk,
    l: &DataChunkLayout,
) -> Result<bool> {
    let [_, meshes, data] = l.navmesh_offsets.map(u64::from);
    let n = c.meshes.len();
    if meshes + 4 * n as u64 > data || (LISTED && l.mesh_data_offsets.len() != n) {
        return Ok(false);
    }
    // The records end where the last one does (when the layout is the game's; when it is not,
    // the pass stops at the first record out of place or out of this slice). Without the list,
    // the slice runs to the end of the chunk, which the records' sizes gave.
    let end = if LISTED {
        match (c.meshes.last(), l.mesh_data_offsets.last()) {
            (Some(m), Some(&off)) => 2 * u64::from(off) + layout::mesh_record_padded(m),
            _ => 0,
        }
    } else {
        let chunk = l.chunks.get(1).copied().unwrap_or_default();
        u64::from(chunk.next_chunk_offset)
            .saturating_sub(u64::from(chunk.data_offset))
            .saturating_sub(data)
    };
    let Ok(all) = usize::try_from(data + end - meshes) else {
        return Ok(false);
    };
    let Ok(whole) = o.slot(p + meshes, all, "Meshes") else {
        return Ok(false);
    };
    let cut = |at: u64| usize::try_from(at).unwrap_or(usize::MAX);
    let Some((head, mut rest)) = whole.split_at_mut_checked(cut(data - meshes)) else {
        return Ok(false);
    };
    let Ok((words, _)) = <[U32]>::mut_from_prefix_with_elems(head, n) else {
        return Ok(false);
    };
    // As for the NavigationGraph link blocks: the running offset in 2-byte units, and every
    // stored offset that differs from it gathered.
    let mut units = 0u32;
    let mut differs = 0u32;
    let mut listed = l.mesh_data_offsets.iter();
    for (m, w) in c.meshes.iter().zip(words.iter_mut()) {
        let off = if LISTED {
            listed.next().copied().unwrap_or(u32::MAX)
        } else {
            units
        };
        differs |= (off ^ units) | off >> 18;
        let Some(len) = mesh_in_place(m, off, w, &mut rest) else {
            differs = 1;
            break;
        };
        units = units.saturating_add(len);
    }
    one_pass_done(o, differs, p + data, units)
}

/// Mesh `m`'s packed word, with its record at `off` (2-byte units, 18 bits: the caller checks
/// them), and the record itself, padded to 16 bytes, at the start of `rest`, which is then cut
/// past it. The padded record's size in 2-byte units, or `None` when the mesh does not fit its
/// record or `rest` is too short.
#[inline(always)]
pub(super) fn mesh_in_place(m: &Mesh, off: u32, w: &mut U32, rest: &mut &mut [u8]) -> Option<u32> {
    let k = m.neighbors.len();
    let nn = m.navigation_graph_nodes.len();
    if !mesh_shape_fits(m, k, nn) || m.segment_index >> 12 != 0 {
        return None;
    }
    *w = mesh_word(off, k, nn, u32::from(m.segment_index));
    let len = crate::records::mesh_record_len(k, nn, m.crossing.is_some());
    // At most 4 · 7 + 4 bytes, padded to 16.
    #[allow(clippy::cast_possible_truncation)]
    let padded = layout::a16(len as u64) as usize;
    let (record, tail) = core::mem::take(rest).split_at_mut_checked(padded)?;
    *rest = tail;
    mesh_record_by_case(record.get_mut(..len)?, m, k, nn);
    Some(half(padded))
}

/// Whether mesh `m` (`k` neighbours, `nn` NavigationGraph nodes) has the shape of a record: 3 or
/// 4 sides, a position per side, 3 or 4 nodes, and the crossing lists, one entry per side,
/// exactly when some neighbour's Type is not 0.
#[inline(always)]
fn mesh_shape_fits(m: &Mesh, k: usize, nn: usize) -> bool {
    (3..=4).contains(&k)
        && m.positions.len() == k
        && (3..=4).contains(&nn)
        && m.needs_crossing() == m.crossing.is_some()
        && m.crossing
            .as_ref()
            .is_none_or(|x| x.data_chunk_ids.len() == k && x.tile_ids.len() == k)
}

/// Why mesh `i` does not have the shape of a record ([`mesh_shape_fits`]): the first fault.
#[cold]
fn mesh_shape_refusal(i: usize, m: &Mesh) -> Error {
    let k = m.neighbors.len();
    let nn = m.navigation_graph_nodes.len();
    if !(3..=4).contains(&k) || m.positions.len() != k {
        return shape(
            format_args!("Meshes[{i}]"),
            format!(
                "{k} neighbours and {} positions: a mesh has 3 or 4 sides, one of each per side",
                m.positions.len()
            ),
        );
    }
    if !(3..=4).contains(&nn) {
        return shape(
            format_args!("Meshes[{i}]"),
            format!("{nn} NavigationGraph nodes: a mesh has 3 or 4"),
        );
    }
    if m.needs_crossing() != m.crossing.is_some() {
        return shape(
            format_args!("Meshes[{i}] crossing"),
            "present exactly when some neighbour's Type is not 0",
        );
    }
    if let Some(x) = &m.crossing {
        if x.data_chunk_ids.len() != k || x.tile_ids.len() != k {
            return shape(
                format_args!("Meshes[{i}] crossing"),
                "NeighborDataChunkIds and NeighborTileIds need one entry per side",
            );
        }
    }
    shape(format_args!("Meshes[{i}]"), "does not fit its record")
}

/// The packed mesh words and the mesh records, each record at the offset the layout gives it:
/// any layout.
fn mesh_records(o: &mut Out<'_>, p: u64, c: &NavmeshChunk, l: &DataChunkLayout) -> Result<()> {
    let [_, meshes, data] = l.navmesh_offsets;
    // The packed mesh words first, all in one slice; then each mesh record, filled in place.
    let words = o.records::<U32>(p + u64::from(meshes), c.meshes.len(), "Meshes")?;
    for (i, ((r, m), &off)) in words
        .iter_mut()
        .zip(&c.meshes)
        .zip(&l.mesh_data_offsets)
        .enumerate()
    {
        let k = m.neighbors.len();
        let nn = m.navigation_graph_nodes.len();
        if !mesh_shape_fits(m, k, nn) {
            return Err(mesh_shape_refusal(i, m));
        }
        let off = bits(u64::from(off), 18, format_args!("Meshes[{i}] DataOffset"))?;
        let seg = bits(
            u64::from(m.segment_index),
            12,
            format_args!("Meshes[{i}] SegmentIndex"),
        )?;
        *r = mesh_word(off, k, nn, seg);
    }
    for (i, (m, &off)) in c.meshes.iter().zip(&l.mesh_data_offsets).enumerate() {
        // Sides, nodes and crossing lists were checked above, so this is the record's size.
        let k = m.neighbors.len();
        let nn = m.navigation_graph_nodes.len();
        let len = crate::records::mesh_record_len(k, nn, m.crossing.is_some());
        let slot = o.slot(
            p + u64::from(data) + 2 * u64::from(off),
            len,
            format_args!("Meshes[{i}] record"),
        )?;
        mesh_record_by_case(slot, m, k, nn);
    }
    Ok(())
}

/// A mesh's packed word: DataOffset (18 bits), Use4NeighborInfos, Use4NavigationGraphNodes and
/// SegmentIndex (12 bits), the offset and index already checked to fit.
#[inline(always)]
fn mesh_word(off: u32, k: usize, nn: usize, segment_index: u32) -> U32 {
    U32::new(off | u32::from(k == 4) << 18 | u32::from(nn == 4) << 19 | segment_index << 20)
}

/// Mesh `m`'s record into `slot` (its exact size), by the writer for its case of `k` sides and
/// `nn` nodes (3 or 4 each, checked), whose sizes are constants.
#[inline(always)]
fn mesh_record_by_case(slot: &mut [u8], m: &Mesh, k: usize, nn: usize) {
    match (k, nn) {
        (3, 3) => mesh_record::<3, 3>(slot, m),
        (3, _) => mesh_record::<3, 4>(slot, m),
        (_, 3) => mesh_record::<4, 3>(slot, m),
        _ => mesh_record::<4, 4>(slot, m),
    }
}

/// One mesh record of `K` sides and `NN` NavigationGraph nodes (and the crossing part when the
/// mesh has one) into `slot`, which is the record's exact size. With the counts constants, every
/// field is a plain store.
#[inline(always)]
fn mesh_record<const K: usize, const NN: usize>(slot: &mut [u8], m: &Mesh) {
    fn first<const N: usize, T: Copy>(items: &[T; MAX_SIDES]) -> [T; N] {
        core::array::from_fn(|i| items[i])
    }
    let mut b = Fill { rest: slot };
    b.put(&first::<K, _>(m.neighbors.slots()).map(|n| U16::new(n.0)));
    b.put(&first::<K, _>(m.positions.slots()));
    b.put(&first::<NN, _>(m.navigation_graph_nodes.slots()));
    if let Some(x) = &m.crossing {
        b.put(&first::<K, _>(x.data_chunk_ids.slots()).map(U16::new));
        b.put(&first::<K, _>(x.tile_ids.slots()).map(U16::new));
    }
    b.done();
}
