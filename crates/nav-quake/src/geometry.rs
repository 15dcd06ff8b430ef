//! The Quake graph as format-neutral geometry: nodes and links, no polygons.

use nav_core::geometry::{Geometry, UpAxis};

use crate::model::{LinkType, NavFile, NodeFlags};

fn node_kind(flags: u16) -> &'static str {
    if flags & NodeFlags::TELEPORTER != 0 {
        "teleporter"
    } else if flags & NodeFlags::PUSHER != 0 {
        "pusher"
    } else if flags & (NodeFlags::ELEVATOR_TOP | NodeFlags::ELEVATOR_BOTTOM) != 0 {
        "elevator"
    } else if flags & NodeFlags::UNDERWATER != 0 {
        "underwater"
    } else if flags & NodeFlags::HAZARD != 0 {
        "hazard"
    } else {
        "node"
    }
}

fn link_kind(t: LinkType) -> String {
    match t {
        LinkType::Other(v) => format!("link type {v}"),
        t => {
            // `LongJump` -> `long jump`
            let name = format!("{t:?}");
            let mut out = String::new();
            for (i, c) in name.chars().enumerate() {
                if c.is_uppercase() && i > 0 {
                    out.push(' ');
                }
                out.extend(c.to_lowercase());
            }
            out
        }
    }
}

/// Nodes at their origins (Z up), one link per stored link from its owning node to its target.
/// Links whose target names no node are left out.
pub fn geometry(file: &NavFile) -> Geometry {
    let mut g = Geometry::new(UpAxis::Z);
    for n in &file.nodes {
        g.push_node(n.origin.map(|c| c.get()), node_kind(n.flags));
    }
    let count = g.nodes.len();
    for (i, _) in file.nodes.iter().enumerate() {
        for l in file.node_links(i) {
            if usize::from(l.target) < count {
                let from = u32::try_from(i).unwrap_or(u32::MAX);
                g.push_link(from, u32::from(l.target), &link_kind(l.kind()));
            }
        }
    }
    g
}
