//! Lists cut into runs owned by the records of another list ([`nav_core::positions::Runs`]),
//! and the references that count from the start of a run ([`Owner`]).
//!
//! A Fox Engine segment owns `navigation_graph_node_count` navigation-graph nodes: the nodes of
//! segment 0 come first, then those of segment 1, and an edge names its two nodes by their
//! place in its own segment's run. When nodes are deleted, inserted or moved in a JSON
//! document, each record stays in the run it was in when written (a new record joins the run
//! of the record before it), every owner's count becomes its run's new length, and a run-local
//! reference is renumbered from the new start of its run.

use nav_core::positions::{KEY, Owner, Runs};
use serde_json::Value;

use super::path::{self, Seg, Shown, Step};

/// Where the runs of one list instance started when the document was written, and where they
/// start now.
pub(super) struct RunMap {
    /// The owners' list.
    owners: Vec<Seg>,
    /// The owners' count field.
    count: &'static str,
    /// Owner `s`'s run started at `old_start[s]` (one more entry: the end of the last run).
    old_start: Vec<u64>,
    /// Owner `s`'s run starts at `new_start[s]` (one more entry: the list's length).
    new_start: Vec<usize>,
}

/// The concrete path of the owners' list of a list instance whose scope is `scope`: `rest` is
/// the owners' pattern after the scope. `None` unless exactly one list matches.
pub(super) fn owners_of(model: &Value, scope: &[Seg], rest: &[Step]) -> Option<Vec<Seg>> {
    let at = path::get(model, scope)?;
    let mut found = Vec::new();
    path::find(at, rest, &mut scope.to_vec(), &mut found);
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// Where each owner's run starts, from the owners' counts as the document holds them (one more
/// entry: the end of the last run).
pub(super) fn starts(model: &Value, owners: &[Seg], count: &str) -> Result<Vec<u64>, String> {
    let records = path::get(model, owners)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let mut out = Vec::with_capacity(records.len().saturating_add(1));
    let mut at = 0u64;
    out.push(at);
    for (s, owner) in records.iter().enumerate() {
        let n = owner.get(count).and_then(Value::as_u64).ok_or_else(|| {
            format!(
                "{}[{s}].{count}: not a record count (a whole number from 0)",
                Shown(owners)
            )
        })?;
        at = at.saturating_add(n);
        out.push(at);
    }
    Ok(out)
}

/// Refuses owners that were themselves deleted, inserted or moved (added at the end is fine):
/// the runs they own could not be told apart, even where the list of the runs is unchanged.
pub(super) fn edited_owners(model: &Value, owners: &[Seg], list: &[Seg]) -> Result<(), String> {
    let records = path::get(model, owners)
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let count = match owners {
        [parent @ .., last] => last
            .key()
            .and_then(|k| path::get(model, parent)?.get(path::count_key(k)))
            .and_then(Value::as_u64),
        [] => None,
    };
    let moved = records.iter().enumerate().any(|(i, r)| {
        r.get(KEY)
            .is_some_and(|h| h.as_u64() != u64::try_from(i).ok())
    });
    let cut = count.is_some_and(|c| u64::try_from(records.len()).is_ok_and(|n| n < c));
    if moved || cut {
        return Err(format!(
            "{}: records were deleted, inserted or moved, and they own runs of {}; edit {} at \
             the end only, or leave them in place and edit the records of their runs",
            Shown(owners),
            Shown(list),
            Shown(owners)
        ));
    }
    Ok(())
}

/// The owner of old position `p`, by the runs' old starts.
fn owner_at(old_start: &[u64], p: u64) -> Option<usize> {
    let s = old_start
        .partition_point(|&start| start <= p)
        .checked_sub(1)?;
    (s + 1 < old_start.len()).then_some(s)
}

impl RunMap {
    /// The runs of the list at `list` (its records' `"#"` in `hashes`, in their new order; the
    /// list's count key, if any, in `count_key`), owned by the records at `owners`.
    pub(super) fn new(
        model: &Value,
        list: &[Seg],
        noun: &str,
        runs: &Runs,
        owners: Vec<Seg>,
        hashes: &[Option<u64>],
        count_key: Option<u64>,
    ) -> Result<RunMap, String> {
        let old_start = starts(model, &owners, runs.count)?;
        let total = old_start.last().copied().unwrap_or(0);
        let wrong = |had: u64| {
            format!(
                "{}: the {} counts of {} add up to {total}, but the list had {had} records when \
                 written, so which run each record belonged to is not known; make the counts \
                 add up (navkit validate names them) before editing the list",
                Shown(list),
                runs.count,
                Shown(&owners)
            )
        };
        if let Some(c) = count_key.filter(|&c| c != total) {
            return Err(wrong(c));
        }
        // The owner of each record: by its "#", else the owner of the record before it (or,
        // at the start, of the first record after it that has one).
        let mut owner: Vec<Option<usize>> = Vec::with_capacity(hashes.len());
        for (i, h) in hashes.iter().enumerate() {
            owner.push(match h {
                Some(p) => Some(owner_at(&old_start, *p).ok_or_else(|| {
                    if count_key.is_some() {
                        format!("{}[{i}].\"#\": {p} is past the list", Shown(list))
                    } else {
                        wrong(p.saturating_add(1))
                    }
                })?),
                None => None,
            });
        }
        let mut last = owner.iter().flatten().next().copied();
        for o in &mut owner {
            match o {
                Some(s) => last = Some(*s),
                None => *o = last,
            }
        }
        let owned = old_start.len().saturating_sub(1);
        let mut lengths = vec![0usize; owned];
        let mut before: Option<(usize, usize)> = None;
        for (i, o) in owner.iter().enumerate() {
            let s = match o {
                Some(s) => *s,
                None if owned > 0 => 0,
                None => {
                    return Err(format!(
                        "{}[{i}]: a new {noun}, but {} holds no record to own it",
                        Shown(list),
                        Shown(&owners)
                    ));
                }
            };
            if let Some((t, j)) = before.filter(|&(t, _)| s < t) {
                return Err(format!(
                    "{}[{i}]: this {noun} belongs to the run of {}[{s}], but it comes after \
                     {}[{j}], of the run of {}[{t}]; keep the records of each run together, in \
                     the order of their owners",
                    Shown(list),
                    Shown(&owners),
                    Shown(list),
                    Shown(&owners),
                ));
            }
            before = Some((s, i));
            if let Some(n) = lengths.get_mut(s) {
                *n += 1;
            }
        }
        let mut new_start = Vec::with_capacity(owned + 1);
        let mut at = 0usize;
        new_start.push(at);
        for n in &lengths {
            at += n;
            new_start.push(at);
        }
        Ok(RunMap {
            owners,
            count: runs.count,
            old_start,
            new_start,
        })
    }

    /// Sets every owner's count to its run's new length.
    pub(super) fn set_counts(&self, model: &mut Value) {
        let Some(records) = path::get_mut(model, &self.owners).and_then(Value::as_array_mut) else {
            return;
        };
        for (s, owner) in records.iter_mut().enumerate() {
            let (Some(a), Some(b)) = (self.new_start.get(s), self.new_start.get(s + 1)) else {
                continue;
            };
            if let Some(o) = owner.as_object_mut() {
                o.insert(self.count.to_string(), Value::from(b - a));
            }
        }
    }

    /// The old run of owner `s`: its first position and the position past it.
    pub(super) fn old_run(&self, s: usize) -> Option<(u64, u64)> {
        Some((*self.old_start.get(s)?, *self.old_start.get(s + 1)?))
    }

    /// Where owner `s`'s run starts now.
    pub(super) fn new_start(&self, s: usize) -> Option<usize> {
        self.new_start.get(s).copied()
    }
}

/// The owner of the run-local reference at `place`.
pub(super) fn owner_of(model: &Value, place: &[Seg], owner: Owner) -> Option<usize> {
    match owner {
        Owner::Field(field) => (0..place.len()).rev().find_map(|k| {
            let v = path::get(model, place.get(..k)?)?.as_object()?.get(field)?;
            usize::try_from(v.as_u64()?).ok()
        }),
        Owner::Index(n) => place
            .iter()
            .filter_map(|s| match s {
                Seg::Index(i) => Some(*i),
                _ => None,
            })
            .nth(n),
    }
}
