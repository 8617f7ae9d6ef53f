"""Heuristics, pattern databases and the quick solver (docs/benchmarks.md, "heuristics and pattern databases").

    python3 bench/bench_heuristics.py [--runs N] [--builds] [--max-seconds S]

Prints one line per figure with the median CPU and wall time of N runs and the counters that explain it:
- the hardest 3x4 position (53 moves) and the hardest 3x3 position (31 moves) with each heuristic (a heuristic that
  needs more than --max-seconds is reported as stopped);
- the quick solver on random 5x5, 6x6 and 10x10 positions and on 4x4 positions (length beside the lower bound);
- pattern databases: the time to load each file of the 4x4 and 3x4 sets and its size; with --builds also the time
  to build each 3x4 table in pure Python and with numpy (4x4 builds take minutes: `slidelab pdb 4x4`).
"""

from __future__ import annotations

import argparse
import pathlib
import random
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.errors import SearchLimit  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, random_position  # noqa: E402
from slidelab.heuristics import get_heuristic, pdb  # noqa: E402
from slidelab.heuristics.pdb import files, frames  # noqa: E402
from slidelab.search.idastar import idastar  # noqa: E402
from slidelab.search.quick import quick  # noqa: E402
from slidelab.space import pdb_builder as builder

HARDEST_3X4 = "0 3 2 1/8 7 6 5/4 11 10 9"  # 53 moves from 1 2 3 4/5 6 7 8/9 10 11 0
HARDEST_3X3 = "8 6 7/2 5 4/3 0 1"  # 31 moves


def timed(fn, runs):
    cpu, wall = [], []
    for _ in range(runs):
        w, c = time.perf_counter(), time.process_time()
        result = fn()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return statistics.median(cpu), statistics.median(wall), result


def line(what, cpu, wall, detail):
    print(f"{what:<44} {cpu * 1000:>9.1f} ms cpu {wall * 1000:>9.1f} ms wall   {detail}", flush=True)


def optimal(board, runs, max_seconds):
    puzzle = SlidingPuzzle.from_text(board)
    for name in ["pdb", "walking_distance", "linear_conflict", "manhattan"]:
        h = get_heuristic(name, puzzle)
        try:
            cpu, wall, result = timed(lambda h=h: run(idastar(puzzle, h, Limits(max_seconds=max_seconds))), runs)
        except SearchLimit:
            print(f"{board + ' ' + name:<44} stopped after {max_seconds:g} s")
            continue
        s = result.stats
        line(f"{board} {name}", cpu, wall, f"{len(result.moves)} moves, {s.expanded:,} expanded, "
             f"{s.generated:,} generated, {s.generated / max(cpu, 1e-9):,.0f}/s")


def quick_solver(rows, cols, count, seed):
    rng = random.Random(seed)
    times, walls, ratios, lengths = [], [], [], []
    for _ in range(count):
        puzzle = SlidingPuzzle(rows, cols, random_position(rows, cols, rng=rng))
        h = get_heuristic("auto", puzzle)
        cpu, wall, result = timed(lambda puzzle=puzzle, h=h: run(quick(puzzle, h, Limits())), 1)
        assert puzzle.replay(result.moves) == puzzle.goal
        times.append(cpu)
        walls.append(wall)
        lengths.append(len(result.moves))
        ratios.append(len(result.moves) / max(result.extra["lower_bound"], 1))
    line(f"quick {rows}x{cols}, {count} random (median)", statistics.median(times), statistics.median(walls),
         f"worst {max(times) * 1000:.0f} ms cpu; median length {statistics.median(lengths):.0f}, "
         f"{statistics.median(ratios):.2f} x the lower bound")


def databases(runs, builds):
    for shape in [(3, 4), (4, 4)]:
        names = [name for name, *_ in pdb.plan(SlidingPuzzle(*shape, default_goal(*shape)))]
        for path in pdb.write_files(names, pdb.cache_dir()):  # the cache folder: built once, then reused
            data = pathlib.Path(path).read_bytes()
            cpu, wall, _ = timed(lambda data=data: files.decode(data), runs)
            line(f"load {pathlib.Path(path).name}", cpu, wall, f"{len(data):,} bytes")
    if builds:
        for cells in [c for part in frames.PARTITIONS[3, 4] for c in part]:
            cpu, wall, table = timed(lambda cells=cells: builder.build_table(3, 4, cells), 1)
            line(f"build 3x4 {cells} pure Python", cpu, wall, f"{frames.placements(12, len(cells)):,} placements")
            try:
                from slidelab.space.pdb_builder_numpy import build_table_numpy
            except ImportError:
                continue
            cpu, wall, table2 = timed(lambda cells=cells: build_table_numpy(3, 4, cells), 1)
            line(f"build 3x4 {cells} numpy", cpu, wall, "same bytes" if table2 == table else "DIFFERENT")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (the median is printed)")
    parser.add_argument("--max-seconds", type=float, default=60, help="give up a search after this long")
    parser.add_argument("--builds", action="store_true", help="also time building the 3x4 tables")
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]} on {sys.platform}")
    databases(args.runs, args.builds)
    optimal(HARDEST_3X4, args.runs, args.max_seconds)
    optimal(HARDEST_3X3, args.runs, args.max_seconds)
    quick_solver(5, 5, 20, 1)
    quick_solver(4, 4, 20, 2)
    quick_solver(6, 6, 5, 3)
    quick_solver(10, 10, 2, 4)


if __name__ == "__main__":
    main()
