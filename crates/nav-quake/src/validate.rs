//! Semantic checks: what the engine's loaders assume but the layout does not enforce.

use nav_core::{Finding, Place};

use crate::layout::Magic;
use crate::model::{NavFile, NodeFlags};

/// Checks link targets, traversal and edict indices, and the link range of every node.
pub fn validate(file: &NavFile) -> Vec<Finding> {
    let mut out = Vec::new();
    let (n, l, t) = (file.nodes.len(), file.links.len(), file.traversals.len());
    if n > 0x1_0000 {
        out.push(Finding::error(
            "nodes",
            format!("{n} nodes, but link targets are u16 and reach 65,536 at most"),
        ));
    }
    if l > 0x1_0000 {
        out.push(Finding::error(
            "links",
            format!("{l} links, but node link ranges are u16"),
        ));
    }
    if file.magic == Magic::Nav3 && (n == 0 || l == 0) {
        out.push(Finding::warning(
            "header",
            "Quake II loaders refuse a NAV3 file with no nodes or no links",
        ));
    }
    let known_flags = NodeFlags::NAMES
        .iter()
        .fold(0u16, |acc, (bit, _)| acc | bit);
    for (i, node) in file.nodes.iter().enumerate() {
        let end = usize::from(node.first_link) + usize::from(node.num_links);
        if end > l {
            out.push(Finding::error(
                Place::at("nodes", i).cell(),
                format!("links {}..{end} run past the {l} links", node.first_link),
            ));
        }
        if file.magic == Magic::Nav2 && node.flags & !known_flags != 0 {
            out.push(Finding::info(
                Place::at("nodes", i).cell(),
                format!(
                    "flag bits {:#06x} have no known meaning",
                    node.flags & !known_flags
                ),
            ));
        }
    }
    let mut uses = vec![0u32; t];
    for (i, link) in file.links.iter().enumerate() {
        if usize::from(link.target) >= n {
            out.push(Finding::error(
                ("links", i),
                format!("target node {} is past the {n} nodes", link.target),
            ));
        }
        if let Some(tr) = link.traversal() {
            match uses.get_mut(usize::from(tr)) {
                Some(c) => *c += 1,
                None => out.push(Finding::error(
                    ("links", i),
                    format!("traversal index {tr:#06x} is past the {t} traversals"),
                )),
            }
        }
        if !link.kind().known_in(file.magic) {
            out.push(Finding::warning(
                ("links", i),
                format!(
                    "link type {} is not one {} defines",
                    link.link_type,
                    file.magic.as_str()
                ),
            ));
        }
    }
    for (i, c) in uses.iter().enumerate() {
        match c {
            0 => out.push(Finding::warning(
                ("traversals", i),
                "no link uses this traversal",
            )),
            1 => {}
            _ => out.push(Finding::info(
                ("traversals", i),
                format!("shared by {c} links"),
            )),
        }
    }
    for (i, e) in file.edicts.iter().enumerate() {
        if usize::from(e.link) >= l {
            out.push(Finding::error(
                ("edicts", i),
                format!("link index {} is past the {l} links", e.link),
            ));
        }
    }
    out
}
