//! Navigation from Python: endpoints, the `Path` answer, and points given as numpy arrays.

use numpy::{PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString};

use nav_core::navigation::{CellId, Endpoint, Navigator, Route, Weight};

/// A route between two cells, or why there is none (``Navmesh.path``).
#[pyclass(frozen, module = "navkit", name = "Path")]
pub(crate) struct Path {
    /// The route's cells from start to end, both included, as indices into
    /// ``Navmesh.cell_ids``; empty when unreachable.
    #[pyo3(get)]
    cells: Vec<u32>,
    /// The route's cells by the ids users know, written out when asked for ([`Path::ids`]).
    cell_ids: Vec<CellId>,
    /// The route's cost under the weight asked for (0.0 when unreachable).
    #[pyo3(get)]
    cost: f64,
    /// Whether a route exists.
    #[pyo3(get)]
    reachable: bool,
    /// Why there is no route, when unreachable; else ``None``.
    #[pyo3(get)]
    reason: Option<String>,
    /// The cell the route starts on, as an index into ``Navmesh.cell_ids`` (``None`` when the
    /// start is a point on no cell).
    #[pyo3(get)]
    start: Option<u32>,
    /// The cell the route ends on, as an index (``None`` when the end is a point on no cell).
    #[pyo3(get)]
    end: Option<u32>,
}

impl Path {
    /// The answer for `route`, found by `nav`.
    pub(crate) fn new(nav: &Navigator, route: Route) -> Self {
        Path {
            cell_ids: nav.route_cells(&route.cells),
            cells: route.cells,
            cost: route.cost,
            reachable: route.reachable,
            reason: route.reason,
            start: route.from,
            end: route.to,
        }
    }
}

#[pymethods]
impl Path {
    /// The route's cells by the ids users know (``"61"``, ``"0410E930:12"``).
    #[getter]
    fn ids(&self) -> Vec<String> {
        self.cell_ids.iter().map(ToString::to_string).collect()
    }

    fn __repr__(&self) -> String {
        match &self.reason {
            None => format!(
                "<navkit.Path {} cells, cost {}>",
                self.cells.len(),
                self.cost
            ),
            Some(why) => format!("<navkit.Path unreachable: {why}>"),
        }
    }

    fn __len__(&self) -> usize {
        self.cells.len()
    }
}

/// One end of a route: a cell id (an ``int``, or a ``str`` such as ``"0410E930:12"``) or a
/// point (three numbers).
pub(crate) fn endpoint(value: &Bound<'_, PyAny>) -> PyResult<Endpoint> {
    if value.is_instance_of::<PyInt>() {
        let id: u64 = value
            .extract()
            .map_err(|_| PyValueError::new_err("a cell id is a number from 0"))?;
        return Ok(Endpoint::Cell(CellId::new(id)));
    }
    if value.is_instance_of::<PyString>() {
        let text: String = value.extract()?;
        let id = text
            .parse::<CellId>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        return Ok(Endpoint::Cell(id));
    }
    let point: [f32; 3] = value.extract().map_err(|_| {
        PyValueError::new_err("a route end is a cell id (int or str) or a point (x, y, z)")
    })?;
    Ok(Endpoint::Point(point))
}

/// What a route minimises, by the name the command-line tool takes.
pub(crate) fn weight(name: &str) -> PyResult<Weight> {
    match name {
        "distance" => Ok(Weight::Distance),
        "hops" => Ok(Weight::Hops),
        other => Err(PyValueError::new_err(format!(
            "unknown weight `{other}`: \"distance\" or \"hops\""
        ))),
    }
}

/// `points` as a float32 `N × 3` array, converted by numpy if it is anything else.
pub(crate) fn points_array<'py>(
    py: Python<'py>,
    points: &Bound<'py, PyAny>,
) -> PyResult<PyReadonlyArray2<'py, f32>> {
    let array: PyReadonlyArray2<'py, f32> = match points.extract() {
        Ok(a) => a,
        Err(_) => py
            .import("numpy")?
            .call_method1("ascontiguousarray", (points, "float32"))?
            .extract()
            .map_err(|_| PyValueError::new_err("points must be an array of shape (N, 3)"))?,
    };
    if array.shape().get(1) != Some(&3) {
        return Err(PyValueError::new_err(format!(
            "points must be an array of shape (N, 3), not {:?}",
            array.shape()
        )));
    }
    Ok(array)
}

/// The index of the cell under each point (rows of `points`), -1 where none is.
pub(crate) fn locate_rows(
    nav: &Navigator,
    points: numpy::ndarray::ArrayView2<'_, f32>,
) -> Vec<i64> {
    points
        .rows()
        .into_iter()
        .map(|row| {
            let at = |i: usize| row.get(i).copied().unwrap_or(f32::NAN);
            let p = [at(0), at(1), at(2)];
            nav.locate(p).map_or(-1, |l| i64::from(l.cell))
        })
        .collect()
}
