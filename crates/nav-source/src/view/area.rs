//! One area of the view: its borrowed record types and the reader that delimits it.
//!
//! An area is a run of counted lists in file order. [`read_area`] walks it once, checking each
//! count against the bytes left; the parse calls it for every area, and the view's getters call
//! it again on bytes the parse accepted, which cannot fail.

use nav_core::scalar::{F32, U16, U32};
use nav_core::{Cursor, Result};

use super::{
    ApproachRecord, EncounterPathHead, EncounterSpotRecord, Extent, HidingSpotRecord,
    LegacyEncounterPathHead, VisibleAreaIndexRecord, VisibleAreaRecord,
};
use crate::FORMAT;
use crate::flavour::Layout;

/// Hiding spots: bare positions in v1, full records from v2.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum HidingSpots<'a> {
    /// v1: positions only.
    Positions(&'a [[F32; 3]]),
    /// v2 and up.
    Records(&'a [HidingSpotRecord]),
}

impl HidingSpots<'_> {
    /// Number of spots.
    pub fn len(&self) -> usize {
        match self {
            HidingSpots::Positions(s) => s.len(),
            HidingSpots::Records(s) => s.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One encounter path, borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EncounterPathView<'a> {
    /// v1/v2 layout.
    Positions {
        /// The fixed head.
        head: &'a LegacyEncounterPathHead,
        /// Spots: x, y, z and the path parameter.
        spots: &'a [[F32; 4]],
    },
    /// v3+ layout.
    Spots {
        /// The fixed head.
        head: &'a EncounterPathHead,
        /// Spots naming hiding spots.
        spots: &'a [EncounterSpotRecord],
    },
}

/// The encounter paths of one area, already delimited.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EncounterPaths<'a> {
    bytes: &'a [u8],
    count: u32,
    legacy: bool,
}

impl<'a> EncounterPaths<'a> {
    /// Number of paths.
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The stored bytes of the paths (without the count).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The paths in file order.
    pub fn iter(&self) -> impl Iterator<Item = EncounterPathView<'a>> + 'a {
        let mut cur = Cursor::new(FORMAT, self.bytes);
        let legacy = self.legacy;
        core::iter::from_fn(move || read_encounter_path(&mut cur, legacy, 0).ok())
            .take(self.count as usize)
    }
}

fn read_encounter_path<'a>(
    cur: &mut Cursor<'a>,
    legacy: bool,
    j: u32,
) -> Result<EncounterPathView<'a>> {
    if legacy {
        let head: &LegacyEncounterPathHead = cur.read(format_args!("encounter_paths[{j}]"))?;
        let spots = cur.slice(head.spot_count, format_args!("encounter_paths[{j}] spots"))?;
        Ok(EncounterPathView::Positions { head, spots })
    } else {
        let head: &EncounterPathHead = cur.read(format_args!("encounter_paths[{j}]"))?;
        let spots = cur.slice(head.spot_count, format_args!("encounter_paths[{j}] spots"))?;
        Ok(EncounterPathView::Spots { head, spots })
    }
}

/// The flavour's per-area data, borrowed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AreaCustomView<'a> {
    /// None.
    None,
    /// CS approach list.
    CounterStrike {
        /// Approach areas.
        approach_areas: &'a [ApproachRecord],
    },
    /// TF2 attribute word.
    TeamFortress2 {
        /// TF attribute flags.
        tf_attributes: &'a U32,
    },
    /// Left 4 Dead block.
    Terror {
        /// Spawn attribute flags.
        spawn_attributes: &'a U32,
        /// The unnamed word of sub-versions before 13 (`None` from 13).
        legacy_word: Option<&'a U32>,
        /// Fog place index.
        fog_place: &'a U16,
        /// Visible areas (by index from sub-version 14, by id before).
        visible_areas: &'a [VisibleAreaIndexRecord],
        /// Inherited visibility area id.
        inherit_visibility_from: &'a U32,
    },
}

/// One area, borrowed. Fields absent at the file's version are empty (or zero).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AreaView<'a> {
    /// Byte offset of the area in the file.
    pub offset: usize,
    /// The area id.
    pub id: u32,
    /// Attribute flags, widened from the version's width.
    pub attribute_flags: u32,
    /// Corners.
    pub extent: &'a Extent,
    /// Connected area ids: north, east, south, west.
    pub connections: [&'a [U32]; 4],
    /// Hiding spots.
    pub hiding_spots: HidingSpots<'a>,
    /// Base approach areas (before v15).
    pub approach_areas: &'a [ApproachRecord],
    /// Encounter paths.
    pub encounter_paths: EncounterPaths<'a>,
    /// Place index (from v5).
    pub place: u16,
    /// Ladder ids: up, down (from v7).
    pub ladders: [&'a [U32]; 2],
    /// Earliest occupy times (two entries from v8, else empty).
    pub earliest_occupy_time: &'a [F32],
    /// Light intensity (four entries from v11, else empty).
    pub light_intensity: &'a [F32],
    /// Visible areas (from v16, not in the Left 4 Dead flavours).
    pub visible_areas: &'a [VisibleAreaRecord],
    /// Inherited visibility area id.
    pub inherit_visibility_from: u32,
    /// Flavour data.
    pub custom: AreaCustomView<'a>,
}

fn id_list<'a>(cur: &mut Cursor<'a>, i: usize, what: &str, d: usize) -> Result<&'a [U32]> {
    let n = cur.u32(format_args!("areas[{i}] {what}[{d}] count"))?;
    cur.slice(n, format_args!("areas[{i}] {what}[{d}]"))
}

const NO_FLOATS: &[F32] = &[];

/// Reads one area at the cursor. Used by the parse (which checks) and by the getters (which
/// re-read bytes the parse already accepted).
pub(super) fn read_area<'a>(
    cur: &mut Cursor<'a>,
    layout: &Layout,
    i: usize,
) -> Result<AreaView<'a>> {
    let offset = cur.offset();
    let id = cur.u32(format_args!("areas[{i}] id"))?;
    let attribute_flags = match layout.attribute_width() {
        1 => u32::from(cur.u8(format_args!("areas[{i}] attribute_flags"))?),
        2 => u32::from(cur.u16(format_args!("areas[{i}] attribute_flags"))?),
        _ => cur.u32(format_args!("areas[{i}] attribute_flags"))?,
    };
    let extent: &Extent = cur.read(format_args!("areas[{i}] extent"))?;
    let connections = [
        id_list(cur, i, "connections", 0)?,
        id_list(cur, i, "connections", 1)?,
        id_list(cur, i, "connections", 2)?,
        id_list(cur, i, "connections", 3)?,
    ];
    let n = cur.u8(format_args!("areas[{i}] hiding_spots count"))?;
    let hiding_spots = if layout.legacy_hiding_spots() {
        HidingSpots::Positions(cur.slice(n, format_args!("areas[{i}] hiding_spots"))?)
    } else {
        HidingSpots::Records(cur.slice(n, format_args!("areas[{i}] hiding_spots"))?)
    };
    let mut area = AreaView {
        offset,
        id,
        attribute_flags,
        extent,
        connections,
        hiding_spots,
        approach_areas: &[],
        encounter_paths: EncounterPaths {
            bytes: &[],
            count: 0,
            legacy: layout.legacy_encounter_paths(),
        },
        place: 0,
        ladders: [&[], &[]],
        earliest_occupy_time: NO_FLOATS,
        light_intensity: NO_FLOATS,
        visible_areas: &[],
        inherit_visibility_from: 0,
        custom: AreaCustomView::None,
    };
    if layout.has_base_approach() {
        let n = cur.u8(format_args!("areas[{i}] approach_areas count"))?;
        area.approach_areas = cur.slice(n, format_args!("areas[{i}] approach_areas"))?;
    }
    let count = cur.u32(format_args!("areas[{i}] encounter_paths count"))?;
    let min = if layout.legacy_encounter_paths() {
        33
    } else {
        11
    };
    cur.count(count, min, format_args!("areas[{i}] encounter_paths"))?;
    let start = cur.offset();
    for j in 0..count {
        read_encounter_path(cur, layout.legacy_encounter_paths(), j)
            .map_err(|e| e.within(format_args!("areas[{i}]")))?;
    }
    area.encounter_paths.bytes = cur.data().get(start..cur.offset()).unwrap_or(&[]);
    area.encounter_paths.count = count;
    if layout.has_places() {
        area.place = cur.u16(format_args!("areas[{i}] place"))?;
    }
    if layout.has_area_ladders() {
        area.ladders = [
            id_list(cur, i, "ladders", 0)?,
            id_list(cur, i, "ladders", 1)?,
        ];
    }
    if layout.has_occupy_times() {
        area.earliest_occupy_time =
            cur.slice(2u8, format_args!("areas[{i}] earliest_occupy_time"))?;
    }
    if layout.has_light_intensity() {
        area.light_intensity = cur.slice(4u8, format_args!("areas[{i}] light_intensity"))?;
    }
    if layout.has_base_visibility() {
        let n = cur.u32(format_args!("areas[{i}] visible_areas count"))?;
        area.visible_areas = cur.slice(n, format_args!("areas[{i}] visible_areas"))?;
        area.inherit_visibility_from =
            cur.u32(format_args!("areas[{i}] inherit_visibility_from"))?;
    }
    if layout.has_cs_approach() {
        let n = cur.u8(format_args!("areas[{i}] cs approach_areas count"))?;
        let approach_areas = cur.slice(n, format_args!("areas[{i}] cs approach_areas"))?;
        area.custom = AreaCustomView::CounterStrike { approach_areas };
    } else if layout.has_tf_attributes() {
        let tf_attributes = cur.read(format_args!("areas[{i}] tf_attributes"))?;
        area.custom = AreaCustomView::TeamFortress2 { tf_attributes };
    } else if layout.is_terror() {
        let spawn_attributes = cur.read(format_args!("areas[{i}] spawn_attributes"))?;
        let legacy_word = if layout.has_terror_legacy_word() {
            Some(cur.read(format_args!("areas[{i}] legacy_word"))?)
        } else {
            None
        };
        let fog_place = cur.read(format_args!("areas[{i}] fog_place"))?;
        let n = cur.u32(format_args!("areas[{i}] visible_areas count"))?;
        let visible_areas = cur.slice(n, format_args!("areas[{i}] visible_areas"))?;
        let inherit_visibility_from =
            cur.read(format_args!("areas[{i}] inherit_visibility_from"))?;
        area.custom = AreaCustomView::Terror {
            spawn_attributes,
            legacy_word,
            fog_place,
            visible_areas,
            inherit_visibility_from,
        };
    }
    Ok(area)
}
