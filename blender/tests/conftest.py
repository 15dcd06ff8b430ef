"""Runs inside Blender itself: ``bpy`` 4.5 from PyPI, with the navkit package installed beside it.

The add-on is loaded from the repository (``blender/``) as the package ``navkit_blender`` and
registered, as Blender registers an installed extension. The corpus is found as in the Python
package's tests (NAVKIT_CORPUS, else ../shared/corpus); the navkit binary is NAVKIT_BIN, else
target/debug/navkit.
"""

import importlib.util
import os
import pathlib
import sys

import bpy
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_addon():
    """The add-on package, imported from the repository and registered once."""
    if "navkit_blender" in sys.modules:
        return sys.modules["navkit_blender"]
    spec = importlib.util.spec_from_file_location(
        "navkit_blender", ROOT / "blender" / "__init__.py",
        submodule_search_locations=[str(ROOT / "blender")],
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules["navkit_blender"] = module
    spec.loader.exec_module(module)
    module.register()
    return module


@pytest.fixture(scope="session")
def addon():
    return load_addon()


@pytest.fixture()
def scene(addon):
    """An empty scene for each test."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    load_addon()
    return bpy.context.scene


# The corpus, the navkit binary and the loud-skip rule are the Python package's test helpers,
# shared rather than written twice.
_spec = importlib.util.spec_from_file_location(
    "navkit_python_test_helpers", ROOT / "crates" / "navkit-python" / "tests" / "conftest.py"
)
_helpers = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_helpers)
corpus_dir = _helpers.corpus_dir
corpus_files = _helpers.corpus_files
navkit_bin = _helpers.navkit_bin
cli = _helpers.cli


def need_corpus():
    """The corpus folder; skips loudly without one, or fails when CI requires one."""
    _helpers.need_corpus()
    return corpus_dir()


def one_per_format_and_version():
    """The first corpus file of every (format, version) navkit reads there."""
    import navkit

    seen = {}
    for path in corpus_files():
        try:
            nav = navkit.open(path)
        except navkit.NavError:
            continue
        seen.setdefault((nav.format, nav.version), path)
    return [seen[k] for k in sorted(seen)]


# bpy 4.5 as a module can hang in its exit handlers (a C++ destructor waits on a thread that
# has gone); leave the process directly once pytest has reported, with pytest's exit status.
_STATUS = {"code": 0}


def pytest_sessionfinish(session, exitstatus):
    _STATUS["code"] = int(exitstatus)


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config):
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(_STATUS["code"])
