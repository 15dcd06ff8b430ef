//! Structured round trips: arbitrary models through the writer and back, and model edits.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use nav_core::testing::arbitrary_models;
use nav_core::testing::vec3;
use nav_quake::{Link, Magic, NavFile, Node, Quake};

#[test]
fn arbitrary_models_round_trip() {
    let t = arbitrary_models(&Quake, 3000, |seed| 64 + (seed as usize % 4096), |_, _| {});
    assert!(t.written > 2000, "too few models were writable: {t:?}");
}

#[test]
fn an_edited_file_reads_back_with_the_edit_and_validates() {
    let mut f = common::room(Magic::Nav2, 18);
    // Move a node, and add a sixth node reached from node 4 by a new link at the end.
    f.nodes[2].origin = vec3(300.0, 300.0, 32.0);
    let first = f.links.len() as u16;
    f.nodes.push(Node {
        flags: 0,
        num_links: 1,
        first_link: first,
        radius: 16,
        origin: vec3(512.0, 0.0, 24.0),
    });
    f.links.push(Link {
        target: 0,
        link_type: 0,
        flags: 0xff,
        traversal: Link::NO_TRAVERSAL,
    });
    let bytes = nav_quake::write(&f).unwrap();
    let back = nav_quake::read(&bytes).unwrap();
    assert_eq!(back, f);
    assert_eq!(
        back.node_links(5),
        &[Link {
            target: 0,
            link_type: 0,
            flags: 0xff,
            traversal: 0xffff
        }]
    );
    assert!(nav_quake::validate(&back).is_empty());
}

#[test]
fn json_is_the_model_fields() {
    let f = common::room(Magic::Nav2, 15);
    let json: serde_json::Value = serde_json::to_value(&f).unwrap();
    assert_eq!(json["magic"], "NAV2");
    assert_eq!(json["version"], 15);
    assert_eq!(
        json["nodes"][4]["origin"],
        serde_json::json!([128.0, 128.0, 88.0])
    );
    assert_eq!(json["links"][4]["traversal"], 0);
    assert_eq!(
        json["edicts"][0]["entity"],
        serde_json::json!({ "entity_id": -18 })
    );
    let back: NavFile = serde_json::from_value(json).unwrap();
    assert_eq!(back, f);
}
