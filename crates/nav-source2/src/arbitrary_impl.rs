//! `Arbitrary` for [`Source2Mesh`] that produces mostly-writable models.
//!
//! A derived implementation would almost never produce a model that fits its version (one
//! connection list per corner, fields the version does not store left at zero), so fuzzing would
//! spend its time on refusals. This one picks a version and a generator version, then fits each
//! part to them, and leaves one model in sixteen as drawn so that the writer's refusals are
//! exercised too.

use arbitrary::{Arbitrary, Result, Unstructured};
use nav_core::{RawF32, ShortVec};

use crate::kv3::Kv3Blob;
use crate::layout::{Layout, NO_MOVABLE_MESH, has_custom_data};
use crate::model::{GenerationParams, Source2Mesh};

fn blob(u: &mut Unstructured<'_>, on: bool) -> Result<Option<Kv3Blob>> {
    Ok(if on { Some(u.arbitrary()?) } else { None })
}

fn conform_params(p: &mut GenerationParams) {
    let g = p.layout();
    if !g.has_small_area_removal() {
        p.small_area_on_edge_removal = RawF32::ZERO;
    }
    if g.has_hull_preset() {
        p.hull_preset_name.0.retain(|b| *b != 0);
        p.hull_definitions_file.0.retain(|b| *b != 0);
    } else {
        p.hull_preset_name.0.clear();
        p.hull_definitions_file.0.clear();
    }
    p.hulls.truncate(8);
    p.hull_count = i32::try_from(p.hulls.len()).unwrap_or(0);
    if !g.has_hull_preset() {
        let filler = p.hulls.first().copied().unwrap_or_default();
        p.hulls.resize(p.hulls.len().max(3), filler);
    }
    for h in &mut p.hulls {
        if !g.has_hull_short_height() {
            (h.enabled, h.short_height_enabled, h.short_height) = (0, 0, RawF32::ZERO);
        }
        if !g.has_hull_crawl() {
            (h.agent_crawl_enabled, h.agent_crawl_height) = (0, RawF32::ZERO);
        }
        if !g.has_hull_border_erosion() {
            h.border_erosion = 0;
        }
    }
    if !g.has_gravity_follows_rotation() {
        p.gravity_follows_rotation = 0;
    }
}

impl<'a> Arbitrary<'a> for Source2Mesh {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let raw = u.ratio(1, 16)?;
        let version = 30 + u32::from(u.int_in_range(0u8..=6)?);
        let sub_version = if u.ratio(1, 8)? {
            u.arbitrary()?
        } else {
            u32::from(u.arbitrary::<bool>()?)
        };
        let mut m = Source2Mesh {
            version,
            sub_version,
            is_analyzed: u.arbitrary()?,
            places: u.arbitrary()?,
            has_unnamed_areas: u.arbitrary()?,
            corners: u.arbitrary()?,
            polygons: u.arbitrary()?,
            corner_gravity_flags: u.arbitrary()?,
            corner_gravity: u.arbitrary()?,
            movable_meshes: u.arbitrary()?,
            areas: u.arbitrary()?,
            ladders: u.arbitrary()?,
            transformed_bounds: u.arbitrary()?,
            generation_params: u.arbitrary()?,
            ..Source2Mesh::default()
        };
        m.generation_params.nav_gen_version = u.int_in_range(5..=14)?;
        let Some(layout) = Layout::new(version) else {
            return Ok(m);
        };
        let v36 = layout.has_kv3_blobs();
        m.movable_mesh_settings = blob(u, v36)?;
        m.game_data = blob(u, v36)?;
        m.extra_generation_params = blob(u, v36)?;
        m.custom_data = blob(u, has_custom_data(sub_version))?;
        if raw {
            return Ok(m);
        }
        conform_params(&mut m.generation_params);
        m.places.truncate(8);
        for p in &mut m.places {
            p.0.truncate(64);
        }
        if !layout.has_polygon_pool() {
            m.corners.clear();
            m.polygons.clear();
        }
        for p in &mut m.polygons {
            p.corners.truncate(255);
            if !layout.has_movable_meshes() {
                p.movable_mesh_id = NO_MOVABLE_MESH;
            }
        }
        if !layout.has_corner_gravity() {
            m.corner_gravity_flags = 0;
        }
        if m.corner_gravity_flags & 1 == 0 {
            m.corner_gravity.clear();
        }
        if layout.has_movable_meshes() {
            for mm in &mut m.movable_meshes {
                mm.id.0.retain(|b| *b != 0);
            }
        } else {
            m.movable_meshes.clear();
        }
        if layout.has_polygon_pool() && m.polygons.is_empty() && !m.areas.is_empty() {
            m.polygons.push(crate::model::Polygon::default());
        }
        let polygons = m.polygons.len();
        for a in &mut m.areas {
            let corners = if layout.has_polygon_pool() {
                a.corners.clear();
                a.polygon %= u32::try_from(polygons).unwrap_or(1).max(1);
                m.polygons
                    .get(a.polygon as usize)
                    .map_or(0, |p| p.corners.len())
            } else {
                a.polygon = 0;
                a.corners.len()
            };
            a.connections.resize(corners, ShortVec::new());
            a.hiding_spots.truncate(255);
        }
        if !layout.has_ladder_bottom_sides() {
            for l in &mut m.ladders {
                (l.bottom_left_area_id, l.bottom_right_area_id) = (0, 0);
            }
        }
        Ok(m)
    }
}
