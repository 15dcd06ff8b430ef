//! Quake bot navigation files: the 2021 re-release's `NAV2` and Quake II re-release's `NAV3`.
//!
//! Both are `bots/navigation/<map>.nav`: a graph of nodes joined by links, with the jump and
//! ladder paths (traversals) and gating entities (edicts) some links need. The file is six packed
//! little-endian arrays and nothing else; versions differ only in the header (a heuristic float
//! from NAV2 v16 on), the traversal size (a ladder plane from NAV3 v4 on) and the edict record.
//!
//! | magic | versions read |
//! |---|---|
//! | `NAV2` | 12–18 (13 and 16 from the documented layout, no public sample) |
//! | `NAV3` | 2–6 |
//!
//! Three levels, as in every navkit format crate:
//!
//! - [`NavView`]: zero-copy records over the input ([`NavView::parse`]).
//! - [`NavFile`]: the owned model, to edit or to build from scratch.
//! - [`write()`]: the byte-exact writer; `write(parse(b)) == b` for every valid file.
//!   [`write_to()`] streams the same bytes to any `std::io::Write`.
//!
//! [`validate()`] checks the indices between the arrays; [`fix()`] drops links to nodes that no
//! longer exist and re-packs the node link ranges after a hand edit (what `navkit fix` runs).
//! [`apply_graph()`] puts nodes moved in a 3D tool back onto the file
//! ([`nav_core::edit::apply_graph`]), keeping everything else.
//!
//! ```
//! use nav_quake::{Link, Magic, NavFile, Node};
//! use nav_core::RawF32;
//!
//! let mut file = NavFile::new(Magic::Nav2, 15).expect("v15 is supported");
//! let at = |x: f32| [RawF32::new(x), RawF32::ZERO, RawF32::ZERO];
//! file.nodes.push(Node { flags: 0, num_links: 1, first_link: 0, radius: 16, origin: at(0.0) });
//! file.nodes.push(Node { flags: 0, num_links: 0, first_link: 1, radius: 16, origin: at(64.0) });
//! file.links.push(Link { target: 1, link_type: 0, flags: 0, traversal: Link::NO_TRAVERSAL });
//!
//! let bytes = nav_quake::write(&file)?;
//! assert_eq!(&bytes[..4], b"NAV2");
//! assert_eq!(bytes.len(), 20 + 2 * 20 + 6 + 4);
//! assert_eq!(nav_quake::read(&bytes)?, file);
//! assert!(nav_quake::validate(&file).is_empty());
//! # Ok::<(), nav_core::Error>(())
//! ```
#![forbid(unsafe_code)]
// Library code never unwraps: every value read from input is checked.

mod apply;
mod dump;
mod fix;
mod geometry;
pub mod layout;
pub mod model;
mod navigation;
pub mod positions;
mod validate;
pub mod view;
mod write;

pub use apply::apply_graph;
pub use dump::dump;
pub use fix::fix;
pub use geometry::geometry;
pub use layout::{EdictLayout, Layout, Magic};
pub use model::{
    Edict, EdictEntity, Link, LinkFlags, LinkType, NavFile, Node, NodeFlags, Traversal, Vec3,
};
pub use navigation::navigation;
pub use validate::validate;
pub use view::NavView;
pub use write::{write, write_to};

use nav_core::{Finding, Format, Result, Summary};

/// The crate name, as errors and `--format` spell it.
pub const FORMAT: &str = "nav-quake";

/// Parses and copies into the owned model.
pub fn read(bytes: &[u8]) -> Result<NavFile> {
    Ok(NavFile::from_view(&NavView::parse(bytes)?))
}

/// The Quake `NAV2`/`NAV3` format, for code that handles formats generically.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quake;

impl Format for Quake {
    type View<'a> = NavView<'a>;
    type Model = NavFile;

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        positions::POSITION_LISTS
    }

    fn name(&self) -> &'static str {
        FORMAT
    }

    fn description(&self) -> &'static str {
        "Quake (2021) NAV2 and Quake II (2023) NAV3 bot navigation .nav"
    }

    fn extensions(&self) -> &'static [&'static str] {
        &["nav"]
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        bytes.starts_with(b"NAV2") || bytes.starts_with(b"NAV3")
    }

    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<NavView<'a>> {
        NavView::parse(bytes)
    }

    fn to_model(&self, view: &NavView<'_>) -> NavFile {
        NavFile::from_view(view)
    }

    fn write(&self, model: &NavFile) -> Result<Vec<u8>> {
        write(model)
    }

    fn write_to(&self, model: &NavFile, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        write_to(model, out)
    }

    fn write_view(&self, view: &NavView<'_>) -> Result<Vec<u8>> {
        Ok(view.write())
    }

    fn validate(&self, model: &NavFile) -> Vec<Finding> {
        validate(model)
    }

    fn fix(&self, model: &mut NavFile) -> Vec<String> {
        fix(model)
    }

    fn summary(&self, model: &NavFile) -> Summary {
        summary(
            model.magic,
            model.version,
            [
                model.nodes.len(),
                model.links.len(),
                model.traversals.len(),
                model.edicts.len(),
            ],
        )
    }

    /// The same figures from the view's arrays, without a model.
    fn view_summary(&self, view: &NavView<'_>) -> Summary {
        let layout = view.layout();
        summary(
            layout.magic(),
            layout.version(),
            [
                view.nodes().len(),
                view.links().len(),
                view.traversals().len(),
                view.edicts().len(),
            ],
        )
    }

    fn dump(&self, model: &NavFile, out: &mut dyn core::fmt::Write) -> core::fmt::Result {
        dump(model, out)
    }

    fn geometry(&self, model: &NavFile) -> Option<nav_core::geometry::Geometry> {
        Some(geometry(model))
    }

    /// Moved nodes get their new origin; everything else is kept as stored (see
    /// [`apply_graph()`]: the game derives link costs from origins at load, and traversals
    /// and edicts stay where they are).
    fn apply_graph(
        &self,
        model: &mut NavFile,
        original: &nav_core::geometry::Geometry,
        edit: &nav_core::edit::GraphEdit,
    ) -> Option<Result<Vec<String>>> {
        Some(apply_graph(model, original, edit))
    }

    fn navigation(&self, model: &NavFile) -> Option<nav_core::navigation::Graph> {
        Some(navigation(model))
    }
}

/// [`Format::summary`] of a file with this magic, version and node, link, traversal and edict
/// counts: one text for the model and the view.
fn summary(magic: Magic, version: u32, [nodes, links, traversals, edicts]: [usize; 4]) -> Summary {
    Summary::new(FORMAT, format!("{} v{version}", magic.as_str()))
        .variant(match magic {
            Magic::Nav2 => "Quake (2021 re-release)",
            Magic::Nav3 => "Quake II (2023 re-release)",
        })
        .count("nodes", nodes)
        .count("links", links)
        .count("traversals", traversals)
        .count("edicts", edicts)
}
