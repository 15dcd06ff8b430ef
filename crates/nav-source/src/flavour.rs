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
    /// Left 4 Dead (sub-versions 12 and 13, the Left 4 Dead 1 era): the same blocks as
    /// [`Flavour::Left4Dead2`]; what differs by sub-version is gated on the sub-version, not on
    /// the flavour, so the two flavours read the same bytes.
    #[cfg_attr(feature = "serde", serde(rename = "l4d"))]
    Left4Dead,
    /// Left 4 Dead 2 (sub-version 14): a zombie-population string and fog places before the
    /// areas, a per-area block that replaces the base visibility data, and a float after the
    /// ladders.
    #[cfg_attr(feature = "serde", serde(rename = "l4d2"))]
    Left4Dead2,
}

impl Flavour {
    /// Every flavour, in the order the command line lists their names.
    pub const ALL: [Flavour; 5] = [
        Flavour::Base,
        Flavour::CounterStrike,
        Flavour::TeamFortress2,
        Flavour::Left4Dead,
        Flavour::Left4Dead2,
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

    /// The flavour a sub-version usually means: 1 is CS, 2 is TF2, 12 and 13 Left 4 Dead, 14 and
    /// up Left 4 Dead 2, anything else (and every file below version 10) base.
    pub fn guess(version: u32, sub_version: u32) -> Flavour {
        if version < 10 {
            return Flavour::Base;
        }
        match sub_version {
            1 => Flavour::CounterStrike,
            2 => Flavour::TeamFortress2,
            TERROR_MIN_SUB_VERSION..=13 => Flavour::Left4Dead,
            14.. => Flavour::Left4Dead2,
            _ => Flavour::Base,
        }
    }

    /// The sub-version from which this flavour's data differs from the base layout (CS 1, TF2 2,
    /// the Left 4 Dead flavours [`TERROR_MIN_SUB_VERSION`]); 0 for base. Below it the flavour
    /// reads the same bytes as base (CS, TF2) or refuses the file (Left 4 Dead).
    pub fn first_sub_version(self) -> u32 {
        match self {
            Flavour::Base => 0,
            Flavour::CounterStrike => 1,
            Flavour::TeamFortress2 => 2,
            Flavour::Left4Dead | Flavour::Left4Dead2 => TERROR_MIN_SUB_VERSION,
        }
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The lowest Left 4 Dead sub-version this crate reads. Sub-version 12 is checked on a real file
/// (a Left 4 Dead development map); older ones store the population differently and carry more
/// unnamed words per area, and no file of them is known.
pub const TERROR_MIN_SUB_VERSION: u32 = 12;

/// The flavours auto-detection tries on a file of this version and sub-version, in order; the
/// first that reads the file to its exact end wins.
///
/// | version | sub-version | tried, in order | why |
/// |---|---|---|---|
/// | 1–9 | (none) | base | no sub-version: CS and TF2 add nothing, Left 4 Dead needs 12 |
/// | 10–16 | 0 | base | the same |
/// | 10–16 | 1 | cs, base | every real file at 1 is CS:S or CS:GO; TF2 adds nothing below 2 |
/// | 10–16 | 2 | tf2, base, cs | every real file at 2 is TF2 or a TF2-derived mod |
/// | 10–16 | 3–11 | base, cs, tf2 | no real file; CS and TF2 still read their blocks |
/// | 10–16 | 12, 13 | l4d, base, cs, tf2 | every real file at 12 or 13 is a Left 4 Dead development map |
/// | 10–16 | 14 and up | l4d2, base, cs, tf2 | every real file at 14 is Left 4 Dead 2 |
///
/// The sub-version's own game ([`Flavour::guess`]) comes first because on every real file with
/// a sub-version it is the only flavour that reads to the end; base comes next because it is the
/// SDK layout that mods of unknown games start from; then the other flavours whose data exists
/// at that sub-version ([`Flavour::first_sub_version`]). A flavour that would read exactly the
/// same bytes as one already listed is left out (CS at sub-version 0, TF2 below 2, Left 4 Dead 2
/// beside Left 4 Dead), so a file that no flavour reads is reported once per distinct layout.
pub fn candidates(version: u32, sub_version: u32) -> Vec<Flavour> {
    let own = Flavour::guess(version, sub_version);
    let mut out = vec![own];
    if version < 10 {
        return out;
    }
    for f in [
        Flavour::Base,
        Flavour::CounterStrike,
        Flavour::TeamFortress2,
    ] {
        if f != own && sub_version >= f.first_sub_version() {
            out.push(f);
        }
    }
    out
}

/// The newest version Valve's Source 1 code writes.
pub const MAX_VERSION: u32 = 16;

/// The first version of the unrelated Source 2 format that reuses the magic.
pub const SOURCE2_MIN_VERSION: u32 = 30;

/// The file's magic number, `0xFEEDFACE`.
pub const MAGIC: u32 = 0xFEED_FACE;

/// [`MAGIC`] in words, for errors.
pub const MAGIC_TEXT: &str = "0xFEEDFACE (bytes ce fa ed fe)";

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
    /// The Left 4 Dead per-area block stores an unnamed 32-bit word between the spawn attributes
    /// and the fog place (sub-version 12; community readers read it for 5 to 12).
    pub fn has_terror_legacy_word(&self) -> bool {
        self.is_terror() && self.sub_version < 13
    }
    /// The Left 4 Dead visible-area entries name areas by their 0-based index in the area list
    /// (sub-version 14 and up); before, they name areas by id (measured on the real files: at
    /// sub-versions 12 and 13 every entry is an existing area id and every area lists its own).
    pub fn terror_visibility_by_index(&self) -> bool {
        self.is_terror() && self.sub_version >= 14
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

#[cfg(test)]
mod tests {
    use super::*;
    use Flavour::{
        Base, CounterStrike as Cs, Left4Dead as L4d, Left4Dead2 as L4d2, TeamFortress2 as Tf2,
    };

    #[test]
    fn detection_table() {
        let rows: &[(u32, u32, &[Flavour])] = &[
            (3, 0, &[Base]),
            (9, 0, &[Base]),
            (10, 0, &[Base]),
            (16, 0, &[Base]),
            (16, 1, &[Cs, Base]),
            (16, 2, &[Tf2, Base, Cs]),
            (16, 3, &[Base, Cs, Tf2]),
            (11, 11, &[Base, Cs, Tf2]),
            (12, 12, &[L4d, Base, Cs, Tf2]),
            (14, 13, &[L4d, Base, Cs, Tf2]),
            (16, 14, &[L4d2, Base, Cs, Tf2]),
            (16, 99, &[L4d2, Base, Cs, Tf2]),
        ];
        for (version, sub, expected) in rows {
            assert_eq!(
                candidates(*version, *sub),
                *expected,
                "version {version} sub-version {sub}"
            );
        }
    }

    #[test]
    fn every_candidate_reads_different_bytes() {
        // No row lists two flavours whose gates agree at that sub-version (both L4D flavours,
        // or CS/TF2 below their first sub-version, which read like base).
        for version in 1..=MAX_VERSION {
            for sub in 0..20 {
                let list = candidates(version, sub);
                assert!(!list.is_empty());
                assert_eq!(list.first(), Some(&Flavour::guess(version, sub)));
                assert!(!(list.contains(&L4d) && list.contains(&L4d2)));
                for f in &list {
                    if *f != Base {
                        assert!(
                            version >= 10 && sub >= f.first_sub_version(),
                            "{f} at {version}.{sub}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn terror_gates_follow_the_sub_version() {
        let at = |sub, flavour| Layout {
            version: 16,
            sub_version: sub,
            flavour,
        };
        assert!(at(12, L4d).has_terror_legacy_word());
        assert!(at(12, L4d2).has_terror_legacy_word());
        assert!(!at(13, L4d).has_terror_legacy_word());
        assert!(!at(12, Base).has_terror_legacy_word());
        assert!(!at(13, L4d).terror_visibility_by_index());
        assert!(at(14, L4d2).terror_visibility_by_index());
        assert!(at(14, L4d).terror_visibility_by_index());
    }
}
