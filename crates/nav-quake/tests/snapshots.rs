//! Snapshots of the readable dump of the samples, one per record layout.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use nav_core::Format;
use nav_quake::{Magic, Quake};

fn dump(magic: Magic, version: u32) -> String {
    let mut out = String::new();
    Quake.dump(&common::room(magic, version), &mut out).unwrap();
    out
}

#[test]
fn dump_nav2_v12() {
    insta::assert_snapshot!(dump(Magic::Nav2, 12));
}

#[test]
fn dump_nav2_v14() {
    insta::assert_snapshot!(dump(Magic::Nav2, 14));
}

#[test]
fn dump_nav2_v17() {
    insta::assert_snapshot!(dump(Magic::Nav2, 17));
}

#[test]
fn dump_nav2_v18() {
    insta::assert_snapshot!(dump(Magic::Nav2, 18));
}

#[test]
fn dump_nav3_v6() {
    insta::assert_snapshot!(dump(Magic::Nav3, 6));
}

#[test]
fn summaries_of_corpus_files() {
    let Some(dir) = nav_core::testing::corpus_dir("quake") else {
        return;
    };
    let mut text = String::new();
    for name in [
        "nav2-original/ry_end_v15.nav",
        "nav2-original/ry_rogue_r2m8_v18.nav",
        "nav3-q2/horde_lab_e3.nav",
    ] {
        let model = nav_quake::read(&std::fs::read(dir.join(name)).unwrap()).unwrap();
        text.push_str(&format!("{name}: {:?}\n", Quake.summary(&model)));
    }
    insta::assert_snapshot!(text);
}

/// A retail Quake II navigation file (the smallest shipped with the game): its header, the first
/// nodes with their links, and its traversals and edicts in full.
#[test]
fn dump_of_a_retail_nav3_file() {
    let name = "worr_tutorial.nav";
    let Some(path) = nav_core::testing::real_file("quake", name) else {
        return;
    };
    let model = nav_quake::read(&std::fs::read(&path).unwrap()).unwrap();
    let mut text = String::new();
    Quake.dump(&model, &mut text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let nodes_end = lines
        .iter()
        .position(|l| *l == "traversals:")
        .unwrap_or(lines.len());
    let first_nodes = lines[..nodes_end]
        .iter()
        .take(40)
        .copied()
        .collect::<Vec<_>>()
        .join("\n");
    let rest = lines[nodes_end..].join("\n");
    insta::assert_snapshot!(format!(
        "{first_nodes}\n  ... ({} more node and link lines)\n\n{rest}",
        nodes_end.saturating_sub(40)
    ));
}
