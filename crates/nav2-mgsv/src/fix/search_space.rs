//! Step 5 of [`super::fix`]: the SearchSpace again from the segments' bounds.

use crate::build;
use crate::model::{Nav2File, SearchSpace};

/// Recomputes the SearchSpace from the segments' bounds (unless the builder refuses: more
/// segments in a chunk than a bucket entry's `u16` indices name).
pub(super) fn recompute_search_space(m: &mut Nav2File, out: &mut Vec<String>) {
    let Ok(new) = build::search_space(m) else {
        return;
    };
    if m.search_space.as_ref() == Some(&new) {
        return;
    }
    let entries = |s: &SearchSpace| {
        s.buckets
            .iter()
            .flat_map(|b| &b.entries)
            .map(|e| e.segment_indices.len())
            .sum::<usize>()
    };
    let was = m
        .search_space
        .as_ref()
        .map_or((0, [0; 3]), |s| (entries(s), s.block_count));
    out.push(format!(
        "SearchSpace: recomputed from the segment bounds: {:?} blocks listing {} segments (were \
         {:?} blocks listing {})",
        new.block_count,
        entries(&new),
        was.1,
        was.0
    ));
    m.search_space = Some(new);
}
