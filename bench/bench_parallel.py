"""Parallel IDA* against the serial search on hard 15-puzzle positions, and the load balance to expect on more cores.

    SLIDELAB_PDB_DIR=.cache/pdb .venv/bin/python bench/bench_parallel.py [--runs 3] [--korf 60 ...] [--workers 2]

For each position: wall time of `workers` = 1 and = N, run alternately (the median of --runs each), the ratio, the
nodes, and the per-worker nodes. Then, for 2, 8 and 16 workers: the start split as that many workers would split it,
every subtree searched alone at the bound of the last complete iteration, and the subtrees handed out largest first
to that many simulated workers, as parallel_idastar does: the speed-up that load balance allows (total / longest
worker). Tables are loaded once, before timing (an easy 4x4 loads them), as a long-running page or batch would.
"""

from __future__ import annotations

import argparse
import copy
import heapq
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab import api  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.search.control import Limits  # noqa: E402
from slidelab.search.idastar import idastar  # noqa: E402
from slidelab.search.parallel_idastar import SUBTREES_PER_WORKER, split  # noqa: E402

GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def korf(number: int) -> tuple[str, int]:
    for line in (ROOT / "tests" / "data" / "korf100.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#") and int(line.split()[0]) == number:
            head, tiles = line.split("|")
            t = tiles.split()
            return "/".join(" ".join(t[i:i + 4]) for i in range(0, 16, 4)), int(head.split()[1])
    raise SystemExit(f"no Korf position {number}")


def timed(request: dict) -> tuple[float, dict]:
    started = time.perf_counter()
    answer = api.solve(request)
    return time.perf_counter() - started, answer


def subtree_sizes(board: str, bound: int, workers: int) -> list[int]:
    """Nodes of each subtree of a `workers`-way split, searched alone at `bound`."""
    puzzle = SlidingPuzzle.from_text(board, GOAL)
    heuristic = get_heuristic("pdb", puzzle)
    _, frontier, _, _ = split(puzzle, workers * SUBTREES_PER_WORKER)
    sizes = []
    for g, state, walk, _ in frontier:
        if g + heuristic(state) > bound:
            continue
        sub = copy.copy(puzzle)
        sub.start = state
        search = idastar(sub, heuristic, Limits(), walk=walk, only=bound - g)
        try:
            while True:
                next(search)
        except StopIteration as stop:
            sizes.append(stop.value.stats.expanded)
    return sizes


def balanced_speedup(sizes: list[int], workers: int) -> float:
    """Total work over the busiest worker's when the subtrees go largest first to the least loaded worker."""
    loads = [0] * workers
    for size in sorted(sizes, reverse=True):
        heapq.heapreplace(loads, loads[0] + size)
    return sum(sizes) / max(loads)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--korf", type=int, nargs="+", default=[60])
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    api.solve({"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "heuristic": "pdb"})  # load the tables
    for number in args.korf:
        board, length = korf(number)
        request = {"board": board, "goal": GOAL, "heuristic": "pdb"}
        times = {1: [], args.workers: []}
        for _ in range(args.runs):
            for workers in times:
                seconds, answer = timed(dict(request, workers=workers))
                assert answer["ok"] and answer["length"] == length, answer
                times[workers].append(seconds)
                if workers == 1:
                    serial = answer
                else:
                    parallel = answer
        t1, tn = statistics.median(times[1]), statistics.median(times[args.workers])
        print(f"Korf #{number} ({length} moves): workers 1 {t1:.2f} s, workers {args.workers} {tn:.2f} s, "
              f"ratio {tn / t1:.2f} (median of {args.runs})")
        s_it, p_it = serial["stats"]["iterations"], parallel["stats"]["iterations"]
        print(f"  expanded: serial {serial['stats']['expanded']:,}, parallel {parallel['stats']['expanded']:,}; "
              f"last complete iteration (bound {s_it[-2]['bound']}): {s_it[-2]['expanded']:,} / "
              f"{p_it[-2]['expanded']:,}")
        per_worker = [w["expanded"] for w in parallel["parallel"]["workers"]]
        print(f"  per worker: {' / '.join(f'{n:,}' for n in per_worker)} "
              f"(balance {sum(per_worker) / (len(per_worker) * max(per_worker)):.2f}); "
              f"{parallel['parallel']['subtrees']} subtrees; "
              f"{parallel['parallel'].get('worker_memory_bytes', 0) / 2**20:.0f} MB in the workers")
        bound = s_it[-2]["bound"]
        for workers in (2, 8, 16):
            sizes = subtree_sizes(board, bound, workers)
            print(f"  {workers:2d} workers: {len(sizes)} subtrees within bound {bound}, largest "
                  f"{max(sizes) / sum(sizes):.1%} of the work; load balance allows a speed-up of "
                  f"{balanced_speedup(sizes, workers):.2f}")


if __name__ == "__main__":
    main()
