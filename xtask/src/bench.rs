//! `cargo xtask bench`: every crate's criterion benchmarks, whole-process runs of navkit beside
//! the peer a user would pick instead, navkit's Python package beside the Python peers
//! ([`crate::peers`]), and the README's performance table made from all three.
//!
//! The whole-process peer runs from `peer-bench/`, a package outside the workspace that is never
//! published (the Source peer, `sourcenav`, is AGPL-3.0). The table goes between the README's
//! `<!-- bench:start -->` and `<!-- bench:end -->` markers; everything else in the README stays.
//! A criterion benchmark with a throughput gives bytes per second; one without (navigation:
//! graph builds, paths, locates) gives its median time.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::criterion::{Row, criterion_figures};
use crate::{Result, cargo, corpus_root, root, run};

/// The options of `bench`.
pub struct Bench {
    /// Criterion's warm-up and measurement seconds (`--quick`: 1 and 2; default 3 and 5).
    quick: bool,
    /// Skip criterion and use the figures of its last run (`--no-criterion`).
    criterion: bool,
    /// Whole-process runs per command (`--runs N`; default 30, 10 with `--quick`).
    runs: u32,
    /// Run the Python side by side (not with `--no-python`).
    python: bool,
    /// Only the Python side by side: its table printed, the README untouched (`--python-only`).
    python_only: bool,
    /// Compare every criterion benchmark with this revision's instead (`--against REV`).
    against: Option<String>,
    /// Rounds of the comparison (`--rounds N`).
    rounds: u32,
    /// A criterion filter for the comparison (`--filter REGEX`).
    filter: Option<String>,
}

impl Bench {
    /// Parses `[--quick] [--no-criterion] [--no-python | --python-only] [--runs N]
    /// [--against REV [--rounds N] [--filter RE]]`.
    pub fn from_args(args: &[String]) -> Result<Self> {
        let mut runs = None;
        let mut b = Bench {
            quick: false,
            criterion: true,
            runs: 30,
            python: true,
            python_only: false,
            against: None,
            rounds: 2,
            filter: None,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--quick" => b.quick = true,
                "--no-criterion" => b.criterion = false,
                "--no-python" => b.python = false,
                "--python-only" => b.python_only = true,
                "--runs" => runs = Some(positive(it.next(), "--runs")?),
                "--against" => {
                    b.against = Some(it.next().ok_or("--against takes a revision")?.clone())
                }
                "--rounds" => b.rounds = positive(it.next(), "--rounds")?,
                "--filter" => {
                    b.filter = Some(
                        it.next()
                            .ok_or("--filter takes a regular expression")?
                            .clone(),
                    )
                }
                other => return Err(format!("bench: unknown argument {other:?}")),
            }
        }
        if b.python_only && !b.python {
            return Err("bench: --python-only and --no-python exclude each other".into());
        }
        b.runs = runs.unwrap_or(if b.quick { 10 } else { 30 });
        Ok(b)
    }

    /// Runs the benchmarks and rewrites the README table.
    pub fn run(&self) -> Result {
        let Some(corpus) = corpus_root() else {
            return Err(
                "bench: the benchmarks need the corpus (NAVKIT_CORPUS or ../shared/corpus)".into(),
            );
        };
        if self.python_only {
            let mut rows = crate::peers::side_by_side(self.quick, &corpus)?;
            rows.extend(crate::blender::bench_rows(&corpus)?);
            println!("{}", render(&rows));
            return Ok(());
        }
        let (warm, measure) = if self.quick { ("1", "2") } else { ("3", "5") };
        if let Some(rev) = &self.against {
            let against = crate::against::Against {
                rev: rev.clone(),
                rounds: self.rounds,
                filter: self.filter.clone(),
            };
            return against.run(&["--warm-up-time", warm, "--measurement-time", measure]);
        }
        if self.criterion {
            // The table is made from every benchmark criterion has figures for: those of a
            // benchmark since renamed or removed must not stay in it.
            let figures = root().join("target").join("criterion");
            if figures.is_dir() {
                std::fs::remove_dir_all(&figures)
                    .map_err(|e| format!("{}: {e}", figures.display()))?;
            }
            // Only the bench targets: the libraries' test harness does not take criterion's options.
            run(cargo().args([
                "bench",
                "--workspace",
                "--bench",
                "*",
                "--",
                "--warm-up-time",
                warm,
                "--measurement-time",
                measure,
            ]))?;
        }
        let mut rows = criterion_rows(&root().join("target").join("criterion"));
        rows.extend(self.whole_process(&corpus)?);
        if self.python {
            rows.extend(crate::peers::side_by_side(self.quick, &corpus)?);
            rows.extend(crate::blender::bench_rows(&corpus)?);
        } else {
            eprintln!("bench: note: --no-python: the Python side by side is left out of the table");
        }
        let table = render(&rows);
        println!("{table}");
        let readme = root().join("README.md");
        let text = std::fs::read_to_string(&readme).map_err(|e| format!("README.md: {e}"))?;
        let (start, end) = ("<!-- bench:start -->", "<!-- bench:end -->");
        let (Some(a), Some(b)) = (text.find(start), text.find(end)) else {
            return Err(
                "README.md has no <!-- bench:start --> / <!-- bench:end --> markers".into(),
            );
        };
        let new = format!("{}{start}\n{table}{}", &text[..a], &text[b..]);
        std::fs::write(&readme, new).map_err(|e| format!("README.md: {e}"))?;
        println!("bench: README.md performance table rewritten");
        Ok(())
    }

    /// navkit's whole-process commands on the largest Source file, and `sourcenav` reading it.
    fn whole_process(&self, corpus: &Path) -> Result<Vec<Row>> {
        let file =
            largest(&corpus.join("source"), "nav").ok_or("bench: no Source file in the corpus")?;
        run(cargo().args(["build", "--release", "--quiet", "-p", "navkit"]))?;
        let target = root().join("target");
        run(cargo()
            .args(["build", "--release", "--quiet", "--manifest-path"])
            .arg(root().join("peer-bench/Cargo.toml"))
            .env("CARGO_TARGET_DIR", target.join("peer-bench")))?;
        let peer = target.join("peer-bench/release/peer-bench");
        let navkit = target.join("release/navkit");
        let out = std::env::temp_dir().join("navkit-bench-rewrite.nav");
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let size = std::fs::metadata(&file).map_or(0, |m| m.len());
        let measure = |args: &[&std::ffi::OsStr]| -> Result<(f64, u64)> {
            let o = Command::new(&peer)
                .arg("measure")
                .arg(self.runs.to_string())
                .arg("--")
                .args(args)
                .output()
                .map_err(|e| format!("{}: {e}", peer.display()))?;
            let text = String::from_utf8_lossy(&o.stdout);
            if !o.status.success() {
                return Err(format!(
                    "peer-bench measure failed: {}",
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
            let field = |k: &str| {
                text.split_whitespace()
                    .find_map(|w| w.strip_prefix(k))
                    .and_then(|v| v.parse::<f64>().ok())
            };
            match (field("median_ms="), field("peak_rss_kib=")) {
                // The peer prints a whole number of KiB.
                #[allow(clippy::cast_possible_truncation)]
                (Some(ms), Some(kib)) => Ok((ms, kib.round() as u64)),
                _ => Err(format!("peer-bench measure printed {text:?}")),
            }
        };
        let f = file.as_os_str();
        let peer_read = measure(&[peer.as_os_str(), "sourcenav-read".as_ref(), f])?;
        let info = measure(&[navkit.as_os_str(), "info".as_ref(), f])?;
        let rewrite = measure(&[
            navkit.as_os_str(),
            "rewrite".as_ref(),
            f,
            "-o".as_ref(),
            out.as_os_str(),
        ])?;
        // The yardstick for `diff`: the file against its rewrite, beside `validate`.
        let validate = measure(&[navkit.as_os_str(), "validate".as_ref(), f])?;
        let diff = measure(&[navkit.as_os_str(), "diff".as_ref(), f, out.as_os_str()])?;
        let json = std::env::temp_dir().join("navkit-bench.json");
        let to_json = measure(&[
            navkit.as_os_str(),
            "to-json".as_ref(),
            f,
            "-o".as_ref(),
            json.as_os_str(),
        ])?;
        let from_json = measure(&[
            navkit.as_os_str(),
            "from-json".as_ref(),
            json.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ])?;
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(&json);
        let scale = self.scale(&navkit, &measure)?;
        let cores = self.cores(&navkit, corpus)?;
        let what = |cmd: &str| format!("`navkit {cmd}` {name} ({size} B), whole process");
        let figure =
            |(ms, kib): (f64, u64)| format!("{ms:.1} ms, {:.1} MiB peak", kib as f64 / 1024.0);
        let peer_text = format!(
            "`sourcenav` 0.2.0 reading it: {:.1} ms, {:.1} MiB peak",
            peer_read.0,
            peer_read.1 as f64 / 1024.0
        );
        let mut rows = vec![
            Row {
                what: what("info"),
                figure: figure(info),
                peer: peer_text.clone(),
                ratio: String::new(),
            },
            Row {
                what: what("rewrite"),
                figure: figure(rewrite),
                peer: peer_text,
                ratio: String::new(),
            },
            Row {
                what: format!("`navkit diff` {name} against its rewrite, whole process"),
                figure: figure(diff),
                peer: format!("`navkit validate` of it: {}", figure(validate)),
                ratio: format!(
                    "{:.1}× validate (goal: 50 ms where validate takes 20 ms, 2.5×)",
                    diff.0 / validate.0.max(f64::MIN_POSITIVE)
                ),
            },
            Row {
                what: what("to-json"),
                figure: figure(to_json),
                peer: String::new(),
                ratio: String::new(),
            },
            Row {
                what: "`navkit from-json` of that JSON, whole process".to_string(),
                figure: figure(from_json),
                peer: String::new(),
                ratio: String::new(),
            },
        ];
        rows.extend(scale);
        rows.push(cores);
        Ok(rows)
    }

    /// `navkit roundtrip` over the corpus on one thread and on two, and, for scale, two
    /// one-thread runs side by side: how much two cores of this machine give two independent
    /// processes, which no in-process batch can beat. The three are run in turn, `runs` times
    /// each, and compared by their medians.
    fn cores(&self, navkit: &Path, corpus: &Path) -> Result<Row> {
        let command = |jobs: &str| {
            let mut c = Command::new(navkit);
            c.args(["roundtrip", "--jobs", jobs])
                .arg(corpus)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            c
        };
        let timed = |commands: &mut [Command]| -> Result<f64> {
            let start = std::time::Instant::now();
            let children = commands
                .iter_mut()
                .map(|c| c.spawn().map_err(|e| format!("{}: {e}", navkit.display())))
                .collect::<Result<Vec<_>>>()?;
            for mut child in children {
                let status = child
                    .wait()
                    .map_err(|e| format!("{}: {e}", navkit.display()))?;
                if !status.success() {
                    return Err(format!(
                        "bench: `navkit roundtrip` over {} failed",
                        corpus.display()
                    ));
                }
            }
            Ok(start.elapsed().as_secs_f64() * 1000.0)
        };
        let (mut one, mut two, mut pair) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..self.runs {
            one.push(timed(&mut [command("1")])?);
            two.push(timed(&mut [command("2")])?);
            pair.push(timed(&mut [command("1"), command("1")])?);
        }
        let (one, two, pair) = (median(&mut one), median(&mut two), median(&mut pair));
        Ok(Row {
            what: "`navkit roundtrip` over the corpus, whole process: 2 threads against 1".into(),
            figure: format!("{:.2}× ({one:.0} ms → {two:.0} ms)", one / two),
            peer: format!(
                "two 1-thread runs side by side: {:.2}× ({:.0} ms for both)",
                2.0 * one / pair,
                pair
            ),
            ratio: String::new(),
        })
    }

    /// Whole-process runs at a whole game's scale, on inputs navkit's own examples make: a
    /// directory of 5,000 Silkroad regions (`navkit roundtrip` over it, on every core) and a
    /// Skyrim plugin of 20,000 navmeshes built from the corpus's (`navkit rewrite`, streamed).
    fn scale(&self, navkit: &Path, measure: &Measure<'_>) -> Result<Vec<Row>> {
        let dir = root().join("target").join("bench-scale");
        let regions = dir.join("regions");
        let plugin = dir.join("game.esp");
        let _ = std::fs::remove_dir_all(&regions);
        std::fs::create_dir_all(&regions).map_err(|e| format!("{}: {e}", regions.display()))?;
        run(example("jmxvnvm", "regions").arg(&regions).arg("5000"))?;
        if !plugin.is_file() {
            run(example("nvnm-skyrim", "scale").arg("--build").arg(&plugin))?;
        }
        let out = dir.join("rewritten.esp");
        let roundtrip = measure(&[
            navkit.as_os_str(),
            "roundtrip".as_ref(),
            regions.as_os_str(),
        ])?;
        let rewrite = measure(&[
            navkit.as_os_str(),
            "rewrite".as_ref(),
            plugin.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ])?;
        let size = std::fs::metadata(&plugin).map_or(0, |m| m.len());
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_dir_all(&regions);
        let mib = |kib: u64| kib as f64 / 1024.0;
        Ok(vec![
            Row {
                what: "`navkit roundtrip` over 5,000 generated Silkroad regions, whole process"
                    .into(),
                figure: format!(
                    "{:.2} s, {:.1} MiB peak",
                    roundtrip.0 / 1000.0,
                    mib(roundtrip.1)
                ),
                peer: String::new(),
                ratio: String::new(),
            },
            Row {
                what: format!(
                    "`navkit rewrite` of a game-scale plugin (20,000 navmeshes, {:.0} MiB), whole process",
                    size as f64 / 1048576.0
                ),
                figure: format!(
                    "{:.2} s, {:.0} MiB peak ({:.2} × the file)",
                    rewrite.0 / 1000.0,
                    mib(rewrite.1),
                    rewrite.1 as f64 * 1024.0 / size.max(1) as f64
                ),
                peer: String::new(),
                ratio: String::new(),
            },
        ])
    }
}

/// The middle value (the mean of the middle two for an even count); 0 for none.
fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    match n {
        0 => 0.0,
        _ if n % 2 == 1 => values[n / 2],
        _ => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// `cargo run --release` of crate `krate`'s example `name`, ready for its arguments.
fn example(krate: &str, name: &str) -> Command {
    let mut c = cargo();
    c.args([
        "run",
        "--release",
        "--quiet",
        "-p",
        krate,
        "--example",
        name,
        "--",
    ]);
    c
}

/// The positive whole number an option takes.
fn positive(value: Option<&String>, option: &str) -> Result<u32> {
    value
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{option} takes a positive whole number"))
}

/// A whole-process measurement of a command: median milliseconds and peak KiB.
type Measure<'a> = dyn Fn(&[&std::ffi::OsStr]) -> Result<(f64, u64)> + 'a;

fn render(rows: &[Row]) -> String {
    let mut t = String::from("| what | navkit | peer | ratio |\n|---|---|---|---|\n");
    for r in rows {
        t.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            r.what, r.figure, r.peer, r.ratio
        ));
    }
    t
}

/// The largest file below `dir` with the ending `ext`, outside `negative/` folders.
fn largest(dir: &Path, ext: &str) -> Option<PathBuf> {
    let mut files = Vec::new();
    collect(dir, ext, &mut files);
    files
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "negative"))
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
}

fn collect(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, ext, out);
        } else if p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// A row per criterion benchmark, from `target/criterion`: its throughput, or its median time.
fn criterion_rows(dir: &Path) -> Vec<Row> {
    criterion_figures(dir)
        .into_iter()
        .map(|(what, f)| Row {
            what,
            figure: f.text(),
            peer: String::new(),
            ratio: String::new(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_parse() {
        let b = Bench::from_args(&["--quick".into(), "--runs".into(), "5".into()]).unwrap();
        assert!(b.quick && b.criterion && b.runs == 5);
        assert!(Bench::from_args(&["--runs".into(), "0".into()]).is_err());
        assert!(Bench::from_args(&["--fast".into()]).is_err());
        let a = Bench::from_args(&[
            "--against".into(),
            "v0.1.0".into(),
            "--rounds".into(),
            "3".into(),
        ])
        .unwrap();
        assert_eq!((a.against.as_deref(), a.rounds), (Some("v0.1.0"), 3));
        assert!(Bench::from_args(&["--against".into()]).is_err());
        let q = Bench::from_args(&["--quick".into(), "--no-python".into()]).unwrap();
        assert!(q.runs == 10 && !q.python && !q.python_only);
        let full = Bench::from_args(&[]).unwrap();
        assert!(full.runs == 30 && full.python && !full.python_only);
        assert!(
            Bench::from_args(&["--python-only".into()])
                .unwrap()
                .python_only
        );
        assert!(Bench::from_args(&["--python-only".into(), "--no-python".into()]).is_err());
    }

    #[test]
    fn median_of_odd_even_and_none() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }
}
