"""What building one pattern-database table costs, and what its file weighs.

    .venv/bin/python bench/bench_pdb_build.py --shape 4x4 --cells 1,2,3,4,5,6,7 [--engine numpy|dask|direct]
        [--workers 2] [--partitions P]

Builds the table for the group whose goal cells (in the canonical frame, blank at cell 0) are --cells: ranked
(placement_index.py, the 7-8 tables' index) with numpy on one core, or on a local Dask cluster of --workers processes,
or indexed directly (n**k entries, today's 6-tile tables) with numpy. Prints the wall and CPU time, the peak memory of
this process and of its Dask workers, the table's size and largest entry, how the entries exceed the group's
Manhattan distance (the excess is always even; a ranked file keeps half of it in 4 bits), and for a ranked table the
file's size, how long packing it took and the start of its SHA-256 (two engines' files equal: their tables equal).
Nothing is written to the cache.
"""

from __future__ import annotations

import argparse
import hashlib
import resource
import time

import numpy as np

from slidelab.core.puzzles.sliding import parse_shape
from slidelab.heuristics.pdb import files
from slidelab.heuristics.pdb.frames import group_manhattan
from slidelab.space import pdb_builder_numpy as builder_numpy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="4x4")
    parser.add_argument("--cells", default="1,2,3,4,5,6,7", help="the group's goal cells, comma-separated")
    parser.add_argument("--engine", choices=("numpy", "dask", "direct"), default="numpy")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers (--engine dask)")
    parser.add_argument("--partitions", type=int, help="Dask partitions (default: two per worker)")
    args = parser.parse_args()
    rows, cols = parse_shape(args.shape)
    cells = tuple(int(c) for c in args.cells.split(","))
    wall, cpu = time.perf_counter(), time.process_time()
    if args.engine == "direct":
        table = np.frombuffer(builder_numpy.build_table_numpy(rows, cols, cells), dtype=np.uint8)
    elif args.engine == "numpy":
        table = builder_numpy.build_ranked_numpy(rows, cols, cells)
    else:
        table = builder_numpy.build_ranked_dask(rows, cols, cells, workers=args.workers, partitions=args.partitions)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kilobytes on Linux
    workers_gb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1e6  # the largest worker, once ended
    print(f"{args.shape} group {args.cells}: {len(cells)} tiles, {table.size:,} entries (one byte each), "
          f"{args.engine}" + (f" on {args.workers} workers" if args.engine == "dask" else ""))
    print(f"build {wall:.1f} s wall, {cpu:.1f} s cpu here, peak memory {peak_gb:.2f} GB here"
          + (f", {workers_gb:.2f} GB in the largest worker" if args.engine == "dask" else ""))
    if args.engine == "direct":
        excess = table.astype(np.int16) - np.frombuffer(group_manhattan(rows, cols, cells), dtype=np.uint8)
    else:
        excess = table.astype(np.int16) - np.frombuffer(files._ranked_manhattan(rows, cols, cells), dtype=np.uint8)
        packed = time.perf_counter()
        data, _ = files.encode_ranked(rows, cols, cells, table)
        print(f"file {len(data):,} bytes ({len(data) / table.size:.3f} a placement), packed in "
              f"{time.perf_counter() - packed:.1f} s, sha256 {hashlib.sha256(data).hexdigest()[:16]}")
    halved = np.bincount((excess // 2).astype(np.int64))
    print(f"largest entry {int(table.max())}; excess over Manhattan: odd entries {int(np.count_nonzero(excess % 2))}, "
          f"largest half-excess {len(halved) - 1} ({max(1, int(len(halved) - 1).bit_length())} bits)")
    print("entries by half-excess:", ", ".join(f"{i}: {int(n):,}" for i, n in enumerate(halved)))


if __name__ == "__main__":
    main()
