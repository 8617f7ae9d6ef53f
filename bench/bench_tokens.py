"""Benchmarks of token puzzles (docs/benchmarks.md, "tokens"): medians of N runs, in CPython.

    python3 bench/bench_tokens.py [--runs N]

Prints one line per figure: what was run, the median wall time, and the counters that explain it. Search figures
time the search alone (the puzzle and heuristic built beforehand); `api` figures time a whole api call, from the
request to the checked answer. The first api call of a process also builds the board's move tables and heuristic
tables (kept for later calls on the same board): it is timed once, first, as "cold".
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from slidelab import api  # noqa: E402
from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.tokens import TokenPuzzle  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.search import ALGORITHMS  # noqa: E402
from slidelab.space.explore import explore  # noqa: E402


def timed(call, runs):
    """((median CPU seconds, median wall seconds), last result) of `runs` calls of `call()`."""
    cpu, wall = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = call()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return (statistics.median(cpu), statistics.median(wall)), result


def line(what, seconds, detail):
    """One figure: CPU and wall milliseconds, then the counters that explain it."""
    cpu, wall = seconds
    print(f"{what:<40} {cpu * 1000:>8.1f} ms CPU {wall * 1000:>8.1f} ms wall   {detail}")


def calibration(runs):
    """How fast this Python is at plain loops: the median time of sum(range(10**6))."""
    return timed(lambda: sum(range(10 ** 6)), runs)[0][1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="runs per figure (the median is printed)")
    args = parser.parse_args()
    runs = args.runs
    print(f"Python {sys.version.split()[0]}, medians of {runs} runs; "
          f"sum(range(10**6)) takes {calibration(runs) * 1000:.1f} ms here")

    t, a = timed(lambda: api.solve({"puzzle": "knights"}), 1)
    line("api solve idastar, cold (one run)", t, f"{a['length']} moves")

    knights = TokenPuzzle.preset("knights")
    for name, heuristic in [("idastar", "matching"), ("idastar", "nearest"), ("astar", "matching"),
                            ("astar", "nearest"), ("bidirectional", "zero"), ("bfs", "zero")]:
        h = get_heuristic(heuristic, knights)
        algorithm = ALGORITHMS[name]
        t, r = timed(lambda algorithm=algorithm, h=h: run(algorithm.start(knights, h, Limits(), {})), runs)
        assert len(r.moves) == 16 and knights.is_goal(knights.replay(r.moves))
        label = f"knights {name}" + (f" {heuristic}" if algorithm.uses_heuristic else "")
        line(label, t, f"{len(r.moves)} moves, expanded {r.stats.expanded:,}, stored {r.stats.stored:,}")

    t, r = timed(lambda: run(explore(knights.reversed(), Limits())), runs)
    line("knights explore (from the start)", t,
         f"{r.states:,} positions, max depth {r.max_depth}, {len(r.farthest)} farthest")

    for request in [{"puzzle": "knights"}, {"puzzle": "knights", "algorithm": "bidirectional"}]:
        t, a = timed(lambda request=request: api.solve(request), runs)
        line(f"api solve {a['algorithm']} {a.get('heuristic_used') or ''}".rstrip(), t, f"{a['length']} moves")
    t, a = timed(lambda: api.explore({"puzzle": "knights"}), runs)
    line("api explore knights", t, f"{a['states']:,} positions, max depth {a['max_depth']}")


if __name__ == "__main__":
    main()
