"""The cost of your own heuristic against the built-in one of the same definition (docs/benchmarks.md, "Your
heuristic"): Manhattan distance written by hand in Python (heuristics/examples/manhattan.py) against `manhattan`.

    python3 bench/bench_user_heuristic.py [--runs N]

Each pair runs in turn, N times (the medians of CPU time are printed, with their ratio yours / built-in):
- A* on the two hardest 8-puzzle positions: the same nodes, h called on every child;
- IDA* on the hardest 8-puzzle: yours runs the generic search (h on every child), the built-in one the per-tile
  kernel that updates h move by move; also the built-in one through the generic search, to tell the heuristic's cost
  from the kernel's;
- the check of the whole 8-puzzle (181,440 positions) with yours and with `manhattan`.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.heuristics.check import check_steps  # noqa: E402
from slidelab.heuristics.examples import source  # noqa: E402
from slidelab.heuristics.user import user_heuristic  # noqa: E402
from slidelab.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.search.best_first import best_first  # noqa: E402
from slidelab.search.control import Limits, run  # noqa: E402
from slidelab.search.idastar import generic_idastar, idastar  # noqa: E402

POSITIONS = ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"]  # the two 3x3 positions 31 moves from the goal


def cpu_of(make) -> float:
    started = time.process_time()
    run(make())
    return time.process_time() - started


def pair(label: str, mine, theirs, runs: int) -> None:
    """Run the two in turn (A B A B ...) and print the medians and their ratio."""
    a, b = [], []
    for _ in range(runs):
        a.append(cpu_of(mine))
        b.append(cpu_of(theirs))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{label:<58} yours {ma * 1000:9.1f} ms cpu   built-in {mb * 1000:9.1f} ms cpu   ratio {ma / mb:5.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each (the median is printed)")
    args = parser.parse_args()
    code = source("manhattan")
    for board in POSITIONS:
        puzzle = SlidingPuzzle.from_text(board)
        mine, builtin = user_heuristic(puzzle, code), get_heuristic("manhattan", puzzle)
        pair(f"A* {board}", lambda p=puzzle, h=mine: best_first(p, h, Limits()),
             lambda p=puzzle, h=builtin: best_first(p, h, Limits()), args.runs)
    puzzle = SlidingPuzzle.from_text(POSITIONS[0])
    mine, builtin = user_heuristic(puzzle, code), get_heuristic("manhattan", puzzle)
    pair("IDA* 8 6 7/2 5 4/3 0 1 (built-in: the per-tile kernel)", lambda: idastar(puzzle, mine, Limits()),
         lambda: idastar(puzzle, builtin, Limits()), args.runs)
    pair("IDA* 8 6 7/2 5 4/3 0 1 (built-in: the generic search)", lambda: idastar(puzzle, mine, Limits()),
         lambda: generic_idastar(puzzle, builtin, Limits()), args.runs)
    pair("check-heuristic 3x3 (181,440 positions)", lambda: check_steps(puzzle, mine),
         lambda: check_steps(puzzle, builtin), args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
