"""The side panel, in Blender: each flag bit the format names is a checkbox on the active face;
toggling it (the ``navkit.set_flag`` operator) changes that bit of that face and nothing else,
in object mode and in edit mode, and Export writes exactly that change."""

import types

import numpy as np
import pytest

import bmesh
import bpy
import navkit
from conftest import need_corpus

# (corpus file, attribute, bit name, mode the flag is set in)
CASES = [
    ("source/css_de_dust2.nav", "attribute_flags", "stairs", "OBJECT"),
    ("skyrim/Portable Storage Room.esp", "flags", "preferred", "EDIT"),
]


class Recorder:
    """A stand-in for Blender's UILayout that records what the panel draws."""

    def __init__(self, log):
        self.log = log

    def label(self, text="", **_):
        self.log.append(("label", text))

    def operator(self, idname, text="", icon="NONE", **_):
        props = types.SimpleNamespace()
        self.log.append(("operator", idname, text, icon, props))
        return props

    def column(self, **_):
        return self

    def row(self, **_):
        return self

    def box(self):
        return self


def draw_panel(addon):
    log = []
    addon.panel.NAVKIT_PT_panel.draw(types.SimpleNamespace(layout=Recorder(log)), bpy.context)
    return log


def checkboxes(log, attribute):
    return {
        text: (icon, props)
        for kind, *rest in log
        if kind == "operator"
        for idname, text, icon, props in [rest]
        if idname == "navkit.set_flag" and props.attribute == attribute
    }


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_named_flag_set_in_the_panel_is_exported_on_that_face_only(scene, addon, case, tmp_path):
    relative, attribute, bit, mode = case
    path = need_corpus() / relative
    source = navkit.open(path)
    part = next(iter(source.parts().values()), source)
    mask = source.attribute_bits()[attribute][bit]
    before = {k: np.asarray(v) for k, v in part.polygon_attributes().items()}
    face = int(np.flatnonzero(before[attribute] & mask == 0)[0])

    made = addon.importer.import_file(bpy.context, str(path), graph=False)
    obj = next(o for o in made if o.get("navkit_role") == "mesh")
    bpy.context.view_layer.objects.active = obj
    obj.data.polygons.active = face
    assert hasattr(bpy.types, "NAVKIT_PT_panel")

    boxes = checkboxes(draw_panel(addon), attribute)
    assert set(boxes) == set(source.attribute_bits()[attribute])
    icon, props = boxes[bit]
    assert icon == "CHECKBOX_DEHLT" and props.value is True
    assert props.mask & 0xFFFFFFFF == mask

    if mode == "EDIT":
        bpy.ops.object.mode_set(mode="EDIT")
        bm = bmesh.from_edit_mesh(obj.data)
        bm.faces.ensure_lookup_table()
        bm.faces.active = bm.faces[face]
    assert bpy.ops.navkit.set_flag(attribute=attribute, mask=props.mask, value=True) == {"FINISHED"}
    icon, _ = checkboxes(draw_panel(addon), attribute)[bit]
    assert icon == "CHECKBOX_HLT"
    if mode == "EDIT":
        bpy.ops.object.mode_set(mode="OBJECT")

    out = tmp_path / ("out" + path.suffix)
    bpy.ops.export_scene.navkit(filepath=str(out))
    written = navkit.open(out)
    written = next(iter(written.parts().values()), written)
    after = {k: np.asarray(v) for k, v in written.polygon_attributes().items()}
    assert set(after) == set(before)
    for name in before:
        changed = np.flatnonzero(after[name] != before[name])
        if name == attribute:
            assert list(changed) == [face]
            assert after[name][face] ^ before[name][face] == mask
        else:
            assert not len(changed), name


def test_set_flag_clears_and_refuses_what_is_not_there(scene, addon):
    path = need_corpus() / CASES[0][0]
    made = addon.importer.import_file(bpy.context, str(path), graph=False)
    obj = next(o for o in made if o.get("navkit_role") == "mesh")
    bpy.context.view_layer.objects.active = obj
    values = addon.mesh_io.int_attribute(obj.data, "attribute_flags", unsigned=True)
    face = int(np.flatnonzero(values)[0])
    bit = int(values[face]) & -int(values[face])
    assert bpy.ops.navkit.set_flag(attribute="attribute_flags", mask=bit, value=False, face=face) == {"FINISHED"}
    now = addon.mesh_io.int_attribute(obj.data, "attribute_flags", unsigned=True)
    assert now[face] == values[face] & ~bit
    assert np.array_equal(np.delete(now, face), np.delete(values, face))
    # The top bit (Source's nav blocker, 0x80000000) goes through the signed property.
    top = addon.panel.as_int32(0x8000_0000)
    bpy.ops.navkit.set_flag(attribute="attribute_flags", mask=top, value=True, face=face)
    assert addon.mesh_io.int_attribute(obj.data, "attribute_flags", unsigned=True)[face] & 0x8000_0000
    with pytest.raises(RuntimeError, match="no integer attribute"):
        bpy.ops.navkit.set_flag(attribute="nope", mask=1, value=True, face=face)
