//! Parse, walk, to_model, write and navigation graph of a town-sized region made by the crate's
//! builder (no public `.nvm` file exists, so the corpus has none to measure).
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_main};
use jmxvnvm::build::town;
use jmxvnvm::view::TileMapView;
use jmxvnvm::{NavMeshTerrain, NavMeshTerrainView, RegionId, write};

fn walk(bytes: &[u8]) -> u64 {
    let view = NavMeshTerrainView::parse(bytes).unwrap();
    let mut acc = 0u64;
    for o in view.objects() {
        acc = acc.wrapping_add(u64::from(o.record().resource_id.get()));
        for l in o.linked_edges() {
            acc = acc.wrapping_add(l.edge_index.get() as u64);
        }
    }
    for c in view.cells() {
        acc = acc.wrapping_add(u64::from(c.record().min[0].get().to_bits()));
        for i in c.object_indices() {
            acc = acc.wrapping_add(u64::from(i.get()));
        }
    }
    for e in view.global_edges() {
        acc = acc.wrapping_add(u64::from(e.assoc_region_id[1].get()));
    }
    for e in view.internal_edges() {
        acc = acc.wrapping_add(e.assoc_cell_index[0].get() as u64);
    }
    if let TileMapView::Modern(tiles) = view.tile_map() {
        for t in tiles {
            acc = acc.wrapping_add(u64::from(t.flags.get()));
        }
    }
    for h in view.height_map() {
        acc = acc.wrapping_add(u64::from(h.get().to_bits()));
    }
    acc
}

fn bench(c: &mut Criterion) {
    let model = town(RegionId(0x61a8));
    let bytes = write(&model).unwrap();
    let mut g = c.benchmark_group(format!("jmxvnvm town {} bytes", bytes.len()));
    g.sample_size(20).measurement_time(Duration::from_secs(3));
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            NavMeshTerrainView::parse(black_box(&bytes))
                .unwrap()
                .objects()
                .len()
        })
    });
    g.bench_function("parse+walk", |b| b.iter(|| walk(black_box(&bytes))));
    let view = NavMeshTerrainView::parse(&bytes).unwrap();
    g.bench_function("to_model", |b| {
        b.iter(|| NavMeshTerrain::from_view(black_box(&view)))
    });
    g.bench_function("write", |b| b.iter(|| write(black_box(&model)).unwrap()));
    g.bench_function("navigation", |b| {
        b.iter(|| jmxvnvm::navigation(black_box(&model)))
    });
    g.finish();
}

// criterion_group! makes a public function without a doc comment.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group!(benches, super::bench);
}
use group::benches;
criterion_main!(benches);
