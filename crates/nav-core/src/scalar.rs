//! Little-endian, alignment-1 scalars, and floats kept as raw bits.
//!
//! Every navmesh format here is packed: a `u32` may sit at an odd offset. The zerocopy byte-order
//! types are alignment 1, so a `#[repr(C)]` struct of them maps straight onto the input bytes.
//! Their `PartialEq` compares bytes, so an [`F32`] holding `-0.0` differs from one holding `0.0`:
//! exactly what a byte-exact round trip needs.
//!
//! The owned models use [`RawF32`]: a float by its bit pattern, shown as a number to people and
//! in JSON, compared by bits.

use core::fmt;

pub use zerocopy::little_endian::{F32, F64, I16, I32, I64, U16, U32, U64};
pub use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

/// An `f32` kept as its bit pattern.
///
/// Two values are equal when their bits are equal, so `-0.0 != 0.0` and a NaN equals itself.
/// `Debug` shows the number (`0.8`, `-0.0`), and the bits for NaN (`NaN(0x7fc00000)`).
/// With the `serde` feature a finite value serialises as a JSON number and anything else as a
/// string of its bits, `"0x7fc00000"`; both forms deserialise back to the same bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub struct RawF32(pub u32);

impl RawF32 {
    /// Positive zero.
    pub const ZERO: RawF32 = RawF32(0);

    /// The value with these bits.
    pub const fn from_bits(bits: u32) -> Self {
        RawF32(bits)
    }

    /// The bit pattern.
    pub const fn to_bits(self) -> u32 {
        self.0
    }

    /// The value of a float (its bits, exactly).
    pub fn new(value: f32) -> Self {
        RawF32(value.to_bits())
    }

    /// The float these bits encode.
    pub fn get(self) -> f32 {
        f32::from_bits(self.0)
    }
}

impl From<f32> for RawF32 {
    fn from(value: f32) -> Self {
        RawF32::new(value)
    }
}

impl From<F32> for RawF32 {
    fn from(value: F32) -> Self {
        RawF32(u32::from_le_bytes(value.to_bytes()))
    }
}

impl From<&F32> for RawF32 {
    fn from(value: &F32) -> Self {
        RawF32::from(*value)
    }
}

impl From<RawF32> for F32 {
    fn from(value: RawF32) -> Self {
        F32::from_bytes(value.0.to_le_bytes())
    }
}

impl fmt::Debug for RawF32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.get();
        if v.is_nan() {
            write!(f, "NaN({:#010x})", self.0)
        } else {
            fmt::Debug::fmt(&v, f)
        }
    }
}

impl fmt::Display for RawF32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Floats shown as a tuple, `(1.0, -0.0, 2.5)`, each as [`RawF32`] shows itself: the form the
/// format crates' dumps give positions and vectors.
///
/// ```
/// use nav_core::{RawF32, scalar::Tuple};
/// let v = [RawF32::new(1.0), RawF32::new(-0.0), RawF32::new(2.5)];
/// assert_eq!(Tuple(&v).to_string(), "(1.0, -0.0, 2.5)");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Tuple<'a>(pub &'a [RawF32]);

impl fmt::Display for Tuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, v) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{v}")?;
        }
        f.write_str(")")
    }
}

#[cfg(feature = "serde")]
mod serde_impl {
    use super::RawF32;
    use core::fmt;
    use serde::de::{self, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for RawF32 {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let v = self.get();
            if v.is_finite() {
                s.serialize_f32(v)
            } else {
                s.serialize_str(&format!("{:#010x}", self.0))
            }
        }
    }

    struct RawVisitor;

    impl Visitor<'_> for RawVisitor {
        type Value = RawF32;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a number, or a string of float bits such as \"0x7fc00000\"")
        }

        // JSON holds the shortest decimal that reads back to the stored f32, so rounding the
        // f64 to the nearest f32 gives those bits back.
        #[allow(clippy::cast_possible_truncation)]
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawF32, E> {
            Ok(RawF32::new(v as f32))
        }

        fn visit_f32<E: de::Error>(self, v: f32) -> Result<RawF32, E> {
            Ok(RawF32::new(v))
        }

        fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawF32, E> {
            Ok(RawF32::new(v as f32))
        }

        fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawF32, E> {
            Ok(RawF32::new(v as f32))
        }

        fn visit_str<E: de::Error>(self, v: &str) -> Result<RawF32, E> {
            let hex = v
                .strip_prefix("0x")
                .or_else(|| v.strip_prefix("0X"))
                .ok_or_else(|| E::custom(format!("float bits {v:?} must start with 0x")))?;
            u32::from_str_radix(hex, 16)
                .map(RawF32)
                .map_err(|_| E::custom(format!("float bits {v:?} are not a 32-bit hex number")))
        }
    }

    impl<'de> Deserialize<'de> for RawF32 {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RawF32, D::Error> {
            d.deserialize_any(RawVisitor)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_compare_not_values() {
        assert_ne!(RawF32::new(0.0), RawF32::new(-0.0));
        let nan = RawF32(0x7fc0_0001);
        assert_eq!(nan, nan);
        assert_eq!(format!("{nan:?}"), "NaN(0x7fc00001)");
        assert_eq!(format!("{:?}", RawF32::new(-0.0)), "-0.0");
        assert_eq!(format!("{:?}", RawF32::new(0.8)), "0.8");
    }

    #[test]
    fn zerocopy_f32_round_trips_bits() {
        for bits in [0u32, 0x8000_0000, 0x7fc0_0000, 0xffff_ffff, 0x3f4c_cccd] {
            let raw = RawF32(bits);
            let le: F32 = raw.into();
            assert_eq!(RawF32::from(le), raw);
            assert_eq!(le.to_bytes(), bits.to_le_bytes());
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_round_trips_every_kind_of_float() {
        // A deterministic sweep over many bit patterns: every class of float, and a walk through
        // the whole range with an odd stride so that every exponent is visited.
        let mut patterns = vec![
            0u32,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            1,
            0x0080_0000,
        ];
        let mut bits = 0u32;
        for _ in 0..200_000 {
            bits = bits.wrapping_add(0x0000_5a5b);
            patterns.push(bits);
        }
        for bits in patterns {
            let raw = RawF32(bits);
            let json = serde_json::to_string(&raw).unwrap();
            let back: RawF32 = serde_json::from_str(&json).unwrap();
            assert_eq!(
                back, raw,
                "bits {bits:#010x} went to {json} and came back different"
            );
        }
    }
}
