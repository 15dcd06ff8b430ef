//! What every command shares: reading and writing files, finding the format, printing text
//! and JSON.

use std::path::Path;

use nav_core::Summary;
use serde_json::json;

use super::{CmdResult, Failure};
use crate::registry::{self, AnyFormat};

pub(super) fn out_raw(text: &str) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("navkit: standard output: {e}");
        }
        std::process::exit(1);
    }
}

pub(super) fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

pub(super) fn write_out(path: &Path, bytes: &[u8]) -> CmdResult {
    if path == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .lock()
            .write_all(bytes)
            .map_err(|e| Failure::Input(format!("standard output: {e}")));
    }
    overwrite(path, bytes).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

/// Writes `bytes` to the file at `path` with one write, creating it if needed. An existing file
/// is overwritten and then cut to the new length rather than opened truncated: ext4 flushes a
/// file that was truncated to nothing and rewritten when it is closed (`auto_da_alloc`), which
/// made rewriting a 4 MB file over an earlier output cost more than reading it. The result is
/// the same file: the new bytes, at the new length, in the same inode (a link stays a link).
fn overwrite(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    file.write_all(bytes)?;
    file.set_len(bytes.len() as u64)
}

/// The format of a file: forced, else by signature, else by file name ending.
pub(super) fn detect(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    bytes: &[u8],
) -> Option<&'static dyn AnyFormat> {
    forced
        .or_else(|| registry::sniff(bytes))
        .or_else(|| registry::by_extension(path))
}

pub(super) fn detect_or_fail(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    bytes: &[u8],
) -> Result<&'static dyn AnyFormat, Failure> {
    detect(forced, path, bytes).ok_or_else(|| {
        let head: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
        Failure::Input(format!(
            "{}: not a format this build recognises (first bytes: {}); name one with --format",
            path.display(),
            if head.is_empty() {
                "none, the file is empty".to_string()
            } else {
                head.join(" ")
            }
        ))
    })
}

pub(super) fn input_error(path: &Path, e: impl std::fmt::Display) -> Failure {
    Failure::Input(format!("{}: {e}", path.display()))
}

pub(super) fn summary_json(path: &Path, size: usize, s: &Summary) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = s
        .counts
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "file": path.display().to_string(),
        "format": s.format,
        "version": s.version,
        "variant": s.variant,
        "size": size,
        "counts": counts,
    })
}

pub(super) fn print_json(value: &serde_json::Value) {
    out!("{}", pretty_json(value));
}

/// Indented JSON that keeps short arrays of numbers and strings (a position, a flag list) on one
/// line, so that a model stays readable in a text editor ([`crate::json::LineFormatter`]).
pub fn pretty_json(value: &serde_json::Value) -> String {
    crate::json::to_string(value)
}

pub(super) fn ending(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}
