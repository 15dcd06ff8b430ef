//! Any model: whatever the writer accepts must read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: nav_quake::NavFile| nav_core::oracle::fuzz_model(&nav_quake::Quake, &model));
