//! The streaming pre-scan of a document: whether any record of a position list carries a `"#"`
//! other than its position, or a list has fewer records than its count key says (records
//! deleted from its end), which means the document must be renumbered before it is read.
//!
//! It reads the document once with serde_json, skipping every value that no list pattern can
//! reach, and stops at the first `"#"` that is not its record's position.

use std::fmt;

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

use super::path::{Cursor, Seg, counted_list};
use nav_core::positions::KEY;

/// Whether the document that `de` reads holds a record of one of `lists` whose `"#"` is not its
/// position (or not a number). A document that is not JSON answers `false`: reading it then
/// gives the error.
pub(crate) fn needs_renumbering<'de, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
    lists: &[nav_core::positions::PositionList],
) -> bool {
    if lists.is_empty() {
        return false;
    }
    let mut state = State {
        walk: Cursor::new(lists),
        found: false,
    };
    // An error is either the stop at a moved record (`found`) or a document that does not read.
    let _ = Document { st: &mut state }.deserialize(&mut de);
    state.found
}

struct State {
    walk: Cursor,
    found: bool,
}

impl State {
    /// Records that the document must be renumbered, and stops the scan there.
    fn moved<E: de::Error>(&mut self) -> E {
        self.found = true;
        E::custom("a record moved")
    }
}

/// The top-level object: its `"model"` is walked, the rest skipped.
struct Document<'s> {
    st: &'s mut State,
}

impl<'de> DeserializeSeed<'de> for Document<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for Document<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a document object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "model" {
                map.next_value_seed(Walk {
                    st: &mut *self.st,
                    record: None,
                })?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(())
    }
}

/// A value at the state's path; `record` is its position when it is a record of a list.
struct Walk<'s> {
    st: &'s mut State,
    record: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        let viable = self.st.walk.viable();
        if !viable && self.record.is_none() {
            return IgnoredAny::deserialize(d).map(|_| ());
        }
        d.deserialize_any(WalkVisitor {
            st: self.st,
            record: self.record,
            viable,
        })
    }
}

/// An element of an array: its index goes on the path while it is read.
struct Element<'s> {
    st: &'s mut State,
    index: usize,
    record: bool,
}

impl<'de> DeserializeSeed<'de> for Element<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        self.st.walk.path.push(Seg::Index(self.index));
        let record = self.record.then_some(self.index);
        let out = Walk {
            st: &mut *self.st,
            record,
        }
        .deserialize(d);
        self.st.walk.path.pop();
        out
    }
}

struct WalkVisitor<'s> {
    st: &'s mut State,
    record: Option<usize>,
    viable: bool,
}

/// Scalars say nothing about positions.
macro_rules! scalars {
    ($($name:ident($ty:ty);)*) => {
        $(
            fn $name<E: de::Error>(self, _v: $ty) -> Result<(), E> {
                Ok(())
            }
        )*
    };
}

impl<'de> Visitor<'de> for WalkVisitor<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    scalars! {
        visit_bool(bool);
        visit_i64(i64);
        visit_u64(u64);
        visit_f64(f64);
        visit_str(&str);
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        // The lengths of this object's lists, and their count keys, in either order.
        let mut lengths: Vec<(String, usize)> = Vec::new();
        let mut counts: Vec<(String, serde_json::Value)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if let (Some(i), true) = (self.record, key == KEY) {
                let hash: serde_json::Value = map.next_value()?;
                if hash.as_u64() != u64::try_from(i).ok() {
                    return Err(self.st.moved());
                }
            } else if let (true, Some(list)) = (self.viable, counted_list(&key)) {
                counts.push((list.to_string(), map.next_value()?));
            } else if self.viable {
                self.st.walk.path.push(Seg::Owned(key));
                self.st.walk.counted = None;
                let out = map.next_value_seed(Walk {
                    st: &mut *self.st,
                    record: None,
                });
                let list = self.st.walk.is_list();
                let key = self.st.walk.path.pop();
                out?;
                if let (true, Some(n), Some(Seg::Owned(key))) = (list, self.st.walk.counted, key) {
                    lengths.push((key, n));
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        for (list, count) in counts {
            let n = lengths.iter().find(|(k, _)| *k == list).map(|&(_, n)| n);
            if n.and_then(|n| u64::try_from(n).ok()) != count.as_u64() {
                return Err(self.st.moved());
            }
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if !self.viable {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            return Ok(());
        }
        let record = self.st.walk.is_list();
        let mut index = 0;
        while seq
            .next_element_seed(Element {
                st: &mut *self.st,
                index,
                record,
            })?
            .is_some()
        {
            index += 1;
        }
        self.st.walk.counted = Some(index);
        Ok(())
    }
}
