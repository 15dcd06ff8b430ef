//! A text dump of a plugin model: the header, then the tree of groups and records, with the
//! subrecords of every navmesh record and the counts of its NVNM geometry, and the navmesh info
//! map (`NAVI`) field by field.

use core::fmt::{self, Write};

use nav_core::Format;

use super::Resolved;
use super::Signature;
use super::model::{Compression, Item, PluginFile, Record, RecordBody};
use super::navi::{NaviBody, NaviField, NavmeshInfo, PreferredPathing, sync::parent_text};

fn record(r: &Record, indent: usize, out: &mut dyn Write) -> fmt::Result {
    let pad = "  ".repeat(indent);
    write!(
        out,
        "{pad}{} {:08X} flags {:#010x} form version {} vc {:#06x}/{:#06x}/{:#06x}",
        r.signature,
        r.form_id,
        r.flags,
        r.form_version,
        r.timestamp,
        r.version_control,
        r.version_control_2
    )?;
    match &r.body {
        RecordBody::Raw(d) => writeln!(out, " data {} bytes", d.len()),
        RecordBody::NavigationInfo(n) => navi(n, &pad, out),
        RecordBody::Navmesh(n) => {
            compression(&n.compression, out)?;
            for s in &n.subrecords {
                write!(out, "{pad}  {} {} bytes", s.signature, s.data.len())?;
                if let Some(short) = s.large {
                    write!(out, " (XXXX form, size field {short})")?;
                }
                if &s.signature.0 == b"NVNM" {
                    match crate::nvnm::Nvnm.read(&s.data) {
                        Ok(m) => write!(
                            out,
                            ": version {}, {} vertices, {} triangles, {} edge links, {} door \
                             triangles, grid divisor {}",
                            m.version,
                            m.vertices.len(),
                            m.triangles.len(),
                            m.edge_links.len(),
                            m.door_triangles.len(),
                            m.grid.divisor
                        )?,
                        Err(e) => write!(out, ": {e}")?,
                    }
                } else if s.data.len() <= 64 {
                    write!(out, " {:02x?}", s.data)?;
                }
                writeln!(out)?;
            }
            Ok(())
        }
    }
}

fn compression(c: &Compression, out: &mut dyn Write) -> fmt::Result {
    match c.resolve() {
        Resolved::None => writeln!(out, " uncompressed"),
        Resolved::Level(level) => writeln!(out, " zlib level {level}"),
        Resolved::Kept(stream) => writeln!(out, " zlib stream kept ({} bytes)", stream.len()),
    }
}

fn ids(list: &[u32]) -> String {
    let v: Vec<String> = list.iter().map(|id| format!("{id:08X}")).collect();
    v.join(" ")
}

fn xyz(v: &[nav_core::RawF32; 3]) -> String {
    format!("({}, {}, {})", v[0], v[1], v[2])
}

fn navmesh_info(n: &NavmeshInfo, pad: &str, out: &mut dyn Write) -> fmt::Result {
    writeln!(
        out,
        "{} flags {:#04x} centre {} unknown {} {} crc {:#010x}",
        format_args!("{:08X}", n.navmesh),
        n.flags,
        xyz(&n.centre),
        n.unknown,
        parent_text(&n.parent),
        n.pathing_cell_crc
    )?;
    if !n.edge_links.is_empty() {
        writeln!(out, "{pad}    edge links {}", ids(&n.edge_links))?;
    }
    if !n.preferred_edge_links.is_empty() {
        writeln!(
            out,
            "{pad}    preferred edge links {}",
            ids(&n.preferred_edge_links)
        )?;
    }
    if !n.doors.is_empty() {
        let d: Vec<String> = n
            .doors
            .iter()
            .map(|d| format!("{:08X}:{:08X}", d.door_type, d.door))
            .collect();
        writeln!(out, "{pad}    doors (type:door) {}", d.join(" "))?;
    }
    if let Some(i) = &n.island {
        writeln!(
            out,
            "{pad}    island (byte {}) bounds {} to {}, {} triangles, {} vertices",
            i.marker,
            xyz(&i.min),
            xyz(&i.max),
            i.triangles.len(),
            i.vertices.len()
        )?;
        for t in &i.triangles {
            writeln!(out, "{pad}      triangle {} {} {}", t[0], t[1], t[2])?;
        }
        for v in &i.vertices {
            writeln!(out, "{pad}      vertex {}", xyz(v))?;
        }
    }
    if !n.trailing.is_empty() {
        writeln!(
            out,
            "{pad}    {} trailing bytes {:02x?}",
            n.trailing.len(),
            n.trailing
        )?;
    }
    Ok(())
}

fn pathing(p: &PreferredPathing, pad: &str, out: &mut dyn Write) -> fmt::Result {
    writeln!(
        out,
        "{} paths, {} road-marker nodes",
        p.paths.len(),
        p.nodes.len()
    )?;
    let n = p.nodes.len();
    for (k, path) in p.paths.iter().enumerate() {
        write!(out, "{pad}    path {k}")?;
        if let (Some(row), Some(col)) = (k.checked_div(n), k.checked_rem(n)) {
            write!(out, " (node {row} to node {col})")?;
        }
        match (path.first(), path.last()) {
            (Some(a), Some(b)) => writeln!(out, ": {} navmeshes, {a:08X} .. {b:08X}", path.len())?,
            _ => writeln!(out, ": empty")?,
        }
    }
    for node in &p.nodes {
        writeln!(
            out,
            "{pad}    node {:08X} index {}",
            node.navmesh, node.index
        )?;
    }
    if !p.trailing.is_empty() {
        writeln!(out, "{pad}    {} trailing bytes", p.trailing.len())?;
    }
    Ok(())
}

fn navi(n: &NaviBody, pad: &str, out: &mut dyn Write) -> fmt::Result {
    compression(&n.compression, out)?;
    let mut nvmi = 0usize;
    for s in &n.subrecords {
        write!(out, "{pad}  {}", s.field.signature())?;
        if let Some(short) = s.large {
            write!(out, " (XXXX form, size field {short})")?;
        }
        match &s.field {
            NaviField::Version(v) => writeln!(out, " version {v}")?,
            NaviField::NavmeshInfo(info) => {
                write!(out, "[{nvmi}] ")?;
                nvmi += 1;
                navmesh_info(info, pad, out)?;
            }
            NaviField::PreferredPathing(p) => {
                write!(out, " ")?;
                pathing(p, pad, out)?;
            }
            NaviField::DeletedNavmeshes(list) => writeln!(out, " {}", ids(list))?,
            NaviField::Other { data, .. } => {
                write!(out, " {} bytes", data.len())?;
                if data.len() <= 64 {
                    write!(out, " {data:02x?}")?;
                }
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

fn items(list: &[Item], indent: usize, out: &mut dyn Write) -> fmt::Result {
    for item in list {
        match item {
            Item::Record(r) => record(r, indent, out)?,
            Item::Group(g) => {
                // A top group (type 0) is labelled with the record type it holds.
                let label = if g.group_type == 0 {
                    Signature(g.label.to_le_bytes()).to_string()
                } else {
                    format!("{:#010x}", g.label)
                };
                writeln!(
                    out,
                    "{}GRUP type {} label {label} vc {:#06x}/{:#06x} unknown {:#010x} ({} items)",
                    "  ".repeat(indent),
                    g.group_type,
                    g.timestamp,
                    g.version_control,
                    g.unknown,
                    g.items.len()
                )?;
                items(&g.items, indent + 1, out)?;
            }
        }
    }
    Ok(())
}

/// Writes the dump of `m` to `out`.
pub fn dump(m: &PluginFile, out: &mut dyn Write) -> fmt::Result {
    record(&m.header, 0, out)?;
    items(&m.items, 0, out)
}
