"""The navkit tab of the 3D view's side panel (N): the active object's source, the active
face's record and attribute values, Export, Fix, and Find Path between two selected faces."""

import bmesh
import bpy
import numpy as np

from . import importer, mesh_io


def active_face(obj):
    """The index of the active (or else first selected) face of ``obj``, or ``None``."""
    mesh = obj.data
    if obj.mode == "EDIT":
        bm = bmesh.from_edit_mesh(mesh)
        face = bm.faces.active or next((f for f in bm.faces if f.select), None)
        return None if face is None else face.index
    index = mesh.polygons.active
    return index if 0 <= index < len(mesh.polygons) else None


def face_values(obj, face):
    """The integer face attributes of ``face`` by name (the file's fields and navkit_kind)."""
    out = []
    mesh = obj.data
    if obj.mode == "EDIT":
        bm = bmesh.from_edit_mesh(mesh)
        bm.faces.ensure_lookup_table()
        for name in bm.faces.layers.int.keys():
            out.append((name, bm.faces[face][bm.faces.layers.int[name]]))
        return out
    for attr in mesh.attributes:
        if attr.domain == "FACE" and attr.data_type == "INT":
            out.append((attr.name, attr.data[face].value))
    return out


class NAVKIT_PT_panel(bpy.types.Panel):
    bl_label = "navkit"
    bl_space_type = "VIEW_3D"
    bl_region_type = "UI"
    bl_category = "navkit"

    def draw(self, context):
        layout = self.layout
        obj = context.active_object
        if obj is None or obj.get(importer.PROP_SOURCE) is None:
            layout.label(text="Not a navkit import")
            layout.operator("export_scene.navkit", text="Build new navmesh...")
            return
        box = layout.box()
        box.label(text=f"{obj[importer.PROP_FORMAT]} {obj[importer.PROP_VERSION]}")
        box.label(text=str(obj[importer.PROP_SOURCE]))
        if obj.get(importer.PROP_PART):
            box.label(text=f"navmesh {obj[importer.PROP_PART]}")
        if obj.type == "MESH" and obj.get(importer.PROP_ROLE) == "mesh":
            face = active_face(obj)
            if face is None:
                layout.label(text="No active face")
            else:
                col = layout.column(align=True)
                col.label(text=f"face {face}")
                for name, value in face_values(obj, face):
                    raw = value & 0xFFFFFFFF
                    bits = [str(b) for b in range(32) if raw >> b & 1]
                    col.label(text=f"{name}: {raw} (bits {', '.join(bits) or 'none'})")
        row = layout.row(align=True)
        row.operator("export_scene.navkit", text="Export...")
        row.operator("navkit.fix", text="Fix")
        layout.operator("navkit.find_path", text="Find Path (2 selected faces)")


def selected_face_centres(obj):
    """World-space centres of the selected faces, in selection order where Blender knows it."""
    if obj.mode == "EDIT":
        bm = bmesh.from_edit_mesh(obj.data)
        chosen = [e for e in bm.select_history if isinstance(e, bmesh.types.BMFace)]
        chosen += [f for f in bm.faces if f.select and f not in chosen]
        centres = [obj.matrix_world @ f.calc_center_median() for f in chosen]
    else:
        centres = [obj.matrix_world @ p.center for p in obj.data.polygons if p.select]
    return np.array([tuple(c) for c in centres], dtype=np.float32).reshape(-1, 3)


class FindPathNavkit(bpy.types.Operator):
    """Draw the navmesh's way between the first two selected faces (navkit path, distance)"""

    bl_idname = "navkit.find_path"
    bl_label = "Find navkit path"
    bl_options = {"REGISTER", "UNDO"}

    walk_only: bpy.props.BoolProperty(name="Walking only", default=False)

    def execute(self, context):
        import navkit

        obj = context.active_object
        if obj is None or obj.get(importer.PROP_ROLE) != "mesh":
            self.report({"ERROR"}, "select faces of an object a navkit import made")
            return {"CANCELLED"}
        centres = selected_face_centres(obj)
        if len(centres) < 2:
            self.report({"ERROR"}, "select two faces: the start and the end")
            return {"CANCELLED"}
        try:
            nav = navkit.open(obj[importer.PROP_SOURCE])
            part = obj.get(importer.PROP_PART)
            if part is not None:
                nav = nav.parts()[part]
            ends = mesh_io.from_blender(centres[:2], nav.up)
            route = nav.path(tuple(ends[0]), tuple(ends[1]), walk_only=self.walk_only)
        except (navkit.NavError, KeyError, OSError) as e:
            self.report({"ERROR"}, str(e))
            return {"CANCELLED"}
        if not route.reachable:
            self.report({"WARNING"}, f"no way: {route.reason}")
            return {"CANCELLED"}
        points = mesh_io.to_blender(nav.cells["centre"][route.cells], nav.up)
        edges = np.stack([np.arange(len(points) - 1), np.arange(1, len(points))], axis=1)
        mesh = mesh_io.new_mesh(bpy, "navkit path", points, edges=edges)
        path_obj = bpy.data.objects.new("navkit path", mesh)
        (obj.users_collection[0] if obj.users_collection else context.scene.collection).objects.link(path_obj)
        path_obj["navkit_cells"] = list(route.ids)
        self.report({"INFO"}, f"navkit path: {len(route.cells)} cells, cost {route.cost:.1f}")
        return {"FINISHED"}


CLASSES = (NAVKIT_PT_panel, FindPathNavkit)
