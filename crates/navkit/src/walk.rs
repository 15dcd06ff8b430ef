//! Collecting the files a batch command works on, and showing progress on a terminal.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Every file below the given paths: files as given, directories recursed in sorted order.
/// Path components named in `exclude` (folder or file names) are left out.
pub fn files(paths: &[PathBuf], exclude: &[String]) -> Result<Vec<(PathBuf, bool)>, String> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            walk(p, exclude, &mut out);
        } else {
            out.push((p.clone(), true));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, exclude: &[String], out: &mut Vec<(PathBuf, bool)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') || exclude.contains(&name) {
            continue;
        }
        if path.is_dir() {
            walk(&path, exclude, out);
        } else {
            out.push((path, false));
        }
    }
}

/// A one-line progress display on stderr, shown only when stderr is a terminal.
pub struct Progress {
    total: usize,
    done: usize,
    shown: bool,
}

impl Progress {
    /// Progress over `total` items; silent when stderr is not a terminal or the batch is small.
    pub fn new(total: usize) -> Self {
        Progress {
            total,
            done: 0,
            shown: total >= 8 && std::io::stderr().is_terminal(),
        }
    }

    /// Marks one more item done, naming it.
    pub fn step(&mut self, name: &str) {
        self.done += 1;
        if self.shown {
            let width = 30;
            let filled = width * self.done / self.total.max(1);
            let mut name: String = name.chars().rev().take(40).collect();
            name = name.chars().rev().collect();
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "\r\x1b[2K[{}{}] {}/{} {name}",
                "#".repeat(filled),
                " ".repeat(width - filled),
                self.done,
                self.total
            );
            let _ = err.flush();
        }
    }

    /// Clears the line before ordinary output is printed.
    pub fn clear(&self) {
        if self.shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}
