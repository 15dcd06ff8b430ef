//! The uids of files and data chunks (`{Index:15, TileId:16, reserved:1}`), below the model's
//! other modules; [`super`] re-exports them.

/// A `u32` holding `{Index:15, TileId:16, reserved:1}`, used by FileHeader.FileUid and
/// DataChunkUid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct FileUid(pub u32);

impl FileUid {
    /// A uid from its parts; bits that do not fit are dropped.
    pub fn new(index: u16, tile_id: u16) -> Self {
        FileUid(u32::from(index & 0x7fff) | (u32::from(tile_id) << 15))
    }
    /// Index (15 bits): the split-file number of a file, the group of a data chunk.
    pub fn index(self) -> u16 {
        (self.0 & 0x7fff) as u16
    }
    /// TileId (16 bits): `tileX + 64 · tileZ`.
    pub fn tile_id(self) -> u16 {
        ((self.0 >> 15) & 0xffff) as u16
    }
    /// The top bit, 0 in every known file.
    pub fn reserved(self) -> bool {
        self.0 >> 31 != 0
    }
}

/// DataChunkUid: the same bit layout as [`FileUid`]; its index names a group of four chunks.
pub type DataChunkUid = FileUid;
