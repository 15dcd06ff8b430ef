//! The geometry and the navigation graph as numpy arrays: one copy into a flat buffer per
//! array, no Python object per element.

use std::collections::HashMap;

use numpy::ndarray::{Array1, Array2};
use numpy::{PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use nav_core::geometry::Geometry;
use nav_core::navigation::Graph;

/// An `n × 3` float32 array of points.
fn points<'py>(py: Python<'py>, list: &[[f32; 3]]) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let flat: Vec<f32> = list.iter().flatten().copied().collect();
    let array = Array2::from_shape_vec((list.len(), 3), flat)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(PyArray2::from_owned_array(py, array))
}

/// A count or offset as a numpy index (int64).
fn index(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// Polygons as `(offsets, indices)` arrays ([`polygons`]).
pub(crate) type Polygons<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<u32>>);

/// The geometry's vertices, float32 `N × 3`, in the file's axes.
pub(crate) fn vertices<'py>(py: Python<'py>, g: &Geometry) -> PyResult<Bound<'py, PyArray2<f32>>> {
    points(py, &g.vertices)
}

/// The polygons as `(offsets, indices)`: polygon `k` is `indices[offsets[k]:offsets[k + 1]]`,
/// indices into the vertices. `offsets` is int64 with one entry more than there are polygons;
/// `indices` is uint32.
pub(crate) fn polygons<'py>(py: Python<'py>, g: &Geometry) -> Polygons<'py> {
    let total = g.polygons.iter().map(|p| p.vertices.len()).sum();
    let mut offsets = Vec::with_capacity(g.polygons.len() + 1);
    let mut indices = Vec::with_capacity(total);
    offsets.push(0);
    for p in &g.polygons {
        indices.extend_from_slice(&p.vertices);
        offsets.push(index(indices.len()));
    }
    (
        PyArray1::from_vec(py, offsets),
        PyArray1::from_vec(py, indices),
    )
}

/// Each polygon's kind, uint16: an index into [`Geometry::kinds`].
pub(crate) fn polygon_kinds<'py>(py: Python<'py>, g: &Geometry) -> Bound<'py, PyArray1<u16>> {
    PyArray1::from_vec(py, g.polygons.iter().map(|p| p.kind).collect())
}

/// Each graph node's and each graph link's kind (uint16), indices into the geometry's kinds.
pub(crate) fn graph_kinds<'py>(
    py: Python<'py>,
    g: &Geometry,
) -> (Bound<'py, PyArray1<u16>>, Bound<'py, PyArray1<u16>>) {
    (
        PyArray1::from_vec(py, g.nodes.iter().map(|n| n.kind).collect()),
        PyArray1::from_vec(py, g.links.iter().map(|l| l.kind).collect()),
    )
}

/// The graph nodes' positions (float32 `N × 3`), for formats whose geometry is a graph.
pub(crate) fn nodes<'py>(py: Python<'py>, g: &Geometry) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let list: Vec<[f32; 3]> = g.nodes.iter().map(|n| n.position).collect();
    points(py, &list)
}

/// The graph links as uint32 `M × 2` (from, to), indices into the nodes.
pub(crate) fn links<'py>(py: Python<'py>, g: &Geometry) -> PyResult<Bound<'py, PyArray2<u32>>> {
    let flat: Vec<u32> = g.links.iter().flat_map(|l| [l.from, l.to]).collect();
    let array = Array2::from_shape_vec((g.links.len(), 2), flat)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(PyArray2::from_owned_array(py, array))
}

/// The cells' ids as users know them (uint64): a Source area id, a node index, a triangle's
/// index within its navmesh.
pub(crate) fn cell_ids<'py>(py: Python<'py>, graph: &Graph) -> Bound<'py, PyArray1<u64>> {
    PyArray1::from_vec(py, graph.cells.iter().map(|c| c.id.id).collect())
}

/// The per-cell arrays of the navigation graph, by name: `id` (uint64), `part` (int64, the
/// container part's FormID, -1 where the file has no parts), `centre` (float32 `N × 3`, NaN
/// where the cell has none), `radius` (float32, NaN for polygon cells), `corner_start` and
/// `corner_count` (int64: the cell's polygon is that run of [`cell_corners`]).
pub(crate) fn cells<'py>(
    py: Python<'py>,
    graph: &Graph,
    geometry: Option<&Geometry>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("id", cell_ids(py, graph))?;
    let parts: Vec<i64> = graph
        .cells
        .iter()
        .map(|c| c.id.part.map_or(-1, i64::from))
        .collect();
    d.set_item("part", PyArray1::from_vec(py, parts))?;
    let nan = [f32::NAN; 3];
    let centres: Vec<[f32; 3]> = graph
        .cells
        .iter()
        .map(|c| c.centre.unwrap_or(nan))
        .collect();
    d.set_item("centre", points(py, &centres)?)?;
    let radius: Vec<f32> = graph
        .cells
        .iter()
        .map(|c| c.radius.unwrap_or(f32::NAN))
        .collect();
    d.set_item("radius", PyArray1::from_vec(py, radius))?;
    let start: Vec<i64> = graph.cells.iter().map(|c| i64::from(c.corners.0)).collect();
    let count: Vec<i64> = graph.cells.iter().map(|c| i64::from(c.corners.1)).collect();
    d.set_item("corner_start", PyArray1::from_vec(py, start))?;
    d.set_item("corner_count", PyArray1::from_vec(py, count))?;
    if let Some(g) = geometry {
        cell_attributes(py, &d, graph, g)?;
    }
    Ok(d)
}

/// Adds to `d` one int64 array per attribute of the geometry (named as in the JSON), with
/// each polygon cell's value: the value of the geometry polygon whose record is the cell (the
/// same part, and the record's id where it has one, else its position, equal to the cell's
/// id); -1 for a node cell and for a cell no polygon is the record of.
fn cell_attributes<'py>(
    py: Python<'py>,
    d: &Bound<'py, PyDict>,
    graph: &Graph,
    g: &Geometry,
) -> PyResult<()> {
    if g.attributes.is_empty() {
        return Ok(());
    }
    // A part of the geometry by name (a FormID in hex) is the cell id's part number.
    let part_number = |part: u32| -> Option<u32> {
        match g.parts.get(part as usize) {
            Some(name) => u32::from_str_radix(name, 16).ok(),
            None => None,
        }
    };
    let mut by_record: HashMap<(Option<u32>, u64), usize> =
        HashMap::with_capacity(g.polygons.len());
    for (k, polygon) in g.polygons.iter().enumerate() {
        if let Some(r) = polygon.record {
            let part = if g.parts.is_empty() {
                None
            } else {
                part_number(r.part)
            };
            by_record
                .entry((part, r.id.unwrap_or(u64::from(r.index))))
                .or_insert(k);
        }
    }
    let polygon_of: Vec<Option<usize>> = graph
        .cells
        .iter()
        .map(|c| match c.radius {
            Some(_) => None,
            None => by_record.get(&(c.id.part, c.id.id)).copied(),
        })
        .collect();
    for (a, name) in g.attributes.iter().enumerate() {
        let values: Vec<i64> = polygon_of
            .iter()
            .map(|k| {
                k.and_then(|k| g.polygons.get(k))
                    .and_then(|p| p.attributes.get(a).copied())
                    .unwrap_or(-1)
            })
            .collect();
        d.set_item(name, PyArray1::from_vec(py, values))?;
    }
    Ok(())
}

/// One array per route or island: cell indices as int64.
pub(crate) fn cell_list<'py>(py: Python<'py>, cells: &[u32]) -> Bound<'py, PyArray1<i64>> {
    PyArray1::from_owned_array(py, Array1::from_iter(cells.iter().map(|&c| i64::from(c))))
}

/// Every cell's polygon corners (float32 `M × 3`), one run per cell.
pub(crate) fn cell_corners<'py>(
    py: Python<'py>,
    graph: &Graph,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    points(py, &graph.corners)
}
