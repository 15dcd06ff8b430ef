//! Reading the triangle mesh `navkit build` turns into a navmesh: Wavefront OBJ (with tobj) and
//! glTF 2.0 (`.gltf` with its buffers, or `.glb`, with the gltf crate).
//!
//! Both formats are Y-up and right-handed by their own convention, and [`crate::export`] writes
//! them so. [`read_mesh`] reads a file in a stated axis convention ([`UpAxis::Y`] unless the user
//! says otherwise) and turns it into the target format's axes with
//! [`UpAxis::from_y_up`], the exact inverse of what export does: a navmesh exported and read back
//! has every vertex at the same bits.
//!
//! What is read, from either format: every triangle (polygons are fanned from their first corner;
//! glTF strips and fans are unrolled); lines and points (graph links and nodes in navkit's own
//! exports) are left out. Corners at bit-identical positions become one vertex, so that faces
//! split into groups or primitives (one per attribute kind in navkit's exports) are joined again;
//! vertices no triangle uses are dropped. glTF node transforms are applied (in `f64`, rounded
//! once to `f32`); a node without one keeps its positions' bits.

use std::collections::HashMap;
use std::path::Path;

use nav_core::edit::EditedMesh;
use nav_core::geometry::{TriangleMesh, UpAxis};

use crate::registry::AnyFormat;

/// The mesh formats [`read_mesh`] knows, by file name ending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeshFile {
    /// Wavefront OBJ (`.obj`).
    Obj,
    /// glTF 2.0, JSON (`.gltf`) or binary (`.glb`).
    Gltf,
}

impl MeshFile {
    /// The mesh format of a path, from its ending.
    pub fn of(path: &Path) -> Option<MeshFile> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "obj" => Some(MeshFile::Obj),
            "gltf" | "glb" => Some(MeshFile::Gltf),
            _ => None,
        }
    }
}

/// Collects triangles, joining corners at bit-identical positions.
#[derive(Default)]
struct Welder {
    mesh: TriangleMesh,
    index: HashMap<[u32; 3], u32>,
}

impl Welder {
    fn vertex(&mut self, p: [f32; 3]) -> Result<u32, String> {
        let key = p.map(f32::to_bits);
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        let i = u32::try_from(self.mesh.vertices.len())
            .map_err(|_| "more than 2^32 vertices".to_string())?;
        self.mesh.vertices.push(p);
        self.index.insert(key, i);
        Ok(i)
    }

    fn triangle(&mut self, corners: [[f32; 3]; 3]) -> Result<(), String> {
        let t = [
            self.vertex(corners[0])?,
            self.vertex(corners[1])?,
            self.vertex(corners[2])?,
        ];
        self.mesh.triangles.push(t);
        Ok(())
    }
}

/// Reads a triangle mesh whose coordinates have `mesh_up` pointing up (right-handed), and returns
/// it in the axes of a format where `target_up` points up. Errors name the file.
pub fn read_mesh(path: &Path, mesh_up: UpAxis, target_up: UpAxis) -> Result<TriangleMesh, String> {
    let kind = MeshFile::of(path).ok_or_else(|| {
        format!(
            "{}: build reads .obj, .gltf and .glb meshes (the ending says which)",
            path.display()
        )
    })?;
    let mut mesh = match kind {
        MeshFile::Obj => read_obj(path)?,
        MeshFile::Gltf => read_gltf(path)?,
    };
    if mesh.triangles.is_empty() {
        return Err(format!("{}: no faces in the mesh", path.display()));
    }
    if mesh_up != target_up {
        for v in &mut mesh.vertices {
            *v = target_up.from_y_up(mesh_up.to_y_up(*v));
        }
    }
    Ok(mesh)
}

/// Reads a polygon mesh for `navkit apply`: OBJ faces as the polygons they are (n-gons kept),
/// glTF triangles (glTF has no others), with coordinates turned from `mesh_up` into the axes of
/// a format where `target_up` points up, as [`read_mesh`] turns them. Vertices are kept as the
/// file has them (OBJ) or joined where bit-identical (glTF); the matcher welds by position
/// either way.
pub fn read_edited(path: &Path, mesh_up: UpAxis, target_up: UpAxis) -> Result<EditedMesh, String> {
    let kind = MeshFile::of(path).ok_or_else(|| {
        format!(
            "{}: apply reads .obj, .gltf and .glb meshes (the ending says which)",
            path.display()
        )
    })?;
    let mut mesh = match kind {
        MeshFile::Obj => read_obj_polygons(path)?,
        MeshFile::Gltf => {
            let t = read_gltf(path)?;
            EditedMesh {
                vertices: t.vertices,
                faces: t.triangles.iter().map(|t| t.to_vec()).collect(),
                attributes: Vec::new(),
            }
        }
    };
    if mesh_up != target_up {
        for v in &mut mesh.vertices {
            *v = target_up.from_y_up(mesh_up.to_y_up(*v));
        }
    }
    Ok(mesh)
}

/// Every face of an OBJ file as the polygon it is, over the file's own vertices (objects after
/// one another), in the file's own axes.
fn read_obj_polygons(path: &Path) -> Result<EditedMesh, String> {
    let models = load_obj(path, false)?;
    let mut mesh = EditedMesh::default();
    for m in &models {
        let base = u32::try_from(mesh.vertices.len())
            .map_err(|_| format!("{}: more than 2^32 vertices", path.display()))?;
        let count = m.mesh.positions.len() / 3;
        mesh.vertices
            .extend(m.mesh.positions.chunks_exact(3).map(|p| [p[0], p[1], p[2]]));
        let arities: Vec<u32> = if m.mesh.face_arities.is_empty() {
            vec![3; m.mesh.indices.len() / 3]
        } else {
            m.mesh.face_arities.clone()
        };
        let mut at = 0usize;
        for n in arities {
            let n = usize::try_from(n).unwrap_or(usize::MAX);
            let Some(face) = m.mesh.indices.get(at..at.saturating_add(n)) else {
                return Err(format!(
                    "{}: object `{}` has a face past its indices",
                    path.display(),
                    m.name
                ));
            };
            at += n;
            if let Some(&bad) = face
                .iter()
                .find(|&&i| usize::try_from(i).map_or(true, |i| i >= count))
            {
                return Err(format!(
                    "{}: object `{}` names vertex {bad}, past its vertices",
                    path.display(),
                    m.name
                ));
            }
            mesh.faces.push(face.iter().map(|i| base + i).collect());
        }
    }
    Ok(mesh)
}

/// The objects of an OBJ file, points and lines left out: fanned into triangles over one index
/// per corner (`triangulate`), or polygons over the file's own vertex indices.
fn load_obj(path: &Path, triangulate: bool) -> Result<Vec<tobj::Model>, String> {
    let options = tobj::LoadOptions {
        triangulate,
        single_index: triangulate,
        ignore_points: true,
        ignore_lines: true,
    };
    let (models, _materials) =
        tobj::load_obj(path, &options).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(models)
}

/// Every triangle of an OBJ file, in the file's own axes.
fn read_obj(path: &Path) -> Result<TriangleMesh, String> {
    let models = load_obj(path, true)?;
    let mut w = Welder::default();
    for m in &models {
        let pos = &m.mesh.positions;
        let corner = |i: u32| -> Result<[f32; 3], String> {
            let at = usize::try_from(i).unwrap_or(usize::MAX).saturating_mul(3);
            match pos.get(at..at.saturating_add(3)) {
                Some([x, y, z]) => Ok([*x, *y, *z]),
                _ => Err(format!(
                    "{}: object `{}` names vertex {i}, past its vertices",
                    path.display(),
                    m.name
                )),
            }
        };
        for t in m.mesh.indices.chunks_exact(3) {
            w.triangle([corner(t[0])?, corner(t[1])?, corner(t[2])?])?;
        }
    }
    Ok(w.mesh)
}

/// Decodes standard base64 (padding optional), as in a glTF `data:` URI.
fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter(|c| !c.is_ascii_whitespace()) {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

/// `%20` and friends in a relative URI.
fn percent_decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b[i], hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// A 4×4 column-major matrix, as glTF stores node transforms.
type Matrix = [[f64; 4]; 4];

const IDENTITY: Matrix = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
    [0.0, 0.0, 0.0, 1.0],
];

fn multiply(a: &Matrix, b: &Matrix) -> Matrix {
    let mut m = [[0.0; 4]; 4];
    for (c, col) in m.iter_mut().enumerate() {
        for (r, cell) in col.iter_mut().enumerate() {
            *cell = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    m
}

// Transforms are applied in f64 and rounded to the nearest f32, the precision of the mesh.
#[allow(clippy::cast_possible_truncation)]
fn apply(m: &Matrix, p: [f32; 3]) -> [f32; 3] {
    if *m == IDENTITY {
        return p;
    }
    let p = p.map(f64::from);
    core::array::from_fn(|r| (m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r]) as f32)
}

/// How deep node hierarchies may nest (glTF forbids cycles; a broken file is stopped here).
const MAX_DEPTH: usize = 256;

/// Every triangle of a glTF file's default scene (or of every mesh, when it has no scene), in
/// the file's own axes with node transforms applied.
fn read_gltf(path: &Path) -> Result<TriangleMesh, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let doc = gltf::Gltf::from_slice(&bytes)
        .map_err(|e| format!("{}: not a glTF file: {e}", path.display()))?;
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for b in doc.buffers() {
        let data = match b.source() {
            gltf::buffer::Source::Bin => doc.blob.clone().ok_or_else(|| {
                format!(
                    "{}: buffers[{}] is the binary chunk, but the file has none",
                    path.display(),
                    b.index()
                )
            })?,
            gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => uri
                .split_once(";base64,")
                .and_then(|(_, data)| base64(data))
                .ok_or_else(|| {
                    format!(
                        "{}: buffers[{}]: a data URI that is not base64",
                        path.display(),
                        b.index()
                    )
                })?,
            gltf::buffer::Source::Uri(uri) => {
                let file = path
                    .parent()
                    .unwrap_or_else(|| Path::new("."))
                    .join(percent_decode(uri));
                std::fs::read(&file).map_err(|e| {
                    format!(
                        "{}: buffers[{}]: {}: {e}",
                        path.display(),
                        b.index(),
                        file.display()
                    )
                })?
            }
        };
        if data.len() < b.length() {
            return Err(format!(
                "{}: buffers[{}] has {} bytes, the file says {}",
                path.display(),
                b.index(),
                data.len(),
                b.length()
            ));
        }
        buffers.push(data);
    }

    // (mesh, transform) pairs to read.
    let mut instances: Vec<(gltf::Mesh<'_>, Matrix)> = Vec::new();
    match doc.default_scene().or_else(|| doc.scenes().next()) {
        Some(scene) => {
            let mut stack: Vec<(gltf::Node<'_>, Matrix, usize)> =
                scene.nodes().map(|n| (n, IDENTITY, 0)).collect();
            while let Some((node, parent, depth)) = stack.pop() {
                if depth > MAX_DEPTH {
                    return Err(format!(
                        "{}: nodes nest deeper than {MAX_DEPTH} (a cycle?)",
                        path.display()
                    ));
                }
                let local = node.transform().matrix().map(|c| c.map(f64::from));
                let world = multiply(&parent, &local);
                if let Some(mesh) = node.mesh() {
                    instances.push((mesh, world));
                }
                stack.extend(node.children().map(|c| (c, world, depth + 1)));
            }
        }
        None => instances.extend(doc.meshes().map(|m| (m, IDENTITY))),
    }

    let mut w = Welder::default();
    for (mesh, world) in &instances {
        for prim in mesh.primitives() {
            let here = || format!("meshes[{}].primitives[{}]", mesh.index(), prim.index());
            let Some(accessor) = prim.get(&gltf::Semantic::Positions) else {
                continue;
            };
            if accessor.count() == 0 {
                continue;
            }
            let reader = prim.reader(|b| buffers.get(b.index()).map(Vec::as_slice));
            let positions: Vec<[f32; 3]> = reader
                .read_positions()
                .ok_or_else(|| {
                    format!(
                        "{}: {}: positions outside their buffer",
                        path.display(),
                        here()
                    )
                })?
                .map(|p| apply(world, p))
                .collect();
            let indices: Vec<u32> = match reader.read_indices() {
                Some(ix) => ix.into_u32().collect(),
                None => (0..u32::try_from(positions.len()).unwrap_or(u32::MAX)).collect(),
            };
            let corner = |i: u32| -> Result<[f32; 3], String> {
                positions
                    .get(usize::try_from(i).unwrap_or(usize::MAX))
                    .copied()
                    .ok_or_else(|| {
                        format!(
                            "{}: {}: index {i} is past the {} positions",
                            path.display(),
                            here(),
                            positions.len()
                        )
                    })
            };
            let triangles: Vec<[u32; 3]> = match prim.mode() {
                gltf::mesh::Mode::Triangles => indices
                    .chunks_exact(3)
                    .map(|t| [t[0], t[1], t[2]])
                    .collect(),
                gltf::mesh::Mode::TriangleStrip => indices
                    .windows(3)
                    .enumerate()
                    .map(|(k, t)| {
                        if k % 2 == 0 {
                            [t[0], t[1], t[2]]
                        } else {
                            [t[1], t[0], t[2]]
                        }
                    })
                    .collect(),
                gltf::mesh::Mode::TriangleFan => match indices.split_first() {
                    Some((first, rest)) => rest.windows(2).map(|t| [*first, t[0], t[1]]).collect(),
                    None => Vec::new(),
                },
                // Points and lines: graph nodes and links, not walkable surface.
                _ => Vec::new(),
            };
            for [a, b, c] in triangles {
                w.triangle([corner(a)?, corner(b)?, corner(c)?])?;
            }
        }
    }
    Ok(w.mesh)
}

/// Which axis points up in `format`'s world, asked of the format itself: the geometry of a
/// one-triangle navmesh it builds says. The probe triangle faces up in both conventions, so any
/// builder accepts it. `None` when the format has no builder.
pub fn target_up(format: &dyn AnyFormat) -> Option<Result<UpAxis, String>> {
    // Counter-clockwise seen from above both with Z up (plan x, y) and with Y up (plan x, -z).
    let probe = TriangleMesh {
        vertices: vec![[0.0, 0.0, 0.0], [8.0, 0.0, 0.0], [0.0, 8.0, -8.0]],
        triangles: vec![[0, 1, 2]],
    };
    let built = format.build(&probe)?;
    Some(
        built
            .and_then(|built| format.geometry(&built.model))
            .map_err(|e| e.to_string())
            .and_then(|g| {
                g.map(|g| g.up)
                    .ok_or_else(|| format!("{} has no geometry mapping", format.name()))
            }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_percent_decoding() {
        assert_eq!(base64("aGVsbG8=").as_deref(), Some(&b"hello"[..]));
        assert_eq!(base64("AAECAw").as_deref(), Some(&[0u8, 1, 2, 3][..]));
        assert_eq!(base64("a*b"), None);
        assert_eq!(percent_decode("my%20mesh.bin"), "my mesh.bin");
        assert_eq!(percent_decode("100%"), "100%");
    }

    #[test]
    fn transforms_compose_and_identity_keeps_bits() {
        let p = [0.1f32, -3.3, 7.7];
        assert_eq!(apply(&IDENTITY, p).map(f32::to_bits), p.map(f32::to_bits));
        let mut shift = IDENTITY;
        shift[3] = [1.0, 2.0, 3.0, 1.0];
        let mut scale = IDENTITY;
        scale[0][0] = 2.0;
        // shift after scale: (2x + 1, y + 2, z + 3)
        assert_eq!(
            apply(&multiply(&shift, &scale), [1.0, 1.0, 1.0]),
            [3.0, 3.0, 4.0]
        );
    }

    #[test]
    fn every_builder_format_reports_its_up_axis() {
        let mut seen = 0;
        for f in crate::registry::FORMATS {
            if let Some(up) = target_up(*f) {
                let expected = match f.name() {
                    "nav2-mgsv" => UpAxis::Y,
                    _ => UpAxis::Z,
                };
                assert_eq!(up, Ok(expected), "{}", f.name());
                seen += 1;
            }
        }
        assert!(seen >= 2, "{seen} formats with a builder");
    }
}
