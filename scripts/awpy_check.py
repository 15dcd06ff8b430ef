#!/usr/bin/env python3
"""Compare navkit's navigation queries with awpy's on a Counter-Strike 2 (Source 2) `.nav` file.

    python3 scripts/awpy_check.py NAVKIT FILE [--pairs 1000] [--seed 1] [--lift 10]

NAVKIT is the path of the `navkit` binary, FILE a Source 2 `.nav` file that awpy reads (versions
30 to 36). awpy (3.1.1) must be importable: `python3 -m venv venv && venv/bin/pip install
awpy==3.1.1`, then run this script with `venv/bin/python`.

What is compared:

- locate: for every area, its centre (awpy's centroid, the mean of its corners) raised by
  `--lift` units (awpy's Z is up) is located by `navkit locate FILE --points POINTS --json` (one
  `x y z` per line in, one `{"cell": id-or-null, "distance": number-or-null}` per line out) and by
  awpy's `NavMesh.find_area`; the cells must be the same.
- path: `--pairs` random pairs of area ids (fixed `--seed`) are routed by `navkit path FILE --pairs
  PAIRS --json --weight distance --walk-only` (one `FROM TO` pair of ids per line in, one
  `{"from": id, "to": id, "reachable": bool, "cells": [ids], "cost": number}` per line out) and
  by awpy's `find_path(a, b, weight="distance")`. Reachability must agree; where reachable,
  navkit's route must start and end at the pair, step only between areas awpy lists as
  neighbours, cost what its steps cost between awpy's centroids, and cost what awpy's route
  costs (both within 1e-5 relative: the two compute centroids in different float orders).

It prints the disagreements (the first few of each kind), a table of timings in CPU seconds
(steadier than wall time on a shared machine: awpy's calls in-process, navkit's whole command,
process start, reading the file and building the navigator included), and a last line
`N passed, M failed`. Exit status 0 when nothing disagrees, 1 when something does, 2 when a
command fails or awpy cannot be used.

Definitions (awpy 3.1.1, read from its source): `find_area` takes the areas whose polygon holds
the point in XY by the even-odd ray test (a point exactly on an edge may go either way), and of
those the one whose centroid Z is nearest the point's Z (the first in file order on a tie), or
None when no polygon holds it (never the nearest area). `find_path` is Dijkstra over each
area's connection list (directed, repeats dropped; ladders are not followed), the step cost for
"distance" being the 3D distance between the two centroids (for "hops" 1, for "size" the sum of
the two areas' plan areas); it returns the area ids from start to end, `[start]` when they are
equal, `[]` when unreachable. The path's cost is not returned: this script sums it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

# Relative tolerance on route costs: awpy sums corners in f32, navkit in f64 rounded to f32.
COST_TOLERANCE = 1e-5
# How many disagreements of each kind are printed.
SHOWN = 10
# How much further than the lift a surface may be and still count as a tie of overlapping
# areas (the surface of an area that is not flat is not at its centroid's height).
TIE = 0.5


def cpu_seconds() -> float:
    """This thread's CPU time, where Linux says it (steadier than wall time on a busy machine)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as f:
            return int(f.read().split()[0]) / 1e9
    except OSError:
        return time.process_time()


def children_cpu() -> float:
    """The CPU time (user and system) of the child processes waited for so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(navkit: str, args: list[str]) -> tuple[list[dict], float]:
    """Runs navkit with `args`; its JSON lines and the CPU time it took."""
    start = children_cpu()
    done = subprocess.run([navkit, *args], capture_output=True, text=True, check=False)
    took = children_cpu() - start
    if done.returncode != 0:
        sys.stderr.write(f"`navkit {' '.join(args)}` failed ({done.returncode}):\n{done.stderr}")
        sys.exit(2)
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    try:
        return [json.loads(line) for line in lines], took
    except json.JSONDecodeError as e:
        sys.stderr.write(f"`navkit {' '.join(args)}` printed a line that is not JSON: {e}\n")
        sys.exit(2)


def distance(a, b) -> float:
    return math.sqrt(sum((float(x) - float(y)) ** 2 for x, y in zip(a, b)))


def route_cost(cells: list[int], centroid: dict) -> float:
    return sum(distance(centroid[a], centroid[b]) for a, b in zip(cells, cells[1:]))


def close(a: float, b: float) -> bool:
    return abs(a - b) <= COST_TOLERANCE * max(1.0, abs(a), abs(b))


class Tally:
    """Passes and failures, with the first few failures of each kind kept to print."""

    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0
        self.shown: dict[str, int] = {}

    def check(self, ok: bool, kind: str, message) -> None:
        if ok:
            self.passed += 1
            return
        self.failed += 1
        count = self.shown.get(kind, 0)
        self.shown[kind] = count + 1
        if count < SHOWN:
            print(f"FAIL {kind}: {message() if callable(message) else message}")
        elif count == SHOWN:
            print(f"FAIL {kind}: (more not shown)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("navkit", help="the navkit binary")
    parser.add_argument("file", help="a Source 2 .nav file")
    parser.add_argument("--pairs", type=int, default=1000, help="random pairs to route")
    parser.add_argument("--seed", type=int, default=1, help="seed of the random pairs")
    parser.add_argument("--lift", type=float, default=10.0, help="units above each centre")
    args = parser.parse_args()
    try:
        from awpy import NavMesh
    except ImportError as e:
        sys.stderr.write(f"awpy is not importable ({e}): pip install awpy==3.1.1\n")
        return 2

    timings: list[tuple[str, float, float]] = []
    start = cpu_seconds()
    nav = NavMesh(args.file)
    awpy_load = cpu_seconds() - start
    frame = nav.areas
    ids = [int(i) for i in frame["area_id"].to_list()]
    centroid = {
        i: (x, y, z)
        for i, x, y, z in zip(
            ids,
            frame["centroid_x"].to_list(),
            frame["centroid_y"].to_list(),
            frame["centroid_z"].to_list(),
        )
    }
    neighbours = {i: set(nav.neighbors(i)) for i in ids}
    tally = Tally()

    with tempfile.TemporaryDirectory(prefix="awpy_check") as tmp:
        empty = os.path.join(tmp, "none.txt")
        open(empty, "w", encoding="ascii").close()
        _, navkit_load = run(args.navkit, ["locate", args.file, "--points", empty, "--json"])
        timings.append(("load (navkit: a whole command, no query)", awpy_load, navkit_load))

        # locate: every centre, raised.
        points = [(x, y, z + args.lift) for (x, y, z) in (centroid[i] for i in ids)]
        points_file = os.path.join(tmp, "points.txt")
        with open(points_file, "w", encoding="ascii") as f:
            f.writelines(f"{x!r} {y!r} {z!r}\n" for x, y, z in points)
        start = cpu_seconds()
        expected = [nav.find_area(p) for p in points]
        awpy_locate = cpu_seconds() - start
        found, navkit_locate = run(
            args.navkit, ["locate", args.file, "--points", points_file, "--json"]
        )
        timings.append((f"locate {len(points)} centres", awpy_locate, navkit_locate))
        tally.check(
            len(found) == len(points),
            "locate",
            f"{len(points)} points, {len(found)} answers",
        )
        # Where areas overlap in plan within the lift, the definitions differ: awpy takes the
        # area whose centroid is nearest in height, navkit the one whose surface is. A navkit
        # answer whose surface is no further from the point than the lift (where the centre of
        # the area awpy names lies), within TIE units for areas that are not flat, is navkit's
        # definition at work: counted and shown, not failed. Any other difference (another cell
        # further away, or none) fails.
        by_definition = 0
        for area, point, want, got in zip(ids, points, expected, found):
            cell = got.get("cell")
            distance = got.get("distance")
            if cell != want and want is not None and cell is not None and distance is not None:
                if distance <= args.lift + TIE:
                    by_definition += 1
                    if by_definition <= SHOWN:
                        print(
                            f"note: locate: area {area}'s centre + {args.lift}: awpy {want} "
                            f"(nearest centroid), navkit {cell} (nearest surface, {distance:.3f} below)"
                        )
                    continue
            tally.check(
                cell == want,
                "locate",
                lambda: f"area {area}'s centre + {args.lift} {point}: awpy {want}, navkit {got}",
            )
        if by_definition:
            print(
                f"note: locate: {by_definition} of {len(points)} points answered by a nearer "
                "surface than awpy's nearest centroid (areas overlapping within the lift)"
            )

        # path: random pairs, by distance, walking only.
        rng = random.Random(args.seed)
        pairs = [(rng.choice(ids), rng.choice(ids)) for _ in range(args.pairs)] if ids else []
        pairs_file = os.path.join(tmp, "pairs.txt")
        with open(pairs_file, "w", encoding="ascii") as f:
            f.writelines(f"{a} {b}\n" for a, b in pairs)
        start = cpu_seconds()
        awpy_routes = [nav.find_path(a, b, weight="distance") for a, b in pairs]
        awpy_paths = cpu_seconds() - start
        routes, navkit_paths = run(
            args.navkit,
            [
                "path",
                args.file,
                "--pairs",
                pairs_file,
                "--json",
                "--weight",
                "distance",
                "--walk-only",
            ],
        )
        timings.append((f"{len(pairs)} paths by distance", awpy_paths, navkit_paths))
        tally.check(
            len(routes) == len(pairs), "path", f"{len(pairs)} pairs, {len(routes)} answers"
        )
        for (a, b), theirs, ours in zip(pairs, awpy_routes, routes):
            check_route(tally, a, b, theirs, ours, centroid, neighbours)

    print()
    print(f"{'timing (s)':44} {'awpy':>10} {'navkit':>10} {'ratio':>8}")
    for what, awpy_s, navkit_s in timings:
        ratio = awpy_s / navkit_s if navkit_s > 0 else float("inf")
        print(f"{what:44} {awpy_s:10.4f} {navkit_s:10.4f} {ratio:7.1f}x")
    print("(CPU seconds; awpy's in-process calls, navkit's whole command)")
    print(f"{tally.passed} passed, {tally.failed} failed")
    return 1 if tally.failed else 0


def check_route(tally: Tally, a, b, theirs, ours, centroid, neighbours) -> None:
    """One pair: reachability, the route's ends and steps, and its cost against awpy's."""
    label = f"{a} -> {b}"
    if (ours.get("from"), ours.get("to")) != (a, b):
        tally.check(False, "path", f"{label}: navkit answers for {ours.get('from')} -> {ours.get('to')}")
        return
    reachable = bool(theirs)
    if ours.get("reachable") != reachable:
        tally.check(
            False,
            "path",
            f"{label}: awpy reachable {reachable} ({len(theirs)} areas), navkit "
            f"{ours.get('reachable')} ({len(ours.get('cells') or [])} cells)",
        )
        return
    if not reachable:
        tally.check(True, "path", "")
        return
    cells = ours.get("cells") or []
    if not cells or cells[0] != a or cells[-1] != b:
        tally.check(False, "path", f"{label}: navkit's route runs {cells[:1]}..{cells[-1:]}")
        return
    bad = [(x, y) for x, y in zip(cells, cells[1:]) if y not in neighbours.get(x, ())]
    if bad:
        tally.check(False, "path", f"{label}: navkit steps {bad[0]}, not an awpy connection")
        return
    steps = route_cost(cells, centroid)
    best = route_cost(theirs, centroid)
    cost = float(ours.get("cost", math.nan))
    tally.check(
        close(cost, steps) and close(cost, best),
        "path cost",
        lambda: f"{label}: navkit {cost} (its steps {steps}), awpy {best} "
        f"({len(cells)} and {len(theirs)} areas)",
    )


if __name__ == "__main__":
    sys.exit(main())
