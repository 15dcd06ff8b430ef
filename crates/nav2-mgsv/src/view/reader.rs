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
    /// Returns how many records it claimed, the empty run after them in which the caller claims
    /// the rest ([`Reader::claim_in_run`]), and where the prefix lies when it is
    /// [`Packed`] with records padded to `ALIGN` bytes. In the exact mode it claims nothing.
    pub(super) fn claim_prefix<const ALIGN: usize>(
        &mut self,
        base: usize,
        records: impl Iterator<Item = (usize, usize)>,
        field: impl fmt::Display,
    ) -> Result<(usize, Run, Option<Packed>)> {
        if !self.cov.is_quick() {
            return Ok((0, self.run(base), None));
        }
        let region = self.region_from(base);
        let mut end = 0;
        let mut n = 0;
        // A record that extends the run starts at most RUN_GAP bytes after the one before ends:
        // it is where the packed layout puts it when the gap is under ALIGN (a power of 2, at
        // most RUN_GAP + 1) and it starts on a multiple of ALIGN. Every bit of a gap too wide or
        // of an offset off the alignment is gathered, without a branch.
        const { assert!(ALIGN.is_power_of_two() && ALIGN <= RUN_GAP + 1) };
        let (mut misfit, mut last) = (0, 0);
        for (off, len) in records {
            if !extends_run(region, end, off, len, region.len()) {
                break;
            }
            misfit |= (off.wrapping_sub(end) / ALIGN) | (off % ALIGN);
            last = off;
            end = off + len;
            n += 1;
        }
        self.cov.mark(base, end, field)?;
        let packed = match end.checked_next_multiple_of(ALIGN) {
            Some(end) if misfit == 0 => Some(Packed { last, end }),
            _ => None,
        };
        Ok((n, self.run(base + end), packed))
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

/// How the records of a list lie when each starts where the one before ends (rounded up to the
/// records' alignment), the first at offset 0: the way the game lays out a NavigationGraph's link
/// blocks and a NavmeshChunk's mesh records, which [`Reader::claim_prefix`] sees as it claims
/// them. Offsets in bytes from the list's base.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Packed {
    /// The last record's offset.
    pub(crate) last: usize,
    /// Where the last record ends, rounded up to the alignment.
    pub(crate) end: usize,
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
        let (n, mut run, _) = r
            .claim_prefix::<1>(0, THREE.into_iter(), "records")
            .unwrap();
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
        r.claim_prefix::<1>(0, records.iter().copied(), "x")
            .unwrap()
            .0
    }

    /// Where a quick claim_prefix over 64 zero bytes sees `records` packed, records padded to
    /// `ALIGN` bytes.
    fn packed<const ALIGN: usize>(records: &[(usize, usize)]) -> Option<Packed> {
        let data = vec![0u8; 64];
        let mut cov = Coverage::new(data.len());
        let mut r = reader(&data, &mut cov);
        r.claim_prefix::<ALIGN>(0, records.iter().copied(), "x")
            .unwrap()
            .2
    }

    #[test]
    fn packed_means_each_record_where_the_one_before_ends_from_offset_0() {
        let p = |last, end| Some(Packed { last, end });
        assert_eq!(packed::<1>(&[]), p(0, 0));
        assert_eq!(packed::<1>(&[(0, 4), (4, 6), (10, 2)]), p(10, 12));
        assert_eq!(packed::<1>(&[(0, 4), (5, 6)]), None, "a gap");
        assert_eq!(packed::<1>(&[(2, 4)]), None, "not from 0");
        // Padded to 16: the same records are packed, the end rounded up.
        assert_eq!(packed::<16>(&THREE), p(32, 48));
        assert_eq!(packed::<1>(&THREE), None);
        assert_eq!(
            packed::<16>(&[(0, 12), (12, 4)]),
            None,
            "not on a multiple of 16"
        );
        // A wider gap ends the prefix (the packed prefix is then the one record before it, and
        // the parser, which sees that not every record was claimed, keeps no `Packed`).
        assert_eq!(packed::<16>(&[(0, 12), (32, 4)]), p(0, 16));
        // In the exact mode the parser cannot tell.
        let data = vec![0u8; 64];
        let mut cov = Coverage::exact(data.len());
        let mut r = reader(&data, &mut cov);
        let (_, _, exact) = r.claim_prefix::<16>(0, THREE.into_iter(), "x").unwrap();
        assert_eq!(exact, None);
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
            r.claim_prefix::<1>(0, THREE.into_iter(), "records")
                .unwrap()
                .0,
            3
        );
        r.mark(12, 4, "other").unwrap();
        assert!(cov.residue(&data).is_err());
        // Exact: every record on its own, and the padding is free for the other record.
        let mut cov = Coverage::exact(data.len());
        let mut r = reader(&data, &mut cov);
        assert_eq!(
            r.claim_prefix::<1>(0, THREE.into_iter(), "records")
                .unwrap()
                .0,
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
