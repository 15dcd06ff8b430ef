//! Any model: whatever the writer accepts must read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: nav2_mgsv::Nav2File| nav_core::oracle::fuzz_model(&nav2_mgsv::Nav2, &model));
