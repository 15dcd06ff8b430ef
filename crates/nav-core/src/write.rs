//! Helpers for writers: a little-endian byte sink and checked narrowing of counts.
//!
//! Writers refuse what a field cannot hold instead of wrapping it: 70,000 nodes do not fit a
//! `u16` count, and [`narrow`] says so with the field's name.

use core::fmt;

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
    pub fn new() -> Self {
        ByteWriter::default()
    }

    /// An empty buffer with room for `n` bytes.
    pub fn with_capacity(n: usize) -> Self {
        ByteWriter {
            buf: Vec::with_capacity(n),
        }
    }

    /// A writer that appends to `buf` (its bytes stay in front, its spare capacity is used
    /// first): how a writer fills a buffer the caller already holds.
    pub fn from_vec(buf: Vec<u8>) -> Self {
        ByteWriter { buf }
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was written yet.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes written so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.buf
    }

    /// Mutable access to the bytes written so far, for patching a reserved field.
    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        &mut self.buf
    }

    /// The finished bytes.
    pub fn into_inner(self) -> Vec<u8> {
        self.buf
    }

    /// Appends raw bytes.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(b);
        self
    }

    /// Appends any zerocopy value (a record, or a slice of records) as its bytes.
    pub fn put<T: IntoBytes + Immutable + ?Sized>(&mut self, value: &T) -> &mut Self {
        self.buf.extend_from_slice(value.as_bytes());
        self
    }

    /// Appends a `u8`.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }

    /// Appends a little-endian `u16`.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `i16`.
    pub fn i16(&mut self, v: i16) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `u32`.
    pub fn u32(&mut self, v: u32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `i32`.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a little-endian `u64`.
    pub fn u64(&mut self, v: u64) -> &mut Self {
        self.bytes(&v.to_le_bytes())
    }

    /// Appends a float by its bits.
    pub fn f32(&mut self, v: RawF32) -> &mut Self {
        self.u32(v.0)
    }

    /// Appends `n` copies of `byte`.
    pub fn fill(&mut self, byte: u8, n: usize) -> &mut Self {
        self.buf.resize(self.buf.len().saturating_add(n), byte);
        self
    }

    /// Appends zeros up to the next multiple of `align` (counted from the start of the buffer).
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
