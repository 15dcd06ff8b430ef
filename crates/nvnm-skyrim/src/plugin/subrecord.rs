//! Subrecords, below the view, the model and the writer that use them: the 6-byte header,
//! where each subrecord of a record's data sits ([`subrecords`]), and writing one back
//! ([`put_subrecord`]), in the `XXXX` large form where it was read so.

use std::ops::Range;

use nav_core::error::Later;
use nav_core::scalar::U16;
use nav_core::write::narrow;
use nav_core::{ByteWriter, Cursor, Error, Result};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::types::{FORMAT, Signature};

/// A subrecord header, 6 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct SubrecordHeader {
    /// Subrecord type (`NVNM`).
    pub signature: [u8; 4],
    /// Payload size (0 after an `XXXX` subrecord, which holds the real size).
    pub size: U16,
}

/// Where one subrecord sits in a navmesh record's (inflated) data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubrecordSpan {
    /// Subrecord type.
    pub(crate) signature: Signature,
    /// The payload's byte range in the record's inflated data.
    pub(crate) range: Range<usize>,
    /// `Some(size field)` when an `XXXX` subrecord gave the real size; the size field of the
    /// header itself (0 in files the Creation Kit wrote) is kept.
    pub(crate) large: Option<u16>,
}

impl SubrecordSpan {
    /// Subrecord type.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// The payload's byte range in the record's inflated data.
    pub fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    /// `Some(size field)` when an `XXXX` subrecord gave the real size; the size field of the
    /// header itself (0 in files the Creation Kit wrote) is kept.
    pub fn large(&self) -> Option<u16> {
        self.large
    }
}

/// Splits a navmesh (or navmesh info map) record's data into subrecords.
pub(crate) fn subrecords(body: &[u8]) -> Result<Vec<SubrecordSpan>> {
    let mut cur = Cursor::new(FORMAT, body);
    let mut out = Vec::new();
    while !cur.is_empty() {
        let at = cur.offset();
        let h: &SubrecordHeader = cur.read(format_args!("subrecord at {at:#x}"))?;
        if &h.signature == b"XXXX" {
            if h.size.get() != 4 {
                return Err(cur.invalid(
                    format_args!("XXXX subrecord at {at:#x}"),
                    format!("size {} is not 4", h.size.get()),
                ));
            }
            let real = cur.u32("XXXX size")?;
            let at = cur.offset();
            let h: &SubrecordHeader = cur.read(format_args!("subrecord after XXXX at {at:#x}"))?;
            if &h.signature == b"XXXX" {
                return Err(cur.invalid(
                    format_args!("subrecord after XXXX at {at:#x}"),
                    "a second XXXX cannot follow an XXXX",
                ));
            }
            let start = cur.offset();
            let len = usize::try_from(real).unwrap_or(usize::MAX);
            cur.bytes(
                len,
                format_args!("{} large subrecord", Signature(h.signature)),
            )?;
            out.push(SubrecordSpan {
                signature: Signature(h.signature),
                range: start..start.saturating_add(len),
                large: Some(h.size.get()),
            });
        } else {
            let start = cur.offset();
            let len = usize::from(h.size.get());
            cur.bytes(len, format_args!("{} subrecord", Signature(h.signature)))?;
            out.push(SubrecordSpan {
                signature: Signature(h.signature),
                range: start..start.saturating_add(len),
                large: None,
            });
        }
    }
    Ok(out)
}

/// One subrecord's header: 6 bytes, or 16 in the `XXXX` large form (when `large` is set), for a
/// payload of `len` bytes; the refusals of a header the format cannot hold.
pub(crate) fn subrecord_header(
    signature: Signature,
    large: Option<u16>,
    len: usize,
    field: &dyn Fn() -> String,
) -> Result<ByteWriter> {
    if &signature.0 == b"XXXX" {
        return Err(Error::unrepresentable(
            FORMAT,
            field(),
            "XXXX is the large-subrecord marker, not a subrecord of its own (use `large`)",
        ));
    }
    let mut w = ByteWriter::with_capacity(16);
    match large {
        Some(short) => {
            let len: u32 = narrow(FORMAT, Later(field), len)?;
            w.bytes(b"XXXX").u16(4).u32(len);
            w.bytes(&signature.0).u16(short);
        }
        None => {
            let len: u16 = narrow(FORMAT, Later(field), len)
                .map_err(|e| e.within("(set `large` for payloads over 65,535 bytes)"))?;
            w.bytes(&signature.0).u16(len);
        }
    }
    Ok(w)
}

/// Writes one subrecord: its header (in the `XXXX` large form when `large` is set) and payload.
pub(crate) fn put_subrecord(
    w: &mut ByteWriter,
    signature: Signature,
    large: Option<u16>,
    data: &[u8],
    field: &dyn Fn() -> String,
) -> Result<()> {
    let header = subrecord_header(signature, large, data.len(), field)?;
    w.bytes(header.as_slice()).bytes(data);
    Ok(())
}
