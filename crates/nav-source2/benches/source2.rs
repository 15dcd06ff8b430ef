//! Parse, model, write and KV3-decode throughput on the largest real Source 2 file (the
//! incoming or corpus folder), or on a writer-made grid when none is present.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use criterion::{Criterion, Throughput, criterion_main};
use nav_source2::Source2View;
use std::hint::black_box;

fn real_files() -> Vec<(String, Vec<u8>)> {
    let dirs = [
        nav_core::testing::corpus_root().map(|r| r.join("source2")),
        nav_core::testing::incoming_dir("source2"),
    ];
    dirs.into_iter()
        .flatten()
        .filter(|d| d.is_dir())
        .flat_map(|d| nav_core::testing::corpus_files(&d))
        .filter_map(|p| {
            Some((
                p.file_name()?.to_string_lossy().into_owned(),
                std::fs::read(&p).ok()?,
            ))
        })
        .collect()
}

fn largest_file() -> Option<(String, Vec<u8>)> {
    real_files().into_iter().max_by_key(|(_, b)| b.len())
}

/// The custom data of the largest real file that has some (CS2's bot analysis).
fn largest_custom_data() -> Option<(String, nav_source2::Kv3Blob)> {
    real_files()
        .into_iter()
        .filter_map(|(name, b)| Some((name, nav_source2::read(&b).ok()?.custom_data?)))
        .max_by_key(|(_, c)| c.bytes.len())
}

fn bench(c: &mut Criterion) {
    let (name, bytes) = largest_file().unwrap_or_else(|| {
        eprintln!("note: no real Source 2 file; benchmarking the v36 sample room");
        let m = nav_source2::samples::room(36, 1);
        (
            "room_v36".into(),
            nav_source2::write(&m).expect("sample writes"),
        )
    });
    let mut g = c.benchmark_group(format!("nav-source2 {name} ({} bytes)", bytes.len()));
    g.throughput(Throughput::Bytes(bytes.len() as u64))
        .sample_size(20)
        .measurement_time(std::time::Duration::from_secs(3));
    g.bench_function("parse", |b| {
        b.iter(|| Source2View::parse(black_box(&bytes)).map(|v| v.areas().len()))
    });
    g.bench_function("to_model", |b| {
        b.iter(|| {
            nav_source2::Source2Mesh::from_view(
                &Source2View::parse(black_box(&bytes)).expect("file parses"),
            )
        })
    });
    let model = nav_source2::read(&bytes).expect("file parses");
    g.bench_function("write", |b| {
        b.iter(|| nav_source2::write(black_box(&model)))
    });
    g.bench_function("navigation", |b| {
        b.iter(|| nav_source2::navigation(black_box(&model)))
    });
    g.finish();
    if let Some((name, custom)) = largest_custom_data() {
        let mut g = c.benchmark_group(format!(
            "nav-source2 {name} custom data ({} bytes)",
            custom.bytes.len()
        ));
        g.throughput(Throughput::Bytes(custom.bytes.len() as u64))
            .sample_size(10)
            .measurement_time(std::time::Duration::from_secs(3));
        g.bench_function("decode", |b| {
            b.iter(|| black_box(&custom).decode().map(|d| d.format))
        });
        g.finish();
    }
}

// criterion_group! generates an undocumented public function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench);
}
use group::benches;
criterion_main!(benches);
