//! Semantic checks of a model: ids that name nothing, duplicate ids, indices past a list.
//!
//! None of these stop a file from parsing or round-tripping; they tell the user where the mesh
//! would confuse the game.

use std::collections::{HashMap, HashSet};

use nav_core::{Finding, Place};

use crate::model::{AreaCustom, EncounterPath, SourceMesh};

/// The place of area `i`, the cell of findings about it.
fn area_at(i: usize) -> Place {
    Place::at("areas", i).cell()
}

/// Every finding for the mesh, in file order.
pub fn validate(mesh: &SourceMesh) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut area_ids: HashMap<u32, usize> = HashMap::with_capacity(mesh.areas.len());
    for (i, area) in mesh.areas.iter().enumerate() {
        if area.id == 0 {
            out.push(Finding::warning(
                area_at(i),
                "area id 0 is the engine's \"no area\" value",
            ));
        }
        if let Some(first) = area_ids.insert(area.id, i) {
            // Keep the first index for later lookups.
            area_ids.insert(area.id, first);
            out.push(Finding::error(
                area_at(i),
                format!("area id {} is also used by areas[{first}]", area.id),
            ));
        }
    }
    let ladder_ids: HashSet<u32> = mesh.ladders.iter().map(|l| l.id).collect();
    let spot_ids: HashSet<u32> = mesh
        .areas
        .iter()
        .flat_map(|a| a.hiding_spots.iter().map(|s| s.id))
        .collect();
    let has_area = |id: u32| area_ids.contains_key(&id);
    let dirs = ["north", "east", "south", "west"];
    for (i, area) in mesh.areas.iter().enumerate() {
        for (d, list) in area.connections.iter().enumerate() {
            for (k, id) in list.iter().enumerate() {
                if !has_area(*id) {
                    out.push(Finding::error(
                        area_at(i).index("connections", d).nth(k),
                        format!(
                            "{} connection names area {id}, which does not exist",
                            dirs[d]
                        ),
                    ));
                } else if *id == area.id {
                    out.push(Finding::info(
                        area_at(i).index("connections", d).nth(k),
                        "the area connects to itself (the engine drops this on load)",
                    ));
                }
            }
        }
        for (k, v) in area.visible_areas.iter().enumerate() {
            if !has_area(v.area_id) {
                out.push(Finding::error(
                    area_at(i).index("visible_areas", k),
                    format!("visible area {} does not exist", { v.area_id }),
                ));
            }
        }
        if area.inherit_visibility_from != 0 && !has_area(area.inherit_visibility_from) {
            out.push(Finding::error(
                area_at(i).field("inherit_visibility_from"),
                format!("area {} does not exist", area.inherit_visibility_from),
            ));
        }
        if usize::from(area.place) > mesh.places.len() {
            out.push(Finding::error(
                area_at(i).field("place"),
                format!(
                    "place {} is past the {} entries of the place directory",
                    area.place,
                    mesh.places.len()
                ),
            ));
        }
        if let AreaCustom::Terror {
            visible_areas,
            inherit_visibility_from,
            ..
        } = &area.custom
        {
            let by_index = mesh.layout().terror_visibility_by_index();
            for (k, v) in visible_areas.iter().enumerate() {
                if by_index && v.area_index as usize >= mesh.areas.len() {
                    out.push(Finding::error(
                        area_at(i).index("visible_areas", k),
                        format!(
                            "visible area index {} is past the {} areas",
                            { v.area_index },
                            mesh.areas.len()
                        ),
                    ));
                } else if !by_index && !has_area(v.area_index) {
                    out.push(Finding::error(
                        area_at(i).index("visible_areas", k),
                        format!(
                            "visible area {} does not exist (sub-version {} names visible areas by id)",
                            {v.area_index}, mesh.sub_version
                        ),
                    ));
                }
            }
            if *inherit_visibility_from != 0 && !has_area(*inherit_visibility_from) {
                out.push(Finding::error(
                    area_at(i).field("inherit_visibility_from"),
                    format!("area {inherit_visibility_from} does not exist"),
                ));
            }
        }
        if let (AreaCustom::Terror { fog_place, .. }, Some(t)) = (&area.custom, &mesh.terror) {
            if usize::from(*fog_place) > t.fog_places.len() {
                out.push(Finding::warning(
                    area_at(i).field("fog_place"),
                    format!(
                        "fog place {fog_place} is past the {} fog places",
                        t.fog_places.len()
                    ),
                ));
            }
        }
        for (d, list) in area.ladders.iter().enumerate() {
            for (k, id) in list.iter().enumerate() {
                if !ladder_ids.contains(id) {
                    out.push(Finding::error(
                        area_at(i).index("ladders", d).nth(k),
                        format!("ladder {id} does not exist"),
                    ));
                }
            }
        }
        for (j, path) in area.encounter_paths.iter().enumerate() {
            let (from, to) = match path {
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
            };
            for (name, id) in [("from_area_id", from), ("to_area_id", to)] {
                if id != 0 && !has_area(id) {
                    out.push(Finding::error(
                        area_at(i).index("encounter_paths", j).field(name),
                        format!("area {id} does not exist"),
                    ));
                }
            }
            if let EncounterPath::Spots { spots, .. } = path {
                for (k, s) in spots.iter().enumerate() {
                    if !spot_ids.contains(&{ s.hiding_spot_id }) {
                        out.push(Finding::error(
                            area_at(i).index("encounter_paths", j).index("spots", k),
                            format!("hiding spot {} does not exist", { s.hiding_spot_id }),
                        ));
                    }
                }
            }
        }
        let custom_approach = match &area.custom {
            AreaCustom::CounterStrike { approach_areas } => approach_areas.as_slice(),
            _ => &[],
        };
        for (k, a) in area
            .approach_areas
            .iter()
            .chain(custom_approach)
            .enumerate()
        {
            for (name, id) in [
                ("here_area_id", a.here_area_id),
                ("prev_area_id", a.prev_area_id),
                ("next_area_id", a.next_area_id),
            ] {
                if id != 0 && !has_area(id) {
                    out.push(Finding::error(
                        area_at(i).index("approach_areas", k).field(name),
                        format!("area {id} does not exist"),
                    ));
                }
            }
        }
    }
    let mut seen_ladders: HashMap<u32, usize> = HashMap::new();
    for (i, ladder) in mesh.ladders.iter().enumerate() {
        if let Some(first) = seen_ladders.insert(ladder.id, i) {
            seen_ladders.insert(ladder.id, first);
            out.push(Finding::error(
                ("ladders", i),
                format!("ladder id {} is also used by ladders[{first}]", ladder.id),
            ));
        }
        for (name, id) in ladder.area_ids() {
            if id != 0 && !has_area(id) {
                out.push(Finding::error(
                    Place::at("ladders", i).field(name),
                    format!("area {id} does not exist"),
                ));
            }
        }
    }
    out
}
