#!/usr/bin/env python3
"""navkit's Python package beside the Python tools a user would pick instead, in one process.

    python bench.py [--corpus DIR] [--repeat N] [--quick] [--clock wall|cpu] [--out FILE]

Run it with an interpreter where `navkit` (built with `maturin develop --release`), awpy 3.1.1
and bethkit are installed; `cargo xtask bench` makes such a virtualenv (`target/venv-bench`) and
runs this script (see README.md beside it). A peer that cannot be imported gets a note in its
rows instead of figures; navkit itself must be importable.

Every measurement is taken `--repeat` times in this one process, navkit's and the peer's in
turn, and given as the best and the median, in CPU time of the process (all its threads; wall
time with `--clock wall`); the ratio is the peer's best time over navkit's (above 1: navkit is
faster). The same inputs go to both sides (fixed seeds):

- open: `navkit.open(path)` of the CS2 corpus file `vrf_de_mirage_v35.nav` against awpy's
  `NavMesh(path)`. awpy builds its search structures when it loads; navkit builds its navigator on
  the first query, so a second row times `open` plus one `locate`.
- locate, 100,000 random points (uniform in the mesh's bounding box): one `locate_many` call
  against a loop of awpy `find_area` calls (awpy has no batch call). awpy's loop is timed on
  `--awpy-points` of the points (all by default, 10,000 with `--quick`) and scaled to 100,000
  when fewer; the row says so.
- locate, every area's centre (the mean of its corners) raised 10 units: `locate_many`, and a
  Python loop of `locate` calls, against awpy's `find_area` loop.
- 1,000 random paths between area ids (the same pairs on both sides), by distance, walking only
  (awpy follows no ladders): a loop of navkit `path` calls against awpy's `find_path` calls.
- `Undaunted.esp` (Skyrim corpus): `navkit.open` and every navmesh's vertices as numpy arrays
  (`parts()`, `.vertices`) against bethkit opening the plugin, walking every group and record,
  and reading each NAVM's NVNM subrecord into a numpy array of its vertices.

Beside the timings it checks that the two sides answer alike (same cell for the same point,
same reachability, same vertices) and prints how often they do: a benchmark of two tools that
answer different questions would say nothing.

Output: a markdown table `| what | navkit | peer | ratio |` on standard output, and in `--out
FILE` when given (the table alone, which `cargo xtask bench` puts into the README).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

import numpy as np

import navkit

MIRAGE = "source2/vrf_de_mirage_v35.nav"
UNDAUNTED = "skyrim/Undaunted.esp"
RANDOM_POINTS = 100_000
PATHS = 1_000
LIFT = 10.0
SEED = 1


class Timing:
    """The best and median seconds of repeated runs, and the last run's result."""

    def __init__(self, seconds: list[float], result: Any, scale: float = 1.0) -> None:
        self.best = min(seconds) * scale
        self.median = statistics.median(seconds) * scale
        self.result = result


class Clock:
    """This process's CPU time, all threads (`process_time`), or wall time (`perf_counter`)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.now = time.perf_counter if kind == "wall" else time.process_time

    def measure(self, fn: Callable[[], Any], repeat: int, scale: float = 1.0) -> Timing:
        """Runs `fn` `repeat` times; `scale` multiplies the figures (for a timed subset)."""
        seconds = []
        result = None
        for _ in range(repeat):
            start = self.now()
            result = fn()
            seconds.append(self.now() - start)
        return Timing(seconds, result, scale)


def duration(s: float) -> str:
    """Seconds as a short human figure."""
    if s >= 1.0:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.1f} ms"
    return f"{s * 1e6:.0f} µs"


class Table:
    """The rows of the comparison, rendered as markdown."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(
        self,
        what: str,
        ours: Timing,
        peer_name: str,
        theirs: Optional[Timing],
        goal: Optional[float] = None,
        peer_note: str = "",
    ) -> None:
        navkit_cell = f"{duration(ours.best)} (median {duration(ours.median)})"
        if theirs is None:
            self.rows.append((what, navkit_cell, f"{peer_name}: {peer_note}", ""))
            return
        peer_cell = f"{peer_name}: {duration(theirs.best)} (median {duration(theirs.median)})"
        if peer_note:
            peer_cell += f"; {peer_note}"
        ratio = theirs.best / ours.best if ours.best > 0 else float("inf")
        ratio_cell = f"{ratio:.1f}×"
        if goal is not None:
            ratio_cell += f" (goal ≥ {goal:g}×: {'met' if ratio >= goal else 'NOT met'})"
        self.rows.append((what, navkit_cell, peer_cell, ratio_cell))

    def markdown(self) -> str:
        lines = ["| what | navkit | peer | ratio |", "|---|---|---|---|"]
        lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in self.rows]
        return "\n".join(lines) + "\n"


def peer(name: str) -> tuple[Any, str]:
    """The peer module, or None and why it cannot be imported."""
    try:
        module = __import__(name)
    except Exception as e:  # an import may fail in many ways (missing library, ABI)
        return None, f"not importable ({type(e).__name__}: {e})"
    return module, getattr(module, "__version__", "")


def centres(mesh: "navkit.Navmesh") -> np.ndarray:
    """The centre of each cell with a polygon, the mean of its corners (awpy's centroid),
    float32 N×3."""
    vertices = mesh.vertices.astype(np.float64)
    offsets, indices = mesh.polygons
    counts = np.diff(offsets)
    corners = np.cumsum(vertices[indices], axis=0)
    corners = np.vstack([np.zeros((1, 3)), corners])
    sums = corners[offsets[1:]] - corners[offsets[:-1]]
    keep = counts > 0
    return (sums[keep] / counts[keep, None]).astype(np.float32)


def cs2(table: Table, path: Path, clock: Clock, repeat: int, awpy_points: int) -> None:
    """The Source 2 rows: open, locate (random points and centres), paths."""
    awpy, awpy_version = peer("awpy")
    name = f"awpy {awpy_version}" if awpy else "awpy"
    note = "" if awpy else awpy_version
    label = path.name

    ours = clock.measure(lambda: navkit.open(path), repeat)
    theirs = clock.measure(lambda: awpy.NavMesh(path), repeat) if awpy else None
    table.add(f"{label}: `navkit.open` / awpy `NavMesh(path)`", ours, name, theirs, 1.0, note)

    def open_and_locate():
        m = navkit.open(path)
        m.locate((0.0, 0.0, 0.0))
        return m

    ours = clock.measure(open_and_locate, repeat)
    table.add(
        f"{label}: `navkit.open` + first `locate` (navigator built) / `NavMesh(path)`",
        ours,
        name,
        theirs,
        None,
        note,
    )

    mesh = navkit.open(path)
    ids = mesh.cell_ids
    vertices = mesh.vertices
    low, high = vertices.min(axis=0), vertices.max(axis=0)
    rng = np.random.default_rng(SEED)
    points = rng.uniform(low, high, size=(RANDOM_POINTS, 3)).astype(np.float32)
    nav_awpy = awpy.NavMesh(path) if awpy else None
    mesh.locate_many(points[:10])  # the navigator, built before the clock starts

    # 100,000 random points.
    ours = clock.measure(lambda: mesh.locate_many(points), repeat)
    found = ours.result
    print(
        f"locate: {np.count_nonzero(found >= 0)} of {RANDOM_POINTS} random points in the "
        f"bounding box are over a cell (navkit)"
    )
    theirs = None
    scale_note = ""
    if nav_awpy is not None:
        n = min(awpy_points, RANDOM_POINTS)
        subset = [tuple(p) for p in points[:n].tolist()]
        theirs = clock.measure(
            lambda: [nav_awpy.find_area(p) for p in subset], repeat, RANDOM_POINTS / n
        )
        if n < RANDOM_POINTS:
            scale_note = f"{n:,} calls timed, scaled to {RANDOM_POINTS:,}"
        agree(ids, found[:n], theirs.result, "random points")
    table.add(
        f"{label}: locate {RANDOM_POINTS:,} random points: one `locate_many` / a loop of "
        "`find_area`",
        ours,
        name,
        theirs,
        20.0,
        scale_note or note,
    )

    # Every centre, raised.
    lifted = centres(mesh)
    lifted[:, 2] += LIFT
    ours_many = clock.measure(lambda: mesh.locate_many(lifted), repeat)
    as_tuples = [tuple(p) for p in lifted.tolist()]
    theirs = None
    if nav_awpy is not None:
        theirs = clock.measure(lambda: [nav_awpy.find_area(p) for p in as_tuples], repeat)
        agree(ids, ours_many.result, theirs.result, "centres + 10")
    table.add(
        f"{label}: locate every area's centre + {LIFT:g} ({len(lifted):,} points): "
        "`locate_many` / a loop of `find_area`",
        ours_many,
        name,
        theirs,
        10.0,
        note,
    )
    ours_loop = clock.measure(lambda: [mesh.locate(p) for p in as_tuples], repeat)
    table.add(
        f"{label}: the same centres, a loop of `locate` / a loop of `find_area`",
        ours_loop,
        name,
        theirs,
        None,
        note,
    )

    # 1,000 random paths.
    area_ids = [int(i) for i in ids]
    pick = random.Random(SEED)
    pairs = [(pick.choice(area_ids), pick.choice(area_ids)) for _ in range(PATHS)]
    ours = clock.measure(
        lambda: [mesh.path(a, b, weight="distance", walk_only=True) for a, b in pairs], repeat
    )
    theirs = None
    if nav_awpy is not None:
        theirs = clock.measure(
            lambda: [nav_awpy.find_path(a, b, weight="distance") for a, b in pairs], repeat
        )
        same = sum(o.reachable == bool(t) for o, t in zip(ours.result, theirs.result))
        reachable = sum(o.reachable for o in ours.result)
        print(
            f"path: reachability agrees on {same} of {PATHS} pairs ({reachable} reachable, "
            "navkit)"
        )
    table.add(
        f"{label}: {PATHS:,} random paths (distance, walking only): `path` / `find_path`",
        ours,
        name,
        theirs,
        10.0,
        note,
    )


def agree(ids: np.ndarray, found: np.ndarray, theirs: list, what: str) -> None:
    """Prints how often navkit's cell (an index into `ids`, -1 for none) is awpy's area id."""
    same = sum(
        (int(ids[i]) if i >= 0 else None) == t for i, t in zip(found.tolist(), theirs)
    )
    print(f"locate ({what}): navkit and awpy name the same area for {same} of {len(theirs)}")


def skyrim(table: Table, path: Path, clock: Clock, repeat: int) -> None:
    """The Skyrim row: a plugin opened and every navmesh's vertices read as arrays."""
    bethkit, bethkit_version = peer("bethkit")
    if bethkit is not None and not bethkit_version:
        try:
            from importlib.metadata import version

            bethkit_version = version("bethkit")
        except Exception:
            bethkit_version = ""

    def ours_read() -> dict:
        return {k: v.vertices for k, v in navkit.open(path).parts().items()}

    ours = clock.measure(ours_read, repeat)
    theirs = None
    if bethkit is not None:
        theirs = clock.measure(lambda: bethkit_read(bethkit, path), repeat)
        a, b = ours.result, theirs.result
        same = sum(k in b and np.array_equal(a[k], b[k]) for k in a)
        print(
            f"skyrim: {len(a)} navmeshes (navkit), {len(b)} (bethkit), {same} with the same "
            f"vertices; {sum(len(v) for v in a.values())} vertices in all"
        )
    table.add(
        f"{path.name}: open and every navmesh's vertices as arrays / bethkit walking its "
        "records and NVNMs",
        ours,
        f"bethkit {bethkit_version}" if bethkit else "bethkit",
        theirs,
        10.0,
        "" if bethkit else bethkit_version,
    )


def bethkit_read(bethkit: Any, path: Path) -> dict:
    """What a bethkit user writes: open the plugin, walk every group for NAVM records, and
    decode the vertices of each one's NVNM subrecord (version, CRC, worldspace, cell or grid:
    16 bytes, then a u32 count and that many f32 triples) with numpy. bethkit's schema decoder
    (`NavmeshRecord.from_record`) also gives the vertices, but took minutes for a few records
    here, so the raw subrecord is the fair peer."""
    out = {}
    with bethkit.Plugin.open(path, bethkit.Game.SKYRIM_SE) as plugin:
        stack = list(plugin)
        while stack:
            node = stack.pop()
            for child in node:
                if isinstance(child, bethkit.Group):
                    stack.append(child)
                elif child.signature == b"NAVM":
                    nvnm = child.find_subrecord(b"NVNM")
                    if nvnm is None:
                        continue
                    data = nvnm.raw_bytes
                    count = int.from_bytes(data[16:20], "little")
                    out[f"{child.form_id:08X}"] = np.frombuffer(
                        data, dtype="<f4", count=count * 3, offset=20
                    ).reshape(count, 3)
    return out


def main() -> int:
    here = Path(__file__).resolve()
    default_corpus = os.environ.get("NAVKIT_CORPUS") or str(here.parents[3].parent / "shared" / "corpus")
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=default_corpus, help="the corpus folder")
    parser.add_argument("--repeat", type=int, help="runs of each measurement (default 7, 3 quick)")
    parser.add_argument("--quick", action="store_true", help="fewer runs and awpy calls")
    parser.add_argument(
        "--awpy-points",
        type=int,
        help="awpy find_area calls timed of the 100,000 (default all, 10,000 quick)",
    )
    parser.add_argument(
        "--clock",
        choices=["cpu", "wall"],
        default="cpu",
        help="the process's CPU time, all threads (default: steadier on a shared machine), or "
        "wall time",
    )
    parser.add_argument("--out", help="also write the table to this file")
    args = parser.parse_args()
    repeat = args.repeat or (3 if args.quick else 7)
    awpy_points = args.awpy_points or (10_000 if args.quick else RANDOM_POINTS)
    if repeat < 1 or awpy_points < 1:
        parser.error("--repeat and --awpy-points take a positive number")
    corpus = Path(args.corpus)
    clock = Clock(args.clock)
    print(
        f"navkit {navkit.__version__}, numpy {np.__version__}, Python "
        f"{platform.python_version()}, {os.cpu_count()} cores; {args.clock} clock, best and "
        f"median of {repeat} runs"
    )
    table = Table()
    missing = []
    for rel, bench in [
        (MIRAGE, lambda p: cs2(table, p, clock, repeat, awpy_points)),
        (UNDAUNTED, lambda p: skyrim(table, p, clock, repeat)),
    ]:
        p = corpus / rel
        if p.is_file():
            bench(p)
        else:
            missing.append(rel)
            print(f"note: {p} is missing: its rows are skipped")
    text = table.markdown()
    print()
    print(text, end="")
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    if missing:
        return 2 if len(missing) == 2 else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
