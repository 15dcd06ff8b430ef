//! Hand-written `Arbitrary` for the records whose bit fields and counts must agree, so that
//! fuzzing spends its time on models the writer accepts (bit fields within their widths, 3 or 4
//! sides per mesh, crossing data exactly when a neighbour needs it, one bucket per block, and
//! mostly no stored layout; when there is one, it describes the model).

use arbitrary::{Arbitrary, Result, Unstructured};

use crate::model::*;

fn bits<T: TryFrom<u32> + Default>(u: &mut Unstructured<'_>, width: u32) -> Result<T> {
    let v = u32::arbitrary(u)? & ((1u32 << width) - 1);
    Ok(T::try_from(v).unwrap_or_default())
}

fn small_vec<'a, T: Arbitrary<'a>, C: FromIterator<T>>(
    u: &mut Unstructured<'a>,
    max: usize,
) -> Result<C> {
    let n = u.int_in_range(0..=max)?;
    (0..n).map(|_| T::arbitrary(u)).collect()
}

impl<'a> Arbitrary<'a> for Nav2File {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let mut file = Nav2File {
            version: if u.ratio(15, 16)? {
                VERSION
            } else {
                u32::arbitrary(u)?
            },
            file_uid: FileUid::arbitrary(u)?,
            unknown_crossing_tile_link_related: u32::arbitrary(u)?,
            origin: Arbitrary::arbitrary(u)?,
            denominator: Arbitrary::arbitrary(u)?,
            weight_denominator: u16::arbitrary(u)?,
            feature_flags: u8::arbitrary(u)?,
            pre2014_unknown_index: u8::arbitrary(u)?,
            header_tail: Arbitrary::arbitrary(u)?,
            data_chunks: small_vec(u, 4)?,
            island_graphs: small_vec(u, 3)?,
            search_space: Arbitrary::arbitrary(u)?,
            connect_tile_info: if u.ratio(1, 8)? {
                Some(ConnectTileInfo::arbitrary(u)?)
            } else {
                None
            },
            stored: None,
        };
        if u.ratio(1, 16)? {
            file.stored = stored_layout(&file, u)?.map(Box::new);
        }
        Ok(file)
    }
}

/// A stored layout that describes `file` the way a file not written by the game would: the
/// game's layout with another FileSize or ChunkDescsDataSize (as Obj2Nav2 writes them) and a
/// tail of non-zero bytes after the last record. `None` when the result is the game's layout
/// (a file does not keep that) or the model cannot be written at all.
///
/// A layout that does not describe its model is one the writer replaces by the game's layout, and
/// reading that back gives `stored: None`; such models say nothing about the round trip, so they
/// are not made here (the edit tests cover them).
fn stored_layout(file: &Nav2File, u: &mut Unstructured<'_>) -> Result<Option<StoredLayout>> {
    let Ok(mut layout) = crate::model::layout::compute(file) else {
        return Ok(None);
    };
    if u.arbitrary()? {
        layout.file_size = u.arbitrary()?;
    }
    if u.arbitrary()? {
        layout.chunk_descs_data_size = u.arbitrary()?;
    }
    let tail: Vec<u8> = small_vec(u, 15)?;
    let tail: Vec<u8> = tail.into_iter().filter(|b| *b != 0).collect();
    if !tail.is_empty() {
        layout.residue.push(Residue {
            offset: layout.length,
            bytes: tail,
        });
        layout.length = layout.length.saturating_add(16);
    }
    let mut with = file.clone();
    with.stored = Some(Box::new(layout.clone()));
    Ok(crate::write::stored_bytes(&with, &layout).map(|_| layout))
}

impl<'a> Arbitrary<'a> for NavigationGraphNode {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(NavigationGraphNode {
            position: Arbitrary::arbitrary(u)?,
            segment_index: bits(u, 12)?,
            kind: bits(u, 2)?,
            reserved_flags: bits(u, 3)?,
            navmesh_index: u16::arbitrary(u)?,
            inside_links: small_vec(u, 8)?,
            crossing_segment_link: Arbitrary::arbitrary(u)?,
            crossing_data_chunk_link: Arbitrary::arbitrary(u)?,
            crossing_tile_link: Arbitrary::arbitrary(u)?,
        })
    }
}

impl<'a> Arbitrary<'a> for NavigationGraphEdge {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(NavigationGraphEdge {
            weight: u16::arbitrary(u)?,
            segment_index: bits(u, 12)?,
            kind: bits(u, 2)?,
            reserved: bits(u, 2)?,
            node_indices: Arbitrary::arbitrary(u)?,
        })
    }
}

impl<'a> Arbitrary<'a> for Mesh {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let k = if u.ratio(1, 4)? { 4 } else { 3 };
        let nn = if u.ratio(1, 4)? { 4 } else { 3 };
        let neighbors = sides(u, k, |u| Ok(NeighborNavmeshInfo(u16::arbitrary(u)?)))?;
        let positions = sides(u, k, u8::arbitrary)?;
        let navigation_graph_nodes = sides(u, nn, u8::arbitrary)?;
        let mut m = Mesh {
            segment_index: bits(u, 12)?,
            neighbors,
            positions,
            navigation_graph_nodes,
            crossing: None,
        };
        if m.needs_crossing() {
            m.crossing = Some(MeshCrossing {
                data_chunk_ids: sides(u, k, u16::arbitrary)?,
                tile_ids: sides(u, k, u16::arbitrary)?,
            });
        }
        Ok(m)
    }
}

impl<'a> Arbitrary<'a> for SegmentGraphNode {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(SegmentGraphNode {
            position: Arbitrary::arbitrary(u)?,
            unknown: bits(u, 4)?,
            island_graph_node_indices: Arbitrary::arbitrary(u)?,
            inside_links: small_vec(u, 6)?,
            crossing_data_chunk_links: small_vec(u, 3)?,
            crossing_tile_links: small_vec(u, 3)?,
        })
    }
}

impl<'a> Arbitrary<'a> for IslandGraph {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let nodes = small_vec(u, 8)?;
        let mut groups = [ConnectSideInfoGroup::default(); 4];
        let mut infos = Vec::new();
        for g in &mut groups {
            g.tile_id = u16::arbitrary(u)?;
            g.count = u.int_in_range(0..=4)?;
            for _ in 0..g.count {
                infos.push(ConnectSideInfo::arbitrary(u)?);
            }
        }
        Ok(IslandGraph {
            nodes,
            connect_side_info_groups: groups,
            connect_side_infos: infos,
        })
    }
}

impl<'a> Arbitrary<'a> for SearchSpace {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        let block_count = [
            u.int_in_range(0..=3)?,
            u.int_in_range(0..=2)?,
            u.int_in_range(0..=3)?,
        ];
        let n = block_count.iter().product::<u32>();
        Ok(SearchSpace {
            origin: Arbitrary::arbitrary(u)?,
            range_y: u16::arbitrary(u)?,
            block_count,
            block_size_xz: u32::arbitrary(u)?,
            block_size_y: u32::arbitrary(u)?,
            buckets: (0..n)
                .map(|_| Bucket::arbitrary(u))
                .collect::<Result<_>>()?,
        })
    }
}

impl<'a> Arbitrary<'a> for ConnectTileGroup {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ConnectTileGroup {
            name: u32::arbitrary(u)?,
            count: bits(u, 5)?,
            start_index: bits(u, 11)?,
        })
    }
}

impl<'a> Arbitrary<'a> for ConnectTileInfoEntry {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ConnectTileInfoEntry {
            data_chunk_id: u16::arbitrary(u)?,
            count: bits(u, 5)?,
            start_index: bits(u, 11)?,
        })
    }
}

impl<'a> Arbitrary<'a> for ConnectTileNode {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        Ok(ConnectTileNode {
            navigation_graph_node_index: u16::arbitrary(u)?,
            navmesh_index: bits(u, 14)?,
            navmesh_neighbor_index: bits(u, 2)?,
        })
    }
}

/// `len` (3 or 4) arbitrary items of a mesh's per-side list.
fn sides<'a, T: Copy + Default>(
    u: &mut Unstructured<'a>,
    len: usize,
    mut item: impl FnMut(&mut Unstructured<'a>) -> Result<T>,
) -> Result<Sides<T>> {
    let mut s = Sides::new();
    for _ in 0..len.min(MAX_SIDES) {
        // At most MAX_SIDES pushes, so each has room.
        let _ = s.try_push(item(u)?);
    }
    Ok(s)
}
