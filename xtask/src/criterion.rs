//! Reading criterion's output: the figures of every benchmark under a `target/criterion`
//! folder, the few JSON fields they need, and throughput as people read it. Used by both
//! `bench` and `bench --against`.

use std::path::{Path, PathBuf};

/// One line of the performance table.
pub(crate) struct Row {
    /// What was measured.
    pub(crate) what: String,
    /// navkit's figure.
    pub(crate) figure: String,
    /// The peer's figure, where a peer was measured beside it.
    pub(crate) peer: String,
    /// The peer's time over navkit's, where both were measured in one run.
    pub(crate) ratio: String,
}

/// One benchmark's figure in one run: bytes per iteration (for a benchmark with a throughput)
/// and the median nanoseconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    pub bytes: Option<f64>,
    pub median_ns: f64,
}

impl Figure {
    /// Bytes per second, or iterations per second for a benchmark without a throughput.
    pub fn rate(self) -> f64 {
        if self.median_ns > 0.0 {
            self.bytes.unwrap_or(1.0) / (self.median_ns / 1e9)
        } else {
            0.0
        }
    }

    /// The figure as the tables give it: a throughput, or the median time.
    pub fn text(self) -> String {
        match self.bytes {
            Some(bytes) => throughput(bytes, self.median_ns),
            None => median_time(self.median_ns),
        }
    }
}

/// Every benchmark under a criterion output folder, by `group: function`: with its throughput
/// where it has one, else its median time alone.
pub fn criterion_figures(dir: &Path) -> Vec<(String, Figure)> {
    let mut found = Vec::new();
    collect_named(dir, "benchmark.json", &mut found);
    found.retain(|p| p.parent().is_some_and(|d| d.ends_with("new")));
    found.sort();
    let mut out = Vec::new();
    for bench in found {
        let Some(new) = bench.parent() else { continue };
        let (Ok(meta), Ok(est)) = (
            std::fs::read_to_string(&bench),
            std::fs::read_to_string(new.join("estimates.json")),
        ) else {
            continue;
        };
        let (Some(group), Some(function)) = (
            string_field(&meta, "group_id"),
            string_field(&meta, "function_id"),
        ) else {
            continue;
        };
        let bytes = number_after(&meta, "\"Bytes\":");
        let Some(median_ns) = est
            .find("\"median\"")
            .and_then(|i| number_after(&est[i..], "\"point_estimate\":"))
        else {
            continue;
        };
        out.push((format!("{group}: {function}"), Figure { bytes, median_ns }));
    }
    out
}

/// Every file called `name` under `dir`, in no order.
pub(crate) fn collect_named(dir: &Path, name: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_named(&p, name, out);
        } else if p.file_name().is_some_and(|n| n == name) {
            out.push(p);
        }
    }
}

/// The value of `"key":"value"` in a small JSON document (criterion writes no escapes there).
pub(crate) fn string_field(json: &str, key: &str) -> Option<String> {
    let pat = format!("\"{key}\":\"");
    let start = json.find(&pat)? + pat.len();
    let end = json[start..].find('"')? + start;
    Some(json[start..end].to_string())
}

/// The number right after the first `key` in `json`.
pub(crate) fn number_after(json: &str, key: &str) -> Option<f64> {
    let rest = json[json.find(key)? + key.len()..].trim_start();
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+')))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// A median time in nanoseconds, in the unit that suits it (µs, ms or s, three figures).
pub(crate) fn median_time(ns: f64) -> String {
    if ns >= 1e9 {
        format!("{:.2} s", ns / 1e9)
    } else if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// Bytes per median time, in MiB/s or GiB/s.
pub(crate) fn throughput(bytes: f64, ns: f64) -> String {
    if ns <= 0.0 {
        return "?".into();
    }
    let per_s = bytes / (ns / 1e9);
    let mib = per_s / (1024.0 * 1024.0);
    if mib >= 1024.0 {
        format!("{:.2} GiB/s", mib / 1024.0)
    } else {
        format!("{mib:.0} MiB/s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criterion_files_are_read() {
        let meta = r#"{"group_id":"nav-source","function_id":"parse","value_str":null,"throughput":{"Bytes":3988482},"full_id":"nav-source/parse"}"#;
        let est = r#"{"mean":{"confidence_interval":{"lower_bound":1.0},"point_estimate":999.0},"median":{"confidence_interval":{"lower_bound":500000.0,"upper_bound":600000.0},"point_estimate":550000.5}}"#;
        assert_eq!(
            string_field(meta, "group_id").as_deref(),
            Some("nav-source")
        );
        assert_eq!(number_after(meta, "\"Bytes\":"), Some(3_988_482.0));
        let i = est.find("\"median\"").unwrap();
        assert_eq!(
            number_after(&est[i..], "\"point_estimate\":"),
            Some(550_000.5)
        );
        assert_eq!(throughput(1024.0 * 1024.0, 1e9), "1 MiB/s");
        assert_eq!(median_time(2_345_678.0), "2.35 ms");
        assert_eq!(median_time(12_500.0), "12.50 µs");
        assert_eq!(median_time(3.5e9), "3.50 s");
        assert_eq!(
            throughput(3.0 * 1024.0 * 1024.0 * 1024.0, 1e9),
            "3.00 GiB/s"
        );
    }
}
