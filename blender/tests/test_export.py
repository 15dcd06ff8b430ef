"""Export, in Blender: unedited imports written back byte for byte, and edits made through
bmesh that `navkit diff` shows exactly."""

from collections import Counter

import numpy as np
import pytest

import bmesh
import bpy
import navkit
from conftest import cli, corpus_dir, need_corpus, one_per_format_and_version

# The formats whose files are written back from Blender: navmeshes through their polygon
# objects (navkit apply), graphs (Quake) through their node objects (apply_graph). A plugin is
# written back navmesh by navmesh, each through its NVNM.
EDITABLE = {
    "nav-source", "nav-source2", "nvnm-skyrim", "nav2-mgsv", "jmxvnvm", "skyrim-plugin",
    "nav-quake",
}
CASES = one_per_format_and_version() or [None]

# A whole folder per format, every file in it (not its subfolders): corpus folders, and the
# repository's own Silkroad samples (no public .nvm exists).
FOLDERS = ["source", "source2", "quake/nav2-original", "mgsv", "skyrim", "skyrim/nvnm"]


def folder_cases():
    import pathlib

    root = corpus_dir()
    found = []
    if root is not None and root.is_dir():
        for folder in FOLDERS:
            found += sorted(
                p for p in (root / folder).iterdir()
                if p.is_file() and p.suffix.lower() in {".nav", ".nav2", ".esp", ".esm", ".nvnm"}
            )
    repo = pathlib.Path(__file__).resolve().parents[2]
    found += sorted((repo / "samples" / "silkroad").glob("*.nvm"))
    return found


def folder_ident(p):
    root = corpus_dir()
    try:
        return str(p.relative_to(root))
    except (ValueError, TypeError):
        return p.name


def ident(p):
    return "no-corpus" if p is None else str(p.relative_to(corpus_dir()))


def import_only(addon, path, graph=False):
    """Imports ``path`` (with its graph objects when ``graph``) and selects what was made."""
    made = addon.importer.import_file(bpy.context, str(path), graph=graph)
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
    unedited_round_trip(addon, path, tmp_path)


@pytest.mark.parametrize("path", folder_cases(), ids=folder_ident)
def test_every_file_of_a_folder_per_format_exports_the_same_bytes(scene, addon, path, tmp_path):
    if "samples" not in path.parts:
        need_corpus()
    unedited_round_trip(addon, path, tmp_path)


def test_the_folders_hold_every_format():
    need_corpus()
    formats = {navkit.open(p).format for p in folder_cases()}
    assert formats >= EDITABLE, sorted(EDITABLE - formats)


def unedited_round_trip(addon, path, tmp_path):
    nav = navkit.open(path)
    # As the import operator does by default: polygon objects and graph objects, all exported.
    made = import_only(addon, path, graph=True)
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


@pytest.mark.parametrize("name", ["vrf_de_mirage_v35.nav", "Undaunted_040D4997.nvnm",
                                  "ssav_136_127_nav.nav2", "css_de_dust2.nav"])
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
    n = len(bm.faces)
    offsets, indices = nav.polygons
    touched = {k for k in range(n) if moved.index in indices[offsets[k]:offsets[k + 1]]}
    # Change an attribute of one face: a flag the user sets (not one derived from links, which
    # fix recomputes). A Fox Engine attribute belongs to a segment of several faces, which apply
    # refuses to split: leave it there.
    layer_name = next(iter(attributes), None)
    named = nav.attribute_bits().get(layer_name, {})
    mask = named.get("stairs") or named.get("preferred") or 1
    if layer_name is not None and nav.format != "nav2-mgsv":
        layer = bm.faces.layers.int[layer_name]
        bm.faces[n // 3][layer] ^= mask
    # Add a face: a copy of one face's corners, one unit along X and Y toward the middle of the
    # mesh (inside any bounds the format has; an axis-aligned Source area stays one).
    source_face = bm.faces[n // 4]
    template = [v.co.copy() for v in source_face.verts]
    middle = sum((v.co for v in bm.verts), moved.co * 0) / len(bm.verts)
    corner = sum(template, moved.co * 0) / len(template)
    dx = 1.0 if middle.x > corner.x else -1.0
    dy = 1.0 if middle.y > corner.y else -1.0
    new_verts = [bm.verts.new((c.x + dx, c.y + dy, c.z)) for c in template]
    added_face = bm.faces.new(new_verts)
    # It carries the attribute values of the face it copies, as a modeller copying a face would.
    for name in attributes:
        layer = bm.faces.layers.int[name]
        added_face[layer] = source_face[layer]
    # Delete a face from the middle.
    bm.faces.ensure_lookup_table()
    bmesh.ops.delete(bm, geom=[bm.faces[n // 2]], context="FACES_ONLY")
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
    # One polygon deleted and one added (a new face of n corners is one record, or n - 2
    # triangles where the format holds triangles), the moved vertex somewhere new.
    corners = len(template)
    added = corners - 2 if nav.format == "nvnm-skyrim" else 1
    assert len(edited.polygons[0]) == len(nav.polygons[0]) - 1 + added, text
    assert not np.array_equal(edited.vertices, nav.vertices)
    # Nothing else changed: every polygon the edit did not touch is in the edited file with
    # the same corners and the same attribute values; the flagged one with its bit flipped.
    before, after = signatures(nav), signatures(edited)
    flagged = n // 3 if layer_name is not None and nav.format != "nav2-mgsv" else None
    kept = Counter(before[k] for k in range(n) if k not in touched | {n // 2, flagged})
    assert not kept - Counter(after), kept - Counter(after)
    if flagged is not None and flagged not in touched:
        corners_of, values = before[flagged]
        names = list(attributes)
        flipped = tuple(v ^ mask if i == names.index(layer_name) else v for i, v in enumerate(values))
        assert (corners_of, flipped) in set(after)


def signatures(nav):
    """Each polygon as (its corners' coordinates, rounded and sorted; its attribute values)."""
    offsets, indices = nav.polygons
    points = np.round(nav.vertices.astype(np.float64), 2)
    values = np.stack(list(nav.polygon_attributes().values()) or [np.zeros(len(offsets) - 1)], axis=1)
    return [
        (tuple(sorted(map(tuple, points[indices[offsets[k]:offsets[k + 1]]].tolist()))),
         tuple(int(v) for v in values[k]))
        for k in range(len(offsets) - 1)
    ]


def quake_case():
    return edit_case("ry_dm7_v15.nav")


def export_refused(out, match):
    """Export of the selection fails with an error matching ``match`` and writes nothing."""
    with pytest.raises(RuntimeError, match=match):
        bpy.ops.export_scene.navkit(filepath=str(out))
    assert not out.exists()


def test_a_node_moved_through_bmesh_is_what_diff_shows(scene, addon, tmp_path):
    path = quake_case()
    nav = navkit.open(path)
    [obj] = import_only(addon, path, graph=True)
    assert obj.get(addon.importer.PROP_ROLE) == "graph"
    k = len(nav.nodes) // 2
    bm = bmesh.new()
    bm.from_mesh(obj.data)
    bm.verts.ensure_lookup_table()
    bm.verts[k].co.x += 24.0
    bm.verts[k].co.z -= 8.5
    bm.to_mesh(obj.data)
    bm.free()
    out = tmp_path / "moved.nav"
    bpy.ops.export_scene.navkit(filepath=str(out))
    lines = cli("diff", path, out, check=False).stdout.decode().splitlines()
    old = nav.nodes[k]
    new = [float(np.float32(old[0] + 24.0)), float(old[1]), float(np.float32(old[2] - 8.5))]
    assert len(lines) == 1 and lines[0].startswith(f"nodes[{k}].origin: "), lines
    assert np.array_equal(navkit.open(out).nodes[k], np.float32(new))
    assert len(out.read_bytes()) == len(path.read_bytes())
    assert not [f for f in navkit.open(out).validate() if f.severity == "error"]


def test_a_deleted_node_is_refused_and_nothing_written(scene, addon, tmp_path):
    path = quake_case()
    [obj] = import_only(addon, path, graph=True)
    bm = bmesh.new()
    bm.from_mesh(obj.data)
    bm.verts.ensure_lookup_table()
    bmesh.ops.delete(bm, geom=[bm.verts[3]], context="VERTS")
    bm.to_mesh(obj.data)
    bm.free()
    export_refused(tmp_path / "deleted.nav", "nodes cannot be added or deleted in the mesh")


def test_a_graph_drawn_from_polygons_is_not_written_back_alone(scene, addon, tmp_path):
    path = edit_case("ssav_136_127_nav.nav2")
    made = import_only(addon, path, graph=True)
    graph = [o for o in made if o.get(addon.importer.PROP_ROLE) == "graph"]
    assert graph and len(made) == 2
    for o in made:
        o.select_set(o in graph)
    export_refused(tmp_path / "graph.nav2", "derive from the navmesh's polygons")


def test_a_graph_obj_through_blender_applies_with_the_cli(scene, tmp_path):
    """`navkit export` to OBJ, Blender's own OBJ import and export (default settings), then
    `navkit apply`: unedited gives the same bytes, a moved vertex moves its node."""
    path = quake_case()
    exported, back = tmp_path / "graph.obj", tmp_path / "back.obj"
    cli("export", path, "-o", exported)
    bpy.ops.wm.obj_import(filepath=str(exported))
    [obj] = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    bpy.ops.wm.obj_export(filepath=str(back))
    out = tmp_path / "same.nav"
    cli("apply", path, back, "-o", out)
    assert out.read_bytes() == path.read_bytes()
    obj.data.vertices[7].co.z += 32.0  # Blender's Z is the file's Z
    bpy.ops.wm.obj_export(filepath=str(back))
    out = tmp_path / "moved.nav"
    lines = cli("apply", path, back, "-o", out).stdout.decode().splitlines()
    assert lines[0].startswith("nodes[7]: origin moved to ") and len(lines) == 2, lines
    diff = cli("diff", path, out, check=False).stdout.decode().splitlines()
    assert len(diff) == 1 and diff[0].startswith("nodes[7].origin: "), diff
