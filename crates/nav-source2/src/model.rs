//! The owned, editable model of a Source 2 `.nav` file.
//!
//! Plain Rust types with floats kept by their bits ([`RawF32`]) and every field the file stores,
//! named after the public readers where they name it. A field that the model's version (or
//! generator version) does not store must hold its default; the writer refuses anything else
//! rather than drop it. Counts are not stored where they sit right before their list; the two
//! that are not (`hull_count`, which may be below the hull records stored, and the corner count
//! of an area, which is its polygon's) are checked by the writer.

use nav_core::{RawF32, ShortVec};

use crate::kv3::{CUSTOM_DATA_FORMAT, GENERIC_FORMAT, Kv3Blob, Kv3Value, empty_kv3, kv3_v5};
use crate::layout::{GenLayout, Layout, NO_MOVABLE_MESH, has_custom_data};

/// Three floats by their bits: a position or a direction.
pub type Vec3 = [RawF32; 3];

/// A byte string as the file stores it (a place name, a movable-mesh id, a hull preset name).
///
/// In JSON it is a string when the bytes are UTF-8, and an array of byte values otherwise; both
/// forms read back to the same bytes.
#[derive(Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ByteString(pub Vec<u8>);

impl ByteString {
    /// The bytes of `text`.
    pub fn from_text(text: &str) -> Self {
        ByteString(text.as_bytes().to_vec())
    }

    /// The text, lossily decoded.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0).into_owned()
    }
}

impl core::fmt::Debug for ByteString {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", self.text())
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::ByteString;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for ByteString {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            nav_core::bytes::serialize_text_or_bytes(&self.0, s)
        }
    }

    impl<'de> Deserialize<'de> for ByteString {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            nav_core::bytes::deserialize_text_or_bytes(d).map(ByteString)
        }
    }
}

/// A whole Source 2 `.nav` file.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Source2Mesh {
    /// The file version, 30 to 36.
    pub version: u32,
    /// The sub-version; above 0 the file ends with the custom-data KV3 blob.
    pub sub_version: u32,
    /// The `isAnalyzed` byte.
    pub is_analyzed: u8,
    /// The place directory: each name's stored bytes (a `u16` length, then the bytes). Empty in
    /// every known file.
    pub places: Vec<ByteString>,
    /// The "has unnamed areas" byte after the place directory.
    pub has_unnamed_areas: u8,
    /// v36: the KV3 blob after the header (movable-mesh settings).
    pub movable_mesh_settings: Option<Kv3Blob>,
    /// v31+: the shared corner pool.
    pub corners: Vec<Vec3>,
    /// v31+: the polygons over the corner pool.
    pub polygons: Vec<Polygon>,
    /// v32+: the corner-gravity word; bit 0 says that `corner_gravity` is stored.
    pub corner_gravity_flags: u32,
    /// v32+, when bit 0 of the flags is set: a gravity direction per pool corner.
    pub corner_gravity: Vec<Vec3>,
    /// v35+: movable meshes.
    pub movable_meshes: Vec<MovableMesh>,
    /// v36: the KV3 blob before the areas (game data).
    pub game_data: Option<Kv3Blob>,
    /// The areas, in file order.
    pub areas: Vec<Area>,
    /// The ladders.
    pub ladders: Vec<Ladder>,
    /// Transformed bounds.
    pub transformed_bounds: Vec<TransformedBounds>,
    /// The generation parameters.
    pub generation_params: GenerationParams,
    /// v36: the KV3 blob after the generation parameters (extra generation parameters).
    pub extra_generation_params: Option<Kv3Blob>,
    /// The trailing KV3 blob of custom data (present exactly when the sub-version is above 0);
    /// CS2 keeps its bot analysis (`arealist`) here.
    pub custom_data: Option<Kv3Blob>,
}

/// A polygon of the shared pool (v31+).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Polygon {
    /// Indices into [`Source2Mesh::corners`] (at most 255), up to 4 kept inline.
    pub corners: ShortVec<u32, 4>,
    /// v35+: the movable mesh the polygon belongs to; [`NO_MOVABLE_MESH`] for the static world
    /// (and in files before v35, which do not store it).
    pub movable_mesh_id: u32,
}

impl Default for Polygon {
    fn default() -> Self {
        Polygon {
            corners: ShortVec::new(),
            movable_mesh_id: NO_MOVABLE_MESH,
        }
    }
}

/// A movable mesh (v35+): an id and 48 bytes read as a 3×4 transform.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct MovableMesh {
    /// The id as stored before its NUL (integers separated by colons); may not contain a NUL.
    pub id: ByteString,
    /// The 12 floats after the id.
    pub transform: [RawF32; 12],
}

/// One area.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Area {
    /// The area id.
    pub id: u32,
    /// Attribute flags (stored as a signed 64-bit value; kept by its bits).
    pub attribute_flags: u64,
    /// The hull the area was generated for.
    pub hull_index: u8,
    /// v31+: index into [`Source2Mesh::polygons`] (0 in v30 files).
    pub polygon: u32,
    /// v30: the corners, stored in the area (empty from v31); up to 4 kept inline.
    pub corners: ShortVec<Vec3, 4>,
    /// A float after the corners, 0 in every known file but one (read as unused by the public
    /// readers).
    pub unknown_float: RawF32,
    /// The connections of each edge: one list per corner, edge `i` running from corner `i` to
    /// corner `i + 1`. Up to 4 lists of up to 2 connections each are kept inside the area, so
    /// that copying a file into a model does not allocate per area.
    pub connections: ShortVec<ConnectionList, 4>,
    /// Hiding spots (at most 255).
    pub hiding_spots: Vec<HidingSpot>,
    /// Ids of the ladders above.
    pub ladders_above: Vec<u32>,
    /// Ids of the ladders below.
    pub ladders_below: Vec<u32>,
}

/// The connections across one edge of an area (up to 2 kept inline).
pub type ConnectionList = ShortVec<Connection, 2>;

/// A connection across an edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Connection {
    /// The area reached.
    pub area_id: u32,
    /// The edge of that area (an index into its corners) that this edge meets.
    pub edge: u32,
}

/// A hiding spot of an area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct HidingSpot {
    /// The spot id.
    pub id: u32,
    /// The position.
    pub position: Vec3,
    /// Flags.
    pub flags: u8,
}

/// A ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Ladder {
    /// The ladder id.
    pub id: u32,
    /// Width.
    pub width: RawF32,
    /// Top position.
    pub top: Vec3,
    /// Bottom position.
    pub bottom: Vec3,
    /// Length.
    pub length: RawF32,
    /// Facing direction (north, east, south, west = 0..3).
    pub direction: u32,
    /// Area reached going forward at the top.
    pub top_forward_area_id: u32,
    /// Area reached to the left at the top.
    pub top_left_area_id: u32,
    /// Area reached to the right at the top.
    pub top_right_area_id: u32,
    /// Area reached going backward at the top.
    pub top_behind_area_id: u32,
    /// Area at the bottom.
    pub bottom_area_id: u32,
    /// v35+: area at the bottom, to the left (0 before v35).
    pub bottom_left_area_id: u32,
    /// v35+: area at the bottom, to the right (0 before v35).
    pub bottom_right_area_id: u32,
}

impl Ladder {
    /// The area ids with their field names (the two bottom sides included).
    pub fn area_ids(&self) -> [(&'static str, u32); 7] {
        [
            ("top_forward_area_id", self.top_forward_area_id),
            ("top_left_area_id", self.top_left_area_id),
            ("top_right_area_id", self.top_right_area_id),
            ("top_behind_area_id", self.top_behind_area_id),
            ("bottom_area_id", self.bottom_area_id),
            ("bottom_left_area_id", self.bottom_left_area_id),
            ("bottom_right_area_id", self.bottom_right_area_id),
        ]
    }
}

/// A transformed bounding box: 72 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TransformedBounds {
    /// Box minimum.
    pub mins: Vec3,
    /// Box maximum.
    pub maxs: Vec3,
    /// A row-major 3×4 matrix: each rotation row followed by its translation.
    pub transform: [RawF32; 12],
}

/// The navmesh generator's parameters.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct GenerationParams {
    /// The generator version; it gates the fields below ([`GenLayout`]).
    pub nav_gen_version: i32,
    /// `useProjectDefaults`.
    pub use_project_defaults: u32,
    /// Tile size.
    pub tile_size: RawF32,
    /// Cell size.
    pub cell_size: RawF32,
    /// Cell height.
    pub cell_height: RawF32,
    /// Minimum region size.
    pub min_region_size: i32,
    /// Merged region size.
    pub merged_region_size: i32,
    /// Mesh sample distance.
    pub mesh_sample_distance: RawF32,
    /// Maximum sample error.
    pub max_sample_error: RawF32,
    /// Maximum edge length.
    pub max_edge_length: i32,
    /// Maximum edge error.
    pub max_edge_error: RawF32,
    /// Vertices per polygon.
    pub verts_per_poly: i32,
    /// Generator 7+: `smallAreaOnEdgeRemoval`.
    pub small_area_on_edge_removal: RawF32,
    /// Generator 12+: the hull preset name, stored NUL-terminated (without the NUL here).
    pub hull_preset_name: ByteString,
    /// Generator 12+: the hull definitions file, stored NUL-terminated (without the NUL here).
    pub hull_definitions_file: ByteString,
    /// The stored hull count. From generator 12 it equals the number of hull records; below,
    /// at least three records are stored whatever it says.
    pub hull_count: i32,
    /// The hull records as stored.
    pub hulls: Vec<HullParams>,
    /// Generator 10+: the `gravityFollowsRotation` byte.
    pub gravity_follows_rotation: u8,
}

impl GenerationParams {
    /// The gates of these parameters.
    pub fn layout(&self) -> GenLayout {
        GenLayout {
            nav_gen_version: self.nav_gen_version,
        }
    }
}

/// One hull's generation parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct HullParams {
    /// Generator 9+: the `enabled` byte.
    pub enabled: u8,
    /// Agent radius.
    pub radius: RawF32,
    /// Agent height.
    pub height: RawF32,
    /// Generator 9+: the short-height switch.
    pub short_height_enabled: u8,
    /// Generator 9+: the short height.
    pub short_height: RawF32,
    /// Generator 13+: the crawl switch.
    pub agent_crawl_enabled: u8,
    /// Generator 13+: the crawl height.
    pub agent_crawl_height: RawF32,
    /// Maximum climb.
    pub max_climb: RawF32,
    /// Maximum slope in degrees.
    pub max_slope: i32,
    /// Maximum jump-down distance.
    pub max_jump_down_dist: RawF32,
    /// Maximum horizontal jump distance.
    pub max_jump_horiz_dist_base: RawF32,
    /// Maximum jump-up distance.
    pub max_jump_up_dist: RawF32,
    /// Generator 11+: border erosion.
    pub border_erosion: i32,
}

impl Source2Mesh {
    /// An empty mesh of this version and sub-version: the KV3 blobs the version stores are
    /// empty documents, and the generation parameters are those of the generator version the
    /// games used with it (7 for v30 to v34, 12 for v35, 13 for v36) with one hull.
    pub fn new(version: u32, sub_version: u32) -> Self {
        let v36 = Layout::new(version).is_some_and(|l| l.has_kv3_blobs());
        let blob = || v36.then(|| empty_kv3(GENERIC_FORMAT));
        Source2Mesh {
            version,
            sub_version,
            is_analyzed: 1,
            has_unnamed_areas: 1,
            movable_mesh_settings: blob(),
            game_data: blob(),
            extra_generation_params: blob(),
            custom_data: has_custom_data(sub_version).then(|| {
                kv3_v5(
                    CUSTOM_DATA_FORMAT,
                    &Kv3Value::Object(vec![("arealist".into(), Kv3Value::Array(Vec::new()))]),
                )
            }),
            generation_params: generation_params(nav_gen_version_of(version)),
            ..Source2Mesh::default()
        }
    }

    /// The corners of area `i`'s polygon: inline (v30) or from the pool (v31+). `None` when the
    /// area or a pool index does not exist.
    pub fn area_corners(&self, i: usize) -> Option<Vec<Vec3>> {
        let area = self.areas.get(i)?;
        if self.version < 31 {
            return Some(area.corners.to_vec());
        }
        let poly = self.polygons.get(area.polygon as usize)?;
        poly.corners
            .iter()
            .map(|c| self.corners.get(*c as usize).copied())
            .collect()
    }
}

/// The hull of the samples: a CS2 player (radius 16, height 72).
fn sample_hull() -> HullParams {
    HullParams {
        enabled: 1,
        radius: RawF32::new(16.0),
        height: RawF32::new(72.0),
        short_height_enabled: 1,
        short_height: RawF32::new(54.0),
        agent_crawl_enabled: 0,
        agent_crawl_height: RawF32::new(0.0),
        max_climb: RawF32::new(18.0),
        max_slope: 50,
        max_jump_down_dist: RawF32::new(240.0),
        max_jump_horiz_dist_base: RawF32::new(64.0),
        max_jump_up_dist: RawF32::new(68.0),
        border_erosion: 0,
    }
}

/// Generation parameters of this generator version with one hull, shaped for its gates.
pub fn generation_params(nav_gen_version: i32) -> GenerationParams {
    let mut p = GenerationParams {
        nav_gen_version,
        use_project_defaults: 1,
        tile_size: RawF32::new(128.0),
        cell_size: RawF32::new(1.5),
        cell_height: RawF32::new(2.0),
        min_region_size: 8,
        merged_region_size: 20,
        mesh_sample_distance: RawF32::new(120.0),
        max_sample_error: RawF32::new(2.0),
        max_edge_length: 1200,
        max_edge_error: RawF32::new(45.0),
        verts_per_poly: 4,
        hull_count: 1,
        ..GenerationParams::default()
    };
    let g = p.layout();
    if g.has_small_area_removal() {
        p.small_area_on_edge_removal = RawF32::new(-1.0);
    }
    let mut h = sample_hull();
    if !g.has_hull_short_height() {
        (h.enabled, h.short_height_enabled, h.short_height) = (0, 0, RawF32::new(0.0));
    }
    if g.has_hull_crawl() {
        (h.agent_crawl_enabled, h.agent_crawl_height) = (1, RawF32::new(36.0));
    }
    if g.has_hull_border_erosion() {
        h.border_erosion = 1;
    }
    p.hulls = vec![h; g.hull_records(1).unwrap_or(1)];
    p
}

/// The generator version the games used with a file version: 7 up to v34, 12 for v35, 13 for
/// v36.
pub fn nav_gen_version_of(version: u32) -> i32 {
    match version {
        ..=34 => 7,
        35 => 12,
        _ => 13,
    }
}
