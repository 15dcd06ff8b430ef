"""Renders a navmesh imported by the navkit Blender add-on, headless, into a PNG or JPEG.

Run with the Python of a virtualenv that has ``bpy`` 4.5 and the navkit wheel (``cargo xtask
test`` makes ``target/venv-bpy``):

    target/venv-bpy/bin/python scripts/blender-render.py FILE OUT.png [--size 1200] [--engine cycles]

The camera looks down at an angle over the whole navmesh; faces keep the materials the add-on
gave them (one per attribute kind, the colours of ``navkit render``). Cycles renders on the CPU,
so no GPU or display is needed.
"""

import argparse
import importlib.util
import math
import pathlib
import sys

import bpy
import navkit
from mathutils import Vector

ROOT = pathlib.Path(__file__).resolve().parents[1]


def load_addon():
    spec = importlib.util.spec_from_file_location(
        "navkit_blender", ROOT / "blender" / "__init__.py",
        submodule_search_locations=[str(ROOT / "blender")],
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["navkit_blender"] = module
    spec.loader.exec_module(module)
    module.register()
    return module


def frame(objects):
    """Centre and size of the objects' world bounding box."""
    corners = [o.matrix_world @ Vector(c) for o in objects for c in o.bound_box]
    lo = Vector([min(c[i] for c in corners) for i in range(3)])
    hi = Vector([max(c[i] for c in corners) for i in range(3)])
    return (lo + hi) / 2, hi - lo


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("out")
    ap.add_argument("--size", type=int, default=1200)
    ap.add_argument("--engine", choices=["cycles", "workbench"], default="cycles")
    ap.add_argument("--samples", type=int, default=16)
    args = ap.parse_args()

    bpy.ops.wm.read_factory_settings(use_empty=True)
    addon = load_addon()
    made = addon.importer.import_file(bpy.context, args.file, graph=True)
    if not made:
        sys.exit(f"{args.file}: nothing to draw")
    scene = bpy.context.scene
    centre, size = frame(made)
    extent = max(size.x, size.y, 1.0)

    # Graph edges show as thin tubes: a wireframe modifier would need faces.
    for o in made:
        if o.get("navkit_role") == "graph":
            o.data.materials.append(addon.importer.kind_material(navkit, "graph", 10))
            skin = o.modifiers.new("navkit tubes", "SKIN")
            skin.use_smooth_shade = True
            for v in o.data.skin_vertices[0].data:
                v.radius = (extent / 600, extent / 600)

    cam_data = bpy.data.cameras.new("navkit camera")
    cam_data.type = "ORTHO"
    cam_data.ortho_scale = extent * 1.15
    cam = bpy.data.objects.new("navkit camera", cam_data)
    scene.collection.objects.link(cam)
    tilt = math.radians(30)
    cam.location = centre + Vector((0, -math.sin(tilt), math.cos(tilt))) * extent * 2
    cam.rotation_euler = (tilt, 0, 0)
    cam_data.clip_end = extent * 10
    scene.camera = cam

    sun_data = bpy.data.lights.new("navkit sun", "SUN")
    sun_data.energy = 3.0
    sun = bpy.data.objects.new("navkit sun", sun_data)
    sun.rotation_euler = (math.radians(35), math.radians(15), math.radians(20))
    scene.collection.objects.link(sun)
    world = bpy.data.worlds.new("navkit world")
    world.color = (1, 1, 1)
    world.use_nodes = True
    background = world.node_tree.nodes.get("Background")
    if background is not None:
        background.inputs["Color"].default_value = (1, 1, 1, 1)
        background.inputs["Strength"].default_value = 0.6
    scene.world = world

    scene.render.resolution_x = args.size
    scene.render.resolution_y = int(args.size * 0.75)
    scene.render.film_transparent = False
    if args.engine == "cycles":
        scene.render.engine = "CYCLES"
        scene.cycles.device = "CPU"
        scene.cycles.samples = args.samples
        scene.cycles.use_denoising = False
    else:
        scene.render.engine = "BLENDER_WORKBENCH"
        scene.display.shading.color_type = "MATERIAL"
        scene.display.shading.light = "STUDIO"
    # A .jpg keeps the picture small (Cycles' grain makes PNGs large); anything else is a PNG.
    jpeg = args.out.lower().endswith((".jpg", ".jpeg"))
    scene.render.image_settings.file_format = "JPEG" if jpeg else "PNG"
    if jpeg:
        scene.render.image_settings.quality = 85
    scene.render.filepath = str(pathlib.Path(args.out).resolve())
    bpy.ops.render.render(write_still=True)
    print(f"{args.out}: {args.size}x{scene.render.resolution_y}, {len(made)} objects")


if __name__ == "__main__":
    main()
