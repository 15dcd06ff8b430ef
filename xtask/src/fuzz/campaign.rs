//! `cargo xtask fuzz campaign`: every target for a measured number of CPU-minutes, seeded from
//! the real files, with a persistent working corpus, findings kept as regressions and one table
//! row per target appended to `docs/fuzzing.md`.

use super::*;

/// libFuzzer's exit code when it stops on SIGINT (`-interrupted_exitcode`), after printing its
/// final statistics: the normal end of a campaign run.
const INTERRUPTED: i32 = 72;

/// How many times N CPU-minutes a target may take in wall-clock time before it is interrupted
/// anyway (when the machine is so busy that a niced fuzzer hardly runs).
const WALL_FACTOR: u64 = 20;

/// What one campaign run of one target measured.
struct Outcome {
    target: String,
    /// CPU time the fuzzer used (user and system), in seconds.
    cpu_seconds: f64,
    executions: Option<u64>,
    coverage: Option<u64>,
    features: Option<u64>,
    corpus: usize,
    findings: Vec<String>,
}

/// The options of `fuzz campaign`.
pub struct Campaign {
    /// CPU-minutes of fuzzing per target.
    pub minutes: u32,
    /// Targets fuzzed at the same time.
    pub jobs: usize,
    /// The targets; every target when empty.
    pub targets: Vec<String>,
    /// Run the fuzzers (and their build, minimisation and merge) under `nice -n 19`.
    pub nice: bool,
}

impl Campaign {
    /// Parses `[--minutes N] [--jobs J] [--nice] [--targets A,B ...]`.
    pub fn from_args(args: &[String]) -> Result<Self> {
        let mut c = Campaign {
            minutes: 10,
            jobs: 2,
            targets: Vec::new(),
            nice: false,
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
                "--nice" => c.nice = true,
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

    /// `program`, under `nice -n 19` when the campaign is niced (`nice` execs it, so the child's
    /// pid is the program's).
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        if self.nice {
            let mut cmd = Command::new("nice");
            cmd.args(["-n", "19"]).arg(program);
            cmd
        } else {
            Command::new(program)
        }
    }

    /// `cargo fuzz`, niced when the campaign is.
    fn cargo_fuzz(&self) -> Command {
        let plain = cargo_fuzz();
        let mut cmd = self.command(plain.get_program());
        cmd.args(plain.get_args());
        if let Some(dir) = plain.get_current_dir() {
            cmd.current_dir(dir);
        }
        for (k, v) in plain.get_envs() {
            match v {
                Some(v) => cmd.env(k, v),
                None => cmd.env_remove(k),
            };
        }
        cmd
    }

    /// Runs the campaign: builds every target once, then runs them `jobs` at a time, each until
    /// it has used `minutes` CPU-minutes, and appends each target's row to `docs/fuzzing.md` as
    /// soon as it is done.
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
        let navkit = navkit_for(&targets)?;
        run(self.cargo_fuzz().args(["build", "-s", "none"])).map_err(fuzz_error)?;
        let bins = fuzzer_dir()?;
        let ticks = clock_ticks();
        let base = root().join("target").join("fuzz-campaign");
        println!(
            "fuzz campaign: {} targets, {} CPU-minutes each, {} at a time{}, from {built_from}",
            targets.len(),
            self.minutes,
            self.jobs,
            if self.nice { ", niced" } else { "" }
        );
        let queue =
            std::sync::Mutex::new(targets.iter().collect::<std::collections::VecDeque<_>>());
        let doc = std::sync::Mutex::new(());
        let results = std::sync::Mutex::new(Vec::<Result<Outcome>>::new());
        // The queue's lock is taken and released inside, not held while a target runs.
        let next = || queue.lock().ok().and_then(|mut q| q.pop_front());
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.min(targets.len()) {
                scope.spawn(|| {
                    while let Some(t) = next() {
                        let bin = bins.join(t);
                        let outcome = self.fuzz(t, &base.join(t), &bin, ticks, navkit.as_deref());
                        if let Ok(o) = &outcome {
                            // One writer at a time; a row per target as soon as it is done.
                            let _guard = doc.lock();
                            match record(std::slice::from_ref(o), &built_from) {
                                Ok(row) => print!("{row}"),
                                Err(e) => eprintln!("fuzz campaign: {t}: row not recorded: {e}"),
                            }
                        }
                        if let Err(e) = &outcome {
                            eprintln!("{e}");
                        }
                        if let Ok(mut r) = results.lock() {
                            r.push(outcome);
                        }
                    }
                });
            }
        });
        let results = results.into_inner().map_err(|e| e.to_string())?;
        let found: usize = results.iter().flatten().map(|o| o.findings.len()).sum();
        let failed: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
        if !failed.is_empty() {
            return Err(format!(
                "fuzz campaign: {} targets failed to run ({found} findings)",
                failed.len()
            ));
        }
        if found > 0 {
            return Err(format!(
                "fuzz campaign: {found} findings, kept under fuzz/regressions/; fix them and note each"
            ));
        }
        Ok(())
    }

    /// One target: seeds, the fuzzer until its CPU budget is used, then the corpus merged and
    /// the findings kept.
    fn fuzz(
        &self,
        target: &str,
        dir: &Path,
        bin: &Path,
        ticks: u64,
        navkit: Option<&Path>,
    ) -> Result<Outcome> {
        let work = dir.join("corpus");
        let seeds = dir.join("seeds");
        let artifacts = dir.join("artifacts");
        let _ = std::fs::remove_dir_all(&seeds);
        for d in [&work, &artifacts] {
            std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
        }
        let n = copy_seeds(target, &seeds, navkit)?;
        println!(
            "fuzz campaign: {target}: {} CPU-minutes, {n} seeds, working corpus {}",
            self.minutes,
            work.display()
        );
        let log_path = dir.join("fuzz.log");
        let log = std::fs::File::create(&log_path).map_err(|e| e.to_string())?;
        let mut child = self
            .command(bin)
            .arg(&work)
            .arg(&seeds)
            .args([
                format!("-artifact_prefix={}/", artifacts.display()),
                "-rss_limit_mb=2048".into(),
                format!("-max_len={MAX_LEN}"),
                "-print_final_stats=1".into(),
            ])
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("fuzz campaign: {target}: {}: {e}", bin.display()))?;
        let pid = child.id();
        let budget = u64::from(self.minutes) * 60 * ticks;
        let wall_limit = Duration::from_secs(u64::from(self.minutes) * 60 * WALL_FACTOR);
        let started = Instant::now();
        let mut used = 0u64;
        let mut interrupted: Option<Instant> = None;
        let mut killed = false;
        let status = loop {
            // Read before reaping: a finished child's last figures are still there.
            if let Some(t) = cpu_ticks(pid) {
                used = t;
            }
            if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            match interrupted {
                None if used >= budget || started.elapsed() >= wall_limit => {
                    if used < budget {
                        eprintln!(
                            "fuzz campaign: {target}: wall-clock limit of {} minutes reached",
                            wall_limit.as_secs() / 60
                        );
                    }
                    let _ = Command::new("kill")
                        .args(["-INT", &pid.to_string()])
                        .status();
                    interrupted = Some(Instant::now());
                }
                Some(at) if at.elapsed() > Duration::from_secs(120) && !killed => {
                    eprintln!("fuzz campaign: {target}: no exit two minutes after SIGINT; killed");
                    let _ = child.kill();
                    killed = true;
                }
                _ => {}
            }
            std::thread::sleep(Duration::from_secs(1));
        };
        let cpu_seconds = used as f64 / ticks as f64;
        println!(
            "fuzz campaign: {target}: stopped after {:.1} CPU-minutes in {:.1} minutes ({status})",
            cpu_seconds / 60.0,
            started.elapsed().as_secs_f64() / 60.0
        );
        let log = std::fs::read_to_string(&log_path).unwrap_or_default();
        let (executions, coverage, features) = final_stats(&log);
        self.merge(target, bin, &work);
        let corpus = std::fs::read_dir(&work).map_or(0, |d| d.count());
        let findings = self.keep_findings(target, bin, &artifacts)?;
        let normal = ended_normally(
            status.success() || status.code() == Some(INTERRUPTED),
            killed,
            &log,
        );
        if !normal && findings.is_empty() {
            return Err(format!(
                "fuzz campaign: {target} exited with {status} and left no finding; see {}",
                log_path.display()
            ));
        }
        Ok(Outcome {
            target: target.to_string(),
            cpu_seconds,
            executions,
            coverage,
            features,
            corpus,
            findings,
        })
    }

    /// Minimises the working corpus in place (libFuzzer's `-merge=1` into a fresh folder, which
    /// then replaces it), with the binary the campaign built.
    fn merge(&self, target: &str, bin: &Path, work: &Path) {
        let merged = work.with_file_name("corpus.merged");
        let _ = std::fs::remove_dir_all(&merged);
        if let Err(e) = std::fs::create_dir_all(&merged) {
            eprintln!("fuzz campaign: {target}: corpus not minimised: {e}");
            return;
        }
        let status = self
            .command(bin)
            .args([
                "-merge=1".to_string(),
                "-rss_limit_mb=2048".into(),
                format!("-max_len={MAX_LEN}"),
            ])
            .arg(&merged)
            .arg(work)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        let emptied = std::fs::read_dir(&merged).map_or(true, |mut d| d.next().is_none());
        if !status.as_ref().is_ok_and(|s| s.success()) || emptied {
            eprintln!("fuzz campaign: {target}: corpus not minimised ({status:?})");
            let _ = std::fs::remove_dir_all(&merged);
            return;
        }
        if let Err(e) = std::fs::remove_dir_all(work).and_then(|()| std::fs::rename(&merged, work))
        {
            eprintln!("fuzz campaign: {target}: minimised corpus not moved into place: {e}");
        }
    }

    /// Minimises every crash, timeout or out-of-memory input left in `artifacts` and copies it
    /// to `fuzz/regressions/<target>/`, with a note to complete. Returns the kept names.
    fn keep_findings(&self, target: &str, bin: &Path, artifacts: &Path) -> Result<Vec<String>> {
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
            let minimised = artifacts.join(format!("minimized-{name}"));
            let _ = self
                .command(bin)
                .args([
                    "-minimize_crash=1".to_string(),
                    "-runs=2000".into(),
                    "-rss_limit_mb=2048".into(),
                    format!("-exact_artifact_path={}", minimised.display()),
                ])
                .arg(&input)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
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
            // Moved out of the way, so that the next run does not keep it again.
            let _ = std::fs::rename(&input, artifacts.join(format!("kept-{name}")));
            kept.push(name);
        }
        Ok(kept)
    }
}

/// Where `cargo fuzz build` puts the fuzzer binaries: `fuzz/target/<host triple>/release/`.
fn fuzzer_dir() -> Result<PathBuf> {
    let out = Command::new("rustc")
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let host = text
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .ok_or("rustc -vV names no host")?
        .trim();
    let dir = root()
        .join("fuzz")
        .join("target")
        .join(host)
        .join("release");
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "{} does not exist after `cargo fuzz build`",
            dir.display()
        ))
    }
}

/// Clock ticks per second of `/proc/<pid>/stat`'s CPU times (`getconf CLK_TCK`, 100 on Linux).
fn clock_ticks() -> u64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse().ok())
        .filter(|&t| t > 0)
        .unwrap_or(100)
}

/// The CPU time a process has used, user and system, in clock ticks (`/proc/<pid>/stat`).
fn cpu_ticks(pid: u32) -> Option<u64> {
    stat_ticks(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

/// `utime + stime` of a `/proc/<pid>/stat` line: fields 14 and 15, counted after the command
/// name, which is in parentheses and may itself hold spaces and parentheses.
fn stat_ticks(stat: &str) -> Option<u64> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (the state).
    let utime: u64 = fields.get(14 - 3)?.parse().ok()?;
    let stime: u64 = fields.get(15 - 3)?.parse().ok()?;
    Some(utime + stime)
}

/// libFuzzer's figures at the end of a run: executions (from `-print_final_stats`), and the
/// coverage and feature counts of its last status line (`#N ... cov: C ft: F ...`). A run
/// stopped by SIGINT has no closing `DONE` line, but coverage and features only grow on lines
/// that print them, so the last such line has the final counts.
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

/// Whether a fuzzer's run ended as a campaign run should: it exited successfully or with
/// libFuzzer's interrupt code, or it had to be killed after the interrupt although libFuzzer had
/// already said so and printed its final figures (a niced fuzzer on a machine busy with other
/// work can take longer than the grace period to exit, and its run was complete all the same).
fn ended_normally(exited_normally: bool, killed_after_interrupt: bool, log: &str) -> bool {
    exited_normally
        || (killed_after_interrupt
            && log.contains("libFuzzer: run interrupted; exiting")
            && final_stats(log).0.is_some())
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

/// The rows of some outcomes.
fn rows(outcomes: &[Outcome], date: &str, commit: &str) -> String {
    let opt = |v: Option<u64>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
    let mut rows = String::new();
    for o in outcomes {
        rows.push_str(&format!(
            "| {} | {:.1} | {date} | {commit} | {} | {} | {} | {} | {} |\n",
            o.target,
            o.cpu_seconds / 60.0,
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
    rows
}

/// `doc` with `rows` added at the end of the campaign table (after its last row, before any
/// text that follows it), or in a new table at the end when there is none.
fn with_rows(doc: &str, rows: &str) -> String {
    let mut doc = doc.to_string();
    let Some(header) = doc.find(TABLE_HEADER) else {
        if !doc.ends_with('\n') {
            doc.push('\n');
        }
        doc.push_str("\n## Campaign runs\n\n");
        doc.push_str(TABLE_HEADER);
        doc.push_str(rows);
        return doc;
    };
    let mut end = header + TABLE_HEADER.len();
    while doc[end..].starts_with('|') {
        end = doc[end..].find('\n').map_or(doc.len(), |i| end + i + 1);
    }
    if end == doc.len() && !doc.ends_with('\n') {
        doc.push('\n');
        end = doc.len();
    }
    doc.insert_str(end, rows);
    doc
}

/// Adds one row per outcome to the campaign table of `docs/fuzzing.md` (creating the table if
/// needed) and returns the rows.
fn record(outcomes: &[Outcome], commit: &str) -> Result<String> {
    let path = root().join("docs").join("fuzzing.md");
    let doc = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let rows = rows(outcomes, &today(), commit);
    std::fs::write(&path, with_rows(&doc, &rows))
        .map_err(|e| format!("{}: {e}", path.display()))?;
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
        // Stopped by SIGINT: no DONE line, the last NEW or REDUCE line has the counts.
        let interrupted = "#4096\tpulse  cov: 30 ft: 40 corp: 9/1Kb\n\
                           #5000\tREDUCE cov: 31 ft: 44 corp: 9/1Kb\n\
                           ==123== libFuzzer: run interrupted; exiting\n\
                           stat::number_of_executed_units: 5120\n";
        assert_eq!(final_stats(interrupted), (Some(5120), Some(31), Some(44)));
    }

    #[test]
    fn a_fuzzer_killed_after_its_final_figures_ended_normally() {
        let closed = "#99\tREDUCE cov: 9 ft: 30 corp: 4/1Kb\n\
                      ==1== libFuzzer: run interrupted; exiting\n\
                      stat::number_of_executed_units: 99\n";
        assert!(ended_normally(true, false, ""));
        assert!(ended_normally(false, true, closed));
        // Killed before libFuzzer closed its run, or killed without being interrupted: not normal.
        assert!(!ended_normally(
            false,
            true,
            "#99\tREDUCE cov: 9 ft: 30 corp: 4/1Kb\n"
        ));
        assert!(!ended_normally(false, false, closed));
    }

    #[test]
    fn cpu_ticks_are_read_past_the_command_name() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
        let stat = "4242 (a (b) c) R 1 4242 4242 0 -1 4194560 900 0 0 0 1234 56 0 0 39 19 2 0 77 0";
        assert_eq!(stat_ticks(stat), Some(1290));
        assert_eq!(stat_ticks("4242 (x) R 1"), None);
        // This process has a stat of its own.
        assert!(cpu_ticks(std::process::id()).is_some());
        assert!(clock_ticks() > 0);
    }

    #[test]
    fn rows_go_at_the_end_of_the_table_before_the_text_after_it() {
        let o = Outcome {
            target: "quake_bytes".into(),
            cpu_seconds: 1203.0,
            executions: Some(10),
            coverage: Some(2),
            features: None,
            corpus: 3,
            findings: vec![],
        };
        let row = rows(std::slice::from_ref(&o), "2026-01-02", "abc1234");
        assert_eq!(
            row,
            "| quake_bytes | 20.1 | 2026-01-02 | abc1234 | 10 | 2 | ? | 3 | none |\n"
        );
        let old = "| a | 1.0 | d | c | 1 | 1 | 1 | 1 | none |\n";
        let doc = format!("# F\n\n## Campaign runs\n\n{TABLE_HEADER}{old}\nA note.\n");
        assert_eq!(
            with_rows(&doc, &row),
            format!("# F\n\n## Campaign runs\n\n{TABLE_HEADER}{old}{row}\nA note.\n")
        );
        let bare = format!("# F\n\n{TABLE_HEADER}{old}");
        assert_eq!(with_rows(&bare, &row), format!("{bare}{row}"));
        let none = with_rows("# F\n", &row);
        assert_eq!(
            none,
            format!("# F\n\n## Campaign runs\n\n{TABLE_HEADER}{row}")
        );
    }

    #[test]
    fn arguments_parse() {
        let args: Vec<String> = [
            "--minutes",
            "30",
            "--jobs",
            "1",
            "--nice",
            "--targets",
            "quake_bytes,nvm_model",
            "mgsv_bytes",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let c = Campaign::from_args(&args).unwrap();
        assert_eq!((c.minutes, c.jobs, c.nice), (30, 1, true));
        assert_eq!(c.targets, ["quake_bytes", "nvm_model", "mgsv_bytes"]);
        assert!(!Campaign::from_args(&[]).unwrap().nice);
        assert!(Campaign::from_args(&["--minutes".into(), "0".into()]).is_err());
        assert!(Campaign::from_args(&["--bogus".into()]).is_err());
    }

    #[test]
    fn every_target_has_seeds() {
        for t in targets().unwrap() {
            assert!(seed_sources(&t).is_some(), "{t}: no seeds in the table");
        }
        assert_eq!(seed_sources("json_text"), Some(Seeds::Json));
        assert_eq!(seed_sources("json_bytes"), Some(Seeds::EveryFormat));
        assert!(matches!(
            seed_sources("plugin_model"),
            Some(Seeds::Format(["skyrim"], _))
        ));
    }
}
