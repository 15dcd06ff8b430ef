//! Round trip of every real `source` file (the corpus folder, then the incoming folder when it
//! exists) through the shared corpus loop, and refusal of the negative ones.

use std::path::{Path, PathBuf};

use nav_core::Format;
use nav_core::testing::{
    is_negative, real_file, real_files, real_files_round_trip, skip_without_corpus,
};
use nav_source::{Flavour, SourceMesh, SourceNav};

/// The file's name as `corpus/source/x.nav` or `incoming/source/x.nav`.
fn label(dir: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(dir).unwrap_or(path).display().to_string();
    let folder = dir
        .parent()
        .and_then(Path::file_name)
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!("{folder}/source/{rel}")
}

/// A real file by name, from whichever folder holds it.
fn find(files: &[(PathBuf, PathBuf)], name: &str) -> Option<PathBuf> {
    files
        .iter()
        .map(|(_, p)| p)
        .find(|p| p.file_name().is_some_and(|n| n == name))
        .cloned()
}

#[test]
fn every_real_file_round_trips() {
    let tally = real_files_round_trip(&SourceNav, "source", |file, model| {
        // The model's JSON form is a full copy of it.
        let json = serde_json::to_string(model).map_err(|e| e.to_string())?;
        let back: SourceMesh = serde_json::from_str(&json).map_err(|e| e.to_string())?;
        if &back != model {
            return Err("the JSON round trip changed the model".into());
        }
        if nav_source::write(&back).ok().as_deref() != Some(file.bytes.as_slice()) {
            return Err("bytes differ after the JSON round trip".into());
        }
        Ok(())
    });
    if real_files("source").is_empty() {
        skip_without_corpus("no real `source` file");
        return;
    }
    // A file the game wrote has nothing `validate` calls an error.
    assert!(tally.with_errors.is_empty(), "{:#?}", tally.with_errors);
    assert!(tally.passed > 0, "no real source files found");
    assert_eq!(tally.refused, 2, "both negative files are refused");
}

/// The negative files are Source 2 files, and the refusal says so.
#[test]
fn negative_files_are_refused_as_source2() {
    let files = real_files("source");
    let negatives: Vec<_> = files.iter().filter(|(_, p)| is_negative(p)).collect();
    if files.is_empty() {
        skip_without_corpus("no real `source` file");
        return;
    }
    assert_eq!(negatives.len(), 2, "both negative files are found");
    for (dir, path) in negatives {
        let name = label(dir, path);
        let bytes = std::fs::read(path).expect("corpus file is readable");
        let text = SourceNav
            .parse(&bytes)
            .expect_err("negative files must be refused")
            .to_string();
        assert!(
            text.starts_with("nav-source: version: version 3")
                && text.contains("Source 2 nav file"),
            "{name}: unclear refusal: {text}"
        );
    }
}

/// The flavour auto-detection picks the game the sub-version names, and the GoldSrc files keep
/// their stale tails.
#[test]
fn real_file_flavours_and_tails() {
    let files = real_files("source");
    if files.is_empty() {
        skip_without_corpus("no real `source` file");
        return;
    }
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
        ("l4dfd_c5m4_quarter.nav", Flavour::Left4Dead2, "16.14", 0),
        ("l4dfd_tutorial01.nav", Flavour::Left4Dead, "15.13", 0),
        ("l4dfd_zoo_infected2.nav", Flavour::Left4Dead, "14.13", 0),
        ("l4dfd_test_box2.nav", Flavour::Left4Dead, "12.12", 0),
    ];
    let mut seen = 0;
    for (file, flavour, version, tail) in expect {
        let path = find(&files, file)
            .unwrap_or_else(|| panic!("{file} is in neither the corpus nor the incoming folder"));
        let bytes = std::fs::read(&path).expect("readable");
        let view = nav_source::SourceView::parse(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(view.flavour(), *flavour, "{file}");
        assert_eq!(view.layout().version_text(), *version, "{file}");
        assert_eq!(view.stale_tail().len(), *tail, "{file}");
        seen += 1;
    }
    println!("checked the flavour of {seen} real files");
    assert_eq!(seen, expect.len());
    // The gsz_de_dust2 tail is the v4 file's bytes at the same offsets (a save over it).
    let read = |name| std::fs::read(find(&files, name).expect(name)).expect("readable");
    let v4 = read("gs_de_dust2.nav");
    let v5 = read("gsz_de_dust2.nav");
    let at = v5.len() - 3_035;
    assert_eq!(v5[at..], v4[at..]);
}

/// Reading a file as the wrong flavour fails and says where.
#[test]
fn explicit_wrong_flavour_is_refused() {
    let Some(path) = real_file("source", "tfnm_itemtest.nav") else {
        return;
    };
    let bytes = std::fs::read(path).expect("itemtest");
    let err = nav_source::SourceView::parse_with(&bytes, Flavour::Base).unwrap_err();
    assert!(err.to_string().starts_with("nav-source: "), "{err}");
    let err = nav_source::SourceView::parse_with(&bytes, Flavour::Left4Dead2).unwrap_err();
    assert_eq!(
        err.to_string(),
        "nav-source: sub_version: the l4d2 flavour needs sub-version 12 or more, this file has 2 at offset 0x8"
    );
    let view = nav_source::SourceView::parse_with(&bytes, Flavour::TeamFortress2).expect("tf2");
    assert_eq!(view.area_count(), 33);
}

/// On every non-empty real file with a sub-version, exactly one flavour reads the file to its
/// end (the two Left 4 Dead flavours share their rules and count as one), and it is the first
/// one auto-detection tries.
#[test]
fn real_file_flavour_is_unambiguous() {
    let files = real_files("source");
    if files.is_empty() {
        skip_without_corpus("no real `source` file");
        return;
    }
    let mut checked = 0;
    for (_, path) in files {
        if is_negative(&path) {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable");
        let view = nav_source::SourceView::parse(&bytes).expect("parses");
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
        .filter(|f| nav_source::SourceView::parse_with(&bytes, *f).is_ok())
        .collect();
        let expected = if view.flavour() == Flavour::Left4Dead {
            Flavour::Left4Dead2
        } else {
            view.flavour()
        };
        assert_eq!(ok, [expected], "{}", path.display());
        let first = nav_source::candidates(view.version(), view.sub_version());
        assert_eq!(first.first(), Some(&view.flavour()), "{}", path.display());
        checked += 1;
    }
    println!("{checked} real files with a sub-version read in exactly one flavour");
    assert!(checked > 0);
}
