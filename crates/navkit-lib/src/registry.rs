//! The formats navkit knows, behind one object-safe trait.
//!
//! Every format crate implements [`nav_core::Format`] with its own view and model types. The
//! command-line tool and the Python package need to treat them alike, so [`AnyFormat`] wraps each
//! one, and [`Opened`] wraps a model read from a file: open once, then write, validate, fix,
//! convert to JSON, list parts, take the geometry or the navigation graph without parsing again.
//! Both are implemented once, for every `Format` whose model serialises; no format is named
//! outside [`FORMATS`].
//!
//! To add a format: depend on its crate (with its `serde` feature) and list it in [`FORMATS`].

use nav_core::edit::{EditedGraph, EditedMesh, MatchOptions};
use nav_core::geometry::{Geometry, TriangleMesh};
use nav_core::navigation::Graph;
use nav_core::oracle::{
    BuildError, RoundtripError, check_build, check_navigation, check_vertices, roundtrip_bytes,
};
use nav_core::{Built, Error, Finding, Format, Part, Summary};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// What a successful round trip checked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundtripOk {
    /// Parts inside a container that were round-tripped too (navmeshes in a plugin).
    pub parts: usize,
}

/// A failed round trip: of the file, or of a named part inside it.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundtripFailure {
    /// The part that failed, or `None` for the file itself.
    pub part: Option<String>,
    /// Why.
    pub error: RoundtripError,
}

/// Why `to-json` failed.
#[derive(Debug)]
pub enum JsonError {
    /// The file could not be read as the format.
    Input(Error),
    /// The JSON could not be written.
    Output(std::io::Error),
}

/// A format, as the command-line tool and the Python package see it.
pub trait AnyFormat: Send + Sync {
    /// Crate name (`nav-quake`).
    fn name(&self) -> &'static str;
    /// One line about the format.
    fn description(&self) -> &'static str;
    /// File name endings.
    fn extensions(&self) -> &'static [&'static str];
    /// Whether the bytes carry this format's signature.
    fn sniff(&self, bytes: &[u8]) -> bool;
    /// Whether the format has a signature at all.
    fn has_signature(&self) -> bool;
    /// [`Format::attribute_bits`]: the named bits of the polygons' flag attributes.
    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits];
    /// Reads a file into its model once ([`Format::read`]), for every later call on
    /// [`Opened`].
    fn open(&self, bytes: &[u8]) -> Result<Box<dyn Opened>, Error>;
    /// Reads a model from a JSON document ([`crate::json::read_document`]) and brings its
    /// derived data up to date ([`Format::refresh`]); also the lines saying what that changed.
    fn open_json(
        &self,
        input: crate::json::Input<'_>,
    ) -> Result<(Box<dyn Opened>, Vec<String>), String>;
    /// Format, version and counts.
    fn info(&self, bytes: &[u8]) -> Result<Summary, Error>;
    /// The whole structure as text.
    fn dump(&self, bytes: &[u8]) -> Result<String, Error>;
    /// The JSON document of the file's model (`{"format": ..., "model": ...}`), written
    /// straight from the model into `out` ([`crate::json::write_document`]).
    fn to_json(&self, bytes: &[u8], out: &mut dyn std::io::Write) -> Result<(), JsonError>;
    /// A model read straight from a JSON document ([`crate::json::read_document`]), with
    /// derived data brought up to date ([`Format::refresh`]), written out; also the lines saying
    /// what the refresh changed.
    fn read_json(&self, input: crate::json::Input<'_>) -> Result<(Vec<u8>, Vec<String>), String>;
    /// The file made consistent after an edit ([`Format::fix`]): the bytes to write and one
    /// line per change. No change means the bytes are the input's, unchanged.
    fn fix(&self, bytes: &[u8]) -> Result<(Vec<u8>, Vec<String>), Error>;
    /// The files the container holds ([`Format::parts`]), copied out; empty for a format that
    /// holds none.
    fn parts(&self, bytes: &[u8]) -> Result<Vec<Part<'static>>, Error>;
    /// The container with its part `name` replaced by `part` ([`Format::replace_part`]),
    /// written.
    fn replace_part(&self, bytes: &[u8], name: &str, part: &[u8]) -> Result<Vec<u8>, Error>;
    /// The owned model as a compact serde tree, for [`crate::diff::diff`].
    fn model_tree(&self, bytes: &[u8]) -> Result<crate::diff::Tree, Error>;
    /// The owned model in its flat form, for `navkit diff` ([`crate::diff::diff_flat`]):
    /// numbered as `previous` when given ([`crate::diff::Flat::next`]), else with the room
    /// [`crate::diff::Flat::room_for`] gives for the file. Only the flat outlives the call.
    fn model_flat(
        &self,
        bytes: &[u8],
        previous: Option<&crate::diff::Flat>,
    ) -> Result<crate::diff::Flat, Error>;
    /// How the records of the list field `list` pair in `navkit diff`
    /// ([`Format::record_identity`]).
    fn record_identity(&self, list: &str) -> Option<nav_core::RecordIdentity>;
    /// The lists whose records other records name by position ([`Format::position_lists`]).
    fn position_lists(&self) -> &'static [nav_core::positions::PositionList];
    /// Parse into the model and write it again.
    fn rewrite(&self, bytes: &[u8]) -> Result<Vec<u8>, Error>;
    /// [`AnyFormat::rewrite`] in place: the model is written into the input's buffer once it is
    /// read, so a rewrite holds one file-sized buffer instead of two ([`Format::write_into`]).
    /// On error `bytes` holds unspecified bytes.
    fn rewrite_in_place(&self, bytes: &mut Vec<u8>) -> Result<(), Error>;
    /// [`AnyFormat::rewrite`] from a reader of `len` bytes to a writer ([`Format::read_from`],
    /// [`Format::write_to`]): for files too large to hold beside their model. A refusal is
    /// [`std::io::ErrorKind::InvalidData`] carrying the [`Error`].
    fn rewrite_stream(
        &self,
        input: &mut dyn std::io::Read,
        len: u64,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()>;
    /// The full round-trip oracle, on the file and on every part inside it, and the navigation
    /// oracle ([`nav_core::oracle::check_navigation`]) on the file's graph.
    fn roundtrip(&self, bytes: &[u8]) -> Result<RoundtripOk, RoundtripFailure>;
    /// Semantic findings.
    fn validate(&self, bytes: &[u8]) -> Result<Vec<Finding>, Error>;
    /// The file as world-space polygons and a graph; `Ok(None)` when the format has no mapping.
    fn geometry(&self, bytes: &[u8]) -> Result<Option<Geometry>, Error>;
    /// A new file built from a triangle mesh, with the builder's warnings about the mesh
    /// ([`Format::build`]); `None` when the format has no builder.
    fn build(&self, mesh: &TriangleMesh) -> Option<Result<Built<Vec<u8>>, Error>>;
    /// The build oracle ([`nav_core::oracle::check_build`]) on the model the builder makes of
    /// `mesh`: whether a model was built and checked (`false` without a builder, or when the
    /// builder refuses the mesh), or how the built model fails.
    fn check_build(&self, mesh: &TriangleMesh) -> Result<bool, BuildError>;
}

impl<F> AnyFormat for F
where
    F: Format + Clone + Send + Sync + 'static,
    F::Model: Serialize + DeserializeOwned + Send + Sync,
{
    fn name(&self) -> &'static str {
        Format::name(self)
    }

    fn description(&self) -> &'static str {
        Format::description(self)
    }

    fn extensions(&self) -> &'static [&'static str] {
        Format::extensions(self)
    }

    fn sniff(&self, bytes: &[u8]) -> bool {
        Format::sniff(self, bytes)
    }

    fn has_signature(&self) -> bool {
        Format::has_signature(self)
    }

    fn attribute_bits(&self) -> &'static [nav_core::AttributeBits] {
        Format::attribute_bits(self)
    }

    fn open(&self, bytes: &[u8]) -> Result<Box<dyn Opened>, Error> {
        Ok(Box::new(Model {
            format: self.clone(),
            model: self.read(bytes)?,
        }))
    }

    fn open_json(
        &self,
        input: crate::json::Input<'_>,
    ) -> Result<(Box<dyn Opened>, Vec<String>), String> {
        let mut model: F::Model = crate::json::read_document(input, self.position_lists())?;
        let refreshed = self.refresh(&mut model);
        let opened = Model {
            format: self.clone(),
            model,
        };
        Ok((Box::new(opened), refreshed))
    }

    fn info(&self, bytes: &[u8]) -> Result<Summary, Error> {
        Ok(self.view_summary(&self.parse(bytes)?))
    }

    fn dump(&self, bytes: &[u8]) -> Result<String, Error> {
        Ok(self.open(bytes)?.dump())
    }

    fn to_json(&self, bytes: &[u8], out: &mut dyn std::io::Write) -> Result<(), JsonError> {
        let opened = self.open(bytes).map_err(JsonError::Input)?;
        opened.to_json(out).map_err(JsonError::Output)
    }

    fn read_json(&self, input: crate::json::Input<'_>) -> Result<(Vec<u8>, Vec<String>), String> {
        let (opened, refreshed) = self.open_json(input)?;
        let bytes = opened.write().map_err(|e| e.to_string())?;
        Ok((bytes, refreshed))
    }

    fn fix(&self, bytes: &[u8]) -> Result<(Vec<u8>, Vec<String>), Error> {
        let mut opened = self.open(bytes)?;
        let changes = opened.fix();
        if changes.is_empty() {
            return Ok((bytes.to_vec(), changes));
        }
        Ok((opened.write()?, changes))
    }

    fn parts(&self, bytes: &[u8]) -> Result<Vec<Part<'static>>, Error> {
        Ok(self.open(bytes)?.parts())
    }

    fn replace_part(&self, bytes: &[u8], name: &str, part: &[u8]) -> Result<Vec<u8>, Error> {
        let mut opened = self.open(bytes)?;
        opened.replace_part(name, part)?;
        opened.write()
    }

    fn model_tree(&self, bytes: &[u8]) -> Result<crate::diff::Tree, Error> {
        self.open(bytes)?.model_tree()
    }

    fn model_flat(
        &self,
        bytes: &[u8],
        previous: Option<&crate::diff::Flat>,
    ) -> Result<crate::diff::Flat, Error> {
        let room = crate::diff::Flat::room_for(bytes.len());
        self.open(bytes)?.model_flat(previous, room)
    }

    fn rewrite(&self, bytes: &[u8]) -> Result<Vec<u8>, Error> {
        self.open(bytes)?.write()
    }

    fn record_identity(&self, list: &str) -> Option<nav_core::RecordIdentity> {
        Format::record_identity(self, list)
    }

    fn position_lists(&self) -> &'static [nav_core::positions::PositionList] {
        Format::position_lists(self)
    }

    fn rewrite_in_place(&self, bytes: &mut Vec<u8>) -> Result<(), Error> {
        let model = self.read(bytes)?;
        self.write_into(&model, bytes)
    }

    fn rewrite_stream(
        &self,
        input: &mut dyn std::io::Read,
        len: u64,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let model = self.read_from(input, len)?;
        self.write_to(&model, out)
    }

    fn roundtrip(&self, bytes: &[u8]) -> Result<RoundtripOk, RoundtripFailure> {
        let model =
            roundtrip_bytes(self, bytes).map_err(|error| RoundtripFailure { part: None, error })?;
        // The navigation graph the model maps to is one the queries accept, and answers on it
        // are paths over its edges.
        check_navigation(self, &model).map_err(|error| RoundtripFailure { part: None, error })?;
        // The vertices alone are the geometry's.
        check_vertices(self, &model).map_err(|error| RoundtripFailure { part: None, error })?;
        // Each part is a file of its own format, checked with that format's round trip.
        let parts = Format::parts(self, &model);
        for part in &parts {
            let failed = |error| RoundtripFailure {
                part: Some(part.name.clone()),
                error,
            };
            let Some(format) = by_name(part.format) else {
                return Err(failed(RoundtripError::Parse(Error::unrepresentable(
                    part.format,
                    format_args!("part {}", part.name),
                    "not a format of this build",
                ))));
            };
            format.roundtrip(&part.bytes).map_err(|f| failed(f.error))?;
        }
        Ok(RoundtripOk { parts: parts.len() })
    }

    fn validate(&self, bytes: &[u8]) -> Result<Vec<Finding>, Error> {
        Ok(self.open(bytes)?.validate())
    }

    fn geometry(&self, bytes: &[u8]) -> Result<Option<Geometry>, Error> {
        Ok(self.open(bytes)?.geometry())
    }

    fn build(&self, mesh: &TriangleMesh) -> Option<Result<Built<Vec<u8>>, Error>> {
        Format::build(self, mesh).map(|built| built?.try_map(|model| self.write(&model)))
    }

    fn check_build(&self, mesh: &TriangleMesh) -> Result<bool, BuildError> {
        check_build(self, mesh)
    }
}

/// A model read from a file or a JSON document, with its format: what every call after
/// [`AnyFormat::open`] works on, so that a file is parsed once however many questions are asked
/// of it. Object-safe; `Send + Sync`, so an opened model can be shared between threads.
pub trait Opened: Send + Sync {
    /// The format the model is of.
    fn format(&self) -> &dyn AnyFormat;
    /// Format, version and counts ([`Format::summary`]).
    fn summary(&self) -> Summary;
    /// The whole structure as text ([`Format::dump`]).
    fn dump(&self) -> String;
    /// The JSON document of the model (`{"format": ..., "model": ...}`), written straight from
    /// the model into `out` ([`crate::json::write_document`]).
    fn to_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()>;
    /// The model written as a file: the bytes it was read from when it is unchanged.
    fn write(&self) -> Result<Vec<u8>, Error>;
    /// The model streamed to `out` ([`Format::write_to`]).
    fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()>;
    /// Semantic findings ([`Format::validate`]).
    fn validate(&self) -> Vec<Finding>;
    /// Makes the model consistent after an edit ([`Format::fix`]); one line per change.
    fn fix(&mut self) -> Vec<String>;
    /// Deletes the records at `positions` of the position list at the concrete path `list`
    /// (`triangles`, `data_chunks[2].navigation_graph.nodes`) and renumbers every reference to
    /// the records after them ([`crate::positions::remove_records`]). A reference to a deleted
    /// record is pointed past the end of the list for [`Opened::fix`] to drop; one line says
    /// so for each. Refused (model unchanged): a path that is not a position list of the
    /// format, or a position past the list.
    fn remove_records(&mut self, list: &str, positions: &[usize]) -> Result<Vec<String>, String>;
    /// The files the container holds ([`Format::parts`]), copied out.
    fn parts(&self) -> Vec<Part<'static>>;
    /// Puts `part` in place of the part named `name` ([`Format::replace_part`]).
    fn replace_part(&mut self, name: &str, part: &[u8]) -> Result<(), Error>;
    /// World-space polygons and a graph ([`Format::geometry`]); `None` without a mapping.
    fn geometry(&self) -> Option<Geometry>;
    /// The geometry's vertices alone ([`Format::vertices`]); `None` without a mapping.
    fn vertices(&self) -> Option<Vec<[f32; 3]>>;
    /// The navigation graph ([`Format::navigation`]); `None` without a mapping.
    fn navigation(&self) -> Option<Graph>;
    /// Puts geometry edited in a 3D tool back onto the model ([`nav_core::edit::apply_mesh`]:
    /// matched against [`Opened::geometry`], then [`Format::apply`]); one line per change. An
    /// unedited mesh changes nothing (the model writes its original bytes); on an error the
    /// model is left as it was.
    fn apply(&mut self, mesh: &EditedMesh, options: &MatchOptions) -> Result<Vec<String>, Error>;
    /// Puts graph nodes moved in a 3D tool back onto the model ([`nav_core::edit::apply_graph`]:
    /// matched against [`Opened::geometry`]'s nodes and links, then [`Format::apply_graph`]);
    /// one line per change. An unedited graph changes nothing; added or deleted nodes or links
    /// are refused; on an error the model is left as it was.
    fn apply_graph(
        &mut self,
        graph: &EditedGraph,
        options: &MatchOptions,
    ) -> Result<Vec<String>, Error>;
    /// The model as a compact serde tree, for [`crate::diff::diff`].
    fn model_tree(&self) -> Result<crate::diff::Tree, Error>;
    /// The model in its flat form, for [`crate::diff::diff_flat`]: numbered as `previous` when
    /// given ([`crate::diff::Flat::next`]), else into a buffer with room for `room` bytes
    /// ([`crate::diff::Flat::with_room`]; [`crate::diff::Flat::room_for`] the file spares
    /// copies as it grows; 0 lets it grow).
    fn model_flat(
        &self,
        previous: Option<&crate::diff::Flat>,
        room: usize,
    ) -> Result<crate::diff::Flat, Error>;
    /// A copy of this model, as a new opened model.
    fn boxed_clone(&self) -> Box<dyn Opened>;
    /// The model itself, for a caller that knows its type (`downcast_ref::<nav_quake::NavFile>`).
    fn as_any(&self) -> &dyn std::any::Any;
    /// The model itself, mutable, for a caller that knows its type.
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// An [`Opened`] model of the format `F`.
struct Model<F: Format> {
    format: F,
    model: F::Model,
}

impl<F: Format> Model<F> {
    /// The error of a model serde could not serialise for `diff`.
    fn unserialisable(&self, why: String) -> Error {
        Error::unrepresentable(
            Format::name(&self.format),
            "model",
            format!("cannot serialise: {why}"),
        )
    }
}

impl<F> Opened for Model<F>
where
    F: Format + Clone + Send + Sync + 'static,
    F::Model: Serialize + DeserializeOwned + Send + Sync,
{
    fn format(&self) -> &dyn AnyFormat {
        &self.format
    }

    fn summary(&self) -> Summary {
        self.format.summary(&self.model)
    }

    fn dump(&self) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = Format::dump(&self.format, &self.model, &mut out);
        out
    }

    fn to_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let lists = self.format.position_lists();
        crate::json::write_document(Format::name(&self.format), &self.model, lists, out)
    }

    fn write(&self) -> Result<Vec<u8>, Error> {
        self.format.write(&self.model)
    }

    fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        self.format.write_to(&self.model, out)
    }

    fn validate(&self) -> Vec<Finding> {
        Format::validate(&self.format, &self.model)
    }

    fn fix(&mut self) -> Vec<String> {
        Format::fix(&self.format, &mut self.model)
    }

    fn remove_records(&mut self, list: &str, positions: &[usize]) -> Result<Vec<String>, String> {
        crate::positions::remove_records(&self.format, &mut self.model, list, positions)
    }

    fn parts(&self) -> Vec<Part<'static>> {
        Format::parts(&self.format, &self.model)
            .into_iter()
            .map(|p| Part {
                bytes: std::borrow::Cow::Owned(p.bytes.into_owned()),
                ..p
            })
            .collect()
    }

    fn replace_part(&mut self, name: &str, part: &[u8]) -> Result<(), Error> {
        Format::replace_part(&self.format, &mut self.model, name, part)
    }

    fn geometry(&self) -> Option<Geometry> {
        Format::geometry(&self.format, &self.model)
    }

    fn vertices(&self) -> Option<Vec<[f32; 3]>> {
        Format::vertices(&self.format, &self.model)
    }

    fn navigation(&self) -> Option<Graph> {
        Format::navigation(&self.format, &self.model)
    }

    fn apply(&mut self, mesh: &EditedMesh, options: &MatchOptions) -> Result<Vec<String>, Error> {
        nav_core::edit::apply_mesh(&self.format, &mut self.model, mesh, options)
    }

    fn apply_graph(
        &mut self,
        graph: &EditedGraph,
        options: &MatchOptions,
    ) -> Result<Vec<String>, Error> {
        nav_core::edit::apply_graph(&self.format, &mut self.model, graph, options)
    }

    fn model_tree(&self) -> Result<crate::diff::Tree, Error> {
        crate::diff::Tree::of(&self.model).map_err(|e| self.unserialisable(e))
    }

    fn model_flat(
        &self,
        previous: Option<&crate::diff::Flat>,
        room: usize,
    ) -> Result<crate::diff::Flat, Error> {
        match previous {
            Some(p) => p.next(&self.model),
            None => crate::diff::Flat::with_room(&self.model, room),
        }
        .map_err(|e| self.unserialisable(e))
    }

    fn boxed_clone(&self) -> Box<dyn Opened> {
        Box::new(Model {
            format: self.format.clone(),
            model: self.model.clone(),
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        &self.model
    }

    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        &mut self.model
    }
}

/// Every format, in the order sniffing tries them. nav-source2 comes before nav-source: both
/// files share the magic, and nav-source claims every file that has it (so that `--format`
/// aside, a Source 2 file it cannot read still gets its message), while nav-source2 claims only
/// versions 30 and up.
pub static FORMATS: &[&dyn AnyFormat] = &[
    &nav_quake::Quake,
    &nav_source2::Source2Nav,
    &nav_source::SourceNav,
    &jmxvnvm::Nvm,
    &nvnm_skyrim::Plugin,
    &nvnm_skyrim::Nvnm,
    &nav2_mgsv::Nav2,
];

/// The format with this crate name.
pub fn by_name(name: &str) -> Option<&'static dyn AnyFormat> {
    FORMATS.iter().copied().find(|f| f.name() == name)
}

/// The first format whose signature the bytes carry.
pub fn sniff(bytes: &[u8]) -> Option<&'static dyn AnyFormat> {
    FORMATS.iter().copied().find(|f| f.sniff(bytes))
}

/// The format without a signature that claims this file name ending (Skyrim's NVNM blobs): the
/// fallback for files whose signature no format recognises.
pub fn by_extension(path: &std::path::Path) -> Option<&'static dyn AnyFormat> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    FORMATS
        .iter()
        .copied()
        .find(|f| !f.has_signature() && f.extensions().contains(&ext.as_str()))
}

/// The format a file is read as when the user names a game flavour (`--flavour cs`,
/// `flavour="cs"` in Python): nav-source read as that game's layout. The flavour belongs to
/// nav-source, so a `forced` format that is another one is refused, and so is an unknown name.
pub fn flavoured(
    forced: Option<&'static dyn AnyFormat>,
    name: &str,
) -> Result<&'static dyn AnyFormat, String> {
    if let Some(other) = forced.filter(|f| f.name() != nav_source::FORMAT) {
        return Err(format!(
            "flavour {name} is a {} layout, but the format named is {}",
            nav_source::FORMAT,
            other.name()
        ));
    }
    let flavour =
        nav_source::Flavour::from_name(name).ok_or_else(|| format!("unknown flavour `{name}`"))?;
    Ok(nav_source::SourceNavAs::get(flavour))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attribute_bit_tables_are_sound() {
        let mut named = 0;
        for format in FORMATS {
            let tables = format.attribute_bits();
            for (i, table) in tables.iter().enumerate() {
                assert_eq!(table.problem(), None, "{}", format.name());
                assert!(!table.bits.is_empty(), "{}: empty table", format.name());
                let again = tables.iter().skip(i + 1);
                assert!(
                    again.clone().all(|t| t.attribute != table.attribute),
                    "{}: {} twice",
                    format.name(),
                    table.attribute
                );
                named += table.bits.len();
            }
        }
        // Source 19, Source 2 17, Skyrim's NVNM and plugin 10 + 5 each.
        assert_eq!(named, 19 + 17 + 2 * 15);
        let flavoured = flavoured(None, "tf2").map(|f| f.attribute_bits());
        assert_eq!(
            flavoured.ok(),
            by_name("nav-source").map(|f| f.attribute_bits())
        );
    }

    /// Every named attribute is one the polygons of the format's samples carry.
    #[test]
    fn attribute_bits_name_geometry_attributes() {
        let samples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../samples");
        let mut checked = 0;
        for dir in ["source", "source2", "skyrim"] {
            for entry in std::fs::read_dir(format!("{samples}/{dir}")).unwrap() {
                let path = entry.unwrap().path();
                let bytes = std::fs::read(&path).unwrap();
                let format = sniff(&bytes).or_else(|| by_extension(&path)).unwrap();
                let geometry = format.open(&bytes).unwrap().geometry().unwrap();
                assert!(!format.attribute_bits().is_empty(), "{}", path.display());
                for table in format.attribute_bits() {
                    let name = table.attribute.to_string();
                    assert!(
                        geometry.attributes.contains(&name),
                        "{}: {name}",
                        path.display()
                    );
                }
                checked += 1;
            }
        }
        assert!(checked >= 18, "{checked} samples");
    }

    #[test]
    fn flavours_are_nav_source_layouts() {
        let source = flavoured(None, "l4d2").map(|f| f.name());
        assert_eq!(source, Ok(nav_source::FORMAT));
        assert!(flavoured(by_name("nav-source"), "cs").is_ok());
        let quake = flavoured(by_name("nav-quake"), "cs").map(|f| f.name());
        assert!(quake.is_err_and(|e| e.contains("nav-quake")));
        assert_eq!(
            flavoured(None, "portal2").map(|f| f.name()),
            Err("unknown flavour `portal2`".to_string())
        );
    }
}
