//! Every real file in the Quake corpus (and the incoming folder, when it exists) round-trips
//! byte-exactly and validates without error; the negative sample is refused.

use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{corpus_dir, is_negative, real_files};
use nav_quake::{NavFile, Quake};

#[test]
fn corpus_round_trips_byte_exactly() {
    let files = real_files("quake");
    if files.is_empty() {
        return;
    }
    let (mut passed, mut refused) = (0, 0);
    let mut failures = Vec::new();
    for (dir, path) in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.strip_prefix(&dir).unwrap().display().to_string();
        if is_negative(&path) {
            let err = nav_quake::read(&bytes).expect_err(&name);
            assert!(
                err.to_string().starts_with("nav-quake: header: magic"),
                "{name}: {err}"
            );
            refused += 1;
            continue;
        }
        match roundtrip_bytes(&Quake, &bytes) {
            Ok(model) => {
                // The JSON form is a full copy of the model, too.
                let json = serde_json::to_string(&model).unwrap();
                let back: NavFile = serde_json::from_str(&json).unwrap();
                assert_eq!(
                    nav_quake::write(&back).unwrap(),
                    bytes,
                    "{name}: JSON round trip"
                );
                passed += 1;
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "nav-quake corpus: {passed} files round-tripped, {refused} negative files refused, {} failed",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(passed > 0, "no corpus file was checked");
    assert!(refused > 0, "the negative sample was not found");
}

#[test]
fn corpus_files_validate_without_errors() {
    let mut checked = 0;
    for (_, path) in real_files("quake")
        .into_iter()
        .filter(|(_, p)| !is_negative(p))
    {
        let file = nav_quake::read(&std::fs::read(&path).unwrap()).unwrap();
        let errors: Vec<_> = nav_quake::validate(&file)
            .into_iter()
            .filter(|f| f.severity == nav_core::Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
        checked += 1;
    }
    println!("nav-quake corpus: {checked} files validated without errors");
    assert!(checked > 0 || corpus_dir("quake").is_none());
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
