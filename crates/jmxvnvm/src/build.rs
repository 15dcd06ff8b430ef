//! A builder of whole terrain navmeshes, and the sample regions the crate ships.
//!
//! [`TerrainBuilder`] starts from a flat, open region and takes heights, blocked tiles, tile
//! textures, objects and water planes. [`TerrainBuilder::build`] then derives what the game
//! derives from them:
//!
//! - **cells**: the region is cut into square blocks (16 tiles by default) and each block into
//!   rectangles of tiles that are all open or all blocked (greedy: widest run first, then as many
//!   rows as match). Open cells come first, so `open_cell_count` is the number of open cells.
//! - **tile map**: each tile names its cell; blocked tiles carry [`TileFlag::BLOCKED`].
//! - **internal edges** ([`internal_edges`]): one edge per maximal run of tile boundary between
//!   two cells, side 0 the cell with the smaller x (or z), flagged [`EdgeFlag::INTERNAL`], plus
//!   [`EdgeFlag::BLOCKED`] when either cell is blocked.
//! - **global edges** ([`global_edges`]): one per maximal run of region border along one cell,
//!   side 1 in the neighbour region (its cell index taken as if the neighbour repeated this
//!   region's cells), flagged [`EdgeFlag::GLOBAL`].
//! - **cell object lists**: each object is listed in every cell its footprint square overlaps.
//!
//! Directions follow [`EdgeDirection`]: 0 the min-z side, 1 min-x, 2 max-z, 3 max-x.
//! Everything is computed with exact float operations only, so the bytes are the same on every
//! platform.

use nav_core::RawF32;

use crate::model::{
    CellQuad, EdgeDirection, EdgeFlag, EdgeGlobal, EdgeInternal, HEIGHT_COUNT, HEIGHTS_PER_SIDE,
    LinkedEdge, NavMeshObj, NavMeshTerrain, PLANE_COUNT, PlaneMaps, PlaneType, TILE_COUNT,
    TILE_SIZE, TILES_PER_SIDE, Tile, TileFlag, TileMap,
};
use crate::query::RegionId;

const N: usize = TILES_PER_SIDE;

/// Builds a [`NavMeshTerrain`] from heights, blocked tiles and objects.
#[derive(Debug, Clone)]
pub struct TerrainBuilder {
    region: RegionId,
    heights: Vec<RawF32>,
    blocked: Vec<bool>,
    tile_flags: Vec<u16>,
    textures: Vec<u16>,
    objects: Vec<(NavMeshObj, f32)>,
    planes: Option<PlaneMaps>,
    legacy: bool,
    block: usize,
}

impl TerrainBuilder {
    /// A flat region at height 0, all open, no objects, empty plane maps, modern layout.
    pub fn new(region: RegionId) -> Self {
        TerrainBuilder {
            region,
            heights: vec![RawF32::ZERO; HEIGHT_COUNT],
            blocked: vec![false; TILE_COUNT],
            tile_flags: vec![0; TILE_COUNT],
            textures: vec![0; TILE_COUNT],
            objects: Vec::new(),
            planes: Some(PlaneMaps {
                types: vec![PlaneType::NONE; PLANE_COUNT],
                heights: vec![RawF32::ZERO; PLANE_COUNT],
            }),
            legacy: false,
            block: 16,
        }
    }

    /// Sets every height-map vertex from `f(x, z)` (vertex indices 0..=96).
    pub fn heights(mut self, f: impl Fn(usize, usize) -> f32) -> Self {
        for z in 0..HEIGHTS_PER_SIDE {
            for x in 0..HEIGHTS_PER_SIDE {
                self.heights[z * HEIGHTS_PER_SIDE + x] = RawF32::new(f(x, z));
            }
        }
        self
    }

    /// Blocks the tiles `x0..x1` × `z0..z1` (tile indices, clipped to the map).
    pub fn block_tiles(mut self, x0: usize, z0: usize, x1: usize, z1: usize) -> Self {
        for z in z0..z1.min(N) {
            for x in x0..x1.min(N) {
                self.blocked[z * N + x] = true;
            }
        }
        self
    }

    /// Ors `flags` into the tiles `x0..x1` × `z0..z1` (for bits other than `Blocked`).
    pub fn tile_flags(mut self, x0: usize, z0: usize, x1: usize, z1: usize, flags: u16) -> Self {
        for z in z0..z1.min(N) {
            for x in x0..x1.min(N) {
                self.tile_flags[z * N + x] |= flags;
            }
        }
        self
    }

    /// Sets the texture of every tile from `f(x, z)`.
    pub fn textures(mut self, f: impl Fn(usize, usize) -> u16) -> Self {
        for z in 0..N {
            for x in 0..N {
                self.textures[z * N + x] = f(x, z);
            }
        }
        self
    }

    /// Adds an object whose footprint is a square of `half_size` units around its position.
    pub fn object(mut self, object: NavMeshObj, half_size: f32) -> Self {
        self.objects.push((object, half_size));
        self
    }

    /// Sets one 320-unit plane block (`x`, `z` in 0..6) to a type and height.
    pub fn plane(mut self, x: usize, z: usize, kind: u8, height: f32) -> Self {
        if let Some(p) = &mut self.planes {
            let i = z * 6 + x;
            if let (Some(t), Some(h)) = (p.types.get_mut(i), p.heights.get_mut(i)) {
                *t = kind;
                *h = RawF32::new(height);
            }
        }
        self
    }

    /// Sets every plane height (where no block was given one with [`plane`](Self::plane) yet).
    pub fn plane_height(mut self, height: f32) -> Self {
        if let Some(p) = &mut self.planes {
            for (t, h) in p.types.iter().zip(&mut p.heights) {
                if *t == PlaneType::NONE {
                    *h = RawF32::new(height);
                }
            }
        }
        self
    }

    /// Makes a legacy file: 4-byte tiles (all zero, as in every legacy file seen), with or
    /// without the plane maps.
    pub fn legacy(mut self, with_planes: bool) -> Self {
        self.legacy = true;
        if !with_planes {
            self.planes = None;
        }
        self
    }

    /// Sets the side, in tiles, of the square blocks cells never cross (1..=96; default 16).
    pub fn block_size(mut self, tiles: usize) -> Self {
        self.block = tiles.clamp(1, N);
        self
    }

    /// Derives cells, tiles, edges and cell object lists, and returns the model.
    pub fn build(self) -> NavMeshTerrain {
        // Cells: greedy rectangles per block, open and blocked apart.
        let mut owner = vec![usize::MAX; TILE_COUNT];
        let mut rects: Vec<(usize, usize, usize, usize, bool)> = Vec::new();
        for bz in (0..N).step_by(self.block) {
            for bx in (0..N).step_by(self.block) {
                let (ex, ez) = ((bx + self.block).min(N), (bz + self.block).min(N));
                for z in bz..ez {
                    for x in bx..ex {
                        if owner[z * N + x] != usize::MAX {
                            continue;
                        }
                        let kind = self.blocked[z * N + x];
                        let same = |xx: usize, zz: usize| {
                            owner[zz * N + xx] == usize::MAX && self.blocked[zz * N + xx] == kind
                        };
                        let mut x1 = x + 1;
                        while x1 < ex && same(x1, z) {
                            x1 += 1;
                        }
                        let mut z1 = z + 1;
                        while z1 < ez && (x..x1).all(|xx| same(xx, z1)) {
                            z1 += 1;
                        }
                        let id = rects.len();
                        for zz in z..z1 {
                            for xx in x..x1 {
                                owner[zz * N + xx] = id;
                            }
                        }
                        rects.push((x, z, x1, z1, kind));
                    }
                }
            }
        }
        // Open cells first, keeping the order within each kind.
        let mut order: Vec<usize> = (0..rects.len()).collect();
        order.sort_by_key(|&i| rects[i].4);
        let mut rank = vec![0usize; rects.len()];
        for (new, &old) in order.iter().enumerate() {
            rank[old] = new;
        }
        let open = rects.iter().filter(|r| !r.4).count();
        let cell_of = |x: usize, z: usize| rank[owner[z * N + x]];
        // A cell is a rectangle of at least one tile, so ranks and `open` are at most
        // TILE_COUNT (9,216): they fit the `i32` and `u32` fields below.
        const _: () = assert!(TILE_COUNT <= i32::MAX as usize);

        let coord = |t: usize| RawF32::new(t as f32 * TILE_SIZE);
        let mut cells: Vec<CellQuad> = order
            .iter()
            .map(|&i| {
                let (x0, z0, x1, z1, _) = rects[i];
                CellQuad {
                    min: [coord(x0), coord(z0)],
                    max: [coord(x1), coord(z1)],
                    object_indices: Vec::new(),
                }
            })
            .collect();
        // Object indices are `u16` in the file: an object past index 65,535 cannot be listed in
        // a cell (the model then has more objects than the `u16` object count holds, which the
        // writer refuses by name), so the listing stops there instead of wrapping.
        for ((o, half), oi) in self.objects.iter().zip(0..=u16::MAX) {
            let (px, pz) = (o.local_position[0].get(), o.local_position[2].get());
            for c in &mut cells {
                let overlaps = px + half >= c.min[0].get()
                    && px - half <= c.max[0].get()
                    && pz + half >= c.min[1].get()
                    && pz - half <= c.max[1].get();
                if overlaps {
                    c.object_indices.push(oi);
                }
            }
        }

        let table: Vec<Option<usize>> = (0..TILE_COUNT).map(|i| Some(rank[owner[i]])).collect();
        let internal_edges = internal_edges(&table, open);
        let global_edges = global_edges(&table, self.region);

        let tile_map = if self.legacy {
            TileMap::Legacy(vec![0; TILE_COUNT])
        } else {
            TileMap::Modern(
                (0..TILE_COUNT)
                    .map(|i| {
                        let (x, z) = (i % N, i / N);
                        let blocked = if self.blocked[i] {
                            TileFlag::BLOCKED
                        } else {
                            0
                        };
                        // At most TILE_COUNT (asserted above), so the cast is exact.
                        #[allow(clippy::cast_possible_truncation)]
                        let cell_index = cell_of(x, z) as i32;
                        Tile {
                            cell_index,
                            flags: self.tile_flags[i] | blocked,
                            texture_id: self.textures[i],
                        }
                    })
                    .collect(),
            )
        };

        // At most TILE_COUNT (asserted above), so the cast is exact.
        #[allow(clippy::cast_possible_truncation)]
        let open_cell_count = open as u32;
        NavMeshTerrain {
            objects: self.objects.into_iter().map(|(o, _)| o).collect(),
            open_cell_count,
            cells,
            global_edges,
            internal_edges,
            tile_map,
            height_map: self.heights,
            planes: self.planes,
        }
    }
}

/// The internal edges of a region whose tile `z * 96 + x` lies in cell `cells[z * 96 + x]`
/// (`None`: in no cell): one edge per maximal run of tile boundary between two different cells,
/// vertical boundaries (between x and x + 1) first, then horizontal ones; side 0 is the cell
/// with the smaller x (or z), the directions face each other, and the flags are
/// [`EdgeFlag::INTERNAL`], plus [`EdgeFlag::BLOCKED`] when either cell is past the `open` open
/// cells. A boundary with a tile in no cell has no edge.
pub fn internal_edges(cells: &[Option<usize>], open: usize) -> Vec<EdgeInternal> {
    let cell_of = |x: usize, z: usize| cells.get(z * N + x).copied().flatten();
    let coord = |t: usize| RawF32::new(t as f32 * TILE_SIZE);
    let mut edges = Vec::new();
    let mut push = |a: usize, b: usize, from: [usize; 2], to: [usize; 2], vertical| {
        let blocked = a >= open || b >= open;
        let (da, db) = if vertical {
            (EdgeDirection::RIGHT, EdgeDirection::LEFT)
        } else {
            (EdgeDirection::TOP, EdgeDirection::BOTTOM)
        };
        edges.push(EdgeInternal {
            min: [coord(from[0]), coord(from[1])],
            max: [coord(to[0]), coord(to[1])],
            flags: EdgeFlag::INTERNAL | if blocked { EdgeFlag::BLOCKED } else { 0 },
            assoc_direction: [da, db],
            assoc_cell_index: [cell_index(a), cell_index(b)],
        });
    };
    for x in 0..N - 1 {
        let mut z = 0;
        while z < N {
            let (a, b) = (cell_of(x, z), cell_of(x + 1, z));
            let (Some(ca), Some(cb)) = (a, b) else {
                z += 1;
                continue;
            };
            if ca == cb {
                z += 1;
                continue;
            }
            let start = z;
            while z < N && cell_of(x, z) == a && cell_of(x + 1, z) == b {
                z += 1;
            }
            push(ca, cb, [x + 1, start], [x + 1, z], true);
        }
    }
    for z in 0..N - 1 {
        let mut x = 0;
        while x < N {
            let (a, b) = (cell_of(x, z), cell_of(x, z + 1));
            let (Some(ca), Some(cb)) = (a, b) else {
                x += 1;
                continue;
            };
            if ca == cb {
                x += 1;
                continue;
            }
            let start = x;
            while x < N && cell_of(x, z) == a && cell_of(x, z + 1) == b {
                x += 1;
            }
            push(ca, cb, [start, z + 1], [x, z + 1], false);
        }
    }
    edges
}

/// A cell index as edges store it (`i16`; a cell past that range saturates).
fn cell_index(c: usize) -> i16 {
    i16::try_from(c).unwrap_or(i16::MAX)
}

/// The global edges of region `region` whose tile `z * 96 + x` lies in cell
/// `cells[z * 96 + x]`: along each of the four borders, one edge per maximal run of tiles of
/// one cell (and one cell of the neighbour region), flagged [`EdgeFlag::GLOBAL`]. Side 1 names
/// the neighbour region and its cell at the matching tile, taken as if the neighbour repeated
/// this region's cells (the builder cannot know the neighbour's); a run of tiles in no cell has
/// no edge, and a matching tile in no cell gives side 1 no cell (−1).
pub fn global_edges(cells: &[Option<usize>], region: RegionId) -> Vec<EdgeGlobal> {
    let cell_of = |x: usize, z: usize| cells.get(z * N + x).copied().flatten();
    let coord = |t: usize| RawF32::new(t as f32 * TILE_SIZE);
    let mut edges = Vec::new();
    let borders: [(i8, i8, i8); 4] = [
        (0, -1, EdgeDirection::BOTTOM),
        (-1, 0, EdgeDirection::LEFT),
        (0, 1, EdgeDirection::TOP),
        (1, 0, EdgeDirection::RIGHT),
    ];
    for (dx, dz, dir) in borders {
        let neighbour = region.neighbour(dx, dz);
        // The tile along the border at position `i`, and the matching tile of the neighbour.
        let at = |i: usize| -> ((usize, usize), (usize, usize)) {
            match dir {
                EdgeDirection::BOTTOM => ((i, 0), (i, N - 1)),
                EdgeDirection::LEFT => ((0, i), (N - 1, i)),
                EdgeDirection::TOP => ((i, N - 1), (i, 0)),
                _ => ((N - 1, i), (0, i)),
            }
        };
        let mut i = 0;
        while i < N {
            let (near, far) = at(i);
            let (a, b) = (cell_of(near.0, near.1), cell_of(far.0, far.1));
            let start = i;
            while i < N && {
                let (n2, f2) = at(i);
                cell_of(n2.0, n2.1) == a && cell_of(f2.0, f2.1) == b
            } {
                i += 1;
            }
            let Some(a) = a else {
                continue;
            };
            let line = |t: usize| -> [RawF32; 2] {
                match dir {
                    EdgeDirection::BOTTOM => [coord(t), coord(0)],
                    EdgeDirection::LEFT => [coord(0), coord(t)],
                    EdgeDirection::TOP => [coord(t), coord(N)],
                    _ => [coord(N), coord(t)],
                }
            };
            let far_direction = match b {
                Some(_) => EdgeDirection::opposite(dir).unwrap_or(-1),
                None => EdgeDirection::INVALID,
            };
            edges.push(EdgeGlobal {
                min: line(start),
                max: line(i),
                flags: EdgeFlag::GLOBAL,
                assoc_direction: [dir, far_direction],
                assoc_cell_index: [cell_index(a), b.map_or(-1, cell_index)],
                assoc_region_id: [region.0, neighbour.0],
            });
        }
    }
    edges
}

/// A small deterministic pseudo-random sequence (xorshift), for sample content.
#[derive(Debug, Clone)]
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
}

/// Rolling hills from exact float arithmetic only: a sum of two smooth bumps and a gentle slope.
fn hills(x: usize, z: usize) -> f32 {
    let (fx, fz) = (x as f32, z as f32);
    let bump = |cx: f32, cz: f32, r: f32, h: f32| {
        let d = ((fx - cx) * (fx - cx) + (fz - cz) * (fz - cz)) / (r * r);
        if d < 1.0 {
            h * (1.0 - d) * (1.0 - d)
        } else {
            0.0
        }
    };
    120.0 + 0.25 * fx + 0.125 * fz + bump(20.0, 70.0, 30.0, 85.5) + bump(75.0, 25.0, 22.0, 40.25)
}

/// An object as the samples place them.
#[allow(clippy::too_many_arguments)]
fn obj(
    resource_id: u32,
    pos: [f32; 3],
    yaw: f32,
    uid: u16,
    is_static: bool,
    is_big: bool,
    is_struct: bool,
    region: u16,
    links: &[(i16, i16, i16)],
) -> NavMeshObj {
    NavMeshObj {
        resource_id,
        local_position: pos.map(RawF32::new),
        is_static: if is_static { -1 } else { 0 },
        yaw: RawF32::new(yaw),
        uid,
        unk_short01: 0,
        is_big: u8::from(is_big),
        is_struct: u8::from(is_struct),
        region_id: region,
        linked_edges: links
            .iter()
            .map(|&(o, oe, e)| LinkedEdge {
                other_object_index: o,
                other_edge_index: oe,
                edge_index: e,
            })
            .collect(),
    }
}

/// A town-sized region: rolling hills, a walled town with gates, houses and a row of linked wall
/// segments, a river with a water plane, a cliff, and objects spilling in from the neighbours.
pub fn town(region: RegionId) -> NavMeshTerrain {
    let mut rng = Rng(0x5eed_61a8);
    let mut b = TerrainBuilder::new(region)
        .block_size(8)
        .heights(hills)
        .textures(|x, z| match (x, z) {
            (40..=72, 30..=62) => 7,          // paved town square
            (_, 44..=47) | (54..=57, _) => 3, // roads
            (0..=12, _) => 12,                // rocks under the cliff
            _ => 1,                           // grass
        })
        // A cliff along the west, with gaps.
        .block_tiles(0, 0, 4, 30)
        .block_tiles(0, 36, 5, 80)
        .block_tiles(2, 86, 6, 96)
        // The town wall: four sides with gates in the middle of each.
        .block_tiles(38, 28, 54, 30)
        .block_tiles(58, 28, 75, 30)
        .block_tiles(38, 62, 54, 64)
        .block_tiles(58, 62, 75, 64)
        .block_tiles(38, 28, 40, 44)
        .block_tiles(38, 48, 40, 64)
        .block_tiles(73, 28, 75, 44)
        .block_tiles(73, 48, 75, 64)
        // A river crossing the south-east, bridged by the road.
        .block_tiles(76, 0, 82, 54)
        .block_tiles(76, 58, 82, 96)
        .tile_flags(76, 54, 82, 58, TileFlag::IGNORE_SLOPE)
        .plane(4, 0, PlaneType::WATER, 118.5)
        .plane(4, 1, PlaneType::WATER, 118.5)
        .plane(4, 2, PlaneType::WATER, 119.0)
        .plane(4, 3, PlaneType::WATER, 119.0)
        .plane(4, 4, PlaneType::WATER, 119.5)
        .plane(4, 5, PlaneType::WATER_ICE, 119.5)
        .plane_height(800.0);
    // Houses inside the walls, each blocking its footprint.
    let mut objects = Vec::new();
    for ((tx, tz), i) in [
        (43, 33),
        (49, 33),
        (62, 33),
        (68, 33),
        (43, 51),
        (49, 57),
        (62, 51),
        (68, 57),
        (45, 40),
        (66, 40),
    ]
    .into_iter()
    .zip(0u16..)
    {
        b = b.block_tiles(tx, tz, tx + 3, tz + 3);
        let pos = [
            (tx as f32 + 1.5) * TILE_SIZE,
            hills(tx, tz),
            (tz as f32 + 1.5) * TILE_SIZE,
        ];
        let yaw = [
            0.0,
            core::f32::consts::FRAC_PI_2,
            core::f32::consts::PI,
            3.0 * core::f32::consts::FRAC_PI_2,
        ][usize::from(i % 4)];
        objects.push((
            obj(
                2088 + u32::from(i % 3),
                pos,
                yaw,
                0x0101 + i,
                true,
                false,
                true,
                region.0,
                &[],
            ),
            35.0,
        ));
    }
    // Wall segments linked into a chain (edge 2 of one to edge 0 of the next), with a removed
    // (-1) entry and a duplicated link as real files have.
    // The ten houses above: the cast is exact.
    #[allow(clippy::cast_possible_truncation)]
    let first_wall = objects.len() as i16;
    let walls = 12i16;
    for w in 0..walls {
        let i = first_wall + w;
        let (x, z) = if w < 6 {
            (780.0 + 100.0 * f32::from(w), 570.0)
        } else {
            (780.0 + 100.0 * f32::from(w - 6), 1270.0)
        };
        let mut links = Vec::new();
        if w % 6 != 0 {
            links.push((i - 1, 2, 0));
        }
        if w % 6 != 5 {
            links.push((i + 1, 0, 2));
        }
        if w == 3 {
            links.push((-1, -1, -1));
            links.push((i + 1, 0, 2));
        }
        objects.push((
            obj(
                3120,
                [x, 140.0, z],
                0.0,
                0x0201 + w as u16,
                true,
                false,
                true,
                region.0,
                &links,
            ),
            50.0,
        ));
    }
    // Trees and rocks scattered outside the town, some skinned (not static).
    for k in 0..14u16 {
        let x = 100.0 + rng.below(1600) as f32 + 0.25;
        let z = 100.0 + rng.below(1700) as f32 + 0.5;
        let yaw = rng.below(628) as f32 / 100.0;
        objects.push((
            obj(
                410 + u32::from(k % 4),
                [x, 150.0, z],
                yaw,
                0x0301 + k,
                k % 5 != 0,
                false,
                false,
                region.0,
                &[],
            ),
            8.0,
        ));
    }
    // A big bridge object and spill-ins from the neighbours (negative or >1920 coordinates).
    objects.push((
        obj(
            5003,
            [1580.0, 121.0, 1120.0],
            core::f32::consts::FRAC_PI_2,
            0x0401,
            true,
            true,
            true,
            region.0,
            &[],
        ),
        90.0,
    ));
    objects.push((
        obj(
            2090,
            [1752.0625, 623.8125, -141.96875],
            core::f32::consts::FRAC_PI_4,
            0x0111,
            true,
            false,
            true,
            region.neighbour(0, -1).0,
            &[],
        ),
        160.0,
    ));
    objects.push((
        obj(
            2091,
            [-60.5, 210.0, 900.0],
            0.0,
            0x0112,
            true,
            true,
            true,
            region.neighbour(-1, 0).0,
            &[],
        ),
        90.0,
    ));
    for (o, half) in objects {
        b = b.object(o, half);
    }
    b.build()
}

/// A region with nothing on it: flat ground at `height`, one cell per 16 × 16 block.
pub fn empty(region: RegionId, height: f32) -> NavMeshTerrain {
    TerrainBuilder::new(region)
        .heights(|_, _| height)
        .textures(|_, _| 1)
        .plane_height(800.0)
        .build()
}

/// A legacy region (old, unused region ids 0x11a5–0x1fae): one cell for the whole region, a
/// tilted plane of heights, 4-byte tiles, with or without the plane maps.
pub fn legacy(region: RegionId, with_planes: bool) -> NavMeshTerrain {
    TerrainBuilder::new(region)
        .heights(|x, z| 40.0 + 0.5 * x as f32 - 0.25 * z as f32)
        .block_size(96)
        .legacy(with_planes)
        .build()
}

/// A region made from `seed`, for tests and benchmarks that need many different files (5,000
/// regions in `examples/regions.rs`): its own hills, blocked patches, textures, water planes and
/// 4 to 19 objects, some linked in pairs. The same seed always gives the same bytes; the region id
/// follows the seed over the map's 256 × 128 regions.
pub fn generated(seed: u32) -> NavMeshTerrain {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9) | 1);
    let [lo, hi, ..] = seed.to_le_bytes();
    let region = RegionId::from_xz(lo, hi & 0x7f);
    // Exact small numbers (multiples of 1/8), so the heights are the same on every platform.
    let base = 50.0 + rng.below(400) as f32;
    let (sx, sz) = (
        rng.below(9) as f32 * 0.125 - 0.5,
        rng.below(9) as f32 * 0.125 - 0.5,
    );
    let (cx, cz, amp) = (
        rng.below(97) as f32,
        rng.below(97) as f32,
        rng.below(200) as f32,
    );
    let mut b = TerrainBuilder::new(region)
        .block_size([8, 16, 32][rng.below(3) as usize])
        .heights(move |x, z| {
            let (fx, fz) = (x as f32, z as f32);
            let d = ((fx - cx) * (fx - cx) + (fz - cz) * (fz - cz)) / 1024.0;
            let bump = if d < 1.0 {
                amp * (1.0 - d) * (1.0 - d)
            } else {
                0.0
            };
            base + sx * fx + sz * fz + bump
        });
    let texture = u16::try_from(rng.below(16)).unwrap_or(0);
    b = b.textures(move |x, z| texture + u16::from((x / 24 + z / 24) % 2 == 1));
    for _ in 0..rng.below(6) {
        let (x, z) = (rng.below(90) as usize, rng.below(90) as usize);
        let (w, h) = (1 + rng.below(12) as usize, 1 + rng.below(12) as usize);
        b = b.block_tiles(x, z, x + w, z + h);
    }
    if rng.below(3) == 0 {
        let (x, z) = (rng.below(6) as usize, rng.below(6) as usize);
        b = b.plane(x, z, PlaneType::WATER, base + 0.5);
    }
    b = b.plane_height(800.0);
    let count = 4 + u16::try_from(rng.below(16)).unwrap_or(0);
    for k in 0..count {
        let x = 20.0 + rng.below(1880) as f32;
        let z = 20.0 + rng.below(1880) as f32;
        // Every odd object is linked to the one before it (edge 1 to edge 3).
        let i = i16::try_from(k).unwrap_or(i16::MAX);
        let links: &[(i16, i16, i16)] = if k % 2 == 1 { &[(i - 1, 3, 1)] } else { &[] };
        b = b.object(
            obj(
                400 + rng.below(3000),
                [x, base, z],
                rng.below(628) as f32 / 100.0,
                0x0100 + k,
                k % 4 != 0,
                false,
                k % 3 == 0,
                region.0,
                links,
            ),
            4.0 + rng.below(40) as f32,
        );
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_cells_come_first_and_tiles_agree() {
        let m = town(RegionId(0x61a8));
        let open = m.open_cell_count as usize;
        let TileMap::Modern(tiles) = &m.tile_map else {
            panic!("town is modern")
        };
        for (i, t) in tiles.iter().enumerate() {
            let blocked = t.flags & TileFlag::BLOCKED != 0;
            assert_eq!(blocked, t.cell_index as usize >= open, "tile {i}");
        }
        assert!(open > 0 && open < m.cells.len());
    }
}
