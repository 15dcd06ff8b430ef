//! One area of the view: its borrowed record types and the reader that delimits it.
//!
//! An area is a run of counted lists in file order. [`read_area`] walks it once, checking each
//! count against the bytes left, and keeps what it delimited: the parse stores the [`AreaView`]
//! of every area, so the view's getters hand out what was checked and read nothing again.

use nav_core::scalar::{F32, U16, U32};
use nav_core::{Cursor, Result};

use super::{
    ApproachRecord, EncounterPathHead, EncounterSpotRecord, Extent, HidingSpotRecord,
    LegacyEncounterPathHead, VisibleAreaIndexRecord, VisibleAreaRecord,
};
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

/// One area, borrowed. Fields absent at the file's version are empty (or zero). Only the parse
/// builds one, from bytes it checked.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaView<'a> {
    offset: usize,
    id: u32,
    attribute_flags: u32,
    extent: &'a Extent,
    connections: [&'a [U32]; 4],
    hiding_spots: HidingSpots<'a>,
    approach_areas: &'a [ApproachRecord],
    encounter_paths: Box<[EncounterPathView<'a>]>,
    place: u16,
    ladders: [&'a [U32]; 2],
    earliest_occupy_time: &'a [F32],
    light_intensity: &'a [F32],
    visible_areas: &'a [VisibleAreaRecord],
    inherit_visibility_from: u32,
    custom: AreaCustomView<'a>,
}

impl<'a> AreaView<'a> {
    /// Byte offset of the area in the file.
    pub fn offset(&self) -> usize {
        self.offset
    }
    /// The area id.
    pub fn id(&self) -> u32 {
        self.id
    }
    /// Attribute flags, widened from the version's width.
    pub fn attribute_flags(&self) -> u32 {
        self.attribute_flags
    }
    /// Corners.
    pub fn extent(&self) -> &'a Extent {
        self.extent
    }
    /// Connected area ids: north, east, south, west.
    pub fn connections(&self) -> [&'a [U32]; 4] {
        self.connections
    }
    /// Hiding spots.
    pub fn hiding_spots(&self) -> HidingSpots<'a> {
        self.hiding_spots
    }
    /// Base approach areas (before v15).
    pub fn approach_areas(&self) -> &'a [ApproachRecord] {
        self.approach_areas
    }
    /// Encounter paths, in file order.
    pub fn encounter_paths(&self) -> &[EncounterPathView<'a>] {
        &self.encounter_paths
    }
    /// Place index (from v5).
    pub fn place(&self) -> u16 {
        self.place
    }
    /// Ladder ids: up, down (from v7).
    pub fn ladders(&self) -> [&'a [U32]; 2] {
        self.ladders
    }
    /// Earliest occupy times (two entries from v8, else empty).
    pub fn earliest_occupy_time(&self) -> &'a [F32] {
        self.earliest_occupy_time
    }
    /// Light intensity (four entries from v11, else empty).
    pub fn light_intensity(&self) -> &'a [F32] {
        self.light_intensity
    }
    /// Visible areas (from v16, not in the Left 4 Dead flavours).
    pub fn visible_areas(&self) -> &'a [VisibleAreaRecord] {
        self.visible_areas
    }
    /// Inherited visibility area id.
    pub fn inherit_visibility_from(&self) -> u32 {
        self.inherit_visibility_from
    }
    /// Flavour data.
    pub fn custom(&self) -> AreaCustomView<'a> {
        self.custom
    }
}

fn id_list<'a>(cur: &mut Cursor<'a>, i: usize, what: &str, d: usize) -> Result<&'a [U32]> {
    let n = cur.u32(format_args!("areas[{i}] {what}[{d}] count"))?;
    cur.slice(n, format_args!("areas[{i}] {what}[{d}]"))
}

const NO_FLOATS: &[F32] = &[];

/// Reads one area at the cursor, checking every count against the bytes left.
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
        encounter_paths: Box::default(),
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
    // Bounded by the bytes left, so the list below allocates no more than the input holds.
    let n = cur.count(count, min, format_args!("areas[{i}] encounter_paths"))?;
    let mut paths = Vec::with_capacity(n);
    for j in 0..count {
        paths.push(
            read_encounter_path(cur, layout.legacy_encounter_paths(), j)
                .map_err(|e| e.within(format_args!("areas[{i}]")))?,
        );
    }
    area.encounter_paths = paths.into_boxed_slice();
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
