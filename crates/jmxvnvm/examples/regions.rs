//! Writes `COUNT` different regions made by the builder (`jmxvnvm::build::generated`, one seed
//! each) into `DIR` as `nv_XXXX.nvm`, for timing batch commands over a whole map's worth of
//! files:
//!
//! ```text
//! cargo run --release -p jmxvnvm --example regions -- /tmp/regions 5000
//! navkit roundtrip /tmp/regions
//! ```
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(dir), count) = (args.next(), args.next()) else {
        eprintln!("usage: regions DIR [COUNT (default 5000)]");
        std::process::exit(2);
    };
    let count: u32 = count.map_or(5000, |c| c.parse().expect("COUNT is a number"));
    let dir = PathBuf::from(dir);
    std::fs::create_dir_all(&dir).expect("make DIR");
    let start = std::time::Instant::now();
    let mut bytes = 0usize;
    for seed in 0..count {
        let model = jmxvnvm::build::generated(seed);
        let out = jmxvnvm::write(&model).expect("the builder makes writable models");
        bytes += out.len();
        std::fs::write(dir.join(format!("nv_{seed:04x}.nvm")), out).expect("write a region");
    }
    eprintln!(
        "{count} regions, {:.1} MB, in {:.1} s",
        bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
}
