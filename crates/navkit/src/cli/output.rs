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

/// Writes `bytes` to the file at `path` ([`write_atomically`]), or to standard output for `-`.
pub(super) fn write_out(path: &Path, bytes: &[u8]) -> CmdResult {
    if path == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .lock()
            .write_all(bytes)
            .map_err(|e| Failure::Input(format!("standard output: {e}")));
    }
    write_atomically(path, |out| {
        out.write_all(bytes).map_err(|e| input_error(path, e))
    })
}

/// Writes the file at `path` through `write`, so that the file ends up either as `write` made it
/// or exactly as it was: the bytes go to a temporary file in the same folder
/// (`.<name>.navkit-<pid>.tmp`), which is renamed over the target only once `write` succeeded and
/// the file was flushed and closed. Every command that writes a file goes through here, so
/// writing over the command's own input is safe, and a failed or refused write leaves the target
/// as it was and removes the temporary file (a process killed outright, by a signal, leaves it
/// behind under that recognisable name). `write` gets a buffered writer and reports its own
/// errors; errors here name `path`.
///
/// An existing target keeps its permissions; a target that is a symbolic link has the file it
/// points to replaced, not the link. (The new file is a new inode: other hard links to the old
/// one keep the old bytes, and the owner is whoever runs navkit.)
pub(super) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> CmdResult,
) -> CmdResult {
    let failed = |e: std::io::Error| input_error(path, e);
    let target = resolve_links(path).map_err(failed)?;
    let kept = match std::fs::metadata(&target) {
        Ok(meta) if meta.is_dir() => return Err(input_error(path, "is a folder")),
        Ok(meta) => Some(meta.permissions()),
        Err(_) => None,
    };
    let (mut temp, file) = Temporary::beside(&target).map_err(failed)?;
    if let Some(permissions) = kept {
        file.set_permissions(permissions).map_err(failed)?;
    }
    let mut buffered = std::io::BufWriter::with_capacity(1 << 20, file);
    if let Err(failure) = write(&mut buffered) {
        // Dropped without the flush a `BufWriter` does when dropped: the file is thrown away.
        drop(buffered.into_parts());
        return Err(failure);
    }
    let file = buffered.into_inner().map_err(|e| failed(e.into_error()))?;
    // Closed before the rename, so that nothing is written to the target after it appears.
    drop(file);
    temp.rename_to(&target).map_err(failed)
}

/// How many symbolic links [`resolve_links`] follows before it gives up, as Linux does.
const MAX_LINKS: usize = 40;

/// The path of the file `path` names, following symbolic links (a link's relative target is
/// taken from the link's folder). A link to a missing file resolves to the missing file's path,
/// so that writing through it creates the file it points to.
fn resolve_links(path: &Path) -> std::io::Result<std::path::PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let points_to = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(folder) => folder.join(points_to),
                    None => points_to,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// The temporary file of [`write_atomically`], removed when dropped unless it was renamed over
/// the target.
struct Temporary {
    /// Where the temporary file is.
    path: std::path::PathBuf,
    /// Whether it became the target (and so must not be removed).
    renamed: bool,
}

impl Temporary {
    /// Creates `.<name>.navkit-<pid>.tmp` in the folder of `target` (with `-1`, `-2`, ... before
    /// `.tmp` should that name be taken), never opening a file that exists.
    fn beside(target: &Path) -> std::io::Result<(Temporary, std::fs::File)> {
        let name = target.file_name().ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a file name")
        })?;
        let folder = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let pid = std::process::id();
        for attempt in 0..100u32 {
            let mut temp = std::ffi::OsString::from(".");
            temp.push(name);
            temp.push(format!(".navkit-{pid}"));
            if attempt > 0 {
                temp.push(format!("-{attempt}"));
            }
            temp.push(".tmp");
            let path = folder.join(temp);
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    let temp = Temporary {
                        path,
                        renamed: false,
                    };
                    return Ok((temp, file));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::new(
            std::io::ErrorKind::AlreadyExists,
            "no free name for a temporary file beside it",
        ))
    }

    /// Renames the (closed) temporary file over `target`.
    fn rename_to(&mut self, target: &Path) -> std::io::Result<()> {
        std::fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            // Best effort: the write has already failed, and that error is what gets reported.
            let _ = std::fs::remove_file(&self.path);
        }
    }
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
