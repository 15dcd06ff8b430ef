"""The navkit tab of the 3D view's side panel (N): the active object's source, the active
face's record and attribute values with each flag bit the format names as a checkbox (the
``navkit.set_flag`` operator), Export, Fix, and Find Path between two selected faces.

The bit names come from the navkit package (``navkit.formats()``' ``attribute_bits``, which the
format crates define), so the panel has no table of its own."""

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
        if face is None:
            return None
        if face.index < 0:  # a face added in this edit session: number them as they lie
            bm.faces.index_update()
        return face.index
    index = mesh.polygons.active
    return index if 0 <= index < len(mesh.polygons) else None


_BITS = {}


def named_bits(format_name):
    """``{attribute: [(mask, name), ...]}`` (masks ascending) of the format named, from the
    package's table; read once."""
    if not _BITS:
        import navkit

        for f in navkit.formats():
            tables = f.get("attribute_bits", {})
            _BITS[f["name"]] = {a: sorted((m, n) for n, m in bits.items()) for a, bits in tables.items()}
    return _BITS.get(format_name, {})


def as_int32(value):
    """An unsigned 32-bit value as the signed integer Blender's INT attributes and properties
    hold (the same low 32 bits)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


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
                tables = named_bits(obj.get(importer.PROP_FORMAT))
                for name, value in face_values(obj, face):
                    draw_value(col, name, value & 0xFFFFFFFF, tables.get(name))
        row = layout.row(align=True)
        row.operator("export_scene.navkit", text="Export...")
        row.operator("navkit.fix", text="Fix")
        layout.operator("navkit.find_path", text="Find Path (2 selected faces)")


def draw_value(col, name, raw, bits):
    """One face attribute: its value, and for a flag attribute one checkbox per named bit (the
    ``navkit.set_flag`` operator) and the set bits the format does not name as a number."""
    col.label(text=f"{name}: {raw}" if not bits else f"{name}: {raw:#x}")
    if not bits:
        return
    box = col.box().column(align=True)
    named = 0
    for mask, bit_name in bits:
        named |= mask
        on = raw & mask == mask
        op = box.operator(
            SetFlagNavkit.bl_idname,
            text=bit_name,
            icon="CHECKBOX_HLT" if on else "CHECKBOX_DEHLT",
            emboss=False,
        )
        op.attribute = name
        op.mask = as_int32(mask)
        op.value = not on
    other = raw & ~named & 0xFFFFFFFF
    if other:
        box.label(text=f"other bits: {other:#x}")


class SetFlagNavkit(bpy.types.Operator):
    """Set or clear flag bits in a face's integer attribute (the active face by default)"""

    bl_idname = "navkit.set_flag"
    bl_label = "Set navkit flag"
    bl_options = {"REGISTER", "UNDO"}

    attribute: bpy.props.StringProperty(name="Attribute", description="The face attribute")
    mask: bpy.props.IntProperty(name="Mask", description="The bits (32-bit, as a signed integer)")
    value: bpy.props.BoolProperty(name="Set", description="Set the bits (else clear them)")
    face: bpy.props.IntProperty(name="Face", description="The face, -1 for the active one", default=-1)

    @classmethod
    def poll(cls, context):
        obj = context.active_object
        return obj is not None and obj.type == "MESH"

    def execute(self, context):
        obj = context.active_object
        face = self.face if self.face >= 0 else active_face(obj)
        mask = self.mask & 0xFFFFFFFF
        if face is None or not mask:
            self.report({"ERROR"}, "no active face" if face is None else "no bit to set")
            return {"CANCELLED"}

        def update(old):
            new = old | mask if self.value else old & ~mask
            return as_int32(new)

        mesh = obj.data
        if obj.mode == "EDIT":
            bm = bmesh.from_edit_mesh(mesh)
            layer = bm.faces.layers.int.get(self.attribute)
            if layer is None or face >= len(bm.faces):
                return self.missing(face)
            bm.faces.ensure_lookup_table()
            target = bm.faces[face]
            target[layer] = update(target[layer])
            bmesh.update_edit_mesh(mesh, loop_triangles=False, destructive=False)
        else:
            attr = mesh.attributes.get(self.attribute)
            if attr is None or attr.domain != "FACE" or attr.data_type != "INT" or face >= len(attr.data):
                return self.missing(face)
            attr.data[face].value = update(attr.data[face].value)
            mesh.update()
        for area in context.screen.areas if context.screen else ():
            area.tag_redraw()
        return {"FINISHED"}

    def missing(self, face):
        self.report({"ERROR"}, f"face {face} has no integer attribute {self.attribute!r}")
        return {"CANCELLED"}


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


CLASSES = (NAVKIT_PT_panel, SetFlagNavkit, FindPathNavkit)
