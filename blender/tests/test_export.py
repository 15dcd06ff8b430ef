"""Export, in Blender: unedited imports written back byte for byte, and edits made through
bmesh that `navkit diff` shows exactly."""

import numpy as np
import pytest

import bmesh
import bpy
import navkit
from conftest import cli, corpus_dir, need_corpus, one_per_format_and_version

# The formats whose navmeshes take mesh edits (navkit apply).
EDITABLE = {"nav-source", "nav-source2", "nvnm-skyrim", "nav2-mgsv", "jmxvnvm"}
CASES = one_per_format_and_version() or [None]


def ident(p):
    return "no-corpus" if p is None else str(p.relative_to(corpus_dir()))


def import_only(addon, path):
    made = addon.importer.import_file(bpy.context, str(path), graph=False)
    for o in bpy.context.selected_objects:
        o.select_set(False)
    for o in made:
        o.select_set(True)
    if made:
        bpy.context.view_layer.objects.active = made[0]
    return made


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_unedited_import_exports_the_same_bytes(scene, addon, path, tmp_path):
    if path is None:
        need_corpus()
    nav = navkit.open(path)
    made = import_only(addon, path)
    out = tmp_path / ("out" + path.suffix)
    if nav.format not in EDITABLE or not made:
        if made:
            with pytest.raises(RuntimeError):
                bpy.ops.export_scene.navkit(filepath=str(out))
            assert not out.exists()
        return
    bpy.ops.export_scene.navkit(filepath=str(out))
    assert out.read_bytes() == path.read_bytes()


def edit_case(name):
    root = need_corpus()
    return next(root.rglob(name))


@pytest.mark.parametrize("name", ["vrf_de_mirage_v35.nav", "Cheat_Room_05005793.nvnm",
                                  "ssav_136_127_nav.nav2"])
def test_edits_through_bmesh_are_what_diff_shows(scene, addon, name, tmp_path):
    path = edit_case(name)
    nav = navkit.open(path)
    [obj] = import_only(addon, path)
    attributes = nav.polygon_attributes()
    mesh = obj.data
    bm = bmesh.new()
    bm.from_mesh(mesh)
    bm.verts.ensure_lookup_table()
    bm.faces.ensure_lookup_table()
    # Move one vertex of face 5 up by 4 units.
    moved = bm.faces[5].verts[0]
    moved.co.z += 4.0
    # Change an attribute of face 9 (its first bit flipped).
    layer_name = next(iter(attributes), None)
    if layer_name is not None:
        layer = bm.faces.layers.int[layer_name]
        bm.faces[9][layer] ^= 1
    # Delete face 20.
    bmesh.ops.delete(bm, geom=[bm.faces[20]], context="FACES_ONLY")
    bm.to_mesh(mesh)
    bm.free()
    out = tmp_path / ("edited" + path.suffix)
    bpy.ops.export_scene.navkit(filepath=str(out))
    lines = cli("diff", path, out, check=False).stdout.decode().splitlines()
    assert lines, "diff shows the edit"
    text = "\n".join(lines)
    findings = navkit.open(out).validate()
    assert not [f for f in findings if f.severity == "error"], findings
    edited = navkit.open(out)
    # One polygon fewer, the moved vertex somewhere new.
    assert len(edited.polygons[0]) == len(nav.polygons[0]) - 1, text
    assert not np.array_equal(edited.vertices, nav.vertices)
