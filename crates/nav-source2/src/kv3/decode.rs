//! The read-only KV3 decoder: decompression within a limit, the lanes, and the value tree.
//!
//! A KV3 body holds the values of a document sorted by width into lanes (1-, 2-, 4- and 8-byte
//! values), a string table, and a stream of type bytes that gives the document's shape. Reading
//! walks the type stream and pulls each value from the lane of its width. Version 5 splits the
//! body into two buffers: buffer 1 holds the strings and an auxiliary set of lanes, buffer 2 the
//! object lengths, the main lanes and the types.
//!
//! Every size comes from the file, so every step is bounded: decompressed sizes by
//! [`decompression_limit`], nesting by [`DECODE_DEPTH`], and the number of values by a budget
//! proportional to the decompressed size (a typed array of a million nulls needs no bytes, so
//! the lanes alone would not bound it).

use nav_core::{Error, Result};
use std::sync::Arc;

use super::{Kv3Header, TRAILER, format_guid};
use crate::FORMAT;

/// Items reserved up front for an array or object; longer ones grow as they are read (their
/// count comes from the file, and only the value budget bounds it).
const PREALLOCATE: usize = 1024;

/// The deepest nesting of arrays and objects the decoder follows.
pub const DECODE_DEPTH: usize = 64;

/// The largest decompressed body the decoder produces for a blob of `input_len` bytes:
/// 1,024 bytes per input byte plus 64 KiB, and never more than 256 MiB.
pub fn decompression_limit(input_len: usize) -> usize {
    input_len
        .saturating_mul(1024)
        .saturating_add(64 * 1024)
        .min(256 * 1024 * 1024)
}

/// A decoded KV3 value.
#[derive(Debug, Clone, PartialEq)]
pub enum Kv3Value {
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A signed integer (8-, 16-, 32- or 64-bit in the file).
    Int(i64),
    /// An unsigned integer (16-, 32- or 64-bit in the file).
    UInt(u64),
    /// A 32-bit float.
    Float(f32),
    /// A 64-bit float.
    Double(f64),
    /// A string, shared with every other value and key of the document that names the same
    /// entry of the string table.
    String(Arc<str>),
    /// An array.
    Array(Vec<Kv3Value>),
    /// An object: keys and values in file order. Keys are shared like strings: a document
    /// names the same few keys on every object, and copying each would allocate once per member.
    Object(Vec<(Arc<str>, Kv3Value)>),
}

impl Kv3Value {
    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Kv3Value> {
        match self {
            Kv3Value::Object(m) => m.iter().find(|(k, _)| &**k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The items of an array.
    pub fn as_array(&self) -> Option<&[Kv3Value]> {
        match self {
            Kv3Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// An integer value, signed or unsigned, as `i128`.
    pub fn as_int(&self) -> Option<i128> {
        match self {
            Kv3Value::Int(v) => Some(i128::from(*v)),
            Kv3Value::UInt(v) => Some(i128::from(*v)),
            _ => None,
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Kv3Value {
    fn serialize<S: serde::Serializer>(&self, s: S) -> core::result::Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Kv3Value::Null => s.serialize_unit(),
            Kv3Value::Bool(b) => s.serialize_bool(*b),
            Kv3Value::Int(v) => s.serialize_i64(*v),
            Kv3Value::UInt(v) => s.serialize_u64(*v),
            Kv3Value::Float(v) if v.is_finite() => s.serialize_f32(*v),
            Kv3Value::Float(v) => s.serialize_str(&v.to_string()),
            Kv3Value::Double(v) if v.is_finite() => s.serialize_f64(*v),
            Kv3Value::Double(v) => s.serialize_str(&v.to_string()),
            Kv3Value::String(v) => s.serialize_str(v),
            Kv3Value::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for i in items {
                    seq.serialize_element(i)?;
                }
                seq.end()
            }
            Kv3Value::Object(members) => {
                let mut map = s.serialize_map(Some(members.len()))?;
                for (k, v) in members {
                    map.serialize_entry(&**k, v)?;
                }
                map.end()
            }
        }
    }
}

/// A decoded blob: its format GUID and its root value.
#[derive(Debug, Clone, PartialEq)]
pub struct Kv3Document {
    /// The format GUID, as stored.
    pub format: [u8; 16],
    /// The root value.
    pub root: Kv3Value,
}

impl Kv3Document {
    /// The format GUID in its usual text form.
    pub fn format_guid(&self) -> String {
        format_guid(&self.format)
    }
}

fn bad(message: impl Into<String>) -> Error {
    Error::invalid(FORMAT, "kv3", 0, message.into())
}

/// Decompresses `input` into exactly `size` bytes.
fn decompress(method: u32, input: &[u8], size: usize, limit: usize) -> Result<Vec<u8>> {
    if size > limit {
        return Err(bad(format!(
            "decompressed size {size} is over the limit of {limit} bytes for this blob"
        )));
    }
    match method {
        0 => {
            if input.len() != size {
                return Err(bad("uncompressed buffer size disagrees with its length"));
            }
            Ok(input.to_vec())
        }
        1 => {
            let mut out = vec![0u8; size];
            let n = lz4_flex::block::decompress_into(input, &mut out)
                .map_err(|e| bad(format!("LZ4: {e}")))?;
            if n != size {
                return Err(bad(format!("LZ4 gave {n} bytes, the header says {size}")));
            }
            Ok(out)
        }
        _ => {
            // One shot into a buffer of exactly the size the header gives: libzstd refuses an
            // output that would be longer, and writes no more than the capacity.
            let mut out = Vec::with_capacity(size);
            zstd::bulk::Decompressor::new()
                .and_then(|mut d| d.decompress_to_buffer(input, &mut out))
                .map_err(|e| bad(format!("zstd: {e}")))?;
            if out.len() != size {
                return Err(bad(format!(
                    "zstd gave {} bytes, the header says {size}",
                    out.len()
                )));
            }
            Ok(out)
        }
    }
}

/// One set of lanes: the values of each width, consumed from the front.
#[derive(Clone, Copy, Default)]
struct Lanes<'b> {
    b1: &'b [u8],
    b2: &'b [u8],
    b4: &'b [u8],
    b8: &'b [u8],
}

#[cold]
#[inline(never)]
fn runs_out(what: &str) -> Error {
    bad(format!("the {what} lane runs out"))
}

#[inline]
fn take<'b>(lane: &mut &'b [u8], n: usize, what: &str) -> Result<&'b [u8]> {
    let Some((head, tail)) = lane.split_at_checked(n) else {
        return Err(runs_out(what));
    };
    *lane = tail;
    Ok(head)
}

#[inline(always)]
fn take_array<const N: usize>(lane: &mut &[u8], what: &str) -> Result<[u8; N]> {
    let Some((head, tail)) = lane.split_first_chunk::<N>() else {
        return Err(runs_out(what));
    };
    *lane = tail;
    Ok(*head)
}

impl<'b> Lanes<'b> {
    /// Splits lanes of these counts from `buf` at `offset`, each aligned to its width; returns
    /// them and the offset after them.
    fn split(
        buf: &'b [u8],
        mut offset: usize,
        counts: [u32; 4],
        align_empty_b8: bool,
    ) -> Result<(Lanes<'b>, usize)> {
        let mut lanes = [&[][..]; 4];
        for (i, (width, count)) in [1usize, 2, 4, 8].into_iter().zip(counts).enumerate() {
            if count == 0 && !(width == 8 && align_empty_b8) {
                continue;
            }
            offset = offset.next_multiple_of(width);
            let len = (count as usize)
                .checked_mul(width)
                .ok_or_else(|| bad("lane size overflows"))?;
            let end = offset
                .checked_add(len)
                .filter(|e| *e <= buf.len())
                .ok_or_else(|| bad(format!("the {width}-byte lane is past the buffer")))?;
            lanes[i] = buf.get(offset..end).unwrap_or(&[]);
            offset = end;
        }
        let [b1, b2, b4, b8] = lanes;
        Ok((Lanes { b1, b2, b4, b8 }, offset))
    }

    #[inline(always)]
    fn u8(&mut self) -> Result<u8> {
        Ok(take_array::<1>(&mut self.b1, "1-byte")?[0])
    }
    #[inline(always)]
    fn bytes2(&mut self) -> Result<[u8; 2]> {
        take_array(&mut self.b2, "2-byte")
    }
    #[inline(always)]
    fn bytes4(&mut self) -> Result<[u8; 4]> {
        take_array(&mut self.b4, "4-byte")
    }
    #[inline(always)]
    fn bytes8(&mut self) -> Result<[u8; 8]> {
        take_array(&mut self.b8, "8-byte")
    }
}

/// `n` values of a scalar type `t` read at once from their lane, as [`Reader::value`] reads
/// them one by one; `None` for the other types (and when a lane is too short: the caller then
/// reads one by one and says where it ran out).
fn scalar_run(lanes: &mut Lanes<'_>, t: u8, n: usize) -> Option<Vec<Kv3Value>> {
    fn run<const N: usize>(
        lane: &mut &[u8],
        n: usize,
        f: impl Fn([u8; N]) -> Kv3Value,
    ) -> Option<Vec<Kv3Value>> {
        let bytes = take(lane, n.checked_mul(N)?, "").ok()?;
        Some(
            bytes
                .chunks_exact(N)
                .map(|c| f(c.try_into().unwrap_or([0; N])))
                .collect(),
        )
    }
    let constant = |v: Kv3Value| Some(vec![v; n]);
    match t {
        1 => constant(Kv3Value::Null),
        13 => constant(Kv3Value::Bool(true)),
        14 => constant(Kv3Value::Bool(false)),
        15 => constant(Kv3Value::Int(0)),
        16 => constant(Kv3Value::Int(1)),
        17 => constant(Kv3Value::Double(0.0)),
        18 => constant(Kv3Value::Double(1.0)),
        2 => run(&mut lanes.b1, n, |[b]: [u8; 1]| Kv3Value::Bool(b == 1)),
        23 => run(&mut lanes.b1, n, |[b]: [u8; 1]| Kv3Value::Int(i64::from(b))),
        20 => run(&mut lanes.b2, n, |b| {
            Kv3Value::Int(i64::from(i16::from_le_bytes(b)))
        }),
        21 => run(&mut lanes.b2, n, |b| {
            Kv3Value::UInt(u64::from(u16::from_le_bytes(b)))
        }),
        11 => run(&mut lanes.b4, n, |b| {
            Kv3Value::Int(i64::from(i32::from_le_bytes(b)))
        }),
        12 => run(&mut lanes.b4, n, |b| {
            Kv3Value::UInt(u64::from(u32::from_le_bytes(b)))
        }),
        19 => run(&mut lanes.b4, n, |b| Kv3Value::Float(f32::from_le_bytes(b))),
        3 => run(&mut lanes.b8, n, |b| Kv3Value::Int(i64::from_le_bytes(b))),
        4 => run(&mut lanes.b8, n, |b| Kv3Value::UInt(u64::from_le_bytes(b))),
        5 => run(&mut lanes.b8, n, |b| {
            Kv3Value::Double(f64::from_le_bytes(b))
        }),
        _ => None,
    }
}

fn strings(bytes: &mut &[u8], count: u32) -> Result<Vec<Arc<str>>> {
    let mut out = Vec::with_capacity((count as usize).min(bytes.len()));
    for _ in 0..count {
        let end = bytes
            .iter()
            .position(|b| *b == 0)
            .ok_or_else(|| bad("a string of the string table has no NUL"))?;
        out.push(Arc::from(String::from_utf8_lossy(
            bytes.get(..end).unwrap_or(&[]),
        )));
        *bytes = bytes.get(end + 1..).unwrap_or(&[]);
    }
    Ok(out)
}

fn check_trailer(rest: &[u8]) -> Result<()> {
    if rest != TRAILER.to_le_bytes() {
        return Err(bad(format!(
            "{} bytes where the 4-byte trailer 00 dd ee ff should end the buffer",
            rest.len()
        )));
    }
    Ok(())
}

struct Reader<'b> {
    version: u8,
    types: &'b [u8],
    object_lengths: &'b [u8],
    main: Lanes<'b>,
    aux: Lanes<'b>,
    strings: Vec<Arc<str>>,
    /// The string of id -1.
    empty: Arc<str>,
    budget: usize,
}

impl Reader<'_> {
    #[inline(always)]
    fn type_byte(&mut self) -> Result<u8> {
        let [t] = take_array(&mut self.types, "type")?;
        if t & 0x80 != 0 {
            return self.flagged_type(t);
        }
        Ok(t)
    }

    /// A type byte with its flag bit set: the flags byte after it is skipped.
    #[cold]
    #[inline(never)]
    fn flagged_type(&mut self, t: u8) -> Result<u8> {
        take_array::<1>(&mut self.types, "type")?;
        Ok(if self.version >= 3 {
            t & 0x3f
        } else {
            t & 0x7f
        })
    }

    #[inline]
    fn string(&mut self) -> Result<Arc<str>> {
        let id = i32::from_le_bytes(self.main.bytes4()?);
        self.lookup(id)
    }

    fn count4(&mut self) -> Result<usize> {
        Ok(u32::from_le_bytes(self.main.bytes4()?) as usize)
    }

    /// The items of a typed array: scalars in one run when they all fit the value budget and
    /// their lane (the depth limit allowing them), otherwise one by one.
    fn typed_items(&mut self, n: usize, sub: u8, depth: usize) -> Result<Vec<Kv3Value>> {
        if depth < DECODE_DEPTH && n <= self.budget {
            let run = if sub == 6 {
                self.string_run(n)?
            } else {
                scalar_run(&mut self.main, sub, n)
            };
            if let Some(items) = run {
                self.budget -= n;
                return Ok(items);
            }
        }
        self.items(n, Some(sub), depth)
    }

    /// `n` strings in one run, or `None` when the 4-byte lane is too short.
    fn string_run(&mut self, n: usize) -> Result<Option<Vec<Kv3Value>>> {
        let Some(ids) = n
            .checked_mul(4)
            .and_then(|len| take(&mut self.main.b4, len, "").ok())
        else {
            return Ok(None);
        };
        ids.chunks_exact(4)
            .map(|c| {
                let id = i32::from_le_bytes(c.try_into().unwrap_or([0; 4]));
                self.lookup(id).map(Kv3Value::String)
            })
            .collect::<Result<_>>()
            .map(Some)
    }

    #[inline(always)]
    fn lookup(&self, id: i32) -> Result<Arc<str>> {
        // -1 (the empty string) and every other negative id index past any table.
        if let Some(s) = self.strings.get(id as u32 as usize) {
            return Ok(s.clone());
        }
        if id == -1 {
            return Ok(self.empty.clone());
        }
        Err(bad(format!("string id {id} is past the string table")))
    }

    fn items(&mut self, n: usize, sub: Option<u8>, depth: usize) -> Result<Vec<Kv3Value>> {
        let mut out = Vec::with_capacity(n.min(PREALLOCATE));
        for _ in 0..n {
            let t = match sub {
                Some(t) => t,
                None => self.type_byte()?,
            };
            out.push(self.child(t, depth + 1)?);
        }
        Ok(out)
    }

    /// A scalar of type `t` read from the main lanes; `None` for arrays, objects and the types
    /// that are no value.
    #[inline(always)]
    fn scalar(&mut self, t: u8) -> Option<Result<Kv3Value>> {
        let m = &mut self.main;
        let v = match t {
            11 => m
                .bytes4()
                .map(|b| Kv3Value::Int(i64::from(i32::from_le_bytes(b)))),
            15 => Ok(Kv3Value::Int(0)),
            16 => Ok(Kv3Value::Int(1)),
            1 => Ok(Kv3Value::Null),
            2 => m.u8().map(|b| Kv3Value::Bool(b == 1)),
            3 => m.bytes8().map(|b| Kv3Value::Int(i64::from_le_bytes(b))),
            4 => m.bytes8().map(|b| Kv3Value::UInt(u64::from_le_bytes(b))),
            5 => m.bytes8().map(|b| Kv3Value::Double(f64::from_le_bytes(b))),
            6 => self.string().map(Kv3Value::String),
            12 => m
                .bytes4()
                .map(|b| Kv3Value::UInt(u64::from(u32::from_le_bytes(b)))),
            13 => Ok(Kv3Value::Bool(true)),
            14 => Ok(Kv3Value::Bool(false)),
            17 => Ok(Kv3Value::Double(0.0)),
            18 => Ok(Kv3Value::Double(1.0)),
            19 => m.bytes4().map(|b| Kv3Value::Float(f32::from_le_bytes(b))),
            20 => m
                .bytes2()
                .map(|b| Kv3Value::Int(i64::from(i16::from_le_bytes(b)))),
            21 => m
                .bytes2()
                .map(|b| Kv3Value::UInt(u64::from(u16::from_le_bytes(b)))),
            23 => m.u8().map(|b| Kv3Value::Int(i64::from(b))),
            _ => return None,
        };
        Some(v)
    }

    /// A member or item of type `t` at `depth`: a scalar read in place when [`Reader::value`]
    /// would read it (the depth and the budget allowing), anything else through it.
    #[inline(always)]
    fn child(&mut self, t: u8, depth: usize) -> Result<Kv3Value> {
        if depth <= DECODE_DEPTH && self.budget > 0 {
            if let Some(v) = self.scalar(t) {
                self.budget -= 1;
                return v;
            }
        }
        self.value(t, depth)
    }

    fn value(&mut self, t: u8, depth: usize) -> Result<Kv3Value> {
        if depth > DECODE_DEPTH {
            return Err(bad(format!("nesting deeper than {DECODE_DEPTH}")));
        }
        self.budget = self
            .budget
            .checked_sub(1)
            .ok_or_else(|| bad("more values than the buffer sizes allow"))?;
        if let Some(v) = self.scalar(t) {
            return v;
        }
        Ok(match t {
            8 => {
                let n = self.count4()?;
                Kv3Value::Array(self.items(n, None, depth)?)
            }
            9 => {
                let n = if self.version >= 5 {
                    u32::from_le_bytes(take_array(&mut self.object_lengths, "object length")?)
                        as usize
                } else {
                    self.count4()?
                };
                let mut members = Vec::with_capacity(n.min(PREALLOCATE));
                for _ in 0..n {
                    let t = self.type_byte()?;
                    let key = self.string()?;
                    members.push((key, self.child(t, depth + 1)?));
                }
                Kv3Value::Object(members)
            }
            10 | 24 => {
                let n = if t == 10 {
                    self.count4()?
                } else {
                    usize::from(self.main.u8()?)
                };
                let sub = self.type_byte()?;
                Kv3Value::Array(self.typed_items(n, sub, depth)?)
            }
            25 => {
                let n = usize::from(self.main.u8()?);
                let sub = self.type_byte()?;
                core::mem::swap(&mut self.main, &mut self.aux);
                let items = self.typed_items(n, sub, depth);
                core::mem::swap(&mut self.main, &mut self.aux);
                Kv3Value::Array(items?)
            }
            7 => return Err(bad("binary blobs are not supported")),
            other => return Err(bad(format!("unknown value type {other}"))),
        })
    }
}

fn string_count(lanes: &mut Lanes<'_>) -> Result<u32> {
    Ok(u32::from_le_bytes(
        lanes
            .bytes4()
            .map_err(|_| bad("the 4-byte lane has no string count"))?,
    ))
}

/// Decodes a whole blob (header and body, as kept in [`super::Kv3Blob`]).
pub fn decode(bytes: &[u8]) -> Result<Kv3Document> {
    let h = Kv3Header::read_blob(bytes)?;
    let body = bytes.get(h.header_len..).unwrap_or(&[]);
    let limit = decompression_limit(bytes.len());
    let size = |v: i32| usize::try_from(v).map_err(|_| bad(format!("size {v} is negative")));
    let mut reader = Reader {
        version: h.version,
        types: &[],
        object_lengths: &[],
        main: Lanes::default(),
        aux: Lanes::default(),
        strings: Vec::new(),
        empty: Arc::from(""),
        budget: 0,
    };
    let buffer1;
    let buffer2;
    let counts = [h.bytes1, h.bytes2, h.bytes4, h.bytes8];
    if h.version >= 5 {
        let [u1, c1, u2, c2] = h.buffers;
        let (u1, u2) = (size(u1)?, size(u2)?);
        let (on1, on2) = if h.compression == 0 {
            (u1, u2)
        } else {
            (size(c1)?, size(c2)?)
        };
        let (in1, in2) = body.split_at(on1.min(body.len()));
        buffer1 = decompress(h.compression, in1, u1, limit)?;
        buffer2 = decompress(h.compression, in2.get(..on2).unwrap_or(in2), u2, limit)?;
        reader.budget = u1.saturating_add(u2).saturating_mul(8).saturating_add(64);
        let (mut aux, end) = Lanes::split(&buffer1, 0, counts, false)?;
        if end != buffer1.len() {
            return Err(bad("buffer 1 is longer than its lanes"));
        }
        let n = string_count(&mut aux)?;
        reader.strings = strings(&mut aux.b1, n)?;
        reader.aux = aux;
        let [b1, b2, b4, b8, objects] = h.buffer2;
        let lengths_end = (objects as usize)
            .checked_mul(4)
            .filter(|e| *e <= buffer2.len())
            .ok_or_else(|| bad("object lengths are past buffer 2"))?;
        reader.object_lengths = buffer2.get(..lengths_end).unwrap_or(&[]);
        let (main, end) = Lanes::split(&buffer2, lengths_end, [b1, b2, b4, b8], false)?;
        reader.main = main;
        let types_end = end
            .checked_add(h.types as usize)
            .filter(|e| *e <= buffer2.len())
            .ok_or_else(|| bad("the type stream is past buffer 2"))?;
        reader.types = buffer2.get(end..types_end).unwrap_or(&[]);
        check_trailer(buffer2.get(types_end..).unwrap_or(&[]))?;
    } else {
        let u = size(h.uncompressed_total)?;
        buffer1 = decompress(h.compression, body, u, limit)?;
        buffer2 = Vec::new();
        let _ = &buffer2;
        reader.budget = u.saturating_mul(8).saturating_add(64);
        let (mut main, end) = Lanes::split(&buffer1, 0, counts, true)?;
        let n = string_count(&mut main)?;
        let mut rest = buffer1.get(end..).unwrap_or(&[]);
        let before = rest.len();
        reader.strings = strings(&mut rest, n)?;
        let used = before - rest.len();
        let types_len = (h.types as usize)
            .checked_sub(used)
            .filter(|l| *l <= rest.len())
            .ok_or_else(|| bad("the type stream does not fit the buffer"))?;
        let (types, tail) = rest.split_at(types_len);
        reader.types = types;
        check_trailer(tail)?;
        reader.main = main;
    }
    let t = reader.type_byte()?;
    let root = reader.value(t, 0)?;
    Ok(Kv3Document {
        format: h.format,
        root,
    })
}
