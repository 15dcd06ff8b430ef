//! Every real file in the Quake corpus (and the incoming folder, when it exists) round-trips
//! byte-exactly and validates without error; the negative sample is refused.

use nav_core::testing::{corpus_dir, real_files_round_trip};
use nav_quake::{NavFile, Quake};

#[test]
fn corpus_round_trips_byte_exactly_and_validates() {
    let tally = real_files_round_trip(&Quake, "quake", |file, model| {
        // The JSON form is a full copy of the model, too.
        let json = serde_json::to_string(model).map_err(|e| e.to_string())?;
        let back: NavFile = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        match nav_quake::write(&back) {
            Ok(bytes) if bytes == file.bytes => Ok(()),
            _ => Err("the JSON round trip changed the file".into()),
        }
    });
    assert!(tally.with_errors.is_empty(), "{:#?}", tally.with_errors);
    if corpus_dir("quake").is_some() {
        assert!(tally.passed > 0, "no corpus file was checked");
        assert!(tally.refused > 0, "the negative sample was not found");
    }
}

#[test]
fn the_negative_sample_is_refused_for_its_magic() {
    let Some(dir) = corpus_dir("quake") else {
        return;
    };
    let negatives = nav_core::testing::corpus_files(&dir.join("negative"));
    assert!(!negatives.is_empty(), "the negative sample was not found");
    for path in negatives {
        let err = nav_quake::read(&std::fs::read(&path).unwrap()).unwrap_err();
        assert!(
            err.to_string().starts_with("nav-quake: header: magic"),
            "{}: {err}",
            path.display()
        );
    }
}

#[test]
fn measured_facts_hold() {
    // Facts the format notes measured on the real files: v18 links carry 0xFF in the flags byte,
    // earlier NAV2 0x00; NAV3 v2 stores 0xFF there too; one v17 file has heuristic 0.7.
    let Some(dir) = corpus_dir("quake") else {
        return;
    };
    let read = |p: &str| nav_quake::read(&std::fs::read(dir.join(p)).unwrap()).unwrap();
    let v18 = read("nav2-original/ry_rogue_ctf1_v18.nav");
    assert!(v18.links.iter().all(|l| l.flags == 0xFF));
    let v15 = read("nav2-original/ry_dm7_v15.nav");
    assert!(v15.links.iter().all(|l| l.flags == 0) && v15.heuristic.is_none());
    let v17 = read("nav2-original/ry_hipnotic_hip3m2_v17.nav");
    assert_eq!(v17.heuristic.map(|h| h.to_bits()), Some(0x3F33_3333));
    let q2 = read("nav3-q2/horde_q2dm1.nav");
    assert_eq!(q2.links[363].flags, 0x1B);
    assert_eq!(q2.links[363].target, 138);
    let base64 = read("nav3-q2/horde998_base64.nav");
    let neg_zero = base64
        .traversals
        .iter()
        .flat_map(|t| [t.funnel, t.start, t.end, t.ladder_plane.unwrap_or_default()])
        .flatten()
        .filter(|f| f.to_bits() == 0x8000_0000)
        .count();
    assert_eq!(
        neg_zero, 6,
        "horde998_base64 holds six -0.0 floats in its traversals"
    );
}
