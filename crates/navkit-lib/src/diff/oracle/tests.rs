//! The flat walk against the tree walk it replaced, on every corpus file: against its rewrite,
//! the next file of its format, edits through the JSON model and edits of the tree itself. Both
//! must give the same lines, and the flat made straight from a model must be the flat of its
//! tree.

use serde_json::Value as Json;

use super::tree_diff;
use crate::diff::{Change, Flat, Tree, diff_flat};
use crate::registry::{self, AnyFormat};
use nav_core::testing::{corpus_files, corpus_root, is_negative, skip_without_corpus};

fn lines(changes: &[Change]) -> Vec<String> {
    changes.iter().map(ToString::to_string).collect()
}

/// Runs both walks on `a` → `b` and on `b` → `a`, the flats numbered together and apart;
/// returns how many lines the first gave.
fn same(what: &str, format: &str, a: &Tree, b: &Tree) -> usize {
    let old = lines(&tree_diff(format, a, b));
    let fa = Flat::of_tree(a, None).unwrap();
    let together = Flat::of_tree(b, Some(&fa)).unwrap();
    let apart = Flat::of_tree(b, None).unwrap();
    assert_eq!(old, lines(&diff_flat(format, &fa, &together)), "{what}");
    assert_eq!(
        old,
        lines(&diff_flat(format, &fa, &apart)),
        "{what}, numbered apart"
    );
    let back = lines(&tree_diff(format, b, a));
    let fb = Flat::of_tree(b, None).unwrap();
    let fa2 = Flat::of_tree(a, Some(&fb)).unwrap();
    assert_eq!(
        back,
        lines(&diff_flat(format, &fb, &fa2)),
        "{what}, swapped"
    );
    old.len()
}

/// A long list: compared element by element, not as one value.
fn is_long(items: &[Tree]) -> bool {
    items.len() > 16 || items.iter().any(|t| !t.is_plain())
}

/// Applies `edit` to every long list up to `depth` levels down.
fn each_list(t: &mut Tree, depth: usize, edit: &mut dyn FnMut(&mut Vec<Tree>)) {
    if depth == 0 {
        return;
    }
    match t {
        Tree::Seq(items) => {
            let mut v = std::mem::take(items).into_vec();
            for item in &mut v {
                each_list(item, depth - 1, edit);
            }
            if is_long(&v) {
                edit(&mut v);
            }
            *items = v.into_boxed_slice();
        }
        Tree::Map(fields) => {
            for (_, v) in fields.iter_mut() {
                each_list(v, depth - 1, edit);
            }
        }
        Tree::Variant(v) => each_list(&mut v.1, depth, edit),
        _ => {}
    }
}

/// Changes every `step`th plain value; `count` counts the plain values seen.
fn each_leaf(t: &mut Tree, step: usize, count: &mut usize) {
    match t {
        Tree::Seq(items) => items.iter_mut().for_each(|i| each_leaf(i, step, count)),
        Tree::Map(fields) => fields
            .iter_mut()
            .for_each(|(_, v)| each_leaf(v, step, count)),
        Tree::Variant(v) => each_leaf(&mut v.1, step, count),
        leaf => {
            *count += 1;
            if *count % step == 0 {
                let new = match &*leaf {
                    Tree::Int(v) => Tree::Int(v.wrapping_add(1)),
                    Tree::Uint(v) => Tree::Uint(v.wrapping_add(1)),
                    Tree::F32(b) => Tree::F32(*b ^ 1),
                    Tree::F64(b) => Tree::F64(*b ^ 1),
                    Tree::Bool(b) => Tree::Bool(!*b),
                    Tree::Str(s) => Tree::Str(format!("{s}x").into()),
                    Tree::Unit => Tree::Uint(0),
                    other => Tree::Str(format!("{other:?}").chars().take(60).collect()),
                };
                *leaf = new;
            }
        }
    }
}

/// The first map `depth` levels down or less: one field removed and one added.
fn reshape_map(t: &mut Tree, depth: usize) -> bool {
    match t {
        Tree::Map(fields) if fields.len() >= 2 && depth == 0 => {
            let mut v = std::mem::take(fields).into_vec();
            let (_, moved) = v.remove(0);
            v.push(("extra".into(), moved));
            *fields = v.into_boxed_slice();
            true
        }
        Tree::Map(fields) => fields
            .iter_mut()
            .any(|(_, v)| depth > 0 && reshape_map(v, depth - 1)),
        Tree::Seq(items) => items
            .iter_mut()
            .take(3)
            .any(|i| depth > 0 && reshape_map(i, depth - 1)),
        Tree::Variant(v) => reshape_map(&mut v.1, depth),
        _ => false,
    }
}

/// The edits of a tree tried on each file edited.
fn tree_edits(t: &Tree) -> Vec<(&'static str, Tree)> {
    let mut out = Vec::new();
    let mut edit = |what, f: &mut dyn FnMut(&mut Vec<Tree>)| {
        let mut e = t.clone();
        each_list(&mut e, 4, f);
        out.push((what, e));
    };
    edit("middle record removed", &mut |v| {
        v.remove(v.len() / 2);
    });
    edit("first two swapped", &mut |v| {
        if v.len() >= 2 {
            v.swap(0, 1);
        }
    });
    edit("first repeated at the end", &mut |v| {
        if let Some(first) = v.first().cloned() {
            v.push(first);
        }
    });
    edit("last removed, first changed", &mut |v| {
        v.pop();
        if let Some(first) = v.first_mut() {
            let mut n = 0;
            each_leaf(first, 2, &mut n);
        }
    });
    let mut leaves = t.clone();
    let mut n = 0;
    each_leaf(&mut leaves, 997, &mut n);
    out.push(("every 997th value changed", leaves));
    for depth in [0, 2, 4] {
        let mut e = t.clone();
        if reshape_map(&mut e, depth) {
            out.push(("a map's fields changed", e));
        }
    }
    out
}

/// The model's JSON with the middle record of its longest top-level list removed and a number
/// of its first record changed, read back (`None` when the format refuses the edit).
fn json_edit(format: &dyn AnyFormat, bytes: &[u8]) -> Option<Tree> {
    let mut text = Vec::new();
    format.to_json(bytes, &mut text).ok()?;
    let mut doc: Json = serde_json::from_slice(&text).unwrap();
    let model = doc.get_mut("model")?.as_object_mut()?;
    let list = model
        .values_mut()
        .filter_map(Json::as_array_mut)
        .filter(|l| l.len() >= 3)
        .max_by_key(|l| l.len())?;
    // Without the records' "#", the list reads as it stands (references into it are not
    // renumbered, and none is refused): the edit is a change of values for diff to show.
    for record in list.iter_mut().filter_map(Json::as_object_mut) {
        record.shift_remove(crate::positions::KEY);
    }
    let middle = list.len() / 2;
    list.remove(middle);
    if let Some(fields) = list.first_mut().and_then(Json::as_object_mut) {
        if let Some(n) = fields.values_mut().find(|v| v.is_u64()) {
            *n = Json::from(n.as_u64()?.saturating_add(1));
        }
    }
    let text = serde_json::to_vec(&doc).unwrap();
    let (opened, _) = format.open_json(text.as_slice().into()).ok()?;
    Some(opened.model_tree().unwrap())
}

#[test]
fn flat_and_tree_walks_agree_on_every_corpus_file_and_edit() {
    let Some(root) = corpus_root() else {
        skip_without_corpus("no corpus found");
        return;
    };
    let (mut files, mut pairs, mut json_edits, mut lines_seen) = (0usize, 0usize, 0usize, 0usize);
    let mut previous: std::collections::HashMap<&str, Tree> = std::collections::HashMap::new();
    let mut edited_files = std::collections::HashMap::new();
    for path in corpus_files(&root) {
        if is_negative(&path) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let Some(format) = registry::sniff(&bytes).or_else(|| registry::by_extension(&path)) else {
            continue;
        };
        let name = path.strip_prefix(&root).unwrap().display().to_string();
        let Ok(opened) = format.open(&bytes) else {
            continue;
        };
        let f = format.name();
        let tree = opened.model_tree().unwrap();
        // The serialiser and the tree agree value for value.
        let flat = opened.model_flat(None, 0).unwrap();
        assert!(flat == Flat::of_tree(&tree, None).unwrap(), "{name}: flat");
        drop(opened);
        let rewritten = format.model_tree(&format.rewrite(&bytes).unwrap()).unwrap();
        assert_eq!(same(&name, f, &tree, &rewritten), 0, "{name}: rewrite");
        files += 1;
        if let Some(other) = previous.get(f) {
            lines_seen += same(&format!("{name} and the previous file"), f, other, &tree);
            pairs += 1;
        }
        // Edits are tried on the first files of each format below 1 MiB, where the tree walk
        // is quick (the CLI's output on edits of the largest file was compared when this walk
        // replaced the tree walk).
        let tried = edited_files.entry(f).or_insert(0usize);
        if bytes.len() <= 1 << 20 && *tried < 4 {
            *tried += 1;
            for (what, edited) in tree_edits(&tree) {
                lines_seen += same(&format!("{name}: {what}"), f, &tree, &edited);
                pairs += 1;
            }
            if let Some(edited) = json_edit(format, &bytes) {
                let n = same(&format!("{name}: JSON edit"), f, &tree, &edited);
                assert!(n > 0, "{name}: the JSON edit shows");
                lines_seen += n;
                json_edits += 1;
            }
        }
        previous.insert(f, tree);
    }
    eprintln!(
        "{files} files, {pairs} pairs ({json_edits} edited through JSON), {lines_seen} lines alike"
    );
    assert!(files >= 200, "only {files} corpus files");
    assert!(
        edited_files.len() >= 5 && json_edits >= 12,
        "only {json_edits} JSON edits read back, of {} formats",
        edited_files.len()
    );
}
