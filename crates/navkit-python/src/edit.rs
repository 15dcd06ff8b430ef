//! Mesh edits from Python: arrays made into a [`nav_core::edit::EditedMesh`] for
//! ``Navmesh.apply`` and the ``vertices`` setter (and into graph links for
//! ``Navmesh.apply_graph``), and the polygons' identity as arrays.

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use nav_core::edit::EditedMesh;
use nav_core::geometry::Geometry;

/// Reads an ``(N, 3)`` array of points (any float dtype numpy can cast) as `f32` triples.
pub(crate) fn vertices(array: &Bound<'_, PyAny>) -> PyResult<Vec<[f32; 3]>> {
    let np = array.py().import("numpy")?;
    let cast = np.call_method1("ascontiguousarray", (array, "float32"))?;
    let points: PyReadonlyArray2<'_, f32> = cast
        .extract()
        .map_err(|_| PyValueError::new_err("vertices must be an (N, 3) array of numbers"))?;
    let view = points.as_array();
    if view.ncols() != 3 {
        return Err(PyValueError::new_err(format!(
            "vertices must have 3 columns, not {}",
            view.ncols()
        )));
    }
    Ok(view
        .rows()
        .into_iter()
        .map(|r| [r[0], r[1], r[2]])
        .collect())
}

/// Reads a one-dimensional integer array (cast to int64).
fn integers(array: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<i64>> {
    let np = array.py().import("numpy")?;
    let cast = np.call_method1("ascontiguousarray", (array, "int64"))?;
    let values: PyReadonlyArray1<'_, i64> = cast
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what} must be a one-dimensional array")))?;
    Ok(values.as_array().to_vec())
}

/// Faces from ``(offsets, indices)``: face `k` is `indices[offsets[k]:offsets[k + 1]]`.
pub(crate) fn faces(
    offsets: &Bound<'_, PyAny>,
    indices: &Bound<'_, PyAny>,
    vertex_count: usize,
) -> PyResult<Vec<Vec<u32>>> {
    let offsets = integers(offsets, "offsets")?;
    let indices = integers(indices, "indices")?;
    let bad = |m: String| PyValueError::new_err(m);
    if offsets.first().copied().unwrap_or(0) != 0 {
        return Err(bad("offsets must start at 0".into()));
    }
    let mut out = Vec::with_capacity(offsets.len().saturating_sub(1));
    for (k, pair) in offsets.windows(2).enumerate() {
        let (Ok(a), Ok(b)) = (usize::try_from(pair[0]), usize::try_from(pair[1])) else {
            return Err(bad(format!("offsets[{k}]: negative")));
        };
        let Some(run) = indices.get(a..b) else {
            return Err(bad(format!(
                "offsets[{k}..{}]: {a}..{b} is not a run of the {} indices",
                k + 1,
                indices.len()
            )));
        };
        let face = run
            .iter()
            .map(|v| {
                u32::try_from(*v)
                    .ok()
                    .filter(|v| (*v as usize) < vertex_count)
            })
            .collect::<Option<Vec<u32>>>()
            .ok_or_else(|| bad(format!("face {k} names a vertex that does not exist")))?;
        out.push(face);
    }
    if offsets.last().and_then(|l| usize::try_from(*l).ok()) != Some(indices.len()) {
        return Err(bad("offsets must end at the number of indices".into()));
    }
    Ok(out)
}

/// Triangles from an ``(M, 3)`` integer array naming vertices below `vertex_count`.
pub(crate) fn triangles(array: &Bound<'_, PyAny>, vertex_count: usize) -> PyResult<Vec<[u32; 3]>> {
    let np = array.py().import("numpy")?;
    let cast = np.call_method1("ascontiguousarray", (array, "int64"))?;
    let rows: PyReadonlyArray2<'_, i64> = cast
        .extract()
        .map_err(|_| PyValueError::new_err("triangles must be an (M, 3) array of integers"))?;
    let view = rows.as_array();
    if view.ncols() != 3 {
        return Err(PyValueError::new_err("triangles must have 3 columns"));
    }
    view.rows()
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            let corner = |i: usize| {
                u32::try_from(r[i])
                    .ok()
                    .filter(|v| (*v as usize) < vertex_count)
                    .ok_or_else(|| {
                        PyValueError::new_err(format!(
                            "triangle {k} names a vertex that does not exist"
                        ))
                    })
            };
            Ok([corner(0)?, corner(1)?, corner(2)?])
        })
        .collect()
}

/// Node index pairs from an ``(M, 2)`` integer array (graph links or edges); an index that
/// no node has is kept, for the matcher to refuse.
pub(crate) fn pairs(array: &Bound<'_, PyAny>) -> PyResult<Vec<[u32; 2]>> {
    let np = array.py().import("numpy")?;
    let cast = np.call_method1("ascontiguousarray", (array, "int64"))?;
    let cast = cast
        .call_method1("reshape", ((-1i64, 2i64),))
        .map_err(|_| PyValueError::new_err("links must be an (M, 2) array of node indices"))?;
    let rows: PyReadonlyArray2<'_, i64> = cast
        .extract()
        .map_err(|_| PyValueError::new_err("links must be an (M, 2) array of node indices"))?;
    rows.as_array()
        .rows()
        .into_iter()
        .enumerate()
        .map(|(k, r)| {
            let end = |v: i64| {
                u32::try_from(v).map_err(|_| {
                    PyValueError::new_err(format!("links[{k}]: {v} is not a node index"))
                })
            };
            Ok([end(r[0])?, end(r[1])?])
        })
        .collect()
}

/// Per-face attribute arrays from a dict of name → one value per face.
pub(crate) fn attributes(
    d: Option<&Bound<'_, PyDict>>,
    faces: usize,
) -> PyResult<Vec<(String, Vec<i64>)>> {
    let Some(d) = d else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for (k, v) in d.iter() {
        let name: String = k.extract()?;
        let values = integers(&v, &name)?;
        if values.len() != faces {
            return Err(PyValueError::new_err(format!(
                "attribute {name} has {} values for {faces} faces",
                values.len()
            )));
        }
        out.push((name, values));
    }
    Ok(out)
}

/// The geometry itself as an edited mesh: its vertices replaced by `vertices`, every polygon
/// as it is, for the ``vertices`` setter.
pub(crate) fn moved(g: &Geometry, vertices: Vec<[f32; 3]>) -> PyResult<EditedMesh> {
    if vertices.len() != g.vertices.len() {
        return Err(PyValueError::new_err(format!(
            "vertices must keep their shape: {} rows given for {}",
            vertices.len(),
            g.vertices.len()
        )));
    }
    Ok(EditedMesh {
        vertices,
        faces: g.polygons.iter().map(|p| p.vertices.clone()).collect(),
        attributes: Vec::new(),
    })
}

/// Each polygon's record as arrays: ``index`` (its position in the format's list), ``id``
/// (the id users know, -1 where the format has none), ``part`` (index into the parts, 0 in a
/// file of one part); -1 everywhere for a polygon that names no record.
pub(crate) fn records<'py>(py: Python<'py>, g: &Geometry) -> PyResult<Bound<'py, PyDict>> {
    let n = g.polygons.len();
    let (mut index, mut id, mut part) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for p in &g.polygons {
        let r = p.record;
        index.push(r.map_or(-1, |r| i64::from(r.index)));
        id.push(
            r.and_then(|r| r.id)
                .map_or(-1, |i| i64::try_from(i).unwrap_or(-1)),
        );
        part.push(r.map_or(-1, |r| i64::from(r.part)));
    }
    let d = PyDict::new(py);
    d.set_item("index", PyArray1::from_vec(py, index))?;
    d.set_item("id", PyArray1::from_vec(py, id))?;
    d.set_item("part", PyArray1::from_vec(py, part))?;
    Ok(d)
}

/// Each of the geometry's attributes (raw values as stored, named as in the JSON) as an int64
/// array with one value per polygon (0 where a polygon carries fewer values).
pub(crate) fn polygon_attributes<'py>(
    py: Python<'py>,
    g: &Geometry,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (a, name) in g.attributes.iter().enumerate() {
        let values: Vec<i64> = g
            .polygons
            .iter()
            .map(|p| p.attributes.get(a).copied().unwrap_or(0))
            .collect();
        d.set_item(name, PyArray1::from_vec(py, values))?;
    }
    Ok(d)
}

/// The named bits of a format's flag attributes ([`nav_core::Format::attribute_bits`]) as
/// ``{attribute: {bit name: mask}}``, names in the format's order.
pub(crate) fn attribute_bits<'py>(
    py: Python<'py>,
    tables: &[nav_core::AttributeBits],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for table in tables {
        let bits = PyDict::new(py);
        for (mask, name) in table.bits {
            bits.set_item(*name, *mask)?;
        }
        d.set_item(table.attribute, bits)?;
    }
    Ok(d)
}
