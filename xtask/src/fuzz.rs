//! Fuzzing chores: the short smoke CI runs, and measured, cumulative campaigns.
//!
//! Both seed every target from the real files of its format (the corpus and the incoming folder,
//! where they exist) and from the writer-made `samples/`. A campaign keeps its working corpus
//! under `target/fuzz-campaign/<target>/` between runs, minimises it at the end, copies every
//! finding (minimised) to `fuzz/regressions/<target>/`, and appends one row per target and run
//! to `docs/fuzzing.md`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

use crate::{Result, cargo, corpus_root, incoming_root, root, run};

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

/// The corpus folders (relative to the corpus root) and file endings that seed a target, by the
/// target's prefix. `None` for a target this table does not know: it is seeded from samples alone.
fn seed_sources(target: &str) -> Option<(&'static [&'static str], &'static [&'static str])> {
    let prefix = target.rsplit_once('_').map_or(target, |(p, _)| p);
    Some(match prefix {
        "quake" => (&["quake"], &["nav"]),
        "source" => (&["source"], &["nav"]),
        "source2" => (&["source2", "source/negative"], &["nav"]),
        "mgsv" => (&["mgsv"], &["nav2"]),
        "nvnm" => (&["skyrim/nvnm"], &["nvnm"]),
        "plugin" => (&["skyrim"], &["esp", "esm", "esl"]),
        "nvm" => (&["silkroad"], &["nvm"]),
        _ => return None,
    })
}

/// Copies the seeds of `target` into `to`: real files of its format and the samples.
/// Returns how many files were copied.
fn copy_seeds(target: &str, to: &Path) -> Result<usize> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    let mut files = Vec::new();
    match seed_sources(target) {
        Some((folders, endings)) => {
            for base in [corpus_root(), incoming_root()].into_iter().flatten() {
                for folder in folders {
                    walk(&base.join(folder), endings, &mut files);
                }
            }
            walk(&root().join("samples"), endings, &mut files);
        }
        None => walk(&root().join("samples"), &[], &mut files),
    }
    for (i, f) in files.iter().enumerate() {
        let name = f.file_name().map_or_else(
            || format!("seed-{i}"),
            |n| format!("{i:04}-{}", n.to_string_lossy()),
        );
        std::fs::copy(f, to.join(name)).map_err(|e| format!("{}: {e}", f.display()))?;
    }
    Ok(files.len())
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
    let work = root().join("fuzz").join("corpus");
    for t in &targets {
        let seeds = work.join(t);
        let n = copy_seeds(t, &seeds)?;
        println!("fuzz smoke: {t}: {n} seeds");
        run(cargo_fuzz()
            .args(["run", "-s", "none", t])
            .arg(&seeds)
            .args([
                "--",
                &format!("-max_total_time={seconds}"),
                "-rss_limit_mb=2048",
                "-max_len=1048576",
            ]))
        .map_err(fuzz_error)?;
    }
    println!(
        "fuzz smoke: {} targets ran {seconds} s each without a finding",
        targets.len()
    );
    Ok(())
}

/// What one campaign run of one target measured.
struct Outcome {
    target: String,
    seconds: u64,
    executions: Option<u64>,
    coverage: Option<u64>,
    features: Option<u64>,
    corpus: usize,
    findings: Vec<String>,
}

/// The options of `fuzz campaign`.
pub struct Campaign {
    /// Minutes of fuzzing per target.
    pub minutes: u32,
    /// Targets fuzzed at the same time.
    pub jobs: usize,
    /// The targets; every target when empty.
    pub targets: Vec<String>,
}

impl Campaign {
    /// Parses `[--minutes N] [--jobs J] [--targets A,B ...]`.
    pub fn from_args(args: &[String]) -> Result<Self> {
        let mut c = Campaign {
            minutes: 10,
            jobs: 2,
            targets: Vec::new(),
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || it.next().ok_or(format!("{a} needs a value"));
            match a.as_str() {
                "--minutes" => {
                    c.minutes = value()?
                        .parse()
                        .map_err(|_| "--minutes takes a whole number")?
                }
                "--jobs" => {
                    c.jobs = value()?
                        .parse()
                        .map_err(|_| "--jobs takes a whole number")?
                }
                "--targets" => c.targets.extend(
                    value()?
                        .split(',')
                        .filter(|s| !s.is_empty())
                        .map(String::from),
                ),
                other if !other.starts_with('-') && !c.targets.is_empty() => {
                    c.targets.push(other.to_string())
                }
                other => return Err(format!("fuzz campaign: unknown argument {other:?}")),
            }
        }
        if c.minutes == 0 || c.jobs == 0 {
            return Err("fuzz campaign: --minutes and --jobs must be at least 1".into());
        }
        Ok(c)
    }

    /// Runs the campaign.
    pub fn run(&self) -> Result {
        let all = targets()?;
        let targets = if self.targets.is_empty() {
            all.clone()
        } else {
            for t in &self.targets {
                if !all.contains(t) {
                    return Err(format!(
                        "fuzz campaign: no target {t:?} (fuzz/Cargo.toml has {})",
                        all.join(", ")
                    ));
                }
            }
            self.targets.clone()
        };
        // The commit the targets are built from, taken now: the tree may move while they run.
        let built_from = commit();
        run(cargo_fuzz().args(["build", "-s", "none"])).map_err(fuzz_error)?;
        let base = root().join("target").join("fuzz-campaign");
        let mut outcomes = Vec::new();
        for batch in targets.chunks(self.jobs) {
            let mut running = Vec::new();
            for t in batch {
                running.push(self.start(t, &base.join(t))?);
            }
            for (t, child, started) in running {
                outcomes.push(self.finish(&t, &base.join(&t), child, started)?);
            }
        }
        let rows = record(&outcomes, &built_from)?;
        println!("{rows}");
        let found: usize = outcomes.iter().map(|o| o.findings.len()).sum();
        if found > 0 {
            return Err(format!(
                "fuzz campaign: {found} findings, kept under fuzz/regressions/; fix them and note each"
            ));
        }
        Ok(())
    }

    fn start(&self, target: &str, dir: &Path) -> Result<(String, Child, Instant)> {
        let work = dir.join("corpus");
        let seeds = dir.join("seeds");
        let artifacts = dir.join("artifacts");
        let _ = std::fs::remove_dir_all(&seeds);
        for d in [&work, &artifacts] {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let n = copy_seeds(target, &seeds)?;
        println!(
            "fuzz campaign: {target}: {} min, {n} seeds, working corpus {}",
            self.minutes,
            work.display()
        );
        let log = std::fs::File::create(dir.join("fuzz.log")).map_err(|e| e.to_string())?;
        let child = cargo_fuzz()
            .args(["run", "-s", "none", target])
            .arg(&work)
            .arg(&seeds)
            .args([
                "--".to_string(),
                format!("-max_total_time={}", u64::from(self.minutes) * 60),
                format!("-artifact_prefix={}/", artifacts.display()),
                "-rss_limit_mb=2048".into(),
                "-max_len=1048576".into(),
                "-print_final_stats=1".into(),
            ])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| fuzz_error(e.to_string()))?;
        Ok((target.to_string(), child, Instant::now()))
    }

    fn finish(
        &self,
        target: &str,
        dir: &Path,
        mut child: Child,
        started: Instant,
    ) -> Result<Outcome> {
        let status = child.wait().map_err(|e| e.to_string())?;
        let seconds = started.elapsed().as_secs();
        let log = std::fs::read_to_string(dir.join("fuzz.log")).unwrap_or_default();
        let (executions, coverage, features) = final_stats(&log);
        let work = dir.join("corpus");
        // Merge and minimise the working corpus in place.
        if let Err(e) = run(cargo_fuzz()
            .args(["cmin", "-s", "none", target])
            .arg(&work)
            .stdout(Stdio::null())
            .stderr(Stdio::null()))
        {
            eprintln!("fuzz campaign: {target}: corpus not minimised: {e}");
        }
        let corpus = std::fs::read_dir(&work).map_or(0, |d| d.count());
        let findings = keep_findings(target, &dir.join("artifacts"))?;
        if !status.success() && findings.is_empty() {
            return Err(format!(
                "fuzz campaign: {target} exited with {status} and left no finding; see {}",
                dir.join("fuzz.log").display()
            ));
        }
        Ok(Outcome {
            target: target.to_string(),
            seconds,
            executions,
            coverage,
            features,
            corpus,
            findings,
        })
    }
}

/// libFuzzer's figures at the end of a run: executions (from `-print_final_stats`), and the
/// coverage and feature counts of its last status line (`#N ... cov: C ft: F ...`).
fn final_stats(log: &str) -> (Option<u64>, Option<u64>, Option<u64>) {
    let number_after = |line: &str, key: &str| -> Option<u64> {
        let rest = &line[line.find(key)? + key.len()..];
        rest.split_whitespace().next()?.parse().ok()
    };
    let executions = log
        .lines()
        .rev()
        .find_map(|l| number_after(l, "stat::number_of_executed_units:"));
    let status = log
        .lines()
        .rev()
        .find(|l| l.starts_with('#') && l.contains(" cov: "));
    let coverage = status.and_then(|l| number_after(l, " cov: "));
    let features = status.and_then(|l| number_after(l, " ft: "));
    (executions, coverage, features)
}

/// Minimises every crash, timeout or out-of-memory input left in `artifacts` and copies it to
/// `fuzz/regressions/<target>/`, with a note to complete. Returns the kept names.
fn keep_findings(target: &str, artifacts: &Path) -> Result<Vec<String>> {
    let mut kept = Vec::new();
    let Ok(entries) = std::fs::read_dir(artifacts) else {
        return Ok(kept);
    };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name().is_some_and(|n| {
                let n = n.to_string_lossy();
                ["crash-", "timeout-", "oom-", "leak-"]
                    .iter()
                    .any(|k| n.starts_with(k))
            })
        })
        .collect();
    found.sort();
    let out = root().join("fuzz").join("regressions").join(target);
    for input in found {
        let name = input
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let _ = run(cargo_fuzz()
            .args(["tmin", "-s", "none", target])
            .arg(&input)
            .args(["--", "-runs=2000"])
            .stdout(Stdio::null())
            .stderr(Stdio::null()));
        let minimised = artifacts.join(format!(
            "minimized-from-{}",
            name.split('-').next_back().unwrap_or("")
        ));
        let from = if minimised.is_file() {
            minimised
        } else {
            input.clone()
        };
        std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
        std::fs::copy(&from, out.join(&name)).map_err(|e| e.to_string())?;
        std::fs::write(
            out.join(format!("{name}.txt")),
            format!(
                "found by `cargo xtask fuzz campaign` on {} at {}; not yet fixed\n",
                today(),
                commit()
            ),
        )
        .map_err(|e| e.to_string())?;
        println!("fuzz campaign: {target}: finding kept as fuzz/regressions/{target}/{name}");
        kept.push(name);
    }
    Ok(kept)
}

fn today() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

fn commit() -> String {
    Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .current_dir(root())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// The header of the campaign table in `docs/fuzzing.md`.
const TABLE_HEADER: &str = "| target | CPU minutes | date | commit | executions | coverage | features | corpus size | findings |\n|---|---|---|---|---|---|---|---|---|\n";

/// Appends one row per outcome to `docs/fuzzing.md` (creating the table if needed) and returns
/// the rows.
fn record(outcomes: &[Outcome], commit: &str) -> Result<String> {
    let path = root().join("docs").join("fuzzing.md");
    let mut doc = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let date = today();
    let opt = |v: Option<u64>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
    let mut rows = String::new();
    for o in outcomes {
        rows.push_str(&format!(
            "| {} | {:.1} | {date} | {commit} | {} | {} | {} | {} | {} |\n",
            o.target,
            o.seconds as f64 / 60.0,
            opt(o.executions),
            opt(o.coverage),
            opt(o.features),
            o.corpus,
            if o.findings.is_empty() {
                "none".to_string()
            } else {
                o.findings.join(", ")
            }
        ));
    }
    if !doc.contains(TABLE_HEADER) {
        doc.push_str("\n## Campaign runs\n\n");
        doc.push_str(TABLE_HEADER);
    }
    if !doc.ends_with('\n') {
        doc.push('\n');
    }
    doc.push_str(&rows);
    std::fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_stats_read_libfuzzers_closing_lines() {
        let log = "#1024\tpulse  cov: 10 ft: 12 corp: 3/40b exec/s: 512 rss: 40Mb\n\
                   #52311\tDONE   cov: 918 ft: 3117 corp: 402/91Kb lim: 4096 exec/s: 871 rss: 480Mb\n\
                   Done 52311 runs in 61 second(s)\n\
                   stat::number_of_executed_units: 52311\n\
                   stat::average_exec_per_sec:     857\n";
        assert_eq!(final_stats(log), (Some(52311), Some(918), Some(3117)));
        assert_eq!(final_stats("nothing here"), (None, None, None));
    }

    #[test]
    fn arguments_parse() {
        let args: Vec<String> = [
            "--minutes",
            "30",
            "--jobs",
            "1",
            "--targets",
            "quake_bytes,nvm_model",
            "mgsv_bytes",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let c = Campaign::from_args(&args).unwrap();
        assert_eq!((c.minutes, c.jobs), (30, 1));
        assert_eq!(c.targets, ["quake_bytes", "nvm_model", "mgsv_bytes"]);
        assert!(Campaign::from_args(&["--minutes".into(), "0".into()]).is_err());
        assert!(Campaign::from_args(&["--bogus".into()]).is_err());
    }

    #[test]
    fn every_target_prefix_has_seeds() {
        for t in targets().unwrap() {
            assert!(
                seed_sources(&t).is_some(),
                "{t}: no seed folders in the table"
            );
        }
    }
}
