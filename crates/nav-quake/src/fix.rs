//! Making a hand-edited file consistent again (`navkit fix`).
//!
//! Nodes, links, traversals and edicts name each other by index, so an edit that removes a node
//! leaves links whose target is past the node list, and dropping those links moves every later
//! link, which the nodes' link ranges, the edicts and nothing else point at. [`fix`] drops the
//! dangling links and re-packs everything that indexes the link list.

use crate::model::{Link, NavFile};

/// Drops the links whose target node does not exist (and the traversals only they used, and the
/// edicts that gated them), re-packs the node link ranges over what is left, and returns one line
/// per change (`links[412] (node 37): dropped the link to node 210, which does not exist (210
/// nodes)`).
///
/// What each error of [`validate`](crate::validate()) that names a missing record becomes:
///
/// - link target past the nodes: the link is dropped. A traversal that only dropped links used is
///   dropped too, and the traversal indices after it move down.
/// - node link range past the links: the range is cut at the end of the link list.
/// - traversal index past the traversals: set to none (`0xFFFF`); the link stays.
/// - edict link past the links, or an edict whose link was dropped: the edict is dropped.
///
/// Each node's `first_link` and `num_links` then cover the same surviving links as before, now
/// at their new places: a link's new index is the number of links kept before it, so the game's
/// packing (each node's links right after the previous node's) is kept.
///
/// Links that no node's range covers (the links of a node removed from the end of the list) are
/// left in place: `validate` does not call them an error. Nodes are named by index, so after a
/// node is removed from the middle of the list the links to the nodes after it name the next node
/// along; no check can tell. More than 65,536 nodes or links is left to people. A file in which
/// `validate` finds none of these errors is left exactly as it is and the list is empty.
pub fn fix(file: &mut NavFile) -> Vec<String> {
    let (n, l, t) = (file.nodes.len(), file.links.len(), file.traversals.len());
    let keep: Vec<bool> = file
        .links
        .iter()
        .map(|link| usize::from(link.target) < n)
        .collect();
    // new_index[j]: the links kept before link j; new_index[l]: all links kept.
    let mut new_index = Vec::with_capacity(l + 1);
    let mut kept = 0usize;
    for k in &keep {
        new_index.push(kept);
        kept += usize::from(*k);
    }
    new_index.push(kept);
    let clip = |at: usize| at.min(l);
    let ranges_overrun = file
        .nodes
        .iter()
        .any(|node| usize::from(node.first_link) + usize::from(node.num_links) > l);
    let bad_traversal = file
        .links
        .iter()
        .zip(&keep)
        .any(|(link, k)| *k && link.traversal().is_some_and(|tr| usize::from(tr) >= t));
    let bad_edict = file.edicts.iter().any(|e| usize::from(e.link) >= l);
    if kept == l && !ranges_overrun && !bad_traversal && !bad_edict {
        return Vec::new();
    }

    let mut changes = Vec::new();
    let owners = link_owners(file);
    let of_node = |j: usize| match owners.get(j).copied().flatten() {
        Some(i) => format!("links[{j}] (node {i})"),
        None => format!("links[{j}]"),
    };

    // Traversals: which ones kept links still use, and which ones only dropped links used.
    let mut used_by_kept = vec![false; t];
    let mut used_by_dropped = vec![false; t];
    for (link, k) in file.links.iter().zip(&keep) {
        if let Some(slot) = link.traversal().and_then(|tr| {
            if *k {
                used_by_kept.get_mut(usize::from(tr))
            } else {
                used_by_dropped.get_mut(usize::from(tr))
            }
        }) {
            *slot = true;
        }
    }
    let drop_traversal: Vec<bool> = used_by_dropped
        .iter()
        .zip(&used_by_kept)
        .map(|(d, k)| *d && !*k)
        .collect();

    for (j, (link, k)) in file.links.iter().zip(&keep).enumerate() {
        if !*k {
            changes.push(format!(
                "{}: dropped the link to node {}, which does not exist ({n} nodes)",
                of_node(j),
                link.target
            ));
        }
    }
    for (k, dropped) in drop_traversal.iter().enumerate() {
        if *dropped {
            changes.push(format!(
                "traversals[{k}]: dropped: only links to missing nodes used it"
            ));
        }
    }
    // The traversal index each kept traversal moves to.
    let mut new_traversal = Vec::with_capacity(t);
    let mut kept_traversals = 0usize;
    for dropped in &drop_traversal {
        new_traversal.push(kept_traversals);
        kept_traversals += usize::from(!*dropped);
    }
    for (j, (link, k)) in file.links.iter_mut().zip(&keep).enumerate() {
        let Some(tr) = link.traversal() else {
            continue;
        };
        match new_traversal.get(usize::from(tr)) {
            // A kept link only uses kept traversals; indices only move down, so they fit.
            Some(to) => link.traversal = u16::try_from(*to).unwrap_or(Link::NO_TRAVERSAL),
            None if *k => {
                changes.push(format!(
                    "{}: traversal {tr:#06x} is past the {t} traversals; set to none",
                    of_node(j)
                ));
                link.traversal = Link::NO_TRAVERSAL;
            }
            None => {}
        }
    }

    // Edicts gate one link each: they follow it, or go with it.
    let mut edicts = Vec::with_capacity(file.edicts.len());
    for (k, mut e) in std::mem::take(&mut file.edicts).into_iter().enumerate() {
        let j = usize::from(e.link);
        match keep.get(j) {
            None => changes.push(format!(
                "edicts[{k}]: dropped: link {j} is past the {l} links"
            )),
            Some(false) => changes.push(format!(
                "edicts[{k}]: dropped: it gated {}, which was dropped",
                of_node(j)
            )),
            Some(true) => {
                e.link = u16::try_from(new_index[j]).unwrap_or(e.link);
                edicts.push(e);
            }
        }
    }
    file.edicts = edicts;

    let mut moved = 0usize;
    for (i, node) in file.nodes.iter_mut().enumerate() {
        let first = usize::from(node.first_link);
        let end = first + usize::from(node.num_links);
        if end > l {
            changes.push(format!(
                "nodes[{i}]: links {first}..{end} ran past the {l} links; cut to {}..{l}",
                clip(first)
            ));
        }
        let (new_first, new_end) = (new_index[clip(first)], new_index[clip(end)]);
        // Both only move down from values that fit in u16.
        let (Ok(new_first), Ok(new_num)) = (
            u16::try_from(new_first),
            u16::try_from(new_end - new_index[clip(first)]),
        ) else {
            continue;
        };
        if (new_first, new_num) != (node.first_link, node.num_links) {
            moved += 1;
            node.first_link = new_first;
            node.num_links = new_num;
        }
    }
    let dropped = l - kept;
    if moved > 0 && dropped > 0 {
        changes.push(format!(
            "nodes: re-packed the link ranges of {moved} nodes over the {kept} links left"
        ));
    }
    let mut j = 0;
    file.links.retain(|_| {
        let k = keep.get(j).copied().unwrap_or(true);
        j += 1;
        k
    });
    let mut k = 0;
    file.traversals.retain(|_| {
        let d = drop_traversal.get(k).copied().unwrap_or(false);
        k += 1;
        !d
    });
    changes
}

/// For each link, the node whose range covers it (the one whose range starts first, the lower
/// node index on a tie), or `None` when no node's range covers it. In the game's files the ranges
/// are packed one after another, and this is simply the node the link leaves from.
fn link_owners(file: &NavFile) -> Vec<Option<usize>> {
    let l = file.links.len();
    let mut owners = vec![None; l];
    let mut ranges: Vec<(usize, usize, usize)> = file
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let first = usize::from(node.first_link);
            (first, first + usize::from(node.num_links), i)
        })
        .collect();
    ranges.sort_unstable();
    // Links before `covered` already have an owner: each link is visited once.
    let mut covered = 0usize;
    for (first, end, i) in ranges {
        let end = end.min(l);
        for slot in owners.iter_mut().take(end).skip(first.max(covered)) {
            *slot = Some(i);
        }
        covered = covered.max(end);
    }
    owners
}
