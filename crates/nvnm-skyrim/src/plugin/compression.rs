//! How an opened record's data is stored: [`Compression`], and the stream a read keeps
//! ([`StoredStream`]).
//!
//! A read keeps every compressed record's stream as stored, with the length and CRC-32 of what
//! it inflates to; it does not look for the zlib level that made it. The writer emits the kept
//! stream while the record's subrecords still serialise to bytes of that length and CRC-32, and
//! recompresses only a record that changed. The level is searched lazily, at most once per
//! stream: when a changed record is recompressed, and when the model is shown (JSON, dump,
//! validation, comparison), where a kept stream reads as the level that reproduces it
//! ([`Compression::Zlib`]) or, when none does, as the stream itself ([`Compression::Kept`]).

use core::fmt;
use std::sync::OnceLock;

#[cfg(feature = "arbitrary")]
use super::zlib::deflate;
use super::zlib::{detect_level, inflate};

/// The zlib level a changed record is recompressed at when no level reproduces its stored stream
/// and no other record's level is known: level 9, which reproduces every compressed record of
/// the corpus (the Creation Kit's own choice, as far as the corpus shows).
pub const DEFAULT_LEVEL: u32 = 9;

/// How an opened record's data is stored.
///
/// Equality is by what the data means, not by representation: a [`Compression::Stored`] equals
/// [`Compression::Zlib`] at the level that reproduces its stream, or [`Compression::Kept`] with
/// the same stream when no level does (so a model read from a plugin equals the model read back
/// from its JSON).
#[derive(Debug, Clone)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Compression {
    /// Not compressed.
    None,
    /// zlib-compressed; C zlib at this level (0-9, default settings) reproduces the stream.
    Zlib {
        /// The compression level.
        level: u32,
    },
    /// zlib-compressed by something no zlib level reproduces: the stored stream is kept and
    /// written back as long as it still inflates to the record's subrecords.
    Kept {
        /// The stored zlib stream (after the 4-byte uncompressed size).
        stream: Vec<u8>,
    },
    /// zlib-compressed, as a read found it: the stored stream, written back while the record is
    /// unchanged; a changed record is recompressed (see [`StoredStream`]). In JSON it is
    /// [`Compression::Zlib`] or [`Compression::Kept`], whichever it resolves to.
    Stored(StoredStream),
}

/// What a [`Compression`] means: no compression, a level, or a stream no level reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved<'a> {
    /// Not compressed.
    None,
    /// zlib at this level.
    Level(u32),
    /// This stream, which no level reproduces.
    Kept(&'a [u8]),
}

impl Compression {
    /// What this compression means; for [`Compression::Stored`] this finds (once) the zlib level
    /// that reproduces the stream.
    pub fn resolve(&self) -> Resolved<'_> {
        match self {
            Compression::None => Resolved::None,
            Compression::Zlib { level } => Resolved::Level(*level),
            Compression::Kept { stream } => Resolved::Kept(stream),
            Compression::Stored(s) => s.level().map_or(Resolved::Kept(&s.stream), Resolved::Level),
        }
    }

    /// The zlib level: the given one, or the one that reproduces a stored stream (found once).
    /// `None` when uncompressed or when no level reproduces the stream.
    pub fn level(&self) -> Option<u32> {
        match self.resolve() {
            Resolved::Level(level) => Some(level),
            Resolved::None | Resolved::Kept(_) => None,
        }
    }
}

impl PartialEq for Compression {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Compression::None, Compression::None) => true,
            // Without this arm a stored stream would search its level just to differ from None.
            (Compression::None, _) | (_, Compression::None) => false,
            (Compression::Stored(a), Compression::Stored(b)) if a.stream == b.stream => true,
            _ => self.resolve() == other.resolve(),
        }
    }
}

/// A compressed record's stream as a read found it, with the length and CRC-32 of the bytes it
/// inflates to.
///
/// The writer compares a record's serialised subrecords with that length and CRC-32: equal, the
/// stream is written back as stored (no compression); different, the record is recompressed at
/// the level that reproduces this stream (searched then, once), else at the level of another
/// compressed record of the plugin, else at [`DEFAULT_LEVEL`]. A CRC-32 catches every change
/// confined to 32 consecutive bits and all but one in 2^32 of the others.
#[derive(Clone)]
pub struct StoredStream {
    stream: Vec<u8>,
    plain_len: usize,
    crc: u32,
    level: OnceLock<Option<u32>>,
}

impl StoredStream {
    /// Keeps `stream`, which inflates to `plain` (the caller has checked that it does).
    pub(crate) fn new(stream: Vec<u8>, plain: &[u8]) -> StoredStream {
        StoredStream {
            stream,
            plain_len: plain.len(),
            crc: crc32(plain),
            level: OnceLock::new(),
        }
    }

    /// The stored zlib stream (after the 4-byte uncompressed size).
    pub fn stream(&self) -> &[u8] {
        &self.stream
    }

    /// Whether `plain` is what the stream inflates to (by length and CRC-32).
    pub fn holds(&self, plain: &[u8]) -> bool {
        plain.len() == self.plain_len && crc32(plain) == self.crc
    }

    /// Whether the bytes `parts` make, one after the other, are what the stream inflates to (by
    /// length and CRC-32), without joining them.
    pub(crate) fn holds_parts<'p>(&self, parts: impl Iterator<Item = &'p [u8]>) -> bool {
        let mut crc = flate2::Crc::new();
        let mut len = 0usize;
        for part in parts {
            len = len.saturating_add(part.len());
            if len > self.plain_len {
                return false;
            }
            crc.update(part);
        }
        len == self.plain_len && crc.sum() == self.crc
    }

    /// The zlib level (0-9) that reproduces the stream, if one does; searched on the first call
    /// (one inflate and up to four deflates of this record), remembered after.
    pub fn level(&self) -> Option<u32> {
        *self.level.get_or_init(|| {
            inflate(&self.stream, self.plain_len)
                .ok()
                .and_then(|plain| detect_level(&plain, &self.stream))
        })
    }
}

impl fmt::Debug for StoredStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StoredStream")
            .field("stream_len", &self.stream.len())
            .field("plain_len", &self.plain_len)
            .field("crc", &format_args!("{:08x}", self.crc))
            .field("level", &self.level.get())
            .finish()
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for StoredStream {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let plain: Vec<u8> = u.arbitrary()?;
        // A level a read names first in its group, so the stream resolves to it.
        let level = *u.choose(&[1, 5, 6, 9])?;
        Ok(StoredStream::new(deflate(&plain, level), &plain))
    }
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = flate2::Crc::new();
    crc.update(data);
    crc.sum()
}

#[cfg(feature = "serde")]
mod json {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{Compression, Resolved};

    /// What JSON holds: a [`Compression::Stored`] is shown as what it resolves to.
    #[derive(Serialize)]
    #[serde(rename = "Compression")]
    enum Shown<'a> {
        None,
        Zlib {
            level: u32,
        },
        Kept {
            #[serde(serialize_with = "hex")]
            stream: &'a [u8],
        },
    }

    fn hex<S: Serializer>(bytes: &&[u8], s: S) -> Result<S::Ok, S::Error> {
        super::super::hex_bytes::serialize(bytes, s)
    }

    #[derive(Deserialize)]
    #[serde(rename = "Compression")]
    enum Read {
        None,
        Zlib {
            level: u32,
        },
        Kept {
            #[serde(with = "super::super::hex_bytes")]
            stream: Vec<u8>,
        },
    }

    impl Serialize for Compression {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self.resolve() {
                Resolved::None => Shown::None,
                Resolved::Level(level) => Shown::Zlib { level },
                Resolved::Kept(stream) => Shown::Kept { stream },
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Compression {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Ok(match Read::deserialize(d)? {
                Read::None => Compression::None,
                Read::Zlib { level } => Compression::Zlib { level },
                Read::Kept { stream } => Compression::Kept { stream },
            })
        }
    }
}
