//! The [`Format`] trait that ties the format crates together, and what it returns.
//!
//! A format crate implements `Format` on a unit struct (`nav_quake::Quake`). The trait follows the
//! one path data takes through navkit:
//!
//! ```text
//! bytes ──parse──▶ View<'a> ──to_model──▶ Model ──write──▶ bytes
//! ```
//!
//! The command-line tool keeps a list of them and picks one by [`Format::sniff`] or by name.

use core::fmt;

use crate::error::Result;
pub use crate::finding::{Finding, Severity};

/// One navmesh file format.
pub trait Format {
    /// The zero-copy view: borrowed records over the input bytes.
    type View<'a>;
    /// The owned, editable model. It holds everything a byte-exact write needs.
    type Model: Clone + PartialEq + fmt::Debug;

    /// The crate name, used by `--format` and in error messages (`nav-quake`).
    fn name(&self) -> &'static str;

    /// One line for people: which games and files this is.
    fn description(&self) -> &'static str;

    /// File name endings this format uses, without the dot (`nav`, `nav2`).
    fn extensions(&self) -> &'static [&'static str];

    /// Whether `bytes` look like this format (magic and version, nothing more). Formats that have
    /// no signature answer `false` and are chosen by name.
    fn sniff(&self, bytes: &[u8]) -> bool;

    /// Whether files of this format start with a signature that [`Format::sniff`] checks. Tools
    /// pick a format by file name ending only among those that have none (Skyrim's NVNM blobs),
    /// so that a `.nav` of an unknown engine is not mistaken for a known one.
    fn has_signature(&self) -> bool {
        true
    }

    /// Delimits every record and checks what that needs; after this every getter of the view is
    /// infallible.
    fn parse<'a>(&self, bytes: &'a [u8]) -> Result<Self::View<'a>>;

    /// Copies a view into the owned model.
    fn to_model(&self, view: &Self::View<'_>) -> Self::Model;

    /// Serialises a model. A model read from a file gives that file's bytes back; a model built
    /// or edited gets its counts and offsets recomputed, and is refused where the format cannot
    /// hold it.
    fn write(&self, model: &Self::Model) -> Result<Vec<u8>>;

    /// [`Format::write`] into `out`, replacing its contents: a caller that holds a buffer it no
    /// longer needs (the input of a rewrite) lets the writer reuse its memory instead of taking
    /// fresh pages. On error `out` holds unspecified bytes. The default empties `out` and
    /// streams into it with [`Format::write_to`], so a format whose `write_to` streams fills
    /// the buffer in place.
    fn write_into(&self, model: &Self::Model, out: &mut Vec<u8>) -> Result<()> {
        out.clear();
        self.write_to(model, out)
            .map_err(|e| match crate::error::refused(&e) {
                Some(refusal) => refusal.clone(),
                // A `Vec` takes every byte: only a refusal can end the stream early.
                None => crate::Error::unrepresentable(self.name(), "write_to", e),
            })
    }

    /// [`Format::write`] streamed to `out`: records go to the writer as they are laid out, so
    /// a caller writing a file through a `BufWriter` holds no second copy of it. A model the
    /// format cannot hold fails with [`std::io::ErrorKind::InvalidData`] carrying the
    /// [`crate::Error`] (see [`crate::error::refusal`]), before anything is written where the
    /// format allows that check up front. The default writes the whole file into memory first
    /// and hands it over in one `write_all`; formats override it to stream.
    fn write_to(&self, model: &Self::Model, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let bytes = self.write(model).map_err(crate::error::refusal)?;
        out.write_all(&bytes)
    }

    /// Serialises straight from a view. The default goes through the model.
    fn write_view(&self, view: &Self::View<'_>) -> Result<Vec<u8>> {
        self.write(&self.to_model(view))
    }

    /// Semantic checks that parsing does not make (dangling indices, broken invariants).
    fn validate(&self, model: &Self::Model) -> Vec<Finding>;

    /// Format, version and counts, for `navkit info`.
    fn summary(&self, model: &Self::Model) -> Summary;

    /// The same summary as [`Format::summary`], from the zero-copy view. The default builds the
    /// model; a format whose view can count its records overrides it, so `navkit info` reads
    /// nothing it does not need.
    fn view_summary(&self, view: &Self::View<'_>) -> Summary {
        self.summary(&self.to_model(view))
    }

    /// Brings data that one part of the model derives from another up to date after a hand
    /// edit (`navkit from-json` calls it before writing), and returns one line per change. A
    /// model read from a game's file is left as it is. The default changes nothing.
    fn refresh(&self, _model: &mut Self::Model) -> Vec<String> {
        Vec::new()
    }

    /// Makes a hand-edited model consistent again, for `navkit fix`: drops references to
    /// records that no longer exist and recomputes derived structures that
    /// [`Format::validate`] finds inconsistent with the data they derive from. Returns one line
    /// per change (`"areas[id 61].connections[north]: dropped area 60, which does not exist"`).
    ///
    /// A model that `validate` finds no error in is left exactly as it is and the list is empty,
    /// so a valid file written back after `fix` is byte-identical. The default changes nothing.
    fn fix(&self, _model: &mut Self::Model) -> Vec<String> {
        Vec::new()
    }

    /// The whole structure as text for people, for `navkit dump` and snapshot tests.
    fn dump(&self, model: &Self::Model, out: &mut dyn fmt::Write) -> fmt::Result {
        write!(out, "{model:#?}")
    }

    /// The files a container holds (each navmesh inside a Skyrim plugin), in file order; empty
    /// for a format that holds no others. `navkit extract` writes them out, and `navkit
    /// roundtrip` checks each with its own format.
    fn parts<'m>(&self, _model: &'m Self::Model) -> Vec<Part<'m>> {
        Vec::new()
    }

    /// Puts `bytes`, a whole file of the part's format, in place of the part named `name`, and
    /// brings whatever the container derives from it up to date (`navkit replace`). The caller
    /// checks that the bytes read as the part's format. The default refuses: the format holds
    /// no parts.
    fn replace_part(&self, _model: &mut Self::Model, name: &str, _bytes: &[u8]) -> Result<()> {
        Err(crate::Error::unrepresentable(
            self.name(),
            format_args!("part {name}"),
            "this format holds no other files",
        ))
    }

    /// The model as world-space polygons and a graph, for export and pictures. `None` for a
    /// format that has not mapped itself yet.
    fn geometry(&self, _model: &Self::Model) -> Option<crate::geometry::Geometry> {
        None
    }

    /// The vertices of [`Format::geometry`], without its polygons and graph, for a reader who
    /// wants positions alone (Python's `Navmesh.vertices`). Equal to `geometry(model)`'s
    /// vertices, which the round-trip oracle checks on every file
    /// ([`crate::oracle::check_vertices`]); a format overrides it only where it has them
    /// cheaper than through the whole geometry.
    fn vertices(&self, model: &Self::Model) -> Option<Vec<[f32; 3]>> {
        self.geometry(model).map(|g| g.vertices)
    }

    /// Puts a mesh edit onto the model ([`crate::edit`]), keeping everything the mesh does not
    /// show, and returns one line per change, like [`Format::fix`]
    /// (`"triangles[12]: vertex 40 moved to (1, 2, 3)"`). `None` for a format that cannot
    /// apply edits (no geometry, or not implemented yet).
    ///
    /// `original` is [`Format::geometry`] of this model, which the edit was matched against:
    /// its polygons' [`crate::geometry::Polygon::record`] name the records, and its
    /// [`crate::geometry::Geometry::vertex_identity`] says what a vertex index names. The rules:
    ///
    /// - a moved vertex changes only its coordinates (raw bits of everything else kept);
    /// - a deleted polygon deletes its record, and the format's `fix` then drops what referred
    ///   to it;
    /// - an added face becomes a new record with the format's defaults and the next free id;
    /// - an attribute change sets the record's field of that name.
    ///
    /// What the format cannot hold (a quad in a triangle format that cannot split it, an
    /// attribute value out of range) is refused with an error. Callers go through
    /// [`crate::edit::apply_mesh`], which calls this only for a non-empty edit and keeps the
    /// model unchanged on error. The default returns `None`.
    fn apply(
        &self,
        _model: &mut Self::Model,
        _original: &crate::geometry::Geometry,
        _edit: &crate::edit::MeshEdit,
    ) -> Option<Result<Vec<String>>> {
        None
    }

    /// Puts a graph edit onto the model ([`crate::edit::GraphEdit`]: nodes moved in a 3D
    /// tool), keeping everything else as stored, and returns one line per change
    /// (`"nodes[12]: origin moved to (1, 2, 3)"`). `None` for a format that cannot apply graph
    /// edits: one without a graph of its own, or whose graph derives from its polygons (edit
    /// those through [`Format::apply`]).
    ///
    /// `original` is [`Format::geometry`] of this model, which the edit was matched against:
    /// node `k` of [`crate::edit::GraphEdit::moved`] is its `nodes[k]`. A moved node changes
    /// only its position. Callers go through [`crate::edit::apply_graph`], which calls this
    /// only for a non-empty edit and keeps the model unchanged on error. The default returns
    /// `None`.
    fn apply_graph(
        &self,
        _model: &mut Self::Model,
        _original: &crate::geometry::Geometry,
        _edit: &crate::edit::GraphEdit,
    ) -> Option<Result<Vec<String>>> {
        None
    }

    /// The model as a navigation graph ([`crate::navigation`]): the cells the game paths over,
    /// with the ids users know, and directed edges of the kinds the file stores. `None` for a
    /// format that has not mapped itself yet.
    fn navigation(&self, _model: &Self::Model) -> Option<crate::navigation::Graph> {
        None
    }

    /// The named bits of the formats' integer flag attributes ([`crate::geometry::Geometry::attributes`]),
    /// one entry per attribute that has any, for editors that show flags as named checkboxes.
    /// An attribute a file does not carry (another game's word) is simply absent from its
    /// geometry. The default names none.
    fn attribute_bits(&self) -> &'static [AttributeBits] {
        &[]
    }

    /// How the records of the list field `list` are known from one version of a model to the
    /// next, for `navkit diff` to pair them (Source `areas` by their `id`); `None` pairs them by
    /// position. The default pairs every list by position.
    fn record_identity(&self, _list: &str) -> Option<RecordIdentity> {
        None
    }

    /// The lists of the model whose records other records name by their position, and those
    /// references ([`crate::positions`]): `to-json` writes each record's position as `"#"`, and
    /// `from-json` renumbers the references when records were deleted, inserted or reordered.
    /// The default has none.
    fn position_lists(&self) -> &'static [crate::positions::PositionList] {
        &[]
    }

    /// A new navmesh made from a triangle mesh, laid out as the game lays out its own files, with
    /// a warning for each triangle of a shape game files have but a modeller may not mean
    /// (vertical, degenerate, facing down, sharing an edge oddly), or `None` for a format that
    /// has no builder. The builder refuses only meshes the format cannot store, with an error
    /// naming the limit or the triangle ([`crate::geometry::TriangleMesh::screen`]).
    fn build(&self, _mesh: &crate::geometry::TriangleMesh) -> Option<Result<Built<Self::Model>>> {
        None
    }

    /// Reads the model from `input`, which holds `len` bytes (a file's length): for files too
    /// large to hold twice. A refusal is [`std::io::ErrorKind::InvalidData`] carrying the
    /// [`crate::Error`] a read of the bytes gives ([`crate::error::refused`] takes it out);
    /// errors of `input` itself come back as they are. The default reads every byte into
    /// memory and then calls [`Format::read`], dropping the bytes before it returns; a
    /// container whose parts can be read one at a time overrides it, so that the model is all
    /// it holds.
    fn read_from(&self, input: &mut dyn std::io::Read, len: u64) -> std::io::Result<Self::Model> {
        // The length only sizes the first allocation; a file that is shorter or longer than
        // it says is read to its end all the same.
        let first = usize::try_from(len.min(1 << 30)).unwrap_or(0);
        let mut bytes = Vec::with_capacity(first);
        input.read_to_end(&mut bytes)?;
        self.read(&bytes).map_err(crate::error::refusal)
    }

    /// Parses and copies into the model in one step.
    fn read(&self, bytes: &[u8]) -> Result<Self::Model> {
        let view = self.parse(bytes)?;
        Ok(self.to_model(&view))
    }
}

/// What [`Format::build`] makes: the model and the warnings about the mesh it was made from,
/// each at `triangles[i]` (the index of the mesh's triangle), one per unusual triangle or edge.
#[derive(Debug, Clone, PartialEq)]
pub struct Built<M> {
    /// The model built.
    pub model: M,
    /// What the builder kept but warns about, in the order found.
    pub warnings: Vec<crate::Finding>,
}

impl<M> Built<M> {
    /// A model built without warnings.
    pub fn new(model: M) -> Self {
        Built {
            model,
            warnings: Vec::new(),
        }
    }

    /// The same warnings over another model (the built model written as bytes).
    pub fn map<N>(self, f: impl FnOnce(M) -> N) -> Built<N> {
        Built {
            model: f(self.model),
            warnings: self.warnings,
        }
    }

    /// [`Built::map`] with a fallible conversion.
    pub fn try_map<N, E>(
        self,
        f: impl FnOnce(M) -> core::result::Result<N, E>,
    ) -> core::result::Result<Built<N>, E> {
        Ok(Built {
            model: f(self.model)?,
            warnings: self.warnings,
        })
    }
}

/// How the records of one list are known across two versions of a model
/// ([`Format::record_identity`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordIdentity {
    /// By an integer field of the record (`id`), shown as `[id 60]`.
    Field(&'static str),
    /// Skyrim plugin items: records by their FormID (`[FormID 0x0507C5B6]`), groups by label
    /// and type.
    FormId,
}

/// The named bits of one integer attribute of polygons ([`Format::attribute_bits`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttributeBits {
    /// The attribute's name, as [`crate::geometry::Geometry::attributes`] and the format's JSON
    /// name it (`attribute_flags`).
    pub attribute: &'static str,
    /// Each named bit: its mask (one bit, or a few that belong together) and its name for
    /// people (`"jump"`), in the order an editor lists them. Masks do not overlap and names
    /// are unique.
    pub bits: &'static [(u32, &'static str)],
}

impl AttributeBits {
    /// The first problem of the table: a mask that is zero or overlaps an earlier one, or a name
    /// that is empty or repeats (`None` when there is none). Format crates test their tables
    /// with it.
    pub fn problem(&self) -> Option<String> {
        let mut seen = 0u32;
        for (i, (mask, name)) in self.bits.iter().enumerate() {
            if *mask == 0 || seen & mask != 0 {
                return Some(format!(
                    "{}: mask {mask:#x} is zero or overlaps",
                    self.attribute
                ));
            }
            seen |= mask;
            if name.is_empty() || self.bits.iter().take(i).any(|(_, n)| n == name) {
                return Some(format!(
                    "{}: name `{name}` is empty or repeats",
                    self.attribute
                ));
            }
        }
        None
    }
}

/// One file held inside a container file ([`Format::parts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Part<'m> {
    /// What the container calls it (a Skyrim navmesh's FormID as 8 hex digits), unique within
    /// the container; [`Format::replace_part`] takes the same name.
    pub name: String,
    /// The name of the format its bytes are a file of (`nvnm-skyrim`).
    pub format: &'static str,
    /// The part as a standalone file of that format.
    pub bytes: std::borrow::Cow<'m, [u8]>,
}

/// What `navkit info` shows.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Summary {
    /// The format's crate name.
    pub format: &'static str,
    /// The version as the file states it, in the format's own words (`NAV2 v15`, `16.1`).
    pub version: String,
    /// A game flavour or sub-format where the format has them.
    pub variant: Option<String>,
    /// Named counts, in file order (`nodes`, `links`).
    pub counts: Vec<(String, u64)>,
}

impl Summary {
    /// A summary with no counts yet.
    pub fn new(format: &'static str, version: impl Into<String>) -> Self {
        Summary {
            format,
            version: version.into(),
            variant: None,
            counts: Vec::new(),
        }
    }

    /// Adds a named count.
    pub fn count(mut self, name: impl Into<String>, value: impl TryInto<u64>) -> Self {
        self.counts
            .push((name.into(), value.try_into().unwrap_or(u64::MAX)));
        self
    }

    /// Sets the variant.
    pub fn variant(mut self, variant: impl Into<String>) -> Self {
        self.variant = Some(variant.into());
        self
    }
}
