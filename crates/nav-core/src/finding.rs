//! What [`crate::Format::validate`] returns: [`Finding`]s, each with a [`Severity`], a
//! structured [`Place`] in the model and the same place as text for people.
//!
//! A place is a path of [`Step`]s from the model's root: a field or record list name, with an
//! optional [`Key`] (an index, an id, a FormID, a name). Code that acts on findings (`fix`, a
//! GUI selecting the face a finding is about) reads the steps and never the text, so a
//! reworded message cannot silently change what it does.
//!
//! ```
//! use nav_core::{Finding, Place};
//!
//! let f = Finding::error(
//!     Place::at("areas", 3).cell().index("connections", 0).nth(2),
//!     "north connection names area 60, which does not exist",
//! );
//! assert_eq!(f.location, "areas[3] connections[0][2]");
//! assert_eq!(f.place.index_of("areas"), Some(3));
//! let cell = f.place.cell_ref().unwrap();
//! assert_eq!((cell.kind, cell.key), ("areas", &nav_core::Key::Index(3)));
//! ```
//!
//! # JSON
//!
//! With the `serde` feature a place serialises as an array of steps, root first. Each step is
//! an object with:
//!
//! - `"field"`: the field or list name, as the text shows it (absent for a step that only
//!   indexes into the list before it, as the second `[2]` of `connections[0][2]`);
//! - at most one of `"index"` (a position in a list, a number), `"id"` (an id the format's
//!   users know, a number), `"form_id"` (a Bethesda FormID, a number) or `"key"` (a name, a
//!   string);
//! - `"cell": true` on the step that names the cell (the face, area, node) the finding is
//!   about, where there is one ([`Place::cell_ref`]).
//!
//! `areas[3] connections[0][2]` above is
//! `[{"field":"areas","index":3,"cell":true},{"field":"connections","index":0},{"index":2}]`.
//! This shape is stable: keys are only ever added.

use core::fmt;
use std::borrow::Cow;

/// How serious a validation finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Severity {
    /// Worth knowing; game files do this too.
    Info,
    /// Unusual; the game may cope.
    Warning,
    /// Broken: the game would misbehave or crash (an index that names nothing).
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// What picks one item out of a field or list in a [`Step`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Key {
    /// A position in a list: `nodes[12]`.
    Index(usize),
    /// An id the format's users know (a Source area id): `areas[id 61]`.
    Id(u64),
    /// A Bethesda FormID, written as 8 hex digits after the field: `NAVM 0410E930`.
    FormId(u32),
    /// A name: `connections[north]`.
    Name(Cow<'static, str>),
}

/// One step of a [`Place`]: a field or list name and what picks an item of it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Step {
    /// The field or list name, as the format's text names it (`triangles`, `FileHeader`).
    /// Empty for a step that indexes into the list the step before it picked an item of
    /// (the second index of `connections[0][2]`).
    pub field: &'static str,
    /// The item picked, or `None` for the field itself.
    pub key: Option<Key>,
    /// Whether this step names the cell (face, area, node) the finding is about.
    pub cell: bool,
}

impl Step {
    /// The index this step picks, if it picks one by index.
    pub fn index(&self) -> Option<usize> {
        match self.key {
            Some(Key::Index(i)) => Some(i),
            _ => None,
        }
    }

    /// The FormID this step picks, if it picks one by FormID.
    pub fn form_id(&self) -> Option<u32> {
        match self.key {
            Some(Key::FormId(id)) => Some(id),
            _ => None,
        }
    }
}

/// The cell a finding is about ([`Place::cell_ref`]), for a tool that selects it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CellRef<'p> {
    /// The record list the cell is an item of (`triangles`, `areas`, `Meshes`).
    pub kind: &'static str,
    /// Which item.
    pub key: &'p Key,
    /// The FormID of the container part the cell lies in (a Skyrim plugin's navmesh), if any:
    /// the last FormID before the cell's step.
    pub part: Option<u32>,
}

/// Where in a model a finding is: a path of [`Step`]s from the root. See the
/// [module docs](self) for its text and JSON forms.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Place {
    steps: Vec<Step>,
}

impl Place {
    /// The empty place: the model as a whole.
    pub const fn new() -> Self {
        Place { steps: Vec::new() }
    }

    /// A place of one field: `header`.
    pub fn of(field: &'static str) -> Self {
        Place::new().field(field)
    }

    /// A place of one list item: `nodes[12]`.
    pub fn at(field: &'static str, index: usize) -> Self {
        Place::new().index(field, index)
    }

    fn push(mut self, field: &'static str, key: Option<Key>) -> Self {
        self.steps.push(Step {
            field,
            key,
            cell: false,
        });
        self
    }

    /// Adds a field step: `… version`.
    pub fn field(self, field: &'static str) -> Self {
        self.push(field, None)
    }

    /// Adds a list item picked by index: `… vertices[2]`.
    pub fn index(self, field: &'static str, index: usize) -> Self {
        self.push(field, Some(Key::Index(index)))
    }

    /// Adds an index into the list the last step picked: the `[2]` of `connections[0][2]`.
    pub fn nth(self, index: usize) -> Self {
        self.push("", Some(Key::Index(index)))
    }

    /// Adds a list item picked by an id: `… areas[id 61]`.
    pub fn id(self, field: &'static str, id: u64) -> Self {
        self.push(field, Some(Key::Id(id)))
    }

    /// Adds a record picked by FormID: `NAVM 0410E930`. With an empty field, the bare FormID.
    pub fn form_id(self, field: &'static str, form_id: u32) -> Self {
        self.push(field, Some(Key::FormId(form_id)))
    }

    /// Adds an item picked by a name: `… connections[north]`.
    pub fn key(self, field: &'static str, key: impl Into<Cow<'static, str>>) -> Self {
        self.push(field, Some(Key::Name(key.into())))
    }

    /// Marks the last step as the cell the finding is about ([`Place::cell_ref`]).
    pub fn cell(mut self) -> Self {
        if let Some(last) = self.steps.last_mut() {
            last.cell = true;
        }
        self
    }

    /// This place followed by the steps of `rest`.
    pub fn then(mut self, rest: Place) -> Self {
        self.steps.extend(rest.steps);
        self
    }

    /// The steps, root first.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Whether the place has no step (the model as a whole).
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The first step's field: the part of the model the place lies in.
    pub fn root(&self) -> Option<&'static str> {
        self.steps.first().map(|s| s.field)
    }

    /// The last step's field.
    pub fn leaf(&self) -> Option<&'static str> {
        self.steps.last().map(|s| s.field)
    }

    /// The first step named `field`.
    pub fn step(&self, field: &str) -> Option<&Step> {
        self.steps.iter().find(|s| s.field == field)
    }

    /// Whether a step is named `field`.
    pub fn has(&self, field: &str) -> bool {
        self.step(field).is_some()
    }

    /// The index the first step named `field` picks.
    pub fn index_of(&self, field: &str) -> Option<usize> {
        self.step(field).and_then(Step::index)
    }

    /// Whether the fields of the first steps are `fields`, in order.
    pub fn starts_with(&self, fields: &[&str]) -> bool {
        self.steps.len() >= fields.len()
            && self.steps.iter().zip(fields).all(|(s, f)| s.field == *f)
    }

    /// The place without its first `n` steps (what lies inside a part of a container).
    pub fn skip(&self, n: usize) -> Place {
        Place {
            steps: self.steps.get(n..).unwrap_or_default().to_vec(),
        }
    }

    /// The cell the finding is about: the step marked with [`Place::cell`], and the FormID of
    /// the container part before it, if any.
    pub fn cell_ref(&self) -> Option<CellRef<'_>> {
        let at = self.steps.iter().position(|s| s.cell)?;
        let step = self.steps.get(at)?;
        let part = self
            .steps
            .get(..at)
            .unwrap_or_default()
            .iter()
            .rev()
            .find_map(Step::form_id);
        Some(CellRef {
            kind: step.field,
            key: step.key.as_ref()?,
            part,
        })
    }
}

impl From<&'static str> for Place {
    fn from(field: &'static str) -> Self {
        Place::of(field)
    }
}

impl From<(&'static str, usize)> for Place {
    fn from((field, index): (&'static str, usize)) -> Self {
        Place::at(field, index)
    }
}

impl fmt::Display for Place {
    /// Steps joined by spaces: `areas[3] connections[0][2]`, `NAVM 0410E930 NVNM triangles[1]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, s) in self.steps.iter().enumerate() {
            let glued = s.field.is_empty() && matches!(s.key, Some(Key::Index(_) | Key::Name(_)));
            if n > 0 && !glued {
                f.write_str(" ")?;
            }
            f.write_str(s.field)?;
            match &s.key {
                None => {}
                Some(Key::Index(i)) => write!(f, "[{i}]")?,
                Some(Key::Id(id)) => write!(f, "[id {id}]")?,
                Some(Key::Name(k)) => write!(f, "[{k}]")?,
                Some(Key::FormId(id)) if s.field.is_empty() => write!(f, "{id:08X}")?,
                Some(Key::FormId(id)) => write!(f, " {id:08X}")?,
            }
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Step {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let len = usize::from(!self.field.is_empty())
            + usize::from(self.key.is_some())
            + usize::from(self.cell);
        let mut map = s.serialize_map(Some(len))?;
        if !self.field.is_empty() {
            map.serialize_entry("field", self.field)?;
        }
        match &self.key {
            None => {}
            Some(Key::Index(i)) => map.serialize_entry("index", i)?,
            Some(Key::Id(id)) => map.serialize_entry("id", id)?,
            Some(Key::FormId(id)) => map.serialize_entry("form_id", id)?,
            Some(Key::Name(k)) => map.serialize_entry("key", k)?,
        }
        if self.cell {
            map.serialize_entry("cell", &true)?;
        }
        map.end()
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Place {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(&self.steps)
    }
}

/// One result of [`crate::Format::validate`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Finding {
    /// How serious it is.
    pub severity: Severity,
    /// Where, as text for people (`nodes[12]`): [`Finding::place`] rendered, or the format's
    /// own wording of the same place ([`Finding::worded`]).
    pub location: String,
    /// Where, as a path in the model: what code acting on the finding reads.
    pub place: Place,
    /// What, in words.
    pub message: String,
}

impl Finding {
    /// A finding at `place`, its location text the place rendered.
    pub fn new(severity: Severity, place: impl Into<Place>, message: impl Into<String>) -> Self {
        let place = place.into();
        Finding {
            severity,
            location: place.to_string(),
            place,
            message: message.into(),
        }
    }

    /// An error finding.
    pub fn error(place: impl Into<Place>, message: impl Into<String>) -> Self {
        Finding::new(Severity::Error, place, message)
    }

    /// A warning finding.
    pub fn warning(place: impl Into<Place>, message: impl Into<String>) -> Self {
        Finding::new(Severity::Warning, place, message)
    }

    /// An informational finding.
    pub fn info(place: impl Into<Place>, message: impl Into<String>) -> Self {
        Finding::new(Severity::Info, place, message)
    }

    /// The same finding with the location text worded otherwise, for a format whose text for
    /// the place is not the generic rendering (`tile_map[97] (x 1, z 1)`). The place is kept.
    pub fn worded(mut self, location: impl Into<String>) -> Self {
        self.location = location.into();
        self
    }

    /// The same finding seen from a container: `prefix` goes before both the place and the
    /// location text (`NAVM 0410E930 NVNM` before an `NVNM` finding).
    pub fn within(mut self, prefix: Place) -> Self {
        if !prefix.is_empty() {
            self.location = if self.location.is_empty() {
                prefix.to_string()
            } else {
                format!("{prefix} {}", self.location)
            };
            self.place = prefix.then(self.place);
        }
        self
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.severity, self.location, self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_the_place_rendered() {
        let p = Place::of("NAVM");
        assert_eq!(p.to_string(), "NAVM");
        let p = Place::new()
            .form_id("NAVM", 0x0410_E930)
            .field("NVNM")
            .index("triangles", 12)
            .cell()
            .index("edges", 1);
        assert_eq!(p.to_string(), "NAVM 0410E930 NVNM triangles[12] edges[1]");
        let cell = p.cell_ref().unwrap();
        assert_eq!(cell.kind, "triangles");
        assert_eq!(cell.key, &Key::Index(12));
        assert_eq!(cell.part, Some(0x0410_E930));
        let p = Place::new()
            .id("areas", 61)
            .key("connections", "north")
            .nth(0);
        assert_eq!(p.to_string(), "areas[id 61] connections[north][0]");
        assert_eq!(p.cell_ref(), None);
        let p = Place::new()
            .form_id("NAVI", 0x10)
            .index("NVMI", 2)
            .form_id("", 0x0410_E930);
        assert_eq!(p.to_string(), "NAVI 00000010 NVMI[2] 0410E930");
    }

    #[test]
    fn queries_read_steps_not_text() {
        let p = Place::at("data_chunks", 3)
            .field("NavmeshChunk")
            .index("Meshes", 5)
            .field("SegmentIndex");
        assert_eq!(p.root(), Some("data_chunks"));
        assert_eq!(p.leaf(), Some("SegmentIndex"));
        assert_eq!(p.index_of("Meshes"), Some(5));
        assert_eq!(p.index_of("NavmeshChunk"), None);
        assert!(p.starts_with(&["data_chunks", "NavmeshChunk", "Meshes"]));
        assert!(!p.starts_with(&["data_chunks", "NavigationGraph"]));
        assert_eq!(p.skip(2).to_string(), "Meshes[5] SegmentIndex");
        assert!(p.skip(9).is_empty());
    }

    #[test]
    fn within_prefixes_place_and_text() {
        let f = Finding::warning(Place::at("tile_map", 97), "x").worded("tile_map[97] (x 1, z 1)");
        assert_eq!(f.location, "tile_map[97] (x 1, z 1)");
        let f = f.within(Place::new().form_id("NAVM", 1).field("NVNM"));
        assert_eq!(f.location, "NAVM 00000001 NVNM tile_map[97] (x 1, z 1)");
        assert_eq!(f.place.to_string(), "NAVM 00000001 NVNM tile_map[97]");
        assert_eq!(f.to_string(), format!("warning: {}: x", f.location));
    }

    #[cfg(feature = "serde")]
    #[test]
    fn json_is_an_array_of_steps() {
        let p = Place::at("areas", 3)
            .cell()
            .index("connections", 0)
            .nth(2)
            .form_id("NAVM", 16)
            .key("k", "north")
            .id("ids", 7)
            .field("f");
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(
            v,
            serde_json::json!([
                {"field": "areas", "index": 3, "cell": true},
                {"field": "connections", "index": 0},
                {"index": 2},
                {"field": "NAVM", "form_id": 16},
                {"field": "k", "key": "north"},
                {"field": "ids", "id": 7},
                {"field": "f"},
            ])
        );
        let f = serde_json::to_value(Finding::error(p, "m")).unwrap();
        assert_eq!(f["place"][0]["field"], "areas");
        assert_eq!(
            f["location"],
            "areas[3] connections[0][2] NAVM 00000010 k[north] ids[id 7] f"
        );
    }
}
