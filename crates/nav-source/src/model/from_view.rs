//! Copying a view into the owned model: [`SourceMesh::from_view`] and [`Area::from_view`].

use nav_core::scalar::{F32, U32};
use nav_core::{RawF32, ShortVec};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use super::{
    ApproachArea, Area, AreaCustom, AreaIds, EncounterPath, EncounterSpot, HidingSpot, Ladder,
    NavString, SourceMesh, TerrorMesh, VisibleArea, VisibleAreaIndex,
};
use crate::view::{
    ApproachRecord, AreaCustomView, AreaView, EncounterPathView, HidingSpots, LadderAreas,
    LadderHead, LadderRecords, SourceView,
};

fn f(v: &F32) -> RawF32 {
    RawF32::from(v)
}

fn f3(v: &[F32; 3]) -> [RawF32; 3] {
    [f(&v[0]), f(&v[1]), f(&v[2])]
}

/// One direction's ids, inside the area when there are up to 4.
fn area_ids(list: &[U32]) -> AreaIds {
    ShortVec::from_slice_map(list, |v| v.get())
}

fn floats<const N: usize>(list: &[F32]) -> [RawF32; N] {
    let mut out = [RawF32::ZERO; N];
    for (o, v) in out.iter_mut().zip(list) {
        *o = f(v);
    }
    out
}

/// Copies records into their model type. The packed 5-byte model records have the stored
/// records' bytes on a little-endian machine: one copy there, `each` record by record elsewhere.
fn records<R, M>(list: &[R], each: impl Fn(&R) -> M) -> Vec<M>
where
    R: IntoBytes + Immutable,
    M: FromBytes + KnownLayout + Immutable + Clone,
{
    if cfg!(target_endian = "little") {
        if let Ok(same) = <[M]>::ref_from_bytes(list.as_bytes()) {
            if same.len() == list.len() {
                return same.to_vec();
            }
        }
    }
    list.iter().map(each).collect()
}

fn approach(list: &[ApproachRecord]) -> Vec<ApproachArea> {
    list.iter()
        .map(|a| ApproachArea {
            here_area_id: a.here_area_id.get(),
            prev_area_id: a.prev_area_id.get(),
            prev_to_here_how: a.prev_to_here_how,
            next_area_id: a.next_area_id.get(),
            here_to_next_how: a.here_to_next_how,
        })
        .collect()
}

impl Area {
    /// Copies one area view into an owned area.
    pub fn from_view(a: &AreaView<'_>) -> Area {
        let hiding_spots = match a.hiding_spots() {
            HidingSpots::Positions(s) => s
                .iter()
                .map(|p| HidingSpot {
                    id: 0,
                    position: f3(p),
                    flags: 0,
                })
                .collect(),
            HidingSpots::Records(s) => s
                .iter()
                .map(|h| HidingSpot {
                    id: h.id.get(),
                    position: f3(&h.position),
                    flags: h.flags,
                })
                .collect(),
        };
        let encounter_paths = a
            .encounter_paths()
            .iter()
            .map(|p| match *p {
                EncounterPathView::Positions { head, spots } => EncounterPath::Positions {
                    from_area_id: head.from_area_id.get(),
                    to_area_id: head.to_area_id.get(),
                    from_position: f3(&head.from_position),
                    to_position: f3(&head.to_position),
                    spots: spots
                        .iter()
                        .map(|s| [f(&s[0]), f(&s[1]), f(&s[2]), f(&s[3])])
                        .collect(),
                },
                EncounterPathView::Spots { head, spots } => EncounterPath::Spots {
                    from_area_id: head.from_area_id.get(),
                    from_direction: head.from_direction,
                    to_area_id: head.to_area_id.get(),
                    to_direction: head.to_direction,
                    spots: ShortVec::from_slice_map(spots, |s| EncounterSpot {
                        hiding_spot_id: s.hiding_spot_id.get(),
                        t: s.t,
                    }),
                },
            })
            .collect();
        let custom = match a.custom() {
            AreaCustomView::None => AreaCustom::None,
            AreaCustomView::CounterStrike { approach_areas } => AreaCustom::CounterStrike {
                approach_areas: approach(approach_areas),
            },
            AreaCustomView::TeamFortress2 { tf_attributes } => AreaCustom::TeamFortress2 {
                tf_attributes: tf_attributes.get(),
            },
            AreaCustomView::Terror {
                spawn_attributes,
                legacy_word,
                fog_place,
                visible_areas,
                inherit_visibility_from,
            } => AreaCustom::Terror {
                spawn_attributes: spawn_attributes.get(),
                legacy_word: legacy_word.map(|w| w.get()),
                fog_place: fog_place.get(),
                visible_areas: records(visible_areas, |v| VisibleAreaIndex {
                    area_index: v.area_index.get(),
                    attributes: v.attributes,
                }),
                inherit_visibility_from: inherit_visibility_from.get(),
            },
        };
        Area {
            id: a.id(),
            attribute_flags: a.attribute_flags(),
            nw_corner: f3(&a.extent().nw_corner),
            se_corner: f3(&a.extent().se_corner),
            ne_z: f(&a.extent().ne_z),
            sw_z: f(&a.extent().sw_z),
            connections: a.connections().map(area_ids),
            hiding_spots,
            approach_areas: approach(a.approach_areas()),
            encounter_paths,
            place: a.place(),
            ladders: a.ladders().map(area_ids),
            earliest_occupy_time: floats(a.earliest_occupy_time()),
            light_intensity: floats(a.light_intensity()),
            visible_areas: records(a.visible_areas(), |v| VisibleArea {
                area_id: v.area_id.get(),
                attributes: v.attributes,
            }),
            inherit_visibility_from: a.inherit_visibility_from(),
            custom,
        }
    }
}

fn ladder(head: &LadderHead, is_dangling: u8, areas: &LadderAreas) -> Ladder {
    Ladder {
        id: head.id.get(),
        width: f(&head.width),
        top: f3(&head.top),
        bottom: f3(&head.bottom),
        length: f(&head.length),
        direction: head.direction.get(),
        is_dangling,
        top_forward_area_id: areas.top_forward_area_id.get(),
        top_left_area_id: areas.top_left_area_id.get(),
        top_right_area_id: areas.top_right_area_id.get(),
        top_behind_area_id: areas.top_behind_area_id.get(),
        bottom_area_id: areas.bottom_area_id.get(),
    }
}

impl SourceMesh {
    /// Copies a view into the owned model.
    pub fn from_view(view: &SourceView<'_>) -> SourceMesh {
        let layout = view.layout();
        let ladders = match view.ladders() {
            LadderRecords::Standard(l) => l.iter().map(|r| ladder(&r.head, 0, &r.areas)).collect(),
            LadderRecords::Version6(l) => l
                .iter()
                .map(|r| ladder(&r.head, r.is_dangling, &r.areas))
                .collect(),
        };
        SourceMesh {
            flavour: layout.flavour,
            version: layout.version,
            sub_version: layout.sub_version,
            bsp_size: view.bsp_size(),
            is_analyzed: view.is_analyzed(),
            places: view
                .places()
                .iter()
                .map(|n| NavString(n.to_vec()))
                .collect(),
            has_unnamed_areas: view.has_unnamed_areas(),
            terror: view.terror().map(|t| TerrorMesh {
                population: NavString(t.population().to_vec()),
                fog_places: t
                    .fog_places()
                    .iter()
                    .map(|n| NavString(n.to_vec()))
                    .collect(),
                max_view_distance: f(t.max_view_distance()),
            }),
            areas: view.areas().iter().map(Area::from_view).collect(),
            ladders,
            stale_tail: view.stale_tail().to_vec(),
        }
    }
}
