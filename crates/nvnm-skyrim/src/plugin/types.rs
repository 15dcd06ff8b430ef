//! The names every part of the plugin format shares, below all of them: the format name, the
//! record flags and walk limits, [`Signature`], and the hex form of raw bytes in JSON.
//! [`super`] re-exports them.

use core::fmt;

/// The format name errors carry.
pub const FORMAT: &str = "skyrim-plugin";

/// The record flag of zlib-compressed data.
pub const COMPRESSED: u32 = 0x0004_0000;

/// The record flag of a deleted record.
pub const DELETED: u32 = 0x0000_0020;

/// Groups nest at most this deep (Skyrim's own files nest 6 deep).
pub const MAX_DEPTH: usize = 32;

/// The largest uncompressed size of one record the walk inflates (16 MiB; the largest known
/// navmesh record is under 1 MiB).
pub const MAX_INFLATED_RECORD: usize = 16 << 20;

/// The most the walk inflates in one file: this, or 16 times the file's size if that is more
/// (real navmesh data compresses 2 to 4 times; a master file's navmeshes need the room).
pub const MAX_INFLATED_TOTAL: usize = 64 << 20;

/// A four-byte record or subrecord type. Shown, and serialised, as text (`"NAVM"`) when all four
/// bytes are printable ASCII, as `"0x…"` hex of the little-endian value otherwise.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Signature(pub [u8; 4]);

impl Signature {
    fn is_text(&self) -> bool {
        self.0.iter().all(|b| (0x20..0x7f).contains(b)) && !self.0.starts_with(b"0x")
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_text() {
            self.0
                .iter()
                .try_for_each(|&b| fmt::Write::write_char(f, char::from(b)))
        } else {
            write!(f, "{:#010x}", u32::from_le_bytes(self.0))
        }
    }
}

impl fmt::Debug for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

impl core::str::FromStr for Signature {
    type Err = String;

    fn from_str(s: &str) -> core::result::Result<Self, String> {
        if let Some(hex) = s.strip_prefix("0x") {
            if hex.len() == 8 {
                if let Ok(v) = u32::from_str_radix(hex, 16) {
                    return Ok(Signature(v.to_le_bytes()));
                }
            }
        }
        match <[u8; 4]>::try_from(s.as_bytes()) {
            Ok(b) if Signature(b).is_text() => Ok(Signature(b)),
            _ => Err(format!(
                "signature {s:?} is neither 4 printable ASCII characters nor 0x and 8 hex digits"
            )),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Signature {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Signature {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Serde for raw bytes as one lowercase hex string (`"4544494403"`), which reads far better in
/// JSON than an array of numbers; an array of numbers is accepted too.
#[cfg(feature = "serde")]
pub(crate) mod hex_bytes {
    use core::fmt;

    use serde::de::{self, SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(bytes: &[u8], s: S) -> Result<S::Ok, S::Error> {
        let mut text = String::with_capacity(bytes.len() * 2);
        for b in bytes {
            text.push(char::from(b"0123456789abcdef"[usize::from(b >> 4)]));
            text.push(char::from(b"0123456789abcdef"[usize::from(b & 15)]));
        }
        s.serialize_str(&text)
    }

    struct HexVisitor;

    impl<'de> Visitor<'de> for HexVisitor {
        type Value = Vec<u8>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string of hex digits, or an array of bytes")
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<Vec<u8>, E> {
            if v.len() % 2 != 0 {
                return Err(E::custom("hex bytes need an even number of digits"));
            }
            let digit = |c: u8| -> Result<u8, E> {
                (c as char)
                    .to_digit(16)
                    .and_then(|d| u8::try_from(d).ok())
                    .ok_or_else(|| E::custom(format!("{:?} is not a hex digit", c as char)))
            };
            v.as_bytes()
                .chunks(2)
                .map(|pair| match pair {
                    [hi, lo] => Ok(digit(*hi)? << 4 | digit(*lo)?),
                    _ => Err(E::custom("hex bytes need an even number of digits")),
                })
                .collect()
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u8>, A::Error> {
            let mut out = Vec::new();
            while let Some(b) = seq.next_element::<u8>()? {
                out.push(b);
            }
            Ok(out)
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_any(HexVisitor)
    }
}
