//! [`Reader`]: reads records at absolute offsets inside one bounded region of the input and
//! claims their bytes in the coverage map, one by one or in runs.

use core::fmt;

use nav_core::zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};
use nav_core::{Cursor, Error, Result};

use crate::FORMAT;
use crate::coverage::Coverage;

/// Reads records at absolute offsets inside one bounded region of the input, marking what it
/// reads.
pub(super) struct Reader<'a, 'c> {
    pub(super) data: &'a [u8],
    /// The region's end (exclusive).
    pub(super) end: usize,
    /// What the region is, for errors (`NavigationGraph of chunk 4`).
    pub(super) what: &'static str,
    pub(super) cov: &'c mut Coverage,
}

impl<'a> Reader<'a, '_> {
    pub(super) fn cursor(&self, at: usize, field: impl fmt::Display) -> Result<Cursor<'a>> {
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

    #[inline]
    pub(super) fn read<T>(&mut self, at: usize, field: impl fmt::Display + Copy) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        // The common case straight from the region's bytes; anything else takes the cursor,
        // which names the field and the offset.
        if let Some(Ok((r, _))) = self.data.get(at..self.end).map(T::ref_from_prefix) {
            self.cov.mark(at, core::mem::size_of::<T>(), field)?;
            return Ok(r);
        }
        let r = self.cursor(at, field)?.read::<T>(field)?;
        self.cov.mark(at, core::mem::size_of::<T>(), field)?;
        Ok(r)
    }

    #[inline]
    pub(super) fn slice<T>(
        &mut self,
        at: usize,
        count: usize,
        field: impl fmt::Display + Copy,
    ) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        if let Some(Ok((r, _))) = self
            .data
            .get(at..self.end)
            .map(|b| <[T]>::ref_from_prefix_with_elems(b, count))
        {
            self.cov.mark(at, core::mem::size_of_val(r), field)?;
            return Ok(r);
        }
        let r = self.cursor(at, field)?.slice::<T>(count, field)?;
        self.cov.mark(at, core::mem::size_of_val(r), field)?;
        Ok(r)
    }

    /// Claims the `len` bytes of one record at `at` as part of `run`, a run of records that
    /// mostly follow each other (link blocks, mesh records).
    ///
    /// In the quick mode, a record that starts where the run ends, or after at most
    /// [`RUN_GAP`] zero bytes (a record's padding), only moves the run's end: the run is
    /// claimed as one range when it breaks or ends ([`Reader::end_run`]), so a quarter of a
    /// megabyte of records costs a few hundred claims instead of thousands. The zero bytes
    /// between the records are claimed with the run; they hold no residue, and a record that
    /// also claims them shows as an overlap, which sends the parse to the exact mode. There,
    /// every record is claimed on its own, so an overlap is named at the record that makes it.
    #[inline]
    pub(super) fn claim_in_run(
        &mut self,
        run: &mut Run,
        at: usize,
        len: usize,
        field: impl fmt::Display + Copy,
    ) -> Result<()> {
        if run.quick && extends_run(self.data, run.end, at, len, self.end) {
            run.end = at + len;
            return Ok(());
        }
        self.claim_run_break(run, at, len, field)
    }

    /// [`Reader::claim_in_run`] for a record that does not extend the run: claims the run so far
    /// and the record on its own, and starts a new run after the record.
    #[inline(never)]
    pub(super) fn claim_run_break(
        &mut self,
        run: &mut Run,
        at: usize,
        len: usize,
        field: impl fmt::Display + Copy,
    ) -> Result<()> {
        self.end_run(run, field)?;
        self.slice::<u8>(at, len, field)?;
        run.start = at + len;
        run.end = run.start;
        Ok(())
    }

    /// Claims what `run` holds.
    pub(super) fn end_run(&mut self, run: &Run, field: impl fmt::Display) -> Result<()> {
        self.cov.mark(run.start, run.end - run.start, field)
    }

    /// The quick mode's fast path over a list of records: claims, as one range, the longest
    /// prefix of `records` (each `(offset from base, size)`) in which every record starts where
    /// the one before ends, or after at most [`RUN_GAP`] zero bytes, and lies inside the region.
    /// Returns how many records it claimed, and the empty run after them in which the caller
    /// claims the rest ([`Reader::claim_in_run`]). In the exact mode it claims nothing.
    pub(super) fn claim_prefix(
        &mut self,
        base: usize,
        records: impl Iterator<Item = (usize, usize)>,
        field: impl fmt::Display,
    ) -> Result<(usize, Run)> {
        if !self.cov.is_quick() {
            return Ok((0, self.run(base)));
        }
        let region = self.region_from(base);
        let mut end = 0;
        let mut n = 0;
        for (off, len) in records {
            if !extends_run(region, end, off, len, region.len()) {
                break;
            }
            end = off + len;
            n += 1;
        }
        self.cov.mark(base, end, field)?;
        Ok((n, self.run(base + end)))
    }

    /// An empty run of records at `at`.
    pub(super) fn run(&self, at: usize) -> Run {
        Run {
            start: at,
            end: at,
            quick: self.cov.is_quick(),
        }
    }

    /// The region's bytes from `at` to its end (empty when `at` is past it).
    pub(super) fn region_from(&self, at: usize) -> &'a [u8] {
        self.data.get(at..self.end).unwrap_or(&[])
    }

    /// Marks part of a record read whole (so that padding fields stay uncovered).
    pub(super) fn mark(&mut self, at: usize, len: usize, field: impl fmt::Display) -> Result<()> {
        self.cov.mark(at, len, field)
    }
}

/// The most zero bytes (a record's padding) a run of records may skip in the quick mode.
pub(super) const RUN_GAP: usize = 15;

/// Whether a record of `len` bytes at `at` extends a run of records that ends at `end`: it
/// starts there or after at most [`RUN_GAP`] zero bytes of `data`, and ends by `limit`.
#[inline]
fn extends_run(data: &[u8], end: usize, at: usize, len: usize, limit: usize) -> bool {
    at.checked_sub(end).is_some_and(|gap| {
        gap <= RUN_GAP
            && len <= limit.saturating_sub(at)
            && data
                .get(end..at)
                .is_some_and(|g| g.iter().fold(0, |a, b| a | b) == 0)
    })
}

/// Records claimed together in the quick mode: `[start, end)`, not yet marked.
pub(super) struct Run {
    start: usize,
    end: usize,
    /// Whether the coverage is in the quick mode (in the exact mode, runs never grow).
    quick: bool,
}

#[cfg(test)]
mod tests {
    // Test code: a panic is a failed test.
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// Three 12-byte records at 0, 16 and 32: zero padding after the first, a non-zero byte in
    /// the padding after the second; zeros to 64 bytes.
    fn records() -> Vec<u8> {
        let mut d = vec![0u8; 64];
        for start in [0, 16, 32] {
            d[start..start + 12].fill(1);
        }
        d[29] = 7;
        d
    }

    fn reader<'a, 'c>(data: &'a [u8], cov: &'c mut Coverage) -> Reader<'a, 'c> {
        Reader {
            data,
            end: data.len(),
            what: "test",
            cov,
        }
    }

    const THREE: [(usize, usize); 3] = [(0, 12), (16, 12), (32, 12)];

    #[test]
    fn a_run_skips_zero_padding_and_stops_at_a_non_zero_byte() {
        let data = records();
        let mut cov = Coverage::new(data.len());
        let mut r = reader(&data, &mut cov);
        let (n, mut run) = r.claim_prefix(0, THREE.into_iter(), "records").unwrap();
        assert_eq!(n, 2);
        // The run for the rest starts where the prefix ends.
        assert_eq!((run.start, run.end), (28, 28));
        // The third record, claimed on its own, leaves the non-zero byte before it as residue.
        r.claim_in_run(&mut run, 32, 12, "records").unwrap();
        r.end_run(&run, "records").unwrap();
        let residue = cov.residue(&data).unwrap();
        assert_eq!(residue, vec![(29, &[7u8][..])]);
    }

    /// How many of `records` a quick claim_prefix over 64 zero bytes takes.
    fn prefix_len(records: &[(usize, usize)]) -> usize {
        let data = vec![0u8; 64];
        let mut cov = Coverage::new(data.len());
        let mut r = reader(&data, &mut cov);
        r.claim_prefix(0, records.iter().copied(), "x").unwrap().0
    }

    #[test]
    fn a_run_stops_at_wide_gaps_records_out_of_order_and_the_region_end() {
        let gap = RUN_GAP + 1;
        assert_eq!(prefix_len(&[(0, 4), (4 + gap, 4)]), 1);
        assert_eq!(prefix_len(&[(8, 4), (0, 4)]), 1);
        assert_eq!(prefix_len(&[(0, 60), (60, 8)]), 1);
        assert_eq!(prefix_len(&[(0, usize::MAX)]), 0);
    }

    #[test]
    fn a_claim_on_a_runs_padding_sends_the_parse_to_the_exact_mode() {
        let mut data = records();
        data[29] = 0;
        // Quick: the run holds the padding at 12..16, so a record there shows as an overlap.
        let mut cov = Coverage::new(data.len());
        let mut r = reader(&data, &mut cov);
        assert_eq!(
            r.claim_prefix(0, THREE.into_iter(), "records").unwrap().0,
            3
        );
        r.mark(12, 4, "other").unwrap();
        assert!(cov.residue(&data).is_err());
        // Exact: every record on its own, and the padding is free for the other record.
        let mut cov = Coverage::exact(data.len());
        let mut r = reader(&data, &mut cov);
        assert_eq!(
            r.claim_prefix(0, THREE.into_iter(), "records").unwrap().0,
            0
        );
        let mut run = r.run(0);
        for (at, len) in THREE {
            r.claim_in_run(&mut run, at, len, "records").unwrap();
        }
        r.end_run(&run, "records").unwrap();
        r.mark(12, 4, "other").unwrap();
        assert_eq!(cov.residue(&data).unwrap(), vec![]);
        // And the exact mode still refuses a real overlap, naming the record.
        let mut cov = Coverage::exact(data.len());
        let mut r = reader(&data, &mut cov);
        r.mark(20, 2, "other").unwrap();
        let mut run = r.run(0);
        r.claim_in_run(&mut run, 0, 12, "records[0]").unwrap();
        let e = r
            .claim_in_run(&mut run, 16, 12, "records[1]")
            .unwrap_err()
            .to_string();
        assert!(e.contains("records[1]") && e.contains("overlaps"), "{e}");
    }
}
