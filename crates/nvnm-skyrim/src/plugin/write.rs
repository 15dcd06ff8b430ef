//! The plugin writer: from the view (as walked) and from the model.
//!
//! Sizes are the only derived values: each record's data size and each group's size (header
//! included). The model writer emits a group's header with a placeholder size, writes its
//! contents, then fills the size in. Navmesh (`NAVM`) and navmesh info map (`NAVI`) records are
//! rebuilt from their subrecords. A record compressed as read ([`Compression::Stored`]) gives
//! back its stored stream while the subrecords are unchanged, and is recompressed only when they
//! changed (see [`super::StoredStream`]); a record at a given zlib level is recompressed at it; a
//! kept stream is written back only while it still inflates to those subrecords. The writer refuses what a later read
//! would not give back: a `NAVM` or `NAVI` record kept raw, a record named `GRUP`, a compressed
//! flag that disagrees with the body, a zlib level another level shadows, a raw `NAVI` payload
//! that reads as its type, sizes past 32 bits, groups nested past the walk's limit.

use nav_core::write::narrow;
use nav_core::{ByteWriter, Error, Result};

use std::borrow::Cow;
use std::cell::OnceCell;

use super::model::{Compression, Group, Item, NavmeshBody, PluginFile, Record, RecordBody};
use super::view::{Node, PluginView, RecordView, inflate};
use super::{COMPRESSED, DEFAULT_LEVEL, FORMAT, MAX_DEPTH, deflate, detect_level};
use super::{Signature, navi};

fn put_record_view(w: &mut ByteWriter, r: &RecordView<'_>) {
    w.put(r.header).bytes(r.data);
}

/// Writes a view back as walked: every header and every record's stored data.
pub fn write_view(view: &PluginView<'_>) -> Vec<u8> {
    let mut w = ByteWriter::with_capacity(view.bytes().len());
    put_record_view(&mut w, view.header());
    for node in view.nodes() {
        match node {
            Node::Group(g) => {
                debug_assert_eq!(w.len(), g.offset);
                w.put(g.header);
            }
            Node::Record(r) => {
                debug_assert_eq!(w.len(), r.offset);
                put_record_view(&mut w, r);
            }
        }
    }
    w.into_inner()
}

/// Writes one subrecord: its header (in the `XXXX` large form when `large` is set) and payload.
pub(crate) fn put_subrecord(
    w: &mut ByteWriter,
    signature: Signature,
    large: Option<u16>,
    data: &[u8],
    field: &dyn Fn() -> String,
) -> Result<()> {
    if &signature.0 == b"XXXX" {
        return Err(Error::unrepresentable(
            FORMAT,
            field(),
            "XXXX is the large-subrecord marker, not a subrecord of its own (use `large`)",
        ));
    }
    match large {
        Some(short) => {
            let len: u32 = narrow(FORMAT, field(), data.len())?;
            w.bytes(b"XXXX").u16(4).u32(len);
            w.bytes(&signature.0).u16(short);
        }
        None => {
            let len: u16 = narrow(FORMAT, field(), data.len())
                .map_err(|e| e.within("(set `large` for payloads over 65,535 bytes)"))?;
            w.bytes(&signature.0).u16(len);
        }
    }
    w.bytes(data);
    Ok(())
}

/// The subrecords of a navmesh record, serialised (uncompressed).
pub fn subrecord_bytes(body: &NavmeshBody, form_id: u32) -> Result<Vec<u8>> {
    // Each header is 6 bytes, 16 in the large form.
    let size = body.subrecords.iter().map(|s| s.data.len() + 16).sum();
    let mut w = ByteWriter::with_capacity(size);
    for (i, s) in body.subrecords.iter().enumerate() {
        let field = || format!("NAVM record {form_id:08X} subrecords[{i}] {}", s.signature);
        put_subrecord(&mut w, s.signature, s.large, &s.data, &field)?;
    }
    Ok(w.into_inner())
}

/// The level a changed record is recompressed at when no level reproduces its own stored stream:
/// the level of the first compressed record of the plugin that has one, else [`DEFAULT_LEVEL`];
/// looked for once per write, and only when needed.
struct Fallback<'m> {
    model: &'m PluginFile,
    level: OnceCell<u32>,
}

impl Fallback<'_> {
    fn level(&self) -> u32 {
        *self.level.get_or_init(|| {
            self.model
                .records()
                .into_iter()
                .find_map(|r| match &r.body {
                    RecordBody::Navmesh(b) => b.compression.level(),
                    RecordBody::NavigationInfo(b) => b.compression.level(),
                    RecordBody::Raw(_) => None,
                })
                .unwrap_or(DEFAULT_LEVEL)
        })
    }
}

/// A record's data as written: for compressed data the uncompressed size, then the stream.
struct Data<'a> {
    declared: Option<u32>,
    bytes: Cow<'a, [u8]>,
}

impl Data<'_> {
    fn len(&self) -> usize {
        self.bytes.len() + if self.declared.is_some() { 4 } else { 0 }
    }
}

/// An opened record's stored data: `plain` (its subrecords) as `compression` says.
fn stored_data<'c>(
    r: &Record,
    plain: Vec<u8>,
    compression: &'c Compression,
    fallback: &Fallback<'_>,
) -> Result<Data<'c>> {
    let field = || format!("{} record {:08X}", r.signature, r.form_id);
    let flagged = r.flags & COMPRESSED != 0;
    let stream: Cow<'_, [u8]> = match compression {
        Compression::None => {
            if flagged && !plain.is_empty() {
                return Err(Error::unrepresentable(
                    FORMAT,
                    field(),
                    "the compressed flag (0x00040000) is set but the compression is None",
                ));
            }
            return Ok(Data {
                declared: None,
                bytes: Cow::Owned(plain),
            });
        }
        _ if !flagged => {
            return Err(Error::unrepresentable(
                FORMAT,
                field(),
                "compressed data needs the compressed flag (0x00040000)",
            ));
        }
        Compression::Zlib { level } => {
            if *level > 9 {
                return Err(Error::unrepresentable(
                    FORMAT,
                    field(),
                    format!("zlib level {level} is not 0-9"),
                ));
            }
            let stream = deflate(&plain, *level);
            // A level first in its group (9, 6, 5, 1) is what a read finds first anyway.
            if ![9, 6, 5, 1].contains(level) {
                let found = detect_level(&plain, &stream);
                if found != Some(*level) {
                    return Err(Error::unrepresentable(
                        FORMAT,
                        field(),
                        format!(
                            "zlib level {level} gives the same stream as level {}; \
                             a read would name that level",
                            found.unwrap_or(9)
                        ),
                    ));
                }
            }
            Cow::Owned(stream)
        }
        // Unchanged: the stream as stored. Changed: recompressed.
        Compression::Stored(stored) if stored.holds(&plain) => Cow::Borrowed(stored.stream()),
        Compression::Stored(stored) => Cow::Owned(deflate(
            &plain,
            stored.level().unwrap_or_else(|| fallback.level()),
        )),
        Compression::Kept { stream } => {
            if inflate(stream, plain.len()).ok().as_deref() != Some(plain.as_slice()) {
                return Err(Error::unrepresentable(
                    FORMAT,
                    field(),
                    "the kept zlib stream no longer inflates to the subrecords \
                     (set the compression to a zlib level)",
                ));
            }
            if let Some(level) = detect_level(&plain, stream) {
                return Err(Error::unrepresentable(
                    FORMAT,
                    field(),
                    format!("the kept zlib stream is what level {level} gives; use that level"),
                ));
            }
            Cow::Borrowed(stream.as_slice())
        }
    };
    Ok(Data {
        declared: Some(narrow(FORMAT, field(), plain.len())?),
        bytes: stream,
    })
}

fn put_record(
    w: &mut ByteWriter,
    r: &Record,
    is_header: bool,
    fallback: &Fallback<'_>,
) -> Result<()> {
    let field = || format!("{} record {:08X}", r.signature, r.form_id);
    if &r.signature.0 == b"GRUP" {
        return Err(Error::unrepresentable(
            FORMAT,
            field(),
            "a record cannot be named GRUP (a read takes it for a group)",
        ));
    }
    let opened = (&r.signature.0 == b"NAVM" || &r.signature.0 == b"NAVI") && !is_header;
    let data = match (&r.body, opened) {
        (RecordBody::Raw(d), false) => Data {
            declared: None,
            bytes: Cow::Borrowed(d.as_slice()),
        },
        (RecordBody::Navmesh(body), true) if &r.signature.0 == b"NAVM" => stored_data(
            r,
            subrecord_bytes(body, r.form_id)?,
            &body.compression,
            fallback,
        )?,
        (RecordBody::NavigationInfo(body), true) if &r.signature.0 == b"NAVI" => stored_data(
            r,
            navi::subrecord_bytes(body, r.form_id)?,
            &body.compression,
            fallback,
        )?,
        (RecordBody::Raw(_), true) => {
            return Err(Error::unrepresentable(
                FORMAT,
                field(),
                "a NAVM or NAVI record's body must be opened (Navmesh or NavigationInfo), as a \
                 read gives it",
            ));
        }
        (_, _) => {
            return Err(Error::unrepresentable(
                FORMAT,
                field(),
                "only NAVM records (after the header) hold an opened navmesh body, and only NAVI \
                 records a navigation info body",
            ));
        }
    };
    let size: u32 = narrow(FORMAT, format_args!("{} data size", field()), data.len())?;
    w.bytes(&r.signature.0)
        .u32(size)
        .u32(r.flags)
        .u32(r.form_id)
        .u16(r.timestamp)
        .u16(r.version_control)
        .u16(r.form_version)
        .u16(r.version_control_2);
    if let Some(declared) = data.declared {
        w.u32(declared);
    }
    w.bytes(&data.bytes);
    Ok(())
}

fn put_items(
    w: &mut ByteWriter,
    items: &[Item],
    depth: usize,
    fallback: &Fallback<'_>,
) -> Result<()> {
    for item in items {
        match item {
            Item::Record(r) => put_record(w, r, false, fallback)?,
            Item::Group(g) => put_group(w, g, depth, fallback)?,
        }
    }
    Ok(())
}

fn put_group(w: &mut ByteWriter, g: &Group, depth: usize, fallback: &Fallback<'_>) -> Result<()> {
    if depth >= MAX_DEPTH {
        return Err(Error::unrepresentable(
            FORMAT,
            format_args!("group {:08X} type {}", g.label, g.group_type),
            format!("groups nest deeper than {MAX_DEPTH} levels"),
        ));
    }
    let start = w.len();
    w.bytes(b"GRUP")
        .u32(0) // the size, filled in below
        .u32(g.label)
        .i32(g.group_type)
        .u16(g.timestamp)
        .u16(g.version_control)
        .u32(g.unknown);
    put_items(w, &g.items, depth + 1, fallback)?;
    let size: u32 = narrow(
        FORMAT,
        format_args!("group {:08X} type {} size", g.label, g.group_type),
        w.len() - start,
    )?;
    if let Some(slot) = w.as_mut_slice().get_mut(start + 4..start + 8) {
        slot.copy_from_slice(&size.to_le_bytes());
    }
    Ok(())
}

/// Writes a model.
pub fn write(model: &PluginFile) -> Result<Vec<u8>> {
    let mut w = ByteWriter::new();
    if &model.header.signature.0 != b"TES4" {
        return Err(Error::unrepresentable(
            FORMAT,
            "header",
            format!(
                "the first record must be TES4, not {}",
                model.header.signature
            ),
        ));
    }
    let fallback = Fallback {
        model,
        level: OnceCell::new(),
    };
    put_record(&mut w, &model.header, true, &fallback)?;
    put_items(&mut w, &model.items, 0, &fallback)?;
    Ok(w.into_inner())
}
