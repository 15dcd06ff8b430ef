#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| nav_core::oracle::fuzz_bytes(&nvnm_skyrim::Plugin, data));
