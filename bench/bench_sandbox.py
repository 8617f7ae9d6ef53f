"""What the sandbox costs someone else's heuristic (docs/benchmarks.md, "The sandbox"): its start, and h's values
through its channel, beside the forked child that runs where no sandbox can be made.

    python3 bench/bench_sandbox.py [--runs N]

Each start is an Evaluator made for the 8-puzzle with the example Manhattan distance until it is ready (its code
compiled and checked at the goal), then closed; each is timed N times, in turn with the other kinds (bubblewrap,
namespaces made by unshare(2), a forked child: those this machine gives), and the medians printed. Then h of the
181,440 positions of the 8-puzzle, asked 1,000 a message, and one a message.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal  # noqa: E402
from slidelab.heuristics.examples import source  # noqa: E402
from slidelab.run import sandbox  # noqa: E402
from slidelab.run.supervised import Evaluator  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    print(f"sandbox: {sandbox.status()['detail']}")
    puzzle = SlidingPuzzle(3, 3, default_goal(3, 3))
    code = source("manhattan")
    kinds = {kind: True for kind in sandbox.MECHANISMS if sandbox._missing(kind) is None
             and sandbox._fails(kind) is None}
    kinds["forked"] = False
    starts: dict = {kind: [] for kind in kinds}
    for _ in range(args.runs):
        for kind, sandboxed in kinds.items():
            sandbox._status = {"kind": kind, "detail": kind}  # the mechanism the next Evaluator is made by
            started = time.perf_counter()
            Evaluator(puzzle, code, sandboxed=sandboxed).close()
            starts[kind].append(time.perf_counter() - started)
    for kind, times in starts.items():
        print(f"start of the {kind} evaluator: {1000 * statistics.median(times):.1f} ms (median of {args.runs})")
    states = _states(puzzle)
    for kind, sandboxed in kinds.items():
        sandbox._status = {"kind": kind, "detail": kind}
        evaluator = Evaluator(puzzle, code, sandboxed=sandboxed)
        started = time.perf_counter()
        for i in range(0, len(states), 1000):
            evaluator.values(states[i:i + 1000])
        batched = time.perf_counter() - started
        started = time.perf_counter()
        for state in states[:20000]:
            evaluator.values([state])
        single = (time.perf_counter() - started) / 20000
        evaluator.close()
        print(f"{kind}: h of {len(states):,} positions 1,000 a message {batched:.2f} s "
              f"({1e6 * batched / len(states):.1f} us each); one a message {1e6 * single:.0f} us each")
    return 0


def _states(puzzle) -> list:
    """Every position of the puzzle, breadth first from the goal."""
    seen = {puzzle.goal}
    frontier = [puzzle.goal]
    while frontier:
        following = []
        for state in frontier:
            for child in puzzle.children(state):
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        frontier = following
    return list(seen)


if __name__ == "__main__":
    sys.exit(main())
