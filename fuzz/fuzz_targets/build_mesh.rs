//! Any small triangle mesh, built by every format with a builder: no panic, and what is built
//! validates without an error and round-trips.
#![no_main]
libfuzzer_sys::fuzz_target!(|mesh: nav_core::geometry::TriangleMesh| navkit::fuzzing::build_mesh(&mesh));
