//! Any plugin model (a bounded tree of mostly writable records): whatever the writer accepts must
//! read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: nvnm_skyrim::PluginFile| nav_core::oracle::fuzz_model(&nvnm_skyrim::Plugin, &model));
