//! Snapshots of the dumps of the sample files (made by this crate's writer) and of the
//! summaries of a few corpus files (counts only: corpus data is not copied into the repository).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::Format;
use nav_core::testing::corpus_dir;
use nvnm_skyrim::{Nvnm, Plugin, samples};

fn dump<F: Format>(format: &F, bytes: &[u8]) -> String {
    let model = format.read(bytes).unwrap();
    let mut out = String::new();
    format.dump(&model, &mut out).unwrap();
    out
}

#[test]
fn dump_interior_v12() {
    let bytes = Nvnm.write(&samples::interior()).unwrap();
    insta::assert_snapshot!(dump(&Nvnm, &bytes));
}

#[test]
fn dump_exterior_v12() {
    let bytes = Nvnm.write(&samples::exterior()).unwrap();
    insta::assert_snapshot!(dump(&Nvnm, &bytes));
}

#[test]
fn dump_fallout4_v15() {
    let bytes = Nvnm.write(&samples::fallout4()).unwrap();
    insta::assert_snapshot!(dump(&Nvnm, &bytes));
}

#[test]
fn dump_plugin() {
    let bytes = Plugin.write(&samples::plugin()).unwrap();
    insta::assert_snapshot!(dump(&Plugin, &bytes));
}

#[test]
fn summaries_of_corpus_files() {
    let (Some(plugins), Some(blobs)) = (corpus_dir("skyrim"), corpus_dir("skyrim/nvnm")) else {
        return;
    };
    let mut out = String::new();
    for name in ["Undaunted.esp", "Dwemer Secrets.esp", "Cheat Room.esp"] {
        let bytes = std::fs::read(plugins.join(name)).unwrap();
        out += &format!(
            "{name}: {:?}\n",
            Plugin.summary(&Plugin.read(&bytes).unwrap())
        );
    }
    for name in [
        "Undaunted_040D4997.nvnm",
        "Dwemer_Secrets_000B83E0.nvnm",
        "Cheat_Room_0510F343.nvnm",
    ] {
        let bytes = std::fs::read(blobs.join(name)).unwrap();
        out += &format!("{name}: {:?}\n", Nvnm.summary(&Nvnm.read(&bytes).unwrap()));
    }
    insta::assert_snapshot!(out);
}
