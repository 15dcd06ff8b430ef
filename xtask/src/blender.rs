//! `cargo xtask blender` and the Blender part of `cargo xtask test`.
//!
//! The tests run in Blender itself: `bpy` 4.5 from PyPI is Blender as a Python module for
//! CPython 3.11. A virtualenv under `target/venv-bpy` gets it, pytest, and the navkit wheel
//! `cargo xtask test` built; pytest then drives the add-on in `blender/` (registered from the
//! repository) through its operators. `blender` builds the installable extension zip: the
//! add-on's files and the release abi3 wheel, with the manifest naming the wheel.

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

/// The add-on's pytest suite in Blender, against the debug wheel `cargo xtask test` built.
pub(super) fn tests(python: &Path, corpus: Option<&Path>) -> Result {
    let bin = navkit_bin()?;
    let wheel = find_wheel(&target_dir().join("wheels-dev")).or_else(|_| dev_wheel())?;
    timed("blender: the wheel into target/venv-bpy", || {
        install_wheel(python, &wheel)
    })?;
    timed("blender: pytest blender/tests (in bpy 4.5)", || {
        let mut pytest = Command::new(python);
        pytest
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "blender/tests",
            ])
            .current_dir(root())
            .env("NAVKIT_BIN", &bin);
        with_corpus(&mut pytest, corpus);
        run(&mut pytest)
    })
}

/// `cargo xtask blender`: `target/navkit-blender-<version>.zip`, installable in Blender 4.2 and
/// later (Edit > Preferences > Get Extensions > Install from Disk).
pub(super) fn package() -> Result {
    super::python::wheel()?;
    let wheel = find_wheel(&target_dir().join("wheels"))?;
    let version = env!("CARGO_PKG_VERSION");
    let zip = target_dir().join(format!("navkit-blender-{version}.zip"));
    let (_, python) = super::python::venv("venv-py");
    // Python's zipfile, from the virtualenv `wheel` made: xtask has no dependencies.
    let script = r#"
import pathlib, re, sys, zipfile
src, wheel, out = map(pathlib.Path, sys.argv[1:4])
manifest = (src / "blender_manifest.toml").read_text()
manifest = re.sub(r"(?m)^wheels = \[.*\]$", f'wheels = ["./wheels/{wheel.name}"]', manifest)
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("blender_manifest.toml", manifest)
    for f in sorted(src.glob("*.py")):
        z.write(f, f.name)
    z.write(wheel, f"wheels/{wheel.name}")
print(f"xtask: {out} ({out.stat().st_size} bytes) with {wheel.name}")
"#;
    run(Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(root().join("blender"))
        .arg(&wheel)
        .arg(&zip))
}
