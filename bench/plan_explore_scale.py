"""The plan of a Dask explore of a bigger board (the 15-puzzle by default), from measured figures.

    .venv/bin/python bench/plan_explore_scale.py [SHAPE] [--workers 64,512] [--samples 20000]
        [--rate R] [--efficiency E] [--slowdown S] [--max-depth D] [--width W]
    .venv/bin/python bench/plan_explore_scale.py --balance SHAPE

Sampled: the share of children that leave their partition when the ranks are cut into P equal ranges (P =
PARTITIONS_PER_THREAD per worker, as dask_explore does), over uniformly random positions: every position is expanded
once, so this is the share over the whole search (`3x4 --workers 2` checks it against bench_dask_explore.py).
Computed from it and from the figures given: for each worker count, the record per worker (8-, 4- and 2-bit), the
disk traffic of a record on disk, the bytes sent between partitions per level (at the widest level) and in total,
and the time. R is the positions per second of one worker (measured on 3x4), E the parallel efficiency (measured),
S the assumed slowdown of a 16-cell index (int64 arithmetic, more moves), D the max depth and W the widest level's
share of the positions (Korf and Schultze: under 1/13 on 4x4).

--balance explores SHAPE (up to 12 cells) in this process, then tells from its depth record how even the work of
each level would be on 2, 4 and 8 workers for several numbers of partitions: per level, the children made by the
busiest worker over the mean, summed over the levels (to the nearest 64th of the ranks; bench_dask_explore.py
measures the same on a cluster).
"""

from __future__ import annotations

import argparse
import math
import pathlib
import random
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, neighbours, parse_shape, random_position  # noqa: E402
from slidelab.space import dask_explore  # noqa: E402
from slidelab.space.dask_explore import PARTITIONS_PER_THREAD  # noqa: E402
from slidelab.space.indexed_explore import _rank  # noqa: E402

GB, TB = 1e9, 1e12


def partition(state, length):
    """The partition of `state` when the ranks (the Lehmer rank of the tile order, halved) are cut into ranges of
    `length`."""
    return _rank([t - 1 for t in state if t]) // 2 // length


def leaving_share(rows, cols, partitions, samples, rng):
    """The share of the children of uniformly random positions that are in another partition than their parent."""
    puzzle = SlidingPuzzle(rows, cols, default_goal(rows, cols))
    length = -(-math.factorial(rows * cols - 1) // 2 // partitions)
    children = leaving = 0
    for _ in range(samples):
        state = random_position(rows, cols, puzzle.goal, rng)
        own = partition(state, length)
        for _, child in puzzle.moves(state):
            children += 1
            leaving += partition(child, length) != own
    return leaving / children


def balance(rows, cols, chunks=64):
    """Explore the board as one partition, then print the load balance of partition layouts (see the docstring)."""
    import numpy as np

    board = (rows, cols, default_goal(rows, cols))
    spec = ("positions", *board)
    index = dask_explore._index(spec)
    record = dask_explore._new_record(index.total, [index.of(board[2])])
    summary, levels = None, 0
    while True:
        summary, _ = dask_explore._step(record, summary, spec, 0, index.half, levels)
        if not summary[0]:
            break
        levels += 1
    length = -(-index.half // chunks)
    work = np.zeros((chunks, levels), np.int64)  # children made, per range of ranks and level
    for b in range(index.size):
        ids = np.arange(index.half) // length * 256 + record[b * index.half:(b + 1) * index.half]
        work += len(index.moves[b]) * np.bincount(ids, minlength=chunks * 256).reshape(chunks, 256)[:, :levels]
    for workers in (2, 4, 8):
        figures = []
        for partitions in (workers, 2 * workers, 4 * workers, 8 * workers):
            per_worker = np.zeros((workers, levels), np.int64)
            for chunk in range(chunks):  # partition p of a layout holds chunks p * chunks // partitions ...
                per_worker[chunk * partitions // chunks % workers] += work[chunk]
            figures.append(f"{partitions} partitions {per_worker.max(0).sum() * workers / per_worker.sum():.3f}")
        print(f"{rows}x{cols} on {workers} workers, partitions dealt out in turn: " + ", ".join(figures))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", nargs="?", default="4x4")
    parser.add_argument("--workers", default="64,512", help="worker counts, comma-separated (one core each)")
    parser.add_argument("--samples", type=int, default=20000, help="random positions sampled")
    parser.add_argument("--rate", type=float, default=12.98e6, help="positions/s of one worker, measured on 3x4")
    parser.add_argument("--efficiency", type=float, default=0.615, help="parallel efficiency, measured on 3x4")
    parser.add_argument("--slowdown", type=float, default=2.0, help="assumed: a 16-cell index is this much slower")
    parser.add_argument("--max-depth", type=int, default=80, help="the largest depth (80 on 4x4)")
    parser.add_argument("--width", type=float, default=1 / 13, help="the widest level's share of the positions")
    parser.add_argument("--balance", metavar="SHAPE", help="measure the load balance of layouts on this board")
    args = parser.parse_args()
    if args.balance:
        balance(*parse_shape(args.balance))
        return
    rows, cols = parse_shape(args.shape)
    positions = math.factorial(rows * cols) // 2
    moves = sum(len(neighbours(rows, cols)[b]) for b in range(rows * cols)) / (rows * cols)
    children, widest = positions * moves, positions * args.width
    rng = random.Random(rows * cols)
    print(f"{rows}x{cols}: {positions:,} positions, {moves:.3f} moves each ({children:.3e} children), "
          f"{args.max_depth + 1} levels, widest level <= {widest:.3e} positions (assumed share {args.width:.3f})")
    print(f"per worker: {args.rate:,.0f} positions/s measured on 3x4, / {args.slowdown} assumed for 16 cells, "
          f"x {args.efficiency} parallel efficiency\n")
    for workers in map(int, args.workers.split(",")):
        partitions = PARTITIONS_PER_THREAD * workers
        share = leaving_share(rows, cols, partitions, args.samples, rng)
        sent = children * share * 4  # int32 offsets (ranges of at most 2^31 positions per cell block)
        rate = args.rate / args.slowdown * args.efficiency * workers
        print(f"{workers} workers, {partitions} partitions: {share:.2%} of the children leave their partition "
              f"({args.samples:,} random positions)")
        for bits in (8, 4, 2):
            record = positions * bits / 8
            print(f"  {bits}-bit record: {record / TB:6.2f} TB in all, {record / workers / GB:8.1f} GB per worker; "
                  f"on disk, one read and one write of it per level: {2 * record * (args.max_depth + 1) / TB:,.0f} "
                  f"TB of disk traffic, {2 * record / workers / GB:.1f} GB per worker and level")
        level = widest * moves * share * 4
        print(f"  network: {sent / TB:.2f} TB in all (4 bytes a child sent), about {level / GB:,.0f} GB at the widest "
              f"level ({level / workers / GB:.2f} GB per worker)")
        print(f"  computing: {positions / rate / 3600:.1f} h at {rate:,.0f} positions/s\n")


if __name__ == "__main__":
    main()
