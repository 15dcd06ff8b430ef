//! `fix` decides what to mend from the places of the findings, never from their text.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use nav_core::{Finding, Format, Place};

use super::{fix, fix_after, mends};
use crate::nvnm::Nvnm;
use crate::nvnm::model::NavmeshGeometry;
use crate::nvnm::validate::validate;

/// The interior sample with a triangle naming a missing vertex and a grid entry naming a
/// missing triangle.
fn broken() -> NavmeshGeometry {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../samples/skyrim/interior_v12.nvnm"
    );
    let mut m = Nvnm.read(&std::fs::read(path).unwrap()).unwrap();
    m.triangles[1].vertices[0] = u16::MAX;
    let cell = m.grid.cells.iter_mut().find(|c| !c.is_empty()).unwrap();
    cell[0] = i16::MAX;
    m
}

#[test]
fn reworded_findings_are_mended_all_the_same() {
    let m = broken();
    let findings = validate(&m);
    assert!(
        findings
            .iter()
            .any(|f| mends(f) && f.place.root() == Some("triangles")),
        "{findings:#?}"
    );
    assert!(
        findings
            .iter()
            .any(|f| mends(f) && f.place.root() == Some("grid")),
        "{findings:#?}"
    );
    let other: Vec<Finding> = findings
        .iter()
        .map(|f| Finding {
            location: "somewhere else".to_string(),
            message: "said otherwise".to_string(),
            ..f.clone()
        })
        .collect();
    for (f, g) in findings.iter().zip(&other) {
        assert_eq!(mends(f), mends(g), "{f}");
    }
    let (mut a, mut b) = (m.clone(), m);
    let changes = fix(&mut a);
    assert!(!changes.is_empty());
    assert_eq!(fix_after(&mut b, &other), changes);
    assert_eq!(a, b);
    // The same text without the places asks for nothing.
    let mut c = broken();
    let placeless: Vec<Finding> = findings
        .iter()
        .map(|f| Finding {
            place: Place::new(),
            ..f.clone()
        })
        .collect();
    assert_eq!(fix_after(&mut c, &placeless), Vec::<String>::new());
}

#[test]
fn the_places_fix_mends() {
    let error = |p: Place| mends(&Finding::error(p, "x"));
    assert!(error(Place::at("triangles", 3).cell().index("edges", 1)));
    assert!(error(Place::at("door_triangles", 0).field("triangle")));
    assert!(error(Place::at("cover_triangles", 0)));
    assert!(error(Place::at("cover_array", 0).index("vertices", 1)));
    assert!(error(Place::of("grid").field("cells")));
    assert!(error(Place::of("grid").index("cells", 4).nth(0)));
    assert!(!error(Place::of("grid").field("min/max")));
    assert!(!error(Place::of("version")));
    assert!(!mends(&Finding::warning(Place::at("triangles", 3), "x")));
}
