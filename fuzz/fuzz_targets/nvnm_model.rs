//! Any model: whatever the writer accepts must read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: nvnm_skyrim::NavmeshGeometry| nav_core::oracle::fuzz_model(&nvnm_skyrim::Nvnm, &model));
