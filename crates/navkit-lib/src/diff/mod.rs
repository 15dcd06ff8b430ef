//! Structural differences between two models of one format, for `navkit diff`.
//!
//! Each model is serialised (through serde, so every format is covered without code of its own)
//! into a compact [`Tree`]: struct field names stay `&'static str`, floats stay as their bits, and
//! nothing is hashed, so a tree costs a fraction of a `serde_json::Value` of the same model. The
//! two trees are then walked side by side, once:
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
//! `nodes[12].origin`.

use std::collections::HashMap;
use std::fmt::{self, Write as _};

mod tree;

pub use tree::Tree;

/// How the elements of one sequence are known ([`nav_core::RecordIdentity`]).
pub use nav_core::RecordIdentity as Identity;

/// The identity of the elements of the sequence field `field` in a model of `format`, as the
/// format declares it, or `None` to pair them by index.
pub fn identity(format: &str, field: &str) -> Option<Identity> {
    crate::registry::by_name(format)?.record_identity(field)
}

fn field<'t>(t: &'t Tree, name: &str) -> Option<&'t Tree> {
    match t {
        Tree::Map(fields) => fields.iter().find(|(k, _)| k == name).map(|(_, v)| v),
        _ => None,
    }
}

fn integer(t: &Tree) -> Option<i128> {
    match t {
        Tree::Int(v) => Some((*v).into()),
        Tree::Uint(v) => Some((*v).into()),
        Tree::Wide(v) => Some(**v),
        _ => None,
    }
}

/// A FormID: hex digits, as a Skyrim model writes it (`"0410E930"`), or a number.
fn form_id(t: &Tree) -> Option<i128> {
    match t {
        Tree::Str(s) => u32::from_str_radix(s, 16).ok().map(i128::from),
        _ => integer(t),
    }
}

/// The key an element is known by under `rule`.
fn key_of(rule: Identity, t: &Tree) -> Option<String> {
    match rule {
        Identity::Field(name) => integer(field(t, name)?).map(|v| format!("{name} {v}")),
        Identity::FormId => match t {
            Tree::Variant(v) if v.0 == "Record" => form_id(field(&v.1, "form_id")?)
                .map(|id| format!("FormID {id:#010X}").replace("0X", "0x")),
            Tree::Variant(v) if v.0 == "Group" => {
                let label = integer(field(&v.1, "label")?)?;
                let kind = integer(field(&v.1, "group_type")?)?;
                // A top group's label is a record signature (`NAVM`): show it as one.
                let signature = u32::try_from(label)
                    .ok()
                    .map(u32::to_le_bytes)
                    .filter(|b| {
                        b.iter()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
                    })
                    .and_then(|b| String::from_utf8(b.to_vec()).ok());
                match signature {
                    Some(sig) if kind == 0 => Some(format!("group {sig}")),
                    _ => Some(format!("group {label:#010X} type {kind}").replace("0X", "0x")),
                }
            }
            _ => None,
        },
    }
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

/// The longest string shown whole in a change.
const MAX_TEXT: usize = 48;

fn float32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        format!("NaN ({bits:#010x})")
    } else {
        format!("{v:?}")
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
        Tree::F32(bits) => s = float32(*bits),
        Tree::F64(bits) => {
            let v = f64::from_bits(*bits);
            s = if v.is_nan() {
                format!("NaN ({bits:#018x})")
            } else {
                format!("{v:?}")
            };
        }
        Tree::Str(v) if v.chars().count() > MAX_TEXT => {
            let head: String = v.chars().take(MAX_TEXT).collect();
            let _ = write!(s, "{:?}… ({} characters)", head, v.chars().count());
        }
        Tree::Str(v) => {
            let _ = write!(s, "{v:?}");
        }
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
/// paths in numeric order).
pub fn diff(format: &str, a: &Tree, b: &Tree) -> Vec<Change> {
    let mut out = Vec::new();
    let mut path = String::new();
    walk(format, &mut path, None, a, b, &mut out);
    out.sort_by_cached_key(|c| natural_key(&c.path));
    out
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

fn push_field(path: &mut String, name: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(name);
}

fn walk(
    format: &str,
    path: &mut String,
    field_name: Option<&str>,
    a: &Tree,
    b: &Tree,
    out: &mut Vec<Change>,
) {
    if a == b {
        return;
    }
    let len = path.len();
    match (a, b) {
        (Tree::Map(fa), Tree::Map(fb))
            if fa.len() == fb.len() && fa.iter().zip(fb.iter()).all(|(x, y)| x.0 == y.0) =>
        {
            // The same fields in the same order: the usual case, two records of one struct.
            for ((k, va), (_, vb)) in fa.iter().zip(fb.iter()) {
                push_field(path, k);
                walk(format, path, Some(k), va, vb, out);
                path.truncate(len);
            }
        }
        (Tree::Map(fa), Tree::Map(fb)) => {
            // Fields in the first model's order; then those only in the second.
            let index_b: HashMap<&str, usize> = fb
                .iter()
                .enumerate()
                .map(|(i, (k, _))| (k.as_ref(), i))
                .collect();
            let mut seen = vec![false; fb.len()];
            for (k, va) in fa.iter() {
                push_field(path, k);
                match index_b.get(k.as_ref()) {
                    Some(&i) => {
                        if let (Some(s), Some((_, vb))) = (seen.get_mut(i), fb.get(i)) {
                            *s = true;
                            walk(format, path, Some(k), va, vb, out);
                        }
                    }
                    None => out.push(Change {
                        path: path.clone(),
                        kind: ChangeKind::Removed,
                    }),
                }
                path.truncate(len);
            }
            for ((k, _), s) in fb.iter().zip(&seen) {
                if !*s {
                    push_field(path, k);
                    out.push(Change {
                        path: path.clone(),
                        kind: ChangeKind::Added,
                    });
                    path.truncate(len);
                }
            }
        }
        (Tree::Seq(sa), Tree::Seq(sb))
            if !(sa.len() <= 16
                && sb.len() <= 16
                && sa.iter().chain(sb.iter()).all(Tree::is_plain)) =>
        {
            let rule = field_name.and_then(|f| identity(format, f));
            if let Some(rule) = rule {
                if seq_by_identity(format, path, rule, sa, sb, out) {
                    return;
                }
            }
            for (i, (ea, eb)) in sa.iter().zip(sb.iter()).enumerate() {
                let _ = write!(path, "[{i}]");
                walk(format, path, None, ea, eb, out);
                path.truncate(len);
            }
            let common = sa.len().min(sb.len());
            for i in common..sa.len() {
                out.push(Change {
                    path: format!("{path}[{i}]"),
                    kind: ChangeKind::Removed,
                });
            }
            for i in common..sb.len() {
                out.push(Change {
                    path: format!("{path}[{i}]"),
                    kind: ChangeKind::Added,
                });
            }
        }
        (Tree::Variant(va), Tree::Variant(vb)) if va.0 == vb.0 => {
            // The variant name adds nothing to the path when both sides agree on it.
            walk(format, path, field_name, &va.1, &vb.1, out);
        }
        _ => out.push(Change {
            path: if path.is_empty() {
                "(model)".into()
            } else {
                path.clone()
            },
            kind: ChangeKind::Changed(show(a), show(b)),
        }),
    }
}

/// Pairs the elements of two sequences by their keys. Returns `false`, having written nothing,
/// when some element has no key or a key repeats (the caller then pairs by index).
fn seq_by_identity(
    format: &str,
    path: &mut String,
    rule: Identity,
    sa: &[Tree],
    sb: &[Tree],
    out: &mut Vec<Change>,
) -> bool {
    let keys = |s: &[Tree]| -> Option<(Vec<String>, HashMap<String, usize>)> {
        let list: Vec<String> = s.iter().map(|t| key_of(rule, t)).collect::<Option<_>>()?;
        let mut map = HashMap::with_capacity(list.len());
        for (i, k) in list.iter().enumerate() {
            if map.insert(k.clone(), i).is_some() {
                return None;
            }
        }
        Some((list, map))
    };
    let (Some((ka, _)), Some((kb, mb))) = (keys(sa), keys(sb)) else {
        return false;
    };
    let len = path.len();
    let mut matched = vec![false; sb.len()];
    for (k, ea) in ka.iter().zip(sa) {
        let _ = write!(path, "[{k}]");
        match mb.get(k) {
            Some(&j) => {
                if let (Some(m), Some(eb)) = (matched.get_mut(j), sb.get(j)) {
                    *m = true;
                    walk(format, path, None, ea, eb, out);
                }
            }
            None => out.push(Change {
                path: path.clone(),
                kind: ChangeKind::Removed,
            }),
        }
        path.truncate(len);
    }
    for (k, m) in kb.iter().zip(&matched) {
        if !*m {
            out.push(Change {
                path: format!("{path}[{k}]"),
                kind: ChangeKind::Added,
            });
        }
    }
    // The same records in another order is a difference too: the file differs.
    if ka.len() == kb.len() && matched.iter().all(|m| *m) && ka != kb {
        out.push(Change {
            path: path.clone(),
            kind: ChangeKind::Changed("records in one order".into(), "in another".into()),
        });
    }
    true
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
