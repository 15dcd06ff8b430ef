//! Any bytes, as the format their signature names: whatever parses must come back from its JSON
//! byte for byte.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| navkit::fuzzing::json_bytes(data));
