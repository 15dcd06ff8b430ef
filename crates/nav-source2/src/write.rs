//! Writers: from the owned model, and straight from the view.
//!
//! The format has no offsets, so writing is one pass in file order; KV3 blobs are written as
//! their kept bytes after zero padding to the next multiple of 8. The model writer first checks
//! that the model fits its version: a field the version (or generator version) does not store
//! must hold its default, a list behind a `u8` count holds at most 255 entries, an area has one
//! connection list per corner, the stored hull count agrees with the hull records, and each KV3
//! blob's header says exactly its length. What does not fit is refused with an error naming the
//! field, never dropped or wrapped.
//!
//! One writer serves every destination through [`Sink`]: a `Vec` ([`write()`]), an
//! [`std::io::Write`] ([`write_to`], which streams), and a byte counter that runs first for the
//! stream so that every refusal comes before its first byte.

use core::fmt::Display;
use std::io;

use nav_core::write::{BlockStream, ByteCount, Sink, narrow};
use nav_core::{ByteWriter, Error, RawF32, Result};

use crate::FORMAT;
use crate::kv3::{ALIGN, Kv3Blob, Kv3Header};
use crate::layout::{Layout, MAGIC, NO_MOVABLE_MESH, has_custom_data};
use crate::model::{GenerationParams, Source2Mesh, Vec3};
use crate::view::Source2View;

fn refuse(field: impl Display, message: impl Display) -> Error {
    Error::unrepresentable(FORMAT, field, message)
}

fn absent(version: impl Display, field: impl Display, is_default: bool) -> Result<()> {
    if is_default {
        Ok(())
    } else {
        Err(refuse(
            field,
            format_args!("{version} does not store this field, so it must be empty or zero"),
        ))
    }
}

fn vec3(w: &mut impl Sink, v: &Vec3) {
    for c in v {
        w.f32(*c);
    }
}

fn blob(w: &mut impl Sink, bytes: &[u8]) {
    w.pad_to(ALIGN);
    w.bytes(bytes);
}

fn model_blob(
    w: &mut impl Sink,
    field: &str,
    stored: bool,
    b: &Option<Kv3Blob>,
    when: &str,
) -> Result<()> {
    match (stored, b) {
        (true, Some(b)) => {
            Kv3Header::read_blob(&b.bytes)
                .map_err(|e| refuse(field, format_args!("not a whole KV3 blob: {e}")))?;
            blob(w, &b.bytes);
            Ok(())
        }
        (false, None) => Ok(()),
        (true, None) => Err(refuse(
            field,
            format_args!("{when} stores this KV3 blob, so it must be present"),
        )),
        (false, Some(_)) => Err(refuse(
            field,
            format_args!("only {when} stores this KV3 blob, so it must be absent"),
        )),
    }
}

fn nul_free(field: &str, s: &[u8]) -> Result<()> {
    if s.contains(&0) {
        return Err(refuse(
            field,
            "a NUL-terminated string may not contain a NUL",
        ));
    }
    Ok(())
}

/// Writes the generation parameters, refusing fields their generator version does not store and
/// a hull count that disagrees with the hull records.
pub(crate) fn generation_params(w: &mut impl Sink, p: &GenerationParams) -> Result<()> {
    let g = p.layout();
    let generator = format_args!("generator version {}", p.nav_gen_version).to_string();
    w.i32(p.nav_gen_version)
        .u32(p.use_project_defaults)
        .f32(p.tile_size)
        .f32(p.cell_size)
        .f32(p.cell_height)
        .i32(p.min_region_size)
        .i32(p.merged_region_size)
        .f32(p.mesh_sample_distance)
        .f32(p.max_sample_error)
        .i32(p.max_edge_length)
        .f32(p.max_edge_error)
        .i32(p.verts_per_poly);
    if g.has_small_area_removal() {
        w.f32(p.small_area_on_edge_removal);
    } else {
        absent(
            &generator,
            "generation_params small_area_on_edge_removal",
            p.small_area_on_edge_removal == RawF32::ZERO,
        )?;
    }
    if g.has_hull_preset() {
        nul_free("generation_params hull_preset_name", &p.hull_preset_name.0)?;
        nul_free(
            "generation_params hull_definitions_file",
            &p.hull_definitions_file.0,
        )?;
        w.bytes(&p.hull_preset_name.0).u8(0);
        w.bytes(&p.hull_definitions_file.0).u8(0);
    } else {
        absent(
            &generator,
            "generation_params hull_preset_name",
            p.hull_preset_name.0.is_empty() && p.hull_definitions_file.0.is_empty(),
        )?;
    }
    match g.hull_records(p.hull_count) {
        Some(n) if n == p.hulls.len() => {}
        _ => {
            return Err(refuse(
                "generation_params hull_count",
                format_args!(
                    "hull count {} does not fit the {} hull records at {generator} (from 12 they are equal; below, at least 3 records are stored)",
                    p.hull_count,
                    p.hulls.len()
                ),
            ));
        }
    }
    w.i32(p.hull_count);
    for (i, h) in p.hulls.iter().enumerate() {
        let f = |name: &str| format!("generation_params hulls[{i}] {name}");
        if g.has_hull_short_height() {
            w.u8(h.enabled);
        } else {
            absent(
                &generator,
                f("enabled"),
                h.enabled == 0 && h.short_height_enabled == 0 && h.short_height == RawF32::ZERO,
            )?;
        }
        w.f32(h.radius).f32(h.height);
        if g.has_hull_short_height() {
            w.u8(h.short_height_enabled).f32(h.short_height);
        }
        if g.has_hull_crawl() {
            w.u8(h.agent_crawl_enabled).f32(h.agent_crawl_height);
        } else {
            absent(
                &generator,
                f("agent_crawl_enabled"),
                h.agent_crawl_enabled == 0 && h.agent_crawl_height == RawF32::ZERO,
            )?;
        }
        w.f32(h.max_climb)
            .i32(h.max_slope)
            .f32(h.max_jump_down_dist)
            .f32(h.max_jump_horiz_dist_base)
            .f32(h.max_jump_up_dist);
        if g.has_hull_border_erosion() {
            w.i32(h.border_erosion);
        } else {
            absent(&generator, f("border_erosion"), h.border_erosion == 0)?;
        }
    }
    if g.has_gravity_follows_rotation() {
        w.u8(p.gravity_follows_rotation);
    } else {
        absent(
            &generator,
            "generation_params gravity_follows_rotation",
            p.gravity_follows_rotation == 0,
        )?;
    }
    Ok(())
}

/// Serialises a model.
pub fn write(mesh: &Source2Mesh) -> Result<Vec<u8>> {
    let mut w = ByteWriter::with_capacity(64 + mesh.areas.len() * 64);
    write_mesh(&mut w, mesh)?;
    Ok(w.into_inner())
}

/// [`write()`] streamed to `out`: the model is first written to a byte counter, so every refusal
/// (an [`io::ErrorKind::InvalidData`] error carrying the [`Error`], see
/// [`nav_core::error::refusal`]) comes before the first byte; then the records go to `out` in
/// 64 KiB blocks, with no copy of the whole file in memory.
pub fn write_to(mesh: &Source2Mesh, out: &mut dyn io::Write) -> io::Result<()> {
    write_mesh(&mut ByteCount::new(), mesh).map_err(nav_core::error::refusal)?;
    let mut stream = BlockStream::new(out);
    write_mesh(&mut stream, mesh).map_err(nav_core::error::refusal)?;
    stream.finish()
}

fn write_mesh(w: &mut impl Sink, mesh: &Source2Mesh) -> Result<()> {
    let layout = Layout::new(mesh.version).ok_or_else(|| {
        refuse(
            "version",
            format_args!(
                "version {} has no layout (30 to 36 are written)",
                mesh.version
            ),
        )
    })?;
    let v = format!("version {}", mesh.version);
    w.u32(MAGIC).u32(mesh.version).u32(mesh.sub_version);
    w.u8(mesh.is_analyzed);
    w.u16(narrow(FORMAT, "places count", mesh.places.len())?);
    for (i, p) in mesh.places.iter().enumerate() {
        w.u16(narrow(
            FORMAT,
            format_args!("places[{i}] length"),
            p.0.len(),
        )?);
        w.bytes(&p.0);
    }
    w.u8(mesh.has_unnamed_areas);
    let v36 = "version 36";
    model_blob(
        w,
        "movable_mesh_settings",
        layout.has_kv3_blobs(),
        &mesh.movable_mesh_settings,
        v36,
    )?;
    if layout.has_polygon_pool() {
        w.u32(narrow(FORMAT, "corners count", mesh.corners.len())?);
        for c in &mesh.corners {
            vec3(w, c);
        }
        w.u32(narrow(FORMAT, "polygons count", mesh.polygons.len())?);
        for (i, p) in mesh.polygons.iter().enumerate() {
            w.u8(narrow(
                FORMAT,
                format_args!("polygons[{i}] corners count"),
                p.corners.len(),
            )?);
            for c in &p.corners {
                w.u32(*c);
            }
            if layout.has_movable_meshes() {
                w.u32(p.movable_mesh_id);
            } else {
                absent(
                    &v,
                    format_args!("polygons[{i}] movable_mesh_id"),
                    p.movable_mesh_id == NO_MOVABLE_MESH,
                )?;
            }
        }
    } else {
        absent(
            &v,
            "corners",
            mesh.corners.is_empty() && mesh.polygons.is_empty(),
        )?;
    }
    if layout.has_corner_gravity() {
        w.u32(mesh.corner_gravity_flags);
        if mesh.corner_gravity_flags & 1 != 0 {
            w.u32(narrow(
                FORMAT,
                "corner_gravity count",
                mesh.corner_gravity.len(),
            )?);
            for c in &mesh.corner_gravity {
                vec3(w, c);
            }
        } else {
            absent(
                "a corner-gravity word without bit 0",
                "corner_gravity",
                mesh.corner_gravity.is_empty(),
            )?;
        }
    } else {
        absent(
            &v,
            "corner_gravity_flags",
            mesh.corner_gravity_flags == 0 && mesh.corner_gravity.is_empty(),
        )?;
    }
    if layout.has_movable_meshes() {
        w.u32(narrow(
            FORMAT,
            "movable_meshes count",
            mesh.movable_meshes.len(),
        )?);
        for (i, m) in mesh.movable_meshes.iter().enumerate() {
            nul_free(&format!("movable_meshes[{i}] id"), &m.id.0)?;
            w.bytes(&m.id.0).u8(0);
            for f in m.transform {
                w.f32(f);
            }
        }
    } else {
        absent(&v, "movable_meshes", mesh.movable_meshes.is_empty())?;
    }
    model_blob(w, "game_data", layout.has_kv3_blobs(), &mesh.game_data, v36)?;
    w.u32(narrow(FORMAT, "areas count", mesh.areas.len())?);
    for (i, a) in mesh.areas.iter().enumerate() {
        w.u32(a.id).u64(a.attribute_flags).u8(a.hull_index);
        let corners = if layout.has_polygon_pool() {
            absent(&v, format_args!("areas[{i}] corners"), a.corners.is_empty())?;
            w.u32(a.polygon);
            let Some(p) = mesh.polygons.get(a.polygon as usize) else {
                return Err(refuse(
                    format_args!("areas[{i}] polygon"),
                    format_args!(
                        "polygon index {} is past the {} polygons",
                        a.polygon,
                        mesh.polygons.len()
                    ),
                ));
            };
            p.corners.len()
        } else {
            absent(&v, format_args!("areas[{i}] polygon"), a.polygon == 0)?;
            w.u32(narrow(
                FORMAT,
                format_args!("areas[{i}] corners count"),
                a.corners.len(),
            )?);
            for c in &a.corners {
                vec3(w, c);
            }
            a.corners.len()
        };
        if a.connections.len() != corners {
            return Err(refuse(
                format_args!("areas[{i}] connections"),
                format_args!(
                    "{} connection lists for {corners} corners: the file stores one list per corner",
                    a.connections.len()
                ),
            ));
        }
        w.f32(a.unknown_float);
        for (e, list) in a.connections.iter().enumerate() {
            w.u32(narrow(
                FORMAT,
                format_args!("areas[{i}] connections[{e}] count"),
                list.len(),
            )?);
            for c in list {
                w.u32(c.area_id).u32(c.edge);
            }
        }
        w.u8(narrow(
            FORMAT,
            format_args!("areas[{i}] hiding_spots count"),
            a.hiding_spots.len(),
        )?);
        for s in &a.hiding_spots {
            w.u32(s.id);
            vec3(w, &s.position);
            w.u8(s.flags);
        }
        w.u32(0);
        for (name, list) in [
            ("ladders_above", &a.ladders_above),
            ("ladders_below", &a.ladders_below),
        ] {
            w.u32(narrow(
                FORMAT,
                format_args!("areas[{i}] {name} count"),
                list.len(),
            )?);
            for id in list {
                w.u32(*id);
            }
        }
    }
    w.u32(narrow(FORMAT, "ladders count", mesh.ladders.len())?);
    for (i, l) in mesh.ladders.iter().enumerate() {
        w.u32(l.id).f32(l.width);
        vec3(w, &l.top);
        vec3(w, &l.bottom);
        w.f32(l.length).u32(l.direction);
        for id in [
            l.top_forward_area_id,
            l.top_left_area_id,
            l.top_right_area_id,
            l.top_behind_area_id,
            l.bottom_area_id,
        ] {
            w.u32(id);
        }
        if layout.has_ladder_bottom_sides() {
            w.u32(l.bottom_left_area_id).u32(l.bottom_right_area_id);
        } else {
            absent(
                &v,
                format_args!("ladders[{i}] bottom_left_area_id"),
                l.bottom_left_area_id == 0 && l.bottom_right_area_id == 0,
            )?;
        }
    }
    w.i32(narrow(
        FORMAT,
        "transformed_bounds count",
        mesh.transformed_bounds.len(),
    )?);
    for b in &mesh.transformed_bounds {
        vec3(w, &b.mins);
        vec3(w, &b.maxs);
        for f in b.transform {
            w.f32(f);
        }
    }
    generation_params(w, &mesh.generation_params)?;
    model_blob(
        w,
        "extra_generation_params",
        layout.has_kv3_blobs(),
        &mesh.extra_generation_params,
        v36,
    )?;
    model_blob(
        w,
        "custom_data",
        has_custom_data(mesh.sub_version),
        &mesh.custom_data,
        "a sub-version above 0",
    )?;
    Ok(())
}

/// Writes straight from a view: every record's borrowed bytes in file order.
// Every length written here was read from a field of the same width, so it fits.
#[allow(clippy::cast_possible_truncation)]
pub fn write_view(view: &Source2View<'_>) -> Result<Vec<u8>> {
    let layout = view.layout();
    let mut w = ByteWriter::with_capacity(view.data().len());
    w.u32(MAGIC).u32(layout.version()).u32(view.sub_version());
    w.u8(view.is_analyzed());
    w.u16(narrow(FORMAT, "places count", view.places().len())?);
    for p in view.places() {
        w.u16(narrow(FORMAT, "places length", p.len())?).bytes(p);
    }
    w.u8(view.has_unnamed_areas());
    if let Some(b) = view.movable_mesh_settings() {
        blob(&mut w, b);
    }
    if layout.has_polygon_pool() {
        w.u32(view.corners().len() as u32).put(view.corners());
        w.u32(view.polygons().len() as u32);
        for p in view.polygons() {
            w.u8(p.corners().len() as u8).put(p.corners());
            if let Some(m) = p.movable_mesh_id() {
                w.put(m);
            }
        }
    }
    if let Some(flags) = view.corner_gravity_flags() {
        w.put(flags);
        if flags.get() & 1 != 0 {
            w.u32(view.corner_gravity().len() as u32)
                .put(view.corner_gravity());
        }
    }
    if layout.has_movable_meshes() {
        w.u32(view.movable_meshes().len() as u32);
        for m in view.movable_meshes() {
            w.bytes(m.id()).u8(0).put(m.transform());
        }
    }
    if let Some(b) = view.game_data() {
        blob(&mut w, b);
    }
    w.u32(view.areas().len() as u32);
    for a in view.areas() {
        w.put(a.id()).put(a.attribute_flags()).u8(a.hull_index());
        match a.polygon() {
            Some(p) => w.put(p),
            None => w.u32(a.corners().len() as u32).put(a.corners()),
        };
        w.put(a.unknown_float());
        w.bytes(a.connections().as_bytes());
        w.u8(a.hiding_spots().len() as u8)
            .put(a.hiding_spots())
            .u32(0);
        w.u32(a.ladders_above().len() as u32).put(a.ladders_above());
        w.u32(a.ladders_below().len() as u32).put(a.ladders_below());
    }
    w.u32(view.ladders().len() as u32)
        .bytes(view.ladders().as_bytes());
    w.i32(view.transformed_bounds().len() as i32)
        .put(view.transformed_bounds());
    generation_params(&mut w, view.generation_params())?;
    for b in [view.extra_generation_params(), view.custom_data()]
        .into_iter()
        .flatten()
    {
        blob(&mut w, b);
    }
    Ok(w.into_inner())
}
