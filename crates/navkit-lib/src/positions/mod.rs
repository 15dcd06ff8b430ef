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

mod path;
mod scan;
mod write;

use nav_core::positions::{Condition, PositionList, Reference};
use serde_json::Value;

use path::{Seg, Shown, Step};
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

/// One instance of a list: where it is, and where each old position went.
struct Instance {
    /// The scope the list and its references share.
    scope: Vec<Seg>,
    /// Old position (`"#"`) to new position, sorted by old position.
    moved: Vec<(u64, usize)>,
    /// Records now in the list.
    len: usize,
    /// Records in the list when the document was written (its count key), when known.
    count: Option<u64>,
}

impl Instance {
    fn new_position(&self, old: u64) -> Option<usize> {
        self.moved
            .binary_search_by_key(&old, |&(o, _)| o)
            .ok()
            .and_then(|at| self.moved.get(at))
            .map(|&(_, n)| n)
    }
}

/// A list's patterns, parsed.
struct Plan<'t> {
    list: &'t PositionList,
    steps: Vec<Step>,
    refs: Vec<(&'t Reference, Vec<Step>)>,
    scope: usize,
}

impl<'t> Plan<'t> {
    fn new(list: &'t PositionList) -> Self {
        let steps = path::parse(list.list);
        let refs: Vec<_> = list.refs.iter().map(|r| (r, path::parse(r.path))).collect();
        let mut all: Vec<&[Step]> = vec![&steps];
        all.extend(refs.iter().map(|(_, s)| s.as_slice()));
        let scope = path::common_prefix(&all);
        Plan {
            list,
            steps,
            refs,
            scope,
        }
    }
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
            if let Some(instance) = positions_of(model, &list, scope)? {
                work.push((plan, instance));
            }
        }
    }
    strip(model, &plans);
    let mut lines = Vec::new();
    for (plan, instance) in &work {
        for (reference, steps) in &plan.refs {
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
    Ok(lines)
}

/// The old-to-new map of the list at `list`, or `None` when every record's `"#"` is its
/// position or absent (nothing to renumber).
fn positions_of(model: &Value, list: &[Seg], scope: Vec<Seg>) -> Result<Option<Instance>, String> {
    let Some(records) = path::get(model, list).and_then(Value::as_array) else {
        return Ok(None);
    };
    let count = count_of(model, list)?;
    let mut moved = Vec::new();
    let mut identity = true;
    for (i, record) in records.iter().enumerate() {
        let Some(hash) = record.as_object().and_then(|o| o.get(KEY)) else {
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
    Ok(Some(Instance {
        scope,
        moved,
        len: records.len(),
        count,
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

/// Takes the `"#"` out of a record; a wrapped one (`{"#": 3, "value": [x, y, z]}`) becomes its
/// value.
fn unwrap_record(record: &mut Value) {
    let Some(o) = record.as_object_mut() else {
        return;
    };
    o.shift_remove(KEY);
    if o.len() == 1 {
        if let Some(value) = o.shift_remove(VALUE) {
            *record = value;
        }
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

/// Whether `reference` holds at `place`.
fn holds(model: &Value, place: &[Seg], reference: &Reference) -> bool {
    match reference.when {
        None => true,
        Some(Condition::AtLeast { path: at, min }) => {
            let segs: Vec<Seg> = path::parse(at)
                .into_iter()
                .filter_map(|s| match s {
                    Step::Key(k) => Some(Seg::Field(k)),
                    _ => None,
                })
                .collect();
            path::get(model, &segs)
                .and_then(Value::as_i64)
                .is_some_and(|v| v >= min)
        }
        Some(Condition::Bit { field, set }) => {
            let [record @ .., _, Seg::Index(k)] = place else {
                return false;
            };
            let bits = path::get(model, record)
                .and_then(|r| r.get(field))
                .and_then(Value::as_u64);
            match (bits, u32::try_from(*k)) {
                (Some(bits), Ok(k)) if k < 64 => ((bits >> k) & 1 == 1) == set,
                _ => false,
            }
        }
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
    let low = value & ((1i64 << shift) - 1);
    let old = (value >> shift) - reference.first;
    if let Some(count_field) = reference.count {
        return Ok(rewrite_run(
            model,
            place,
            count_field,
            old,
            instance,
            shift,
            low,
        ));
    }
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
                Shown(place),
                list.noun
            ));
        }
        (None, Missing::Dangle) => (instance.len, true),
    };
    let new = i64::try_from(new).map_or(i64::MAX >> shift, |n| n.saturating_add(reference.first));
    let stored = (new << shift) | low;
    if let Some(slot) = path::get_mut(model, place) {
        *slot = Value::from(stored);
    }
    let line = dangling.then(|| {
        format!(
            "{}: named {} {old}, which was removed; now {stored} (past the {} left)",
            Shown(place),
            list.noun,
            instance.len
        )
    });
    Ok(line)
}

/// Renumbers a run `old .. old + count`: it now starts at its first surviving record and spans
/// to its last one.
fn rewrite_run(
    model: &mut Value,
    place: &[Seg],
    count_field: &str,
    old: i64,
    instance: &Instance,
    shift: u32,
    low: i64,
) -> Option<String> {
    let [record @ .., _] = place else {
        return None;
    };
    let count = path::get(model, record)?.get(count_field)?.as_u64()?;
    let first = u64::try_from(old).ok()?;
    let start = instance.moved.partition_point(|&(o, _)| o < first);
    let end = instance
        .moved
        .partition_point(|&(o, _)| o < first.saturating_add(count));
    let members = instance.moved.get(start..end).unwrap_or_default();
    let (new_first, new_count) = match (
        members.iter().map(|&(_, n)| n).min(),
        members.iter().map(|&(_, n)| n).max(),
    ) {
        (Some(lo), Some(hi)) => (lo, hi - lo + 1),
        // No record of the run is left: an empty run where the next surviving record is.
        _ => (
            instance.moved.get(start).map_or(instance.len, |&(_, n)| n),
            0,
        ),
    };
    let new_first = i64::try_from(new_first).unwrap_or(i64::MAX >> shift);
    if let Some(slot) = path::get_mut(model, place) {
        *slot = Value::from((new_first << shift) | low);
    }
    let record = path::get_mut(model, record)?.as_object_mut()?;
    record.insert(count_field.to_string(), Value::from(new_count));
    None
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
        for (scope, list) in instances(model, &plan) {
            let Some(at) = path::get(model, &scope) else {
                continue;
            };
            let mut refs = Vec::new();
            for (reference, steps) in &plan.refs {
                let mut places = Vec::new();
                let rest = steps.get(plan.scope..).unwrap_or_default();
                path::find(at, rest, &mut scope.clone(), &mut places);
                for place in places {
                    let Some(v) = path::get(model, &place).and_then(Value::as_i64) else {
                        continue;
                    };
                    if reference.none.contains(&v) || !holds(model, &place, reference) {
                        continue;
                    }
                    let at = (v >> reference.shift.min(62)) - reference.first;
                    refs.push((Shown(&place).to_string(), at));
                }
            }
            out.push(ListReferences {
                list: Shown(&list).to_string(),
                noun: plan.list.noun,
                refs,
            });
        }
    }
    out
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
