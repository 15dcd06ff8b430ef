//! The tag bytes of a [`super::Flat`] encoding: the first byte of every value says its kind.

/// `()`, `None`, a unit struct.
pub(super) const UNIT: u8 = 0;
/// `false`.
pub(super) const FALSE: u8 = 1;
/// `true`.
pub(super) const TRUE: u8 = 2;
/// A signed integer (zigzag LEB128).
pub(super) const INT: u8 = 3;
/// An unsigned integer (LEB128).
pub(super) const UINT: u8 = 4;
/// A 128-bit integer (16 bytes, little-endian).
pub(super) const WIDE: u8 = 5;
/// An `f32` by its bits (4 bytes).
pub(super) const F32: u8 = 6;
/// An `f64` by its bits (8 bytes).
pub(super) const F64: u8 = 7;
/// Text: LEB128 length, UTF-8.
pub(super) const STR: u8 = 8;
/// Raw bytes: LEB128 length, the bytes.
pub(super) const BYTES: u8 = 9;
/// A sequence: LEB128 byte length, the elements.
pub(super) const SEQ: u8 = 10;
/// A struct or map: LEB128 byte length, then name and value per field.
pub(super) const MAP: u8 = 11;
/// A unit variant: its name.
pub(super) const TAG: u8 = 12;
/// A variant with content: its name, the content.
pub(super) const VARIANT: u8 = 13;
