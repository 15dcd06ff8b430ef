//! Any bytes: parsing must not panic, and whatever parses must write back byte for byte.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| nav_core::oracle::fuzz_bytes(&jmxvnvm::Nvm, data));
