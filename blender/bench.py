#!/usr/bin/env python3
"""The Blender add-on's import time beside Blender's own glTF importer, in bpy itself.

    python blender/bench.py [--corpus DIR] [--repeat N] [--out FILE]

Run it with the interpreter of a virtualenv that has ``bpy`` (4.5) and the navkit package
(``cargo xtask bench`` runs it in ``target/venv-bpy`` with the release wheel installed). The add-on
is registered from the repository (``blender/``), as the tests do.

Rows: File > Import > navkit of the corpus file ``source/tfnm_vsh_nucleus.nav`` (4 MB; the
operator ``bpy.ops.import_scene.navkit``, in an empty scene each run) against Blender's glTF
importer (``bpy.ops.import_scene.gltf``) on navkit's glTF export of the same file (``navkit export
FILE out.glb``, made once beforehand), the peer. Each is run ``--repeat`` times (default 3); the
best CPU time of the process (all threads) and the best wall time are given, and the ratio is the
peer's best CPU time over the add-on's (above 1: the add-on is faster). The goal is an import
within 1 s (wall).

Output: a markdown table ``| what | navkit | peer | ratio |`` on standard output, and in
``--out FILE`` when given (the table alone), as ``crates/navkit-python/bench/bench.py`` writes it.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import bpy

import navkit

ROOT = Path(__file__).resolve().parents[1]
# The tests' way of registering the add-on from the repository, shared.
sys.path.insert(0, str(ROOT / "blender" / "tests"))
from conftest import load_addon  # noqa: E402

NUCLEUS = "source/tfnm_vsh_nucleus.nav"
GOAL_SECONDS = 1.0


def measure(fn, repeat):
    """Runs ``fn`` in an empty scene ``repeat`` times: best CPU and wall seconds, and the face
    count of the meshes the last run made."""
    cpu, wall = [], []
    faces = 0
    for _ in range(repeat):
        bpy.ops.wm.read_factory_settings(use_empty=True)
        c, w = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        faces = sum(len(o.data.polygons) for o in bpy.data.objects if o.type == "MESH")
    return min(cpu), min(wall), faces


def seconds(cpu, wall):
    return f"{cpu:.3f} s CPU, {wall:.3f} s wall"


def main() -> int:
    default_corpus = os.environ.get("NAVKIT_CORPUS") or str(ROOT.parent / "shared" / "corpus")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=default_corpus, help="the corpus folder")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each import (default 3)")
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    if args.repeat < 1:
        parser.error("--repeat takes a positive number")
    path = Path(args.corpus) / NUCLEUS
    if not path.is_file():
        print(f"bench: {path} is missing", file=sys.stderr)
        return 2
    load_addon()
    size = path.stat().st_size / 1e6
    print(
        f"Blender {bpy.app.version_string}, navkit {navkit.__version__}; best of {args.repeat} "
        f"runs, CPU (process, all threads) and wall"
    )
    with tempfile.TemporaryDirectory() as tmp:
        glb = Path(tmp) / "nucleus.glb"
        navkit.open(path).export(glb)
        ours = measure(lambda: bpy.ops.import_scene.navkit(filepath=str(path)), args.repeat)
        theirs = measure(lambda: bpy.ops.import_scene.gltf(filepath=str(glb)), args.repeat)
    print(f"add-on: {ours[2]:,} faces (the file's areas); glTF: {theirs[2]:,} faces (triangles)")
    met = "met" if ours[1] <= GOAL_SECONDS else "NOT met"
    what = f"Blender: import `{path.name}` ({size:.1f} MB, {ours[2]:,} areas): add-on / glTF importer"
    navkit_cell = f"{seconds(ours[0], ours[1])} (goal ≤ {GOAL_SECONDS:g} s wall: {met})"
    peer_cell = f"Blender {bpy.app.version_string} glTF import of navkit's `.glb`: {seconds(theirs[0], theirs[1])}"
    ratio = f"{theirs[0] / ours[0]:.2f}×" if ours[0] > 0 else ""
    table = "| what | navkit | peer | ratio |\n|---|---|---|---|\n"
    table += f"| {what} | {navkit_cell} | {peer_cell} | {ratio} |\n"
    print()
    print(table, end="")
    if args.out:
        Path(args.out).write_text(table, encoding="utf-8")
    sys.stdout.flush()
    # bpy 4.5 as a module can hang in its exit handlers (see blender/tests/conftest.py).
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
