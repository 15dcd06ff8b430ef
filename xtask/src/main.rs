//! navkit's chores, as one entry point that CI and people share: `cargo xtask <task>`.
//!
//! - `test`: every test, Rust, Python and Blender: `cargo test --workspace --all-features`,
//!   then the Python package's wheel installed into a virtualenv under `target/venv-py` for its
//!   pytest suite ([`python`]), and into `target/venv-bpy` beside Blender 4.5 (`bpy`) for the
//!   add-on's ([`blender`]).
//! - `wheel`: the Python package's release abi3 wheel, into `target/wheels/`.
//! - `blender [--debug]`: the Blender extension zip (the add-on in `blender/` with that wheel, or
//!   with the debug wheel), into `target/`, then installed and enabled in a throwaway Blender
//!   profile and checked ([`blender`]).
//! - `ci`: format check, clippy with warnings denied, the tests (snapshots must match), docs
//!   without warnings, and the corpus round trip.
//! - `corpus [DIR]`: `navkit roundtrip` over the corpus (default `../shared/corpus` or
//!   `NAVKIT_CORPUS`), and a check that every file under a `negative/` folder is refused. Without
//!   DIR, the incoming folder beside the corpus (`../shared/incoming` or `NAVKIT_INCOMING`: real
//!   files that arrived after the corpus) is walked too, with the same expectations, when it exists.
//! - `fuzz-smoke [SECONDS]`: every fuzz target briefly, seeded from the real files of its format
//!   (corpus and incoming folder, where present) and `samples/`, on stable (through
//!   `RUSTC_BOOTSTRAP`) or nightly.
//! - `fuzz campaign [--minutes N] [--jobs J] [--nice] [--targets A,B]`: N CPU-minutes per target
//!   (default 10, measured from `/proc/<pid>/stat`), J targets at a time (default 2), under
//!   `nice -n 19` with `--nice`, with a working corpus kept under `target/fuzz-campaign/`,
//!   minimised at the end; findings minimised into `fuzz/regressions/<target>/`; one row per
//!   target added to `docs/fuzzing.md` as each target finishes.
//! - `bench [--quick] [--no-criterion] [--no-python | --python-only] [--runs N]`: every crate's
//!   criterion benchmarks (throughputs, and the navigation benches' times), navkit's
//!   whole-process commands beside the peers (`peer-bench/`, outside the workspace), the Python
//!   package beside awpy and bethkit in one process (`crates/navkit-python/bench/`, in a
//!   virtualenv `target/venv-bench`; [`peers`]), the Blender add-on's import beside Blender's
//!   glTF importer (`blender/bench.py`, in `target/venv-bpy`; [`blender`]), and the README's
//!   performance table rewritten from all of them. `--quick`: shorter criterion runs, 10 whole-process runs, fewer Python runs.
//!   `--python-only` prints the Python table and leaves the README alone.
//! - `bench --against REV [--rounds N] [--filter REGEX] [--quick]`: every criterion benchmark
//!   beside the same benchmark built from revision `REV` (checked out under `target/against/`),
//!   old and new run alternately for N rounds (default 2); prints each figure and the change.
//! - `release VERSION [--dry-run]`: refuses without entries under `[Unreleased]`, sets the
//!   workspace version, dates the changelog section, and runs `cargo publish --dry-run` for the
//!   workspace (and `cargo semver-checks` where installed), then builds the release wheel and
//!   installs it in a fresh virtualenv, where it must import and round-trip a sample.
//!   `--dry-run` changes no file.
//!
//! It has no dependencies: it only runs cargo, the built `navkit`, and Python for `test`,
//! `wheel` and `bench`.

mod against;
mod bench;
mod blender;
mod criterion;
mod fuzz;
mod peers;
mod python;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

type Result<T = ()> = std::result::Result<T, String>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ci") => ci(),
        Some("test") => test(),
        Some("wheel") => python::wheel(),
        Some("blender") => blender::Package::from_args(&args[1..]).and_then(|p| p.run()),
        Some("corpus") => corpus(args.get(1).map(PathBuf::from)),
        Some("fuzz-smoke") => match args.get(1).map(|s| s.parse::<u32>()) {
            None => fuzz::smoke(20),
            Some(Ok(s)) => fuzz::smoke(s),
            Some(Err(_)) => Err(format!(
                "fuzz-smoke takes a number of seconds, not {:?}",
                args[1]
            )),
        },
        Some("bench") => bench::Bench::from_args(&args[1..]).and_then(|b| b.run()),
        Some("fuzz") if args.get(1).is_some_and(|a| a == "campaign") => {
            fuzz::Campaign::from_args(&args[2..]).and_then(|c| c.run())
        }
        Some("release") => match args.get(1) {
            Some(v) => release(v, args.iter().any(|a| a == "--dry-run")),
            None => Err("release needs a VERSION, such as 0.2.0".into()),
        },
        _ => {
            eprintln!(
                "usage: cargo xtask <test | wheel | blender [--debug] | ci | corpus [DIR] | bench [--quick] [--no-criterion] [--no-python | --python-only] [--runs N] | fuzz-smoke [SECONDS] | fuzz campaign [--minutes N] [--jobs J] [--nice] [--targets A,B] | release VERSION [--dry-run]>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask test`: the Rust tests, then the Python tests. The Python tests run even when a
/// Rust test failed, so that one run reports both; the task fails if either did.
/// `cargo xtask test`: every test. Blender's virtualenv comes first, because a Rust test drives
/// `navkit apply` through Blender's own importers and exporters (and must run: the task sets
/// `NAVKIT_REQUIRE_BPY`); then the Rust tests, the Python package's and the add-on's. Each
/// part runs even when an earlier one failed, so one run reports all; the task fails if any did.
fn test() -> Result {
    let corpus = corpus_root();
    let bpy = blender::prepare();
    let rust = python::timed("rust: cargo test --workspace --all-features", || {
        let mut test = cargo();
        test.args(["test", "--workspace", "--all-features"])
            .env("INSTA_UPDATE", "no");
        if bpy.is_ok() {
            test.env("NAVKIT_REQUIRE_BPY", "1");
        }
        if corpus.is_some() {
            test.env("NAVKIT_REQUIRE_CORPUS", "1");
        }
        run(&mut test)
    });
    let python = python::python_tests(corpus.as_deref());
    let blender = match (&python, bpy) {
        (Ok(()), Ok(bpy)) => blender::tests(&bpy, corpus.as_deref()),
        (Err(_), _) => Err("the Blender tests did not run: the Python package did not".to_string()),
        (_, Err(e)) => Err(format!("the Blender tests did not run: {e}")),
    };
    let failed: Vec<String> = [rust, python, blender]
        .into_iter()
        .filter_map(Result::err)
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join("\nxtask: "))
    }
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn run(cmd: &mut Command) -> Result {
    eprintln!("xtask: running {cmd:?}");
    let status = cmd.status().map_err(|e| format!("{cmd:?}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

fn corpus_root() -> Option<PathBuf> {
    match std::env::var_os("NAVKIT_CORPUS") {
        Some(p) => Some(PathBuf::from(p)),
        None => Some(root().join("../shared/corpus")),
    }
    .filter(|p| p.is_dir())
}

fn ci() -> Result {
    run(cargo().args(["fmt", "--all", "--check"]))?;
    run(cargo().args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--all-features",
        "--",
        "-D",
        "warnings",
    ]))?;
    let mut test = cargo();
    test.args(["test", "--workspace", "--all-features"])
        .env("INSTA_UPDATE", "no");
    if corpus_root().is_some() {
        test.env("NAVKIT_REQUIRE_CORPUS", "1");
    }
    run(&mut test)?;
    run(cargo()
        .args(["doc", "--workspace", "--no-deps"])
        .env("RUSTDOCFLAGS", "-D warnings"))?;
    corpus(None)
}

fn navkit_binary() -> Result<PathBuf> {
    run(cargo().args(["build", "--release", "--quiet", "-p", "navkit"]))?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"));
    let bin = target.join("release").join("navkit");
    if bin.is_file() {
        Ok(bin)
    } else {
        Err(format!("{} was not built", bin.display()))
    }
}

/// The incoming folder: `NAVKIT_INCOMING`, else `incoming` beside the corpus root.
fn incoming_root() -> Option<PathBuf> {
    match std::env::var_os("NAVKIT_INCOMING") {
        Some(p) => Some(PathBuf::from(p)),
        None => corpus_root().and_then(|c| Some(c.parent()?.join("incoming"))),
    }
    .filter(|p| p.is_dir())
}

fn corpus(dir: Option<PathBuf>) -> Result {
    let incoming = if dir.is_none() { incoming_root() } else { None };
    let Some(dir) = dir.or_else(corpus_root) else {
        eprintln!(
            "xtask: note: no corpus found (set NAVKIT_CORPUS or put shared/ beside the checkout); nothing checked"
        );
        return Ok(());
    };
    let navkit = navkit_binary()?;
    for dir in std::iter::once(&dir).chain(incoming.as_ref()) {
        check_folder(&navkit, dir)?;
    }
    Ok(())
}

/// `navkit roundtrip` over one folder, and the refusal of every file under a `negative/` folder.
fn check_folder(navkit: &Path, dir: &Path) -> Result {
    println!("xtask: corpus {}", dir.display());
    // Every file that is not a negative sample must round-trip.
    run(Command::new(navkit)
        .arg("roundtrip")
        .arg(dir)
        .args(["--exclude", "negative"]))?;
    // Every negative sample must be refused with exit 1 and a message (never a panic).
    let mut negatives = Vec::new();
    collect_negatives(dir, false, &mut negatives);
    negatives.sort();
    for file in &negatives {
        let mut cmd = Command::new(navkit);
        cmd.arg("info");
        // A negative sample is refused by its folder's format; it may be another format's file.
        if let Some((_, format)) = NEGATIVE_FORMATS
            .iter()
            .find(|(folder, _)| file.starts_with(dir.join(folder)))
        {
            cmd.args(["--format", format]);
        }
        let out = cmd.arg(file).output().map_err(|e| e.to_string())?;
        let msg = String::from_utf8_lossy(&out.stderr);
        if out.status.code() != Some(1) || msg.trim().is_empty() {
            return Err(format!(
                "negative sample {} was not refused cleanly: {:?} {msg}",
                file.display(),
                out.status
            ));
        }
        println!("refused  {}: {}", file.display(), msg.trim());
    }
    println!("{} negative samples refused", negatives.len());
    Ok(())
}

/// Corpus folders whose negative samples are another format's files, with the format that must
/// refuse them (the Source 2 files in `source/negative/` are read by nav-source2).
const NEGATIVE_FORMATS: &[(&str, &str)] = &[("source", "nav-source")];

fn collect_negatives(dir: &Path, inside: bool, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let negative = inside || e.file_name() == "negative";
        if path.is_dir() {
            collect_negatives(&path, negative, out);
        } else if inside {
            out.push(path);
        }
    }
}

fn release(version: &str, dry_run: bool) -> Result {
    let parts: Vec<&str> = version.split('.').collect();
    if parts.len() != 3 || parts.iter().any(|p| p.parse::<u64>().is_err()) {
        return Err(format!("{version} is not a version such as 1.2.3"));
    }
    let changelog_path = root().join("CHANGELOG.md");
    let changelog = std::fs::read_to_string(&changelog_path).map_err(|e| e.to_string())?;
    let unreleased = changelog
        .find("## [Unreleased]")
        .ok_or("CHANGELOG.md has no `## [Unreleased]` section")?;
    let body_start = unreleased + "## [Unreleased]".len();
    let body_end = changelog[body_start..]
        .find("\n## [")
        .map_or(changelog.len(), |i| body_start + i);
    if !changelog[body_start..body_end]
        .lines()
        .any(|l| l.trim_start().starts_with("- "))
    {
        return Err(
            "no entries under `## [Unreleased]` in CHANGELOG.md: nothing to release".into(),
        );
    }
    let date = today();
    let new_changelog = format!(
        "{}## [Unreleased]\n\n## [{version}] - {date}{}",
        &changelog[..unreleased],
        &changelog[body_start..]
    );
    let manifest_path = root().join("Cargo.toml");
    let manifest = std::fs::read_to_string(&manifest_path).map_err(|e| e.to_string())?;
    let new_manifest = set_versions(&manifest, version)?;
    if dry_run {
        println!(
            "dry run: would set the workspace version to {version} and date the changelog section {date}"
        );
    } else {
        std::fs::write(&changelog_path, new_changelog).map_err(|e| e.to_string())?;
        std::fs::write(&manifest_path, new_manifest).map_err(|e| e.to_string())?;
    }
    // Packaging checks of every publishable crate, in dependency order (cargo orders them). A
    // fresh target directory each time: cargo unpacks the workspace's own packages from a local
    // registry under it, and reuses an unpacked copy of the same version from an earlier run
    // even when the sources have changed since.
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let check_dir = root().join("target").join(format!("release-check-{secs}"));
    let published = run(cargo()
        .args(["publish", "--workspace", "--dry-run", "--allow-dirty"])
        .env("CARGO_TARGET_DIR", &check_dir));
    let _ = std::fs::remove_dir_all(&check_dir);
    published?;
    // The Python package: the wheel a user would install, installed and used.
    python::release_check()?;
    if Command::new("cargo-semver-checks")
        .arg("--version")
        .output()
        .is_ok()
    {
        run(cargo().args(["semver-checks", "--workspace"]))?;
    } else {
        println!("cargo-semver-checks is not installed; API compatibility not checked");
    }
    Ok(())
}

/// The root manifest with `[workspace.package] version` and every path dependency's version set.
fn set_versions(manifest: &str, version: &str) -> Result<String> {
    let mut out = String::with_capacity(manifest.len());
    let mut section = String::new();
    let mut set_package = false;
    for line in manifest.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            section = trimmed.to_string();
        }
        if section == "[workspace.package]" && trimmed.starts_with("version") {
            out.push_str(&format!("version = \"{version}\"\n"));
            set_package = true;
        } else if section == "[workspace.dependencies]" && line.contains("path = \"crates/") {
            match line.find("version = \"") {
                Some(i) => {
                    let rest = &line[i + 11..];
                    let end = rest
                        .find('"')
                        .ok_or("malformed version in a workspace dependency")?;
                    out.push_str(&format!(
                        "{}version = \"{version}\"{}\n",
                        &line[..i],
                        &rest[end + 1..]
                    ));
                }
                None => out.push_str(&format!("{line}\n")),
            }
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    if set_package {
        Ok(out)
    } else {
        Err("no version in [workspace.package]".into())
    }
}

/// Today's date (UTC) as YYYY-MM-DD, from the system clock.
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_set_in_package_and_path_dependencies() {
        let m = "[workspace.package]\nversion = \"0.1.0\"\n\n[workspace.dependencies]\nnav-core = { path = \"crates/nav-core\", version = \"0.1.0\" }\nserde = \"1\"\n";
        let out = set_versions(m, "0.2.0").unwrap();
        assert!(out.contains("version = \"0.2.0\"\n\n"));
        assert!(out.contains("nav-core = { path = \"crates/nav-core\", version = \"0.2.0\" }"));
        assert!(out.contains("serde = \"1\""));
    }

    #[test]
    fn today_is_a_date() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
