//! Fuzzing chores: the short smoke CI runs, and measured, cumulative campaigns.
//!
//! Both seed every target from the real files of its format (the corpus and the incoming folder,
//! where they exist) and from the writer-made `samples/` (the JSON targets from their `navkit
//! to-json` documents). A campaign builds every target once, runs each fuzzer binary itself
//! (niced with `--nice`) until it has used its CPU-minutes, measured from `/proc/<pid>/stat`,
//! keeps its working corpus under `target/fuzz-campaign/<target>/` between runs, minimises it at
//! the end, copies every finding (minimised) to `fuzz/regressions/<target>/`, and adds one row
//! per target and run to `docs/fuzzing.md` as soon as that target is done.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{Result, cargo, corpus_root, incoming_root, root, run};

mod campaign;

pub use campaign::Campaign;

/// The `[[bin]]` names of `fuzz/Cargo.toml`, in file order.
pub fn targets() -> Result<Vec<String>> {
    let toml = std::fs::read_to_string(root().join("fuzz/Cargo.toml"))
        .map_err(|e| format!("fuzz/Cargo.toml: {e}"))?;
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(v) = line.strip_prefix("name") {
            names.push(
                v.trim_start_matches([' ', '='])
                    .trim()
                    .trim_matches('"')
                    .to_string(),
            );
        }
    }
    Ok(names)
}

/// The corpus folders (relative to the corpus root) and file endings of each format's real
/// files, by the prefix of its targets (`quake` for `quake_bytes` and `quake_model`).
const FORMAT_FILES: &[(&str, &[&str], &[&str])] = &[
    ("quake", &["quake"], &["nav"]),
    ("source", &["source"], &["nav"]),
    ("source2", &["source2", "source/negative"], &["nav"]),
    ("mgsv", &["mgsv"], &["nav2"]),
    ("nvnm", &["skyrim/nvnm"], &["nvnm"]),
    ("plugin", &["skyrim"], &["esp", "esm", "esl"]),
    ("nvm", &["silkroad"], &["nvm"]),
];

/// What seeds a target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seeds {
    /// The real files and samples of one format: corpus folders and file endings.
    Format(&'static [&'static str], &'static [&'static str]),
    /// The real files and samples of every format (the target picks the format by signature).
    EveryFormat,
    /// The JSON documents `navkit to-json` writes for the real files and samples of every format
    /// (those small enough that the document fits libFuzzer's input limit).
    Json,
    /// The sample meshes (`samples/meshes/*.obj`), as bytes: a start for a target that decodes
    /// its own input layout.
    Meshes,
}

/// What seeds `target`: by its name, else by its prefix. `None` for a target this table does
/// not know.
fn seed_sources(target: &str) -> Option<Seeds> {
    match target {
        "json_text" => return Some(Seeds::Json),
        "json_bytes" => return Some(Seeds::EveryFormat),
        "build_mesh" => return Some(Seeds::Meshes),
        _ => {}
    }
    let prefix = target.rsplit_once('_').map_or(target, |(p, _)| p);
    FORMAT_FILES
        .iter()
        .find(|(p, _, _)| *p == prefix)
        .map(|(_, folders, endings)| Seeds::Format(folders, endings))
}

/// Real files of these folders and endings (corpus and incoming), then the samples with them.
fn real_files(folders: &[&str], endings: &[&str], out: &mut Vec<PathBuf>) {
    for base in [corpus_root(), incoming_root()].into_iter().flatten() {
        for folder in folders {
            walk(&base.join(folder), endings, out);
        }
    }
    walk(&root().join("samples"), endings, out);
}

/// Real files of every format, then every format's samples, each file once.
fn every_format_file() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for (_, folders, endings) in FORMAT_FILES {
        real_files(folders, endings, &mut files);
    }
    let mut seen = std::collections::BTreeSet::new();
    files.retain(|f| seen.insert(f.clone()));
    files
}

/// The largest input libFuzzer is given (`-max_len`); seeds past it would be cut short.
const MAX_LEN: u64 = 1 << 20;

/// Files at most this large are turned into JSON seeds (a document is 10 to 20 times its file,
/// and smaller documents keep the target quick).
const MAX_JSON_SOURCE: u64 = 16 << 10;

/// Copies the seeds of `target` into `to`: real files of its format and the samples (or their
/// JSON documents, written by `navkit`, for a JSON target). Returns how many seeds it made.
fn copy_seeds(target: &str, to: &Path, navkit: Option<&Path>) -> Result<usize> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let name = |i: usize, f: &Path, ending: &str| {
        f.file_name().map_or_else(
            || format!("seed-{i}{ending}"),
            |n| format!("{i:04}-{}{ending}", n.to_string_lossy()),
        )
    };
    let mut files = Vec::new();
    match seed_sources(target) {
        Some(Seeds::Format(folders, endings)) => real_files(folders, endings, &mut files),
        Some(Seeds::EveryFormat) => files = every_format_file(),
        Some(Seeds::Meshes) => walk(&root().join("samples").join("meshes"), &["obj"], &mut files),
        Some(Seeds::Json) => {
            let navkit = navkit.ok_or("JSON seeds need the navkit binary")?;
            let mut made = 0;
            for (i, f) in every_format_file().iter().enumerate() {
                if std::fs::metadata(f).map_or(true, |m| m.len() > MAX_JSON_SOURCE) {
                    continue;
                }
                let out = to.join(name(i, f, ".json"));
                let ok = Command::new(navkit)
                    .arg("to-json")
                    .arg(f)
                    .arg("-o")
                    .arg(&out)
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success());
                if ok && std::fs::metadata(&out).is_ok_and(|m| m.len() <= MAX_LEN) {
                    made += 1;
                } else {
                    let _ = std::fs::remove_file(&out);
                }
            }
            return Ok(made);
        }
        None => walk(&root().join("samples"), &[], &mut files),
    }
    for (i, f) in files.iter().enumerate() {
        std::fs::copy(f, to.join(name(i, f, ""))).map_err(|e| format!("{}: {e}", f.display()))?;
    }
    Ok(files.len())
}

/// The built `navkit`, when one of `targets` is seeded with JSON documents.
fn navkit_for(targets: &[String]) -> Result<Option<PathBuf>> {
    if targets.iter().any(|t| seed_sources(t) == Some(Seeds::Json)) {
        crate::navkit_binary().map(Some)
    } else {
        Ok(None)
    }
}

/// Files below `dir` whose ending is one of `endings` (any file when `endings` is empty).
fn walk(dir: &Path, endings: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, endings, out);
        } else if endings.is_empty()
            || path
                .extension()
                .is_some_and(|e| endings.iter().any(|x| e.eq_ignore_ascii_case(x)))
        {
            out.push(path);
        }
    }
}

/// `cargo fuzz` in `fuzz/`, sanitizer-free, on stable through `RUSTC_BOOTSTRAP`.
fn cargo_fuzz() -> Command {
    let nightly = Command::new("rustc")
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("nightly"));
    let mut cmd = cargo();
    cmd.current_dir(root().join("fuzz")).arg("fuzz");
    if !nightly {
        cmd.env("RUSTC_BOOTSTRAP", "1");
    }
    cmd
}

fn fuzz_error(e: String) -> String {
    format!("{e} (is cargo-fuzz installed? `cargo install cargo-fuzz`)")
}

/// Every target for `seconds`, seeded from the real files and the samples.
pub fn smoke(seconds: u32) -> Result {
    let targets = targets()?;
    let navkit = navkit_for(&targets)?;
    let work = root().join("fuzz").join("corpus");
    for t in &targets {
        let seeds = work.join(t);
        let n = copy_seeds(t, &seeds, navkit.as_deref())?;
        println!("fuzz smoke: {t}: {n} seeds");
        run(cargo_fuzz()
            .args(["run", "-s", "none", t])
            .arg(&seeds)
            .args([
                "--",
                &format!("-max_total_time={seconds}"),
                "-rss_limit_mb=2048",
                &format!("-max_len={MAX_LEN}"),
            ]))
        .map_err(fuzz_error)?;
    }
    println!(
        "fuzz smoke: {} targets ran {seconds} s each without a finding",
        targets.len()
    );
    Ok(())
}
