//! `cargo xtask test` and `cargo xtask wheel`: the Python package built and tested beside the
//! Rust crates.
//!
//! `test` runs every Rust test, then makes (once) a virtualenv under `target/venv-py` with
//! pinned maturin, numpy and pytest, builds the `navkit` Python package's debug wheel once into
//! `target/wheels-dev/` (installed here and beside Blender) and runs its
//! pytest suite, which compares against the `navkit` binary that the Rust tests built; then the
//! Blender tests. `wheel` builds the release abi3 wheel into `target/wheels/`. Each step prints
//! what it runs and how long it took.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use super::{Result, cargo, root, run};

/// What the test virtualenv gets, pinned (the bench's adds its peers: [`crate::peers`]). numpy 2.4 needs Python 3.11; older interpreters get the
/// last numpy that supports them. pytest 8.4 is the last release for Python 3.9.
pub(crate) const REQUIREMENTS: &[&str] = &[
    "maturin==1.16.0",
    "numpy==2.4.6; python_version >= '3.11'",
    "numpy==2.0.2; python_version < '3.11'",
    "pytest==8.4.2",
];

/// The Python package's crate.
pub(crate) const MANIFEST: &str = "crates/navkit-python/Cargo.toml";

/// Cargo's target folder (`CARGO_TARGET_DIR`, else the workspace's `target/`).
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
}

/// Runs one step and says how long it took.
pub(crate) fn timed(what: &str, step: impl FnOnce() -> Result) -> Result {
    eprintln!("xtask: == {what}");
    let start = Instant::now();
    let result = step();
    let took = start.elapsed().as_secs_f64();
    match &result {
        Ok(()) => eprintln!("xtask: == {what}: done in {took:.1} s"),
        Err(_) => eprintln!("xtask: == {what}: FAILED after {took:.1} s"),
    }
    result
}

/// The folder of the virtualenv `target/NAME`, and the path of its interpreter.
pub(crate) fn venv(name: &str) -> (PathBuf, PathBuf) {
    let dir = target_dir().join(name);
    let python = if cfg!(windows) {
        dir.join("Scripts").join("python.exe")
    } else {
        dir.join("bin").join("python")
    };
    (dir, python)
}

/// Makes the virtualenv `target/NAME` if it is missing, and installs `requirements` into it.
pub(crate) fn prepare_venv(name: &str, requirements: &[&str]) -> Result<(PathBuf, PathBuf)> {
    let (dir, python) = venv(name);
    if !python.is_file() {
        let base = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(base).arg("-m").arg("venv").arg(&dir))?;
    }
    pip_install(&python, requirements)?;
    Ok((dir, python))
}

/// `pip install` of `requirements` with the virtualenv's interpreter `python`.
pub(crate) fn pip_install(python: &Path, requirements: &[&str]) -> Result {
    run(Command::new(python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(requirements))
}

/// `maturin` run from the virtualenv, as if it were activated.
pub(crate) fn maturin(dir: &Path, python: &Path) -> Command {
    let bin = python.parent().unwrap_or(dir);
    let mut c = Command::new(bin.join("maturin"));
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![bin.to_path_buf()];
    paths.extend(std::env::split_paths(&path));
    if let Ok(joined) = std::env::join_paths(paths) {
        c.env("PATH", joined);
    }
    c.env("VIRTUAL_ENV", dir).current_dir(root());
    c
}

/// The navkit binary `cargo test` built, which the Python and Blender tests compare against.
pub(super) fn navkit_bin() -> Result<PathBuf> {
    let bin = target_dir().join("debug").join(if cfg!(windows) {
        "navkit.exe"
    } else {
        "navkit"
    });
    if !bin.is_file() {
        timed("rust: the navkit binary", || {
            run(cargo().args(["build", "--quiet", "-p", "navkit"]))
        })?;
    }
    Ok(bin)
}

/// Builds the package's debug wheel (once for both virtualenvs) into `target/wheels-dev/`, and
/// its path.
pub(super) fn dev_wheel() -> Result<PathBuf> {
    let (dir, python) = prepare_or_fail()?;
    let out = target_dir().join("wheels-dev");
    let _ = std::fs::remove_dir_all(&out);
    timed("python: maturin build (debug wheel)", || {
        run(maturin(&dir, &python)
            .args(["build", "--quiet", "--manifest-path", MANIFEST, "--out"])
            .arg(&out))
    })?;
    find_wheel(&out)
}

/// The one `.whl` in `dir`.
pub(super) fn find_wheel(dir: &Path) -> Result<PathBuf> {
    let wheels: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "whl"))
        .collect();
    match wheels.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(format!(
            "expected one wheel in {}, found {}",
            dir.display(),
            wheels.len()
        )),
    }
}

/// `pip install` of `wheel` into the virtualenv of `python`, replacing an earlier build.
pub(super) fn install_wheel(python: &Path, wheel: &Path) -> Result {
    run(Command::new(python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .args(["--force-reinstall", "--no-deps"])
        .arg(wheel))
}

/// Builds the package into the virtualenv and runs pytest.
pub(super) fn python_tests(corpus: Option<&Path>) -> Result {
    let bin = navkit_bin()?;
    let wheel = dev_wheel()?;
    let (_, python) = venv("venv-py");
    timed("python: the wheel into target/venv-py", || {
        install_wheel(&python, &wheel)
    })?;
    timed("python: pytest crates/navkit-python/tests", || {
        let mut pytest = Command::new(&python);
        pytest
            .args(["-m", "pytest", "-q", "crates/navkit-python/tests"])
            .current_dir(root())
            .env("NAVKIT_BIN", &bin);
        with_corpus(&mut pytest, corpus);
        run(&mut pytest)
    })
}

/// Points a test run at the corpus, and requires it, when there is one.
pub(super) fn with_corpus(cmd: &mut Command, corpus: Option<&Path>) {
    if let Some(c) = corpus {
        let c = c.canonicalize().unwrap_or_else(|_| c.to_path_buf());
        cmd.env("NAVKIT_CORPUS", c)
            .env("NAVKIT_REQUIRE_CORPUS", "1");
    }
}

pub(super) fn prepare_or_fail() -> Result<(PathBuf, PathBuf)> {
    let mut made = None;
    timed(
        "python: virtualenv target/venv-py with maturin, numpy, pytest",
        || {
            made = Some(prepare_venv("venv-py", REQUIREMENTS)?);
            Ok(())
        },
    )?;
    made.ok_or_else(|| "the virtualenv was not made".to_string())
}

/// `cargo xtask wheel`: the release abi3 wheel, into `target/wheels/`.
pub(super) fn wheel() -> Result {
    let (dir, python) = prepare_or_fail()?;
    let out = target_dir().join("wheels");
    timed("python: maturin build --release (abi3 wheel)", || {
        run(maturin(&dir, &python)
            .args(["build", "--release", "--manifest-path", MANIFEST, "--out"])
            .arg(&out))
    })?;
    eprintln!("xtask: wheel in {}", out.display());
    Ok(())
}

/// `cargo xtask release`'s check of the Python package: the release wheel built into
/// `target/wheels/`, installed with its dependencies into a fresh virtualenv, imported, and
/// used on a sample (opened, written back byte for byte, asked for its geometry and a cell).
pub(super) fn release_check() -> Result {
    wheel()?;
    let wheel = find_wheel(&target_dir().join("wheels"))?;
    let (dir, python) = venv("venv-release-check");
    let _ = std::fs::remove_dir_all(&dir);
    timed("release: the wheel in a fresh virtualenv", || {
        let base = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
        run(Command::new(base).arg("-m").arg("venv").arg(&dir))?;
        pip_install(&python, &[&wheel.to_string_lossy()])?;
        let sample = root().join("samples").join("source").join("cs_v16_1.nav");
        let script = "import sys, navkit\n\
            data = open(sys.argv[1], 'rb').read()\n\
            mesh = navkit.open(data)\n\
            assert mesh.to_bytes() == data, 'the sample does not write back byte for byte'\n\
            assert mesh.vertices.shape[1] == 3 and len(mesh.cell_ids) > 0\n\
            assert mesh.locate(tuple(float(c) for c in mesh.cells['centre'][0])) is not None\n\
            print('release: navkit', navkit.__version__, 'from', navkit.__file__)\n";
        run(Command::new(&python).arg("-c").arg(script).arg(sample))
    })?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
