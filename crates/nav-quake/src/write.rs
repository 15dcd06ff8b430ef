//! The writer.
//!
//! Counts are the array lengths, so a model read from a file writes that file back exactly, and
//! a built or edited one gets correct counts. What the layout cannot hold is refused: a count
//! over `u32`, a heuristic on a version without one (or none where one is required), a ladder
//! plane on a version without one, an edict form of another version.

use nav_core::{ByteWriter, Error, Result, write::narrow};

use nav_core::scalar::{F32, U16};

use crate::FORMAT;
use crate::layout::{EdictLayout, Layout};
use crate::model::{EdictEntity, NavFile, Vec3};
use crate::view::{RawLink, RawNode, RawVec3};

fn raw_vec3(v: &Vec3) -> RawVec3 {
    let [x, y, z] = v.map(F32::from);
    RawVec3 { x, y, z }
}

fn put_vec3(w: &mut ByteWriter, v: &Vec3) {
    w.put(&raw_vec3(v));
}

/// Serialises a model.
pub fn write(file: &NavFile) -> Result<Vec<u8>> {
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
    let num_nodes: u32 = narrow(FORMAT, "node count", file.nodes.len())?;
    let num_links: u32 = narrow(FORMAT, "link count", file.links.len())?;
    let num_traversals: u32 = narrow(FORMAT, "traversal count", file.traversals.len())?;
    let num_edicts: u32 = narrow(FORMAT, "edict count", file.edicts.len())?;

    let mut w = ByteWriter::with_capacity(layout.file_size(
        file.nodes.len(),
        file.links.len(),
        file.traversals.len(),
        file.edicts.len(),
    ));
    w.bytes(&file.magic.bytes())
        .u32(file.version)
        .u32(num_nodes)
        .u32(num_links)
        .u32(num_traversals);
    match (layout.has_heuristic(), file.heuristic) {
        (true, Some(h)) => {
            w.f32(h);
        }
        (false, None) => {}
        (true, None) => {
            return Err(Error::unrepresentable(
                FORMAT,
                "heuristic",
                format!(
                    "{} v{} needs a heuristic value",
                    file.magic.as_str(),
                    file.version
                ),
            ));
        }
        (false, Some(_)) => {
            return Err(Error::unrepresentable(
                FORMAT,
                "heuristic",
                format!(
                    "{} v{} has no heuristic field",
                    file.magic.as_str(),
                    file.version
                ),
            ));
        }
    }
    // Whole records at a time, rather than field by field.
    let nodes: Vec<RawNode> = file
        .nodes
        .iter()
        .map(|n| RawNode {
            flags: U16::new(n.flags),
            num_links: U16::new(n.num_links),
            first_link: U16::new(n.first_link),
            radius: U16::new(n.radius),
        })
        .collect();
    w.put(nodes.as_slice());
    let origins: Vec<RawVec3> = file.nodes.iter().map(|n| raw_vec3(&n.origin)).collect();
    w.put(origins.as_slice());
    let links: Vec<RawLink> = file
        .links
        .iter()
        .map(|l| RawLink {
            target: U16::new(l.target),
            link_type: l.link_type,
            flags: l.flags,
            traversal: U16::new(l.traversal),
        })
        .collect();
    w.put(links.as_slice());
    for (i, t) in file.traversals.iter().enumerate() {
        put_vec3(&mut w, &t.funnel);
        put_vec3(&mut w, &t.start);
        put_vec3(&mut w, &t.end);
        match (layout.has_ladder_plane(), &t.ladder_plane) {
            (true, Some(p)) => put_vec3(&mut w, p),
            (false, None) => {}
            (true, None) => {
                return Err(Error::unrepresentable(
                    FORMAT,
                    format_args!("traversals[{i}]"),
                    format!("NAV3 v{} traversals need a ladder plane", file.version),
                ));
            }
            (false, Some(_)) => {
                return Err(Error::unrepresentable(
                    FORMAT,
                    format_args!("traversals[{i}]"),
                    format!(
                        "{} v{} traversals have no ladder plane",
                        file.magic.as_str(),
                        file.version
                    ),
                ));
            }
        }
    }
    w.u32(num_edicts);
    let edict_layout = layout.edict_layout();
    for (i, e) in file.edicts.iter().enumerate() {
        w.u16(e.link);
        match (edict_layout, e.entity) {
            (EdictLayout::V12, EdictEntity::None) => {
                put_vec3(&mut w, &e.mins);
                put_vec3(&mut w, &e.maxs);
            }
            (
                EdictLayout::V14,
                EdictEntity::StringIds {
                    targetname,
                    classname,
                },
            ) => {
                put_vec3(&mut w, &e.mins);
                put_vec3(&mut w, &e.maxs);
                w.i32(targetname).i32(classname);
            }
            (EdictLayout::V15, EdictEntity::EntityId(id)) => {
                put_vec3(&mut w, &e.mins);
                put_vec3(&mut w, &e.maxs);
                w.i32(id);
            }
            (EdictLayout::Nav3, EdictEntity::Model(model)) => {
                w.i32(model);
                put_vec3(&mut w, &e.mins);
                put_vec3(&mut w, &e.maxs);
            }
            (expected, found) => {
                return Err(Error::unrepresentable(
                    FORMAT,
                    format_args!("edicts[{i}]"),
                    format!(
                        "{} v{} edicts are {}, not {}",
                        file.magic.as_str(),
                        file.version,
                        layout_name(expected),
                        entity_name(&found)
                    ),
                ));
            }
        }
    }
    debug_assert_eq!(
        w.len(),
        layout.file_size(
            file.nodes.len(),
            file.links.len(),
            file.traversals.len(),
            file.edicts.len()
        )
    );
    Ok(w.into_inner())
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
