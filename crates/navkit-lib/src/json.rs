//! The JSON document of a model, written and read without a tree in between.
//!
//! `to-json` serialises `{"format": ..., "model": ...}` straight from the model into a buffered
//! writer through [`LineFormatter`], and `from-json` deserialises the model straight from the
//! file, so that memory follows the model rather than a `serde_json::Value` of it. Floats keep
//! their bits through [`nav_core::RawF32`]'s serde (the shortest decimal that reads back to the
//! same bits, or a bit string).
//!
//! Records of the lists that other records name by position carry their position as `"#"`,
//! and a document whose records were deleted, inserted or moved is renumbered before it is
//! read: see [`crate::positions`].
//!
//! Errors while reading name where in the document they happened: the JSON path
//! (`model.areas[12].connections[0]`, from `serde_path_to_error`) and the line and column.

use std::io::{self, BufReader, Read, Write};

use nav_core::positions::PositionList;

use serde::de::{self, DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::ser::{CharEscape, CompactFormatter, Formatter};

/// At most this many scalars share a line in an array (`[x, y, z]`); longer arrays get one value
/// per line.
pub const FLAT_ARRAY_MAX: usize = 16;

/// The document `to-json` writes: the format's name, then the model.
#[derive(Serialize)]
struct DocumentOut<'a, M> {
    format: &'a str,
    model: WithPositions<'a, M>,
}

/// A model written with the `"#"` of the records of its position lists.
struct WithPositions<'a, M> {
    model: &'a M,
    lists: &'a [PositionList],
}

impl<M: Serialize> Serialize for WithPositions<'_, M> {
    fn serialize<S: serde::Serializer>(&self, ser: S) -> Result<S::Ok, S::Error> {
        if self.lists.is_empty() {
            return self.model.serialize(ser);
        }
        let track = std::cell::RefCell::new(crate::positions::Track::new(self.lists));
        self.model
            .serialize(crate::positions::Tracked::new(ser, &track))
    }
}

/// The document `from-json` reads: the model, and whatever else (the format name, read earlier
/// by [`format_name`], is not checked again).
#[derive(Deserialize)]
struct DocumentIn<M> {
    model: M,
}

/// Writes the document of `model` (of the format `format`), indented, ending with a newline;
/// the records of `lists` carry their position as `"#"`.
pub fn write_document<M: Serialize>(
    format: &str,
    model: &M,
    lists: &[PositionList],
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    {
        let mut ser = serde_json::Serializer::with_formatter(&mut buffered, LineFormatter::new());
        let model = WithPositions { model, lists };
        DocumentOut { format, model }
            .serialize(&mut ser)
            .map_err(io::Error::from)?;
    }
    buffered.write_all(b"\n")?;
    buffered.flush()
}

/// Where a JSON document is read from.
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    /// The document's text, in memory.
    Bytes(&'a [u8]),
    /// A file, read twice as a stream (a look for moved records, then the model), so that its
    /// text is held whole only when records moved and the document must be renumbered.
    File(&'a std::path::Path),
}

impl<'a> From<&'a [u8]> for Input<'a> {
    fn from(bytes: &'a [u8]) -> Self {
        Input::Bytes(bytes)
    }
}

/// Reads the model of a document, with errors that name the JSON path and the line. When a
/// record of one of `lists` carries a `"#"` other than its position, the references are
/// renumbered first ([`crate::positions`]).
pub fn read_document<M: DeserializeOwned>(
    input: Input<'_>,
    lists: &[PositionList],
) -> Result<M, String> {
    match input {
        Input::Bytes(bytes) => {
            let de = serde_json::Deserializer::from_slice(bytes);
            if crate::positions::needs_renumbering(de, lists) {
                return read_renumbered(bytes, lists);
            }
            read_streaming(serde_json::Deserializer::from_slice(bytes))
        }
        Input::File(path) => {
            let open = || {
                std::fs::File::open(path)
                    .map(|f| BufReader::with_capacity(1 << 16, f))
                    .map_err(|e| e.to_string())
            };
            let de = serde_json::Deserializer::from_reader(open()?);
            if crate::positions::needs_renumbering(de, lists) {
                let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
                return read_renumbered(&bytes, lists);
            }
            read_streaming(serde_json::Deserializer::from_reader(open()?))
        }
    }
}

/// The fast path of [`read_document`]: the model straight from the text.
fn read_streaming<'de, M: DeserializeOwned, R: serde_json::de::Read<'de>>(
    mut de: serde_json::Deserializer<R>,
) -> Result<M, String> {
    let doc: DocumentIn<M> =
        serde_path_to_error::deserialize(&mut de).map_err(|e| path_error(&e))?;
    de.end().map_err(|e| e.to_string())?;
    Ok(doc.model)
}

/// The slow path of [`read_document`]: the document as a tree, renumbered, then read.
fn read_renumbered<M: DeserializeOwned>(bytes: &[u8], lists: &[PositionList]) -> Result<M, String> {
    let mut doc: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| e.to_string())?;
    let model = doc
        .get_mut("model")
        .ok_or("the document has no \"model\"")?;
    crate::positions::renumber(model, lists, crate::positions::Missing::Refuse)?;
    let model = model.take();
    serde_path_to_error::deserialize(model).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            e.inner().to_string()
        } else {
            format!("model.{path}: {}", e.inner())
        }
    })
}

/// `model.areas[12].connections[0]: invalid type: ... at line 4021 column 9`.
fn path_error(e: &serde_path_to_error::Error<serde_json::Error>) -> String {
    let path = e.path();
    if path.iter().next().is_none() {
        e.inner().to_string()
    } else {
        format!("{path}: {}", e.inner())
    }
}

/// What [`format_name`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum FormatField {
    /// The document's `"format"` string.
    Named(String),
    /// The document is a JSON object without a `"format"` field.
    Missing,
}

/// The `"format"` string of a document, read without building the model: stops at the format
/// when it comes first (as `to-json` writes it), skips the model otherwise.
pub fn format_name(input: &mut dyn Read) -> Result<FormatField, String> {
    let mut found = None;
    let mut de = serde_json::Deserializer::from_reader(BufReader::with_capacity(1 << 16, input));
    let result = FindFormat { found: &mut found }.deserialize(&mut de);
    match (found, result) {
        // The search stops as soon as it has the name, leaving the rest unread.
        (Some(name), _) => Ok(FormatField::Named(name)),
        (None, Ok(())) => Ok(FormatField::Missing),
        (None, Err(e)) => Err(e.to_string()),
    }
}

/// Reads the top-level object until its `"format"` string, into `found`.
struct FindFormat<'a> {
    found: &'a mut Option<String>,
}

impl<'de> DeserializeSeed<'de> for FindFormat<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FindFormat<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a document object with \"format\" and \"model\"")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "format" {
                *self.found = Some(map.next_value::<String>()?);
                // Stop here: the caller reads the document again, knowing the format.
                return Err(de::Error::custom("format found"));
            }
            map.next_value::<IgnoredAny>()?;
        }
        Ok(())
    }
}

/// A `serde_json` formatter that indents by two spaces, one value per line, except arrays of at
/// most [`FLAT_ARRAY_MAX`] scalars (numbers, strings, booleans, nulls), which stay on one line:
/// `"origin": [128.0, 128.0, 88.0]`.
///
/// An array's text is held back until it is known to stay flat: a nested array or object, or
/// one element too many, writes what was held one value per line and goes on that way.
#[derive(Debug, Default)]
pub struct LineFormatter {
    /// Open containers, which is the indentation of their values.
    depth: usize,
    /// Whether the last container closed or opened had values (for `{}`).
    has_value: bool,
    /// Whether the innermost open container is an array still held in `held`.
    flat: bool,
    /// The text of the held array's elements, one after another.
    held: Vec<u8>,
    /// Where each held element starts in `held`.
    starts: Vec<usize>,
    /// A float's text before [`f64_notation`].
    scratch: Vec<u8>,
}

impl LineFormatter {
    /// A formatter at the top level.
    pub fn new() -> Self {
        LineFormatter::default()
    }

    fn indent<W: ?Sized + Write>(w: &mut W, depth: usize) -> io::Result<()> {
        const SPACES: &[u8] = b"                                                                ";
        let mut left = depth * 2;
        while left > 0 {
            let n = left.min(SPACES.len());
            w.write_all(&SPACES[..n])?;
            left -= n;
        }
        Ok(())
    }

    /// Writes the held array one value per line: it will not stay flat.
    fn unhold<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        if !self.flat {
            return Ok(());
        }
        self.flat = false;
        w.write_all(b"[")?;
        for (i, &start) in self.starts.iter().enumerate() {
            let end = self.starts.get(i + 1).copied().unwrap_or(self.held.len());
            w.write_all(if i == 0 { b"\n" } else { b",\n" })?;
            Self::indent(w, self.depth)?;
            w.write_all(self.held.get(start..end).unwrap_or_default())?;
        }
        self.held.clear();
        self.starts.clear();
        Ok(())
    }
}

/// Scalar output goes to the held array while there is one, else to the writer.
macro_rules! scalar {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $name<W: ?Sized + Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> io::Result<()> {
                if self.flat {
                    CompactFormatter.$name(&mut self.held $(, $arg)*)
                } else {
                    CompactFormatter.$name(w $(, $arg)*)
                }
            }
        )*
    };
}

impl Formatter for LineFormatter {
    scalar! {
        write_null();
        write_bool(value: bool);
        write_i8(value: i8);
        write_i16(value: i16);
        write_i32(value: i32);
        write_i64(value: i64);
        write_i128(value: i128);
        write_u8(value: u8);
        write_u16(value: u16);
        write_u32(value: u32);
        write_u64(value: u64);
        write_u128(value: u128);
        write_f64(value: f64);
        write_number_str(value: &str);
        begin_string();
        end_string();
        write_string_fragment(fragment: &str);
        write_char_escape(escape: CharEscape);
        write_raw_fragment(fragment: &str);
    }

    fn write_f32<W: ?Sized + Write>(&mut self, w: &mut W, value: f32) -> io::Result<()> {
        self.scratch.clear();
        CompactFormatter.write_f32(&mut self.scratch, value)?;
        if self.flat {
            f64_notation(&self.scratch, &mut self.held)
        } else {
            f64_notation(&self.scratch, w)
        }
    }

    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.unhold(w)?;
        self.depth += 1;
        self.flat = true;
        Ok(())
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        self.has_value = true;
        if self.flat {
            self.flat = false;
            w.write_all(b"[")?;
            for (i, &start) in self.starts.iter().enumerate() {
                let end = self.starts.get(i + 1).copied().unwrap_or(self.held.len());
                if i > 0 {
                    w.write_all(b", ")?;
                }
                w.write_all(self.held.get(start..end).unwrap_or_default())?;
            }
            self.held.clear();
            self.starts.clear();
            return w.write_all(b"]");
        }
        w.write_all(b"\n")?;
        Self::indent(w, self.depth)?;
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if self.flat {
            if self.starts.len() < FLAT_ARRAY_MAX {
                self.starts.push(self.held.len());
                return Ok(());
            }
            self.unhold(w)?;
        }
        w.write_all(if first { b"\n" } else { b",\n" })?;
        Self::indent(w, self.depth)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.unhold(w)?;
        self.depth += 1;
        self.has_value = false;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if self.has_value {
            w.write_all(b"\n")?;
            Self::indent(w, self.depth)?;
        }
        self.has_value = true;
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        Self::indent(w, self.depth)
    }

    fn end_object_key<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        Ok(())
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// Writes an `f32`'s shortest decimal (`text`, as serde_json writes it) in the notation serde_json
/// uses for an `f64` with those digits, which is what earlier versions wrote (they went through a
/// `serde_json::Value`): the digits are the same, only the two ranges where the notations differ
/// move: `[1e-6, 1e-5)` is `3.8146973e-6`, not `0.0000038146973`, and `[1e13, 1e16)` is written
/// out (`10000000000000.0`), not `1e13`.
fn f64_notation<W: ?Sized + Write>(text: &[u8], w: &mut W) -> io::Result<()> {
    let (sign, body) = match text.split_first() {
        Some((b'-', rest)) => (&b"-"[..], rest),
        _ => (&b""[..], text),
    };
    if let Some(digits) = body.strip_prefix(b"0.00000") {
        let (first, rest) = digits.split_at(digits.len().min(1));
        w.write_all(sign)?;
        w.write_all(first)?;
        if !rest.is_empty() {
            w.write_all(b".")?;
            w.write_all(rest)?;
        }
        return w.write_all(b"e-6");
    }
    let exponent = match body.iter().position(|&b| b == b'e') {
        Some(at) => match body
            .get(at + 1..)
            .map(|e| e.strip_prefix(b"+").unwrap_or(e))
        {
            Some(b"13") => Some((at, 13)),
            Some(b"14") => Some((at, 14)),
            Some(b"15") => Some((at, 15)),
            _ => None,
        },
        None => None,
    };
    let Some((at, exponent)) = exponent else {
        return w.write_all(text);
    };
    w.write_all(sign)?;
    let mut written = 0usize;
    for &b in body.get(..at).unwrap_or_default() {
        if b != b'.' {
            w.write_all(&[b])?;
            written += 1;
        }
    }
    for _ in written..=exponent {
        w.write_all(b"0")?;
    }
    w.write_all(b".0")
}

/// `value` as [`LineFormatter`] writes it (for the small `--json` outputs).
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, LineFormatter::new());
    match value.serialize(&mut ser) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(e) => format!("{{\"error\": {:?}}}", e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_scalar_arrays_stay_on_one_line() {
        let v = json!({
            "format": "x",
            "empty": [],
            "none": {},
            "pos": [1.5, -0.0, 3],
            "names": ["a", "b\"c"],
            "long": (0..17).collect::<Vec<_>>(),
            "nested": [[1, 2], {"a": [true, null]}, []],
            "objects": [{}, {"k": 1}],
        });
        let text = to_string(&v);
        let expected = r#"{
  "format": "x",
  "empty": [],
  "none": {},
  "pos": [1.5, -0.0, 3],
  "names": ["a", "b\"c"],
  "long": [
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    16
  ],
  "nested": [
    [1, 2],
    {
      "a": [true, null]
    },
    []
  ],
  "objects": [
    {},
    {
      "k": 1
    }
  ]
}"#;
        assert_eq!(text, expected);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn floats_are_written_as_a_value_tree_wrote_them() {
        // The way earlier versions wrote an f32: its shortest text, read into a `Value` as an
        // f64, written again. (serde_json's reader rounded a few of those texts, such as
        // `1e-45`, to a neighbouring f64, which printed with extra digits: that part is not kept.)
        let old = |v: f32| {
            let text = serde_json::to_string(&v).unwrap();
            serde_json::to_string(&text.parse::<f64>().unwrap()).unwrap()
        };
        let mut patterns = vec![0x3680_0000u32, 0x5511_7c00, 0x5a00_0000, 1, 0x8000_0000];
        let mut bits = 0u32;
        for _ in 0..300_000 {
            bits = bits.wrapping_add(0x0000_3a5b);
            patterns.push(bits);
        }
        for v in [
            3.8146973e-6f32,
            1e13,
            9.999999e15,
            1e16,
            1e-5,
            1e-6,
            123.0,
            -6.443803e-6,
        ] {
            patterns.push(v.to_bits());
        }
        for bits in patterns {
            let v = f32::from_bits(bits);
            if !v.is_finite() {
                continue;
            }
            let mut new = Vec::new();
            LineFormatter::new().write_f32(&mut new, v).unwrap();
            let new = String::from_utf8(new).unwrap();
            assert_eq!(new, old(v), "bits {bits:#010x}");
            assert_eq!(new.parse::<f32>().unwrap().to_bits(), bits, "{new}");
        }
    }

    #[test]
    fn the_format_is_found_first_or_after_the_model() {
        let first = br#"{"format": "nav-quake", "model": {"a": [1, 2"#;
        assert_eq!(
            format_name(&mut &first[..]),
            Ok(FormatField::Named("nav-quake".into()))
        );
        let after = br#"{"model": {"a": [1, {"format": 2}]}, "format": "nav-source"}"#;
        assert_eq!(
            format_name(&mut &after[..]),
            Ok(FormatField::Named("nav-source".into()))
        );
        assert_eq!(
            format_name(&mut &br#"{"model": {}}"#[..]),
            Ok(FormatField::Missing)
        );
        assert!(format_name(&mut &b"[1]"[..]).is_err());
        assert!(format_name(&mut &br#"{"format": 3}"#[..]).is_err());
    }

    #[test]
    fn errors_name_the_json_path_and_line() {
        #[derive(Deserialize, Debug)]
        struct Area {
            #[allow(dead_code)]
            connections: Vec<Vec<u32>>,
        }
        #[derive(Deserialize, Debug)]
        struct Model {
            #[allow(dead_code)]
            areas: Vec<Area>,
        }
        let text = "{\n\"format\": \"x\",\n\"model\": {\"areas\": [\n{\"connections\": [[1]]},\n{\"connections\": [\"a\"]}]}}";
        let err = read_document::<Model>(text.as_bytes().into(), &[]).unwrap_err();
        assert!(
            err.starts_with("model.areas[1].connections[0]: invalid type: string \"a\"")
                && err.ends_with("at line 5 column 20"),
            "{err}"
        );
        let err = read_document::<Model>("{\"model\": {\"areas\": []}} x".as_bytes().into(), &[])
            .unwrap_err();
        assert!(err.contains("trailing characters at line 1"), "{err}");
    }
}
