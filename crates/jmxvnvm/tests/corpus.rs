//! Every real file in the `silkroad` corpus folder (and the incoming folder, when it exists)
//! round-trips byte-exactly through every writer and its JSON form; negative files are refused.
//! No public `.nvm` file exists, so the folder may be absent (the loop prints a note); the
//! builder's samples are checked in `samples.rs`.

use jmxvnvm::{NavMeshTerrain, Nvm};
use nav_core::testing::real_files_round_trip;

#[test]
fn corpus_round_trips_byte_exactly_and_validates() {
    let tally = real_files_round_trip(&Nvm, "silkroad", |file, model| {
        if !file.bytes.starts_with(jmxvnvm::SIGNATURE) {
            return Err("read, but does not start with the signature".into());
        }
        let json = serde_json::to_string(model).map_err(|e| e.to_string())?;
        let back: NavMeshTerrain = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        match jmxvnvm::write(&back) {
            Ok(bytes) if bytes == file.bytes => Ok(()),
            _ => Err("the JSON round trip changed the file".into()),
        }
    });
    // Game files are consistent: validate finds no error in any of them.
    assert!(tally.with_errors.is_empty(), "{:#?}", tally.with_errors);
}
