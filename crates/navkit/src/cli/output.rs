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

/// A whole input file in memory, for a command that only reads its bytes ([`read_input`]).
pub(super) enum Input {
    /// Read with [`std::fs::read`].
    Heap(Vec<u8>),
    /// A large file read into anonymous memory that uses huge pages; the file is the first
    /// `len` bytes.
    #[cfg(target_os = "linux")]
    Pages(memmap2::MmapMut, usize),
}

impl std::ops::Deref for Input {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Input::Heap(bytes) => bytes,
            #[cfg(target_os = "linux")]
            Input::Pages(map, len) => map.get(..*len).unwrap_or(&[]),
        }
    }
}

/// The size of a huge page, and the smallest file [`read_input`] reads into them.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 2 << 20;

/// Reads a whole file, like [`read`]. On Linux a file of 2 MiB or more goes into anonymous
/// memory rounded up to whole 2 MiB pages and advised to use transparent huge pages: a page
/// fault per 2 MiB instead of one per 4 KiB, which was half of `navkit info` on a 4 MB file.
/// Anything unusual (no mapping, a file that changes size while it is read, a read error)
/// falls back to [`read`], which reports errors as ever.
pub(super) fn read_input(path: &Path) -> Result<Input, Failure> {
    #[cfg(target_os = "linux")]
    if let Some(input) = read_huge(path) {
        return Ok(input);
    }
    read(path).map(Input::Heap)
}

#[cfg(target_os = "linux")]
fn read_huge(path: &Path) -> Option<Input> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let len = usize::try_from(file.metadata().ok()?.len()).ok()?;
    if len < HUGE_PAGE {
        return None;
    }
    let mut map = memmap2::MmapMut::map_anon(len.checked_next_multiple_of(HUGE_PAGE)?).ok()?;
    map.advise(memmap2::Advice::HugePage).ok()?;
    file.read_exact(map.get_mut(..len)?).ok()?;
    // A file that grew since its length was taken is left to the plain read.
    if file.read(&mut [0u8; 1]).ok()? != 0 {
        return None;
    }
    Some(Input::Pages(map, len))
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
