//! Making a hand-edited mesh consistent again (`navkit fix`).
//!
//! [`fix`] mends exactly the reference errors that [`validate`](crate::validate()) reports: ids
//! that name an area, ladder or hiding spot the mesh no longer has, and place indices past the
//! place directory. Lists lose the entries that dangle; single fields that dangle are set to 0,
//! the format's "none". Nothing else is touched, so a mesh `validate` finds no error in comes
//! back unchanged.
//!
//! The model keeps no counts (each count sits right before its list and the writer takes it from
//! the list), so dropping entries needs no further bookkeeping: the written file reads back to
//! the fixed model.

use std::collections::HashSet;

use crate::model::{ApproachArea, Area, AreaCustom, EncounterPath, SourceMesh};

const DIRECTIONS: [&str; 4] = ["north", "east", "south", "west"];
const LADDER_DIRECTIONS: [&str; 2] = ["up", "down"];

/// What exists in the mesh, taken before anything changes (fix removes no area, ladder or
/// hiding spot, so these stay true while it works).
struct Known {
    areas: HashSet<u32>,
    ladders: HashSet<u32>,
    spots: HashSet<u32>,
    area_count: usize,
    place_count: usize,
    /// Left 4 Dead visible-area lists name area indices (sub-version 14 and up), not ids.
    terror_by_index: bool,
    sub_version: u32,
}

impl Known {
    fn of(mesh: &SourceMesh) -> Self {
        Known {
            areas: mesh.areas.iter().map(|a| a.id).collect(),
            ladders: mesh.ladders.iter().map(|l| l.id).collect(),
            spots: mesh
                .areas
                .iter()
                .flat_map(|a| a.hiding_spots.iter().map(|s| s.id))
                .collect(),
            area_count: mesh.areas.len(),
            place_count: mesh.places.len(),
            terror_by_index: mesh.layout().terror_visibility_by_index(),
            sub_version: mesh.sub_version,
        }
    }

    fn has_area(&self, id: u32) -> bool {
        self.areas.contains(&id)
    }

    /// An optional area id (0 for none) that names an area the mesh does not have.
    fn dangles(&self, id: u32) -> bool {
        id != 0 && !self.has_area(id)
    }
}

/// Drops the references of `mesh` that name records it does not have, and returns one line per
/// change, naming areas and ladders by id (`areas[id 61].connections[north]: dropped area 60,
/// which does not exist`).
///
/// - Connections, base visible areas and area ladder lists lose the ids that name no area or
///   ladder.
/// - Encounter paths whose from or to area does not exist are dropped with their spots; the
///   spots of the other paths that name a hiding spot no area has are dropped.
/// - Approach-area entries (the base list and the CS one) naming an area that does not exist
///   are dropped.
/// - Left 4 Dead visible areas are checked the way `validate` checks them: by index from
///   sub-version 14 (an index past the area list is dropped), by id below. An index that still
///   lies inside the list is kept: after an area is deleted from the middle of the list, the
///   indices after it name the next area, which no check can tell.
/// - `inherit_visibility_from` and the ladders' area fields that name no area, and place
///   indices past the place directory, are set to 0 (none).
///
/// Duplicate ids, area id 0 and fog places past the fog place list are left as they are: fix
/// cannot tell which record is meant, and the last two are warnings, not errors. A mesh in which
/// `validate` finds none of the errors above is left exactly as it is and the list is empty.
pub fn fix(mesh: &mut SourceMesh) -> Vec<String> {
    let known = Known::of(mesh);
    let mut changes = Vec::new();
    for area in &mut mesh.areas {
        fix_area(area, &known, &mut changes);
    }
    for ladder in &mut mesh.ladders {
        let label = format!("ladders[id {}]", ladder.id);
        for (name, field) in [
            ("top_forward_area_id", &mut ladder.top_forward_area_id),
            ("top_left_area_id", &mut ladder.top_left_area_id),
            ("top_right_area_id", &mut ladder.top_right_area_id),
            ("top_behind_area_id", &mut ladder.top_behind_area_id),
            ("bottom_area_id", &mut ladder.bottom_area_id),
        ] {
            if known.dangles(*field) {
                changes.push(format!(
                    "{label}.{name}: area {field} does not exist; set to 0 (none)"
                ));
                *field = 0;
            }
        }
    }
    changes
}

/// Splits `list` into what `keep` accepts (left in place, in order) and what it refuses
/// (returned, in order). `list` is a `Vec` or a [`ShortVec`](nav_core::ShortVec).
fn take_refused<T, L>(list: &mut L, keep: impl Fn(&T) -> bool) -> Vec<T>
where
    L: AsRef<[T]> + Default + Extend<T> + IntoIterator<Item = T>,
{
    if list.as_ref().iter().all(&keep) {
        return Vec::new();
    }
    let (mut kept, mut refused) = (L::default(), Vec::new());
    for x in std::mem::take(list) {
        if keep(&x) {
            kept.extend([x]);
        } else {
            refused.push(x);
        }
    }
    *list = kept;
    refused
}

fn fix_area(area: &mut Area, known: &Known, changes: &mut Vec<String>) {
    let label = format!("areas[id {}]", area.id);
    for (list, dir) in area.connections.iter_mut().zip(DIRECTIONS) {
        for id in take_refused(list, |id| known.has_area(*id)) {
            changes.push(format!(
                "{label}.connections[{dir}]: dropped area {id}, which does not exist"
            ));
        }
    }
    for v in take_refused(&mut area.visible_areas, |v| known.has_area(v.area_id)) {
        changes.push(format!(
            "{label}.visible_areas: dropped area {}, which does not exist",
            { v.area_id }
        ));
    }
    clear_dangling_inherit(&mut area.inherit_visibility_from, &label, known, changes);
    if usize::from(area.place) > known.place_count {
        changes.push(format!(
            "{label}.place: place {} is past the {} entries of the place directory; set to 0 (no place)",
            area.place, known.place_count
        ));
        area.place = 0;
    }
    for (list, dir) in area.ladders.iter_mut().zip(LADDER_DIRECTIONS) {
        for id in take_refused(list, |id| known.ladders.contains(id)) {
            changes.push(format!(
                "{label}.ladders[{dir}]: dropped ladder {id}, which does not exist"
            ));
        }
    }
    fix_encounter_paths(area, &label, known, changes);
    fix_approach_areas(&mut area.approach_areas, &label, known, changes);
    match &mut area.custom {
        AreaCustom::CounterStrike { approach_areas } => {
            fix_approach_areas(approach_areas, &label, known, changes);
        }
        AreaCustom::Terror {
            visible_areas,
            inherit_visibility_from,
            ..
        } => {
            if known.terror_by_index {
                let count = known.area_count;
                for v in take_refused(visible_areas, |v| (v.area_index as usize) < count) {
                    changes.push(format!(
                        "{label}.visible_areas: dropped area index {}, past the {count} areas",
                        { v.area_index }
                    ));
                }
            } else {
                for v in take_refused(visible_areas, |v| known.has_area(v.area_index)) {
                    changes.push(format!(
                        "{label}.visible_areas: dropped area {}, which does not exist (sub-version {} names visible areas by id)",
                        {v.area_index}, known.sub_version
                    ));
                }
            }
            clear_dangling_inherit(inherit_visibility_from, &label, known, changes);
        }
        AreaCustom::None | AreaCustom::TeamFortress2 { .. } => {}
    }
}

fn clear_dangling_inherit(field: &mut u32, label: &str, known: &Known, changes: &mut Vec<String>) {
    if known.dangles(*field) {
        changes.push(format!(
            "{label}.inherit_visibility_from: area {field} does not exist; set to 0 (none)"
        ));
        *field = 0;
    }
}

fn path_ends(path: &EncounterPath) -> (u32, u32) {
    match path {
        EncounterPath::Positions {
            from_area_id,
            to_area_id,
            ..
        }
        | EncounterPath::Spots {
            from_area_id,
            to_area_id,
            ..
        } => (*from_area_id, *to_area_id),
    }
}

fn fix_encounter_paths(area: &mut Area, label: &str, known: &Known, changes: &mut Vec<String>) {
    let dropped = take_refused(&mut area.encounter_paths, |p| {
        let (from, to) = path_ends(p);
        !known.dangles(from) && !known.dangles(to)
    });
    for path in dropped {
        let (from, to) = path_ends(&path);
        let spots = match &path {
            EncounterPath::Positions { spots, .. } => spots.len(),
            EncounterPath::Spots { spots, .. } => spots.len(),
        };
        changes.push(format!(
            "{label}.encounter_paths: dropped the path from area {from} to area {to} with its {spots} spot{}: {}",
            if spots == 1 { "" } else { "s" },
            missing_areas(&[from, to], known)
        ));
    }
    for path in &mut area.encounter_paths {
        let (from, to) = path_ends(path);
        if let EncounterPath::Spots { spots, .. } = path {
            for s in take_refused(spots, |s| known.spots.contains(&{ s.hiding_spot_id })) {
                changes.push(format!(
                    "{label}.encounter_paths[from {from} to {to}].spots: dropped hiding spot {}, which does not exist",
                    {s.hiding_spot_id}
                ));
            }
        }
    }
}

fn fix_approach_areas(
    list: &mut Vec<ApproachArea>,
    label: &str,
    known: &Known,
    changes: &mut Vec<String>,
) {
    let ids = |a: &ApproachArea| [a.here_area_id, a.prev_area_id, a.next_area_id];
    for a in take_refused(list, |a| !ids(a).into_iter().any(|id| known.dangles(id))) {
        changes.push(format!(
            "{label}.approach_areas: dropped the entry here {} (prev {}, next {}): {}",
            a.here_area_id,
            a.prev_area_id,
            a.next_area_id,
            missing_areas(&ids(&a), known)
        ));
    }
}

/// "area 60 does not exist" or "areas 60 and 61 do not exist", for the ids of `ids` that
/// dangle, each once.
fn missing_areas(ids: &[u32], known: &Known) -> String {
    let mut missing: Vec<u32> = ids
        .iter()
        .copied()
        .filter(|id| known.dangles(*id))
        .collect();
    missing.sort_unstable();
    missing.dedup();
    match missing.as_slice() {
        [one] => format!("area {one} does not exist"),
        many => {
            let text: Vec<String> = many.iter().map(u32::to_string).collect();
            format!("areas {} do not exist", text.join(" and "))
        }
    }
}
