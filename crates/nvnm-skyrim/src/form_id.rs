//! FormIDs in JSON: written as 8-digit hex strings, the way xEdit and the Creation Kit show them
//! (`"0410E930"`); read back from such a string (1 to 8 hex digits, either case) or from a
//! number, as older documents hold them.
//!
//! The model keeps FormIDs as plain `u32`; the fields that hold one name these helpers in their
//! `serde(with = …)`: [`one`] for a `u32`, [`list`] for a `Vec<u32>`, [`lists`] for a
//! `Vec<Vec<u32>>`.

use core::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// One FormID, as serde sees it: a hex string out, a string or a number in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormId(pub u32);

impl Serialize for FormId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&format_args!("{:08X}", self.0))
    }
}

/// What a FormID is read from.
struct FormIdVisitor;

impl Visitor<'_> for FormIdVisitor {
    type Value = FormId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a FormID: a string of up to 8 hex digits such as \"0410E930\", or a number")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<FormId, E> {
        u32::try_from(v)
            .map(FormId)
            .map_err(|_| E::invalid_value(de::Unexpected::Unsigned(v), &self))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<FormId, E> {
        u32::try_from(v)
            .map(FormId)
            .map_err(|_| E::invalid_value(de::Unexpected::Signed(v), &self))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<FormId, E> {
        let hex = !v.is_empty() && v.len() <= 8 && v.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| u32::from_str_radix(v, 16).ok())
            .flatten()
            .map(FormId)
            .ok_or_else(|| E::invalid_value(de::Unexpected::Str(v), &self))
    }
}

impl<'de> Deserialize<'de> for FormId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FormId, D::Error> {
        d.deserialize_any(FormIdVisitor)
    }
}

/// A `u32` FormID field.
pub mod one {
    use super::*;

    /// Writes the FormID as 8 hex digits.
    pub fn serialize<S: Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
        FormId(*v).serialize(s)
    }

    /// Reads a FormID from hex digits or a number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        FormId::deserialize(d).map(|f| f.0)
    }
}

/// A `Vec<u32>` of FormIDs.
pub mod list {
    use super::*;

    /// Writes each FormID as 8 hex digits.
    pub fn serialize<S: Serializer>(v: &[u32], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|f| FormId(*f)))
    }

    /// Reads a list of FormIDs, each from hex digits or a number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        d.deserialize_seq(ListVisitor)
    }

    /// What a list of FormIDs is read from.
    pub(super) struct ListVisitor;

    impl<'de> Visitor<'de> for ListVisitor {
        type Value = Vec<u32>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of FormIDs")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<u32>, A::Error> {
            // The size hint of a document is not trusted for more than a small reservation.
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
            while let Some(f) = seq.next_element::<FormId>()? {
                out.push(f.0);
            }
            Ok(out)
        }
    }
}

/// A `Vec<Vec<u32>>` of FormID lists.
pub mod lists {
    use super::*;

    /// One list, for serde.
    struct List<'a>(&'a [u32]);

    impl Serialize for List<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::list::serialize(self.0, s)
        }
    }

    /// One list read back.
    struct Owned(Vec<u32>);

    impl<'de> Deserialize<'de> for Owned {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Owned, D::Error> {
            super::list::deserialize(d).map(Owned)
        }
    }

    /// Writes each list of FormIDs as 8-digit hex strings.
    pub fn serialize<S: Serializer>(v: &[Vec<u32>], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|l| List(l.as_slice())))
    }

    /// Reads lists of FormIDs, each from hex digits or a number.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<u32>>, D::Error> {
        Ok(Vec::<Owned>::deserialize(d)?
            .into_iter()
            .map(|l| l.0)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Doc {
        #[serde(with = "one")]
        id: u32,
        #[serde(with = "list")]
        ids: Vec<u32>,
        #[serde(with = "lists")]
        paths: Vec<Vec<u32>>,
    }

    #[test]
    fn form_ids_are_hex_out_and_hex_or_numbers_in() {
        let doc = Doc {
            id: 0x0410_E930,
            ids: vec![0x0001_2345, 0],
            paths: vec![vec![0xFF00_0001], vec![]],
        };
        let json = serde_json::to_string(&doc).unwrap();
        assert_eq!(
            json,
            r#"{"id":"0410E930","ids":["00012345","00000000"],"paths":[["FF000001"],[]]}"#
        );
        assert_eq!(serde_json::from_str::<Doc>(&json).unwrap(), doc);
        let numbers = r#"{"id":68217136,"ids":[74565,"0"],"paths":[[4278190081],[]]}"#;
        assert_eq!(serde_json::from_str::<Doc>(numbers).unwrap(), doc);
        let lower = r#"{"id":"0410e930","ids":["12345","00000000"],"paths":[["ff000001"],[]]}"#;
        assert_eq!(serde_json::from_str::<Doc>(lower).unwrap(), doc);
        for bad in [
            r#""0x0410E930""#,
            r#""10E93G""#,
            r#""123456789""#,
            r#""""#,
            "-1",
            "4294967296",
            "1.5",
        ] {
            let text = format!(r#"{{"id":{bad},"ids":[],"paths":[]}}"#);
            let e = serde_json::from_str::<Doc>(&text).unwrap_err().to_string();
            assert!(e.contains("expected a FormID"), "{bad}: {e}");
        }
    }
}
