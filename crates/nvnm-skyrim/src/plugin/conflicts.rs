//! Navmeshes that more than one plugin of a load order defines, and deleted navmeshes that
//! plugins still link to.
//!
//! A FormID's top byte indexes the plugin's own master list (a top byte equal to the list's
//! length marks the plugin's own records), so FormIDs are compared after resolving them to the
//! file they belong to and the low 24 bits ([`FormKey`]). Two kinds of shared navmesh come out:
//!
//! - [`SharedKind::Override`]: the same record of one file (a master's navmesh, or one
//!   plugin's navmesh that a later plugin overrides). The last plugin in load order wins.
//! - [`SharedKind::SameFormId`]: each plugin's own record, with the same FormID as written.
//!   The game keeps them apart (each plugin gets its own load-order index), unless the plugins
//!   are versions of one file (a renamed copy) and only one of them is loaded; then the later
//!   one is what the game sees.

use core::borrow::Borrow;
use core::fmt;

use nav_core::Format;

use super::model::PluginFile;
use super::validate::{location_of, origin};
use crate::nvnm::{NavmeshGeometry, Nvnm};

/// A FormID resolved to the file it belongs to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct FormKey {
    /// The file's name.
    pub file: String,
    /// The low 24 bits of the FormID.
    pub id: u32,
}

impl fmt::Display for FormKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:06X}:{}", self.id, self.file)
    }
}

impl FormKey {
    fn same(&self, other: &FormKey) -> bool {
        self.id == other.id && self.file.eq_ignore_ascii_case(&other.file)
    }
}

/// Resolves `form_id` as written in the plugin `plugin` with masters `masters`.
pub fn resolve(form_id: u32, plugin: &str, masters: &[String]) -> FormKey {
    FormKey {
        file: origin(form_id, masters).unwrap_or(plugin).to_string(),
        id: form_id & 0x00FF_FFFF,
    }
}

/// How a navmesh comes to be defined by more than one plugin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum SharedKind {
    /// The same record: the last plugin in load order wins.
    Override,
    /// Each plugin's own record, with the same FormID as written: distinct in the game unless
    /// the plugins are versions of one file.
    SameFormId,
}

/// One plugin's definition of a shared navmesh.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Definition {
    /// The plugin's name.
    pub plugin: String,
    /// The FormID as this plugin writes it.
    pub form_id: u32,
    /// Whether the record is flagged deleted.
    pub deleted: bool,
    /// Vertices of its `NVNM` (`None` when deleted or unreadable).
    pub vertices: Option<usize>,
    /// Triangles of its `NVNM`.
    pub triangles: Option<usize>,
}

/// How the definitions' geometry compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum GeometryComparison {
    /// Every `NVNM` is the same, byte for byte.
    Identical,
    /// Same vertices and triangles; other `NVNM` data (links, cover, grid) differs.
    SameGeometry,
    /// The vertices or triangles differ (or a definition is deleted or unreadable).
    Differs,
}

/// Edge links to one other navmesh whose count differs between the definitions.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct EdgeLinkDifference {
    /// The navmesh linked to.
    pub target: FormKey,
    /// How many edge links each definition has to it, in the order of
    /// [`SharedNavmesh::definitions`].
    pub links: Vec<usize>,
}

/// A navmesh that more than one of the plugins defines.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SharedNavmesh {
    /// The navmesh, resolved (for [`SharedKind::SameFormId`], as the first plugin has it).
    pub navmesh: FormKey,
    /// How it comes to be shared.
    pub kind: SharedKind,
    /// The definitions, in load order.
    pub definitions: Vec<Definition>,
    /// The plugin whose definition the game uses (the last).
    pub winner: String,
    /// How the geometry compares.
    pub geometry: GeometryComparison,
    /// Edge links that differ.
    pub edge_links: Vec<EdgeLinkDifference>,
}

/// A navmesh that links to a deleted one.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct LinkToDeleted {
    /// The plugin.
    pub plugin: String,
    /// The linking navmesh, as that plugin writes its FormID.
    pub navmesh: u32,
    /// How many of its edge links lead to the deleted navmesh.
    pub links: usize,
}

/// A navmesh one of the plugins deletes.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct DeletedNavmesh {
    /// The navmesh.
    pub navmesh: FormKey,
    /// The plugin that deletes it.
    pub plugin: String,
    /// Its FormID as that plugin writes it.
    pub form_id: u32,
    /// Where it sits (cell and worldspace of the groups around the record).
    pub location: String,
    /// Whether the deletion is what the game sees (no later plugin defines it again).
    pub deletion_wins: bool,
    /// Navmeshes of the given plugins that still have edge links to it.
    pub linked_from: Vec<LinkToDeleted>,
}

/// The report of [`conflicts`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ConflictReport {
    /// The plugins, in load order.
    pub plugins: Vec<String>,
    /// Navmeshes defined by more than one plugin: overrides first, then same FormIDs.
    pub shared: Vec<SharedNavmesh>,
    /// Deleted navmeshes.
    pub deleted: Vec<DeletedNavmesh>,
}

struct Entry<'m> {
    plugin: usize,
    key: FormKey,
    form_id: u32,
    own: bool,
    deleted: bool,
    location: String,
    nvnm: Option<&'m [u8]>,
    mesh: Option<NavmeshGeometry>,
    /// Edge-link targets, resolved, with their counts.
    links: Vec<(FormKey, usize)>,
}

fn count_links(mesh: &NavmeshGeometry, plugin: &str, masters: &[String]) -> Vec<(FormKey, usize)> {
    let mut out: Vec<(FormKey, usize)> = Vec::new();
    for l in &mesh.edge_links {
        let key = resolve(l.navmesh, plugin, masters);
        match out.iter_mut().find(|(k, _)| k.same(&key)) {
            Some((_, n)) => *n += 1,
            None => out.push((key, 1)),
        }
    }
    out
}

fn compare(defs: &[&Entry<'_>]) -> (GeometryComparison, Vec<EdgeLinkDifference>) {
    let first = defs.first();
    let geometry = if defs
        .iter()
        .all(|d| d.nvnm.is_some() && d.nvnm == first.and_then(|f| f.nvnm))
    {
        GeometryComparison::Identical
    } else if defs
        .iter()
        .all(|d| match (&d.mesh, first.and_then(|f| f.mesh.as_ref())) {
            (Some(a), Some(b)) => a.vertices == b.vertices && a.triangles == b.triangles,
            _ => false,
        })
    {
        GeometryComparison::SameGeometry
    } else {
        GeometryComparison::Differs
    };
    let mut targets: Vec<&FormKey> = Vec::new();
    for d in defs {
        for (k, _) in &d.links {
            if !targets.iter().any(|t| t.same(k)) {
                targets.push(k);
            }
        }
    }
    let edge_links = targets
        .into_iter()
        .filter_map(|t| {
            let links: Vec<usize> = defs
                .iter()
                .map(|d| {
                    d.links
                        .iter()
                        .find(|(k, _)| k.same(t))
                        .map_or(0, |(_, n)| *n)
                })
                .collect();
            let differ = links.iter().any(|n| Some(n) != links.first());
            differ.then(|| EdgeLinkDifference {
                target: t.clone(),
                links,
            })
        })
        .collect();
    (geometry, edge_links)
}

/// The indices sharing each key, groups in the order their keys first appear.
fn groups<K: std::hash::Hash + Eq>(items: impl Iterator<Item = (K, usize)>) -> Vec<Vec<usize>> {
    let mut at: std::collections::HashMap<K, usize> = std::collections::HashMap::new();
    let mut out: Vec<Vec<usize>> = Vec::new();
    for (key, i) in items {
        let slot = *at.entry(key).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        if let Some(g) = out.get_mut(slot) {
            g.push(i);
        }
    }
    out
}

/// Compares the navmeshes of `plugins` (name and model, in load order; `&str` or `String`
/// names, models owned or borrowed).
pub fn conflicts<N, P>(plugins: &[(N, P)]) -> ConflictReport
where
    N: AsRef<str>,
    P: Borrow<PluginFile>,
{
    let mut entries: Vec<Entry<'_>> = Vec::new();
    for (p, (name, model)) in plugins.iter().enumerate() {
        let (name, model) = (name.as_ref(), model.borrow());
        let masters = model.masters();
        for (r, groups) in model.records_in_groups() {
            if &r.signature.0 != b"NAVM" {
                continue;
            }
            let mesh = r.nvnm().and_then(|n| Nvnm.read(n).ok());
            entries.push(Entry {
                plugin: p,
                key: resolve(r.form_id, name, &masters),
                form_id: r.form_id,
                own: origin(r.form_id, &masters).is_none(),
                deleted: r.is_deleted(),
                location: location_of(&groups),
                nvnm: r.nvnm(),
                links: mesh
                    .as_ref()
                    .map(|m| count_links(m, name, &masters))
                    .unwrap_or_default(),
                mesh,
            });
        }
    }
    let name = |e: &Entry<'_>| {
        plugins
            .get(e.plugin)
            .map_or("", |p| p.0.as_ref())
            .to_string()
    };
    let shared_of = |kind: SharedKind, defs: Vec<&Entry<'_>>| {
        let (geometry, edge_links) = compare(&defs);
        SharedNavmesh {
            navmesh: defs.first().map(|d| d.key.clone()).unwrap_or(FormKey {
                file: String::new(),
                id: 0,
            }),
            kind,
            winner: defs.last().map(|d| name(d)).unwrap_or_default(),
            definitions: defs
                .iter()
                .map(|d| Definition {
                    plugin: name(d),
                    form_id: d.form_id,
                    deleted: d.deleted,
                    vertices: d.mesh.as_ref().map(|m| m.vertices.len()),
                    triangles: d.mesh.as_ref().map(|m| m.triangles.len()),
                })
                .collect(),
            geometry,
            edge_links,
        }
    };

    // Group in first-seen order, by hash: a master file has tens of thousands of navmeshes.
    let in_plugins = |group: &[usize]| {
        let mut p: Vec<usize> = group
            .iter()
            .filter_map(|&j| entries.get(j).map(|e| e.plugin))
            .collect();
        p.dedup();
        p.len()
    };
    let defs_of = |group: &[usize]| -> Vec<&Entry<'_>> {
        group.iter().filter_map(|&j| entries.get(j)).collect()
    };
    let mut shared = Vec::new();
    let same_record = groups(
        entries
            .iter()
            .enumerate()
            .map(|(i, e)| ((e.key.file.to_ascii_lowercase(), e.key.id), i)),
    );
    for group in same_record.iter().filter(|g| in_plugins(g) > 1) {
        shared.push(shared_of(SharedKind::Override, defs_of(group)));
    }
    let same_number = groups(
        entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.own)
            .map(|(i, e)| (e.form_id, i)),
    );
    for group in same_number.iter().filter(|g| in_plugins(g) > 1) {
        shared.push(shared_of(SharedKind::SameFormId, defs_of(group)));
    }

    let deleted = entries
        .iter()
        .filter(|e| e.deleted)
        .map(|d| DeletedNavmesh {
            navmesh: d.key.clone(),
            plugin: name(d),
            form_id: d.form_id,
            location: d.location.clone(),
            deletion_wins: !entries
                .iter()
                .any(|o| o.plugin > d.plugin && o.key.same(&d.key)),
            linked_from: entries
                .iter()
                .filter(|o| !o.key.same(&d.key))
                .filter_map(|o| {
                    let links = o
                        .links
                        .iter()
                        .find(|(k, _)| k.same(&d.key))
                        .map(|(_, n)| *n)?;
                    Some(LinkToDeleted {
                        plugin: name(o),
                        navmesh: o.form_id,
                        links,
                    })
                })
                .collect(),
        })
        .collect();

    ConflictReport {
        plugins: plugins.iter().map(|p| p.0.as_ref().to_string()).collect(),
        shared,
        deleted,
    }
}

impl fmt::Display for ConflictReport {
    /// The report for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "load order:")?;
        for (i, p) in self.plugins.iter().enumerate() {
            writeln!(f, "  {:>3}  {p}", i + 1)?;
        }
        let overrides = self
            .shared
            .iter()
            .filter(|s| s.kind == SharedKind::Override)
            .count();
        writeln!(
            f,
            "{} navmeshes defined by more than one plugin ({overrides} overrides of one record, \
             {} with the same FormID as each plugin's own record)",
            self.shared.len(),
            self.shared.len() - overrides
        )?;
        for s in &self.shared {
            let first = s.definitions.first().map_or(0, |d| d.form_id);
            match s.kind {
                SharedKind::Override => writeln!(
                    f,
                    "{first:08X} ({}): override, {} wins",
                    s.navmesh, s.winner
                )?,
                SharedKind::SameFormId => writeln!(
                    f,
                    "{first:08X}: same FormID, each plugin's own record (distinct in the game \
                     unless the plugins are versions of one file; then {} is what it sees)",
                    s.winner
                )?,
            }
            for d in &s.definitions {
                let what = if d.deleted {
                    "deleted".to_string()
                } else {
                    match (d.vertices, d.triangles) {
                        (Some(v), Some(t)) => format!("{v} vertices, {t} triangles"),
                        _ => "NVNM does not read".to_string(),
                    }
                };
                writeln!(f, "  {}: {what}", d.plugin)?;
            }
            let geometry = match s.geometry {
                GeometryComparison::Identical => "identical NVNM",
                GeometryComparison::SameGeometry => {
                    "same vertices and triangles, other NVNM data differs"
                }
                GeometryComparison::Differs => "geometry differs",
            };
            writeln!(f, "  {geometry}")?;
            for l in &s.edge_links {
                let counts: Vec<String> = l
                    .links
                    .iter()
                    .zip(&s.definitions)
                    .map(|(n, d)| format!("{n} in {}", d.plugin))
                    .collect();
                writeln!(f, "  edge links to {}: {}", l.target, counts.join(", "))?;
            }
        }
        writeln!(f, "{} deleted navmeshes", self.deleted.len())?;
        for d in &self.deleted {
            writeln!(
                f,
                "{:08X} ({}) deleted by {} in {}{}",
                d.form_id,
                d.navmesh,
                d.plugin,
                d.location,
                if d.deletion_wins {
                    ""
                } else {
                    " (a later plugin defines it again)"
                }
            )?;
            if d.linked_from.is_empty() {
                writeln!(f, "  no navmesh of these plugins links to it")?;
            }
            for l in &d.linked_from {
                writeln!(
                    f,
                    "  still linked from {} NAVM {:08X} ({} edge links): the game crashes when \
                     it follows them",
                    l.plugin, l.navmesh, l.links
                )?;
            }
        }
        Ok(())
    }
}
