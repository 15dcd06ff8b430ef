//! Byte strings in serde formats (the `serde` feature): names that files store as bytes.
//!
//! Two forms, shared by the format crates so that their names read alike in JSON:
//!
//! - [`serialize_text_or_bytes`] / [`deserialize_text_or_bytes`]: the exact bytes, as a string
//!   when they are UTF-8 and as an array of byte values otherwise.
//! - [`NulTerminated`] / [`NulTerminatedBuf`]: a name the file stores with a terminating NUL, as
//!   a plain string without it (`"BombsiteB"` for `BombsiteB\0`). Bytes that do not fit that form
//!   (no terminator, not UTF-8, or a text that itself ends in NUL) keep an explicit form that
//!   reads back to the same bytes: an array of byte values, or a string ending in `\u0000`, which
//!   is taken as the exact bytes.
//!
//! ```
//! use nav_core::bytes::{NulTerminated, NulTerminatedBuf};
//!
//! let json = serde_json::to_string(&NulTerminated(b"BombsiteB\0")).unwrap();
//! assert_eq!(json, "\"BombsiteB\"");
//! let back: NulTerminatedBuf = serde_json::from_str(&json).unwrap();
//! assert_eq!(back.0, b"BombsiteB\0");
//! assert_eq!(serde_json::to_string(&NulTerminated(b"ab")).unwrap(), "[97,98]");
//! ```

use core::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{Serialize, Serializer};

/// The bytes as a string when they are UTF-8, else as an array of byte values.
pub fn serialize_text_or_bytes<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
    match core::str::from_utf8(bytes) {
        Ok(text) => s.serialize_str(text),
        Err(_) => s.collect_seq(bytes),
    }
}

/// The bytes of a string (as they are) or of an array of byte values.
pub fn deserialize_text_or_bytes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    d.deserialize_any(BytesVisitor { terminate: false })
}

/// A name stored with a terminating NUL, serialised as its text without it where it can be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NulTerminated<'a>(pub &'a [u8]);

impl Serialize for NulTerminated<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let (Some((&0, text)), Ok(all)) = (self.0.split_last(), core::str::from_utf8(self.0)) {
            // A string ending in NUL reads back as exact bytes: a text that itself ends in NUL
            // keeps its terminator spelled out.
            return match text.last() {
                Some(&0) => s.serialize_str(all),
                _ => s.serialize_str(all.get(..text.len()).unwrap_or_default()),
            };
        }
        // No terminator, or not UTF-8: the exact bytes.
        s.collect_seq(self.0)
    }
}

/// The bytes of a name read back from [`NulTerminated`]'s forms: a string gains its NUL unless
/// it already ends in one; an array of byte values is the exact bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NulTerminatedBuf(pub Vec<u8>);

impl<'de> serde::Deserialize<'de> for NulTerminatedBuf {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(BytesVisitor { terminate: true })
            .map(NulTerminatedBuf)
    }
}

/// A string or an array of byte values; `terminate` adds the NUL a plain name implies.
struct BytesVisitor {
    terminate: bool,
}

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Vec<u8>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, or an array of byte values")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
        self.visit_string(v.to_owned())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Vec<u8>, E> {
        let mut bytes = v.into_bytes();
        if self.terminate && bytes.last() != Some(&0) {
            bytes.push(0);
        }
        Ok(bytes)
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
        Ok(v.to_vec())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
        let mut bytes = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(b) = seq.next_element::<u8>()? {
            bytes.push(b);
        }
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(bytes: &[u8]) -> String {
        let json = serde_json::to_string(&NulTerminated(bytes)).unwrap();
        let back: NulTerminatedBuf = serde_json::from_str(&json).unwrap();
        assert_eq!(back.0, bytes, "{json}");
        json
    }

    #[test]
    fn terminated_names_are_plain_strings_and_the_rest_explicit() {
        assert_eq!(round_trip(b"BombsiteB\0"), "\"BombsiteB\"");
        assert_eq!(round_trip(b"\0"), "\"\"");
        assert_eq!(round_trip(b"a\0b\0"), "\"a\\u0000b\"");
        assert_eq!(round_trip(b"ab\0\0"), "\"ab\\u0000\\u0000\"");
        assert_eq!(round_trip(b"ab"), "[97,98]");
        assert_eq!(round_trip(b""), "[]");
        assert_eq!(round_trip(b"\xff\0"), "[255,0]");
        // The form older versions wrote, the NUL spelled out, reads to the same bytes.
        let old: NulTerminatedBuf = serde_json::from_str("\"BombsiteB\\u0000\"").unwrap();
        assert_eq!(old.0, b"BombsiteB\0");
    }

    #[test]
    fn text_or_bytes_keeps_the_exact_bytes() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct Name(
            #[serde(
                serialize_with = "serialize_text_or_bytes",
                deserialize_with = "deserialize_text_or_bytes"
            )]
            Vec<u8>,
        );
        for (bytes, json) in [
            (&b"cs2"[..], "\"cs2\""),
            (b"a\0", "\"a\\u0000\""),
            (b"\xff\0\x07", "[255,0,7]"),
        ] {
            let name = Name(bytes.to_vec());
            assert_eq!(serde_json::to_string(&name).unwrap(), json);
            assert_eq!(serde_json::from_str::<Name>(json).unwrap(), name);
        }
        let err = serde_json::from_str::<Name>("3").unwrap_err().to_string();
        assert!(
            err.contains("a string, or an array of byte values"),
            "{err}"
        );
    }
}
