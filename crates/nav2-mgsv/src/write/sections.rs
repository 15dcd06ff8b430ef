//! The sections after the chunks: IslandGraphs, SearchSpace and ConnectTileInfo.

use super::*;

pub(super) fn island_graph(
    o: &mut Out<'_>,
    g: u64,
    ig: &IslandGraph,
    l: &IslandGraphLayout,
) -> Result<()> {
    let [size, nodes, link, low, seg, groups, infos] = l.offsets;
    if l.link_offsets.len() != ig.nodes.len() {
        return Err(shape(
            "IslandGraph",
            "stored link offsets do not match the nodes",
        ));
    }
    let count = len_u16(ig.nodes.len(), "NodeCount")?;
    o.put_bytes(
        g,
        &u16s(&[size, nodes, count, link, low, seg, groups, infos]).collect::<Vec<u8>>(),
        "header",
    )?;
    let mut recs = Vec::with_capacity(ig.nodes.len() * 14);
    let mut lows = Vec::with_capacity(ig.nodes.len() * 8);
    let mut counts = Vec::with_capacity(ig.nodes.len());
    // One link block at a time, in one buffer for all of them.
    let mut b = Vec::new();
    for (i, (n, &off)) in ig.nodes.iter().zip(&l.link_offsets).enumerate() {
        recs.extend(pos_bytes(&n.position));
        recs.extend(u16s(&[
            n.attributes,
            off,
            len_u16(
                n.crossing_tile_links.len(),
                format_args!("Nodes[{i}] CrossingTileLinkCount"),
            )?,
        ]));
        recs.push(len_u8(
            n.inside_links.len(),
            format_args!("Nodes[{i}] InsideLinkCount"),
        )?);
        recs.push(len_u8(
            n.crossing_data_chunk_links.len(),
            format_args!("Nodes[{i}] CrossingDataChunkLinkCount"),
        )?);
        b.clear();
        for c in &n.crossing_data_chunk_links {
            b.extend(c.data_chunk_uid.0.to_le_bytes());
            b.extend(u16s(&[c.weight, c.node_index]));
        }
        for c in &n.inside_links {
            b.extend(u16s(&[c.weight, c.node_index]));
        }
        for c in &n.crossing_tile_links {
            b.extend(c.0.to_le_bytes());
        }
        o.put_bytes(
            g + u64::from(link) + u64::from(off),
            &b,
            format_args!("Nodes[{i}] link block"),
        )?;
        let lg = &n.low_graph_node_link;
        lows.extend(lg.data_chunk_uid.0.to_le_bytes());
        lows.extend(u16s(&[
            lg.segment_graph_node_index,
            lg.navigation_graph_node_index,
        ]));
        counts.push(n.segment_count);
    }
    o.put_bytes(g + u64::from(nodes), &recs, "Nodes")?;
    o.put_bytes(g + u64::from(low), &lows, "LowGraphNodeLinks")?;
    let counts: Vec<u8> = u16s(&counts).collect();
    o.put_bytes(g + u64::from(seg), &counts, "SegmentCounts")?;
    let mut grp = Vec::with_capacity(24);
    let mut sum = 0usize;
    for (c, start) in ig
        .connect_side_info_groups
        .iter()
        .zip(l.group_start_indices)
    {
        grp.extend(u16s(&[c.tile_id, start, c.count]));
        sum += usize::from(c.count);
    }
    if sum != ig.connect_side_infos.len() {
        return Err(shape(
            "ConnectSideInfos",
            format!(
                "{} infos, but the ConnectSideInfoGroups count {sum}",
                ig.connect_side_infos.len()
            ),
        ));
    }
    o.put_bytes(g + u64::from(groups), &grp, "ConnectSideInfoGroups")?;
    let mut inf = Vec::with_capacity(sum * 4);
    for c in &ig.connect_side_infos {
        inf.extend(u16s(&[c.weight, c.node_index]));
    }
    o.put_bytes(g + u64::from(infos), &inf, "ConnectSideInfos")?;
    Ok(())
}

pub(super) fn search_space(
    o: &mut Out<'_>,
    s: u64,
    ss: &SearchSpace,
    l: &SearchSpaceLayout,
) -> Result<()> {
    let blocks = ss
        .block_count
        .iter()
        .try_fold(1u64, |a, c| a.checked_mul(u64::from(*c)));
    if blocks != Some(ss.buckets.len() as u64) || l.start_offsets.len() != ss.buckets.len() {
        return Err(shape(
            "buckets",
            format!(
                "{} buckets for {}×{}×{} blocks",
                ss.buckets.len(),
                ss.block_count[0],
                ss.block_count[1],
                ss.block_count[2]
            ),
        ));
    }
    let [descs, entries, self_size] = l.offsets;
    let mut h: Vec<u8> = words(&ss.origin.map(|f| f.0)).collect();
    h.extend(ss.range_y.to_le_bytes());
    h.extend([0u8; 2]);
    h.extend(words(&ss.block_count));
    h.extend(words(&[
        ss.block_size_xz,
        ss.block_size_y,
        descs,
        entries,
        self_size,
    ]));
    o.put_bytes(s, &h, "header")?;
    for (i, (b, &start)) in ss.buckets.iter().zip(&l.start_offsets).enumerate() {
        let desc_at = s + u64::from(descs) + 8 * i as u64;
        let desc = BucketDescRecord {
            start_offset: U32::new(start),
            count: U16::new(len_u16(
                b.entries.len(),
                format_args!("BucketDescs[{i}] Count"),
            )?),
            min_y: b.min_y,
            max_y: b.max_y,
        };
        // The entries' size, each SegmentCount checked on the way; then one slot for them all.
        let mut len = 0u64;
        for (k, en) in b.entries.iter().enumerate() {
            let _: u32 = nav_core::write::narrow(
                FORMAT,
                format_args!("buckets[{i}] entries[{k}] SegmentCount"),
                en.segment_indices.len(),
            )?;
            len = len.saturating_add(layout::bucket_entry_len(en));
        }
        let mut f = Fill {
            rest: o.slot(
                desc_at + u64::from(start),
                usize::try_from(len).unwrap_or(usize::MAX),
                format_args!("BucketDescs[{i}] entries"),
            )?,
        };
        for en in &b.entries {
            // Checked to fit above.
            #[allow(clippy::cast_possible_truncation)]
            let segment_count = en.segment_indices.len() as u32;
            f.put(&BucketEntryRecord {
                data_chunk_uid: U32::new(en.data_chunk_uid.0),
                segment_count: U32::new(segment_count),
            });
            for v in &en.segment_indices {
                f.put(&U16::new(*v));
            }
        }
        f.done();
        o.put(desc_at, &desc, format_args!("BucketDescs[{i}]"))?;
    }
    Ok(())
}

pub(super) fn connect_tile_info(
    o: &mut Out<'_>,
    c: u64,
    t: &ConnectTileInfo,
    l: &[u16; 3],
) -> Result<()> {
    let mut h: Vec<u8> = u16s(l).collect();
    h.extend(u16s(&[
        len_u16(t.groups.len(), "GroupCount")?,
        len_u16(t.infos.len(), "InfoCount")?,
        len_u16(t.nodes.len(), "NodeCount")?,
    ]));
    o.put_bytes(c, &h, "header")?;
    let mut g = Vec::new();
    for (i, x) in t.groups.iter().enumerate() {
        g.extend(x.name.to_le_bytes());
        let count = bits(u64::from(x.count), 5, format_args!("Groups[{i}] Count"))?;
        let start = bits(
            u64::from(x.start_index),
            11,
            format_args!("Groups[{i}] StartIndex"),
        )?;
        // 5 + 11 bits (both checked by `bits` above): the packed word fits 16 bits.
        #[allow(clippy::cast_possible_truncation)]
        let packed = (count | start << 5) as u16;
        g.extend(packed.to_le_bytes());
    }
    o.put_bytes(c + 2 * u64::from(l[0]), &g, "Groups")?;
    let mut f = Vec::new();
    for (i, x) in t.infos.iter().enumerate() {
        let count = bits(u64::from(x.count), 5, format_args!("Infos[{i}] Count"))?;
        let start = bits(
            u64::from(x.start_index),
            11,
            format_args!("Infos[{i}] StartIndex"),
        )?;
        // 5 + 11 bits (both checked by `bits` above): the packed word fits 16 bits.
        #[allow(clippy::cast_possible_truncation)]
        let packed = (count | start << 5) as u16;
        f.extend(u16s(&[x.data_chunk_id, packed]));
    }
    o.put_bytes(c + 2 * u64::from(l[1]), &f, "Infos")?;
    let mut n = Vec::new();
    for (i, x) in t.nodes.iter().enumerate() {
        let mi = bits(
            u64::from(x.navmesh_index),
            14,
            format_args!("Nodes[{i}] NavmeshIndex"),
        )?;
        let ni = bits(
            u64::from(x.navmesh_neighbor_index),
            2,
            format_args!("Nodes[{i}] NavmeshNeighborIndex"),
        )?;
        // 14 + 2 bits (both checked by `bits` above): the packed word fits 16 bits.
        #[allow(clippy::cast_possible_truncation)]
        let packed = (mi | ni << 14) as u16;
        n.extend(u16s(&[x.navigation_graph_node_index, packed]));
    }
    o.put_bytes(c + 2 * u64::from(l[2]), &n, "Nodes")?;
    Ok(())
}
