//! Validation across the records of one plugin: every `NVMI` entry of the `NAVI` record
//! against its `NAVM`, every navmesh against the `NAVI`, and deleted navmeshes.
//!
//! What is checked, and how serious each finding is:
//!
//! - a deleted `NAVM` record is an error (the game crashes when it reaches the deleted
//!   navmesh through an edge link of another navmesh, of this plugin or of any other);
//! - an `NVMI` entry whose navmesh is not in the plugin is a note when the FormID belongs to a
//!   master (an entry for the master's navmesh), a warning when it is the plugin's own;
//! - an entry that disagrees with its navmesh (centre, island bounds, parent, edge-link list),
//!   whose centre lies outside the navmesh's bounds, or whose island flag and island data
//!   disagree, is a warning; so is a navmesh without an entry (when the plugin has a `NAVI`:
//!   a plugin without one is not held against it);
//! - a `NAVI` subrecord that does not read as its type is an error.

use std::collections::{HashMap, HashSet};

use nav_core::{Finding, Format, Place};

use super::model::{Group, PluginFile, Record};
use super::navi::sync::{bounds, centre, disagreements};
use super::navi::{ISLAND, NaviField, NavmeshInfo, ROAD_MARKER, view::read_field};
use crate::nvnm::{NavmeshGeometry, Nvnm};

/// How far (in game units) a centre that is not the navmesh's f32 vertex mean may lie outside
/// its bounds before it counts as outside.
const CENTRE_SLACK: f32 = 0.01;

/// Where a record sits: the cell and worldspace of the groups around it.
pub fn location_of(groups: &[&Group]) -> String {
    let cell = groups
        .iter()
        .rev()
        .find(|g| matches!(g.group_type, 6 | 8 | 9))
        .map(|g| g.label);
    let world = groups
        .iter()
        .rev()
        .find(|g| g.group_type == 1)
        .map(|g| g.label);
    match (cell, world) {
        (Some(c), Some(w)) => format!("cell {c:08X} of worldspace {w:08X}"),
        (Some(c), None) => format!("cell {c:08X}"),
        (None, Some(w)) => format!("worldspace {w:08X}"),
        (None, None) => "no cell group".to_string(),
    }
}

/// Which file a FormID of a plugin with these masters belongs to: a master's name, or `None`
/// for the plugin's own records.
pub fn origin(form_id: u32, masters: &[String]) -> Option<&str> {
    masters
        .get(usize::try_from(form_id >> 24).unwrap_or(usize::MAX))
        .map(String::as_str)
}

struct Navmesh<'m> {
    record: &'m Record,
    groups: Vec<&'m Group>,
    mesh: Option<NavmeshGeometry>,
}

/// The findings across records of one plugin.
pub fn across_records(model: &PluginFile) -> Vec<Finding> {
    let masters = model.masters();
    let mut out = Vec::new();
    let mut navmeshes: Vec<Navmesh<'_>> = Vec::new();
    let mut navis: Vec<&Record> = Vec::new();
    for (r, groups) in model.records_in_groups() {
        match &r.signature.0 {
            b"NAVM" => navmeshes.push(Navmesh {
                record: r,
                mesh: r.nvnm().and_then(|n| Nvnm.read(n).ok()),
                groups,
            }),
            b"NAVI" => navis.push(r),
            _ => {}
        }
    }
    // Master files hold tens of thousands of navmeshes: look them up by hash.
    let mut by_id: HashMap<u32, usize> = HashMap::with_capacity(navmeshes.len());
    for (i, n) in navmeshes.iter().enumerate() {
        by_id.entry(n.record.form_id).or_insert(i);
    }
    let find = |id: u32| by_id.get(&id).and_then(|&i| navmeshes.get(i));

    for n in navmeshes.iter().filter(|n| n.record.is_deleted()) {
        let id = n.record.form_id;
        let whose = match origin(id, &masters) {
            Some(m) => format!("{m}'s navmesh"),
            None => "this plugin's own navmesh".to_string(),
        };
        let linked: Vec<String> = navmeshes
            .iter()
            .filter(|o| {
                o.mesh
                    .as_ref()
                    .is_some_and(|m| m.edge_links.iter().any(|l| l.navmesh == id))
            })
            .map(|o| format!("{:08X}", o.record.form_id))
            .collect();
        // NVMI entries keep the edge-link lists of navmeshes the plugin does not hold (a
        // master's road-marker navmeshes): one naming the deleted navmesh links to it too.
        let listed_by: Vec<String> = navis
            .iter()
            .filter_map(|r| r.navi())
            .flat_map(|navi| navi.navmesh_infos())
            .filter(|i| i.navmesh != id && i.edge_links.contains(&id))
            .map(|i| format!("{:08X}", i.navmesh))
            .filter(|i| !linked.contains(i))
            .collect();
        let mut links = String::new();
        if !linked.is_empty() {
            links += &format!(" (this plugin's {} still link to it)", linked.join(", "));
        }
        if !listed_by.is_empty() {
            links += &format!(
                " (the NAVI entries of {} list it among their edge links)",
                listed_by.join(", ")
            );
        }
        out.push(Finding::error(
            Place::new().form_id("NAVM", id),
            format!(
                "deleted navmesh ({whose}, in {}){links}: the game crashes when it reaches a \
                 deleted navmesh through another navmesh's edge links; restore it and edit it \
                 in the Creation Kit instead of deleting it",
                location_of(&n.groups)
            ),
        ));
    }

    if navis.is_empty() {
        // Nothing to hold the navmeshes against (hand-made plugins often have no NAVI).
        return out;
    }

    let mut listed: HashSet<u32> = HashSet::new();
    for navi_record in &navis {
        let Some(navi) = navi_record.navi() else {
            continue;
        };
        let at_navi = Place::new().form_id("NAVI", navi_record.form_id);
        let mut nth = HashMap::<[u8; 4], usize>::new();
        let mut road_markers = Vec::new();
        for s in &navi.subrecords {
            let sig = s.field.signature();
            let i = *nth.entry(sig.0).and_modify(|c| *c += 1).or_insert(0);
            match &s.field {
                NaviField::NavmeshInfo(info) => {
                    let at = at_navi.clone().index("NVMI", i).form_id("", info.navmesh);
                    if !listed.insert(info.navmesh) {
                        out.push(Finding::warning(
                            at.clone(),
                            "a second entry for the same navmesh",
                        ));
                    }
                    if info.flags & ROAD_MARKER != 0 {
                        road_markers.push(info.navmesh);
                    }
                    check_entry(info, &at, find(info.navmesh), &masters, &mut out);
                }
                NaviField::PreferredPathing(p) => {
                    let at = at_navi.clone().index("NVPP", i);
                    let n = p.nodes.len();
                    if n.checked_mul(n) != Some(p.paths.len()) {
                        out.push(Finding::warning(
                            at.clone(),
                            format!(
                                "{} paths for {n} road-marker nodes; every known file has \
                                 nodes × nodes",
                                p.paths.len()
                            ),
                        ));
                    }
                    let mut nodes: Vec<u32> = p.nodes.iter().map(|n| n.navmesh).collect();
                    let mut flagged = road_markers.clone();
                    nodes.sort_unstable();
                    flagged.sort_unstable();
                    if nodes != flagged {
                        out.push(Finding::warning(
                            at.clone(),
                            "the road-marker nodes are not the NVMI entries flagged 0x40",
                        ));
                    }
                }
                NaviField::Other { signature, data } => {
                    if let Some(Err(e)) = read_field(&signature.0, data) {
                        let field = match &signature.0 {
                            b"NVER" => "NVER",
                            b"NVMI" => "NVMI",
                            b"NVPP" => "NVPP",
                            b"NVSI" => "NVSI",
                            _ => "subrecord",
                        };
                        out.push(
                            Finding::error(
                                at_navi.clone().index(field, i),
                                format!("does not read, kept raw: {e}"),
                            )
                            .worded(format!("{at_navi} {signature}[{i}]")),
                        );
                    }
                }
                NaviField::Version(_) | NaviField::DeletedNavmeshes(_) => {}
            }
        }
    }

    for n in &navmeshes {
        if n.record.is_deleted() || listed.contains(&n.record.form_id) {
            continue;
        }
        out.push(Finding::warning(
            Place::new().form_id("NAVM", n.record.form_id),
            "no NVMI entry in the NAVI record: the game's pathfinding does not know this \
             navmesh (saving the plugin in the Creation Kit adds it)",
        ));
    }
    out
}

fn check_entry(
    info: &NavmeshInfo,
    at: &Place,
    navmesh: Option<&Navmesh<'_>>,
    masters: &[String],
    out: &mut Vec<Finding>,
) {
    if (info.flags & ISLAND != 0) != info.island.is_some() {
        out.push(Finding::warning(
            at.clone(),
            format!(
                "island flag 0x20 is {} but the entry {} island data",
                if info.flags & ISLAND != 0 {
                    "set"
                } else {
                    "clear"
                },
                if info.island.is_some() {
                    "has"
                } else {
                    "has no"
                }
            ),
        ));
    }
    let Some(navmesh) = navmesh else {
        match origin(info.navmesh, masters) {
            Some(m) => out.push(Finding::info(
                at.clone(),
                format!("an entry for {m}'s navmesh, which this plugin does not override"),
            )),
            None => out.push(Finding::warning(
                at.clone(),
                "the FormID is this plugin's own, but the plugin has no such NAVM: the game is \
                 told about a navmesh that does not exist",
            )),
        }
        return;
    };
    if navmesh.record.is_deleted() {
        out.push(Finding::warning(
            at.clone(),
            "an entry for a deleted navmesh",
        ));
        return;
    }
    if let Some(m) = origin(info.navmesh, masters) {
        out.push(Finding::info(
            at.clone(),
            format!("the navmesh overrides {m}'s"),
        ));
    }
    let Some(mesh) = &navmesh.mesh else {
        return; // the NVNM's own finding says why it does not read
    };
    for d in disagreements(info, mesh) {
        out.push(Finding::warning(
            at.clone(),
            format!("{d} (replacing the navmesh with navkit brings the entry up to date)"),
        ));
    }
    // The Creation Kit's own f32 mean can stray a little past a flat mesh's bounds (0.023
    // units in Cheat Room.esp); only a centre that is not that mean is held to the bounds.
    let ck_mean = centre(&mesh.vertices) == Some(info.centre);
    if let (false, Some((min, max))) = (ck_mean, bounds(&mesh.vertices)) {
        let inside = (0..3).all(|i| {
            let c = info.centre[i].get();
            c >= min[i].get() - CENTRE_SLACK && c <= max[i].get() + CENTRE_SLACK
        });
        if !inside {
            out.push(Finding::warning(
                at.clone(),
                format!(
                    "centre ({}, {}, {}) lies outside the navmesh's bounds ({}, {}, {}) to \
                     ({}, {}, {})",
                    info.centre[0],
                    info.centre[1],
                    info.centre[2],
                    min[0],
                    min[1],
                    min[2],
                    max[0],
                    max[1],
                    max[2]
                ),
            ));
        }
    }
}
