//! The fixed-size records of a Source 2 `.nav` file as zerocopy structs over the input, the
//! connection lists of an area as stored, and the small reader of the parse's fast path.

use nav_core::RawF32;
use nav_core::scalar::{F32, U32};
use nav_core::zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// Three floats.
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawVec3(pub [F32; 3]);

impl RawVec3 {
    /// The floats by their bits.
    pub fn get(&self) -> [RawF32; 3] {
        self.0.map(RawF32::from)
    }
}

/// A connection: target area id and edge (8 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawConnection {
    /// The area reached.
    pub area_id: U32,
    /// The edge of that area.
    pub edge: U32,
}

/// A hiding spot (17 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawHidingSpot {
    /// The spot id.
    pub id: U32,
    /// The position.
    pub position: RawVec3,
    /// Flags.
    pub flags: u8,
}

/// The ladder fields every version stores (60 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawLadder {
    /// Id.
    pub id: U32,
    /// Width.
    pub width: F32,
    /// Top.
    pub top: RawVec3,
    /// Bottom.
    pub bottom: RawVec3,
    /// Length.
    pub length: F32,
    /// Direction.
    pub direction: U32,
    /// Top forward, top left, top right, top behind and bottom area ids.
    pub areas: [U32; 5],
}

/// A v35+ ladder: the common fields and the bottom-left and bottom-right area ids (68 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawLadderV35 {
    /// The common fields.
    pub base: RawLadder,
    /// Bottom left and bottom right area ids.
    pub bottom_sides: [U32; 2],
}

/// A transformed bounding box (72 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct RawBounds {
    /// Minimum.
    pub mins: RawVec3,
    /// Maximum.
    pub maxs: RawVec3,
    /// The 3×4 matrix.
    pub transform: [F32; 12],
}

/// The ladder records, in their version's size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ladders<'a> {
    /// Before v35.
    V30(&'a [RawLadder]),
    /// v35 and up.
    V35(&'a [RawLadderV35]),
}

impl Ladders<'_> {
    /// Number of ladders.
    pub fn len(&self) -> usize {
        match self {
            Ladders::V30(l) => l.len(),
            Ladders::V35(l) => l.len(),
        }
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The records' bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Ladders::V30(l) => l.as_bytes(),
            Ladders::V35(l) => l.as_bytes(),
        }
    }
}

/// The connection lists of an area, one per edge, borrowed as stored: each list is a `u32`
/// count and its records. The parse checked them; the area keeps one slice instead of a list of
/// slices, so that parsing allocates nothing per area.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLists<'a> {
    bytes: &'a [u8],
    edges: usize,
}

impl<'a> ConnectionLists<'a> {
    /// The lists of an area of `edges` edges, stored in `bytes` (checked by the parse).
    pub(super) fn new(bytes: &'a [u8], edges: usize) -> Self {
        ConnectionLists { bytes, edges }
    }
    /// Number of lists (the area's edge count).
    pub fn len(&self) -> usize {
        self.edges
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.edges == 0
    }
    /// The lists' bytes as stored (counts and records).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }
    /// The lists, in edge order.
    pub fn iter(&self) -> ConnectionListIter<'a> {
        ConnectionListIter {
            rest: self.bytes,
            left: self.edges,
        }
    }
    /// The list of edge `e`.
    pub fn get(&self, e: usize) -> Option<&'a [RawConnection]> {
        self.iter().nth(e)
    }
}

impl core::fmt::Debug for ConnectionLists<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for ConnectionLists<'a> {
    type Item = &'a [RawConnection];
    type IntoIter = ConnectionListIter<'a>;
    fn into_iter(self) -> ConnectionListIter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &ConnectionLists<'a> {
    type Item = &'a [RawConnection];
    type IntoIter = ConnectionListIter<'a>;
    fn into_iter(self) -> ConnectionListIter<'a> {
        self.iter()
    }
}

/// The iterator of [`ConnectionLists`].
#[derive(Debug, Clone)]
pub struct ConnectionListIter<'a> {
    rest: &'a [u8],
    left: usize,
}

impl<'a> Iterator for ConnectionListIter<'a> {
    type Item = &'a [RawConnection];

    #[inline]
    fn next(&mut self) -> Option<&'a [RawConnection]> {
        self.left = self.left.checked_sub(1)?;
        let mut b = Bytes(self.rest);
        // The parse checked every list; an unreadable one (impossible) reads as empty.
        let list = b.u32().and_then(|n| b.slice(n as usize)).unwrap_or(&[]);
        self.rest = b.0;
        Some(list)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl ExactSizeIterator for ConnectionListIter<'_> {}

/// A reader over the input that only says whether it ran out: the fast path of the parse. When
/// it fails, the parse reads the same record again with the cursor, which names the field and
/// the offset in its error.
pub(super) struct Bytes<'a>(pub(super) &'a [u8]);

impl<'a> Bytes<'a> {
    #[inline(always)]
    pub(super) fn read<T: FromBytes + KnownLayout + Immutable + Unaligned>(
        &mut self,
    ) -> Option<&'a T> {
        let (t, rest) = T::ref_from_prefix(self.0).ok()?;
        self.0 = rest;
        Some(t)
    }
    #[inline(always)]
    pub(super) fn slice<T: FromBytes + KnownLayout + Immutable + Unaligned>(
        &mut self,
        n: usize,
    ) -> Option<&'a [T]> {
        let (t, rest) = <[T]>::ref_from_prefix_with_elems(self.0, n).ok()?;
        self.0 = rest;
        Some(t)
    }
    #[inline(always)]
    pub(super) fn u8(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }
    #[inline(always)]
    pub(super) fn u32(&mut self) -> Option<u32> {
        self.read::<U32>().map(|v| v.get())
    }
}
