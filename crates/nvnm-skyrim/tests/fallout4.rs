//! Fallout 4 (NVNM version 15): the real navmesh of `WorkshopFramework.esp` read field by field,
//! a snapshot of its dump, and hand-built cover mappings that break the reading of that file.
//!
//! The blob is looked for in `skyrim/nvnm` of the incoming folder and of the corpus; when neither
//! has it, it is extracted from the corpus plugin it came from. With none of the three, the
//! real-file tests skip with a note, or fail under `NAVKIT_REQUIRE_CORPUS`.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use nav_core::testing::{real_file, real_files, skip_without_corpus};
use nav_core::{Format, RawF32, Severity};
use nvnm_skyrim::nvnm::{Cover, CoverMapping, Layout, NavmeshGeometry};
use nvnm_skyrim::{Nvnm, Plugin, samples};

const BLOB: &str = "fo4_wsfw_WorkshopFramework_f6a2f85_01004CD9.nvnm";
const PLUGIN: &str = "fo4_wsfw_WorkshopFramework_f6a2f85.esp";
const NAVMESH: u32 = 0x0100_4CD9;

/// The 226-byte navmesh, from wherever it is found, or `None` after a note (a failure under
/// `NAVKIT_REQUIRE_CORPUS`).
fn wsfw_blob() -> Option<Vec<u8>> {
    let named = |name: &str, folder: &str| {
        real_files(folder)
            .into_iter()
            .find(|(_, f)| f.file_name().is_some_and(|n| n == name))
            .map(|(_, f)| std::fs::read(f).unwrap())
    };
    if let Some(bytes) = named(BLOB, "skyrim/nvnm") {
        return Some(bytes);
    }
    if let Some(plugin) = named(PLUGIN, "skyrim") {
        let model = Plugin.read(&plugin).unwrap();
        let found = model.navmeshes().into_iter().find(|(id, _)| *id == NAVMESH);
        return Some(found.expect("the plugin holds navmesh 01004CD9").1.to_vec());
    }
    skip_without_corpus(&format!("neither {BLOB} nor {PLUGIN} was found"));
    None
}

#[test]
fn the_real_file_reads_as_the_evidence_says() {
    let Some(bytes) = wsfw_blob() else {
        return;
    };
    assert_eq!(bytes.len(), 226);
    let view = Nvnm.parse(&bytes).unwrap();
    assert_eq!(view.layout(), Layout::Fallout4);
    let m = Nvnm.to_model(&view);
    assert_eq!(Nvnm.write(&m).unwrap(), bytes);
    assert_eq!((m.vertices.len(), m.triangles.len()), (4, 2));
    assert!(m.edge_links.is_empty() && m.door_triangles.is_empty() && m.waypoints.is_empty());
    // The 48-byte block: four cover edges (32 bytes), four mappings (16 bytes).
    assert_eq!(m.cover_array.len(), 4);
    let pairs: Vec<(u16, u8, u16)> = m
        .cover_mappings
        .iter()
        .map(|c| (c.triangle(), c.edge(), c.cover))
        .collect();
    assert_eq!(pairs, [(0, 0, 0), (1, 1, 1), (0, 1, 3), (1, 0, 2)]);
    // Each cover edge is the mapped triangle edge, its vertices in reverse winding.
    for c in &m.cover_mappings {
        let t = &m.triangles[usize::from(c.triangle())];
        let k = usize::from(c.edge());
        let cover = &m.cover_array[usize::from(c.cover)];
        assert_eq!(cover.vertices, [t.vertices[(k + 1) % 3], t.vertices[k]]);
    }
    // The cover word's bit i is set exactly where edge i has a mapping.
    for (i, t) in m.triangles.iter().enumerate() {
        let mapped = m
            .cover_mappings
            .iter()
            .filter(|c| usize::from(c.triangle()) == i)
            .fold(0u16, |bits, c| bits | 1 << c.edge());
        assert_eq!(t.cover_flags, mapped, "triangle {i}");
        let extra = t.extra.unwrap();
        assert_eq!((extra.height.get(), extra.unknown), (170.0, 0));
    }
    // A game-written file: no finding at all.
    assert_eq!(Nvnm.validate(&m), vec![]);
    // The grid's maximum Z is the highest vertex plus the height; rebuilding gives the grid back.
    let mut rebuilt = m.clone();
    rebuilt.rebuild_grid(1);
    assert_eq!(rebuilt.grid, m.grid);
    assert_eq!(m.grid.max[2].to_bits(), 0x430A_0004);
}

#[test]
fn dump_of_the_real_file() {
    let Some(bytes) = wsfw_blob() else {
        return;
    };
    let mut out = String::new();
    Nvnm.dump(&Nvnm.read(&bytes).unwrap(), &mut out).unwrap();
    insta::assert_snapshot!(out);
}

#[test]
fn cover_mappings_pack_triangle_and_edge() {
    let c = CoverMapping::new(1, 1, 3).unwrap();
    assert_eq!((c.triangle_edge, c.cover), (5, 3));
    assert_eq!((c.triangle(), c.edge()), (1, 1));
    assert_eq!(
        CoverMapping::new(0x3FFF, 2, 0).unwrap().triangle_edge,
        0xFFFE
    );
    assert_eq!(CoverMapping::new(0x4000, 0, 0), None);
    assert_eq!(CoverMapping::new(0, 3, 0), None);
    let raw = CoverMapping {
        triangle_edge: 0xFFFF,
        cover: 0,
    };
    assert_eq!((raw.triangle(), raw.edge()), (0x3FFF, 3));
}

#[test]
fn mappings_against_the_reading_are_warnings() {
    let mut m = samples::fallout4();
    assert_eq!(Nvnm.validate(&m), vec![]);
    // Cover 9 of 3; triangle 40 of 8; edge 3; a cover edge elsewhere than its mapped edge.
    m.cover_mappings.push(CoverMapping::new(0, 0, 9).unwrap());
    m.cover_mappings.push(CoverMapping::new(40, 0, 0).unwrap());
    m.cover_mappings.push(CoverMapping {
        triangle_edge: 3,
        cover: 0,
    });
    m.cover_mappings.push(CoverMapping::new(0, 1, 0).unwrap());
    m.waypoints[0].triangle = 8;
    let findings = Nvnm.validate(&m);
    let text: Vec<String> = findings.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            "warning: cover_mappings[3] cover: cover 9 is past the 3 cover entries",
            "warning: cover_mappings[4] triangle_edge: 0x00a0 names triangle 40, not one of the 8 triangles",
            "warning: cover_mappings[5] triangle_edge: 0x0003 names edge 3; a triangle has edges 0 to 2",
            "warning: cover_mappings[6]: cover 0 has vertices (1, 0), but edge 1 of triangle 0 joins 1 and 4",
            "warning: waypoints[0] triangle: triangle 8 is not one of the 8 triangles",
        ],
        "{text:#?}"
    );
    assert!(findings.iter().all(|f| f.severity == Severity::Warning));
    // A cover edge naming a missing vertex stays an error: the cover array's vertices are
    // certain on the real file.
    m.cover_array.push(Cover {
        vertices: [0, 9],
        data: [0; 4],
    });
    let errors: Vec<String> = Nvnm
        .validate(&m)
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errors,
        ["error: cover_array[3] vertices[1]: vertex 9 is past the 9 vertices"]
    );
}

#[test]
fn rebuilt_grids_reach_the_tallest_triangle() {
    let mut m: NavmeshGeometry = samples::fallout4();
    // The sample's floor is at 0, its heights 170 (south) and 128 (north).
    assert_eq!(m.grid.max[2], RawF32::new(170.0));
    m.triangles[0].extra.as_mut().unwrap().height = RawF32::new(300.5);
    m.vertices[0][2] = RawF32::new(-4.0);
    m.rebuild_grid(2);
    assert_eq!(m.grid.min[2], RawF32::new(-4.0));
    assert_eq!(m.grid.max[2], RawF32::new(300.5));
    // A height that is not finite does not move the bounds.
    m.triangles[0].extra.as_mut().unwrap().height = RawF32::new(f32::INFINITY);
    m.rebuild_grid(1);
    assert_eq!(m.grid.max[2], RawF32::new(170.0));
    // Version 12 triangles have no height: the bounds are the vertices'.
    let mut v12 = samples::interior();
    v12.rebuild_grid(1);
    assert_eq!(v12.grid.max[2], RawF32::new(64.0));
}

/// The real Fallout 4 plugin as `dump` shows it: every top-level group, and in full the records
/// that matter here (the `NAVM` with its `NVNM` and empty `MNAM`, and the `NAVI`); the hundreds of
/// keyword and global records are left out of the snapshot.
#[test]
fn dump_of_the_real_plugin() {
    let Some(path) = real_file("skyrim", PLUGIN) else {
        return;
    };
    let model = Plugin.read(&std::fs::read(&path).unwrap()).unwrap();
    let mut text = String::new();
    Plugin.dump(&model, &mut text).unwrap();
    let depth = |l: &str| l.len() - l.trim_start().len();
    let mut kept = Vec::new();
    let mut inside: Option<usize> = None;
    for line in text.lines() {
        if inside.is_some_and(|d| depth(line) <= d) {
            inside = None;
        }
        let record = line.trim_start();
        if inside.is_none() && (record.starts_with("NAVM ") || record.starts_with("NAVI ")) {
            inside = Some(depth(line));
        }
        if depth(line) == 0 || inside.is_some() {
            kept.push(line);
        }
    }
    assert!(kept.iter().any(|l| l.contains("MNAM")), "{text}");
    insta::assert_snapshot!(format!(
        "{} of {} dump lines: top-level groups, NAVM and NAVI records\n{}",
        kept.len(),
        text.lines().count(),
        kept.join("\n")
    ));
}
