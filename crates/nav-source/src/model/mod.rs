//! The owned, editable model of a `.nav` file.
//!
//! Plain Rust types with floats kept as bits ([`RawF32`]). The model holds every byte a write
//! needs: the version and sub-version as read, attribute flags at full width (the writer narrows
//! them to the version's width), stored name bytes including their NUL, the `isAnalyzed` and
//! "has unnamed areas" bytes, list orders with duplicates, and a stale tail.
//!
//! Counts are not stored: in this format each count sits right before its list, so it cannot
//! disagree with the payload. A field that the model's version (or flavour) does not store must
//! hold its default (zero, empty, `None`); the writer refuses anything else rather than dropping
//! it silently.
//!
//! The 5-byte records ([`EncounterSpot`], [`VisibleArea`], [`VisibleAreaIndex`]) are packed
//! structs with the file's field order, so the lists that make up most of a large file take
//! their file size in memory, not 8 bytes an entry.
//!
//! An area's short lists (its connections and ladders per direction, [`AreaIds`], and each
//! encounter path's spots) are [`ShortVec`]s: up to 4 items stay inside the area, so that
//! reading a file of a hundred thousand areas does not allocate several times per area. They
//! read like a `Vec` (a slice, with `push`, `retain`, `extend` and the like), and are plain
//! lists in JSON.

use nav_core::RawF32;
pub use nav_core::ShortVec;
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout};

use crate::flavour::{Flavour, Layout};

mod from_view;

/// A byte string as the file stores it (a place name with its NUL, a population name).
///
/// In JSON it is a string when the bytes are UTF-8 (a stored NUL shows as `\u0000`), and an
/// array of byte values otherwise; both forms read back to the same bytes. The place names of
/// [`SourceMesh::places`] and [`TerrorMesh::fog_places`] leave their terminating NUL out of the
/// string (`"BombsiteB"`), see `nav_core::bytes::NulTerminated`.
#[derive(Clone, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct NavString(pub Vec<u8>);

impl NavString {
    /// The bytes of `text`, plus a terminating NUL (how the engine stores place names).
    pub fn with_nul(text: &str) -> Self {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        NavString(bytes)
    }

    /// The text up to the first NUL, lossily decoded.
    pub fn text(&self) -> String {
        let end = self.0.iter().position(|b| *b == 0).unwrap_or(self.0.len());
        String::from_utf8_lossy(self.0.get(..end).unwrap_or(&[])).into_owned()
    }
}

impl core::fmt::Debug for NavString {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:?}", String::from_utf8_lossy(&self.0))
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::NavString;
    use nav_core::bytes::{NulTerminated, NulTerminatedBuf};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for NavString {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            nav_core::bytes::serialize_text_or_bytes(&self.0, s)
        }
    }

    impl<'de> Deserialize<'de> for NavString {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            nav_core::bytes::deserialize_text_or_bytes(d).map(NavString)
        }
    }

    /// Place names, stored NUL-terminated: plain strings in JSON with the terminator implied
    /// (`"BombsiteB"`), an explicit form for the rest ([`nav_core::bytes::NulTerminated`]).
    pub(super) mod place_names {
        use super::*;

        pub fn serialize<S: Serializer>(names: &[NavString], s: S) -> Result<S::Ok, S::Error> {
            s.collect_seq(names.iter().map(|n| NulTerminated(&n.0)))
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<NavString>, D::Error> {
            // A name may come wrapped with its position (`{"#": 2, "value": "Bombsite"}`).
            let names = nav_core::positions::records::<D, NulTerminatedBuf>(d)?;
            Ok(names.into_iter().map(|n| NavString(n.0)).collect())
        }
    }
}

/// A whole `.nav` file.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SourceMesh {
    /// Which game's layout the file uses.
    pub flavour: Flavour,
    /// The file version, 1 to 16.
    pub version: u32,
    /// The sub-version (stored from v10; must be 0 below).
    pub sub_version: u32,
    /// Size of the `.bsp` when the mesh was saved (stored from v4; must be 0 below).
    pub bsp_size: u32,
    /// The `isAnalyzed` byte as stored (from v14; must be 0 below).
    pub is_analyzed: u8,
    /// The place directory (from v5): names as stored, usually NUL-terminated. Areas refer to
    /// them 1-based; 0 means no place. In JSON a NUL-terminated UTF-8 name is its text alone.
    #[cfg_attr(feature = "serde", serde(with = "serde_impl::place_names"))]
    pub places: Vec<NavString>,
    /// The "has unnamed areas" byte after the place directory (from v12; must be 0 below).
    pub has_unnamed_areas: u8,
    /// Left 4 Dead data before the areas and after the ladders (`Some` exactly in the Left 4
    /// Dead flavours).
    pub terror: Option<TerrorMesh>,
    /// The areas, in file order.
    pub areas: Vec<Area>,
    /// The ladders (from v6; must be empty below).
    pub ladders: Vec<Ladder>,
    /// Bytes after the last record: stale data left by an earlier, longer save over the same
    /// file. Kept for versions 1 to 5 only (GoldSrc files); must be empty from v6.
    pub stale_tail: Vec<u8>,
}

impl SourceMesh {
    /// An empty mesh of this flavour, version and sub-version.
    pub fn new(flavour: Flavour, version: u32, sub_version: u32) -> Self {
        SourceMesh {
            flavour,
            version,
            sub_version,
            bsp_size: 0,
            is_analyzed: 0,
            places: Vec::new(),
            has_unnamed_areas: 0,
            terror: flavour.is_terror().then(TerrorMesh::default),
            areas: Vec::new(),
            ladders: Vec::new(),
            stale_tail: Vec::new(),
        }
    }

    /// The field gates of this mesh.
    pub fn layout(&self) -> Layout {
        Layout {
            version: self.version,
            sub_version: self.sub_version,
            flavour: self.flavour,
        }
    }
}

/// Left 4 Dead mesh-level data (`TerrorNavMesh`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct TerrorMesh {
    /// The zombie-population name, stored NUL-terminated before the areas (without its NUL
    /// here; it may not contain a NUL).
    pub population: NavString,
    /// The fog place names, stored like the place directory (length with the NUL); in JSON like
    /// the place directory's names.
    #[cfg_attr(feature = "serde", serde(with = "serde_impl::place_names"))]
    pub fog_places: Vec<NavString>,
    /// The float after the ladders (read by community tools as the maximum view distance).
    pub max_view_distance: RawF32,
}

/// The area ids of one direction's connections or ladders: up to 4 kept inside the area (most
/// directions of real files have 1 to 3), more on the heap.
pub type AreaIds = ShortVec<u32, 4>;

/// One area (`CNavArea`).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Area {
    /// The area id.
    pub id: u32,
    /// Attribute flags (8 bits up to v8, 16 bits for v9 to v12, 32 bits from v13).
    pub attribute_flags: u32,
    /// The north-west corner.
    pub nw_corner: [RawF32; 3],
    /// The south-east corner.
    pub se_corner: [RawF32; 3],
    /// Height of the implicit north-east corner.
    pub ne_z: RawF32,
    /// Height of the implicit south-west corner.
    pub sw_z: RawF32,
    /// Connected area ids per direction: north, east, south, west.
    pub connections: [AreaIds; 4],
    /// Hiding spots (at most 255). In v1 files only the position is stored; id and flags must
    /// be 0.
    pub hiding_spots: Vec<HidingSpot>,
    /// Approach areas of the base record (before v15; must be empty from v15).
    pub approach_areas: Vec<ApproachArea>,
    /// Encounter paths: [`EncounterPath::Positions`] before v3, [`EncounterPath::Spots`] from v3.
    pub encounter_paths: Vec<EncounterPath>,
    /// 1-based index into the place directory, 0 for none (from v5).
    pub place: u16,
    /// Ladder ids per direction: up, down (from v7).
    pub ladders: [AreaIds; 2],
    /// Earliest occupy time per team (from v8).
    pub earliest_occupy_time: [RawF32; 2],
    /// Light intensity at the corners NW, NE, SE, SW (from v11).
    pub light_intensity: [RawF32; 4],
    /// Potentially visible areas (from v16; empty in the Left 4 Dead flavours, whose own block
    /// names visible areas by index instead).
    pub visible_areas: Vec<VisibleArea>,
    /// Area id whose visibility this area inherits, 0 for none (from v16; 0 in the Left 4 Dead
    /// flavours, whose own block holds it).
    pub inherit_visibility_from: u32,
    /// The flavour's per-area data.
    pub custom: AreaCustom,
}

/// A hiding spot (`HidingSpot`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct HidingSpot {
    /// The spot id (0 in v1 files, which do not store it).
    pub id: u32,
    /// The position.
    pub position: [RawF32; 3],
    /// Flags: in cover 1, good sniper spot 2, ideal sniper spot 4, exposed 8 (0 in v1 files).
    pub flags: u8,
}

/// One approach-area entry: how bots reach this area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct ApproachArea {
    /// The area approached from.
    pub here_area_id: u32,
    /// The area before it.
    pub prev_area_id: u32,
    /// How the previous area leads here (a traversal type).
    pub prev_to_here_how: u8,
    /// The area after it.
    pub next_area_id: u32,
    /// How this area leads to the next (a traversal type).
    pub here_to_next_how: u8,
}

/// An encounter path through the area.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum EncounterPath {
    /// The v1/v2 layout: areas, end positions, and spots as positions with a parameter.
    Positions {
        /// The area the path comes from.
        from_area_id: u32,
        /// The area the path goes to.
        to_area_id: u32,
        /// Where the path starts.
        from_position: [RawF32; 3],
        /// Where the path ends.
        to_position: [RawF32; 3],
        /// Spots along the path: x, y, z and the path parameter (at most 255).
        spots: Vec<[RawF32; 4]>,
    },
    /// The layout from v3: areas, directions, and spots naming hiding spots by id.
    Spots {
        /// The area the path comes from.
        from_area_id: u32,
        /// The direction it comes from (N, E, S, W = 0..3).
        from_direction: u8,
        /// The area the path goes to.
        to_area_id: u32,
        /// The direction it leaves by.
        to_direction: u8,
        /// Spots along the path (at most 255; up to 4 are kept inside the path).
        spots: ShortVec<EncounterSpot, 4>,
    },
}

/// A spot along a v3+ encounter path.
///
/// Packed, like the other 5-byte records ([`VisibleArea`], [`VisibleAreaIndex`]): 5 bytes in
/// memory as in the file, so a large mesh's lists take no padding and copy in bulk. Read a
/// field by value (`spot.t`); a reference to a field of a packed struct is refused.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[repr(C, packed)]
pub struct EncounterSpot {
    /// The hiding spot id.
    pub hiding_spot_id: u32,
    /// Where along the path, 0 to 255 for 0.0 to 1.0.
    pub t: u8,
}

/// A potentially visible area.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[repr(C, packed)]
pub struct VisibleArea {
    /// The visible area's id.
    pub area_id: u32,
    /// Visibility attributes.
    pub attributes: u8,
}

/// A potentially visible area of a Left 4 Dead file: named by its index in the area list from
/// sub-version 14, by its id in sub-versions 12 and 13 (see
/// [`Layout::terror_visibility_by_index`]).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, FromBytes, IntoBytes, KnownLayout, Immutable,
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
#[repr(C, packed)]
pub struct VisibleAreaIndex {
    /// The visible area's 0-based index in the file's area list; its area id below sub-version
    /// 14.
    pub area_index: u32,
    /// Visibility attributes.
    pub attributes: u8,
}

/// The flavour's per-area data.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum AreaCustom {
    /// No per-area data (base flavour, or a sub-version below the flavour's own).
    #[default]
    None,
    /// CS (sub-version 1 and up): the approach-area list.
    CounterStrike {
        /// Approach areas (at most 255).
        approach_areas: Vec<ApproachArea>,
    },
    /// TF2 (sub-version 2 and up): the persistent TF attribute bits.
    TeamFortress2 {
        /// TF attribute flags.
        tf_attributes: u32,
    },
    /// Left 4 Dead: spawn attributes, fog place, and the visibility data that replaces the base
    /// block.
    Terror {
        /// Spawn attribute flags.
        spawn_attributes: u32,
        /// The unnamed 32-bit word that sub-versions before 13 store after the spawn attributes
        /// (`Some` exactly there; 0 in the one real file). Left out of JSON when `None`.
        #[cfg_attr(
            feature = "serde",
            serde(default, skip_serializing_if = "Option::is_none")
        )]
        legacy_word: Option<u32>,
        /// Index of the fog place.
        fog_place: u16,
        /// Potentially visible areas: by their 0-based index in the file's area list from
        /// sub-version 14 (in those files every value is below the area count and each list is
        /// sorted), by area id in sub-versions 12 and 13 (there every value is an area id and
        /// each area lists its own).
        visible_areas: Vec<VisibleAreaIndex>,
        /// Area id whose visibility this area inherits, 0 for none.
        inherit_visibility_from: u32,
    },
}

/// A ladder (`CNavLadder`), from v6.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct Ladder {
    /// The ladder id.
    pub id: u32,
    /// Width.
    pub width: RawF32,
    /// Top position.
    pub top: [RawF32; 3],
    /// Bottom position.
    pub bottom: [RawF32; 3],
    /// Length.
    pub length: RawF32,
    /// Facing direction (N, E, S, W = 0..3).
    pub direction: u32,
    /// The `isDangling` byte, stored in v6 files only (must be 0 otherwise).
    pub is_dangling: u8,
    /// Area reached going forward at the top, 0 for none.
    pub top_forward_area_id: u32,
    /// Area reached to the left at the top.
    pub top_left_area_id: u32,
    /// Area reached to the right at the top.
    pub top_right_area_id: u32,
    /// Area reached going backward at the top.
    pub top_behind_area_id: u32,
    /// Area at the bottom.
    pub bottom_area_id: u32,
}

impl Ladder {
    /// The five area ids with their field names.
    pub fn area_ids(&self) -> [(&'static str, u32); 5] {
        [
            ("top_forward_area_id", self.top_forward_area_id),
            ("top_left_area_id", self.top_left_area_id),
            ("top_right_area_id", self.top_right_area_id),
            ("top_behind_area_id", self.top_behind_area_id),
            ("bottom_area_id", self.bottom_area_id),
        ]
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use super::*;

    #[test]
    fn place_names_are_plain_strings_with_the_nul_implied() {
        let mut m = SourceMesh::new(Flavour::Left4Dead2, 16, 14);
        m.places = vec![
            NavString::with_nul("BombsiteB"),
            NavString(b"unterminated".to_vec()),
            NavString(vec![0xff, 0]),
        ];
        if let Some(t) = m.terror.as_mut() {
            t.population = NavString(b"c1streets".to_vec());
            t.fog_places = vec![NavString::with_nul("fog_street")];
        }
        let json = serde_json::to_value(&m).unwrap();
        assert_eq!(
            json["places"],
            serde_json::json!(["BombsiteB", b"unterminated".to_vec(), [255, 0]])
        );
        // The population is stored without its NUL in the model: its text as it is.
        assert_eq!(json["terror"]["population"], "c1streets");
        assert_eq!(json["terror"]["fog_places"][0], "fog_street");
        let back: SourceMesh = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, m);

        // Older documents spelled the NUL out: they read to the same bytes.
        let mut old = json;
        old["places"][0] = "BombsiteB\u{0}".into();
        old["terror"]["fog_places"][0] = "fog_street\u{0}".into();
        let back: SourceMesh = serde_json::from_value(old).unwrap();
        assert_eq!(back, m);
    }
}
