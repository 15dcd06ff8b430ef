//! References that name a list of another scope ([`nav_core::positions::Across`]: a node of
//! another data chunk, chosen by a chunk id beside the reference), and guarded references
//! ([`nav_core::positions::Reference::guarded`]), which name a record of some instance that
//! cannot be told.

use nav_core::positions::Across;
use serde_json::Value;

use super::path::{self, Seg, Shown};
use super::plan::{Instance, Plan, holds};

/// The integer that the key path `key` (`data_chunk_id`, `crossing.data_chunk_ids[=]`) names
/// for the reference at `place`: from the innermost object on the path that has the key's first
/// field; `[=]` takes the element at the reference's own (last) array index.
fn key_at(model: &Value, place: &[Seg], key: &str) -> Option<u64> {
    let own = place.iter().rev().find_map(|s| match s {
        Seg::Index(i) => Some(*i),
        _ => None,
    });
    let parts: Vec<(&str, bool)> = key
        .split('.')
        .map(|p| match p.strip_suffix("[=]") {
            Some(name) => (name, true),
            None => (p, false),
        })
        .collect();
    let (first, _) = parts.first()?;
    let record = (0..place.len()).rev().find_map(|k| {
        let r = path::get(model, place.get(..k)?)?;
        r.as_object()?.contains_key(*first).then_some(r)
    })?;
    let mut at = record;
    for (name, same_index) in parts {
        at = at.get(name)?;
        if same_index {
            at = at.get(own?)?;
        }
    }
    at.as_u64()
}

/// Refuses an edit that changed the position of a record that a guarded reference may name
/// ([`Reference::guarded`]): which instance of the list it names is not known, so every
/// renumbered instance is taken as the one it may name.
pub(super) fn guard(
    model: &Value,
    plans: &[Plan<'_>],
    work: &[(&Plan<'_>, Instance)],
) -> Result<(), String> {
    for plan in plans {
        for (reference, steps) in plan.refs.iter().filter(|(r, _)| r.guarded) {
            let mut found = Vec::new();
            path::find(model, steps, &mut Vec::new(), &mut found);
            for place in found {
                let Some(v) = path::get(model, &place).and_then(Value::as_i64) else {
                    continue;
                };
                if reference.none.contains(&v) || !holds(model, &place, reference) {
                    continue;
                }
                let Ok(old) = u64::try_from((v >> reference.shift.min(62)) - reference.first)
                else {
                    continue;
                };
                let changed = work.iter().any(|(p, instance)| {
                    std::ptr::eq(*p, plan)
                        && instance.count.is_none_or(|c| old < c)
                        && instance
                            .new_position(old)
                            .and_then(|n| u64::try_from(n).ok())
                            != Some(old)
                });
                if changed {
                    return Err(format!(
                        "{}: may name {} #{old}, whose position the edit changes, and from-json \
                         cannot tell which list it names; add or delete {}s at the end of the \
                         list only, or change this reference too and leave the list in place",
                        Shown(&place),
                        plan.list.noun,
                        plan.list.noun
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether the reference at `place` names the list instance of the scope at `scope`: its key
/// field (in the innermost object on its path that has one) equals the scope record's, masked.
pub(super) fn names_scope(model: &Value, place: &[Seg], scope: &[Seg], across: Across) -> bool {
    let key = key_at(model, place, across.key);
    let own = path::get(model, scope)
        .and_then(|r| r.get(across.scope_key))
        .and_then(Value::as_u64);
    matches!((key, own), (Some(k), Some(o)) if o & across.mask == k)
}
