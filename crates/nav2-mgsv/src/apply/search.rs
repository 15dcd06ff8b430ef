//! The SearchSpace brought up to date after [`super::derived`] changed segment bounds: only the
//! buckets a moved segment enters or leaves, and their Y ranges.
//!
//! [`crate::build::search_space`] reproduces the stored SearchSpace of none of the 61 game files
//! in the corpus that have one: the stored Origin has Y −32 where the builder puts the file's
//! origin, 13 files have another grid (BlockSizeY 256 or 1280 for the builder's 768, or other
//! block counts), 7 a RangeY other than the greatest segment Max.Y, and where the grid is the
//! builder's, 1,221 of 8,112 buckets list other segments. So the SearchSpace is not recomputed;
//! within the stored grid the corpus shows (`tests/derived_rules.rs` prints the counts, and
//! asserts that the builder reproduces no SearchSpace and that the first two rules hold in
//! every case):
//!
//! - **Which buckets list a segment**: block (x, z) spans `[x · BlockSizeXZ, (x + 1) ·
//!   BlockSizeXZ]` from the Origin, *both ends included*, the outer blocks reaching past the grid,
//!   and a segment is listed in every block its bounds meet in X and Z: exactly the stored
//!   buckets for 7,567 of 7,567 segments (with the far end excluded, as the builder has it, 6,356).
//!   A segment whose bounds changed leaves the buckets it no longer meets and enters those it
//!   now meets (entries per data chunk in file order, indices ascending, as stored).
//! - **A bucket's MinY and MaxY**: the least Min.Y and greatest Max.Y (high byte) of the
//!   segments it lists, in 9,248 of 9,248 non-empty buckets: recomputed for the buckets whose
//!   segments' bounds changed.
//! - **RangeY**: the greatest Max.Y in 54 of 61 files: recomputed only in a file where it holds
//!   before the move.
//!
//! A SearchSpace whose Origin differs from the file's in X or Z, whose BlockSizeXZ is 0 or that
//! has more than one layer in Y (no known file has one) is left as it is, with a line saying
//! so.

use std::collections::{BTreeMap, BTreeSet};

use super::show::{count, shown};
use crate::model::{Bucket, BucketEntry, Nav2File, Position, SearchSpace};

/// Updates the file's SearchSpace for the segments whose bounds changed: `old` holds, per
/// (data chunk, segment), the bounds before. One line per data chunk whose segments changed
/// buckets.
pub(super) fn refresh(
    file: &mut Nav2File,
    old: &BTreeMap<(usize, usize), (Position, Position)>,
    lines: &mut Vec<String>,
) {
    if old.is_empty() {
        return;
    }
    let Some(ss) = file.search_space.as_ref() else {
        return;
    };
    let grid = [0, 2].map(|a| file.origin[a].get() == ss.origin[a].get());
    if grid.contains(&false) || ss.block_size_xz == 0 || ss.block_count[1] != 1 {
        lines.push(
            "SearchSpace: kept: its origin, block size or layers are not ones the buckets can \
             be recomputed from (the segments' buckets may now be stale)"
                .to_string(),
        );
        return;
    }
    let before = greatest_y(file, old, true);
    let Some(mut ss) = file.search_space.take() else {
        return;
    };
    let mut touched = BTreeSet::new();
    let mut per_chunk: BTreeMap<usize, (BTreeSet<usize>, usize)> = BTreeMap::new();
    for (&(c, s), &(min0, max0)) in old {
        let Some(dc) = file.data_chunks.get(c) else {
            continue;
        };
        let Some(seg) = dc.segment_chunk.segments.get(s) else {
            continue;
        };
        let Ok(index) = u16::try_from(s) else {
            continue;
        };
        let was = blocks(file, &ss, min0, max0);
        let now = blocks(file, &ss, seg.min, seg.max);
        for b in was.symmetric_difference(&now) {
            let Some(bucket) = ss.buckets.get_mut(*b) else {
                continue;
            };
            if now.contains(b) {
                enter(bucket, file, c, index);
            } else {
                leave(bucket, dc.uid, index);
            }
            let entry = per_chunk.entry(c).or_default();
            entry.0.insert(s);
            entry.1 += 1;
        }
        touched.extend(was.union(&now).copied());
    }
    for b in &touched {
        if let Some(bucket) = ss.buckets.get_mut(*b) {
            set_y(bucket, file);
        }
    }
    if before == Some(ss.range_y) {
        if let Some(y) = greatest_y(file, old, false) {
            if y != ss.range_y {
                lines.push(format!(
                    "SearchSpace: RangeY set to {y} (was {}), the greatest segment Max.Y",
                    ss.range_y
                ));
                ss.range_y = y;
            }
        }
    }
    for (c, (segments, moves)) in per_chunk {
        lines.push(format!(
            "data_chunks[{c}] SearchSpace: {} entered or left {} with the new bounds ({})",
            count(segments.len(), "segment"),
            count(moves, "bucket"),
            shown(segments.iter())
        ));
    }
    file.search_space = Some(ss);
}

/// The greatest segment Max.Y of the file, before the move (`old` bounds in place of the
/// current ones) or after.
fn greatest_y(
    file: &Nav2File,
    old: &BTreeMap<(usize, usize), (Position, Position)>,
    before: bool,
) -> Option<u16> {
    let mut y = None;
    for (c, dc) in file.data_chunks.iter().enumerate() {
        for (s, seg) in dc.segment_chunk.segments.iter().enumerate() {
            let max = match (before, old.get(&(c, s))) {
                (true, Some((_, max))) => max[1],
                _ => seg.max[1],
            };
            y = y.max(Some(max));
        }
    }
    y
}

/// The buckets (index into the list) whose block a segment with bounds `min`..`max` meets.
fn blocks(file: &Nav2File, ss: &SearchSpace, min: Position, max: Position) -> BTreeSet<usize> {
    // Per axis (X, Z): the first and last block met, in stored units of that axis: the Origin
    // is the file's (checked by the caller), so a block edge is a whole number of stored units
    // (BlockSizeXZ × Denominator) and the comparison is exact.
    let range = |a: usize, n: u32| -> (u64, u64) {
        let step = u64::from(ss.block_size_xz) * u64::from(file.denominator[a]);
        let last = u64::from(n.saturating_sub(1));
        if step == 0 {
            return (0, last);
        }
        // The block's far end is included: a segment starting exactly on an edge meets the
        // block before it too.
        let first = u64::from(min[a]).saturating_sub(1) / step;
        let end = u64::from(max[a]) / step;
        (first.min(last), end.min(last))
    };
    let [bx, _, bz] = ss.block_count;
    let (x0, x1) = range(0, bx);
    let (z0, z1) = range(2, bz);
    // The indices grow with every step, so a grid larger than its bucket list (a bad file)
    // stops at the list's end instead of walking the whole grid.
    let mut out = BTreeSet::new();
    for z in z0..=z1 {
        for x in x0..=x1 {
            match usize::try_from(z * u64::from(bx) + x) {
                Ok(i) if i < ss.buckets.len() => out.insert(i),
                _ => return out,
            };
        }
    }
    out
}

/// Lists segment `s` of chunk `c` in `bucket`: in its chunk's entry (indices ascending), or in
/// a new entry placed in the file's chunk order.
fn enter(bucket: &mut Bucket, file: &Nav2File, c: usize, s: u16) {
    let Some(uid) = file.data_chunks.get(c).map(|d| d.uid) else {
        return;
    };
    let mut entries: Vec<BucketEntry> = bucket.entries.iter().cloned().collect();
    if let Some(e) = entries.iter_mut().find(|e| e.data_chunk_uid == uid) {
        let mut list: Vec<u16> = e.segment_indices.iter().copied().collect();
        if let Err(at) = list.binary_search(&s) {
            list.insert(at, s);
        }
        e.segment_indices = list.as_slice().into();
    } else {
        let order = |u| file.data_chunks.iter().position(|d| d.uid == u);
        let at = entries
            .iter()
            .position(|e| order(e.data_chunk_uid) > Some(c))
            .unwrap_or(entries.len());
        entries.insert(
            at,
            BucketEntry {
                data_chunk_uid: uid,
                segment_indices: [s].as_slice().into(),
            },
        );
    }
    bucket.entries = entries.as_slice().into();
}

/// Drops segment `s` of the chunk with `uid` from `bucket`, and its entry when it empties.
fn leave(bucket: &mut Bucket, uid: crate::model::DataChunkUid, s: u16) {
    let mut entries: Vec<BucketEntry> = bucket.entries.iter().cloned().collect();
    for e in entries.iter_mut().filter(|e| e.data_chunk_uid == uid) {
        let list: Vec<u16> = e
            .segment_indices
            .iter()
            .copied()
            .filter(|k| *k != s)
            .collect();
        e.segment_indices = list.as_slice().into();
    }
    entries.retain(|e| !e.segment_indices.is_empty());
    bucket.entries = entries.as_slice().into();
}

/// MinY and MaxY of `bucket` from the segments it lists; an empty bucket keeps its values.
fn set_y(bucket: &mut Bucket, file: &Nav2File) {
    let mut y: Option<(u8, u8)> = None;
    for e in &bucket.entries {
        let Some(dc) = file.data_chunks.iter().find(|d| d.uid == e.data_chunk_uid) else {
            continue;
        };
        for k in &e.segment_indices {
            let Some(seg) = dc.segment_chunk.segments.get(usize::from(*k)) else {
                continue;
            };
            let [lo, hi] = [seg.min[1], seg.max[1]].map(|v| v.to_be_bytes()[0]);
            y = Some(y.map_or((lo, hi), |(a, b)| (a.min(lo), b.max(hi))));
        }
    }
    if let Some((lo, hi)) = y {
        (bucket.min_y, bucket.max_y) = (lo, hi);
    }
}
