"""Benchmark of the indexed explore (numpy) on one board shape: time, memory, speed and the depth histogram.

    .venv/bin/python bench/bench_explore_scale.py [SHAPE] [--goal BOARD] [--trace]

SHAPE is rows x cols (default 3x4). Prints wall and CPU time, positions per second, the peak resident memory of the
process (ru_maxrss), the bytes of the arrays the search holds, and the count of positions at every depth. With
--trace, tracemalloc also measures the peak of every numpy allocation (the chunk temporaries included).
"""

from __future__ import annotations

import argparse
import pathlib
import resource
import sys
import time
import tracemalloc

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, parse_board, parse_shape  # noqa: E402
from slidelab.space.indexed_explore import indexed_explore  # noqa: E402

MB = 1 << 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", nargs="?", default="3x4", help="rows x cols, e.g. 3x4 (default), 2x6, 3x3")
    parser.add_argument("--goal", help="goal board text (default: 1 2 ... then the blank at the bottom right)")
    parser.add_argument("--trace", action="store_true", help="also measure the numpy allocations' peak (tracemalloc)")
    args = parser.parse_args()
    rows, cols = parse_shape(args.shape)
    goal = parse_board(args.goal)[2] if args.goal else default_goal(rows, cols)
    puzzle = SlidingPuzzle(rows, cols, goal, goal)
    print(f"{rows}x{cols}, goal {puzzle.format(goal)}, {puzzle.state_count():,} positions")

    if args.trace:
        tracemalloc.start()
    last = {}
    started, started_cpu = time.perf_counter(), time.process_time()
    result = run(indexed_explore(puzzle, Limits()), last.update)
    wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
    traced = tracemalloc.get_traced_memory()[1] if args.trace else None

    print(f"time           {wall:8.1f} s wall, {cpu:.1f} s CPU")
    print(f"speed          {result.states / wall:,.0f} positions/s, {result.stats.generated / wall:,.0f} moves/s")
    print(f"peak memory    {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / MB:8.1f} MB resident "
          "(ru_maxrss, the whole process)")
    print(f"arrays held    {result.extra['memory_bytes'] / MB:8.1f} MB (depth record and lookup tables)")
    if traced is not None:
        print(f"numpy peak     {traced / MB:8.1f} MB (tracemalloc: every allocation, chunk temporaries included)")
    print(f"positions      {result.states:,}, max depth {result.max_depth}, {len(result.farthest)} farthest, "
          f"{result.stats.generated:,} moves; last progress {last or 'none'}")
    print("depth histogram:")
    for depth, count in enumerate(result.depths):
        print(f"  {depth:3d} {count:>12,}")
    print("farthest:")
    for state in result.farthest[:20]:
        print("  " + puzzle.format(state))
    if len(result.farthest) > 20:
        print(f"  ... and {len(result.farthest) - 20} more")


if __name__ == "__main__":
    main()
