//! The path patterns of [`nav_core::positions`]: parsed into steps, matched against concrete
//! paths, and walked over a `serde_json::Value`.

use std::fmt;

use serde_json::Value;

/// One step of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Step {
    /// An object's field (or an enum's variant).
    Key(&'static str),
    /// Every element of an array.
    Any,
    /// One element of an array (`[0]`).
    At(usize),
    /// Any number of steps, none included.
    Deep,
}

/// One step of a concrete path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// A field known at compile time (a struct's field, an enum's variant).
    Field(&'static str),
    /// A field read from a document or a map key.
    Owned(String),
    /// An array element.
    Index(usize),
}

impl Seg {
    /// The field's name, unless the step is an array element.
    pub(crate) fn key(&self) -> Option<&str> {
        match self {
            Seg::Field(k) => Some(k),
            Seg::Owned(k) => Some(k),
            Seg::Index(_) => None,
        }
    }
}

/// A concrete path as people read it, after `model`: `model.triangles[40].edges[1]`.
pub(crate) struct Shown<'a>(pub &'a [Seg]);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("model")?;
        for seg in self.0 {
            match seg {
                Seg::Index(i) => write!(f, "[{i}]")?,
                Seg::Field(k) => write!(f, ".{k}")?,
                Seg::Owned(k) => write!(f, ".{k}")?,
            }
        }
        Ok(())
    }
}

/// The list patterns of a format and the concrete path being walked: what the streaming
/// pre-scan ([`super::scan`]) and the writer ([`super::write`]) both track.
pub(crate) struct Cursor {
    lists: Vec<Vec<Step>>,
    /// The path of the value being walked, relative to the model.
    pub(crate) path: Vec<Seg>,
    /// The length of the list last written or read, for its count key ([`count_key`]).
    pub(crate) counted: Option<usize>,
}

/// The key, beside a list, of the number of records the list had when it was written:
/// `"#triangles": 512` beside `"triangles"`. It tells a record deleted from the end, which
/// leaves every other `"#"` equal to its position.
pub(crate) fn count_key(list: &str) -> String {
    format!("{}{list}", nav_core::positions::KEY)
}

/// The list a count key counts (`"#triangles"` gives `triangles`).
pub(crate) fn counted_list(key: &str) -> Option<&str> {
    key.strip_prefix(nav_core::positions::KEY)
        .filter(|k| !k.is_empty())
}

impl Cursor {
    /// A walk of the lists `lists` (patterns relative to the model), at the model.
    pub(crate) fn new(lists: &[nav_core::positions::PositionList]) -> Self {
        Cursor {
            lists: lists.iter().map(|l| parse(l.list)).collect(),
            path: Vec::new(),
            counted: None,
        }
    }

    /// Whether some list pattern can still match below the current path.
    pub(crate) fn viable(&self) -> bool {
        self.lists.iter().any(|l| matches(l, &self.path, true))
    }

    /// Whether the current path is a list.
    pub(crate) fn is_list(&self) -> bool {
        self.lists.iter().any(|l| matches(l, &self.path, false))
    }
}

/// The steps of `pattern` (`a[*].b`, `**.navmesh.triangles`, `grid.cells[*][*]`, `a[*].b[0]`).
pub(crate) fn parse(pattern: &'static str) -> Vec<Step> {
    let mut steps = Vec::new();
    for part in pattern.split('.').filter(|p| !p.is_empty()) {
        if part == "**" {
            steps.push(Step::Deep);
            continue;
        }
        let mut pieces = part.split('[');
        let name = pieces.next().unwrap_or_default();
        if !name.is_empty() {
            steps.push(Step::Key(name));
        }
        for piece in pieces {
            let inside = piece.strip_suffix(']').unwrap_or(piece);
            steps.push(match inside.parse::<usize>() {
                Ok(n) => Step::At(n),
                Err(_) => Step::Any,
            });
        }
    }
    steps
}

/// Whether `path` matches `pattern` exactly, or (with `prefix`) is the start of a path that
/// would.
pub(crate) fn matches(pattern: &[Step], path: &[Seg], prefix: bool) -> bool {
    let Some((step, rest)) = pattern.split_first() else {
        return path.is_empty();
    };
    let Some((seg, tail)) = path.split_first() else {
        return prefix || *step == Step::Deep && matches(rest, path, prefix);
    };
    match step {
        Step::Deep => matches(rest, path, prefix) || matches(pattern, tail, prefix),
        Step::Key(k) => seg.key() == Some(k) && matches(rest, tail, prefix),
        Step::Any => matches!(seg, Seg::Index(_)) && matches(rest, tail, prefix),
        Step::At(n) => *seg == Seg::Index(*n) && matches(rest, tail, prefix),
    }
}

/// The longest common prefix of the patterns, in steps.
pub(crate) fn common_prefix(patterns: &[&[Step]]) -> usize {
    let Some(first) = patterns.first() else {
        return 0;
    };
    let mut n = first.len();
    for p in patterns.iter().skip(1) {
        n = n.min(
            first
                .iter()
                .zip(p.iter())
                .take_while(|(a, b)| a == b)
                .count(),
        );
    }
    n
}

/// Every concrete path under `value` (itself at `at`) that `pattern` matches, in document
/// order.
pub(crate) fn find(value: &Value, pattern: &[Step], at: &mut Vec<Seg>, out: &mut Vec<Vec<Seg>>) {
    let Some((step, rest)) = pattern.split_first() else {
        out.push(at.clone());
        return;
    };
    match step {
        Step::Key(k) => {
            if let Some(child) = value.as_object().and_then(|o| o.get(*k)) {
                at.push(Seg::Field(k));
                find(child, rest, at, out);
                at.pop();
            }
        }
        Step::Any => {
            for (i, child) in value.as_array().into_iter().flatten().enumerate() {
                at.push(Seg::Index(i));
                find(child, rest, at, out);
                at.pop();
            }
        }
        Step::At(n) => {
            if let Some(child) = value.as_array().and_then(|a| a.get(*n)) {
                at.push(Seg::Index(*n));
                find(child, rest, at, out);
                at.pop();
            }
        }
        Step::Deep => {
            // Zero steps here, or one more step down and still deep.
            find(value, rest, at, out);
            match value {
                Value::Object(o) => {
                    for (k, child) in o {
                        at.push(Seg::Owned(k.clone()));
                        find(child, pattern, at, out);
                        at.pop();
                    }
                }
                Value::Array(a) => {
                    for (i, child) in a.iter().enumerate() {
                        at.push(Seg::Index(i));
                        find(child, pattern, at, out);
                        at.pop();
                    }
                }
                _ => {}
            }
        }
    }
}

/// The value at a concrete path.
pub(crate) fn get<'v>(value: &'v Value, path: &[Seg]) -> Option<&'v Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        Seg::Index(i) => v.as_array()?.get(*i),
        _ => v.as_object()?.get(seg.key()?),
    })
}

/// The value at a concrete path, mutable.
pub(crate) fn get_mut<'v>(value: &'v mut Value, path: &[Seg]) -> Option<&'v mut Value> {
    path.iter().try_fold(value, |v, seg| match seg {
        Seg::Index(i) => v.as_array_mut()?.get_mut(*i),
        _ => v.as_object_mut()?.get_mut(seg.key()?),
    })
}

/// The concrete path of a list named by people (`triangles`, `data_chunks[2].nodes`).
pub(crate) fn parse_concrete(path: &str) -> Result<Vec<Seg>, String> {
    let mut segs = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let mut pieces = part.split('[');
        let name = pieces.next().unwrap_or_default();
        if !name.is_empty() {
            segs.push(Seg::Owned(name.to_string()));
        }
        for piece in pieces {
            let index = piece
                .strip_suffix(']')
                .and_then(|n| n.parse::<usize>().ok())
                .ok_or_else(|| format!("{path}: `[{piece}` is not an index"))?;
            segs.push(Seg::Index(index));
        }
    }
    Ok(segs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_match_paths_and_their_starts() {
        let p = parse("sections[*].edges[*].from");
        assert_eq!(
            p,
            [
                Step::Key("sections"),
                Step::Any,
                Step::Key("edges"),
                Step::Any,
                Step::Key("from")
            ]
        );
        let path = [
            Seg::Field("sections"),
            Seg::Index(2),
            Seg::Owned("edges".into()),
            Seg::Index(0),
            Seg::Field("from"),
        ];
        assert!(matches(&p, &path, false));
        assert!(!matches(&p, &path[..3], false));
        assert!(matches(&p, &path[..3], true));
        assert!(!matches(&p, &[Seg::Field("nodes")], true));
        let deep = parse("**.navmesh.triangles");
        let plugin = [
            Seg::Field("items"),
            Seg::Index(0),
            Seg::Field("Group"),
            Seg::Field("navmesh"),
            Seg::Field("triangles"),
        ];
        assert!(matches(&deep, &plugin, false));
        assert!(matches(&deep, &plugin[1..], false));
        assert!(!matches(&deep, &plugin[..4], false));
        assert_eq!(parse("grid.cells[*][*]").len(), 4);
        assert_eq!(parse("e[*].cell[0]").get(3), Some(&Step::At(0)));
        assert_eq!(common_prefix(&[&p, &parse("sections[*].nodes")]), 2);
    }

    #[test]
    fn find_walks_every_match() {
        let v = serde_json::json!({"a": [{"b": 1}, {"b": 2}, {"c": 3}], "x": {"a": [{"b": 4}]}});
        let mut out = Vec::new();
        find(&v, &parse("**.a[*].b"), &mut Vec::new(), &mut out);
        let values: Vec<_> = out.iter().filter_map(|p| get(&v, p)).collect();
        assert_eq!(values, [&serde_json::json!(1), &2.into(), &4.into()]);
        let concrete = parse_concrete("x.a[0].b").unwrap();
        assert_eq!(get(&v, &concrete), Some(&4.into()));
        assert!(parse_concrete("a[x]").is_err());
    }
}
