"""Korf's 100 random 15-puzzle positions solved optimally with the pattern databases (docs/benchmarks.md,
"heuristics and pattern databases").

    python3 bench/bench_korf.py [--ids 1,2,5 | --first N] [--file PATH] [--heuristics pdb,pdb78,pdb78:packed]

The databases are loaded (or built, once, into the cache folder) first and that time is reported apart. Then every
position is solved by IDA* with each heuristic in turn (default `auto`: the largest pattern databases at hand), its
length checked against the optimal length listed in the file, and one line printed per position and heuristic: id,
length, nodes expanded and generated, CPU and wall seconds. The summary gives, per heuristic, the totals, the median
and the worst position, and with several heuristics the ratios of their totals to the first's (measured in one run,
alternating, so that the machine's noise falls on both); with dual lookups ("pdb78dual"), how many dual positions
the kernel looked up a generated position. A name with ":packed" holds its ranked tables packed, as
the browser does (files.PackedTable: about a quarter of a byte an entry). Exits 1 if any length differs.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab import api  # noqa: E402
from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.heuristics.pdb import cache_dir, files, is_ranked, plan  # noqa: E402
from slidelab.search.idastar import idastar  # noqa: E402

KORF_FILE = ROOT / "pysrc" / "slidelab" / "data" / "korf100.txt"  # Korf (1985), with its source
GOAL = tuple(range(16))


def read_positions(path):
    """[(id, optimal length, tiles)] from the file: lines `id length nodes | tiles`, '#' comments."""
    positions = []
    for text in pathlib.Path(path).read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            head, tiles = text.split("|")
            ident, length = head.split()[:2]
            positions.append((int(ident), int(length), tuple(int(t) for t in tiles.split())))
    return positions


def packed(name):
    """The heuristic `name` with its ranked tables read packed from the cache folder, as the browser holds them."""
    puzzle = SlidingPuzzle(4, 4, GOAL, GOAL)
    held = dict(files._TABLES)
    for table, *_ in plan(puzzle, get_heuristic(name, puzzle).name):
        if is_ranked(table):
            with open(pathlib.Path(cache_dir()) / table, "rb") as f:
                files._TABLES[table] = files.decode(f, packed=True)[1]
    try:
        return get_heuristic(name, puzzle)
    finally:
        files._TABLES.clear()
        files._TABLES.update(held)


def counted(value, looks, name):
    """`value` counting its calls into looks[name]."""

    def counting(*args):
        looks[name] += 1
        return value(*args)

    return counting


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(KORF_FILE),
                        help="the positions (default: pysrc/slidelab/data/korf100.txt)")
    parser.add_argument("--ids", help="comma-separated ids to run (default: all)")
    parser.add_argument("--first", type=int, help="run only the first N positions")
    parser.add_argument("--heuristics", default="auto", help="comma-separated heuristics to compare (default: auto)")
    args = parser.parse_args()
    names = args.heuristics.split(",")
    positions = read_positions(args.file)
    if args.ids:
        wanted = {int(i) for i in args.ids.split(",")}
        positions = [p for p in positions if p[0] in wanted]
    if args.first:
        positions = positions[:args.first]

    goal = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
    heuristics = {}  # one per name: every position has the same goal
    dual_looks = dict.fromkeys(names, 0)
    for name in names:
        started = time.perf_counter()
        base, _, held = name.partition(":")
        request = {"board": goal, "goal": goal, "algorithm": "idastar", "heuristic": base}
        status = api.pattern_databases(request, build=True)
        heuristics[name] = heuristic = packed(base) if held == "packed" else get_heuristic(
            base, SlidingPuzzle(4, 4, GOAL, GOAL))
        assert status["ready"] and heuristic.name.startswith("pdb")
        if heuristic.dual is not None:  # count the kernel's looks at a dual position (a call, for every cover)
            heuristic.dual.value = counted(heuristic.dual.value, dual_looks, name)
        print(f"{name} ({heuristic.name}): databases ready in {time.perf_counter() - started:.2f} s: "
              f"{', '.join(t['name'] for t in status['tables'])}")

    rows, wrong = {name: [] for name in names}, 0
    print(f"{'id':>4} {'heuristic':>10} {'len':>4} {'expanded':>12} {'generated':>12} {'cpu s':>8} {'wall s':>8}")
    for ident, length, tiles in positions:
        puzzle = SlidingPuzzle(4, 4, tiles, GOAL)
        for name in names:
            h = heuristics[name]
            wall, cpu = time.perf_counter(), time.process_time()
            result = run(idastar(puzzle, h, Limits()))
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            ok = len(result.moves) == length and puzzle.replay(result.moves) == GOAL
            wrong += not ok
            rows[name].append((ident, result.stats.expanded, result.stats.generated, cpu, wall))
            print(f"{ident:>4} {name:>10} {len(result.moves):>4} {result.stats.expanded:>12,} "
                  f"{result.stats.generated:>12,} {cpu:>8.2f} {wall:>8.2f}"
                  f"{'' if ok else '  WRONG LENGTH, expected ' + str(length)}", flush=True)
    if not positions:
        return 0
    first = rows[names[0]]
    for name in names:
        done = rows[name]
        cpu_total = sum(r[3] for r in done)
        wall_total = sum(r[4] for r in done)
        expanded = sum(r[1] for r in done)
        generated = sum(r[2] for r in done)
        worst = max(done, key=lambda r: r[3])
        print(f"{name}: {len(done)} positions; total {cpu_total:.2f} s cpu, {wall_total:.2f} s wall; "
              f"{expanded:,} expanded, {generated:,} generated ({generated / len(done):,.0f} per position, "
              f"{generated / max(cpu_total, 1e-9):,.0f} per cpu second)")
        print(f"  median {statistics.median(r[3] for r in done):.2f} s cpu, "
              f"{statistics.median(r[2] for r in done):,.0f} generated; worst: #{worst[0]} {worst[3]:.2f} s cpu, "
              f"{worst[2]:,} generated")
        if heuristics[name].dual is not None:
            print(f"  dual positions looked up: {dual_looks[name] / generated:.2f} a generated position, each in "
                  f"up to {heuristics[name].dual.ways} ways (stopping at the first over the bound)")
        if name != names[0]:
            print(f"  against {names[0]}: cpu {cpu_total / sum(r[3] for r in first):.3f}, generated "
                  f"{generated / sum(r[2] for r in first):.3f}")
    print(f"{len(positions) * len(names) - wrong} of {len(positions) * len(names)} solves with the optimal length")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
