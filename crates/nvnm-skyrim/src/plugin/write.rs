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

use nav_core::error::Later;
use nav_core::write::narrow;
use nav_core::{ByteWriter, Error, Result};

use std::borrow::Cow;
use std::cell::OnceCell;
use std::io::{self, Write};

use super::model::{Compression, Item, NavmeshBody, PluginFile, Record, RecordBody};
use super::navi;
use super::subrecord::subrecord_header;
use super::view::{GroupHeader, Node, PluginView, RecordHeader, RecordView};
use super::zlib::{deflate, detect_level, inflate};
use super::{COMPRESSED, DEFAULT_LEVEL, FORMAT, MAX_DEPTH};
use zerocopy::IntoBytes;

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

/// A navmesh record's subrecords as the pieces they serialise to (header, payload, header, …),
/// borrowed but for the headers; refuses what [`subrecord_bytes`] refuses.
fn subrecord_parts(body: &NavmeshBody, form_id: u32) -> Result<Vec<(ByteWriter, &[u8])>> {
    body.subrecords
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let field = || format!("NAVM record {form_id:08X} subrecords[{i}] {}", s.signature);
            Ok((
                subrecord_header(s.signature, s.large, s.data.len(), &field)?,
                s.data.as_slice(),
            ))
        })
        .collect()
}

/// The subrecords of a navmesh record, serialised (uncompressed).
pub fn subrecord_bytes(body: &NavmeshBody, form_id: u32) -> Result<Vec<u8>> {
    let parts = subrecord_parts(body, form_id)?;
    let size = parts.iter().map(|(h, d)| h.len() + d.len()).sum();
    let mut w = ByteWriter::with_capacity(size);
    for (h, d) in &parts {
        w.bytes(h.as_slice()).bytes(d);
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
        declared: Some(narrow(FORMAT, Later(field), plain.len())?),
        bytes: stream,
    })
}

/// What a record's data is written from.
enum Body<'m> {
    /// These bytes: a raw record's data, a stored stream, a recompressed one, a `NAVI`'s
    /// subrecords.
    Bytes(Cow<'m, [u8]>),
    /// An uncompressed navmesh record's subrecords, written piece by piece.
    Navmesh(&'m NavmeshBody),
}

/// One record, checked and sized, ready to be written.
struct Prepared<'m> {
    record: &'m Record,
    /// The uncompressed size of compressed data.
    declared: Option<u32>,
    /// The data size in the record header (the declared size's 4 bytes included).
    size: u32,
    body: Body<'m>,
}

/// Checks and sizes one record: every refusal of the writer happens here, before any byte.
fn prepare_record<'m>(
    r: &'m Record,
    is_header: bool,
    fallback: &Fallback<'_>,
) -> Result<Prepared<'m>> {
    let field = || format!("{} record {:08X}", r.signature, r.form_id);
    if &r.signature.0 == b"GRUP" {
        return Err(Error::unrepresentable(
            FORMAT,
            field(),
            "a record cannot be named GRUP (a read takes it for a group)",
        ));
    }
    let opened = (&r.signature.0 == b"NAVM" || &r.signature.0 == b"NAVI") && !is_header;
    let flagged = r.flags & COMPRESSED != 0;
    let (declared, body) = match (&r.body, opened) {
        (RecordBody::Raw(d), false) => (None, Body::Bytes(Cow::Borrowed(d.as_slice()))),
        (RecordBody::Navmesh(body), true) if &r.signature.0 == b"NAVM" => {
            let parts = subrecord_parts(body, r.form_id)?;
            let plain_len: usize = parts.iter().map(|(h, d)| h.len() + d.len()).sum();
            let pieces = || parts.iter().flat_map(|(h, d)| [h.as_slice(), *d]);
            match &body.compression {
                // Uncompressed: written piece by piece, never joined.
                Compression::None if !(flagged && plain_len > 0) => {
                    let size = narrow(
                        FORMAT,
                        Later(|| format!("{} data size", field())),
                        plain_len,
                    )?;
                    return Ok(Prepared {
                        record: r,
                        declared: None,
                        size,
                        body: Body::Navmesh(body),
                    });
                }
                // Unchanged since the read: the stored stream, no copy of the subrecords.
                Compression::Stored(stored) if flagged && stored.holds_parts(pieces()) => (
                    Some(narrow(FORMAT, Later(field), plain_len)?),
                    Body::Bytes(Cow::Borrowed(stored.stream())),
                ),
                compression => {
                    let data = stored_data(
                        r,
                        pieces().collect::<Vec<_>>().concat(),
                        compression,
                        fallback,
                    )?;
                    (data.declared, Body::Bytes(data.bytes))
                }
            }
        }
        (RecordBody::NavigationInfo(body), true) if &r.signature.0 == b"NAVI" => {
            let data = stored_data(
                r,
                navi::subrecord_bytes(body, r.form_id)?,
                &body.compression,
                fallback,
            )?;
            (data.declared, Body::Bytes(data.bytes))
        }
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
    let len = match &body {
        Body::Bytes(b) => b.len(),
        Body::Navmesh(_) => 0,
    } + if declared.is_some() { 4 } else { 0 };
    let size = narrow(FORMAT, Later(|| format!("{} data size", field())), len)?;
    Ok(Prepared {
        record: r,
        declared,
        size,
        body,
    })
}

/// A whole model, checked and sized: its records in file order and its groups' sizes in
/// pre-order (a group before what it holds).
struct Plan<'m> {
    records: Vec<Prepared<'m>>,
    groups: Vec<u32>,
    total: usize,
}

/// Prepares `items` into `plan`; returns the bytes they take.
fn plan_items<'m>(
    plan: &mut Plan<'m>,
    items: &'m [Item],
    depth: usize,
    fallback: &Fallback<'_>,
) -> Result<usize> {
    let mut total = 0usize;
    for item in items {
        match item {
            Item::Record(r) => {
                let p = prepare_record(r, false, fallback)?;
                total = total.saturating_add(24 + usize::try_from(p.size).unwrap_or(usize::MAX));
                plan.records.push(p);
            }
            Item::Group(g) => {
                let at = || format!("group {:08X} type {}", g.label, g.group_type);
                if depth >= MAX_DEPTH {
                    return Err(Error::unrepresentable(
                        FORMAT,
                        at(),
                        format!("groups nest deeper than {MAX_DEPTH} levels"),
                    ));
                }
                let slot = plan.groups.len();
                plan.groups.push(0);
                let size = plan_items(plan, &g.items, depth + 1, fallback)?.saturating_add(24);
                let size32: u32 = narrow(FORMAT, Later(|| format!("{} size", at())), size)?;
                if let Some(s) = plan.groups.get_mut(slot) {
                    *s = size32;
                }
                total = total.saturating_add(size);
            }
        }
    }
    Ok(total)
}

/// Checks and sizes a whole model, before any byte is written.
fn plan(model: &PluginFile) -> Result<Plan<'_>> {
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
    let header = prepare_record(&model.header, true, &fallback)?;
    let mut plan = Plan {
        total: 24 + usize::try_from(header.size).unwrap_or(usize::MAX),
        records: vec![header],
        groups: Vec::new(),
    };
    let items = plan_items(&mut plan, &model.items, 0, &fallback)?;
    plan.total = plan.total.saturating_add(items);
    Ok(plan)
}

fn emit_record(out: &mut dyn Write, p: &Prepared<'_>) -> io::Result<()> {
    let r = p.record;
    // The stored header record, copied whole: no buffer per record of the plugin.
    let h = RecordHeader {
        signature: r.signature.0,
        data_size: p.size.into(),
        flags: r.flags.into(),
        form_id: r.form_id.into(),
        timestamp: r.timestamp.into(),
        version_control: r.version_control.into(),
        form_version: r.form_version.into(),
        version_control_2: r.version_control_2.into(),
    };
    out.write_all(h.as_bytes())?;
    if let Some(declared) = p.declared {
        out.write_all(&declared.to_le_bytes())?;
    }
    match &p.body {
        Body::Bytes(b) => out.write_all(b),
        Body::Navmesh(body) => {
            // Checked when planned, so this cannot refuse now.
            let parts = subrecord_parts(body, r.form_id).map_err(nav_core::error::refusal)?;
            for (h, d) in &parts {
                out.write_all(h.as_slice())?;
                out.write_all(d)?;
            }
            Ok(())
        }
    }
}

/// Writes `items` as planned; `records` and `groups` are the plan's, from the position of the
/// first of `items`.
fn emit_items<'p, 'm: 'p>(
    out: &mut dyn Write,
    items: &[Item],
    records: &mut core::slice::Iter<'p, Prepared<'m>>,
    groups: &mut core::slice::Iter<'p, u32>,
) -> io::Result<()> {
    let lost = || nav_core::error::refusal(Error::unrepresentable(FORMAT, "plan", "out of step"));
    for item in items {
        match item {
            Item::Record(_) => emit_record(out, records.next().ok_or_else(lost)?)?,
            Item::Group(g) => {
                let size = *groups.next().ok_or_else(lost)?;
                let h = GroupHeader {
                    signature: *b"GRUP",
                    group_size: size.into(),
                    label: g.label.into(),
                    group_type: g.group_type.into(),
                    timestamp: g.timestamp.into(),
                    version_control: g.version_control.into(),
                    unknown: g.unknown.into(),
                };
                out.write_all(h.as_bytes())?;
                emit_items(out, &g.items, records, groups)?;
            }
        }
    }
    Ok(())
}

fn emit(out: &mut dyn Write, model: &PluginFile, plan: &Plan<'_>) -> io::Result<()> {
    let mut records = plan.records.iter();
    let mut groups = plan.groups.iter();
    if let Some(header) = records.next() {
        emit_record(out, header)?;
    }
    emit_items(out, &model.items, &mut records, &mut groups)
}

/// Writes a model.
pub fn write(model: &PluginFile) -> Result<Vec<u8>> {
    let plan = plan(model)?;
    let mut out = Vec::with_capacity(plan.total);
    emit(&mut out, model, &plan).map_err(|e| {
        match e.into_inner().map(|e| e.downcast::<Error>()) {
            Some(Ok(e)) => *e,
            // A Vec takes every byte; only a refusal comes back.
            _ => Error::unrepresentable(FORMAT, "plugin", "the writer failed"),
        }
    })?;
    Ok(out)
}

/// Streams a model to `out`: every refusal comes before the first byte (a
/// [`nav_core::error::refusal`]); each group's size is known before its contents, so records
/// go straight to `out`, stored streams and subrecords without a copy.
pub fn write_to(model: &PluginFile, out: &mut dyn Write) -> io::Result<()> {
    let plan = plan(model).map_err(nav_core::error::refusal)?;
    emit(out, model, &plan)
}
