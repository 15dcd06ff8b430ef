"""Silkroad regions edited in Blender: one side of a cell moved (both its corners), a face
deleted and a rectangle added (4 new vertices, 1 face), written back with the add-on's export
and, the same edit, through Blender's own glTF export (default settings: triangles, so the moved
cell comes back as a triangle with two unmoved corners and one with a single unmoved corner,
which completes it) and `navkit apply`; the deletion and the rectangle also through glTF alone.
Either way the region validates, `navkit diff` shows the edit, the new
rectangle's centre locates a cell with that rectangle, and every cell the edit did not touch
keeps its rectangle. On the repository's samples: no public .nvm file exists."""

import pathlib
from collections import Counter

import pytest

import bmesh
import bpy
import navkit
from conftest import cli

SAMPLES = sorted((pathlib.Path(__file__).resolve().parents[2] / "samples" / "silkroad").glob("*.nvm"))
TILE = 20.0


def cells_of(nav):
    """Each cell's rectangle, ``((min x, min z), (max x, max z))``, in file order; the open count."""
    model = nav.to_dict()["model"]
    rects = [(tuple(c["min"]), tuple(c["max"])) for c in model["cells"]]
    return rects, model["open_cell_count"]


def plan(nav):
    """What to edit: the cell whose max-x side moves in by a tile, the cell deleted (None where
    the region has fewer than three cells: nothing would be left to add into), the open cell the
    new rectangle is drawn inside (a 2 × 2 tile square one tile in from its corner) and that
    rectangle."""
    rects, open_count = cells_of(nav)
    wide = lambda k: all(rects[k][1][a] - rects[k][0][a] >= 4 * TILE for a in (0, 1))
    into = next(k for k in range(open_count) if wide(k))
    moved = next(
        (k for k in range(len(rects)) if k != into and rects[k][1][0] - rects[k][0][0] >= 2 * TILE),
        into,
    )
    deleted = next((k for k in reversed(range(len(rects))) if k not in (into, moved)), None)
    # With one cell in all, it is both the moved one and the one drawn in.
    (x0, z0), _ = rects[into]
    new = ((x0 + TILE, z0 + TILE), (x0 + 3 * TILE, z0 + 3 * TILE))
    return moved, deleted, into, new


def edit_in_blender(addon, path, move=True):
    """Imports ``path`` with the add-on and makes the planned edit through bmesh (without the
    moved side unless ``move``); the plan (``moved`` None without it)."""
    nav = navkit.open(path)
    made = addon.importer.import_file(bpy.context, str(path), graph=False)
    [obj] = made
    moved, deleted, into, new = plan(nav)
    offsets, indices = nav.polygons
    records = nav.polygon_records["index"]
    face_of = {int(r): k for k, r in enumerate(records)}
    bm = bmesh.new()
    bm.from_mesh(obj.data)
    bm.verts.ensure_lookup_table()
    bm.faces.ensure_lookup_table()
    # A cell's corners run (min.x, max.z), (max.x, max.z), (max.x, min.z), (min.x, min.z):
    # corners 1 and 2 are its max-x side. Blender's X is the file's x.
    f = face_of[moved]
    corners = indices[offsets[f]:offsets[f + 1]]
    for j in (1, 2) if move else ():
        bm.verts[int(corners[j])].co.x -= TILE
    # The new rectangle, counter-clockwise seen from above as the import's faces are, on the
    # height of the cell it is drawn in (the file's (x, y, z) is Blender's (x, -z, y)).
    into_corners = indices[offsets[face_of[into]]:offsets[face_of[into] + 1]]
    y = float(sum(nav.vertices[int(v)][1] for v in into_corners) / len(into_corners))
    (x0, z0), (x1, z1) = new
    verts = [bm.verts.new((x, -z, y)) for x, z in [(x0, z1), (x1, z1), (x1, z0), (x0, z0)]]
    bm.faces.new(verts)
    if deleted is not None:
        bm.faces.ensure_lookup_table()
        bmesh.ops.delete(bm, geom=[bm.faces[face_of[deleted]]], context="FACES_ONLY")
    bm.to_mesh(obj.data)
    bm.free()
    for o in bpy.context.selected_objects:
        o.select_set(False)
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj
    return (moved if move else None), deleted, into, new, y


def check(path, out, moved, deleted, into, new, y):
    """The edited region ``out`` against ``path``: see the module's docs."""
    nav, edited = navkit.open(path), navkit.open(out)
    errors = [f for f in edited.validate() if f.severity == "error"]
    assert not errors, errors
    before, _ = cells_of(nav)
    after, _ = cells_of(edited)
    diff = cli("diff", path, out, check=False).stdout.decode().splitlines()
    assert diff, "diff shows the edit"
    # The new rectangle is a cell, found at its centre.
    centre = ((new[0][0] + new[1][0]) / 2, y, (new[0][1] + new[1][1]) / 2)
    found = edited.locate(centre)
    assert found is not None, centre
    k = int(edited.cell_ids[found])
    assert after[k] == new, (after[k], new)
    # The moved cell has its new side; the deleted one is gone (one fewer cell, the new one and
    # the pieces of the cell it was drawn in more).
    assert len(after) > len(before) - (deleted is not None)
    text = "\n".join(diff)
    if moved is not None:
        (mx0, mz0), (mx1, mz1) = before[moved]
        if moved != into:
            assert ((mx0, mz0), (mx1 - TILE, mz1)) in after
        assert f"{mx1 - TILE:g}" in text, text
    assert "cells[" in text, text
    # Every cell the edit did not touch keeps its rectangle.
    touched = {moved, into, deleted} - {None}
    kept = Counter(r for i, r in enumerate(before) if i not in touched)
    assert not kept - Counter(after), kept - Counter(after)
    if deleted is not None and before.count(before[deleted]) == 1:
        assert before[deleted] not in after
    return diff


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_an_edit_exported_with_the_addon(scene, addon, path, tmp_path):
    moved, deleted, into, new, y = edit_in_blender(addon, path)
    out = tmp_path / "edited.nvm"
    bpy.ops.export_scene.navkit(filepath=str(out))
    check(path, out, moved, deleted, into, new, y)


def through_gltf(addon, path, tmp_path, move):
    """The edit exported with Blender's glTF exporter (default settings) and applied with
    `navkit apply`, then checked."""
    moved, deleted, into, new, y = edit_in_blender(addon, path, move=move)
    glb = tmp_path / "edited.glb"
    bpy.ops.export_scene.gltf(filepath=str(glb))
    out = tmp_path / "edited.nvm"
    lines = cli("apply", path, glb, "-o", out).stdout.decode().splitlines()
    # glTF holds triangles: the rectangle came back as two, made one cell.
    assert any("+faces[" in line and ": new " in line for line in lines), lines
    check(path, out, moved, deleted, into, new, y)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_a_deletion_and_a_rectangle_through_blenders_gltf(scene, addon, path, tmp_path):
    through_gltf(addon, path, tmp_path, move=False)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_the_same_edit_with_a_moved_side_through_blenders_gltf(scene, addon, path, tmp_path):
    through_gltf(addon, path, tmp_path, move=True)
