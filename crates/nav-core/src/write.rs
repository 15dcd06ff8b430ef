//! Helpers for writers: a little-endian byte sink and checked narrowing of counts.
//!
//! A writer written once against [`Sink`] serves every destination: [`ByteWriter`] (a `Vec`,
//! for `write` and `write_into`), [`ByteCount`] (a dry run that counts, so that a streaming
//! writer finds every refusal before its first byte) and [`BlockStream`] (any
//! [`std::io::Write`], in 64 KiB blocks, for `write_to`).
//!
//! Writers refuse what a field cannot hold instead of wrapping it: 70,000 nodes do not fit a
//! `u16` count, and [`narrow`] says so with the field's name.

use core::fmt;
use std::io;

use zerocopy::{Immutable, IntoBytes};

use crate::error::{Error, ErrorKind, Result};
use crate::scalar::RawF32;

/// A growable little-endian output buffer.
#[derive(Debug, Default, Clone)]
pub struct ByteWriter {
    buf: Vec<u8>,
}

impl ByteWriter {
    /// An empty buffer.
    #[inline]
    pub fn new() -> Self {
        ByteWriter::default()
    }

    /// An empty buffer with room for `n` bytes.
    #[inline]
    pub fn with_capacity(n: usize) -> Self {
        ByteWriter {
            buf: Vec::with_capacity(n),
        }
    }

    /// A writer that appends to `buf` (its bytes stay in front, its spare capacity is used
    /// first): how a writer fills a buffer the caller already holds.
    #[inline]
    pub fn from_vec(buf: Vec<u8>) -> Self {
        ByteWriter { buf }
    }

    /// Bytes written so far.
    #[inline]
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written yet.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes written so far.
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Mutable access to the bytes written so far, for patching a reserved field.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.buf
    }

    /// The finished bytes.
    #[inline]
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }

    /// Appends raw bytes.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// Appends any zerocopy value (a record, or a slice of records) as its bytes.
    #[inline]
    pub fn put<T: IntoBytes + Immutable + ?Sized>(&mut self, value: &T) -> &mut Self {
        self.buf.extend_from_slice(value.as_bytes());
        self
    }

    /// Appends a `u8`.
    #[inline]
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    /// Appends a little-endian `u16`.
    #[inline]
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `i16`.
    #[inline]
    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `u32`.
    #[inline]
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `i32`.
    #[inline]
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `u64`.
    #[inline]
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a float by its bits.
    #[inline]
    pub fn f32(&mut self, v: RawF32) -> &mut Self {
        self.u32(v.0)
    }

    /// Appends `n` copies of `byte`.
    #[inline]
    pub fn fill(&mut self, byte: u8, n: usize) -> &mut Self {
        self.buf.resize(self.buf.len().saturating_add(n), byte);
        self
    }

    /// Appends zeros up to the next multiple of `align` (counted from the start of the buffer).
    #[inline]
    pub fn pad_to(&mut self, align: usize) -> &mut Self {
        if align > 1 {
            let rem = self.buf.len() % align;
            if rem != 0 {
                self.fill(0, align - rem);
            }
        }
        self
    }
}

/// Converts a count or index to a narrower field type, or names the field that cannot hold it.
pub fn narrow<T, V>(format: &'static str, field: impl fmt::Display, value: V) -> Result<T>
where
    V: TryInto<T> + Copy + fmt::Display,
{
    value.try_into().map_err(|_| {
        Error::unrepresentable(
            format,
            field,
            format!(
                "{value} does not fit the field's {}-bit range",
                core::mem::size_of::<T>() * 8
            ),
        )
    })
}

/// Checks a count or offset stored in a model read from a file against the value computed from
/// the payload, so that a write never silently disagrees with what the model says it holds.
pub fn check_stored(
    format: &'static str,
    field: impl fmt::Display,
    stored: u64,
    computed: u64,
) -> Result<()> {
    if stored == computed {
        Ok(())
    } else {
        Err(Error::new(
            format,
            field,
            ErrorKind::Mismatch { stored, computed },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_names_the_field() {
        let e = narrow::<u16, usize>("nav-quake", "nodes[3] num_links", 70_000).unwrap_err();
        assert_eq!(
            e.to_string(),
            "nav-quake: nodes[3] num_links: 70000 does not fit the field's 16-bit range"
        );
        assert_eq!(narrow::<u16, usize>("x", "y", 65_535).unwrap(), 65_535);
    }

    #[test]
    fn writer_pads_and_puts() {
        let mut w = ByteWriter::new();
        w.u8(1).u16(0x0302).pad_to(4).f32(RawF32::new(-0.0));
        assert_eq!(w.as_slice(), &[1, 2, 3, 0, 0, 0, 0, 0x80]);
        assert!(check_stored("x", "count", 3, 4).is_err());
    }
}

/// Where a writer puts its bytes. Every field goes through [`Sink::bytes`]; the typed helpers
/// only encode little-endian.
pub trait Sink {
    /// Appends raw bytes.
    fn bytes(&mut self, b: &[u8]) -> &mut Self;
    /// Bytes put so far (alignment padding depends on it).
    fn position(&self) -> usize;
    /// Appends a record's (or a list of records') stored bytes.
    fn put<T: IntoBytes + Immutable + ?Sized>(&mut self, value: &T) -> &mut Self {
        self.bytes(value.as_bytes())
    }
    /// Appends a byte.
    fn u8(&mut self, v: u8) -> &mut Self {
        self.bytes(&[v])
    }
    /// Appends a little-endian `u16`.
    fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Appends a little-endian `i16`.
    fn i16(&mut self, v: i16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Appends a little-endian `u32`.
    fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Appends a little-endian `i32`.
    fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Appends a little-endian `u64`.
    fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }
    /// Appends a float by its bits.
    fn f32(&mut self, v: RawF32) -> &mut Self {
        self.bytes(&v.0.to_le_bytes())
    }
    /// Appends `n` copies of `byte`.
    fn fill(&mut self, byte: u8, n: usize) -> &mut Self {
        let block = [byte; 64];
        let mut left = n;
        while left > 0 {
            let k = left.min(block.len());
            self.bytes(block.get(..k).unwrap_or(&[]));
            left -= k;
        }
        self
    }
    /// Appends zeros up to the next multiple of `align` (nothing for `align` 0 or 1).
    fn pad_to(&mut self, align: usize) -> &mut Self {
        let over = self.position() % align.max(1);
        if over == 0 {
            return self;
        }
        self.fill(0, align - over)
    }
}

impl Sink for ByteWriter {
    #[inline]
    fn bytes(&mut self, b: &[u8]) -> &mut Self {
        ByteWriter::bytes(self, b)
    }
    #[inline]
    fn position(&self) -> usize {
        self.len()
    }
}

/// A [`Sink`] that counts the bytes a write would make and keeps none.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ByteCount(usize);

impl ByteCount {
    /// Nothing counted yet.
    pub fn new() -> Self {
        ByteCount(0)
    }
}

impl Sink for ByteCount {
    #[inline]
    fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.0 = self.0.saturating_add(b.len());
        self
    }
    #[inline]
    fn position(&self) -> usize {
        self.0
    }
}

/// A [`Sink`] over any [`io::Write`]: bytes gather in a 64 KiB block that goes out whole, and
/// runs of a block or more go straight through. The first I/O error stops the writing and is
/// returned by [`BlockStream::finish`], which must be called to send the last block.
pub struct BlockStream<'w> {
    out: &'w mut dyn io::Write,
    buf: Vec<u8>,
    written: usize,
    failed: Option<io::Error>,
}

impl fmt::Debug for BlockStream<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BlockStream")
            .field("written", &self.written)
            .field("buffered", &self.buf.len())
            .field("failed", &self.failed)
            .finish()
    }
}

impl<'w> BlockStream<'w> {
    /// The block size.
    pub const BLOCK: usize = 64 * 1024;

    /// A stream to `out`.
    pub fn new(out: &'w mut dyn io::Write) -> Self {
        BlockStream {
            out,
            buf: Vec::with_capacity(Self::BLOCK),
            written: 0,
            failed: None,
        }
    }

    fn send(&mut self, b: &[u8]) {
        if self.failed.is_none() {
            if let Err(e) = self.out.write_all(b) {
                self.failed = Some(e);
            }
        }
    }

    /// Sends what is left and returns the first I/O error, if any.
    pub fn finish(mut self) -> io::Result<()> {
        let buf = core::mem::take(&mut self.buf);
        self.send(&buf);
        match self.failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Sink for BlockStream<'_> {
    fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.written = self.written.saturating_add(b.len());
        if self.buf.len().saturating_add(b.len()) > Self::BLOCK {
            let mut buf = core::mem::take(&mut self.buf);
            self.send(&buf);
            buf.clear();
            self.buf = buf;
        }
        if b.len() >= Self::BLOCK {
            self.send(b);
        } else {
            self.buf.extend_from_slice(b);
        }
        self
    }
    fn position(&self) -> usize {
        self.written
    }
}

#[cfg(test)]
mod sink_tests {
    use super::*;

    /// The same writes through each sink.
    fn sample<S: Sink>(s: &mut S) {
        s.u8(1)
            .u16(2)
            .u32(3)
            .pad_to(8)
            .bytes(&[7; 70_000])
            .f32(RawF32(0x8000_0000));
        s.fill(9, 3).pad_to(4);
    }

    #[test]
    fn every_sink_sees_the_same_bytes() {
        let mut vec = ByteWriter::new();
        sample(&mut vec);
        let mut count = ByteCount::new();
        sample(&mut count);
        let mut out = Vec::new();
        let mut stream = BlockStream::new(&mut out);
        sample(&mut stream);
        assert_eq!(stream.position(), vec.len());
        stream.finish().unwrap();
        assert_eq!(out, vec.as_slice());
        assert_eq!(count.position(), vec.len());
        assert_eq!(vec.len(), 70_016);
        assert_eq!(vec.as_slice().get(..8), Some(&[1, 2, 0, 3, 0, 0, 0, 0][..]));
    }

    #[test]
    fn a_stream_keeps_the_first_io_error() {
        struct Full;
        impl io::Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut full = Full;
        let mut stream = BlockStream::new(&mut full);
        sample(&mut stream);
        assert_eq!(stream.finish().unwrap_err().to_string(), "disk full");
    }
}
