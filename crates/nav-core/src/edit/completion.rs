//! Completing partly covered polygons with faces no polygon took (rule 2 of [`super`]): a
//! triangulated polygon with some corners moved has pieces with fewer than two unmoved corners,
//! which the first pass cannot place. Such a face joins the one partly covered polygon whose
//! pieces share an edge with it, round after round, so a fan with several moved corners fills
//! in from its matched pieces. The caller then checks each completed polygon as any other (its
//! outline, its unmoved corners in their places, its moves consistent).

use std::collections::HashMap;

/// A face that shares an edge with the pieces of two partly covered polygons, so either could
/// take it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Clash {
    /// The face (an index into the edited mesh's faces).
    pub face: u32,
    /// The polygons, ascending.
    pub polygons: [u32; 2],
}

/// How many triangles a face of `k` corners counts for in a triangulation: `k − 2`.
fn weight(corners: &[u32]) -> usize {
    corners.len().saturating_sub(2)
}

/// An edge as an unordered pair of welded vertices.
fn edge(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// The edges of a face, each pair of consecutive corners (the last closing on the first).
fn edges(corners: &[u32]) -> impl Iterator<Item = (u32, u32)> + '_ {
    corners
        .iter()
        .zip(corners.iter().cycle().skip(1))
        .map(|(&a, &b)| edge(a, b))
}

/// Gives faces that no polygon took (`assigned[f]` is `None`) to the partly covered polygons
/// whose pieces they share an edge with, until no such face is left; `sizes[p]` is polygon
/// `p`'s corner count, 0 for one that cannot take faces (not visible). Returns the polygons
/// that took faces, ascending, or the first face two partly covered polygons could take.
pub(super) fn complete(
    faces: &[Option<Vec<u32>>],
    sizes: &[usize],
    assigned: &mut [Option<u32>],
    pieces: &mut [Vec<u32>],
) -> Result<Vec<u32>, Clash> {
    // The unassigned faces by welded vertex, to find those at an edge.
    let mut at: HashMap<u32, Vec<u32>> = HashMap::new();
    for (f, corners) in faces.iter().enumerate() {
        let (Some(corners), None, Ok(f)) = (
            corners,
            assigned.get(f).copied().flatten(),
            u32::try_from(f),
        ) else {
            continue;
        };
        for &w in corners {
            at.entry(w).or_default().push(f);
        }
    }
    let mut completed: Vec<u32> = Vec::new();
    let corners_of = |f: u32| {
        faces
            .get(f as usize)
            .and_then(Option::as_deref)
            .unwrap_or(&[])
    };
    // Each round gives away at least one face, so there are at most as many rounds as faces.
    for _ in 0..faces.len() {
        let mut open_edges: HashMap<(u32, u32), Vec<u32>> = HashMap::new();
        for (p, mine) in pieces.iter().enumerate() {
            let (Some(&n), Ok(p)) = (sizes.get(p), u32::try_from(p)) else {
                continue;
            };
            let made: usize = mine.iter().map(|&f| weight(corners_of(f))).sum();
            if n < 3 || mine.is_empty() || made >= n - 2 {
                continue;
            }
            for &f in mine {
                for e in edges(corners_of(f)) {
                    let takers = open_edges.entry(e).or_default();
                    if !takers.contains(&p) {
                        takers.push(p);
                    }
                }
            }
        }
        // Each unassigned face at an open polygon's edge, with the open polygons it touches.
        let mut takes: HashMap<u32, Vec<u32>> = HashMap::new();
        for (&(a, b), takers) in &open_edges {
            for &f in at.get(&a).map_or(&[][..], Vec::as_slice) {
                let free = assigned.get(f as usize).is_some_and(Option::is_none);
                if !free || !edges(corners_of(f)).any(|e| e == (a, b)) {
                    continue;
                }
                let by = takes.entry(f).or_default();
                for &p in takers {
                    if !by.contains(&p) {
                        by.push(p);
                    }
                }
            }
        }
        if takes.is_empty() {
            break;
        }
        let mut order: Vec<(u32, Vec<u32>)> = takes.into_iter().collect();
        order.sort_unstable_by_key(|(f, _)| *f);
        for (f, mut by) in order {
            by.sort_unstable();
            match by.as_slice() {
                [p] => {
                    if let (Some(slot), Some(list)) =
                        (assigned.get_mut(f as usize), pieces.get_mut(*p as usize))
                    {
                        *slot = Some(*p);
                        list.push(f);
                        completed.push(*p);
                    }
                }
                [first, second, ..] => {
                    return Err(Clash {
                        face: f,
                        polygons: [*first, *second],
                    });
                }
                [] => {}
            }
        }
    }
    completed.sort_unstable();
    completed.dedup();
    Ok(completed)
}
