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
        Flat::with_room(value, 0)
    }

    /// [`Flat::of`] into a buffer with room for `room` bytes from the start. A flat that has to
    /// grow is copied as it grows, the old and new buffers both held for a moment; one made
    /// with room for all of it is not: for `navkit diff` of a 4 MB Source map (whose flat is
    /// about 1.75× the file) room for twice the file's bytes takes the peak from about 31.5 to
    /// 27.5 MiB. Room left over is given back at the end.
    pub fn with_room<T: Serialize + ?Sized>(value: &T, room: usize) -> Result<Flat, String> {
        Encoder::with_capacity(Names::default(), room).encode(value)
    }

    /// The room [`Flat::with_room`] should have for the model of a file of `file_bytes` bytes:
    /// twice them (the flat of a Source map is about 1.75× its file).
    pub fn room_for(file_bytes: usize) -> usize {
        file_bytes.saturating_mul(2)
    }

    /// The flat form of `value`, numbering names as `self` does, so that comparing the two is
    /// one comparison of bytes where they are equal: the way to serialise the second model of a
    /// pair (flats numbered apart are still compared correctly, after renumbering one).
    pub fn next<T: Serialize + ?Sized>(&self, value: &T) -> Result<Flat, String> {
        // The second model of a pair is about the size of the first: room for it, and a
        // little more, saves the copies of a growing buffer.
        let room = self.bytes.len().saturating_add(self.bytes.len() / 16);
        Encoder::with_capacity(Names::from(&self.names), room).encode(value)
    }

    /// The flat form of a [`Tree`]; [`Flat::next`] for a tree with `previous`'s numbering.
    pub fn of_tree(tree: &Tree, previous: Option<&Flat>) -> Result<Flat, String> {
        let names = previous.map_or_else(Names::default, |p| Names::from(&p.names));
        let mut e = Encoder::new(names);
        e.tree(tree).map_err(TreeError::text)?;
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

    #[inline(always)]
    fn of_static(&mut self, name: &'static str) -> u32 {
        let (addr, len) = (name.as_ptr().addr(), name.len());
        // Fibonacci hashing of the address: the top bits pick the slot.
        let hash = ((addr ^ len) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 54;
        let slot = usize::try_from(hash).unwrap_or(0) % CACHE_SLOTS;
        match self.cache.get(slot) {
            Some(&(a, l, i)) if a == addr && l == len => i,
            _ => self.of_static_miss(name, slot),
        }
    }

    /// [`Names::of_static`] for a name not in its slot of the cache: interned, then cached.
    #[cold]
    #[inline(never)]
    fn of_static_miss(&mut self, name: &'static str, slot: usize) -> u32 {
        let i = self.intern(Cow::Borrowed(name));
        if let Some(s) = self.cache.get_mut(slot) {
            *s = (name.as_ptr().addr(), name.len(), i);
        }
        i
    }
}

/// Serialises into a [`Flat`].
struct Encoder {
    out: Vec<u8>,
    names: Names,
}

/// The most bytes a LEB128 `u64` takes.
const VARINT: usize = 10;

/// Appends `tag` and the LEB128 form of `v`. Values under 2^14 (nearly all: ids, counts, flags)
/// are written as one fixed-size copy, with one capacity check; longer ones by
/// [`put_tagged_long`].
#[inline(always)]
fn put_tagged(out: &mut Vec<u8>, tag: u8, v: u64) {
    let [low, ..] = v.to_le_bytes();
    if v < 0x80 {
        out.extend_from_slice(&[tag, low]);
    } else if v < 0x4000 {
        let [high, ..] = (v >> 7).to_le_bytes();
        out.extend_from_slice(&[tag, low | 0x80, high]);
    } else {
        put_tagged_long(out, Some(tag), v);
    }
}

/// Appends `tag` (when given) and the LEB128 form of `v`, of any size.
#[inline(never)]
fn put_tagged_long(out: &mut Vec<u8>, tag: Option<u8>, v: u64) {
    if let Some(t) = tag {
        out.push(t);
    }
    let (buf, n) = leb128(v);
    out.extend_from_slice(buf.get(..n).unwrap_or(&buf));
}

/// The LEB128 form of `v`: the bytes, and how many of them it takes.
fn leb128(mut v: u64) -> ([u8; VARINT], usize) {
    let mut buf = [0u8; VARINT];
    let mut n = 0;
    while v >= 0x80 {
        if let Some(b) = buf.get_mut(n) {
            *b = v.to_le_bytes()[0] | 0x80;
        }
        v >>= 7;
        n += 1;
    }
    if let Some(b) = buf.get_mut(n) {
        *b = v.to_le_bytes()[0];
    }
    (buf, n + 1)
}

/// Appends the LEB128 form of `v`: one byte for the names of a model (its first 128).
#[inline(always)]
fn put_varint(out: &mut Vec<u8>, v: u64) {
    match u8::try_from(v) {
        Ok(byte) if byte < 0x80 => out.push(byte),
        _ => put_tagged_long(out, None, v),
    }
}

impl Encoder {
    fn new(names: Names) -> Self {
        Encoder::with_capacity(names, 0)
    }

    /// An encoder whose output has room for `capacity` bytes.
    fn with_capacity(names: Names, capacity: usize) -> Self {
        Encoder {
            out: Vec::with_capacity(capacity),
            names,
        }
    }

    fn encode<T: Serialize + ?Sized>(mut self, value: &T) -> Result<Flat, String> {
        value.serialize(&mut self).map_err(TreeError::text)?;
        Ok(self.finish())
    }

    fn finish(mut self) -> Flat {
        self.out.shrink_to_fit();
        Flat {
            bytes: self.out,
            names: self.names.list,
        }
    }

    #[inline(always)]
    fn name(&mut self, index: u32) {
        put_varint(&mut self.out, index.into());
    }

    #[inline(always)]
    fn int(&mut self, v: i64) {
        let zigzag = u64::from_le_bytes(((v << 1) ^ (v >> 63)).to_le_bytes());
        put_tagged(&mut self.out, INT, zigzag);
    }

    #[inline(always)]
    fn uint(&mut self, v: u64) {
        put_tagged(&mut self.out, UINT, v);
    }

    /// A float's tag and bits, as one fixed-size copy.
    #[inline(always)]
    fn f32(&mut self, bits: u32) {
        let [a, b, c, d] = bits.to_le_bytes();
        self.out.extend_from_slice(&[F32, a, b, c, d]);
    }

    #[inline(always)]
    fn f64(&mut self, bits: u64) {
        let [a, b, c, d, e, f, g, h] = bits.to_le_bytes();
        self.out.extend_from_slice(&[F64, a, b, c, d, e, f, g, h]);
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
    #[inline(always)]
    fn open(&mut self, variant: Option<&'static str>, tag: u8) -> usize {
        if let Some(v) = variant {
            self.out.push(VARIANT);
            let i = self.names.of_static(v);
            self.name(i);
        }
        self.out.extend_from_slice(&[tag, 0]);
        self.out.len() - 1
    }

    /// Ends the sequence or map opened at `at`: writes its length, moving its contents along
    /// when the length takes more than the byte kept for it (only for values of 128 bytes or
    /// more, whose contents then move by a byte or two).
    #[inline(always)]
    fn close(&mut self, at: usize) {
        let n = self.out.len().saturating_sub(at + 1);
        match self.out.get_mut(at) {
            Some(slot) if n < 0x80 => *slot = n.to_le_bytes()[0],
            _ => self.close_long(at, n),
        }
    }

    /// [`Encoder::close`] for a length of more than one byte.
    #[cold]
    #[inline(never)]
    fn close_long(&mut self, at: usize, n: usize) {
        let (length, k) = leb128(n as u64);
        let end = self.out.len();
        if at >= end {
            return;
        }
        // The contents move along by the length's bytes past the one kept: one move.
        self.out.resize(end + k - 1, 0);
        self.out.copy_within(at + 1..end, at + k);
        if let (Some(slot), Some(length)) = (self.out.get_mut(at..at + k), length.get(..k)) {
            slot.copy_from_slice(length);
        }
    }

    /// Encodes a [`Tree`] as its serialisation would be encoded.
    fn tree(&mut self, t: &Tree) -> Result<(), TreeError> {
        match t {
            Tree::Unit => self.out.push(UNIT),
            Tree::Bool(v) => self.out.push(if *v { TRUE } else { FALSE }),
            Tree::Int(v) => self.int(*v),
            Tree::Uint(v) => self.uint(*v),
            Tree::Wide(v) => self.wide(**v),
            Tree::F32(bits) => self.f32(*bits),
            Tree::F64(bits) => self.f64(*bits),
            Tree::Str(s) => self.text(STR, s.as_bytes()),
            Tree::Bytes(b) => self.text(BYTES, b),
            Tree::Seq(items) => {
                let at = self.open(None, SEQ);
                for item in items {
                    self.tree(item)?;
                }
                self.close(at);
            }
            Tree::Map(fields) => {
                let at = self.open(None, MAP);
                for (k, v) in fields {
                    let i = self.names.intern(k.clone());
                    self.name(i);
                    self.tree(v)?;
                }
                self.close(at);
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
                self.close(at);
            }
            MAP => {
                let at = self.open(None, MAP);
                for (k, v) in value.fields() {
                    rename(self, k)?;
                    self.recode(v.raw(), names)?;
                }
                self.close(at);
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

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<(), TreeError> {
        self.out.push(if v { TRUE } else { FALSE });
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<(), TreeError> {
        self.int(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<(), TreeError> {
        self.int(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<(), TreeError> {
        self.int(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<(), TreeError> {
        self.int(v);
        Ok(())
    }
    #[inline]
    fn serialize_i128(self, v: i128) -> Result<(), TreeError> {
        self.wide(v);
        Ok(())
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<(), TreeError> {
        self.uint(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<(), TreeError> {
        self.uint(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<(), TreeError> {
        self.uint(v.into());
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<(), TreeError> {
        self.uint(v);
        Ok(())
    }
    #[inline]
    fn serialize_u128(self, v: u128) -> Result<(), TreeError> {
        let v = i128::try_from(v).map_err(|_| TreeError::new("a u128 past i128".into()))?;
        self.wide(v);
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<(), TreeError> {
        self.f32(v.to_bits());
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<(), TreeError> {
        self.f64(v.to_bits());
        Ok(())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<(), TreeError> {
        self.text(STR, v.encode_utf8(&mut [0; 4]).as_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<(), TreeError> {
        self.text(STR, v.as_bytes());
        Ok(())
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), TreeError> {
        self.text(BYTES, v);
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<(), TreeError> {
        self.out.push(UNIT);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), TreeError> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<(), TreeError> {
        self.out.push(UNIT);
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), TreeError> {
        self.out.push(UNIT);
        Ok(())
    }
    #[inline]
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
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), TreeError> {
        value.serialize(self)
    }
    #[inline]
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
    #[inline]
    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'e>, TreeError> {
        let at = self.open(None, SEQ);
        Ok(Compound {
            e: self,
            at,
            key: None,
        })
    }
    #[inline]
    fn serialize_tuple(self, len: usize) -> Result<Compound<'e>, TreeError> {
        self.serialize_seq(Some(len))
    }
    #[inline]
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Compound<'e>, TreeError> {
        self.serialize_seq(Some(len))
    }
    #[inline]
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
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'e>, TreeError> {
        let at = self.open(None, MAP);
        Ok(Compound {
            e: self,
            at,
            key: None,
        })
    }
    #[inline]
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<Compound<'e>, TreeError> {
        self.serialize_map(Some(len))
    }
    #[inline]
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
            #[inline(always)]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
                value.serialize(&mut *self.e)
            }
            #[inline]
            fn end(self) -> Result<(), TreeError> {
                self.e.close(self.at);
                Ok(())
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
        let text = key_text(Tree::of(key).map_err(TreeError::new)?)?;
        self.key = Some(self.e.names.intern(text));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| TreeError::new("a map value without a key".into()))?;
        self.e.name(key);
        value.serialize(&mut *self.e)
    }
    fn end(self) -> Result<(), TreeError> {
        self.e.close(self.at);
        Ok(())
    }
}

/// Struct fields, of a struct or of a struct variant.
macro_rules! struct_impl {
    ($($trait:ident),*) => {$(
        impl ser::$trait for Compound<'_> {
            type Ok = ();
            type Error = TreeError;
            #[inline(always)]
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), TreeError> {
                let i = self.e.names.of_static(key);
                self.e.name(i);
                value.serialize(&mut *self.e)
            }
            #[inline]
            fn end(self) -> Result<(), TreeError> {
                self.e.close(self.at);
                Ok(())
            }
        }
    )*};
}

struct_impl!(SerializeStruct, SerializeStructVariant);

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    /// Values at every width the encoder writes differently: one- to ten-byte LEB128 numbers,
    /// and compound values whose length takes one, two and three bytes.
    #[derive(Serialize, Clone)]
    struct Edges {
        unsigned: Vec<u64>,
        signed: Vec<i64>,
        text: String,
        long: Vec<u8>,
        longer: Vec<u16>,
    }

    fn edges() -> Edges {
        let mut unsigned = vec![0, 1, 127, 128, 255, 256, 16_383, 16_384, u64::MAX];
        unsigned.extend((7..64).step_by(7).flat_map(|s| [(1u64 << s) - 1, 1 << s]));
        Edges {
            unsigned,
            // More than 16, so that they compare one by one.
            signed: [0, -1, 63, -64, 64, -65, 8191, -8192, i64::MIN, i64::MAX]
                .into_iter()
                .chain((0..10).map(|i| -(1i64 << (i * 6))))
                .collect(),
            text: "x".repeat(200),
            long: (0..=255).collect(),
            longer: (0..20_000u32)
                .map(|i| u16::try_from(i * 7 % 65_536).unwrap())
                .collect(),
        }
    }

    #[test]
    fn every_width_reads_back_and_matches_the_tree() {
        let e = edges();
        let flat = Flat::of(&e).unwrap();
        assert!(flat == Flat::of_tree(&Tree::of(&e).unwrap(), None).unwrap());
        let mut changed = e.clone();
        changed.unsigned[8] = u64::MAX - 1;
        changed.signed[8] = i64::MIN + 1;
        changed.longer[19_999] = 1;
        let other = flat.next(&changed).unwrap();
        let lines: Vec<String> = super::super::diff_flat("nav-quake", &flat, &other)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            lines,
            [
                "longer[19999]: 8921 -> 1".to_string(),
                format!("signed[8]: {} -> {}", i64::MIN, i64::MIN + 1),
                format!("unsigned[8]: {} -> {}", u64::MAX, u64::MAX - 1),
            ]
        );
        assert!(super::super::diff_flat("nav-quake", &flat, &flat.next(&e).unwrap()).is_empty());
    }
}
