//! `cargo xtask blender` and the Blender part of `cargo xtask test`.
//!
//! The tests run in Blender itself: `bpy` 4.5 from PyPI is Blender as a Python module for
//! CPython 3.11. A virtualenv under `target/venv-bpy` gets it, pytest, and the navkit wheel
//! `cargo xtask test` built; pytest then drives the add-on in `blender/` (registered from the
//! repository) through its operators, and (`NAVKIT_BLENDER_ZIP`) installs the extension zip made
//! from the same debug wheel in a throwaway Blender profile and checks it. `blender` builds the
//! installable extension zip (the add-on's files and the release abi3 wheel, or with `--debug`
//! the debug wheel, the manifest naming it) and then checks it the same way.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::python::{
    dev_wheel, find_wheel, install_wheel, navkit_bin, target_dir, timed, with_corpus,
};
use super::{Result, root, run};

/// What the Blender virtualenv gets, pinned to Blender 4.5 LTS.
const REQUIREMENTS: &[&str] = &["bpy==4.5.*", "pytest==8.4.2"];

/// The interpreter `bpy` 4.5 needs: CPython 3.11 (`BLENDER_PYTHON` overrides).
fn base_python() -> String {
    std::env::var("BLENDER_PYTHON").unwrap_or_else(|_| "python3.11".into())
}

/// Makes `target/venv-bpy` if it is missing and installs Blender and pytest into it.
pub(super) fn prepare() -> Result<PathBuf> {
    let dir = target_dir().join("venv-bpy");
    let python = dir.join("bin").join("python");
    timed(
        "blender: virtualenv target/venv-bpy with bpy 4.5 and pytest",
        || {
            if !python.is_file() {
                run(Command::new(base_python()).arg("-m").arg("venv").arg(&dir))?;
            }
            run(Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(REQUIREMENTS))
        },
    )?;
    Ok(python)
}

/// The add-on's pytest suite in Blender, against the debug wheel `cargo xtask test` built, with
/// the extension zip made from that wheel (no second build) for `test_zip.py` to install.
pub(super) fn tests(python: &Path, corpus: Option<&Path>) -> Result {
    let bin = navkit_bin()?;
    let wheel = find_wheel(&target_dir().join("wheels-dev")).or_else(|_| dev_wheel())?;
    timed("blender: the wheel into target/venv-bpy", || {
        install_wheel(python, &wheel)
    })?;
    let zip = timed_zip(&wheel, true)?;
    timed("blender: pytest blender/tests (in bpy 4.5)", || {
        let mut pytest = pytest(python, "blender/tests");
        pytest.env("NAVKIT_BIN", &bin).env(ZIP_VAR, &zip);
        with_corpus(&mut pytest, corpus);
        run(&mut pytest)
    })
}

/// The variable that names the extension zip `blender/tests/test_zip.py` installs and checks.
const ZIP_VAR: &str = "NAVKIT_BLENDER_ZIP";

/// pytest of `what` in the Blender virtualenv, from the repository's root.
fn pytest(python: &Path, what: &str) -> Command {
    let mut pytest = Command::new(python);
    pytest
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider", what])
        .current_dir(root());
    pytest
}

/// `cargo xtask blender [--debug]`.
pub(super) struct Package {
    /// Package the debug wheel (quick to build, for tests) instead of the release wheel.
    debug: bool,
}

impl Package {
    /// Reads the options after `blender`.
    pub(super) fn from_args(args: &[String]) -> Result<Package> {
        let mut debug = false;
        for a in args {
            match a.as_str() {
                "--debug" => debug = true,
                other => return Err(format!("blender takes --debug, not {other:?}")),
            }
        }
        Ok(Package { debug })
    }

    /// `target/navkit-blender-<version>.zip` (`-debug.zip` with the debug wheel), installable in
    /// Blender 4.2 and later (Edit > Preferences > Get Extensions > Install from Disk), then
    /// installed and enabled in a throwaway profile of the `bpy` in `target/venv-bpy`: the
    /// operators must exist and import and export a sample.
    pub(super) fn run(&self) -> Result {
        let wheel = if self.debug {
            dev_wheel()?
        } else {
            super::python::wheel()?;
            find_wheel(&target_dir().join("wheels"))?
        };
        let zip = timed_zip(&wheel, self.debug)?;
        let python = prepare()?;
        timed(
            "blender: install and check the zip (blender/tests/test_zip.py)",
            || run(pytest(&python, "blender/tests/test_zip.py").env(ZIP_VAR, &zip)),
        )?;
        eprintln!("xtask: {} checked", zip.display());
        Ok(())
    }
}

/// [`zip`], timed.
fn timed_zip(wheel: &Path, debug: bool) -> Result<PathBuf> {
    let mut made = None;
    timed("blender: the extension zip", || {
        made = Some(zip(wheel, debug)?);
        Ok(())
    })?;
    made.ok_or_else(|| "the zip was not made".to_string())
}

/// Zips the add-on in `blender/` with `wheel` into `target/navkit-blender-<version>[-debug].zip`:
/// `blender_manifest.toml` at the root naming the wheel (and the platform its tag is for), the
/// add-on's `.py` files, the wheel under `wheels/`. Returns the zip's path.
fn zip(wheel: &Path, debug: bool) -> Result<PathBuf> {
    let version = env!("CARGO_PKG_VERSION");
    let suffix = if debug { "-debug" } else { "" };
    let zip = target_dir().join(format!("navkit-blender-{version}{suffix}.zip"));
    let (_, python) = super::python::venv("venv-py");
    // Python's zipfile, from the virtualenv `wheel` made: xtask has no dependencies.
    let script = r#"
import pathlib, re, sys, zipfile
src, wheel, out = map(pathlib.Path, sys.argv[1:4])
manifest = (src / "blender_manifest.toml").read_text()
manifest, n = re.subn(r"(?m)^wheels = \[.*\]$", f'wheels = ["./wheels/{wheel.name}"]', manifest)
if n != 1:
    sys.exit("blender_manifest.toml has no one-line `wheels = [...]`")
# Blender's platform names for the wheel's platform tag (an abi3 wheel is still per platform).
tag = wheel.stem.split("-")[-1]
for pattern, name in [("linux.*x86_64", "linux-x64"), ("linux.*aarch64", "linux-arm64"),
                      ("win_amd64", "windows-x64"), ("win_arm64", "windows-arm64"),
                      ("macosx.*arm64", "macos-arm64"), ("macosx.*x86_64", "macos-x64")]:
    if re.search(pattern, tag):
        manifest = manifest.replace("\n[permissions]", f'platforms = ["{name}"]\n\n[permissions]', 1)
        break
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("blender_manifest.toml", manifest)
    for f in sorted(src.glob("*.py")):
        if f.name != "bench.py":  # the import-time bench, run from the repository
            z.write(f, f.name)
    z.write(wheel, f"wheels/{wheel.name}")
print(f"xtask: {out} ({out.stat().st_size} bytes) with {wheel.name}")
"#;
    run(Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(root().join("blender"))
        .arg(wheel)
        .arg(&zip))?;
    Ok(zip)
}

/// The bench's Blender row (`cargo xtask bench`): `blender/bench.py`, the add-on's import of the
/// 4 MB `tfnm_vsh_nucleus.nav` beside Blender's glTF importer on navkit's export of it, run in
/// `target/venv-bpy` with the release wheel installed (`cargo xtask test` puts the debug wheel
/// back before its Blender tests). Without CPython 3.11 and `bpy` the row says it was skipped.
pub(crate) fn bench_rows(corpus: &Path) -> Result<Vec<crate::criterion::Row>> {
    let python = match prepare() {
        Ok(python) => python,
        Err(e) => {
            eprintln!("xtask: note: the Blender bench row is skipped: {e}");
            return Ok(vec![crate::criterion::Row {
                what: "Blender import (blender/bench.py)".into(),
                figure: "skipped: CPython 3.11 or bpy 4.5 could not be had".into(),
                peer: String::new(),
                ratio: String::new(),
            }]);
        }
    };
    super::python::wheel()?;
    let wheel = find_wheel(&target_dir().join("wheels"))?;
    timed("blender: the release wheel into target/venv-bpy", || {
        install_wheel(&python, &wheel)
    })?;
    let out = target_dir().join("bench-blender.md");
    let _ = std::fs::remove_file(&out);
    timed(
        "blender: blender/bench.py (add-on import beside glTF)",
        || {
            let mut c = Command::new(&python);
            // Its notes and its copy of the table go to standard error, as bench.py's do.
            c.stdout(std::io::stderr());
            c.arg(root().join("blender").join("bench.py"))
                .arg("--corpus")
                .arg(corpus)
                .arg("--out")
                .arg(&out)
                .current_dir(root());
            run(&mut c)
        },
    )?;
    let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let rows = crate::peers::parse(&text);
    if rows.is_empty() {
        return Err(format!(
            "blender/bench.py wrote no rows to {}",
            out.display()
        ));
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_takes_debug_only() {
        assert!(!Package::from_args(&[]).unwrap().debug);
        assert!(Package::from_args(&["--debug".into()]).unwrap().debug);
        assert!(Package::from_args(&["--release".into()]).is_err());
    }
}
