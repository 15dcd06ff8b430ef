//! Test helpers: a byte builder for hand-made inputs, a hex diff, the corpus walker, and the
//! check of a format's navigation graph against a reference search ([`check_navigation`]).
//!
//! The corpus is third-party game data and is never part of the repository. Tests find it through
//! `NAVKIT_CORPUS`, or `../shared/corpus` beside the checkout. Where it is absent, [`corpus_dir`]
//! prints a note and returns `None`, so a test can skip loudly; with `NAVKIT_REQUIRE_CORPUS=1`
//! (set by CI) a missing corpus is a failure instead.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::scalar::RawF32;

mod meshes;
mod navigation;

pub use meshes::{as_fans, as_ngons, as_split_triangles, check_unedited, fan};
pub use navigation::{NavigationReport, check_navigation};

/// Builds little-endian test inputs byte by byte.
///
/// ```
/// use nav_core::testing::LeBuilder;
/// let bytes = LeBuilder::new().magic(b"NAV2").u32(15).u16(0xffff).f32(-0.0).finish();
/// assert_eq!(bytes, [b'N', b'A', b'V', b'2', 15, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0x80]);
/// ```
#[derive(Debug, Default, Clone)]
pub struct LeBuilder {
    buf: Vec<u8>,
}

impl LeBuilder {
    /// An empty builder.
    pub fn new() -> Self {
        LeBuilder::default()
    }

    /// Raw bytes (a signature).
    pub fn magic(mut self, m: &[u8]) -> Self {
        self.buf.extend_from_slice(m);
        self
    }

    /// Raw bytes.
    pub fn bytes(self, b: &[u8]) -> Self {
        self.magic(b)
    }

    /// A `u8`.
    pub fn u8(mut self, v: u8) -> Self {
        self.buf.push(v);
        self
    }

    /// A `u16`.
    pub fn u16(self, v: u16) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// An `i16`.
    pub fn i16(self, v: i16) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// A `u32`.
    pub fn u32(self, v: u32) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// An `i32`.
    pub fn i32(self, v: i32) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// A `u64`.
    pub fn u64(self, v: u64) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// An `f32`.
    pub fn f32(self, v: f32) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// An `f32` by its bits.
    pub fn f32_bits(self, v: u32) -> Self {
        self.magic(&v.to_le_bytes())
    }

    /// Three `f32`s.
    pub fn vec3(self, x: f32, y: f32, z: f32) -> Self {
        self.f32(x).f32(y).f32(z)
    }

    /// `n` copies of `byte`.
    pub fn fill(mut self, byte: u8, n: usize) -> Self {
        self.buf.resize(self.buf.len() + n, byte);
        self
    }

    /// Bytes so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }

    /// Whether nothing was added.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// The bytes.
    pub fn finish(self) -> Vec<u8> {
        self.buf
    }
}

/// Three raw floats, for building models in tests.
pub fn vec3(x: f32, y: f32, z: f32) -> [RawF32; 3] {
    [RawF32::new(x), RawF32::new(y), RawF32::new(z)]
}

/// A deterministic pseudo-random byte stream (xorshift64*), for feeding `arbitrary` in ordinary
/// tests: the same seed always gives the same bytes, so a failing seed reproduces.
pub fn noise(seed: u64, len: usize) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
        })
        .collect()
}

pub use crate::oracle::first_difference;

/// A readable hex diff of two byte strings around their first difference, or `None` when equal.
pub fn hex_diff(expected: &[u8], actual: &[u8]) -> Option<String> {
    let at = first_difference(expected, actual)?;
    let start = at.saturating_sub(16) & !15;
    let end = (at + 32).min(expected.len().max(actual.len()));
    let mut out = format!(
        "bytes differ at offset {at:#x} (expected {} bytes, got {})\n",
        expected.len(),
        actual.len()
    );
    for (label, data) in [("expected", expected), ("actual  ", actual)] {
        let mut line = start;
        while line < end {
            let _ = write!(out, "{label} {line:08x}:");
            for i in line..(line + 16).min(end) {
                match data.get(i) {
                    Some(b) if i == at => {
                        let _ = write!(out, "[{b:02x}]");
                    }
                    Some(b) => {
                        let _ = write!(out, " {b:02x} ");
                    }
                    None => out.push_str(" -- "),
                }
            }
            out.push('\n');
            line += 16;
        }
    }
    Some(out)
}

/// Asserts that two byte strings are equal, printing a hex diff around the first difference.
#[macro_export]
macro_rules! assert_bytes_eq {
    ($expected:expr, $actual:expr $(,)?) => {{
        let (e, a): (&[u8], &[u8]) = (&$expected[..], &$actual[..]);
        if let Some(diff) = $crate::testing::hex_diff(e, a) {
            panic!("{}", diff);
        }
    }};
    ($expected:expr, $actual:expr, $($msg:tt)+) => {{
        let (e, a): (&[u8], &[u8]) = (&$expected[..], &$actual[..]);
        if let Some(diff) = $crate::testing::hex_diff(e, a) {
            panic!("{}\n{}", format_args!($($msg)+), diff);
        }
    }};
}

/// The folder an environment variable names. A relative path is taken from the working
/// directory when it exists there, else from the workspace root: `cargo test` runs each crate's
/// tests in that crate's folder, while the variable was most likely set for the folder `cargo`
/// was started in, the workspace root (`NAVKIT_CORPUS=../shared/corpus cargo test`).
fn env_dir(var: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os(var)?);
    if dir.is_absolute() || dir.is_dir() {
        return Some(dir);
    }
    let from_root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(&dir);
    Some(if from_root.is_dir() { from_root } else { dir })
}

/// The corpus root: `NAVKIT_CORPUS` (a relative path from the working directory, else from the
/// workspace root), else `../shared/corpus` from the working directory or from
/// the workspace this crate was built in. `None` when none exists.
pub fn corpus_root() -> Option<PathBuf> {
    if let Some(dir) = env_dir("NAVKIT_CORPUS") {
        return dir.is_dir().then_some(dir);
    }
    let from_manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    [PathBuf::from("../shared/corpus"), from_manifest]
        .into_iter()
        .find(|p| p.is_dir())
}

/// The corpus folder of one format (`quake`), or `None` after printing why it is skipped.
///
/// # Panics
/// When `NAVKIT_REQUIRE_CORPUS` is set and the folder is absent: CI must not skip.
pub fn corpus_dir(format_dir: &str) -> Option<PathBuf> {
    let dir = corpus_root()
        .map(|r| r.join(format_dir))
        .filter(|d| d.is_dir());
    if dir.is_none() {
        skip_without_corpus(&format!(
            "corpus folder `{format_dir}` not found (set NAVKIT_CORPUS, or put shared/ beside the checkout)"
        ));
    }
    dir
}

/// Whether `NAVKIT_REQUIRE_CORPUS` is set (to anything but `0`), as CI sets it: the corpus is
/// there, and no test may skip.
pub fn corpus_required() -> bool {
    std::env::var_os("NAVKIT_REQUIRE_CORPUS").is_some_and(|v| v != "0")
}

/// Says that a test cannot check what it is for, because `what` is missing: a note on standard
/// error, after which the caller returns. Every test that skips goes through here (or through
/// [`corpus_dir`] and [`real_file`], which do), so a skip is always loud, and never silent in CI.
///
/// # Panics
/// When [`corpus_required`]: CI must not skip.
pub fn skip_without_corpus(what: &str) {
    if corpus_required() {
        panic!("{what}, and NAVKIT_REQUIRE_CORPUS is set");
    }
    eprintln!("note: skipping: {what}");
}

/// One real file of `format_dir` by its file name, from the corpus folder or else the incoming
/// folder (as [`real_files`] walks them); `None` after [`skip_without_corpus`] when neither
/// holds it.
///
/// # Panics
/// When the file is missing and [`corpus_required`].
pub fn real_file(format_dir: &str, name: &str) -> Option<PathBuf> {
    let found = real_files(format_dir)
        .into_iter()
        .map(|(_, p)| p)
        .find(|p| p.file_name().is_some_and(|n| n == name));
    if found.is_none() {
        skip_without_corpus(&format!(
            "`{name}` is in neither the corpus nor the incoming folder `{format_dir}`"
        ));
    }
    found
}

/// The incoming folder of one format (`source`), or `None`, quietly, when it is absent.
///
/// `../shared/incoming/<format>/` holds real files navkit did not read right when they arrived;
/// each moves into the corpus once its issue is resolved. The root is `NAVKIT_INCOMING`, else the
/// `incoming` folder beside the corpus root. Tests walk it with the same expectations as the
/// corpus; unlike the corpus it is optional, so no note is printed and CI does not require it.
pub fn incoming_dir(format_dir: &str) -> Option<PathBuf> {
    let root = match env_dir("NAVKIT_INCOMING") {
        Some(dir) => dir,
        None => corpus_root()?.parent()?.join("incoming"),
    };
    Some(root.join(format_dir)).filter(|d| d.is_dir())
}

/// Every real file of one format: the corpus folder's files (skipped with a note, or a panic under
/// `NAVKIT_REQUIRE_CORPUS`, as [`corpus_dir`] does) followed by the incoming folder's (skipped
/// quietly). Each entry is the folder walked and the file, so names can be shown relative to it.
///
/// A format whose real files are all still incoming (Source 2's) has no corpus folder: when the
/// incoming folder exists, the missing corpus folder is only a note, even under
/// `NAVKIT_REQUIRE_CORPUS`, since files are checked all the same.
pub fn real_files(format_dir: &str) -> Vec<(PathBuf, PathBuf)> {
    let incoming = incoming_dir(format_dir);
    let corpus = if incoming.is_some() {
        let dir = corpus_root()
            .map(|r| r.join(format_dir))
            .filter(|d| d.is_dir());
        if dir.is_none() {
            eprintln!(
                "note: corpus folder `{format_dir}` not found; its incoming folder is checked"
            );
        }
        dir
    } else {
        corpus_dir(format_dir)
    };
    [corpus, incoming]
        .into_iter()
        .flatten()
        .flat_map(|dir| {
            corpus_files(&dir)
                .into_iter()
                .map(move |f| (dir.clone(), f))
        })
        .collect()
}

/// Every data file below `dir`, sorted, recursively: not the `PROVENANCE.tsv`/`SUMMARY*.tsv`
/// and `.md` notes, not folders whose names start with `_` or `.` (research tools).
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name.starts_with('_') {
            continue;
        }
        if path.is_dir() {
            walk(&path, out);
        } else if !(name.ends_with(".tsv") || name.ends_with(".md")) {
            out.push(path);
        }
    }
}

/// The largest file of one format's corpus folder outside `negative/`, with its bytes: what the
/// benchmarks run on. `None` after [`skip_without_corpus`] (a panic under `NAVKIT_REQUIRE_CORPUS`)
/// when there is none.
pub fn largest_corpus_file(format_dir: &str) -> Option<(PathBuf, Vec<u8>)> {
    let dir = corpus_dir(format_dir)?;
    let largest = corpus_files(&dir)
        .into_iter()
        .filter(|p| !is_negative(p))
        .max_by_key(|p| std::fs::metadata(p).map_or(0, |m| m.len()));
    match largest.map(|p| (std::fs::read(&p), p)) {
        Some((Ok(bytes), path)) => Some((path, bytes)),
        Some((Err(e), path)) => {
            skip_without_corpus(&format!("cannot read {}: {e}", path.display()));
            None
        }
        None => {
            skip_without_corpus(&format!("corpus folder `{format_dir}` is empty"));
            None
        }
    }
}

/// Whether a corpus path lies in a `negative/` folder (files the format must refuse).
pub fn is_negative(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == "negative")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_diff_points_at_the_byte() {
        assert_eq!(hex_diff(b"abc", b"abc"), None);
        let d = hex_diff(&[0, 1, 2, 3], &[0, 1, 9, 3]).unwrap();
        assert!(
            d.starts_with("bytes differ at offset 0x2 (expected 4 bytes, got 4)"),
            "{d}"
        );
        assert!(d.contains("[02]") && d.contains("[09]"), "{d}");
        assert_eq!(first_difference(b"ab", b"abc"), Some(2));
    }

    #[test]
    #[should_panic(expected = "bytes differ at offset 0x1")]
    fn assert_bytes_eq_panics_with_diff() {
        assert_bytes_eq!([1u8, 2], [1u8, 3]);
    }

    #[test]
    fn walker_skips_notes_and_tools() {
        let root = std::env::temp_dir().join(format!("navkit-walk-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(root.join("_tools")).unwrap();
        std::fs::create_dir_all(root.join("negative")).unwrap();
        for f in [
            "a.nav",
            "PROVENANCE.tsv",
            "README.md",
            "_tools/x.py",
            "negative/b.nav",
        ] {
            std::fs::write(root.join(f), b"x").unwrap();
        }
        let files = corpus_files(&root);
        let names: Vec<_> = files
            .iter()
            .map(|p| p.strip_prefix(&root).unwrap().to_owned())
            .collect();
        assert_eq!(
            names,
            [PathBuf::from("a.nav"), PathBuf::from("negative/b.nav")]
        );
        assert!(is_negative(&files[1]) && !is_negative(&files[0]));
        std::fs::remove_dir_all(&root).unwrap();
    }
}

/// One real file as [`real_files_round_trip`] hands it to the crate's own checks.
#[derive(Debug)]
pub struct RealFile {
    /// The path relative to the folder walked (`nav2-original/ry_dm7_v15.nav`).
    pub name: String,
    /// The whole path.
    pub path: PathBuf,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// What [`real_files_round_trip`] saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CorpusTally {
    /// Files that round-tripped and passed every check.
    pub passed: usize,
    /// Files under `negative/` that the format refused, as it must.
    pub refused: usize,
    /// Files that round-tripped but `validate` finds an error in, each as `name: first error`
    /// (a real file can be broken: a plugin whose master is missing). The caller decides which
    /// are expected.
    pub with_errors: Vec<String>,
}

/// The corpus loop every format crate runs, over [`real_files`] of `format_dir` (the corpus
/// folder, skipped with a note when absent, then the incoming folder):
///
/// - a file under `negative/` must be refused by [`crate::Format::read`];
/// - every other file must pass [`crate::oracle::roundtrip_bytes`] (view writer, model writer,
///   streaming writer, summaries, read-back);
/// - a file that `validate` finds no error in must come through [`crate::Format::fix`]
///   untouched (no change reported, the model equal);
/// - then `each` runs the crate's own checks (JSON, measured facts), and an `Err` fails the file.
///
/// Prints one line of counts.
///
/// # Panics
/// After the whole walk, when any file failed, listing every failure.
pub fn real_files_round_trip<F>(
    format: &F,
    format_dir: &str,
    each: impl FnMut(&RealFile, &F::Model) -> Result<(), String>,
) -> CorpusTally
where
    F: crate::Format + ?Sized,
{
    real_files_round_trip_where(format, format_dir, |_, _| true, each)
}

/// [`real_files_round_trip`] over the files `keep` accepts, given the folder walked and the
/// file's path: for a format whose folder also holds another format's files (Skyrim plugins
/// beside the NVNM blobs in `skyrim/nvnm/`).
pub fn real_files_round_trip_where<F>(
    format: &F,
    format_dir: &str,
    keep: impl Fn(&Path, &Path) -> bool,
    mut each: impl FnMut(&RealFile, &F::Model) -> Result<(), String>,
) -> CorpusTally
where
    F: crate::Format + ?Sized,
{
    let mut tally = CorpusTally::default();
    let mut failures = Vec::new();
    for (dir, path) in real_files(format_dir) {
        if !keep(&dir, &path) {
            continue;
        }
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let file = RealFile { name, path, bytes };
        if is_negative(&file.path) {
            match format.read(&file.bytes) {
                Err(_) => tally.refused += 1,
                Ok(_) => failures.push(format!("{}: a negative file was read", file.name)),
            }
            continue;
        }
        let model = match crate::oracle::roundtrip_bytes(format, &file.bytes) {
            Ok(m) => m,
            Err(e) => {
                failures.push(format!("{}: {e}", file.name));
                continue;
            }
        };
        let first_error = format
            .validate(&model)
            .into_iter()
            .find(|f| f.severity == crate::Severity::Error);
        if let Some(error) = first_error {
            tally.with_errors.push(format!("{}: {error}", file.name));
        } else {
            let mut fixed = model.clone();
            let changes = format.fix(&mut fixed);
            if !changes.is_empty() || fixed != model {
                failures.push(format!(
                    "{}: validates clean, but fix changed it: {changes:?}",
                    file.name
                ));
                continue;
            }
        }
        match each(&file, &model) {
            Ok(()) => tally.passed += 1,
            Err(e) => failures.push(format!("{}: {e}", file.name)),
        }
    }
    println!(
        "{}: {} real files round-tripped, {} negative files refused, {} with validation errors, {} failed",
        format.name(),
        tally.passed,
        tally.refused,
        tally.with_errors.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{}: {} real files failed:\n{}",
        format.name(),
        failures.len(),
        failures.join("\n")
    );
    tally
}

/// What [`fix_files`] saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FixTally {
    /// Files with no error of a kind `fix` mends, which came back untouched.
    pub unchanged: usize,
    /// Files with such errors, which `fix` mended.
    pub mended: usize,
}

/// The `fix` loop every format crate runs over its real files (and, where it has no public
/// files, its samples). Files under `negative/` are left out; every other file must read, and
/// then:
///
/// - after [`crate::Format::fix`], no error finding that `mends` accepts is left, the fixed
///   model writes, reads back equal, and a second `fix` changes nothing;
/// - a file with no error that `mends` accepts comes back untouched: no change line, an equal
///   model, and the writer gives the input bytes exactly;
/// - a file with such errors has fewer errors after the fix.
///
/// `mends` is the crate's rule for the kinds of error its `fix` mends; the rest (a duplicate
/// id, where no fix can tell which record is meant) is left to people. Prints one line of
/// counts, and every mended file's errors before and after with the change lines.
///
/// # Panics
/// On the first file that breaks a rule, naming it.
pub fn fix_files<F>(
    format: &F,
    files: impl IntoIterator<Item = PathBuf>,
    mends: impl Fn(&crate::Finding) -> bool,
) -> FixTally
where
    F: crate::Format + ?Sized,
{
    let errors = |m: &F::Model| -> Vec<crate::Finding> {
        format
            .validate(m)
            .into_iter()
            .filter(|f| f.severity == crate::Severity::Error)
            .collect()
    };
    let mut tally = FixTally::default();
    for path in files.into_iter().filter(|p| !is_negative(p)) {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let model = format
            .read(&bytes)
            .unwrap_or_else(|e| panic!("{name}: does not read: {e}"));
        let before = errors(&model);
        let mut fixed = model.clone();
        let changes = format.fix(&mut fixed);
        let after = errors(&fixed);
        let left: Vec<_> = after.iter().filter(|f| mends(f)).collect();
        assert!(left.is_empty(), "{name}: fix left {left:#?}");
        let written = format
            .write(&fixed)
            .unwrap_or_else(|e| panic!("{name}: the fixed model does not write: {e}"));
        let mut back = format
            .read(&written)
            .unwrap_or_else(|e| panic!("{name}: the fixed model's bytes do not read: {e}"));
        assert!(
            back == fixed,
            "{name}: the fixed model does not read back equal"
        );
        let second = format.fix(&mut back);
        assert!(
            second.is_empty(),
            "{name}: a second fix changed {second:#?}"
        );
        if before.iter().any(&mends) {
            assert!(
                after.len() < before.len(),
                "{name}: {} errors before fix, {} after",
                before.len(),
                after.len()
            );
            eprintln!(
                "{name}: {} errors before fix, {} after; changes:\n  {}",
                before.len(),
                after.len(),
                changes.join("\n  ")
            );
            tally.mended += 1;
        } else {
            assert!(changes.is_empty(), "{name}: fix changed {changes:#?}");
            assert!(fixed == model, "{name}: fix changed the model");
            if let Some(diff) = hex_diff(&bytes, &written) {
                panic!("{name}: fix left the model alone, but it writes other bytes:\n{diff}");
            }
            tally.unchanged += 1;
        }
    }
    println!(
        "{} fix: {} files with no error fix mends came back unchanged, {} mended",
        format.name(),
        tally.unchanged,
        tally.mended
    );
    tally
}

/// Asserts that every finding has a [`crate::Place`] whose first step is one of `roots` (the
/// model's top-level fields and lists as the format names them) and a location text. `what`
/// names the model in the message. Returns the number of findings checked.
///
/// # Panics
/// On the first finding that breaks the rule.
pub fn assert_places(what: &str, findings: &[crate::Finding], roots: &[&str]) -> usize {
    for f in findings {
        let root = f.place.root();
        assert!(
            root.is_some_and(|r| roots.contains(&r)),
            "{what}: finding `{f}` has place {:?}, whose first step is not one of {roots:?}",
            f.place
        );
        assert!(
            !f.location.is_empty(),
            "{what}: finding `{f}` has no location text"
        );
    }
    findings.len()
}

/// [`assert_places`] over the findings of `validate` on every file of `files` outside
/// `negative/` that reads. Returns the number of files read and of findings checked.
///
/// # Panics
/// On the first finding that breaks the rule.
pub fn files_have_places<F>(
    format: &F,
    files: impl IntoIterator<Item = PathBuf>,
    roots: &[&str],
) -> (usize, usize)
where
    F: crate::Format + ?Sized,
{
    let (mut read, mut checked) = (0, 0);
    for path in files.into_iter().filter(|p| !is_negative(p)) {
        let name = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let Ok(model) = format.read(&bytes) else {
            continue;
        };
        read += 1;
        checked += assert_places(&name, &format.validate(&model), roots);
    }
    println!(
        "{}: {checked} findings of {read} files have a place",
        format.name()
    );
    (read, checked)
}

/// The paths of [`real_files`] of `format_dir`: the corpus folder's, then the incoming
/// folder's.
pub fn real_paths(format_dir: &str) -> Vec<PathBuf> {
    real_files(format_dir).into_iter().map(|(_, p)| p).collect()
}

/// What [`arbitrary_models`] saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ArbitraryTally {
    /// Models the writer accepted, which read back equal.
    pub written: usize,
    /// Models the writer refused (with an error, as it must for what the format cannot hold).
    pub refused: usize,
}

/// The arbitrary-model loop every format crate runs: for each seed in `0..seeds`, a model made
/// by `arbitrary` from [`noise`] of `len(seed)` bytes goes through
/// [`crate::oracle::roundtrip_model`], after `validate` (which must not panic on any model).
/// `each` sees every model the writer accepted, with its bytes, for checks of the crate's own.
///
/// # Panics
/// On the first model that does not round-trip, naming its seed and printing it.
pub fn arbitrary_models<F>(
    format: &F,
    seeds: u64,
    len: impl Fn(u64) -> usize,
    mut each: impl FnMut(&F::Model, &[u8]),
) -> ArbitraryTally
where
    F: crate::Format + ?Sized,
    F::Model: for<'a> arbitrary::Arbitrary<'a>,
{
    use arbitrary::{Arbitrary, Unstructured};
    let mut tally = ArbitraryTally::default();
    for seed in 0..seeds {
        let data = noise(seed, len(seed));
        let Ok(model) = F::Model::arbitrary(&mut Unstructured::new(&data)) else {
            continue;
        };
        let _ = format.validate(&model);
        match crate::oracle::roundtrip_model(format, &model) {
            Ok(Some(bytes)) => {
                tally.written += 1;
                each(&model, &bytes);
            }
            Ok(None) => tally.refused += 1,
            Err(e) => panic!("{}: seed {seed}: {e}\n{model:#?}", format.name()),
        }
    }
    println!(
        "{}: {} arbitrary models written and read back equal, {} refused by the writer",
        format.name(),
        tally.written,
        tally.refused
    );
    tally
}

/// Whether `NAVKIT_BLESS` asks golden files to be rewritten.
pub fn blessing() -> bool {
    std::env::var_os("NAVKIT_BLESS").is_some_and(|v| v != "0")
}

/// The golden-file check every crate runs on its `samples/`: with `NAVKIT_BLESS=1` it writes
/// `bytes` to `path` (making the folder), otherwise the file must hold exactly `bytes`. The
/// error says which file, where it differs (a hex diff) and how to rewrite it.
pub fn golden_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if blessing() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        return std::fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()));
    }
    let on_disk = std::fs::read(path).map_err(|e| {
        format!(
            "{}: {e} (run with NAVKIT_BLESS=1 to write it)",
            path.display()
        )
    })?;
    match hex_diff(bytes, &on_disk) {
        None => Ok(()),
        Some(diff) => Err(format!(
            "{} is stale (run with NAVKIT_BLESS=1 to rewrite it)\n{diff}",
            path.display()
        )),
    }
}
