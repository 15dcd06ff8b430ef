//! Records named by position, kept named through edits of the JSON and of the model.
//!
//! A format lists with [`nav_core::Format::position_lists`] the lists whose records other
//! records name by their position (a Quake link's target node, a Skyrim triangle's neighbours).
//! Around them:
//!
//! - `to-json` writes every record of such a list with its position as the key `"#"`, first:
//!   `{"#": 12, "flags": 0, ...}` ([`write`], streaming). A record that is not a JSON object
//!   (a vertex `[x, y, z]`, a place name) is wrapped: `{"#": 12, "value": [x, y, z]}`; the
//!   formats read such lists wrapped or bare ([`nav_core::positions::records`]).
//! - `from-json` reads `"#"` as the record's position *when the document was written*. When
//!   every record's `"#"` is its position or absent, the model is read as it stands. Otherwise
//!   the list was edited, and every reference is renumbered to the record's new position:
//!   records deleted, inserted (without `"#"`: they take the position they are at) or moved
//!   keep their references. A reference to a `"#"` the document no longer holds is refused
//!   with its JSON path (`model.triangles[40].edges[1]: names triangle #57, which the document
//!   no longer holds`), as is a `"#"` given twice in one list. The rule: a reference always
//!   names a record by the `"#"` it had when written.
//! - [`remove_records`] deletes records from a model and renumbers the same way, setting a
//!   reference to a deleted record to a position past the list, which the format's `fix`
//!   drops.
//!
//! References that the table marks `none` (`0xFFFF`, `-1`) are left as they are.

mod across;
mod path;
mod plan;
mod runs;
mod scan;
mod write;

use nav_core::positions::{Owner, PositionList, Reference};
use serde_json::Value;

use path::{Seg, Shown};
use plan::{Instance, Plan, holds};
use runs::RunMap;
pub(crate) use scan::needs_renumbering;
pub(crate) use write::{Track, Tracked};

pub use nav_core::positions::{KEY, VALUE};

/// What to do with a reference to a record that is gone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Refuse the whole edit, naming the reference (`from-json`).
    Refuse,
    /// Point it past the end of the list, for the format's `fix` to drop, and say so
    /// ([`remove_records`]).
    Dangle,
}

/// Every instance of `plan`'s list in `model`: the concrete path of its scope (the prefix the
/// list shares with its references) and of the list itself. A scope holding no list, or more
/// than one, has no instance.
fn instances(model: &Value, plan: &Plan<'_>) -> Vec<(Vec<Seg>, Vec<Seg>)> {
    let mut scopes = Vec::new();
    path::find(
        model,
        plan.steps.get(..plan.scope).unwrap_or_default(),
        &mut Vec::new(),
        &mut scopes,
    );
    let rest = plan.steps.get(plan.scope..).unwrap_or_default();
    let mut out = Vec::new();
    for scope in scopes {
        let Some(at) = path::get(model, &scope) else {
            continue;
        };
        let mut lists = Vec::new();
        path::find(at, rest, &mut scope.clone(), &mut lists);
        if let [list] = lists.as_slice() {
            let list = list.clone();
            out.push((scope, list));
        }
    }
    out
}

/// Renumbers every reference of `model` (the model's JSON) after its position lists were
/// edited, by the `"#"` of their records, and takes the `"#"` keys out. Returns one line per
/// reference set dangling ([`Missing::Dangle`]).
pub fn renumber(
    model: &mut Value,
    lists: &[PositionList],
    missing: Missing,
) -> Result<Vec<String>, String> {
    let plans: Vec<Plan<'_>> = lists.iter().map(Plan::new).collect();
    // Every instance's old-to-new map first, from the document as it stands.
    let mut work = Vec::new();
    for plan in &plans {
        for (scope, list) in instances(model, plan) {
            if let Some(owners) = plan.owners.as_deref() {
                if let Some(owners) = runs::owners_of(model, &scope, owners) {
                    runs::edited_owners(model, &owners, &list)?;
                }
            }
            if let Some(instance) = positions_of(model, &list, scope, plan)? {
                work.push((plan, instance));
            }
        }
    }
    strip(model, &plans);
    for (_, instance) in &work {
        if let Some(runs) = &instance.runs {
            runs.set_counts(model);
        }
    }
    let mut lines = Vec::new();
    for (plan, instance) in &work {
        for (reference, steps) in &plan.refs {
            if reference.across.is_some() || reference.guarded {
                continue;
            }
            let Some(at) = path::get(model, &instance.scope) else {
                continue;
            };
            let mut found = Vec::new();
            let rest = steps.get(plan.scope..).unwrap_or_default();
            path::find(at, rest, &mut instance.scope.clone(), &mut found);
            for place in found {
                let line = rewrite(model, &place, plan.list, reference, instance, missing)?;
                lines.extend(line);
            }
        }
    }
    across::guard(model, &plans, &work)?;
    // References that name the list of another scope, by a key beside them.
    for plan in &plans {
        for (reference, steps) in &plan.refs {
            let Some(across) = reference.across else {
                continue;
            };
            let mut found = Vec::new();
            path::find(model, steps, &mut Vec::new(), &mut found);
            for place in found {
                let target = work.iter().find(|(p, instance)| {
                    std::ptr::eq(*p, plan)
                        && across::names_scope(model, &place, &instance.scope, across)
                });
                if let Some((_, instance)) = target {
                    let line = rewrite(model, &place, plan.list, reference, instance, missing)?;
                    lines.extend(line);
                }
            }
        }
    }
    Ok(lines)
}

/// The old-to-new map of the list at `list`, or `None` when every record's `"#"` is its
/// position or absent (nothing to renumber).
fn positions_of(
    model: &Value,
    list: &[Seg],
    scope: Vec<Seg>,
    plan: &Plan<'_>,
) -> Result<Option<Instance>, String> {
    let Some(records) = path::get(model, list).and_then(Value::as_array) else {
        return Ok(None);
    };
    let count = count_of(model, list)?;
    let mut moved = Vec::new();
    let mut identity = true;
    let mut hashes = Vec::with_capacity(records.len());
    for (i, record) in records.iter().enumerate() {
        let Some(hash) = record.as_object().and_then(|o| o.get(KEY)) else {
            hashes.push(None);
            continue;
        };
        let old = hash.as_u64().ok_or_else(|| {
            format!(
                "{}[{i}].\"#\": {hash} is not a position (a whole number from 0)",
                Shown(list)
            )
        })?;
        identity &= u64::try_from(i) == Ok(old);
        moved.push((old, i));
        hashes.push(Some(old));
    }
    if identity && count.is_none_or(|c| usize::try_from(c) == Ok(records.len())) {
        return Ok(None);
    }
    moved.sort_unstable();
    for pair in moved.windows(2) {
        let [(a, i), (b, j)] = pair else {
            continue;
        };
        if a == b {
            return Err(format!(
                "{}[{j}].\"#\": {b} is also the \"#\" of {}[{i}]; each record has its own",
                Shown(list),
                Shown(list)
            ));
        }
    }
    let runs = match (plan.list.runs, &plan.owners) {
        (Some(runs), Some(rest)) => {
            let owners = runs::owners_of(model, &scope, rest).ok_or_else(|| {
                format!(
                    "{}: its records belong to the runs of {}, which this document does not                      hold once",
                    Shown(list),
                    runs.owners
                )
            })?;
            Some(RunMap::new(
                model,
                list,
                plan.list.noun,
                &runs,
                owners,
                &hashes,
                count,
            )?)
        }
        _ => None,
    };
    Ok(Some(Instance {
        scope,
        moved,
        len: records.len(),
        count,
        runs,
        hashes,
    }))
}

/// Where the count key of the list at `list` is: its parent object and the key.
fn count_place(list: &[Seg]) -> Option<(&[Seg], String)> {
    match list {
        [parent @ .., Seg::Field(k)] => Some((parent, path::count_key(k))),
        [parent @ .., Seg::Owned(k)] => Some((parent, path::count_key(k))),
        _ => None,
    }
}

/// The count key of the list at `list`: how many records it had when written.
fn count_of(model: &Value, list: &[Seg]) -> Result<Option<u64>, String> {
    let Some((parent, key)) = count_place(list) else {
        return Ok(None);
    };
    let Some(count) = path::get(model, parent).and_then(|p| p.get(&key)) else {
        return Ok(None);
    };
    count.as_u64().map(Some).ok_or_else(|| {
        format!(
            "{}.\"{key}\": {count} is not a record count (a whole number from 0)",
            Shown(parent)
        )
    })
}

/// Takes the `"#"` keys out of every record of every list.
fn strip(model: &mut Value, plans: &[Plan<'_>]) {
    for plan in plans {
        let mut lists = Vec::new();
        path::find(model, &plan.steps, &mut Vec::new(), &mut lists);
        for list in lists {
            let records = path::get_mut(model, &list).and_then(Value::as_array_mut);
            for record in records.into_iter().flatten() {
                unwrap_record(record);
            }
            if let Some((parent, key)) = count_place(&list) {
                if let Some(o) = path::get_mut(model, parent).and_then(Value::as_object_mut) {
                    o.shift_remove(&key);
                }
            }
        }
    }
}

/// Takes the `"#"` out of a record. A wrapped one (`{"#": 3, "value": [x, y, z]}`) is left as
/// `{"value": ...}`: the format reads its list through [`nav_core::positions::records`], which
/// unwraps it, so that a list of objects whose only field is `value` is never taken for one.
fn unwrap_record(record: &mut Value) {
    if let Some(o) = record.as_object_mut() {
        o.shift_remove(KEY);
    }
}

/// A record with its position `i` as `"#"`: first key of an object, or wrapped around what is
/// not an object.
fn with_position(mut record: Value, i: usize) -> Value {
    match record.as_object_mut() {
        Some(o) => {
            o.shift_insert(0, KEY.to_string(), Value::from(i));
            record
        }
        None => {
            let mut o = serde_json::Map::new();
            o.insert(KEY.to_string(), Value::from(i));
            o.insert(VALUE.to_string(), record);
            Value::Object(o)
        }
    }
}

/// A reference found in the document: where it is, and its value taken apart.
struct Place<'p> {
    /// Its path in the document.
    at: &'p [Seg],
    /// The bits under the position ([`Reference::shift`]), kept as they are.
    low: i64,
    /// How far the position is shifted up.
    shift: u32,
    /// What the stored position counts from ([`Reference::first`]).
    first: i64,
    /// The position it names, counted from 0 ([`Reference::first`] taken off).
    old: i64,
}

impl Place<'_> {
    /// Stores position `new` (counted from 0) where the reference was, counted from
    /// [`Reference::first`], shifted and above the kept low bits; the value stored. A position
    /// past what fits is stored as the largest that does.
    fn store(&self, model: &mut Value, new: usize) -> i64 {
        let most = i64::MAX >> self.shift;
        let new = i64::try_from(new).map_or(most, |n| n.saturating_add(self.first).min(most));
        let stored = (new << self.shift) | self.low;
        if let Some(slot) = path::get_mut(model, self.at) {
            *slot = Value::from(stored);
        }
        stored
    }
}

/// Renumbers the reference at `place`; a line when it was set dangling.
fn rewrite(
    model: &mut Value,
    place: &[Seg],
    list: &PositionList,
    reference: &Reference,
    instance: &Instance,
    missing: Missing,
) -> Result<Option<String>, String> {
    if !holds(model, place, reference) {
        return Ok(None);
    }
    let Some(value) = path::get(model, place).and_then(Value::as_i64) else {
        return Ok(None);
    };
    if reference.none.contains(&value) {
        return Ok(None);
    }
    let shift = reference.shift.min(62);
    let place = Place {
        at: place,
        low: value & ((1i64 << shift) - 1),
        shift,
        first: reference.first,
        old: (value >> shift) - reference.first,
    };
    if let Some(owner) = reference.local {
        return rewrite_local(model, &place, list, instance, owner, missing);
    }
    if let Some(count_field) = reference.count {
        return rewrite_run(model, &place, list, count_field, instance);
    }
    let old = place.old;
    let new = u64::try_from(old)
        .ok()
        .and_then(|o| instance.new_position(o));
    // Past the records the list had when written: it named nothing then either.
    if new.is_none()
        && instance
            .count
            .is_some_and(|c| i128::from(old) >= i128::from(c))
    {
        return Ok(None);
    }
    let (new, dangling) = match (new, missing) {
        (Some(n), _) => (n, false),
        (None, Missing::Refuse) => {
            return Err(format!(
                "{}: names {} #{old}, which the document no longer holds",
                Shown(place.at),
                list.noun
            ));
        }
        (None, Missing::Dangle) => (instance.len, true),
    };
    let stored = place.store(model, new);
    let line = dangling.then(|| {
        format!(
            "{}: named {} {old}, which was removed; now {stored} (past the {} left)",
            Shown(place.at),
            list.noun,
            instance.len
        )
    });
    Ok(line)
}

/// Renumbers a reference that counts from the start of `owner`'s run.
fn rewrite_local(
    model: &mut Value,
    place: &Place<'_>,
    list: &PositionList,
    instance: &Instance,
    owner: Owner,
    missing: Missing,
) -> Result<Option<String>, String> {
    let Some(runs) = &instance.runs else {
        return Ok(None);
    };
    let old = place.old;
    // An owner that is not there, or a value past its run when written: it named no record
    // of the run then either, and is left as it is (validate reports it).
    let Some(s) = runs::owner_of(model, place.at, owner) else {
        return Ok(None);
    };
    let Some((start, end)) = runs.old_run(s) else {
        return Ok(None);
    };
    let Some(old_at) = u64::try_from(old).ok().and_then(|o| o.checked_add(start)) else {
        return Ok(None);
    };
    if old_at >= end {
        return Ok(None);
    }
    let Some(new_at) = instance.new_position(old_at) else {
        return Err(match missing {
            Missing::Refuse => format!(
                "{}: names {} #{old_at} ({old} of its run), which the document no longer holds",
                Shown(place.at),
                list.noun
            ),
            Missing::Dangle => format!(
                "{}: names {} {old_at} ({old} of its run), which is to be removed; a reference \
                 counted from its run's start cannot be pointed past the list, so change or \
                 remove it first",
                Shown(place.at),
                list.noun
            ),
        });
    };
    let local = runs
        .new_start(s)
        .and_then(|b| new_at.checked_sub(b))
        .ok_or_else(|| {
            format!(
                "{}: names {} #{old_at}, which is no longer in its run",
                Shown(place.at),
                list.noun
            )
        })?;
    place.store(model, local);
    Ok(None)
}

/// Renumbers a run `old .. old + count`: it now starts at its first surviving record and spans
/// to its last one.
fn rewrite_run(
    model: &mut Value,
    place: &Place<'_>,
    list: &PositionList,
    count_field: &str,
    instance: &Instance,
) -> Result<Option<String>, String> {
    let [record @ .., _] = place.at else {
        return Ok(None);
    };
    let Some(count) = path::get(model, record)
        .and_then(|r| r.get(count_field))
        .and_then(Value::as_u64)
    else {
        return Ok(None);
    };
    let Ok(first) = u64::try_from(place.old) else {
        return Ok(None);
    };
    let start = instance.moved.partition_point(|&(o, _)| o < first);
    let end = instance
        .moved
        .partition_point(|&(o, _)| o < first.saturating_add(count));
    let members = instance.moved.get(start..end).unwrap_or_default();
    let (new_first, new_count) = match (
        members.iter().map(|&(_, n)| n).min(),
        members.iter().map(|&(_, n)| n).max(),
    ) {
        (Some(lo), Some(hi)) => {
            // The run spans its records again: a record from elsewhere among them would join it.
            let end = first.saturating_add(count);
            let stranger = (lo..=hi).find_map(|j| {
                let h = (*instance.hashes.get(j)?)?;
                (!(first..end).contains(&h)).then_some((j, h))
            });
            if let Some((j, h)) = stranger {
                return Err(format!(
                    "{}: its run of {}s (#{first} to #{}) now spans {} #{h} (at {j}), which was \
                     not in it; keep the records of each run together",
                    Shown(place.at),
                    list.noun,
                    end.saturating_sub(1),
                    list.noun,
                ));
            }
            (lo, hi - lo + 1)
        }
        // No record of the run is left: an empty run where the next surviving record is.
        _ => (
            instance.moved.get(start).map_or(instance.len, |&(_, n)| n),
            0,
        ),
    };
    place.store(model, new_first);
    if let Some(record) = path::get_mut(model, record).and_then(Value::as_object_mut) {
        record.insert(count_field.to_string(), Value::from(new_count));
    }
    Ok(None)
}

/// Deletes the records at `positions` of the list at the concrete path `list` (`triangles`,
/// `data_chunks[2].navigation_graph.nodes`) of `model` (the model's JSON), and renumbers every
/// reference to the records after them. A reference to a deleted record is pointed past the
/// end of the list, for the format's `fix` to drop; one line says so for each. Refused: a path
/// that is not one of `lists`, or a position past the list.
pub fn remove_in_json(
    model: &mut Value,
    lists: &[PositionList],
    list: &str,
    positions: &[usize],
) -> Result<Vec<String>, String> {
    let segs = path::parse_concrete(list)?;
    if !lists
        .iter()
        .any(|l| path::matches(&path::parse(l.list), &segs, false))
    {
        return Err(format!(
            "{list}: not a list whose records are named by position in this format"
        ));
    }
    let records = path::get_mut(model, &segs)
        .and_then(Value::as_array_mut)
        .ok_or_else(|| format!("{list}: no such list in the model"))?;
    let len = records.len();
    let count = count_place(&segs);
    if let Some(past) = positions.iter().find(|&&p| p >= len) {
        return Err(format!(
            "{list}[{past}]: past the {len} records of the list"
        ));
    }
    let mut gone = vec![false; len];
    for &p in positions {
        if let Some(g) = gone.get_mut(p) {
            *g = true;
        }
    }
    let kept: Vec<Value> = std::mem::take(records)
        .into_iter()
        .zip(&gone)
        .enumerate()
        .filter(|(_, (_, g))| !**g)
        .map(|(i, (record, _))| with_position(record, i))
        .collect();
    *records = kept;
    // The count tells records deleted from the end, which leave every "#" in place.
    if let Some((parent, key)) = count {
        if let Some(o) = path::get_mut(model, parent).and_then(Value::as_object_mut) {
            o.insert(key, Value::from(len));
        }
    }
    renumber(model, lists, Missing::Dangle)
}

/// [`remove_in_json`] on a typed model: through its JSON and back.
pub fn remove_records<F>(
    format: &F,
    model: &mut F::Model,
    list: &str,
    positions: &[usize],
) -> Result<Vec<String>, String>
where
    F: nav_core::Format,
    F::Model: serde::Serialize + serde::de::DeserializeOwned,
{
    let mut value = serde_json::to_value(&*model).map_err(|e| e.to_string())?;
    let lines = remove_in_json(&mut value, format.position_lists(), list, positions)?;
    *model = serde_json::from_value(value).map_err(|e| e.to_string())?;
    Ok(lines)
}

/// Every list instance of `model` that `lists` names, with its concrete path and its records,
/// and every reference into each: `(list path, record count, [(reference path, position)])`,
/// for tests and tools that check references by content. `none` values and references whose
/// condition does not hold are left out; a run reference gives its first position.
pub fn references(model: &Value, lists: &[PositionList]) -> Vec<ListReferences> {
    let mut out = Vec::new();
    for plan in lists.iter().map(Plan::new) {
        let found = instances(model, &plan);
        // Where each instance's runs start, once per instance (run-local references add it).
        let starts: Vec<Option<Vec<u64>>> = found
            .iter()
            .map(|(scope, _)| {
                let (runs, rest) = (plan.list.runs?, plan.owners.as_deref()?);
                let owners = runs::owners_of(model, scope, rest)?;
                runs::starts(model, &owners, runs.count).ok()
            })
            .collect();
        let first = out.len();
        for ((scope, list), starts) in found.iter().zip(&starts) {
            let mut refs = Vec::new();
            let in_scope = plan
                .refs
                .iter()
                .filter(|(r, _)| r.across.is_none() && !r.guarded);
            for (reference, steps) in in_scope {
                let Some(at) = path::get(model, scope) else {
                    break;
                };
                let mut places = Vec::new();
                let rest = steps.get(plan.scope..).unwrap_or_default();
                path::find(at, rest, &mut scope.clone(), &mut places);
                for place in places {
                    refs.extend(named(model, starts.as_deref(), &place, reference));
                }
            }
            out.push(ListReferences {
                list: Shown(list).to_string(),
                noun: plan.list.noun,
                refs,
            });
        }
        for (reference, steps) in &plan.refs {
            let Some(across) = reference.across else {
                continue;
            };
            let mut places = Vec::new();
            path::find(model, steps, &mut Vec::new(), &mut places);
            for place in places {
                let Some(k) = found
                    .iter()
                    .position(|(scope, _)| across::names_scope(model, &place, scope, across))
                else {
                    continue;
                };
                let starts = starts.get(k).and_then(Option::as_deref);
                let named = named(model, starts, &place, reference);
                if let Some(slot) = out.get_mut(first + k) {
                    slot.refs.extend(named);
                }
            }
        }
    }
    out
}

/// The reference at `place` and the position it names, unless it names none; `starts` are
/// where the runs of its list instance start, for a run-local reference.
fn named(
    model: &Value,
    starts: Option<&[u64]>,
    place: &[Seg],
    reference: &Reference,
) -> Option<(String, i64)> {
    let v = path::get(model, place).and_then(Value::as_i64)?;
    if reference.none.contains(&v) || !holds(model, place, reference) {
        return None;
    }
    let mut at = (v >> reference.shift.min(62)) - reference.first;
    if let Some(owner) = reference.local {
        let starts = starts?;
        let s = runs::owner_of(model, place, owner)?;
        let start = i64::try_from(*starts.get(s)?).ok()?;
        at = at.checked_add(start)?;
    }
    Some((Shown(place).to_string(), at))
}

/// One list instance and the references into it ([`references`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListReferences {
    /// The list's path, `model.triangles`.
    pub list: String,
    /// What a record is called.
    pub noun: &'static str,
    /// Each reference's path and the position it names.
    pub refs: Vec<(String, i64)>,
}
