//! The commands, one function each: read the files, call the registry, print.

use std::path::{Path, PathBuf};

use nav_core::geometry::UpAxis;
use nav_core::{Finding, Severity};
use serde_json::json;

use super::args::UpArg;
use super::output::{
    detect, detect_or_fail, input_error, out_raw, pretty_json, print_json, read, read_input,
    summary_json, write_atomically, write_out,
};
use super::{CmdResult, Failure};
use crate::registry::{self, AnyFormat, FORMATS};
use crate::walk;

pub(super) fn info(forced: Option<&'static dyn AnyFormat>, path: &Path, json: bool) -> CmdResult {
    let bytes = read_input(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    let summary = format.info(&bytes).map_err(|e| input_error(path, e))?;
    if json {
        print_json(&summary_json(path, bytes.len(), &summary));
    } else {
        let width = summary
            .counts
            .iter()
            .map(|(k, _)| k.len())
            .max()
            .unwrap_or(0)
            .max(7);
        out!("{:<width$} {}", "file", path.display());
        match &summary.variant {
            Some(v) => out!("{:<width$} {} ({v})", "format", summary.format),
            None => out!("{:<width$} {}", "format", summary.format),
        }
        out!("{:<width$} {}", "version", summary.version);
        out!("{:<width$} {} bytes", "size", bytes.len());
        for (name, count) in &summary.counts {
            out!("{name:<width$} {count}");
        }
    }
    Ok(())
}

/// Streams the JSON document of a file's model to `out` (`-` for standard output).
pub(super) fn model_document(
    format: &dyn AnyFormat,
    path: &Path,
    bytes: &[u8],
    out: &Path,
) -> CmdResult {
    use crate::registry::JsonError;
    let failed = |e: JsonError| match e {
        JsonError::Input(e) => input_error(path, e),
        // A closed pipe (`navkit dump --json x | head`) ends the output quietly.
        JsonError::Output(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Failure::Reported,
        JsonError::Output(e) if out == Path::new("-") => {
            Failure::Input(format!("standard output: {e}"))
        }
        JsonError::Output(e) => input_error(out, e),
    };
    if out == Path::new("-") {
        return format
            .to_json(bytes, &mut std::io::stdout().lock())
            .map_err(failed);
    }
    write_atomically(out, |file| format.to_json(bytes, file).map_err(failed))
}

pub(super) fn dump(forced: Option<&'static dyn AnyFormat>, path: &Path, json: bool) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    if json {
        model_document(format, path, &bytes, Path::new("-"))?;
    } else {
        let text = format.dump(&bytes).map_err(|e| input_error(path, e))?;
        out_raw(&text);
    }
    Ok(())
}

pub(super) fn to_json(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out: &Path,
) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    model_document(format, path, &bytes, out)
}

/// Reads the document twice when it does not name `--format`: once for the `"format"` string
/// (which `to-json` writes first, so that this stops at once), once for the model.
pub(super) fn from_json(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out: &Path,
) -> CmdResult {
    use crate::json::FormatField;
    let open = || {
        std::fs::File::open(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
    };
    let format = match forced {
        Some(f) => f,
        None => match crate::json::format_name(&mut open()?) {
            Ok(FormatField::Named(name)) => registry::by_name(&name)
                .ok_or_else(|| input_error(path, format!("unknown format `{name}`")))?,
            Ok(FormatField::Missing) => {
                return Err(input_error(
                    path,
                    "no \"format\" field; make the file with `navkit to-json`, or name the format with --format",
                ));
            }
            Err(e) => return Err(input_error(path, format!("not JSON: {e}"))),
        },
    };
    let (bytes, refreshed) = format
        .read_json(crate::json::Input::File(path))
        .map_err(|e| input_error(path, e))?;
    for line in refreshed {
        eprintln!("navkit: {}: {line}", path.display());
    }
    write_out(out, &bytes)
}

/// Files of this size or more are rewritten as streams ([`rewrite`]).
const STREAM_FROM: u64 = 64 << 20;

pub(super) fn rewrite(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out: &Path,
    stream: bool,
) -> CmdResult {
    let len = std::fs::metadata(path)
        .map_err(|e| input_error(path, e))?
        .len();
    if stream || len >= STREAM_FROM {
        return rewrite_stream(forced, path, len, out);
    }
    let mut bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    // The input's buffer takes the output: one file-sized buffer, not two.
    format
        .rewrite_in_place(&mut bytes)
        .map_err(|e| input_error(path, e))?;
    write_out(out, &bytes)
}

/// [`rewrite`] through streams ([`AnyFormat::rewrite_stream`]): the format is picked from the
/// file's first bytes, the model read from a buffered reader and written through a buffered
/// writer, so a whole game's plugin is never in memory beside its model. The output goes to a
/// temporary file that replaces `out` at the end ([`write_atomically`]), so `out` may be `path`.
fn rewrite_stream(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    len: u64,
    out: &Path,
) -> CmdResult {
    use std::io::{BufReader, Read, Write};
    let open = || std::fs::File::open(path).map_err(|e| input_error(path, e));
    let mut head = Vec::new();
    open()?
        .take(64 << 10)
        .read_to_end(&mut head)
        .map_err(|e| input_error(path, e))?;
    let format = detect_or_fail(forced, path, &head)?;
    // A refusal names the input; any other error is one of reading or writing.
    let failed = |e: std::io::Error| match nav_core::error::refused(&e) {
        Some(refusal) => input_error(path, refusal),
        None => Failure::Input(format!("{} -> {}: {e}", path.display(), out.display())),
    };
    let mut input = BufReader::new(open()?);
    if out == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        return format
            .rewrite_stream(&mut input, len, &mut stdout)
            .and_then(|()| stdout.flush())
            .map_err(failed);
    }
    write_atomically(out, |writer| {
        format
            .rewrite_stream(&mut input, len, writer)
            .map_err(failed)
    })
}

/// What checking one file of a batch gave.
enum Checked {
    /// The file could not be read.
    Unreadable(String),
    /// No format recognises the file.
    Unrecognised,
    /// The round trip's outcome: parts checked inside the file, or why it failed.
    Done(&'static str, Result<usize, String>),
}

pub(super) fn roundtrip(
    forced: Option<&'static dyn AnyFormat>,
    paths: &[PathBuf],
    exclude: &[String],
    json: bool,
    jobs: Option<usize>,
) -> CmdResult {
    let files = walk::files(paths, exclude).map_err(Failure::Input)?;
    let mut progress = walk::Progress::new(files.len());
    let (mut passed, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let mut results = Vec::new();
    let check = |(path, _): &(PathBuf, bool)| {
        let done = walk::with_file(path, |bytes| {
            let Some(format) = detect(forced, path, bytes) else {
                return Checked::Unrecognised;
            };
            let outcome = format.roundtrip(bytes).map_err(|f| match f.part {
                Some(part) => format!("{part}: {}", f.error),
                None => f.error.to_string(),
            });
            Checked::Done(format.name(), outcome.map(|ok| ok.parts))
        });
        done.unwrap_or_else(|e| Checked::Unreadable(format!("cannot read: {e}")))
    };
    walk::for_each_ordered_by_cost(
        &files,
        walk::threads(jobs),
        walk::file_size,
        check,
        |(path, named), checked| {
            progress.step(&path.display().to_string());
            let (format, outcome) = match checked {
                Checked::Unreadable(e) => (None, Err(e)),
                // In directories, only files with a known signature or ending are tried.
                Checked::Unrecognised if !*named => {
                    skipped += 1;
                    return;
                }
                Checked::Unrecognised => (None, Err("not a format this build recognises".into())),
                Checked::Done(format, outcome) => (Some(format), outcome),
            };
            match &outcome {
                Ok(_) => passed += 1,
                Err(_) => failed += 1,
            }
            progress.clear();
            report(json, &mut results, path, format, outcome);
        },
    );
    progress.clear();
    if json {
        print_json(
            &json!({ "passed": passed, "failed": failed, "skipped": skipped, "files": results }),
        );
    } else {
        if skipped > 0 {
            let s = if skipped == 1 { "" } else { "s" };
            out!("{skipped} file{s} skipped: no format recognises them");
        }
        out!("{passed} passed, {failed} failed");
    }
    if failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

pub(super) fn report(
    json: bool,
    results: &mut Vec<serde_json::Value>,
    path: &Path,
    format: Option<&str>,
    outcome: Result<usize, String>,
) {
    if json {
        results.push(match &outcome {
            Ok(parts) => json!({ "file": path.display().to_string(), "format": format, "ok": true, "parts": parts }),
            Err(e) => json!({ "file": path.display().to_string(), "format": format, "ok": false, "error": e }),
        });
        return;
    }
    let fmt = format.map(|f| format!(" ({f})")).unwrap_or_default();
    match outcome {
        Ok(0) => out!("ok    {}{fmt}", path.display()),
        Ok(parts) => out!("ok    {}{fmt}, {parts} parts inside", path.display()),
        Err(e) => out!("FAIL  {}{fmt}: {e}", path.display()),
    }
}

/// How many differences `diff` prints without `--all`.
const DIFF_LINES: usize = 50;

pub(super) fn diff(
    forced: Option<&'static dyn AnyFormat>,
    a: &Path,
    b: &Path,
    all: bool,
    json: bool,
) -> CmdResult {
    // Exit 1 means "they differ", so a file that cannot be read is trouble: exit 2.
    let trouble = |f: Failure| match f {
        Failure::Input(msg) => Failure::Usage(msg),
        other => other,
    };
    // Each model is dropped once its flat form is made.
    let flat = |path: &Path| -> Result<(&'static dyn AnyFormat, crate::diff::Flat), Failure> {
        let bytes = read(path).map_err(trouble)?;
        let format = detect_or_fail(forced, path, &bytes).map_err(trouble)?;
        let unreadable = |e| Failure::Usage(format!("{}: {e}", path.display()));
        let model = format.open(&bytes).map_err(unreadable)?;
        // Room for all of it: the flat need not be copied as it grows.
        let room = crate::diff::Flat::room_for(bytes.len());
        drop(bytes);
        let flat = model.model_flat(None, room).map_err(unreadable)?;
        Ok((format, flat))
    };
    // The two files are read and serialised side by side, a thread each: serialising is nearly
    // all of the work, and the two are independent. Each flat numbers its names on its own;
    // `diff_flat` renumbers the second only where its names came in another order.
    let (first, second) = std::thread::scope(|s| {
        let second = s.spawn(|| flat(b));
        (flat(a), second.join())
    });
    let (fa, ta) = first?;
    let (fb, tb) = second.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    if fa.name() != fb.name() {
        return Err(Failure::Usage(format!(
            "{} is {} and {} is {}: diff compares two files of one format",
            a.display(),
            fa.name(),
            b.display(),
            fb.name()
        )));
    }
    let changes = crate::diff::diff_flat(fa.name(), &ta, &tb);
    drop((ta, tb));
    if json {
        let list: Vec<serde_json::Value> = changes
            .iter()
            .map(|c| match &c.kind {
                crate::diff::ChangeKind::Added => json!({ "path": c.path, "change": "added" }),
                crate::diff::ChangeKind::Removed => json!({ "path": c.path, "change": "removed" }),
                crate::diff::ChangeKind::Changed(old, new) => {
                    json!({ "path": c.path, "change": "changed", "old": old, "new": new })
                }
            })
            .collect();
        print_json(&json!({
            "a": a.display().to_string(),
            "b": b.display().to_string(),
            "format": fa.name(),
            "equal": changes.is_empty(),
            "count": changes.len(),
            "differences": list,
        }));
    } else {
        let shown = if all { changes.len() } else { DIFF_LINES };
        let mut text = String::new();
        for c in changes.iter().take(shown) {
            text.push_str(&c.to_string());
            text.push('\n');
        }
        let rest = changes.len().saturating_sub(shown);
        if rest > 0 {
            let s = if rest == 1 { "" } else { "s" };
            text.push_str(&format!(
                "... and {rest} more difference{s} (--all shows them)\n"
            ));
        }
        out_raw(&text);
    }
    if changes.is_empty() {
        Ok(())
    } else {
        Err(Failure::Reported)
    }
}

pub(super) fn fix(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out: Option<&Path>,
    check: bool,
    json: bool,
) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    let (fixed, changes) = format.fix(&bytes).map_err(|e| input_error(path, e))?;
    // What fix could not mend: errors `validate` still finds in the result.
    let remaining: Vec<Finding> = format
        .validate(&fixed)
        .map_err(|e| input_error(path, format!("fixed file does not read back: {e}")))?
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .collect();
    if let Some(out) = out {
        write_out(out, &fixed)?;
    }
    if json {
        print_json(&json!({
            "file": path.display().to_string(),
            "format": format.name(),
            "output": out.map(|o| o.display().to_string()),
            "changes": changes,
            "remaining_errors": remaining,
        }));
    } else {
        for c in &changes {
            out!("{c}");
        }
        for f in &remaining {
            eprintln!("not fixed: {f}");
        }
        let n = changes.len();
        let noun = if n == 1 { "change" } else { "changes" };
        match out {
            Some(o) if n > 0 => out!("{}: {n} {noun}; wrote {}", path.display(), o.display()),
            Some(o) => out!(
                "{}: nothing to fix; wrote it unchanged to {}",
                path.display(),
                o.display()
            ),
            None if n == 0 => out!("{}: nothing to fix", path.display()),
            None => out!("{}: {n} {noun} needed", path.display()),
        }
    }
    if !remaining.is_empty() || (check && !changes.is_empty()) {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

/// One file's validation report as JSON.
fn validation_json(path: &Path, format: &str, findings: &[Finding]) -> serde_json::Value {
    let (errors, warnings, infos) = tally(findings);
    json!({
        "file": path.display().to_string(),
        "format": format,
        "errors": errors,
        "warnings": warnings,
        "infos": infos,
        "findings": findings,
    })
}

/// Error, warning and note counts of findings.
fn tally(findings: &[Finding]) -> (usize, usize, usize) {
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    )
}

/// `navkit validate` over several files or directories, on `jobs` threads, in input order.
pub(super) fn validate_many(
    forced: Option<&'static dyn AnyFormat>,
    paths: &[PathBuf],
    exclude: &[String],
    json: bool,
    jobs: Option<usize>,
) -> CmdResult {
    let files = walk::files(paths, exclude).map_err(Failure::Input)?;
    let mut progress = walk::Progress::new(files.len());
    let (mut totals, mut unreadable, mut skipped) = ((0, 0, 0), 0usize, 0usize);
    let mut reports = Vec::new();
    let check =
        |(path, _): &(PathBuf, bool)| -> Option<Result<(&'static str, Vec<Finding>), String>> {
            let done = walk::with_file(path, |bytes| {
                let format = detect(forced, path, bytes)?;
                Some(
                    format
                        .validate(bytes)
                        .map(|f| (format.name(), f))
                        .map_err(|e| e.to_string()),
                )
            });
            done.unwrap_or_else(|e| Some(Err(format!("cannot read: {e}"))))
        };
    walk::for_each_ordered_by_cost(
        &files,
        walk::threads(jobs),
        walk::file_size,
        check,
        |(path, named), checked| {
            progress.step(&path.display().to_string());
            let checked = match checked {
                Some(c) => c,
                // In directories, only files with a known signature or ending are checked.
                None if !*named => {
                    skipped += 1;
                    return;
                }
                None => Err("not a format this build recognises".to_string()),
            };
            progress.clear();
            match checked {
                Err(e) => {
                    unreadable += 1;
                    if json {
                        reports.push(json!({ "file": path.display().to_string(), "error": e }));
                    } else {
                        out!("{}: {e}", path.display());
                    }
                }
                Ok((format, findings)) => {
                    let (e, w, i) = tally(&findings);
                    totals = (totals.0 + e, totals.1 + w, totals.2 + i);
                    if json {
                        reports.push(validation_json(path, format, &findings));
                    } else {
                        for f in &findings {
                            out!("{}: {f}", path.display());
                        }
                        out!("{}: {e} errors, {w} warnings, {i} notes", path.display());
                    }
                }
            }
        },
    );
    progress.clear();
    let (errors, warnings, infos) = totals;
    let checked = files.len() - skipped - unreadable;
    if json {
        print_json(&json!({
            "files": reports,
            "checked": checked,
            "unreadable": unreadable,
            "skipped": skipped,
            "errors": errors,
            "warnings": warnings,
            "infos": infos,
        }));
    } else {
        if skipped > 0 {
            out!("{skipped} files skipped: no format recognises them");
        }
        out!(
            "{checked} files checked, {unreadable} unreadable: {errors} errors, {warnings} warnings, {infos} notes"
        );
    }
    if errors > 0 || unreadable > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

pub(super) fn validate(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    json: bool,
) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    let findings = format.validate(&bytes).map_err(|e| input_error(path, e))?;
    let (errors, warnings, infos) = tally(&findings);
    if json {
        print_json(&validation_json(path, format.name(), &findings));
    } else {
        for f in &findings {
            out!("{f}");
        }
        out!(
            "{}: {errors} errors, {warnings} warnings, {infos} notes",
            path.display()
        );
    }
    if errors > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

pub(super) fn build(
    forced: Option<&'static dyn AnyFormat>,
    mesh_path: &Path,
    up: UpArg,
    out: &Path,
) -> CmdResult {
    let format =
        forced.ok_or_else(|| Failure::Usage("build needs --format: the format to make".into()))?;
    if crate::import::MeshFile::of(mesh_path).is_none() {
        return Err(Failure::Usage(format!(
            "{}: build reads .obj, .gltf and .glb meshes",
            mesh_path.display()
        )));
    }
    let target = crate::import::target_up(format)
        .ok_or_else(|| Failure::Usage(format!("{} has no builder", format.name())))?
        .map_err(Failure::Input)?;
    let mesh_up = match up {
        UpArg::Y => UpAxis::Y,
        UpArg::Z => UpAxis::Z,
    };
    let mut mesh = crate::import::read_mesh(mesh_path, mesh_up, target).map_err(Failure::Input)?;
    let turned = mesh.face_up(target).map_err(|refused| {
        let s = if refused.len() == 1 { "" } else { "s" };
        let mut msg = format!(
            "{}: {} triangle{s} cannot be stored (triangles counted in file order, polygons fanned \
             from their first corner):",
            mesh_path.display(),
            refused.len()
        );
        for r in &refused {
            msg.push_str(&format!("\n  {r}"));
        }
        Failure::Input(msg)
    })?;
    if turned > 0 {
        let s = if turned == 1 { "" } else { "s" };
        eprintln!("navkit: turned {turned} triangle{s} that faced down to face up");
    }
    let built = format
        .build(&mesh)
        .ok_or_else(|| Failure::Usage(format!("{} has no builder", format.name())))?
        .map_err(|e| input_error(mesh_path, e))?;
    write_out(out, &built.model)?;
    // One line per warning, naming the triangle (counted as above).
    for w in &built.warnings {
        eprintln!("navkit: {}: {w}", mesh_path.display());
    }
    let warned = match built.warnings.len() {
        0 => String::new(),
        1 => ", 1 warning".to_string(),
        n => format!(", {n} warnings"),
    };
    eprintln!(
        "navkit: built {} from {} triangles ({} bytes{warned})",
        out.display(),
        mesh.triangles.len(),
        built.model.len()
    );
    Ok(())
}

/// The container's format, or a usage error for a format that holds no other files.
fn container(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    bytes: &[u8],
) -> Result<(&'static dyn AnyFormat, Vec<nav_core::Part<'static>>), Failure> {
    let format = detect_or_fail(forced, path, bytes)?;
    let parts = format.parts(bytes).map_err(|e| input_error(path, e))?;
    if parts.is_empty() {
        return Err(Failure::Usage(format!(
            "{}: this {} file holds no other files",
            path.display(),
            format.name()
        )));
    }
    Ok((format, parts))
}

pub(super) fn extract(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out_dir: &Path,
) -> CmdResult {
    let bytes = read(path)?;
    let (_, parts) = container(forced, path, &bytes)?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().replace(' ', "_"))
        .unwrap_or_else(|| "container".to_string());
    std::fs::create_dir_all(out_dir).map_err(|e| input_error(out_dir, e))?;
    for part in &parts {
        let ext = registry::by_name(part.format)
            .and_then(|f| f.extensions().first().copied())
            .unwrap_or("bin");
        let file = out_dir.join(format!("{stem}_{}.{ext}", part.name));
        write_out(&file, &part.bytes)?;
        out!("{}", file.display());
    }
    eprintln!("navkit: {} files extracted", parts.len());
    Ok(())
}

pub(super) fn replace(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    name: &str,
    new: &Path,
    out: &Path,
) -> CmdResult {
    let bytes = read(path)?;
    let (format, parts) = container(forced, path, &bytes)?;
    // Names match as `extract` writes them, with or without `0x`, in either case.
    let wanted = name
        .trim_start_matches("0x")
        .trim_start_matches("0X")
        .to_ascii_uppercase();
    let Some(found) = parts.iter().find(|p| p.name.to_ascii_uppercase() == wanted) else {
        let first = parts.first().map_or("", |p| p.name.as_str());
        return Err(Failure::Usage(format!(
            "{}: no part named `{name}` among its {} (named like `{first}`; `navkit extract` lists them)",
            path.display(),
            parts.len()
        )));
    };
    let part = read(new)?;
    // The new part must read as its format before it goes in.
    if let Some(f) = registry::by_name(found.format) {
        f.info(&part).map_err(|e| input_error(new, e))?;
    }
    let written = format
        .replace_part(&bytes, &found.name, &part)
        .map_err(|e| input_error(path, e))?;
    write_out(out, &written)
}

pub(super) fn conflicts(paths: &[PathBuf], json: bool) -> CmdResult {
    let mut models = Vec::new();
    for path in paths {
        let model = nav_core::Format::read(&nvnm_skyrim::Plugin, &read(path)?);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        models.push((name.into_owned(), model.map_err(|e| input_error(path, e))?));
    }
    let report = nvnm_skyrim::plugin::conflicts(&models);
    out_raw(&match json {
        true => pretty_json(&json!(report)) + "\n",
        false => report.to_string(),
    });
    Ok(())
}

pub(super) fn formats(json: bool) -> CmdResult {
    if json {
        let list: Vec<_> = FORMATS
            .iter()
            .map(|f| json!({ "name": f.name(), "description": f.description(), "extensions": f.extensions() }))
            .collect();
        print_json(&json!(list));
    } else {
        for f in FORMATS {
            let exts: Vec<String> = f.extensions().iter().map(|e| format!(".{e}")).collect();
            out!("{:<14} {} [{}]", f.name(), f.description(), exts.join(" "));
        }
    }
    Ok(())
}
