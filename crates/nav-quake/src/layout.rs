//! Which record sizes a magic and version select.
//!
//! | magic | versions | header | traversal | edict |
//! |---|---|---|---|---|
//! | NAV2 | 12 | 20 | 36 | 26: link, mins, maxs |
//! | NAV2 | 13, 14 | 20 | 36 | 34: link, mins, maxs, targetname id, classname id |
//! | NAV2 | 15 | 20 | 36 | 30: link, mins, maxs, entity id |
//! | NAV2 | 16, 17, 18 | 24 (+ heuristic) | 36 | 30: link, mins, maxs, entity id |
//! | NAV3 | 2, 3 | 24 (+ heuristic) | 36 | 30: link, model, mins, maxs |
//! | NAV3 | 4, 5, 6 | 24 (+ heuristic) | 48 (+ ladder plane) | 30: link, model, mins, maxs |
//!
//! NAV2 v13 has no public sample; it follows the 34-byte edict of v14, as the retail-checked
//! reader does.

/// The file signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Magic {
    /// `NAV2`: Quake (2021 re-release).
    #[cfg_attr(feature = "serde", serde(rename = "NAV2"))]
    Nav2,
    /// `NAV3`: Quake II (2023 re-release).
    #[cfg_attr(feature = "serde", serde(rename = "NAV3"))]
    Nav3,
}

impl Magic {
    /// The four signature bytes.
    pub const fn bytes(self) -> [u8; 4] {
        match self {
            Magic::Nav2 => *b"NAV2",
            Magic::Nav3 => *b"NAV3",
        }
    }

    /// The magic these bytes spell, if any.
    pub fn from_bytes(bytes: &[u8; 4]) -> Option<Self> {
        match bytes {
            b"NAV2" => Some(Magic::Nav2),
            b"NAV3" => Some(Magic::Nav3),
            _ => None,
        }
    }

    /// The versions read for this magic.
    pub const fn versions(self) -> core::ops::RangeInclusive<u32> {
        match self {
            Magic::Nav2 => 12..=18,
            Magic::Nav3 => 2..=6,
        }
    }

    /// The supported versions, in words.
    pub const fn supported(self) -> &'static str {
        match self {
            Magic::Nav2 => "NAV2 reads versions 12 to 18",
            Magic::Nav3 => "NAV3 reads versions 2 to 6",
        }
    }

    /// `NAV2` or `NAV3`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Magic::Nav2 => "NAV2",
            Magic::Nav3 => "NAV3",
        }
    }
}

/// The edict record a layout uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdictLayout {
    /// NAV2 v12: 26 bytes.
    V12,
    /// NAV2 v13–v14: 34 bytes.
    V14,
    /// NAV2 v15+: 30 bytes.
    V15,
    /// NAV3: 30 bytes, model first.
    Nav3,
}

impl EdictLayout {
    /// Record size in bytes.
    pub const fn size(self) -> usize {
        match self {
            EdictLayout::V12 => 26,
            EdictLayout::V14 => 34,
            EdictLayout::V15 | EdictLayout::Nav3 => 30,
        }
    }
}

/// A supported magic and version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    magic: Magic,
    version: u32,
}

impl Layout {
    /// The layout of `magic` at `version`, or `None` when the version is not supported.
    pub fn new(magic: Magic, version: u32) -> Option<Self> {
        magic
            .versions()
            .contains(&version)
            .then_some(Layout { magic, version })
    }

    /// The magic.
    pub fn magic(self) -> Magic {
        self.magic
    }

    /// The version.
    pub fn version(self) -> u32 {
        self.version
    }

    /// Whether the header ends with the heuristic float (NAV2 v16+, every NAV3).
    pub fn has_heuristic(self) -> bool {
        self.magic == Magic::Nav3 || self.version >= 16
    }

    /// Header size in bytes.
    pub fn header_size(self) -> usize {
        if self.has_heuristic() { 24 } else { 20 }
    }

    /// Whether traversals carry a ladder plane (NAV3 v4+).
    pub fn has_ladder_plane(self) -> bool {
        self.magic == Magic::Nav3 && self.version >= 4
    }

    /// Traversal record size in bytes.
    pub fn traversal_size(self) -> usize {
        if self.has_ladder_plane() { 48 } else { 36 }
    }

    /// Which edict record this layout uses.
    pub fn edict_layout(self) -> EdictLayout {
        match (self.magic, self.version) {
            (Magic::Nav3, _) => EdictLayout::Nav3,
            (Magic::Nav2, 12) => EdictLayout::V12,
            (Magic::Nav2, 13 | 14) => EdictLayout::V14,
            (Magic::Nav2, _) => EdictLayout::V15,
        }
    }

    /// Whether the link's second word is a type byte plus a flags byte (NAV3, NAV2 v18) rather
    /// than a `u16` type whose high byte is 0.
    pub fn has_link_flags(self) -> bool {
        self.magic == Magic::Nav3 || self.version >= 18
    }

    /// Exact file size for these counts (saturating; only used for capacity hints).
    pub fn file_size(self, nodes: usize, links: usize, traversals: usize, edicts: usize) -> usize {
        self.header_size()
            .saturating_add(nodes.saturating_mul(20))
            .saturating_add(links.saturating_mul(6))
            .saturating_add(traversals.saturating_mul(self.traversal_size()))
            .saturating_add(4)
            .saturating_add(edicts.saturating_mul(self.edict_layout().size()))
    }
}
