//! Any model (every version 30 to 36): whatever the writer accepts must read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: nav_source2::Source2Mesh| nav_core::oracle::fuzz_model(&nav_source2::Source2Nav, &model));
