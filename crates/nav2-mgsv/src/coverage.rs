//! Which bytes of the input the parser's records claim.
//!
//! Every record the parser reads is claimed here; a record that claims a byte another record
//! already holds is refused (no overlap, so no shared link block and no cycle), and the bytes no
//! record claims are looked at afterwards: the runs of non-zero ones are the residue the model
//! keeps for a byte-exact write.

use core::fmt;

use nav_core::{Error, ErrorKind, Result};

use crate::FORMAT;

/// Which bytes the records claim.
///
/// The quick mode keeps the claimed ranges in the order they come, merging a range into the one
/// before when it starts where that one ends (records mostly follow each other, so a game file
/// needs a few hundred ranges for a quarter of a megabyte), and checks them once at the end:
/// sorted by start, no range may begin before the previous one ends. It also stops as soon as
/// more bytes are claimed than the input holds, which only an overlap can cause, so a file whose
/// records all point at the same bytes cannot make the parser work more than once per byte.
///
/// When the quick mode finds an overlap (or the parse fails for any reason), the parser runs again
/// in the exact mode ([`Coverage::exact`]), one bit per byte, which refuses the first record that
/// claims a byte already used and names it: the same error, at the same record, as ever.
pub(crate) struct Coverage {
    len: usize,
    /// Bytes claimed so far (quick mode).
    claimed: usize,
    /// Claimed ranges `[start, end)`, in the order claimed (quick mode).
    ranges: Vec<(usize, usize)>,
    /// The bitmap of the exact mode.
    exact: Option<Exact>,
}

/// The quick mode found an overlap, or more bytes claimed than the input holds: parse again in
/// the exact mode to name the record.
#[derive(Debug)]
pub(crate) struct Overlap;

impl Coverage {
    /// The quick mode, for an input of `len` bytes.
    pub(crate) fn new(len: usize) -> Self {
        Coverage {
            len,
            claimed: 0,
            ranges: Vec::with_capacity(256),
            exact: None,
        }
    }

    /// The exact mode: one bit per byte, every overlap refused where it happens.
    pub(crate) fn exact(len: usize) -> Self {
        Coverage {
            len,
            claimed: 0,
            ranges: Vec::new(),
            exact: Some(Exact::new(len)),
        }
    }

    /// Whether this is the quick mode, where a run of records may be claimed as one range.
    #[inline]
    pub(crate) fn is_quick(&self) -> bool {
        self.exact.is_none()
    }

    /// Claims `len` bytes from `start` for `field`. The exact mode refuses bytes already
    /// claimed; the quick mode refuses more bytes than the input holds (with an error the
    /// exact mode replaces).
    #[inline]
    pub(crate) fn mark(
        &mut self,
        start: usize,
        len: usize,
        field: impl fmt::Display,
    ) -> Result<()> {
        // The quick mode's common case: in range, following the last range or starting a new one.
        if self.exact.is_none() {
            if let Some(end) = start.checked_add(len).filter(|e| *e <= self.len) {
                if len == 0 {
                    return Ok(());
                }
                self.claimed = self.claimed.saturating_add(len);
                if self.claimed > self.len {
                    return Err(overlap(field, start));
                }
                match self.ranges.last_mut() {
                    Some(last) if last.1 == start => last.1 = end,
                    _ => self.ranges.push((start, end)),
                }
                return Ok(());
            }
        }
        self.mark_slow(start, len, field)
    }

    /// [`Coverage::mark`] out of range, or in the exact mode.
    #[inline(never)]
    fn mark_slow(&mut self, start: usize, len: usize, field: impl fmt::Display) -> Result<()> {
        let Some(end) = start.checked_add(len).filter(|e| *e <= self.len) else {
            return Err(Error::new(
                FORMAT,
                field,
                ErrorKind::Truncated {
                    offset: start,
                    needed: len,
                    left: self.len.saturating_sub(start),
                },
            ));
        };
        match &mut self.exact {
            Some(exact) => exact.mark(start, end - start, field),
            // In range: only the exact mode comes here.
            None => Ok(()),
        }
    }

    /// Runs of non-zero bytes that no record claimed: (offset, bytes). In the quick mode, the
    /// check that no two claimed ranges overlap.
    pub(crate) fn residue<'a>(
        &mut self,
        data: &'a [u8],
    ) -> core::result::Result<Vec<(usize, &'a [u8])>, Overlap> {
        if let Some(exact) = &self.exact {
            return Ok(exact.residue(data));
        }
        self.ranges.sort_unstable_by_key(|r| r.0);
        let mut residue = Vec::new();
        let mut free = 0;
        for &(start, end) in &self.ranges {
            if start < free {
                return Err(Overlap);
            }
            nonzero_runs(data, free, start, &mut residue);
            free = end;
        }
        nonzero_runs(data, free, data.len(), &mut residue);
        Ok(residue)
    }
}

/// The error of a quick-mode claim past the input's size; the exact mode's error replaces it.
#[cold]
fn overlap(field: impl fmt::Display, at: usize) -> Error {
    Error::invalid(
        FORMAT,
        field,
        at,
        "record overlaps bytes another record already uses",
    )
}

/// Pushes the runs of non-zero bytes of `data[from..to]`.
fn nonzero_runs<'a>(data: &'a [u8], from: usize, to: usize, out: &mut Vec<(usize, &'a [u8])>) {
    let gap = data.get(from..to).unwrap_or(&[]);
    let mut i = 0;
    while let Some(k) = gap.get(i..).and_then(|g| g.iter().position(|b| *b != 0)) {
        let start = i + k;
        let len = gap
            .get(start..)
            .map_or(0, |g| g.iter().position(|b| *b == 0).unwrap_or(g.len()));
        out.push((from + start, gap.get(start..start + len).unwrap_or(&[])));
        i = start + len;
    }
}

/// Which bytes records use, one bit per byte: refuses an overlap the moment it is claimed.
struct Exact {
    words: Vec<u64>,
    len: usize,
}

impl Exact {
    fn new(len: usize) -> Self {
        Exact {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }

    /// Whether byte `i` belongs to a record (bytes past the end count as used).
    fn is_used(&self, i: usize) -> bool {
        i >= self.len
            || self
                .words
                .get(i / 64)
                .is_none_or(|w| (w >> (i % 64)) & 1 == 1)
    }

    /// Whether the 64 bytes from `i` (a multiple of 64) all belong to records.
    fn word_full(&self, i: usize) -> bool {
        i % 64 == 0 && self.words.get(i / 64).is_some_and(|w| *w == u64::MAX)
    }

    /// Claims `len` bytes from `start` (in range) for `field`; refuses bytes already claimed.
    fn mark(&mut self, start: usize, len: usize, field: impl fmt::Display) -> Result<()> {
        let end = start.saturating_add(len).min(self.len);
        let mut i = start;
        while i < end {
            let bit = i % 64;
            let n = (64 - bit).min(end - i);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << bit
            };
            let Some(word) = self.words.get_mut(i / 64) else {
                return Ok(());
            };
            let clash = *word & mask;
            if clash != 0 {
                let at = (i - bit).saturating_add(clash.trailing_zeros() as usize);
                return Err(overlap(field, at));
            }
            *word |= mask;
            i += n;
        }
        Ok(())
    }

    /// Runs of non-zero bytes that no record claimed: (offset, bytes).
    fn residue<'a>(&self, data: &'a [u8]) -> Vec<(usize, &'a [u8])> {
        let mut residue = Vec::new();
        let mut i = 0;
        while i < data.len() {
            if self.word_full(i) {
                i += 64;
                continue;
            }
            let free_nonzero = |j: usize| !self.is_used(j) && data.get(j).is_some_and(|b| *b != 0);
            if free_nonzero(i) {
                let start = i;
                while i < data.len() && free_nonzero(i) {
                    i += 1;
                }
                residue.push((start, data.get(start..i).unwrap_or(&[])));
            } else {
                i += 1;
            }
        }
        residue
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Runs = Vec<(usize, Vec<u8>)>;

    /// Claims the same ranges in both modes: the quick mode's residue (checked against the
    /// exact one), and whether the exact mode accepted every claim.
    fn both(data: &[u8], claims: &[(usize, usize)]) -> (Option<Runs>, bool) {
        let mut quick = Coverage::new(data.len());
        let mut exact = Coverage::exact(data.len());
        let mut exact_ok = true;
        let mut quick_ok = true;
        for &(s, n) in claims {
            quick_ok &= quick.mark(s, n, "r").is_ok();
            exact_ok &= exact.mark(s, n, "r").is_ok();
        }
        let own = |r: Vec<(usize, &[u8])>| r.into_iter().map(|(o, b)| (o, b.to_vec())).collect();
        let q = if quick_ok {
            quick.residue(data).ok().map(own)
        } else {
            None
        };
        if exact_ok {
            assert_eq!(q, exact.residue(data).ok().map(own), "{claims:?}");
        }
        (q, exact_ok)
    }

    #[test]
    fn quick_and_exact_modes_agree() {
        let data: Vec<u8> = (0..200u32).map(|i| (i % 7) as u8).collect();
        // Out of order, adjacent, empty and gapped claims; the residue is the same.
        let (q, ok) = both(
            &data,
            &[(10, 20), (100, 50), (30, 5), (0, 0), (35, 1), (190, 10)],
        );
        assert!(ok);
        let q = q.unwrap();
        assert_eq!(q[0], (1, vec![1, 2, 3, 4, 5, 6]));
        assert!(
            q.iter()
                .all(|(o, b)| !b.is_empty() && b.iter().all(|x| *x != 0) && *o < 200)
        );
        // An overlap is refused by both modes (the quick one at the end).
        let (q, ok) = both(&data, &[(10, 20), (100, 50), (25, 10)]);
        assert!(q.is_none() && !ok);
        let (q, ok) = both(&data, &[(0, 200), (199, 1)]);
        assert!(q.is_none() && !ok);
    }

    #[test]
    fn the_quick_mode_stops_once_more_is_claimed_than_the_input_holds() {
        let mut c = Coverage::new(64);
        for _ in 0..8 {
            c.mark(0, 8, "same bytes").unwrap();
        }
        let e = c.mark(0, 8, "same bytes").unwrap_err();
        assert!(e.to_string().contains("overlaps"), "{e}");
        let e = Coverage::new(8).mark(4, 8, "past").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Truncated { offset: 4, .. }));
    }
}
