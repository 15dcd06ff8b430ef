//! `navkit export` and `navkit render`: one navmesh to an OBJ or glTF file or a picture, or many
//! exported into a folder on every core.
//!
//! A geometry may leave out parts of its file that could not be read
//! ([`Geometry::omitted`]): each is named on standard error, and the file is not written (exit 1)
//! unless `--skip-bad-parts` asks for the rest.

use std::path::{Path, PathBuf};

use nav_core::geometry::{Geometry, Omitted};

use super::output::{detect, detect_or_fail, ending, input_error, out_raw, read, write_out};
use super::{CmdResult, Failure};
use crate::registry::AnyFormat;
use crate::walk;

/// The geometry of one navmesh file, for `export` and `render`.
fn geometry_of(forced: Option<&'static dyn AnyFormat>, path: &Path) -> Result<Geometry, Failure> {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    format
        .geometry(&bytes)
        .map_err(|e| input_error(path, e))?
        .ok_or_else(|| {
            input_error(
                path,
                format!("{} has no geometry mapping yet", format.name()),
            )
        })
}

/// Prints one line on standard error per part of `path` that the geometry left out.
fn print_omitted(path: &Path, omitted: &[Omitted]) {
    for o in omitted {
        eprintln!(
            "navkit: {}: {} left out: {}",
            path.display(),
            o.part,
            o.reason
        );
    }
}

/// Why a geometry with parts left out is not written without `--skip-bad-parts`.
fn incomplete(omitted: &[Omitted]) -> String {
    let s = if omitted.len() == 1 { "" } else { "s" };
    format!(
        "{} part{s} left out, nothing written (--skip-bad-parts writes the rest)",
        omitted.len()
    )
}

/// The geometry of `path` ([`geometry_of`]), its omitted parts printed; a failure when parts
/// were left out and `skip_bad_parts` is not set.
fn complete_geometry(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    skip_bad_parts: bool,
) -> Result<Geometry, Failure> {
    let g = geometry_of(forced, path)?;
    print_omitted(path, &g.omitted);
    if !g.omitted.is_empty() && !skip_bad_parts {
        return Err(input_error(path, incomplete(&g.omitted)));
    }
    Ok(g)
}

pub(super) fn export(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out: &Path,
    skip_bad_parts: bool,
) -> CmdResult {
    let kind = ending(out);
    if kind != "obj" && kind != "glb" {
        return Err(Failure::Usage(format!(
            "{}: export writes .obj or .glb files",
            out.display()
        )));
    }
    let g = complete_geometry(forced, path, skip_bad_parts)?;
    let bytes = export_bytes(&g, &kind, path).map_err(|e| input_error(path, e))?;
    write_out(out, &bytes)?;
    eprintln!(
        "navkit: wrote {} ({} polygons, {} graph nodes, {} graph links)",
        out.display(),
        g.polygons.len(),
        g.nodes.len(),
        g.links.len()
    );
    Ok(())
}

pub(super) fn render(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    out: &Path,
    size: u32,
    route: &[String],
    skip_bad_parts: bool,
) -> CmdResult {
    let kind = ending(out);
    if kind != "png" && kind != "svg" {
        return Err(Failure::Usage(format!(
            "{}: render writes .png or .svg files",
            out.display()
        )));
    }
    if !(64..=crate::render::MAX_SIZE).contains(&size) {
        return Err(Failure::Usage(format!(
            "--size {size} is outside 64 to {}",
            crate::render::MAX_SIZE
        )));
    }
    let mut g = complete_geometry(forced, path, skip_bad_parts)?;
    if let [from, to] = route {
        super::navigate::overlay_path(forced, path, &mut g, from, to)?;
    }
    let bytes = if kind == "svg" {
        crate::render::to_svg(&g, size).into_bytes()
    } else {
        crate::render::to_png(&g, size).map_err(|e| input_error(path, e))?
    };
    write_out(out, &bytes)
}

/// The geometry as an `obj` or `glb` file, named after the navmesh it came from.
fn export_bytes(
    g: &nav_core::geometry::Geometry,
    kind: &str,
    path: &Path,
) -> Result<Vec<u8>, String> {
    let source = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if kind == "obj" {
        Ok(crate::export::to_obj(g, &source).into_bytes())
    } else {
        crate::export::to_glb(g, &source).map_err(|e| e.to_string())
    }
}

/// What exporting one file of a batch gave.
enum Exported {
    /// The file could not be read.
    Unreadable(String),
    /// No format recognises the file.
    Unrecognised,
    /// The format, the parts the geometry left out, and the polygon count written or why
    /// nothing was.
    Done(&'static str, Vec<Omitted>, Result<usize, String>),
}

/// The options of `navkit export` over many files.
pub(super) struct ExportOptions<'a> {
    /// The format of every file written.
    pub(super) kind: super::args::ExportKind,
    /// File and folder names left out of the search.
    pub(super) exclude: &'a [String],
    /// Files exported at once (default: one per core).
    pub(super) jobs: Option<usize>,
    /// Write a file whose geometry left parts out, rather than fail it.
    pub(super) skip_bad_parts: bool,
}

/// `navkit export` over several files or directories into the folder `out_dir`, on `jobs`
/// threads, reported in input order.
pub(super) fn export_many(
    forced: Option<&'static dyn AnyFormat>,
    paths: &[PathBuf],
    out_dir: &Path,
    options: ExportOptions<'_>,
) -> CmdResult {
    let ExportOptions {
        kind,
        exclude,
        jobs,
        skip_bad_parts,
    } = options;
    let ext = kind.ending();
    if matches!(ending(out_dir).as_str(), "obj" | "glb") {
        return Err(Failure::Usage(format!(
            "{}: several navmeshes are exported into a folder; name one with -o (and the \
             format with --as obj|glb)",
            out_dir.display()
        )));
    }
    if out_dir.exists() && !out_dir.is_dir() {
        return Err(Failure::Usage(format!(
            "{}: not a folder; several navmeshes are exported into a folder",
            out_dir.display()
        )));
    }
    // Each input with its output: `<file name>.<ext>`, below the folder at the place the file
    // has below the directory it was found in. Two inputs may not share an output.
    let mut jobs_list: Vec<((PathBuf, bool), PathBuf)> = Vec::new();
    let mut taken = std::collections::HashMap::new();
    for root in paths {
        for (file, named) in
            walk::files(std::slice::from_ref(root), exclude).map_err(Failure::Input)?
        {
            let rel = if named {
                PathBuf::from(file.file_name().unwrap_or_default())
            } else {
                file.strip_prefix(root).unwrap_or(&file).to_path_buf()
            };
            let mut name = rel.into_os_string();
            name.push(".");
            name.push(ext);
            let out = out_dir.join(name);
            if let Some(other) = taken.insert(out.clone(), file.clone()) {
                return Err(Failure::Usage(format!(
                    "{} and {} would both be exported to {}",
                    other.display(),
                    file.display(),
                    out.display()
                )));
            }
            jobs_list.push(((file, named), out));
        }
    }
    let mut progress = walk::Progress::new(jobs_list.len());
    let (mut exported, mut failed, mut skipped) = (0usize, 0usize, 0usize);
    let work = |((path, _), out): &((PathBuf, bool), PathBuf)| {
        let done = walk::with_file(path, |bytes| {
            let Some(format) = detect(forced, path, bytes) else {
                return Exported::Unrecognised;
            };
            let mut omitted = Vec::new();
            let written = (|| {
                let g = format
                    .geometry(bytes)
                    .map_err(|e| e.to_string())?
                    .ok_or_else(|| format!("{} has no geometry mapping yet", format.name()))?;
                omitted.clone_from(&g.omitted);
                if !omitted.is_empty() && !skip_bad_parts {
                    return Err(incomplete(&omitted));
                }
                let file = export_bytes(&g, ext, path)?;
                if let Some(parent) = out.parent() {
                    std::fs::create_dir_all(parent)
                        .map_err(|e| format!("{}: {e}", parent.display()))?;
                }
                write_out(out, &file).map_err(|f| match f {
                    Failure::Input(msg) | Failure::Usage(msg) => msg,
                    Failure::Reported => format!("{}: not written", out.display()),
                })?;
                Ok(g.polygons.len())
            })();
            Exported::Done(format.name(), omitted, written)
        });
        done.unwrap_or_else(|e| Exported::Unreadable(format!("cannot read: {e}")))
    };
    walk::for_each_ordered_by_cost(
        &jobs_list,
        walk::threads(jobs),
        |(file, _)| walk::file_size(file),
        work,
        |((path, named), out), result| {
            progress.step(&path.display().to_string());
            let (format, omitted, outcome) = match result {
                Exported::Unreadable(e) => (None, Vec::new(), Err(e)),
                // In directories, only files with a known signature or ending are exported.
                Exported::Unrecognised if !*named => {
                    skipped += 1;
                    return;
                }
                Exported::Unrecognised => (
                    None,
                    Vec::new(),
                    Err("not a format this build recognises".to_string()),
                ),
                Exported::Done(format, omitted, outcome) => (Some(format), omitted, outcome),
            };
            progress.clear();
            print_omitted(path, &omitted);
            let fmt = format.map(|f| format!(" ({f})")).unwrap_or_default();
            match outcome {
                Ok(polygons) => {
                    exported += 1;
                    out!(
                        "ok    {}{fmt} -> {}, {polygons} polygons",
                        path.display(),
                        out.display()
                    );
                }
                Err(e) => {
                    failed += 1;
                    out!("FAIL  {}{fmt}: {e}", path.display());
                }
            }
        },
    );
    progress.clear();
    if skipped > 0 {
        let s = if skipped == 1 { "" } else { "s" };
        out!("{skipped} file{s} skipped: no format recognises them");
    }
    out!("{exported} exported, {failed} failed");
    if failed > 0 {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}
