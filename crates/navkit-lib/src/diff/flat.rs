//! [`Flat`]: a model serialised through serde into one compact byte string, the form
//! [`super::diff_flat`] compares.
//!
//! Each value is a tag byte and its payload:
//!
//! | tag | value | payload |
//! |---|---|---|
//! | [`UNIT`], [`FALSE`], [`TRUE`] | `()`/`None`, booleans | none |
//! | [`INT`], [`UINT`] | integers up to 64 bits | zigzag / plain LEB128 |
//! | [`WIDE`] | 128-bit integers | 16 bytes |
//! | [`F32`], [`F64`] | floats, by their bits | 4 / 8 bytes |
//! | [`STR`], [`BYTES`] | text, raw bytes | LEB128 length, the bytes |
//! | [`SEQ`] | sequences, tuples | LEB128 length of the elements in bytes, the elements |
//! | [`MAP`] | structs, maps | LEB128 length in bytes, then per field its name and value |
//! | [`TAG`] | a unit variant | its name |
//! | [`VARIANT`] | a variant with content | its name, the content |
//!
//! Names (struct fields, map keys, variants) are LEB128 indices into the flat's table of names,
//! interned by content. The encoding mirrors [`super::Tree`] exactly: two values have the same
//! bytes, under one table of names, exactly when their trees are equal, so an unchanged record
//! is skipped with one comparison of its bytes. A compound value's length in bytes lets a
//! reader step over it without decoding it.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::ser::{self, Serialize};

use super::tree::{Tree, TreeError, key_text};

use super::tags::{
    BYTES, F32, F64, FALSE, INT, MAP, SEQ, STR, TAG, TRUE, UINT, UNIT, VARIANT, WIDE,
};

/// A model serialised compactly for [`super::diff_flat`]: a fraction of the memory of a
/// [`Tree`] of the same model (about the size of the file it came from, twice at most), built
/// in one pass with no allocation per value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flat {
    /// The encoded root value.
    pub(super) bytes: Vec<u8>,
    /// The names the bytes refer to by index.
    pub(super) names: Vec<Cow<'static, str>>,
}

impl Flat {
    /// The flat form of any serialisable value.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Flat, String> {
        Encoder::new(Names::default()).encode(value)
    }

    /// The flat form of `value`, numbering names as `self` does, so that comparing the two is
    /// one comparison of bytes where they are equal: the way to serialise the second model of a
    /// pair (flats numbered apart are still compared correctly, after renumbering one).
    pub fn next<T: Serialize + ?Sized>(&self, value: &T) -> Result<Flat, String> {
        Encoder::new(Names::from(&self.names)).encode(value)
    }

    /// The flat form of a [`Tree`]; [`Flat::next`] for a tree with `previous`'s numbering.
    pub fn of_tree(tree: &Tree, previous: Option<&Flat>) -> Result<Flat, String> {
        let names = previous.map_or_else(Names::default, |p| Names::from(&p.names));
        let mut e = Encoder::new(names);
        e.tree(tree).map_err(|e| e.0)?;
        Ok(e.finish())
    }

    /// How many bytes the encoded value takes.
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// Whether nothing was encoded (never, for a flat made by [`Flat::of`]).
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// `other` renumbered so that its names extend `self`'s table: `other` itself when they do
    /// already (the usual case, [`Flat::next`]).
    pub(super) fn aligned<'o>(&self, other: &'o Flat) -> Result<Cow<'o, Flat>, String> {
        if other.names.starts_with(&self.names) {
            return Ok(Cow::Borrowed(other));
        }
        let mut e = Encoder::new(Names::from(&self.names));
        e.recode(&other.bytes, &other.names)?;
        Ok(Cow::Owned(e.finish()))
    }
}

/// The table of names being built, interned by content, with a small cache by address for the
/// `&'static str` field names serde hands over (the same few, millions of times).
struct Names {
    list: Vec<Cow<'static, str>>,
    index: HashMap<Cow<'static, str>, u32>,
    cache: Box<[(usize, usize, u32); CACHE_SLOTS]>,
}

/// Slots in [`Names::cache`]: enough that the few dozen field names of a model rarely share one.
const CACHE_SLOTS: usize = 1024;

impl Default for Names {
    fn default() -> Self {
        Names {
            list: Vec::new(),
            index: HashMap::new(),
            cache: Box::new([(0, 0, 0); CACHE_SLOTS]),
        }
    }
}

impl From<&Vec<Cow<'static, str>>> for Names {
    fn from(list: &Vec<Cow<'static, str>>) -> Self {
        let mut names = Names::default();
        for name in list {
            // A table made by `Names` has no repeats; interning keeps the indices.
            names.intern(name.clone());
        }
        names
    }
}

impl Names {
    fn intern(&mut self, name: Cow<'static, str>) -> u32 {
        if let Some(&i) = self.index.get(name.as_ref()) {
            return i;
        }
        // More names than a u32 counts cannot fit in memory: saturating is unreachable.
        let i = u32::try_from(self.list.len()).unwrap_or(u32::MAX);
        self.list.push(name.clone());
        self.index.insert(name, i);
        i
    }

    #[inline]
    fn of_static(&mut self, name: &'static str) -> u32 {
        let (addr, len) = (name.as_ptr().addr(), name.len());
        // Fibonacci hashing of the address: the top bits pick the slot.
        let hash = ((addr ^ len) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54;
        let slot = usize::try_from(hash).unwrap_or(0) % CACHE_SLOTS;
        if let Some(&(a, l, i)) = self.cache.get(slot) {
            if a == addr && l == len {
                return i;
            }
        }
        let i = self.intern(Cow::Borrowed(name));
        if let Some(s) = self.cache.get_mut(slot) {
            *s = (addr, len, i);
        }
        i
    }
}

/// Serialises into a [`Flat`].
struct Encoder {
    out: Vec<u8>,
    names: Names,
}

#[inline]
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v.to_le_bytes()[0] | 0x80);
        v >>= 7;
    }
    out.push(v.to_le_bytes()[0]);
}

impl Encoder {
    fn new(names: Names) -> Self {
        Encoder {
            out: Vec::new(),
            names,
        }
    }

    fn encode<T: Serialize + ?Sized>(mut self, value: &T) -> Result<Flat, String> {
        value.serialize(&mut self).map_err(|e| e.0)?;
        Ok(self.finish())
    }

    fn finish(mut self) -> Flat {
        self.out.shrink_to_fit();
        Flat {
            bytes: self.out,
            names: self.names.list,
        }
    }

    #[inline]
    fn name(&mut self, index: u32) {
        put_varint(&mut self.out, index.into());
    }

    fn int(&mut self, v: i64) {
        self.out.push(INT);
        put_varint(
            &mut self.out,
            u64::from_le_bytes(((v << 1) ^ (v >> 63)).to_le_bytes()),
        );
    }

    fn uint(&mut self, v: u64) {
        self.out.push(UINT);
        put_varint(&mut self.out, v);
    }

    fn wide(&mut self, v: i128) {
        self.out.push(WIDE);
        self.out.extend_from_slice(&v.to_le_bytes());
    }

    fn text(&mut self, tag: u8, b: &[u8]) {
        self.out.push(tag);
        put_varint(&mut self.out, b.len() as u64);
        self.out.extend_from_slice(b);
    }

    /// Starts a sequence or map: its tag and one byte of room for its length; returns where
    /// the length goes.
    fn open(&mut self, variant: Option<&'static str>, tag: u8) -> usize {
        if let Some(v) = variant {
            self.out.push(VARIANT);
            let i = self.names.of_static(v);
            self.name(i);
        }
        self.out.push(tag);
        let at = self.out.len();
        self.out.push(0);
        at
    }

    /// Ends the sequence or map opened at `at`: writes its length, moving its contents along
    /// when the length takes more than the byte kept for it (only for values of 128 bytes or
    /// more, whose contents then move by a byte or two).
    fn close(&mut self, at: usize) -> Result<(), TreeError> {
        let n = self.out.len().saturating_sub(at + 1);
        if let (Ok(small), Some(slot)) = (u8::try_from(n), self.out.get_mut(at)) {
            if small < 0x80 {
                *slot = small;
                return Ok(());
            }
        }
        let mut length = Vec::with_capacity(10);
        put_varint(&mut length, n as u64);
        if at < self.out.len() {
            self.out.splice(at..=at, length).for_each(drop);
        }
        Ok(())
    }

    /// Encodes a [`Tree`] as its serialisation would be encoded.
    fn tree(&mut self, t: &Tree) -> Result<(), TreeError> {
        match t {
            Tree::Unit => self.out.push(UNIT),
            Tree::Bool(v) => self.out.push(if *v { TRUE } else { FALSE }),
            Tree::Int(v) => self.int(*v),
            Tree::Uint(v) => self.uint(*v),
            Tree::Wide(v) => self.wide(**v),
            Tree::F32(bits) => {
                self.out.push(F32);
                self.out.extend_from_slice(&bits.to_le_bytes());
            }
            Tree::F64(bits) => {
                self.out.push(F64);
                self.out.extend_from_slice(&bits.to_le_bytes());
            }
            Tree::Str(s) => self.text(STR, s.as_bytes()),
            Tree::Bytes(b) => self.text(BYTES, b),
            Tree::Seq(items) => {
                let at = self.open(None, SEQ);
                for item in items {
                    self.tree(item)?;
                }
                self.close(at)?;
            }
            Tree::Map(fields) => {
                let at = self.open(None, MAP);
                for (k, v) in fields {
                    let i = self.names.intern(k.clone());
                    self.name(i);
                    self.tree(v)?;
                }
                self.close(at)?;
            }
            Tree::Tag(v) => {
                self.out.push(TAG);
                let i = self.names.of_static(v);
                self.name(i);
            }
            Tree::Variant(v) => {
                self.out.push(VARIANT);
                let i = self.names.of_static(v.0);
                self.name(i);
                self.tree(&v.1)?;
            }
        }
        Ok(())
    }

    /// Copies the encoded value `src`, whose names index `names`, renumbering its names into
    /// this encoder's table.
    fn recode(&mut self, src: &[u8], names: &[Cow<'static, str>]) -> Result<(), String> {
        let bad = || "a damaged flat value".to_string();
        let value = super::read::Value::at(src).ok_or_else(bad)?;
        let rename = |e: &mut Encoder, i: u32| -> Result<(), String> {
            let name = names
                .get(usize::try_from(i).map_err(|_| bad())?)
                .ok_or_else(bad)?;
            let j = e.names.intern(name.clone());
            e.name(j);
            Ok(())
        };
        match value.tag() {
            SEQ => {
                let at = self.open(None, SEQ);
                for item in value.items() {
                    self.recode(item.raw(), names)?;
                }
                self.close(at).map_err(|e| e.0)?;
            }
            MAP => {
                let at = self.open(None, MAP);
                for (k, v) in value.fields() {
                    rename(self, k)?;
                    self.recode(v.raw(), names)?;
                }
                self.close(at).map_err(|e| e.0)?;
            }
            TAG => {
                self.out.push(TAG);
                rename(self, value.name().ok_or_else(bad)?)?;
            }
            VARIANT => {
                let (name, inner) = value.variant().ok_or_else(bad)?;
                self.out.push(VARIANT);
                rename(self, name)?;
                self.recode(inner.raw(), names)?;
            }
            _ => self.out.extend_from_slice(value.raw()),
        }
        Ok(())
    }
}

/// A compound value being serialised.
struct Compound<'e> {
    e: &'e mut Encoder,
    at: usize,
    key: Option<u32>,
}

impl<'e> ser::Serializer for &'e mut Encoder {
    type Ok = ();
    type Error = TreeError;
    type SerializeSeq = Compound<'e>;
    type SerializeTuple = Compound<'e>;
    type SerializeTupleStruct = Compound<'e>;
    type SerializeTupleVariant = Compound<'e>;
    type SerializeMap = Compound<'e>;
    type SerializeStruct = Compound<'e>;
    type SerializeStructVariant = Compound<'e>;

    fn serialize_bool(self, v: bool) -> Result<(), TreeError> {
        self.out.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), TreeError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), TreeError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), TreeError> {
        self.int(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), TreeError> {
        self.int(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), TreeError> {
        self.wide(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), TreeError> {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), TreeError> {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), TreeError> {
        self.uint(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), TreeError> {
        self.uint(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), TreeError> {
        let v = i128::try_from(v).map_err(|_| TreeError("a u128 past i128".into()))?;
        self.wide(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), TreeError> {
        self.out.push(F32);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), TreeError> {
        self.out.push(F64);
        self.out.extend_from_slice(&v.to_bits().to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), TreeError> {
        self.text(STR, v.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), TreeError> {
        self.text(STR, v.as_bytes());
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), TreeError> {
        self.text(BYTES, v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), TreeError> {
        self.out.push(UNIT);
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), TreeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), TreeError> {
        self.out.push(UNIT);
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), TreeError> {
        self.out.push(UNIT);
        Ok(())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), TreeError> {
        self.out.push(TAG);
        let i = self.names.of_static(variant);
        self.name(i);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), TreeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), TreeError> {
        self.out.push(VARIANT);
        let i = self.names.of_static(variant);
        self.name(i);
        value.serialize(self)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'e>, TreeError> {
        let at = self.open(None, SEQ);
        Ok(Compound {
            e: self,
            at,
            key: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'e>, TreeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'e>, TreeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'e>, TreeError> {
        let at = self.open(Some(variant), SEQ);
        Ok(Compound {
            e: self,
            at,
            key: None,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'e>, TreeError> {
        let at = self.open(None, MAP);
        Ok(Compound {
            e: self,
            at,
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'e>, TreeError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'e>, TreeError> {
        let at = self.open(Some(variant), MAP);
        Ok(Compound {
            e: self,
            at,
            key: None,
        })
    }
}

/// The four sequence-like serde traits, all appending elements to a [`Compound`].
macro_rules! seq_impl {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = TreeError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
                value.serialize(&mut *self.e)
            }
            fn end(self) -> Result<(), TreeError> {
                self.e.close(self.at)
            }
        }
    )*};
}

seq_impl!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = TreeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), TreeError> {
        let text = key_text(Tree::of(key).map_err(TreeError)?)?;
        self.key = Some(self.e.names.intern(text));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| TreeError("a map value without a key".into()))?;
        self.e.name(key);
        value.serialize(&mut *self.e)
    }
    fn end(self) -> Result<(), TreeError> {
        self.e.close(self.at)
    }
}

/// Struct fields, of a struct or of a struct variant.
macro_rules! struct_impl {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = TreeError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), TreeError> {
                let i = self.e.names.of_static(key);
                self.e.name(i);
                value.serialize(&mut *self.e)
            }
            fn end(self) -> Result<(), TreeError> {
                self.e.close(self.at)
            }
        }
    )*};
}

struct_impl!(SerializeStruct, SerializeStructVariant);
