//! Small models built in code: the repository's samples and the snapshots' inputs.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]
#![allow(dead_code)]

use nav_core::RawF32;
use nav_core::testing::vec3;
use nav_quake::{
    Edict, EdictEntity, EdictLayout, Layout, Link, Magic, NavFile, Node, NodeFlags, Traversal,
};

/// A five-node room: a square of walk links, a ledge with a jump onto it, and a door.
pub fn room(magic: Magic, version: u32) -> NavFile {
    let layout = Layout::new(magic, version).expect("supported version");
    let mut f = NavFile::new(magic, version).expect("supported version");
    let corners = [
        (0.0, 0.0, 24.0),
        (256.0, 0.0, 24.0),
        (256.0, 256.0, 24.0),
        (0.0, 256.0, 24.0),
        (128.0, 128.0, 88.0),
    ];
    // Node i walks to its two neighbours on the square; node 1 also jumps up onto the ledge (4),
    // and the ledge drops back to 3.
    let out: [&[(u16, u8)]; 5] = [
        &[(1, 0), (3, 0)],
        &[(2, 0), (0, 0), (4, 1)],
        &[(3, 0), (1, 0)],
        &[(0, 0), (2, 0)],
        &[(3, 3)],
    ];
    let team = if layout.has_link_flags() {
        LinkFlags::ALL
    } else {
        0
    };
    for (i, (x, y, z)) in corners.into_iter().enumerate() {
        let first = f.links.len() as u16;
        for &(target, link_type) in out[i] {
            let traversal = if link_type == 0 {
                Link::NO_TRAVERSAL
            } else {
                let t = f.traversals.len() as u16;
                let (from, to) = (
                    f.nodes.get(i).map_or(vec3(x, y, z), |n| n.origin),
                    corners[usize::from(target)],
                );
                f.traversals.push(Traversal {
                    funnel: vec3(0.0, 0.0, 0.0),
                    start: from,
                    end: vec3(to.0, to.1, to.2),
                    ladder_plane: layout.has_ladder_plane().then(|| vec3(0.0, -1.0, -0.0)),
                });
                t
            };
            f.links.push(Link {
                target,
                link_type,
                flags: team,
                traversal,
            });
        }
        let flags = if i == 4 {
            NodeFlags::CHECK_FOR_FLOOR
        } else {
            0
        };
        f.nodes.push(Node {
            flags,
            num_links: out[i].len() as u16,
            first_link: first,
            radius: if i == 4 { 8 } else { 32 },
            origin: vec3(x, y, z),
        });
    }
    // The door between nodes 2 and 3 gates link 5 (2 -> 3).
    let entity = match layout.edict_layout() {
        EdictLayout::V12 => EdictEntity::None,
        EdictLayout::V14 => EdictEntity::StringIds {
            targetname: -59,
            classname: -60,
        },
        EdictLayout::V15 => EdictEntity::EntityId(-18),
        EdictLayout::Nav3 => EdictEntity::Model(3),
    };
    f.edicts.push(Edict {
        link: 5,
        mins: vec3(112.0, 248.0, 0.0),
        maxs: vec3(144.0, 264.0, 128.0),
        entity,
    });
    if let Some(h) = f.heuristic.as_mut() {
        *h = RawF32::new(0.8);
    }
    f
}

/// Every supported magic and version.
pub fn all_versions() -> Vec<(Magic, u32)> {
    [Magic::Nav2, Magic::Nav3]
        .into_iter()
        .flat_map(|m| m.versions().map(move |v| (m, v)))
        .collect()
}

/// The sample file name of a magic and version.
pub fn sample_name(magic: Magic, version: u32) -> String {
    format!("room_{}_v{version}.nav", magic.as_str().to_lowercase())
}

/// Flags byte meaning "every team" in this workspace's samples.
pub struct LinkFlags;

impl LinkFlags {
    /// Red and blue.
    pub const ALL: u8 = nav_quake::LinkFlags::TEAM_RED | nav_quake::LinkFlags::TEAM_BLUE;
}
