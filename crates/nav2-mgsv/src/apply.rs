//! Geometry edited in a 3D tool put back onto a `.nav2` file ([`apply`], behind
//! [`nav_core::Format::apply`] and `navkit apply`).
//!
//! The geometry ([`crate::geometry::geometry`]) has the file's positions as its vertices, 1:1,
//! and names each mesh by data chunk and index, so the edit maps straight onto the model:
//!
//! - A **moved vertex** moves that stored position: each coordinate is quantised as the file
//!   stores it (`(x − origin) × denominator`, rounded to a `u16`), and a coordinate that rounds
//!   to the value it had keeps it. What the file derives from the positions is then brought up
//!   to date for the segments whose positions moved, and only there (the `derived` module):
//!   their bounds, the NavigationGraph nodes on a mesh edge with a moved corner, and the weights
//!   of those nodes' edges; then the SegmentGraph nodes and IslandGraph nodes standing on a
//!   moved node, the weights of those segments' SegmentGraph links (the `segment_graph`
//!   module), and the SearchSpace buckets a segment whose bounds changed enters or leaves (the
//!   `search` module). A coordinate the tile cannot hold is refused.
//! - An **attribute change** sets the segment's entry of the NavigationGraph's `attributes`
//!   (one value per segment, so every mesh of the segment has to get the same value; refused
//!   otherwise, and past `u16`).
//! - An **added face** (3 or 4 corners) becomes a new mesh in the segment that holds most of
//!   its corners (where it has none, the segment whose bounds are nearest), turned
//!   counter-clockwise seen from above as the game winds its meshes. Its corners use that
//!   segment's positions where they are one; elsewhere (a corner of another segment, a new
//!   vertex) the segment gets a position of its own at the end of its list, as the game copies
//!   shared corners into each segment. Its neighbours and NavigationGraph nodes are then made by
//!   [`crate::fix()`]'s recomputation of the data chunk's NavigationGraph, which carries over
//!   the links to other data chunks and tiles.
//! - A **deleted polygon** drops its mesh; [`crate::fix()`] renumbers every reference to the
//!   chunk's meshes (other chunks' crossing neighbours included) and recomputes the chunk's
//!   NavigationGraph, SegmentGraph, and where they change the IslandGraphs and SearchSpace.
//!   The positions it used stay in the file.
//!
//! An edit after which the file has errors it did not have before is refused rather than
//! applied.

use std::collections::{BTreeMap, BTreeSet};

use nav_core::edit::{AddedFace, AttributeChange, Corner, MeshEdit, show_point};
use nav_core::geometry::{Geometry, VertexIdentity};
use nav_core::{Error, Result, Severity};

use crate::FORMAT;
use crate::fix::fix_edited;
use crate::geometry::{ATTRIBUTES, segment_bases};
use crate::model::{MAX_SIDES, Mesh, Nav2File, NeighborNavmeshInfo, Position, Sides};

mod derived;
mod search;
mod segment_graph;
mod show;

fn refuse(message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, "apply", message)
}

/// Where a geometry vertex is in the file: data chunk, segment and segment-local index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Place {
    chunk: usize,
    segment: usize,
    local: usize,
}

/// Puts `edit` (matched against `original`, the [`crate::geometry::geometry`] of `file`) onto
/// `file` and returns one line per change (see the module docs), followed by the lines of
/// [`crate::fix()`]. On an error `file` may be partly edited: callers go through
/// [`nav_core::edit::apply_mesh`], which edits a copy.
pub fn apply(file: &mut Nav2File, original: &Geometry, edit: &MeshEdit) -> Result<Vec<String>> {
    let places = places(file, original)?;
    let errors_before = errors(file);
    let mut lines = Vec::new();
    let mut old = BTreeMap::new();
    for &(v, to) in &edit.moved {
        let place = place_of(&places, v)?;
        if let Some((i, was)) = move_position(file, place, to, &mut lines)? {
            old.entry((place.chunk, i)).or_insert(was);
        }
    }
    derived::refresh(file, &old, &mut lines);
    let deleted = deleted_meshes(file, original, edit)?;
    set_attributes(file, original, &edit.attributes, &deleted, &mut lines)?;
    let mut changed = BTreeSet::new();
    for face in &edit.added {
        changed.insert(add_mesh(file, &places, edit, face, &mut lines)?);
    }
    let deleted: Vec<(usize, usize)> = deleted.into_iter().collect();
    let changed: Vec<usize> = changed.into_iter().collect();
    lines.extend(fix_edited(file, &deleted, &changed));
    let errors_after = errors(file);
    if errors_after.len() > errors_before.len() {
        let first = errors_after
            .iter()
            .find(|e| !errors_before.contains(e))
            .or(errors_after.first())
            .map_or(String::new(), |e| format!(": {e}"));
        return Err(refuse(format_args!(
            "the edited file would have {} errors (it had {}){first}; the edit was not applied",
            errors_after.len(),
            errors_before.len()
        )));
    }
    Ok(lines)
}

/// The errors [`crate::validate()`] finds, as text.
fn errors(file: &Nav2File) -> Vec<String> {
    crate::validate(file)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.to_string())
        .collect()
}

/// Where each vertex of `original` is in `file`; refuses a geometry that is not this file's.
fn places(file: &Nav2File, original: &Geometry) -> Result<Vec<Place>> {
    let mut places = Vec::with_capacity(original.vertices.len());
    for (chunk, dc) in file.data_chunks.iter().enumerate() {
        for (segment, (s, b)) in dc
            .segment_chunk
            .segments
            .iter()
            .zip(segment_bases(dc))
            .enumerate()
        {
            let count = usize::from(s.navmesh_position_count);
            // Positions past the segments' counts belong to no segment: leave them out (the
            // counts of every file navkit reads add up, which validate checks).
            let own = dc.navmesh_chunk.positions.len().saturating_sub(b[0]);
            places.extend((0..count.min(own)).map(|local| Place {
                chunk,
                segment,
                local,
            }));
        }
        let counted: usize = dc
            .segment_chunk
            .segments
            .iter()
            .map(|s| usize::from(s.navmesh_position_count))
            .sum();
        if counted != dc.navmesh_chunk.positions.len() {
            return Err(refuse(format_args!(
                "data_chunks[{chunk}]: the segments count {counted} positions but the chunk \
                 holds {}; run `navkit fix` or mend the counts in the JSON first",
                dc.navmesh_chunk.positions.len()
            )));
        }
    }
    if original.vertex_identity != VertexIdentity::Shared || places.len() != original.vertices.len()
    {
        return Err(refuse(
            "the geometry the edit was matched against is not this file's",
        ));
    }
    Ok(places)
}

fn place_of(places: &[Place], v: u32) -> Result<Place> {
    places
        .get(v as usize)
        .copied()
        .ok_or_else(|| refuse(format_args!("vertex {v} is not a position of the file")))
}

/// The index into the chunk's positions of `place`, in the file as it is now.
fn position_index(file: &Nav2File, place: Place) -> Option<usize> {
    let dc = file.data_chunks.get(place.chunk)?;
    let base = segment_bases(dc).get(place.segment)?[0];
    let i = base + place.local;
    (i < dc.navmesh_chunk.positions.len()).then_some(i)
}

/// `to`, quantised as the file stores positions; a coordinate that rounds to `keep`'s keeps
/// it. `what` names the point for the refusal of a coordinate the tile cannot hold.
fn quantise(file: &Nav2File, to: [f32; 3], what: &dyn Fn() -> String) -> Result<Position> {
    let mut out = [0u16; 3];
    for (a, o) in out.iter_mut().enumerate() {
        let den = f64::from(file.denominator[a]);
        let origin = f64::from(file.origin[a].get());
        let s = ((f64::from(to[a]) - origin) * den).round();
        if den == 0.0 || !s.is_finite() || !(0.0..=65535.0).contains(&s) {
            let (lo, hi) = (origin, origin + 65535.0 / den);
            return Err(refuse(format_args!(
                "{} at {}: a .nav2 position is a u16 step of 1/{} from the tile's origin, so \
                 coordinate {a} must lie in {lo}..={hi}; keep the edit inside the tile",
                what(),
                show_point(to),
                file.denominator[a]
            )));
        }
        // In 0..=65535 and whole (checked above), so the cast is exact.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        {
            *o = s as u16;
        }
    }
    Ok(out)
}

/// Moves the position at `place` to `to` (quantised). Returns the index into the chunk's
/// positions and the stored value before, when it changed.
fn move_position(
    file: &mut Nav2File,
    place: Place,
    to: [f32; 3],
    lines: &mut Vec<String>,
) -> Result<Option<(usize, Position)>> {
    let c = place.chunk;
    let i = position_index(file, place)
        .ok_or_else(|| refuse(format_args!("data_chunks[{c}]: a position is missing")))?;
    let new = quantise(file, to, &|| {
        format!("data_chunks[{c}] Positions[{i}] moved")
    })?;
    let decoded = file.decode_position(new);
    let slot = file
        .data_chunks
        .get_mut(c)
        .and_then(|d| d.navmesh_chunk.positions.get_mut(i))
        .ok_or_else(|| refuse(format_args!("data_chunks[{c}]: a position is missing")))?;
    if *slot == new {
        lines.push(format!(
            "data_chunks[{c}] NavmeshChunk Positions[{i}]: kept: the move to {} is smaller than \
             the stored step",
            show_point(to)
        ));
        Ok(None)
    } else {
        let was = core::mem::replace(slot, new);
        lines.push(format!(
            "data_chunks[{c}] NavmeshChunk Positions[{i}]: moved to {} (stored {new:?})",
            show_point(decoded)
        ));
        Ok(Some((i, was)))
    }
}

/// The (data chunk, mesh) of polygon `p` of the original geometry.
fn mesh_of(file: &Nav2File, original: &Geometry, p: u32) -> Result<(usize, usize)> {
    original
        .polygons
        .get(p as usize)
        .and_then(|q| q.record)
        .map(|r| (r.part as usize, r.index as usize))
        .filter(|(c, k)| {
            file.data_chunks
                .get(*c)
                .is_some_and(|d| *k < d.navmesh_chunk.meshes.len())
        })
        .ok_or_else(|| refuse(format_args!("polygon {p} names no mesh of the file")))
}

fn deleted_meshes(
    file: &Nav2File,
    original: &Geometry,
    edit: &MeshEdit,
) -> Result<BTreeSet<(usize, usize)>> {
    edit.deleted
        .iter()
        .map(|p| mesh_of(file, original, *p))
        .collect()
}

/// The segment of mesh `k` of chunk `c`.
fn segment_of(file: &Nav2File, (c, k): (usize, usize)) -> Option<usize> {
    let m = file.data_chunks.get(c)?.navmesh_chunk.meshes.get(k)?;
    Some(usize::from(m.segment_index))
}

/// Sets each segment's attribute that the edit changed for every one of its meshes (but those
/// deleted); refuses a change to some of a segment's meshes only.
fn set_attributes(
    file: &mut Nav2File,
    original: &Geometry,
    changes: &[AttributeChange],
    deleted: &BTreeSet<(usize, usize)>,
    lines: &mut Vec<String>,
) -> Result<()> {
    // (chunk, segment) → (value, meshes changed).
    let mut wanted: Vec<((usize, usize), u16, BTreeSet<usize>)> = Vec::new();
    for change in changes {
        let name = original.attributes.get(change.attribute as usize);
        if name.map(String::as_str) != Some(ATTRIBUTES[0]) {
            return Err(refuse(format_args!(
                "attribute {} is not one a mesh has (a .nav2 mesh has {ATTRIBUTES:?})",
                change.attribute
            )));
        }
        let (c, k) = mesh_of(file, original, change.polygon)?;
        let value = u16::try_from(change.value).map_err(|_| {
            refuse(format_args!(
                "polygon {}: attribute {} does not fit the stored u16",
                change.polygon, change.value
            ))
        })?;
        let s = segment_of(file, (c, k))
            .ok_or_else(|| refuse(format_args!("data_chunks[{c}] Meshes[{k}] has no segment")))?;
        match wanted.iter_mut().find(|w| w.0 == (c, s)) {
            Some(w) if w.1 != value => {
                return Err(refuse(format_args!(
                    "data_chunks[{c}] segment {s}: its meshes are given attributes {} and \
                     {value}, but a segment has one attribute for all its meshes",
                    w.1
                )));
            }
            Some(w) => {
                w.2.insert(k);
            }
            None => wanted.push(((c, s), value, BTreeSet::from([k]))),
        }
    }
    for ((c, s), value, meshes) in wanted {
        let Some(dc) = file.data_chunks.get_mut(c) else {
            continue;
        };
        let all: Vec<usize> = (0..dc.navmesh_chunk.meshes.len())
            .filter(|k| {
                dc.navmesh_chunk.meshes.get(*k).map(|m| m.segment_index) == u16::try_from(s).ok()
                    && !deleted.contains(&(c, *k))
            })
            .collect();
        if let Some(missed) = all.iter().find(|k| !meshes.contains(k)) {
            return Err(refuse(format_args!(
                "data_chunks[{c}] segment {s}: the attribute is the segment's, one value for its \
                 {} meshes, but the edit sets it to {value} on {} of them (not on \
                 Meshes[{missed}]); give every face of the segment the same value",
                all.len(),
                meshes.len()
            )));
        }
        let slot = dc.navigation_graph.attributes.get_mut(s).ok_or_else(|| {
            refuse(format_args!(
                "data_chunks[{c}] segment {s} has no attribute"
            ))
        })?;
        let was = core::mem::replace(slot, value);
        lines.push(format!(
            "data_chunks[{c}] NavigationGraph attributes[{s}]: set to {value} (was {was}) for \
             its {} meshes",
            all.len()
        ));
    }
    Ok(())
}

/// A corner of an added face: where it already is in the file, and its stored position.
#[derive(Debug, Clone, Copy)]
struct NewCorner {
    place: Option<Place>,
    position: Position,
}

/// Adds `face` as a mesh at the end of its data chunk's list (fix puts it in segment order);
/// returns the data chunk.
fn add_mesh(
    file: &mut Nav2File,
    places: &[Place],
    edit: &MeshEdit,
    face: &AddedFace,
    lines: &mut Vec<String>,
) -> Result<usize> {
    let f = face.face;
    let n = face.corners.len();
    if !(3..=MAX_SIDES).contains(&n) {
        return Err(refuse(format_args!(
            "added face {f} has {n} corners; a .nav2 mesh has 3 or 4: triangulate it"
        )));
    }
    let mut corners = Vec::with_capacity(n);
    for (k, corner) in face.corners.iter().enumerate() {
        corners.push(match *corner {
            Corner::Vertex(v) => {
                let place = place_of(places, v)?;
                let i = position_index(file, place)
                    .ok_or_else(|| refuse(format_args!("vertex {v} is missing")))?;
                let position = file
                    .data_chunks
                    .get(place.chunk)
                    .and_then(|d| d.navmesh_chunk.positions.get(i))
                    .copied()
                    .ok_or_else(|| refuse(format_args!("vertex {v} is missing")))?;
                NewCorner {
                    place: Some(place),
                    position,
                }
            }
            Corner::New(w) => {
                let to = edit
                    .new_vertices
                    .get(w as usize)
                    .copied()
                    .ok_or_else(|| refuse(format_args!("new vertex {w} does not exist")))?;
                NewCorner {
                    place: None,
                    position: quantise(file, to, &|| format!("corner {k} of added face {f}"))?,
                }
            }
        });
    }
    let (c, s) = home(file, &corners)
        .ok_or_else(|| {
            refuse(format_args!(
                "added face {f}: the file has no segment to hold it"
            ))
        })?
        .map_err(|(a, b)| {
            refuse(format_args!(
                "added face {f} joins vertices of data_chunks[{a}] and data_chunks[{b}]; a mesh \
                 lies in one data chunk: add it over vertices of one of them"
            ))
        })?;
    if let Some(want) = face.attributes.first().copied().flatten() {
        let has = file
            .data_chunks
            .get(c)
            .and_then(|d| d.navigation_graph.attributes.get(s))
            .copied();
        if has.map(i64::from) != Some(want) {
            return Err(refuse(format_args!(
                "added face {f} has attribute {want}, but it goes into segment {s} of \
                 data_chunks[{c}], whose attribute is {has:?} (one per segment): add it with \
                 that attribute"
            )));
        }
    }
    // Counter-clockwise seen from above, as the game winds its meshes: in stored units (the
    // denominators are positive, so the turn is the world's), exactly.
    let plan: Vec<(f64, f64)> = corners
        .iter()
        .map(|k| (f64::from(k.position[0]), -f64::from(k.position[2])))
        .collect();
    if signed_area(&plan) < 0.0 {
        corners.reverse();
    }
    let mut locals = Vec::with_capacity(n);
    let mut added = 0usize;
    for k in &corners {
        let (local, new) = local_position(file, c, s, k).ok_or_else(|| {
            refuse(format_args!(
                "added face {f}: segment {s} of data_chunks[{c}] already holds 255 positions, \
                 the most a segment can; add the face elsewhere or split the segment"
            ))
        })?;
        added += usize::from(new);
        locals.push(local);
    }
    let distinct: BTreeSet<u8> = locals.iter().copied().collect();
    if distinct.len() != n {
        return Err(refuse(format_args!(
            "added face {f} has two corners at one stored position (a step is 1/{:?} of a unit)",
            file.denominator
        )));
    }
    let dc = file
        .data_chunks
        .get_mut(c)
        .ok_or_else(|| refuse(format_args!("data_chunks[{c}] is missing")))?;
    let segment = dc
        .segment_chunk
        .segments
        .get_mut(s)
        .ok_or_else(|| refuse(format_args!("data_chunks[{c}] segment {s} is missing")))?;
    segment.navmesh_count = segment.navmesh_count.checked_add(1).ok_or_else(|| {
        refuse(format_args!(
            "added face {f}: segment {s} of data_chunks[{c}] already holds 255 meshes, the most \
             a segment can"
        ))
    })?;
    dc.navmesh_chunk.meshes.push(Mesh {
        segment_index: u16::try_from(s).map_err(|_| refuse("segment index past u16"))?,
        neighbors: Sides::from_fn(n, |_| NeighborNavmeshInfo::NONE).map_err(refuse)?,
        positions: Sides::from_slice(&locals).map_err(refuse)?,
        navigation_graph_nodes: Sides::from_fn(n, |_| 0).map_err(refuse)?,
        crossing: None,
    });
    lines.push(format!(
        "data_chunks[{c}] NavmeshChunk: added a mesh in segment {s} for face {f} ({n} corners, \
         {added} new positions)"
    ));
    Ok(c)
}

/// Twice the signed area of a polygon in the plan (positive: counter-clockwise).
fn signed_area(p: &[(f64, f64)]) -> f64 {
    let n = p.len();
    (0..n)
        .filter_map(|i| {
            let (a, b) = (p.get(i)?, p.get((i + 1) % n)?);
            Some(a.0 * b.1 - b.0 * a.1)
        })
        .sum()
}

/// The data chunk and segment an added face goes into: the segment most of its file corners
/// are in (the first corner's on a tie), or where it has none, the segment whose bounds are
/// nearest its first corner. `None` when the file has no segment; `Err` with two chunks when
/// its corners are in different data chunks.
fn home(
    file: &Nav2File,
    corners: &[NewCorner],
) -> Option<core::result::Result<(usize, usize), (usize, usize)>> {
    let placed: Vec<Place> = corners.iter().filter_map(|k| k.place).collect();
    if let Some(first) = placed.first() {
        if let Some(other) = placed.iter().find(|p| p.chunk != first.chunk) {
            return Some(Err((first.chunk, other.chunk)));
        }
        let count = |s: usize| placed.iter().filter(|p| p.segment == s).count();
        let best = placed
            .iter()
            .map(|p| p.segment)
            .fold(
                first.segment,
                |b, s| if count(s) > count(b) { s } else { b },
            );
        return Some(Ok((first.chunk, best)));
    }
    let at = corners.first()?.position;
    let distance = |min: Position, max: Position| -> u64 {
        (0..3)
            .map(|a| {
                let below = u64::from(min[a].saturating_sub(at[a]));
                let above = u64::from(at[a].saturating_sub(max[a]));
                (below + above).pow(2)
            })
            .sum()
    };
    file.data_chunks
        .iter()
        .enumerate()
        .flat_map(|(c, dc)| {
            dc.segment_chunk
                .segments
                .iter()
                .enumerate()
                .map(move |(s, seg)| (distance(seg.min, seg.max), c, s))
        })
        .min()
        .map(|(_, c, s)| Ok((c, s)))
}

/// The segment-local index of `corner` in segment `s` of chunk `c`: its own where it is in that
/// segment, else a position of the segment with the same stored value, else a new position at
/// the end of the segment's list (`true`). `None` when the segment is full.
fn local_position(
    file: &mut Nav2File,
    c: usize,
    s: usize,
    corner: &NewCorner,
) -> Option<(u8, bool)> {
    if let Some(p) = corner.place.filter(|p| p.chunk == c && p.segment == s) {
        return Some((u8::try_from(p.local).ok()?, false));
    }
    let dc = file.data_chunks.get_mut(c)?;
    let base = segment_bases(dc).get(s)?[0];
    let seg = dc.segment_chunk.segments.get_mut(s)?;
    let count = usize::from(seg.navmesh_position_count);
    let own = dc.navmesh_chunk.positions.get(base..base + count)?;
    if let Some(i) = own.iter().position(|p| *p == corner.position) {
        return Some((u8::try_from(i).ok()?, false));
    }
    seg.navmesh_position_count = seg.navmesh_position_count.checked_add(1)?;
    dc.navmesh_chunk
        .positions
        .insert(base + count, corner.position);
    Some((u8::try_from(count).ok()?, true))
}
