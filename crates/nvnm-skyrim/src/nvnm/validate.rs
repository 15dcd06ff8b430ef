//! Semantic lints over an `NVNM` model; never parse errors.
//!
//! Errors: indices that name nothing (vertices, triangles, edge links), edge values no reader
//! can interpret, a cell count that is not `divisor²`, a version without a layout. Warnings:
//! neighbours that do not name each other back, grid entries whose triangle does not touch
//! their cell, vertices outside the grid bounds, and the version-15 references whose meaning
//! rests on one real file or on the documented layout alone (cover mappings, waypoints).
//! Infos: values that differ from what the Creation Kit writes (pathing-cell CRC, door type,
//! cell size).

use nav_core::{Finding, Place};

use super::model::NavmeshGeometry;
use super::{Edge, PATHING_CELL_CRC, PATHING_DOOR_CRC};

/// The place of triangle `i`, the cell of findings about it.
fn triangle(i: usize) -> Place {
    Place::at("triangles", i).cell()
}

/// Checks a model and returns what it finds, most serious first in each part.
pub fn validate(m: &NavmeshGeometry) -> Vec<Finding> {
    let mut out = Vec::new();
    if m.layout().is_none() {
        out.push(Finding::error(
            "version",
            format!("version {} has no known layout (12 or 15)", m.version),
        ));
    }
    if m.pathing_cell_crc != PATHING_CELL_CRC {
        out.push(Finding::info(
            "pathing_cell_crc",
            format!(
                "{:#010x} is not the PathingCell CRC {PATHING_CELL_CRC:#010x}",
                m.pathing_cell_crc
            ),
        ));
    }
    let nv = m.vertices.len();
    let nt = m.triangles.len();
    let ne = m.edge_links.len();
    for (i, t) in m.triangles.iter().enumerate() {
        for (k, &v) in t.vertices.iter().enumerate() {
            if usize::from(v) >= nv {
                out.push(Finding::error(
                    triangle(i).index("vertices", k),
                    format!("vertex {v} is past the {nv} vertices"),
                ));
            }
        }
        for k in 0..3 {
            match t.edge(k) {
                Edge::None => {}
                Edge::Triangle(n) if usize::from(n) >= nt => out.push(Finding::error(
                    triangle(i).index("edges", k),
                    format!("neighbour triangle {n} is past the {nt} triangles"),
                )),
                Edge::Triangle(n) => {
                    let me = u16::try_from(i).ok().map(Edge::Triangle);
                    let back = m
                        .triangles
                        .get(usize::from(n))
                        .is_some_and(|o| (0..3).any(|j| Some(o.edge(j)) == me));
                    if !back {
                        out.push(Finding::warning(
                            triangle(i).index("edges", k),
                            format!("neighbour triangle {n} has no edge back to triangle {i}"),
                        ));
                    }
                }
                Edge::EdgeLink(l) if usize::from(l) >= ne => out.push(Finding::error(
                    triangle(i).index("edges", k),
                    format!("edge link {l} is past the {ne} edge links"),
                )),
                Edge::EdgeLink(_) => {}
                Edge::Invalid(v) => out.push(Finding::error(
                    triangle(i).index("edges", k),
                    format!(
                        "edge value {v} is neither -1, a triangle nor an edge link (flags {:#06x})",
                        t.flags
                    ),
                )),
            }
        }
    }
    let tri_in_range = |out: &mut Vec<Finding>, location: Place, t: i16| {
        if usize::try_from(t).map_or(true, |t| t >= nt) {
            out.push(Finding::error(
                location,
                format!("triangle {t} is not one of the {nt} triangles"),
            ));
        }
    };
    for (i, d) in m.door_triangles.iter().enumerate() {
        tri_in_range(
            &mut out,
            Place::at("door_triangles", i).field("triangle"),
            d.triangle,
        );
        if d.door_type != 0 && d.door_type != PATHING_DOOR_CRC {
            out.push(Finding::info(
                Place::at("door_triangles", i).field("door_type"),
                format!(
                    "{:#010x} is neither 0 nor the PathingDoor CRC {PATHING_DOOR_CRC:#010x}",
                    d.door_type
                ),
            ));
        }
    }
    for (i, &t) in m.cover_triangles.iter().enumerate() {
        tri_in_range(&mut out, Place::at("cover_triangles", i), t);
    }
    for (i, c) in m.cover_array.iter().enumerate() {
        for (k, &v) in c.vertices.iter().enumerate() {
            if usize::from(v) >= nv {
                out.push(Finding::error(
                    Place::at("cover_array", i).index("vertices", k),
                    format!("vertex {v} is past the {nv} vertices"),
                ));
            }
        }
    }
    validate_cover_mappings(m, &mut out);
    // The waypoint layout comes from xEdit and Mutagen only: no real file has a waypoint yet.
    for (i, w) in m.waypoints.iter().enumerate() {
        if usize::try_from(w.triangle).map_or(true, |t| t >= nt) {
            out.push(Finding::warning(
                Place::at("waypoints", i).field("triangle"),
                format!("triangle {} is not one of the {nt} triangles", w.triangle),
            ));
        }
    }
    validate_grid(m, &mut out);
    out
}

/// Version-15 cover mappings, read as `triangle << 2 | edge` and a cover index. That reading
/// fits every mapping of the one real Fallout 4 file but is not proven, so what contradicts it
/// is a warning: a cover index past the cover array, a triangle past the triangles, edge 3, and
/// a cover entry whose two vertices are not those of the mapped edge.
fn validate_cover_mappings(m: &NavmeshGeometry, out: &mut Vec<Finding>) {
    let (nc, nt) = (m.cover_array.len(), m.triangles.len());
    for (i, c) in m.cover_mappings.iter().enumerate() {
        let location = Place::at("cover_mappings", i);
        let cover = m.cover_array.get(usize::from(c.cover));
        if cover.is_none() {
            out.push(Finding::warning(
                location.clone().field("cover"),
                format!("cover {} is past the {nc} cover entries", c.cover),
            ));
        }
        let (t, e) = (c.triangle(), c.edge());
        let triangle = m.triangles.get(usize::from(t));
        if triangle.is_none() {
            out.push(Finding::warning(
                location.clone().field("triangle_edge"),
                format!(
                    "{:#06x} names triangle {t}, not one of the {nt} triangles",
                    c.triangle_edge
                ),
            ));
        }
        if e > 2 {
            out.push(Finding::warning(
                location.clone().field("triangle_edge"),
                format!(
                    "{:#06x} names edge 3; a triangle has edges 0 to 2",
                    c.triangle_edge
                ),
            ));
        }
        let (Some(cover), Some(triangle)) = (cover, triangle) else {
            continue;
        };
        let k = usize::from(e);
        let (Some(&a), Some(&b)) = (triangle.vertices.get(k), triangle.vertices.get((k + 1) % 3))
        else {
            continue;
        };
        let [p, q] = cover.vertices;
        if !((p == a && q == b) || (p == b && q == a)) {
            out.push(Finding::warning(
                location,
                format!(
                    "cover {} has vertices ({p}, {q}), but edge {e} of triangle {t} joins {a} and {b}",
                    c.cover
                ),
            ));
        }
    }
}

fn validate_grid(m: &NavmeshGeometry, out: &mut Vec<Finding>) {
    let g = &m.grid;
    let d = u64::from(g.divisor);
    if g.cells.len() as u64 != d * d {
        out.push(Finding::error(
            Place::of("grid").field("cells"),
            format!(
                "{} cell lists, but divisor {} needs {}",
                g.cells.len(),
                g.divisor,
                d * d
            ),
        ));
    }
    let min = g.min.map(|v| v.get());
    let max = g.max.map(|v| v.get());
    let (cw, ch) = (g.cell_size[0].get(), g.cell_size[1].get());
    if d > 0 {
        for a in 0..2 {
            let expected = (max[a] - min[a]) / d as f32;
            let stored = g.cell_size[a].get();
            if (expected - stored).abs() > 1e-3 * expected.abs().max(1.0) {
                out.push(Finding::info(
                    Place::of("grid").index("cell_size", a),
                    format!("{stored} is not (max - min) / divisor = {expected}"),
                ));
            }
        }
    }
    // Vertices outside the bounds: one finding with the count and the first offender.
    let tol = |a: usize| 1e-3 * (max[a] - min[a]).abs().max(1.0);
    let outside: Vec<usize> = m
        .vertices
        .iter()
        .enumerate()
        .filter(|(_, v)| {
            (0..3).any(|a| {
                let x = v[a].get();
                !(x >= min[a] - tol(a) && x <= max[a] + tol(a))
            })
        })
        .map(|(i, _)| i)
        .collect();
    if let Some(first) = outside.first() {
        out.push(Finding::warning(
            Place::of("grid").field("min/max"),
            format!(
                "{} of {} vertices lie outside the grid bounds (first: vertices[{first}])",
                outside.len(),
                m.vertices.len()
            ),
        ));
    }
    let nt = m.triangles.len();
    let width = usize::try_from(g.divisor).unwrap_or(usize::MAX).max(1);
    let slack = 1e-3 * cw.abs().max(ch.abs()).max(1.0);
    for (k, cell) in g.cells.iter().enumerate() {
        let (ix, iy) = ((k % width) as f32, (k / width) as f32);
        let x0 = min[0] + ix * cw - slack;
        let x1 = min[0] + (ix + 1.0) * cw + slack;
        let y0 = min[1] + iy * ch - slack;
        let y1 = min[1] + (iy + 1.0) * ch + slack;
        for (j, &t) in cell.iter().enumerate() {
            let Some(tri) = usize::try_from(t).ok().and_then(|t| m.triangles.get(t)) else {
                out.push(Finding::error(
                    Place::of("grid").index("cells", k).nth(j),
                    format!("triangle {t} is not one of the {nt} triangles"),
                ));
                continue;
            };
            let pts: Vec<_> = tri
                .vertices
                .iter()
                .filter_map(|&v| m.vertices.get(usize::from(v)))
                .collect();
            if pts.len() < 3 {
                continue; // already reported as a bad vertex index
            }
            let lo_x = pts.iter().map(|p| p[0].get()).fold(f32::INFINITY, f32::min);
            let hi_x = pts
                .iter()
                .map(|p| p[0].get())
                .fold(f32::NEG_INFINITY, f32::max);
            let lo_y = pts.iter().map(|p| p[1].get()).fold(f32::INFINITY, f32::min);
            let hi_y = pts
                .iter()
                .map(|p| p[1].get())
                .fold(f32::NEG_INFINITY, f32::max);
            let touches = lo_x <= x1 && hi_x >= x0 && lo_y <= y1 && hi_y >= y0;
            if !touches {
                out.push(Finding::warning(
                    Place::of("grid").index("cells", k).nth(j),
                    format!(
                        "triangle {t} does not touch cell ({}, {}) of the grid",
                        k % width,
                        k / width
                    ),
                ));
            }
        }
    }
}
