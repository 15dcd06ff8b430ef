//! Keeps the tree honest: no third-party corpus file and no large binary is tracked, and every
//! Rust source file starts by saying what it holds.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

mod common;
use common::workspace;

fn tracked_files() -> Option<Vec<PathBuf>> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(workspace())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        out.stdout
            .split(|b| *b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| workspace().join(String::from_utf8_lossy(s).as_ref()))
            .filter(|p| p.is_file())
            .collect(),
    )
}

#[test]
fn no_corpus_file_and_no_large_file_is_tracked() {
    let Some(files) = tracked_files() else {
        eprintln!("note: skipping: not a git checkout, or git is missing");
        return;
    };
    let corpus: Vec<(u64, PathBuf)> = match nav_core::testing::corpus_root() {
        Some(root) => nav_core::testing::corpus_files(&root)
            .into_iter()
            .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
            .collect(),
        None => {
            eprintln!("note: no corpus found; only checking sizes");
            Vec::new()
        }
    };
    let mut checked = 0;
    for file in &files {
        let len = std::fs::metadata(file).unwrap().len();
        let name = file
            .strip_prefix(workspace())
            .unwrap_or(file)
            .display()
            .to_string();
        assert!(
            len <= 256 * 1024 || name == "Cargo.lock",
            "{name} is {len} bytes: large files do not belong in the repository"
        );
        for (clen, cpath) in &corpus {
            if *clen == len && std::fs::read(file).unwrap() == std::fs::read(cpath).unwrap() {
                panic!(
                    "{name} is a copy of the third-party corpus file {}",
                    cpath.display()
                );
            }
        }
        checked += 1;
    }
    println!(
        "tidy: {checked} tracked files checked against {} corpus files",
        corpus.len()
    );
    assert!(checked > 0);
}

#[test]
fn every_rust_file_starts_with_module_docs() {
    let Some(files) = tracked_files() else {
        eprintln!("note: skipping: not a git checkout, or git is missing");
        return;
    };
    let mut missing = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with("#!["))
            .unwrap_or("");
        if !first.starts_with("//!") {
            missing.push(
                file.strip_prefix(workspace())
                    .unwrap_or(file)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        missing.is_empty(),
        "these files do not start with `//!` docs: {missing:#?}"
    );
}

/// The members of the workspace: every folder under `crates/`, and `xtask`.
fn members() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    out.push(workspace().join("xtask"));
    out.sort();
    out
}

#[test]
fn every_crate_inherits_the_workspace_lint_table() {
    let root = std::fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    let table = root
        .split("[workspace.lints.clippy]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .expect("Cargo.toml has a [workspace.lints.clippy] table");
    for lint in ["unwrap_used", "expect_used", "cast_possible_truncation"] {
        assert!(
            table
                .lines()
                .any(|l| l.replace(' ', "") == format!("{lint}=\"deny\"")),
            "[workspace.lints.clippy] must deny {lint}"
        );
    }
    for member in members() {
        let manifest = std::fs::read_to_string(member.join("Cargo.toml")).unwrap();
        let inherits = manifest
            .split("[lints]")
            .nth(1)
            .is_some_and(|rest| rest.trim_start().starts_with("workspace = true"));
        assert!(
            inherits,
            "{}: needs `[lints] workspace = true`",
            member.display()
        );
    }
    println!("{} crates inherit the workspace lints", members().len());
}

/// The modules every format has, each a file `<name>.rs` or a folder `<name>/mod.rs`.
const FORMAT_MODULES: &[&str] = &["view", "model", "write", "validate", "dump", "fix"];

#[test]
fn every_format_has_the_same_module_names_for_the_same_jobs() {
    // Where each format's modules live: the crate's `src`, or one folder per format in a crate
    // that holds two (a Skyrim plugin and the NVNM blob inside it).
    let homes = [
        "crates/nav-quake/src",
        "crates/nav-source/src",
        "crates/nav-source2/src",
        "crates/nav2-mgsv/src",
        "crates/jmxvnvm/src",
        "crates/nvnm-skyrim/src/nvnm",
        "crates/nvnm-skyrim/src/plugin",
    ];
    let mut missing = Vec::new();
    for home in homes {
        let dir = workspace().join(home);
        for m in FORMAT_MODULES {
            if !dir.join(format!("{m}.rs")).is_file() && !dir.join(m).join("mod.rs").is_file() {
                missing.push(format!("{home}: no `{m}` module"));
            }
        }
    }
    // Geometry and builders belong to the crate.
    for krate in [
        "nav-quake",
        "nav-source",
        "nav-source2",
        "nav2-mgsv",
        "jmxvnvm",
        "nvnm-skyrim",
    ] {
        if !workspace()
            .join(format!("crates/{krate}/src/geometry.rs"))
            .is_file()
        {
            missing.push(format!("{krate}: no `geometry` module"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn no_source_file_is_over_800_lines() {
    let Some(files) = tracked_files() else {
        eprintln!("note: skipping: not a git checkout, or git is missing");
        return;
    };
    let long: Vec<String> = files
        .iter()
        .filter(|f| {
            f.extension().is_some_and(|e| e == "rs")
                && f.components().any(|c| c.as_os_str() == "src")
        })
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).ok()?.lines().count();
            (n > 800).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these: {long:#?}");
}
