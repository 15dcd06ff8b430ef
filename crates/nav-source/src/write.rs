//! Writers: from the owned model, and straight from the view.
//!
//! The format has no offsets, so writing is one pass in file order. The model writer first
//! checks that the model fits its version and flavour (a field the version does not store must
//! hold its default; a list behind a `u8` count holds at most 255 entries; attribute flags fit
//! the version's width) and refuses what does not fit with an error naming the field, rather than
//! dropping or wrapping anything.
//!
//! One writer serves every destination through [`Sink`]: the caller's `Vec` ([`write_into`]),
//! an [`std::io::Write`] ([`write_to`], which streams), and a byte counter that runs first for
//! the stream so that every refusal comes before its first byte.

use std::io;

use nav_core::write::{BlockStream, ByteCount, Sink, narrow};
use nav_core::{ByteWriter, Error, RawF32, Result};
use zerocopy::{Immutable, IntoBytes};

use crate::FORMAT;
use crate::flavour::{Flavour, Layout, MAX_VERSION, TERROR_MIN_SUB_VERSION};
use crate::model::{AreaCustom, EncounterPath, NavString, SourceMesh};
use crate::view::{AreaCustomView, EncounterPathView, HidingSpots, LadderRecords, SourceView};

fn refuse(field: impl core::fmt::Display, message: impl core::fmt::Display) -> Error {
    Error::unrepresentable(FORMAT, field, message)
}

fn absent(layout: &Layout, field: impl core::fmt::Display, is_default: bool) -> Result<()> {
    if is_default {
        Ok(())
    } else {
        Err(refuse(
            field,
            format_args!(
                "version {} ({} flavour) does not store this field, so it must be empty or zero",
                layout.version_text(),
                layout.flavour
            ),
        ))
    }
}

fn floats(w: &mut impl Sink, values: &[RawF32]) {
    for v in values {
        w.f32(*v);
    }
}

/// Appends a list of records whose memory is their file bytes on a little-endian machine (the
/// packed 5-byte records, `u32` ids): one copy there, `each` record by record elsewhere.
fn records<W: Sink, T: IntoBytes + Immutable>(w: &mut W, list: &[T], each: impl Fn(&mut W, &T)) {
    if cfg!(target_endian = "little") {
        w.put(list);
    } else {
        for r in list {
            each(w, r);
        }
    }
}

fn ids(w: &mut impl Sink, field: impl core::fmt::Display, list: &[u32]) -> Result<()> {
    w.u32(narrow(FORMAT, field, list.len())?);
    records(w, list, |w, id| {
        w.u32(*id);
    });
    Ok(())
}

fn names(w: &mut impl Sink, what: &str, list: &[NavString]) -> Result<()> {
    w.u16(narrow(FORMAT, format_args!("{what} count"), list.len())?);
    for (i, name) in list.iter().enumerate() {
        w.u16(narrow(
            FORMAT,
            format_args!("{what}[{i}] length"),
            name.0.len(),
        )?);
        w.bytes(&name.0);
    }
    Ok(())
}

/// Writes a model in its own flavour. A model read from a file gives that file's bytes back.
pub fn write(mesh: &SourceMesh) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    write_into(mesh, &mut out)?;
    Ok(out)
}

/// [`write()`] into `out`, replacing its contents. The exact size is reserved first, so a buffer
/// that is already large enough (the input of a rewrite) is filled in place and a new one is
/// allocated once. On error `out` holds unspecified bytes.
pub fn write_into(mesh: &SourceMesh, out: &mut Vec<u8>) -> Result<()> {
    let layout = mesh.layout();
    check_mesh(mesh, &layout)?;
    let size = encoded_len(mesh, &layout);
    let mut buf = core::mem::take(out);
    buf.clear();
    buf.reserve_exact(size);
    let mut w = ByteWriter::from_vec(buf);
    let written = write_mesh(&mut w, mesh, &layout);
    *out = w.into_inner();
    debug_assert!(
        written.is_err() || out.len() == size,
        "encoded_len is exact"
    );
    written
}

/// [`write()`] streamed to `out`: the model is first written to a byte counter, so every refusal
/// (an [`io::ErrorKind::InvalidData`] error carrying the [`Error`], see
/// [`nav_core::error::refusal`]) comes before the first byte; then the records go to `out` in
/// 64 KiB blocks, with no copy of the whole file in memory.
pub fn write_to(mesh: &SourceMesh, out: &mut dyn io::Write) -> io::Result<()> {
    let layout = mesh.layout();
    check_mesh(mesh, &layout).map_err(nav_core::error::refusal)?;
    write_mesh(&mut ByteCount::new(), mesh, &layout).map_err(nav_core::error::refusal)?;
    let mut stream = BlockStream::new(out);
    write_mesh(&mut stream, mesh, &layout).map_err(nav_core::error::refusal)?;
    stream.finish()
}

/// The mesh-level checks: fields the version does not store, and the Left 4 Dead data.
fn check_mesh(mesh: &SourceMesh, layout: &Layout) -> Result<()> {
    let layout = *layout;
    if !(1..=MAX_VERSION).contains(&mesh.version) {
        return Err(refuse(
            "version",
            format_args!(
                "version {} has no layout (1 to 16 are written)",
                mesh.version
            ),
        ));
    }
    absent(
        &layout,
        "sub_version",
        layout.has_sub_version() || mesh.sub_version == 0,
    )?;
    absent(
        &layout,
        "bsp_size",
        layout.has_bsp_size() || mesh.bsp_size == 0,
    )?;
    absent(
        &layout,
        "is_analyzed",
        layout.has_is_analyzed() || mesh.is_analyzed == 0,
    )?;
    absent(
        &layout,
        "places",
        layout.has_places() || mesh.places.is_empty(),
    )?;
    absent(
        &layout,
        "has_unnamed_areas",
        layout.has_unnamed_areas_byte() || mesh.has_unnamed_areas == 0,
    )?;
    absent(
        &layout,
        "ladders",
        layout.has_ladders() || mesh.ladders.is_empty(),
    )?;
    absent(
        &layout,
        "stale_tail",
        layout.allows_stale_tail() || mesh.stale_tail.is_empty(),
    )?;
    if layout.is_terror() != mesh.terror.is_some() {
        return Err(refuse(
            "terror",
            format_args!(
                "the Left 4 Dead data must be present exactly in the Left 4 Dead flavours (this is {})",
                mesh.flavour
            ),
        ));
    }
    if layout.is_terror() && mesh.sub_version < TERROR_MIN_SUB_VERSION {
        return Err(refuse(
            "sub_version",
            format_args!(
                "the {} flavour is written from sub-version {TERROR_MIN_SUB_VERSION}",
                mesh.flavour
            ),
        ));
    }
    Ok(())
}

fn write_mesh<W: Sink>(w: &mut W, mesh: &SourceMesh, layout: &Layout) -> Result<()> {
    w.u32(crate::flavour::MAGIC).u32(mesh.version);
    if layout.has_sub_version() {
        w.u32(mesh.sub_version);
    }
    if layout.has_bsp_size() {
        w.u32(mesh.bsp_size);
    }
    if layout.has_is_analyzed() {
        w.u8(mesh.is_analyzed);
    }
    if layout.has_places() {
        names(w, "places", &mesh.places)?;
        if layout.has_unnamed_areas_byte() {
            w.u8(mesh.has_unnamed_areas);
        }
    }
    if let Some(terror) = &mesh.terror {
        if terror.population.0.contains(&0) {
            return Err(refuse(
                "terror population",
                "the population name is stored NUL-terminated, so it cannot contain a NUL",
            ));
        }
        w.bytes(&terror.population.0).u8(0);
        names(w, "terror fog_places", &terror.fog_places)?;
    }
    w.u32(narrow(FORMAT, "areas count", mesh.areas.len())?);
    for (i, area) in mesh.areas.iter().enumerate() {
        write_area(w, layout, area, i)?;
    }
    if layout.has_ladders() {
        w.u32(narrow(FORMAT, "ladders count", mesh.ladders.len())?);
        for (i, l) in mesh.ladders.iter().enumerate() {
            w.u32(l.id).f32(l.width);
            floats(w, &l.top);
            floats(w, &l.bottom);
            w.f32(l.length).u32(l.direction);
            if layout.has_dangling_byte() {
                w.u8(l.is_dangling);
            } else {
                absent(
                    layout,
                    format_args!("ladders[{i}] is_dangling"),
                    l.is_dangling == 0,
                )?;
            }
            for (_, id) in l.area_ids() {
                w.u32(id);
            }
        }
    }
    if let Some(terror) = &mesh.terror {
        w.f32(terror.max_view_distance);
    }
    w.bytes(&mesh.stale_tail);
    Ok(())
}

/// The exact size [`write_mesh`] writes for a mesh that passes its checks (saturating; a mesh
/// that fails them may get a wrong figure, which only sizes a buffer).
fn encoded_len(mesh: &SourceMesh, layout: &Layout) -> usize {
    let names = |list: &[NavString]| -> usize {
        list.iter().fold(2usize, |n, name| {
            n.saturating_add(2).saturating_add(name.0.len())
        })
    };
    let mut n = 8usize;
    n += if layout.has_sub_version() { 4 } else { 0 };
    n += if layout.has_bsp_size() { 4 } else { 0 };
    n += usize::from(layout.has_is_analyzed());
    if layout.has_places() {
        n = n
            .saturating_add(names(&mesh.places))
            .saturating_add(usize::from(layout.has_unnamed_areas_byte()));
    }
    if let Some(t) = &mesh.terror {
        n = n
            .saturating_add(t.population.0.len())
            .saturating_add(1 + 4)
            .saturating_add(names(&t.fog_places));
    }
    n = n.saturating_add(4);
    for area in &mesh.areas {
        n = n.saturating_add(area_len(area, layout));
    }
    if layout.has_ladders() {
        let each = if layout.has_dangling_byte() { 61 } else { 60 };
        n = n.saturating_add(mesh.ladders.len().saturating_mul(each).saturating_add(4));
    }
    n.saturating_add(mesh.stale_tail.len())
}

fn area_len(area: &crate::model::Area, layout: &Layout) -> usize {
    let list = |len: usize, each: usize| len.saturating_mul(each).saturating_add(4);
    let mut n = 4 + layout.attribute_width() + 32 + 1 + 4;
    for c in &area.connections {
        n = n.saturating_add(list(c.len(), 4));
    }
    let spot = if layout.legacy_hiding_spots() { 12 } else { 17 };
    n = n.saturating_add(area.hiding_spots.len().saturating_mul(spot));
    if layout.has_base_approach() {
        n = n.saturating_add(1 + area.approach_areas.len().saturating_mul(14));
    }
    for path in &area.encounter_paths {
        n = n.saturating_add(match path {
            EncounterPath::Positions { spots, .. } => 33 + spots.len().saturating_mul(16),
            EncounterPath::Spots { spots, .. } => 11 + spots.len().saturating_mul(5),
        });
    }
    n += if layout.has_places() { 2 } else { 0 };
    if layout.has_area_ladders() {
        for l in &area.ladders {
            n = n.saturating_add(list(l.len(), 4));
        }
    }
    n += if layout.has_occupy_times() { 8 } else { 0 };
    n += if layout.has_light_intensity() { 16 } else { 0 };
    if layout.has_base_visibility() {
        n = n.saturating_add(list(area.visible_areas.len(), 5).saturating_add(4));
    }
    n.saturating_add(match &area.custom {
        AreaCustom::None => 0,
        AreaCustom::CounterStrike { approach_areas } => 1 + approach_areas.len().saturating_mul(14),
        AreaCustom::TeamFortress2 { .. } => 4,
        AreaCustom::Terror {
            legacy_word,
            visible_areas,
            ..
        } => {
            let word: usize = if legacy_word.is_some() { 4 } else { 0 };
            (4 + word + 2 + 4).saturating_add(list(visible_areas.len(), 5))
        }
    })
}

fn write_area<W: Sink>(
    w: &mut W,
    layout: &Layout,
    area: &crate::model::Area,
    i: usize,
) -> Result<()> {
    w.u32(area.id);
    let field = format_args!("areas[{i}] attribute_flags");
    match layout.attribute_width() {
        1 => {
            w.u8(narrow(FORMAT, field, area.attribute_flags)?);
        }
        2 => {
            w.u16(narrow(FORMAT, field, area.attribute_flags)?);
        }
        _ => {
            w.u32(area.attribute_flags);
        }
    }
    floats(w, &area.nw_corner);
    floats(w, &area.se_corner);
    w.f32(area.ne_z).f32(area.sw_z);
    for (d, list) in area.connections.iter().enumerate() {
        ids(w, format_args!("areas[{i}] connections[{d}] count"), list)?;
    }
    w.u8(narrow(
        FORMAT,
        format_args!("areas[{i}] hiding_spots count"),
        area.hiding_spots.len(),
    )?);
    for (j, spot) in area.hiding_spots.iter().enumerate() {
        if layout.legacy_hiding_spots() {
            absent(
                layout,
                format_args!("areas[{i}] hiding_spots[{j}] id and flags"),
                spot.id == 0 && spot.flags == 0,
            )?;
            floats(w, &spot.position);
        } else {
            let mut rec = [0u8; 17];
            let [pos @ .., flags] = &mut rec;
            let (id, xyz) = pos.split_at_mut(4);
            id.copy_from_slice(&spot.id.to_le_bytes());
            for (out, v) in xyz.chunks_exact_mut(4).zip(&spot.position) {
                out.copy_from_slice(&v.0.to_le_bytes());
            }
            *flags = spot.flags;
            w.bytes(&rec);
        }
    }
    if layout.has_base_approach() {
        approach(
            w,
            format_args!("areas[{i}] approach_areas"),
            &area.approach_areas,
        )?;
    } else {
        absent(
            layout,
            format_args!("areas[{i}] approach_areas"),
            area.approach_areas.is_empty(),
        )?;
    }
    w.u32(narrow(
        FORMAT,
        format_args!("areas[{i}] encounter_paths count"),
        area.encounter_paths.len(),
    )?);
    for (j, path) in area.encounter_paths.iter().enumerate() {
        match (path, layout.legacy_encounter_paths()) {
            (
                EncounterPath::Positions {
                    from_area_id,
                    to_area_id,
                    from_position,
                    to_position,
                    spots,
                },
                true,
            ) => {
                w.u32(*from_area_id).u32(*to_area_id);
                floats(w, from_position);
                floats(w, to_position);
                w.u8(narrow(
                    FORMAT,
                    format_args!("areas[{i}] encounter_paths[{j}] spots count"),
                    spots.len(),
                )?);
                for s in spots {
                    floats(w, s);
                }
            }
            (
                EncounterPath::Spots {
                    from_area_id,
                    from_direction,
                    to_area_id,
                    to_direction,
                    spots,
                },
                false,
            ) => {
                w.u32(*from_area_id)
                    .u8(*from_direction)
                    .u32(*to_area_id)
                    .u8(*to_direction);
                w.u8(narrow(
                    FORMAT,
                    format_args!("areas[{i}] encounter_paths[{j}] spots count"),
                    spots.len(),
                )?);
                records(w, spots, |w, s| {
                    w.u32(s.hiding_spot_id).u8(s.t);
                });
            }
            (_, legacy) => {
                return Err(refuse(
                    format_args!("areas[{i}] encounter_paths[{j}]"),
                    format_args!(
                        "version {} stores encounter paths as {}",
                        layout.version_text(),
                        if legacy {
                            "positions (v1, v2)"
                        } else {
                            "hiding-spot ids (v3 and up)"
                        }
                    ),
                ));
            }
        }
    }
    if layout.has_places() {
        w.u16(area.place);
    } else {
        absent(layout, format_args!("areas[{i}] place"), area.place == 0)?;
    }
    if layout.has_area_ladders() {
        for (d, list) in area.ladders.iter().enumerate() {
            ids(w, format_args!("areas[{i}] ladders[{d}] count"), list)?;
        }
    } else {
        absent(
            layout,
            format_args!("areas[{i}] ladders"),
            area.ladders.iter().all(|l| l.is_empty()),
        )?;
    }
    if layout.has_occupy_times() {
        floats(w, &area.earliest_occupy_time);
    } else {
        absent(
            layout,
            format_args!("areas[{i}] earliest_occupy_time"),
            area.earliest_occupy_time == [RawF32::ZERO; 2],
        )?;
    }
    if layout.has_light_intensity() {
        floats(w, &area.light_intensity);
    } else {
        absent(
            layout,
            format_args!("areas[{i}] light_intensity"),
            area.light_intensity == [RawF32::ZERO; 4],
        )?;
    }
    if layout.has_base_visibility() {
        visibility(w, area, i)?;
    } else {
        absent(
            layout,
            format_args!("areas[{i}] visible_areas and inherit_visibility_from"),
            area.visible_areas.is_empty() && area.inherit_visibility_from == 0,
        )?;
    }
    match (&area.custom, layout) {
        (AreaCustom::None, l)
            if !l.has_cs_approach() && !l.has_tf_attributes() && !l.is_terror() => {}
        (AreaCustom::CounterStrike { approach_areas }, l) if l.has_cs_approach() => {
            approach(
                w,
                format_args!("areas[{i}] cs approach_areas"),
                approach_areas,
            )?;
        }
        (AreaCustom::TeamFortress2 { tf_attributes }, l) if l.has_tf_attributes() => {
            w.u32(*tf_attributes);
        }
        (
            AreaCustom::Terror {
                spawn_attributes,
                legacy_word,
                fog_place,
                visible_areas,
                inherit_visibility_from,
            },
            l,
        ) if l.is_terror() => {
            w.u32(*spawn_attributes);
            match (legacy_word, l.has_terror_legacy_word()) {
                (Some(word), true) => {
                    w.u32(*word);
                }
                (None, false) => {}
                (_, stored) => {
                    return Err(refuse(
                        format_args!("areas[{i}] legacy_word"),
                        format_args!(
                            "sub-version {} {} this word, so it must be {}",
                            l.sub_version,
                            if stored { "stores" } else { "does not store" },
                            if stored { "Some" } else { "None" }
                        ),
                    ));
                }
            }
            w.u16(*fog_place);
            w.u32(narrow(
                FORMAT,
                format_args!("areas[{i}] visible_areas count"),
                visible_areas.len(),
            )?);
            records(w, visible_areas, |w, v| {
                w.u32(v.area_index).u8(v.attributes);
            });
            w.u32(*inherit_visibility_from);
        }
        _ => {
            return Err(refuse(
                format_args!("areas[{i}] custom"),
                format_args!(
                    "the per-area data does not match the {} flavour at version {}",
                    layout.flavour,
                    layout.version_text()
                ),
            ));
        }
    }
    Ok(())
}

fn approach(
    w: &mut impl Sink,
    field: core::fmt::Arguments<'_>,
    list: &[crate::model::ApproachArea],
) -> Result<()> {
    w.u8(narrow(FORMAT, format_args!("{field} count"), list.len())?);
    for a in list {
        let mut rec = [0u8; 14];
        let (here, rest) = rec.split_at_mut(4);
        here.copy_from_slice(&a.here_area_id.to_le_bytes());
        let (prev, rest) = rest.split_at_mut(4);
        prev.copy_from_slice(&a.prev_area_id.to_le_bytes());
        let (how, rest) = rest.split_at_mut(1);
        how.fill(a.prev_to_here_how);
        let (next, how) = rest.split_at_mut(4);
        next.copy_from_slice(&a.next_area_id.to_le_bytes());
        how.fill(a.here_to_next_how);
        w.bytes(&rec);
    }
    Ok(())
}

fn visibility(w: &mut impl Sink, area: &crate::model::Area, i: usize) -> Result<()> {
    w.u32(narrow(
        FORMAT,
        format_args!("areas[{i}] visible_areas count"),
        area.visible_areas.len(),
    )?);
    records(w, &area.visible_areas, |w, v| {
        w.u32(v.area_id).u8(v.attributes);
    });
    w.u32(area.inherit_visibility_from);
    Ok(())
}

/// Writes straight from a view: every record's borrowed bytes in file order.
// Every length and flag written here was read from a field of the same width, so it fits.
#[allow(clippy::cast_possible_truncation)]
pub fn write_view(view: &SourceView<'_>) -> Result<Vec<u8>> {
    let layout = view.layout();
    let mut w = ByteWriter::with_capacity(view.data().len());
    w.u32(crate::flavour::MAGIC).u32(layout.version);
    if layout.has_sub_version() {
        w.u32(layout.sub_version);
    }
    if layout.has_bsp_size() {
        w.u32(view.bsp_size());
    }
    if layout.has_is_analyzed() {
        w.u8(view.is_analyzed());
    }
    if layout.has_places() {
        w.u16(narrow(FORMAT, "places count", view.places().len())?);
        w.bytes(view.places().as_bytes());
        if layout.has_unnamed_areas_byte() {
            w.u8(view.has_unnamed_areas());
        }
    }
    if let Some(t) = view.terror() {
        w.bytes(t.population()).u8(0);
        w.u16(narrow(FORMAT, "fog_places count", t.fog_places().len())?);
        w.bytes(t.fog_places().as_bytes());
    }
    w.u32(narrow(FORMAT, "areas count", view.area_count())?);
    for a in view.areas() {
        w.u32(a.id());
        match layout.attribute_width() {
            1 => w.u8(a.attribute_flags() as u8),
            2 => w.u16(a.attribute_flags() as u16),
            _ => w.u32(a.attribute_flags()),
        };
        w.put(a.extent());
        for list in a.connections() {
            w.u32(list.len() as u32).put(list);
        }
        w.u8(a.hiding_spots().len() as u8);
        match a.hiding_spots() {
            HidingSpots::Positions(s) => w.put(s),
            HidingSpots::Records(s) => w.put(s),
        };
        if layout.has_base_approach() {
            w.u8(a.approach_areas().len() as u8).put(a.approach_areas());
        }
        w.u32(a.encounter_paths().len() as u32);
        for p in a.encounter_paths().iter().copied() {
            match p {
                EncounterPathView::Positions { head, spots } => w.put(head).put(spots),
                EncounterPathView::Spots { head, spots } => w.put(head).put(spots),
            };
        }
        if layout.has_places() {
            w.u16(a.place());
        }
        if layout.has_area_ladders() {
            for list in a.ladders() {
                w.u32(list.len() as u32).put(list);
            }
        }
        w.put(a.earliest_occupy_time()).put(a.light_intensity());
        if layout.has_base_visibility() {
            w.u32(a.visible_areas().len() as u32)
                .put(a.visible_areas())
                .u32(a.inherit_visibility_from());
        }
        match a.custom() {
            AreaCustomView::None => {}
            AreaCustomView::CounterStrike { approach_areas } => {
                w.u8(approach_areas.len() as u8).put(approach_areas);
            }
            AreaCustomView::TeamFortress2 { tf_attributes } => {
                w.put(tf_attributes);
            }
            AreaCustomView::Terror {
                spawn_attributes,
                legacy_word,
                fog_place,
                visible_areas,
                inherit_visibility_from,
            } => {
                w.put(spawn_attributes);
                if let Some(word) = legacy_word {
                    w.put(word);
                }
                w.put(fog_place)
                    .u32(visible_areas.len() as u32)
                    .put(visible_areas)
                    .put(inherit_visibility_from);
            }
        }
    }
    if layout.has_ladders() {
        w.u32(view.ladders().len() as u32);
        match view.ladders() {
            LadderRecords::Standard(l) => w.put(l),
            LadderRecords::Version6(l) => w.put(l),
        };
    }
    if let Some(t) = view.terror() {
        w.put(t.max_view_distance());
    }
    w.bytes(view.stale_tail());
    Ok(w.into_inner())
}

/// Checks that a written file reads back in the model's flavour under auto-detection. Only
/// needed when the flavour is not the sub-version's usual one.
pub(crate) fn check_detectable(mesh: &SourceMesh, bytes: &[u8]) -> Result<()> {
    if mesh.flavour == Flavour::guess(mesh.version, mesh.sub_version) {
        return Ok(());
    }
    let found = crate::view::parse(bytes).map(|v| v.flavour());
    match found {
        Ok(f) if f == mesh.flavour => Ok(()),
        Ok(f) => Err(refuse(
            "flavour",
            format_args!(
                "the written file would be read back as {f}, not {} (at sub-version {} the two are \
                 indistinguishable here); write it with nav_source::write and read it with SourceView::parse_with",
                mesh.flavour, mesh.sub_version
            ),
        )),
        Err(e) => Err(refuse(
            "flavour",
            format_args!("the written file does not read back under auto-detection: {e}"),
        )),
    }
}
