//! Replays every input kept under `fuzz/regressions/<target>/` through the oracle of its fuzz
//! target, the way the fuzz target itself runs it, so a bug a campaign found stays fixed.
//!
//! The table below names every target of `fuzz/Cargo.toml`; a test checks that the two lists
//! agree, so a new fuzz target cannot be left out of the replay.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};
use nav_core::Format;
use nav_core::geometry::TriangleMesh;
use nav_core::oracle::{fuzz_bytes, fuzz_model};

/// A model target: decode the input the way libFuzzer's `fuzz_target!` does, then run the oracle.
fn model<F>(format: &F, data: &[u8])
where
    F: Format,
    F::Model: for<'a> Arbitrary<'a>,
{
    if let Ok(model) = F::Model::arbitrary_take_rest(Unstructured::new(data)) {
        fuzz_model(format, &model);
    }
}

/// The `build_mesh` target: decode a mesh as its `fuzz_target!` does, then build it everywhere.
fn build_mesh(data: &[u8]) {
    if let Ok(mesh) = TriangleMesh::arbitrary_take_rest(Unstructured::new(data)) {
        navkit::fuzzing::build_mesh(&mesh);
    }
}

/// What a fuzz target runs on one input.
type Target = fn(&[u8]);

/// Every fuzz target and what it runs on one input.
const TARGETS: &[(&str, Target)] = &[
    ("quake_bytes", |d| fuzz_bytes(&nav_quake::Quake, d)),
    ("quake_model", |d| model(&nav_quake::Quake, d)),
    ("source_bytes", |d| fuzz_bytes(&nav_source::SourceNav, d)),
    ("source_model", |d| model(&nav_source::SourceNav, d)),
    ("mgsv_bytes", |d| fuzz_bytes(&nav2_mgsv::Nav2, d)),
    ("mgsv_model", |d| model(&nav2_mgsv::Nav2, d)),
    ("nvnm_bytes", |d| fuzz_bytes(&nvnm_skyrim::Nvnm, d)),
    ("nvnm_model", |d| model(&nvnm_skyrim::Nvnm, d)),
    ("plugin_bytes", |d| fuzz_bytes(&nvnm_skyrim::Plugin, d)),
    ("nvm_bytes", |d| fuzz_bytes(&jmxvnvm::Nvm, d)),
    ("nvm_model", |d| model(&jmxvnvm::Nvm, d)),
    ("source2_bytes", |d| fuzz_bytes(&nav_source2::Source2Nav, d)),
    ("source2_model", |d| model(&nav_source2::Source2Nav, d)),
    ("plugin_model", |d| model(&nvnm_skyrim::Plugin, d)),
    ("json_text", navkit::fuzzing::json_text),
    ("json_bytes", navkit::fuzzing::json_bytes),
    ("build_mesh", build_mesh),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The `[[bin]]` names of `fuzz/Cargo.toml`.
fn declared_targets() -> Vec<String> {
    let toml = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
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
    names
}

#[test]
fn every_fuzz_target_has_a_replay() {
    let mut declared = declared_targets();
    let mut known: Vec<String> = TARGETS.iter().map(|(n, _)| n.to_string()).collect();
    declared.sort();
    known.sort();
    assert!(!declared.is_empty(), "fuzz/Cargo.toml declares no target");
    assert_eq!(
        declared, known,
        "fuzz/Cargo.toml and the replay table must name the same targets"
    );
}

#[test]
fn every_regression_input_replays_clean() {
    let root = fuzz_dir().join("regressions");
    assert!(root.is_dir(), "{} is missing", root.display());
    let mut replayed = 0usize;
    let mut per_target = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap().flatten() {
        let path = entry.path();
        if !path.is_dir() {
            continue;
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some((_, run)) = TARGETS.iter().find(|(n, _)| *n == name) else {
            panic!("fuzz/regressions/{name}: no fuzz target of that name");
        };
        let mut inputs: Vec<PathBuf> = std::fs::read_dir(&path)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "txt"))
            .collect();
        inputs.sort();
        for input in &inputs {
            let data = std::fs::read(input).unwrap();
            let note = input.with_file_name(format!(
                "{}.txt",
                input.file_name().unwrap().to_string_lossy()
            ));
            assert!(
                note.is_file(),
                "{}: a kept input needs a one-line note beside it, in {}",
                input.display(),
                note.display()
            );
            // A panic here names the input: the oracle's own message follows.
            eprintln!("replaying {}", input.display());
            run(&data);
        }
        replayed += inputs.len();
        per_target.push(format!("{name} {}", inputs.len()));
    }
    println!(
        "fuzz regressions: replayed {replayed} inputs ({})",
        if per_target.is_empty() {
            "no target has any".to_string()
        } else {
            per_target.join(", ")
        }
    );
}

/// The replay runs the real oracles: every sample the writers made goes through its bytes target
/// and `json_bytes`, and pseudo-random inputs through every model target, `build_mesh` and
/// `json_text`, without a panic.
#[test]
fn samples_and_noise_go_through_every_target() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
    let by_target: &[(&str, &str, &str)] = &[
        ("quake_bytes", "quake", "nav"),
        ("source_bytes", "source", "nav"),
        ("mgsv_bytes", "mgsv", "nav2"),
        ("nvnm_bytes", "skyrim", "nvnm"),
        ("plugin_bytes", "skyrim", "esp"),
        ("nvm_bytes", "silkroad", "nvm"),
        ("source2_bytes", "source2", "nav"),
        ("json_bytes", "quake", "nav"),
        ("json_bytes", "source", "nav"),
        ("json_bytes", "source2", "nav"),
        ("json_bytes", "mgsv", "nav2"),
        ("json_bytes", "skyrim", "esp"),
        ("json_bytes", "silkroad", "nvm"),
    ];
    let mut fed = 0;
    for (target, folder, ext) in by_target {
        let (_, run) = TARGETS.iter().find(|(n, _)| n == target).unwrap();
        for entry in std::fs::read_dir(samples.join(folder)).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == *ext) {
                run(&std::fs::read(&path).unwrap());
                fed += 1;
            }
        }
    }
    assert!(fed >= 20, "only {fed} samples found");
    let structured = |n: &str| n.ends_with("_model") || n == "build_mesh" || n == "json_text";
    for (name, run) in TARGETS.iter().filter(|(n, _)| structured(n)) {
        for seed in 0..64 {
            let data = nav_core::testing::noise(seed, 512);
            run(&data);
        }
        eprintln!("{name}: 64 pseudo-random inputs replayed");
    }
}
