//! Command-line parsing and the commands.
//!
//! Every command reads whole files, finds the format ([`registry`]), and prints for people or as
//! JSON. Failures carry their exit status: 2 for usage, 1 for bad input or a failed check. The
//! arguments and their help are in `args`, the commands in `commands` and `export_cmd`, and what
//! they share (files, format detection, printing) in `output`. Every file a command writes goes
//! through `output::write_atomically`: a temporary file beside the target, renamed over it only
//! when all of it was written, so that a failed run never leaves a half-written target and a
//! command may write over its own input.

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use crate::registry::{self, AnyFormat, FORMATS};

/// Writes one line to standard output. A closed pipe (`navkit dump x | head`) ends the program
/// quietly instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        out_raw(&format!("{}\n", format_args!($($arg)*)))
    };
}

mod apply_cmd;
mod args;
mod commands;
mod export_cmd;
mod navigate;
mod output;

pub use output::pretty_json;

use args::{Cli, Command};
use commands::*;
use export_cmd::{ExportOptions, export, export_many, render};

/// A failed command: what to print and how to exit.
pub(super) enum Failure {
    /// Wrong use of the tool: exit 2.
    Usage(String),
    /// Bad input or a failed check: exit 1.
    Input(String),
    /// A check that printed its own report failed: exit 1, nothing more to say.
    Reported,
}

pub(super) type CmdResult = Result<(), Failure>;

/// Runs the tool.
pub fn main() -> ExitCode {
    let cli = parse_args(std::env::args_os().collect());
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

/// Parses the command line like `Cli::parse`, exiting on a usage error or after help. The help's
/// closing text ([`args::after_help`]) is built only when the arguments may print it.
fn parse_args(args: Vec<std::ffi::OsString>) -> Cli {
    let mut command = Cli::command();
    if may_print_help(&args) {
        command = command.after_help(args::after_help());
    }
    let mut matches = command.get_matches_from(args);
    Cli::from_arg_matches_mut(&mut matches)
        .map_err(|e| e.format(&mut Cli::command()))
        .unwrap_or_else(|e| e.exit())
}

/// Whether the top-level help may be printed: no arguments at all, or any argument that asks
/// for help (`help`, `--help`, or a short-flag group with `h`). Erring on the side of yes only
/// costs building the text.
fn may_print_help(args: &[std::ffi::OsString]) -> bool {
    args.len() <= 1
        || args.iter().skip(1).any(|a| {
            let a = a.to_string_lossy();
            a == "help"
                || a == "--help"
                || (a.starts_with('-') && !a.starts_with("--") && a.contains('h'))
        })
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
        Command::Rewrite {
            file,
            output,
            stream,
        } => rewrite(forced, &file, &output, stream),
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
        Command::Validate {
            paths,
            exclude,
            json,
            jobs,
        } => match paths.as_slice() {
            [one] if !one.is_dir() => validate(forced, one, json),
            _ => validate_many(forced, &paths, &exclude, json, jobs),
        },
        Command::Export {
            paths,
            output,
            kind,
            exclude,
            jobs,
            skip_bad_parts,
        } => match (paths.as_slice(), kind) {
            ([one], None) if !one.is_dir() => export(forced, one, &output, skip_bad_parts),
            _ => export_many(
                forced,
                &paths,
                &output,
                ExportOptions {
                    kind: kind.unwrap_or(args::ExportKind::Glb),
                    exclude: &exclude,
                    jobs,
                    skip_bad_parts,
                },
            ),
        },
        Command::Render {
            file,
            output,
            size,
            path,
            skip_bad_parts,
        } => render(forced, &file, &output, size, &path, skip_bad_parts),
        Command::Build { mesh, output, up } => build(forced, &mesh, up, &output),
        Command::Apply {
            original,
            edited,
            output,
            up,
            json,
        } => apply_cmd::apply(forced, &original, &edited, up, &output, json),
        Command::Extract { file, output } => extract(forced, &file, &output),
        Command::Replace {
            file,
            part,
            new,
            output,
        } => replace(forced, &file, &part, &new, &output),
        Command::Conflicts { plugins, json } => conflicts(&plugins, json),
        Command::Locate {
            file,
            point,
            points,
            json,
        } => navigate::locate(forced, &file, &point, points.as_deref(), json),
        Command::Path {
            file,
            ends,
            pairs,
            weight,
            walk_only,
            json,
        } => navigate::path(
            forced,
            &file,
            &ends,
            pairs.as_deref(),
            weight,
            walk_only,
            json,
        ),
        Command::Islands {
            file,
            walk_only,
            json,
        } => navigate::islands(forced, &file, walk_only, json),
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn help_is_built_only_when_asked_for() {
        let args = |list: &[&str]| list.iter().map(Into::into).collect::<Vec<_>>();
        assert!(may_print_help(&args(&["navkit"])));
        assert!(may_print_help(&args(&["navkit", "--help"])));
        assert!(may_print_help(&args(&["navkit", "help", "info"])));
        assert!(may_print_help(&args(&["navkit", "-Vh"])));
        assert!(!may_print_help(&args(&[
            "navkit", "info", "x.nav", "--json"
        ])));
        assert!(args::after_help().contains("nav-source"));
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
