"""The module's surface: stubs, docstrings, errors, files, threads; on the repository's samples."""

import ast
import pathlib
import threading

import numpy as np
import pytest

import navkit
from conftest import ROOT

STUB = pathlib.Path(navkit.__file__).with_name("__init__.pyi")
SAMPLE = ROOT / "samples" / "quake" / "room_nav3_v6.nav"


def stub_tree():
    return ast.parse(STUB.read_text())


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_every_stub_name_is_in_the_module_and_back():
    tree = stub_tree()
    stubbed = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            stubbed.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            stubbed.add(node.target.id)
    stubbed = public(stubbed)
    module = public(dir(navkit._navkit))
    assert stubbed == module
    assert set(navkit.__all__) == module | {"__version__"}
    for name in stubbed:
        assert hasattr(navkit, name), name


def test_every_stub_member_is_in_the_class_and_back():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef) or node.name == "NavError":
            continue
        cls = getattr(navkit, node.name)
        stubbed = public(n.name for n in node.body if isinstance(n, ast.FunctionDef))
        assert stubbed == public(dir(cls)), node.name


def test_everything_has_a_docstring():
    for name in navkit.__all__:
        if name == "__version__":
            continue
        obj = getattr(navkit, name)
        assert obj.__doc__, name
        if isinstance(obj, type):
            for member in public(dir(obj)) - public(dir(ValueError)):
                assert getattr(obj, member).__doc__, f"{name}.{member}"


def test_nav_error_is_a_value_error_with_the_cli_message():
    assert issubclass(navkit.NavError, ValueError)
    with pytest.raises(navkit.NavError, match="the file is empty"):
        navkit.open(b"")
    with pytest.raises(navkit.NavError, match="first bytes: 61 62 63"):
        navkit.open(b"abc")
    with pytest.raises(navkit.NavError, match="no-such-file.nav"):
        navkit.open("no-such-file.nav")
    with pytest.raises(navkit.NavError, match="unknown format `nope`; this build reads: nav-quake"):
        navkit.open(SAMPLE, format="nope")
    with pytest.raises(navkit.NavError, match="unknown flavour"):
        navkit.open(SAMPLE, flavour="portal2")
    with pytest.raises(navkit.NavError, match="nav-quake"):
        navkit.open(SAMPLE, format="nav-quake", flavour="cs")
    with pytest.raises(TypeError):
        navkit.open(12)
    with pytest.raises(navkit.NavError, match="not JSON"):
        navkit.from_json("{")
    with pytest.raises(navkit.NavError, match="no \"format\" field"):
        navkit.from_json("{}")


def test_a_sample_round_trips_and_saves_atomically(tmp_path):
    data = SAMPLE.read_bytes()
    mesh = navkit.open(SAMPLE)
    assert mesh.format == "nav-quake" and mesh.source == SAMPLE
    assert mesh.to_bytes() == data
    assert navkit.open(bytearray(data)).to_bytes() == data
    assert navkit.from_json(mesh.to_json()).to_bytes() == data
    assert navkit.from_dict(mesh.to_dict()).to_bytes() == data
    out = tmp_path / "copy.nav"
    mesh.save(out)
    assert out.read_bytes() == data
    assert [p.name for p in tmp_path.iterdir()] == ["copy.nav"]
    with pytest.raises(navkit.NavError):
        mesh.save(tmp_path / "missing" / "x.nav")
    info = mesh.info()
    assert info["format"] == "nav-quake" and info["size"] == len(data)
    assert navkit.diff(mesh, navkit.open(data)) == []
    assert mesh.validate() == [] or all(f.severity in ("error", "warning", "info") for f in mesh.validate())


def test_moved_graph_nodes_go_back_onto_the_file():
    data = SAMPLE.read_bytes()
    mesh = navkit.open(SAMPLE)
    nodes, links = mesh.nodes, mesh.links
    # Unedited, through the setter or with the links as a 3D tool holds them: the same bytes.
    mesh.nodes = nodes
    assert mesh.apply_graph(nodes, links[:, ::-1]) == []
    assert mesh.to_bytes() == data
    moved = nodes.copy()
    moved[2] += np.float32([8.0, -4.5, 16.0])
    x, y, z = (float(c) for c in moved[2])
    assert mesh.apply_graph(moved, links) == [f"nodes[2]: origin moved to ({x:g}, {y:g}, {z:g})"]
    assert np.flatnonzero(np.any(mesh.nodes != nodes, axis=1)).tolist() == [2]
    assert navkit.diff(navkit.open(data), mesh) == [
        "nodes[2].origin: [256.0, 256.0, 24.0] -> [264.0, 251.5, 40.0]"
    ]
    after = mesh.to_bytes()
    # Refused, and nothing changed: a deleted node, a deleted link, a link that names no node.
    with pytest.raises(navkit.NavError, match="nodes cannot be added or deleted"):
        mesh.nodes = moved[:-1]
    with pytest.raises(navkit.NavError, match="links cannot be added or deleted"):
        pairs = np.sort(links, axis=1)
        mesh.apply_graph(moved, links[np.any(pairs != pairs[0], axis=1)])
    with pytest.raises(ValueError, match="not a node index"):
        mesh.apply_graph(moved, [[0, -1]])
    assert mesh.to_bytes() == after


def test_attribute_bits_name_flags_and_a_set_bit_is_written(tmp_path):
    assert navkit.open(SAMPLE).attribute_bits() == {}
    source = ROOT / "samples" / "source" / "cs_v16_1.nav"
    mesh = navkit.open(source)
    bits = mesh.attribute_bits()
    assert set(bits) == {"attribute_flags"}
    assert bits["attribute_flags"]["jump"] == 0x2 and bits["attribute_flags"]["crouch"] == 0x1
    by_format = {f["name"]: f["attribute_bits"] for f in navkit.formats()}
    assert by_format["nav-source"] == bits and by_format["nav-quake"] == {}
    assert set(by_format["skyrim-plugin"]) == {"flags", "cover_flags"}
    assert by_format["nvnm-skyrim"] == by_format["skyrim-plugin"]
    before = mesh.polygon_attributes()["attribute_flags"]
    flags = before.copy()
    flags[0] ^= bits["attribute_flags"]["stairs"]
    mesh.apply(mesh.vertices, *mesh.polygons, attributes={"attribute_flags": flags})
    out = tmp_path / "flag.nav"
    mesh.save(out)
    after = navkit.open(out).polygon_attributes()["attribute_flags"]
    assert list(np.nonzero(after != before)[0]) == [0]
    assert after[0] ^ before[0] == 0x1000


def test_export_and_render_write_files(tmp_path):
    mesh = navkit.open(SAMPLE)
    for name in ["m.obj", "m.glb", "m.png", "m.svg"]:
        getattr(mesh, "render" if name.endswith(("png", "svg")) else "export")(tmp_path / name)
        assert (tmp_path / name).stat().st_size > 0
    with pytest.raises(ValueError):
        mesh.export(tmp_path / "m.txt")
    with pytest.raises(ValueError):
        mesh.render(tmp_path / "m.png", size=10)


def test_navigation_from_several_threads():
    mesh = navkit.open(SAMPLE)
    centres = mesh.cells["centre"]
    points = np.repeat(centres[~np.isnan(centres[:, 0])], 50, axis=0)
    expected = mesh.locate_many(points)
    assert (expected >= 0).all()
    results = [None] * 4

    def work(i):
        results[i] = mesh.locate_many(points)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        assert np.array_equal(r, expected)


def test_path_arguments():
    mesh = navkit.open(SAMPLE)
    ids = mesh.cell_ids
    route = mesh.path(int(ids[0]), int(ids[0]))
    assert route.reachable and route.cells == [0] and route.cost == 0.0
    assert route.ids == [str(ids[0])]
    with pytest.raises(navkit.NavError, match="no cell has the id"):
        mesh.path(10**12, int(ids[0]))
    with pytest.raises(ValueError, match="weight"):
        mesh.path(int(ids[0]), int(ids[0]), weight="time")
    far = mesh.path([1e9, 1e9, 1e9], int(ids[0]))
    assert not far.reachable and "is on no cell" in far.reason and far.start is None
    assert mesh.locate([1e9, 1e9, 1e9]) is None
    assert mesh.locate_many(np.array([[1e9, 1e9, 1e9]])).tolist() == [-1]
    with pytest.raises(ValueError):
        mesh.locate_many(np.zeros((2, 2)))
