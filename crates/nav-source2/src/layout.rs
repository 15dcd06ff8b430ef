//! The version gates: which fields a file of a given version (and generator version) holds.
//!
//! Every "is this field present?" question is one documented method here, so that the parser,
//! both writers, `validate` and the `arbitrary` models cannot disagree. Two numbers decide:
//!
//! - the file version, 30 to 36 ([`Layout`]);
//! - the navmesh generator version stored at the start of the generation parameters
//!   ([`GenLayout`]), which gates the parameter fields on its own.
//!
//! | version | what it adds |
//! |---|---|
//! | 30 | corners stored inline in each area |
//! | 31 | a shared corner and polygon pool; each area stores a polygon index |
//! | 32 | the corner-gravity word after the pool |
//! | 35 | a movable-mesh id per polygon, the movable-mesh table, two more ladder area ids |
//! | 36 | three KV3 blobs: after the header, after the pool, after the generation parameters |
//!
//! Versions 31 to 34 have no public sample; their gates come from the public readers.

/// The file's magic number, `0xFEEDFACE` (bytes `ce fa ed fe`), shared with Source 1.
pub const MAGIC: u32 = 0xFEED_FACE;

/// [`MAGIC`] in words, for errors.
pub const MAGIC_TEXT: &str = "0xFEEDFACE (bytes ce fa ed fe)";

/// The lowest version this crate reads.
pub const MIN_VERSION: u32 = 30;

/// The highest version this crate reads.
pub const MAX_VERSION: u32 = 36;

/// The polygon movable-mesh id that means "static world" (no movable mesh).
pub const NO_MOVABLE_MESH: u32 = 0xFFFF_FFFF;

/// The field gates of one file version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    version: u32,
}

impl Layout {
    /// The layout of `version`, or `None` outside 30 to 36.
    pub fn new(version: u32) -> Option<Layout> {
        (MIN_VERSION..=MAX_VERSION)
            .contains(&version)
            .then_some(Layout { version })
    }

    /// The file version.
    pub fn version(self) -> u32 {
        self.version
    }

    /// The file has the shared corner and polygon pool, and areas store a polygon index instead
    /// of their corners (v31 and up).
    pub fn has_polygon_pool(self) -> bool {
        self.version >= 31
    }

    /// The word of corner-gravity flags follows the pool (v32 and up).
    pub fn has_corner_gravity(self) -> bool {
        self.version >= 32
    }

    /// Each polygon ends with a movable-mesh id, and the movable-mesh table follows the pool
    /// (v35 and up).
    pub fn has_movable_meshes(self) -> bool {
        self.version >= 35
    }

    /// Ladders store the bottom-left and bottom-right area ids (v35 and up).
    pub fn has_ladder_bottom_sides(self) -> bool {
        self.version >= 35
    }

    /// Bytes of one ladder record: 60, or 68 with the two bottom-side ids.
    pub fn ladder_size(self) -> usize {
        if self.has_ladder_bottom_sides() {
            68
        } else {
            60
        }
    }

    /// The three mid-file KV3 blobs are present: movable-mesh settings after the header, game
    /// data after the pool, extra generation parameters after the generation parameters (v36).
    pub fn has_kv3_blobs(self) -> bool {
        self.version >= 36
    }
}

/// The trailing custom-data KV3 blob is present (any sub-version above 0).
pub fn has_custom_data(sub_version: u32) -> bool {
    sub_version > 0
}

/// The gates of the generation parameters, by the generator version stored with them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GenLayout {
    /// The generator version (`navGenVersion`).
    pub nav_gen_version: i32,
}

impl GenLayout {
    /// `smallAreaOnEdgeRemoval` follows `vertsPerPoly` (7 and up).
    pub fn has_small_area_removal(self) -> bool {
        self.nav_gen_version >= 7
    }

    /// Each hull stores its `enabled` byte and its short-height pair (9 and up).
    pub fn has_hull_short_height(self) -> bool {
        self.nav_gen_version >= 9
    }

    /// The byte `gravityFollowsRotation` ends the parameters (10 and up). One public reader
    /// gates it at 12; no file of generator version 10 or 11 is known to settle it.
    pub fn has_gravity_follows_rotation(self) -> bool {
        self.nav_gen_version >= 10
    }

    /// Each hull ends with `borderErosion` (11 and up).
    pub fn has_hull_border_erosion(self) -> bool {
        self.nav_gen_version >= 11
    }

    /// The hull preset name and hull definitions file are stored, and exactly `hullCount` hull
    /// records follow (12 and up). Below 12 at least three hull records are always stored.
    pub fn has_hull_preset(self) -> bool {
        self.nav_gen_version >= 12
    }

    /// Each hull stores its crawl pair (13 and up).
    pub fn has_hull_crawl(self) -> bool {
        self.nav_gen_version >= 13
    }

    /// How many hull records a stored `hullCount` means: the count itself from generator
    /// version 12, and at least three below it. `None` for a negative count.
    pub fn hull_records(self, hull_count: i32) -> Option<usize> {
        let n = usize::try_from(hull_count).ok()?;
        Some(if self.has_hull_preset() { n } else { n.max(3) })
    }

    /// Bytes of one hull record.
    pub fn hull_size(self) -> usize {
        let mut n = 8 + 20;
        if self.has_hull_short_height() {
            n += 1 + 5;
        }
        if self.has_hull_crawl() {
            n += 5;
        }
        if self.has_hull_border_erosion() {
            n += 4;
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gates_follow_the_versions() {
        assert!(Layout::new(29).is_none() && Layout::new(37).is_none());
        let v30 = Layout::new(30).unwrap();
        assert!(!v30.has_polygon_pool() && v30.ladder_size() == 60);
        let v35 = Layout::new(35).unwrap();
        assert!(v35.has_movable_meshes() && !v35.has_kv3_blobs() && v35.ladder_size() == 68);
        let g = |v| GenLayout { nav_gen_version: v };
        assert_eq!(g(6).hull_size(), 28);
        assert_eq!(g(7).hull_records(1), Some(3));
        assert_eq!(g(12).hull_records(1), Some(1));
        assert_eq!(g(12).hull_records(-1), None);
        assert_eq!(g(13).hull_size(), 28 + 6 + 5 + 4);
    }
}
