"""The Blender round trip of `navkit apply`, in Blender itself (the `bpy` module from PyPI).

For each navmesh given: `navkit export` to OBJ and GLB; import each into an empty Blender scene
with Blender's own importer and export it again with its default settings; `navkit apply` of the
unedited mesh must give the original bytes. Then, through bmesh on the OBJ import: move a vertex,
delete a face, add a face; export; apply; the changes `apply` prints must be exactly those (one
vertex moved, one polygon deleted, new polygons added), `navkit diff` must show a difference,
and `navkit validate` must find no error.

Run with a Python that has `bpy` 4.5 (`python3.11 -m venv target/venv-bpy &&
target/venv-bpy/bin/pip install 'bpy==4.5.*'`):

    target/venv-bpy/bin/python scripts/blender_apply_check.py --navkit target/debug/navkit \
        --work /tmp/apply-check FILE...

Prints one line per check and the time taken; exits 1 on the first failure.
"""

import argparse
import json
import os
import subprocess
import sys
import time

import bpy  # first: bmesh comes with it
import bmesh  # noqa: E402
from mathutils import Vector  # noqa: E402


def run(*args):
    """Runs a command; returns its standard output, or fails with what it printed."""
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(
            f"FAILED: {' '.join(args)} (exit {done.returncode})\n{done.stdout}{done.stderr}"
        )
    return done.stdout


def empty_scene():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def mesh_objects():
    return [o for o in bpy.data.objects if o.type == "MESH"]


def through_blender(src, dst):
    """Imports `src` with Blender's importer and exports `dst` with the default settings."""
    empty_scene()
    if src.endswith(".obj"):
        bpy.ops.wm.obj_import(filepath=src)
    else:
        bpy.ops.import_scene.gltf(filepath=src)
    objects = mesh_objects()
    if len(objects) != 1:
        raise SystemExit(f"FAILED: {src} imports as {len(objects)} mesh objects, not 1")
    if dst.endswith(".obj"):
        bpy.ops.wm.obj_export(filepath=dst)
    else:
        bpy.ops.export_scene.gltf(filepath=dst)
    return objects[0]


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def edit_through_bmesh(obj):
    """Moves one vertex, deletes one face away from it, adds a triangle beside the mesh, all in
    world space (Blender's OBJ importer turns the object, not its vertices, to Z up)."""
    world = obj.matrix_world
    local = world.inverted()
    me = obj.data
    bm = bmesh.new()
    bm.from_mesh(me)
    bm.verts.ensure_lookup_table()
    bm.faces.ensure_lookup_table()
    # The vertex: the one on most faces, moved across the ground.
    vert = max(bm.verts, key=lambda v: len(v.link_faces))
    moved_from = tuple(world @ vert.co)
    at = world @ vert.co
    at.x += 0.5
    at.y += 0.25
    vert.co = local @ at
    # The face: one that does not touch the moved vertex or its neighbours.
    near = {v for f in vert.link_faces for v in f.verts}
    face = next(f for f in bm.faces if not any(v in near for v in f.verts))
    bmesh.ops.delete(bm, geom=[face], context="FACES_ONLY")
    # The new face: a level triangle past the mesh's bounds, counter-clockwise from above.
    points = [world @ v.co for v in bm.verts]
    x0 = max(p.x for p in points) + 10.0
    y0 = min(p.y for p in points)
    z0 = min(p.z for p in points)
    corners = [
        bm.verts.new(local @ Vector((x0 + dx, y0 + dy, z0)))
        for dx, dy in ((0.0, 0.0), (20.0, 0.0), (0.0, 20.0))
    ]
    bm.faces.new(corners)
    bm.to_mesh(me)
    bm.free()
    me.update()
    return moved_from


def check(navkit, work, path):
    name = os.path.splitext(os.path.basename(path))[0]
    ext = os.path.splitext(path)[1]
    base = os.path.join(work, name)
    for mesh in ("obj", "glb"):
        exported = f"{base}.{mesh}"
        run(navkit, "export", path, "-o", exported)
        back = f"{base}.blender.{mesh}"
        through_blender(exported, back)
        applied = f"{base}.applied.{mesh}{ext}"
        run(navkit, "apply", path, back, "-o", applied)
        if not same_bytes(path, applied):
            raise SystemExit(f"FAILED: {path}: unedited {mesh} through Blender changes the file")
        print(f"ok  {name}: unedited {mesh} through Blender gives the original bytes")

    obj = through_blender(f"{base}.obj", f"{base}.scratch.obj")
    edit_through_bmesh(obj)
    edited = f"{base}.edited.obj"
    bpy.ops.wm.obj_export(filepath=edited)
    out = f"{base}.edited{ext}"
    report = json.loads(run(navkit, "apply", "--json", path, edited, "-o", out))
    changes = report["changes"]
    moved = [c for c in changes if "moved to" in c]
    deleted = [c for c in changes if c.endswith(": deleted")]
    added = [c for c in changes if ": added" in c]
    if len(moved) != 1 or len(deleted) != 1 or not added:
        raise SystemExit(
            f"FAILED: {path}: expected one move, one deletion and additions, got:\n  "
            + "\n  ".join(changes)
        )
    diff = subprocess.run([navkit, "diff", path, out], capture_output=True, text=True)
    if diff.returncode == 0 or not diff.stdout.strip():
        raise SystemExit(f"FAILED: {path}: navkit diff sees no change\n{diff.stderr}")
    findings = json.loads(run(navkit, "validate", "--json", out))
    errors = [f for f in findings.get("findings", []) if f.get("severity") == "error"]
    if errors:
        raise SystemExit(f"FAILED: {out}: validate finds errors: {errors}")
    print(
        f"ok  {name}: move, delete, add through bmesh: {len(changes)} changes, "
        f"{len(diff.stdout.splitlines())} diff lines, validate clean"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navkit", required=True, help="the navkit binary")
    parser.add_argument("--work", required=True, help="a folder for the meshes")
    parser.add_argument("files", nargs="+", help="navmesh files of formats that have apply")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    start = time.monotonic()
    for path in args.files:
        check(args.navkit, args.work, path)
    print(f"{len(args.files)} files checked in {time.monotonic() - start:.1f} s")


if __name__ == "__main__":
    sys.exit(main())
