//! A readable text dump of a model, for `navkit dump` and the snapshot tests.
//!
//! Header fields, the pool, every area (one line of fixed fields, then a line per non-empty
//! list), ladders, bounds, the generation parameters, and each KV3 blob: its header in one line,
//! then the decoded document as indented `key: value` lines. Long arrays in KV3 documents show
//! their first entries and the exact total, so that a dump of a CS2 map stays readable.

use core::fmt::{self, Write};

use nav_core::scalar::Tuple as V;

use crate::kv3::{Kv3Blob, Kv3Value};
use crate::model::Source2Mesh;

/// Array items shown per KV3 array before the rest is counted.
pub const KV3_ITEMS_SHOWN: usize = 8;

fn scalar(v: &Kv3Value) -> Option<String> {
    Some(match v {
        Kv3Value::Null => "null".into(),
        Kv3Value::Bool(b) => b.to_string(),
        Kv3Value::Int(i) => i.to_string(),
        Kv3Value::UInt(u) => u.to_string(),
        Kv3Value::Float(x) => format!("{x:?}"),
        Kv3Value::Double(x) => format!("{x:?}"),
        Kv3Value::String(s) => format!("{s:?}"),
        Kv3Value::Array(a) if a.is_empty() => "[]".into(),
        Kv3Value::Object(m) if m.is_empty() => "{}".into(),
        Kv3Value::Array(a) if a.len() <= 4 && a.iter().all(scalar_leaf) => {
            let items: Vec<String> = a.iter().filter_map(scalar).collect();
            format!("[{}]", items.join(", "))
        }
        _ => return None,
    })
}

fn scalar_leaf(v: &Kv3Value) -> bool {
    !matches!(v, Kv3Value::Array(_) | Kv3Value::Object(_))
}

/// Writes a decoded KV3 value as indented lines.
pub fn kv3_value(out: &mut dyn Write, indent: usize, key: &str, v: &Kv3Value) -> fmt::Result {
    let pad = "  ".repeat(indent);
    if let Some(s) = scalar(v) {
        return writeln!(out, "{pad}{key}: {s}");
    }
    match v {
        Kv3Value::Array(items) => {
            writeln!(out, "{pad}{key}: array of {}", items.len())?;
            for (i, item) in items.iter().take(KV3_ITEMS_SHOWN).enumerate() {
                kv3_value(out, indent + 1, &format!("[{i}]"), item)?;
            }
            if items.len() > KV3_ITEMS_SHOWN {
                writeln!(out, "{pad}  ... {} more", items.len() - KV3_ITEMS_SHOWN)?;
            }
            Ok(())
        }
        Kv3Value::Object(members) => {
            writeln!(out, "{pad}{key}:")?;
            for (k, m) in members {
                kv3_value(out, indent + 1, k, m)?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

fn blob(out: &mut dyn Write, name: &str, b: &Option<Kv3Blob>) -> fmt::Result {
    let Some(b) = b else {
        return Ok(());
    };
    match b.header() {
        Ok(h) => writeln!(
            out,
            "{name}: KV3 v{} {} format {} ({} bytes, body {})",
            h.version,
            h.compression_name(),
            h.format_guid(),
            b.bytes.len(),
            h.body_len
        )?,
        Err(e) => writeln!(out, "{name}: {} bytes, unreadable: {e}", b.bytes.len())?,
    }
    match b.decode() {
        Ok(doc) => kv3_value(out, 1, "root", &doc.root),
        Err(e) => writeln!(out, "  does not decode: {e}"),
    }
}

/// Writes the dump of `mesh` to `out`.
pub fn dump(mesh: &Source2Mesh, out: &mut dyn Write) -> fmt::Result {
    writeln!(
        out,
        "nav-source2 version {} sub-version {} is_analyzed {} has_unnamed_areas {}",
        mesh.version, mesh.sub_version, mesh.is_analyzed, mesh.has_unnamed_areas
    )?;
    writeln!(out, "places ({}):", mesh.places.len())?;
    for (i, p) in mesh.places.iter().enumerate() {
        writeln!(out, "  [{}] {p:?}", i + 1)?;
    }
    blob(out, "movable_mesh_settings", &mesh.movable_mesh_settings)?;
    if mesh.version >= 31 {
        writeln!(out, "corners ({}):", mesh.corners.len())?;
        for (i, c) in mesh.corners.iter().enumerate() {
            writeln!(out, "  [{i}] {}", V(c))?;
        }
        writeln!(out, "polygons ({}):", mesh.polygons.len())?;
        for (i, p) in mesh.polygons.iter().enumerate() {
            writeln!(
                out,
                "  [{i}] corners {:?} movable_mesh_id {:#x}",
                p.corners, p.movable_mesh_id
            )?;
        }
    }
    if mesh.version >= 32 {
        writeln!(
            out,
            "corner_gravity_flags {:#x} corner_gravity ({})",
            mesh.corner_gravity_flags,
            mesh.corner_gravity.len()
        )?;
    }
    if mesh.version >= 35 {
        writeln!(out, "movable_meshes ({}):", mesh.movable_meshes.len())?;
        for (i, m) in mesh.movable_meshes.iter().enumerate() {
            writeln!(out, "  [{i}] {:?} transform {}", m.id, V(&m.transform))?;
        }
    }
    blob(out, "game_data", &mesh.game_data)?;
    writeln!(out, "areas ({}):", mesh.areas.len())?;
    for (i, a) in mesh.areas.iter().enumerate() {
        write!(
            out,
            "  [{i}] id {} attributes {:#x} hull {} unknown_float {}",
            a.id, a.attribute_flags, a.hull_index, a.unknown_float
        )?;
        if mesh.version >= 31 {
            writeln!(out, " polygon {}", a.polygon)?;
        } else {
            writeln!(out)?;
            let c: Vec<String> = a.corners.iter().map(|c| V(c).to_string()).collect();
            writeln!(out, "    corners ({}): {}", c.len(), c.join(" "))?;
        }
        for (e, list) in a.connections.iter().enumerate() {
            if !list.is_empty() {
                let l: Vec<(u32, u32)> = list.iter().map(|c| (c.area_id, c.edge)).collect();
                writeln!(out, "    edge {e} connections (area, edge): {l:?}")?;
            }
        }
        for s in &a.hiding_spots {
            writeln!(
                out,
                "    hiding spot id {} at {} flags {:#x}",
                s.id,
                V(&s.position),
                s.flags
            )?;
        }
        if !a.ladders_above.is_empty() {
            writeln!(out, "    ladders above {:?}", a.ladders_above)?;
        }
        if !a.ladders_below.is_empty() {
            writeln!(out, "    ladders below {:?}", a.ladders_below)?;
        }
    }
    writeln!(out, "ladders ({}):", mesh.ladders.len())?;
    for (i, l) in mesh.ladders.iter().enumerate() {
        let ids: Vec<u32> = l.area_ids().iter().map(|(_, id)| *id).collect();
        writeln!(
            out,
            "  [{i}] id {} width {} top {} bottom {} length {} direction {} areas (top forward, left, right, behind, bottom, bottom left, bottom right) {ids:?}",
            l.id,
            l.width,
            V(&l.top),
            V(&l.bottom),
            l.length,
            l.direction
        )?;
    }
    writeln!(
        out,
        "transformed_bounds ({}):",
        mesh.transformed_bounds.len()
    )?;
    for (i, b) in mesh.transformed_bounds.iter().enumerate() {
        writeln!(
            out,
            "  [{i}] mins {} maxs {} transform {}",
            V(&b.mins),
            V(&b.maxs),
            V(&b.transform)
        )?;
    }
    let p = &mesh.generation_params;
    writeln!(
        out,
        "generation_params nav_gen_version {} use_project_defaults {} tile {} cell {} x {} regions {}/{} sample {} {} edge {} {} verts_per_poly {} small_area_removal {} preset {:?} definitions {:?} gravity_follows_rotation {}",
        p.nav_gen_version,
        p.use_project_defaults,
        p.tile_size,
        p.cell_size,
        p.cell_height,
        p.min_region_size,
        p.merged_region_size,
        p.mesh_sample_distance,
        p.max_sample_error,
        p.max_edge_length,
        p.max_edge_error,
        p.verts_per_poly,
        p.small_area_on_edge_removal,
        p.hull_preset_name,
        p.hull_definitions_file,
        p.gravity_follows_rotation
    )?;
    writeln!(
        out,
        "hulls (count {}, {} stored):",
        p.hull_count,
        p.hulls.len()
    )?;
    for (i, h) in p.hulls.iter().enumerate() {
        writeln!(
            out,
            "  [{i}] enabled {} radius {} height {} short {} {} crawl {} {} climb {} slope {} jump down {} horizontal {} up {} border_erosion {}",
            h.enabled,
            h.radius,
            h.height,
            h.short_height_enabled,
            h.short_height,
            h.agent_crawl_enabled,
            h.agent_crawl_height,
            h.max_climb,
            h.max_slope,
            h.max_jump_down_dist,
            h.max_jump_horiz_dist_base,
            h.max_jump_up_dist,
            h.border_erosion
        )?;
    }
    blob(
        out,
        "extra_generation_params",
        &mesh.extra_generation_params,
    )?;
    blob(out, "custom_data", &mesh.custom_data)
}
