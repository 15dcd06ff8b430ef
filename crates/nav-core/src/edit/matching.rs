//! The matcher behind [`match_mesh`]: an edited mesh against the original geometry, by position
//! and topology (the rules are in the docs of [`super`]).

use std::collections::HashMap;

use super::completion::{self, Clash};
use super::{
    AddedFace, AttributeChange, Corner, EditedMesh, MatchError, MatchOptions, MeshEdit, show_point,
};
use crate::geometry::Geometry;

/// The most corners a polygon may have for a face to be matched against it as a piece (a
/// triangle of its triangulation); larger polygons match only faces of their own size.
const MAX_PIECE_SLOTS: usize = 32;

/// What changed between `original` and `edited` (see the docs of [`super`] for the rules), or
/// why that cannot be told.
pub fn match_mesh(
    original: &Geometry,
    edited: &EditedMesh,
    options: &MatchOptions,
) -> Result<MeshEdit, MatchError> {
    let welded = Welded::of(edited)?;
    let index = Index::new(original, options);
    let cands: Vec<Vec<u32>> = welded
        .positions
        .iter()
        .map(|p| index.near(original, *p))
        .collect();
    let m = Matcher {
        g: original,
        cands,
        positions: welded.positions,
        visible: original
            .polygons
            .iter()
            .map(|p| visible(original, &p.vertices))
            .collect(),
    };
    let faces = welded.faces;
    let incidence = m.incidence();
    let mut assigned: Vec<Option<u32>> = vec![None; faces.len()];
    let mut pieces: Vec<Vec<u32>> = vec![Vec::new(); original.polygons.len()];
    let mut ties: Vec<(usize, Vec<u32>)> = Vec::new();
    for (f, corners) in faces.iter().enumerate() {
        let Some(corners) = corners else { continue };
        let best = m.best_fits(corners, &incidence);
        match best.as_slice() {
            [] => {}
            [p] => {
                assigned[f] = Some(*p);
                push_piece(&mut pieces, *p, f);
            }
            _ => ties.push((f, best)),
        }
    }
    for (f, tied) in ties {
        let open: Vec<u32> = tied
            .iter()
            .copied()
            .filter(|&p| !m.complete(p, &pieces, &faces))
            .collect();
        let chosen = match open.as_slice() {
            [] => {
                return Err(MatchError(format!(
                    "faces[{f}] lies on {} which other faces already make: delete the duplicate \
                     face, or move it off the existing one to add a new polygon",
                    m.describe(tied.first().copied().unwrap_or(0))
                )));
            }
            [p] => *p,
            [first, rest @ ..] => {
                // Polygons at the same places (the same vertices, or a plugin's navmesh and
                // its copy) cannot be told apart: they take their faces in order.
                let same = |p: &u32| m.corner_bits(*p) == m.corner_bits(*first);
                if !rest.iter().all(same) {
                    return Err(MatchError(format!(
                        "faces[{f}] fits {} and {} equally: move one of its corners back \
                         where it was, or delete the face and add it again",
                        m.describe(*first),
                        m.describe(rest.first().copied().unwrap_or(*first))
                    )));
                }
                *first
            }
        };
        assigned[f] = Some(chosen);
        push_piece(&mut pieces, chosen, f);
    }
    let sizes: Vec<usize> = (original.polygons.iter().zip(&m.visible))
        .map(|(q, &shows)| if shows { q.vertices.len() } else { 0 })
        .collect();
    let completed = completion::complete(&faces, &sizes, &mut assigned, &mut pieces).map_err(
        |Clash {
             face,
             polygons: [p, q],
         }| {
            MatchError(format!(
                "faces[{face}] could complete {} or {}, which other faces only partly make: move \
                 its corners back where they were, or delete the faces of one of them",
                m.describe(p),
                m.describe(q)
            ))
        },
    )?;

    let mut claims = Claims::default();
    let mut deleted = Vec::new();
    for (p, poly) in original.polygons.iter().enumerate() {
        let Ok(pi) = u32::try_from(p) else { break };
        if !m.visible.get(p).copied().unwrap_or(false) {
            continue;
        }
        let mine = pieces.get(p).map_or(&[][..], Vec::as_slice);
        if mine.is_empty() {
            deleted.push(pi);
            continue;
        }
        let outline = m.outline(pi, mine, &faces)?;
        let strict = completed.binary_search(&pi).is_ok();
        m.align(pi, &poly.vertices, &outline, &mut claims, strict)?;
    }
    let moved = claims.moved(&m)?;
    let added = m.added(&faces, &assigned, &claims, &moved);
    let attributes = m.attribute_changes(edited, &pieces, faces.len())?;
    let (new_vertices, mut added) = added;
    for (name, values) in &edited.attributes {
        let Some(a) = original.attributes.iter().position(|n| n == name) else {
            continue;
        };
        for face in &mut added {
            if let Some(slot) = face.attributes.get_mut(a) {
                *slot = values.get(face.face as usize).copied();
            }
        }
    }
    Ok(MeshEdit {
        moved,
        deleted,
        new_vertices,
        added,
        attributes,
    })
}

fn push_piece(pieces: &mut [Vec<u32>], p: u32, f: usize) {
    if let (Some(list), Ok(f)) = (pieces.get_mut(p as usize), u32::try_from(f)) {
        list.push(f);
    }
}

/// Whether a polygon can show in a mesh at all: every vertex exists and at least three corners
/// are at distinct positions (a modelling tool drops the others, so they are never deleted).
fn visible(g: &Geometry, vertices: &[u32]) -> bool {
    let mut seen: Vec<[u32; 3]> = Vec::with_capacity(vertices.len());
    for v in vertices {
        let Some(p) = g.vertices.get(*v as usize) else {
            return false;
        };
        let key = position_key(*p);
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen.len() >= 3
}

/// A position as a hash key: the coordinates' bits, with -0 as 0.
fn position_key(p: [f32; 3]) -> [u32; 3] {
    p.map(|c| if c == 0.0 { 0 } else { c.to_bits() })
}

/// The edited mesh with its vertices welded by position.
struct Welded {
    /// Position of each welded vertex.
    positions: Vec<[f32; 3]>,
    /// Each face as welded vertices, repeats dropped; `None` for a face of fewer than three.
    faces: Vec<Option<Vec<u32>>>,
}

impl Welded {
    fn of(mesh: &EditedMesh) -> Result<Welded, MatchError> {
        let mut by_key: HashMap<[u32; 3], u32> = HashMap::new();
        let mut positions = Vec::new();
        let mut of = Vec::with_capacity(mesh.vertices.len());
        for (i, p) in mesh.vertices.iter().enumerate() {
            if !p.iter().all(|c| c.is_finite()) {
                return Err(MatchError(format!(
                    "vertices[{i}] is not a finite position: {}",
                    show_point(*p)
                )));
            }
            let next = u32::try_from(positions.len())
                .map_err(|_| MatchError("the edited mesh has too many vertices".into()))?;
            let id = *by_key.entry(position_key(*p)).or_insert(next);
            if id == next {
                positions.push(*p);
            }
            of.push(id);
        }
        let mut faces = Vec::with_capacity(mesh.faces.len());
        for (f, face) in mesh.faces.iter().enumerate() {
            let mut corners: Vec<u32> = Vec::with_capacity(face.len());
            for &v in face {
                let Some(&w) = of.get(v as usize) else {
                    return Err(MatchError(format!(
                        "faces[{f}] names vertex {v}, past the {} vertices",
                        mesh.vertices.len()
                    )));
                };
                if corners.last() != Some(&w) {
                    corners.push(w);
                }
            }
            while corners.len() > 1 && corners.first() == corners.last() {
                corners.pop();
            }
            let mut distinct = corners.clone();
            distinct.sort_unstable();
            distinct.dedup();
            faces.push((distinct.len() >= 3).then_some(corners));
        }
        Ok(Welded { positions, faces })
    }
}

/// A hash grid over the original vertices, with cells twice the largest tolerance wide; each
/// vertex matches within its own ([`MatchOptions::tolerance_at`]).
struct Index {
    options: MatchOptions,
    cell: f64,
    cells: HashMap<[i64; 3], Vec<u32>>,
}

impl Index {
    fn new(g: &Geometry, options: &MatchOptions) -> Index {
        let tolerance = f64::from(options.tolerance(g)).max(f64::MIN_POSITIVE);
        let cell = tolerance * 2.0;
        let mut cells: HashMap<[i64; 3], Vec<u32>> = HashMap::new();
        for (v, p) in g.vertices.iter().enumerate() {
            let Ok(v) = u32::try_from(v) else { break };
            if p.iter().all(|c| c.is_finite()) {
                cells.entry(cell_of(*p, cell)).or_default().push(v);
            }
        }
        Index {
            options: *options,
            cell,
            cells,
        }
    }

    /// The original vertices `p` is within the tolerance of, ascending.
    fn near(&self, g: &Geometry, p: [f32; 3]) -> Vec<u32> {
        let key = cell_of(p, self.cell);
        let mut out = Vec::new();
        for dx in -1..=1i64 {
            for dy in -1..=1i64 {
                for dz in -1..=1i64 {
                    let k = [
                        key[0].saturating_add(dx),
                        key[1].saturating_add(dy),
                        key[2].saturating_add(dz),
                    ];
                    for &v in self.cells.get(&k).map_or(&[][..], Vec::as_slice) {
                        let Some(q) = g.vertices.get(v as usize) else {
                            continue;
                        };
                        let tolerance = f64::from(self.options.tolerance_at(*q));
                        let close = p
                            .iter()
                            .zip(q)
                            .all(|(a, b)| (f64::from(*a) - f64::from(*b)).abs() <= tolerance);
                        if close {
                            out.push(v);
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The grid cell of a position.
fn cell_of(p: [f32; 3], cell: f64) -> [i64; 3] {
    p.map(|c| {
        let q = (f64::from(c) / cell).floor();
        // A float-to-integer `as` saturates (NaN gives 0): points past the i64 range share the
        // outermost cells, where the exact distance check still tells them apart.
        #[allow(clippy::cast_possible_truncation)]
        let k = q as i64;
        k
    })
}

/// Which original vertex each moved one became, and which were seen unmoved.
#[derive(Default)]
struct Claims {
    /// Original vertex → the welded vertex it moved to.
    moved: HashMap<u32, u32>,
    /// Original vertices some polygon keeps in place, with that polygon.
    kept: HashMap<u32, u32>,
}

impl Claims {
    /// The moves, ascending by vertex, refusing a vertex kept in one polygon and moved in
    /// another.
    fn moved(&self, m: &Matcher<'_>) -> Result<Vec<(u32, [f32; 3])>, MatchError> {
        let mut out: Vec<(u32, [f32; 3])> = Vec::with_capacity(self.moved.len());
        for (&v, &w) in &self.moved {
            let to = m.position(w);
            if let Some(&p) = self.kept.get(&v) {
                return Err(MatchError(format!(
                    "vertex {v} at {} stays in place in {} but moves to {} in another face: the \
                     edit split it. Move it in every face (select it once, not per face), or \
                     delete the faces and add new ones",
                    show_point(m.g.vertices.get(v as usize).copied().unwrap_or_default()),
                    m.describe(p),
                    show_point(to)
                )));
            }
            out.push((v, to));
        }
        out.sort_unstable_by_key(|(v, _)| *v);
        Ok(out)
    }
}

/// The original geometry with what the edited mesh's welded vertices are near.
struct Matcher<'g> {
    g: &'g Geometry,
    /// Original vertices near each welded vertex.
    cands: Vec<Vec<u32>>,
    /// Position of each welded vertex.
    positions: Vec<[f32; 3]>,
    /// Whether each original polygon can show in a mesh ([`visible`]).
    visible: Vec<bool>,
}

impl Matcher<'_> {
    fn position(&self, w: u32) -> [f32; 3] {
        self.positions.get(w as usize).copied().unwrap_or_default()
    }

    /// The positions of polygon `p`'s corners, as bits, in its cyclic order from the least
    /// (`None` for no such polygon).
    fn corner_bits(&self, p: u32) -> Option<Vec<[u32; 3]>> {
        let poly = self.g.polygons.get(p as usize)?;
        let mut bits: Vec<[u32; 3]> = poly
            .vertices
            .iter()
            .map(|&v| self.g.vertices.get(v as usize).map(|c| c.map(f32::to_bits)))
            .collect::<Option<_>>()?;
        let least = bits
            .iter()
            .enumerate()
            .min_by_key(|(_, b)| **b)
            .map_or(0, |(i, _)| i);
        bits.rotate_left(least);
        Some(bits)
    }

    /// Whether welded vertex `w` is original vertex `v`, unmoved.
    fn same(&self, w: u32, v: u32) -> bool {
        self.cands
            .get(w as usize)
            .is_some_and(|c| c.binary_search(&v).is_ok())
    }

    /// A polygon for people: `polygons[12] (triangles[12])`, with its id and part where known.
    fn describe(&self, p: u32) -> String {
        let record = self.g.polygons.get(p as usize).and_then(|q| q.record);
        match record {
            None => format!("polygon {p}"),
            Some(r) => {
                let part = self
                    .g
                    .parts
                    .get(r.part as usize)
                    .map_or(String::new(), |name| format!("{name} "));
                let id = r.id.map_or(String::new(), |id| format!(", id {id}"));
                format!("polygon {p} ({part}record {}{id})", r.index)
            }
        }
    }

    /// For each original vertex, the visible polygons that use it (compressed rows).
    fn incidence(&self) -> (Vec<usize>, Vec<u32>) {
        let nv = self.g.vertices.len();
        let mut count = vec![0usize; nv + 1];
        let visible = || {
            self.g
                .polygons
                .iter()
                .enumerate()
                .filter(|(p, _)| self.visible.get(*p).copied().unwrap_or(false))
        };
        for (_, poly) in visible() {
            for &v in &poly.vertices {
                if let Some(c) = count.get_mut(v as usize + 1) {
                    *c += 1;
                }
            }
        }
        for i in 1..count.len() {
            count[i] += count[i - 1];
        }
        let mut fill = count.clone();
        let mut list = vec![0u32; count.last().copied().unwrap_or(0)];
        for (p, poly) in visible() {
            let Ok(p) = u32::try_from(p) else { break };
            for &v in &poly.vertices {
                if let Some(at) = fill.get_mut(v as usize) {
                    if let Some(slot) = list.get_mut(*at) {
                        *slot = p;
                    }
                    *at += 1;
                }
            }
        }
        (count, list)
    }

    /// The polygons a face fits best (most unmoved corners, at least two), ascending.
    fn best_fits(&self, corners: &[u32], (start, list): &(Vec<usize>, Vec<u32>)) -> Vec<u32> {
        let mut candidates: Vec<u32> = Vec::new();
        for &w in corners {
            for &v in self.cands.get(w as usize).map_or(&[][..], Vec::as_slice) {
                let (Some(&a), Some(&b)) = (start.get(v as usize), start.get(v as usize + 1))
                else {
                    continue;
                };
                candidates.extend(list.get(a..b).unwrap_or(&[]));
            }
        }
        candidates.sort_unstable();
        candidates.dedup();
        let mut best = 2;
        let mut out = Vec::new();
        for p in candidates {
            let Some(poly) = self.g.polygons.get(p as usize) else {
                continue;
            };
            let score = self.fit(corners, &poly.vertices);
            if score > best {
                best = score;
                out.clear();
            }
            if score == best {
                out.push(p);
            }
        }
        out
    }

    /// How many corners of a face can be unmoved corners of a polygon when the face runs
    /// through the polygon's corners in its cyclic order, each face corner on its own polygon
    /// corner; 0 when the face has more corners than the polygon.
    fn fit(&self, corners: &[u32], slots: &[u32]) -> usize {
        let (k, n) = (corners.len(), slots.len());
        if k > n || k == 0 || (n > MAX_PIECE_SLOTS && k != n) {
            return 0;
        }
        let same = |i: usize, s: usize| -> usize {
            match (corners.get(i), slots.get(s % n)) {
                (Some(&w), Some(&v)) => usize::from(self.same(w, v)),
                _ => 0,
            }
        };
        let mut best = 0;
        if k == n {
            for s0 in 0..n {
                best = best.max((0..k).map(|i| same(i, s0 + i)).sum());
            }
            return best;
        }
        // Corner 0 on polygon corner s0, the others at increasing offsets after it.
        let mut prev = vec![None::<usize>; n];
        let mut cur = vec![None::<usize>; n];
        for s0 in 0..n {
            prev.fill(None);
            if let Some(p) = prev.first_mut() {
                *p = Some(same(0, s0));
            }
            for i in 1..k {
                cur.fill(None);
                let mut running: Option<usize> = None;
                for d in 1..n {
                    running = running.max(prev.get(d - 1).copied().flatten());
                    if let (Some(r), Some(c)) = (running, cur.get_mut(d)) {
                        *c = Some(r + same(i, s0 + d));
                    }
                }
                core::mem::swap(&mut prev, &mut cur);
            }
            best = best.max(prev.iter().flatten().copied().max().unwrap_or(0));
        }
        best
    }

    /// Whether the faces given to polygon `p` already make all of it (their corner counts add
    /// up as a triangulation's do: Σ(k − 2) = n − 2).
    fn complete(&self, p: u32, pieces: &[Vec<u32>], faces: &[Option<Vec<u32>>]) -> bool {
        let n = self
            .g
            .polygons
            .get(p as usize)
            .map_or(0, |q| q.vertices.len());
        let made: usize = pieces
            .get(p as usize)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .filter_map(|&f| faces.get(f as usize).and_then(Option::as_ref))
            .map(|c| c.len().saturating_sub(2))
            .sum();
        made >= n.saturating_sub(2)
    }

    /// The outline of the faces given to polygon `p`: its edited cycle of welded corners.
    fn outline(
        &self,
        p: u32,
        mine: &[u32],
        faces: &[Option<Vec<u32>>],
    ) -> Result<Vec<u32>, MatchError> {
        let n = self
            .g
            .polygons
            .get(p as usize)
            .map_or(0, |q| q.vertices.len());
        let corners: Vec<&Vec<u32>> = mine
            .iter()
            .filter_map(|&f| faces.get(f as usize).and_then(Option::as_ref))
            .collect();
        let made: usize = corners.iter().map(|c| c.len().saturating_sub(2)).sum();
        let list = || {
            mine.iter()
                .map(|f| format!("faces[{f}]"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if made > n.saturating_sub(2) {
            return Err(MatchError(format!(
                "{} ({n} corners) is made more than once, by {}: delete the duplicate faces, or \
                 move them off it to add new polygons",
                self.describe(p),
                list()
            )));
        }
        if made != n.saturating_sub(2) {
            return Err(MatchError(format!(
                "{} ({n} corners) is only partly made by {}: delete all of its faces or keep \
                 them all (to cut it, delete it and add the pieces as new faces away from it)",
                self.describe(p),
                list()
            )));
        }
        if let [only] = corners.as_slice() {
            return Ok((*only).clone());
        }
        let mut edges: HashMap<(u32, u32), usize> = HashMap::new();
        for c in &corners {
            for (i, &a) in c.iter().enumerate() {
                let b = c.get((i + 1) % c.len()).copied().unwrap_or(a);
                *edges.entry((a, b)).or_default() += 1;
            }
        }
        let mut next: HashMap<u32, u32> = HashMap::new();
        for (&(a, b), &count) in &edges {
            let inner = edges.get(&(b, a)).copied().unwrap_or(0);
            if count > inner && next.insert(a, b).is_some() {
                next.clear();
                break;
            }
        }
        let broken = || {
            MatchError(format!(
                "{} is made by {}, whose outline is not one loop of its {n} corners: restore \
                 the faces, or delete them all",
                self.describe(p),
                list()
            ))
        };
        let Some(mut at) = next.keys().min().copied() else {
            return Err(broken());
        };
        let mut cycle = Vec::with_capacity(n);
        for _ in 0..n {
            cycle.push(at);
            at = *next.get(&at).ok_or_else(broken)?;
        }
        if next.len() != n || Some(&at) != cycle.first() {
            return Err(broken());
        }
        Ok(cycle)
    }

    /// Lines up polygon `p`'s corners with its edited outline and records which vertices
    /// stayed and which moved where. `strict` (a polygon completed by faces with fewer than two
    /// unmoved corners) refuses an outline corner at one of `p`'s vertices lined up with another.
    fn align(
        &self,
        p: u32,
        slots: &[u32],
        outline: &[u32],
        claims: &mut Claims,
        strict: bool,
    ) -> Result<(), MatchError> {
        let n = slots.len();
        if outline.len() != n {
            return Err(MatchError(format!(
                "{} has {n} corners but its faces outline {}: restore the faces, or delete them all",
                self.describe(p),
                outline.len()
            )));
        }
        let at = |r: usize, i: usize| outline.get((i + r) % n).copied().unwrap_or(0);
        let score = |r: usize| {
            slots
                .iter()
                .enumerate()
                .filter(|(i, v)| self.same(at(r, *i), **v))
                .count()
        };
        let scores: Vec<usize> = (0..n).map(score).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        let rotations: Vec<usize> = (0..n).filter(|r| scores.get(*r) == Some(&best)).collect();
        let [r] = rotations.as_slice() else {
            return Err(MatchError(format!(
                "cannot tell which corners of {} moved where: move fewer of its corners at a time",
                self.describe(p)
            )));
        };
        for (i, &v) in slots.iter().enumerate() {
            let w = at(*r, i);
            let astray = |u: &&u32| **u != v && self.same(w, **u);
            if let (true, false, Some(u)) = (strict, self.same(w, v), slots.iter().find(astray)) {
                return Err(MatchError(format!(
                    "the faces of {} run through its corners out of their order (vertex {u} \
                     where vertex {v} should be): restore the faces, or delete them all",
                    self.describe(p)
                )));
            }
            if self.same(w, v) {
                claims.kept.entry(v).or_insert(p);
                continue;
            }
            let before = claims.moved.get(&v).copied().filter(|b| *b != w);
            if let Some(before) = before {
                return Err(MatchError(format!(
                    "vertex {v} at {} moves to two places, {} and {}: the edit split it. Merge \
                     the copies again (Merge by Distance), or delete the faces and add new ones",
                    show_point(self.g.vertices.get(v as usize).copied().unwrap_or_default()),
                    show_point(self.position(before)),
                    show_point(self.position(w))
                )));
            }
            claims.moved.insert(v, w);
        }
        Ok(())
    }

    /// The faces no polygon took, as added faces, with the vertices they add.
    fn added(
        &self,
        faces: &[Option<Vec<u32>>],
        assigned: &[Option<u32>],
        claims: &Claims,
        moved: &[(u32, [f32; 3])],
    ) -> (Vec<[f32; 3]>, Vec<AddedFace>) {
        let mut became: HashMap<u32, u32> = HashMap::new();
        for (&v, &w) in &claims.moved {
            let slot = became.entry(w).or_insert(v);
            *slot = (*slot).min(v);
        }
        let mut new_vertices = Vec::new();
        let mut new_of: HashMap<u32, u32> = HashMap::new();
        let mut added = Vec::new();
        let attributes = self.g.attributes.len();
        for (f, corners) in faces.iter().enumerate() {
            let (Some(corners), None) = (corners, assigned.get(f).copied().flatten()) else {
                continue;
            };
            let Ok(face) = u32::try_from(f) else { break };
            let mut out = AddedFace {
                face,
                corners: Vec::with_capacity(corners.len()),
                positions: Vec::with_capacity(corners.len()),
                attributes: vec![None; attributes],
            };
            for &w in corners {
                let original = became
                    .get(&w)
                    .copied()
                    .or_else(|| self.cands.get(w as usize).and_then(|c| c.first()).copied());
                let (corner, position) = match original {
                    Some(v) => {
                        let at = moved
                            .binary_search_by_key(&v, |(m, _)| *m)
                            .ok()
                            .and_then(|i| moved.get(i))
                            .map(|(_, p)| *p)
                            .or_else(|| self.g.vertices.get(v as usize).copied())
                            .unwrap_or_default();
                        (Corner::Vertex(v), at)
                    }
                    None => {
                        let next = u32::try_from(new_vertices.len()).unwrap_or(u32::MAX);
                        let id = *new_of.entry(w).or_insert(next);
                        if id == next {
                            new_vertices.push(self.position(w));
                        }
                        (Corner::New(id), self.position(w))
                    }
                };
                out.corners.push(corner);
                out.positions.push(position);
            }
            added.push(out);
        }
        (new_vertices, added)
    }

    /// Attribute values the edited mesh carries that differ from the file's, by polygon; fills
    /// in the values of added faces.
    fn attribute_changes(
        &self,
        edited: &EditedMesh,
        pieces: &[Vec<u32>],
        faces: usize,
    ) -> Result<Vec<AttributeChange>, MatchError> {
        let mut out = Vec::new();
        for (name, values) in &edited.attributes {
            let Some(a) = self.g.attributes.iter().position(|n| n == name) else {
                continue;
            };
            if values.len() != faces {
                return Err(MatchError(format!(
                    "attribute {name} has {} values for {faces} faces",
                    values.len()
                )));
            }
            let Ok(attribute) = u32::try_from(a) else {
                continue;
            };
            for (p, mine) in pieces.iter().enumerate() {
                let mut seen = mine.iter().filter_map(|&f| values.get(f as usize));
                let Some(&value) = seen.next() else { continue };
                if let Some(other) = seen.find(|v| **v != value) {
                    return Err(MatchError(format!(
                        "the faces of {} carry different {name} values ({value} and {other}): \
                         give them all one",
                        self.describe(u32::try_from(p).unwrap_or(u32::MAX))
                    )));
                }
                let old = self.g.polygons.get(p).and_then(|q| q.attributes.get(a));
                let changed = old.is_some_and(|old| *old != value);
                if let (true, Ok(polygon)) = (changed, u32::try_from(p)) {
                    out.push(AttributeChange {
                        polygon,
                        attribute,
                        value,
                    });
                }
            }
        }
        out.sort_unstable_by_key(|c| (c.polygon, c.attribute));
        Ok(out)
    }
}
