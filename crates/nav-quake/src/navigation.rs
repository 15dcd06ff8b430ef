//! The Quake node graph as a navigation graph: one node cell per node, one directed edge per
//! link, with the kind the link's type, flags, traversal and edict give it.
//!
//! The engine's bots path over exactly this graph (A* from node to node along the links), so
//! nothing is added and nothing is merged: a link stored once is one edge, and two nodes that
//! link to each other have two links and so two edges. The mapping in full, which the format's
//! spec (`docs/formats/quake.md`, "Navigation") repeats:
//!
//! | link type | edge kind |
//! |---|---|
//! | 0 Walk | walk; door when an edict gates it; swim into an underwater node |
//! | 9 Crouch (Quake II) | walk (a walk bent low) |
//! | 1 LongJump, 5 BarrierJump, 8 ManualJump, 11 ManualBarrierJump, 12 PivotAndJump, 13 RocketJump | jump |
//! | 3 WalkOffLedge | drop |
//! | 10 Ladder (Quake II) | ladder-up, or ladder-down when the climb ends lower than it starts |
//! | 6 Elevator, 7 Train | elevator |
//! | 2 Teleport | teleport |
//! | 4 Pusher, 14 and any other value | special |
//!
//! and, over all of them, blocked when a Quake II file (NAV3 v3 on) marks the link Disabled, or
//! the node it reaches Disabled.

use nav_core::geometry::UpAxis;
use nav_core::navigation::{CellId, EdgeKind, Graph};

use crate::layout::Magic;
use crate::model::{Link, LinkFlags, LinkType, NavFile, Node, NodeFlags, Traversal};

/// Quake II's node flag "Disabled" (bit 13). NAV2 gives the bit no meaning; [`NodeFlags`] holds
/// the NAV2 names, so the Quake II one lives here.
const NAV3_NODE_DISABLED: u16 = 1 << 13;

/// The first NAV3 version whose link flags byte means what [`LinkFlags`] names (before it, the
/// engine takes every link as usable by both teams and ignores the byte).
const NAV3_LINK_FLAGS_FROM: u32 = 3;

/// The graph of a Quake file, Z up, in the file's own axes: node `i` is cell `i`
/// (`CellId::new(i)`), a node cell at its origin with its radius; each link a node's range holds
/// is an edge from that node to its target, in link order.
///
/// A hand-edited model may hold indices past its arrays (a link target past the nodes, a node
/// range past the links, a traversal or edict index past its list): those links are left out,
/// and those traversals and edicts are ignored, without a panic. [`crate::validate()`] reports
/// each of them as an error, so nothing is lost silently. Links no node's range covers have no
/// node to leave from and give no edge either (the game never reaches them).
pub fn navigation(file: &NavFile) -> Graph {
    let mut graph = Graph::new(UpAxis::Z);
    graph.cells.reserve_exact(file.nodes.len());
    graph.edges.reserve_exact(file.links.len());
    for (i, node) in file.nodes.iter().enumerate() {
        graph.add_node_cell(
            CellId::new(u64::try_from(i).unwrap_or(u64::MAX)),
            node.origin.map(|c| c.get()),
            f32::from(node.radius),
        );
    }

    // Which links an edict gates, by link index (an edict past the links gates none).
    let mut gated = vec![false; file.links.len()];
    for edict in &file.edicts {
        if let Some(g) = gated.get_mut(usize::from(edict.link)) {
            *g = true;
        }
    }

    let rules = Rules::of(file);
    for (from, node) in file.nodes.iter().enumerate() {
        let first = usize::from(node.first_link);
        let links = file
            .links
            .get(first..first + usize::from(node.num_links))
            .unwrap_or(&[]);
        for (j, link) in links.iter().enumerate() {
            let Some(target) = file.nodes.get(usize::from(link.target)) else {
                continue; // past the nodes: validate's error
            };
            let is_gated = gated.get(first + j).copied().unwrap_or(false);
            let kind = rules.kind(file, node, link, target, is_gated);
            // Both indices are below the node count, which the u16 link target bounds for every
            // reachable target, and `from` is a node index like it.
            graph.add_edge(index_u32(from), u32::from(link.target), kind);
        }
    }
    graph
}

/// Which bits the file's version gives meaning to.
struct Rules {
    /// The link flag that marks a link Disabled, where the version has it.
    link_disabled: u8,
    /// The node flag that marks a node Disabled, where the magic has it.
    node_disabled: u16,
}

impl Rules {
    fn of(file: &NavFile) -> Self {
        let nav3 = file.magic == Magic::Nav3;
        Rules {
            // NAV2 v18 stores 0xFF in every link's flags byte and no source settles what it
            // means there, so only Quake II's reading is taken.
            link_disabled: if nav3 && file.version >= NAV3_LINK_FLAGS_FROM {
                LinkFlags::DISABLED
            } else {
                0
            },
            node_disabled: if nav3 { NAV3_NODE_DISABLED } else { 0 },
        }
    }

    /// The kind of one link from `node` to `target`.
    fn kind(
        &self,
        file: &NavFile,
        node: &Node,
        link: &Link,
        target: &Node,
        gated: bool,
    ) -> EdgeKind {
        if link.flags & self.link_disabled != 0 || target.flags & self.node_disabled != 0 {
            return EdgeKind::Blocked;
        }
        match link.kind() {
            LinkType::Walk if gated => EdgeKind::Door,
            LinkType::Walk if target.flags & NodeFlags::UNDERWATER != 0 => EdgeKind::Swim,
            LinkType::Walk | LinkType::Crouch => EdgeKind::Walk,
            LinkType::LongJump
            | LinkType::BarrierJump
            | LinkType::ManualJump
            | LinkType::ManualBarrierJump
            | LinkType::PivotAndJump
            | LinkType::RocketJump => EdgeKind::Jump,
            LinkType::WalkOffLedge => EdgeKind::Drop,
            LinkType::Ladder => ladder(file, node, link, target),
            LinkType::Elevator | LinkType::Train => EdgeKind::Elevator,
            LinkType::Teleport => EdgeKind::Teleport,
            LinkType::Pusher | LinkType::Other(_) => EdgeKind::Special,
        }
    }
}

/// Up or down a ladder: by the link's traversal (its end against its start) where it has one
/// with finite heights, else by the two nodes' origins; down only when the end is lower.
fn ladder(file: &NavFile, node: &Node, link: &Link, target: &Node) -> EdgeKind {
    let height = |v: &[nav_core::RawF32; 3]| v[2].get();
    let by_traversal = link
        .traversal()
        .and_then(|t| file.traversals.get(usize::from(t)))
        .map(|t: &Traversal| (height(&t.start), height(&t.end)))
        .filter(|(a, b)| a.is_finite() && b.is_finite());
    let (start, end) = by_traversal.unwrap_or((height(&node.origin), height(&target.origin)));
    if end < start {
        EdgeKind::LadderDown
    } else {
        EdgeKind::LadderUp
    }
}

/// A node index as the graph's `u32`. Node indices come from a `Vec` the edges can only address
/// through `u16` targets; a source node past `u32::MAX` saturates, which
/// [`Graph::is_consistent`] would report.
fn index_u32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}
