//! The formats the tool knows, behind one object-safe trait.
//!
//! Every format crate implements [`nav_core::Format`] with its own view and model types. The
//! tool needs to treat them alike, so [`AnyFormat`] wraps each one: bytes in, bytes, text or JSON
//! out. It is implemented once, for every `Format` whose model serialises.
//!
//! To add a format: depend on its crate (with its `serde` feature) and list it in [`FORMATS`].

use nav_core::geometry::{Geometry, TriangleMesh};
use nav_core::oracle::{BuildError, RoundtripError, check_build, roundtrip_bytes};
use nav_core::{Error, Finding, Format, Part, Summary};
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

/// A format, as the command-line tool sees it.
pub trait AnyFormat: Sync {
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
    fn read_json(&self, input: &mut dyn std::io::Read) -> Result<(Vec<u8>, Vec<String>), String>;
    /// The file made consistent after an edit ([`Format::fix`]): the bytes to write and one
    /// line per change. No change means the bytes are the input's, unchanged.
    fn fix(&self, bytes: &[u8]) -> Result<(Vec<u8>, Vec<String>), Error>;
    /// The files the container holds ([`Format::parts`]), copied out; empty for a format that
    /// holds none.
    fn parts(&self, bytes: &[u8]) -> Result<Vec<Part<'static>>, Error>;
    /// The container with its part `name` replaced by `part` ([`Format::replace_part`]),
    /// written.
    fn replace_part(&self, bytes: &[u8], name: &str, part: &[u8]) -> Result<Vec<u8>, Error>;
    /// The owned model as a compact serde tree, for `navkit diff`.
    fn model_tree(&self, bytes: &[u8]) -> Result<crate::diff::Tree, Error>;
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
    /// The full round-trip oracle, on the file and on every part inside it.
    fn roundtrip(&self, bytes: &[u8]) -> Result<RoundtripOk, RoundtripFailure>;
    /// Semantic findings.
    fn validate(&self, bytes: &[u8]) -> Result<Vec<Finding>, Error>;
    /// The file as world-space polygons and a graph; `Ok(None)` when the format has no mapping.
    fn geometry(&self, bytes: &[u8]) -> Result<Option<Geometry>, Error>;
    /// A new file built from a triangle mesh; `None` when the format has no builder.
    fn build(&self, mesh: &TriangleMesh) -> Option<Result<Vec<u8>, Error>>;
    /// The build oracle ([`nav_core::oracle::check_build`]) on the model the builder makes of
    /// `mesh`: whether a model was built and checked (`false` without a builder, or when the
    /// builder refuses the mesh), or how the built model fails.
    fn check_build(&self, mesh: &TriangleMesh) -> Result<bool, BuildError>;
}

impl<F> AnyFormat for F
where
    F: Format + Sync,
    F::Model: Serialize + DeserializeOwned,
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

    fn info(&self, bytes: &[u8]) -> Result<Summary, Error> {
        Ok(self.view_summary(&self.parse(bytes)?))
    }

    fn dump(&self, bytes: &[u8]) -> Result<String, Error> {
        let model = self.read(bytes)?;
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = Format::dump(self, &model, &mut out);
        Ok(out)
    }

    fn to_json(&self, bytes: &[u8], out: &mut dyn std::io::Write) -> Result<(), JsonError> {
        let model = self.read(bytes).map_err(JsonError::Input)?;
        crate::json::write_document(Format::name(self), &model, out).map_err(JsonError::Output)
    }

    fn read_json(&self, input: &mut dyn std::io::Read) -> Result<(Vec<u8>, Vec<String>), String> {
        let mut model: F::Model = crate::json::read_document(input)?;
        let refreshed = self.refresh(&mut model);
        let bytes = self.write(&model).map_err(|e| e.to_string())?;
        Ok((bytes, refreshed))
    }

    fn fix(&self, bytes: &[u8]) -> Result<(Vec<u8>, Vec<String>), Error> {
        let mut model = self.read(bytes)?;
        let changes = Format::fix(self, &mut model);
        if changes.is_empty() {
            return Ok((bytes.to_vec(), changes));
        }
        Ok((self.write(&model)?, changes))
    }

    fn parts(&self, bytes: &[u8]) -> Result<Vec<Part<'static>>, Error> {
        let model = self.read(bytes)?;
        Ok(Format::parts(self, &model)
            .into_iter()
            .map(|p| Part {
                bytes: std::borrow::Cow::Owned(p.bytes.into_owned()),
                ..p
            })
            .collect())
    }

    fn replace_part(&self, bytes: &[u8], name: &str, part: &[u8]) -> Result<Vec<u8>, Error> {
        let mut model = self.read(bytes)?;
        Format::replace_part(self, &mut model, name, part)?;
        self.write(&model)
    }

    fn model_tree(&self, bytes: &[u8]) -> Result<crate::diff::Tree, Error> {
        crate::diff::Tree::of(&self.read(bytes)?).map_err(|e| {
            Error::unrepresentable(
                Format::name(self),
                "model",
                format!("cannot serialise: {e}"),
            )
        })
    }

    fn rewrite(&self, bytes: &[u8]) -> Result<Vec<u8>, Error> {
        self.write(&self.read(bytes)?)
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
        Ok(Format::validate(self, &self.read(bytes)?))
    }

    fn geometry(&self, bytes: &[u8]) -> Result<Option<Geometry>, Error> {
        Ok(Format::geometry(self, &self.read(bytes)?))
    }

    fn build(&self, mesh: &TriangleMesh) -> Option<Result<Vec<u8>, Error>> {
        Format::build(self, mesh).map(|model| self.write(&model?))
    }

    fn check_build(&self, mesh: &TriangleMesh) -> Result<bool, BuildError> {
        check_build(self, mesh)
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
