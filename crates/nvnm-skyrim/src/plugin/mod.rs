//! The plugin container (`.esp`, `.esm`, `.esl`) of Skyrim LE and SE, as far as navmeshes need.
//!
//! A plugin is a `TES4` header record, then groups (`GRUP`, sized, nested) of records. Each
//! record has a 24-byte header and its data, zlib-compressed when flag `0x00040000` is set.
//! `NAVM` records hold the navmesh; its geometry is the `NVNM` subrecord (see [`crate::nvnm`]).
//! The `NAVI` record, the navmesh info map, tells the game about every navmesh (see [`navi`]).
//!
//! - [`view`]: [`PluginView`], a walk of the file that borrows every record and opens `NAVM`s
//!   and `NAVI`s.
//! - [`model`]: [`PluginFile`], the owned tree, with [`PluginFile::replace_nvnm`].
//! - [`navi`]: the `NAVI` record as data.
//! - [`compression`]: how a record's data is stored; a read keeps each compressed stream, which
//!   the writer gives back while the record is unchanged.
//! - [`mod@write`]: the writer; an unchanged plugin comes back byte for byte.
//! - [`dump`]: the text dump.
//! - [`validate`]: validation across records (`NVMI` entries against their navmeshes, deleted
//!   navmeshes).
//! - [`mod@conflicts`]: navmeshes that more than one plugin of a load order defines.
//! - [`mod@fix`]: fixing every navmesh of an edited plugin, and its `NVMI` entries.
//! - [`navigation`]: every navmesh as one navigation graph (`Format::navigation`).
//! - [`mod@apply`]: a mesh edit put onto each navmesh it touches (`Format::apply`).
//!
//! Only the 24-byte record and group headers of Skyrim and later are read (not Oblivion's
//! 20-byte ones).

pub mod apply;
#[cfg(feature = "arbitrary")]
mod arbitrary_impl;
pub mod compression;
pub mod conflicts;
pub mod dump;
pub mod fix;
pub mod model;
pub mod navi;
pub mod navigation;
pub mod read;
mod subrecord;
mod types;
pub mod validate;
pub mod view;
pub mod write;
mod zlib;

use core::fmt;

use nav_core::{Error, Finding, Format, Place, Result, Summary};

pub use compression::{DEFAULT_LEVEL, Resolved, StoredStream};
pub use conflicts::{ConflictReport, conflicts};
pub use model::{Compression, Group, Item, NavmeshBody, PluginFile, Record, RecordBody, Subrecord};
pub use navi::{NaviBody, NaviField, NavmeshInfo, PreferredPathing};
pub use types::{
    COMPRESSED, DELETED, FORMAT, MAX_DEPTH, MAX_INFLATED_RECORD, MAX_INFLATED_TOTAL, Signature,
};
pub use zlib::{deflate, detect_level};

#[cfg(feature = "serde")]
pub(crate) use types::hex_bytes;
pub use view::PluginView;

/// The plugin format (`skyrim-plugin`), for [`nav_core::Format`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Plugin;

impl Plugin {
    /// Replaces the `NVNM` of navmesh record `form_id` in a plugin's bytes, and gives the new
    /// plugin: the record and every enclosing group resized, the rest unchanged.
    pub fn replace_nvnm(plugin: &[u8], form_id: u32, nvnm: &[u8]) -> Result<Vec<u8>> {
        let mut model = Plugin.read(plugin)?;
        model.replace_nvnm(form_id, nvnm.to_vec())?;
        write::write(&model)
    }
}

impl Format for Plugin {
    type View<'a> = PluginView<'a>;
    type Model = PluginFile;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        crate::positions::PLUGIN_LISTS
    }

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Skyrim LE/SE and Fallout 4 plugins (.esp, .esm, .esl): records and groups around NAVM and NAVI"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["esp", "esm", "esl"]
    }

    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits] {
        &crate::geometry::ATTRIBUTE_BITS
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        bytes.starts_with(b"TES4")
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<Self::View<'a>> {
        PluginView::parse(bytes)
    }

    fn to_model(&self, view: &Self::View<'_>) -> Self::Model {
        PluginFile::from_view(view)
    }

    fn write(&self, model: &Self::Model) -> Result<Vec<u8>> {
        write::write(model)
    }

    fn write_to(&self, model: &Self::Model, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write::write_to(model, out)
    }

    /// Record by record ([`PluginFile::read_from`]): the model is all a rewrite of a whole
    /// game's plugin holds, never the file's bytes beside it.
    fn read_from(&self, input: &mut dyn std::io::Read, len: u64) -> std::io::Result<Self::Model> {
        PluginFile::read_from(input, len)
    }

    fn write_view(&self, view: &Self::View<'_>) -> Result<Vec<u8>> {
        Ok(write::write_view(view))
    }

    /// Each navmesh's `NVNM` checks, then the checks across records ([`validate::across_records`]).
    /// Brings every navmesh's `NVMI` entry up to date with its `NVNM`, as `replace` does for
    /// one: after an edit of a navmesh in JSON, the plugin's navmesh info follows it.
    fn refresh(&self, model: &mut Self::Model) -> Vec<String> {
        let ids: Vec<u32> = model.navmeshes().into_iter().map(|(id, _)| id).collect();
        ids.into_iter()
            .filter(|&id| model.update_navmesh_info(id) > 0)
            .map(|id| format!("NVMI {id:08X}: brought up to date with its edited NVNM"))
            .collect()
    }

    /// Fixes each navmesh's `NVNM` and brings the `NVMI` entries of those that changed up to
    /// date; see [`fix`].
    fn fix(&self, model: &mut Self::Model) -> Vec<String> {
        fix::fix(model)
    }

    fn validate(&self, model: &Self::Model) -> Vec<Finding> {
        let mut out = Vec::new();
        for (form_id, nvnm) in model.navmeshes() {
            let at = Place::new().form_id("NAVM", form_id).field("NVNM");
            match crate::nvnm::Nvnm.read(nvnm) {
                Ok(m) => out.extend(
                    crate::nvnm::Nvnm
                        .validate(&m)
                        .into_iter()
                        .map(|f| f.within(at.clone())),
                ),
                Err(e) => out.push(Finding::error(at, e.to_string())),
            }
        }
        for r in model.records() {
            let (record, kept) = match &r.body {
                RecordBody::Navmesh(b) => ("NAVM", &b.compression),
                RecordBody::NavigationInfo(b) => ("NAVI", &b.compression),
                RecordBody::Raw(_) => continue,
            };
            // A stream as read is not searched for its level here: that costs a deflate per
            // level per record (seconds on a whole game's plugin), and an unchanged record is
            // written back as stored whatever its level. `dump` shows the level.
            if let Compression::Kept { .. } = kept {
                out.push(Finding::info(
                    Place::new().form_id(record, r.form_id),
                    "no zlib level reproduces the stored stream; it is kept as stored",
                ));
            }
        }
        out.extend(validate::across_records(model));
        out
    }

    fn summary(&self, model: &Self::Model) -> Summary {
        let records = model.records();
        let mut groups = 0usize;
        let mut stack: Vec<&[Item]> = vec![&model.items];
        while let Some(items) = stack.pop() {
            for item in items {
                if let Item::Group(g) = item {
                    groups += 1;
                    stack.push(&g.items);
                }
            }
        }
        let navmesh = |r: &Record| matches!(r.body, RecordBody::Navmesh(_));
        let compressed = |r: &Record| matches!(&r.body, RecordBody::Navmesh(b) if b.compression != Compression::None);
        summary(
            model.header.form_version,
            [
                groups,
                records.len(),
                records.iter().filter(|r| navmesh(r)).count(),
                records.iter().filter(|r| compressed(r)).count(),
                model.navmeshes().len(),
                records
                    .iter()
                    .filter(|r| &r.signature.0 == b"NAVM" && r.is_deleted())
                    .count(),
                records
                    .iter()
                    .filter_map(|r| r.navi())
                    .map(|n| n.navmesh_infos().count())
                    .sum(),
            ],
        )
    }

    /// The same figures from the view's groups and records, without a model (and without
    /// copying any record's data).
    fn view_summary(&self, view: &Self::View<'_>) -> Summary {
        let groups = view
            .nodes()
            .iter()
            .filter(|n| matches!(n, view::Node::Group(_)))
            .count();
        // What the model opens as a navmesh body: a `NAVM` record whose data the walk opened.
        let navmesh =
            |r: &view::RecordView<'_>| &r.header().signature == b"NAVM" && r.opened().is_some();
        let compressed = |r: &view::RecordView<'_>| {
            &r.header().signature == b"NAVM" && r.opened().is_some_and(|o| o.compressed())
        };
        summary(
            view.header().header().form_version.get(),
            [
                groups,
                view.records().count(),
                view.records().filter(|r| navmesh(r)).count(),
                view.records().filter(|r| compressed(r)).count(),
                view.navmeshes().count(),
                view.records()
                    .filter(|r| &r.header().signature == b"NAVM" && r.is_deleted())
                    .count(),
                view.records()
                    .filter_map(view::RecordView::navi)
                    .map(|n| n.navmesh_infos().count())
                    .sum(),
            ],
        )
    }

    fn dump(&self, model: &Self::Model, out: &mut dyn fmt::Write) -> fmt::Result {
        dump::dump(model, out)
    }

    /// Every navmesh whose `NVNM` parses, in file order, in one geometry; see
    /// [`crate::geometry::plugin_geometry`]. A navmesh whose `NVNM` does not parse is left out
    /// and named in [`nav_core::geometry::Geometry::omitted`] (`navmesh 0410E930`) with the
    /// error, so that an export or a picture of the plugin can say it is incomplete.
    fn geometry(&self, model: &Self::Model) -> Option<nav_core::geometry::Geometry> {
        let mut meshes = Vec::new();
        let mut omitted = Vec::new();
        for (form_id, nvnm) in model.navmeshes() {
            match crate::nvnm::Nvnm.read(nvnm) {
                Ok(mesh) => meshes.push((form_id, mesh)),
                Err(e) => omitted.push(nav_core::geometry::Omitted {
                    part: format!("navmesh {form_id:08X}"),
                    reason: e.to_string(),
                }),
            }
        }
        let mut geometry = crate::geometry::plugin_geometry(&meshes);
        geometry.omitted = omitted;
        Some(geometry)
    }

    /// Each navmesh's share of the edit applied to its `NVNM`, its `NVMI` entry brought up to
    /// date; see [`apply`].
    fn apply(
        &self,
        model: &mut Self::Model,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply::apply(model, original, edit))
    }

    /// Every navmesh whose `NVNM` reads as one graph, edge links and doors between navmeshes of
    /// the plugin followed; see [`navigation`] (whose `PluginNavigation::unread` names the
    /// navmeshes left out).
    fn navigation(&self, model: &Self::Model) -> Option<nav_core::navigation::Graph> {
        Some(navigation::navigation(model).graph)
    }

    /// Records are known by their FormIDs, groups by label and type.
    fn record_identity(&self, list: &str) -> Option<nav_core::RecordIdentity> {
        (list == "items").then_some(nav_core::RecordIdentity::FormId)
    }

    /// Every navmesh's `NVNM` subrecord, named by its record's FormID (`0004164C`), as an
    /// `nvnm-skyrim` file.
    fn parts<'m>(&self, model: &'m Self::Model) -> Vec<nav_core::Part<'m>> {
        model
            .navmeshes()
            .into_iter()
            .map(|(form_id, nvnm)| nav_core::Part {
                name: format!("{form_id:08X}"),
                format: crate::nvnm::FORMAT,
                bytes: std::borrow::Cow::Borrowed(nvnm),
            })
            .collect()
    }

    /// Replaces the `NVNM` of the navmesh whose FormID is `name` (hex) and brings its `NVMI`
    /// entry up to date ([`PluginFile::replace_nvnm`]).
    fn replace_part(&self, model: &mut Self::Model, name: &str, bytes: &[u8]) -> Result<()> {
        let digits = name.trim_start_matches("0x").trim_start_matches("0X");
        let form_id = u32::from_str_radix(digits, 16).map_err(|_| {
            Error::invalid(
                FORMAT,
                format_args!("part {name}"),
                0,
                "a navmesh is named by its FormID in hex (0004164C)",
            )
        })?;
        model.replace_nvnm(form_id, bytes.to_vec())
    }
}

/// [`Format::summary`] of a plugin with this form version and these counts (groups, records,
/// navmesh records, compressed navmesh records, `NVNM` subrecords, deleted navmesh records,
/// `NVMI` entries): one text for the model and the view.
fn summary(form_version: u16, counts: [usize; 7]) -> Summary {
    let [groups, records, navmeshes, compressed, nvnm, deleted, nvmi] = counts;
    let variant = match form_version {
        43 => "Skyrim LE (form version 43)".to_string(),
        44 => "Skyrim SE (form version 44)".to_string(),
        v => format!("form version {v}"),
    };
    Summary::new(FORMAT, "TES4")
        .variant(variant)
        .count("groups", groups)
        .count("records", records)
        .count("navmesh records", navmeshes)
        .count("compressed navmesh records", compressed)
        .count("NVNM subrecords", nvnm)
        .count("deleted navmesh records", deleted)
        .count("NVMI entries", nvmi)
}
