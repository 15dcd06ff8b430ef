//! `navkit.Navmesh`: an opened file, and `navkit.Finding`.

use std::path::PathBuf;
use std::sync::Arc;

use numpy::{PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use nav_core::edit::MatchOptions;
use nav_core::geometry::{Geometry, UpAxis};
use nav_core::navigation::Navigator;
use navkit_lib::registry::{self, Opened};

use crate::arrays;
use crate::edit;
use crate::errors::{nav_error, poisoned};
use crate::files;
use crate::navigate::{self, Path};
use crate::state::Shared;

/// One finding of ``Navmesh.validate()``.
#[pyclass(frozen, module = "navkit", name = "Finding")]
pub(crate) struct Finding {
    /// ``"error"``, ``"warning"`` or ``"info"``.
    #[pyo3(get)]
    severity: String,
    /// Where, as a path in the model (``nodes[12] links[3]``).
    #[pyo3(get)]
    path: String,
    /// What, in words.
    #[pyo3(get)]
    message: String,
}

#[pymethods]
impl Finding {
    fn __repr__(&self) -> String {
        format!(
            "<navkit.Finding {} at {}: {}>",
            self.severity, self.path, self.message
        )
    }

    fn __str__(&self) -> String {
        format!("{}: {}: {}", self.severity, self.path, self.message)
    }
}

/// A navmesh file, read once: written, validated, fixed, converted and navigated without
/// parsing again. Made by ``navkit.open``, ``navkit.from_json`` or ``navkit.from_dict``.
///
/// A ``Navmesh`` may be used from several threads: reads run side by side with the GIL
/// released, edits (``fix``, ``replace``) one at a time.
#[pyclass(frozen, module = "navkit", name = "Navmesh")]
pub(crate) struct Navmesh {
    format: &'static str,
    source: Option<PathBuf>,
    size: Option<usize>,
    shared: Shared,
}

impl Navmesh {
    /// A navmesh of `model`, read from the file `source` of `size` bytes, if any.
    pub(crate) fn new(
        model: Box<dyn Opened>,
        source: Option<PathBuf>,
        size: Option<usize>,
    ) -> Self {
        Navmesh {
            format: model.format().name(),
            source,
            size,
            shared: Shared::new(model),
        }
    }

    /// The format's crate name.
    pub(crate) fn format_name(&self) -> &'static str {
        self.format
    }

    /// Runs `f` on the model.
    fn with<R>(&self, f: impl FnOnce(&dyn Opened) -> R) -> PyResult<R> {
        self.shared.with(f).map_err(poisoned)
    }

    /// The model in its flat form, for `navkit.diff`, numbered as `previous` when given.
    pub(crate) fn model_flat(
        &self,
        previous: Option<&navkit_lib::diff::Flat>,
    ) -> PyResult<navkit_lib::diff::Flat> {
        self.with(|m| m.model_flat(previous, 0))?.map_err(nav_error)
    }

    /// The model written as a file.
    fn bytes(&self) -> PyResult<Vec<u8>> {
        self.with(|m| m.write())?.map_err(nav_error)
    }

    /// Runs an edit of the model (`apply`, `apply_graph`) with the default matching tolerance,
    /// in place, without the GIL.
    fn edit_with(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn Opened, &MatchOptions) -> Result<Vec<String>, nav_core::Error> + Send,
    ) -> PyResult<Vec<String>> {
        py.detach(|| {
            self.shared
                .edit(|m| f(m, &MatchOptions::default()))
                .map_err(poisoned)?
                .map_err(nav_error)
        })
    }

    fn geometry(&self) -> PyResult<Arc<Geometry>> {
        self.shared.geometry().map_err(poisoned)?.map_err(nav_error)
    }

    fn navigator(&self) -> PyResult<Arc<Navigator>> {
        self.shared
            .navigator()
            .map_err(poisoned)?
            .map_err(nav_error)
    }
}

#[pymethods]
impl Navmesh {
    /// The format's name (``"nav-source"``, ``"skyrim-plugin"``; see ``navkit.formats()``).
    #[getter]
    fn format(&self) -> &'static str {
        self.format
    }

    /// The version as the file states it, in the format's own words (``"16.1"``).
    #[getter]
    fn version(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.with(|m| m.summary().version))
    }

    /// A game flavour or sub-format where the format has them, else ``None``.
    #[getter]
    fn variant(&self, py: Python<'_>) -> PyResult<Option<String>> {
        py.detach(|| self.with(|m| m.summary().variant))
    }

    /// The file it was read from, or ``None`` for bytes, JSON and parts.
    #[getter]
    fn source(&self) -> Option<PathBuf> {
        self.source.clone()
    }

    /// What ``navkit info --json`` prints: ``file``, ``format``, ``version``, ``variant``,
    /// ``size`` (of the bytes it was read from) and ``counts`` (a dict of named counts).
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let summary = py.detach(|| self.with(|m| m.summary()))?;
        let d = PyDict::new(py);
        d.set_item(
            "file",
            self.source.as_ref().map(|p| p.display().to_string()),
        )?;
        d.set_item("format", summary.format)?;
        d.set_item("version", summary.version)?;
        d.set_item("variant", summary.variant)?;
        d.set_item("size", self.size)?;
        let counts = PyDict::new(py);
        for (name, count) in summary.counts {
            counts.set_item(name, count)?;
        }
        d.set_item("counts", counts)?;
        Ok(d)
    }

    /// The whole structure as text (``navkit dump``).
    fn dump(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.with(|m| m.dump()))
    }

    /// The navmesh written as a file: the bytes it was read from when unchanged.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py.detach(|| self.bytes())?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Writes the navmesh to ``path`` atomically (a temporary file in the same folder, then a
    /// rename): byte for byte the file it was read from when unchanged.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| {
            let bytes = self.bytes()?;
            files::write_atomic(&path, &bytes)
                .map_err(|e| nav_error(format!("{}: {e}", path.display())))
        })
    }

    /// The JSON document of the model, as ``navkit to-json`` writes it
    /// (``{"format": ..., "model": ...}``); ``navkit.from_json`` reads it back.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| {
            let mut out = Vec::new();
            self.with(|m| m.to_json(&mut out))?.map_err(nav_error)?;
            String::from_utf8(out).map_err(nav_error)
        })
    }

    /// The JSON document as Python objects (``json.loads(self.to_json())``);
    /// ``navkit.from_dict`` reads it back.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = self.to_json(py)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// Semantic findings: indices that name nothing, invariants game files keep.
    fn validate(&self, py: Python<'_>) -> PyResult<Vec<Finding>> {
        let findings = py.detach(|| self.with(|m| m.validate()))?;
        Ok(findings
            .into_iter()
            .map(|f| Finding {
                severity: f.severity.to_string(),
                path: f.location,
                message: f.message,
            })
            .collect())
    }

    /// Makes the navmesh consistent after an edit (counts, offsets, back-links), in place;
    /// one line per change, empty when nothing needed fixing.
    fn fix(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        py.detach(|| self.shared.edit(|m| m.fix()).map_err(poisoned))
    }

    /// An independent copy, to edit without touching this one.
    fn copy(&self, py: Python<'_>) -> PyResult<Navmesh> {
        py.detach(|| {
            let model = self.with(|m| m.boxed_clone())?;
            Ok(Navmesh::new(model, self.source.clone(), self.size))
        })
    }

    /// The navmeshes a container holds (a Skyrim plugin's NAVM records), by name (the FormID
    /// as 8 hex digits); empty for a format that holds none.
    fn parts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let opened = py.detach(|| -> PyResult<Vec<(String, Navmesh)>> {
            let parts = self.with(|m| m.parts())?;
            parts
                .into_iter()
                .map(|part| {
                    let format = registry::by_name(part.format).ok_or_else(|| {
                        nav_error(format!(
                            "part {}: {} is not in this build",
                            part.name, part.format
                        ))
                    })?;
                    let model = format
                        .open(&part.bytes)
                        .map_err(|e| nav_error(format!("part {}: {e}", part.name)))?;
                    Ok((part.name, Navmesh::new(model, None, Some(part.bytes.len()))))
                })
                .collect()
        })?;
        let d = PyDict::new(py);
        for (name, navmesh) in opened {
            d.set_item(name, navmesh)?;
        }
        Ok(d)
    }

    /// Puts ``navmesh`` in place of the part ``form_id`` (an ``int``, or its name as
    /// ``parts()`` gives it), in place.
    fn replace(
        &self,
        py: Python<'_>,
        form_id: &Bound<'_, PyAny>,
        navmesh: &Bound<'_, Navmesh>,
    ) -> PyResult<()> {
        let name = match form_id.extract::<u32>() {
            Ok(id) => format!("{id:08X}"),
            Err(_) => form_id
                .extract::<String>()
                .map_err(|_| PyValueError::new_err("form_id is an int or a part name"))?,
        };
        let part = navmesh.get();
        py.detach(|| {
            let bytes = part.bytes()?;
            self.shared
                .edit(|m| m.replace_part(&name, &bytes))
                .map_err(poisoned)?
                .map_err(nav_error)
        })
    }

    /// Writes the geometry as a Wavefront ``.obj`` or a binary glTF ``.glb`` (by the ending of
    /// ``path``), as ``navkit export`` does.
    fn export(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let kind = ending(&path);
        if kind != "obj" && kind != "glb" {
            return Err(PyValueError::new_err(format!(
                "{}: export writes .obj or .glb files",
                path.display()
            )));
        }
        py.detach(|| {
            let g = self.geometry()?;
            let name = files::display_name(self.source.as_deref());
            let bytes = if kind == "obj" {
                navkit::export::to_obj(&g, &name).into_bytes()
            } else {
                navkit::export::to_glb(&g, &name).map_err(nav_error)?
            };
            files::write_atomic(&path, &bytes)
                .map_err(|e| nav_error(format!("{}: {e}", path.display())))
        })
    }

    /// Draws the navmesh from above into a ``.png`` or ``.svg`` (by the ending of ``path``),
    /// ``size`` pixels on its longer side (64 to 8192), as ``navkit render`` does.
    #[pyo3(signature = (path, size = 1024))]
    fn render(&self, py: Python<'_>, path: PathBuf, size: u32) -> PyResult<()> {
        let kind = ending(&path);
        if kind != "png" && kind != "svg" {
            return Err(PyValueError::new_err(format!(
                "{}: render writes .png or .svg files",
                path.display()
            )));
        }
        if !(64..=navkit::render::MAX_SIZE).contains(&size) {
            return Err(PyValueError::new_err(format!(
                "size {size} is outside 64 to {}",
                navkit::render::MAX_SIZE
            )));
        }
        py.detach(|| {
            let g = self.geometry()?;
            let bytes = if kind == "svg" {
                navkit::render::to_svg(&g, size).into_bytes()
            } else {
                navkit::render::to_png(&g, size).map_err(nav_error)?
            };
            files::write_atomic(&path, &bytes)
                .map_err(|e| nav_error(format!("{}: {e}", path.display())))
        })
    }

    /// Which axis of the file points up: ``"y"`` or ``"z"``.
    #[getter]
    fn up(&self, py: Python<'_>) -> PyResult<&'static str> {
        let g = py.detach(|| self.geometry())?;
        Ok(match g.up {
            UpAxis::Y => "y",
            UpAxis::Z => "z",
        })
    }

    /// The geometry's vertices: float32, shape ``(N, 3)``, in the file's axes. Assigning an
    /// array of the same shape moves the vertices that changed (through ``apply``): the rest of
    /// the file is kept, and a coordinate within float rounding of its old value keeps its bits.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let vertices =
            py.detach(|| self.shared.vertices().map_err(poisoned)?.map_err(nav_error))?;
        arrays::owned_points(py, vertices)
    }

    #[setter(vertices)]
    fn set_vertices(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let points = edit::vertices(value)?;
        let g = py.detach(|| self.geometry())?;
        let mesh = edit::moved(&g, points)?;
        self.edit_with(py, |m, o| m.apply(&mesh, o)).map(|_| ())
    }

    /// Puts an edited mesh back onto this navmesh, in place, keeping everything the mesh does
    /// not show (``navkit apply``): ``vertices`` ``(N, 3)`` in the file's axes, faces as
    /// ``offsets``/``indices`` (face ``k`` is ``indices[offsets[k]:offsets[k + 1]]``), and
    /// optionally per-face integer ``attributes`` named as in ``polygon_attributes``. Faces are
    /// known again by position and topology: moved vertices move, missing polygons are
    /// deleted, new faces become new records. Returns one line per change; raises ``NavError``
    /// for what cannot be told apart or stored, leaving the navmesh as it was.
    #[pyo3(signature = (vertices, offsets, indices, attributes=None))]
    fn apply(
        &self,
        py: Python<'_>,
        vertices: &Bound<'_, PyAny>,
        offsets: &Bound<'_, PyAny>,
        indices: &Bound<'_, PyAny>,
        attributes: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Vec<String>> {
        let vertices = edit::vertices(vertices)?;
        let faces = edit::faces(offsets, indices, vertices.len())?;
        let attributes = edit::attributes(attributes, faces.len())?;
        let mesh = nav_core::edit::EditedMesh {
            vertices,
            faces,
            attributes,
        };
        self.edit_with(py, |m, o| m.apply(&mesh, o))
    }

    /// Which record of the file each polygon is, as int64 arrays by name: ``index`` (its
    /// position in the format's list), ``id`` (the id users know, -1 where none) and ``part``
    /// (an index into ``parts()``' order for a container, else 0).
    #[getter]
    fn polygon_records<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = py.detach(|| self.geometry())?;
        edit::records(py, &g)
    }

    /// Each polygon's raw attribute values as stored (flags as the integer the file holds),
    /// int64 arrays named as in the JSON (``attribute_flags``, ``flags``, ...).
    fn polygon_attributes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let g = py.detach(|| self.geometry())?;
        edit::polygon_attributes(py, &g)
    }

    /// The named bits of the format's flag attributes, ``{attribute: {bit name: mask}}``
    /// (``{"attribute_flags": {"jump": 2, ...}}``); attributes ``polygon_attributes()`` names,
    /// empty for a format that names no bits. Bits not named are the file's own.
    fn attribute_bits<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let format = registry::by_name(self.format)
            .ok_or_else(|| nav_error(format!("unknown format `{}`", self.format)))?;
        edit::attribute_bits(py, format.attribute_bits())
    }

    /// The polygons as ``(offsets, indices)``: polygon ``k`` is
    /// ``indices[offsets[k]:offsets[k + 1]]``, indices into ``vertices``.
    #[getter]
    fn polygons<'py>(&self, py: Python<'py>) -> PyResult<arrays::Polygons<'py>> {
        let g = py.detach(|| self.geometry())?;
        Ok(arrays::polygons(py, &g))
    }

    /// Each polygon's kind (uint16), an index into ``kinds``.
    #[getter]
    fn polygon_kinds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u16>>> {
        let g = py.detach(|| self.geometry())?;
        Ok(arrays::polygon_kinds(py, &g))
    }

    /// Each graph node's kind (uint16, an index into ``kinds``): a Quake node's type
    /// (``teleporter``, ``elevator``, ...).
    #[getter]
    fn node_kinds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u16>>> {
        let g = py.detach(|| self.geometry())?;
        Ok(arrays::graph_kinds(py, &g).0)
    }

    /// Each graph link's kind (uint16, an index into ``kinds``), in the order of ``links``: the
    /// link type the file stores (``walk``, ``long jump``, ``ladder``, ...).
    #[getter]
    fn link_kinds<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u16>>> {
        let g = py.detach(|| self.geometry())?;
        Ok(arrays::graph_kinds(py, &g).1)
    }

    /// The names of the polygon, node and link kinds (``polygon_kinds``, ``node_kinds`` and
    /// ``link_kinds`` index them).
    #[getter]
    fn kinds(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let g = py.detach(|| self.geometry())?;
        Ok(g.kinds.clone())
    }

    /// The geometry's graph nodes (float32 ``(N, 3)``, the file's axes), for formats that are
    /// graphs. Assigning an array of the same shape moves the nodes that changed (through
    /// ``apply_graph``): the rest of the file is kept, and a coordinate within float rounding
    /// of its old value keeps its bits.
    #[getter]
    fn nodes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let g = py.detach(|| self.geometry())?;
        arrays::nodes(py, &g)
    }

    #[setter(nodes)]
    fn set_nodes(&self, py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<()> {
        let graph = nav_core::edit::EditedGraph {
            nodes: edit::vertices(value)?,
            links: None,
        };
        self.edit_with(py, |m, o| m.apply_graph(&graph, o))
            .map(|_| ())
    }

    /// Puts a graph edited in a 3D tool back onto this navmesh, in place (Quake nodes):
    /// ``nodes`` ``(N, 3)`` in the file's axes, one per node of ``nodes`` in the same order, and
    /// optionally ``links`` ``(M, 2)``, the edges the tool holds (compared undirected, once per
    /// pair). Moved nodes move; everything else is kept. Returns one line per change; raises
    /// ``NavError``, leaving the navmesh as it was, for added or deleted nodes or links (edit
    /// the JSON for those) and for a graph that derives from polygons (Fox Engine).
    #[pyo3(signature = (nodes, links=None))]
    fn apply_graph(
        &self,
        py: Python<'_>,
        nodes: &Bound<'_, PyAny>,
        links: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let nodes = edit::vertices(nodes)?;
        let links = links.map(edit::pairs).transpose()?;
        let graph = nav_core::edit::EditedGraph { nodes, links };
        self.edit_with(py, |m, o| m.apply_graph(&graph, o))
    }

    /// The geometry's graph links (uint32 ``(M, 2)``: from, to), indices into ``nodes``.
    #[getter]
    fn links<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let g = py.detach(|| self.geometry())?;
        arrays::links(py, &g)
    }

    /// The navigation cells' ids (uint64), as users know them; ``locate_many`` and ``Path``
    /// give indices into this array.
    #[getter]
    fn cell_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let nav = py.detach(|| self.navigator())?;
        Ok(arrays::cell_ids(py, nav.graph()))
    }

    /// The navigation cells as arrays by name: ``id``, ``part`` (-1 without parts),
    /// ``centre`` (NaN where none), ``radius`` (NaN for polygons), ``corner_start`` and
    /// ``corner_count`` (runs of ``cell_corners``); and each of the file's per-record
    /// attributes, named as in the JSON (``attribute_flags``, ``flags``, ...): int64, the raw
    /// value the cell's record holds, -1 for a cell that is no polygon record (a node).
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let nav = py.detach(|| self.navigator())?;
        // A format without a geometry mapping has no per-record attributes to add.
        let geometry = py.detach(|| self.geometry()).ok();
        arrays::cells(py, nav.graph(), geometry.as_deref())
    }

    /// Every navigation cell's polygon corners (float32 ``(M, 3)``), one run per cell.
    #[getter]
    fn cell_corners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f32>>> {
        let nav = py.detach(|| self.navigator())?;
        arrays::cell_corners(py, nav.graph())
    }

    /// The index (into ``cell_ids``) of the cell under ``point`` (x, y, z in the file's
    /// axes), or ``None``. Of stacked cells, the nearest in height wins.
    fn locate(&self, py: Python<'_>, point: [f32; 3]) -> PyResult<Option<u32>> {
        py.detach(|| Ok(self.navigator()?.locate(point).map(|l| l.cell)))
    }

    /// ``locate`` for every row of ``points`` (shape ``(N, 3)``): int64 indices into
    /// ``cell_ids``, -1 where no cell is.
    fn locate_many<'py>(
        &self,
        py: Python<'py>,
        points: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let array = navigate::points_array(py, points)?;
        let view = array.as_array();
        let found =
            py.detach(|| Ok::<_, PyErr>(navigate::locate_rows(&*self.navigator()?, view)))?;
        Ok(PyArray1::from_vec(py, found))
    }

    /// The cheapest route from ``a`` to ``b``: each a cell id (``int`` or ``"PART:ID"``) or a
    /// point. ``weight`` is ``"distance"`` (between cell centres) or ``"hops"``;
    /// ``walk_only`` follows walking edges only (no jumps, drops, ladders). No route is an
    /// answer (``reachable`` false, ``reason`` why); an unknown cell id raises ``NavError``.
    #[pyo3(signature = (a, b, *, weight = "distance", walk_only = false))]
    fn path(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        weight: &str,
        walk_only: bool,
    ) -> PyResult<Path> {
        let (a, b) = (navigate::endpoint(a)?, navigate::endpoint(b)?);
        let weight = navigate::weight(weight)?;
        py.detach(|| {
            let nav = self.navigator()?;
            let route = nav.path(a, b, weight, walk_only).map_err(nav_error)?;
            Ok(Path::new(&nav, route))
        })
    }

    /// The connected components (each edge taken both ways), largest first: int64 arrays of
    /// indices into ``cell_ids``, every cell in exactly one.
    #[pyo3(signature = (*, walk_only = false))]
    fn islands<'py>(
        &self,
        py: Python<'py>,
        walk_only: bool,
    ) -> PyResult<Vec<Bound<'py, PyArray1<i64>>>> {
        let islands = py.detach(|| Ok::<_, PyErr>(self.navigator()?.islands(walk_only)))?;
        Ok(islands
            .iter()
            .map(|cells| arrays::cell_list(py, cells))
            .collect())
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let version = self.version(py)?;
        Ok(match &self.source {
            Some(p) => format!(
                "<navkit.Navmesh {} {version} from {}>",
                self.format,
                p.display()
            ),
            None => format!("<navkit.Navmesh {} {version}>", self.format),
        })
    }
}

/// A path's file name ending, lower case.
fn ending(path: &std::path::Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}
