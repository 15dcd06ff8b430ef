//! Throughput of parse, parse plus a walk of every record, to_model, write and the navigation
//! graph, on the largest corpus file (`tfnm_vsh_nucleus.nav`, about 4 MB). Skipped with a note
//! when the corpus is absent.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_main};
use nav_source::view::{EncounterPathView, HidingSpots};

/// Touches every record of every area and sums a few fields so nothing is optimised away.
fn walk(view: &nav_source::SourceView<'_>) -> u64 {
    let mut sum = 0u64;
    for a in view.areas() {
        sum = sum.wrapping_add(u64::from(a.id()) ^ u64::from(a.attribute_flags()));
        for list in a.connections() {
            for id in list {
                sum = sum.wrapping_add(u64::from(id.get()));
            }
        }
        if let HidingSpots::Records(spots) = a.hiding_spots() {
            for s in spots {
                sum = sum.wrapping_add(u64::from(s.id.get()));
            }
        }
        for p in a.encounter_paths().iter().copied() {
            if let EncounterPathView::Spots { head, spots } = p {
                sum = sum.wrapping_add(u64::from(head.to_area_id.get()));
                for s in spots {
                    sum = sum.wrapping_add(u64::from(s.t));
                }
            }
        }
        for v in a.visible_areas() {
            sum = sum.wrapping_add(u64::from(v.area_id.get()) + u64::from(v.attributes));
        }
        sum = sum.wrapping_add(u64::from(a.inherit_visibility_from()));
    }
    sum
}

fn bench(c: &mut Criterion) {
    let Some(dir) = nav_core::testing::corpus_dir("source") else {
        eprintln!("note: nav-source bench skipped: no corpus");
        return;
    };
    let Some(path) = nav_core::testing::corpus_files(&dir)
        .into_iter()
        .filter(|p| !nav_core::testing::is_negative(p))
        .max_by_key(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
    else {
        eprintln!("note: nav-source bench skipped: empty corpus");
        return;
    };
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!(
            "note: nav-source bench skipped: cannot read {}",
            path.display()
        );
        return;
    };
    let Ok(model) =
        nav_source::SourceView::parse(&bytes).map(|v| nav_source::SourceMesh::from_view(&v))
    else {
        eprintln!(
            "note: nav-source bench skipped: {} does not parse",
            path.display()
        );
        return;
    };
    eprintln!(
        "nav-source bench on {} ({} bytes)",
        path.display(),
        bytes.len()
    );
    let mut g = c.benchmark_group("nav-source");
    g.sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| nav_source::SourceView::parse(black_box(&bytes)).map(|v| v.area_count()))
    });
    g.bench_function("parse_and_walk", |b| {
        b.iter(|| nav_source::SourceView::parse(black_box(&bytes)).map(|v| walk(&v)))
    });
    g.bench_function("to_model", |b| {
        b.iter(|| {
            nav_source::SourceView::parse(black_box(&bytes))
                .map(|v| nav_source::SourceMesh::from_view(&v))
        })
    });
    g.bench_function("write", |b| b.iter(|| nav_source::write(black_box(&model))));
    g.bench_function("navigation", |b| {
        b.iter(|| nav_source::navigation(black_box(&model)))
    });
    g.bench_function("write_view", |b| {
        let view = nav_source::SourceView::parse(&bytes).ok();
        b.iter(|| view.as_ref().map(nav_source::write_view))
    });
    g.finish();
}

mod group {
    //! The criterion group (the macro's function has no doc comment of its own).
    #![allow(missing_docs)]
    use super::bench;
    criterion::criterion_group!(benches, bench);
}

criterion_main!(group::benches);
