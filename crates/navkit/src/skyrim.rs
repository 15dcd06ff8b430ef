//! Skyrim plugin commands: `navkit extract` (every navmesh of a plugin out as `.nvnm` files) and
//! `navkit replace` (one navmesh back in), over the `nvnm-skyrim` crate.

use std::path::{Path, PathBuf};

use nav_core::Format;
use nvnm_skyrim::{Nvnm, Plugin};

fn read(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes every `NVNM` of `plugin` to `out_dir` as `<plugin>_<FormID>.nvnm` (the plugin's file
/// stem with spaces turned into `_`, the FormID as 8 uppercase hex digits), creating `out_dir`
/// if needed. Returns the files written, in plugin order.
pub fn extract(plugin: &Path, out_dir: &Path) -> Result<Vec<PathBuf>, String> {
    let bytes = read(plugin)?;
    let view = Plugin
        .parse(&bytes)
        .map_err(|e| format!("{}: {e}", plugin.display()))?;
    let stem = plugin
        .file_stem()
        .map(|s| s.to_string_lossy().replace(' ', "_"))
        .unwrap_or_else(|| "plugin".to_string());
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut written = Vec::new();
    for (form_id, nvnm) in view.navmeshes() {
        let path = out_dir.join(format!("{stem}_{form_id:08X}.nvnm"));
        std::fs::write(&path, nvnm).map_err(|e| format!("{}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// Puts the navmesh in `nvnm` into the `NAVM` record `form_id` of `plugin` and writes the
/// result to `out`: that record and every group around it are resized, the rest of the plugin
/// is unchanged. The new navmesh must parse as an NVNM blob.
pub fn replace(plugin: &Path, form_id: u32, nvnm: &Path, out: &Path) -> Result<(), String> {
    let bytes = read(plugin)?;
    let blob = read(nvnm)?;
    Nvnm.parse(&blob)
        .map_err(|e| format!("{}: {e}", nvnm.display()))?;
    let new = Plugin::replace_nvnm(&bytes, form_id, &blob)
        .map_err(|e| format!("{}: {e}", plugin.display()))?;
    std::fs::write(out, new).map_err(|e| format!("{}: {e}", out.display()))
}
