//! `navkit fix` end to end on a Source `.nav`: a file with one area deleted is reported by
//! `--check`, mended by `-o`, and then validates clean; an unedited file is written back
//! byte-identical.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

mod common;
use common::{navkit, s, stderr, stdout, temp, workspace};

const SAMPLE: &str = "samples/source/cs_v16_1.nav";

#[test]
fn fix_mends_a_source_file_with_a_deleted_area() {
    let bytes = std::fs::read(workspace().join(SAMPLE)).expect("sample");
    let mut mesh = nav_source::SourceView::parse(&bytes)
        .map(|v| nav_source::SourceMesh::from_view(&v))
        .expect("sample reads");
    // Area 1 is connected to by its neighbours: deleting it leaves their connections dangling.
    let index = mesh
        .areas
        .iter()
        .position(|a| a.connections.iter().any(|l| !l.is_empty()))
        .expect("an area with connections");
    let removed = mesh.areas.remove(index).id;
    let edited = temp("edited.nav");
    std::fs::write(&edited, nav_source::write(&mesh).expect("writes")).expect("write temp");
    let edited_bytes = std::fs::read(&edited).expect("read temp");
    assert_eq!(navkit(&["validate", s(&edited)]).status.code(), Some(1));

    // --check lists the changes, writes nothing, and exits 1.
    let o = navkit(&["fix", "--check", s(&edited)]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    let dropped = format!("dropped area {removed}, which does not exist");
    let lines: Vec<&str> = out.lines().collect();
    let changes = lines.iter().filter(|l| l.contains(&dropped)).count();
    assert!(changes > 0, "{out}");
    assert!(
        lines.iter().all(|l| l.starts_with("areas[id ")
            || l.starts_with("ladders[id ")
            || l.ends_with(" changes needed")),
        "{out}"
    );
    let last = lines.last().copied().unwrap_or_default();
    assert!(
        last.ends_with(&format!("{} changes needed", lines.len() - 1)),
        "{out}"
    );
    assert_eq!(std::fs::read(&edited).expect("read temp"), edited_bytes);

    let o = navkit(&["fix", "--check", "--json", s(&edited)]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["format"], "nav-source");
    assert_eq!(v["changes"].as_array().map(Vec::len), Some(lines.len() - 1));
    assert_eq!(v["remaining_errors"], serde_json::json!([]));

    // -o writes the fixed file and exits 0; it validates clean and reads back as the library's fix.
    let fixed = temp("fixed.nav");
    let o = navkit(&["fix", s(&edited), "-o", s(&fixed)]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains(" changes; wrote "), "{out}");
    let o = navkit(&["validate", s(&fixed)]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let mut expected = mesh.clone();
    assert!(!nav_source::fix(&mut expected).is_empty());
    assert_eq!(
        std::fs::read(&fixed).expect("fixed file"),
        nav_source::write(&expected).expect("writes")
    );

    // Fixing the fixed file changes nothing.
    let o = navkit(&["fix", "--check", s(&fixed)]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).ends_with("nothing to fix\n"), "{}", stdout(&o));
}

#[test]
fn fix_writes_an_unedited_file_back_byte_identical() {
    let out = temp("unchanged.nav");
    let o = navkit(&["fix", SAMPLE, "-o", s(&out)]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("nothing to fix"), "{}", stdout(&o));
    assert_eq!(
        std::fs::read(&out).expect("written"),
        std::fs::read(workspace().join(SAMPLE)).expect("sample")
    );
}
