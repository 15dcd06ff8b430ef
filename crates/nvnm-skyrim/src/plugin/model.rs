//! The owned model of a plugin: a tree of groups and records.
//!
//! Records other than `NAVM` and `NAVI` keep their data as stored ([`RecordBody::Raw`]). `NAVM`
//! records are opened ([`RecordBody::Navmesh`]): their subrecords, and how the data was
//! compressed: a compressed record keeps its stored zlib stream ([`Compression::Stored`]), which
//! the writer gives back while the record is unchanged. `NAVI` records are read
//! into data ([`RecordBody::NavigationInfo`], see [`super::navi`]). Group and record sizes are not stored: the
//! walk checks that every group is exactly filled by its contents, so the sizes always follow
//! from the payload, and the writer recomputes them (which is how a replaced navmesh fixes
//! every enclosing group).

use nav_core::{Error, Result};

pub use super::compression::Compression;
use super::compression::StoredStream;
use super::navi::NaviBody;
use super::view::{Node, OpenedData, PluginView, RecordView};
use super::{FORMAT, Signature};

/// One subrecord of a navmesh record.
///
/// In JSON an `NVNM` subrecord whose payload reads as navmesh geometry and writes back to the
/// same bytes is shown as that geometry (`"navmesh": {vertices, triangles, edge_links, grid,
/// ...}`), so it can be edited like an `.nvnm` file; any other payload is hex (`"data"`).
/// Either form is accepted on reading.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Subrecord {
    /// Subrecord type (`EDID`, `NVNM`, `ONAM`, `PNAM`, `NNAM`).
    pub signature: Signature,
    /// The payload.
    pub data: Vec<u8>,
    /// `Some(size field)` for the large form: an `XXXX` subrecord holding the real size, then
    /// this header with the given 16-bit size field (0 from the Creation Kit). Needed for
    /// payloads over 65,535 bytes.
    pub large: Option<u16>,
}

#[cfg(feature = "serde")]
mod subrecord_json {
    use serde::de::Error as _;
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::super::Signature;
    use super::Subrecord;
    use crate::nvnm::{self, NavmeshGeometry, NavmeshGeometryView};

    /// The payload as navmesh geometry, when it is an `NVNM` subrecord that reads as one and
    /// writes back byte for byte (so showing the model loses nothing).
    fn as_geometry(sub: &Subrecord) -> Option<NavmeshGeometry> {
        if sub.signature != Signature(*b"NVNM") {
            return None;
        }
        let view = NavmeshGeometryView::parse(&sub.data).ok()?;
        let model = NavmeshGeometry::from_view(&view);
        match nvnm::write::write(&model) {
            Ok(bytes) if bytes == sub.data => Some(model),
            _ => None,
        }
    }

    /// Writes hex without copying the payload.
    struct Hex<'a>(&'a [u8]);

    impl Serialize for Hex<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::super::hex_bytes::serialize(self.0, s)
        }
    }

    impl Serialize for Subrecord {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let geometry = as_geometry(self);
            let fields = 2 + usize::from(self.large.is_some());
            let mut st = s.serialize_struct("Subrecord", fields)?;
            st.serialize_field("signature", &self.signature)?;
            match &geometry {
                Some(model) => st.serialize_field("navmesh", model)?,
                None => st.serialize_field("data", &Hex(&self.data))?,
            }
            if let Some(large) = self.large {
                st.serialize_field("large", &large)?;
            }
            st.end()
        }
    }

    /// What JSON holds for a subrecord: `navmesh` or `data`, exactly one.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Json {
        signature: Signature,
        #[serde(default)]
        navmesh: Option<NavmeshGeometry>,
        #[serde(default, with = "optional_hex")]
        data: Option<Vec<u8>>,
        #[serde(default)]
        large: Option<u16>,
    }

    mod optional_hex {
        use serde::Deserializer;

        pub(super) fn deserialize<'de, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Vec<u8>>, D::Error> {
            super::super::super::hex_bytes::deserialize(d).map(Some)
        }
    }

    impl<'de> Deserialize<'de> for Subrecord {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let json = Json::deserialize(d)?;
            let data = match (json.navmesh, json.data) {
                (Some(model), None) => nvnm::write::write(&model).map_err(|e| {
                    D::Error::custom(format!("{} navmesh cannot be written: {e}", json.signature))
                })?,
                (None, Some(data)) => data,
                (Some(_), Some(_)) => {
                    return Err(D::Error::custom(
                        "a subrecord has either `navmesh` or `data`, not both",
                    ));
                }
                (None, None) => {
                    return Err(D::Error::custom(
                        "a subrecord needs its payload: `navmesh` (NVNM geometry) or `data` (hex)",
                    ));
                }
            };
            Ok(Subrecord {
                signature: json.signature,
                data,
                large: json.large,
            })
        }
    }
}

/// The opened data of a `NAVM` record.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavmeshBody {
    /// How the data is stored.
    pub compression: Compression,
    /// The subrecords, in order.
    pub subrecords: Vec<Subrecord>,
}

/// A record's data.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum RecordBody {
    /// The data as stored (any record but `NAVM` and `NAVI`; hex in JSON).
    Raw(#[cfg_attr(feature = "serde", serde(with = "super::hex_bytes"))] Vec<u8>),
    /// A `NAVM` record's data, opened.
    Navmesh(NavmeshBody),
    /// A `NAVI` record's data, read.
    NavigationInfo(NaviBody),
}

/// How an opened record's data was stored: for compressed data, the stream as stored (no level
/// search here; see [`StoredStream`]).
fn compression_of(opened: &OpenedData<'_>, data: &[u8]) -> Compression {
    if !opened.compressed {
        return Compression::None;
    }
    let stream = data.get(4..).unwrap_or(&[]);
    Compression::Stored(StoredStream::new(stream.to_vec(), &opened.body))
}

/// One record.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Record {
    /// Record type.
    pub signature: Signature,
    /// Record flags ([`super::COMPRESSED`], `0x20` deleted, …).
    pub flags: u32,
    /// FormID.
    #[cfg_attr(feature = "serde", serde(with = "crate::form_id::one"))]
    pub form_id: u32,
    /// Version-control timestamp.
    pub timestamp: u16,
    /// Version-control info.
    pub version_control: u16,
    /// Form version (43 Skyrim LE, 44 Skyrim SE).
    pub form_version: u16,
    /// Second version-control field.
    pub version_control_2: u16,
    /// The data.
    pub body: RecordBody,
}

impl Record {
    /// The `NVNM` payload of a navmesh record.
    pub fn nvnm(&self) -> Option<&[u8]> {
        match &self.body {
            RecordBody::Navmesh(n) => n
                .subrecords
                .iter()
                .find(|s| &s.signature.0 == b"NVNM")
                .map(|s| s.data.as_slice()),
            RecordBody::Raw(_) | RecordBody::NavigationInfo(_) => None,
        }
    }

    /// Whether the record is flagged deleted (`0x20`).
    pub fn is_deleted(&self) -> bool {
        self.flags & super::DELETED != 0
    }

    /// The data of a `NAVI` record.
    pub fn navi(&self) -> Option<&NaviBody> {
        match &self.body {
            RecordBody::NavigationInfo(n) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn from_view(r: &RecordView<'_>) -> Record {
        let h = r.header;
        // `navi()` reads only `NAVI` records (and cannot fail after the walk's split).
        let body = match (&r.opened, r.navi()) {
            (Some(n), Some(view)) => {
                RecordBody::NavigationInfo(NaviBody::from_view(&view, compression_of(n, r.data)))
            }
            (Some(n), None) if &h.signature == b"NAVM" => {
                let compression = compression_of(n, r.data);
                RecordBody::Navmesh(NavmeshBody {
                    compression,
                    subrecords: n
                        .subrecords
                        .iter()
                        .map(|s| Subrecord {
                            signature: s.signature,
                            data: n.body.get(s.range.clone()).unwrap_or(&[]).to_vec(),
                            large: s.large,
                        })
                        .collect(),
                })
            }
            _ => RecordBody::Raw(r.data.to_vec()),
        };
        Record {
            signature: Signature(h.signature),
            flags: h.flags.get(),
            form_id: h.form_id.get(),
            timestamp: h.timestamp.get(),
            version_control: h.version_control.get(),
            form_version: h.form_version.get(),
            version_control_2: h.version_control_2.get(),
            body,
        }
    }
}

/// One group and its contents.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Group {
    /// Label: a record type, a FormID or block coordinates, by group type.
    pub label: u32,
    /// Group type (0 top, 1 world children, 2/3 interior blocks, 4/5 exterior blocks, 6 cell
    /// children, 8 persistent, 9 temporary children, …).
    pub group_type: i32,
    /// Version-control timestamp.
    pub timestamp: u16,
    /// Version-control info.
    pub version_control: u16,
    /// Unknown, kept raw.
    pub unknown: u32,
    /// The groups and records inside.
    pub items: Vec<Item>,
}

impl Group {
    /// The group a stored header opens, with nothing in it yet: what the view's copy and the
    /// streaming reader both start from.
    pub(crate) fn opened_by(h: &super::view::GroupHeader) -> Group {
        Group {
            label: h.label.get(),
            group_type: h.group_type.get(),
            timestamp: h.timestamp.get(),
            version_control: h.version_control.get(),
            unknown: h.unknown.get(),
            items: Vec::new(),
        }
    }
}

/// A group or a record.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Item {
    /// A group.
    Group(Group),
    /// A record.
    Record(Record),
}

/// The owned model of a plugin (`.esp`, `.esm`, `.esl`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PluginFile {
    /// The `TES4` header record (kept raw).
    pub header: Record,
    /// The top-level groups (and any records) after it.
    pub items: Vec<Item>,
}

fn visit<'m>(items: &'m [Item], f: &mut dyn FnMut(&'m Record)) {
    for item in items {
        match item {
            Item::Group(g) => visit(&g.items, f),
            Item::Record(r) => f(r),
        }
    }
}

fn find_mut<'m>(items: &'m mut [Item], pred: &dyn Fn(&Record) -> bool) -> Option<&'m mut Record> {
    for item in items {
        match item {
            Item::Group(g) => {
                if let Some(r) = find_mut(&mut g.items, pred) {
                    return Some(r);
                }
            }
            Item::Record(r) if pred(r) => return Some(r),
            Item::Record(_) => {}
        }
    }
    None
}

impl PluginFile {
    /// Copies a view into the owned model. Every compressed record keeps its stored stream
    /// ([`Compression::Stored`]); no zlib level is searched here.
    pub fn from_view(view: &PluginView<'_>) -> PluginFile {
        // Build the tree from the pre-order list with an explicit stack (the walk limits depth).
        let mut stack: Vec<(usize, Group)> = Vec::new();
        let mut top: Vec<Item> = Vec::new();
        for (i, node) in view.nodes().iter().enumerate() {
            while stack.last().is_some_and(|(end, _)| *end <= i) {
                close(&mut stack, &mut top);
            }
            match node {
                Node::Group(g) => {
                    stack.push((g.end, Group::opened_by(g.header)));
                }
                Node::Record(r) => {
                    let item = Item::Record(Record::from_view(r));
                    match stack.last_mut() {
                        Some((_, g)) => g.items.push(item),
                        None => top.push(item),
                    }
                }
            }
        }
        while !stack.is_empty() {
            close(&mut stack, &mut top);
        }
        PluginFile {
            header: Record::from_view(view.header()),
            items: top,
        }
    }

    /// The master files the `TES4` header names (`MAST` subrecords), in order. A FormID's top
    /// byte indexes this list; a top byte equal to its length marks the plugin's own records.
    pub fn masters(&self) -> Vec<String> {
        let RecordBody::Raw(data) = &self.header.body else {
            return Vec::new();
        };
        let Ok(spans) = super::subrecord::subrecords(data) else {
            return Vec::new();
        };
        spans
            .iter()
            .filter(|s| &s.signature.0 == b"MAST")
            .filter_map(|s| data.get(s.range.clone()))
            .map(|name| {
                let name = name.split(|&b| b == 0).next().unwrap_or(name);
                String::from_utf8_lossy(name).into_owned()
            })
            .collect()
    }

    /// Every record after the header, in file order, with the groups around it (outermost
    /// first).
    pub fn records_in_groups(&self) -> Vec<(&Record, Vec<&Group>)> {
        fn go<'m>(
            items: &'m [Item],
            path: &mut Vec<&'m Group>,
            out: &mut Vec<(&'m Record, Vec<&'m Group>)>,
        ) {
            for item in items {
                match item {
                    Item::Group(g) => {
                        path.push(g);
                        go(&g.items, path, out);
                        path.pop();
                    }
                    Item::Record(r) => out.push((r, path.clone())),
                }
            }
        }
        let mut out = Vec::new();
        go(&self.items, &mut Vec::new(), &mut out);
        out
    }

    /// Every record after the header, in file order.
    pub fn records(&self) -> Vec<&Record> {
        let mut out = Vec::new();
        visit(&self.items, &mut |r| out.push(r));
        out
    }

    /// Every navmesh record with an `NVNM` subrecord: its FormID and the NVNM payload.
    pub fn navmeshes(&self) -> Vec<(u32, &[u8])> {
        let mut out = Vec::new();
        visit(&self.items, &mut |r| {
            if let Some(n) = r.nvnm() {
                out.push((r.form_id, n));
            }
        });
        out
    }

    /// Replaces the `NVNM` payload of the navmesh record `form_id` (the first one, should the
    /// FormID repeat). The writer then recompresses the changed record (see
    /// [`super::StoredStream`]: at the level that reproduces its stored stream, else another
    /// record's level, else [`super::DEFAULT_LEVEL`]; level 9 for a [`Compression::Kept`]
    /// stream) and recomputes its size and the size of every enclosing group. When the payload changes and reads as `NVNM`, the navmesh's
    /// `NVMI` entry is brought up to date ([`PluginFile::update_navmesh_info`]); the rest of
    /// the plugin is written back unchanged.
    pub fn replace_nvnm(&mut self, form_id: u32, nvnm: Vec<u8>) -> Result<()> {
        if self.set_nvnm(form_id, nvnm)? {
            self.update_navmesh_info(form_id);
        }
        Ok(())
    }

    /// Replaces the `NVNM` payload of navmesh record `form_id` as [`PluginFile::replace_nvnm`]
    /// does, but leaves the `NVMI` entries alone. Returns whether the payload changed.
    pub(crate) fn set_nvnm(&mut self, form_id: u32, nvnm: Vec<u8>) -> Result<bool> {
        let pred = |r: &Record| {
            r.form_id == form_id && matches!(r.body, RecordBody::Navmesh(_)) && r.nvnm().is_some()
        };
        let Some(record) = find_mut(&mut self.items, &pred) else {
            return Err(Error::invalid(
                FORMAT,
                format_args!("NAVM record {form_id:08X}"),
                0,
                "no navmesh record with an NVNM subrecord has this FormID",
            ));
        };
        let RecordBody::Navmesh(body) = &mut record.body else {
            return Ok(false); // unreachable: the predicate matched a navmesh body
        };
        if let Some(sub) = body
            .subrecords
            .iter_mut()
            .find(|s| &s.signature.0 == b"NVNM")
        {
            if sub.data == nvnm {
                return Ok(false);
            }
            sub.large = match (sub.large, nvnm.len() > usize::from(u16::MAX)) {
                (Some(keep), true) => Some(keep),
                (None, true) => Some(0),
                (_, false) => None,
            };
            sub.data = nvnm;
        }
        if let Compression::Kept { .. } = body.compression {
            body.compression = Compression::Zlib {
                level: super::DEFAULT_LEVEL,
            };
        }
        Ok(true)
    }

    /// Brings the `NVMI` entry of navmesh `form_id`, in every `NAVI` record of the plugin, up to
    /// date with the navmesh's `NVNM` the way the Creation Kit keeps it (see
    /// [`super::navi::sync::update`]: centre, island bounds, parent and the edge-link list are
    /// recomputed; the rest is kept). Returns how many entries changed; 0 when the navmesh has
    /// no entry, or its `NVNM` does not read.
    pub fn update_navmesh_info(&mut self, form_id: u32) -> usize {
        let mesh = self
            .navmeshes()
            .into_iter()
            .find(|(id, _)| *id == form_id)
            .and_then(|(_, nvnm)| nav_core::Format::read(&crate::nvnm::Nvnm, nvnm).ok());
        let Some(mesh) = mesh else {
            return 0;
        };
        let mut changed = 0;
        visit_mut(&mut self.items, &mut |r| {
            if let RecordBody::NavigationInfo(navi) = &mut r.body {
                if let Some(info) = navi.navmesh_info_mut(form_id) {
                    if super::navi::sync::update(info, &mesh) {
                        changed += 1;
                    }
                }
            }
        });
        changed
    }
}

fn visit_mut(items: &mut [Item], f: &mut dyn FnMut(&mut Record)) {
    for item in items {
        match item {
            Item::Group(g) => visit_mut(&mut g.items, f),
            Item::Record(r) => f(r),
        }
    }
}

pub(crate) fn close(stack: &mut Vec<(usize, Group)>, top: &mut Vec<Item>) {
    if let Some((_, g)) = stack.pop() {
        match stack.last_mut() {
            Some((_, parent)) => parent.items.push(Item::Group(g)),
            None => top.push(Item::Group(g)),
        }
    }
}
