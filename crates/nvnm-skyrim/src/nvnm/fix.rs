//! Making an edited `NVNM` consistent again (`navkit fix`, [`nav_core::Format::fix`]).
//!
//! The geometry is the vertices and the triangles' corners; the neighbours across triangle
//! edges and the triangle grid derive from it. [`fix`] acts only on a model in which
//! [`super::validate::validate`] finds an error of a kind it mends ([`mends`]), and then:
//!
//! 1. **Triangles** that name a vertex past the vertices are dropped (one line each). Every
//!    reference to a triangle is renumbered: an edge to a dropped triangle becomes −1; a door
//!    triangle, cover triangle, cover-triangle mapping or waypoint on a dropped triangle is
//!    dropped; grid entries of dropped triangles are removed.
//! 2. **Door and cover triangles** that name no triangle, and **cover entries** (version 15) that
//!    name a vertex past the vertices, are dropped; the cover mappings follow the cover array.
//! 3. **Adjacency**, where validate finds an edge that names no triangle or edge link, or no
//!    reader can interpret: every edge that is not an edge link is recomputed with the builder's
//!    rule ([`crate::build::link_triangles`]); a broken edge-link edge loses its flag bit first.
//! 4. **Grid**, where validate finds a cell count that is not `divisor²` or an entry that names
//!    no triangle: recomputed with the builder's layout ([`crate::build::lay_out_grid`]), keeping
//!    a divisor of 1 to 12 (else the builder's [`crate::build::divisor_for`]).
//!
//! What validate does not call an error stays as the Creation Kit wrote it: neighbours that do
//! not name each other back, grids that differ from the builder's, the Found flag (set on all,
//! none or some triangles in real files). Locations name records by their index before the fix;
//! triangle numbers in the messages are those of the fixed model.

use std::collections::BTreeSet;

use nav_core::{Finding, Severity, Step};

use super::model::{CoverMapping, NavmeshGeometry};
use super::validate::validate;
use super::{Edge, triangle_flags};
use crate::build::{divisor_for, lay_out_grid, link_triangles};

/// Whether a finding at `place` (an `NVNM` model's, as [`super::validate::validate`] gives it)
/// is of a kind [`fix`] mends when it is an error: a triangle's vertex or edge, a door
/// triangle, a cover triangle, a cover entry's vertex, the grid's cells.
pub(crate) fn mended_at(place: &[Step]) -> bool {
    match place {
        [first, rest @ ..] => match first.field {
            "triangles" | "door_triangles" | "cover_triangles" | "cover_array" => true,
            "grid" => rest.first().is_some_and(|s| s.field == "cells"),
            _ => false,
        },
        [] => false,
    }
}

/// Whether `finding` is an error of a kind [`fix`] mends, read from its place in the `NVNM`
/// model (as [`super::validate::validate`] gives it). An unknown version it leaves.
pub fn mends(finding: &Finding) -> bool {
    finding.severity == Severity::Error && mended_at(finding.place.steps())
}

/// Makes an edited model consistent again (see the module docs for the rules) and returns one
/// line per change, `"<location>: <what changed>"`. A model in which validate finds no error of a
/// kind fix mends is left exactly as it is, and the list is empty.
pub fn fix(m: &mut NavmeshGeometry) -> Vec<String> {
    let findings = validate(m);
    fix_after(m, &findings)
}

/// [`fix`], given the findings of [`super::validate::validate`] on `m`: whether to mend is read
/// from their places.
fn fix_after(m: &mut NavmeshGeometry, findings: &[Finding]) -> Vec<String> {
    if !findings.iter().any(mends) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let origin = drop_triangles(m, &mut out);
    drop_dangling(m, &mut out);
    relink(m, &origin, &mut out);
    regrid(m, &mut out);
    out
}

/// Step 1: triangles naming a missing vertex, and every reference to them. Returns each kept
/// triangle's index before the drop.
fn drop_triangles(m: &mut NavmeshGeometry, out: &mut Vec<String>) -> Vec<usize> {
    let nv = m.vertices.len();
    let old = m.triangles.len();
    let mut map: Vec<Option<usize>> = Vec::with_capacity(old);
    let mut kept = Vec::with_capacity(old);
    for (i, t) in core::mem::take(&mut m.triangles).into_iter().enumerate() {
        match t.vertices.iter().find(|v| usize::from(**v) >= nv) {
            Some(v) => {
                out.push(format!(
                    "triangles[{i}]: dropped the triangle: vertex {v} is past the {nv} vertices"
                ));
                map.push(None);
            }
            None => {
                map.push(Some(kept.len()));
                kept.push(t);
            }
        }
    }
    m.triangles = kept;
    let origin: Vec<usize> = map
        .iter()
        .enumerate()
        .filter(|(_, n)| n.is_some())
        .map(|(i, _)| i)
        .collect();
    if m.triangles.len() == old {
        return origin;
    }
    // A reference to triangle `t` after the drop: `Some(Some(new))`, `Some(None)` when `t` was
    // dropped, `None` when `t` named no triangle before either (left to the later steps).
    let renumber = |t: i64| -> Option<Option<i16>> {
        let slot = usize::try_from(t).ok().and_then(|t| map.get(t))?;
        Some(slot.and_then(|n| i16::try_from(n).ok()))
    };
    for (tri, i) in m.triangles.iter_mut().zip(&origin) {
        for k in 0..3 {
            let Edge::Triangle(n) = tri.edge(k) else {
                continue;
            };
            match renumber(i64::from(n)) {
                Some(Some(new)) => tri.edges[k] = new,
                Some(None) => {
                    tri.edges[k] = -1;
                    out.push(format!(
                        "triangles[{i}] edges[{k}]: neighbour triangle {n} was dropped; now -"
                    ));
                }
                None => {}
            }
        }
    }
    let mut doors = Vec::with_capacity(m.door_triangles.len());
    for (i, mut d) in core::mem::take(&mut m.door_triangles)
        .into_iter()
        .enumerate()
    {
        match renumber(i64::from(d.triangle)) {
            Some(Some(new)) => {
                d.triangle = new;
                doors.push(d);
            }
            Some(None) => out.push(format!(
                "door_triangles[{i}]: dropped: its triangle {} was dropped",
                d.triangle
            )),
            None => doors.push(d),
        }
    }
    m.door_triangles = doors;
    let mut covers = Vec::with_capacity(m.cover_triangles.len());
    for (i, t) in core::mem::take(&mut m.cover_triangles)
        .into_iter()
        .enumerate()
    {
        match renumber(i64::from(t)) {
            Some(Some(new)) => covers.push(new),
            Some(None) => {
                out.push(format!(
                    "cover_triangles[{i}]: dropped: triangle {t} was dropped"
                ));
            }
            None => covers.push(t),
        }
    }
    m.cover_triangles = covers;
    let mut mappings = Vec::with_capacity(m.cover_mappings.len());
    for (i, c) in core::mem::take(&mut m.cover_mappings)
        .into_iter()
        .enumerate()
    {
        let t = c.triangle();
        match renumber(i64::from(t)) {
            Some(Some(new)) => {
                let moved = u16::try_from(new)
                    .ok()
                    .and_then(|n| CoverMapping::new(n, c.edge(), c.cover));
                mappings.push(moved.unwrap_or(c));
            }
            Some(None) => out.push(format!(
                "cover_mappings[{i}]: dropped: its triangle {t} was dropped"
            )),
            None => mappings.push(c),
        }
    }
    m.cover_mappings = mappings;
    let mut waypoints = Vec::with_capacity(m.waypoints.len());
    for (i, mut w) in core::mem::take(&mut m.waypoints).into_iter().enumerate() {
        match renumber(i64::from(w.triangle)) {
            Some(Some(new)) => {
                w.triangle = new;
                waypoints.push(w);
            }
            Some(None) => out.push(format!(
                "waypoints[{i}]: dropped: its triangle {} was dropped",
                w.triangle
            )),
            None => waypoints.push(w),
        }
    }
    m.waypoints = waypoints;
    let mut removed = 0usize;
    for cell in &mut m.grid.cells {
        cell.retain_mut(|t| match renumber(i64::from(*t)) {
            Some(Some(new)) => {
                *t = new;
                true
            }
            Some(None) => {
                removed += 1;
                false
            }
            None => true,
        });
    }
    if removed > 0 {
        out.push(format!(
            "grid cells: removed {} of dropped triangles, renumbered the rest",
            if removed == 1 {
                "1 entry".to_string()
            } else {
                format!("{removed} entries")
            }
        ));
    }
    origin
}

/// Step 2: door and cover triangles that name no triangle, cover entries that name a missing
/// vertex (and the mappings to them).
fn drop_dangling(m: &mut NavmeshGeometry, out: &mut Vec<String>) {
    let nt = m.triangles.len();
    let names_triangle = |t: i16| usize::try_from(t).is_ok_and(|t| t < nt);
    let mut i = 0usize;
    m.door_triangles.retain(|d| {
        let keep = names_triangle(d.triangle);
        if !keep {
            out.push(format!(
                "door_triangles[{i}]: dropped: triangle {} is not one of the {nt} triangles",
                d.triangle
            ));
        }
        i += 1;
        keep
    });
    let mut i = 0usize;
    m.cover_triangles.retain(|&t| {
        let keep = names_triangle(t);
        if !keep {
            out.push(format!(
                "cover_triangles[{i}]: dropped: triangle {t} is not one of the {nt} triangles"
            ));
        }
        i += 1;
        keep
    });
    let nv = m.vertices.len();
    let bad: BTreeSet<usize> = m
        .cover_array
        .iter()
        .enumerate()
        .filter(|(_, c)| c.vertices.iter().any(|v| usize::from(*v) >= nv))
        .map(|(i, _)| i)
        .collect();
    if bad.is_empty() {
        return;
    }
    let old = m.cover_array.len();
    let mut map = Vec::with_capacity(old);
    let mut kept = Vec::with_capacity(old);
    for (i, c) in core::mem::take(&mut m.cover_array).into_iter().enumerate() {
        if bad.contains(&i) {
            out.push(format!(
                "cover_array[{i}]: dropped the cover entry: it names vertices {:?}, and there are \
                 {nv}",
                c.vertices
            ));
            map.push(None);
        } else {
            map.push(u16::try_from(kept.len()).ok());
            kept.push(c);
        }
    }
    m.cover_array = kept;
    let mut mappings = Vec::with_capacity(m.cover_mappings.len());
    for (i, mut c) in core::mem::take(&mut m.cover_mappings)
        .into_iter()
        .enumerate()
    {
        match map.get(usize::from(c.cover)) {
            Some(Some(new)) => {
                c.cover = *new;
                mappings.push(c);
            }
            Some(None) => out.push(format!(
                "cover_mappings[{i}]: dropped: its cover entry {} was dropped",
                c.cover
            )),
            // Past the array before the fix too: a warning validate gives, left as it is.
            None => mappings.push(c),
        }
    }
    m.cover_mappings = mappings;
}

/// Whether edge `k` of triangle `tri` names nothing or cannot be read.
fn broken_edge(m: &NavmeshGeometry, tri: &super::Triangle, k: usize) -> bool {
    match tri.edge(k) {
        Edge::None => false,
        Edge::Triangle(n) => usize::from(n) >= m.triangles.len(),
        Edge::EdgeLink(l) => usize::from(l) >= m.edge_links.len(),
        Edge::Invalid(_) => true,
    }
}

/// Step 3: the neighbours, with the builder's rule, when an edge is broken. `origin` gives each
/// triangle's index before the fix, for the change lines.
fn relink(m: &mut NavmeshGeometry, origin: &[usize], out: &mut Vec<String>) {
    let broken: Vec<(usize, usize)> = m
        .triangles
        .iter()
        .enumerate()
        .flat_map(|(i, t)| (0..3).map(move |k| (i, k, t)))
        .filter(|(_, k, t)| broken_edge(m, t, *k))
        .map(|(i, k, _)| (i, k))
        .collect();
    if broken.is_empty() {
        return;
    }
    let before: Vec<[Edge; 3]> = m
        .triangles
        .iter()
        .map(|t| [t.edge(0), t.edge(1), t.edge(2)])
        .collect();
    let links = [
        triangle_flags::EDGE_LINK_0_1,
        triangle_flags::EDGE_LINK_1_2,
        triangle_flags::EDGE_LINK_2_0,
    ];
    for (i, k) in broken {
        if let (Some(t), Some(bit)) = (m.triangles.get_mut(i), links.get(k)) {
            t.flags &= !bit;
        }
    }
    link_triangles(&mut m.triangles);
    for (i, (t, was)) in m.triangles.iter().zip(&before).enumerate() {
        let i = origin.get(i).copied().unwrap_or(i);
        for (k, old) in was.iter().enumerate() {
            let new = t.edge(k);
            if new != *old {
                out.push(format!(
                    "triangles[{i}] edges[{k}]: {old} recomputed to {new}"
                ));
            }
        }
    }
}

/// Step 4: the grid, with the builder's layout, when it has a wrong cell count or a bad entry.
fn regrid(m: &mut NavmeshGeometry, out: &mut Vec<String>) {
    let g = &m.grid;
    let nt = m.triangles.len();
    let cells_ok =
        u64::try_from(g.cells.len()).ok() == u64::from(g.divisor).checked_mul(u64::from(g.divisor));
    let entries_ok = g
        .cells
        .iter()
        .flatten()
        .all(|t| usize::try_from(*t).is_ok_and(|t| t < nt));
    if cells_ok && entries_ok {
        return;
    }
    let divisor = u8::try_from(g.divisor)
        .ok()
        .filter(|d| (1..=12).contains(d))
        .unwrap_or_else(|| divisor_for(nt));
    let entries = |g: &super::Grid| g.cells.iter().map(Vec::len).sum::<usize>();
    let (old_divisor, old_entries) = (g.divisor, entries(g));
    let before = m.grid.clone();
    lay_out_grid(m, divisor);
    if m.grid == before {
        return;
    }
    out.push(format!(
        "grid: recomputed from the vertices and triangles: divisor {divisor}, {} entries (were \
         divisor {old_divisor}, {old_entries} entries){}",
        entries(&m.grid),
        if m.grid.min != before.min || m.grid.max != before.max {
            "; bounds recomputed"
        } else {
            ""
        }
    ));
}

#[cfg(test)]
mod tests;
