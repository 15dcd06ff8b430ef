//! The walk of two [`super::Flat`]s side by side: equal values skipped by one comparison of
//! their bytes, differing ones descended into as [`super`] describes.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write as _;

use super::read::{Value, show};
use super::tags::{MAP, SEQ, VARIANT};
use super::{Change, ChangeKind, Identity, identity};

/// One walk: the format (for record identity), the names both flats index, the changes found.
pub(super) struct Walk<'n> {
    format: &'n str,
    names: &'n [Cow<'static, str>],
    /// Each name's index, for the fields that identify records.
    index: HashMap<&'n str, u32>,
    /// The changes found.
    pub(super) out: Vec<Change>,
}

fn push_field(path: &mut String, name: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(name);
}

/// Whether a sequence compares as one value: at most 16 elements, all plain.
fn short_plain(v: Value<'_>) -> bool {
    let mut n = 0;
    for e in v.items() {
        n += 1;
        if n > 16 || !e.is_plain() {
            return false;
        }
    }
    true
}

impl<'n> Walk<'n> {
    /// A walk of two flats of `format` whose names are both in `names`.
    pub(super) fn new(format: &'n str, names: &'n [Cow<'static, str>]) -> Self {
        let index = names
            .iter()
            .enumerate()
            .filter_map(|(i, n)| Some((n.as_ref(), u32::try_from(i).ok()?)))
            .collect();
        Walk {
            format,
            names,
            index,
            out: Vec::new(),
        }
    }

    fn name(&self, i: u32) -> &str {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.names.get(i))
            .map_or("?", |n| n.as_ref())
    }

    /// The index of the name `text`, if either flat uses it.
    fn index_of(&self, text: &str) -> Option<u32> {
        self.index.get(text).copied()
    }

    fn push(&mut self, path: String, kind: ChangeKind) {
        self.out.push(Change { path, kind });
    }

    /// Compares `a` and `b` at `path`; `field` names the struct field they are the value of.
    pub(super) fn walk(
        &mut self,
        path: &mut String,
        field: Option<u32>,
        a: Value<'_>,
        b: Value<'_>,
    ) {
        if a == b {
            return;
        }
        let len = path.len();
        match (a.tag(), b.tag()) {
            (MAP, MAP) if a.fields().map(|f| f.0).eq(b.fields().map(|f| f.0)) => {
                // The same fields in the same order: the usual case, two records of one struct.
                for ((k, va), (_, vb)) in a.fields().zip(b.fields()) {
                    push_field(path, self.name(k));
                    self.walk(path, Some(k), va, vb);
                    path.truncate(len);
                }
            }
            (MAP, MAP) => self.map_fields(path, a, b),
            (SEQ, SEQ) if !(short_plain(a) && short_plain(b)) => {
                let rule = field.and_then(|f| identity(self.format, self.name(f)));
                if let Some(rule) = rule {
                    if self.seq_by_identity(path, rule, a, b) {
                        return;
                    }
                }
                let (mut na, mut nb) = (0usize, 0usize);
                let mut ib = b.items();
                for ea in a.items() {
                    na += 1;
                    let Some(eb) = ib.next() else { continue };
                    nb += 1;
                    let _ = write!(path, "[{}]", na - 1);
                    self.walk(path, None, ea, eb);
                    path.truncate(len);
                }
                nb += ib.count();
                let common = na.min(nb);
                for i in common..na {
                    self.push(format!("{path}[{i}]"), ChangeKind::Removed);
                }
                for i in common..nb {
                    self.push(format!("{path}[{i}]"), ChangeKind::Added);
                }
            }
            (VARIANT, VARIANT) => match (a.variant(), b.variant()) {
                // The variant name adds nothing to the path when both sides agree on it.
                (Some((na, ia)), Some((nb, ib))) if na == nb => self.walk(path, field, ia, ib),
                _ => self.changed(path, a, b),
            },
            _ => self.changed(path, a, b),
        }
    }

    fn changed(&mut self, path: &str, a: Value<'_>, b: Value<'_>) {
        let at = if path.is_empty() { "(model)" } else { path };
        let kind = ChangeKind::Changed(show(a, self.names), show(b, self.names));
        self.push(at.to_string(), kind);
    }

    /// Two maps with different fields: fields in the first model's order, then those only in
    /// the second.
    fn map_fields(&mut self, path: &mut String, a: Value<'_>, b: Value<'_>) {
        let len = path.len();
        let fb: Vec<(u32, Value<'_>)> = b.fields().collect();
        let index_b: HashMap<u32, usize> = fb.iter().enumerate().map(|(i, f)| (f.0, i)).collect();
        let mut seen = vec![false; fb.len()];
        for (k, va) in a.fields() {
            push_field(path, self.name(k));
            match index_b.get(&k) {
                Some(&i) => {
                    if let (Some(s), Some(&(_, vb))) = (seen.get_mut(i), fb.get(i)) {
                        *s = true;
                        self.walk(path, Some(k), va, vb);
                    }
                }
                None => self.push(path.clone(), ChangeKind::Removed),
            }
            path.truncate(len);
        }
        for (&(k, _), s) in fb.iter().zip(&seen) {
            if !*s {
                push_field(path, self.name(k));
                self.push(path.clone(), ChangeKind::Added);
                path.truncate(len);
            }
        }
    }

    /// The key an element is known by under `rule`.
    fn key_of(&self, rule: Identity, t: Value<'_>) -> Option<String> {
        let integer = |t: Value<'_>, name: &str| -> Option<i128> {
            let field = self.index_of(name)?;
            match t.tag() {
                MAP => t.field(field)?.integer(),
                _ => None,
            }
        };
        match rule {
            Identity::Field(name) => integer(t, name).map(|v| format!("{name} {v}")),
            Identity::FormId => {
                let (kind, inner) = t.variant()?;
                match self.name(kind) {
                    "Record" => {
                        let field = self.index_of("form_id")?;
                        let id = match inner.tag() {
                            MAP => inner.field(field)?.form_id()?,
                            _ => return None,
                        };
                        Some(form_id(id, "FormID"))
                    }
                    "Group" => {
                        let label = integer(inner, "label")?;
                        let kind = integer(inner, "group_type")?;
                        Some(group_key(label, kind))
                    }
                    _ => None,
                }
            }
        }
    }

    /// Pairs the elements of two sequences by their keys. Returns `false`, having written
    /// nothing, when some element has no key or a key repeats (the caller then pairs by index).
    fn seq_by_identity(
        &mut self,
        path: &mut String,
        rule: Identity,
        a: Value<'_>,
        b: Value<'_>,
    ) -> bool {
        let keys = |s: Value<'_>| -> Option<(Vec<String>, HashMap<String, usize>)> {
            let list: Vec<String> = s
                .items()
                .map(|t| self.key_of(rule, t))
                .collect::<Option<_>>()?;
            let mut map = HashMap::with_capacity(list.len());
            for (i, k) in list.iter().enumerate() {
                if map.insert(k.clone(), i).is_some() {
                    return None;
                }
            }
            Some((list, map))
        };
        let (Some((ka, _)), Some((kb, mb))) = (keys(a), keys(b)) else {
            return false;
        };
        let sb: Vec<Value<'_>> = b.items().collect();
        let len = path.len();
        let mut matched = vec![false; sb.len()];
        for (k, ea) in ka.iter().zip(a.items()) {
            let _ = write!(path, "[{k}]");
            match mb.get(k) {
                Some(&j) => {
                    if let (Some(m), Some(&eb)) = (matched.get_mut(j), sb.get(j)) {
                        *m = true;
                        self.walk(path, None, ea, eb);
                    }
                }
                None => self.push(path.clone(), ChangeKind::Removed),
            }
            path.truncate(len);
        }
        for (k, m) in kb.iter().zip(&matched) {
            if !*m {
                self.push(format!("{path}[{k}]"), ChangeKind::Added);
            }
        }
        // The same records in another order is a difference too: the file differs.
        if ka.len() == kb.len() && matched.iter().all(|m| *m) && ka != kb {
            self.push(
                path.clone(),
                ChangeKind::Changed("records in one order".into(), "in another".into()),
            );
        }
        true
    }
}

/// `FormID 0x050008E4`: a FormID as xEdit shows it, after `what`.
pub(super) fn form_id(id: i128, what: &str) -> String {
    format!("{what} {id:#010X}").replace("0X", "0x")
}

/// The key of a Skyrim plugin group: a top group's label is a record signature (`NAVM`), shown
/// as one (`group NAVM`); others by label and type.
pub(super) fn group_key(label: i128, kind: i128) -> String {
    let signature = u32::try_from(label)
        .ok()
        .map(u32::to_le_bytes)
        .filter(|b| {
            b.iter()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_')
        })
        .and_then(|b| String::from_utf8(b.to_vec()).ok());
    match signature {
        Some(sig) if kind == 0 => format!("group {sig}"),
        _ => format!("group {label:#010X} type {kind}").replace("0X", "0x"),
    }
}
