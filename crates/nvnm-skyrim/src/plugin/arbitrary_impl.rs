//! `Arbitrary` for [`PluginFile`], [`Group`] and [`Item`]: bounded trees of mostly writable
//! records.
//!
//! A derived implementation recurses once per nested group, as deep as the input allows (a
//! megabyte of input nests tens of thousands of groups, past any stack), and almost never makes
//! a model the writer accepts: the header must be `TES4`, a `NAVM` or `NAVI` record must hold
//! its opened body and every other record a raw one, and the compressed flag must agree with
//! the body. This one bounds the tree ([`MAX_ARBITRARY_ITEMS`] items, groups nested at most
//! [`MAX_ARBITRARY_DEPTH`] deep) and, in seven models of eight, keeps those rules: `NAVM`
//! records hold an `NVNM` the navmesh writer made from an arbitrary navmesh (so that validation
//! and the `NVMI` refresh see real geometry) and `NAVI` entries mostly name the plugin's own
//! navmeshes. The eighth model is drawn with any signatures, bodies, flags and zlib levels,
//! nested up to two levels past the writer's limit, so that the writer's refusals are exercised.

use arbitrary::{Arbitrary, Result, Unstructured};
use nav_core::Format;

use super::model::{
    Compression, Group, Item, NavmeshBody, PluginFile, Record, RecordBody, Subrecord,
};
use super::navi::{NaviBody, NaviField};
use super::{COMPRESSED, MAX_DEPTH, Signature};
use crate::nvnm::{NavmeshGeometry, Nvnm};

/// The most items (groups and records) an arbitrary plugin holds, the header aside.
const MAX_ARBITRARY_ITEMS: usize = 48;

/// How deep the groups of a tame arbitrary plugin nest (a wild one nests up to two levels past
/// [`MAX_DEPTH`]).
const MAX_ARBITRARY_DEPTH: usize = 6;

/// Signatures of raw records in tame models: record types common in plugins with navmeshes.
const RAW_SIGNATURES: [&[u8; 4]; 6] = [b"CELL", b"WRLD", b"REFR", b"STAT", b"DOOR", b"EDID"];

/// What a tree is drawn with.
struct Draw {
    /// Any signatures, bodies and flags, and nesting past the writer's limit.
    wild: bool,
    /// Items left to draw.
    budget: usize,
}

impl<'a> Arbitrary<'a> for PluginFile {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let choice: u8 = u.arbitrary()?;
        let mut draw = Draw {
            wild: choice % 8 == 0,
            budget: MAX_ARBITRARY_ITEMS,
        };
        let mut header: Record = u.arbitrary()?;
        if !draw.wild {
            header.signature = Signature(*b"TES4");
            header.flags &= !COMPRESSED;
            if !matches!(header.body, RecordBody::Raw(_)) {
                header.body = RecordBody::Raw(u.arbitrary()?);
            }
        }
        let items = items(u, &mut draw, 0)?;
        let mut model = PluginFile { header, items };
        if !draw.wild {
            name_own_navmeshes(u, &mut model)?;
        }
        Ok(model)
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, None)
    }
}

impl<'a> Arbitrary<'a> for Group {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let wild = u.arbitrary::<u8>()? % 8 == 0;
        group(
            u,
            &mut Draw {
                wild,
                budget: MAX_ARBITRARY_ITEMS,
            },
            0,
        )
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, None)
    }
}

impl<'a> Arbitrary<'a> for Item {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let wild = u.arbitrary::<u8>()? % 8 == 0;
        item(
            u,
            &mut Draw {
                wild,
                budget: MAX_ARBITRARY_ITEMS,
            },
            0,
        )
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (1, None)
    }
}

/// The items of a group at `depth` (0 for the top level), within the budget.
fn items(u: &mut Unstructured<'_>, draw: &mut Draw, depth: usize) -> Result<Vec<Item>> {
    let mut out = Vec::new();
    while draw.budget > 0 && !u.is_empty() && u.arbitrary::<u8>()? % 4 != 0 {
        draw.budget -= 1;
        out.push(item(u, draw, depth)?);
    }
    Ok(out)
}

fn item(u: &mut Unstructured<'_>, draw: &mut Draw, depth: usize) -> Result<Item> {
    let limit = if draw.wild {
        MAX_DEPTH + 2
    } else {
        MAX_ARBITRARY_DEPTH
    };
    if depth < limit && u.arbitrary::<u8>()? % 3 == 0 {
        Ok(Item::Group(group(u, draw, depth)?))
    } else {
        Ok(Item::Record(record(u, draw)?))
    }
}

fn group(u: &mut Unstructured<'_>, draw: &mut Draw, depth: usize) -> Result<Group> {
    let group_type = if draw.wild {
        u.arbitrary()?
    } else {
        u.int_in_range(0..=10)?
    };
    Ok(Group {
        label: u.arbitrary()?,
        group_type,
        timestamp: u.arbitrary()?,
        version_control: u.arbitrary()?,
        unknown: u.arbitrary()?,
        items: items(u, draw, depth + 1)?,
    })
}

/// How a tame record's opened body is stored: mostly as the Creation Kit stores navmeshes
/// (uncompressed, or zlib at a level a read names), sometimes at any level 0 to 9.
fn tame_compression(u: &mut Unstructured<'_>) -> Result<Compression> {
    Ok(match u.int_in_range(0..=7u8)? {
        0..=3 => Compression::None,
        4 => Compression::Zlib {
            level: u.int_in_range(0..=9)?,
        },
        _ => Compression::Zlib {
            level: *u.choose(&[1, 5, 6, 9])?,
        },
    })
}

fn compression_mut(body: &mut RecordBody) -> Option<&mut Compression> {
    match body {
        RecordBody::Navmesh(b) => Some(&mut b.compression),
        RecordBody::NavigationInfo(b) => Some(&mut b.compression),
        RecordBody::Raw(_) => None,
    }
}

fn record(u: &mut Unstructured<'_>, draw: &Draw) -> Result<Record> {
    let mut r = Record {
        signature: Signature(*b"STAT"),
        flags: u.arbitrary()?,
        form_id: u.arbitrary()?,
        timestamp: u.arbitrary()?,
        version_control: u.arbitrary()?,
        form_version: *u.choose(&[43, 44, 131, 0])?,
        version_control_2: u.arbitrary()?,
        body: RecordBody::Raw(Vec::new()),
    };
    if draw.wild {
        r.signature = u.arbitrary()?;
        r.form_version = u.arbitrary()?;
        r.body = u.arbitrary()?;
        return Ok(r);
    }
    match u.int_in_range(0..=5u8)? {
        0 | 1 => {
            r.signature = Signature(*b"NAVM");
            r.body = RecordBody::Navmesh(navmesh_body(u)?);
        }
        2 => {
            r.signature = Signature(*b"NAVI");
            let mut body: NaviBody = u.arbitrary()?;
            body.subrecords.truncate(16);
            r.body = RecordBody::NavigationInfo(body);
        }
        _ => {
            r.signature = Signature(**u.choose(&RAW_SIGNATURES)?);
            r.body = RecordBody::Raw(u.arbitrary()?);
        }
    }
    if let Some(compression) = compression_mut(&mut r.body) {
        *compression = tame_compression(u)?;
        if *compression == Compression::None {
            r.flags &= !COMPRESSED;
        } else {
            r.flags |= COMPRESSED;
        }
    }
    Ok(r)
}

/// A navmesh record's subrecords: perhaps an `EDID`, the `NVNM` (written from an arbitrary
/// navmesh, or any bytes when the navmesh writer refuses it), perhaps a few others.
fn navmesh_body(u: &mut Unstructured<'_>) -> Result<NavmeshBody> {
    let mut subrecords = Vec::new();
    if u.arbitrary()? {
        subrecords.push(Subrecord {
            signature: Signature(*b"EDID"),
            data: u.arbitrary()?,
            large: None,
        });
    }
    let geometry: NavmeshGeometry = u.arbitrary()?;
    let nvnm = match Nvnm.write(&geometry) {
        Ok(bytes) => bytes,
        Err(_) => u.arbitrary()?,
    };
    let large = if nvnm.len() > usize::from(u16::MAX) || u.int_in_range(0..=15u8)? == 0 {
        Some(0)
    } else {
        None
    };
    subrecords.push(Subrecord {
        signature: Signature(*b"NVNM"),
        data: nvnm,
        large,
    });
    for _ in 0..u.int_in_range(0..=2u8)? {
        let mut s: Subrecord = u.arbitrary()?;
        if &s.signature.0 == b"XXXX" {
            s.signature = Signature(*b"ONAM");
        }
        subrecords.push(s);
    }
    Ok(NavmeshBody {
        compression: Compression::None,
        subrecords,
    })
}

/// Points most `NVMI` entries at navmesh records of the plugin, so that the refresh and the
/// checks across records have something to compare.
fn name_own_navmeshes(u: &mut Unstructured<'_>, model: &mut PluginFile) -> Result<()> {
    let ids: Vec<u32> = model.navmeshes().into_iter().map(|(id, _)| id).collect();
    if ids.is_empty() {
        return Ok(());
    }
    let mut navis = Vec::new();
    collect_navis(&mut model.items, &mut navis);
    for navi in navis {
        for s in &mut navi.subrecords {
            if let NaviField::NavmeshInfo(info) = &mut s.field {
                if u.arbitrary::<u8>()? % 4 != 0 {
                    info.navmesh = *u.choose(&ids)?;
                }
            }
        }
    }
    Ok(())
}

fn collect_navis<'m>(items: &'m mut [Item], out: &mut Vec<&'m mut NaviBody>) {
    for item in items {
        match item {
            Item::Group(g) => collect_navis(&mut g.items, out),
            Item::Record(Record {
                body: RecordBody::NavigationInfo(n),
                ..
            }) => out.push(n),
            Item::Record(_) => {}
        }
    }
}
