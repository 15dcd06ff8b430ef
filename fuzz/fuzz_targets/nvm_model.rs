//! Any model: whatever the writer accepts must read back equal.
#![no_main]
libfuzzer_sys::fuzz_target!(|model: jmxvnvm::NavMeshTerrain| nav_core::oracle::fuzz_model(&jmxvnvm::Nvm, &model));
