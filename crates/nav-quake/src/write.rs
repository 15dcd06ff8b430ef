//! The writer: one streaming writer behind [`write()`] (into a `Vec`) and [`write_to`] (into any
//! [`std::io::Write`]).
//!
//! Counts are the array lengths, so a model read from a file writes that file back exactly, and
//! a built or edited one gets correct counts. What the layout cannot hold is refused before the
//! first byte is written: a count over `u32`, a heuristic on a version without one (or none where
//! one is required), a ladder plane on a version without one, an edict form of another version.
//! Then every array goes out as whole zerocopy records, a batch at a time.

use std::io;

use nav_core::error::{refusal, refused};
use nav_core::scalar::{F32, I32, U16, U32};
use nav_core::zerocopy::{Immutable, IntoBytes};
use nav_core::{Error, Result, write::narrow};

use crate::FORMAT;
use crate::layout::{EdictLayout, Layout};
use crate::model::{Edict, EdictEntity, NavFile, Traversal, Vec3};
use crate::view::{
    RawEdictNav3, RawEdictV12, RawEdictV14, RawEdictV15, RawHeader, RawLadderTraversal, RawLink,
    RawNode, RawTraversal, RawVec3,
};

/// Records converted and handed to the output at once.
const BATCH: usize = 512;

fn raw_vec3(v: &Vec3) -> RawVec3 {
    let [x, y, z] = v.map(F32::from);
    RawVec3 { x, y, z }
}

/// What the writer settles before the first byte: the layout and the header.
struct Plan {
    layout: Layout,
    header: RawHeader,
    num_edicts: U32,
}

impl Plan {
    /// Checks everything the layout cannot hold, so that writing can no longer be refused.
    fn new(file: &NavFile) -> Result<Plan> {
        let layout = Layout::new(file.magic, file.version).ok_or_else(|| {
            Error::unrepresentable(
                FORMAT,
                "version",
                format!(
                    "{} version {} has no known layout ({})",
                    file.magic.as_str(),
                    file.version,
                    file.magic.supported()
                ),
            )
        })?;
        let header = RawHeader {
            magic: file.magic.bytes(),
            version: U32::new(file.version),
            num_nodes: U32::new(narrow(FORMAT, "node count", file.nodes.len())?),
            num_links: U32::new(narrow(FORMAT, "link count", file.links.len())?),
            num_traversals: U32::new(narrow(FORMAT, "traversal count", file.traversals.len())?),
        };
        let num_edicts = U32::new(narrow(FORMAT, "edict count", file.edicts.len())?);
        let plan = Plan {
            layout,
            header,
            num_edicts,
        };
        plan.heuristic(file)?;
        for (i, t) in file.traversals.iter().enumerate() {
            plan.ladder_plane(file, i, t)?;
        }
        let edict_layout = layout.edict_layout();
        for (i, e) in file.edicts.iter().enumerate() {
            entity_fields(file, edict_layout, i, e)?;
        }
        Ok(plan)
    }

    /// The file's size.
    fn size(&self, file: &NavFile) -> usize {
        self.layout.file_size(
            file.nodes.len(),
            file.links.len(),
            file.traversals.len(),
            file.edicts.len(),
        )
    }

    /// The heuristic field, where the layout has one.
    fn heuristic(&self, file: &NavFile) -> Result<Option<F32>> {
        let refuse = |what: &str| {
            Err(Error::unrepresentable(
                FORMAT,
                "heuristic",
                format!("{} v{} {what}", file.magic.as_str(), file.version),
            ))
        };
        match (self.layout.has_heuristic(), file.heuristic) {
            (true, Some(h)) => Ok(Some(F32::from(h))),
            (false, None) => Ok(None),
            (true, None) => refuse("needs a heuristic value"),
            (false, Some(_)) => refuse("has no heuristic field"),
        }
    }

    /// The ladder plane of traversal `i`, where the layout has one.
    fn ladder_plane(&self, file: &NavFile, i: usize, t: &Traversal) -> Result<Option<RawVec3>> {
        match (self.layout.has_ladder_plane(), &t.ladder_plane) {
            (true, Some(p)) => Ok(Some(raw_vec3(p))),
            (false, None) => Ok(None),
            (true, None) => Err(Error::unrepresentable(
                FORMAT,
                format_args!("traversals[{i}]"),
                format!("NAV3 v{} traversals need a ladder plane", file.version),
            )),
            (false, Some(_)) => Err(Error::unrepresentable(
                FORMAT,
                format_args!("traversals[{i}]"),
                format!(
                    "{} v{} traversals have no ladder plane",
                    file.magic.as_str(),
                    file.version
                ),
            )),
        }
    }

    /// Writes the whole file.
    fn emit<W: io::Write + ?Sized>(&self, file: &NavFile, out: &mut W) -> io::Result<()> {
        out.write_all(self.header.as_bytes())?;
        if let Some(h) = self.heuristic(file).map_err(refusal)? {
            out.write_all(h.as_bytes())?;
        }
        put_records(out, &file.nodes, |n| RawNode {
            flags: U16::new(n.flags),
            num_links: U16::new(n.num_links),
            first_link: U16::new(n.first_link),
            radius: U16::new(n.radius),
        })?;
        put_records(out, &file.nodes, |n| raw_vec3(&n.origin))?;
        put_records(out, &file.links, |l| RawLink {
            target: U16::new(l.target),
            link_type: l.link_type,
            flags: l.flags,
            traversal: U16::new(l.traversal),
        })?;
        let plain = |t: &Traversal| RawTraversal {
            funnel: raw_vec3(&t.funnel),
            start: raw_vec3(&t.start),
            end: raw_vec3(&t.end),
        };
        // Plan::new has checked every traversal against the layout's ladder plane.
        if self.layout.has_ladder_plane() {
            put_records(out, &file.traversals, |t| {
                let RawTraversal { funnel, start, end } = plain(t);
                RawLadderTraversal {
                    funnel,
                    start,
                    end,
                    ladder_plane: raw_vec3(t.ladder_plane.as_ref().unwrap_or(&Vec3::default())),
                }
            })?;
        } else {
            put_records(out, &file.traversals, plain)?;
        }
        out.write_all(self.num_edicts.as_bytes())?;
        let layout = self.layout.edict_layout();
        let fields = |i: usize, e: &Edict| entity_fields(file, layout, i, e);
        match layout {
            EdictLayout::V12 => put_all(out, &file.edicts, |i, e| {
                fields(i, e)?;
                Ok(RawEdictV12 {
                    link: U16::new(e.link),
                    mins: raw_vec3(&e.mins),
                    maxs: raw_vec3(&e.maxs),
                })
            }),
            EdictLayout::V14 => put_all(out, &file.edicts, |i, e| {
                let [targetname, classname] = fields(i, e)?;
                Ok(RawEdictV14 {
                    link: U16::new(e.link),
                    mins: raw_vec3(&e.mins),
                    maxs: raw_vec3(&e.maxs),
                    targetname: I32::new(targetname),
                    classname: I32::new(classname),
                })
            }),
            EdictLayout::V15 => put_all(out, &file.edicts, |i, e| {
                let [entity, _] = fields(i, e)?;
                Ok(RawEdictV15 {
                    link: U16::new(e.link),
                    mins: raw_vec3(&e.mins),
                    maxs: raw_vec3(&e.maxs),
                    entity: I32::new(entity),
                })
            }),
            EdictLayout::Nav3 => put_all(out, &file.edicts, |i, e| {
                let [model, _] = fields(i, e)?;
                Ok(RawEdictNav3 {
                    link: U16::new(e.link),
                    model: I32::new(model),
                    mins: raw_vec3(&e.mins),
                    maxs: raw_vec3(&e.maxs),
                })
            }),
        }
    }
}

/// The entity fields of edict `i` in `layout`'s record (unused ones 0), or the refusal when its
/// entity is of another layout's form.
fn entity_fields(file: &NavFile, layout: EdictLayout, i: usize, e: &Edict) -> Result<[i32; 2]> {
    match (layout, e.entity) {
        (EdictLayout::V12, EdictEntity::None) => Ok([0, 0]),
        (
            EdictLayout::V14,
            EdictEntity::StringIds {
                targetname,
                classname,
            },
        ) => Ok([targetname, classname]),
        (EdictLayout::V15, EdictEntity::EntityId(id)) => Ok([id, 0]),
        (EdictLayout::Nav3, EdictEntity::Model(model)) => Ok([model, 0]),
        (expected, found) => Err(Error::unrepresentable(
            FORMAT,
            format_args!("edicts[{i}]"),
            format!(
                "{} v{} edicts are {}, not {}",
                file.magic.as_str(),
                file.version,
                layout_name(expected),
                entity_name(&found)
            ),
        )),
    }
}

/// Writes `items` as records made by `record(index, item)`, a batch of whole records per
/// `write_all` (generic over the destination, so a `Vec`'s `write_all` is a plain copy). A refusal from `record` (which [`Plan::new`] has already ruled out) stops it.
fn put_all<W: io::Write + ?Sized, T, R: IntoBytes + Immutable>(
    out: &mut W,
    items: &[T],
    mut record: impl FnMut(usize, &T) -> Result<R>,
) -> io::Result<()> {
    let mut batch = Vec::with_capacity(items.len().min(BATCH));
    let mut items = items.iter().enumerate().peekable();
    while items.peek().is_some() {
        batch.clear();
        for (i, item) in items.by_ref().take(BATCH) {
            batch.push(record(i, item).map_err(refusal)?);
        }
        out.write_all(batch.as_slice().as_bytes())?;
    }
    Ok(())
}

/// Writes `items` as records made by `record`, which cannot refuse: a batch of whole records
/// per `write_all`, each batch filled in one pass the compiler can unroll.
fn put_records<W: io::Write + ?Sized, T, R: IntoBytes + Immutable>(
    out: &mut W,
    items: &[T],
    record: impl Fn(&T) -> R,
) -> io::Result<()> {
    let mut batch = Vec::with_capacity(items.len().min(BATCH));
    for chunk in items.chunks(BATCH) {
        batch.clear();
        batch.extend(chunk.iter().map(&record));
        out.write_all(batch.as_slice().as_bytes())?;
    }
    Ok(())
}

/// Serialises a model.
pub fn write(file: &NavFile) -> Result<Vec<u8>> {
    let plan = Plan::new(file)?;
    let size = plan.size(file);
    let mut bytes = Vec::with_capacity(size);
    plan.emit(file, &mut bytes).map_err(|e| match refused(&e) {
        Some(refusal) => refusal.clone(),
        // Writing into a `Vec` does not fail otherwise.
        None => Error::unrepresentable(FORMAT, "output", e),
    })?;
    debug_assert_eq!(bytes.len(), size);
    Ok(bytes)
}

/// Streams a model to `out`: the bytes of [`write()`], without holding the file in memory. A model
/// the layout cannot hold is refused ([`std::io::ErrorKind::InvalidData`] carrying the
/// [`nav_core::Error`]) before anything is written.
pub fn write_to(file: &NavFile, out: &mut dyn io::Write) -> io::Result<()> {
    Plan::new(file).map_err(refusal)?.emit(file, out)
}

fn layout_name(l: EdictLayout) -> &'static str {
    match l {
        EdictLayout::V12 => "`none` (no entity field)",
        EdictLayout::V14 => "`string_ids`",
        EdictLayout::V15 => "`entity_id`",
        EdictLayout::Nav3 => "`model`",
    }
}

fn entity_name(e: &EdictEntity) -> &'static str {
    match e {
        EdictEntity::None => "`none`",
        EdictEntity::StringIds { .. } => "`string_ids`",
        EdictEntity::EntityId(_) => "`entity_id`",
        EdictEntity::Model(_) => "`model`",
    }
}
