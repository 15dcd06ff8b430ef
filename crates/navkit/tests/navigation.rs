//! Navigation over every format, through the registry: every corpus file and sample maps to a
//! graph that the queries accept, and A* agrees with a separate Dijkstra on it
//! ([`nav_core::testing::check_navigation`]); the CLI's `locate`, `path` and `islands` answer as
//! the library does.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{navkit, s, stderr, stdout, temp};
use nav_core::navigation::{Endpoint, Navigator, Weight};
use nav_core::testing::{
    check_navigation, corpus_files, corpus_root, is_negative, skip_without_corpus,
};
use navkit::registry::{self, AnyFormat};

fn detect(path: &Path, bytes: &[u8]) -> Option<&'static dyn AnyFormat> {
    registry::sniff(bytes).or_else(|| registry::by_extension(path))
}

/// Checks the graph of every navmesh below `dir`; returns per format the files, cells and
/// edges checked. Every file a format reads must have a navigation mapping.
fn check_tree(dir: &Path, pairs: usize) -> BTreeMap<&'static str, (usize, usize, usize)> {
    let mut per_format: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    for path in corpus_files(dir).into_iter().filter(|p| !is_negative(p)) {
        let bytes = std::fs::read(&path).unwrap();
        let Some(format) = detect(&path, &bytes) else {
            continue;
        };
        let name = path.display().to_string();
        let opened = format
            .open(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let graph = opened
            .navigation()
            .unwrap_or_else(|| panic!("{name}: {} has no navigation mapping", format.name()));
        assert!(graph.is_consistent(), "{name}: inconsistent graph");
        let report = check_navigation(&graph, pairs, bytes.len() as u64)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let entry = per_format.entry(format.name()).or_default();
        entry.0 += 1;
        entry.1 += report.cells;
        entry.2 += report.edges;
    }
    for (format, (files, cells, edges)) in &per_format {
        println!("navigation: {format}: {files} files, {cells} cells, {edges} edges checked");
    }
    per_format
}

#[test]
fn every_corpus_file_navigates() {
    let Some(root) = corpus_root() else {
        skip_without_corpus("no corpus found (set NAVKIT_CORPUS)");
        return;
    };
    let seen = check_tree(&root, 24);
    // Every format with public files was read (Silkroad has none: its samples are checked
    // below).
    for format in [
        "nav-quake",
        "nav-source",
        "nav-source2",
        "nav2-mgsv",
        "skyrim-plugin",
        "nvnm-skyrim",
    ] {
        assert!(
            seen.get(format).is_some_and(|(files, _, _)| *files > 0),
            "no {format} corpus file was checked"
        );
    }
}

#[test]
fn every_sample_navigates() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let seen = check_tree(&dir, 32);
    for format in FORMATS_WITH_SAMPLES {
        assert!(
            seen.get(format).is_some_and(|(files, _, _)| *files > 0),
            "no {format} sample was checked"
        );
    }
}

/// Every format has samples in `samples/`.
const FORMATS_WITH_SAMPLES: [&str; 7] = [
    "nav-quake",
    "nav-source",
    "nav-source2",
    "nav2-mgsv",
    "skyrim-plugin",
    "nvnm-skyrim",
    "jmxvnvm",
];

/// The first reachable pair of cells of a file with at least two cells, by the library.
fn some_route(file: &str) -> (String, String, f64, usize) {
    let bytes = std::fs::read(common::workspace().join(file)).unwrap();
    let graph = registry::sniff(&bytes)
        .unwrap()
        .open(&bytes)
        .unwrap()
        .navigation()
        .unwrap();
    let nav = Navigator::new(graph).unwrap();
    let g = nav.graph();
    let first = g.cells[0].id;
    for cell in g.cells.iter().skip(1).rev() {
        let route = nav
            .path(
                Endpoint::Cell(first),
                Endpoint::Cell(cell.id),
                Weight::Distance,
                false,
            )
            .unwrap();
        if route.reachable && route.cells.len() > 1 {
            return (
                first.to_string(),
                cell.id.to_string(),
                route.cost,
                route.cells.len(),
            );
        }
    }
    panic!("{file}: no two connected cells");
}

#[test]
fn path_on_the_command_line_is_the_library_s() {
    for file in [
        "samples/source/cs_v16_1.nav",
        "samples/source2/room_v35.nav",
        "samples/quake/room_nav3_v6.nav",
    ] {
        let (from, to, cost, cells) = some_route(file);
        let o = navkit(&["path", file, &from, &to, "--json"]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["reachable"], true, "{file}");
        assert_eq!(v["cells"].as_array().unwrap().len(), cells, "{file}");
        assert_eq!(v["cost"].as_f64().unwrap(), cost, "{file}");
        // The same query from a file of pairs, twice, and once the other way round.
        let pairs = temp(&format!("pairs-{}.txt", cells));
        std::fs::write(&pairs, format!("{from} {to}\n{from} {to}\n{to} {from}\n")).unwrap();
        let o = navkit(&["path", file, "--pairs", s(&pairs), "--json"]);
        assert!(o.status.success(), "{file}: {}", stderr(&o));
        let lines: Vec<serde_json::Value> = stdout(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 3, "{file}");
        assert_eq!(lines[0], lines[1], "{file}");
        assert_eq!(lines[0]["cost"].as_f64().unwrap(), cost, "{file}");
    }
}

#[test]
fn locate_finds_a_cell_s_centre_and_says_when_there_is_none() {
    let file = "samples/source/cs_v16_1.nav";
    let bytes = std::fs::read(common::workspace().join(file)).unwrap();
    let graph = registry::sniff(&bytes)
        .unwrap()
        .open(&bytes)
        .unwrap()
        .navigation()
        .unwrap();
    let cell = &graph.cells[0];
    let [x, y, z] = cell.centre.unwrap();
    let (xs, ys, zs) = (x.to_string(), y.to_string(), (z + 10.0).to_string());
    let o = navkit(&["locate", file, "--json", "--", &xs, &ys, &zs]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["cell"].to_string(), cell.id.to_string());
    assert!((v["distance"].as_f64().unwrap() - 10.0).abs() < 1e-3, "{v}");
    // Far outside the map: no cell, exit 1, and JSON that says so.
    let o = navkit(&["locate", file, "--json", "--", "1e9", "1e9", "0"]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v, serde_json::json!({"cell": null, "distance": null}));
    // A file of points: one answer per line.
    let points = temp("points.txt");
    std::fs::write(&points, format!("{xs} {ys} {zs}\n1e9 1e9 0\n")).unwrap();
    let o = navkit(&["locate", file, "--points", s(&points)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with(&format!("{} ", cell.id)),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], "-");
}

#[test]
fn islands_partition_the_cells_and_bad_ends_are_usage_errors() {
    let file = "samples/quake/room_nav3_v6.nav";
    let o = navkit(&["islands", file, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let total: u64 = v["islands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["size"].as_u64().unwrap())
        .sum();
    assert_eq!(total, v["cells"].as_u64().unwrap());
    let o = navkit(&["path", file, "zero", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = navkit(&["path", file, "0", "999999"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("999999"), "{}", stderr(&o));
}
