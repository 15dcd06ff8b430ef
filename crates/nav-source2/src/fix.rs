//! Making a hand-edited mesh consistent again (`navkit fix`).
//!
//! [`fix`] mends the dangling references that [`validate`](crate::validate()) reports as errors:
//! connections to an area the mesh no longer has or to an edge that area does not have, area
//! ladder lists naming a ladder that does not exist, and ladder area fields naming an area that
//! does not exist. Nothing else is touched, so a mesh `validate` finds no error in comes back
//! unchanged.
//!
//! Left as they are, and still reported by `validate`:
//!
//! - The custom data's `arealist` (CS2's bot analysis). Its entries are parallel to the areas
//!   and carry no area id, so after an area is deleted no rule can tell which entry was its; and
//!   the blob is kept as the game's exact bytes (often compressed), which navkit does not
//!   re-encode. The mismatch is a warning: the map's bot analysis has to be redone in the game.
//! - Polygon corner indices past the corner pool and area polygon indices past the polygons:
//!   dropping a corner would change the polygon's edge count, which the areas' per-edge
//!   connection lists and other areas' edge numbers follow, and an area cannot do without its
//!   polygon. Neither comes from deleting an area.
//! - Duplicate area ids: fix cannot tell which area is meant.

use std::collections::{HashMap, HashSet};

use crate::model::{Connection, Source2Mesh};

/// Drops the dangling references of `mesh` and returns one line per change, naming areas and
/// ladders by id (`areas[id 61].connections[edge 2]: dropped area 60, which does not exist`).
///
/// - A connection to an area that does not exist is dropped; so is one to an edge past the
///   target area's corners (when that area's corners are known).
/// - `ladders_above` and `ladders_below` lose the ids that name no ladder.
/// - A ladder's area field that names no area is set to 0 (none).
///
/// Every edge keeps its connection list (possibly empty), so an area keeps one list per corner
/// as the writer requires. A mesh in which `validate` finds none of these errors is left exactly
/// as it is and the list is empty.
pub fn fix(mesh: &mut Source2Mesh) -> Vec<String> {
    // What exists, taken before anything changes: fix removes no area, ladder or corner.
    let mut first_index: HashMap<u32, usize> = HashMap::with_capacity(mesh.areas.len());
    for (i, a) in mesh.areas.iter().enumerate() {
        first_index.entry(a.id).or_insert(i);
    }
    // The edge count of each area id (its first area, as validate looks it up), where known.
    let edges: HashMap<u32, Option<usize>> = first_index
        .iter()
        .map(|(id, i)| (*id, edge_count(mesh, *i)))
        .collect();
    let ladder_ids: HashSet<u32> = mesh.ladders.iter().map(|l| l.id).collect();
    let mut changes = Vec::new();
    for area in &mut mesh.areas {
        let label = format!("areas[id {}]", area.id);
        for (e, list) in area.connections.iter_mut().enumerate() {
            if list.iter().all(|c| dangling(c, &edges).is_none()) {
                continue;
            }
            list.retain(|c| match dangling(c, &edges) {
                None => true,
                Some(why) => {
                    changes.push(format!("{label}.connections[edge {e}]: {why}"));
                    false
                }
            });
        }
        for (name, list) in [
            ("ladders_above", &mut area.ladders_above),
            ("ladders_below", &mut area.ladders_below),
        ] {
            list.retain(|id| {
                let keep = ladder_ids.contains(id);
                if !keep {
                    changes.push(format!(
                        "{label}.{name}: dropped ladder {id}, which does not exist"
                    ));
                }
                keep
            });
        }
    }
    for ladder in &mut mesh.ladders {
        let label = format!("ladders[id {}]", ladder.id);
        for (name, field) in [
            ("top_forward_area_id", &mut ladder.top_forward_area_id),
            ("top_left_area_id", &mut ladder.top_left_area_id),
            ("top_right_area_id", &mut ladder.top_right_area_id),
            ("top_behind_area_id", &mut ladder.top_behind_area_id),
            ("bottom_area_id", &mut ladder.bottom_area_id),
            ("bottom_left_area_id", &mut ladder.bottom_left_area_id),
            ("bottom_right_area_id", &mut ladder.bottom_right_area_id),
        ] {
            if *field != 0 && !first_index.contains_key(field) {
                changes.push(format!(
                    "{label}.{name}: area {field} does not exist; set to 0 (none)"
                ));
                *field = 0;
            }
        }
    }
    changes
}

/// The number of edges (corners) of area `i`, `None` when its polygon does not exist.
fn edge_count(mesh: &Source2Mesh, i: usize) -> Option<usize> {
    let area = mesh.areas.get(i)?;
    if mesh.version >= 31 {
        Some(mesh.polygons.get(area.polygon as usize)?.corners.len())
    } else {
        Some(area.corners.len())
    }
}

/// Why a connection dangles (the change line's text), or `None` when it is sound.
fn dangling(c: &Connection, edges: &HashMap<u32, Option<usize>>) -> Option<String> {
    match edges.get(&c.area_id) {
        None => Some(format!("dropped area {}, which does not exist", c.area_id)),
        Some(Some(n)) if c.edge as usize >= *n => Some(format!(
            "dropped the connection to edge {} of area {}, which has {n} edges",
            c.edge, c.area_id
        )),
        Some(_) => None,
    }
}
