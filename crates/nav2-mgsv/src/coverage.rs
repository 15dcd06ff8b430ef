//! Which bytes of the input the parser's records claim.
//!
//! Every record the parser reads is claimed here; a record that claims a byte another record
//! already holds is refused (no overlap, so no shared link block and no cycle), and the bytes no
//! record claims are looked at afterwards: the runs of non-zero ones are the residue the model
//! keeps for a byte-exact write.

use core::fmt;

use nav_core::{Error, ErrorKind, Result};

use crate::FORMAT;

/// Which bytes records use, one bit per byte; refuses overlaps.
pub(crate) struct Coverage {
    words: Vec<u64>,
    len: usize,
}

impl Coverage {
    pub(crate) fn new(len: usize) -> Self {
        Coverage {
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

    /// Claims `len` bytes from `start` for `field`; refuses bytes already claimed.
    pub(crate) fn mark(
        &mut self,
        start: usize,
        len: usize,
        field: impl fmt::Display,
    ) -> Result<()> {
        let end = start.checked_add(len).filter(|e| *e <= self.len);
        let Some(end) = end else {
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
                return Err(Error::invalid(
                    FORMAT,
                    field,
                    at,
                    "record overlaps bytes another record already uses",
                ));
            }
            *word |= mask;
            i += n;
        }
        Ok(())
    }

    /// Runs of non-zero bytes that no record claimed: (offset, bytes).
    pub(crate) fn residue<'a>(&self, data: &'a [u8]) -> Vec<(usize, &'a [u8])> {
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
