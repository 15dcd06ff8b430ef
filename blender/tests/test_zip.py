"""The installable extension zip, checked as Blender installs it: when NAVKIT_BLENDER_ZIP names a
zip (``cargo xtask blender [--debug]`` and ``cargo xtask test`` make one and set it), a fresh
Blender process with a throwaway user profile installs and enables it with
``bpy.ops.extensions.package_install_files`` (what Edit > Preferences > Get Extensions > Install
from Disk runs), then imports and exports a sample through the add-on's operators, using the
navkit wheel the zip carries. Nothing is built here.
"""

import os
import pathlib
import subprocess
import sys
import zipfile

import pytest

from conftest import ROOT

ZIP = os.environ.get("NAVKIT_BLENDER_ZIP")
SAMPLE = ROOT / "samples" / "source" / "cs_v16_1.nav"

# Runs in its own process: the add-on the other tests register from the repository would clash
# with the installed one, and the installed one must find the navkit package in its own wheel.
CHECK = r"""
import os, pathlib, sys
profile, zip_path, sample, out = sys.argv[1:5]
os.environ["BLENDER_USER_RESOURCES"] = profile
import bpy

result = bpy.ops.extensions.package_install_files(
    repo="user_default", filepath=zip_path, enable_on_install=True
)
assert result == {"FINISHED"}, result
assert "bl_ext.user_default.navkit" in bpy.context.preferences.addons.keys()
assert hasattr(bpy.ops.import_scene, "navkit") and hasattr(bpy.ops.export_scene, "navkit")
assert hasattr(bpy.ops.navkit, "set_flag")
site = pathlib.Path(bpy.utils.user_resource("EXTENSIONS")) / ".local" / "lib"
site = next(site.glob("python3.*/site-packages"))
assert (site / "navkit").is_dir(), "the zip's wheel was not installed"
# The operators import navkit when they run: from the wheel the zip carries, not the one
# the virtualenv may also hold.
sys.path.insert(0, str(site))
sys.modules.pop("navkit", None)
bpy.ops.import_scene.navkit(filepath=sample)
import navkit
assert pathlib.Path(navkit.__file__).is_relative_to(site), navkit.__file__
meshes = [o for o in bpy.data.objects if o.get("navkit_role") == "mesh"]
assert meshes and all(o.get("navkit_format") == "nav-source" for o in meshes)
bpy.context.view_layer.objects.active = meshes[0]
bpy.ops.export_scene.navkit(filepath=out)
assert pathlib.Path(out).read_bytes() == pathlib.Path(sample).read_bytes()
print("zip checked:", len(meshes), "object, navkit", navkit.__version__, "from", site)
sys.stdout.flush()
os._exit(0)
"""


def test_the_zip_installs_enables_and_imports(tmp_path):
    if not ZIP:
        pytest.skip("NAVKIT_BLENDER_ZIP names no zip: `cargo xtask blender --debug` makes one and checks it")
    zip_path = pathlib.Path(ZIP).resolve()
    with zipfile.ZipFile(zip_path) as z:
        names = z.namelist()
        manifest = z.read("blender_manifest.toml").decode()
    wheels = [n for n in names if n.startswith("wheels/") and n.endswith(".whl")]
    assert len(wheels) == 1 and f'wheels = ["./{wheels[0]}"]' in manifest
    assert {"__init__.py", "importer.py", "exporter.py", "panel.py", "mesh_io.py"} <= set(names)
    assert "bench.py" not in names and not any(n.startswith("tests/") for n in names)
    profile = tmp_path / "profile"
    profile.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(profile), str(zip_path), str(SAMPLE), str(tmp_path / "out.nav")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "zip checked" in done.stdout
