//! `cargo xtask bench --against REV`: every criterion benchmark of this work tree beside the same
//! benchmark built from an earlier revision, run alternately on one machine.
//!
//! Two runs of one binary on a busy or thermally changing machine can differ by more than a
//! change does, so a figure from last week's README says little. Here the older revision is
//! checked out into `target/against/src` (a detached git worktree), both sides' bench binaries
//! are built once, and each round runs every binary of the old side and then of the new side,
//! one bench target at a time. A benchmark's figure is its best median over the rounds; the table
//! gives both and the change. Benchmarks that only one side has are listed apart.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::criterion::{Figure, criterion_figures, string_field};
use crate::{Result, root, run};

/// The options of `bench --against`.
pub struct Against {
    /// The revision to compare with (anything `git worktree add` takes).
    pub rev: String,
    /// Rounds of old-then-new runs.
    pub rounds: u32,
    /// A criterion filter (a regular expression on benchmark names), passed to every binary.
    pub filter: Option<String>,
}

impl Against {
    pub fn run(&self, criterion_args: &[&str]) -> Result {
        let base = root().join("target").join("against");
        let src = base.join("src");
        checkout(&src, &self.rev)?;
        let old = bench_binaries(&src, &base.join("target"))?;
        let new = bench_binaries(&root(), &root().join("target"))?;
        let pairs: Vec<(&String, &PathBuf, &PathBuf)> = new
            .iter()
            .filter_map(|(name, n)| old.get(name).map(|o| (name, o, n)))
            .collect();
        if pairs.is_empty() {
            return Err(format!(
                "bench --against {}: no bench target on both sides",
                self.rev
            ));
        }
        let runs = base.join("runs");
        let mut best: BTreeMap<String, [Option<Figure>; 2]> = BTreeMap::new();
        for round in 0..self.rounds {
            for (name, old_bin, new_bin) in &pairs {
                for (side, bin) in [old_bin, new_bin].into_iter().enumerate() {
                    let home = runs.join(format!("{round}-{name}-{side}"));
                    let _ = std::fs::remove_dir_all(&home);
                    let mut cmd = Command::new(bin);
                    cmd.arg("--bench").args(criterion_args).arg("--noplot");
                    if let Some(f) = &self.filter {
                        cmd.arg(f);
                    }
                    cmd.env("CRITERION_HOME", &home);
                    quiet(&mut cmd)?;
                    for (what, fig) in criterion_figures(&home) {
                        let slot = &mut best.entry(what).or_default()[side];
                        if slot.is_none_or(|b| fig.median_ns < b.median_ns) {
                            *slot = Some(fig);
                        }
                    }
                }
            }
            eprintln!(
                "bench --against: round {} of {} done",
                round + 1,
                self.rounds
            );
        }
        println!("{}", render(&self.rev, &best));
        Ok(())
    }
}

/// Runs a bench binary, keeping its report off standard output (the table goes there); its
/// output is shown only when it fails.
fn quiet(cmd: &mut Command) -> Result {
    eprintln!("xtask: running {cmd:?}");
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?} failed with {}:\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// Checks `rev` out at `dir` as a detached worktree (moving an existing one there).
fn checkout(dir: &Path, rev: &str) -> Result {
    let git = |args: &[&str]| {
        let mut c = Command::new("git");
        c.current_dir(root()).args(args);
        c
    };
    if dir.join(".git").exists() {
        run(git(&["-C"])
            .arg(dir)
            .args(["checkout", "--quiet", "--detach", rev]))
    } else {
        run(git(&["worktree", "add", "--detach"]).arg(dir).arg(rev))
    }
}

/// Builds the workspace at `dir`'s bench targets into `target` and names each binary by its
/// bench target.
fn bench_binaries(dir: &Path, target: &Path) -> Result<BTreeMap<String, PathBuf>> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(dir)
        .args(["bench", "--workspace", "--no-run", "--message-format=json"])
        .env("CARGO_TARGET_DIR", target);
    eprintln!("xtask: running {cmd:?}");
    let out = cmd.output().map_err(|e| format!("{cmd:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{cmd:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(bench_binary)
        .collect())
}

/// The bench target's name and binary in one line of cargo's JSON messages, if it holds one.
fn bench_binary(line: &str) -> Option<(String, PathBuf)> {
    if !line.contains("\"reason\":\"compiler-artifact\"") || !line.contains("\"kind\":[\"bench\"]")
    {
        return None;
    }
    let target = &line[line.find("\"target\":")?..];
    let name = string_field(target, "name")?;
    let exe = string_field(line, "executable")?;
    Some((name, PathBuf::from(exe)))
}

/// The comparison table: both figures and the change where both sides ran a benchmark, then
/// the benchmarks only one side has.
fn render(rev: &str, best: &BTreeMap<String, [Option<Figure>; 2]>) -> String {
    let mut t = format!("| benchmark | {rev} | this tree | change |\n|---|---|---|---|\n");
    let mut alone = Vec::new();
    for (what, [old, new]) in best {
        match (old, new) {
            (Some(o), Some(n)) => {
                let change = (n.rate() / o.rate() - 1.0) * 100.0;
                t.push_str(&format!(
                    "| {what} | {} | {} | {change:+.1} % |\n",
                    o.text(),
                    n.text(),
                ));
            }
            (None, Some(_)) => alone.push(format!("{what} (only in this tree)")),
            (Some(_), None) => alone.push(format!("{what} (only in {rev})")),
            (None, None) => {}
        }
    }
    for a in alone {
        t.push_str(&format!("\n{a}"));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_messages_name_bench_binaries() {
        let line = r#"{"reason":"compiler-artifact","package_id":"path+file:///w/crates/nav-quake#nav-quake@0.1.0","manifest_path":"/w/crates/nav-quake/Cargo.toml","target":{"kind":["bench"],"crate_types":["bin"],"name":"quake","src_path":"/w/crates/nav-quake/benches/quake.rs"},"profile":{},"features":[],"filenames":["/t/release/deps/quake-04c4"],"executable":"/t/release/deps/quake-04c4","fresh":true}"#;
        assert_eq!(
            bench_binary(line),
            Some(("quake".into(), PathBuf::from("/t/release/deps/quake-04c4")))
        );
        let lib = line.replace(r#""kind":["bench"]"#, r#""kind":["lib"]"#);
        assert_eq!(bench_binary(&lib), None);
        assert_eq!(
            bench_binary(r#"{"reason":"build-finished","success":true}"#),
            None
        );
    }

    #[test]
    fn the_table_gives_the_change_and_what_one_side_lacks() {
        let gib = 1024.0 * 1024.0 * 1024.0;
        let fig = |ns| {
            Some(Figure {
                bytes: Some(gib),
                median_ns: ns,
            })
        };
        let timed = |ns| {
            Some(Figure {
                bytes: None,
                median_ns: ns,
            })
        };
        let mut best = BTreeMap::new();
        best.insert("q: parse".to_string(), [fig(1e9), fig(5e8)]);
        best.insert("n: 1,000 paths".to_string(), [timed(4e6), timed(2e6)]);
        best.insert("q: new".to_string(), [None, fig(1e9)]);
        let t = render("v1", &best);
        assert!(
            t.contains("| q: parse | 1.00 GiB/s | 2.00 GiB/s | +100.0 % |"),
            "{t}"
        );
        assert!(t.contains("q: new (only in this tree)"), "{t}");
        assert!(
            t.contains("| n: 1,000 paths | 4.00 ms | 2.00 ms | +100.0 % |"),
            "{t}"
        );
    }
}
