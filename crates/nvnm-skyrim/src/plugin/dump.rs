//! A text dump of a plugin model: the header, then the tree of groups and records, with the
//! subrecords of every navmesh record and the counts of its NVNM geometry.

use core::fmt::{self, Write};

use nav_core::Format;

use super::Signature;
use super::model::{Compression, Item, PluginFile, Record, RecordBody};

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
        RecordBody::Navmesh(n) => {
            match &n.compression {
                Compression::None => writeln!(out, " uncompressed")?,
                Compression::Zlib { level } => writeln!(out, " zlib level {level}")?,
                Compression::Kept { stream } => {
                    writeln!(out, " zlib stream kept ({} bytes)", stream.len())?
                }
            }
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
