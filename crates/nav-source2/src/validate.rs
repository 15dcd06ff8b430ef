//! Semantic checks of a model: ids that name nothing, indices past a list, and custom data that
//! no longer matches the areas.
//!
//! None of these stop a file from parsing or round-tripping; they tell the user where the mesh
//! would confuse the game (errors) or looks unlike the games' own files (warnings).

use std::collections::{HashMap, HashSet};

use nav_core::Finding;

use crate::geometry::usable_corners;
use crate::kv3::{Kv3Blob, Kv3Value};
use crate::model::Source2Mesh;

/// Every finding for the mesh, in file order.
pub fn validate(mesh: &Source2Mesh) -> Vec<Finding> {
    let mut out = Vec::new();
    let pool = mesh.version >= 31;
    for (i, p) in mesh.polygons.iter().enumerate() {
        if p.corners.len() < 3 {
            out.push(Finding::warning(
                format!("polygons[{i}]"),
                format!("a polygon of {} corners has no area", p.corners.len()),
            ));
        }
        for (k, c) in p.corners.iter().enumerate() {
            if *c as usize >= mesh.corners.len() {
                out.push(Finding::error(
                    format!("polygons[{i}] corners[{k}]"),
                    format!("corner {c} is past the {} corners", mesh.corners.len()),
                ));
            }
        }
    }
    if mesh.corner_gravity_flags & 1 != 0 && mesh.corner_gravity.len() != mesh.corners.len() {
        out.push(Finding::warning(
            "corner_gravity",
            format!(
                "{} gravity directions for {} corners",
                mesh.corner_gravity.len(),
                mesh.corners.len()
            ),
        ));
    }
    let mut index: HashMap<u32, usize> = HashMap::with_capacity(mesh.areas.len());
    for (i, a) in mesh.areas.iter().enumerate() {
        if let Some(first) = index.get(&a.id) {
            out.push(Finding::error(
                format!("areas[{i}]"),
                format!("area id {} is also used by areas[{first}]", a.id),
            ));
        } else {
            index.insert(a.id, i);
        }
    }
    let corner_count = |i: usize| -> Option<usize> {
        let a = mesh.areas.get(i)?;
        if pool {
            Some(mesh.polygons.get(a.polygon as usize)?.corners.len())
        } else {
            Some(a.corners.len())
        }
    };
    let ladder_ids: HashSet<u32> = mesh.ladders.iter().map(|l| l.id).collect();
    let hulls = mesh.generation_params.hulls.len();
    let mut corners = Vec::with_capacity(16);
    for (i, a) in mesh.areas.iter().enumerate() {
        corners.clear();
        if let Err(why) = usable_corners(mesh, i, &mut corners) {
            // The geometry and the navigation graph give it no position.
            out.push(Finding::warning(
                format!("areas[{i}]"),
                format!("area {} has no usable corners ({why})", a.id),
            ));
        }
        if pool && a.polygon as usize >= mesh.polygons.len() {
            out.push(Finding::error(
                format!("areas[{i}] polygon"),
                format!(
                    "polygon {} is past the {} polygons",
                    a.polygon,
                    mesh.polygons.len()
                ),
            ));
        }
        if usize::from(a.hull_index) >= hulls {
            out.push(Finding::warning(
                format!("areas[{i}] hull_index"),
                format!("hull {} is past the {hulls} hulls", a.hull_index),
            ));
        }
        for (e, list) in a.connections.iter().enumerate() {
            for (k, c) in list.iter().enumerate() {
                let at = format!("areas[{i}] connections[{e}][{k}]");
                match index.get(&c.area_id) {
                    None => out.push(Finding::error(
                        at,
                        format!("area {} does not exist", c.area_id),
                    )),
                    Some(&t) => {
                        if let Some(n) = corner_count(t) {
                            if c.edge as usize >= n {
                                out.push(Finding::error(
                                    at,
                                    format!(
                                        "edge {} is past the {n} edges of area {}",
                                        c.edge, c.area_id
                                    ),
                                ));
                            }
                        }
                    }
                }
            }
        }
        for (name, list) in [
            ("ladders_above", &a.ladders_above),
            ("ladders_below", &a.ladders_below),
        ] {
            for (k, id) in list.iter().enumerate() {
                if !ladder_ids.contains(id) {
                    out.push(Finding::error(
                        format!("areas[{i}] {name}[{k}]"),
                        format!("ladder {id} does not exist"),
                    ));
                }
            }
        }
    }
    for (i, l) in mesh.ladders.iter().enumerate() {
        for (name, id) in l.area_ids() {
            if id != 0 && !index.contains_key(&id) {
                out.push(Finding::error(
                    format!("ladders[{i}] {name}"),
                    format!("area {id} does not exist"),
                ));
            }
        }
    }
    for (name, blob) in [
        ("movable_mesh_settings", &mesh.movable_mesh_settings),
        ("game_data", &mesh.game_data),
        ("extra_generation_params", &mesh.extra_generation_params),
        ("custom_data", &mesh.custom_data),
    ] {
        if let Some(b) = blob {
            check_blob(&mut out, name, b, mesh);
        }
    }
    out
}

fn check_blob(out: &mut Vec<Finding>, name: &str, blob: &Kv3Blob, mesh: &Source2Mesh) {
    let doc = match blob.decode() {
        Ok(doc) => doc,
        Err(e) => {
            out.push(Finding::warning(
                name,
                format!("the KV3 blob does not decode: {e}"),
            ));
            return;
        }
    };
    if name != "custom_data" {
        return;
    }
    let Some(list) = doc.root.get("arealist") else {
        out.push(Finding::info(name, "the custom data has no arealist"));
        return;
    };
    let Some(entries) = list.as_array() else {
        out.push(Finding::warning(
            format!("{name} arealist"),
            "the arealist is not an array",
        ));
        return;
    };
    if entries.len() != mesh.areas.len() {
        out.push(Finding::warning(
            format!("{name} arealist"),
            format!(
                "{} entries for {} areas: the bot analysis no longer matches the areas (re-analyse the map)",
                entries.len(),
                mesh.areas.len()
            ),
        ));
        return;
    }
    for (i, (entry, area)) in entries.iter().zip(&mesh.areas).enumerate() {
        let spots = entry
            .get("hidingspotdata")
            .and_then(Kv3Value::as_array)
            .map_or(0, <[_]>::len);
        if !area.hiding_spots.is_empty() && spots != area.hiding_spots.len() {
            out.push(Finding::warning(
                format!("{name} arealist[{i}] hidingspotdata"),
                format!(
                    "{spots} hiding spots for area {} which stores {}",
                    area.id,
                    area.hiding_spots.len()
                ),
            ));
        }
    }
}
