//! Export of [`Geometry`] to Wavefront OBJ and glTF 2.0 binary (`.glb`).
//!
//! Both use the Y-up, right-handed axes those formats expect (a Z-up engine's `(x, y, z)` becomes
//! `(x, z, -y)`), so the navmesh lands where the level does when both are imported into Blender.
//!
//! - **OBJ**: one object; faces as stored (n-gons, not fanned), in polygon order (the file's record
//!   order), over the vertices shared as the file shares them, with a group (`g`) named after the
//!   kind wherever the kind changes (Blender's default import keeps one object: it does not split
//!   by group); graph nodes as extra vertices, and links as line elements (`l`) in one group per
//!   link kind. This is what `navkit apply` reads back best.
//! - **glTF**: one mesh, one primitive per kind (triangles for polygons, fanned from the first
//!   corner; lines for links; points for nodes), each with a material of the kind's colour and the
//!   kind's name in `extras`.

use std::fmt::Write as _;

use nav_core::geometry::Geometry;
use serde_json::json;

use crate::palette;

/// The geometry as Wavefront OBJ text. `source` names the file it came from, for the header.
pub fn to_obj(g: &Geometry, source: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# navkit export of {source}");
    let _ = writeln!(
        out,
        "# {} vertices, {} polygons, {} graph nodes, {} graph links; Y up",
        g.vertices.len(),
        g.polygons.len(),
        g.nodes.len(),
        g.links.len()
    );
    let _ = writeln!(out, "o navmesh");
    for v in &g.vertices {
        let [x, y, z] = g.y_up(*v);
        let _ = writeln!(out, "v {x} {y} {z}");
    }
    for n in &g.nodes {
        let [x, y, z] = g.y_up(n.position);
        let _ = writeln!(out, "v {x} {y} {z}");
    }
    // Faces in polygon (record) order, over the shared vertices, a group line wherever the
    // kind changes; OBJ indices are 1-based.
    let mut group: Option<u16> = None;
    for p in &g.polygons {
        if group != Some(p.kind) {
            let _ = writeln!(out, "g {}", group_name(g.kind_name(p.kind)));
            group = Some(p.kind);
        }
        out.push('f');
        for v in &p.vertices {
            let _ = write!(out, " {}", u64::from(*v) + 1);
        }
        out.push('\n');
    }
    let base = g.vertices.len() as u64 + 1;
    for (k, name) in g.kinds.iter().enumerate() {
        let mut links = g
            .links
            .iter()
            .filter(|l| usize::from(l.kind) == k)
            .peekable();
        if links.peek().is_none() {
            continue;
        }
        let _ = writeln!(out, "g links_{}", group_name(name));
        for l in links {
            let _ = writeln!(
                out,
                "l {} {}",
                base + u64::from(l.from),
                base + u64::from(l.to)
            );
        }
    }
    out
}

fn group_name(kind: &str) -> String {
    kind.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Appends little-endian f32s to the buffer.
fn put_f32s(buf: &mut Vec<u8>, values: &[f32]) {
    for v in values {
        buf.extend_from_slice(&v.to_le_bytes());
    }
}

/// Index runs and what they draw, before they become accessors.
struct Primitive {
    mode: u32,
    kind: u16,
    what: &'static str,
    indices: Vec<u32>,
}

/// The geometry as a glTF 2.0 binary (`.glb`).
pub fn to_glb(g: &Geometry, source: &str) -> Result<Vec<u8>, String> {
    // Positions: the polygon vertices, then the graph nodes.
    let positions: Vec<[f32; 3]> = g
        .vertices
        .iter()
        .map(|v| g.y_up(*v))
        .chain(g.nodes.iter().map(|n| g.y_up(n.position)))
        .map(|p| p.map(|c| if c.is_finite() { c } else { 0.0 }))
        .collect();
    let node_base = u32::try_from(g.vertices.len()).map_err(|_| "too many vertices for glTF")?;
    let mut prims: Vec<Primitive> = Vec::new();
    for k in 0..g.kinds.len() {
        let kind = u16::try_from(k).map_err(|_| "too many kinds")?;
        let mut tris = Vec::new();
        for p in g.polygons.iter().filter(|p| p.kind == kind) {
            for i in 1..p.vertices.len().saturating_sub(1) {
                tris.extend_from_slice(&[p.vertices[0], p.vertices[i], p.vertices[i + 1]]);
            }
        }
        if !tris.is_empty() {
            prims.push(Primitive {
                mode: 4,
                kind,
                what: "polygons",
                indices: tris,
            });
        }
        let lines: Vec<u32> = g
            .links
            .iter()
            .filter(|l| l.kind == kind)
            .flat_map(|l| [node_base + l.from, node_base + l.to])
            .collect();
        if !lines.is_empty() {
            prims.push(Primitive {
                mode: 1,
                kind,
                what: "links",
                indices: lines,
            });
        }
        let points: Vec<u32> = g
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.kind == kind)
            .map(|(i, _)| node_base + u32::try_from(i).unwrap_or(0))
            .collect();
        if !points.is_empty() {
            prims.push(Primitive {
                mode: 0,
                kind,
                what: "nodes",
                indices: points,
            });
        }
    }

    let mut bin = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    // Accessor 0: positions, with the bounds glTF requires.
    let (mut min, mut max) = ([f32::MAX; 3], [f32::MIN; 3]);
    for p in &positions {
        for i in 0..3 {
            min[i] = min[i].min(p[i]);
            max[i] = max[i].max(p[i]);
        }
    }
    if positions.is_empty() {
        (min, max) = ([0.0; 3], [0.0; 3]);
    }
    put_f32s(&mut bin, &positions.concat());
    views.push(json!({ "buffer": 0, "byteOffset": 0, "byteLength": bin.len(), "target": 34962 }));
    accessors.push(json!({
        "bufferView": 0, "componentType": 5126, "count": positions.len(), "type": "VEC3",
        "min": min, "max": max,
    }));
    let mut primitives = Vec::new();
    let mut materials = Vec::new();
    for (i, p) in prims.iter().enumerate() {
        let offset = bin.len();
        for ix in &p.indices {
            bin.extend_from_slice(&ix.to_le_bytes());
        }
        views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": p.indices.len() * 4, "target": 34963 }));
        accessors.push(json!({ "bufferView": i + 1, "componentType": 5125, "count": p.indices.len(), "type": "SCALAR" }));
        let name = g.kind_name(p.kind);
        let [r, gr, b] = palette::rgb(p.kind);
        materials.push(json!({
            "name": format!("{} {name}", p.what),
            "pbrMetallicRoughness": {
                "baseColorFactor": [f32::from(r) / 255.0, f32::from(gr) / 255.0, f32::from(b) / 255.0, 1.0],
                "metallicFactor": 0.0,
                "roughnessFactor": 1.0,
            },
            "doubleSided": true,
            "extras": { "kind": name },
        }));
        primitives.push(json!({
            "attributes": { "POSITION": 0 },
            "indices": i + 1,
            "mode": p.mode,
            "material": i,
            "extras": { "kind": name, "elements": p.what },
        }));
    }
    let mut doc = json!({
        "asset": { "version": "2.0", "generator": concat!("navkit ", env!("CARGO_PKG_VERSION")) },
        "scene": 0,
        "scenes": [{ "nodes": [0] }],
        "nodes": [{ "mesh": 0, "name": "navmesh", "extras": { "source": source } }],
        "meshes": [{ "name": "navmesh", "primitives": primitives }],
        "materials": materials,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{ "byteLength": bin.len() }],
    });
    if primitives_empty(&doc) {
        // A mesh needs at least one primitive: an empty navmesh exports as a scene without one.
        doc["scenes"] = json!([{ "nodes": [] }]);
        if let Some(obj) = doc.as_object_mut() {
            obj.remove("nodes");
            obj.remove("meshes");
        }
    }
    while bin.len() % 4 != 0 {
        bin.push(0);
    }
    let json_text = serde_json::to_vec(&doc).map_err(|e| e.to_string())?;
    let glb = gltf::binary::Glb {
        header: gltf::binary::Header {
            magic: *b"glTF",
            version: 2,
            length: 0,
        },
        json: std::borrow::Cow::Owned(json_text),
        bin: if bin.is_empty() {
            None
        } else {
            Some(std::borrow::Cow::Owned(bin))
        },
    };
    glb.to_vec().map_err(|e| format!("glTF: {e}"))
}

fn primitives_empty(doc: &serde_json::Value) -> bool {
    doc["meshes"][0]["primitives"]
        .as_array()
        .is_none_or(|p| p.is_empty())
}
