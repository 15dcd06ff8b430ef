//! The zero-copy view of a Source 2 `.nav` file.
//!
//! The file is one sequential stream: counts before lists, no offset table, and KV3 blobs that
//! start at multiples of 8 and whose length comes from their own header. [`Source2View::parse`]
//! walks it once, checks every count against the bytes left before slicing, and keeps an index
//! of borrowed records: fixed-size records are zerocopy structs of little-endian types mapped
//! onto the input, variable-length ones (polygons, areas) are small structs of slices.
//!
//! ```text
//! header │ v36 KV3 │ v31+ corners, polygons │ v32+ gravity │ v35+ movable meshes │ v36 KV3
//! areas │ ladders │ transformed bounds │ generation parameters │ v36 KV3 │ sub-version > 0: KV3
//! ```

use nav_core::scalar::{F32, U32, U64};
use nav_core::{Cursor, Error, ErrorKind, Result};

use crate::FORMAT;
use crate::kv3;
use crate::layout::{GenLayout, Layout, MAGIC, MAGIC_TEXT, has_custom_data};
use crate::model::{ByteString, GenerationParams, HullParams};

mod records;
mod to_model;

use records::Bytes;
pub use records::{
    ConnectionListIter, ConnectionLists, Ladders, RawBounds, RawConnection, RawHidingSpot,
    RawLadder, RawLadderV35, RawVec3,
};

/// A polygon of the pool, borrowed. Only the parse builds one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PolygonView<'a> {
    corners: &'a [U32],
    movable_mesh_id: Option<&'a U32>,
}

impl<'a> PolygonView<'a> {
    /// Corner indices.
    pub fn corners(&self) -> &'a [U32] {
        self.corners
    }
    /// v35+: the movable-mesh id.
    pub fn movable_mesh_id(&self) -> Option<&'a U32> {
        self.movable_mesh_id
    }
}

/// A movable mesh, borrowed. Only the parse builds one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovableMeshView<'a> {
    id: &'a [u8],
    transform: &'a [F32; 12],
}

impl<'a> MovableMeshView<'a> {
    /// The id, without its NUL.
    pub fn id(&self) -> &'a [u8] {
        self.id
    }
    /// The 12 floats.
    pub fn transform(&self) -> &'a [F32; 12] {
        self.transform
    }
}

/// An area, borrowed. Only the parse builds one, from bytes it checked.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaView<'a> {
    id: &'a U32,
    attribute_flags: &'a U64,
    hull_index: u8,
    polygon: Option<&'a U32>,
    corners: &'a [RawVec3],
    unknown_float: &'a F32,
    connections: ConnectionLists<'a>,
    hiding_spots: &'a [RawHidingSpot],
    ladders_above: &'a [U32],
    ladders_below: &'a [U32],
}

impl<'a> AreaView<'a> {
    /// Id.
    pub fn id(&self) -> &'a U32 {
        self.id
    }
    /// Attribute flags.
    pub fn attribute_flags(&self) -> &'a U64 {
        self.attribute_flags
    }
    /// Hull index.
    pub fn hull_index(&self) -> u8 {
        self.hull_index
    }
    /// v31+: the polygon index.
    pub fn polygon(&self) -> Option<&'a U32> {
        self.polygon
    }
    /// v30: the inline corners.
    pub fn corners(&self) -> &'a [RawVec3] {
        self.corners
    }
    /// The float after the corners.
    pub fn unknown_float(&self) -> &'a F32 {
        self.unknown_float
    }
    /// One connection list per corner.
    pub fn connections(&self) -> ConnectionLists<'a> {
        self.connections
    }
    /// Hiding spots.
    pub fn hiding_spots(&self) -> &'a [RawHidingSpot] {
        self.hiding_spots
    }
    /// Ladders above.
    pub fn ladders_above(&self) -> &'a [U32] {
        self.ladders_above
    }
    /// Ladders below.
    pub fn ladders_below(&self) -> &'a [U32] {
        self.ladders_below
    }
}

/// A parsed file: what the parse delimited, read through getters.
#[derive(Debug, Clone, PartialEq)]
pub struct Source2View<'a> {
    data: &'a [u8],
    layout: Layout,
    sub_version: u32,
    is_analyzed: u8,
    places: Vec<&'a [u8]>,
    has_unnamed_areas: u8,
    movable_mesh_settings: Option<&'a [u8]>,
    corners: &'a [RawVec3],
    polygons: Vec<PolygonView<'a>>,
    corner_gravity_flags: Option<&'a U32>,
    corner_gravity: &'a [RawVec3],
    movable_meshes: Vec<MovableMeshView<'a>>,
    game_data: Option<&'a [u8]>,
    areas: Vec<AreaView<'a>>,
    ladders: Ladders<'a>,
    transformed_bounds: &'a [RawBounds],
    generation_params: GenerationParams,
    extra_generation_params: Option<&'a [u8]>,
    custom_data: Option<&'a [u8]>,
}

impl<'a> Source2View<'a> {
    /// The input.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
    /// The version gates.
    pub fn layout(&self) -> Layout {
        self.layout
    }
    /// The sub-version.
    pub fn sub_version(&self) -> u32 {
        self.sub_version
    }
    /// The `isAnalyzed` byte.
    pub fn is_analyzed(&self) -> u8 {
        self.is_analyzed
    }
    /// Place names as stored.
    pub fn places(&self) -> &[&'a [u8]] {
        &self.places
    }
    /// The "has unnamed areas" byte.
    pub fn has_unnamed_areas(&self) -> u8 {
        self.has_unnamed_areas
    }
    /// v36: movable-mesh settings blob.
    pub fn movable_mesh_settings(&self) -> Option<&'a [u8]> {
        self.movable_mesh_settings
    }
    /// v31+: the corner pool.
    pub fn corners(&self) -> &'a [RawVec3] {
        self.corners
    }
    /// v31+: the polygons.
    pub fn polygons(&self) -> &[PolygonView<'a>] {
        &self.polygons
    }
    /// v32+: the corner-gravity word.
    pub fn corner_gravity_flags(&self) -> Option<&'a U32> {
        self.corner_gravity_flags
    }
    /// The corner gravity directions (when bit 0 of the word is set).
    pub fn corner_gravity(&self) -> &'a [RawVec3] {
        self.corner_gravity
    }
    /// v35+: movable meshes.
    pub fn movable_meshes(&self) -> &[MovableMeshView<'a>] {
        &self.movable_meshes
    }
    /// v36: game-data blob.
    pub fn game_data(&self) -> Option<&'a [u8]> {
        self.game_data
    }
    /// Areas.
    pub fn areas(&self) -> &[AreaView<'a>] {
        &self.areas
    }
    /// Ladders.
    pub fn ladders(&self) -> Ladders<'a> {
        self.ladders
    }
    /// Transformed bounds.
    pub fn transformed_bounds(&self) -> &'a [RawBounds] {
        self.transformed_bounds
    }
    /// Generation parameters (small; copied).
    pub fn generation_params(&self) -> &GenerationParams {
        &self.generation_params
    }
    /// v36: extra generation parameters blob.
    pub fn extra_generation_params(&self) -> Option<&'a [u8]> {
        self.extra_generation_params
    }
    /// Custom data blob (sub-version > 0).
    pub fn custom_data(&self) -> Option<&'a [u8]> {
        self.custom_data
    }
}

fn u32_list<'a>(cur: &mut Cursor<'a>, field: core::fmt::Arguments<'_>) -> Result<&'a [U32]> {
    let n = cur.u32(format_args!("{field} count"))?;
    cur.slice(n, field)
}

fn cstring<'a>(cur: &mut Cursor<'a>, field: &str) -> Result<&'a [u8]> {
    let rest = cur.rest();
    let Some(len) = rest.iter().position(|b| *b == 0) else {
        return Err(cur.invalid(field, "no NUL ends the string"));
    };
    let s = cur.bytes(len, field)?;
    cur.skip(1, field)?;
    Ok(s)
}

/// Refuses a count of variable-length records of at least `min` bytes each that the bytes
/// left cannot hold, before anything is allocated for them.
fn check_count(cur: &mut Cursor<'_>, count: usize, min: usize, field: &str) -> Result<()> {
    cur.count(count, min, field).map(|_| ())
}

/// Fewest bytes an area takes (v31+, no connection lists): id, flags, hull, polygon, float,
/// hiding-spot count, encounter count, two ladder counts.
const MIN_AREA_BYTES: usize = 4 + 8 + 1 + 4 + 4 + 1 + 4 + 8;

/// The fast path of [`read_area`]: the same record read without naming fields, or `None`
/// wherever [`read_area`] could fail (which then reads it again and says why). Returns the area
/// and the bytes it took.
#[inline]
fn read_area_fast<'a>(
    data: &'a [u8],
    layout: Layout,
    polygons: &[PolygonView<'a>],
) -> Option<(AreaView<'a>, usize)> {
    let mut b = Bytes(data);
    let id = b.read()?;
    let attribute_flags = b.read()?;
    let hull_index = b.u8()?;
    let (polygon, corners, n) = if layout.has_polygon_pool() {
        let p: &U32 = b.read()?;
        let poly = polygons.get(p.get() as usize)?;
        (Some(p), &[][..], poly.corners.len())
    } else {
        let n = b.u32()?;
        let c: &[RawVec3] = b.slice(n as usize)?;
        (None, c, c.len())
    };
    let unknown_float = b.read()?;
    let lists = b.0;
    for _ in 0..n {
        let k = b.u32()?;
        b.slice::<RawConnection>(k as usize)?;
    }
    let taken = lists.len() - b.0.len();
    let connections = ConnectionLists::new(lists.get(..taken)?, n);
    let k = b.u8()?;
    let hiding_spots = b.slice(usize::from(k))?;
    if b.u32()? != 0 {
        return None;
    }
    let k = b.u32()?;
    let ladders_above = b.slice(k as usize)?;
    let k = b.u32()?;
    let ladders_below = b.slice(k as usize)?;
    let area = AreaView {
        id,
        attribute_flags,
        hull_index,
        polygon,
        corners,
        unknown_float,
        connections,
        hiding_spots,
        ladders_above,
        ladders_below,
    };
    Some((area, data.len() - b.0.len()))
}

/// The fast path of a polygon of the pool: the polygon and the bytes it took, or `None` where
/// the parse could fail (it then reads the polygon again with the cursor).
#[inline]
fn read_polygon_fast(data: &[u8], layout: Layout) -> Option<(PolygonView<'_>, usize)> {
    let mut b = Bytes(data);
    let k = b.u8()?;
    let corners = b.slice(usize::from(k))?;
    let movable_mesh_id = if layout.has_movable_meshes() {
        Some(b.read()?)
    } else {
        None
    };
    let polygon = PolygonView {
        corners,
        movable_mesh_id,
    };
    Some((polygon, data.len() - b.0.len()))
}

fn read_area<'a>(
    cur: &mut Cursor<'a>,
    layout: Layout,
    polygons: &[PolygonView<'a>],
    i: usize,
) -> Result<AreaView<'a>> {
    let id = cur.read(format_args!("areas[{i}] id"))?;
    let attribute_flags = cur.read(format_args!("areas[{i}] attribute_flags"))?;
    let hull_index = cur.u8(format_args!("areas[{i}] hull_index"))?;
    let (polygon, corners, n) = if layout.has_polygon_pool() {
        let at = cur.offset();
        let p: &U32 = cur.read(format_args!("areas[{i}] polygon"))?;
        let Some(poly) = polygons.get(p.get() as usize) else {
            return Err(Error::invalid(
                FORMAT,
                format_args!("areas[{i}] polygon"),
                at,
                format!(
                    "polygon index {} is past the {} polygons",
                    p.get(),
                    polygons.len()
                ),
            ));
        };
        (Some(p), &[][..], poly.corners.len())
    } else {
        let n = cur.u32(format_args!("areas[{i}] corners count"))?;
        let c: &[RawVec3] = cur.slice(n, format_args!("areas[{i}] corners"))?;
        (None, c, c.len())
    };
    let unknown_float = cur.read(format_args!("areas[{i}] unknown_float"))?;
    let start = cur.offset();
    for e in 0..n {
        let k = cur.u32(format_args!("areas[{i}] connections[{e}] count"))?;
        cur.slice::<RawConnection>(k, format_args!("areas[{i}] connections[{e}]"))?;
    }
    let connections = ConnectionLists::new(cur.data().get(start..cur.offset()).unwrap_or(&[]), n);
    let k = cur.u8(format_args!("areas[{i}] hiding_spots count"))?;
    let hiding_spots = cur.slice(k, format_args!("areas[{i}] hiding_spots"))?;
    let at = cur.offset();
    let encounters = cur.u32(format_args!("areas[{i}] encounter paths count"))?;
    if encounters != 0 {
        return Err(Error::invalid(
            FORMAT,
            format_args!("areas[{i}] encounter paths count"),
            at,
            format!(
                "{encounters} encounter paths: their Source 2 layout is unknown (every known file stores 0)"
            ),
        ));
    }
    let ladders_above = u32_list(cur, format_args!("areas[{i}] ladders_above"))?;
    let ladders_below = u32_list(cur, format_args!("areas[{i}] ladders_below"))?;
    Ok(AreaView {
        id,
        attribute_flags,
        hull_index,
        polygon,
        corners,
        unknown_float,
        connections,
        hiding_spots,
        ladders_above,
        ladders_below,
    })
}

fn read_hull(cur: &mut Cursor<'_>, g: GenLayout, i: usize) -> Result<HullParams> {
    let f = |name: &str| format!("generation_params hulls[{i}] {name}");
    let mut h = HullParams::default();
    if g.has_hull_short_height() {
        h.enabled = cur.u8(f("enabled"))?;
    }
    h.radius = cur.f32(f("radius"))?;
    h.height = cur.f32(f("height"))?;
    if g.has_hull_short_height() {
        h.short_height_enabled = cur.u8(f("short_height_enabled"))?;
        h.short_height = cur.f32(f("short_height"))?;
    }
    if g.has_hull_crawl() {
        h.agent_crawl_enabled = cur.u8(f("agent_crawl_enabled"))?;
        h.agent_crawl_height = cur.f32(f("agent_crawl_height"))?;
    }
    h.max_climb = cur.f32(f("max_climb"))?;
    h.max_slope = cur.i32(f("max_slope"))?;
    h.max_jump_down_dist = cur.f32(f("max_jump_down_dist"))?;
    h.max_jump_horiz_dist_base = cur.f32(f("max_jump_horiz_dist_base"))?;
    h.max_jump_up_dist = cur.f32(f("max_jump_up_dist"))?;
    if g.has_hull_border_erosion() {
        h.border_erosion = cur.i32(f("border_erosion"))?;
    }
    Ok(h)
}

fn read_generation_params(cur: &mut Cursor<'_>) -> Result<GenerationParams> {
    let f = |name: &str| format!("generation_params {name}");
    let mut p = GenerationParams {
        nav_gen_version: cur.i32(f("nav_gen_version"))?,
        use_project_defaults: cur.u32(f("use_project_defaults"))?,
        tile_size: cur.f32(f("tile_size"))?,
        cell_size: cur.f32(f("cell_size"))?,
        cell_height: cur.f32(f("cell_height"))?,
        min_region_size: cur.i32(f("min_region_size"))?,
        merged_region_size: cur.i32(f("merged_region_size"))?,
        mesh_sample_distance: cur.f32(f("mesh_sample_distance"))?,
        max_sample_error: cur.f32(f("max_sample_error"))?,
        max_edge_length: cur.i32(f("max_edge_length"))?,
        max_edge_error: cur.f32(f("max_edge_error"))?,
        verts_per_poly: cur.i32(f("verts_per_poly"))?,
        ..GenerationParams::default()
    };
    let g = p.layout();
    if g.has_small_area_removal() {
        p.small_area_on_edge_removal = cur.f32(f("small_area_on_edge_removal"))?;
    }
    if g.has_hull_preset() {
        p.hull_preset_name =
            ByteString(cstring(cur, "generation_params hull_preset_name")?.to_vec());
        p.hull_definitions_file =
            ByteString(cstring(cur, "generation_params hull_definitions_file")?.to_vec());
    }
    let at = cur.offset();
    p.hull_count = cur.i32(f("hull_count"))?;
    let records = g.hull_records(p.hull_count).ok_or_else(|| {
        Error::invalid(
            FORMAT,
            f("hull_count"),
            at,
            format!("hull count {} is negative", p.hull_count),
        )
    })?;
    let size = g.hull_size();
    check_count(cur, records, size, "generation_params hulls")?;
    p.hulls = (0..records)
        .map(|i| read_hull(cur, g, i))
        .collect::<Result<_>>()?;
    if g.has_gravity_follows_rotation() {
        p.gravity_follows_rotation = cur.u8(f("gravity_follows_rotation"))?;
    }
    Ok(p)
}

impl<'a> Source2View<'a> {
    /// Parses a whole file; it must end exactly after its last record.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut cur = Cursor::new(FORMAT, bytes);
        cur.magic(&MAGIC.to_le_bytes(), "magic", MAGIC_TEXT)?;
        let version = cur.u32("version")?;
        let Some(layout) = Layout::new(version) else {
            let supported = if version < 30 {
                "a Source 1 nav file (versions 1 to 16 are read by nav-source); nav-source2 reads Source 2 versions 30 to 36"
            } else {
                "nav-source2 reads Source 2 versions 30 to 36"
            };
            return Err(cur.fail(
                "version",
                ErrorKind::UnsupportedVersion {
                    offset: 4,
                    version: u64::from(version),
                    supported: supported.into(),
                },
            ));
        };
        let sub_version = cur.u32("sub_version")?;
        let is_analyzed = cur.u8("is_analyzed")?;
        let count = cur.u16("places count")?;
        let mut places = Vec::with_capacity(usize::from(count).min(cur.remaining() / 2));
        for i in 0..count {
            let n = cur.u16(format_args!("places[{i}] length"))?;
            places.push(cur.bytes(usize::from(n), format_args!("places[{i}]"))?);
        }
        let has_unnamed_areas = cur.u8("has_unnamed_areas")?;
        let blob = |cur: &mut Cursor<'a>, on: bool, name: &str| -> Result<Option<&'a [u8]>> {
            if on {
                Ok(Some(kv3::read_aligned(cur, name)?))
            } else {
                Ok(None)
            }
        };
        let movable_mesh_settings =
            blob(&mut cur, layout.has_kv3_blobs(), "movable_mesh_settings")?;
        let mut corners: &[RawVec3] = &[];
        let mut polygons = Vec::new();
        if layout.has_polygon_pool() {
            let n = cur.u32("corners count")?;
            corners = cur.slice(n, "corners")?;
            let n = cur.u32("polygons count")?;
            let min = if layout.has_movable_meshes() { 5 } else { 1 };
            check_count(&mut cur, n as usize, min, "polygons")?;
            polygons.reserve_exact(n as usize);
            for i in 0..n {
                if let Some((polygon, taken)) = read_polygon_fast(cur.rest(), layout) {
                    cur.skip(taken, "polygons")?;
                    polygons.push(polygon);
                    continue;
                }
                let k = cur.u8(format_args!("polygons[{i}] corners count"))?;
                let c = cur.slice(k, format_args!("polygons[{i}] corners"))?;
                let movable_mesh_id = if layout.has_movable_meshes() {
                    Some(cur.read(format_args!("polygons[{i}] movable_mesh_id"))?)
                } else {
                    None
                };
                polygons.push(PolygonView {
                    corners: c,
                    movable_mesh_id,
                });
            }
        }
        let mut corner_gravity_flags = None;
        let mut corner_gravity: &[RawVec3] = &[];
        if layout.has_corner_gravity() {
            let w: &U32 = cur.read("corner_gravity_flags")?;
            if w.get() & 1 != 0 {
                let n = cur.u32("corner_gravity count")?;
                corner_gravity = cur.slice(n, "corner_gravity")?;
            }
            corner_gravity_flags = Some(w);
        }
        let mut movable_meshes = Vec::new();
        if layout.has_movable_meshes() {
            let n = cur.u32("movable_meshes count")?;
            check_count(&mut cur, n as usize, 49, "movable_meshes")?;
            for i in 0..n {
                let id = cstring(&mut cur, &format!("movable_meshes[{i}] id"))?;
                let transform = cur.read(format_args!("movable_meshes[{i}] transform"))?;
                movable_meshes.push(MovableMeshView { id, transform });
            }
        }
        let game_data = blob(&mut cur, layout.has_kv3_blobs(), "game_data")?;
        let n = cur.u32("areas count")?;
        check_count(&mut cur, n as usize, MIN_AREA_BYTES, "areas")?;
        let mut areas = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let area = match read_area_fast(cur.rest(), layout, &polygons) {
                Some((area, taken)) => {
                    cur.skip(taken, "areas")?;
                    area
                }
                None => read_area(&mut cur, layout, &polygons, i)?,
            };
            areas.push(area);
        }
        let n = cur.u32("ladders count")?;
        let ladders = if layout.has_ladder_bottom_sides() {
            Ladders::V35(cur.slice(n, "ladders")?)
        } else {
            Ladders::V30(cur.slice(n, "ladders")?)
        };
        let at = cur.offset();
        let n = cur.i32("transformed_bounds count")?;
        let Ok(n) = u32::try_from(n) else {
            return Err(Error::invalid(
                FORMAT,
                "transformed_bounds count",
                at,
                format!("count {n} is negative"),
            ));
        };
        let transformed_bounds = cur.slice(n, "transformed_bounds")?;
        let generation_params = read_generation_params(&mut cur)?;
        let extra_generation_params =
            blob(&mut cur, layout.has_kv3_blobs(), "extra_generation_params")?;
        let custom_data = blob(&mut cur, has_custom_data(sub_version), "custom_data")?;
        cur.expect_end("end of file")?;
        Ok(Source2View {
            data: bytes,
            layout,
            sub_version,
            is_analyzed,
            places,
            has_unnamed_areas,
            movable_mesh_settings,
            corners,
            polygons,
            corner_gravity_flags,
            corner_gravity,
            movable_meshes,
            game_data,
            areas,
            ladders,
            transformed_bounds,
            generation_params,
            extra_generation_params,
            custom_data,
        })
    }

    /// The file version.
    pub fn version(&self) -> u32 {
        self.layout.version()
    }
}
