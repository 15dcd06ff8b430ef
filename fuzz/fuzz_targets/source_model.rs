//! Any model (every flavour and version): whatever the writer accepts must read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: nav_source::SourceMesh| nav_core::oracle::fuzz_model(&nav_source::SourceNav, &model));
