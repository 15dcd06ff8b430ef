//! [`ShortVec`]: the list type of the models' short per-record lists that a format lets grow (a
//! nav2-mgsv node's links, a Source area's connections per direction, an encounter path's spots),
//! kept inside the record up to `N` items so that copying a file into a model does not allocate
//! once per record. A model with a hundred thousand records and a list or two in each would
//! otherwise spend a tenth of its copy in the allocator, and more once a second thread runs (the
//! system allocator then locks its arena on every call its thread cache cannot serve).

use smallvec::SmallVec;
use std::fmt;
use std::ops::{Deref, DerefMut};

/// A list that holds up to `N` items inside its record and moves to the heap beyond that.
///
/// It reads like a `Vec<T>`: it derefs to a slice (`len`, `iter`, indexing, `to_vec`), has
/// `push`, `pop`, `insert`, `remove`, `retain`, `clear`, `extend`, is built from a `Vec`, an
/// array, a slice or an iterator, compares with them, prints with `{:?}` exactly as a `Vec`, and
/// (with the `serde` feature) is a plain sequence, so the JSON of a model does not depend on it.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ShortVec<T, const N: usize>(SmallVec<[T; N]>);

impl<T, const N: usize> ShortVec<T, N> {
    /// An empty list.
    pub const fn new() -> Self {
        ShortVec(SmallVec::new_const())
    }
    /// An empty list with room for `n` items (on the heap only beyond `N`).
    pub fn with_capacity(n: usize) -> Self {
        ShortVec(SmallVec::with_capacity(n))
    }
    /// Appends an item.
    pub fn push(&mut self, value: T) {
        self.0.push(value);
    }
    /// Removes and returns the last item.
    pub fn pop(&mut self) -> Option<T> {
        self.0.pop()
    }
    /// Inserts an item at `index`, shifting the later ones; panics if `index > len`, like
    /// `Vec::insert`.
    pub fn insert(&mut self, index: usize, value: T) {
        self.0.insert(index, value);
    }
    /// Removes and returns the item at `index`; panics if `index >= len`, like `Vec::remove`.
    pub fn remove(&mut self, index: usize) -> T {
        self.0.remove(index)
    }
    /// Keeps the items for which `f` returns true, in order.
    pub fn retain(&mut self, f: impl FnMut(&mut T) -> bool) {
        self.0.retain(f);
    }
    /// Drops every item past the first `len`.
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }
    /// Removes every item.
    pub fn clear(&mut self) {
        self.0.clear();
    }
    /// The items as a slice.
    pub fn as_slice(&self) -> &[T] {
        &self.0
    }
    /// The items as a mutable slice.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.0
    }
    /// The items as a `Vec`.
    pub fn into_vec(self) -> Vec<T> {
        self.0.into_vec()
    }
    /// Whether the items have moved to the heap (more than `N` of them at some point).
    pub fn spilled(&self) -> bool {
        self.0.spilled()
    }
}

impl<T: Copy + Default, const N: usize> ShortVec<T, N> {
    /// `len` items, the `i`-th made by `f(i)`: filled in place when they fit inside the record,
    /// collected on the heap when not (no growth on the way either way).
    pub fn from_fn(len: usize, mut f: impl FnMut(usize) -> T) -> Self {
        if len <= N {
            // The whole array at once, so that the compiler can assemble it in registers rather
            // than store it item by item and load it back whole.
            let buf = std::array::from_fn(|i| if i < len { f(i) } else { T::default() });
            ShortVec(SmallVec::from_buf_and_len(buf, len))
        } else {
            ShortVec(SmallVec::from_vec((0..len).map(f).collect()))
        }
    }
}

impl<T: Default, const N: usize> ShortVec<T, N> {
    /// The items of a slice, each mapped by `f`, for any `N` and any item type: a list that
    /// fits is filled in place (its slots start as `T::default()`), a longer one collected on the
    /// heap. Cheaper than collecting an iterator, which grows the list item by item.
    pub fn from_slice_with<S>(items: &[S], mut f: impl FnMut(&S) -> T) -> Self {
        if items.len() <= N {
            let mut buf: [T; N] = std::array::from_fn(|_| T::default());
            for (slot, x) in buf.iter_mut().zip(items) {
                *slot = f(x);
            }
            ShortVec(SmallVec::from_buf_and_len(buf, items.len()))
        } else {
            ShortVec(SmallVec::from_vec(items.iter().map(f).collect()))
        }
    }
}

impl<T: Copy + Default> ShortVec<T, 4> {
    /// The items of a slice, each mapped by `f`. Lists of up to 4 (every list of the known
    /// files) are built directly inside the record, each of the 4 slots the item there or the
    /// default: a `match` on the length compiled to a jump through a table, which the branch
    /// predictor missed for the game's nodes (2 or 4 links, at random), and the copy took a
    /// twentieth longer.
    #[inline]
    pub fn from_slice_map<S: Copy>(items: &[S], f: impl Fn(S) -> T) -> Self {
        let d = T::default();
        if items.len() > 4 {
            return ShortVec(items.iter().map(|&x| f(x)).collect());
        }
        let buf = [0, 1, 2, 3].map(|i| items.get(i).map_or(d, |&x| f(x)));
        ShortVec(SmallVec::from_buf_and_len(buf, items.len()))
    }
}

impl<T: Clone, const N: usize> ShortVec<T, N> {
    /// Appends clones of the items of a slice.
    pub fn extend_from_slice(&mut self, items: &[T]) {
        self.0.extend(items.iter().cloned());
    }
    /// Cuts the list to `len` items or fills it up to `len` with clones of `value`.
    pub fn resize(&mut self, len: usize, value: T) {
        self.0.resize(len, value);
    }
}

impl<T, const N: usize> Default for ShortVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T, const N: usize> Deref for ShortVec<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.0
    }
}

impl<T, const N: usize> DerefMut for ShortVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.0
    }
}

impl<T, const N: usize> AsRef<[T]> for ShortVec<T, N> {
    fn as_ref(&self) -> &[T] {
        &self.0
    }
}

impl<T: fmt::Debug, const N: usize> fmt::Debug for ShortVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T, const N: usize> Extend<T> for ShortVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        self.0.extend(iter);
    }
}

impl<'a, T: Copy + 'a, const N: usize> Extend<&'a T> for ShortVec<T, N> {
    fn extend<I: IntoIterator<Item = &'a T>>(&mut self, iter: I) {
        self.0.extend(iter.into_iter().copied());
    }
}

impl<T, const N: usize> FromIterator<T> for ShortVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        ShortVec(iter.into_iter().collect())
    }
}

impl<T, const N: usize> From<Vec<T>> for ShortVec<T, N> {
    fn from(v: Vec<T>) -> Self {
        ShortVec(if v.len() <= N {
            v.into_iter().collect()
        } else {
            SmallVec::from_vec(v)
        })
    }
}

impl<T, const N: usize, const M: usize> From<[T; M]> for ShortVec<T, N> {
    fn from(a: [T; M]) -> Self {
        a.into_iter().collect()
    }
}

impl<T: Clone, const N: usize> From<&[T]> for ShortVec<T, N> {
    fn from(s: &[T]) -> Self {
        ShortVec(SmallVec::from(s))
    }
}

impl<T, const N: usize> From<ShortVec<T, N>> for Vec<T> {
    fn from(v: ShortVec<T, N>) -> Self {
        v.into_vec()
    }
}

impl<T: PartialEq, const N: usize> PartialEq<Vec<T>> for ShortVec<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: PartialEq, const N: usize> PartialEq<[T]> for ShortVec<T, N> {
    fn eq(&self, other: &[T]) -> bool {
        self.as_slice() == other
    }
}

impl<T: PartialEq, const N: usize, const M: usize> PartialEq<[T; M]> for ShortVec<T, N> {
    fn eq(&self, other: &[T; M]) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T, const N: usize> IntoIterator for ShortVec<T, N> {
    type Item = T;
    type IntoIter = smallvec::IntoIter<[T; N]>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a ShortVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, T, const N: usize> IntoIterator for &'a mut ShortVec<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter_mut()
    }
}

#[cfg(feature = "serde")]
impl<T: serde::Serialize, const N: usize> serde::Serialize for ShortVec<T, N> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(feature = "serde")]
impl<'de, T: serde::Deserialize<'de>, const N: usize> serde::Deserialize<'de> for ShortVec<T, N> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(deserializer).map(ShortVec::from)
    }
}

#[cfg(feature = "arbitrary")]
impl<'a, T: arbitrary::Arbitrary<'a>, const N: usize> arbitrary::Arbitrary<'a> for ShortVec<T, N> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Vec::<T>::arbitrary(u).map(ShortVec::from)
    }
    fn arbitrary_take_rest(u: arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        Vec::<T>::arbitrary_take_rest(u).map(ShortVec::from)
    }
    fn size_hint(depth: usize) -> (usize, Option<usize>) {
        Vec::<T>::size_hint(depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_a_vec() {
        let mut v: ShortVec<u16, 2> = ShortVec::new();
        assert!(v.is_empty());
        v.push(1);
        v.push(2);
        assert!(!v.spilled());
        v.push(3);
        assert!(v.spilled());
        assert_eq!(v, vec![1, 2, 3]);
        assert_eq!(v[2], 3);
        assert_eq!(format!("{v:?}"), format!("{:?}", vec![1u16, 2, 3]));
        assert_eq!(format!("{v:#?}"), format!("{:#?}", vec![1u16, 2, 3]));
        let w: ShortVec<u16, 2> = vec![1, 2, 3].into();
        assert_eq!(v, w);
        assert_eq!(v.remove(0), 1);
        v.insert(0, 9);
        v.retain(|x| *x != 2);
        assert_eq!(v, [9, 3]);
        assert_eq!(Vec::from(v.clone()), vec![9, 3]);
        v.extend([4, 5]);
        let inline: ShortVec<u16, 2> = ShortVec::from_fn(2, |i| [0, 10][i]);
        assert!(!inline.spilled());
        assert_eq!(inline, [0, 10]);
        let heap: ShortVec<u16, 2> = ShortVec::from_fn(3, |i| [0, 1, 2][i]);
        assert!(heap.spilled());
        assert_eq!(heap, [0, 1, 2]);
        assert_eq!(v.iter().copied().sum::<u16>(), 21);
        assert_eq!(v.into_iter().collect::<Vec<_>>(), vec![9, 3, 4, 5]);
    }

    /// Every length, the ones built in place (up to 4) and the ones past them, maps each item
    /// in order and ends up inline exactly when it fits.
    #[test]
    fn from_slice_map_maps_every_length() {
        let items: Vec<u8> = (1..=7).collect();
        for len in 0..=items.len() {
            let v: ShortVec<u16, 4> = ShortVec::from_slice_map(&items[..len], |x| u16::from(x) * 3);
            let want: Vec<u16> = items[..len].iter().map(|&x| u16::from(x) * 3).collect();
            assert_eq!(v, want, "length {len}");
            assert_eq!(v.spilled(), len > 4, "length {len}");
        }
    }

    /// `from_slice_with` at every length around `N`, with an item type that is not `Copy`.
    #[test]
    fn from_slice_with_maps_every_length() {
        let items: Vec<u8> = (1..=5).collect();
        for len in 0..=items.len() {
            let v: ShortVec<ShortVec<u8, 2>, 3> =
                ShortVec::from_slice_with(&items[..len], |&x| ShortVec::from([x, x + 1]));
            let want: Vec<ShortVec<u8, 2>> = items[..len]
                .iter()
                .map(|&x| ShortVec::from([x, x + 1]))
                .collect();
            assert_eq!(v.as_slice(), want.as_slice(), "length {len}");
            assert_eq!(v.spilled(), len > 3, "length {len}");
        }
    }
}
