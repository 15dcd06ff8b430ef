//! A position list's patterns parsed ([`Plan`]), one instance of it in a document with its
//! old-to-new positions ([`Instance`]), and whether a reference holds ([`holds`]): what the
//! renumbering, the guards and the reports share.

use nav_core::positions::{Condition, PositionList, Reference};
use serde_json::Value;

use super::path::{self, Seg, Step};
use super::runs::RunMap;

/// One instance of a list: where it is, and where each old position went.
pub(super) struct Instance {
    /// The scope the list and its references share.
    pub(super) scope: Vec<Seg>,
    /// Old position (`"#"`) to new position, sorted by old position.
    pub(super) moved: Vec<(u64, usize)>,
    /// Records now in the list.
    pub(super) len: usize,
    /// The `"#"` of each record now in the list, in its order (`None`: a new record).
    pub(super) hashes: Vec<Option<u64>>,
    /// Records in the list when the document was written (its count key), when known.
    pub(super) count: Option<u64>,
    /// The list's runs, when it has owners ([`nav_core::positions::Runs`]).
    pub(super) runs: Option<RunMap>,
}

impl Instance {
    pub(super) fn new_position(&self, old: u64) -> Option<usize> {
        self.moved
            .binary_search_by_key(&old, |&(o, _)| o)
            .ok()
            .and_then(|at| self.moved.get(at))
            .map(|&(_, n)| n)
    }
}

/// A list's patterns, parsed.
pub(super) struct Plan<'t> {
    pub(super) list: &'t PositionList,
    pub(super) steps: Vec<Step>,
    pub(super) refs: Vec<(&'t Reference, Vec<Step>)>,
    pub(super) scope: usize,
    /// The pattern of the runs' owners after the scope.
    pub(super) owners: Option<Vec<Step>>,
}

impl<'t> Plan<'t> {
    pub(super) fn new(list: &'t PositionList) -> Self {
        let steps = path::parse(list.list);
        let refs: Vec<_> = list.refs.iter().map(|r| (r, path::parse(r.path))).collect();
        let mut all: Vec<&[Step]> = vec![&steps];
        // A reference across scopes names its instance by a key, not by sharing a scope.
        all.extend(
            refs.iter()
                .filter(|(r, _)| r.across.is_none() && !r.guarded)
                .map(|(_, s)| s.as_slice()),
        );
        // The runs' owners share the scope too.
        let owners = list.runs.map(|r| path::parse(r.owners));
        all.extend(owners.as_deref());
        let scope = path::common_prefix(&all);
        let owners = owners.map(|steps| steps.get(scope..).unwrap_or_default().to_vec());
        Plan {
            list,
            steps,
            refs,
            scope,
            owners,
        }
    }
}

/// Whether `reference` holds at `place`.
pub(super) fn holds(model: &Value, place: &[Seg], reference: &Reference) -> bool {
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
        Some(Condition::Range { min, max }) => path::get(model, place)
            .and_then(Value::as_i64)
            .is_some_and(|v| (min..max).contains(&v)),
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
