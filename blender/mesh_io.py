"""Arrays in, arrays out: navkit geometry to Blender meshes and back, without a loop per vertex.

Blender's world is Z up and right-handed. Files of Z-up engines (Quake, Source, Skyrim) keep
their coordinates as they are; Y-up engines (Fox Engine, Silkroad) get ``(x, y, z)`` as
``(x, -z, y)``, a rotation, so a face that is counter-clockwise seen from above stays so. Both
directions only swap and negate, so every float comes back with its bits.
"""

import numpy as np


def to_blender(points, up):
    """File coordinates ``(N, 3)`` as Blender's, float32."""
    points = np.asarray(points, dtype=np.float32).reshape(-1, 3)
    if up == "y":
        return np.stack([points[:, 0], -points[:, 2], points[:, 1]], axis=1)
    return points.copy()


def from_blender(points, up):
    """Blender coordinates ``(N, 3)`` as the file's, float32 (the exact inverse of ``to_blender``)."""
    points = np.asarray(points, dtype=np.float32).reshape(-1, 3)
    if up == "y":
        return np.stack([points[:, 0], points[:, 2], -points[:, 1]], axis=1)
    return points.copy()


def new_mesh(bpy, name, vertices, offsets=None, indices=None, edges=None):
    """A Blender mesh from arrays: vertices ``(N, 3)``, polygons as ``offsets``/``indices``
    (polygon k is ``indices[offsets[k]:offsets[k + 1]]``), or loose ``edges`` ``(M, 2)``."""
    mesh = bpy.data.meshes.new(name)
    vertices = np.ascontiguousarray(vertices, dtype=np.float32)
    mesh.vertices.add(len(vertices))
    mesh.vertices.foreach_set("co", vertices.ravel())
    if offsets is not None and len(offsets) > 1:
        indices = np.ascontiguousarray(indices, dtype=np.int32)
        mesh.loops.add(len(indices))
        mesh.loops.foreach_set("vertex_index", indices)
        mesh.polygons.add(len(offsets) - 1)
        mesh.polygons.foreach_set("loop_start", np.ascontiguousarray(offsets[:-1], dtype=np.int32))
    if edges is not None and len(edges):
        edges = np.ascontiguousarray(edges, dtype=np.int32)
        mesh.edges.add(len(edges))
        mesh.edges.foreach_set("vertices", edges.ravel())
    mesh.update(calc_edges=offsets is not None)
    return mesh


def loosen_bad_polygons(vertices, offsets, indices):
    """Vertices and indices Blender can hold: a polygon that names one vertex twice in a row
    (which game files can hold, and Blender cannot) gets its own copies of its corners,
    appended after the file's vertices, so that every other index stays the file's."""
    indices = np.asarray(indices, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    if len(indices) == 0:
        return vertices, indices
    sizes = np.diff(offsets)
    polygon = np.repeat(np.arange(len(sizes)), sizes)
    # The next corner of each corner, wrapping within its polygon.
    following = np.arange(1, len(indices) + 1)
    ends = offsets[1:] - 1
    following[ends[sizes > 0]] = offsets[:-1][sizes > 0]
    repeated = indices == indices[following]
    bad = np.zeros(len(sizes), dtype=bool)
    bad[polygon[repeated]] = True
    bad |= sizes < 3
    if not bad.any():
        return vertices, indices
    corners = np.flatnonzero(bad[polygon])
    fresh = np.arange(len(vertices), len(vertices) + len(corners))
    vertices = np.concatenate([vertices, vertices[indices[corners]]])
    indices = indices.copy()
    indices[corners] = fresh
    return vertices, indices


def set_attribute(mesh, name, domain, values):
    """Stores an integer (or float) array as a mesh attribute of ``domain`` (``FACE``, ``POINT``,
    ``EDGE``). Integers are stored as Blender's 32-bit ``INT``: values past its range keep their
    low 32 bits, read back with ``int_attribute(..., unsigned=True)``."""
    values = np.asarray(values)
    if values.dtype.kind == "f":
        attr = mesh.attributes.new(name=name, type="FLOAT", domain=domain)
        attr.data.foreach_set("value", np.ascontiguousarray(values, dtype=np.float32))
    else:
        attr = mesh.attributes.new(name=name, type="INT", domain=domain)
        low = np.ascontiguousarray(values.astype(np.int64) & 0xFFFFFFFF, dtype=np.uint32)
        attr.data.foreach_set("value", low.view(np.int32))
    return attr


def int_attribute(mesh, name, unsigned=False):
    """An integer attribute as an int64 array, or ``None`` when the mesh has none of that name."""
    attr = mesh.attributes.get(name)
    if attr is None or attr.data_type != "INT":
        return None
    out = np.empty(len(attr.data), dtype=np.int32)
    attr.data.foreach_get("value", out)
    return out.view(np.uint32).astype(np.int64) if unsigned else out.astype(np.int64)


def read_mesh(mesh, matrix=None):
    """A Blender mesh as arrays: vertices ``(N, 3)`` float32 in world space when ``matrix`` (the
    object's ``matrix_world``) is given and not the identity, and ``(offsets, indices)``."""
    n = len(mesh.vertices)
    co = np.empty(n * 3, dtype=np.float32)
    mesh.vertices.foreach_get("co", co)
    co = co.reshape(n, 3)
    if matrix is not None:
        m = np.array(matrix, dtype=np.float64)
        if not np.array_equal(m, np.eye(4)):
            co = (co.astype(np.float64) @ m[:3, :3].T + m[:3, 3]).astype(np.float32)
    p = len(mesh.polygons)
    starts = np.empty(p, dtype=np.int32)
    totals = np.empty(p, dtype=np.int32)
    mesh.polygons.foreach_get("loop_start", starts)
    mesh.polygons.foreach_get("loop_total", totals)
    loops = np.empty(len(mesh.loops), dtype=np.int32)
    mesh.loops.foreach_get("vertex_index", loops)
    offsets = np.zeros(p + 1, dtype=np.int64)
    np.cumsum(totals, out=offsets[1:])
    # Polygons in order, each as its loops: Blender keeps each polygon's loops contiguous, but
    # not always in polygon order after edits, so gather them (vectorised, no loop).
    gather = np.repeat(starts.astype(np.int64) - offsets[:-1], totals) + np.arange(offsets[-1])
    indices = loops[gather]
    return co, offsets, indices.astype(np.uint32)


def read_edges(mesh):
    """A Blender mesh's edges as ``(M, 2)`` int64 vertex index pairs."""
    pairs = np.empty(len(mesh.edges) * 2, dtype=np.int32)
    mesh.edges.foreach_get("vertices", pairs)
    return pairs.reshape(-1, 2).astype(np.int64)
