//! The memory and time a whole game's navmeshes take: builds the game-scale plugin from the
//! corpus navmeshes (20,000 `NAVM` records, see `samples::game_scale_plugin`), writes it to a
//! temporary file, then measures the peak heap of reading it back (read → model) and writing
//! it again with the streaming writer, against the file's size. Exits 1 when the peak is over
//! twice the file, or the rewrite differs. The peak is the rewriting process's peak resident
//! memory (`VmHWM`), which counts everything it holds, the program itself included; skips with a note when the corpus is absent.
//!
//! `cargo run --release -p nvnm-skyrim --example scale [DIR]` (files go to DIR, default the
//! system's temporary directory); `… --example scale -- --build FILE` only builds the plugin
//! into FILE (to measure other tools on it, `navkit rewrite`).
// A measurement tool: a failure is a message and exit code 1.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufWriter, Read};
use std::time::Instant;

use nav_core::Format;
use nav_core::testing::{corpus_dir, corpus_files, is_negative};
use nvnm_skyrim::{Plugin, samples};

/// A field of `/proc/self/status` in bytes (`VmRSS`, `VmHWM`: resident now, and at most).
fn status_bytes(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix("kB")?.trim().parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn mib(n: usize) -> f64 {
    n as f64 / (1024.0 * 1024.0)
}

/// Whether two files hold the same bytes, compared a megabyte at a time.
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    let (mut a, mut b) = (
        std::fs::File::open(a).unwrap(),
        std::fs::File::open(b).unwrap(),
    );
    let (mut x, mut y) = (vec![0u8; 1 << 20], vec![0u8; 1 << 20]);
    loop {
        let n = a.read(&mut x).unwrap();
        if n == 0 {
            return b.read(&mut y).unwrap() == 0;
        }
        if b.read_exact(&mut y[..n]).is_err() || x[..n] != y[..n] {
            return false;
        }
    }
}

fn main() {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let keep = matches!(args.as_slice(), [_, flag, _] if flag == "--build");
    if let [_, flag, input, output] = args.as_slice() {
        if flag == "--rewrite-bytes" || flag == "--rewrite-stream" {
            rewrite(input.as_ref(), output.as_ref(), flag == "--rewrite-stream");
            return;
        }
    }
    let Some(dir) = corpus_dir("skyrim/nvnm") else {
        eprintln!("note: skipping the game-scale measurement: no corpus");
        return;
    };
    let blobs: Vec<Vec<u8>> = corpus_files(&dir)
        .iter()
        .filter(|p| !is_negative(p))
        .filter_map(|p| std::fs::read(p).ok())
        .collect();
    let out_dir = std::env::args_os()
        .nth(1)
        .filter(|_| !keep)
        .map_or_else(std::env::temp_dir, Into::into);
    let input = match args.get(2) {
        Some(path) if keep => std::path::PathBuf::from(path),
        _ => out_dir.join(format!("navkit-scale-{}.esp", std::process::id())),
    };
    let output = out_dir.join(format!("navkit-scale-{}-out.esp", std::process::id()));
    {
        let big = samples::game_scale_plugin(&blobs, 20_000, 4).expect("a version-12 blob");
        let mut w = BufWriter::new(std::fs::File::create(&input).unwrap());
        Plugin.write_to(&big.plugin, &mut w).unwrap();
        w.into_inner().unwrap().sync_all().unwrap();
        println!(
            "built {}: {} NAVM records ({} compressed)",
            input.display(),
            big.navmeshes,
            big.compressed
        );
    }
    if keep {
        return;
    }
    let file = usize::try_from(std::fs::metadata(&input).unwrap().len()).unwrap();
    println!("file: {file} bytes ({:.1} MiB)", mib(file));
    let mut ok = true;
    for (flag, what) in [
        (
            "--rewrite-bytes",
            "bytes in memory → parse → to_model, bytes dropped",
        ),
        ("--rewrite-stream", "PluginFile::read_from(BufReader<File>)"),
    ] {
        // Each rewrite runs in a process of its own, so that its peak resident memory is its own.
        let child = std::process::Command::new(std::env::current_exe().unwrap())
            .arg(flag)
            .arg(&input)
            .arg(&output)
            .output()
            .unwrap();
        println!("{what}, then write_to(BufWriter<File>):");
        print!("{}", String::from_utf8_lossy(&child.stdout));
        eprint!("{}", String::from_utf8_lossy(&child.stderr));
        let peak: usize = String::from_utf8_lossy(&child.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("  peak-bytes ")?.parse().ok())
            .unwrap_or(usize::MAX);
        println!(
            "  peak resident memory: {:.1} MiB = {:.2} × the file",
            mib(peak),
            peak as f64 / file as f64
        );
        let same = child.status.success() && same_file(&input, &output);
        println!("  rewrite byte-identical: {same}");
        ok &= same;
        // The streaming path is the one held to twice the file.
        if flag == "--rewrite-stream" && peak > 2 * file {
            eprintln!("FAILED: the streaming rewrite's peak is over 2 × the file");
            ok = false;
        }
    }
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&output);
    if !ok {
        std::process::exit(1);
    }
}

/// Reads `input` (read → model, the bytes dropped then) and writes it to `output` with the
/// streaming writer; prints the times and the peak resident memory.
fn rewrite(input: &std::path::Path, output: &std::path::Path, stream: bool) {
    let start = status_bytes("VmRSS");
    let file = usize::try_from(std::fs::metadata(input).unwrap().len()).unwrap();
    let (t_read, t_parse, t_model, with_all, model);
    if stream {
        let t = Instant::now();
        let mut r = std::io::BufReader::new(std::fs::File::open(input).unwrap());
        model = nvnm_skyrim::PluginFile::read_from(&mut r, file as u64).unwrap();
        (t_read, t_parse, t_model) = (t.elapsed(), Default::default(), Default::default());
        with_all = status_bytes("VmRSS");
    } else {
        let t = Instant::now();
        let bytes = std::fs::read(input).unwrap();
        t_read = t.elapsed();
        let t = Instant::now();
        let view = Plugin.parse(&bytes).unwrap();
        t_parse = t.elapsed();
        let t = Instant::now();
        model = Plugin.to_model(&view);
        t_model = t.elapsed();
        with_all = status_bytes("VmRSS");
    }
    let t = Instant::now();
    let mut w = BufWriter::new(std::fs::File::create(output).unwrap());
    Plugin.write_to(&model, &mut w).unwrap();
    w.into_inner().unwrap().sync_all().unwrap();
    let t_write = t.elapsed();
    drop(model);
    let rate = |d: std::time::Duration| mib(file) / d.as_secs_f64();
    let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
    if stream {
        println!(
            "  read_from {:.0} ms ({:.0} MiB/s), write_to file {:.0} ms ({:.0} MiB/s)",
            ms(t_read),
            rate(t_read),
            ms(t_write),
            rate(t_write)
        );
    } else {
        println!(
            "  read {:.0} ms, parse {:.0} ms ({:.0} MiB/s), to_model {:.0} ms ({:.0} MiB/s), \
             write_to file {:.0} ms ({:.0} MiB/s)",
            ms(t_read),
            ms(t_parse),
            rate(t_parse),
            ms(t_model),
            rate(t_model),
            ms(t_write),
            rate(t_write)
        );
    }
    println!(
        "  resident: {:.1} MiB at start, {:.1} MiB once the model is built",
        mib(start),
        mib(with_all)
    );
    println!("  peak-bytes {}", status_bytes("VmHWM"));
}
