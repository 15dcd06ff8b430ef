//! Reading what `navkit.open` is given, and writing files atomically.

use std::path::{Path, PathBuf};

/// Writes `bytes` to `path` atomically: into a temporary file in the same folder, flushed to
/// the disk, then renamed over `path`. A reader never sees half a file, and a failed write
/// leaves `path` as it was (and no temporary file behind).
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, "the path names no file")
    })?;
    let mut temp_name = std::ffi::OsString::from(".");
    temp_name.push(name);
    temp_name.push(format!(".navkit-{}.tmp", std::process::id()));
    let temp = folder.join(temp_name);
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        // The temporary file may not exist; the first error is the one worth reporting.
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// The file name a navmesh read from `path` is known by in exports (`de_dust2.nav`).
pub(crate) fn display_name(path: Option<&Path>) -> String {
    path.and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "navmesh".to_string())
}
