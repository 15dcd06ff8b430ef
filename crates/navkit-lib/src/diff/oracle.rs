//! The first implementation of [`super::diff`], kept as the oracle of the flat one: it walks two
//! [`Tree`]s. The tests here run both over every corpus file against its rewrite, against the
//! next file of its format, against edits made through the JSON model and against edits made
//! to the tree itself (records removed, reordered, given repeated ids, values changed), and
//! require the same lines.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Change, ChangeKind, Identity, Tree, identity, natural_key, show};

/// The differences as the tree walk found them, sorted as [`super::diff`] sorts them.
pub(super) fn tree_diff(format: &str, a: &Tree, b: &Tree) -> Vec<Change> {
    let mut out = Vec::new();
    let mut path = String::new();
    walk(format, &mut path, None, a, b, &mut out);
    out.sort_by_cached_key(|c| natural_key(&c.path));
    out
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

mod tests;
