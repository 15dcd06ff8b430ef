//! `Arbitrary` for [`SourceMesh`] that produces mostly-writable models.
//!
//! A derived implementation would almost never produce a model whose fields match its version
//! and flavour, so fuzzing would spend its time on refusals. This one picks a version, a
//! flavour and a matching sub-version, then clears or fills each area's fields to fit, and
//! leaves one model in sixteen as drawn so that the writer's refusals are exercised too.

use arbitrary::{Arbitrary, Result, Unstructured};
use nav_core::{RawF32, ShortVec};

use crate::flavour::{Flavour, Layout};
use crate::model::{Area, AreaCustom, EncounterPath, SourceMesh, TerrorMesh};

fn conform_area(area: &mut Area, layout: &Layout, u: &mut Unstructured<'_>) -> Result<()> {
    area.attribute_flags &= match layout.attribute_width() {
        1 => 0xff,
        2 => 0xffff,
        _ => u32::MAX,
    };
    area.hiding_spots.truncate(255);
    if layout.legacy_hiding_spots() {
        for s in &mut area.hiding_spots {
            s.id = 0;
            s.flags = 0;
        }
    }
    if layout.has_base_approach() {
        area.approach_areas.truncate(255);
    } else {
        area.approach_areas.clear();
    }
    let legacy = layout.legacy_encounter_paths();
    for p in &mut area.encounter_paths {
        let is_legacy = matches!(p, EncounterPath::Positions { .. });
        if is_legacy != legacy {
            *p = if legacy {
                EncounterPath::Positions {
                    from_area_id: u.arbitrary()?,
                    to_area_id: u.arbitrary()?,
                    from_position: u.arbitrary()?,
                    to_position: u.arbitrary()?,
                    spots: Vec::new(),
                }
            } else {
                EncounterPath::Spots {
                    from_area_id: u.arbitrary()?,
                    from_direction: u.arbitrary()?,
                    to_area_id: u.arbitrary()?,
                    to_direction: u.arbitrary()?,
                    spots: ShortVec::new(),
                }
            };
        }
        match p {
            EncounterPath::Positions { spots, .. } => spots.truncate(255),
            EncounterPath::Spots { spots, .. } => spots.truncate(255),
        }
    }
    if !layout.has_places() {
        area.place = 0;
    }
    if !layout.has_area_ladders() {
        area.ladders = Default::default();
    }
    if !layout.has_occupy_times() {
        area.earliest_occupy_time = [RawF32::ZERO; 2];
    }
    if !layout.has_light_intensity() {
        area.light_intensity = [RawF32::ZERO; 4];
    }
    if !layout.has_base_visibility() {
        area.visible_areas.clear();
        area.inherit_visibility_from = 0;
    }
    area.custom = if layout.has_cs_approach() {
        let mut approach_areas: Vec<_> = u.arbitrary()?;
        approach_areas.truncate(255);
        AreaCustom::CounterStrike { approach_areas }
    } else if layout.has_tf_attributes() {
        AreaCustom::TeamFortress2 {
            tf_attributes: u.arbitrary()?,
        }
    } else if layout.is_terror() {
        AreaCustom::Terror {
            spawn_attributes: u.arbitrary()?,
            legacy_word: if layout.has_terror_legacy_word() {
                Some(u.arbitrary()?)
            } else {
                None
            },
            fog_place: u.arbitrary()?,
            visible_areas: u.arbitrary()?,
            inherit_visibility_from: u.arbitrary()?,
        }
    } else {
        AreaCustom::None
    };
    Ok(())
}

impl<'a> Arbitrary<'a> for SourceMesh {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let raw = u.ratio(1, 16)?;
        let version = if raw {
            u.arbitrary()?
        } else {
            *u.choose(&[
                1u32, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16,
            ])?
        };
        let flavour: Flavour = u.arbitrary()?;
        let flavour = if version < 10 && !raw {
            Flavour::Base
        } else {
            flavour
        };
        let sub_version = if version < 10 && !raw {
            0
        } else if raw {
            u.arbitrary()?
        } else {
            match flavour {
                Flavour::Base => *u.choose(&[0u32, 0, 3, 7, 12])?,
                Flavour::CounterStrike => 1,
                Flavour::TeamFortress2 => 2,
                Flavour::Left4Dead => *u.choose(&[12u32, 13])?,
                Flavour::Left4Dead2 => 14,
            }
        };
        let layout = Layout {
            version,
            sub_version,
            flavour,
        };
        let mut mesh = SourceMesh::new(flavour, version, sub_version);
        mesh.bsp_size = u.arbitrary()?;
        mesh.is_analyzed = u.arbitrary()?;
        mesh.places = u.arbitrary()?;
        mesh.has_unnamed_areas = u.arbitrary()?;
        mesh.areas = u.arbitrary()?;
        mesh.ladders = u.arbitrary()?;
        mesh.stale_tail = u.arbitrary()?;
        if flavour.is_terror() {
            let mut t: TerrorMesh = u.arbitrary()?;
            t.population.0.retain(|b| *b != 0);
            mesh.terror = Some(t);
        }
        if raw {
            return Ok(mesh);
        }
        if !layout.has_bsp_size() {
            mesh.bsp_size = 0;
        }
        if !layout.has_is_analyzed() {
            mesh.is_analyzed = 0;
        }
        if !layout.has_places() {
            mesh.places.clear();
        }
        if !layout.has_unnamed_areas_byte() {
            mesh.has_unnamed_areas = 0;
        }
        if !layout.has_ladders() {
            mesh.ladders.clear();
        }
        for l in &mut mesh.ladders {
            if !layout.has_dangling_byte() {
                l.is_dangling = 0;
            }
        }
        if !layout.allows_stale_tail() {
            mesh.stale_tail.clear();
        }
        for area in &mut mesh.areas {
            conform_area(area, &layout, u)?;
        }
        Ok(mesh)
    }
}
