//! The zero-copy walk of a plugin: the `TES4` header record, groups and records.
//!
//! [`PluginView::parse`] walks the file once, without recursion, and records every group and
//! record in file order (a pre-order list: each group knows where its descendants end). Record
//! data stays borrowed; only `NAVM` and `NAVI` records are opened: inflated when compressed (the
//! one copy the view owns), and split into subrecords, honouring the `XXXX` large-subrecord
//! form. [`RecordView::navi`] reads a `NAVI` record's subrecords (see [`super::navi`]).

use std::borrow::Cow;

use nav_core::scalar::{I32, U16, U32};
use nav_core::{Cursor, Error, ErrorKind, Result};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::subrecord::subrecords;
pub use super::subrecord::{SubrecordHeader, SubrecordSpan};
use super::zlib::{detect_level, inflate};
use super::{COMPRESSED, FORMAT, MAX_DEPTH, MAX_INFLATED_RECORD, MAX_INFLATED_TOTAL, Signature};

/// A record header, 24 bytes (Skyrim and later).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RecordHeader {
    /// Record type (`NAVM`).
    pub signature: [u8; 4],
    /// Bytes of data after this header.
    pub data_size: U32,
    /// Record flags (`0x00040000` compressed, `0x20` deleted).
    pub flags: U32,
    /// FormID.
    pub form_id: U32,
    /// Version-control timestamp.
    pub timestamp: U16,
    /// Version-control info.
    pub version_control: U16,
    /// Form version (43 Skyrim LE, 44 Skyrim SE).
    pub form_version: U16,
    /// Second version-control field.
    pub version_control_2: U16,
}

/// A group header, 24 bytes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct GroupHeader {
    /// `GRUP`.
    pub signature: [u8; 4],
    /// Size of the whole group, this header included.
    pub group_size: U32,
    /// Label: a record type, a FormID or block coordinates, by group type.
    pub label: U32,
    /// Group type (0 top, 1 world children, … 9 cell temporary children).
    pub group_type: I32,
    /// Version-control timestamp.
    pub timestamp: U16,
    /// Version-control info.
    pub version_control: U16,
    /// Unknown, kept raw.
    pub unknown: U32,
}

/// A `NAVM` or `NAVI` record's data, opened.
#[derive(Debug, Clone, PartialEq)]
pub struct OpenedData<'a> {
    /// Whether the data is stored zlib-compressed.
    pub(crate) compressed: bool,
    /// The subrecords' bytes: borrowed, or inflated.
    pub(crate) body: Cow<'a, [u8]>,
    /// The subrecords, in order.
    pub(crate) subrecords: Vec<SubrecordSpan>,
}

impl<'a> OpenedData<'a> {
    /// Whether the data is stored zlib-compressed.
    pub fn compressed(&self) -> bool {
        self.compressed
    }

    /// The subrecords' bytes: borrowed, or inflated.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The subrecords, in order.
    pub fn subrecords(&self) -> &[SubrecordSpan] {
        &self.subrecords
    }
}

impl OpenedData<'_> {
    /// The payload of the first subrecord of type `sig`.
    pub fn subrecord(&self, sig: &[u8; 4]) -> Option<&[u8]> {
        self.subrecords
            .iter()
            .find(|s| &s.signature.0 == sig)
            .and_then(|s| self.body.get(s.range.clone()))
    }
}

/// One record.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordView<'a> {
    /// The header.
    pub(crate) header: &'a RecordHeader,
    /// Byte offset of the header in the file.
    pub(crate) offset: usize,
    /// The data as stored (compressed or not).
    pub(crate) data: &'a [u8],
    /// The opened data of a `NAVM` or `NAVI` record.
    pub(crate) opened: Option<OpenedData<'a>>,
}

impl<'a> RecordView<'a> {
    /// The header.
    pub fn header(&self) -> &'a RecordHeader {
        self.header
    }

    /// Byte offset of the header in the file.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The data as stored (compressed or not).
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    /// The opened data of a `NAVM` or `NAVI` record.
    pub fn opened(&self) -> Option<&OpenedData<'a>> {
        self.opened.as_ref()
    }
}

impl RecordView<'_> {
    /// The record's type.
    pub fn signature(&self) -> Signature {
        Signature(self.header.signature)
    }

    /// Whether the record is flagged deleted (`0x20`).
    pub fn is_deleted(&self) -> bool {
        self.header.flags.get() & super::DELETED != 0
    }

    /// The subrecords of a `NAVI` record, read; `None` for any other record.
    pub fn navi(&self) -> Option<super::navi::NaviView<'_>> {
        if &self.header.signature != b"NAVI" {
            return None;
        }
        // The walk already split these subrecords, so the framing cannot fail here.
        super::navi::NaviView::parse(&self.opened.as_ref()?.body).ok()
    }

    /// The record's FormID.
    pub fn form_id(&self) -> u32 {
        self.header.form_id.get()
    }

    /// The `NVNM` payload of a navmesh record.
    pub fn nvnm(&self) -> Option<&[u8]> {
        if &self.header.signature != b"NAVM" {
            return None;
        }
        self.opened.as_ref().and_then(|n| n.subrecord(b"NVNM"))
    }
}

/// One group: its header and where its contents end in the node list.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupView<'a> {
    /// The header.
    pub(crate) header: &'a GroupHeader,
    /// Byte offset of the header in the file.
    pub(crate) offset: usize,
    /// Nesting depth (0 for a top group).
    pub(crate) depth: usize,
    /// Index in [`PluginView::nodes`] one past the group's last descendant.
    pub(crate) end: usize,
}

impl<'a> GroupView<'a> {
    /// The header.
    pub fn header(&self) -> &'a GroupHeader {
        self.header
    }

    /// Byte offset of the header in the file.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Nesting depth (0 for a top group).
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// Index in [`PluginView::nodes`] one past the group's last descendant.
    pub fn end(&self) -> usize {
        self.end
    }
}

/// A group or a record, in file order.
#[derive(Debug, Clone, PartialEq)]
pub enum Node<'a> {
    /// A group header; its contents follow.
    Group(GroupView<'a>),
    /// A record.
    Record(RecordView<'a>),
}

/// A parsed plugin, borrowing the input.
#[derive(Debug, Clone, PartialEq)]
pub struct PluginView<'a> {
    bytes: &'a [u8],
    header: RecordView<'a>,
    nodes: Vec<Node<'a>>,
}

/// Checks that an item (group or record) header fits before `limit` (the end of the enclosing
/// group, or of the file); `depth` groups are open.
pub(crate) fn check_item_room(offset: usize, limit: usize, depth: usize) -> Result<()> {
    let left = limit.saturating_sub(offset);
    if left < 24 {
        return Err(Error::new(
            FORMAT,
            format_args!("item at {offset:#x}"),
            ErrorKind::Truncated {
                offset,
                needed: 24,
                left,
            },
        )
        .within(if depth == 0 { "file" } else { "group" }));
    }
    Ok(())
}

/// Checks a group header at `offset` inside `limit`, `depth` groups deep, and gives the group's
/// size.
pub(crate) fn check_group(
    h: &GroupHeader,
    offset: usize,
    limit: usize,
    depth: usize,
) -> Result<usize> {
    let size = h.group_size.get();
    let room = limit.saturating_sub(offset);
    let len = usize::try_from(size).unwrap_or(usize::MAX);
    let at = format_args!("group at {offset:#x}");
    if len < 24 || len > room {
        return Err(Error::invalid(
            FORMAT,
            at,
            offset,
            format_args!(
                "group size {size} is under 24 or runs past its group or file ({room} bytes left)"
            ),
        ));
    }
    if depth >= MAX_DEPTH {
        return Err(Error::invalid(
            FORMAT,
            at,
            offset,
            format_args!("groups nest deeper than {MAX_DEPTH} levels"),
        ));
    }
    Ok(len)
}

/// Opens a `NAVM` or `NAVI` record's data. `budget` is what may still be inflated in this file.
pub(crate) fn open_record<'a>(
    header: &RecordHeader,
    data: &'a [u8],
    data_offset: usize,
    budget: &mut usize,
) -> Result<OpenedData<'a>> {
    let compressed = header.flags.get() & COMPRESSED != 0 && !data.is_empty();
    let body: Cow<'a, [u8]> = if compressed {
        let mut cur = Cursor::new(FORMAT, data);
        let declared = cur.u32("uncompressed size")?;
        let stream = cur.rest();
        let expected = usize::try_from(declared).unwrap_or(usize::MAX);
        // deflate cannot shrink data more than about 1032:1; a larger claim is a lie.
        let plausible = stream.len().saturating_mul(1032).saturating_add(64);
        if expected > MAX_INFLATED_RECORD || expected > plausible || expected > *budget {
            return Err(Error::invalid(
                FORMAT,
                "uncompressed size",
                data_offset,
                format_args!(
                    "{declared} bytes from a {}-byte zlib stream is more than the crate \
                     inflates (at most {MAX_INFLATED_RECORD} per record, {} left for this file)",
                    stream.len(),
                    *budget
                ),
            ));
        }
        *budget -= expected;
        let inflated = inflate(stream, expected)
            .map_err(|message| Error::invalid(FORMAT, "zlib stream", data_offset + 4, message))?;
        Cow::Owned(inflated)
    } else {
        Cow::Borrowed(data)
    };
    let subrecords = subrecords(&body).map_err(|e| {
        if compressed {
            // Offsets in inflated data do not point into the file.
            e.within("inflated data")
        } else {
            e.shifted(data_offset)
        }
    })?;
    Ok(OpenedData {
        compressed,
        body,
        subrecords,
    })
}

fn read_record<'a>(
    cur: &mut Cursor<'a>,
    limit: usize,
    budget: &mut usize,
) -> Result<RecordView<'a>> {
    let offset = cur.offset();
    let header: &RecordHeader = cur.read(format_args!("record at {offset:#x}"))?;
    let sig = Signature(header.signature);
    let form_id = header.form_id.get();
    let size = header.data_size.get();
    let room = limit.saturating_sub(cur.offset());
    let len = usize::try_from(size).unwrap_or(usize::MAX);
    if len > room {
        return Err(cur.invalid(
            format_args!("{sig} record {form_id:08X} at {offset:#x}"),
            format!("data size {size} runs past its group or file ({room} bytes left)"),
        ));
    }
    let data_offset = cur.offset();
    let data = cur.bytes(len, format_args!("{sig} record {form_id:08X} data"))?;
    let opened = if &header.signature == b"NAVM" || &header.signature == b"NAVI" {
        Some(
            open_record(header, data, data_offset, budget)
                .map_err(|e| e.within(format_args!("{sig} record {form_id:08X}")))?,
        )
    } else {
        None
    };
    Ok(RecordView {
        header,
        offset,
        data,
        opened,
    })
}

impl<'a> PluginView<'a> {
    /// Walks a whole plugin.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        Cursor::new(FORMAT, bytes).magic(b"TES4", "header", "TES4")?;
        let mut cur = Cursor::new(FORMAT, bytes);
        let mut budget = MAX_INFLATED_TOTAL.max(bytes.len().saturating_mul(16));
        let header = read_record(&mut cur, bytes.len(), &mut budget)?;
        let mut nodes = Vec::new();
        // Open groups: (end offset, node index).
        let mut open: Vec<(usize, usize)> = Vec::new();
        loop {
            while let Some(&(end, index)) = open.last() {
                if cur.offset() < end {
                    break;
                }
                open.pop();
                let next = nodes.len();
                if let Some(Node::Group(g)) = nodes.get_mut(index) {
                    g.end = next;
                }
            }
            if cur.is_empty() {
                break;
            }
            let limit = open.last().map_or(bytes.len(), |&(end, _)| end);
            let offset = cur.offset();
            check_item_room(offset, limit, open.len())?;
            if cur.rest().starts_with(b"GRUP") {
                let h: &GroupHeader = cur.read(format_args!("group at {offset:#x}"))?;
                let len = check_group(h, offset, limit, open.len())?;
                open.push((offset + len, nodes.len()));
                nodes.push(Node::Group(GroupView {
                    header: h,
                    offset,
                    depth: open.len() - 1,
                    end: 0,
                }));
            } else {
                nodes.push(Node::Record(read_record(&mut cur, limit, &mut budget)?));
            }
        }
        Ok(PluginView {
            bytes,
            header,
            nodes,
        })
    }

    /// The input bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The `TES4` header record.
    pub fn header(&self) -> &RecordView<'a> {
        &self.header
    }

    /// Every group and record after the header, in file order.
    pub fn nodes(&self) -> &[Node<'a>] {
        &self.nodes
    }

    /// Every record after the header, in file order.
    pub fn records(&self) -> impl Iterator<Item = &RecordView<'a>> {
        self.nodes.iter().filter_map(|n| match n {
            Node::Record(r) => Some(r),
            Node::Group(_) => None,
        })
    }

    /// Every `NAVM` record that holds an `NVNM` subrecord: its FormID and the NVNM payload.
    pub fn navmeshes(&self) -> impl Iterator<Item = (u32, &[u8])> {
        self.records()
            .filter_map(|r| r.nvnm().map(|n| (r.form_id(), n)))
    }

    /// The zlib level (0-9) that reproduces a compressed `NAVM` or `NAVI` record's stored stream,
    /// if any.
    pub fn reproducing_level(record: &RecordView<'_>) -> Option<u32> {
        let n = record.opened.as_ref()?;
        if !n.compressed {
            return None;
        }
        detect_level(&n.body, record.data.get(4..)?)
    }
}
