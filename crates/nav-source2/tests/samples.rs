//! The files in `samples/source2/` are what this crate's writer makes from
//! [`nav_source2::samples::room`], one per version 30 to 36. Run with `NAVKIT_BLESS=1` to rewrite
//! them after a deliberate change.

use std::path::PathBuf;

/// The sub-version of each sample: custom data in v33 (a version no real file shows it in),
/// v35 and v36.
pub fn sub_version(version: u32) -> u32 {
    u32::from(matches!(version, 33 | 35 | 36))
}

#[test]
fn samples_are_current_and_validate_clean() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../samples/source2");
    let mut checked = 0;
    for version in 30..=36 {
        let model = nav_source2::samples::room(version, sub_version(version));
        let findings = nav_source2::validate(&model);
        assert!(findings.is_empty(), "v{version}: {findings:?}");
        let bytes = nav_source2::write(&model).unwrap();
        let path = dir.join(format!("room_v{version}.nav"));
        nav_core::testing::golden_file(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let on_disk = bytes;
        let view = nav_source2::Source2View::parse(&on_disk).unwrap();
        assert_eq!(view.version(), version);
        assert_eq!(nav_source2::write_view(&view).unwrap(), on_disk);
        assert_eq!(nav_source2::Source2Mesh::from_view(&view), model);
        checked += 1;
    }
    assert_eq!(checked, 7, "versions 30 to 36");
}

#[test]
fn the_v36_null_blob_is_the_games_own() {
    // The three mid-file blobs of the v36 test map are this null document, byte for byte.
    let blob = nav_source2::samples::empty_kv3(nav_source2::kv3::GENERIC_FORMAT);
    let h = blob.header().unwrap();
    assert_eq!((h.version, h.header_len, h.body_len), (5, 120, 9));
    assert_eq!(&blob.bytes[120..], &[0, 0, 0, 0, 1, 0, 0xdd, 0xee, 0xff]);
    assert_eq!(blob.decode().unwrap().root, nav_source2::Kv3Value::Null);
    let Some(path) = nav_core::testing::real_file("source2", "vrf_point_template_test_v36.nav")
    else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let m = nav_source2::read(&bytes).unwrap();
    assert_eq!(m.movable_mesh_settings.as_ref(), Some(&blob));
    assert_eq!(m.game_data.as_ref(), Some(&blob));
}
