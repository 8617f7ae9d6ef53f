"""Parallel IDA* against the serial search on hard 15-puzzle positions, and the load balance to expect on more cores.

    SLIDELAB_PDB_DIR=.cache/pdb .venv/bin/python bench/bench_parallel.py [--runs 3] [--korf 60 ...] [--workers 2]
        [--dask]

For each position: wall time of `workers` = 1 and = N, run alternately (the median of --runs each), the ratio, the
nodes, and the per-worker nodes. Tables are loaded once, before timing (an easy 4x4 loads them), as a long-running
page or batch would.

Then a projection to 2, 8 and 16 workers (and --workers), in nodes (deterministic, whatever the machine's load),
simulating what the scheduler (scheduler.py) does: the start split as that many workers would split it; for every
complete iteration (every bound but the last), each subtree whose f fits the bound searched alone to count its nodes;
the subtrees queued as the scheduler queues them (in the order the serial search meets them), each handed to the worker
that becomes free first; every iteration ends when its busiest worker does (all are waited for before the next bound).
Projected speed-up: all nodes over the sum of the iterations' busiest loads; balance: that over the workers. The last
iteration is left out: it stops at the first solution, and where that turns up depends on which worker gets there first,
i.e. on timing, not on nodes alone. For the timed number of workers (--workers, 2 by default) the simulation is checked
against the real run's own per-worker nodes in the same iterations (the last timed run's pool, read at the end of each
iteration).
"""

from __future__ import annotations

import argparse
import contextlib
import heapq
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab import api  # noqa: E402
from slidelab.core.cluster import local_cluster  # noqa: E402
from slidelab.core.control import run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.run import scheduler  # noqa: E402
from slidelab.run.scheduler import Scheduler  # noqa: E402
from slidelab.search.contour import INF, next_bound  # noqa: E402
from slidelab.search.idastar import search_order  # noqa: E402
from slidelab.search.parallel_idastar import SUBTREES_PER_WORKER, search_subtrees, split  # noqa: E402

GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def korf(number: int) -> tuple[str, int]:
    for line in (ROOT / "pysrc" / "slidelab" / "data" / "korf100.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#") and int(line.split()[0]) == number:
            head, tiles = line.split("|")
            t = tiles.split()
            return "/".join(" ".join(t[i:i + 4]) for i in range(0, 16, 4)), int(head.split()[1])
    raise SystemExit(f"no Korf position {number}")


def timed(request: dict) -> tuple[float, dict]:
    started = time.perf_counter()
    answer = api.solve(request)
    return time.perf_counter() - started, answer


def iteration_sizes(board: str, length: int, workers: int, per_worker: int = SUBTREES_PER_WORKER):
    """The driver's complete iterations (every bound below `length`, the solution's) for a `workers`-way split
    (`per_worker` subtrees each), replayed one subtree at a time: (bounds, per bound {subtree index: nodes}, in the
    order the driver hands them out: the serial search's), each subtree whose
    f fits the bound searched alone with it (the others skipped, as the driver skips them), the next bound the least
    f over it anywhere, as the driver takes it (a deeper split may skip a bound the serial search makes)."""
    puzzle = SlidingPuzzle.from_text(board, GOAL)
    heuristic = get_heuristic("pdb", puzzle)
    _, frontier, _, _ = split(puzzle, workers * per_worker)
    order = search_order(puzzle, heuristic, frontier)
    f_of = [g + heuristic(state) for g, state, _, _ in frontier]
    parity = puzzle.solution_parity()
    bound = next_bound(heuristic(puzzle.start), parity)
    bounds, iterations = [], []
    while bound < length:
        sizes = {}
        over = min((f for f in f_of if f > bound), default=INF)
        for index in order([i for i, f in enumerate(f_of) if f <= bound], bound):
            searched = run(search_subtrees(puzzle, heuristic, frontier, [index], bound, False))
            sizes[index] = searched.expanded
            over = min(over, searched.over)
        bounds.append(bound)
        iterations.append(sizes)
        bound = next_bound(over, parity)
    return bounds, iterations


def schedule(iterations: list[dict[int, int]], workers: int) -> list[list[int]]:
    """Each worker's nodes in each iteration when the subtrees are queued as parallel_idastar queues them (in the
    order of `iterations`' dicts: the serial search's) and each goes to the worker that becomes free first (the
    lowest slot among equals, as the pool does)."""
    per_iteration = []
    for sizes in iterations:
        free = [(0, slot) for slot in range(workers)]  # (nodes done, slot): the heap's top is the next one free
        loads = [0] * workers
        for index in sizes:
            done, slot = heapq.heappop(free)
            loads[slot] = done + sizes[index]
            heapq.heappush(free, (loads[slot], slot))
        per_iteration.append(loads)
    return per_iteration


def balance(per_iteration: list[list[int]]) -> tuple[float, float]:
    """(speed-up, balance) of per-iteration worker loads: all nodes over the sum of the iterations' busiest loads,
    and that over the workers (1 = never idle, the barriers included)."""
    total = sum(map(sum, per_iteration))
    speedup = total / sum(map(max, per_iteration))
    return speedup, speedup / len(per_iteration[0])


def record_iterations(log: list[list[int]], workers: int) -> None:
    """Make the parallel search append every worker's nodes so far to `log` as each iteration ends (also one that
    searched no subtree: none fitted its bound), a list copied per iteration: nothing a timing can see."""
    latest: list[int] = []
    search_round = Scheduler.round

    def round_(self, step):
        searched = yield from search_round(self, step)
        latest[:] = self.per_worker()
        return searched

    drive = scheduler.iterations

    def iterations(*args):
        latest.clear()
        inner = drive(*args)
        step = next(inner)
        while True:
            if isinstance(step, dict):  # the iteration's event: it has ended
                log.append(list(latest) or [0] * workers)
            sent = yield step
            try:
                step = inner.send(sent)
            except StopIteration as stop:
                return stop.value

    Scheduler.round = round_
    scheduler.iterations = iterations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--korf", type=int, nargs="+", default=[60])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--dask", action="store_true", help="also on a local Dask cluster of --workers workers "
                        "(started once), the same scheduler: time and nodes against the forked processes'")
    args = parser.parse_args()
    api.solve({"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "heuristic": "pdb"})  # load the tables
    pool_log: list[list[int]] = []
    record_iterations(pool_log, args.workers)
    with contextlib.ExitStack() as stack:
        address = stack.enter_context(local_cluster(args.workers)).scheduler_address if args.dask else None
        for number in args.korf:
            measure(number, args, address, pool_log)


def measure(number: int, args, address: str | None, pool_log: list) -> None:
    """Time one Korf position serially, on forked processes (and on Dask), and project its load balance."""
    board, length = korf(number)
    request = {"board": board, "goal": GOAL, "heuristic": "pdb"}
    times: dict = {1: [], args.workers: [], **({"dask": []} if address else {})}
    for _ in range(args.runs):
        for workers in times:
            pool_log.clear()
            seconds, answer = timed(dict(request, workers=workers) if workers != "dask"
                                    else dict(request, scheduler=address))
            assert answer["ok"] and answer["length"] == length, answer
            times[workers].append(seconds)
            if workers == 1:
                serial = answer
            elif workers == "dask":
                on_dask = answer
            else:
                parallel, parallel_log = answer, list(pool_log)
    t1, tn = statistics.median(times[1]), statistics.median(times[args.workers])
    print(f"Korf #{number} ({length} moves): workers 1 {t1:.2f} s, workers {args.workers} {tn:.2f} s, "
          f"ratio {tn / t1:.2f} (median of {args.runs})")
    if address:
        td = statistics.median(times["dask"])
        d, f = on_dask["stats"]["expanded"], parallel["stats"]["expanded"]
        print(f"  on Dask ({args.workers} local workers): {td:.2f} s, {td / tn:.2f} of the forked processes' time; "
              f"expanded {d:,} against {f:,} ({d / f:.3f})")
    s_it, p_it = serial["stats"]["iterations"], parallel["stats"]["iterations"]
    print(f"  expanded: serial {serial['stats']['expanded']:,}, parallel {parallel['stats']['expanded']:,}; "
          f"last complete iteration (bound {s_it[-2]['bound']}): {s_it[-2]['expanded']:,} / "
          f"{p_it[-2]['expanded']:,}")
    per_worker = [w["expanded"] for w in parallel["parallel"]["workers"]]
    print(f"  per worker: {' / '.join(f'{n:,}' for n in per_worker)} "
          f"(balance {sum(per_worker) / (len(per_worker) * max(per_worker)):.2f}); "
          f"{parallel['parallel']['subtrees']} subtrees; "
          f"{parallel['parallel'].get('worker_memory_bytes', 0) / 2**20:.0f} MB in the workers")
    assert len(parallel_log) == len(p_it), (parallel_log, p_it)
    previous = [0] * args.workers
    measured = []  # the real run's nodes per worker in each complete iteration
    for cumulative in parallel_log[:-1]:
        measured.append([now - before for now, before in zip(cumulative, previous, strict=True)])
        previous = cumulative
    print("  projection over the complete iterations (the last one left out: it stops at the first solution, "
          "and which worker finds it first is timing's doing, not the nodes'):")
    for workers in sorted({2, 8, 16, args.workers}):
        bounds, iterations = iteration_sizes(board, length, workers)
        loads = schedule(iterations, workers)
        if not sum(map(sum, loads)):  # solved in its first iteration with nodes: nothing to project
            print(f"  {workers:2d} workers: no complete iteration searched a node")
            continue
        speedup, even = balance(loads)
        last = iterations[-1]
        print(f"  {workers:2d} workers: bounds {', '.join(map(str, bounds))}; {len(last)} subtrees in the last "
              f"complete iteration, the largest "
              f"{max(last.values()) / sum(last.values()):.1%} of it; {sum(map(sum, loads)):,} nodes, busiest "
              f"loads {sum(map(max, loads)):,}: speed-up {speedup:.2f}, balance {even:.3f}")
        if workers == args.workers:
            assert bounds == [it["bound"] for it in p_it[:-1]], (bounds, p_it)
            real_speedup, real_even = balance(measured)
            busiest = ", ".join(f"{max(s):,}/{max(r):,}" for s, r in zip(loads, measured, strict=True))
            print(f"      the real {workers}-worker run, same iterations: {sum(map(sum, measured)):,} nodes, "
                  f"speed-up {real_speedup:.2f}, balance {real_even:.3f} (simulated {even:.3f}); busiest "
                  f"worker per iteration, simulated/real: {busiest}")


if __name__ == "__main__":
    main()
