//! Round trip of every file in the `source` corpus folder, and refusal of the negative ones.

use nav_core::Format;
use nav_core::oracle::roundtrip_bytes;
use nav_core::testing::{corpus_dir, corpus_files, is_negative};
use nav_source::{Flavour, SourceMesh, SourceNav};

#[test]
fn every_corpus_file_round_trips() {
    let Some(dir) = corpus_dir("source") else {
        return;
    };
    let files = corpus_files(&dir);
    let (mut checked, mut passed, mut refused) = (0usize, 0usize, 0usize);
    let mut failures = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(path)
            .display()
            .to_string();
        let bytes = std::fs::read(path).expect("corpus file is readable");
        if is_negative(path) {
            let err = SourceNav
                .parse(&bytes)
                .expect_err("negative files must be refused");
            let text = err.to_string();
            assert!(
                text.starts_with("nav-source: version: version 3")
                    && text.contains("Source 2 nav file"),
                "{name}: unclear refusal: {text}"
            );
            refused += 1;
            continue;
        }
        checked += 1;
        match roundtrip_bytes(&SourceNav, &bytes) {
            Ok(model) => {
                // The JSON form of the model writes the same bytes again.
                let json = serde_json::to_string(&model).expect("model serialises");
                let back: SourceMesh = serde_json::from_str(&json).expect("model deserialises");
                assert_eq!(back, model, "{name}: JSON round trip changed the model");
                let written = nav_source::write(&back).expect("JSON model writes");
                if written == bytes {
                    passed += 1;
                } else {
                    failures.push(format!("{name}: bytes differ after the JSON round trip"));
                }
            }
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!(
        "nav-source corpus: {checked} files checked, {passed} passed, {refused} negative files refused"
    );
    assert!(failures.is_empty(), "failures:\n{}", failures.join("\n"));
    assert!(checked > 0, "no corpus files found in {}", dir.display());
    assert_eq!(passed, checked);
    assert_eq!(refused, 2, "both negative files are refused");
}

/// The flavour auto-detection picks the game the sub-version names, and the GoldSrc files keep
/// their stale tails.
#[test]
fn corpus_flavours_and_tails() {
    let Some(dir) = corpus_dir("source") else {
        return;
    };
    let expect: &[(&str, Flavour, &str, usize)] = &[
        ("goldsrc_de_prodigy.nav", Flavour::Base, "5", 0),
        ("gs_fy_iceworld.nav", Flavour::Base, "3", 2_268),
        ("gs_cs_bloodstrike.nav", Flavour::Base, "4", 8_511),
        ("gs_de_dust2.nav", Flavour::Base, "4", 4_467),
        ("gsz_de_dust2.nav", Flavour::Base, "5", 3_035),
        ("css_cs_militia.nav", Flavour::Base, "9", 0),
        ("css_de_dust2.nav", Flavour::CounterStrike, "16.1", 0),
        ("awpy_de_overpass.nav", Flavour::CounterStrike, "16.1", 0),
        ("gw_gm_1950s_town.nav", Flavour::Base, "16.0", 0),
        ("tfnm_vsh_nucleus.nav", Flavour::TeamFortress2, "16.2", 0),
        ("dodp_dod_jagd.nav", Flavour::TeamFortress2, "16.2", 0),
        ("l4d2_c1m1_hotel.nav", Flavour::Left4Dead2, "16.14", 0),
    ];
    let mut seen = 0;
    for (file, flavour, version, tail) in expect {
        let path = dir.join(file);
        let Ok(bytes) = std::fs::read(&path) else {
            panic!("corpus file {file} is missing");
        };
        let view = nav_source::parse(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(view.flavour(), *flavour, "{file}");
        assert_eq!(view.layout().version_text(), *version, "{file}");
        assert_eq!(view.stale_tail().len(), *tail, "{file}");
        seen += 1;
    }
    println!("checked the flavour of {seen} corpus files");
    // The gsz_de_dust2 tail is the v4 file's bytes at the same offsets (a save over it).
    let v4 = std::fs::read(dir.join("gs_de_dust2.nav")).expect("v4 dust2");
    let v5 = std::fs::read(dir.join("gsz_de_dust2.nav")).expect("v5 dust2");
    let at = v5.len() - 3_035;
    assert_eq!(v5[at..], v4[at..]);
}

/// Reading a file as the wrong flavour fails and says where.
#[test]
fn explicit_wrong_flavour_is_refused() {
    let Some(dir) = corpus_dir("source") else {
        return;
    };
    let bytes = std::fs::read(dir.join("tfnm_itemtest.nav")).expect("itemtest");
    let err = nav_source::parse_with(&bytes, Flavour::Base).unwrap_err();
    assert!(err.to_string().starts_with("nav-source: "), "{err}");
    let err = nav_source::parse_with(&bytes, Flavour::Left4Dead2).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: sub_version: the l4d2 flavour needs sub-version 13 or more, this file has 2 at offset 0x8"
    );
    let view = nav_source::parse_with(&bytes, Flavour::TeamFortress2).expect("tf2");
    assert_eq!(view.area_count(), 33);
}

/// On every non-empty corpus file with a sub-version, exactly one flavour reads the file to its
/// end (the two Left 4 Dead flavours share their rules and count as one).
#[test]
fn corpus_flavour_is_unambiguous() {
    let Some(dir) = corpus_dir("source") else {
        return;
    };
    let mut checked = 0;
    for path in corpus_files(&dir) {
        if is_negative(&path) {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let view = nav_source::parse(&bytes).expect("parses");
        if view.sub_version() == 0 || view.area_count() == 0 {
            continue;
        }
        let ok: Vec<Flavour> = [
            Flavour::Base,
            Flavour::CounterStrike,
            Flavour::TeamFortress2,
            Flavour::Left4Dead2,
        ]
        .into_iter()
        .filter(|f| nav_source::parse_with(&bytes, *f).is_ok())
        .collect();
        let expected = if view.flavour() == Flavour::Left4Dead {
            Flavour::Left4Dead2
        } else {
            view.flavour()
        };
        assert_eq!(ok, [expected], "{}", path.display());
        checked += 1;
    }
    println!("{checked} corpus files with a sub-version read in exactly one flavour");
    assert!(checked > 0);
}
