//! A readable text dump of a model, for `navkit dump` and snapshot tests: the header fields,
//! then every chunk, graph and bucket with indices. Positions are shown stored and decoded.

use core::fmt::{self, Write};

use crate::model::*;

/// Writes the dump of `m` to `out`.
pub fn dump(m: &Nav2File, out: &mut dyn Write) -> fmt::Result {
    writeln!(out, "nav2-mgsv file")?;
    writeln!(out, "  Version: {}", m.version)?;
    writeln!(
        out,
        "  FileUid: {:#010x} (Index {}, TileId {})",
        m.file_uid.0,
        m.file_uid.index(),
        m.file_uid.tile_id()
    )?;
    writeln!(
        out,
        "  Unknown_CrossingTileLinkRelated: {}",
        m.unknown_crossing_tile_link_related
    )?;
    writeln!(
        out,
        "  Origin: [{}, {}, {}]",
        m.origin[0], m.origin[1], m.origin[2]
    )?;
    writeln!(out, "  Denominator: {:?}", m.denominator)?;
    writeln!(out, "  WeightDenominator: {}", m.weight_denominator)?;
    writeln!(out, "  FeatureFlags: {:#04x}", m.feature_flags)?;
    writeln!(out, "  Pre2014_UnknownIndex: {}", m.pre2014_unknown_index)?;
    let tail: Vec<String> = m.header_tail.iter().map(|b| format!("{b:02x}")).collect();
    writeln!(out, "  header tail: {}", tail.join(" "))?;
    writeln!(
        out,
        "  layout: {}",
        if m.stored.is_some() {
            "stored (differs from the game's layout)"
        } else {
            "the game's layout"
        }
    )?;
    for (i, dc) in m.data_chunks.iter().enumerate() {
        writeln!(
            out,
            "data_chunks[{i}] DataChunkUid {:#010x} (Index {}, TileId {})",
            dc.uid.0,
            dc.uid.index(),
            dc.uid.tile_id()
        )?;
        let ng = &dc.navigation_graph;
        writeln!(
            out,
            "  NavigationGraph: {} nodes, {} edges, {} attributes {:?}",
            ng.nodes.len(),
            ng.edges.len(),
            ng.attributes.len(),
            ng.attributes
        )?;
        for (k, n) in ng.nodes.iter().enumerate() {
            write!(
                out,
                "    node {k}: {} segment {} navmesh {} kind {}",
                pos(m, n.position),
                n.segment_index,
                n.navmesh_index,
                n.kind
            )?;
            if n.reserved_flags != 0 {
                write!(out, " reserved {:#x}", n.reserved_flags)?;
            }
            let inside: Vec<String> = n
                .inside_links
                .iter()
                .map(|l| format!("{}/e{}", l.node_index, l.edge_index))
                .collect();
            write!(out, " inside [{}]", inside.join(", "))?;
            if let Some(v) = n.crossing_segment_link {
                write!(out, " crossing-segment {v}")?;
            }
            if let Some(c) = n.crossing_data_chunk_link {
                write!(
                    out,
                    " crossing-data-chunk {}:{}",
                    c.data_chunk_id, c.node_index
                )?;
            }
            if let Some(c) = n.crossing_tile_link {
                write!(
                    out,
                    " crossing-tile {}:{}:{:#06x}",
                    c.tile_id, c.data_chunk_id, c.node_index
                )?;
            }
            writeln!(out)?;
        }
        for (k, e) in ng.edges.iter().enumerate() {
            writeln!(
                out,
                "    edge {k}: nodes {:?} segment {} kind {} weight {} ({:.3})",
                e.node_indices,
                e.segment_index,
                e.kind,
                e.weight,
                m.decode_weight(e.weight)
            )?;
        }
        let nm = &dc.navmesh_chunk;
        writeln!(
            out,
            "  NavmeshChunk: {} positions, {} meshes",
            nm.positions.len(),
            nm.meshes.len()
        )?;
        for (k, p) in nm.positions.iter().enumerate() {
            writeln!(out, "    position {k}: {}", pos(m, *p))?;
        }
        for (k, mesh) in nm.meshes.iter().enumerate() {
            let nb: Vec<String> = mesh
                .neighbors
                .iter()
                .map(|n| {
                    if n.is_none() {
                        "-".to_string()
                    } else {
                        format!("{}:{:?}", n.navmesh_index(), n.kind())
                    }
                })
                .collect();
            write!(
                out,
                "    mesh {k}: segment {} positions {:?} nodes {:?} neighbors [{}]",
                mesh.segment_index,
                mesh.positions,
                mesh.navigation_graph_nodes,
                nb.join(", ")
            )?;
            if let Some(c) = &mesh.crossing {
                write!(
                    out,
                    " data chunks {:?} tiles {:?}",
                    c.data_chunk_ids, c.tile_ids
                )?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "  SegmentChunk: {} segments",
            dc.segment_chunk.segments.len()
        )?;
        for (k, s) in dc.segment_chunk.segments.iter().enumerate() {
            writeln!(
                out,
                "    segment {k}: min {:?} max {:?} positions {} meshes {} edges {} nodes {}",
                s.min,
                s.max,
                s.navmesh_position_count,
                s.navmesh_count,
                s.navigation_graph_edge_count,
                s.navigation_graph_node_count
            )?;
        }
        writeln!(
            out,
            "  SegmentGraph: {} nodes",
            dc.segment_graph.nodes.len()
        )?;
        for (k, n) in dc.segment_graph.nodes.iter().enumerate() {
            writeln!(
                out,
                "    node {k}: {} islands {:?} unknown {}",
                pos(m, n.position),
                n.island_graph_node_indices,
                n.unknown
            )?;
            for l in &n.inside_links {
                writeln!(
                    out,
                    "      inside -> {} weight {} link {} via {:?}",
                    l.node_index, l.weight, l.link_index, l.navigation_graph_nodes
                )?;
            }
            for l in &n.crossing_data_chunk_links {
                writeln!(
                    out,
                    "      crossing-data-chunk -> {}:{} weight {} link {} via {:?}",
                    l.data_chunk_id, l.node_index, l.weight, l.link_index, l.navigation_graph_nodes
                )?;
            }
            for l in &n.crossing_tile_links {
                writeln!(
                    out,
                    "      crossing-tile -> {}:{}:{:#06x} weight {} link {} via {:?}",
                    l.tile_id,
                    l.data_chunk_id,
                    l.node_index,
                    l.weight,
                    l.link_index,
                    l.navigation_graph_nodes
                )?;
            }
        }
    }
    for (i, g) in m.island_graphs.iter().enumerate() {
        writeln!(out, "IslandGraphs[{i}]: {} nodes", g.nodes.len())?;
        for (k, n) in g.nodes.iter().enumerate() {
            let ct: Vec<String> = n
                .crossing_tile_links
                .iter()
                .map(|c| format!("{}:{}", c.connect_side_index(), c.connect_side_info_index()))
                .collect();
            writeln!(
                out,
                "  node {k}: {} attributes {} inside {:?} crossing-data-chunk {:?} crossing-tile [{}] low {} segments {}",
                pos(m, n.position),
                n.attributes,
                n.inside_links
                    .iter()
                    .map(|l| (l.node_index, l.weight))
                    .collect::<Vec<_>>(),
                n.crossing_data_chunk_links
                    .iter()
                    .map(|l| (l.data_chunk_uid.index(), l.node_index, l.weight))
                    .collect::<Vec<_>>(),
                ct.join(", "),
                format_args!(
                    "{}:{}:{}",
                    n.low_graph_node_link.data_chunk_uid.index(),
                    n.low_graph_node_link.segment_graph_node_index,
                    n.low_graph_node_link.navigation_graph_node_index
                ),
                n.segment_count
            )?;
        }
        for (k, c) in g.connect_side_info_groups.iter().enumerate() {
            writeln!(
                out,
                "  ConnectSideInfoGroup {k}: TileId {} count {}",
                c.tile_id, c.count
            )?;
        }
        for (k, c) in g.connect_side_infos.iter().enumerate() {
            writeln!(
                out,
                "  ConnectSideInfo {k}: node {} weight {}",
                c.node_index, c.weight
            )?;
        }
    }
    if let Some(s) = &m.search_space {
        writeln!(
            out,
            "SearchSpace: origin [{}, {}, {}] RangeY {} blocks {:?} BlockSizeXZ {} BlockSizeY {}",
            s.origin[0],
            s.origin[1],
            s.origin[2],
            s.range_y,
            s.block_count,
            s.block_size_xz,
            s.block_size_y
        )?;
        for (k, b) in s.buckets.iter().enumerate() {
            let e: Vec<String> = b
                .entries
                .iter()
                .map(|e| format!("{}:{:?}", e.data_chunk_uid.index(), e.segment_indices))
                .collect();
            writeln!(
                out,
                "  bucket {k}: y {}..{} [{}]",
                b.min_y,
                b.max_y,
                e.join(", ")
            )?;
        }
    }
    if let Some(c) = &m.connect_tile_info {
        writeln!(
            out,
            "ConnectTileInfo: {} groups, {} infos, {} nodes",
            c.groups.len(),
            c.infos.len(),
            c.nodes.len()
        )?;
        for (k, g) in c.groups.iter().enumerate() {
            writeln!(
                out,
                "  group {k}: name {:#010x} start {} count {}",
                g.name, g.start_index, g.count
            )?;
        }
        for (k, g) in c.infos.iter().enumerate() {
            writeln!(
                out,
                "  info {k}: data chunk {} start {} count {}",
                g.data_chunk_id, g.start_index, g.count
            )?;
        }
        for (k, g) in c.nodes.iter().enumerate() {
            writeln!(
                out,
                "  node {k}: navigation graph node {} navmesh {} side {}",
                g.navigation_graph_node_index, g.navmesh_index, g.navmesh_neighbor_index
            )?;
        }
    }
    Ok(())
}

fn pos(m: &Nav2File, p: Position) -> String {
    let w = m.decode_position(p);
    format!("{p:?} = ({:.3}, {:.3}, {:.3})", w[0], w[1], w[2])
}
