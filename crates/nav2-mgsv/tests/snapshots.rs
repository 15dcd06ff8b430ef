//! Snapshots of the dump of the samples this crate's writer makes, summaries of a few corpus
//! files, and the check that `samples/mgsv/` holds what the sample builders make.

mod common;

use std::path::PathBuf;

use nav_core::Format;
use nav_core::testing::corpus_dir;
use nav2_mgsv::Nav2;

fn samples_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/mgsv")
}

#[test]
fn sample_dumps() {
    for (name, model) in common::samples() {
        let bytes = Nav2.write(&model).unwrap();
        let back = Nav2.read(&bytes).unwrap();
        let mut text = String::new();
        Nav2.dump(&back, &mut text).unwrap();
        insta::assert_snapshot!(format!("dump_{name}"), text);
    }
}

#[test]
fn samples_are_current() {
    let dir = samples_dir();
    for (name, model) in common::samples() {
        let bytes = Nav2.write(&model).unwrap();
        assert!(
            bytes.len() <= 8192,
            "{name} is {} bytes; keep samples small",
            bytes.len()
        );
        let path = dir.join(name);
        nav_core::testing::golden_file(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        nav_core::oracle::roundtrip_bytes(&Nav2, &bytes).unwrap();
    }
}

#[test]
fn corpus_summaries() {
    let Some(dir) = corpus_dir("mgsv") else {
        return;
    };
    for name in [
        "ssav_140_130_nav.nav2",
        "ssav_139_130_nav_boss.nav2",
        "ssav_140_131_nav.1.nav2",
        "ssav_139_131_nav.1.nav2",
        "obj2nav2_test.nav2",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let model = Nav2.read(&bytes).unwrap();
        let summary = Nav2.summary(&model);
        let mut text = format!("{} {}", summary.format, summary.version);
        if let Some(v) = &summary.variant {
            text.push_str(&format!(" ({v})"));
        }
        text.push('\n');
        for (k, v) in &summary.counts {
            text.push_str(&format!("{k}: {v}\n"));
        }
        text.push_str(&format!("findings: {}\n", Nav2.validate(&model).len()));
        insta::assert_snapshot!(format!("summary_{name}"), text);
    }
}

/// The first Phantom Pain tile, from the incoming folder or the corpus: its header and first data
/// chunk as `dump` shows them (the whole dump is 1,800 lines), and its summary.
#[test]
fn dump_of_the_phantom_pain_tile() {
    let name = "ih_mbqf_102_102_nav.nav2";
    let Some(path) = nav_core::testing::real_file("mgsv", name) else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let model = Nav2.read(&bytes).unwrap();
    let mut dump = String::new();
    Nav2.dump(&model, &mut dump).unwrap();
    let head: Vec<&str> = dump
        .lines()
        .take_while(|l| !l.starts_with("data_chunks[1]"))
        .collect();
    let outline: Vec<&str> = dump
        .lines()
        .filter(|l| !l.starts_with(' ') || (l.starts_with("  ") && !l.starts_with("   ")))
        .filter(|l| !l.starts_with("  bucket"))
        .collect();
    insta::assert_snapshot!(
        "dump_ih_mbqf_102_102_nav",
        format!(
            "{}\n...\noutline of the whole dump ({} lines):\n{}",
            head.join("\n"),
            dump.lines().count(),
            outline.join("\n")
        )
    );
}
