"""What building one pattern-database table costs with the numpy builder, and whether its entries fit in 4 bits.

    SLIDELAB_PDB_DIR=.cache/pdb .venv/bin/python bench/bench_pdb_build.py --shape 4x4 --cells 1,2,3,4,5,6,7

Builds the table for the group whose goal cells (in the canonical frame, blank at cell 0) are --cells, and prints
the wall and CPU time, the process's peak memory, the table's size and largest entry, and how the entries exceed
the group's Manhattan distance: the excess is always even, so (excess / 2) is what a packed table would store, and
the script says how many bits that needs. Nothing is written to the cache.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

from slidelab.heuristics.pdb.builder_numpy import build_table_numpy
from slidelab.heuristics.pdb.frames import group_manhattan
from slidelab.puzzles.sliding import parse_shape


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="4x4")
    parser.add_argument("--cells", default="1,2,3,4,5,6,7", help="the group's goal cells, comma-separated")
    args = parser.parse_args()
    rows, cols = parse_shape(args.shape)
    cells = tuple(int(c) for c in args.cells.split(","))
    wall, cpu = time.perf_counter(), time.process_time()
    table = np.frombuffer(build_table_numpy(rows, cols, cells), dtype=np.uint8)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6  # kilobytes on Linux
    excess = table.astype(np.int16) - np.frombuffer(group_manhattan(rows, cols, cells), dtype=np.uint8)
    halved = np.bincount((excess // 2).astype(np.int64))
    print(f"{args.shape} group {args.cells}: {len(cells)} tiles, {table.size:,} entries (one byte each)")
    print(f"build {wall:.1f} s wall, {cpu:.1f} s cpu, peak memory {peak_gb:.2f} GB")
    print(f"largest entry {int(table.max())}; excess over Manhattan: odd entries {int(np.count_nonzero(excess % 2))}, "
          f"largest half-excess {len(halved) - 1} ({max(1, int(len(halved) - 1).bit_length())} bits)")
    print("entries by half-excess:", ", ".join(f"{i}: {int(n):,}" for i, n in enumerate(halved)))


if __name__ == "__main__":
    main()
