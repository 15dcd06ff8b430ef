//! A serde `Serializer` adapter that writes the `"#"` of every record of a position list.
//!
//! [`Tracked`] wraps the document's serializer and keeps the path of the value being written.
//! An array whose path a list pattern matches marks each element as a record; a record that
//! is written as an object (a struct or a map) gets `"#": position` as its first key, and any
//! other record is wrapped: `{"#": position, "value": record}`. Below a
//! path that no list pattern can extend the values go to the wrapped serializer directly, so
//! the cost is where the lists are.

use std::cell::RefCell;
use std::sync::{Mutex, OnceLock};

use serde::ser::{
    Impossible, Serialize, SerializeMap, SerializeSeq, SerializeStruct, SerializeStructVariant,
    SerializeTuple, SerializeTupleStruct, SerializeTupleVariant, Serializer,
};

use super::path::{Cursor, Seg, count_key};
use nav_core::positions::{KEY, VALUE};

/// The list patterns and the path being written.
pub(crate) type Track = Cursor;

/// The serializer `ser`, writing `"#"` into the records of the tracked lists.
pub(crate) struct Tracked<'t, S> {
    ser: S,
    track: &'t RefCell<Track>,
    /// This value's position, when it is a record of a list.
    record: Option<usize>,
    /// Whether the values below go to the wrapped serializer untracked.
    raw: bool,
}

impl<'t, S> Tracked<'t, S> {
    /// The serializer of the model, at the model's path.
    pub(crate) fn new(ser: S, track: &'t RefCell<Track>) -> Self {
        Tracked {
            ser,
            track,
            record: None,
            raw: false,
        }
    }
}

/// A value below a tracked one: its step, and whether it is a record.
struct Child<'a, 't, T: ?Sized> {
    value: &'a T,
    track: &'t RefCell<Track>,
    variant: Option<&'static str>,
    seg: Seg,
    record: Option<usize>,
}

impl<T: Serialize + ?Sized> Serialize for Child<'_, '_, T> {
    fn serialize<S: Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        let viable = {
            let mut t = self.track.borrow_mut();
            if let Some(v) = self.variant {
                t.path.push(Seg::Field(v));
            }
            t.path.push(self.seg.clone());
            t.viable()
        };
        let out = if let Some(i) = self.record.filter(|_| !is_object(self.value)) {
            wrapped(ser, i, self.value)
        } else if viable || self.record.is_some() {
            self.value.serialize(Tracked {
                ser,
                track: self.track,
                record: self.record,
                raw: !viable,
            })
        } else {
            self.value.serialize(ser)
        };
        let mut t = self.track.borrow_mut();
        t.path.pop();
        if self.variant.is_some() {
            t.path.pop();
        }
        out
    }
}

/// The count key of the list field `key` ([`count_key`]), as the `'static` name a struct field
/// takes. The names are the lists' field names, a handful per format, each made once.
fn interned(key: &'static str) -> &'static str {
    static KEYS: OnceLock<Mutex<Vec<(&'static str, &'static str)>>> = OnceLock::new();
    let mut keys = KEYS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&(_, k)) = keys.iter().find(|(list, _)| *list == key) {
        return k;
    }
    let k: &'static str = Box::leak(count_key(key).into_boxed_str());
    keys.push((key, k));
    k
}

/// Writes the record `value`, which is not an object, as `{"#": i, "value": value}`.
fn wrapped<S: Serializer, T: Serialize + ?Sized>(
    ser: S,
    i: usize,
    value: &T,
) -> Result<S::Ok, S::Error> {
    let mut map = ser.serialize_map(Some(2))?;
    map.serialize_entry(KEY, &i)?;
    map.serialize_entry(VALUE, value)?;
    map.end()
}

/// Whether `value` is written as a JSON object: a struct, a map or an enum variant with data.
/// Asked of each record once, by a serializer that stops at the first call.
fn is_object<T: Serialize + ?Sized>(value: &T) -> bool {
    matches!(value.serialize(Probe), Err(Shape(true)))
}

/// The serializer behind [`is_object`]: every call ends in a [`Shape`].
struct Probe;

/// What [`Probe`] found: whether the value is an object.
#[derive(Debug)]
struct Shape(bool);

impl std::fmt::Display for Shape {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0 { "an object" } else { "not an object" })
    }
}

impl std::error::Error for Shape {}

impl serde::ser::Error for Shape {
    fn custom<M: std::fmt::Display>(_: M) -> Self {
        Shape(false)
    }
}

/// Probe methods that end in a shape, whatever their arguments.
macro_rules! shape {
    ($object:literal: $($name:ident($($ty:ty),*) -> $ret:ty;)*) => {
        $(
            fn $name(self $(, _: $ty)*) -> Result<$ret, Shape> {
                Err(Shape($object))
            }
        )*
    };
}

impl Serializer for Probe {
    type Ok = ();
    type Error = Shape;
    type SerializeSeq = Impossible<(), Shape>;
    type SerializeTuple = Impossible<(), Shape>;
    type SerializeTupleStruct = Impossible<(), Shape>;
    type SerializeTupleVariant = Impossible<(), Shape>;
    type SerializeMap = Impossible<(), Shape>;
    type SerializeStruct = Impossible<(), Shape>;
    type SerializeStructVariant = Impossible<(), Shape>;

    shape! { false:
        serialize_bool(bool) -> ();
        serialize_i8(i8) -> ();
        serialize_i16(i16) -> ();
        serialize_i32(i32) -> ();
        serialize_i64(i64) -> ();
        serialize_u8(u8) -> ();
        serialize_u16(u16) -> ();
        serialize_u32(u32) -> ();
        serialize_u64(u64) -> ();
        serialize_f32(f32) -> ();
        serialize_f64(f64) -> ();
        serialize_char(char) -> ();
        serialize_str(&str) -> ();
        serialize_bytes(&[u8]) -> ();
        serialize_none() -> ();
        serialize_unit() -> ();
        serialize_unit_struct(&'static str) -> ();
        serialize_unit_variant(&'static str, u32, &'static str) -> ();
        serialize_seq(Option<usize>) -> Self::SerializeSeq;
        serialize_tuple(usize) -> Self::SerializeTuple;
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct;
    }

    shape! { true:
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant;
        serialize_map(Option<usize>) -> Self::SerializeMap;
        serialize_struct(&'static str, usize) -> Self::SerializeStruct;
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant;
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Shape> {
        value.serialize(self)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Shape> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), Shape> {
        Err(Shape(true))
    }
}

/// A compound of a tracked value: its elements or fields become [`Child`]ren.
pub(crate) struct Compound<'t, C> {
    inner: C,
    track: &'t RefCell<Track>,
    raw: bool,
    /// Whether the elements are records of a list.
    list: bool,
    next: usize,
    variant: Option<&'static str>,
    key: Option<String>,
}

impl<'t, C> Compound<'t, C> {
    fn new(inner: C, track: &'t RefCell<Track>, raw: bool, variant: Option<&'static str>) -> Self {
        let list = !raw && track.borrow().is_list();
        Compound {
            inner,
            track,
            raw,
            list,
            next: 0,
            variant,
            key: None,
        }
    }

    fn element<'a, T: ?Sized>(&mut self, value: &'a T) -> Child<'a, 't, T> {
        let i = self.next;
        self.next += 1;
        Child {
            value,
            track: self.track,
            variant: self.variant,
            seg: Seg::Index(i),
            record: self.list.then_some(i),
        }
    }

    /// Whether the field `key` of this struct is a list.
    fn is_list(&self, key: &'static str) -> bool {
        let mut t = self.track.borrow_mut();
        let depth = t.path.len();
        t.path.extend(self.variant.map(Seg::Field));
        t.path.push(Seg::Field(key));
        let list = t.is_list();
        t.path.truncate(depth);
        t.counted = None;
        list
    }

    fn field<'a, T: ?Sized>(&self, key: Seg, value: &'a T) -> Child<'a, 't, T> {
        Child {
            value,
            track: self.track,
            variant: self.variant,
            seg: key,
            record: None,
        }
    }
}

macro_rules! forward_scalars {
    ($($name:ident($ty:ty);)*) => {
        $(
            fn $name(self, v: $ty) -> Result<S::Ok, S::Error> {
                self.ser.$name(v)
            }
        )*
    };
}

impl<'t, S: Serializer> Serializer for Tracked<'t, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<'t, S::SerializeSeq>;
    type SerializeTuple = Compound<'t, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<'t, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<'t, S::SerializeTupleVariant>;
    type SerializeMap = Compound<'t, S::SerializeMap>;
    type SerializeStruct = Compound<'t, S::SerializeStruct>;
    type SerializeStructVariant = Compound<'t, S::SerializeStructVariant>;

    forward_scalars! {
        serialize_bool(bool);
        serialize_i8(i8);
        serialize_i16(i16);
        serialize_i32(i32);
        serialize_i64(i64);
        serialize_i128(i128);
        serialize_u8(u8);
        serialize_u16(u16);
        serialize_u32(u32);
        serialize_u64(u64);
        serialize_u128(u128);
        serialize_f32(f32);
        serialize_f64(f64);
        serialize_char(char);
        serialize_str(&str);
        serialize_bytes(&[u8]);
    }

    fn serialize_none(self) -> Result<S::Ok, S::Error> {
        self.ser.serialize_none()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<S::Ok, S::Error> {
        self.ser.serialize_unit()
    }

    fn serialize_unit_struct(self, name: &'static str) -> Result<S::Ok, S::Error> {
        self.ser.serialize_unit_struct(name)
    }

    fn serialize_unit_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
    ) -> Result<S::Ok, S::Error> {
        self.ser.serialize_unit_variant(name, index, variant)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        if self.raw {
            return self
                .ser
                .serialize_newtype_variant(name, index, variant, value);
        }
        let child = Child {
            value,
            track: self.track,
            variant: None,
            seg: Seg::Field(variant),
            record: None,
        };
        self.ser
            .serialize_newtype_variant(name, index, variant, &child)
    }

    fn serialize_seq(self, len: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        let inner = self.ser.serialize_seq(len)?;
        Ok(Compound::new(inner, self.track, self.raw, None))
    }

    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, S::Error> {
        let inner = self.ser.serialize_tuple(len)?;
        Ok(Compound::new(inner, self.track, self.raw, None))
    }

    fn serialize_tuple_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, S::Error> {
        let inner = self.ser.serialize_tuple_struct(name, len)?;
        Ok(Compound::new(inner, self.track, self.raw, None))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        let inner = self
            .ser
            .serialize_tuple_variant(name, index, variant, len)?;
        Ok(Compound::new(inner, self.track, self.raw, Some(variant)))
    }

    fn serialize_map(self, len: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        let mut inner = self
            .ser
            .serialize_map(len.map(|n| n + usize::from(self.record.is_some())))?;
        if let Some(i) = self.record {
            inner.serialize_entry(KEY, &i)?;
        }
        Ok(Compound::new(inner, self.track, self.raw, None))
    }

    fn serialize_struct(
        self,
        name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStruct, S::Error> {
        let mut inner = self
            .ser
            .serialize_struct(name, len + usize::from(self.record.is_some()))?;
        if let Some(i) = self.record {
            inner.serialize_field(KEY, &i)?;
        }
        Ok(Compound::new(inner, self.track, self.raw, None))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        let inner = self
            .ser
            .serialize_struct_variant(name, index, variant, len)?;
        Ok(Compound::new(inner, self.track, self.raw, Some(variant)))
    }
}

/// The elements of a sequence, tuple or tuple struct.
macro_rules! sequence {
    ($trait:ident, $method:ident) => {
        impl<C: $trait> $trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                if self.raw {
                    return self.inner.$method(value);
                }
                let child = self.element(value);
                self.inner.$method(&child)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                if self.list {
                    self.track.borrow_mut().counted = Some(self.next);
                }
                self.inner.end()
            }
        }
    };
}

sequence!(SerializeSeq, serialize_element);
sequence!(SerializeTuple, serialize_element);
sequence!(SerializeTupleStruct, serialize_field);
sequence!(SerializeTupleVariant, serialize_field);

/// The fields of a struct or struct variant.
macro_rules! fields {
    ($trait:ident) => {
        impl<C: $trait> $trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), C::Error> {
                if self.raw {
                    return self.inner.serialize_field(key, value);
                }
                let list = self.is_list(key);
                let child = self.field(Seg::Field(key), value);
                self.inner.serialize_field(key, &child)?;
                let counted = self.track.borrow_mut().counted.take();
                match counted {
                    Some(n) if list => self.inner.serialize_field(interned(key), &n),
                    _ => Ok(()),
                }
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.inner.skip_field(key)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.inner.end()
            }
        }
    };
}

fields!(SerializeStruct);
fields!(SerializeStructVariant);

impl<C: SerializeMap> SerializeMap for Compound<'_, C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        if !self.raw {
            // Map keys are strings in JSON; one that is not names no list.
            self.key = serde_json::to_value(key)
                .ok()
                .and_then(|k| k.as_str().map(str::to_string));
        }
        self.inner.serialize_key(key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        if self.raw {
            return self.inner.serialize_value(value);
        }
        let key = Seg::Owned(self.key.take().unwrap_or_default());
        let child = self.field(key, value);
        self.inner.serialize_value(&child)
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        self.inner.end()
    }
}
