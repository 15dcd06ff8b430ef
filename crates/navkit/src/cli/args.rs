//! The command line: the global options and every command with its arguments and help.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::registry;

/// The help's closing text: the formats of the registry, then [`AFTER_HELP`]. Added to the
/// command only when the arguments may ask for help (`super::parse_args`), not on every run.
pub(super) fn after_help() -> String {
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
  navkit export navmesh/ -o exported/ --as obj
  navkit render de_dust2.nav -o de_dust2.png --size 2048
  navkit build --format nav2-mgsv level.obj -o level.nav2
  navkit export a.nvnm -o a.obj && navkit build --format nvnm-skyrim a.obj -o b.nvnm
  navkit export a.nvnm -o a.obj && (edit a.obj in Blender) && navkit apply a.nvnm a.obj -o a.nvnm
  navkit diff a.nav b.nav
  navkit locate de_mirage.nav -- -1200 350 -160
  navkit path de_mirage.nav 1 4000 --json
  navkit path de_mirage.nav --pairs queries.txt --json
  navkit islands de_dust2.nav";

/// Inspect, validate, convert, navigate and round-trip navigation meshes of six game engines.
#[derive(Debug, Parser)]
#[command(name = "navkit", version, about)]
pub(super) struct Cli {
    /// Read the input as this format instead of detecting it (see the list below).
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        value_parser = clap::builder::PossibleValuesParser::new(
            registry::FORMATS.iter().map(|f| f.name())
        )
    )]
    pub(super) format: Option<String>,

    /// Read nav-source files as this game's layout instead of detecting it (see the list below).
    #[arg(
        long,
        global = true,
        value_name = "NAME",
        value_parser = clap::builder::PossibleValuesParser::new(
            nav_source::Flavour::ALL.map(nav_source::Flavour::name)
        )
    )]
    pub(super) flavour: Option<String>,

    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Debug, Subcommand)]
pub(super) enum Command {
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
    ///
    /// Files of 64 MiB or more (a whole game's plugin) are read and written as streams, so the
    /// model is about all the memory the command holds; smaller ones are read whole, which is
    /// faster.
    Rewrite {
        /// The navmesh file.
        file: PathBuf,
        /// Where to write the result.
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Read and write as streams whatever the file's size.
        #[arg(long)]
        stream: bool,
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
    ///
    /// One file prints its findings and a summary line. Several files or a directory are checked
    /// on every core, in a stable order, each finding prefixed with its file, and end with a
    /// total; files no format recognises are skipped in directories.
    Validate {
        /// Navmesh files and directories.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Leave out files and folders with this name when searching directories (repeatable).
        #[arg(long, value_name = "NAME")]
        exclude: Vec<String>,
        /// Print JSON instead of text (one file: its report; several: `{"files": [...]}`).
        #[arg(long)]
        json: bool,
        /// Files checked at once (default: one per core). Output order does not depend on it.
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
    },
    /// Export navmeshes for a 3D tool: Wavefront OBJ (`.obj`) or glTF 2.0 binary (`.glb`).
    ///
    /// Coordinates are turned to Y-up, so the navmesh lines up with the level in Blender. OBJ has
    /// one group per attribute kind and graph links as lines; glTF has one primitive per kind with
    /// a coloured material and the kind's name in `extras`.
    ///
    /// One file: `-o` names the output, whose ending picks the format. Several files, a
    /// directory, or `--as`: `-o` names a folder (made if missing) and each navmesh becomes
    /// `<its file name>.obj|.glb` there, at its place below the directory it was found in. Files
    /// are exported on every core; each prints `ok` or `FAIL` in input order, the last line is
    /// `N exported, M failed`, and the exit status is 1 if any failed. In directories, files no
    /// format recognises are skipped and counted.
    Export {
        /// Navmesh files and directories.
        #[arg(required = true, value_name = "PATHS")]
        paths: Vec<PathBuf>,
        /// Where to write: one file's output (`OUT.obj` or `OUT.glb`), or the folder for several.
        #[arg(short, long, value_name = "OUT.obj|OUT.glb|DIR")]
        output: PathBuf,
        /// The format of every file written into the output folder (default `glb`).
        #[arg(long = "as", value_enum, value_name = "KIND")]
        kind: Option<ExportKind>,
        /// Leave out files and folders with this name when searching directories (repeatable).
        #[arg(long, value_name = "NAME")]
        exclude: Vec<String>,
        /// Files exported at once (default: one per core). Output order does not depend on it.
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
        /// Write what can be read when parts of a file cannot (a plugin's navmesh whose NVNM
        /// does not parse): each part left out is still named on standard error, but the exit
        /// status is 0. Without it such a file is not written and the exit status is 1.
        #[arg(long)]
        skip_bad_parts: bool,
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
        /// Draw the way between two cells or points `x,y,z` over the picture (as `navkit path`
        /// finds it, by distance, every edge kind allowed).
        #[arg(long, num_args = 2, value_names = ["FROM", "TO"])]
        path: Vec<String>,
        /// Draw what can be read when parts of the file cannot (a plugin's navmesh whose NVNM
        /// does not parse): each part left out is still named on standard error, but the exit
        /// status is 0. Without it nothing is drawn and the exit status is 1.
        #[arg(long)]
        skip_bad_parts: bool,
    },
    /// Make a new navmesh from a triangle mesh in OBJ or glTF (needs --format).
    ///
    /// The mesh is read Y-up, as OBJ and glTF define it (and as `export` and Blender write it),
    /// and turned to the game's world axes: the exact inverse of `export`. Triangles facing down
    /// are turned to face up (stderr says how many). Shapes game files have are kept, with one
    /// warning line each on stderr naming the triangle: vertical or degenerate triangles, edges
    /// shared oddly. Only what the format cannot store is refused, each triangle named by index:
    /// a non-finite corner, a zero-length edge, more vertices than its indices can name. The
    /// result is laid out as the game lays out its own files, so that `navkit validate` finds no
    /// error on it.
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
    /// Put geometry edited in a 3D tool back onto the original file, keeping everything else.
    ///
    /// EDITED is an OBJ, glTF or GLB mesh as `navkit export` wrote it and a modelling tool
    /// (Blender, with its default import and export settings) wrote it back. Faces are known
    /// again by position and topology, not by names or attributes, which the tools drop: a
    /// vertex within a hair of where it was is unmoved (its bits kept), triangles are grouped
    /// back into the polygons they cover, vertices split by the tool are joined again. Moved
    /// vertices move; a polygon whose faces were all deleted is deleted (and what referred to
    /// it is dropped, as `fix` does); faces that match no polygon become new ones with the
    /// format's defaults. An unedited mesh gives the original bytes. What cannot be told apart
    /// (a vertex moved in one face and not another, a polygon partly deleted) is refused with
    /// what to do. One line is printed per change.
    ///
    /// A file that is a graph only (Quake nodes and links) takes an OBJ of vertices and lines
    /// (`v`, `l`) back: vertex k is node k, a moved one moves that node's origin; nodes or links
    /// added or deleted are refused (edit the JSON for those).
    Apply {
        /// The navmesh the mesh was exported from.
        original: PathBuf,
        /// The edited mesh (`.obj`, `.gltf` or `.glb`).
        edited: PathBuf,
        /// Where to write the edited navmesh (may be ORIGINAL itself).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Which axis points up in the mesh: `y` (OBJ and glTF's own convention, as `export`
        /// and Blender write them) or `z`.
        #[arg(long, value_enum, default_value_t = UpArg::Y)]
        up: UpArg,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Write every file a container holds into a folder: each navmesh of a Skyrim plugin as
    /// `<plugin>_<FormID>.nvnm`.
    ///
    /// The file names are the container's stem (spaces turned into `_`), the part's name and the
    /// part format's ending; one path is printed per file written.
    Extract {
        /// The container (a Skyrim plugin: `.esp`, `.esm`, `.esl`).
        file: PathBuf,
        /// The folder to write into (made if missing).
        #[arg(short, long, value_name = "DIR")]
        output: PathBuf,
    },
    /// Put a file back into a container in place of one of its parts: a navmesh (NVNM) into a
    /// Skyrim plugin, fixing the record and group sizes and the navmesh's NAVI entry.
    Replace {
        /// The container (a Skyrim plugin: `.esp`, `.esm`, `.esl`).
        file: PathBuf,
        /// The part's name, as `extract` names it (a FormID in hex: `0507C5B6` or `0x0507C5B6`).
        part: String,
        /// The new part (an `.nvnm` file for a plugin).
        new: PathBuf,
        /// Where to write the new container.
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
    /// The cell under a point, seen from above (exit 1 when there is none).
    ///
    /// Where cells overlap (stacked floors, a bridge over a tunnel) the one whose surface is
    /// nearest in height wins; in node formats (Quake) the nearest node within its radius.
    /// Coordinates are the file's own axes: Z up for Quake, Source, Source 2 and Skyrim, Y up for
    /// Fox Engine and Silkroad. With --points, one point `X Y Z` per line of the file, one answer
    /// per line (`-` where no cell; JSON lines with --json), and exit 0.
    Locate {
        /// The navmesh file.
        file: PathBuf,
        /// The point: X Y Z in the file's axes.
        #[arg(num_args = 0..=3, value_name = "X Y Z", allow_negative_numbers = true)]
        point: Vec<f32>,
        /// A file of points, one `X Y Z` per line, instead of one point.
        #[arg(long, value_name = "POINTS", conflicts_with = "point")]
        points: Option<PathBuf>,
        /// Print JSON: `{"cell": ..., "distance": ...}` (cell null where there is none).
        #[arg(long)]
        json: bool,
    },
    /// The way from one cell or point to another: the cells in order and the total cost.
    ///
    /// FROM and TO are cell ids as users know them (a Source area id, a Quake node index,
    /// `0410E930:12` for triangle 12 of a Skyrim plugin's navmesh 0410E930) or points `x,y,z`
    /// (located first). A* over the file's graph: `--weight distance` sums the 3D distances
    /// between the centres of consecutive cells (a cell's centre is the mean of its corners),
    /// `--weight hops` counts the steps. Ladders, jumps and other non-walk edges are followed
    /// unless --walk-only; blocked ones never. Unreachable is an answer (exit 0) with a reason.
    Path {
        /// The navmesh file.
        file: PathBuf,
        /// FROM TO: two cell ids or points `x,y,z` (put `--` before a point that starts with
        /// `-`).
        #[arg(num_args = 0..=2, value_name = "FROM TO")]
        ends: Vec<String>,
        /// A file of queries, one `FROM TO` per line, one answer per line (JSON lines with --json).
        #[arg(long, value_name = "PAIRS", conflicts_with = "ends")]
        pairs: Option<PathBuf>,
        /// What a path costs.
        #[arg(long, value_enum, default_value_t = WeightArg::Distance)]
        weight: WeightArg,
        /// Follow walking edges only (no ladders, jumps, drops, doors or teleports).
        #[arg(long)]
        walk_only: bool,
        /// Print JSON: `{"from", "to", "reachable", "cells", "cost", "reason"}`.
        #[arg(long)]
        json: bool,
    },
    /// The connected parts of the graph, largest first: a part no spawn can reach is the classic
    /// navmesh bug.
    Islands {
        /// The navmesh file.
        file: PathBuf,
        /// Count walking edges only.
        #[arg(long)]
        walk_only: bool,
        /// Print JSON with every island's cells.
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

/// The file format `export` writes into a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum ExportKind {
    /// Wavefront OBJ (`.obj`).
    Obj,
    /// glTF 2.0 binary (`.glb`).
    Glb,
}

impl ExportKind {
    /// The file ending, which is also the name `--as` takes.
    pub(super) fn ending(self) -> &'static str {
        match self {
            ExportKind::Obj => "obj",
            ExportKind::Glb => "glb",
        }
    }
}

/// What a path costs, for `path`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum WeightArg {
    /// The 3D distance between the centres of consecutive cells.
    Distance,
    /// One per step.
    Hops,
}

/// The up axis of a mesh given to `build`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum UpArg {
    /// Y up, right-handed: OBJ and glTF as their specifications define them.
    Y,
    /// Z up, right-handed: the axes of Quake, Source and Skyrim.
    Z,
}
