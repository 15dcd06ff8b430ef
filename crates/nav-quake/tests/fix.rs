//! `fix` after a hand edit: real files that validate clean come back unchanged, a removed node
//! leaves links that `fix` drops (re-packing the node link ranges) until `validate` reports no
//! error, and the sample room gives exactly the expected change lines.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;

use std::path::{Path, PathBuf};

use nav_core::testing::{fix_files, is_negative, real_files, real_paths, skip_without_corpus};
use nav_core::{Finding, Format, Severity};
use nav_quake::{Link, Magic, NavFile, Quake};

fn errors(file: &NavFile) -> Vec<Finding> {
    nav_quake::validate(file)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect()
}

/// The errors fix leaves to people: more nodes or links than the format's u16 indices reach.
fn is_size_error(f: &Finding) -> bool {
    f.location == "nodes" || f.location == "links"
}

fn samples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples/quake");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("samples/quake exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "nav"))
        .collect();
    files.sort();
    files
}

fn real_models() -> Vec<(String, Vec<u8>, NavFile)> {
    let mut out = Vec::new();
    for (dir, path) in real_files("quake") {
        if is_negative(&path) {
            continue;
        }
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let bytes = std::fs::read(&path).expect("readable");
        let file = nav_quake::read(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        out.push((name, bytes, file));
    }
    out
}

#[test]
fn real_files_fix_only_what_validate_finds() {
    let files = real_paths("quake");
    if files.is_empty() {
        skip_without_corpus("no real `quake` file");
        return;
    }
    let walked = files.iter().filter(|p| !is_negative(p)).count();
    let tally = fix_files(&Quake, files, |f| !is_size_error(f));
    assert_eq!(tally.unchanged + tally.mended, walked, "{tally:?}");
    assert!(tally.unchanged > 0, "no real file came back unchanged");
}

/// Removes the last node, which another node links to; `validate` must then report errors and
/// after `fix` none. Every other node keeps exactly its links minus those to the removed node,
/// the changes name it, the written file reads back equal and a second fix changes nothing.
/// Returns the errors before and the changes, or `None` when no other node links to the last.
fn remove_last_node_then_fix(name: &str, file: &NavFile) -> Option<(usize, usize)> {
    let last = file.nodes.len().checked_sub(1)?;
    let gone = u16::try_from(last).ok()?;
    let linked = (0..last).any(|i| file.node_links(i).iter().any(|l| l.target == gone));
    if !linked {
        return None;
    }
    let mut edited = file.clone();
    edited.nodes.pop();
    let before = errors(&edited).len();
    assert!(before > 0, "{name}: removing node {last} left no error");
    let changes = nav_quake::fix(&mut edited);
    let after = errors(&edited);
    assert!(after.is_empty(), "{name}: fix left {after:?}");
    let needle = format!("node {last},");
    assert!(
        changes.iter().any(|c| c.contains(&needle)),
        "{name}: no change names node {last}: {changes:#?}"
    );
    for i in 0..last {
        let expected: Vec<(u16, u8, u8)> = file
            .node_links(i)
            .iter()
            .filter(|l| l.target != gone)
            .map(|l| (l.target, l.link_type, l.flags))
            .collect();
        let got: Vec<(u16, u8, u8)> = edited
            .node_links(i)
            .iter()
            .map(|l| (l.target, l.link_type, l.flags))
            .collect();
        assert_eq!(got, expected, "{name}: node {i} lost or gained links");
    }
    let bytes = Quake.write(&edited).expect("the fixed file writes");
    let back = Quake.read(&bytes).expect("the fixed file reads");
    assert_eq!(back, edited, "{name}: the fixed file reads back different");
    let mut again = back;
    assert_eq!(nav_quake::fix(&mut again), Vec::<String>::new(), "{name}");
    assert_eq!(again, edited);
    Some((before, changes.len()))
}

#[test]
fn removing_a_linked_node_from_every_sample_and_real_file_then_fix() {
    let mut cases: Vec<(String, NavFile)> = samples()
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).expect("sample is readable");
            let file = nav_quake::read(&bytes).expect("sample reads");
            (p.display().to_string(), file)
        })
        .collect();
    cases.extend(real_models().into_iter().map(|(n, _, f)| (n, f)));
    let (mut checked, mut unlinked) = (0usize, Vec::new());
    for (name, file) in &cases {
        // Every sample and real file validates clean (their own tests say so), so an error
        // after the removal is the removal's.
        assert_eq!(errors(file), [], "{name}");
        match remove_last_node_then_fix(name, file) {
            Some((before, changes)) => {
                println!("{name}: last node removed: {before} errors, {changes} changes");
                checked += 1;
            }
            None => unlinked.push(name.as_str()),
        }
    }
    println!(
        "{checked} files checked; no node links to the last one in {}: {unlinked:?}",
        unlinked.len()
    );
    assert!(checked >= 12, "every sample's last node is linked to");
}

#[test]
fn sample_room_without_its_ledge_gives_the_expected_lines() {
    for (magic, version) in common::all_versions() {
        let room = common::room(magic, version);
        assert_eq!(
            nav_quake::validate(&room)
                .iter()
                .filter(|f| f.severity >= Severity::Warning)
                .count(),
            0
        );
        assert_eq!(nav_quake::fix(&mut room.clone()), Vec::<String>::new());

        // Node 4 is the ledge: node 1 jumps up to it (link 4, traversal 0), and its own link 9
        // drops back to node 3 (traversal 1). The door edict gates link 5.
        let mut edited = room.clone();
        edited.nodes.pop();
        let changes = nav_quake::fix(&mut edited);
        assert_eq!(
            changes,
            [
                "links[4] (node 1): dropped the link to node 4, which does not exist (4 nodes)",
                "traversals[0]: dropped: only links to missing nodes used it",
                "nodes: re-packed the link ranges of 3 nodes over the 9 links left",
            ],
            "{magic:?} v{version}"
        );
        let ranges: Vec<(u16, u16)> = edited
            .nodes
            .iter()
            .map(|n| (n.first_link, n.num_links))
            .collect();
        assert_eq!(ranges, [(0, 2), (2, 2), (4, 2), (6, 2)]);
        assert_eq!(edited.traversals.len(), 1);
        assert_eq!(edited.traversals[0], room.traversals[1]);
        // The ledge's own link keeps its traversal, now the first.
        assert_eq!(edited.links[8].traversal, 0);
        assert_eq!(edited.edicts[0].link, 4);
        assert_eq!(
            edited.links[4], room.links[5],
            "the door link moved with its edict"
        );
        assert_eq!(errors(&edited), []);
        let bytes = Quake.write(&edited).expect("writes");
        assert_eq!(Quake.read(&bytes).expect("reads"), edited);
    }
}

#[test]
fn cut_link_list_and_bad_indices_give_the_expected_lines() {
    let mut room = common::room(Magic::Nav2, 15);
    room.links.truncate(8);
    room.links[0].traversal = 7;
    room.edicts[0].link = 12;
    let changes = nav_quake::fix(&mut room);
    assert_eq!(
        changes,
        [
            "links[0] (node 0): traversal 0x0007 is past the 2 traversals; set to none",
            "edicts[0]: dropped: link 12 is past the 8 links",
            "nodes[3]: links 7..9 ran past the 8 links; cut to 7..8",
            "nodes[4]: links 9..10 ran past the 8 links; cut to 8..8",
        ]
    );
    assert_eq!(room.links[0].traversal, Link::NO_TRAVERSAL);
    assert!(room.edicts.is_empty());
    assert_eq!((room.nodes[3].first_link, room.nodes[3].num_links), (7, 1));
    assert_eq!((room.nodes[4].first_link, room.nodes[4].num_links), (8, 0));
    // Traversal 1 lost its link with the cut: a warning, which fix leaves alone.
    assert_eq!(errors(&room), []);
    assert_eq!(nav_quake::fix(&mut room), Vec::<String>::new());
}

/// Arbitrary files (links, traversals and edicts pointing anywhere): fix never panics, leaves
/// no error but the size limits, is idempotent, writes what reads back equal, and leaves a file
/// without errors as it is.
#[test]
fn arbitrary_files_fix_cleanly() {
    use arbitrary::{Arbitrary, Unstructured};
    let (mut mended, mut untouched) = (0usize, 0usize);
    for seed in 0..3000u64 {
        let data = nav_core::testing::noise(seed, 64 + (seed as usize % 9) * 256);
        let Ok(file) = NavFile::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let mut fixed = file.clone();
        let changes = nav_quake::fix(&mut fixed);
        if errors(&file).is_empty() {
            assert_eq!(changes, Vec::<String>::new(), "seed {seed}");
            assert_eq!(fixed, file, "seed {seed}");
            untouched += 1;
            continue;
        }
        let left: Vec<_> = errors(&fixed)
            .into_iter()
            .filter(|f| !is_size_error(f))
            .collect();
        assert!(left.is_empty(), "seed {seed}: {left:?}\n{file:#?}");
        assert_eq!(nav_quake::fix(&mut fixed.clone()), Vec::<String>::new());
        if let Ok(bytes) = Quake.write(&fixed) {
            assert_eq!(Quake.read(&bytes).expect("reads"), fixed, "seed {seed}");
        }
        if !changes.is_empty() {
            mended += 1;
        }
    }
    println!("arbitrary files: {mended} mended, {untouched} without errors left as they were");
    assert!(mended > 500, "{mended}");
    assert!(untouched > 0, "{untouched}");
}
