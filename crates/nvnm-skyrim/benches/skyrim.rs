//! Throughput of the NVNM parser and writer over all corpus blobs, of the plugin walk over the
//! largest corpus plugin, and of every plugin operation on a plugin at the scale of a whole game
//! (20,000 navmeshes built from the corpus blobs, see `samples::game_scale_plugin`). Skips with
//! a note when the corpus is absent.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use criterion::{Criterion, Throughput, criterion_main};
use nav_core::Format;
use nav_core::testing::{corpus_dir, corpus_files};
use nvnm_skyrim::nvnm::view::TrianglesView;
use nvnm_skyrim::{Nvnm, Plugin};
use std::hint::black_box;
use std::time::Duration;

fn nvnm(c: &mut Criterion) {
    let Some(dir) = corpus_dir("skyrim/nvnm") else {
        eprintln!("note: skipping the NVNM benchmarks: no corpus");
        return;
    };
    let blobs: Vec<Vec<u8>> = corpus_files(&dir)
        .iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    let total: usize = blobs.iter().map(Vec::len).sum();
    eprintln!("{} NVNM blobs, {total} bytes", blobs.len());
    let models: Vec<_> = blobs.iter().map(|b| Nvnm.read(b).unwrap()).collect();
    let mut g = c.benchmark_group("nvnm (all corpus blobs)");
    g.throughput(Throughput::Bytes(total as u64));
    g.bench_function("parse", |b| {
        b.iter(|| {
            for blob in &blobs {
                black_box(Nvnm.parse(black_box(blob)).unwrap());
            }
        })
    });
    g.bench_function("parse + walk", |b| {
        b.iter(|| {
            let mut sum = 0u64;
            for blob in &blobs {
                let v = Nvnm.parse(black_box(blob)).unwrap();
                for p in v.vertices() {
                    sum = sum.wrapping_add(u64::from(p.position[0].get().to_bits()));
                }
                if let TrianglesView::V12(ts) = v.triangles() {
                    for t in ts {
                        sum = sum.wrapping_add(u64::from(t.vertices[0].get()));
                        sum = sum.wrapping_add(t.edges[1].get() as u64);
                    }
                }
                for cell in v.cells() {
                    sum = sum.wrapping_add(cell.len() as u64);
                }
            }
            black_box(sum)
        })
    });
    g.bench_function("to_model", |b| {
        b.iter(|| {
            for blob in &blobs {
                let v = Nvnm.parse(black_box(blob)).unwrap();
                black_box(Nvnm.to_model(&v));
            }
        })
    });
    g.bench_function("write", |b| {
        b.iter(|| {
            for m in &models {
                black_box(Nvnm.write(black_box(m)).unwrap());
            }
        })
    });
    g.finish();
}

fn plugin(c: &mut Criterion) {
    let Some(dir) = corpus_dir("skyrim") else {
        eprintln!("note: skipping the plugin benchmarks: no corpus");
        return;
    };
    let Some((path, bytes)) = corpus_files(&dir)
        .into_iter()
        .filter(|p| p.parent() == Some(dir.as_path()))
        .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
        .max_by_key(|(_, b)| b.len())
    else {
        eprintln!("note: skipping the plugin benchmarks: no plugin in the corpus");
        return;
    };
    eprintln!("largest plugin: {} ({} bytes)", path.display(), bytes.len());
    let model = Plugin.read(&bytes).unwrap();
    let mut g = c.benchmark_group("plugin (largest corpus plugin)");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse (walk + inflate NAVM)", |b| {
        b.iter(|| black_box(Plugin.parse(black_box(&bytes)).unwrap()))
    });
    g.bench_function("parse + every NVNM parsed", |b| {
        b.iter(|| {
            let v = Plugin.parse(black_box(&bytes)).unwrap();
            let mut n = 0usize;
            for (_, nvnm) in v.navmeshes() {
                n += Nvnm.parse(nvnm).unwrap().triangle_count();
            }
            black_box(n)
        })
    });
    g.bench_function("to_model (keeps zlib streams)", |b| {
        let v = Plugin.parse(&bytes).unwrap();
        b.iter(|| black_box(Plugin.to_model(black_box(&v))))
    });
    g.bench_function("write (unchanged: stored streams)", |b| {
        b.iter(|| black_box(Plugin.write(black_box(&model)).unwrap()))
    });
    // One navmesh's vertices moved: that record (and the NVMI entry following it) recompressed.
    let mut edited = model.clone();
    if let Some(&(form_id, nvnm)) = edited.navmeshes().first() {
        let mut mesh = Nvnm.read(nvnm).unwrap();
        for v in &mut mesh.vertices {
            v[2] = nav_core::RawF32::new(v[2].get() + 8.0);
        }
        edited
            .replace_nvnm(form_id, Nvnm.write(&mesh).unwrap())
            .unwrap();
    }
    g.bench_function("write with one navmesh edited", |b| {
        b.iter(|| black_box(Plugin.write(black_box(&edited)).unwrap()))
    });
    g.bench_function("write_view", |b| {
        let v = Plugin.parse(&bytes).unwrap();
        b.iter(|| black_box(Plugin.write_view(black_box(&v)).unwrap()))
    });
    g.finish();
}

/// The navigation graph (`Format::navigation`) of the largest corpus blob and of the largest
/// corpus plugin (which reads every `NVNM` of the plugin first).
fn navigation(c: &mut Criterion) {
    let Some((path, bytes)) = nav_core::testing::largest_corpus_file("skyrim/nvnm") else {
        eprintln!("note: skipping the navigation benchmarks: no corpus");
        return;
    };
    let mesh = Nvnm.read(&bytes).unwrap();
    eprintln!(
        "largest blob: {} ({} triangles)",
        path.display(),
        mesh.triangles.len()
    );
    let mut g = c.benchmark_group("navigation");
    g.throughput(Throughput::Elements(mesh.triangles.len() as u64));
    g.bench_function("largest NVNM blob", |b| {
        b.iter(|| black_box(Nvnm.navigation(black_box(&mesh)).unwrap()))
    });
    let Some(dir) = corpus_dir("skyrim") else {
        return;
    };
    let Some(bytes) = corpus_files(&dir)
        .into_iter()
        .filter(|p| p.parent() == Some(dir.as_path()))
        .filter_map(|p| std::fs::read(&p).ok())
        .max_by_key(Vec::len)
    else {
        eprintln!("note: skipping the plugin navigation benchmark: no plugin in the corpus");
        return;
    };
    let model = Plugin.read(&bytes).unwrap();
    let cells = Plugin.navigation(&model).unwrap().cells.len();
    g.throughput(Throughput::Elements(cells as u64));
    g.bench_function("largest plugin (every NVNM read)", |b| {
        b.iter(|| black_box(Plugin.navigation(black_box(&model)).unwrap()))
    });
    g.finish();
}

/// The corpus NVNM blobs (not the negative ones), or a note and `None`.
fn corpus_blobs() -> Option<Vec<Vec<u8>>> {
    let Some(dir) = corpus_dir("skyrim/nvnm") else {
        eprintln!("note: skipping the game-scale plugin benchmarks: no corpus");
        return None;
    };
    Some(
        corpus_files(&dir)
            .iter()
            .filter(|p| !nav_core::testing::is_negative(p))
            .filter_map(|p| std::fs::read(p).ok())
            .collect(),
    )
}

/// A whole game's navmeshes: 20,000 `NAVM` records (one in four compressed), over 100 MB.
fn scale(c: &mut Criterion) {
    let Some(blobs) = corpus_blobs() else {
        return;
    };
    let Some(big) = nvnm_skyrim::samples::game_scale_plugin(&blobs, 20_000, 4) else {
        eprintln!("note: skipping the game-scale plugin benchmarks: no version-12 blob");
        return;
    };
    let bytes = Plugin.write(&big.plugin).unwrap();
    eprintln!(
        "game-scale plugin: {} NAVM records ({} compressed), {} bytes",
        big.navmeshes,
        big.compressed,
        bytes.len()
    );
    assert!(big.navmeshes >= 20_000 && bytes.len() >= 100_000_000);
    let model = Plugin.read(&bytes).unwrap();
    drop(big);
    let mut g = c.benchmark_group("plugin (game scale)");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.sample_size(10);
    g.bench_function("parse", |b| {
        b.iter(|| black_box(Plugin.parse(black_box(&bytes)).unwrap()))
    });
    g.bench_function("parse + walk every NVNM", |b| {
        b.iter(|| {
            let v = Plugin.parse(black_box(&bytes)).unwrap();
            let mut n = 0usize;
            for (_, nvnm) in v.navmeshes() {
                n += Nvnm.parse(nvnm).unwrap().triangle_count();
            }
            black_box(n)
        })
    });
    g.bench_function("to_model", |b| {
        let v = Plugin.parse(&bytes).unwrap();
        b.iter(|| black_box(Plugin.to_model(black_box(&v))))
    });
    g.bench_function("write (unchanged)", |b| {
        b.iter(|| black_box(Plugin.write(black_box(&model)).unwrap()))
    });
    g.bench_function("write_to (unchanged, into a sink)", |b| {
        b.iter(|| {
            Plugin
                .write_to(black_box(&model), &mut std::io::sink())
                .unwrap()
        })
    });
    // One compressed navmesh's vertices moved: that record and the NAVI are rebuilt.
    let mut edited = model.clone();
    if let Some(&(form_id, nvnm)) = edited.navmeshes().first() {
        let mut mesh = Nvnm.read(nvnm).unwrap();
        for v in &mut mesh.vertices {
            v[2] = nav_core::RawF32::new(v[2].get() + 8.0);
        }
        edited
            .replace_nvnm(form_id, Nvnm.write(&mesh).unwrap())
            .unwrap();
    }
    drop(model);
    g.bench_function("write with one navmesh edited", |b| {
        b.iter(|| black_box(Plugin.write(black_box(&edited)).unwrap()))
    });
    g.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1))
}

// criterion_group! generates an undocumented public function.
#[allow(missing_docs)]
mod group {
    criterion::criterion_group! {
        name = benches;
        config = super::config();
        targets = super::nvnm, super::plugin, super::navigation, super::scale
    }
}
use group::benches;
criterion_main!(benches);
