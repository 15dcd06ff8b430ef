//! Which way is up: the axis conventions of the formats and of glTF and OBJ.

/// Which coordinate axis points up in a format's world space.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpAxis {
    /// Y up (Fox Engine, Silkroad).
    Y,
    /// Z up (Quake, Source, Skyrim).
    Z,
}

impl UpAxis {
    /// A point of this axis convention in the Y-up, right-handed convention of glTF and OBJ: a
    /// Z-up `(x, y, z)` becomes `(x, z, -y)`. A rotation (no mirror), so a triangle that is
    /// counter-clockwise seen from above stays so. [`UpAxis::from_y_up`] is its exact inverse.
    pub fn to_y_up(self, p: [f32; 3]) -> [f32; 3] {
        match self {
            UpAxis::Y => p,
            UpAxis::Z => [p[0], p[2], -p[1]],
        }
    }

    /// A Y-up, right-handed point (glTF, OBJ) in this axis convention: a Z-up world gets
    /// `(x, -z, y)`. The exact inverse of [`UpAxis::to_y_up`] (only negation and swaps, so every
    /// bit comes back).
    pub fn from_y_up(self, p: [f32; 3]) -> [f32; 3] {
        match self {
            UpAxis::Y => p,
            UpAxis::Z => [p[0], -p[2], p[1]],
        }
    }

    /// The two horizontal coordinates of a point, as (east, north) seen from above.
    pub fn plan(self, p: [f32; 3]) -> (f32, f32) {
        match self {
            UpAxis::Z => (p[0], p[1]),
            // Y-up worlds are right-handed with Z toward the viewer; looking down, -Z is north.
            UpAxis::Y => (p[0], -p[2]),
        }
    }
}
