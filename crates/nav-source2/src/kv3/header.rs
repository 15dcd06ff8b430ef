//! The header of a KV3 blob: what it says about the blob's length and body, the constants the
//! blobs share, and reading a blob at its alignment. Below the decoder and the encoder;
//! [`super`] re-exports it.

use nav_core::{Cursor, Error, ErrorKind, Result};

use crate::FORMAT;

/// Blobs start at a multiple of this many bytes from the start of the file.
pub const ALIGN: usize = 8;

/// The last four bytes of every uncompressed KV3 buffer.
pub const TRAILER: u32 = 0xFFEE_DD00;

/// The format GUID of CS2's custom data (`navmeshcustomdata1`), as stored:
/// {7300f029-8e00-45f9-b9c3-32e1403c9620}.
pub const CUSTOM_DATA_FORMAT: [u8; 16] = [
    0x29, 0xf0, 0x00, 0x73, 0x00, 0x8e, 0xf9, 0x45, 0xb9, 0xc3, 0x32, 0xe1, 0x40, 0x3c, 0x96, 0x20,
];

/// The format GUID of the three mid-file version-36 blobs, as stored:
/// {7412167c-06e9-4698-aff2-e63eb59037e7}.
pub const GENERIC_FORMAT: [u8; 16] = [
    0x7c, 0x16, 0x12, 0x74, 0xe9, 0x06, 0x98, 0x46, 0xaf, 0xf2, 0xe6, 0x3e, 0xb5, 0x90, 0x37, 0xe7,
];

/// The header fields of a KV3 blob that say how long it is and how to read its body.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Kv3Header {
    /// The KV3 version, 2 to 5.
    pub version: u8,
    /// The format GUID, as stored.
    pub format: [u8; 16],
    /// 0 none, 1 LZ4, 2 zstd.
    pub compression: u32,
    /// The compression dictionary id.
    pub dictionary: u16,
    /// The compression frame size.
    pub frame_size: u16,
    /// Bytes of the 1-byte lane (of buffer 1 in version 5).
    pub bytes1: u32,
    /// Values of the 2-byte lane (version 4 and up).
    pub bytes2: u32,
    /// Values of the 4-byte lane.
    pub bytes4: u32,
    /// Values of the 8-byte lane.
    pub bytes8: u32,
    /// Bytes of the type stream (before version 5: of strings and types together).
    pub types: u32,
    /// Objects in the document.
    pub objects: u16,
    /// Arrays in the document.
    pub arrays: u16,
    /// Uncompressed size of the whole body.
    pub uncompressed_total: i32,
    /// Compressed size of the whole body.
    pub compressed_total: i32,
    /// Binary-blob blocks (refused when non-zero).
    pub blocks: i32,
    /// Bytes of binary blobs.
    pub blob_bytes: i32,
    /// Version 5: uncompressed and compressed sizes of buffers 1 and 2.
    pub buffers: [i32; 4],
    /// Version 5: lanes of buffer 2: bytes1, bytes2, bytes4, bytes8, then objects.
    pub buffer2: [u32; 5],
    /// Bytes of the header.
    pub header_len: usize,
    /// Bytes of the body that follows the header.
    pub body_len: usize,
}

fn non_negative(cur: &mut Cursor<'_>, field: &str, v: i32) -> Result<usize> {
    usize::try_from(v).map_err(|_| cur.invalid(field, format_args!("KV3 size {v} is negative")))
}

impl Kv3Header {
    /// Reads a header at the cursor and leaves the cursor after it. `field` names the blob.
    pub fn read(cur: &mut Cursor<'_>, field: &str) -> Result<Kv3Header> {
        let start = cur.offset();
        let magic = cur.bytes(4, format_args!("{field} magic"))?;
        let version = match magic {
            [v @ 2..=5, 0x33, 0x56, 0x4b] => *v,
            _ => {
                let found = magic.to_vec();
                return Err(cur.fail(
                    format_args!("{field} magic"),
                    ErrorKind::BadMagic {
                        offset: start,
                        found,
                        expected: "a binary KV3 blob of version 2 to 5 (bytes 02..05 33 56 4b)",
                    },
                ));
            }
        };
        let mut format = [0u8; 16];
        format.copy_from_slice(cur.bytes(16, format_args!("{field} format"))?);
        let f = |name: &str| format!("{field} {name}");
        let mut h = Kv3Header {
            version,
            format,
            compression: cur.u32(f("compression"))?,
            dictionary: cur.u16(f("dictionary"))?,
            frame_size: cur.u16(f("frame size"))?,
            bytes1: cur.u32(f("bytes1"))?,
            bytes2: 0,
            bytes4: cur.u32(f("bytes4"))?,
            bytes8: cur.u32(f("bytes8"))?,
            types: cur.u32(f("types"))?,
            objects: cur.u16(f("objects"))?,
            arrays: cur.u16(f("arrays"))?,
            uncompressed_total: cur.i32(f("uncompressed total"))?,
            compressed_total: cur.i32(f("compressed total"))?,
            blocks: cur.i32(f("blocks"))?,
            blob_bytes: cur.i32(f("blob bytes"))?,
            buffers: [0; 4],
            buffer2: [0; 5],
            header_len: 0,
            body_len: 0,
        };
        if version >= 4 {
            h.bytes2 = cur.u32(f("bytes2"))?;
            cur.skip(4, f("block sizes"))?;
        }
        if version >= 5 {
            for (i, b) in h.buffers.iter_mut().enumerate() {
                *b = cur.i32(format_args!("{field} buffer sizes[{i}]"))?;
            }
            let lanes = cur.bytes(32, f("buffer 2 counts"))?;
            let word = |i: usize| {
                let b = lanes.get(i * 4..i * 4 + 4).unwrap_or(&[0; 4]);
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            };
            // bytes1, bytes2, bytes4, bytes8, (unknown), objects, arrays, (unknown).
            h.buffer2 = [word(0), word(1), word(2), word(3), word(5)];
        }
        h.header_len = cur.offset().saturating_sub(start);
        if h.blocks != 0 {
            return Err(cur.invalid(
                f("blocks"),
                format_args!(
                    "{} binary-blob blocks: KV3 blobs with binary blobs are not supported (no known nav file has one)",
                    h.blocks
                ),
            ));
        }
        if h.compression > 2 {
            return Err(cur.invalid(
                f("compression"),
                format_args!(
                    "compression method {} is not 0, 1 (LZ4) or 2 (zstd)",
                    h.compression
                ),
            ));
        }
        let compressed = h.compression != 0;
        h.body_len = if version >= 5 {
            let [u1, c1, u2, c2] = h.buffers;
            let (a, b) = if compressed { (c1, c2) } else { (u1, u2) };
            let a = non_negative(cur, &f("buffer 1 size"), a)?;
            let b = non_negative(cur, &f("buffer 2 size"), b)?;
            a.saturating_add(b)
        } else if compressed {
            non_negative(cur, &f("compressed total"), h.compressed_total)?
        } else {
            non_negative(cur, &f("uncompressed total"), h.uncompressed_total)?
        };
        Ok(h)
    }

    /// Reads the header of a whole blob and checks that its body ends exactly where `bytes` do.
    pub fn read_blob(bytes: &[u8]) -> Result<Kv3Header> {
        let mut cur = Cursor::new(FORMAT, bytes);
        let h = Kv3Header::read(&mut cur, "kv3")?;
        let end = h.header_len.saturating_add(h.body_len);
        if end != bytes.len() {
            return Err(Error::invalid(
                FORMAT,
                "kv3",
                0,
                format!(
                    "the header says the blob is {end} bytes long, it holds {}",
                    bytes.len()
                ),
            ));
        }
        Ok(h)
    }

    /// `none`, `LZ4` or `zstd`.
    pub fn compression_name(&self) -> &'static str {
        match self.compression {
            0 => "uncompressed",
            1 => "LZ4",
            _ => "zstd",
        }
    }

    /// The format GUID in its usual text form.
    pub fn format_guid(&self) -> String {
        format_guid(&self.format)
    }
}

/// A GUID stored as 16 bytes (the first three groups little-endian), in its usual text form.
pub fn format_guid(g: &[u8; 16]) -> String {
    format!(
        "{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
        g[3],
        g[2],
        g[1],
        g[0],
        g[5],
        g[4],
        g[7],
        g[6],
        g[8],
        g[9],
        g[10],
        g[11],
        g[12],
        g[13],
        g[14],
        g[15]
    )
}

/// Reads the zero padding up to the next multiple of [`ALIGN`] and a whole blob after it,
/// returning the blob's bytes. Non-zero padding is refused (the writer always writes zeros).
pub fn read_aligned<'a>(cur: &mut Cursor<'a>, field: &str) -> Result<&'a [u8]> {
    let pad = (ALIGN - cur.offset() % ALIGN) % ALIGN;
    let at = cur.offset();
    let padding = cur.bytes(pad, format_args!("{field} padding"))?;
    if let Some(i) = padding.iter().position(|b| *b != 0) {
        return Err(Error::invalid(
            FORMAT,
            format_args!("{field} padding"),
            at.saturating_add(i),
            format!(
                "alignment byte {:#04x} is not zero",
                padding.get(i).copied().unwrap_or(0)
            ),
        ));
    }
    let start = cur.offset();
    let h = Kv3Header::read(cur, field)?;
    cur.skip(h.body_len, format_args!("{field} body"))?;
    Ok(cur.data().get(start..cur.offset()).unwrap_or(&[]))
}
