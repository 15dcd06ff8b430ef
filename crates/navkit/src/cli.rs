//! Command-line parsing and the commands.
//!
//! Every command reads whole files, finds the format ([`registry`]), and prints for people or as
//! JSON. Failures carry their exit status: 2 for usage, 1 for bad input or a failed check.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use nav_core::geometry::UpAxis;
use nav_core::{Finding, Severity, Summary};
use serde_json::json;

use crate::registry::{self, AnyFormat, FORMATS};
use crate::walk;

/// The help's closing text: the formats of the registry, then [`AFTER_HELP`].
fn after_help() -> String {
    let mut text = String::from("Formats (for --format):\n");
    let width = registry::FORMATS
        .iter()
        .map(|f| f.name().len())
        .max()
        .unwrap_or(0);
    for f in registry::FORMATS {
        text.push_str(&format!("  {:width$}  {}\n", f.name(), f.description()));
    }
    text + AFTER_HELP
}

/// The help's closing text after the list of formats.
const AFTER_HELP: &str = "\
The format is found from the file's signature; `navkit formats` lists what this build reads.

Flavours (for --flavour, the game layout of a nav-source file; it implies --format nav-source):
  base  Source SDK, Garry's Mod, HL2:DM, GoldSrc CS/CZ (no game data)
  cs    Counter-Strike: Source and CS:GO (sub-version 1)
  tf2   Team Fortress 2 (sub-version 2)
  l4d   Left 4 Dead (sub-versions 12 and 13)
  l4d2  Left 4 Dead 2 (sub-version 14)
Without --flavour it is detected: the sub-version's own game first, then the others.

Exit status: 0 success, 1 bad input or a failed check, 2 usage.

Examples:
  navkit info maps/e1m1.nav
  navkit roundtrip samples
  navkit to-json dm4.nav -o dm4.json && navkit from-json dm4.json -o dm4.nav
  navkit validate --json de_dust2.nav
  navkit dump --flavour l4d test_box2.nav
  navkit export de_dust2.nav -o de_dust2.glb
  navkit render de_dust2.nav -o de_dust2.png --size 2048
  navkit build --format nav2-mgsv level.obj -o level.nav2
  navkit export a.nvnm -o a.obj && navkit build --format nvnm-skyrim a.obj -o b.nvnm
  navkit diff a.nav b.nav";

/// Inspect, validate, convert and round-trip navigation meshes of five game engines.
#[derive(Debug, Parser)]
#[command(name = "navkit", version, about, after_help = after_help())]
struct Cli {
    /// Read the input as this format instead of detecting it (see the list below).
    #[arg(long, global = true, value_name = "NAME")]
    format: Option<String>,

    /// Read nav-source files as this game's layout instead of detecting it (see the list below).
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        value_parser = clap::builder::PossibleValuesParser::new(
            nav_source::Flavour::ALL.map(nav_source::Flavour::name)
        )
    )]
    flavour: Option<String>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Format, version, counts and size of a file.
    Info {
        /// The navmesh file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// The whole structure of a file: readable text, or the model as JSON with --json.
    Dump {
        /// The navmesh file.
        file: PathBuf,
        /// Print the model as JSON (the same document `to-json` writes).
        #[arg(long)]
        json: bool,
    },
    /// Write the complete model as JSON, to edit in a text editor or a script.
    ToJson {
        /// The navmesh file.
        file: PathBuf,
        /// Where to write the JSON (`-` for standard output).
        #[arg(short, long, value_name = "OUT.json")]
        output: PathBuf,
    },
    /// Write a navmesh file from JSON made by `to-json` (edited or not).
    FromJson {
        /// The JSON file.
        input: PathBuf,
        /// Where to write the navmesh.
        #[arg(short, long, value_name = "FILE")]
        output: PathBuf,
    },
    /// Parse a file into the model and write it out again.
    Rewrite {
        /// The navmesh file.
        file: PathBuf,
        /// Where to write the result.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Check that files survive parse and write byte for byte (directories are searched).
    ///
    /// Every file prints `ok` or `FAIL` with the reason; the last line is `N passed, M failed`.
    /// In directories, files no format recognises are skipped and counted; files named
    /// directly must be navmeshes.
    Roundtrip {
        /// Files and directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Leave out files and folders with this name when searching directories (repeatable).
        #[arg(long, value_name = "NAME")]
        exclude: Vec<String>,
        /// Print one JSON document instead of lines.
        #[arg(long)]
        json: bool,
        /// Files checked at once (default: one per core). Output order does not depend on it.
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
    },
    /// Structural differences of two files of one format, in model terms: one line per
    /// difference, sorted by path.
    ///
    /// Records pair by their id where the format has ids (Source areas and ladders, Skyrim
    /// plugin records by FormID), by index otherwise; floats compare by their bits. Exit 0 when
    /// the models are equal, 1 when they differ, 2 on usage or when a file cannot be read.
    Diff {
        /// The first file.
        a: PathBuf,
        /// The second file, of the same format.
        b: PathBuf,
        /// Print every difference (the default stops after 50 and counts the rest).
        #[arg(long)]
        all: bool,
        /// Print one JSON document with every difference.
        #[arg(long)]
        json: bool,
    },
    /// Make a file consistent again after an edit, and say what changed.
    ///
    /// Drops references to records that no longer exist (Source connections, encounter paths,
    /// visibility and ladder links to a deleted area; Quake links and traversals to a removed
    /// node) and recomputes derived structures that `validate` finds out of step with the
    /// geometry (Fox Engine segments and graphs; Skyrim adjacency, Found flags and grid;
    /// Silkroad edges and cell lists). Derived data that is already consistent is left as the
    /// game made it. One line per change; a file that needs no fix is written byte-identical.
    /// Afterwards the result is validated: exit 1 if an error remains that fix cannot mend.
    Fix {
        /// The navmesh file.
        file: PathBuf,
        /// Where to write the fixed file (may be the input itself).
        #[arg(short, long, value_name = "OUT", required_unless_present = "check")]
        output: Option<PathBuf>,
        /// Write nothing: list what would change, and exit 1 if anything would.
        #[arg(long, conflicts_with = "output")]
        check: bool,
        /// Print one JSON document instead of lines.
        #[arg(long)]
        json: bool,
    },
    /// Semantic checks (dangling indices, broken invariants); exit 1 if any is an error.
    Validate {
        /// The navmesh file.
        file: PathBuf,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Export the navmesh for a 3D tool: Wavefront OBJ (`.obj`) or glTF 2.0 binary (`.glb`).
    ///
    /// Coordinates are turned to Y-up, so the navmesh lines up with the level in Blender. OBJ has
    /// one group per attribute kind and graph links as lines; glTF has one primitive per kind with
    /// a coloured material and the kind's name in `extras`.
    Export {
        /// The navmesh file.
        file: PathBuf,
        /// Where to write; the ending picks the format (`.obj` or `.glb`).
        #[arg(short, long, value_name = "OUT.obj|OUT.glb")]
        output: PathBuf,
    },
    /// Draw the navmesh from above: PNG (`.png`) or SVG (`.svg`), coloured by attribute, with a legend.
    Render {
        /// The navmesh file.
        file: PathBuf,
        /// Where to write; the ending picks the format (`.png` or `.svg`).
        #[arg(short, long, value_name = "OUT.png|OUT.svg")]
        output: PathBuf,
        /// Length of the longer side of the plan, in pixels (64 to 8192).
        #[arg(long, default_value_t = 1024, value_name = "PX")]
        size: u32,
    },
    /// Make a new navmesh from a triangle mesh in OBJ or glTF (needs --format).
    ///
    /// The mesh is read Y-up, as OBJ and glTF define it (and as `export` and Blender write it),
    /// and turned to the game's world axes: the exact inverse of `export`. Triangles facing down
    /// are turned to face up (stderr says how many); vertical or degenerate ones are refused, each
    /// named by index. The result is laid out as the game lays out its own files, so that
    /// `navkit validate` finds nothing on it.
    Build {
        /// The triangle mesh (`.obj`, `.gltf` or `.glb`); polygons are fanned into triangles.
        mesh: PathBuf,
        /// Where to write the navmesh.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Which axis points up in the mesh: `y` (OBJ and glTF's own convention) or `z` (a mesh
        /// already in a Z-up game's axes).
        #[arg(long, value_enum, default_value_t = UpArg::Y)]
        up: UpArg,
    },
    /// Write every navmesh (NVNM) of a Skyrim plugin to `<plugin>_<FormID>.nvnm` files.
    Extract {
        /// The plugin (`.esp`, `.esm`, `.esl`).
        plugin: PathBuf,
        /// The folder to write into (made if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
    /// Put a navmesh (NVNM) back into a Skyrim plugin, fixing the record and group sizes.
    Replace {
        /// The plugin (`.esp`, `.esm`, `.esl`).
        plugin: PathBuf,
        /// FormID of the NAVM record, in hex (`0x0507C5B6` or `0507C5B6`).
        form_id: String,
        /// The new NVNM blob.
        nvnm: PathBuf,
        /// Where to write the new plugin.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
    },
    /// Navmeshes that more than one Skyrim plugin of a load order defines, and deleted ones.
    ///
    /// Plugins in load order (the last wins), FormIDs resolved through each one's masters. Per
    /// shared navmesh: override or same FormID, winner, geometry, differing edge links; per
    /// deleted one: the navmeshes still linking to it (the game crashes on such a link).
    Conflicts {
        /// The plugins (`.esp`, `.esm`, `.esl`), in load order.
        #[arg(required = true)]
        plugins: Vec<PathBuf>,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// List the formats this build reads and writes.
    Formats {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
}

/// The up axis of a mesh given to `build`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum UpArg {
    /// Y up, right-handed: OBJ and glTF as their specifications define them.
    Y,
    /// Z up, right-handed: the axes of Quake, Source and Skyrim.
    Z,
}

/// A failed command: what to print and how to exit.
enum Failure {
    /// Wrong use of the tool: exit 2.
    Usage(String),
    /// Bad input or a failed check: exit 1.
    Input(String),
    /// A check that printed its own report failed: exit 1, nothing more to say.
    Reported,
}

type CmdResult = Result<(), Failure>;

/// Writes one line to standard output. A closed pipe (`navkit dump x | head`) ends the program
/// quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        out_raw(&format!("{}\n", format_args!($($arg)*)))
    };
}

fn out_raw(text: &str) {
    use std::io::Write;
    if let Err(e) = std::io::stdout().lock().write_all(text.as_bytes()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("navkit: standard output: {e}");
        }
        std::process::exit(1);
    }
}

/// Runs the tool.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("navkit: {msg}");
            ExitCode::from(2)
        }
        Err(Failure::Input(msg)) => {
            eprintln!("navkit: {msg}");
            ExitCode::from(1)
        }
        Err(Failure::Reported) => ExitCode::from(1),
    }
}

fn run(cli: Cli) -> CmdResult {
    let forced = match cli.format.as_deref() {
        None => None,
        Some(name) => Some(registry::by_name(name).ok_or_else(|| {
            let names: Vec<_> = FORMATS.iter().map(|f| f.name()).collect();
            Failure::Usage(format!(
                "unknown format `{name}`; this build reads: {}",
                names.join(", ")
            ))
        })?),
    };
    let forced = match cli.flavour.as_deref() {
        None => forced,
        Some(name) => Some(flavoured(forced, name)?),
    };
    match cli.command {
        Command::Info { file, json } => info(forced, &file, json),
        Command::Dump { file, json } => dump(forced, &file, json),
        Command::ToJson { file, output } => to_json(forced, &file, &output),
        Command::FromJson { input, output } => from_json(forced, &input, &output),
        Command::Rewrite { file, output } => rewrite(forced, &file, &output),
        Command::Roundtrip {
            paths,
            exclude,
            json,
            jobs,
        } => roundtrip(forced, &paths, &exclude, json, jobs),
        Command::Diff { a, b, all, json } => diff(forced, &a, &b, all, json),
        Command::Fix {
            file,
            output,
            check,
            json,
        } => fix(forced, &file, output.as_deref(), check, json),
        Command::Validate { file, json } => validate(forced, &file, json),
        Command::Export { file, output } => export(forced, &file, &output),
        Command::Render { file, output, size } => render(forced, &file, &output, size),
        Command::Build { mesh, output, up } => build(forced, &mesh, up, &output),
        Command::Extract { plugin, output } => extract(&plugin, &output),
        Command::Replace {
            plugin,
            form_id,
            nvnm,
            output,
        } => replace(&plugin, &form_id, &nvnm, &output),
        Command::Conflicts { plugins, json } => conflicts(&plugins, json),
        Command::Formats { json } => formats(json),
    }
}

/// `--flavour NAME`: the nav-source format read as that game's layout. The flavour belongs to
/// nav-source, so a `--format` naming another format is a usage error.
fn flavoured(
    forced: Option<&'static dyn AnyFormat>,
    name: &str,
) -> Result<&'static dyn AnyFormat, Failure> {
    if let Some(other) = forced.filter(|f| f.name() != nav_source::FORMAT) {
        return Err(Failure::Usage(format!(
            "--flavour {name} is a {} layout, but --format names {}",
            nav_source::FORMAT,
            other.name()
        )));
    }
    let flavour = nav_source::Flavour::from_name(name)
        .ok_or_else(|| Failure::Usage(format!("unknown flavour `{name}`")))?;
    Ok(nav_source::SourceNavAs::get(flavour))
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

fn write_out(path: &Path, bytes: &[u8]) -> CmdResult {
    if path == Path::new("-") {
        use std::io::Write;
        return std::io::stdout()
            .lock()
            .write_all(bytes)
            .map_err(|e| Failure::Input(format!("standard output: {e}")));
    }
    std::fs::write(path, bytes).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}

/// The format of a file: forced, else by signature, else by file name ending.
fn detect(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    bytes: &[u8],
) -> Option<&'static dyn AnyFormat> {
    forced
        .or_else(|| registry::sniff(bytes))
        .or_else(|| registry::by_extension(path))
}

fn detect_or_fail(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    bytes: &[u8],
) -> Result<&'static dyn AnyFormat, Failure> {
    detect(forced, path, bytes).ok_or_else(|| {
        let head: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
        Failure::Input(format!(
            "{}: not a format this build recognises (first bytes: {}); name one with --format",
            path.display(),
            if head.is_empty() {
                "none, the file is empty".to_string()
            } else {
                head.join(" ")
            }
        ))
    })
}

fn input_error(path: &Path, e: impl std::fmt::Display) -> Failure {
    Failure::Input(format!("{}: {e}", path.display()))
}

fn info(forced: Option<&'static dyn AnyFormat>, path: &Path, json: bool) -> CmdResult {
    let bytes = read(path)?;
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

fn summary_json(path: &Path, size: usize, s: &Summary) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = s
        .counts
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "file": path.display().to_string(),
        "format": s.format,
        "version": s.version,
        "variant": s.variant,
        "size": size,
        "counts": counts,
    })
}

fn print_json(value: &serde_json::Value) {
    out!("{}", pretty_json(value));
}

/// Indented JSON that keeps short arrays of numbers and strings (a position, a flag list) on one
/// line, so that a model stays readable in a text editor ([`crate::json::LineFormatter`]).
pub fn pretty_json(value: &serde_json::Value) -> String {
    crate::json::to_string(value)
}

/// Streams the JSON document of a file's model to `out` (`-` for standard output).
fn model_document(format: &dyn AnyFormat, path: &Path, bytes: &[u8], out: &Path) -> CmdResult {
    use crate::registry::JsonError;
    let written = if out == Path::new("-") {
        format.to_json(bytes, &mut std::io::stdout().lock())
    } else {
        let mut file = std::fs::File::create(out)
            .map_err(|e| Failure::Input(format!("{}: {e}", out.display())))?;
        format.to_json(bytes, &mut file)
    };
    match written {
        Ok(()) => Ok(()),
        Err(JsonError::Input(e)) => Err(input_error(path, e)),
        // A closed pipe (`navkit dump --json x | head`) ends the output quietly.
        Err(JsonError::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            Err(Failure::Reported)
        }
        Err(JsonError::Output(e)) if out == Path::new("-") => {
            Err(Failure::Input(format!("standard output: {e}")))
        }
        Err(JsonError::Output(e)) => Err(Failure::Input(format!("{}: {e}", out.display()))),
    }
}

fn dump(forced: Option<&'static dyn AnyFormat>, path: &Path, json: bool) -> CmdResult {
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

fn to_json(forced: Option<&'static dyn AnyFormat>, path: &Path, out: &Path) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    model_document(format, path, &bytes, out)
}

/// Reads the document twice when it does not name `--format`: once for the `"format"` string
/// (which `to-json` writes first, so that this stops at once), once for the model.
fn from_json(forced: Option<&'static dyn AnyFormat>, path: &Path, out: &Path) -> CmdResult {
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
        .read_json(&mut open()?)
        .map_err(|e| input_error(path, e))?;
    for line in refreshed {
        eprintln!("navkit: {}: {line}", path.display());
    }
    write_out(out, &bytes)
}

fn rewrite(forced: Option<&'static dyn AnyFormat>, path: &Path, out: &Path) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    let written = format.rewrite(&bytes).map_err(|e| input_error(path, e))?;
    write_out(out, &written)
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

fn roundtrip(
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
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => return Checked::Unreadable(format!("cannot read: {e}")),
        };
        let Some(format) = detect(forced, path, &bytes) else {
            return Checked::Unrecognised;
        };
        let outcome = format.roundtrip(&bytes).map_err(|f| match f.part {
            Some(part) => format!("{part}: {}", f.error),
            None => f.error.to_string(),
        });
        Checked::Done(format.name(), outcome.map(|ok| ok.parts))
    };
    walk::for_each_ordered(
        &files,
        walk::threads(jobs),
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

fn report(
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

fn diff(
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
    let tree = |path: &Path| -> Result<(&'static dyn AnyFormat, crate::diff::Tree), Failure> {
        let bytes = read(path).map_err(trouble)?;
        let format = detect_or_fail(forced, path, &bytes).map_err(trouble)?;
        let tree = format
            .model_tree(&bytes)
            .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))?;
        Ok((format, tree))
    };
    let (fa, ta) = tree(a)?;
    let (fb, tb) = tree(b)?;
    if fa.name() != fb.name() {
        return Err(Failure::Usage(format!(
            "{} is {} and {} is {}: diff compares two files of one format",
            a.display(),
            fa.name(),
            b.display(),
            fb.name()
        )));
    }
    let changes = crate::diff::diff(fa.name(), &ta, &tb);
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

fn fix(
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
        let verb = if check { "would change" } else { "changed" };
        match out {
            Some(o) if !changes.is_empty() => out!(
                "{}: {verb} {} things; wrote {}",
                path.display(),
                changes.len(),
                o.display()
            ),
            Some(o) => out!(
                "{}: nothing to fix; wrote it unchanged to {}",
                path.display(),
                o.display()
            ),
            None if changes.is_empty() => out!("{}: nothing to fix", path.display()),
            None => out!("{}: {verb} {} things", path.display(), changes.len()),
        }
    }
    if !remaining.is_empty() || (check && !changes.is_empty()) {
        Err(Failure::Reported)
    } else {
        Ok(())
    }
}

fn validate(forced: Option<&'static dyn AnyFormat>, path: &Path, json: bool) -> CmdResult {
    let bytes = read(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    let findings = format.validate(&bytes).map_err(|e| input_error(path, e))?;
    let count = |s: Severity| findings.iter().filter(|f| f.severity == s).count();
    let (errors, warnings, infos) = (
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    if json {
        print_json(&json!({
            "file": path.display().to_string(),
            "format": format.name(),
            "errors": errors,
            "warnings": warnings,
            "infos": infos,
            "findings": findings,
        }));
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

fn geometry_of(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
) -> Result<nav_core::geometry::Geometry, Failure> {
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

fn ending(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
}

fn export(forced: Option<&'static dyn AnyFormat>, path: &Path, out: &Path) -> CmdResult {
    let kind = ending(out);
    if kind != "obj" && kind != "glb" {
        return Err(Failure::Usage(format!(
            "{}: export writes .obj or .glb files",
            out.display()
        )));
    }
    let g = geometry_of(forced, path)?;
    let source = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = if kind == "obj" {
        crate::export::to_obj(&g, &source).into_bytes()
    } else {
        crate::export::to_glb(&g, &source).map_err(|e| input_error(path, e))?
    };
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

fn render(forced: Option<&'static dyn AnyFormat>, path: &Path, out: &Path, size: u32) -> CmdResult {
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
    let g = geometry_of(forced, path)?;
    let bytes = if kind == "svg" {
        crate::render::to_svg(&g, size).into_bytes()
    } else {
        crate::render::to_png(&g, size).map_err(|e| input_error(path, e))?
    };
    write_out(out, &bytes)
}

fn build(
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
            "{}: {} triangle{s} cannot face up (triangles counted in file order, polygons fanned \
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
    let bytes = format
        .build(&mesh)
        .ok_or_else(|| Failure::Usage(format!("{} has no builder", format.name())))?
        .map_err(|e| input_error(mesh_path, e))?;
    write_out(out, &bytes)?;
    eprintln!(
        "navkit: built {} from {} triangles ({} bytes)",
        out.display(),
        mesh.triangles.len(),
        bytes.len()
    );
    Ok(())
}

fn extract(plugin: &Path, out: &Path) -> CmdResult {
    let written = crate::skyrim::extract(plugin, out).map_err(Failure::Input)?;
    for p in &written {
        out!("{}", p.display());
    }
    eprintln!("navkit: {} navmeshes extracted", written.len());
    Ok(())
}

fn replace(plugin: &Path, form_id: &str, nvnm: &Path, out: &Path) -> CmdResult {
    let digits = form_id.trim_start_matches("0x").trim_start_matches("0X");
    let id = u32::from_str_radix(digits, 16)
        .map_err(|_| Failure::Usage(format!("FormID `{form_id}` is not a hexadecimal number")))?;
    crate::skyrim::replace(plugin, id, nvnm, out).map_err(Failure::Input)
}

fn conflicts(paths: &[PathBuf], json: bool) -> CmdResult {
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

fn formats(json: bool) -> CmdResult {
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn flavour_names_are_nav_source_s() {
        let cli = Cli::try_parse_from(["navkit", "info", "x.nav", "--flavour", "l4d"]).unwrap();
        assert_eq!(cli.flavour.as_deref(), Some("l4d"));
        let err = Cli::try_parse_from(["navkit", "info", "x.nav", "--flavour", "portal2"])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("[possible values: base, cs, tf2, l4d, l4d2]"),
            "{err}"
        );
        let quake = registry::by_name("nav-quake");
        assert!(matches!(flavoured(quake, "cs"), Err(Failure::Usage(_))));
        let source = flavoured(registry::by_name("nav-source"), "l4d2")
            .ok()
            .unwrap();
        assert_eq!(source.name(), "nav-source");
    }

    #[test]
    fn format_goes_before_or_after_the_file() {
        let a = Cli::try_parse_from(["navkit", "--format", "nav-quake", "info", "x.nav"]).unwrap();
        let b = Cli::try_parse_from(["navkit", "info", "x.nav", "--format", "nav-quake"]).unwrap();
        assert_eq!(a.format.as_deref(), Some("nav-quake"));
        assert_eq!(b.format.as_deref(), Some("nav-quake"));
    }
}
