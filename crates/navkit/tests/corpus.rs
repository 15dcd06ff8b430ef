//! Every corpus file of every format in this build survives `rewrite`, `fix` (when it validates
//! clean) and `to-json`/`from-json` byte for byte, through the same code the commands run; every negative sample is refused. The
//! incoming folder (real files that arrived after the corpus) is held to the same rules where it
//! exists.

use std::path::Path;

use nav_core::testing::{
    corpus_files, corpus_root, incoming_dir, is_negative, skip_without_corpus,
};
use navkit::registry::{self, AnyFormat};

/// The corpus folder of each format, and the format that reads the files in it.
const FOLDERS: &[(&str, &[&str])] = &[
    ("quake", &["nav-quake"]),
    ("source", &["nav-source"]),
    ("source2", &["nav-source2"]),
    ("mgsv", &["nav2-mgsv"]),
    ("skyrim", &["skyrim-plugin", "nvnm-skyrim"]),
    ("silkroad", &["jmxvnvm"]),
];

fn detect(path: &Path, bytes: &[u8]) -> Option<&'static dyn AnyFormat> {
    registry::sniff(bytes).or_else(|| registry::by_extension(path))
}

#[test]
fn every_corpus_file_rewrites_and_converts_through_json() {
    let Some(root) = corpus_root() else {
        skip_without_corpus("no corpus found (set NAVKIT_CORPUS)");
        return;
    };
    let (mut passed, mut refused, mut failures) = (0usize, 0usize, Vec::new());
    let mut fixed_clean = 0usize;
    for (folder, formats) in FOLDERS {
        let dir = root.join(folder);
        let incoming = incoming_dir(folder);
        if !dir.is_dir() && incoming.is_none() {
            skip_without_corpus(&format!("corpus folder {folder} is absent"));
            continue;
        }
        if formats.iter().any(|f| registry::by_name(f).is_none()) {
            eprintln!(
                "note: {formats:?} not in this build; corpus folder {folder} not checked here"
            );
            continue;
        }
        let mut in_folder = 0;
        let in_corpus = if dir.is_dir() {
            corpus_files(&dir)
        } else {
            Vec::new()
        };
        let files = in_corpus
            .into_iter()
            .chain(incoming.iter().flat_map(|d| corpus_files(d)));
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let name = match path.strip_prefix(&root) {
                Ok(p) => p.display().to_string(),
                Err(_) => format!("incoming: {}", path.display()),
            };
            let format = detect(&path, &bytes);
            if is_negative(&path) {
                // A negative sample is one the folder's own formats must refuse; it may be
                // another format's file (the Source 2 files in source/negative are nav-source2's).
                let accepted = formats
                    .iter()
                    .filter_map(|f| registry::by_name(f))
                    .any(|f| f.rewrite(&bytes).is_ok());
                if accepted {
                    failures.push(format!("{name}: a negative sample was accepted"));
                } else {
                    refused += 1;
                }
                continue;
            }
            let Some(format) = format else {
                failures.push(format!("{name}: no format recognises it"));
                continue;
            };
            assert!(
                formats.contains(&format.name()),
                "{name} detected as {}",
                format.name()
            );
            match format.rewrite(&bytes) {
                Ok(out) if out == bytes => {}
                Ok(_) => {
                    failures.push(format!("{name}: rewrite changed the bytes"));
                    continue;
                }
                Err(e) => {
                    failures.push(format!("{name}: rewrite: {e}"));
                    continue;
                }
            }
            // fix: a file validate finds no error in needs no fix and comes back byte-identical;
            // one with errors loses every error fix mends.
            let errors = |b: &[u8]| {
                format.validate(b).map(|f| {
                    f.iter()
                        .filter(|f| f.severity == nav_core::Severity::Error)
                        .count()
                })
            };
            match (errors(&bytes), format.fix(&bytes)) {
                (Ok(0), Ok((out, changes))) if out == bytes && changes.is_empty() => {
                    fixed_clean += 1
                }
                (Ok(0), Ok((_, changes))) => {
                    failures.push(format!("{name}: fix changed a valid file: {changes:?}"));
                    continue;
                }
                (Ok(before), Ok((out, changes))) => match errors(&out) {
                    Ok(after) if after < before || changes.is_empty() => {
                        println!(
                            "{name}: fix: {before} errors, {} changes, {after} left",
                            changes.len()
                        );
                    }
                    Ok(after) => {
                        failures.push(format!("{name}: fix left {after} of {before} errors"));
                        continue;
                    }
                    Err(e) => {
                        failures.push(format!("{name}: the fixed file does not read: {e}"));
                        continue;
                    }
                },
                (Err(e), _) | (_, Err(e)) => {
                    failures.push(format!("{name}: validate or fix: {e}"));
                    continue;
                }
            }
            let mut text = Vec::new();
            if let Err(e) = format.to_json(&bytes, &mut text) {
                failures.push(format!("{name}: to-json: {e:?}"));
                continue;
            }
            match format.read_json(text.as_slice().into()) {
                Ok((out, refreshed)) if out == bytes && refreshed.is_empty() => {
                    passed += 1;
                    in_folder += 1;
                }
                Ok(_) => failures.push(format!("{name}: to-json/from-json changed the bytes")),
                Err(e) => failures.push(format!("{name}: from-json: {e}")),
            }
        }
        println!(
            "navkit corpus {folder}: {in_folder} files rewrite and convert through JSON byte-exactly"
        );
    }
    println!(
        "navkit corpus: {passed} passed, {} failed, {refused} negative samples refused; \
         {fixed_clean} valid files came through fix byte-identical",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(passed > 0, "no corpus file was checked");
}
