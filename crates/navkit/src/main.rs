//! `navkit`: inspect, validate, convert, navigate and round-trip navigation-mesh files of six game engines.
//!
//! The format of a file is found from its signature (or its file name ending, for formats without
//! one); `--format NAME` forces it. Output is for people by default and JSON with `--json`.
//! Exit status: 0 success, 1 bad input or a failed check, 2 usage.

fn main() -> std::process::ExitCode {
    navkit::cli::main()
}
