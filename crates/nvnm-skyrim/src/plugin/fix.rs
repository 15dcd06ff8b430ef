//! Making an edited plugin consistent again (`navkit fix`, [`nav_core::Format::fix`]).
//!
//! Each `NAVM` record's `NVNM` geometry is fixed with the `NVNM` rules
//! ([`crate::nvnm::fix::fix`]); a navmesh that changed is written back into its record (the
//! record recompressed at its zlib level, the enclosing groups resized), and its `NVMI` entries
//! in the `NAVI` record are brought up to date the way [`PluginFile::update_navmesh_info`] does
//! after any edit. Records whose navmesh needs no fix are not touched, so a plugin with nothing
//! to fix is written back byte for byte. An `NVNM` that does not read, a deleted navmesh and the
//! other checks across records are left to the user.

use std::collections::HashSet;

use nav_core::{Finding, Format, Severity};

use super::model::PluginFile;
use crate::nvnm::Nvnm;

/// Whether `finding` (of the plugin's validate) is an error [`fix`] mends: an `NVNM` error of a
/// kind [`crate::nvnm::fix::mends`] names, placed under `NAVM <FormID> NVNM`. Read from its
/// place, never its text.
pub fn mends(finding: &Finding) -> bool {
    finding.severity == Severity::Error
        && match finding.place.steps() {
            [navm, nvnm, inner @ ..] => {
                navm.field == "NAVM"
                    && navm.form_id().is_some()
                    && nvnm.field == "NVNM"
                    && crate::nvnm::fix::mended_at(inner)
            }
            _ => false,
        }
}

/// Fixes every navmesh of the plugin (see the module docs) and returns one line per change:
/// the `NVNM` lines prefixed with `NAVM <FormID> NVNM`, and one line per navmesh whose `NVMI`
/// entries were brought up to date. A plugin with nothing to fix is left exactly as it is.
pub fn fix(model: &mut PluginFile) -> Vec<String> {
    let navmeshes: Vec<(u32, Vec<u8>)> = model
        .navmeshes()
        .into_iter()
        .map(|(id, nvnm)| (id, nvnm.to_vec()))
        .collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for (form_id, nvnm) in navmeshes {
        // A FormID that repeats: the writer and `replace_nvnm` act on its first record.
        if !seen.insert(form_id) {
            continue;
        }
        let Ok(mut mesh) = Nvnm.read(&nvnm) else {
            continue;
        };
        let changes = crate::nvnm::fix::fix(&mut mesh);
        if changes.is_empty() {
            continue;
        }
        let Ok(bytes) = Nvnm.write(&mesh) else {
            continue;
        };
        if !matches!(model.set_nvnm(form_id, bytes), Ok(true)) {
            continue;
        }
        out.extend(
            changes
                .into_iter()
                .map(|c| format!("NAVM {form_id:08X} NVNM {c}")),
        );
        let entries = model.update_navmesh_info(form_id);
        if entries > 0 {
            out.push(format!(
                "NAVI NVMI {form_id:08X}: brought up to date with the fixed NVNM ({entries} {})",
                if entries == 1 { "entry" } else { "entries" }
            ));
        }
    }
    out
}
