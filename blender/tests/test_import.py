"""Import, in Blender: every format and version of the corpus, checked against the package."""

import time

import numpy as np
import pytest

import bpy
import navkit
from conftest import corpus_dir, need_corpus, one_per_format_and_version

CASES = one_per_format_and_version() or [None]


def ident(p):
    return "no-corpus" if p is None else str(p.relative_to(corpus_dir()))


def mesh_objects(made):
    return [o for o in made if o.get("navkit_role") == "mesh"]


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_import_gives_the_file_s_polygons(scene, addon, path):
    if path is None:
        need_corpus()
    nav = navkit.open(path)
    made = addon.importer.import_file(bpy.context, str(path))
    parts = nav.parts() or {None: nav}
    meshes = {o.get("navkit_part"): o for o in mesh_objects(made)}
    for name, part in parts.items():
        offsets, indices = part.polygons
        if len(offsets) < 2:
            assert name not in meshes
            continue
        obj = meshes[name]
        # Blender finds nothing to mend in what the importer made (its validate returns
        # whether it changed anything).
        assert not obj.data.validate(verbose=True)
        for o in made:
            assert not o.data.validate(verbose=True), o.name
        assert obj["navkit_format"] == nav.format and obj["navkit_source"] == str(path)
        co, got_offsets, got_indices = addon.mesh_io.read_mesh(obj.data)
        assert np.array_equal(got_offsets, offsets)
        back = addon.mesh_io.from_blender(co, part.up).view(np.uint32)
        file_vertices = np.asarray(part.vertices).view(np.uint32)
        # The file's vertices first, every coordinate with its bits (NaN payloads included);
        # copies after them only for polygons Blender cannot hold as stored.
        assert back[: len(file_vertices)].tobytes() == file_vertices.tobytes()
        assert back[got_indices].tobytes() == file_vertices[indices].tobytes()
        if len(back) == len(file_vertices):
            assert np.array_equal(got_indices, indices)
        kinds = addon.mesh_io.int_attribute(obj.data, "navkit_kind")
        assert np.array_equal(kinds, part.polygon_kinds)


def test_import_is_fast(scene, addon):
    root = need_corpus()
    nucleus = next(root.rglob("tfnm_vsh_nucleus.nav"))
    start = time.perf_counter()
    made = addon.importer.import_file(bpy.context, str(nucleus))
    took = time.perf_counter() - start
    print(f"import of {nucleus.name}: {took:.3f} s, {len(made)} objects")
    assert mesh_objects(made) and took <= 1.0


def test_operator_is_registered_and_reports(scene, addon, tmp_path):
    bad = tmp_path / "bad.nav"
    bad.write_bytes(b"\xce\xfa\xed\xfe" + bytes(8))
    with pytest.raises(RuntimeError, match="nav-source"):
        bpy.ops.import_scene.navkit(filepath=str(bad))
    assert not bpy.data.objects


def test_a_graph_carries_node_and_link_kinds(scene, addon):
    root = need_corpus()
    path = next(root.rglob("ry_dm7_v15.nav"))
    nav = navkit.open(path)
    [obj] = addon.importer.import_file(bpy.context, str(path), graph=True)
    mesh = obj.data
    kinds = list(obj["navkit_kinds"])
    assert kinds == nav.kinds
    node_kind = addon.mesh_io.int_attribute(mesh, "node_kind")
    assert np.array_equal(node_kind, nav.node_kinds)
    radius = np.empty(len(mesh.vertices), dtype=np.float32)
    mesh.attributes["radius"].data.foreach_get("value", radius)
    assert np.isfinite(radius).all() and (radius > 0).all()
    # Every edge carries the kind of the first link each way between its two nodes.
    forward = addon.mesh_io.int_attribute(mesh, "link_kind")
    back = addon.mesh_io.int_attribute(mesh, "link_kind_back")
    first = {}
    for (a, b), kind in zip(nav.links.tolist(), nav.link_kinds.tolist()):
        if a != b:
            first.setdefault((a, b), kind)
    assert len(mesh.edges) > 0
    for e in mesh.edges:
        lo, hi = sorted(e.vertices)
        assert forward[e.index] == first.get((lo, hi), -1)
        assert back[e.index] == first.get((hi, lo), -1)
    assert set(first) and (forward >= 0).sum() + (back >= 0).sum() >= len(mesh.edges)
