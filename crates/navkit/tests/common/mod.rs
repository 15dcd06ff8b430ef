//! What the tests of the `navkit` binary share: running it from the workspace root, its output
//! as text, and temporary files of their own.
// Every test file uses some of these, none uses all.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The workspace root: the binary runs there, so `samples/...` paths work.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs the binary with `args` in the workspace root and waits for it.
pub fn navkit(args: &[impl AsRef<OsStr>]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_navkit"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("the navkit binary runs")
}

/// What the run printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What the run printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path named `name` in this test binary's own temporary folder (one per process, so test
/// binaries running at once do not share files).
pub fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("navkit-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir.join(name)
}

/// A fresh, empty folder named `name` in this test binary's temporary folder.
pub fn fresh_dir(name: &str) -> PathBuf {
    let dir = temp(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// A path as `&str`, for an argument list.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// The places of the error findings of `format.validate(bytes)`.
pub fn error_places(format: &dyn navkit::registry::AnyFormat, bytes: &[u8]) -> Vec<String> {
    format
        .validate(bytes)
        .unwrap()
        .iter()
        .filter(|f| f.severity == nav_core::Severity::Error)
        .map(|f| f.place.to_string())
        .collect()
}

/// `"model.a[3].b"` (a path as the JSON tools print it) as a JSON pointer: `/model/a/3/b`.
pub fn pointer(path: &str) -> String {
    path.split('.')
        .map(|part| {
            let mut pieces = part.split('[');
            let mut out = format!("/{}", pieces.next().unwrap_or_default());
            for p in pieces {
                out.push('/');
                out.push_str(p.trim_end_matches(']'));
            }
            out
        })
        .collect()
}
