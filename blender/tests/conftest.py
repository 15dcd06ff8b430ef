"""Runs inside Blender itself: ``bpy`` 4.5 from PyPI, with the navkit package installed beside it.

The add-on is loaded from the repository (``blender/``) as the package ``navkit_blender`` and
registered, as Blender registers an installed extension. The corpus is found as in the Python
package's tests (NAVKIT_CORPUS, else ../shared/corpus); the navkit binary is NAVKIT_BIN, else
target/debug/navkit.
"""

import importlib.util
import os
import pathlib
import subprocess
import sys

import bpy
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
REQUIRED = os.environ.get("NAVKIT_REQUIRE_CORPUS") == "1"


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


def corpus_dir():
    env = os.environ.get("NAVKIT_CORPUS")
    path = pathlib.Path(env) if env else ROOT.parent / "shared" / "corpus"
    return path if path.is_dir() else None


def need_corpus():
    if corpus_dir() is None:
        message = "no corpus (set NAVKIT_CORPUS or put it at ../shared/corpus)"
        if REQUIRED:
            pytest.fail("NAVKIT_REQUIRE_CORPUS=1 but " + message)
        pytest.skip(message)
    return corpus_dir()


def navkit_bin():
    env = os.environ.get("NAVKIT_BIN")
    path = pathlib.Path(env) if env else ROOT / "target" / "debug" / "navkit"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `cargo build -p navkit` (cargo xtask test does)")
    return path


def cli(*args, check=True):
    done = subprocess.run([str(navkit_bin()), *map(str, args)], capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError(f"navkit {args} failed: {done.stderr.decode(errors='replace')}")
    return done


def corpus_files():
    """Every real navmesh in the corpus (not the negative samples), sorted."""
    root = corpus_dir()
    if root is None:
        return []
    skip = {".tsv", ".md", ".txt", ".json"}
    return sorted(
        p for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() not in skip and "negative" not in p.parts
    )


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
