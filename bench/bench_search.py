"""Benchmarks of the search family (docs/benchmarks.md, "search algorithms"): medians of N runs, in CPython.

    python3 bench/bench_search.py [--runs N] [--skip-2x5]

Prints one line per figure: what was run, the median CPU time of this process and the median wall time (the machines
are shared, so CPU time is the steadier figure), and the counters that explain it.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from slidelab import api  # noqa: E402
from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.search.best_first import best_first  # noqa: E402
from slidelab.search.bfs import bfs  # noqa: E402
from slidelab.search.bidirectional import bidirectional  # noqa: E402
from slidelab.search.idastar import idastar  # noqa: E402
from slidelab.search.iddfs import iddfs  # noqa: E402
from slidelab.space.explore import explore  # noqa: E402

HARDEST = "8 6 7/2 5 4/3 0 1"  # one of the two 3x3 positions 31 moves from the goal
FARTHEST = [HARDEST, "6 4 7/8 5 0/3 2 1"]  # both


def timed(make_search, runs):
    """((median CPU seconds, median wall seconds), last result) of `runs` runs of the search made by `make_search()`."""
    cpu, wall = [], []
    for _ in range(runs):
        started, started_cpu = time.perf_counter(), time.process_time()
        result = run(make_search())
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return (statistics.median(cpu), statistics.median(wall)), result


def line(what, seconds, detail):
    cpu, wall = seconds
    print(f"{what:<48} {cpu * 1000:>8.1f} ms cpu {wall * 1000:>8.1f} ms wall   {detail}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="runs per figure (the median is printed)")
    parser.add_argument("--skip-2x5", action="store_true", help="leave out exploring the 2x5 board (seconds)")
    args = parser.parse_args()
    runs = args.runs
    print(f"Python {sys.version.split()[0]}, median of {runs} runs")

    for rows, cols, n in [(3, 3, runs)] + ([] if args.skip_2x5 else [(2, 5, min(runs, 3))]):
        p = SlidingPuzzle(rows, cols, default_goal(rows, cols))
        t, r = timed(lambda p=p: explore(p, Limits()), n)
        line(f"explore {rows}x{cols}", t, f"{r.states:,} positions, max depth {r.max_depth}, "
             f"stored at most {r.stats.stored:,}")

    p = SlidingPuzzle.from_text(HARDEST)
    t, r = timed(lambda: bidirectional(p, Limits()), runs)
    line(f"bidirectional BFS {HARDEST}", t, f"{len(r.moves)} moves, expanded {r.stats.expanded:,}, "
         f"stored {r.stats.stored:,}")
    t, r = timed(lambda: bfs(p, Limits()), min(runs, 3))
    line(f"BFS {HARDEST}", t, f"{len(r.moves)} moves, expanded {r.stats.expanded:,}, stored {r.stats.stored:,}")

    for text in FARTHEST:
        far = SlidingPuzzle.from_text(text)
        h = get_heuristic("manhattan", far)
        t, r = timed(lambda far=far, h=h: idastar(far, h, Limits()), runs)
        line(f"IDA* manhattan {text}", t, f"{len(r.moves)} moves, expanded {r.stats.expanded:,}")
    manhattan = get_heuristic("manhattan", p)
    t, r = timed(lambda: idastar(p, manhattan, Limits(), all_solutions=True), runs)
    line(f"IDA* manhattan, all solutions, {HARDEST}", t,
         f"{len(r.solutions)} solutions of {len(r.moves)} moves, expanded {r.stats.expanded:,}")

    q = SlidingPuzzle.from_text("7 8 2/6 3 4/5 0 1")
    for name in ("zero", "misplaced", "manhattan"):
        h = get_heuristic(name, q)
        t, r = timed(lambda h=h: best_first(q, h, Limits()), min(runs, 3))
        line(f"A* {name} 7 8 2/6 3 4/5 0 1", t, f"{len(r.moves)} moves, expanded (closed) {r.stats.expanded:,}, "
             f"open list peak {r.stats.open_peak:,}")

    t, r = timed(lambda: iddfs(q, Limits()), min(runs, 3))
    line("IDDFS 7 8 2/6 3 4/5 0 1", t, f"{len(r.moves)} moves, expanded {r.stats.expanded:,}")

    for board in (HARDEST, "7 8 2/6 3 4/5 0 1"):
        b = SlidingPuzzle.from_text(board)
        h = get_heuristic("manhattan", b)
        for name, g_weight, h_weight in (("greedy", 0, 1), ("weighted A* (W = 2)", 1, 2)):
            t, r = timed(lambda b=b, h=h, g_weight=g_weight, h_weight=h_weight:
                         best_first(b, h, Limits(), g_weight, h_weight, reopen=False), runs)
            line(f"{name} manhattan {board}", t, f"{len(r.moves)} moves, expanded (closed) {r.stats.expanded:,}")

    request = {"board": HARDEST, "algorithm": "astar", "heuristic": "manhattan"}
    t, answer = timed(lambda: api.trace_steps(request), runs)
    line(f"trace of A* manhattan {HARDEST}", t, f"{answer['expanded']:,} expansions (truncated), "
         f"{len(answer['nodes']):,} nodes, {len(answer['steps']):,} steps, {len(json.dumps(answer)):,} bytes of JSON")


if __name__ == "__main__":
    main()
