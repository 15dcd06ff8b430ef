//! Lists whose records other records name by their position, described for the JSON tools.
//!
//! A format names some of its records by where they stand in a list (a Quake link's target node,
//! a Skyrim triangle's neighbours). Deleting a record from the middle of such a list in a JSON
//! document would silently re-point every later reference, so [`crate::Format::position_lists`]
//! describes those lists and the fields that refer into them, and the JSON tools
//! (`navkit_lib::positions`) write each record's position as a `"#"` key and renumber the
//! references when records were deleted, inserted or reordered.
//!
//! # Paths
//!
//! A path is a pattern over the model's JSON (as serde writes it), relative to the model, of
//! `.`-separated steps:
//!
//! - `name`: the field `name` of an object (an enum's variant in serde's external tagging is a
//!   field too: `custom.Terror.visible_areas`);
//! - `name[*]` (or a step `[*]` alone after an array): every element of an array;
//! - `**`: any number of steps, none included (a Skyrim plugin's navmeshes sit in groups nested
//!   to any depth: `**.navmesh.triangles`).
//!
//! A list and its references share a *scope*: the longest common prefix of their patterns. An
//! edge of `sections[*].edges[*].from` names a node of `sections[*].nodes` in the same section,
//! because both patterns start with `sections[*]`.
//!
//! ```
//! use nav_core::positions::{PositionList, Reference};
//!
//! static LISTS: &[PositionList] = &[PositionList::new(
//!     "nodes",
//!     "node",
//!     &[Reference::new("links[*].target"), Reference::new("links[*].via").none(&[0xFFFF])],
//! )];
//! assert_eq!(LISTS[0].refs[1].none, &[0xFFFF]);
//! ```
//!
//! # Records that are not objects
//!
//! A record written as an array or a string (a vertex `[x, y, z]`, a place name) cannot take a
//! key, so the JSON tools write it wrapped: `{"#": 12, "value": [x, y, z]}`. A format reads such
//! a list through [`records`] (or an element through [`Record`]), which take a record wrapped or
//! bare alike (with the `serde` feature).

/// The key that carries a record's position in the JSON tools' documents.
pub const KEY: &str = "#";

/// The key that holds a record written as an array or a string, next to [`KEY`].
pub const VALUE: &str = "value";

/// A list whose records other records name by position, and those references.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PositionList {
    /// The path of the list (`triangles`, `data_chunks[*].navigation_graph.nodes`).
    pub list: &'static str,
    /// What one record is called in messages (`triangle`).
    pub noun: &'static str,
    /// Every field that names a record of the list by its position.
    pub refs: &'static [Reference],
    /// When the list is cut into consecutive runs owned by the records of another list, those
    /// owners (a Fox Engine segment owns `navigation_graph_node_count` navigation-graph nodes).
    pub runs: Option<Runs>,
}

impl PositionList {
    /// A list at `list` whose records are called `noun`, named by `refs`.
    pub const fn new(list: &'static str, noun: &'static str, refs: &'static [Reference]) -> Self {
        PositionList {
            list,
            noun,
            refs,
            runs: None,
        }
    }

    /// The same list, cut into runs owned by the records of `owners`, each owner's field
    /// `count` holding its run's length.
    pub const fn runs(self, owners: &'static str, count: &'static str) -> Self {
        PositionList {
            runs: Some(Runs { owners, count }),
            ..self
        }
    }
}

/// The owners of a [`PositionList`]'s runs: the list holds the run of owner 0, then the run of
/// owner 1, and so on, each as long as its owner's `count` field says.
///
/// Renumbering keeps every record in the run it was in when the document was written (by its
/// `"#"`; a new record joins the run of the record before it), refuses a list whose runs are
/// no longer in their owners' order, and sets every owner's `count` to its run's new length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Runs {
    /// The path of the owners' list, in the list's scope
    /// (`data_chunks[*].segment_chunk.segments`).
    pub owners: &'static str,
    /// The owner's field holding the length of its run (`navigation_graph_node_count`).
    pub count: &'static str,
}

/// Whose run a run-local [`Reference`] counts from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// The owner whose position is the integer field of this name in the record holding the
    /// reference (the innermost object on the reference's path that has it): a Fox Engine
    /// mesh's `segment_index`.
    Field(&'static str),
    /// The owner whose position is the `n`th array index (from 0) on the reference's concrete
    /// path: segment-graph node `k` (`data_chunks[c].segment_graph.nodes[k]`, index 1) is
    /// segment `k`'s.
    Index(usize),
}

/// For a [`Reference`] into a list of another scope: which instance of the list it names, by a
/// field beside the reference matched against a field of the instance's scope record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Across {
    /// The integer beside the reference that names the instance: a field of the innermost
    /// record on the reference's path that has it (`data_chunk_id`), or a path from there
    /// where `[=]` takes the element at the reference's own index (a mesh's neighbour `k` is in
    /// the chunk `crossing.data_chunk_ids[=]`, element `k`).
    pub key: &'static str,
    /// The integer field of the instance's scope record that `key` matches (`uid`).
    pub scope_key: &'static str,
    /// The bits of `scope_key` that `key` holds (`0x7fff`: a chunk's id is its uid's index).
    pub mask: u64,
}

/// A field that names a record of a [`PositionList`] by its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reference {
    /// The path of the field (`links[*].target`, `triangles[*].edges[*]`).
    pub path: &'static str,
    /// Values that mean "no record" (`0xFFFF`, `-1`), left as they are.
    pub none: &'static [i64],
    /// The position is the value shifted right by this many bits; the bits below are kept (a
    /// Skyrim cover mapping packs `triangle << 2 | edge`). 0 for a plain index.
    pub shift: u32,
    /// The value (after the shift) that names the list's first record: 0, or 1 for a 1-based
    /// index (a Source area's `place`, where 0 means none).
    pub first: i64,
    /// Where the reference holds only sometimes, when it does.
    pub when: Option<Condition>,
    /// The reference names a record of some instance of the list, but which one the tools
    /// cannot tell (a Fox Engine mesh's neighbour in another data chunk, whose chunk id stands
    /// in a parallel list): an edit that changes the position of a record it may name is
    /// refused, rather than guessed.
    pub guarded: bool,
    /// For the first record of a run: the sibling field (in the same object) holding the run's
    /// length (a Quake node's `first_link` with `num_links`). The run is renumbered as a whole:
    /// it starts at the first surviving record and spans to the last one.
    pub count: Option<&'static str>,
    /// The value counts from the start of an owner's run (the list has [`Runs`]), not from the
    /// start of the list: a Fox Engine mesh's `positions` are its segment's.
    pub local: Option<Owner>,
    /// The reference may name the list of another scope (a node of another data chunk): the
    /// path is then matched from the model's root, and the instance chosen as [`Across`] says.
    pub across: Option<Across>,
}

/// When a [`Reference`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// The integer at `path` (relative to the model, no wildcards) is at least `min` (a Left 4
    /// Dead file names visible areas by position from sub-version 14).
    AtLeast {
        /// The path of the integer.
        path: &'static str,
        /// The least value at which the reference holds.
        min: i64,
    },
    /// The reference's own value lies in `min..max` (a Fox Engine mesh neighbour is a mesh of
    /// the same chunk below 0x4000, of another chunk from 0x4000 to 0x8000, where `first`
    /// takes the type bits off).
    Range {
        /// The least value at which the reference holds.
        min: i64,
        /// The value from which it no longer holds.
        max: i64,
    },
    /// The reference is element `k` of an array field of some record, and bit `k` of the
    /// record's integer field `field` is `set` (a Skyrim triangle's edge `k` names a triangle
    /// when flag bit `k` is clear, an edge link when it is set).
    Bit {
        /// The record's field holding the bits.
        field: &'static str,
        /// Whether the bit must be set (or clear) for the reference to hold.
        set: bool,
    },
}

impl Reference {
    /// A plain reference at `path`: every value is a position.
    pub const fn new(path: &'static str) -> Self {
        Reference {
            path,
            none: &[],
            shift: 0,
            first: 0,
            when: None,
            count: None,
            local: None,
            across: None,
            guarded: false,
        }
    }

    /// The same reference, with values meaning "no record".
    pub const fn none(self, none: &'static [i64]) -> Self {
        Reference { none, ..self }
    }

    /// The same reference, packed: the position is the value shifted right by `shift` bits.
    pub const fn shift(self, shift: u32) -> Self {
        Reference { shift, ..self }
    }

    /// The same reference, counting from `first`: the value that names the list's first record.
    pub const fn first(self, first: i64) -> Self {
        Reference { first, ..self }
    }

    /// The same reference, holding only when `when` does.
    pub const fn when(self, when: Condition) -> Self {
        Reference {
            when: Some(when),
            ..self
        }
    }

    /// The same reference, counting from the start of the run of `owner` (see [`Runs`]).
    pub const fn local(self, owner: Owner) -> Self {
        Reference {
            local: Some(owner),
            ..self
        }
    }

    /// The same reference, into the instance of the list whose scope record's field
    /// `scope_key`, masked by `mask`, equals the field `key` beside the reference.
    pub const fn across(self, key: &'static str, scope_key: &'static str, mask: u64) -> Self {
        Reference {
            across: Some(Across {
                key,
                scope_key,
                mask,
            }),
            ..self
        }
    }

    /// The same reference, guarded rather than renumbered: see [`Reference::guarded`].
    pub const fn guarded(self) -> Self {
        Reference {
            guarded: true,
            ..self
        }
    }

    /// The same reference, as the start of a run whose length is the sibling field `count`.
    pub const fn count(self, count: &'static str) -> Self {
        Reference {
            count: Some(count),
            ..self
        }
    }
}

#[cfg(feature = "serde")]
pub use self::serde_records::{Record, records};

/// Reading records that the JSON tools may have wrapped as `{"#": n, "value": record}`.
#[cfg(feature = "serde")]
mod serde_records {
    use core::fmt;
    use core::marker::PhantomData;

    use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
    use serde::de::{
        self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
    };
    use serde::{Deserialize, Serialize, Serializer};

    use super::{KEY, VALUE};

    /// One record of a position list, read bare or wrapped (`{"#": 3, "value": "Bombsite"}`);
    /// the `"#"` is left to the JSON tools, which renumber by it before the model is read.
    /// Written bare.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
    pub struct Record<T>(pub T);

    impl<T: Serialize> Serialize for Record<T> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.0.serialize(s)
        }
    }

    impl<'de, T: Deserialize<'de>> Deserialize<'de> for Record<T> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(RecordVisitor(PhantomData)).map(Record)
        }
    }

    /// serde's `deserialize_with` for a list of records that may be wrapped: `[[1, 2, 3],
    /// {"#": 1, "value": [4, 5, 6]}]` reads as two records.
    ///
    /// ```
    /// #[derive(serde::Deserialize)]
    /// struct Mesh {
    ///     #[serde(deserialize_with = "nav_core::positions::records")]
    ///     vertices: Vec<[f32; 3]>,
    /// }
    /// let m: Mesh = serde_json::from_str(
    ///     r##"{"vertices": [[1, 2, 3], {"#": 1, "value": [4, 5, 6]}]}"##,
    /// )?;
    /// assert_eq!(m.vertices, [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn records<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: Deserialize<'de>,
    {
        d.deserialize_seq(ListVisitor(PhantomData))
    }

    struct ListVisitor<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for ListVisitor<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list of records")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            // The hint comes from the input: trusted only up to a modest size.
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
            while let Some(Record(r)) = seq.next_element::<Record<T>>()? {
                out.push(r);
            }
            Ok(out)
        }
    }

    struct RecordVisitor<T>(PhantomData<T>);

    /// Bare scalars go to the record's own reading.
    macro_rules! bare {
        ($($name:ident($ty:ty);)*) => {
            $(
                fn $name<E: de::Error>(self, v: $ty) -> Result<T, E> {
                    T::deserialize(de::IntoDeserializer::<E>::into_deserializer(v))
                }
            )*
        };
    }

    impl<'de, T: Deserialize<'de>> Visitor<'de> for RecordVisitor<T> {
        type Value = T;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a record, or {\"#\": position, \"value\": record}")
        }

        bare! {
            visit_bool(bool);
            visit_i64(i64);
            visit_u64(u64);
            visit_f64(f64);
            visit_string(String);
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
            T::deserialize(de::IntoDeserializer::<E>::into_deserializer(v))
        }

        fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<T, E> {
            T::deserialize(de::value::BorrowedStrDeserializer::new(v))
        }

        fn visit_unit<E: de::Error>(self) -> Result<T, E> {
            T::deserialize(de::IntoDeserializer::<E>::into_deserializer(()))
        }

        fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
            T::deserialize(SeqAccessDeserializer::new(seq))
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
            let Some(first) = map.next_key::<String>()? else {
                return T::deserialize(MapAccessDeserializer::new(Replay { first: None, map }));
            };
            if first != KEY && first != VALUE {
                // An object that is the record itself (a byte string's object form).
                let first = Some(first);
                return T::deserialize(MapAccessDeserializer::new(Replay { first, map }));
            }
            let mut value = None;
            let mut key = Some(first);
            while let Some(k) = key {
                if k == VALUE {
                    if value.is_some() {
                        return Err(de::Error::duplicate_field(VALUE));
                    }
                    value = Some(map.next_value::<T>()?);
                } else if k == KEY {
                    map.next_value::<IgnoredAny>()?;
                } else {
                    return Err(de::Error::unknown_field(&k, &[KEY, VALUE]));
                }
                key = map.next_key::<String>()?;
            }
            value.ok_or_else(|| de::Error::missing_field(VALUE))
        }
    }

    /// A map whose first key was read already.
    struct Replay<A> {
        first: Option<String>,
        map: A,
    }

    impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<A> {
        type Error = A::Error;

        fn next_key_seed<K: DeserializeSeed<'de>>(
            &mut self,
            seed: K,
        ) -> Result<Option<K::Value>, A::Error> {
            match self.first.take() {
                Some(k) => seed
                    .deserialize(de::IntoDeserializer::<A::Error>::into_deserializer(k))
                    .map(Some),
                None => self.map.next_key_seed(seed),
            }
        }

        fn next_value_seed<V: DeserializeSeed<'de>>(
            &mut self,
            seed: V,
        ) -> Result<V::Value, A::Error> {
            self.map.next_value_seed(seed)
        }
    }
}
