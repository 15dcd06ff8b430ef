//! What an added face draws: a face of its own, or two added triangles that share an edge and
//! together make an axis-aligned rectangle (glTF holds only triangles, so a rectangle drawn in
//! Blender and exported as glTF comes back as two of them); and the rectangle that is.

use std::collections::HashMap;

use nav_core::Result;
use nav_core::edit::{AddedFace, MatchOptions, show_point};

use super::shared::refuse;

/// What every refusal of a face's shape goes on to say.
const DRAW: &str = "a Silkroad cell is an axis-aligned rectangle on the ground, so draw a new \
                    face as a rectangle along x and z: a quad (4 corners seen from above) or two \
                    triangles that make one, best on the 20-unit tile grid";

/// The most triangles sharing one edge that are tried as partners (two in a mesh a person drew;
/// more only in a degenerate one, which is refused rather than searched).
const MAX_PARTNERS: usize = 8;

/// The most corners one welding bucket keeps to compare later corners with.
const MAX_BUCKET: usize = 16;

/// An added face as apply draws a cell from it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Drawn {
    /// The face it came from, `faces[12]`, or the two triangles, `faces[12]+faces[13]`.
    pub(super) name: String,
    /// Its outline, in winding order.
    pub(super) positions: Vec<[f32; 3]>,
}

/// The faces to draw cells from, in the order of their (first) face: every face that is no
/// triangle as it is, and the added triangles in pairs that share an edge (the same two corners,
/// or two corners within the matcher's tolerance of each other) and make an axis-aligned
/// rectangle. A triangle that pairs with none is refused, naming it.
pub(super) fn drawn(faces: &[AddedFace]) -> Result<Vec<Drawn>> {
    let triangles: Vec<(usize, [[f32; 3]; 3])> = faces
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f.positions.as_slice() {
            &[a, b, c] => Some((i, [a, b, c])),
            _ => None,
        })
        .collect();
    let name = |i: usize| faces.get(i).map_or(u32::MAX, |f| f.face);
    let corners: Vec<[f32; 3]> = triangles.iter().flat_map(|(_, t)| *t).collect();
    let id = weld(&corners, tolerance(&corners));
    let corner = |t: usize, k: usize| id.get(3 * t + k % 3).copied().unwrap_or(usize::MAX);

    // Triangles by the edges they have (welded corners, the lower first).
    let mut by_edge: HashMap<(usize, usize), Vec<usize>> = HashMap::new();
    for t in 0..triangles.len() {
        for k in 0..3 {
            let (a, b) = (corner(t, k), corner(t, k + 1));
            if a != b {
                let list = by_edge.entry((a.min(b), a.max(b))).or_default();
                if list.len() <= MAX_PARTNERS {
                    list.push(t);
                }
            }
        }
    }

    // Pairs, first come first paired: a triangle's outline with the partner's far corner put
    // into the shared edge.
    let mut pair: Vec<Option<usize>> = vec![None; triangles.len()];
    let mut outline: Vec<Option<Vec<[f32; 3]>>> = vec![None; triangles.len()];
    for t in 0..triangles.len() {
        if pair.get(t).copied().flatten().is_some() {
            continue;
        }
        let Some(&(face, p)) = triangles.get(t) else {
            continue;
        };
        let mut tried = Vec::new();
        'edges: for k in 0..3 {
            let (a, b) = (corner(t, k), corner(t, k + 1));
            let Some(list) = by_edge.get(&(a.min(b), a.max(b))).filter(|_| a != b) else {
                continue;
            };
            for &u in list {
                if u == t || pair.get(u).copied().flatten().is_some() {
                    continue;
                }
                let Some(&(other, q)) = triangles.get(u) else {
                    continue;
                };
                let Some(far) = (0..3).find(|&j| ![a, b].contains(&corner(u, j))) else {
                    continue;
                };
                let (lo, hi) = (name(face.min(other)), name(face.max(other)));
                let joined = Drawn {
                    name: format!("faces[{lo}]+faces[{hi}]"),
                    positions: [p.get(k), q.get(far), p.get((k + 1) % 3), p.get((k + 2) % 3)]
                        .into_iter()
                        .flatten()
                        .copied()
                        .collect(),
                };
                if rectangle(&joined).is_ok() {
                    if let Some(slot) = pair.get_mut(t) {
                        *slot = Some(u);
                    }
                    if let Some(slot) = pair.get_mut(u) {
                        *slot = Some(t);
                    }
                    if let Some(slot) = outline.get_mut(t.min(u)) {
                        *slot = Some(joined.positions);
                    }
                    break 'edges;
                }
                tried.push(other);
            }
        }
        if pair.get(t).copied().flatten().is_none() {
            tried.sort_unstable();
            tried.dedup();
            let why = match tried.as_slice() {
                [] => "is a triangle that shares no edge with another added triangle left to \
                       pair it with"
                    .to_string(),
                _ => format!(
                    "is a triangle that makes no axis-aligned rectangle with {}, which shares \
                     an edge with it",
                    tried
                        .iter()
                        .map(|&i| format!("faces[{}]", name(i)))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            };
            return Err(refuse(
                format_args!("faces[{}]", name(face)),
                format_args!("{why}: {DRAW}"),
            ));
        }
    }

    // In the order of the faces, a pair where its first triangle is.
    let mut out = Vec::with_capacity(faces.len());
    let mut triangle = 0usize;
    for (i, f) in faces.iter().enumerate() {
        if triangles.get(triangle).is_some_and(|&(j, _)| j == i) {
            let t = triangle;
            triangle += 1;
            let Some(u) = pair.get(t).copied().flatten() else {
                continue;
            };
            if u < t {
                continue;
            }
            let other = triangles.get(u).map_or(i, |&(j, _)| j);
            out.push(Drawn {
                name: format!("faces[{}]+faces[{}]", f.face, name(other)),
                positions: outline.get(t).cloned().flatten().unwrap_or_default(),
            });
        } else {
            out.push(Drawn {
                name: format!("faces[{}]", f.face),
                positions: f.positions.clone(),
            });
        }
    }
    Ok(out)
}

/// One id per point, the same for points within `tol` of each other on every axis (and for
/// points joined through such a chain); a point that is not finite is its own. Points are
/// bucketed on a grid of `tol` so each is compared with the few in its and the neighbouring
/// buckets only.
fn weld(points: &[[f32; 3]], tol: f32) -> Vec<usize> {
    let size = tol.max(f32::MIN_POSITIVE);
    // A finite coordinate over a positive size: the cast saturates where the quotient is huge,
    // and neighbouring buckets are then merely shared.
    #[allow(clippy::cast_possible_truncation)]
    let key = |p: [f32; 3]| p.map(|c| (c / size).floor() as i64);
    let near = |p: [f32; 3], q: [f32; 3]| p.iter().zip(&q).all(|(a, b)| (a - b).abs() <= tol);
    let mut parent: Vec<usize> = (0..points.len()).collect();
    let mut buckets: HashMap<[i64; 3], Vec<usize>> = HashMap::new();
    for (i, &p) in points.iter().enumerate() {
        if !p.iter().all(|c| c.is_finite()) {
            continue;
        }
        let k = key(p);
        for dx in -1i64..=1 {
            for dy in -1i64..=1 {
                for dz in -1i64..=1 {
                    let at = [
                        k[0].saturating_add(dx),
                        k[1].saturating_add(dy),
                        k[2].saturating_add(dz),
                    ];
                    for &j in buckets.get(&at).into_iter().flatten() {
                        if points.get(j).is_some_and(|&q| near(p, q)) {
                            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                            if let Some(slot) = parent.get_mut(a) {
                                *slot = b;
                            }
                        }
                    }
                }
            }
        }
        let bucket = buckets.entry(k).or_default();
        if bucket.len() < MAX_BUCKET {
            bucket.push(i);
        }
    }
    (0..points.len()).map(|i| root(&mut parent, i)).collect()
}

/// The root of `i` in the union-find `parent`, halving the path on the way.
fn root(parent: &mut [usize], mut i: usize) -> usize {
    while let Some(&p) = parent.get(i) {
        if p == i {
            break;
        }
        let grand = parent.get(p).copied().unwrap_or(p);
        if let Some(slot) = parent.get_mut(i) {
            *slot = grand;
        }
        i = p;
    }
    i
}

/// The matcher's tolerance at the point of `ps` farthest from the origin.
fn tolerance(ps: &[[f32; 3]]) -> f32 {
    let options = MatchOptions::default();
    ps.iter()
        .fold(0.0f32, |t, p| t.max(options.tolerance_at(*p)))
}

/// The rectangle `face` draws, `(min, max)` in (x, z), within the matcher's tolerance at its
/// corner farthest from the origin; and that tolerance.
pub(super) fn rectangle(face: &Drawn) -> Result<([f32; 2], [f32; 2], f32)> {
    let not_one = |why: String| refuse(&face.name, format_args!("{why}: {DRAW}"));
    let ps = &face.positions;
    if ps.len() < 4 {
        return Err(not_one(format!("has {} corners", ps.len())));
    }
    if ps.iter().flatten().any(|c| !c.is_finite()) {
        return Err(not_one("has a corner that is not finite".to_string()));
    }
    let tol = tolerance(ps);
    let span = |axis: usize| {
        ps.iter()
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), p| {
                (l.min(p[axis]), h.max(p[axis]))
            })
    };
    let ((x0, x1), (z0, z1)) = (span(0), span(2));
    if !(x1 - x0 > tol && z1 - z0 > tol) {
        return Err(not_one("has no extent along x or z".to_string()));
    }
    let near = |a: f32, b: f32| (a - b).abs() <= tol;
    for p in ps {
        if !(near(p[0], x0) || near(p[0], x1) || near(p[2], z0) || near(p[2], z1)) {
            return Err(not_one(format!(
                "has corner {} inside its bounding rectangle",
                show_point(*p)
            )));
        }
    }
    for (p, q) in ps.iter().zip(ps.iter().cycle().skip(1)) {
        if !(near(p[0], q[0]) || near(p[2], q[2])) {
            return Err(not_one(format!(
                "has a side from {} to {} that runs along neither x nor z",
                show_point(*p),
                show_point(*q)
            )));
        }
    }
    for (x, z) in [(x0, z0), (x1, z0), (x1, z1), (x0, z1)] {
        if !ps.iter().any(|p| near(p[0], x) && near(p[2], z)) {
            return Err(not_one(format!("has no corner at x {x}, z {z}")));
        }
    }
    Ok(([x0, z0], [x1, z1], tol))
}
