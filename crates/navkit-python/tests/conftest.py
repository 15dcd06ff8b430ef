"""Shared fixtures: the corpus, the navkit binary, and the rule that nothing skips quietly.

The corpus is found through NAVKIT_CORPUS, else ../shared/corpus beside the checkout. Without it
the corpus tests skip with a note; with NAVKIT_REQUIRE_CORPUS=1 (CI) a missing corpus fails.
The command-line tool the tests compare against is NAVKIT_BIN, else target/debug/navkit.
"""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[3]
REQUIRED = os.environ.get("NAVKIT_REQUIRE_CORPUS") == "1"


def corpus_dir():
    """The corpus folder, or None."""
    env = os.environ.get("NAVKIT_CORPUS")
    path = pathlib.Path(env) if env else ROOT.parent / "shared" / "corpus"
    return path if path.is_dir() else None


def corpus_files():
    """Every real navmesh in the corpus (not the negative samples), sorted."""
    root = corpus_dir()
    if root is None:
        return []
    skip = {".tsv", ".md", ".txt", ".json"}
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() not in skip and "negative" not in p.parts
    )


def need_corpus():
    """Skips loudly without a corpus, or fails when CI requires one."""
    if corpus_dir() is None:
        message = "no corpus (set NAVKIT_CORPUS or put it at ../shared/corpus)"
        if REQUIRED:
            pytest.fail("NAVKIT_REQUIRE_CORPUS=1 but " + message)
        pytest.skip(message)


def navkit_bin():
    """The navkit command-line tool, built by cargo."""
    env = os.environ.get("NAVKIT_BIN")
    path = pathlib.Path(env) if env else ROOT / "target" / "debug" / "navkit"
    if not path.is_file():
        pytest.fail(f"{path} is missing: run `cargo build -p navkit` (cargo xtask test does)")
    return path


def cli(*args, check=True):
    """Runs the navkit binary; its completed process."""
    done = subprocess.run([str(navkit_bin()), *map(str, args)], capture_output=True)
    if check and done.returncode != 0:
        raise AssertionError(f"navkit {args} failed: {done.stderr.decode(errors='replace')}")
    return done


@pytest.fixture(scope="session")
def corpus():
    need_corpus()
    files = corpus_files()
    assert files, "the corpus folder holds no navmesh"
    return files
