//! `cargo xtask bench`'s Python rows: navkit's Python package beside awpy and bethkit, measured
//! side by side in one process by `crates/navkit-python/bench/bench.py`.
//!
//! The virtualenv `target/venv-bench` gets the test virtualenv's pinned maturin and numpy, the
//! pinned peers, and the navkit package built from this tree (`maturin develop --release`). When
//! Python or maturin cannot be had, the rows are one note saying why; a peer that cannot be
//! installed is noted by the script in its own rows.

use std::path::Path;
use std::process::Command;

use crate::criterion::Row;
use crate::python::{
    MANIFEST, REQUIREMENTS, maturin, pip_install, prepare_venv, target_dir, timed,
};
use crate::{Result, root, run};

/// The peers, pinned: awpy (the Counter-Strike 2 library, Source 2 `.nav` only) and bethkit
/// (the Bethesda plugin toolkit, latest on PyPI when this was written).
const PEERS: &[&str] = &["awpy==3.1.1", "bethkit==2.5.0"];

/// The script, from the workspace's root.
const SCRIPT: &str = "crates/navkit-python/bench/bench.py";

/// Makes the virtualenv, builds navkit into it, runs the script on `corpus` (`--quick`: fewer
/// runs and awpy calls) and returns its table's rows.
pub(crate) fn side_by_side(quick: bool, corpus: &Path) -> Result<Vec<Row>> {
    let mut made = None;
    let venv = timed(
        "python: virtualenv target/venv-bench with maturin and numpy",
        || {
            made = Some(prepare_venv("venv-bench", REQUIREMENTS)?);
            Ok(())
        },
    );
    let (dir, python) = match (venv, made) {
        (Ok(()), Some(made)) => made,
        (Err(e), _) => return Ok(skipped(&e)),
        (Ok(()), None) => return Ok(skipped("the virtualenv was not made")),
    };
    for peer in PEERS {
        let installed = timed(&format!("python: pip install {peer}"), || {
            pip_install(&python, &[peer])
        });
        if let Err(e) = installed {
            eprintln!("xtask: note: {peer} could not be installed ({e}): its rows say so");
        }
    }
    timed(
        "python: maturin develop --release into target/venv-bench",
        || {
            run(maturin(&dir, &python).args([
                "develop",
                "--release",
                "--quiet",
                "--manifest-path",
                MANIFEST,
            ]))
        },
    )?;
    let out = target_dir().join("bench-python.md");
    let _ = std::fs::remove_file(&out);
    timed("python: bench.py (navkit beside awpy and bethkit)", || {
        let mut c = Command::new(&python);
        // Its notes and its copy of the table go to standard error: the table this task prints
        // is the one on standard output.
        c.stdout(std::io::stderr());
        c.arg(root().join(SCRIPT))
            .arg("--corpus")
            .arg(corpus)
            .arg("--out")
            .arg(&out);
        if quick {
            c.arg("--quick");
        }
        run(&mut c)
    })?;
    let text = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let rows = parse(&text);
    if rows.is_empty() {
        return Err(format!("{SCRIPT} wrote no rows to {}", out.display()));
    }
    Ok(rows)
}

/// The one row that says the Python side by side did not run, and why.
fn skipped(why: &str) -> Vec<Row> {
    eprintln!("xtask: note: the Python side by side is skipped: {why}");
    vec![Row {
        what: format!("Python side by side ({SCRIPT})"),
        figure: "skipped: Python, maturin or numpy could not be installed".into(),
        peer: String::new(),
        ratio: String::new(),
    }]
}

/// The rows of the script's markdown table `| what | navkit | peer | ratio |` (its header and
/// rule skipped, and any line that is not a row of four cells).
pub(crate) fn parse(table: &str) -> Vec<Row> {
    table
        .lines()
        .filter_map(|line| {
            let inner = line.trim().strip_prefix("| ")?.strip_suffix(" |")?;
            let cells: Vec<&str> = inner.split(" | ").collect();
            match cells.as_slice() {
                ["what", ..] => None,
                [what, figure, peer, ratio] => Some(Row {
                    what: (*what).to_string(),
                    figure: (*figure).to_string(),
                    peer: (*peer).to_string(),
                    ratio: (*ratio).to_string(),
                }),
                _ => None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_table_is_read() {
        let table = "| what | navkit | peer | ratio |\n|---|---|---|---|\n\
            | m: open | 1.0 ms (median 1.1 ms) | awpy 3.1.1: 5.0 ms (median 5.2 ms) | 5.0× |\n\
            | m: locate | 2.0 ms (median 2.0 ms) | awpy: not importable |  |\n\
            not a row\n| two | cells |\n";
        let rows = parse(table);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].what, "m: open");
        assert_eq!(rows[0].peer, "awpy 3.1.1: 5.0 ms (median 5.2 ms)");
        assert_eq!(rows[0].ratio, "5.0×");
        assert_eq!(rows[1].figure, "2.0 ms (median 2.0 ms)");
        assert_eq!(rows[1].ratio, "");
    }
}
