//! The files in `samples/quake/` are what this crate's writer makes from the models in
//! `tests/common`. Run with `NAVKIT_BLESS=1` to rewrite them after a deliberate change.

mod common;

use std::path::PathBuf;

#[test]
fn samples_are_current() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/quake");
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
        nav_core::testing::golden_file(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(nav_quake::read(&bytes).unwrap(), model);
        checked += 1;
    }
    assert_eq!(checked, 12, "NAV2 12-18 and NAV3 2-6");
}
