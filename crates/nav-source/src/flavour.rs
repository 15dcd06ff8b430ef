//! Game flavours and the version gates that decide which fields a file holds.
//!
//! The base layout is Valve's `CNavMesh`/`CNavArea` from the Source SDK; each game's derived
//! classes append their own data (the "custom data" hooks), keyed by the file's sub-version.
//! A [`Flavour`] names one of those derived layouts; a [`Layout`] combines it with the version and
//! sub-version of one file and answers every "is this field present?" question in one place, so
//! the parser, both writers and the model checks cannot disagree.

use core::fmt;

/// Which game's derived nav classes wrote the file.
///
/// Below version 10 (no sub-version) and at sub-version 0 every flavour except the Left 4 Dead
/// ones reads the same bytes; the flavours only differ where a game adds data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Flavour {
    /// The SDK's own classes: Garry's Mod, Half-Life 2: Deathmatch, SDK mods, GoldSrc CS/CZ bot
    /// files. No custom data.
    #[cfg_attr(feature = "serde", serde(rename = "base"))]
    Base,
    /// Counter-Strike: Source (after 2010) and CS:GO: at sub-version 1 and up every area appends
    /// its approach-area list (the list the base area dropped at version 15).
    #[cfg_attr(feature = "serde", serde(rename = "cs"))]
    CounterStrike,
    /// Team Fortress 2: at sub-version 2 and up every area appends a 32-bit word of TF attributes.
    #[cfg_attr(feature = "serde", serde(rename = "tf2"))]
    TeamFortress2,
    /// Left 4 Dead (sub-version 13): the same rules as [`Flavour::Left4Dead2`].
    #[cfg_attr(feature = "serde", serde(rename = "l4d"))]
    Left4Dead,
    /// Left 4 Dead 2 (sub-version 14): a zombie-population string and fog places before the
    /// areas, a per-area block that replaces the base visibility data, and a float after the
    /// ladders.
    #[cfg_attr(feature = "serde", serde(rename = "l4d2"))]
    Left4Dead2,
}

impl Flavour {
    /// Every flavour, in the order auto-detection tries them after the sub-version's own guess.
    pub const ALL: [Flavour; 5] = [
        Flavour::Base,
        Flavour::CounterStrike,
        Flavour::TeamFortress2,
        Flavour::Left4Dead2,
        Flavour::Left4Dead,
    ];

    /// The short name used in summaries, errors and on the command line (`base`, `cs`, `tf2`,
    /// `l4d`, `l4d2`).
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Base => "base",
            Flavour::CounterStrike => "cs",
            Flavour::TeamFortress2 => "tf2",
            Flavour::Left4Dead => "l4d",
            Flavour::Left4Dead2 => "l4d2",
        }
    }

    /// The flavour with this short name.
    pub fn from_name(name: &str) -> Option<Flavour> {
        Flavour::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether this is one of the Left 4 Dead flavours (`TerrorNavMesh`).
    pub fn is_terror(self) -> bool {
        matches!(self, Flavour::Left4Dead | Flavour::Left4Dead2)
    }

    /// The flavour a sub-version usually means: 1 is CS, 2 is TF2, 13 is Left 4 Dead, 14 and up
    /// Left 4 Dead 2, anything else (and every file below version 10) base.
    pub fn guess(version: u32, sub_version: u32) -> Flavour {
        if version < 10 {
            return Flavour::Base;
        }
        match sub_version {
            1 => Flavour::CounterStrike,
            2 => Flavour::TeamFortress2,
            13 => Flavour::Left4Dead,
            14.. => Flavour::Left4Dead2,
            _ => Flavour::Base,
        }
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The lowest Left 4 Dead sub-version this crate reads (older ones carry extra, unnamed words).
pub const TERROR_MIN_SUB_VERSION: u32 = 13;

/// The newest version Valve's Source 1 code writes.
pub const MAX_VERSION: u32 = 16;

/// The first version of the unrelated Source 2 format that reuses the magic.
pub const SOURCE2_MIN_VERSION: u32 = 30;

/// The file's magic number, `0xFEEDFACE`.
pub const MAGIC: u32 = 0xFEED_FACE;

/// The field gates of one file: version, sub-version and flavour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// The file version, 1 to 16.
    pub version: u32,
    /// The sub-version (0 below version 10).
    pub sub_version: u32,
    /// The flavour.
    pub flavour: Flavour,
}

impl Layout {
    /// Bytes of the attribute flags of an area: 1 up to v8, 2 for v9 to v12, 4 from v13.
    pub fn attribute_width(&self) -> usize {
        match self.version {
            ..=8 => 1,
            9..=12 => 2,
            _ => 4,
        }
    }
    /// The header stores a sub-version (v10 and up).
    pub fn has_sub_version(&self) -> bool {
        self.version >= 10
    }
    /// The header stores the BSP size (v4 and up).
    pub fn has_bsp_size(&self) -> bool {
        self.version >= 4
    }
    /// The header stores the `isAnalyzed` byte (v14 and up).
    pub fn has_is_analyzed(&self) -> bool {
        self.version >= 14
    }
    /// The file has a place directory and areas a place index (v5 and up).
    pub fn has_places(&self) -> bool {
        self.version >= 5
    }
    /// The place directory ends with the "has unnamed areas" byte (v12 and up).
    pub fn has_unnamed_areas_byte(&self) -> bool {
        self.version >= 12
    }
    /// Hiding spots are bare positions (v1 only).
    pub fn legacy_hiding_spots(&self) -> bool {
        self.version < 2
    }
    /// Areas store approach areas in the base record (before v15).
    pub fn has_base_approach(&self) -> bool {
        self.version < 15
    }
    /// Encounter paths store positions instead of hiding-spot ids (before v3).
    pub fn legacy_encounter_paths(&self) -> bool {
        self.version < 3
    }
    /// Areas store their ladder ids (v7 and up).
    pub fn has_area_ladders(&self) -> bool {
        self.version >= 7
    }
    /// Areas store earliest occupy times (v8 and up).
    pub fn has_occupy_times(&self) -> bool {
        self.version >= 8
    }
    /// Areas store light intensity (v11 and up).
    pub fn has_light_intensity(&self) -> bool {
        self.version >= 11
    }
    /// The base area record ends with visibility data (v16 and up, not in Left 4 Dead files,
    /// whose own block carries it).
    pub fn has_base_visibility(&self) -> bool {
        self.version >= 16 && !self.flavour.is_terror()
    }
    /// The file has a ladder block (v6 and up).
    pub fn has_ladders(&self) -> bool {
        self.version >= 6
    }
    /// Ladders carry the `isDangling` byte (v6 only).
    pub fn has_dangling_byte(&self) -> bool {
        self.version == 6
    }
    /// Every area appends the CS approach list.
    pub fn has_cs_approach(&self) -> bool {
        self.flavour == Flavour::CounterStrike && self.sub_version >= 1
    }
    /// Every area appends the TF2 attribute word.
    pub fn has_tf_attributes(&self) -> bool {
        self.flavour == Flavour::TeamFortress2 && self.sub_version >= 2
    }
    /// The Left 4 Dead blocks are present (pre-area data, per-area block, float at the end).
    pub fn is_terror(&self) -> bool {
        self.flavour.is_terror()
    }
    /// Bytes a file may carry after its last record (stale data of an older, longer save):
    /// allowed for the GoldSrc versions 1 to 5 only.
    pub fn allows_stale_tail(&self) -> bool {
        self.version <= 5
    }
    /// The version as people write it: `16.2` where a sub-version exists, else `5`.
    pub fn version_text(&self) -> String {
        if self.has_sub_version() {
            format!("{}.{}", self.version, self.sub_version)
        } else {
            self.version.to_string()
        }
    }
}
