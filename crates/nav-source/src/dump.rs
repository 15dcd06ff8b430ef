//! A readable text dump of a model, for `navkit dump` and the snapshot tests.
//!
//! Header fields first, then the place directory, every area (one line of fixed fields, then a
//! line per non-empty list), the ladders and the tail. Floats print as numbers (NaN with its
//! bits).

use core::fmt::{self, Write};

use nav_core::scalar::Tuple as V3;

use crate::model::{ApproachArea, AreaCustom, EncounterPath, SourceMesh};

fn list<T: fmt::Debug>(out: &mut dyn Write, name: &str, items: &[T]) -> fmt::Result {
    if !items.is_empty() {
        writeln!(out, "    {name} ({}): {items:?}", items.len())?;
    }
    Ok(())
}

fn approach(out: &mut dyn Write, name: &str, items: &[ApproachArea]) -> fmt::Result {
    let tuples: Vec<_> = items
        .iter()
        .map(|a| {
            (
                a.here_area_id,
                a.prev_area_id,
                a.prev_to_here_how,
                a.next_area_id,
                a.here_to_next_how,
            )
        })
        .collect();
    if !tuples.is_empty() {
        writeln!(
            out,
            "    {name} (here, prev, prev_to_here_how, next, here_to_next_how) ({}): {tuples:?}",
            tuples.len()
        )?;
    }
    Ok(())
}

/// Writes the dump of `mesh` to `out`.
pub fn dump(mesh: &SourceMesh, out: &mut dyn Write) -> fmt::Result {
    let layout = mesh.layout();
    writeln!(
        out,
        "nav-source {} flavour {} (version {}, sub-version {})",
        layout.version_text(),
        mesh.flavour,
        mesh.version,
        mesh.sub_version
    )?;
    writeln!(
        out,
        "bsp_size {} is_analyzed {} has_unnamed_areas {}",
        mesh.bsp_size, mesh.is_analyzed, mesh.has_unnamed_areas
    )?;
    writeln!(out, "places ({}):", mesh.places.len())?;
    for (i, p) in mesh.places.iter().enumerate() {
        writeln!(out, "  [{}] {p:?}", i + 1)?;
    }
    if let Some(t) = &mesh.terror {
        writeln!(
            out,
            "terror population {:?} max_view_distance {}",
            t.population, t.max_view_distance
        )?;
        writeln!(
            out,
            "fog_places ({}): {:?}",
            t.fog_places.len(),
            t.fog_places
        )?;
    }
    writeln!(out, "areas ({}):", mesh.areas.len())?;
    for (i, a) in mesh.areas.iter().enumerate() {
        writeln!(
            out,
            "  [{i}] id {} attributes {:#x} nw {} se {} ne_z {} sw_z {} place {}",
            a.id,
            a.attribute_flags,
            V3(&a.nw_corner),
            V3(&a.se_corner),
            a.ne_z,
            a.sw_z,
            a.place
        )?;
        for (name, l) in ["north", "east", "south", "west"]
            .iter()
            .zip(&a.connections)
        {
            list(out, &format!("connections {name}"), l)?;
        }
        for s in &a.hiding_spots {
            writeln!(
                out,
                "    hiding spot id {} at {} flags {:#x}",
                s.id,
                V3(&s.position),
                s.flags
            )?;
        }
        approach(out, "approach_areas", &a.approach_areas)?;
        for p in &a.encounter_paths {
            match p {
                EncounterPath::Positions {
                    from_area_id,
                    to_area_id,
                    from_position,
                    to_position,
                    spots,
                } => writeln!(
                    out,
                    "    encounter path {from_area_id} {} -> {to_area_id} {} spots {spots:?}",
                    V3(from_position),
                    V3(to_position)
                )?,
                EncounterPath::Spots {
                    from_area_id,
                    from_direction,
                    to_area_id,
                    to_direction,
                    spots,
                } => {
                    let spots: Vec<_> = spots.iter().map(|s| (s.hiding_spot_id, s.t)).collect();
                    writeln!(
                        out,
                        "    encounter path {from_area_id} dir {from_direction} -> {to_area_id} dir {to_direction} spots (id, t) {spots:?}"
                    )?
                }
            }
        }
        list(out, "ladders up", &a.ladders[0])?;
        list(out, "ladders down", &a.ladders[1])?;
        if layout.has_occupy_times() {
            writeln!(
                out,
                "    earliest_occupy_time {}",
                V3(&a.earliest_occupy_time)
            )?;
        }
        if layout.has_light_intensity() {
            writeln!(out, "    light_intensity {}", V3(&a.light_intensity))?;
        }
        if !a.visible_areas.is_empty() || a.inherit_visibility_from != 0 {
            let vis: Vec<_> = a
                .visible_areas
                .iter()
                .map(|v| (v.area_id, v.attributes))
                .collect();
            writeln!(
                out,
                "    visible_areas (id, attributes) ({}): {vis:?} inherit_visibility_from {}",
                vis.len(),
                a.inherit_visibility_from
            )?;
        }
        match &a.custom {
            AreaCustom::None => {}
            AreaCustom::CounterStrike { approach_areas } => {
                approach(out, "cs approach_areas", approach_areas)?;
            }
            AreaCustom::TeamFortress2 { tf_attributes } => {
                writeln!(out, "    tf_attributes {tf_attributes:#x}")?;
            }
            AreaCustom::Terror {
                spawn_attributes,
                legacy_word,
                fog_place,
                visible_areas,
                inherit_visibility_from,
            } => {
                let vis: Vec<_> = visible_areas
                    .iter()
                    .map(|v| (v.area_index, v.attributes))
                    .collect();
                let word = legacy_word
                    .map(|w| format!(" legacy_word {w:#x}"))
                    .unwrap_or_default();
                let by = if layout.terror_visibility_by_index() {
                    "index"
                } else {
                    "id"
                };
                writeln!(
                    out,
                    "    spawn_attributes {spawn_attributes:#x}{word} fog_place {fog_place} visible_areas ({by}, attributes) ({}): {vis:?} inherit_visibility_from {inherit_visibility_from}",
                    vis.len()
                )?
            }
        }
    }
    writeln!(out, "ladders ({}):", mesh.ladders.len())?;
    for (i, l) in mesh.ladders.iter().enumerate() {
        writeln!(
            out,
            "  [{i}] id {} width {} top {} bottom {} length {} direction {} dangling {} areas top forward {} left {} right {} behind {} bottom {}",
            l.id,
            l.width,
            V3(&l.top),
            V3(&l.bottom),
            l.length,
            l.direction,
            l.is_dangling,
            l.top_forward_area_id,
            l.top_left_area_id,
            l.top_right_area_id,
            l.top_behind_area_id,
            l.bottom_area_id
        )?;
    }
    if !mesh.stale_tail.is_empty() {
        writeln!(out, "stale tail: {} bytes", mesh.stale_tail.len())?;
    }
    Ok(())
}
