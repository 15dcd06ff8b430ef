//! [`Sides`]: the list type of a mesh's per-side fields. A mesh record has 3 or 4 sides, never
//! more, so the list is a fixed array of 4 and a length: a [`Mesh`](super::Mesh) is 44 bytes
//! instead of the 136 that three growable lists and a crossing of two more took, and copying a
//! file into the model touches a third of the memory for its meshes.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// The most items a [`Sides`] holds: a mesh has 3 or 4 sides.
pub const MAX_SIDES: usize = 4;

/// A list of at most [`MAX_SIDES`] items, held inside its record.
///
/// It reads like a `Vec<T>`: it derefs to a slice (`len`, `iter`, indexing, `get_mut`), compares
/// with slices, arrays and `Vec`s, prints with `{:?}` exactly as a `Vec`, and (with the `serde`
/// feature) is a plain sequence, so the JSON of a model is the same as with a `Vec`. What could
/// make it longer than 4 is fallible: [`Sides::try_push`], [`Sides::resize`], and the
/// conversions from a slice, a `Vec` or an iterator ([`TooManySides`]). Arrays of up to 4 items
/// convert with `From`.
#[derive(Clone, Copy)]
pub struct Sides<T> {
    items: [T; MAX_SIDES],
    len: u8,
}

/// A list of more than [`MAX_SIDES`] items given where a mesh's sides were expected; it holds
/// the length that was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooManySides(pub usize);

impl fmt::Display for TooManySides {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} items: a mesh has at most {MAX_SIDES} sides, one item per side",
            self.0
        )
    }
}

impl std::error::Error for TooManySides {}

impl<T: Copy + Default> Sides<T> {
    /// An empty list.
    pub fn new() -> Self {
        Sides {
            items: [T::default(); MAX_SIDES],
            len: 0,
        }
    }
    /// The items of a slice, or [`TooManySides`] when it has more than 4.
    pub fn from_slice(items: &[T]) -> Result<Self, TooManySides> {
        Self::from_fn(items.len(), |i| items[i])
    }
    /// `len` items, the `i`-th made by `f(i)`, or [`TooManySides`] when `len` is over 4.
    pub fn from_fn(len: usize, mut f: impl FnMut(usize) -> T) -> Result<Self, TooManySides> {
        let short = fits(len)?;
        // The whole array at once (not slot by slot into a list already in memory), so that the
        // compiler can assemble it in registers: copying a model is mostly this.
        Ok(Sides {
            items: std::array::from_fn(|i| if i < len { f(i) } else { T::default() }),
            len: short,
        })
    }
    /// The items of a slice, each mapped by `f`, or [`TooManySides`] when it has more than 4.
    /// Copying a file's meshes into the model is mostly this: each of the 4 slots is the item
    /// there or the default, chosen without a branch on the length (3 or 4 at random from mesh
    /// to mesh).
    pub fn from_slice_map<S: Copy>(items: &[S], f: impl Fn(S) -> T) -> Result<Self, TooManySides> {
        let len = fits(items.len())?;
        let d = T::default();
        Ok(Sides {
            items: [0, 1, 2, 3].map(|i| items.get(i).map_or(d, |&x| f(x))),
            len,
        })
    }
    /// The items of an iterator, or [`TooManySides`] when it yields more than 4 (it is read up
    /// to the fifth item only).
    pub fn try_from_iter(iter: impl IntoIterator<Item = T>) -> Result<Self, TooManySides> {
        let mut s = Self::new();
        for v in iter {
            s.try_push(v).map_err(|_| TooManySides(MAX_SIDES + 1))?;
        }
        Ok(s)
    }
    /// Appends an item; hands it back when the list already holds 4.
    pub fn try_push(&mut self, value: T) -> Result<(), T> {
        match self.items.get_mut(usize::from(self.len)) {
            Some(slot) => {
                *slot = value;
                self.len += 1;
                Ok(())
            }
            None => Err(value),
        }
    }
    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        let last = self.len.checked_sub(1)?;
        self.len = last;
        let slot = &mut self.items[usize::from(last)];
        Some(std::mem::take(slot))
    }
    /// Drops every item past the first `len`.
    pub fn truncate(&mut self, len: usize) {
        for slot in self.items.iter_mut().take(usize::from(self.len)).skip(len) {
            *slot = T::default();
        }
        self.len = self.len.min(u8::try_from(len).unwrap_or(u8::MAX));
    }
    /// Removes every item.
    pub fn clear(&mut self) {
        self.truncate(0);
    }
    /// Cuts the list to `len` items or fills it up to `len` with `value`; [`TooManySides`] (and
    /// the list unchanged) when `len` is over 4.
    pub fn resize(&mut self, len: usize, value: T) -> Result<(), TooManySides> {
        let short = fits(len)?;
        self.truncate(len);
        for slot in &mut self.items[usize::from(self.len)..len] {
            *slot = value;
        }
        self.len = short;
        Ok(())
    }
    /// All 4 slots, the unused ones holding `T::default()`: what a writer that knows the
    /// length by its case reads, without a check per item.
    pub(crate) fn slots(&self) -> &[T; MAX_SIDES] {
        &self.items
    }
    /// The items as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..usize::from(self.len)]
    }
    /// The items as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.items[..usize::from(self.len)]
    }
}

/// `len` as a stored length, or [`TooManySides`] when it is over 4.
fn fits(len: usize) -> Result<u8, TooManySides> {
    u8::try_from(len)
        .ok()
        .filter(|&n| usize::from(n) <= MAX_SIDES)
        .ok_or(TooManySides(len))
}

impl<T: Copy + Default> Default for Sides<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default> Deref for Sides<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default> DerefMut for Sides<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy + Default> AsRef<[T]> for Sides<T> {
    fn as_ref(&self) -> &[T] {
        self
    }
}

impl<T: Copy + Default + fmt::Debug> fmt::Debug for Sides<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_slice(), f)
    }
}

/// Equal when the items are: the unused slots do not count.
impl<T: Copy + Default + PartialEq> PartialEq for Sides<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq> Eq for Sides<T> {}

impl<T: Copy + Default + Hash> Hash for Sides<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_slice().hash(state);
    }
}

impl<T: Copy + Default + PartialEq> PartialEq<[T]> for Sides<T> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + Default + PartialEq, const M: usize> PartialEq<[T; M]> for Sides<T> {
    fn eq(&self, other: &[T; M]) -> bool {
        self.as_slice() == other
    }
}

impl<T: Copy + Default + PartialEq> PartialEq<Vec<T>> for Sides<T> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

macro_rules! from_arrays {
    ($($m:literal)*) => {$(
        impl<T: Copy + Default> From<[T; $m]> for Sides<T> {
            fn from(a: [T; $m]) -> Self {
                let mut s = Self::new();
                s.items[..$m].copy_from_slice(&a);
                s.len = $m;
                s
            }
        }
    )*};
}
from_arrays!(0 1 2 3 4);

impl<T: Copy + Default> TryFrom<&[T]> for Sides<T> {
    type Error = TooManySides;
    fn try_from(items: &[T]) -> Result<Self, TooManySides> {
        Self::from_slice(items)
    }
}

impl<T: Copy + Default> TryFrom<Vec<T>> for Sides<T> {
    type Error = TooManySides;
    fn try_from(items: Vec<T>) -> Result<Self, TooManySides> {
        Self::from_slice(&items)
    }
}

impl<T: Copy + Default> From<Sides<T>> for Vec<T> {
    fn from(s: Sides<T>) -> Self {
        s.to_vec()
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a Sides<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<'a, T: Copy + Default> IntoIterator for &'a mut Sides<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_mut_slice().iter_mut()
    }
}

#[cfg(feature = "serde")]
impl<T: Copy + Default + serde::Serialize> serde::Serialize for Sides<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

/// A sequence of at most 4 items; a longer one is refused with serde's `invalid_length`,
/// without reading past its fifth item.
#[cfg(feature = "serde")]
impl<'de, T: Copy + Default + serde::Deserialize<'de>> serde::Deserialize<'de> for Sides<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: Copy + Default + serde::Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
            type Value = Sides<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "a list of at most {MAX_SIDES} items, one per side")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Sides<T>, A::Error> {
                let mut s = Sides::new();
                while let Some(v) = seq.next_element()? {
                    if s.try_push(v).is_err() {
                        return Err(serde::de::Error::invalid_length(MAX_SIDES + 1, &self));
                    }
                }
                Ok(s)
            }
        }
        deserializer.deserialize_seq(Visit(std::marker::PhantomData))
    }
}

/// Up to 4 arbitrary items.
#[cfg(feature = "arbitrary")]
impl<'a, T: Copy + Default + arbitrary::Arbitrary<'a>> arbitrary::Arbitrary<'a> for Sides<T> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let len = u.int_in_range(0..=MAX_SIDES)?;
        let mut s = Sides::new();
        for _ in 0..len {
            // `len` is at most MAX_SIDES, so this always has room.
            let _ = s.try_push(T::arbitrary(u)?);
        }
        Ok(s)
    }
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        let (_, most) = T::size_hint(depth);
        (
            1,
            most.and_then(|m| m.checked_mul(MAX_SIDES)?.checked_add(8)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_a_vec_up_to_four() {
        let mut v: Sides<u16> = Sides::new();
        assert!(v.is_empty());
        assert_eq!(v.try_push(1), Ok(()));
        assert_eq!(v.try_push(2), Ok(()));
        assert_eq!(v, [1, 2]);
        assert_eq!(format!("{v:?}"), format!("{:?}", vec![1u16, 2]));
        assert_eq!(format!("{v:#?}"), format!("{:#?}", vec![1u16, 2]));
        v.resize(4, 9).unwrap();
        assert_eq!(v, vec![1, 2, 9, 9]);
        assert_eq!(v.try_push(5), Err(5));
        assert_eq!(v.resize(5, 0), Err(TooManySides(5)));
        assert_eq!(
            v,
            [1, 2, 9, 9],
            "a refused resize leaves the list as it was"
        );
        v[3] = 4;
        assert_eq!(v.pop(), Some(4));
        assert_eq!(v.iter().copied().sum::<u16>(), 12);
        v.truncate(1);
        assert_eq!(Vec::from(v), vec![1]);
        v.clear();
        assert_eq!(v.pop(), None);
    }

    #[test]
    fn unused_slots_do_not_count() {
        let mut a: Sides<u8> = [1, 2, 3, 4].into();
        a.truncate(3);
        let b: Sides<u8> = [1, 2, 3].into();
        assert_eq!(a, b);
        let mut c: Sides<u8> = [1, 2, 3, 7].into();
        assert_eq!(c.pop(), Some(7));
        assert_eq!(a, c);
    }

    #[test]
    fn a_fifth_item_is_refused_everywhere() {
        let five = [1u8, 2, 3, 4, 5];
        assert_eq!(Sides::from_slice(&five), Err(TooManySides(5)));
        assert_eq!(Sides::try_from(five.to_vec()), Err(TooManySides(5)));
        assert_eq!(Sides::from_fn(5, |_| 0u8), Err(TooManySides(5)));
        assert_eq!(Sides::try_from_iter(1u8..), Err(TooManySides(5)));
        assert_eq!(
            Sides::try_from_iter(1u8..5).map(Vec::from),
            Ok(vec![1, 2, 3, 4])
        );
        assert_eq!(
            TooManySides(5).to_string(),
            "5 items: a mesh has at most 4 sides, one item per side"
        );
    }

    /// The lengths a mesh record has (3 and 4) and every other one give what `from_fn` gives;
    /// a fifth item is refused.
    #[test]
    fn from_slice_map_agrees_with_from_fn() {
        let items = [7u8, 8, 9, 10, 11];
        for len in 0..=MAX_SIDES {
            let f = |x: u8| u16::from(x) << 8;
            let mapped = Sides::from_slice_map(&items[..len], f);
            let built = Sides::from_fn(len, |i| f(items[i]));
            assert_eq!(mapped, built, "length {len}");
            assert_eq!(mapped.map(|s| s.len()), Ok(len));
        }
        assert_eq!(
            Sides::from_slice_map(&items, u16::from),
            Err(TooManySides(5))
        );
    }

    #[test]
    fn is_small() {
        assert_eq!(std::mem::size_of::<Sides<u16>>(), 10);
        assert_eq!(std::mem::size_of::<Sides<u8>>(), 5);
    }
}
