//! Structural differences between two models of one format, for `navkit diff`.
//!
//! Each model is serialised (through serde, so every format is covered without code of its own)
//! into a [`Flat`]: one compact byte string per model, about the size of the file it came from,
//! written in one pass with no allocation per value (field names as indices into a small table,
//! floats as their bits, compound values prefixed by their length in bytes). The two flats are
//! then walked side by side, once, and every pair of equal values (a whole unchanged model, an
//! unchanged record) is skipped by one comparison of its bytes:
//!
//! - struct fields pair by name; a field only on one side is `added` or `removed`;
//! - sequences pair their elements by *identity*: by the record's id where the format has ids
//!   (Source and Source 2 `areas` by `id`, Skyrim plugin records by FormID: each format says so
//!   through [`nav_core::Format::record_identity`]; see [`identity`]),
//!   through one hash map per sequence, and by index otherwise;
//! - short sequences of plain values (a position, a flag list) compare as one value;
//! - everything else compares leaf by leaf, floats by their bits (printed as numbers).
//!
//! Each difference is one [`Change`] at a path such as `areas[id 61].attribute_flags` or
//! `nodes[12].origin`. A [`Tree`] (the same serialisation as a tree of values, larger by an
//! order of magnitude) remains for callers that hold one; [`diff`] compares two trees through
//! their flat forms.

use std::fmt::{self, Write as _};

mod flat;
#[cfg(test)]
mod oracle;
mod read;
mod tags;
mod tree;
mod walk;

pub use flat::Flat;
pub use tree::Tree;

/// How the elements of one sequence are known ([`nav_core::RecordIdentity`]).
pub use nav_core::RecordIdentity as Identity;

/// The identity of the elements of the sequence field `field` in a model of `format`, as the
/// format declares it, or `None` to pair them by index.
pub fn identity(format: &str, field: &str) -> Option<Identity> {
    crate::registry::by_name(format)?.record_identity(field)
}

/// What happened at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChangeKind {
    /// Only in the second model.
    Added,
    /// Only in the first model.
    Removed,
    /// In both, different: the old and new values as text.
    Changed(String, String),
}

/// One difference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Where, in model terms (`areas[id 61].attribute_flags`).
    pub path: String,
    /// What.
    pub kind: ChangeKind,
}

impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ChangeKind::Added => write!(f, "{}: added", self.path),
            ChangeKind::Removed => write!(f, "{}: removed", self.path),
            ChangeKind::Changed(a, b) => write!(f, "{}: {a} -> {b}", self.path),
        }
    }
}

/// A value as one short piece of text: plain values in full (long strings cut), compound ones
/// summarised.
pub fn show(t: &Tree) -> String {
    let mut s = String::new();
    match t {
        Tree::Unit => s.push_str("null"),
        Tree::Bool(v) => s.push_str(if *v { "true" } else { "false" }),
        Tree::Int(v) => s = v.to_string(),
        Tree::Uint(v) => s = v.to_string(),
        Tree::Wide(v) => s = v.to_string(),
        Tree::F32(bits) => s = read::float32(*bits),
        Tree::F64(bits) => s = read::float64(*bits),
        Tree::Str(v) => s = read::quoted(v),
        Tree::Bytes(b) => {
            let _ = write!(s, "<{} bytes>", b.len());
        }
        Tree::Seq(items) if items.len() <= 16 && items.iter().all(Tree::is_plain) => {
            let parts: Vec<String> = items.iter().map(show).collect();
            let _ = write!(s, "[{}]", parts.join(", "));
        }
        Tree::Seq(items) => {
            let _ = write!(s, "[{} items]", items.len());
        }
        Tree::Map(fields) => {
            let _ = write!(s, "{{{} fields}}", fields.len());
        }
        Tree::Tag(v) => s.push_str(v),
        Tree::Variant(v) => {
            let _ = write!(s, "{} {}", v.0, show(&v.1));
        }
    }
    s
}

/// Every difference between `a` and `b`, two models of `format`, sorted by path (numbers in
/// paths in numeric order). The trees are compared in their [`Flat`] form ([`diff_flat`]).
pub fn diff(format: &str, a: &Tree, b: &Tree) -> Vec<Change> {
    let flats = Flat::of_tree(a, None).and_then(|fa| Ok((Flat::of_tree(b, Some(&fa))?, fa)));
    match flats {
        Ok((fb, fa)) => diff_flat(format, &fa, &fb),
        Err(e) => not_comparable(e),
    }
}

/// Every difference between `a` and `b`, two models of `format` in their flat form, sorted by
/// path (numbers in paths in numeric order): what [`diff`] gives for their trees, in a
/// fraction of the time and memory. Quickest when `b` was made by [`Flat::next`] from `a`.
pub fn diff_flat(format: &str, a: &Flat, b: &Flat) -> Vec<Change> {
    let b = match a.aligned(b) {
        Ok(b) => b,
        Err(e) => return not_comparable(e),
    };
    let (Some(va), Some(vb)) = (read::Value::at(&a.bytes), read::Value::at(&b.bytes)) else {
        return not_comparable("a damaged flat value".into());
    };
    // `b`'s names extend `a`'s: one table serves both.
    let mut walk = walk::Walk::new(format, &b.names);
    walk.walk(&mut String::new(), None, va, vb);
    let mut out = walk.out;
    out.sort_by_cached_key(|c| natural_key(&c.path));
    out
}

/// The one change reported for models that could not be compared (a sequence over 4 GiB).
fn not_comparable(why: String) -> Vec<Change> {
    vec![Change {
        path: "(model)".into(),
        kind: ChangeKind::Changed("not comparable".into(), why),
    }]
}

/// A sort key that orders digit runs by value (`nodes[9]` before `nodes[10]`).
fn natural_key(path: &str) -> Vec<(u8, u128, String)> {
    let mut key = Vec::new();
    let mut rest = path;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits > 0 {
            let (d, r) = rest.split_at(digits);
            key.push((1, d.parse().unwrap_or(u128::MAX), String::new()));
            rest = r;
        } else {
            let text = rest
                .find(|c: char| c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (t, r) = rest.split_at(text);
            key.push((0, 0, t.to_string()));
            rest = r;
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Serialize)]
    struct Area {
        id: u32,
        attribute_flags: u32,
        corner: [f32; 3],
    }

    #[derive(Serialize)]
    struct Mesh {
        version: u16,
        areas: Vec<Area>,
        nodes: Vec<[f32; 3]>,
    }

    fn mesh() -> Mesh {
        Mesh {
            version: 16,
            areas: (1..=20)
                .map(|id| Area {
                    id,
                    attribute_flags: 0,
                    corner: [id as f32, 0.5, -1.0],
                })
                .collect(),
            nodes: vec![[0.0; 3]; 20],
        }
    }

    fn lines(a: &Mesh, b: &Mesh) -> Vec<String> {
        let (ta, tb) = (Tree::of(a).unwrap(), Tree::of(b).unwrap());
        diff("nav-source", &ta, &tb)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn equal_models_have_no_differences() {
        assert!(lines(&mesh(), &mesh()).is_empty());
    }

    #[test]
    fn records_pair_by_id_and_floats_by_bits() {
        let a = mesh();
        let mut b = mesh();
        b.areas.remove(4); // id 5
        b.areas[0].attribute_flags = 4;
        b.areas[10].corner[1] = 0.25;
        b.areas.push(Area {
            id: 99,
            attribute_flags: 0,
            corner: [0.0; 3],
        });
        b.nodes[12][0] = -0.0;
        b.nodes.push([1.0; 3]);
        b.version = 17;
        assert_eq!(
            lines(&a, &b),
            [
                "areas[id 1].attribute_flags: 0 -> 4",
                "areas[id 5]: removed",
                "areas[id 12].corner: [12.0, 0.5, -1.0] -> [12.0, 0.25, -1.0]",
                "areas[id 99]: added",
                "nodes[12]: [0.0, 0.0, 0.0] -> [-0.0, 0.0, 0.0]",
                "nodes[20]: added",
                "version: 16 -> 17",
            ]
        );
    }

    #[test]
    fn repeated_ids_fall_back_to_index_and_order_counts() {
        let a = mesh();
        let mut b = mesh();
        b.areas.swap(0, 1);
        assert_eq!(lines(&a, &b), ["areas: records in one order -> in another"]);
        let mut c = mesh();
        c.areas[1].id = 1;
        assert_eq!(lines(&a, &c), ["areas[1].id: 2 -> 1"]);
    }

    #[test]
    fn fields_only_on_one_side_are_added_or_removed() {
        #[derive(Serialize)]
        struct Old {
            a: u8,
            b: u8,
        }
        #[derive(Serialize)]
        struct New {
            a: u8,
            c: u8,
        }
        let (x, y) = (
            Tree::of(&Old { a: 1, b: 2 }).unwrap(),
            Tree::of(&New { a: 3, c: 2 }).unwrap(),
        );
        let got: Vec<String> = diff("nav-quake", &x, &y)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(got, ["a: 1 -> 3", "b: removed", "c: added"]);
    }

    #[test]
    fn natural_order_of_paths() {
        let mut p = vec!["nodes[10]", "nodes[9]", "areas[id 100]", "areas[id 20]"];
        p.sort_by_cached_key(|s| natural_key(s));
        assert_eq!(
            p,
            ["areas[id 20]", "areas[id 100]", "nodes[9]", "nodes[10]"]
        );
    }
}
