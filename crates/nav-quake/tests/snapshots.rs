//! Snapshots of the readable dump of the samples, one per record layout.

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
