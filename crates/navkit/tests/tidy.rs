//! Keeps the tree honest: no third-party corpus file and no large binary is tracked, every
//! Rust source file starts by saying what it holds, and no test returns early or skips quietly.
// Test code: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Command;

use nav_core::testing::skip_without_corpus;

mod common;
use common::workspace;

#[path = "tidy/module_rings.rs"]
mod module_rings;

fn tracked_files() -> Option<Vec<PathBuf>> {
    let out = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(workspace())
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(
        out.stdout
            .split(|b| *b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| workspace().join(String::from_utf8_lossy(s).as_ref()))
            .filter(|p| p.is_file())
            .collect(),
    )
}

#[test]
fn no_corpus_file_and_no_large_file_is_tracked() {
    let Some(files) = tracked_files() else {
        skip_without_corpus("not a git checkout, or git is missing");
        return;
    };
    let corpus: Vec<(u64, PathBuf)> = match nav_core::testing::corpus_root() {
        Some(root) => nav_core::testing::corpus_files(&root)
            .into_iter()
            .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
            .collect(),
        None => {
            eprintln!("note: no corpus found; only checking sizes");
            Vec::new()
        }
    };
    let mut checked = 0;
    for file in &files {
        let len = std::fs::metadata(file).unwrap().len();
        let name = file
            .strip_prefix(workspace())
            .unwrap_or(file)
            .display()
            .to_string();
        assert!(
            len <= 256 * 1024 || name == "Cargo.lock",
            "{name} is {len} bytes: large files do not belong in the repository"
        );
        for (clen, cpath) in &corpus {
            if *clen == len && std::fs::read(file).unwrap() == std::fs::read(cpath).unwrap() {
                panic!(
                    "{name} is a copy of the third-party corpus file {}",
                    cpath.display()
                );
            }
        }
        checked += 1;
    }
    println!(
        "tidy: {checked} tracked files checked against {} corpus files",
        corpus.len()
    );
    assert!(checked > 0);
}

#[test]
fn every_rust_file_starts_with_module_docs() {
    let Some(files) = tracked_files() else {
        skip_without_corpus("not a git checkout, or git is missing");
        return;
    };
    let mut missing = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "rs"))
    {
        let text = std::fs::read_to_string(file).unwrap();
        let first = text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with("#!["))
            .unwrap_or("");
        if !first.starts_with("//!") {
            missing.push(
                file.strip_prefix(workspace())
                    .unwrap_or(file)
                    .display()
                    .to_string(),
            );
        }
    }
    assert!(
        missing.is_empty(),
        "these files do not start with `//!` docs: {missing:#?}"
    );
}

/// The members of the workspace: every folder under `crates/`, and `xtask`.
fn members() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(workspace().join("crates"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    out.push(workspace().join("xtask"));
    out.sort();
    out
}

#[test]
fn every_crate_inherits_the_workspace_lint_table() {
    let root = std::fs::read_to_string(workspace().join("Cargo.toml")).unwrap();
    let table = root
        .split("[workspace.lints.clippy]")
        .nth(1)
        .and_then(|rest| rest.split("\n[").next())
        .expect("Cargo.toml has a [workspace.lints.clippy] table");
    for lint in ["unwrap_used", "expect_used", "cast_possible_truncation"] {
        assert!(
            table
                .lines()
                .any(|l| l.replace(' ', "") == format!("{lint}=\"deny\"")),
            "[workspace.lints.clippy] must deny {lint}"
        );
    }
    for member in members() {
        let manifest = std::fs::read_to_string(member.join("Cargo.toml")).unwrap();
        let inherits = manifest
            .split("[lints]")
            .nth(1)
            .is_some_and(|rest| rest.trim_start().starts_with("workspace = true"));
        assert!(
            inherits,
            "{}: needs `[lints] workspace = true`",
            member.display()
        );
    }
    println!("{} crates inherit the workspace lints", members().len());
}

/// Files that are one module split over several files: each may use what its parent holds
/// (`use super::*`), which the ring check does not count; what they use of other modules it
/// does. (crate, file, why).
const SPLITS: &[(&str, &str, &str)] = &[
    (
        "navkit",
        "src/cli/apply_cmd.rs",
        "the apply command of the CLI",
    ),
    (
        "navkit-lib",
        "src/diff/walk.rs",
        "the walk over two flat models of diff",
    ),
    (
        "nav-source",
        "src/view/area.rs",
        "the area walk of the view",
    ),
    ("nav2-mgsv", "src/view/parse.rs", "the parser of the view"),
    (
        "nav2-mgsv",
        "src/build/graphs.rs",
        "steps 6 to 8 of the builder",
    ),
    (
        "nav2-mgsv",
        "src/write/chunks.rs",
        "the chunk writers of the writer",
    ),
    (
        "nav2-mgsv",
        "src/write/grown.rs",
        "the writer's in-place growth",
    ),
    (
        "nav2-mgsv",
        "src/write/navmesh.rs",
        "the NavmeshChunk writer",
    ),
    (
        "nav2-mgsv",
        "src/write/sections.rs",
        "the section writers of the writer",
    ),
    ("navkit", "src/cli/commands.rs", "the commands of the CLI"),
    (
        "navkit",
        "src/cli/export_cmd.rs",
        "the export command of the CLI",
    ),
    (
        "navkit",
        "src/cli/navigate.rs",
        "the navigation commands of the CLI",
    ),
    ("navkit", "src/cli/output.rs", "the CLI's output helpers"),
];

#[test]
fn no_module_imports_its_importer() {
    let (mut rings, mut modules) = (Vec::new(), 0);
    for member in members() {
        let name = member.file_name().unwrap().to_string_lossy().into_owned();
        let splits: Vec<&str> = SPLITS
            .iter()
            .filter(|(krate, _, _)| *krate == name)
            .map(|(_, file, _)| *file)
            .collect();
        for file in &splits {
            assert!(
                member.join(file).is_file(),
                "{name}/{file} is gone: take it off SPLITS"
            );
        }
        for root in ["src/lib.rs", "src/main.rs"] {
            if !member.join(root).is_file() {
                continue;
            }
            let read = |p: &std::path::Path| std::fs::read_to_string(member.join(p)).ok();
            let krate = module_rings::Crate::read(std::path::Path::new(root), &read);
            modules += krate.module_count();
            rings.extend(
                krate
                    .rings(&splits)
                    .into_iter()
                    .map(|r| format!("{name}: {r}")),
            );
        }
    }
    println!("tidy: {modules} modules checked for rings of imports");
    assert!(modules > 100, "only {modules} modules found");
    assert!(
        rings.is_empty(),
        "modules that import their importer, directly or through others (move what they share \
         into a module below both):\n{}",
        rings.join("\n")
    );
}

/// The ring check on a crate made up for it: a ring through a re-export is caught, test code and
/// a parent that only re-exports its child are not rings.
#[test]
fn the_ring_check_catches_what_it_is_for() {
    let rings = |files: &[(&str, &str)]| {
        let read = |p: &std::path::Path| {
            files
                .iter()
                .find(|(name, _)| std::path::Path::new(name) == p)
                .map(|(_, text)| (*text).to_string())
        };
        module_rings::Crate::read(std::path::Path::new("src/lib.rs"), &read).rings(&[])
    };
    let lib = (
        "src/lib.rs",
        "//! x\nmod a;\nmod b;\nmod c;\nmod d;\npub use a::A;\n",
    );
    let a = (
        "src/a.rs",
        "use crate::b::{self, B as Bee};\npub struct A(Bee);\n",
    );
    let b = ("src/b.rs", "pub struct B;\nfn f() { crate::c::g() }\n");
    let c = (
        "src/c.rs",
        "use super::A; // through the root's re-export\npub fn g() {}\n\
         #[cfg(test)]\nmod tests {\n    use crate::d::E;\n}\n",
    );
    let d = (
        "src/d/mod.rs",
        "mod e;\npub use e::E;\npub const K: u8 = 1;\n",
    );
    let e = (
        "src/d/e.rs",
        "use super::K;\npub struct E([u8; K as usize]);\n",
    );
    let found = rings(&[lib, a, b, c, d, e]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(
        found[0],
        "ring of src/a.rs, src/b.rs, src/c.rs:\n    src/a.rs -> src/b.rs (src/a.rs:1: crate::b)\
         \n    src/b.rs -> src/c.rs (src/b.rs:2: crate::c::g)\
         \n    src/c.rs -> src/a.rs (src/c.rs:1: super::A)"
    );
    // The parent uses its child's item itself, and the child its parent's: a ring of two.
    let d_uses = (
        "src/d/mod.rs",
        "mod e;\npub use e::E;\npub const K: u8 = 1;\nfn f(_: E) {}\n",
    );
    let found = rings(&[lib, a, ("src/b.rs", "pub struct B;\n"), c, d_uses, e]);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].starts_with("ring of src/d/mod.rs, src/d/e.rs:"),
        "{found:#?}"
    );
    // A serde `with` path makes a dependency; a path in a comment or another string does not.
    let b_alone = ("src/b.rs", "pub struct B;\n");
    let d_with = (
        "src/d/mod.rs",
        "mod e;\npub const K: u8 = 1;\n#[serde(with = \"e::hex\")]\nstruct S;\n",
    );
    assert_eq!(rings(&[lib, a, b_alone, c, d_with, e]).len(), 1);
    let e_quiet = ("src/d/e.rs", "// super::K\nconst T: &str = \"super::K\";\n");
    assert!(rings(&[lib, a, b_alone, c, d_with, e_quiet]).is_empty());
}

/// The modules every format has, each a file `<name>.rs` or a folder `<name>/mod.rs`.
const FORMAT_MODULES: &[&str] = &["view", "model", "write", "validate", "dump", "fix"];

#[test]
fn every_format_has_the_same_module_names_for_the_same_jobs() {
    // Where each format's modules live: the crate's `src`, or one folder per format in a crate
    // that holds two (a Skyrim plugin and the NVNM blob inside it).
    let homes = [
        "crates/nav-quake/src",
        "crates/nav-source/src",
        "crates/nav-source2/src",
        "crates/nav2-mgsv/src",
        "crates/jmxvnvm/src",
        "crates/nvnm-skyrim/src/nvnm",
        "crates/nvnm-skyrim/src/plugin",
    ];
    let mut missing = Vec::new();
    for home in homes {
        let dir = workspace().join(home);
        for m in FORMAT_MODULES {
            if !dir.join(format!("{m}.rs")).is_file() && !dir.join(m).join("mod.rs").is_file() {
                missing.push(format!("{home}: no `{m}` module"));
            }
        }
    }
    // Geometry and builders belong to the crate.
    for krate in [
        "nav-quake",
        "nav-source",
        "nav-source2",
        "nav2-mgsv",
        "jmxvnvm",
        "nvnm-skyrim",
    ] {
        if !workspace()
            .join(format!("crates/{krate}/src/geometry.rs"))
            .is_file()
        {
            missing.push(format!("{krate}: no `geometry` module"));
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}

#[test]
fn no_source_file_is_over_800_lines() {
    let Some(files) = tracked_files() else {
        skip_without_corpus("not a git checkout, or git is missing");
        return;
    };
    let long: Vec<String> = files
        .iter()
        .filter(|f| {
            f.extension().is_some_and(|e| e == "rs")
                && f.components().any(|c| c.as_os_str() == "src")
        })
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).ok()?.lines().count();
            (n > 800).then(|| format!("{}: {n} lines", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "split these: {long:#?}");
}

// ---------------------------------------------------------------------------------------------
// Tests that skip must say so, and never in CI.
//
// With the corpus present (`NAVKIT_REQUIRE_CORPUS=1`, as CI runs) no test may return early or
// skip quietly. The check is textual, over every file under `crates/*/tests/` and every
// `#[cfg(test)]` module under `crates/*/src/` and `xtask/src/`:
//
// - an early `return;` must be guarded: the statement that holds it (from its `let`, `if` or
//   `match` down to the `return`) must contain an assertion (`assert`, `panic!`) or one of the
//   corpus calls in `GUARDS`, which skip loudly and fail under `NAVKIT_REQUIRE_CORPUS`; or call a
//   helper defined in the same file (or the crate's `tests/common/`) whose body contains one;
// - a printed note that something is skipped (`println!`/`eprintln!` with "skip" in it) must
//   not be written by hand: `nav_core::testing::skip_without_corpus` prints it, or fails in CI.
//
// `ALLOWED` lists the places that are right as they are, each with its reason.

/// Calls that skip only when the corpus (or a file of it) is absent, and fail under
/// `NAVKIT_REQUIRE_CORPUS`, or that assert.
const GUARDS: &[&str] = &[
    "corpus_dir(",
    "real_file(",
    "skip_without_corpus(",
    "largest_corpus_file(",
    "assert",
    "panic!",
];

/// Places the check lets through: (file path ending, text of the flagged line, why).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "crates/navkit/tests/build_corpus.rs",
        "return;",
        "an empty or refused file is counted in the tally the test asserts on; an empty folder has already skipped loudly in `corpus`",
    ),
    (
        "crates/navkit/tests/build_corpus.rs",
        "return fail(",
        "a failure is collected in the tally, which the test asserts is empty",
    ),
    (
        "crates/navkit-lib/src/diff/oracle.rs",
        "return;",
        "the test oracle's walk ends a branch of its recursion, it skips no test",
    ),
];

/// The indentation of a line, in bytes.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// Whether a line is only a comment.
fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with("//")
}

/// The line without the contents of its string literals (line by line: a string that spans
/// lines is not followed) and without a trailing comment.
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let (mut in_string, mut escaped) = (false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => {
                    in_string = false;
                    out.push(c);
                }
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_string = true,
            // A character literal of a quote.
            '\'' if chars.peek() == Some(&'"') => {
                chars.next();
            }
            '/' if chars.peek() == Some(&'/') => break,
            _ => {}
        }
        out.push(c);
    }
    out
}

/// Whether the line holds a bare `return` (`return;`, or `return }` in a one-line `else`).
fn has_bare_return(line: &str) -> bool {
    let code = code_of(line);
    code.match_indices("return").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + "return".len()..].trim_start();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
            && (after.starts_with(';') || after.starts_with('}'))
    })
}

/// The lines of the statement that holds the `return` at `at`: back to its `let`, `if`, `match`,
/// `for` or `while`, at a smaller indentation (at most 20 lines).
fn guard<'a>(lines: &[&'a str], at: usize) -> Vec<&'a str> {
    let own = indent(lines[at]);
    let mut out = vec![lines[at]];
    let opens = ["let ", "if ", "match ", "for ", "while ", "} else if "];
    // A statement on one line (`let Some(x) = y else { return };`) is its own guard.
    if opens.iter().any(|o| lines[at].trim_start().starts_with(o)) {
        return out;
    }
    for line in lines[..at].iter().rev().take(20) {
        let t = line.trim_start();
        if t.starts_with("fn ") || t.starts_with("#[test]") || t.starts_with("pub fn ") {
            break;
        }
        out.push(line);
        if indent(line) < own && opens.iter().any(|o| t.starts_with(o)) {
            break;
        }
    }
    out
}

/// The body of `fn name(` in `text`: from that line to the next line that closes it at the
/// same indentation.
fn fn_body<'a>(text: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|l| {
        let t = l.trim_start();
        let t = t.strip_prefix("pub ").unwrap_or(t);
        t.starts_with(&format!("fn {name}(")) || t.starts_with(&format!("fn {name}<"))
    })?;
    let close = format!("{}}}", " ".repeat(indent(lines[start])));
    let end = lines[start..]
        .iter()
        .position(|l| *l == close)
        .map_or(lines.len(), |e| start + e + 1);
    Some(lines[start..end].to_vec())
}

/// The names called in `line` (`name(`).
fn calls(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut out = Vec::new();
    for (at, _) in line.match_indices('(') {
        let start = line[..at]
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |s| s + 1);
        if start < at && !bytes[start].is_ascii_digit() {
            out.push(&line[start..at]);
        }
    }
    out
}

/// Whether some line holds a guard call, directly or through a helper defined in `helpers`.
fn guarded(lines: &[&str], helpers: &[&str]) -> bool {
    let direct = |l: &str| GUARDS.iter().any(|g| l.contains(g));
    lines.iter().filter(|l| !is_comment(l)).any(|l| {
        direct(l)
            || calls(l).into_iter().any(|name| {
                helpers
                    .iter()
                    .filter_map(|h| fn_body(h, name))
                    .any(|body| body.iter().filter(|b| !is_comment(b)).any(|b| direct(b)))
            })
    })
}

/// Every quiet early return and hand-written skip note in `text` (test code of `label`), each as
/// `label:line: what`. `helpers` are the texts where called helpers are looked for (the file
/// itself, and the crate's shared test module).
fn quiet_exits(label: &str, text: &str, first_line: usize, helpers: &[&str]) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let allowed = |line: &str| {
        ALLOWED
            .iter()
            .any(|(file, l, _)| label.ends_with(file) && line.contains(l))
    };
    for (i, line) in lines.iter().enumerate() {
        if is_comment(line) || allowed(line) {
            continue;
        }
        let n = first_line + i;
        if has_bare_return(line) && !guarded(&guard(&lines, i), helpers) {
            out.push(format!(
                "{label}:{n}: an early `return` with no assertion or corpus check before it"
            ));
        }
        let code = code_of(line);
        let print = ["println!(", "eprintln!("].iter().any(|p| code.contains(p));
        if print {
            // The whole call: its format string may be on the lines after.
            let call: String = lines[i..]
                .iter()
                .take(6)
                .scan(false, |done, l| {
                    let keep = !*done;
                    *done = l.contains(");");
                    keep.then_some(*l)
                })
                .collect();
            if call.to_lowercase().contains("skip") {
                out.push(format!(
                    "{label}:{n}: a skip note written by hand (use nav_core::testing::skip_without_corpus)"
                ));
            }
        }
    }
    out
}

/// The test code of one source file under `src/`: `(first line number, text)` of each
/// `#[cfg(test)]` module written inline, and the paths of those in files of their own.
fn test_modules(path: &std::path::Path, text: &str) -> (Vec<(usize, String)>, Vec<PathBuf>) {
    let lines: Vec<&str> = text.lines().collect();
    let (mut inline, mut files) = (Vec::new(), Vec::new());
    for (i, line) in lines.iter().enumerate() {
        if line.trim() != "#[cfg(test)]" {
            continue;
        }
        let Some(next) = lines.get(i + 1).map(|l| l.trim()) else {
            continue;
        };
        let Some(rest) = next.strip_prefix("mod ") else {
            continue;
        };
        if let Some(name) = rest.strip_suffix(';') {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let dir = path.parent().unwrap();
            let dir = if ["mod", "lib", "main"].contains(&stem) {
                dir.to_path_buf()
            } else {
                dir.join(stem)
            };
            files.push(dir.join(format!("{name}.rs")));
            files.push(dir.join(name).join("mod.rs"));
        } else {
            let end = lines[i..]
                .iter()
                .position(|l| *l == "}")
                .map_or(lines.len(), |e| i + e + 1);
            inline.push((i + 1, lines[i..end].join("\n")));
        }
    }
    (inline, files)
}

/// Every `.rs` file below `dir`, sorted.
fn rust_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[test]
fn no_test_returns_early_or_skips_quietly() {
    let mut found = Vec::new();
    let mut scanned = 0;
    let label = |p: &std::path::Path| {
        p.strip_prefix(workspace())
            .unwrap_or(p)
            .display()
            .to_string()
    };
    let mut homes: Vec<PathBuf> = members().into_iter().collect();
    homes.sort();
    for member in homes {
        let common =
            std::fs::read_to_string(member.join("tests/common/mod.rs")).unwrap_or_default();
        for path in rust_files(&member.join("tests")) {
            let text = std::fs::read_to_string(&path).unwrap();
            found.extend(quiet_exits(&label(&path), &text, 1, &[&text, &common]));
            scanned += 1;
        }
        for path in rust_files(&member.join("src")) {
            let text = std::fs::read_to_string(&path).unwrap();
            let (inline, files) = test_modules(&path, &text);
            for (first, module) in inline {
                found.extend(quiet_exits(&label(&path), &module, first, &[&module]));
                scanned += 1;
            }
            for file in files.iter().filter(|f| f.is_file()) {
                let module = std::fs::read_to_string(file).unwrap();
                found.extend(quiet_exits(&label(file), &module, 1, &[&module]));
                scanned += 1;
            }
        }
    }
    println!("tidy: {scanned} test files and #[cfg(test)] modules scanned for quiet exits");
    assert!(scanned > 50, "only {scanned} test files found");
    assert!(
        found.is_empty(),
        "tests that return early or skip without saying so (guard the return with an \
         assertion or a corpus check, and skip through nav_core::testing::skip_without_corpus, \
         which fails under NAVKIT_REQUIRE_CORPUS):\n{}",
        found.join("\n")
    );
}

/// The check on the cases it was written for: each is caught, and the guarded forms pass.
#[test]
fn the_quiet_exit_check_catches_what_it_is_for() {
    let check = |text: &str| quiet_exits("t.rs", text, 1, &[text]);
    // A named file looked up by hand, returning when it is absent (nav-source `tfnm_itemtest`).
    let by_hand = "fn find(files: &[P], name: &str) -> Option<P> {\n    files.iter().find(|p| p == name)\n}\n\n#[test]\nfn t() {\n    let files = real_files(\"source\");\n    let Some(path) = find(&files, \"tfnm_itemtest.nav\") else {\n        return;\n    };\n    assert!(path.exists());\n}\n";
    assert_eq!(
        check(by_hand),
        ["t.rs:9: an early `return` with no assertion or corpus check before it"]
    );
    // A failed read that returns (nav-source2 `samples.rs`), also on one line.
    let read = "fn t() {\n    let Ok(bytes) = std::fs::read(p) else {\n        return;\n    };\n    let Ok(b) = std::fs::read(p) else { return };\n}\n";
    assert_eq!(check(read).len(), 2, "{:?}", check(read));
    // The first real file, or a quiet return (navkit `edit_loop.rs`).
    let first = "fn t() {\n    let Some((_, blob)) = real_files(\"skyrim/nvnm\").into_iter().next() else {\n        return;\n    };\n}\n";
    assert_eq!(check(first).len(), 1);
    // A note, then a return that is not about the corpus (jmxvnvm `fix.rs`).
    let note = "fn t() {\n    if !referenced {\n        eprintln!(\"note: {name}: no cell lists the last object\");\n        return;\n    }\n}\n";
    assert_eq!(check(note).len(), 1);
    // Hand-written skip notes, whatever the corpus does (nvnm-skyrim `fallout4.rs`, nav-source2
    // `fix.rs`), also with the message on the next line.
    let skip = "fn blob() -> Option<Vec<u8>> {\n    eprintln!(\"note: skipping: neither {BLOB} nor {PLUGIN} was found\");\n    None\n}\nfn m() {\n    match read(&b) {\n        Ok(m) => out.push(m),\n        Err(e) => eprintln!(\"note: skipping {name}: it does not parse: {e}\"),\n    }\n    eprintln!(\n        \"Skipped {n}\"\n    );\n}\n";
    assert_eq!(check(skip).len(), 3, "{:?}", check(skip));
    // Guarded forms: the corpus calls, an assertion, and a helper that calls one.
    let fine = "fn plugins() -> Option<Vec<P>> {\n    let dir = corpus_dir(\"skyrim\")?;\n    Some(list(dir))\n}\n\n#[test]\nfn a() {\n    let Some(dir) = corpus_dir(\"quake\") else {\n        return;\n    };\n    let Some(p) = nav_core::testing::real_file(\"source2\", \"x.nav\")\n    else {\n        return;\n    };\n    if files.is_empty() {\n        skip_without_corpus(\"no real file\");\n        return;\n    }\n    let Some(files) = plugins() else { return };\n    if n == 0 {\n        assert!(seen.is_empty());\n        return;\n    }\n    println!(\"{n} files checked\");\n}\n";
    assert_eq!(check(fine), Vec::<String>::new());
    // Words that only contain `return`, and returns with a value, are not early exits.
    let values = "fn f() -> u8 {\n    let returned = 1;\n    if x { return 2; }\n    return_value(returned)\n}\n";
    assert_eq!(check(values), Vec::<String>::new());
}
