//! `peer-bench`: the peers' side of navkit's side-by-side measurements, and a timer for any command.
//!
//! - `peer-bench sourcenav-read FILE`: reads a Source `.nav` file the way a `sourcenav` user
//!   would (`read_areas` over the whole file) and prints the area count.
//! - `peer-bench measure RUNS -- CMD ARGS...`: runs the command RUNS times (stdout discarded) and
//!   prints one line `median_ms=… min_ms=… peak_rss_kib=…`, the peak being the largest resident
//!   set any run reached, as the kernel reports it for the child (`wait4`).

use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("sourcenav-read") if args.len() == 2 => sourcenav_read(&args[1]),
        Some("measure") if args.len() >= 4 && args[2] == "--" => match args[1].parse() {
            Ok(runs) if runs > 0 => measure(runs, &args[3..]),
            _ => Err(format!(
                "measure: RUNS must be a positive number, not {:?}",
                args[1]
            )),
        },
        _ => {
            eprintln!(
                "usage: peer-bench sourcenav-read FILE | peer-bench measure RUNS -- CMD ARGS..."
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("peer-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

fn sourcenav_read(path: &str) -> Result<(), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let areas = sourcenav::read_areas(bytes).map_err(|e| format!("{path}: {e:?}"))?;
    println!("{} areas", areas.len());
    Ok(())
}

/// Runs `cmd` once and returns its wall time in milliseconds and its peak resident set in KiB.
fn run_once(cmd: &[String]) -> Result<(f64, i64), String> {
    let start = Instant::now();
    let child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", cmd[0]))?;
    let pid = i32::try_from(child.id()).map_err(|e| e.to_string())?;
    let mut status = 0;
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: `usage` points to a writable rusage; `pid` is our own child, waited for once.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, usage.as_mut_ptr()) };
    let elapsed = start.elapsed().as_secs_f64() * 1000.0;
    if waited != pid {
        return Err(format!("wait4 failed for {}", cmd[0]));
    }
    if !libc::WIFEXITED(status) || libc::WEXITSTATUS(status) != 0 {
        return Err(format!("{} failed (status {status})", cmd.join(" ")));
    }
    // SAFETY: wait4 succeeded, so it filled `usage`.
    let usage = unsafe { usage.assume_init() };
    Ok((elapsed, usage.ru_maxrss))
}

fn measure(runs: usize, cmd: &[String]) -> Result<(), String> {
    // One run first, untimed, so the page cache holds the binary and the input.
    run_once(cmd)?;
    let mut times = Vec::with_capacity(runs);
    let mut peak = 0;
    for _ in 0..runs {
        let (ms, rss) = run_once(cmd)?;
        times.push(ms);
        peak = peak.max(rss);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "median_ms={:.3} min_ms={:.3} peak_rss_kib={peak}",
        times[times.len() / 2],
        times[0]
    );
    Ok(())
}
