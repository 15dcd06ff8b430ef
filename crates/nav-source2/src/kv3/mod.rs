//! Binary KeyValues3 (KV3) blobs embedded in the file: their header, their length, and a
//! read-only decoder.
//!
//! A `.nav` stores up to four KV3 blobs (three mid-file blobs in version 36, and the trailing
//! custom data when the sub-version is above 0). Each starts at the next multiple of 8 bytes from
//! the start of the file and has no length prefix: its length is worked out from its own header.
//! The model keeps every blob as its exact bytes ([`Kv3Blob`]); [`decode`] turns the bytes into a
//! tree of [`Kv3Value`]s for `dump` and JSON, and nothing read is ever encoded back;
//! [`kv3_v5`] writes the small new documents of empty meshes and samples.
//!
//! Header layout (all little-endian), by KV3 version 2 to 5 (magic bytes `vv 33 56 4b`):
//!
//! ```text
//! magic 4 │ format GUID 16 │ u32 compression (0 none, 1 LZ4, 2 zstd) │ u16 dictionary │ u16 frame size
//! u32 bytes1 │ u32 bytes4 │ u32 bytes8 │ u32 types │ u16 objects │ u16 arrays
//! i32 uncompressed total │ i32 compressed total │ i32 blocks │ i32 binary-blob bytes
//! v4+: u32 bytes2 │ i32 block-compressed-sizes bytes
//! v5:  i32 uncompressed 1 │ i32 compressed 1 │ i32 uncompressed 2 │ i32 compressed 2
//!      u32 bytes1, bytes2, bytes4, bytes8 of buffer 2 │ i32 ? │ u32 objects, arrays of buffer 2 │ i32 ?
//! ```
//!
//! The body is one buffer (versions 2 to 4) or two (version 5), compressed as the header says.
//! KV3 version 1, the legacy `VKV\x03` container and blobs with binary-blob blocks are refused:
//! their length cannot be told from the header alone, and no known nav file holds one.

mod decode;
mod encode;
mod header;

pub use decode::{DECODE_DEPTH, Kv3Document, Kv3Value, decode, decompression_limit};
pub use header::{
    ALIGN, CUSTOM_DATA_FORMAT, GENERIC_FORMAT, Kv3Header, TRAILER, format_guid, read_aligned,
};

use nav_core::Result;

/// A KV3 blob, kept as its exact bytes (header and body, without the alignment padding before
/// it). In JSON it is `{"bytes": "<hex>", "decoded": …}`; only `bytes` is read back.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Kv3Blob {
    /// The blob's bytes, from its magic to the end of its body.
    pub bytes: Vec<u8>,
}

impl core::fmt::Debug for Kv3Blob {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match Kv3Header::read_blob(&self.bytes) {
            Ok(h) => write!(
                f,
                "Kv3Blob(v{} {} {} bytes)",
                h.version,
                h.compression_name(),
                self.bytes.len()
            ),
            Err(_) => write!(f, "Kv3Blob({} bytes, unreadable)", self.bytes.len()),
        }
    }
}

impl Kv3Blob {
    /// The blob's header, or why it cannot be read (or does not end where its bytes do).
    pub fn header(&self) -> Result<Kv3Header> {
        Kv3Header::read_blob(&self.bytes)
    }

    /// The decoded document (decompressed as needed, within [`decompression_limit`]).
    pub fn decode(&self) -> Result<Kv3Document> {
        decode(&self.bytes)
    }
}

/// An uncompressed KV3 version 5 blob holding `root`, with this format GUID (see
/// [`crate::samples`], whose documents it writes).
pub fn kv3_v5(format: [u8; 16], root: &Kv3Value) -> Kv3Blob {
    Kv3Blob {
        bytes: encode::kv3_v5(format, root),
    }
}

/// The null document the games store in the three mid-file version-36 blobs, with `format` as
/// its GUID (theirs is [`GENERIC_FORMAT`]).
pub fn empty_kv3(format: [u8; 16]) -> Kv3Blob {
    kv3_v5(format, &Kv3Value::Null)
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::Kv3Blob;
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    fn hex(bytes: &[u8]) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(bytes.len() * 2);
        for b in bytes {
            s.push(char::from(DIGITS[usize::from(b >> 4)]));
            s.push(char::from(DIGITS[usize::from(b & 15)]));
        }
        s
    }

    fn unhex(s: &str) -> Result<Vec<u8>, String> {
        if s.len() % 2 != 0 {
            return Err("hex bytes have an odd number of digits".into());
        }
        (0..s.len())
            .step_by(2)
            .map(|i| {
                s.get(i..i + 2)
                    .and_then(|d| u8::from_str_radix(d, 16).ok())
                    .ok_or_else(|| format!("{:?} at {i} is not a hex byte", s.get(i..i + 2)))
            })
            .collect()
    }

    impl Serialize for Kv3Blob {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("Kv3Blob", 3)?;
            st.serialize_field("bytes", &hex(&self.bytes))?;
            match self.decode() {
                Ok(doc) => {
                    st.serialize_field("format", &doc.format_guid())?;
                    st.serialize_field("decoded", &doc.root)?;
                }
                Err(e) => {
                    st.serialize_field("format", &Option::<String>::None)?;
                    st.serialize_field("decode_error", &e.to_string())?;
                }
            }
            st.end()
        }
    }

    #[derive(Deserialize)]
    struct Raw {
        bytes: String,
    }

    impl<'de> Deserialize<'de> for Kv3Blob {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let raw = Raw::deserialize(d)?;
            unhex(&raw.bytes)
                .map(|bytes| Kv3Blob { bytes })
                .map_err(serde::de::Error::custom)
        }
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for Kv3Blob {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        // Mostly well-formed empty documents, sometimes arbitrary bytes (which the writer refuses).
        if u.ratio(1, 8)? {
            return Ok(Kv3Blob {
                bytes: u.arbitrary()?,
            });
        }
        Ok(empty_kv3(u.arbitrary()?))
    }
}

#[cfg(test)]
mod tests;
