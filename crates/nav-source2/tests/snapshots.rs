//! Snapshots of readable dumps: of the writer-made samples, of the three smallest real files
//! (where the incoming folder is present), and the summaries of every real file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use nav_core::Format;
use nav_source2::Source2Nav;

fn dump(m: &nav_source2::Source2Mesh) -> String {
    let mut s = String::new();
    Source2Nav.dump(m, &mut s).unwrap();
    s
}

#[test]
fn dump_samples() {
    for (version, sub) in [(30, 0), (31, 0), (35, 1), (36, 1)] {
        let m = nav_source2::samples::room(version, sub);
        insta::assert_snapshot!(format!("dump_room_v{version}"), dump(&m));
    }
}

#[test]
fn dump_small_real_files() {
    let mut seen = 0;
    for name in [
        "vrf_preview_flat.nav",
        "vrf_lobby_mapveto.nav",
        "vrf_point_template_test_v36.nav",
    ] {
        let Some(path) = nav_core::testing::real_file("source2", name) else {
            return;
        };
        let m = nav_source2::read(&std::fs::read(path).unwrap()).unwrap();
        insta::assert_snapshot!(format!("dump_real_{name}"), dump(&m));
        seen += 1;
    }
    println!("{seen} real files dumped");
    assert_eq!(seen, 3);
}

#[test]
fn summaries_of_real_files() {
    let mut lines = Vec::new();
    let mut files = common::source2_files();
    files.sort_by(|a, b| a.1.file_name().cmp(&b.1.file_name()));
    files.dedup_by(|a, b| a.1.file_name() == b.1.file_name());
    for (_, path) in &files {
        let bytes = std::fs::read(path).unwrap();
        let m = nav_source2::read(&bytes).unwrap();
        let s = Source2Nav.summary(&m);
        let counts: Vec<String> = s.counts.iter().map(|(k, v)| format!("{k} {v}")).collect();
        lines.push(format!(
            "{}: {} bytes, version {} ({}), {}",
            path.file_name().unwrap().to_string_lossy(),
            bytes.len(),
            s.version,
            s.variant.unwrap_or_default(),
            counts.join(", ")
        ));
    }
    if lines.is_empty() {
        nav_core::testing::skip_without_corpus("no real Source 2 file; no summary snapshot");
        return;
    }
    insta::assert_snapshot!("summaries_of_real_files", lines.join("\n"));
}
