//! The readable dump behind `navkit dump`.

use core::fmt::{self, Write};

use crate::layout::Magic;
use crate::model::{EdictEntity, LinkFlags, LinkType, NavFile, NodeFlags, Vec3};

struct V3<'a>(&'a Vec3);

impl fmt::Display for V3<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.0;
        write!(f, "({x}, {y}, {z})")
    }
}

fn names<T: Copy + Into<u32>>(value: T, table: &[(T, &str)]) -> String {
    let v: u32 = value.into();
    let mut parts: Vec<String> = table
        .iter()
        .filter(|(bit, _)| v & (*bit).into() != 0)
        .map(|(_, name)| (*name).to_string())
        .collect();
    let known = table.iter().fold(0u32, |acc, (bit, _)| acc | (*bit).into());
    if v & !known != 0 {
        parts.push(format!("{:#x}", v & !known));
    }
    parts.join("|")
}

/// NAV3 before v6: bits 0-3 were the red, blue, yellow and green team bits.
const OLD_NAV3_TEAMS: [(u8, &str); 4] = [
    (1, "TeamRed"),
    (2, "TeamBlue"),
    (4, "TeamYellow"),
    (8, "TeamGreen"),
];

fn link_type(b: u8) -> String {
    match LinkType::from_byte(b) {
        LinkType::Other(v) => format!("type {v}"),
        t => format!("{t:?}"),
    }
}

/// Writes the whole file as text.
pub fn dump(file: &NavFile, out: &mut dyn Write) -> fmt::Result {
    writeln!(out, "{} version {}", file.magic.as_str(), file.version)?;
    match file.heuristic {
        Some(h) => writeln!(out, "heuristic {h} ({:#010x})", h.to_bits())?,
        None => writeln!(out, "heuristic: none (no such field before NAV2 v16)")?,
    }
    writeln!(
        out,
        "{} nodes, {} links, {} traversals, {} edicts",
        file.nodes.len(),
        file.links.len(),
        file.traversals.len(),
        file.edicts.len()
    )?;
    let flags_meaningful = file.magic == Magic::Nav3 || file.version >= 18;
    writeln!(out, "\nnodes:")?;
    for (i, n) in file.nodes.iter().enumerate() {
        write!(out, "  [{i}] origin {} radius {}", V3(&n.origin), n.radius)?;
        if n.flags != 0 {
            write!(
                out,
                " flags {:#06x} {}",
                n.flags,
                names(n.flags, &NodeFlags::NAMES)
            )?;
        }
        writeln!(out, " links {}+{}", n.first_link, n.num_links)?;
        for (j, l) in file.node_links(i).iter().enumerate() {
            let index = usize::from(n.first_link) + j;
            write!(
                out,
                "      link[{index}] -> node {} {}",
                l.target,
                link_type(l.link_type)
            )?;
            if flags_meaningful {
                write!(out, " flags {:#04x}", l.flags)?;
                let named = if file.magic == Magic::Nav3 && file.version < 6 {
                    // Before NAV3 v6 the low four bits were four team bits; later they were
                    // reassigned. Only the team reading is known for these versions.
                    names(l.flags, &OLD_NAV3_TEAMS)
                } else {
                    names(l.flags, &LinkFlags::NAMES)
                };
                if !named.is_empty() {
                    write!(out, " {named}")?;
                }
            } else if l.flags != 0 {
                write!(out, " high byte {:#04x}", l.flags)?;
            }
            if let Some(t) = l.traversal() {
                write!(out, " traversal {t}")?;
            }
            writeln!(out)?;
        }
    }
    let owned: usize = file.nodes.iter().map(|n| usize::from(n.num_links)).sum();
    if owned != file.links.len() {
        writeln!(
            out,
            "\nlinks ({} in all, {owned} owned by a node):",
            file.links.len()
        )?;
        for (i, l) in file.links.iter().enumerate() {
            writeln!(
                out,
                "  [{i}] -> node {} {} second byte {:#04x} traversal {:#06x}",
                l.target,
                link_type(l.link_type),
                l.flags,
                l.traversal
            )?;
        }
    }
    writeln!(out, "\ntraversals:")?;
    for (i, t) in file.traversals.iter().enumerate() {
        write!(
            out,
            "  [{i}] funnel {} start {} end {}",
            V3(&t.funnel),
            V3(&t.start),
            V3(&t.end)
        )?;
        if let Some(p) = &t.ladder_plane {
            write!(out, " ladder_plane {}", V3(p))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "\nedicts:")?;
    for (i, e) in file.edicts.iter().enumerate() {
        write!(
            out,
            "  [{i}] link {} mins {} maxs {}",
            e.link,
            V3(&e.mins),
            V3(&e.maxs)
        )?;
        match e.entity {
            EdictEntity::None => {}
            EdictEntity::StringIds {
                targetname,
                classname,
            } => write!(out, " targetname id {targetname} classname id {classname}")?,
            EdictEntity::EntityId(id) => {
                write!(out, " entity id {id} (entity {})", -i64::from(id) - 1)?
            }
            EdictEntity::Model(m) => write!(out, " model {m}")?,
        }
        writeln!(out)?;
    }
    Ok(())
}
