//! The zero-copy view of a `.nav` file.
//!
//! A `.nav` file is one sequential stream: counts before lists, fields of 1, 2 and 4 bytes, no
//! alignment and no offset table. [`parse`] walks it once, checks every count against the bytes
//! left before slicing, and keeps what the walk delimited: one [`AreaView`] of borrowed slices
//! per area (and, inside it, one borrowed view per encounter path). The fixed-size records are
//! zerocopy structs of little-endian types mapped straight onto the input.
//!
//! After a successful parse every getter is infallible and reads nothing again: it indexes what
//! the parse kept, so no error can be lost on the way.

use nav_core::scalar::{F32, U32};
use nav_core::zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};
use nav_core::{Cursor, Error, ErrorKind, Result};

mod area;

use area::read_area;
pub use area::{AreaCustomView, AreaView, EncounterPathView, HidingSpots};

use crate::FORMAT;
use crate::flavour::{
    Flavour, Layout, MAGIC, MAGIC_TEXT, MAX_VERSION, SOURCE2_MIN_VERSION, TERROR_MIN_SUB_VERSION,
    candidates,
};

/// The corners of an area: north-west and south-east corners, then the heights of the other two.
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct Extent {
    /// The north-west corner.
    pub nw_corner: [F32; 3],
    /// The south-east corner.
    pub se_corner: [F32; 3],
    /// Height of the north-east corner.
    pub ne_z: F32,
    /// Height of the south-west corner.
    pub sw_z: F32,
}

/// A hiding spot as stored from v2 (17 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct HidingSpotRecord {
    /// The spot id.
    pub id: U32,
    /// The position.
    pub position: [F32; 3],
    /// The flags.
    pub flags: u8,
}

/// An approach-area entry (14 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct ApproachRecord {
    /// The area approached from.
    pub here_area_id: U32,
    /// The area before it.
    pub prev_area_id: U32,
    /// How the previous area leads here.
    pub prev_to_here_how: u8,
    /// The area after it.
    pub next_area_id: U32,
    /// How this area leads to the next.
    pub here_to_next_how: u8,
}

/// The fixed head of a v3+ encounter path (11 bytes); its spots follow.
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct EncounterPathHead {
    /// The area the path comes from.
    pub from_area_id: U32,
    /// The direction it comes from.
    pub from_direction: u8,
    /// The area the path goes to.
    pub to_area_id: U32,
    /// The direction it leaves by.
    pub to_direction: u8,
    /// How many spots follow.
    pub spot_count: u8,
}

/// The fixed head of a v1/v2 encounter path (33 bytes); its spots (4 floats each) follow.
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct LegacyEncounterPathHead {
    /// The area the path comes from.
    pub from_area_id: U32,
    /// The area the path goes to.
    pub to_area_id: U32,
    /// Where the path starts.
    pub from_position: [F32; 3],
    /// Where the path ends.
    pub to_position: [F32; 3],
    /// How many spots follow.
    pub spot_count: u8,
}

/// A spot along a v3+ encounter path (5 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct EncounterSpotRecord {
    /// The hiding spot id.
    pub hiding_spot_id: U32,
    /// Where along the path, 0 to 255.
    pub t: u8,
}

/// A potentially visible area (5 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct VisibleAreaRecord {
    /// The visible area's id.
    pub area_id: U32,
    /// Visibility attributes.
    pub attributes: u8,
}

/// A potentially visible area of a Left 4 Dead file (5 bytes): named by index from sub-version
/// 14, by id before (see [`Layout::terror_visibility_by_index`]).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct VisibleAreaIndexRecord {
    /// The visible area's 0-based index in the file's area list (its id below sub-version 14).
    pub area_index: U32,
    /// Visibility attributes.
    pub attributes: u8,
}

/// The part of a ladder before the v6-only byte (36 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct LadderHead {
    /// The ladder id.
    pub id: U32,
    /// Width.
    pub width: F32,
    /// Top position.
    pub top: [F32; 3],
    /// Bottom position.
    pub bottom: [F32; 3],
    /// Length.
    pub length: F32,
    /// Facing direction.
    pub direction: U32,
}

/// The area ids that end a ladder record (20 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct LadderAreas {
    /// Area forward at the top.
    pub top_forward_area_id: U32,
    /// Area left at the top.
    pub top_left_area_id: U32,
    /// Area right at the top.
    pub top_right_area_id: U32,
    /// Area behind at the top.
    pub top_behind_area_id: U32,
    /// Area at the bottom.
    pub bottom_area_id: U32,
}

/// A ladder as stored in every version but 6 (60 bytes).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct LadderRecord {
    /// Id, size, ends and direction.
    pub head: LadderHead,
    /// Connected areas.
    pub areas: LadderAreas,
}

/// A ladder as stored in v6 (61 bytes, with the `isDangling` byte).
#[derive(
    Debug, Clone, Copy, PartialEq, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned,
)]
#[repr(C)]
pub struct LadderRecordV6 {
    /// Id, size, ends and direction.
    pub head: LadderHead,
    /// The `isDangling` byte.
    pub is_dangling: u8,
    /// Connected areas.
    pub areas: LadderAreas,
}

/// The ladder block.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LadderRecords<'a> {
    /// Versions 7 and up (and files without ladders).
    Standard(&'a [LadderRecord]),
    /// Version 6.
    Version6(&'a [LadderRecordV6]),
}

impl LadderRecords<'_> {
    /// Number of ladders.
    pub fn len(&self) -> usize {
        match self {
            LadderRecords::Standard(l) => l.len(),
            LadderRecords::Version6(l) => l.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A run of length-prefixed names (`u16` length, then that many bytes), delimited by the parse,
/// which keeps each name it read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NameList<'a> {
    bytes: &'a [u8],
    names: Vec<&'a [u8]>,
}

impl<'a> NameList<'a> {
    fn read(cur: &mut Cursor<'a>, count: usize, what: &str) -> Result<Self> {
        let start = cur.offset();
        // Bounded by the bytes left: every name takes at least its 2-byte length.
        let mut names = Vec::with_capacity(count.min(cur.remaining() / 2));
        for i in 0..count {
            let len = cur.u16(format_args!("{what}[{i}] length"))?;
            names.push(cur.bytes(usize::from(len), format_args!("{what}[{i}] name"))?);
        }
        let bytes = cur.data().get(start..cur.offset()).unwrap_or(&[]);
        Ok(NameList { bytes, names })
    }

    /// Number of names.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The stored bytes of the whole list (lengths and names).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The names as stored (with their NUL, if any).
    pub fn names(&self) -> &[&'a [u8]] {
        &self.names
    }

    /// The names as stored, in file order.
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + '_ {
        self.names.iter().copied()
    }
}

/// Left 4 Dead mesh-level data.
#[derive(Debug, Clone, PartialEq)]
pub struct TerrorView<'a> {
    population: &'a [u8],
    fog_places: NameList<'a>,
    max_view_distance: &'a F32,
}

impl<'a> TerrorView<'a> {
    /// The population name, without its NUL.
    pub fn population(&self) -> &'a [u8] {
        self.population
    }
    /// The fog place names.
    pub fn fog_places(&self) -> &NameList<'a> {
        &self.fog_places
    }
    /// The float after the ladders.
    pub fn max_view_distance(&self) -> &'a F32 {
        self.max_view_distance
    }
}

/// Totals over every area, counted while the parse walks them (what `navkit info` prints), so
/// that a summary needs no second walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AreaTotals {
    /// Hiding spots.
    pub hiding_spots: usize,
    /// Encounter paths.
    pub encounter_paths: usize,
    /// Potentially visible areas: the base block's, or the Left 4 Dead block's.
    pub visible_areas: usize,
}

impl AreaTotals {
    fn add(&mut self, a: &AreaView<'_>) {
        self.hiding_spots += a.hiding_spots().len();
        self.encounter_paths += a.encounter_paths().len();
        self.visible_areas += match a.custom() {
            AreaCustomView::Terror { visible_areas, .. } => visible_areas.len(),
            _ => a.visible_areas().len(),
        };
    }
}

/// A parsed `.nav` file: borrowed records, and the view of every area the parse delimited.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceView<'a> {
    data: &'a [u8],
    layout: Layout,
    bsp_size: u32,
    is_analyzed: u8,
    places: NameList<'a>,
    has_unnamed_areas: u8,
    terror: Option<TerrorView<'a>>,
    areas: Vec<AreaView<'a>>,
    totals: AreaTotals,
    ladders: LadderRecords<'a>,
    stale_tail: &'a [u8],
}

impl<'a> SourceView<'a> {
    /// The input bytes.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }
    /// Version, sub-version and flavour.
    pub fn layout(&self) -> Layout {
        self.layout
    }
    /// The flavour the file was read as.
    pub fn flavour(&self) -> Flavour {
        self.layout.flavour
    }
    /// The file version.
    pub fn version(&self) -> u32 {
        self.layout.version
    }
    /// The sub-version (0 below v10).
    pub fn sub_version(&self) -> u32 {
        self.layout.sub_version
    }
    /// The BSP size (0 below v4).
    pub fn bsp_size(&self) -> u32 {
        self.bsp_size
    }
    /// The `isAnalyzed` byte (0 below v14).
    pub fn is_analyzed(&self) -> u8 {
        self.is_analyzed
    }
    /// The place directory.
    pub fn places(&self) -> &NameList<'a> {
        &self.places
    }
    /// The "has unnamed areas" byte (0 below v12).
    pub fn has_unnamed_areas(&self) -> u8 {
        self.has_unnamed_areas
    }
    /// Left 4 Dead mesh data.
    pub fn terror(&self) -> Option<&TerrorView<'a>> {
        self.terror.as_ref()
    }
    /// Number of areas.
    pub fn area_count(&self) -> usize {
        self.areas.len()
    }
    /// Area `i` (in file order), or `None` past the last one.
    pub fn area(&self, i: usize) -> Option<&AreaView<'a>> {
        self.areas.get(i)
    }
    /// Every area in file order.
    pub fn areas(&self) -> &[AreaView<'a>] {
        &self.areas
    }
    /// Hiding spots, encounter paths and visible areas over every area.
    pub fn totals(&self) -> AreaTotals {
        self.totals
    }
    /// The ladders.
    pub fn ladders(&self) -> LadderRecords<'a> {
        self.ladders
    }
    /// Bytes after the last record (v1 to v5 only).
    pub fn stale_tail(&self) -> &'a [u8] {
        self.stale_tail
    }
}

/// The flavour-independent start of a file.
struct Header<'a> {
    cur: Cursor<'a>,
    version: u32,
    sub_version: u32,
    bsp_size: u32,
    is_analyzed: u8,
    places: NameList<'a>,
    has_unnamed_areas: u8,
}

fn read_header(bytes: &[u8]) -> Result<Header<'_>> {
    let mut cur = Cursor::new(FORMAT, bytes);
    cur.magic(&MAGIC.to_le_bytes(), "magic", MAGIC_TEXT)?;
    let version = cur.u32("version")?;
    if !(1..=MAX_VERSION).contains(&version) {
        let supported = if version >= SOURCE2_MIN_VERSION {
            "this is a Source 2 nav file (version 30 and up, CS2 or Half-Life: Alyx), a different \
             format under the same magic; nav-source reads Source 1 versions 1 to 16"
        } else {
            "nav-source reads Source 1 versions 1 to 16"
        };
        return Err(cur.fail(
            "version",
            ErrorKind::UnsupportedVersion {
                offset: 4,
                version: u64::from(version),
                supported: supported.into(),
            },
        ));
    }
    let layout = Layout {
        version,
        sub_version: 0,
        flavour: Flavour::Base,
    };
    let sub_version = if layout.has_sub_version() {
        cur.u32("sub_version")?
    } else {
        0
    };
    let bsp_size = if layout.has_bsp_size() {
        cur.u32("bsp_size")?
    } else {
        0
    };
    let is_analyzed = if layout.has_is_analyzed() {
        cur.u8("is_analyzed")?
    } else {
        0
    };
    let mut places = NameList::default();
    let mut has_unnamed_areas = 0;
    if layout.has_places() {
        let count = cur.u16("places count")?;
        places = NameList::read(&mut cur, usize::from(count), "places")?;
        if layout.has_unnamed_areas_byte() {
            has_unnamed_areas = cur.u8("has_unnamed_areas")?;
        }
    }
    Ok(Header {
        cur,
        version,
        sub_version,
        bsp_size,
        is_analyzed,
        places,
        has_unnamed_areas,
    })
}

/// Fewest bytes an area can take (v3+, all lists empty: id, flags, extent, four counts, hiding
/// spot count, encounter count).
const MIN_AREA_BYTES: usize = 4 + 1 + 32 + 16 + 1 + 4;

fn parse_body<'a>(header: &Header<'a>, flavour: Flavour) -> Result<SourceView<'a>> {
    let layout = Layout {
        version: header.version,
        sub_version: header.sub_version,
        flavour,
    };
    let mut cur = header.cur.clone();
    let mut terror = None;
    if layout.is_terror() {
        if layout.sub_version < TERROR_MIN_SUB_VERSION {
            return Err(Error::invalid(
                FORMAT,
                "sub_version",
                8,
                format!(
                    "the {flavour} flavour needs sub-version {TERROR_MIN_SUB_VERSION} or more, this file has {}",
                    layout.sub_version
                ),
            ));
        }
        let rest = cur.rest();
        let Some(len) = rest.iter().position(|b| *b == 0) else {
            return Err(cur.invalid("population", "no NUL ends the population name"));
        };
        let population = rest.get(..len).unwrap_or(&[]);
        cur.skip(len.saturating_add(1), "population")?;
        let count = cur.u16("fog_places count")?;
        let fog_places = NameList::read(&mut cur, usize::from(count), "fog_places")?;
        terror = Some((population, fog_places));
    }
    let count = cur.u32("areas count")?;
    let count_usize = cur.count(count, MIN_AREA_BYTES, "areas")?;
    // Bounded by the bytes left: every area takes at least MIN_AREA_BYTES.
    let mut areas = Vec::with_capacity(count_usize);
    let mut totals = AreaTotals::default();
    for i in 0..count_usize {
        let area = read_area(&mut cur, &layout, i)?;
        totals.add(&area);
        areas.push(area);
    }
    let mut ladders = LadderRecords::Standard(&[]);
    if layout.has_ladders() {
        let n = cur.u32("ladders count")?;
        ladders = if layout.has_dangling_byte() {
            LadderRecords::Version6(cur.slice(n, "ladders")?)
        } else {
            LadderRecords::Standard(cur.slice(n, "ladders")?)
        };
    }
    let terror = match terror {
        Some((population, fog_places)) => Some(TerrorView {
            population,
            fog_places,
            max_view_distance: cur.read("max_view_distance")?,
        }),
        None => None,
    };
    let stale_tail = if layout.allows_stale_tail() {
        cur.rest()
    } else {
        cur.expect_end("end of file")?;
        &[]
    };
    Ok(SourceView {
        data: cur.data(),
        layout,
        bsp_size: header.bsp_size,
        is_analyzed: header.is_analyzed,
        places: header.places.clone(),
        has_unnamed_areas: header.has_unnamed_areas,
        terror,
        areas,
        totals,
        ladders,
        stale_tail,
    })
}

/// Parses a file as one flavour. From v6 the records must end exactly at the end of the input;
/// in v1 to v5 files the bytes after them are kept as a stale tail.
pub fn parse_with(bytes: &[u8], flavour: Flavour) -> Result<SourceView<'_>> {
    let header = read_header(bytes)?;
    parse_body(&header, flavour)
}

/// Parses a file, choosing the flavour: the flavours of [`candidates`] for its version and
/// sub-version are tried in that table's order, and the first that reads the file to its exact
/// end wins. When none does, the error names the flavour that got furthest into the file, where
/// and why it stopped, then where each other flavour stopped.
pub fn parse(bytes: &[u8]) -> Result<SourceView<'_>> {
    let header = read_header(bytes)?;
    let mut stops = Vec::new();
    for flavour in candidates(header.version, header.sub_version) {
        match parse_body(&header, flavour) {
            Ok(view) => return Ok(view),
            Err(e) => stops.push((flavour, e)),
        }
    }
    Err(no_flavour_reads(stops))
}

/// The error for a file that no flavour reads: the one flavour's own error when only one was
/// tried, else the error of the flavour that reached the largest offset (the first tried among
/// equals), its field path led by where each other flavour stopped.
fn no_flavour_reads(mut stops: Vec<(Flavour, Error)>) -> Error {
    let reached = |e: &Error| e.offset().unwrap_or(0);
    let best = stops
        .iter()
        .enumerate()
        .max_by_key(|(i, (_, e))| (reached(e), core::cmp::Reverse(*i)))
        .map(|(i, _)| i);
    let Some(best) = best else {
        return Error::invalid(FORMAT, "flavour", 0, "no flavour was tried");
    };
    let (flavour, furthest) = stops.remove(best);
    if stops.is_empty() {
        return furthest;
    }
    let others = stops
        .iter()
        .enumerate()
        .map(|(i, (f, e))| {
            let verb = if i == 0 { " stops" } else { "" };
            format!("{f}{verb} at {:#x} in {}", reached(e), e.context())
        })
        .collect::<Vec<_>>()
        .join(", ");
    Error::new(
        FORMAT,
        format_args!(
            "no flavour reads the file to its end; furthest as {flavour} (the others: {others}): {}",
            furthest.context()
        ),
        furthest.kind().clone(),
    )
}
