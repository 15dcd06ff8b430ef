//! Every real file in the `silkroad` corpus folder (and the incoming folder, when it exists)
//! round-trips byte-exactly through every writer and its JSON form; negative files are refused.
//! No public `.nvm` file exists yet: the folder holds only a README, and the test says that it
//! checked 0 real files (see `common`), rather than passing as if it had read some. The
//! builder's samples are checked in `samples.rs`.

use jmxvnvm::{NavMeshTerrain, Nvm};
use nav_core::testing::{real_files, real_files_round_trip};

mod common;

#[test]
fn corpus_round_trips_byte_exactly_and_validates() {
    // With no real file (none is public yet), this checks that and says so.
    let real = common::real_nvm_files("corpus round trip");
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
    assert_eq!(tally.passed, real.len(), "every real file was read");
    assert_eq!(
        tally.passed + tally.refused,
        real_files("silkroad").len(),
        "every negative file was refused"
    );
}
