//! [`Tree`]: a model serialised through serde into a compact tree (field names as
//! `&'static str`, floats as their bits), built by [`TreeSerializer`].

use std::borrow::Cow;
use std::fmt;

use serde::ser::{self, Serialize};

/// A serialised model: serde's data model, kept small.
#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    /// `None`, `()`, a unit struct.
    Unit,
    /// A boolean.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    Uint(u64),
    /// A wide integer (boxed: rare, and an `i128` would double the size of every node).
    Wide(Box<i128>),
    /// An `f32`, by its bits.
    F32(u32),
    /// An `f64`, by its bits.
    F64(u64),
    /// A string or a character.
    Str(Box<str>),
    /// Raw bytes.
    Bytes(Box<[u8]>),
    /// A sequence, tuple or tuple struct.
    Seq(Box<[Tree]>),
    /// A struct or map: fields in order.
    Map(Box<[(Cow<'static, str>, Tree)]>),
    /// An enum variant without content.
    Tag(&'static str),
    /// An enum variant with content.
    Variant(Box<(&'static str, Tree)>),
}

// A node is three words: keep it so (a model has millions of them).
const _: () = assert!(core::mem::size_of::<Tree>() == 24);

impl Tree {
    /// The tree of any serialisable value.
    pub fn of<T: Serialize + ?Sized>(value: &T) -> Result<Tree, String> {
        value.serialize(TreeSerializer).map_err(TreeError::text)
    }

    pub(super) fn is_plain(&self) -> bool {
        !matches!(self, Tree::Seq(_) | Tree::Map(_) | Tree::Variant(..))
    }
}

/// The error of [`TreeSerializer`] and of the [`super::Flat`] encoder: a boxed `str`, so that
/// the `Result<(), TreeError>` every value returns is two words, passed in registers (with a
/// `String`, three words, it would go through memory, per value).
#[derive(Debug)]
pub(super) struct TreeError(Box<str>);

impl TreeError {
    pub(super) fn new(message: String) -> Self {
        TreeError(message.into_boxed_str())
    }

    /// The message.
    pub(super) fn text(self) -> String {
        self.0.into_string()
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TreeError {}

impl ser::Error for TreeError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        TreeError::new(msg.to_string())
    }
}

/// Serialises into a [`Tree`].
struct TreeSerializer;

/// Collects sequence elements.
struct SeqBuilder {
    items: Vec<Tree>,
    variant: Option<&'static str>,
}

/// Collects struct fields or map entries.
struct MapBuilder {
    fields: Vec<(Cow<'static, str>, Tree)>,
    key: Option<Cow<'static, str>>,
    variant: Option<&'static str>,
}

fn wrap(variant: Option<&'static str>, t: Tree) -> Tree {
    match variant {
        Some(v) => Tree::Variant(Box::new((v, t))),
        None => t,
    }
}

impl ser::Serializer for TreeSerializer {
    type Ok = Tree;
    type Error = TreeError;
    type SerializeSeq = SeqBuilder;
    type SerializeTuple = SeqBuilder;
    type SerializeTupleStruct = SeqBuilder;
    type SerializeTupleVariant = SeqBuilder;
    type SerializeMap = MapBuilder;
    type SerializeStruct = MapBuilder;
    type SerializeStructVariant = MapBuilder;

    fn serialize_bool(self, v: bool) -> Result<Tree, TreeError> {
        Ok(Tree::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Tree, TreeError> {
        Ok(Tree::Int(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Result<Tree, TreeError> {
        Ok(Tree::Int(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Result<Tree, TreeError> {
        Ok(Tree::Int(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Result<Tree, TreeError> {
        Ok(Tree::Int(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Tree, TreeError> {
        Ok(Tree::Wide(Box::new(v)))
    }
    fn serialize_u8(self, v: u8) -> Result<Tree, TreeError> {
        Ok(Tree::Uint(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Result<Tree, TreeError> {
        Ok(Tree::Uint(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Result<Tree, TreeError> {
        Ok(Tree::Uint(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Result<Tree, TreeError> {
        Ok(Tree::Uint(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Tree, TreeError> {
        i128::try_from(v)
            .map(|v| Tree::Wide(Box::new(v)))
            .map_err(|_| TreeError::new("a u128 past i128".into()))
    }
    fn serialize_f32(self, v: f32) -> Result<Tree, TreeError> {
        Ok(Tree::F32(v.to_bits()))
    }
    fn serialize_f64(self, v: f64) -> Result<Tree, TreeError> {
        Ok(Tree::F64(v.to_bits()))
    }
    fn serialize_char(self, v: char) -> Result<Tree, TreeError> {
        Ok(Tree::Str(v.to_string().into()))
    }
    fn serialize_str(self, v: &str) -> Result<Tree, TreeError> {
        Ok(Tree::Str(v.into()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Tree, TreeError> {
        Ok(Tree::Bytes(v.into()))
    }
    fn serialize_none(self) -> Result<Tree, TreeError> {
        Ok(Tree::Unit)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Tree, TreeError> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Tree, TreeError> {
        Ok(Tree::Unit)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Tree, TreeError> {
        Ok(Tree::Unit)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Tree, TreeError> {
        Ok(Tree::Tag(variant))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<Tree, TreeError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Tree, TreeError> {
        Ok(Tree::Variant(Box::new((variant, value.serialize(self)?))))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder, TreeError> {
        Ok(SeqBuilder {
            items: Vec::with_capacity(len.unwrap_or(0).min(1 << 16)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder, TreeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, TreeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<SeqBuilder, TreeError> {
        let mut s = self.serialize_seq(Some(len))?;
        s.variant = Some(variant);
        Ok(s)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder, TreeError> {
        Ok(MapBuilder {
            fields: Vec::with_capacity(len.unwrap_or(0).min(1 << 10)),
            key: None,
            variant: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapBuilder, TreeError> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<MapBuilder, TreeError> {
        let mut m = self.serialize_map(Some(len))?;
        m.variant = Some(variant);
        Ok(m)
    }
}

impl SeqBuilder {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
        self.items.push(value.serialize(TreeSerializer)?);
        Ok(())
    }
    fn done(self) -> Tree {
        wrap(self.variant, Tree::Seq(self.items.into_boxed_slice()))
    }
}

/// The four sequence-like serde traits, all collecting into a [`SeqBuilder`].
macro_rules! seq_impl {
    ($($trait:ident :: $method:ident),*) => {$(
        impl ser::$trait for SeqBuilder {
            type Ok = Tree;
            type Error = TreeError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
                self.push(value)
            }
            fn end(self) -> Result<Tree, TreeError> {
                Ok(self.done())
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

impl MapBuilder {
    fn done(self) -> Tree {
        wrap(self.variant, Tree::Map(self.fields.into_boxed_slice()))
    }
}

/// A map key as text (numbers and strings; serde_json accepts the same).
pub(super) fn key_text(t: Tree) -> Result<Cow<'static, str>, TreeError> {
    Ok(Cow::Owned(match t {
        Tree::Str(s) => s.into(),
        Tree::Int(v) => v.to_string(),
        Tree::Uint(v) => v.to_string(),
        Tree::Wide(v) => v.to_string(),
        Tree::Bool(v) => v.to_string(),
        Tree::Tag(v) => return Ok(Cow::Borrowed(v)),
        _ => {
            return Err(TreeError::new(
                "a map key that is not a string or number".into(),
            ));
        }
    }))
}

impl ser::SerializeMap for MapBuilder {
    type Ok = Tree;
    type Error = TreeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), TreeError> {
        self.key = Some(key_text(key.serialize(TreeSerializer)?)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), TreeError> {
        let key = self
            .key
            .take()
            .ok_or_else(|| TreeError::new("a map value without a key".into()))?;
        self.fields.push((key, value.serialize(TreeSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Tree, TreeError> {
        Ok(self.done())
    }
}

impl ser::SerializeStruct for MapBuilder {
    type Ok = Tree;
    type Error = TreeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), TreeError> {
        self.fields
            .push((Cow::Borrowed(key), value.serialize(TreeSerializer)?));
        Ok(())
    }
    fn end(self) -> Result<Tree, TreeError> {
        Ok(self.done())
    }
}

impl ser::SerializeStructVariant for MapBuilder {
    type Ok = Tree;
    type Error = TreeError;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), TreeError> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<Tree, TreeError> {
        Ok(self.done())
    }
}
