//! The oracles of the fuzz targets that go through the registry: `json_text`, `json_bytes` and
//! `build_mesh` in `fuzz/fuzz_targets/`.
//!
//! They live here, not in the fuzz crate, so that the regression replay
//! (`tests/fuzz_regressions.rs`) runs a kept input through exactly the code its target ran. Each
//! panics, naming the format, when its property fails: that is how libFuzzer records a finding.

use nav_core::geometry::TriangleMesh;
use nav_core::oracle::RoundtripError;
use nav_core::oracle::first_difference;

use crate::registry::{FORMATS, JsonError, sniff};

/// Any bytes, read as a JSON document by every format (`navkit from-json --format …`): reading
/// must not panic, and whatever a format accepts, the bytes it writes must pass its round trip
/// (`navkit roundtrip`).
///
/// A part inside the written file that does not parse (a plugin's `NVNM` subrecord holds
/// whatever bytes the JSON gave it) is not a failure: the file itself round-trips without it.
pub fn json_text(data: &[u8]) {
    for format in FORMATS {
        let Ok((bytes, _)) = format.read_json(data[..].into()) else {
            continue;
        };
        match format.roundtrip(&bytes) {
            Ok(_) => {}
            Err(f) if f.part.is_some() && matches!(f.error, RoundtripError::Parse(_)) => {}
            Err(f) => panic!(
                "{}: from-json accepts a document of {} bytes, but the {} bytes it writes do not round-trip{}: {}",
                format.name(),
                data.len(),
                bytes.len(),
                f.part.map(|p| format!(" (part {p})")).unwrap_or_default(),
                f.error
            ),
        }
    }
}

/// Any bytes, as the format their signature names (`navkit to-json`, then `navkit
/// from-json`): whatever parses must come back from its JSON byte for byte.
///
/// The one exception is data the format derives from other data and brings up to date on the
/// way in ([`nav_core::Format::refresh`], which says what it changed: a plugin's `NVMI` entries
/// after its navmeshes). Then the input was not consistent to begin with; what `from-json` wrote
/// must be consistent, so that a second trip through JSON changes nothing.
pub fn json_bytes(data: &[u8]) {
    let Some(format) = sniff(data) else {
        return;
    };
    let name = format.name();
    let mut json = Vec::new();
    match format.to_json(data, &mut json) {
        Ok(()) => {}
        Err(JsonError::Input(_)) => return,
        Err(JsonError::Output(e)) => {
            panic!(
                "{name}: input of {} bytes parses, but its JSON cannot be written: {e}",
                data.len()
            )
        }
    }
    let (bytes, refreshed) = format.read_json(json[..].into()).unwrap_or_else(|e| {
        panic!(
            "{name}: the JSON of an input of {} bytes does not read back: {e}",
            data.len()
        )
    });
    if refreshed.is_empty() {
        if let Some(offset) = first_difference(data, &bytes) {
            panic!(
                "{name}: input of {} bytes comes back from JSON as {} bytes, first different at offset {offset:#x}",
                data.len(),
                bytes.len()
            );
        }
        return;
    }
    let mut again = Vec::new();
    if let Err(e) = format.to_json(&bytes, &mut again) {
        let e = match e {
            JsonError::Input(e) => e.to_string(),
            JsonError::Output(e) => e.to_string(),
        };
        panic!("{name}: from-json refreshed ({refreshed:?}) and wrote bytes that do not read: {e}");
    }
    let (twice, refreshed_twice) = format
        .read_json(again[..].into())
        .unwrap_or_else(|e| panic!("{name}: refreshed bytes do not come back from JSON: {e}"));
    assert!(
        refreshed_twice.is_empty() && twice == bytes,
        "{name}: a second trip through JSON changes the refreshed file again ({refreshed:?}, then {refreshed_twice:?})"
    );
}

/// Any small triangle mesh, built by every format that has a builder (`navkit build`): the
/// builder must not panic, and whatever it builds must validate with no error, be accepted by
/// the writer and round-trip ([`nav_core::oracle::check_build`]).
pub fn build_mesh(mesh: &TriangleMesh) {
    for format in FORMATS {
        if let Err(e) = format.check_build(mesh) {
            panic!(
                "{}: a mesh of {} vertices and {} triangles builds, but {e}\n{mesh:?}",
                format.name(),
                mesh.vertices.len(),
                mesh.triangles.len()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_samples_pass_the_json_oracles() {
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../samples");
        let mut fed = 0;
        for folder in ["quake", "source", "source2", "mgsv", "skyrim", "silkroad"] {
            let Ok(entries) = std::fs::read_dir(samples.join(folder)) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(data) = std::fs::read(entry.path()) else {
                    continue;
                };
                json_bytes(&data);
                if let Some(format) = sniff(&data) {
                    let mut json = Vec::new();
                    if format.to_json(&data, &mut json).is_ok() {
                        json_text(&json);
                        fed += 1;
                    }
                }
            }
        }
        assert!(fed >= 20, "only {fed} samples went through JSON");
    }

    #[test]
    fn a_square_builds_in_every_format_with_a_builder() {
        // Counter-clockwise seen from above with Z up, and with Y up.
        let z_up = TriangleMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 1.0, 0.0],
                [0.0, 1.0, 0.0],
            ],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
        };
        let y_up = TriangleMesh {
            vertices: vec![
                [0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0],
                [1.0, 0.0, -1.0],
                [0.0, 0.0, -1.0],
            ],
            triangles: vec![[0, 1, 2], [0, 2, 3]],
        };
        let mut built = 0;
        for mesh in [&z_up, &y_up] {
            build_mesh(mesh);
            for format in FORMATS {
                if format.check_build(mesh).is_ok_and(|b| b) {
                    built += 1;
                }
            }
        }
        assert!(built >= 2, "only {built} builds checked");
    }
}
