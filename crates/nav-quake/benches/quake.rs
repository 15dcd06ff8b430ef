//! Parse, walk, model, write and navigation-graph throughput on the largest Quake corpus file.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use criterion::{Criterion, Throughput, criterion_main};
use nav_quake::{NavFile, NavView};
use std::hint::black_box;

fn largest_file() -> Option<(String, Vec<u8>)> {
    let dir = nav_core::testing::corpus_dir("quake")?;
    nav_core::testing::corpus_files(&dir)
        .into_iter()
        .filter(|p| !nav_core::testing::is_negative(p))
        .filter_map(|p| {
            Some((
                p.file_name()?.to_string_lossy().into_owned(),
                std::fs::read(&p).ok()?,
            ))
        })
        .max_by_key(|(_, b)| b.len())
}

fn bench(c: &mut Criterion) {
    let Some((name, bytes)) = largest_file() else {
        eprintln!("note: no Quake corpus, nothing to benchmark");
        return;
    };
    let mut g = c.benchmark_group(format!("nav-quake {name} ({} bytes)", bytes.len()));
    g.throughput(Throughput::Bytes(bytes.len() as u64))
        .sample_size(20)
        .measurement_time(std::time::Duration::from_secs(3));
    g.bench_function("parse", |b| {
        b.iter(|| NavView::parse(black_box(&bytes)).map(|v| v.nodes().len()))
    });
    g.bench_function("parse+walk", |b| {
        b.iter(|| {
            let v = NavView::parse(black_box(&bytes)).expect("corpus file parses");
            let mut sum = 0u64;
            for n in v.nodes() {
                sum =
                    sum.wrapping_add(u64::from(n.first_link.get()) + u64::from(n.num_links.get()));
            }
            for l in v.links() {
                sum = sum.wrapping_add(u64::from(l.target.get()) ^ u64::from(l.traversal.get()));
            }
            for o in v.origins() {
                sum = sum.wrapping_add(u64::from(o.x.get().to_bits()));
            }
            sum
        })
    });
    g.bench_function("to_model", |b| {
        b.iter(|| {
            NavFile::from_view(&NavView::parse(black_box(&bytes)).expect("corpus file parses"))
        })
    });
    let model = nav_quake::read(&bytes).expect("corpus file parses");
    g.bench_function("write", |b| b.iter(|| nav_quake::write(black_box(&model))));
    g.bench_function("navigation", |b| {
        b.iter(|| nav_quake::navigation(black_box(&model)))
    });
    g.finish();
}

// criterion_group! generates an undocumented public function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench);
}
use group::benches;
criterion_main!(benches);
