"""Every corpus file through the Python package, checked against its bytes and the CLI."""

import json
import random

import numpy as np
import pytest

import navkit
from conftest import cli, corpus_dir, corpus_files, need_corpus

FILES = corpus_files()
# Without a corpus one placeholder case runs, skipping loudly (or failing under
# NAVKIT_REQUIRE_CORPUS=1), so the run shows that nothing was checked.
CASES = FILES or [None]


def ident(p):
    return "no-corpus" if p is None else str(p.relative_to(corpus_dir()))


def opened(path):
    if path is None:
        need_corpus()
    return navkit.open(path), path.read_bytes()


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_round_trip(path):
    mesh, data = opened(path)
    assert mesh.to_bytes() == data
    # From bytes alone a format without a signature (NVNM blobs) is named.
    assert navkit.open(data, format=mesh.format).to_bytes() == data
    again = navkit.from_dict(mesh.to_dict())
    assert again.format == mesh.format
    assert again.to_bytes() == data


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_info_is_the_cli_s(path):
    mesh, data = opened(path)
    expected = json.loads(cli("info", path, "--json").stdout)
    assert mesh.info() == expected


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_broken_files_raise_nav_error(path):
    mesh, data = opened(path)
    rng = random.Random(len(data))
    cuts = {0, 1, len(data) // 2, len(data) - 1, rng.randrange(len(data))} if data else set()
    inputs = [data[:n] for n in cuts if n < len(data)]
    for _ in range(8):
        if not data:
            break
        mutated = bytearray(data)
        for _ in range(4):
            mutated[rng.randrange(len(data))] = rng.randrange(256)
        inputs.append(bytes(mutated))
    for broken in inputs:
        try:
            m = navkit.open(broken, format=mesh.format)
        except navkit.NavError as e:
            assert str(e) and "\n" not in str(e)
            continue
        # A mutation the format accepts: everything on it still answers or raises NavError.
        for call in (m.to_bytes, m.validate, m.info):
            try:
                call()
            except navkit.NavError:
                pass


def obj_of(path, tmp_path):
    out = tmp_path / "mesh.obj"
    cli("export", path, "--output", out)
    vertices, faces, groups = [], {}, None
    for line in out.read_text().splitlines():
        if line.startswith("v "):
            vertices.append([np.float32(v) for v in line.split()[1:]])
        elif line.startswith("g "):
            groups = line[2:]
            faces.setdefault(groups, [])
        elif line.startswith("f "):
            faces[groups].append([int(i) - 1 for i in line.split()[1:]])
    return np.array(vertices, dtype=np.float32).reshape(-1, 3), faces


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_arrays_are_the_cli_export_s(path, tmp_path):
    mesh, _ = opened(path)
    vertices, faces = obj_of(path, tmp_path)
    mine = mesh.vertices
    assert mine.dtype == np.float32 and mine.shape[1] == 3
    nodes = mesh.nodes
    # The OBJ is Y up: a Z-up file's (x, y, z) is written (x, z, -y).
    if mesh.up == "z":
        mine = np.stack([mine[:, 0], mine[:, 2], -mine[:, 1]], axis=1)
        nodes = np.stack([nodes[:, 0], nodes[:, 2], -nodes[:, 1]], axis=1)
    assert np.array_equal(vertices, np.concatenate([mine, nodes]))
    offsets, indices = mesh.polygons
    kinds = mesh.polygon_kinds
    assert offsets[0] == 0 and offsets[-1] == len(indices) and len(offsets) == len(kinds) + 1
    names = mesh.kinds
    expected = {}
    for k in range(len(kinds)):
        name = "".join(c if c.isalnum() and c.isascii() else "_" for c in names[kinds[k]])
        expected.setdefault(name, []).append(indices[offsets[k] : offsets[k + 1]].tolist())
    assert {g: f for g, f in faces.items() if not g.startswith("links_")} == expected


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_navigation_answers_are_consistent(path):
    mesh, _ = opened(path)
    cells = mesh.cells
    ids = mesh.cell_ids
    assert np.array_equal(ids, cells["id"])
    n = len(ids)
    islands = mesh.islands()
    if n:
        assert np.array_equal(np.sort(np.concatenate(islands)), np.arange(n))
    centres = cells["centre"]
    has = np.flatnonzero(~np.isnan(centres[:, 0]))
    if len(has) == 0:
        return
    rng = np.random.default_rng(n)
    sample = rng.choice(has, size=min(len(has), 200), replace=False)
    found = mesh.locate_many(centres[sample])
    assert found.dtype == np.int64
    assert [mesh.locate(centres[i]) for i in sample] == [None if f < 0 else f for f in found]
    # A polygon's centre is on some cell (for convex cells, its own or one stacked on it).
    assert (found >= 0).mean() > 0.5
    for _ in range(10):
        a, b = rng.choice(has, size=2)
        route = mesh.path(int(ids[a]) if cells["part"][a] < 0 else f"{cells['part'][a]:08X}:{ids[a]}",
                          int(ids[b]) if cells["part"][b] < 0 else f"{cells['part'][b]:08X}:{ids[b]}")
        hops = mesh.path(centres[a], centres[b], weight="hops")
        if not route.reachable:
            assert route.reason and route.cells == []
            continue
        assert route.start == route.cells[0] and route.end == route.cells[-1]
        steps = np.diff(centres[route.cells].astype(np.float64), axis=0)
        assert route.cost == pytest.approx(np.linalg.norm(steps, axis=1).sum(), rel=1e-9, abs=1e-9)
        if hops.reachable and hops.start == route.start and hops.end == route.end:
            assert hops.cost == len(hops.cells) - 1 <= len(route.cells) - 1


def _end(mesh, cells, i):
    """Cell `i` as the CLI names it: an area id, or `FORMID:index` inside a plugin."""
    part = cells["part"][i]
    return str(int(mesh.cell_ids[i])) if part < 0 else f"{part:08X}:{mesh.cell_ids[i]}"


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_navigation_agrees_with_the_cli(path, tmp_path):
    mesh, _ = opened(path)
    cells = mesh.cells
    centres = cells["centre"]
    has = np.flatnonzero(~np.isnan(centres[:, 0]))
    rng = np.random.default_rng(len(has))
    pick = rng.choice(has, size=min(len(has), 40), replace=False)
    # The centres, and points off them too, some of them on no cell; the origin in any case.
    near = centres[pick].astype(np.float64)
    off = near + rng.uniform(-30, 30, size=(len(pick), 3))
    points = np.vstack([near, off, np.zeros((1, 3))])
    listing = tmp_path / "points.txt"
    listing.write_text("".join(f"{x!r} {y!r} {z!r}\n" for x, y, z in points.tolist()))
    lines = cli("locate", path, "--points", listing, "--json").stdout.decode().splitlines()
    ours = mesh.locate_many(points)
    assert len(lines) == len(points)
    for found, line in zip(ours.tolist(), lines):
        theirs = json.loads(line)["cell"]
        if found < 0:
            assert theirs is None
        else:
            assert str(theirs) == _end(mesh, cells, found)
    if len(has) == 0:
        return
    ends = rng.choice(has, size=(20, 2))
    pairs = tmp_path / "pairs.txt"
    pairs.write_text("".join(f"{_end(mesh, cells, a)} {_end(mesh, cells, b)}\n" for a, b in ends))
    for weight in ("distance", "hops"):
        out = cli("path", path, "--pairs", pairs, "--weight", weight, "--walk-only", "--json")
        lines = out.stdout.decode().splitlines()
        assert len(lines) == len(ends)
        for (a, b), line in zip(ends.tolist(), lines):
            theirs = json.loads(line)
            route = mesh.path(_end(mesh, cells, a), _end(mesh, cells, b), weight=weight,
                              walk_only=True)
            assert route.reachable == theirs["reachable"]
            assert [str(c) for c in theirs["cells"]] == list(route.ids)
            if route.reachable:
                assert route.cost == pytest.approx(theirs["cost"], rel=1e-12, abs=1e-9)


# The formats whose navmeshes take mesh edits (`Navmesh.apply`, the `vertices` setter).
EDITABLE = {"nav-source", "nav-source2", "nvnm-skyrim", "nav2-mgsv", "jmxvnvm", "skyrim-plugin"}


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_moving_a_vertex_changes_just_that_vertex(path, tmp_path):
    mesh, data = opened(path)
    offsets, indices = mesh.polygons
    if len(indices) == 0:
        return
    vertices = mesh.vertices
    v = int(indices[len(indices) // 2])
    up = 2 if mesh.up == "z" else 1
    moved = vertices.copy()
    # Toward the middle of the mesh in height, by at most a quarter of its height range, so that
    # it stays inside any bounds the format has (a Fox Engine tile's height range).
    heights = vertices[:, up]
    middle = float(np.median(heights))
    step = min(8.0, 0.25 * float(heights.max() - heights.min())) or 1.0
    if mesh.format == "nav2-mgsv":
        step = 0.05  # each chunk has its own, narrow height range
    # Beyond the matching tolerance, which grows with the largest coordinate of the file.
    step = max(step, 4 * (1e-5 + 1e-6 * float(np.abs(vertices).max())))
    moved[v, up] += step if moved[v, up] <= middle else -step
    edited = navkit.open(path)
    broken = any(f.severity == "error" for f in mesh.validate())
    if broken and mesh.format in EDITABLE:
        # A file that is already inconsistent (the Obj2Nav2 test file, whose meshes all share
        # a few positions) may be refused; it must not be changed by the attempt.
        try:
            edited.vertices = moved
        except navkit.NavError:
            assert edited.to_bytes() == data
            return
    if mesh.format not in EDITABLE:
        with pytest.raises(navkit.NavError):
            edited.vertices = moved
        assert edited.to_bytes() == data
        return
    if not broken:
        edited.vertices = moved
    out = tmp_path / path.name
    edited.save(out)
    again = navkit.open(out.read_bytes(), format=mesh.format)
    after = again.vertices
    changed = np.flatnonzero(np.any(after != vertices, axis=1))
    assert changed.tolist() == [v]
    # Where the format stores positions coarser than float32 (Fox Engine's u16 grid), the new
    # height is the nearest it can hold.
    assert after[v, up] == pytest.approx(moved[v, up], abs=0.5)
    # The diff names the vertex's record (and what the format derives from positions, such as
    # Skyrim's grid when the bounds grow).
    assert navkit.diff(mesh, again)
    # Unchanged through the setter: the same bytes.
    same = navkit.open(out.read_bytes(), format=mesh.format)
    same.vertices = same.vertices
    assert same.to_bytes() == out.read_bytes()


@pytest.mark.parametrize("path", CASES, ids=ident)
def test_cells_carry_their_records_attributes(path):
    mesh, _ = opened(path)
    attributes = mesh.polygon_attributes()
    cells = mesh.cells
    polygon_cells = np.flatnonzero(np.isnan(cells["radius"]) & (cells["corner_count"] >= 3))
    records = mesh.polygon_records
    for name, values in attributes.items():
        assert name in cells, sorted(cells)
        got = cells[name]
        assert got.dtype == np.int64 and len(got) == len(cells["id"])
        # Every polygon cell is some polygon's record: none is left at -1.
        assert (got[polygon_cells] >= 0).all(), name
        if (cells["part"] >= 0).any():
            continue
        # Without parts, the cell's id is its record's id, or its position where it has none.
        key = np.where(records["id"] >= 0, records["id"], records["index"])
        by_key = dict(zip(key.tolist(), values.tolist()))
        for i in polygon_cells[:500]:
            assert got[i] == by_key[int(cells["id"][i])], (name, i)
