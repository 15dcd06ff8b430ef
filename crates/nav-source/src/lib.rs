//! Valve Source engine bot navigation meshes (`.nav`, magic `0xFEEDFACE`), versions 1 to 16.
//!
//! Reads and writes, byte for byte, the files of the Source SDK's `CNavMesh` (Garry's Mod,
//! Half-Life 2: Deathmatch, SDK mods), Counter-Strike: Source and CS:GO, Team Fortress 2 and
//! Left 4 Dead 1 and 2, and the older GoldSrc CS 1.6 / Condition Zero bot files (versions 3 to
//! 5). Source 2 files share the magic but not the format (version 30 and up); they are refused.
//!
//! - [`SourceView::parse`] builds a zero-copy view, detecting the game [`Flavour`];
//!   [`SourceView::parse_with`] reads as a flavour you choose; [`SourceMesh::from_view`] copies a
//!   view into the owned model.
//! - [`write()`] serialises a model, [`write_view`] a view.
//! - [`validate()`] reports ids that name nothing; [`fix()`] drops those references after a
//!   hand edit (what `navkit fix` runs).
//! - [`apply::apply`] puts geometry edited in a 3D tool back onto the model, keeping the rest
//!   (what `navkit apply` runs).
//! - [`navigation()`] maps the areas, connections and ladders to the navigation graph
//!   ([`nav_core::navigation::Graph`]) the path queries run on.
//! - [`SourceNav`] implements [`nav_core::Format`] (with flavour auto-detection);
//!   [`SourceNavAs`] does the same for one flavour you choose (`navkit --flavour`).
//!
//! ```
//! use nav_core::RawF32;
//! use nav_source::{Area, AreaCustom, Flavour, SourceMesh};
//!
//! let mut mesh = SourceMesh::new(Flavour::TeamFortress2, 16, 2);
//! mesh.areas.push(Area {
//!     id: 1,
//!     se_corner: [RawF32::new(64.0), RawF32::new(64.0), RawF32::ZERO],
//!     custom: AreaCustom::TeamFortress2 { tf_attributes: 0x2 },
//!     ..Area::default()
//! });
//! let bytes = nav_source::write(&mesh)?;
//! let view = nav_source::SourceView::parse(&bytes)?;
//! assert_eq!(view.flavour(), Flavour::TeamFortress2);
//! assert_eq!(view.area(0).map(|a| a.id()), Some(1));
//! assert_eq!(SourceMesh::from_view(&view), mesh);
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]

use core::fmt;

use nav_core::{Finding, Format, Result, Summary};

pub mod apply;
#[cfg(feature = "arbitrary")]
mod arbitrary_impl;
pub mod dump;
pub mod fix;
pub mod flavour;
pub mod geometry;
pub mod model;
pub mod navigation;
pub mod positions;
pub mod validate;
pub mod view;
pub mod write;

pub use fix::fix;
pub use flavour::{Flavour, Layout, candidates};
pub use geometry::geometry;
pub use model::{
    ApproachArea, Area, AreaCustom, AreaIds, EncounterPath, EncounterSpot, HidingSpot, Ladder,
    NavString, ShortVec, SourceMesh, TerrorMesh, VisibleArea, VisibleAreaIndex,
};
pub use navigation::navigation;
pub use validate::validate;
pub use view::{AreaView, SourceView};
pub use write::{write, write_into, write_to, write_view};

/// Parses (detecting the game layout) and copies into the owned model in one step.
pub fn read(bytes: &[u8]) -> Result<SourceMesh> {
    Ok(SourceMesh::from_view(&SourceView::parse(bytes)?))
}

/// The crate name, as errors and the command-line tool show it.
pub const FORMAT: &str = "nav-source";

impl<'a> SourceView<'a> {
    /// Reads a `.nav` file, detecting the game layout from the sub-version (see [`view::parse`]).
    pub fn parse(bytes: &'a [u8]) -> Result<SourceView<'a>> {
        view::parse(bytes)
    }

    /// Reads a `.nav` file as one game's layout (see [`view::parse_with`]).
    pub fn parse_with(bytes: &'a [u8], flavour: Flavour) -> Result<SourceView<'a>> {
        view::parse_with(bytes, flavour)
    }
}

/// The Source `.nav` format, with flavour auto-detection (see [`SourceView::parse`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SourceNav;

impl Format for SourceNav {
    type View<'a> = SourceView<'a>;
    type Model = SourceMesh;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        positions::POSITION_LISTS
    }

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Valve Source engine .nav v1-16 (HL2DM, GMod, CS:S, CS:GO, TF2, L4D, L4D2; GoldSrc CS/CZ v3-5)"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["nav"]
    }

    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits] {
        &geometry::ATTRIBUTE_BITS
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        // The magic alone: Source 2 files carry it too, and the parser refuses them with an error
        // that says what they are, which is more use than "unrecognised".
        bytes
            .get(0..4)
            .is_some_and(|magic| magic == flavour::MAGIC.to_le_bytes())
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<SourceView<'a>> {
        SourceView::parse(bytes)
    }

    fn to_model(&self, view: &SourceView<'_>) -> SourceMesh {
        SourceMesh::from_view(view)
    }

    fn write(&self, model: &SourceMesh) -> Result<Vec<u8>> {
        let bytes = write(model)?;
        write::check_detectable(model, &bytes)?;
        Ok(bytes)
    }

    fn write_into(&self, model: &SourceMesh, out: &mut Vec<u8>) -> Result<()> {
        write_into(model, out)?;
        write::check_detectable(model, out)
    }

    fn write_to(&self, model: &SourceMesh, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if model.flavour == Flavour::guess(model.version, model.sub_version) {
            return write_to(model, out);
        }
        // A flavour auto-detection may not find again is checked on the written bytes, so
        // these few files are written in memory first.
        let bytes = self.write(model).map_err(nav_core::error::refusal)?;
        out.write_all(&bytes)
    }

    fn write_view(&self, view: &SourceView<'_>) -> Result<Vec<u8>> {
        write_view(view)
    }

    fn validate(&self, model: &SourceMesh) -> Vec<Finding> {
        validate(model)
    }

    fn fix(&self, model: &mut SourceMesh) -> Vec<String> {
        fix(model)
    }

    fn summary(&self, model: &SourceMesh) -> Summary {
        let layout = model.layout();
        let spots: usize = model.areas.iter().map(|a| a.hiding_spots.len()).sum();
        let paths: usize = model.areas.iter().map(|a| a.encounter_paths.len()).sum();
        let visible: usize = model
            .areas
            .iter()
            .map(|a| match &a.custom {
                AreaCustom::Terror { visible_areas, .. } => visible_areas.len(),
                _ => a.visible_areas.len(),
            })
            .sum();
        let mut s = Summary::new(FORMAT, layout.version_text())
            .variant(model.flavour.name())
            .count("places", model.places.len())
            .count("areas", model.areas.len())
            .count("ladders", model.ladders.len())
            .count("hiding spots", spots)
            .count("encounter paths", paths)
            .count("visible areas", visible);
        if !model.stale_tail.is_empty() {
            s = s.count("stale tail bytes", model.stale_tail.len());
        }
        s
    }

    fn view_summary(&self, view: &SourceView<'_>) -> Summary {
        summary_of_view(view)
    }

    fn dump(&self, model: &SourceMesh, out: &mut dyn fmt::Write) -> fmt::Result {
        dump::dump(model, out)
    }

    fn geometry(&self, model: &SourceMesh) -> Option<nav_core::geometry::Geometry> {
        Some(geometry(model))
    }

    fn navigation(&self, model: &SourceMesh) -> Option<nav_core::navigation::Graph> {
        Some(navigation(model))
    }

    fn apply(
        &self,
        model: &mut SourceMesh,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply::apply(model, original, edit))
    }

    /// Areas and ladders are known by their ids.
    fn record_identity(&self, list: &str) -> Option<nav_core::RecordIdentity> {
        matches!(list, "areas" | "ladders").then_some(nav_core::RecordIdentity::Field("id"))
    }
}

/// The Source `.nav` format read as one chosen flavour, without auto-detection: what
/// `navkit --flavour NAME` uses. Everything but the parse (and the write, which does not ask
/// that auto-detection would find the flavour again) is [`SourceNav`]'s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceNavAs(pub Flavour);

impl SourceNavAs {
    /// The format read as `flavour`, with a `'static` lifetime (for tools that keep formats in a
    /// list of `&'static dyn` objects).
    pub fn get(flavour: Flavour) -> &'static SourceNavAs {
        match flavour {
            Flavour::Base => &SourceNavAs(Flavour::Base),
            Flavour::CounterStrike => &SourceNavAs(Flavour::CounterStrike),
            Flavour::TeamFortress2 => &SourceNavAs(Flavour::TeamFortress2),
            Flavour::Left4Dead => &SourceNavAs(Flavour::Left4Dead),
            Flavour::Left4Dead2 => &SourceNavAs(Flavour::Left4Dead2),
        }
    }
}

// Every method is [`SourceNav`]'s but the parse (and `read`/`read_from`, whose defaults go
// through it) and the writes, which do not ask that auto-detection would find the flavour again.
// Methods with a default are delegated too, so that what `SourceNav` gains (an override of a
// default) `--flavour` keeps; `tests/flavour_as.rs` checks that the two agree on every method.
impl Format for SourceNavAs {
    type View<'a> = SourceView<'a>;
    type Model = SourceMesh;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        positions::POSITION_LISTS
    }

    fn name(&self) -> &'static str {
        SourceNav.name()
    }

    fn description(&self) -> &'static str {
        SourceNav.description()
    }

    fn extensions(&self) -> &'static [&'static str] {
        SourceNav.extensions()
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        SourceNav.sniff(bytes)
    }

    fn has_signature(&self) -> bool {
        SourceNav.has_signature()
    }

    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits] {
        SourceNav.attribute_bits()
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<SourceView<'a>> {
        SourceView::parse_with(bytes, self.0)
    }

    fn to_model(&self, view: &SourceView<'_>) -> SourceMesh {
        SourceNav.to_model(view)
    }

    fn write(&self, model: &SourceMesh) -> Result<Vec<u8>> {
        write(model)
    }

    fn write_into(&self, model: &SourceMesh, out: &mut Vec<u8>) -> Result<()> {
        write_into(model, out)
    }

    fn write_to(&self, model: &SourceMesh, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_to(model, out)
    }

    fn write_view(&self, view: &SourceView<'_>) -> Result<Vec<u8>> {
        SourceNav.write_view(view)
    }

    fn validate(&self, model: &SourceMesh) -> Vec<Finding> {
        SourceNav.validate(model)
    }

    fn summary(&self, model: &SourceMesh) -> Summary {
        SourceNav.summary(model)
    }

    fn view_summary(&self, view: &SourceView<'_>) -> Summary {
        SourceNav.view_summary(view)
    }

    fn refresh(&self, model: &mut SourceMesh) -> Vec<String> {
        SourceNav.refresh(model)
    }

    fn fix(&self, model: &mut SourceMesh) -> Vec<String> {
        SourceNav.fix(model)
    }

    fn dump(&self, model: &SourceMesh, out: &mut dyn fmt::Write) -> fmt::Result {
        SourceNav.dump(model, out)
    }

    fn parts<'m>(&self, model: &'m SourceMesh) -> Vec<nav_core::Part<'m>> {
        SourceNav.parts(model)
    }

    fn replace_part(&self, model: &mut SourceMesh, name: &str, bytes: &[u8]) -> Result<()> {
        SourceNav.replace_part(model, name, bytes)
    }

    fn geometry(&self, model: &SourceMesh) -> Option<nav_core::geometry::Geometry> {
        SourceNav.geometry(model)
    }

    fn navigation(&self, model: &SourceMesh) -> Option<nav_core::navigation::Graph> {
        SourceNav.navigation(model)
    }

    fn apply(
        &self,
        model: &mut SourceMesh,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        SourceNav.apply(model, original, edit)
    }

    fn record_identity(&self, list: &str) -> Option<nav_core::RecordIdentity> {
        SourceNav.record_identity(list)
    }

    fn build(
        &self,
        mesh: &nav_core::geometry::TriangleMesh,
    ) -> Option<Result<nav_core::Built<SourceMesh>>> {
        SourceNav.build(mesh)
    }
}

/// [`Format::summary`]'s figures, from the totals the parse counted: no model, no second walk.
fn summary_of_view(view: &SourceView<'_>) -> Summary {
    let totals = view.totals();
    let (spots, paths, visible) = (
        totals.hiding_spots,
        totals.encounter_paths,
        totals.visible_areas,
    );
    let mut s = Summary::new(FORMAT, view.layout().version_text())
        .variant(view.flavour().name())
        .count("places", view.places().len())
        .count("areas", view.area_count())
        .count("ladders", view.ladders().len())
        .count("hiding spots", spots)
        .count("encounter paths", paths)
        .count("visible areas", visible);
    if !view.stale_tail().is_empty() {
        s = s.count("stale tail bytes", view.stale_tail().len());
    }
    s
}
