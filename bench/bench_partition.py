"""Korf's 100 with a partition of your choice into ranked tables, against the standard tables: for choosing a set.

    SLIDELAB_PDB_DIR=DIR .venv/bin/python bench/bench_partition.py --groups 1-2-3-4-5-6-7,8-9-10-11-12-13-14,15
        [--first N]

The groups are goal cells of the 15-puzzle in the canonical frame (blank's goal on cell 0); they must cover cells
1-15 once. Their ranked tables (the 7-8 tables' kind, built with numpy into the cache folder DIR when missing, as
`slidelab pdb 4x4-78` would) are looked up on each position and its mirror image, like pdb78's. Every position is
solved with `pdb` and with these groups, alternately; prints the build time, the files' sizes, each set's totals of
positions generated and CPU, and their ratios. Exits 1 if a length differs from the file's.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_korf import GOAL, KORF_FILE, read_positions  # noqa: E402
from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.heuristics import get_heuristic, pdb  # noqa: E402
from slidelab.heuristics.pdb import frames  # noqa: E402
from slidelab.heuristics.pdb.heuristic import pattern_database  # noqa: E402
from slidelab.search.idastar import idastar  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", required=True,
                        help="groups of goal cells, e.g. 1-2-3-4-5-6-7,8-9-10-11-12-13-14,15")
    parser.add_argument("--first", type=int, help="run only the first N positions")
    args = parser.parse_args()
    groups = tuple(tuple(int(c) for c in group.split("-")) for group in args.groups.split(","))
    if sorted(c for group in groups for c in group) != list(range(1, 16)):
        parser.error("the groups must cover the cells 1 to 15 once each")
    frames.LARGE_PARTITIONS["pdb78"][4, 4] = (groups,)  # the set now stands for these groups, in this process only
    started = time.perf_counter()
    plan = pdb.plan(SlidingPuzzle(4, 4, GOAL, GOAL), "pdb78")
    for name, rows, cols, cells in plan:
        pdb.ensure_table(name, rows, cols, cells)
    sizes = {name: os.path.getsize(os.path.join(pdb.cache_dir(), name)) for name, *_ in plan}
    print(f"tables ready in {time.perf_counter() - started:.1f} s: "
          + ", ".join(f"{name} {size / 1e6:.1f} MB" for name, size in sizes.items())
          + f"; {sum(sizes.values()) / 1e6:.1f} MB of files")
    totals = {"pdb": [0, 0.0], "groups": [0, 0.0]}
    wrong = 0
    positions = read_positions(KORF_FILE)[:args.first]
    for _, length, tiles in positions:
        puzzle = SlidingPuzzle(4, 4, tiles, GOAL)
        for key, h in (("pdb", get_heuristic("pdb", puzzle)), ("groups", pattern_database(puzzle, table_set="pdb78"))):
            cpu = time.process_time()
            result = run(idastar(puzzle, h, Limits()))
            totals[key][1] += time.process_time() - cpu
            totals[key][0] += result.stats.generated
            wrong += len(result.moves) != length or puzzle.replay(result.moves) != GOAL
    for key, (generated, cpu) in totals.items():
        print(f"{key}: {generated:,} generated ({generated / len(positions):,.0f} per position), {cpu:.1f} s cpu")
    print(f"groups against pdb: generated {totals['groups'][0] / totals['pdb'][0]:.3f}, "
          f"cpu {totals['groups'][1] / max(totals['pdb'][1], 1e-9):.3f}; "
          f"{2 * len(positions) - wrong} of {2 * len(positions)} solves with the optimal length")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
