//! A bounds-checked reader over borrowed bytes.
//!
//! [`Cursor`] hands out zero-copy references into the input: one record (`read`), a slice of
//! records whose count comes from the file (`slice`), raw bytes. Every read checks the length
//! first, with checked arithmetic, so a count of 4,294,967,295 is refused before anything is
//! allocated or sliced. Each read names its field, and an error carries the byte offset and that
//! name. The field is any `Display` value, so `format_args!("areas[{i}]")` costs nothing unless an
//! error is actually built.
//!
//! After an error the cursor is emptied: a caller that ignores the error cannot go on reading
//! from a position that no longer means anything.
#![deny(clippy::arithmetic_side_effects)]

use core::fmt;

use zerocopy::{FromBytes, Immutable, KnownLayout, Unaligned};

use crate::error::{Error, ErrorKind, Result};

/// A position in borrowed input, for one format.
#[derive(Clone)]
pub struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    format: &'static str,
}

impl fmt::Debug for Cursor<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cursor")
            .field("format", &self.format)
            .field("pos", &self.pos)
            .field("len", &self.data.len())
            .finish()
    }
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `data`; errors name `format` (the crate name).
    pub fn new(format: &'static str, data: &'a [u8]) -> Self {
        Cursor {
            data,
            pos: 0,
            format,
        }
    }

    /// A cursor at `offset` of `data`, or an error if `offset` is past the end.
    pub fn at(
        format: &'static str,
        data: &'a [u8],
        offset: usize,
        field: impl fmt::Display,
    ) -> Result<Self> {
        let mut c = Cursor::new(format, data);
        c.seek(offset, field)?;
        Ok(c)
    }

    /// The format name errors carry.
    pub fn format(&self) -> &'static str {
        self.format
    }

    /// The whole input.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The current byte offset from the start of the input.
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Bytes left from the current offset to the end.
    pub fn remaining(&self) -> usize {
        self.data.len().saturating_sub(self.pos)
    }

    /// Whether no byte is left.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The bytes left, without moving.
    pub fn rest(&self) -> &'a [u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }

    /// An error at the current offset, for checks the caller makes itself. Empties the cursor.
    #[cold]
    pub fn invalid(&mut self, field: impl fmt::Display, message: impl fmt::Display) -> Error {
        let offset = self.pos;
        self.fail(
            field,
            ErrorKind::Invalid {
                offset,
                message: message.to_string(),
            },
        )
    }

    /// An error of any kind for `field`. Empties the cursor.
    #[cold]
    pub fn fail(&mut self, field: impl fmt::Display, kind: ErrorKind) -> Error {
        self.pos = self.data.len();
        Error::new(self.format, field, kind)
    }

    /// Moves to an absolute offset (which may be the end of the input).
    pub fn seek(&mut self, offset: usize, field: impl fmt::Display) -> Result<()> {
        if offset > self.data.len() {
            let reason = format!("past the end of the {}-byte input", self.data.len());
            let at = self.pos;
            return Err(self.fail(
                field,
                ErrorKind::BadOffset {
                    offset: at,
                    target: offset as u64,
                    reason,
                },
            ));
        }
        self.pos = offset;
        Ok(())
    }

    /// The next `n` bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize, field: impl fmt::Display) -> Result<&'a [u8]> {
        let left = self.remaining();
        if n > left {
            let offset = self.pos;
            return Err(self.fail(
                field,
                ErrorKind::Truncated {
                    offset,
                    needed: n,
                    left,
                },
            ));
        }
        let start = self.pos;
        // `n <= left` and `start + left == len`, so neither can overflow.
        let end = start.saturating_add(n);
        self.pos = end;
        Ok(self.data.get(start..end).unwrap_or(&[]))
    }

    /// A signature: the next `expected.len()` bytes must be exactly `expected`. Bytes that differ
    /// are a [`ErrorKind::BadMagic`] naming what was found and `description` (what was expected,
    /// in words); a file that ends inside a correct prefix is [`ErrorKind::Truncated`], since it is
    /// the right kind of file cut short.
    pub fn magic(
        &mut self,
        expected: &[u8],
        field: impl fmt::Display,
        description: &'static str,
    ) -> Result<()> {
        let offset = self.pos;
        let left = self.rest();
        let found = left.get(..expected.len()).unwrap_or(left);
        // Equal, or a correct prefix at the end of the input (then `skip` reports the truncation).
        if expected.starts_with(found) {
            return self.skip(expected.len(), field);
        }
        let found = found.to_vec();
        Err(self.fail(
            field,
            ErrorKind::BadMagic {
                offset,
                found,
                expected: description,
            },
        ))
    }

    /// Skips `n` bytes.
    pub fn skip(&mut self, n: usize, field: impl fmt::Display) -> Result<()> {
        self.bytes(n, field).map(|_| ())
    }

    /// One fixed-size record, borrowed from the input.
    #[inline]
    pub fn read<T>(&mut self, field: impl fmt::Display) -> Result<&'a T>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let offset = self.pos;
        let bytes = self.bytes(core::mem::size_of::<T>(), &field)?;
        match T::ref_from_bytes(bytes) {
            Ok(r) => Ok(r),
            Err(_) => Err(self.fail(
                field,
                ErrorKind::Invalid {
                    offset,
                    message: "record does not fit its type".into(),
                },
            )),
        }
    }

    /// `count` records, borrowed from the input. The count is checked against the bytes left
    /// before anything else happens.
    #[inline]
    pub fn slice<T>(
        &mut self,
        count: impl TryInto<u64> + Copy + fmt::Display,
        field: impl fmt::Display,
    ) -> Result<&'a [T]>
    where
        T: FromBytes + KnownLayout + Immutable + Unaligned,
    {
        let offset = self.pos;
        let size = core::mem::size_of::<T>();
        // `count` checked `n · size <= left`, so the product cannot saturate.
        let needed = self.count(count, size, &field)?.saturating_mul(size);
        let bytes = self.bytes(needed, &field)?;
        match <[T]>::ref_from_bytes(bytes) {
            Ok(r) => Ok(r),
            Err(_) => Err(self.fail(
                field,
                ErrorKind::Invalid {
                    offset,
                    message: "records do not fit their type".into(),
                },
            )),
        }
    }

    /// Checks a count taken from the input: `count` records of at least `min_record_size` bytes
    /// each must fit in the bytes left from here, and the count must fit a `usize`. Returns the
    /// count, without moving, so that a caller may reserve room for that many records; refuses
    /// it with [`ErrorKind::CountTooLarge`] (`count N at offset 0x.. exceeds the M bytes left
    /// (S bytes each)`) before anything is allocated.
    ///
    /// Use it for records of varying size, where [`Cursor::slice`] cannot check the count
    /// itself: the smallest size a record can take bounds how many the input can hold. A
    /// `min_record_size` of 0 counts as 1, so that a count never exceeds the bytes left.
    ///
    /// ```
    /// let bytes = [2, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8];
    /// let mut cur = nav_core::Cursor::new("example", &bytes);
    /// let n = cur.u32_count(3, "areas")?; // each area takes 3 bytes at least
    /// assert_eq!((n, cur.offset()), (2, 4));
    /// let err = cur.count(3u32, 4, "ladders").unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "example: ladders: count 3 at offset 0x4 exceeds the 8 bytes left (4 bytes each)"
    /// );
    /// # Ok::<(), nav_core::Error>(())
    /// ```
    #[inline]
    pub fn count(
        &mut self,
        count: impl TryInto<u64> + Copy,
        min_record_size: usize,
        field: impl fmt::Display,
    ) -> Result<usize> {
        let size = min_record_size.max(1);
        let left = self.remaining();
        let count64 = count.try_into().unwrap_or(u64::MAX);
        let fits = usize::try_from(count64)
            .ok()
            .filter(|c| c.checked_mul(size).is_some_and(|n| n <= left));
        match fits {
            Some(c) => Ok(c),
            None => {
                let offset = self.pos;
                Err(self.fail(
                    field,
                    ErrorKind::CountTooLarge {
                        count: count64,
                        record_size: size,
                        offset,
                        left,
                    },
                ))
            }
        }
    }

    /// Reads a `u8` count and checks it with [`Cursor::count`] against the bytes after it.
    #[inline]
    pub fn u8_count(&mut self, min_record_size: usize, field: impl fmt::Display) -> Result<usize> {
        let n = self.u8(&field)?;
        self.count(n, min_record_size, field)
    }

    /// Reads a little-endian `u16` count and checks it with [`Cursor::count`] against the bytes
    /// after it.
    #[inline]
    pub fn u16_count(&mut self, min_record_size: usize, field: impl fmt::Display) -> Result<usize> {
        let n = self.u16(&field)?;
        self.count(n, min_record_size, field)
    }

    /// Reads a little-endian `u32` count and checks it with [`Cursor::count`] against the bytes
    /// after it.
    #[inline]
    pub fn u32_count(&mut self, min_record_size: usize, field: impl fmt::Display) -> Result<usize> {
        let n = self.u32(&field)?;
        self.count(n, min_record_size, field)
    }

    /// A `u8`.
    #[inline]
    pub fn u8(&mut self, field: impl fmt::Display) -> Result<u8> {
        Ok(self.bytes(1, field)?.first().copied().unwrap_or(0))
    }

    /// A little-endian `u16`.
    #[inline]
    pub fn u16(&mut self, field: impl fmt::Display) -> Result<u16> {
        Ok(self.read::<crate::scalar::U16>(field)?.get())
    }

    /// A little-endian `u32`.
    #[inline]
    pub fn u32(&mut self, field: impl fmt::Display) -> Result<u32> {
        Ok(self.read::<crate::scalar::U32>(field)?.get())
    }

    /// A little-endian `i32`.
    #[inline]
    pub fn i32(&mut self, field: impl fmt::Display) -> Result<i32> {
        Ok(self.read::<crate::scalar::I32>(field)?.get())
    }

    /// A little-endian `u64`.
    #[inline]
    pub fn u64(&mut self, field: impl fmt::Display) -> Result<u64> {
        Ok(self.read::<crate::scalar::U64>(field)?.get())
    }

    /// A little-endian `f32`, kept as its bits.
    #[inline]
    pub fn f32(&mut self, field: impl fmt::Display) -> Result<crate::RawF32> {
        Ok(crate::RawF32(self.u32(field)?))
    }

    /// Checks that the input ends here.
    pub fn expect_end(&mut self, field: impl fmt::Display) -> Result<()> {
        let len = self.remaining();
        if len == 0 {
            Ok(())
        } else {
            let offset = self.pos;
            Err(self.fail(field, ErrorKind::TrailingBytes { offset, len }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scalar::U32;

    #[test]
    fn absurd_count_is_refused_before_slicing() {
        let data = [0u8; 8];
        let mut c = Cursor::new("t", &data);
        let e = c
            .slice::<U32>(u32::MAX, format_args!("areas[{}] connections", 12))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "t: areas[12] connections: count 4294967295 at offset 0x0 exceeds the 8 bytes left (4 bytes each)"
        );
        assert!(c.is_empty(), "a failed cursor is emptied");
        let mut c = Cursor::new("t", &data);
        let e = c.slice::<U32>(u64::MAX, "x").unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::CountTooLarge {
                count: u64::MAX,
                ..
            }
        ));
    }

    #[test]
    fn counts_are_checked_against_the_bytes_left() {
        let data = [2u8, 0, 0, 0, 9, 9, 9, 9, 9, 9];
        let mut c = Cursor::new("t", &data);
        assert_eq!(c.u32_count(3, "areas").unwrap(), 2);
        assert_eq!(c.offset(), 4, "the count is read, the records are not");
        assert_eq!(c.count(6u8, 1, "bytes").unwrap(), 6);
        assert_eq!(c.count(0u64, 1_000, "none").unwrap(), 0);
        let e = c.count(2u16, 4, "links").unwrap_err();
        assert_eq!(
            e.to_string(),
            "t: links: count 2 at offset 0x4 exceeds the 6 bytes left (4 bytes each)"
        );
        assert!(c.is_empty(), "a failed cursor is emptied");
        // A size of 0 counts as 1; a count past usize or u64 is refused, not wrapped.
        let mut c = Cursor::new("t", &data);
        assert!(c.count(11u32, 0, "x").is_err());
        let mut c = Cursor::new("t", &data);
        let e = c.count(u64::MAX, usize::MAX, "y").unwrap_err();
        assert!(matches!(
            e.kind(),
            ErrorKind::CountTooLarge {
                count: u64::MAX,
                left: 10,
                ..
            }
        ));
        let mut c = Cursor::new("t", &data);
        assert!(c.count(-1i64, 1, "negative").is_err());
        // The reading forms check against the bytes after the count.
        let mut c = Cursor::new("t", &[3, 1, 2, 3]);
        assert_eq!(c.u8_count(1, "u8").unwrap(), 3);
        let mut c = Cursor::new("t", &[2, 0, 1, 2, 3, 4]);
        assert_eq!(c.u16_count(2, "u16").unwrap(), 2);
        let mut c = Cursor::new("t", &[2, 0, 1, 2, 3]);
        assert!(c.u16_count(2, "u16").is_err());
        let mut c = Cursor::new("t", &[1, 0]);
        assert!(c.u32_count(1, "short").is_err(), "the count itself is cut");
    }

    #[test]
    fn reads_at_odd_offsets() {
        let data = [0xaa, 1, 0, 0, 0, 2, 0, 0, 0];
        let mut c = Cursor::new("t", &data);
        assert_eq!(c.u8("pad").unwrap(), 0xaa);
        let s = c.slice::<U32>(2usize, "pair").unwrap();
        assert_eq!([s[0].get(), s[1].get()], [1, 2]);
        c.expect_end("tail").unwrap();
    }

    #[test]
    fn seek_and_trailing() {
        let data = [1u8, 2, 3];
        let mut c = Cursor::new("t", &data);
        assert!(c.seek(4, "offset").is_err());
        let mut c = Cursor::new("t", &data);
        c.seek(3, "end").unwrap();
        assert!(c.is_empty());
        let mut c = Cursor::new("t", &data);
        c.u8("a").unwrap();
        assert_eq!(
            c.expect_end("end").unwrap_err().to_string(),
            "t: end: 2 unexpected bytes after the last record, at offset 0x1"
        );
    }

    #[test]
    fn magic_tells_a_wrong_file_from_a_short_one() {
        let mut ok = Cursor::new("t", b"NAV2\x01");
        ok.magic(b"NAV2", "magic", "NAV2").unwrap();
        assert_eq!(ok.offset(), 4);

        let mut wrong = Cursor::new("t", b"NAV9xxxx");
        let e = wrong.magic(b"NAV2", "magic", "NAV2").unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::BadMagic { offset: 0, found, .. } if found == b"NAV9"),
            "{e}"
        );

        // A correct prefix at the end of the input is a truncated file of the right kind.
        let mut short = Cursor::new("t", b"NA");
        let e = short.magic(b"NAV2", "magic", "NAV2").unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Truncated {
                    needed: 4,
                    left: 2,
                    ..
                }
            ),
            "{e}"
        );
        // Anything else that is short is a wrong file.
        let mut other = Cursor::new("t", b"XY");
        let e = other.magic(b"NAV2", "magic", "NAV2").unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::BadMagic { .. }), "{e}");
    }
}
