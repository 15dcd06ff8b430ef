//! Throughput of `to-json` and `from-json` on the largest Source corpus file
//! (`tfnm_vsh_nucleus.nav`, about 4 MB of navmesh, 62 MB of JSON), through the registry the
//! commands use: the model streamed into a buffer, and read back from it (with the refresh and
//! the write). Throughput counts the navmesh bytes. Skipped with a note when the corpus is absent.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_main};

fn bench(c: &mut Criterion) {
    let Some((path, bytes)) = nav_core::testing::largest_corpus_file("source") else {
        eprintln!("note: navkit json bench skipped: no Source corpus");
        return;
    };
    let Some(format) = navkit::registry::sniff(&bytes) else {
        eprintln!(
            "note: navkit json bench skipped: {} not recognised",
            path.display()
        );
        return;
    };
    let mut json = Vec::new();
    if format.to_json(&bytes, &mut json).is_err() {
        eprintln!(
            "note: navkit json bench skipped: {} does not convert",
            path.display()
        );
        return;
    }
    eprintln!(
        "navkit json bench on {} ({} bytes, {} bytes of JSON)",
        path.display(),
        bytes.len(),
        json.len()
    );
    let mut g = c.benchmark_group("navkit-json");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("to_json", |b| {
        let mut out = Vec::with_capacity(json.len());
        b.iter(|| {
            out.clear();
            format.to_json(black_box(&bytes), &mut out).is_ok()
        })
    });
    g.bench_function("from_json", |b| {
        b.iter(|| {
            format
                .read_json(black_box(json.as_slice()).into())
                .map(|(o, _)| o.len())
        })
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
