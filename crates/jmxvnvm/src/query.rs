//! Questions a bot or a map author asks of a region: where it lies in the world, which tile and
//! cell hold a point, how high the ground is there, whether it can be walked on.
//!
//! Points are region-local `(x, z)` in world units, `0.0..=1920.0` on both axes (the far edge
//! belongs to the last tile). Points outside, or not finite, give `None`.

use core::fmt;

use crate::model::{
    HEIGHTS_PER_SIDE, NavMeshTerrain, PLANE_SIZE, PLANES_PER_SIDE, REGION_SIZE, TILE_SIZE,
    TILES_PER_SIDE, TileFlag, TileMap,
};

/// A region id: the low byte is the region's x (column), the high byte its z (row).
/// Terrain files are named after it: `nv_{id:04x}.nvm`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId(pub u16);

impl RegionId {
    /// The id of the region at column `x`, row `z`.
    pub const fn from_xz(x: u8, z: u8) -> Self {
        RegionId(u16::from_le_bytes([x, z]))
    }

    /// The column (low byte).
    pub const fn x(self) -> u8 {
        self.0.to_le_bytes()[0]
    }

    /// The row (high byte).
    pub const fn z(self) -> u8 {
        self.0.to_le_bytes()[1]
    }

    /// The world position of the region's (0, 0) corner: `(x * 1920, z * 1920)`.
    pub fn origin(self) -> [f32; 2] {
        [
            f32::from(self.x()) * REGION_SIZE,
            f32::from(self.z()) * REGION_SIZE,
        ]
    }

    /// The region that holds a world position, and the position local to it; `None` outside the
    /// 256 × 256 regions or for values that are not finite.
    pub fn locate(world_x: f32, world_z: f32) -> Option<(RegionId, [f32; 2])> {
        let rx = (world_x / REGION_SIZE).floor();
        let rz = (world_z / REGION_SIZE).floor();
        if !(0.0..256.0).contains(&rx) || !(0.0..256.0).contains(&rz) {
            return None;
        }
        // In range 0..256 and whole, so the conversions are exact.
        #[allow(clippy::cast_possible_truncation)]
        let (x, z) = (rx as u8, rz as u8);
        let id = RegionId::from_xz(x, z);
        let [ox, oz] = id.origin();
        Some((id, [world_x - ox, world_z - oz]))
    }

    /// The neighbour one region away in x and z (`dx`, `dz` in -1..=1), wrapping at the map edge.
    pub fn neighbour(self, dx: i8, dz: i8) -> Self {
        RegionId::from_xz(
            self.x().wrapping_add_signed(dx),
            self.z().wrapping_add_signed(dz),
        )
    }

    /// The terrain navmesh file name, `nv_61a8.nvm`.
    pub fn file_name(self) -> String {
        format!("nv_{:04x}.nvm", self.0)
    }
}

impl fmt::Display for RegionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#06x} (x {}, z {})", self.0, self.x(), self.z())
    }
}

/// The grid cell of a point on a grid of `n` squares of `size` units, clamping the far edge.
fn grid(v: f32, size: f32, n: usize) -> Option<usize> {
    if !(0.0..=REGION_SIZE).contains(&v) {
        return None;
    }
    let i = (v / size).floor();
    // `v` is in 0..=1920 and `size` is TILE_SIZE or PLANE_SIZE, so `i` is a whole number in
    // 0..=96 and the cast is exact; the `min` clamps the far edge.
    #[allow(clippy::cast_possible_truncation)]
    let i = i as usize;
    Some(i.min(n - 1))
}

impl NavMeshTerrain {
    /// The tile index (`z * 96 + x`) under a region-local point.
    pub fn tile_at(&self, x: f32, z: f32) -> Option<usize> {
        let tx = grid(x, TILE_SIZE, TILES_PER_SIDE)?;
        let tz = grid(z, TILE_SIZE, TILES_PER_SIDE)?;
        Some(tz * TILES_PER_SIDE + tx)
    }

    /// The cell under a region-local point: in a modern file the tile's `CellIndex` when it
    /// names a cell; otherwise the first cell whose rectangle holds the point (edges included).
    pub fn cell_at(&self, x: f32, z: f32) -> Option<usize> {
        let tile = self.tile_at(x, z)?;
        if let TileMap::Modern(tiles) = &self.tile_map {
            if let Some(c) = tiles
                .get(tile)
                .and_then(|t| usize::try_from(t.cell_index).ok())
                .filter(|&c| c < self.cells.len())
            {
                return Some(c);
            }
        }
        self.cells.iter().position(|c| {
            c.min[0].get() <= x && x <= c.max[0].get() && c.min[1].get() <= z && z <= c.max[1].get()
        })
    }

    /// The terrain height at a region-local point, interpolated bilinearly between the four
    /// height-map vertices around it (vertices every 20 units, `index = z * 97 + x`).
    pub fn height_at(&self, x: f32, z: f32) -> Option<f32> {
        let gx = grid(x, TILE_SIZE, TILES_PER_SIDE)?;
        let gz = grid(z, TILE_SIZE, TILES_PER_SIDE)?;
        let fx = x / TILE_SIZE - gx as f32;
        let fz = z / TILE_SIZE - gz as f32;
        let h = |i: usize, j: usize| {
            self.height_map
                .get(j * HEIGHTS_PER_SIDE + i)
                .map(|v| v.get())
        };
        let (h00, h10) = (h(gx, gz)?, h(gx + 1, gz)?);
        let (h01, h11) = (h(gx, gz + 1)?, h(gx + 1, gz + 1)?);
        let near = h00 + (h10 - h00) * fx;
        let far = h01 + (h11 - h01) * fx;
        Some(near + (far - near) * fz)
    }

    /// Whether a region-local point is blocked: in a modern file the tile's `Blocked` flag; in a
    /// legacy file (whose tiles have no flags) whether the cell under it is past the open cells,
    /// or no cell holds it.
    pub fn is_blocked(&self, x: f32, z: f32) -> Option<bool> {
        let tile = self.tile_at(x, z)?;
        match &self.tile_map {
            TileMap::Modern(tiles) => tiles.get(tile).map(|t| t.flags & TileFlag::BLOCKED != 0),
            TileMap::Legacy(_) => Some(
                self.cell_at(x, z)
                    .is_none_or(|c| u32::try_from(c).map_or(true, |c| c >= self.open_cell_count)),
            ),
        }
    }

    /// The plane (type and height) over a region-local point, where the file has plane maps.
    pub fn plane_at(&self, x: f32, z: f32) -> Option<(u8, f32)> {
        let px = grid(x, PLANE_SIZE, PLANES_PER_SIDE)?;
        let pz = grid(z, PLANE_SIZE, PLANES_PER_SIDE)?;
        let planes = self.planes.as_ref()?;
        let i = pz * PLANES_PER_SIDE + px;
        Some((*planes.types.get(i)?, planes.heights.get(i)?.get()))
    }
}
