"""Parallel IDA*'s last iteration, simulated in nodes: how the order the subtrees are handed out in decides the time
to the first solution (docs/benchmarks.md, "Why the last iteration").

    SLIDELAB_PDB_DIR=.cache/pdb python3 bench/bench_last_iteration.py [--korf 82 60 88] [--workers 2] [--per-worker 16]

For each position: the start split as `--workers` workers split it (`--per-worker` subtrees each); every complete
iteration replayed subtree by subtree (bench_parallel.iteration_sizes); in the last iteration (the bound is the
solution's length) each subtree that fits is searched alone, to its first solution or to its end. Then, with nodes
as time and each subtree going to the worker that is free first, three orders are compared: largest first by the
previous iteration's sizes, frontier order (the split's breadth-first order) and the order the serial search meets
the subtrees (idastar.search_order: what the driver does; the pattern-database kernel ranks children near the root).
Printed per order: the complete iterations' busiest loads (their balance), the last iteration's time to the first
solution, and the whole search's time over the serial one's (the serial last iteration is the serial search's
order on one worker).
"""

from __future__ import annotations

import argparse
import heapq
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_parallel import GOAL, iteration_sizes, korf  # noqa: E402
from slidelab.core.control import run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.search.idastar import search_order  # noqa: E402
from slidelab.search.parallel_idastar import SUBTREES_PER_WORKER, search_subtrees, split  # noqa: E402


def last_iteration(board: str, length: int, workers: int, per_worker: int):
    """Per subtree that fits the last bound: (nodes to its first solution or to its end, whether it has one); and
    those subtrees in the serial search's order."""
    puzzle = SlidingPuzzle.from_text(board, GOAL)
    heuristic = get_heuristic("pdb", puzzle)
    _, frontier, _, _ = split(puzzle, workers * per_worker)
    found = {}
    for index, (g, state, _, _) in enumerate(frontier):
        if g + heuristic(state) <= length:
            searched = run(search_subtrees(puzzle, heuristic, frontier, [index], length, False))
            found[index] = (searched.expanded, bool(searched.solutions))
    return found, search_order(puzzle, heuristic, frontier)(sorted(found), length)


def hand_out(order: list[int], nodes, workers: int, solution=None) -> tuple[int, int]:
    """(the busiest worker's load, the time of the first solution or None) when the subtrees of `order` go, in turn,
    to the worker free first; nodes(i) is a subtree's size, solution(i) its nodes to a solution (0: none)."""
    free = [(0, slot) for slot in range(workers)]
    loads = [0] * workers
    first = None
    for index in order:
        done, slot = heapq.heappop(free)
        loads[slot] = done + nodes(index)
        if solution and solution(index):
            first = min(first or done + solution(index), done + solution(index))
        heapq.heappush(free, (loads[slot], slot))
    return max(loads), first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--korf", type=int, nargs="+", default=[82, 60, 88])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--per-worker", type=int, default=SUBTREES_PER_WORKER, help="subtrees per worker")
    args = parser.parse_args()
    ratios: dict[str, list[float]] = {"largest first": [], "frontier order": [], "serial order": []}
    for number in args.korf:
        board, length = korf(number)
        _, iterations = iteration_sizes(board, length, args.workers, args.per_worker)
        last, serial_order = last_iteration(board, length, args.workers, args.per_worker)
        complete = sum(sum(sizes.values()) for sizes in iterations)
        size = {index: nodes for index, (nodes, _) in last.items()}
        to_solution = {index: nodes if has else 0 for index, (nodes, has) in last.items()}
        _, serial_last = hand_out(serial_order, size.__getitem__, 1, to_solution.__getitem__)
        print(f"Korf #{number} ({length} moves): complete iterations {complete:,} nodes, the serial last iteration "
              f"{serial_last:,} to its solution; {len(last)} subtrees in the last, "
              f"{sum(has for _, has in last.values())} with a solution")
        for name, key in (("largest first", lambda i, size_of: -size_of.get(i, 0)),
                          ("frontier order", lambda i, size_of: i),
                          ("serial order", None)):
            size_of: dict[int, int] = {}
            busiest = 0
            for sizes in iterations:  # (each in the serial search's order)
                order = list(sizes) if key is None else sorted(sizes, key=lambda i: key(i, size_of))
                load, _ = hand_out(order, sizes.__getitem__, args.workers)
                busiest += load
                size_of.update(sizes)
            order = serial_order if key is None else sorted(last, key=lambda i: key(i, size_of))
            _, first = hand_out(order, size.__getitem__, args.workers, to_solution.__getitem__)
            ratio = (busiest + first) / (complete + serial_last)
            ratios[name].append(ratio)
            print(f"  {name}: complete iterations' balance {complete / args.workers / busiest:.3f}; last iteration "
                  f"{first:,} to the first solution ({first / serial_last:.2f} of serial); time ratio {ratio:.2f}")
    for name, values in ratios.items():
        print(f"{name}: time ratio mean {sum(values) / len(values):.2f}, worst {max(values):.2f} "
              f"({args.workers} workers, {len(values)} positions)")


if __name__ == "__main__":
    main()
