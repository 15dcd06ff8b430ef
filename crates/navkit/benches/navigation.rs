//! Navigation on the largest real file of every format, through the registry: building the
//! graph and its navigator, 1,000 paths between cells picked at random (by distance, every edge
//! kind), and 10,000 locates of points at and beside cell centres. Silkroad, of which no public
//! file exists, is measured on the town-sized region its builder makes. The real files are
//! skipped with a note when the corpus is absent.
// Indices taken modulo a list's length fit that list's `usize`; offsets are small integers.
#![allow(clippy::cast_possible_truncation)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_main};
use nav_core::navigation::{Endpoint, Navigator, Weight};

/// The corpus folders, with the file ending of the format to bench in each.
const FOLDERS: [(&str, &str); 6] = [
    ("quake", "nav"),
    ("source", "nav"),
    ("source2", "nav"),
    ("mgsv", "nav2"),
    ("skyrim", "esp"),
    ("skyrim/nvnm", "nvnm"),
];

/// A small, fixed pseudo-random sequence (xorshift), so every run asks the same questions.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The largest file of each corpus folder (none without a corpus), and a Silkroad town region
/// from the jmxvnvm builder: (name, bytes).
fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    match nav_core::testing::corpus_root() {
        None => eprintln!("note: navigation bench of real files skipped: no corpus"),
        Some(root) => {
            for (folder, ending) in FOLDERS {
                let largest = nav_core::testing::corpus_files(&root.join(folder))
                    .into_iter()
                    .filter(|p| p.parent() == Some(&root.join(folder)))
                    .filter(|p| {
                        p.extension()
                            .is_some_and(|e| e.eq_ignore_ascii_case(ending))
                    })
                    .filter(|p| !nav_core::testing::is_negative(p))
                    .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()));
                let Some(path) = largest else { continue };
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                out.push((name, bytes));
            }
        }
    }
    match jmxvnvm::write(&jmxvnvm::build::town(jmxvnvm::RegionId(0x61a8))) {
        Ok(bytes) => out.push(("Silkroad town region (builder-made)".into(), bytes)),
        Err(e) => eprintln!("note: the Silkroad town region does not write: {e}"),
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("navigation");
    g.sample_size(10).measurement_time(Duration::from_secs(3));
    for (name, bytes) in inputs() {
        let format = navkit::registry::sniff(&bytes)
            .or_else(|| navkit::registry::by_extension(std::path::Path::new(&name)));
        let Some(opened) = format.and_then(|f| f.open(&bytes).ok()) else {
            continue;
        };
        let Some(graph) = opened.navigation() else {
            continue;
        };
        let cells = graph.cells.len();
        g.bench_function(
            format!("{name} ({cells} cells): build graph and navigator"),
            |b| {
                b.iter(|| {
                    black_box(&opened)
                        .navigation()
                        .and_then(|g| Navigator::new(g).ok())
                        .map(|n| n.edge_count())
                })
            },
        );
        let Ok(nav) = Navigator::new(graph) else {
            continue;
        };
        if cells < 2 {
            continue;
        }
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let ids: Vec<_> = nav.graph().cells.iter().map(|c| c.id).collect();
        let pairs: Vec<_> = (0..1000)
            .map(|_| {
                let a = ids[(next(&mut state) % cells as u64) as usize];
                let b = ids[(next(&mut state) % cells as u64) as usize];
                (a, b)
            })
            .collect();
        g.bench_function(format!("{name}: 1,000 paths"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter_map(|(a, z)| {
                        nav.path(
                            Endpoint::Cell(*a),
                            Endpoint::Cell(*z),
                            Weight::Distance,
                            false,
                        )
                        .ok()
                    })
                    .filter(|r| r.reachable)
                    .count()
            })
        });
        let centres: Vec<[f32; 3]> = nav.graph().cells.iter().filter_map(|c| c.centre).collect();
        if centres.is_empty() {
            continue;
        }
        let points: Vec<[f32; 3]> = (0..10_000)
            .map(|i| {
                let c = centres[(next(&mut state) % centres.len() as u64) as usize];
                // Every other point a little beside the centre, some of them off the mesh.
                let off = if i % 2 == 0 {
                    0.0
                } else {
                    (next(&mut state) % 64) as f32 - 32.0
                };
                [c[0] + off, c[1] + off, c[2] + off]
            })
            .collect();
        g.bench_function(format!("{name}: 10,000 locates"), |b| {
            b.iter(|| points.iter().filter(|p| nav.locate(**p).is_some()).count())
        });
    }
    g.finish();
}

mod group {
    //! The criterion group (the macro's function has no doc comment of its own).
    #![allow(missing_docs)]
    use super::bench;
    criterion::criterion_group!(benches, bench);
}

criterion_main!(group::benches);
