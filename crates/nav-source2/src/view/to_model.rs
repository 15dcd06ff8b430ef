//! [`Source2Mesh::from_view`]: the copy of a parsed file into the owned model.
//!
//! Most of the copy is the areas: a 256-byte record each, its short lists (corners,
//! one connection list per edge) kept inside it. Each is built in one pass over its stored
//! bytes, the lists filled in place, and lists the file leaves empty (hiding spots, ladders in
//! most files) made without going through an iterator.

use nav_core::scalar::{F32, U32};
use nav_core::{RawF32, ShortVec};

use super::records::Bytes;
use super::{AreaView, ConnectionLists, Ladders, RawConnection, RawLadder, RawVec3, Source2View};
use crate::kv3::Kv3Blob;
use crate::layout::NO_MOVABLE_MESH;
use crate::model::{
    Area, ByteString, Connection, ConnectionList, HidingSpot, Ladder, MovableMesh, Polygon,
    Source2Mesh, TransformedBounds,
};

/// Units to map over: [`ShortVec::from_slice_with`] fills a list in place from a slice, and the
/// connection lists are read one after the other from bytes, not from a slice.
const UNITS: [(); 4] = [(); 4];

/// The connection list at the front of `rest` (a `u32` count and its records, checked by the
/// parse), with `rest` moved past it; an unreadable one (impossible after the parse) is empty.
#[inline(always)]
fn connection_list(rest: &mut &[u8]) -> ConnectionList {
    let mut b = Bytes(rest);
    let list: &[RawConnection] = b.u32().and_then(|k| b.slice(k as usize)).unwrap_or(&[]);
    *rest = b.0;
    let connection = |c: &RawConnection| Connection {
        area_id: c.area_id.get(),
        edge: c.edge.get(),
    };
    ShortVec::from_slice_with(list, connection)
}

/// An area's connection lists as the model keeps them, each built in place from its bytes.
#[inline(always)]
fn connection_lists(lists: ConnectionLists<'_>) -> ShortVec<ConnectionList, 4> {
    let mut rest = lists.as_bytes();
    let n = lists.len();
    match UNITS.get(..n) {
        Some(units) => ShortVec::from_slice_with(units, |_| connection_list(&mut rest)),
        None => (0..n).map(|_| connection_list(&mut rest)).collect(),
    }
}

/// The `u32`s of a list, without an iterator when it is empty (as in most areas).
#[inline(always)]
fn ids(list: &[U32]) -> Vec<u32> {
    if list.is_empty() {
        return Vec::new();
    }
    list.iter().map(|v| v.get()).collect()
}

/// One area of the model.
#[inline(always)]
fn area(a: &AreaView<'_>) -> Area {
    let hiding_spots = if a.hiding_spots.is_empty() {
        Vec::new()
    } else {
        a.hiding_spots
            .iter()
            .map(|s| HidingSpot {
                id: s.id.get(),
                position: s.position.get(),
                flags: s.flags,
            })
            .collect()
    };
    Area {
        id: a.id.get(),
        attribute_flags: a.attribute_flags.get(),
        hull_index: a.hull_index,
        polygon: a.polygon.map_or(0, |p| p.get()),
        corners: ShortVec::from_slice_map(a.corners, |c: RawVec3| c.get()),
        unknown_float: (*a.unknown_float).into(),
        connections: connection_lists(a.connections),
        hiding_spots,
        ladders_above: ids(a.ladders_above),
        ladders_below: ids(a.ladders_below),
    }
}

impl Source2Mesh {
    /// Copies a view into the owned model.
    pub fn from_view(view: &Source2View<'_>) -> Source2Mesh {
        let blob = |b: Option<&[u8]>| b.map(|b| Kv3Blob { bytes: b.to_vec() });
        let floats = |f: &[F32; 12]| f.map(RawF32::from);
        let ladder = |l: &RawLadder, sides: [u32; 2]| Ladder {
            id: l.id.get(),
            width: l.width.into(),
            top: l.top.get(),
            bottom: l.bottom.get(),
            length: l.length.into(),
            direction: l.direction.get(),
            top_forward_area_id: l.areas[0].get(),
            top_left_area_id: l.areas[1].get(),
            top_right_area_id: l.areas[2].get(),
            top_behind_area_id: l.areas[3].get(),
            bottom_area_id: l.areas[4].get(),
            bottom_left_area_id: sides[0],
            bottom_right_area_id: sides[1],
        };
        Source2Mesh {
            version: view.version(),
            sub_version: view.sub_version,
            is_analyzed: view.is_analyzed,
            places: view.places.iter().map(|p| ByteString(p.to_vec())).collect(),
            has_unnamed_areas: view.has_unnamed_areas,
            movable_mesh_settings: blob(view.movable_mesh_settings),
            corners: view.corners.iter().map(RawVec3::get).collect(),
            polygons: view
                .polygons
                .iter()
                .map(|p| Polygon {
                    corners: ShortVec::from_slice_map(p.corners, U32::get),
                    movable_mesh_id: p.movable_mesh_id.map_or(NO_MOVABLE_MESH, |m| m.get()),
                })
                .collect(),
            corner_gravity_flags: view.corner_gravity_flags.map_or(0, |w| w.get()),
            corner_gravity: view.corner_gravity.iter().map(RawVec3::get).collect(),
            movable_meshes: view
                .movable_meshes
                .iter()
                .map(|m| MovableMesh {
                    id: ByteString(m.id.to_vec()),
                    transform: floats(m.transform),
                })
                .collect(),
            game_data: blob(view.game_data),
            areas: view.areas.iter().map(area).collect(),
            ladders: match view.ladders {
                Ladders::V30(l) => l.iter().map(|l| ladder(l, [0, 0])).collect(),
                Ladders::V35(l) => l
                    .iter()
                    .map(|l| ladder(&l.base, l.bottom_sides.map(|v| v.get())))
                    .collect(),
            },
            transformed_bounds: view
                .transformed_bounds
                .iter()
                .map(|b| TransformedBounds {
                    mins: b.mins.get(),
                    maxs: b.maxs.get(),
                    transform: floats(&b.transform),
                })
                .collect(),
            generation_params: view.generation_params.clone(),
            extra_generation_params: blob(view.extra_generation_params),
            custom_data: blob(view.custom_data),
        }
    }
}
