//! The files in `samples/quake/` are what this crate's writer makes from the models in
//! `tests/common`. Run with `NAVKIT_BLESS=1` to rewrite them after a deliberate change.

mod common;

use std::path::PathBuf;

#[test]
fn samples_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/quake");
    let bless = std::env::var_os("NAVKIT_BLESS").is_some_and(|v| v != "0");
    if bless {
        std::fs::create_dir_all(&dir).unwrap();
    }
    let mut checked = 0;
    for (magic, version) in common::all_versions() {
        let model = common::room(magic, version);
        assert!(
            nav_quake::validate(&model).is_empty(),
            "{magic:?} v{version}: {:?}",
            nav_quake::validate(&model)
        );
        let bytes = nav_quake::write(&model).unwrap();
        let path = dir.join(common::sample_name(magic, version));
        if bless {
            std::fs::write(&path, &bytes).unwrap();
        }
        let on_disk = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run with NAVKIT_BLESS=1)", path.display()));
        nav_core::assert_bytes_eq!(
            bytes,
            on_disk,
            "{} is stale (run with NAVKIT_BLESS=1)",
            path.display()
        );
        assert_eq!(nav_quake::read(&on_disk).unwrap(), model);
        checked += 1;
    }
    assert_eq!(checked, 12, "NAV2 12-18 and NAV3 2-6");
}
