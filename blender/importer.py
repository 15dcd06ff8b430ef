"""File > Import > navkit navmesh: any file navkit reads, as Blender objects.

A file becomes one collection. A navmesh with polygons becomes one mesh object whose faces are
the file's polygons (n-gons as stored, vertices shared as the file shares them), with a material
per attribute kind in the colours of ``navkit render`` and per-face integer attributes; a graph
(Quake nodes and links, Fox Engine graphs) becomes an object of vertices and edges. A Skyrim
plugin gives one object per navmesh, named by FormID. Every object remembers its source (format,
version, path, sha256 and, inside a plugin, the part), which Export uses to write edits back
onto it.
"""

import hashlib
import os

import bpy
import numpy as np
from bpy.props import BoolProperty, StringProperty
from bpy_extras.io_utils import ImportHelper

from . import mesh_io

EXTENSIONS = ("*.nav", "*.nav2", "*.nvnm", "*.esp", "*.esm", "*.esl", "*.nvm")

# Custom properties every imported object carries.
PROP_SOURCE = "navkit_source"
PROP_SHA256 = "navkit_sha256"
PROP_FORMAT = "navkit_format"
PROP_VERSION = "navkit_version"
PROP_PART = "navkit_part"
PROP_ROLE = "navkit_role"

# Face attributes the importer writes (see ``Navmesh.polygon_*`` in the Python package).
ATTR_KIND = "navkit_kind"


def sha256(path):
    """The file's sha256, hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def kind_material(navkit, name, index):
    """The material of an attribute kind, shared by every object that has the kind."""
    label = f"navkit {name}"
    mat = bpy.data.materials.get(label)
    if mat is None:
        mat = bpy.data.materials.new(label)
        r, g, b = (c / 255.0 for c in navkit.kind_colour(index))
        mat.diffuse_color = (r, g, b, 1.0)
        mat.use_nodes = True
        shader = mat.node_tree.nodes.get("Principled BSDF")
        if shader is not None:
            shader.inputs["Base Color"].default_value = (r, g, b, 1.0)
    return mat


def remember(obj, nav, path, digest, part=None, role="mesh"):
    """Marks ``obj`` with where it came from."""
    obj[PROP_SOURCE] = path
    obj[PROP_SHA256] = digest
    obj[PROP_FORMAT] = nav.format
    obj[PROP_VERSION] = nav.version
    obj[PROP_ROLE] = role
    if part is not None:
        obj[PROP_PART] = part


def polygon_object(navkit, nav, name):
    """The navmesh's polygons as a mesh object, or ``None`` when it has none."""
    offsets, indices = nav.polygons
    if len(offsets) < 2:
        return None
    verts = mesh_io.to_blender(nav.vertices, nav.up)
    verts, indices = mesh_io.loosen_bad_polygons(verts, offsets, indices)
    mesh = mesh_io.new_mesh(bpy, name, verts, offsets, indices)
    kinds = np.asarray(nav.polygon_kinds)
    names = nav.kinds
    used = sorted(set(int(k) for k in np.unique(kinds)))
    slot = {}
    for k in used:
        slot[k] = len(mesh.materials)
        mesh.materials.append(kind_material(navkit, names[k] if k < len(names) else "?", k))
    lookup = np.zeros(max(used) + 1 if used else 1, dtype=np.int32)
    for k, s in slot.items():
        lookup[k] = s
    mesh.polygons.foreach_set("material_index", lookup[kinds])
    mesh_io.set_attribute(mesh, ATTR_KIND, "FACE", kinds)
    for attr, values in face_attributes(nav).items():
        mesh_io.set_attribute(mesh, attr, "FACE", values)
    mesh.update()
    return bpy.data.objects.new(name, mesh)


def face_attributes(nav):
    """The per-polygon arrays the package offers (ids and raw attribute values), by name."""
    getter = getattr(nav, "polygon_attributes", None)
    return dict(getter()) if callable(getter) else {}


def graph_object(nav, name):
    """The navmesh's graph (nodes and links) as vertices and edges, or ``None``."""
    nodes = np.asarray(nav.nodes)
    if len(nodes) == 0:
        return None
    links = np.asarray(nav.links, dtype=np.int64).reshape(-1, 2)
    # Blender holds one undirected edge per pair of vertices: a link each way is one edge, and
    # a link from a node to itself is none.
    pairs = np.sort(links, axis=1)
    pairs = np.unique(pairs[pairs[:, 0] != pairs[:, 1]], axis=0)
    mesh = mesh_io.new_mesh(bpy, name, mesh_io.to_blender(nodes, nav.up), edges=pairs)
    graph_attributes(nav, mesh, nodes, links, pairs)
    obj = bpy.data.objects.new(name, mesh)
    obj["navkit_kinds"] = list(nav.kinds)
    return obj


def graph_attributes(nav, mesh, nodes, links, pairs):
    """The graph's attributes on its mesh: per vertex ``node_kind`` (an index into the object's
    ``navkit_kinds``) and ``radius`` (NaN where the file gives none); per edge ``link_kind``
    and ``link_kind_back``, the kind of the link from the lower-numbered node to the higher
    and back (-1 where there is no link that way)."""
    mesh_io.set_attribute(mesh, "node_kind", "POINT", nav.node_kinds.astype(np.int64))
    cells = nav.cells
    radius = np.full(len(nodes), np.nan, dtype=np.float32)
    # The navigation's node cells carry the radius: where they are these nodes, in this order.
    if len(cells["radius"]) == len(nodes) and np.array_equal(cells["centre"], nodes, equal_nan=True):
        radius = cells["radius"].astype(np.float32)
    mesh_io.set_attribute(mesh, "radius", "POINT", radius)
    if len(pairs) == 0:
        return
    kinds = nav.link_kinds.astype(np.int64)
    row = {(int(a), int(b)): k for k, (a, b) in enumerate(pairs.tolist())}
    forward = np.full(len(pairs), -1, dtype=np.int64)
    back = np.full(len(pairs), -1, dtype=np.int64)
    for (a, b), kind in zip(links.tolist(), kinds.tolist()):
        if a == b:
            continue
        k = row[(min(a, b), max(a, b))]
        side = forward if a < b else back
        if side[k] < 0:
            side[k] = kind
    mesh_io.set_attribute(mesh, "link_kind", "EDGE", forward)
    mesh_io.set_attribute(mesh, "link_kind_back", "EDGE", back)


def import_navmesh(navkit, nav, name, collection, source, part=None, graph=True):
    """The objects of one navmesh, linked into ``collection``. ``source`` is ``(file, path,
    sha256)``: the file read (the plugin, for a navmesh inside one), its path and digest."""
    made = []
    obj = polygon_object(navkit, nav, name)
    if obj is not None:
        remember(obj, *source, part)
        made.append(obj)
    if graph:
        g = graph_object(nav, f"{name} graph" if obj is not None else name)
        if g is not None:
            remember(g, *source, part, role="graph")
            made.append(g)
    for o in made:
        collection.objects.link(o)
    return made


def import_file(context, path, graph=True):
    """Imports ``path``; the objects made."""
    import navkit

    nav = navkit.open(path)
    digest = sha256(path)
    stem = os.path.basename(path)
    collection = bpy.data.collections.new(stem)
    context.scene.collection.children.link(collection)
    parts = nav.parts()
    source = (nav, path, digest)
    made = []
    if parts:
        for form_id, part in parts.items():
            made += import_navmesh(navkit, part, form_id, collection, source, form_id, graph)
    else:
        name = os.path.splitext(stem)[0]
        made += import_navmesh(navkit, nav, name, collection, source, None, graph)
    return made


class ImportNavkit(bpy.types.Operator, ImportHelper):
    """Import a navmesh file that navkit reads (Source, Source 2, Quake, Fox Engine, Skyrim,
    Silkroad)"""

    bl_idname = "import_scene.navkit"
    bl_label = "Import navkit navmesh"
    bl_options = {"REGISTER", "UNDO", "PRESET"}

    filter_glob: StringProperty(default=";".join(EXTENSIONS), options={"HIDDEN"})
    graph: BoolProperty(
        name="Graph",
        description="Also import the graph (nodes and links) where the file has one",
        default=True,
    )

    def execute(self, context):
        import navkit

        try:
            made = import_file(context, self.filepath, graph=self.graph)
        except (navkit.NavError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if made:
            for o in context.selected_objects:
                o.select_set(False)
            for o in made:
                o.select_set(True)
            context.view_layer.objects.active = made[0]
        self.report({"INFO"}, f"navkit: {len(made)} objects from {os.path.basename(self.filepath)}")
        return {"FINISHED"}


def menu_import(self, context):
    self.layout.operator(ImportNavkit.bl_idname, text="navkit navmesh (.nav, .nav2, .nvnm, .esp, .nvm)")
