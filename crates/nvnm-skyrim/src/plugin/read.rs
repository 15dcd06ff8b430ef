//! Reading a plugin from an [`io::Read`], one record at a time, straight into the owned model.
//!
//! [`PluginFile::read_from`] checks exactly what [`super::PluginView::parse`] checks, with the
//! same errors at the same offsets, but never holds the whole file: each record's bytes are read,
//! opened and moved (or copied, for an opened `NAVM` or `NAVI`) into the model, then let go. A
//! whole game's plugin then needs the model's memory, not the model's and the file's.

use std::io::{self, Read};

use nav_core::error::refusal;
use nav_core::{Cursor, Error};
use zerocopy::FromBytes;

use super::model::{Group, Item, PluginFile, Record, RecordBody, close};
use super::view::{
    GroupHeader, RecordHeader, RecordView, check_group, check_item_room, open_record,
};
use super::{FORMAT, MAX_INFLATED_TOTAL, Signature};

/// The input, and how far into it the walk is.
struct Source<'r> {
    input: &'r mut dyn Read,
    pos: usize,
}

impl Source<'_> {
    /// The next `n` bytes (the caller has checked they lie inside the declared length, which
    /// bounds the allocation).
    fn take(&mut self, n: usize) -> io::Result<Vec<u8>> {
        let mut data = Vec::with_capacity(n);
        (&mut *self.input)
            .take(u64::try_from(n).unwrap_or(u64::MAX))
            .read_to_end(&mut data)?;
        if data.len() != n {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the input ends at byte {} of the plugin, inside a {n}-byte item at {:#x}",
                    self.pos + data.len(),
                    self.pos
                ),
            ));
        }
        self.pos += n;
        Ok(data)
    }
}

/// Reads one record whose 24-byte header is `head`, at `offset`, inside `limit`.
fn record(
    src: &mut Source<'_>,
    head: &[u8],
    offset: usize,
    limit: usize,
    budget: &mut usize,
) -> Result<Record, io::Error> {
    let header = RecordHeader::ref_from_bytes(head).map_err(|_| {
        refusal(Error::invalid(
            FORMAT,
            format_args!("record at {offset:#x}"),
            offset,
            "record header does not fit its type",
        ))
    })?;
    let sig = Signature(header.signature);
    let form_id = header.form_id.get();
    let size = header.data_size.get();
    let data_offset = offset + 24;
    let room = limit.saturating_sub(data_offset);
    let len = usize::try_from(size).unwrap_or(usize::MAX);
    if len > room {
        return Err(refusal(Error::invalid(
            FORMAT,
            format_args!("{sig} record {form_id:08X} at {offset:#x}"),
            data_offset,
            format_args!("data size {size} runs past its group or file ({room} bytes left)"),
        )));
    }
    let data = src.take(len)?;
    if &header.signature != b"NAVM" && &header.signature != b"NAVI" {
        let mut r = Record::from_view(&RecordView {
            header,
            offset,
            data: &[],
            opened: None,
        });
        r.body = RecordBody::Raw(data);
        return Ok(r);
    }
    let opened = open_record(header, &data, data_offset, budget)
        .map_err(|e| refusal(e.within(format_args!("{sig} record {form_id:08X}"))))?;
    Ok(Record::from_view(&RecordView {
        header,
        offset,
        data: &data,
        opened: Some(opened),
    }))
}

impl PluginFile {
    /// Reads a plugin of `len` bytes from `input`, record by record, into the model: the same
    /// model as [`nav_core::Format::read`] of the same bytes, and the same checks, but the
    /// whole file is never in memory at once (read a whole game's master with a
    /// `BufReader<File>` and the file's length).
    ///
    /// # Errors
    /// A plugin the format refuses is an [`io::ErrorKind::InvalidData`] error carrying the same
    /// [`nav_core::Error`] a read of the bytes gives (take it out with
    /// [`nav_core::error::refused`]); an input that ends before `len` bytes is
    /// [`io::ErrorKind::UnexpectedEof`]; errors of `input` itself come back as they are.
    pub fn read_from(input: &mut dyn Read, len: u64) -> io::Result<PluginFile> {
        let len = usize::try_from(len).map_err(|_| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                "the plugin is larger than memory",
            )
        })?;
        let mut src = Source { input, pos: 0 };
        let head = src.take(len.min(24))?;
        Cursor::new(FORMAT, &head)
            .magic(b"TES4", "header", "TES4")
            .map_err(refusal)?;
        Cursor::new(FORMAT, &head)
            .read::<RecordHeader>("record at 0x0")
            .map_err(refusal)?;
        let mut budget = MAX_INFLATED_TOTAL.max(len.saturating_mul(16));
        let header = record(&mut src, &head, 0, len, &mut budget)?;
        // Open groups: (end offset, group).
        let mut stack: Vec<(usize, Group)> = Vec::new();
        let mut top: Vec<Item> = Vec::new();
        loop {
            while stack.last().is_some_and(|(end, _)| src.pos >= *end) {
                close(&mut stack, &mut top);
            }
            if src.pos >= len {
                break;
            }
            let limit = stack.last().map_or(len, |(end, _)| *end);
            let offset = src.pos;
            check_item_room(offset, limit, stack.len()).map_err(refusal)?;
            let head = src.take(24)?;
            if head.starts_with(b"GRUP") {
                let at = || format!("group at {offset:#x}");
                let h = GroupHeader::ref_from_bytes(&head).map_err(|_| {
                    refusal(Error::invalid(
                        FORMAT,
                        at(),
                        offset,
                        "does not fit its type",
                    ))
                })?;
                let size = check_group(h, offset, limit, stack.len()).map_err(refusal)?;
                stack.push((offset + size, Group::opened_by(h)));
            } else {
                let item = Item::Record(record(&mut src, &head, offset, limit, &mut budget)?);
                match stack.last_mut() {
                    Some((_, g)) => g.items.push(item),
                    None => top.push(item),
                }
            }
        }
        while !stack.is_empty() {
            close(&mut stack, &mut top);
        }
        Ok(PluginFile { header, items: top })
    }
}
