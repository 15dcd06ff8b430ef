//! Throughput of the `.nav2` parser and writer, and the time to build the navigation graph, on
//! the largest corpus file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use nav_core::Format;
use nav_core::testing::{corpus_dir, corpus_files};
use nav2_mgsv::Nav2;
use std::hint::black_box;
use std::time::Duration;

/// Touches every record of a view: the walk a consumer of the view does.
fn walk(view: &nav2_mgsv::Nav2View<'_>) -> u64 {
    let mut sum = 0u64;
    for dc in view.data_chunks() {
        let ng = dc.navigation_graph();
        for (n, l) in ng.nodes().iter().zip(ng.links()) {
            sum += u64::from(n.segment_index()) + l.inside_links().len() as u64;
            for link in l.inside_links() {
                sum += u64::from(link.node_index.get());
            }
        }
        for e in ng.edges() {
            sum += u64::from(e.weight.get());
        }
        for p in dc.navmesh_chunk().positions() {
            sum += u64::from(p.get()[1]);
        }
        for r in dc.navmesh_chunk().records() {
            sum += r.positions().iter().map(|v| u64::from(*v)).sum::<u64>();
            sum += r
                .neighbors()
                .iter()
                .map(|v| u64::from(v.get()))
                .sum::<u64>();
        }
        for s in dc.segment_chunk().segments() {
            sum += u64::from(s.counts[1]);
        }
        for l in dc.segment_graph().links() {
            sum += l.navigation_graph_nodes().len() as u64 + l.inside_links().len() as u64;
        }
    }
    for g in view.island_graphs() {
        sum += g.nodes().len() as u64 + g.connect_side_infos().len() as u64;
    }
    if let Some(s) = view.search_space() {
        for e in s.entries() {
            sum += e.segment_indices().len() as u64;
        }
    }
    sum
}

fn bench(c: &mut Criterion) {
    let Some(dir) = corpus_dir("mgsv") else {
        eprintln!("note: the mgsv corpus is absent; nothing to benchmark");
        return;
    };
    let Some(path) = corpus_files(&dir)
        .into_iter()
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
    else {
        eprintln!("note: the mgsv corpus folder is empty; nothing to benchmark");
        return;
    };
    let bytes = std::fs::read(&path).expect("read the largest corpus file");
    let name = path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let model = Nav2.read(&bytes).expect("the largest corpus file parses");
    let mut g = c.benchmark_group(format!("nav2-mgsv {name}"));
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| Nav2.parse(black_box(&bytes)).map(|v| v.length()))
    });
    g.bench_function("parse+walk", |b| {
        b.iter(|| Nav2.parse(black_box(&bytes)).map(|v| walk(&v)))
    });
    g.bench_function("to_model", |b| {
        let view = Nav2.parse(&bytes).expect("parses");
        b.iter(|| Nav2.to_model(black_box(&view)))
    });
    g.bench_function("write", |b| b.iter(|| Nav2.write(black_box(&model))));
    g.bench_function("navigation", |b| {
        b.iter(|| Nav2.navigation(black_box(&model)))
    });
    g.finish();
}

/// The criterion group (its generated function has no doc comment of its own).
#[allow(missing_docs)]
mod group {
    use super::{bench, criterion_group};
    criterion_group!(benches, bench);
}
criterion_main!(group::benches);
