//! Any bytes as a JSON document for every format: reading must not panic, and whatever a format
//! accepts must round-trip as the bytes it writes.
#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| navkit::fuzzing::json_text(data));
