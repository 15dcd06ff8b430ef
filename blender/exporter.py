"""File > Export > navkit navmesh: an edited import written back onto its source, or a new file.

An object the importer made remembers its source file. Export reads that file again, checks
that it has not changed since the import (its sha256), and puts the object's mesh back onto it
through navkit's ``apply``: moved vertices move, deleted faces delete their cell, new faces
become new cells, changed face attributes (named as the file's fields) are set; everything the
mesh does not show is kept, so an unedited import gives the original bytes. A graph object
(Quake's nodes and links) goes back through ``apply_graph``: moved vertices move their nodes;
adding or deleting nodes or links is refused (the JSON is the place for that). A graph drawn
from a navmesh's polygons (Fox Engine, Source) is not written back on its own: its polygons are
what to edit. The objects of a Skyrim plugin's navmeshes are applied each to its own navmesh. A mesh that did not come from a
navkit import is built as a new file of the format chosen in the options. After writing, the
file is validated and the findings go to Blender's report.
"""

import bpy
import numpy as np
from bpy.props import BoolProperty, EnumProperty, StringProperty
from bpy_extras.io_utils import ExportHelper

from . import importer, mesh_io

# Formats navkit can build a new file of, as (id, name, description).
BUILD_FORMATS = [
    ("nvnm-skyrim", "Skyrim NVNM (.nvnm)", "Skyrim and Fallout 4 navmesh geometry"),
    ("nav2-mgsv", "Fox Engine (.nav2)", "Metal Gear Solid V, Metal Gear Survive"),
]


class ExportRefused(Exception):
    """What stops an export, in words for the user."""


def navkit_objects(objects, role="mesh"):
    """The objects among ``objects`` that a navkit import made in ``role`` (``mesh`` for a
    navmesh's polygons, ``graph`` for its nodes and links)."""
    return [o for o in objects if o.type == "MESH" and o.get(importer.PROP_ROLE) == role]


def face_attributes(obj, names):
    """The object's integer face attributes of the given names, as stored by the importer."""
    out = {}
    for name in names:
        values = mesh_io.int_attribute(obj.data, name, unsigned=True)
        if values is not None and len(values) == len(obj.data.polygons):
            out[name] = values
    return out


def apply_object(obj, nav):
    """Puts ``obj``'s mesh onto ``nav`` (a navmesh, or a plugin's part); the change lines."""
    co, offsets, indices = mesh_io.read_mesh(obj.data, obj.matrix_world)
    vertices = mesh_io.from_blender(co, nav.up)
    attributes = face_attributes(obj, nav.polygon_attributes().keys())
    return nav.apply(vertices, offsets, indices, attributes)


def apply_graph_object(obj, nav, alone):
    """Puts ``obj``'s vertices (the nodes, in import order) and edges (the links) onto ``nav``;
    the change lines. ``alone``: no polygon object of the file is written back with it."""
    if alone and len(nav.polygons[0]) > 1:
        raise ExportRefused(
            f"{obj.name}: the nodes of this graph derive from the navmesh's polygons (Fox "
            "Engine, Source, Skyrim), so it is not written back on its own: select the "
            "navmesh's polygon object and edit that"
        )
    co, _, _ = mesh_io.read_mesh(obj.data, obj.matrix_world)
    nodes = mesh_io.from_blender(co, nav.up)
    return nav.apply_graph(nodes, mesh_io.read_edges(obj.data))


def apply_any(obj, nav, alone):
    """``obj`` (a polygon or a graph object) put onto ``nav``; the change lines."""
    if obj.get(importer.PROP_ROLE) == "graph":
        return apply_graph_object(obj, nav, alone)
    return apply_object(obj, nav)


def write_back(objects, filepath, force=False):
    """Writes ``objects`` (polygon and graph objects, all imported from one file) back onto
    that file, saved as ``filepath``; returns ``(change lines, findings)``."""
    import navkit

    sources = {o[importer.PROP_SOURCE] for o in objects}
    if len(sources) != 1:
        raise ExportRefused(
            f"the selected objects come from {len(sources)} files: export one file's objects at a time"
        )
    source = sources.pop()
    try:
        digest = importer.sha256(source)
    except OSError as e:
        raise ExportRefused(f"the source {source} cannot be read ({e}): it is needed to write back")
    if digest != objects[0][importer.PROP_SHA256] and not force:
        raise ExportRefused(
            f"{source} changed since it was imported: tick 'Write over a changed source' to "
            "apply the edit to the file as it is now"
        )
    nav = navkit.open(source)
    # The source's own errors: an export that keeps them did not make them.
    known = {(f.path, f.message) for f in nav.validate() if f.severity == "error"}
    # Graphs first, matched against the file as imported: a polygon edit moves what some
    # formats draw their graph from.
    meshes = navkit_objects(objects)
    alone = not meshes
    parts = None
    lines = []
    for obj in navkit_objects(objects, "graph") + meshes:
        part = obj.get(importer.PROP_PART)
        if part is None:
            lines += apply_any(obj, nav, alone)
            continue
        if parts is None:
            parts = nav.parts()
        target = parts.get(part)
        if target is None:
            raise ExportRefused(f"{source} holds no navmesh {part} any more")
        changed = apply_any(obj, target, alone)
        if changed:
            nav.replace(part, target)
            lines += [f"{part}: {line}" for line in changed]
    nav.save(filepath)
    return lines, nav.validate(), known


def build_new(obj, filepath, format):
    """Builds a new file of ``format`` from ``obj``'s mesh, triangulated; returns
    ``(warnings, findings)``."""
    import navkit

    co, offsets, indices = mesh_io.read_mesh(obj.data, obj.matrix_world)
    sizes = np.diff(offsets)
    if len(sizes) == 0:
        raise ExportRefused(f"{obj.name} has no faces to build a navmesh of")
    # Fans from each face's first corner.
    first = np.repeat(offsets[:-1], sizes - 2)
    step = np.arange(len(first)) - np.repeat(np.cumsum(sizes - 2) - (sizes - 2), sizes - 2)
    triangles = np.stack(
        [indices[first], indices[first + step + 1], indices[first + step + 2]], axis=1
    )
    up = "y" if format == "nav2-mgsv" else "z"
    nav, warnings = navkit.build(format, mesh_io.from_blender(co, up), triangles)
    nav.save(filepath)
    return warnings, nav.validate()


def report_findings(operator, findings, known=frozenset()):
    """Puts ``findings`` into Blender's report: errors as errors, except those in ``known``
    (``(path, message)`` of errors the source file already had), which are warnings saying so.
    Returns the new errors and the number of known ones."""
    errors = [f for f in findings if f.severity == "error" and (f.path, f.message) not in known]
    kept = sum(1 for f in findings if f.severity == "error" and (f.path, f.message) in known)
    for f in findings[:20]:
        if f.severity == "error" and (f.path, f.message) not in known:
            operator.report({"ERROR"}, f"validate: {f.path}: {f.message}")
        elif f.severity == "error":
            operator.report({"WARNING"}, f"validate (already in the source): {f.path}: {f.message}")
        else:
            operator.report({"WARNING"}, f"validate: {f.path}: {f.message}")
    return errors, kept


class ExportNavkit(bpy.types.Operator, ExportHelper):
    """Write the selected navkit objects back onto their source file, keeping everything the
    mesh does not show, or build a new navmesh from another mesh"""

    bl_idname = "export_scene.navkit"
    bl_label = "Export navkit navmesh"
    bl_options = {"REGISTER", "PRESET"}

    filename_ext = ""
    check_extension = None
    filter_glob: StringProperty(default=";".join(importer.EXTENSIONS), options={"HIDDEN"})
    force: BoolProperty(
        name="Write over a changed source",
        description="Apply the edit even if the source file changed since it was imported",
        default=False,
    )
    new_format: EnumProperty(
        name="New file format",
        description="For a mesh that did not come from a navkit import: the format to build",
        items=BUILD_FORMATS,
        default="nvnm-skyrim",
    )

    def execute(self, context):
        import navkit

        chosen = context.selected_objects or ([context.active_object] if context.active_object else [])
        imported = navkit_objects(chosen) + navkit_objects(chosen, "graph")
        try:
            known = frozenset()
            if imported:
                lines, findings, known = write_back(imported, self.filepath, self.force)
                summary = f"navkit: {len(lines)} changes applied"
            else:
                meshes = [o for o in chosen if o.type == "MESH"]
                if len(meshes) != 1:
                    raise ExportRefused("select one mesh object (or the objects of one navkit import)")
                lines, findings = build_new(meshes[0], self.filepath, self.new_format)
                summary = f"navkit: built a new {self.new_format} file, {len(lines)} warnings"
        except (ExportRefused, navkit.NavError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        for line in lines[:50]:
            self.report({"INFO"}, line)
        errors, kept = report_findings(self, findings, known)
        context.scene["navkit_last_export"] = self.filepath
        also = f" ({kept} more already in the source)" if kept else ""
        self.report({"INFO"}, f"{summary}; wrote {self.filepath}; validate: {len(errors)} errors{also}")
        return {"FINISHED"}


class FixNavkit(bpy.types.Operator):
    """Make the last exported navmesh consistent (navkit fix) and write it again"""

    bl_idname = "navkit.fix"
    bl_label = "Fix exported navmesh"

    filepath: StringProperty(name="File", subtype="FILE_PATH", default="")

    def execute(self, context):
        import navkit

        path = self.filepath or context.scene.get("navkit_last_export", "")
        if not path:
            self.report({"ERROR"}, "nothing exported yet: export first, or give a file")
            return {"CANCELLED"}
        try:
            nav = navkit.open(path)
            lines = nav.fix()
            if lines:
                nav.save(path)
        except (navkit.NavError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        for line in lines[:50]:
            self.report({"INFO"}, line)
        errors, _ = report_findings(self, nav.validate())
        self.report({"INFO"}, f"navkit fix: {len(lines)} changes; validate: {len(errors)} errors")
        return {"FINISHED"}


CLASSES = (ExportNavkit, FixNavkit)


def menu_export(self, context):
    self.layout.operator(ExportNavkit.bl_idname, text="navkit navmesh (write back, or new)")
