//! `navkit` for Python: every navkit format opened, written, validated, navigated and turned
//! into numpy arrays.
//!
//! This crate only converts: the formats, the JSON, the diff and the queries are
//! `navkit-lib`'s and `nav-core`'s, reached through one opened model
//! ([`navkit_lib::registry::Opened`]). A `navkit.Navmesh` holds that model behind a lock, so
//! it can be used from several Python threads, and every call that reads, writes or searches
//! runs with the GIL released.
//!
//! Built by maturin as the extension `navkit._navkit` (abi3, CPython 3.9 and later); the Python
//! package `navkit` (`python/navkit/`) re-exports it with type stubs.
#![forbid(unsafe_code)]

use std::path::PathBuf;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::PyDict;

use navkit_lib::json::FormatField;
use navkit_lib::registry::{self, AnyFormat, FORMATS};

mod arrays;
mod edit;
mod errors;
mod files;
mod navigate;
mod navmesh;
mod state;

/// The extension's Rust allocations go through mimalloc (see Cargo.toml); Python's objects do
/// not.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use errors::{NavError, nav_error};
use navmesh::{Finding, Navmesh};

/// The format named by `format=` and `flavour=`, if any.
fn forced_format(
    format: Option<&str>,
    flavour: Option<&str>,
) -> PyResult<Option<&'static dyn AnyFormat>> {
    let forced = match format {
        None => None,
        Some(name) => Some(registry::by_name(name).ok_or_else(|| {
            let names: Vec<_> = FORMATS.iter().map(|f| f.name()).collect();
            nav_error(format!(
                "unknown format `{name}`; this build reads: {}",
                names.join(", ")
            ))
        })?),
    };
    match flavour {
        None => Ok(forced),
        Some(name) => registry::flavoured(forced, name)
            .map(Some)
            .map_err(nav_error),
    }
}

/// The message for bytes no format recognises, as the command-line tool words it.
fn unrecognised(bytes: &[u8]) -> String {
    let head: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!(
        "not a format this build recognises (first bytes: {}); name one with format=",
        if head.is_empty() {
            "none, the file is empty".to_string()
        } else {
            head.join(" ")
        }
    )
}

/// Reads a navmesh file: a path (`str` or `os.PathLike`) or the file's bytes.
///
/// The format is found as the command-line tool finds it: ``format`` if given (a name from
/// ``navkit.formats()``), else the file's signature, else its name ending. ``flavour`` reads a
/// Source ``.nav`` as one game's layout (``"cs"``, ``"tf2"``, ``"l4d"``, ``"l4d2"``,
/// ``"base"``). Raises ``NavError`` with the tool's one-line message for bytes it cannot read.
#[pyfunction]
#[pyo3(signature = (path_or_bytes, *, format = None, flavour = None))]
fn open(
    py: Python<'_>,
    path_or_bytes: &Bound<'_, PyAny>,
    format: Option<&str>,
    flavour: Option<&str>,
) -> PyResult<Navmesh> {
    let forced = forced_format(format, flavour)?;
    if let Ok(bytes) = path_or_bytes.extract::<PyBackedBytes>() {
        return py.detach(|| open_bytes(forced, &bytes, None));
    }
    let path: PathBuf = path_or_bytes.extract().map_err(|_| {
        PyTypeError::new_err("navkit.open takes a path (str or os.PathLike) or bytes")
    })?;
    py.detach(|| {
        let bytes =
            std::fs::read(&path).map_err(|e| nav_error(format!("{}: {e}", path.display())))?;
        open_bytes(forced, &bytes, Some(path))
    })
}

/// Opens `bytes` (read from `path`, if a file) as `forced` or the format they are found to be.
fn open_bytes(
    forced: Option<&'static dyn AnyFormat>,
    bytes: &[u8],
    path: Option<PathBuf>,
) -> PyResult<Navmesh> {
    let prefix = |e: String| match &path {
        Some(p) => nav_error(format!("{}: {e}", p.display())),
        None => nav_error(e),
    };
    let format = forced
        .or_else(|| registry::sniff(bytes))
        .or_else(|| path.as_deref().and_then(registry::by_extension))
        .ok_or_else(|| prefix(unrecognised(bytes)))?;
    let model = format.open(bytes).map_err(|e| prefix(e.to_string()))?;
    Ok(Navmesh::new(model, path, Some(bytes.len())))
}

/// Reads a navmesh from the JSON document ``Navmesh.to_json()`` and ``navkit to-json`` write
/// (``{"format": ..., "model": ...}``). ``format`` overrides the document's ``"format"``.
/// Derived data (counts, offsets) is brought up to date; a ``UserWarning`` says what changed.
#[pyfunction]
#[pyo3(signature = (text, *, format = None))]
fn from_json(py: Python<'_>, text: &Bound<'_, PyAny>, format: Option<&str>) -> PyResult<Navmesh> {
    let forced = forced_format(format, None)?;
    let (str_text, bytes_text);
    let text: &[u8] = match text.extract::<PyBackedStr>() {
        Ok(s) => {
            str_text = s;
            str_text.as_bytes()
        }
        Err(_) => {
            bytes_text = text.extract::<PyBackedBytes>().map_err(|_| {
                PyTypeError::new_err("navkit.from_json takes the JSON text as str or bytes")
            })?;
            &bytes_text
        }
    };
    let (navmesh, refreshed) = py.detach(|| read_json(forced, text))?;
    for line in refreshed {
        PyErr::warn(
            py,
            &py.get_type::<pyo3::exceptions::PyUserWarning>(),
            &std::ffi::CString::new(line).unwrap_or_default(),
            1,
        )?;
    }
    Ok(navmesh)
}

/// A model read from a JSON document, and the lines saying what its refresh changed.
fn read_json(
    forced: Option<&'static dyn AnyFormat>,
    text: &[u8],
) -> PyResult<(Navmesh, Vec<String>)> {
    let format = match forced {
        Some(f) => f,
        None => match navkit_lib::json::format_name(&mut &text[..]) {
            Ok(FormatField::Named(name)) => registry::by_name(&name)
                .ok_or_else(|| nav_error(format!("unknown format `{name}`")))?,
            Ok(FormatField::Missing) => {
                return Err(nav_error(
                    "no \"format\" field; make the document with Navmesh.to_json(), or name \
                     the format with format=",
                ));
            }
            Err(e) => return Err(nav_error(format!("not JSON: {e}"))),
        },
    };
    let (model, refreshed) = format.open_json(text[..].into()).map_err(nav_error)?;
    Ok((Navmesh::new(model, None, None), refreshed))
}

/// Reads a navmesh from the dictionary ``Navmesh.to_dict()`` gives (the JSON document as
/// Python objects). ``format`` overrides the dictionary's ``"format"``.
#[pyfunction]
#[pyo3(signature = (d, *, format = None))]
fn from_dict(py: Python<'_>, d: &Bound<'_, PyAny>, format: Option<&str>) -> PyResult<Navmesh> {
    let text = py.import("json")?.call_method1("dumps", (d,))?;
    from_json(py, &text, format)
}

/// The differences between two navmeshes of one format, one line each, as ``navkit diff``
/// prints them (``areas[id 61].attribute_flags: 0 -> 4``); empty when they are equal.
#[pyfunction]
fn diff(py: Python<'_>, a: &Bound<'_, Navmesh>, b: &Bound<'_, Navmesh>) -> PyResult<Vec<String>> {
    let (a, b) = (a.get(), b.get());
    py.detach(|| {
        if a.format_name() != b.format_name() {
            return Err(nav_error(format!(
                "one is {} and the other {}: diff compares two navmeshes of one format",
                a.format_name(),
                b.format_name()
            )));
        }
        let ta = a.model_flat(None)?;
        let tb = b.model_flat(Some(&ta))?;
        let changes = navkit_lib::diff::diff_flat(a.format_name(), &ta, &tb);
        Ok(changes.iter().map(ToString::to_string).collect())
    })
}

/// The formats this build reads: one dictionary each (``name``, ``description``,
/// ``extensions``, ``attribute_bits`` as ``Navmesh.attribute_bits()`` gives them), in the order
/// signatures are tried.
#[pyfunction]
fn formats(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    FORMATS
        .iter()
        .map(|f| {
            let d = PyDict::new(py);
            d.set_item("name", f.name())?;
            d.set_item("description", f.description())?;
            d.set_item("extensions", f.extensions().to_vec())?;
            d.set_item(
                "attribute_bits",
                edit::attribute_bits(py, f.attribute_bits())?,
            )?;
            Ok(d)
        })
        .collect()
}

/// A new navmesh of ``format`` made from a triangle mesh (``navkit build``): ``vertices``
/// ``(N, 3)`` in the format's own axes, ``triangles`` ``(M, 3)`` vertex indices wound
/// counter-clockwise seen from above. Returns the navmesh and the builder's warnings (shapes
/// kept but worth a look, by triangle); raises ``NavError`` for a format without a builder or a
/// mesh it cannot hold.
#[pyfunction]
fn build(
    py: Python<'_>,
    format: &str,
    vertices: &Bound<'_, PyAny>,
    triangles: &Bound<'_, PyAny>,
) -> PyResult<(Navmesh, Vec<String>)> {
    let f =
        registry::by_name(format).ok_or_else(|| nav_error(format!("unknown format `{format}`")))?;
    let points = edit::vertices(vertices)?;
    let tris = edit::triangles(triangles, points.len())?;
    let mesh = nav_core::geometry::TriangleMesh {
        vertices: points,
        triangles: tris,
    };
    let built = py.detach(|| f.build(&mesh));
    let built = built
        .ok_or_else(|| nav_error(format!("{format} has no builder")))?
        .map_err(|e| nav_error(e.to_string()))?;
    let model = f.open(&built.model).map_err(|e| nav_error(e.to_string()))?;
    let warnings = built.warnings.iter().map(ToString::to_string).collect();
    Ok((Navmesh::new(model, None, Some(built.model.len())), warnings))
}

/// The colour ``(r, g, b)`` (0-255) that ``render`` and ``export`` give the attribute kind of
/// index ``kind`` (an index into ``Navmesh.kinds``), so that other views match the pictures.
#[pyfunction]
fn kind_colour(kind: u16) -> (u8, u8, u8) {
    let [r, g, b] = navkit::palette::rgb(kind);
    (r, g, b)
}

/// The extension module `navkit._navkit`.
#[pymodule]
fn _navkit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("NavError", py.get_type::<NavError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Navmesh>()?;
    m.add_class::<Finding>()?;
    m.add_class::<navigate::Path>()?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(from_json, m)?)?;
    m.add_function(wrap_pyfunction!(from_dict, m)?)?;
    m.add_function(wrap_pyfunction!(diff, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(kind_colour, m)?)?;
    m.add_function(wrap_pyfunction!(build, m)?)?;
    Ok(())
}
