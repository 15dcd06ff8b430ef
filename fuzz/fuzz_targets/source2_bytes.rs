//! Any bytes: parsing may fail but must not panic, and whatever parses must round-trip.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| nav_core::oracle::fuzz_bytes(&nav_source2::Source2Nav, data));
