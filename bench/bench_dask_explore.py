"""Benchmark of the Dask explore on local clusters of 1 and 2 workers, side by side: the figures of the 15-puzzle plan.

    .venv/bin/python bench/bench_dask_explore.py [SHAPE] [--workers 1,2] [--partitions N] [--baseline]

SHAPE is rows x cols (default 3x4). For each worker count a local cluster of that many processes (one thread each) is
started and the whole space explored on it. Printed: wall time and speed-up, positions per second per worker, CPU
seconds of every worker and of this process (the client and the scheduler), the peak resident memory of every worker
(VmHWM) and what it is per position the worker owns, the children sent between partitions and between workers
(counted by the search, and the bytes Dask says its workers sent each other), the load balance (per level, the
children made by the busiest worker over the mean, summed over the levels), and the bytes sent at every level.
--baseline also runs the single-machine indexed explore in this process first.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "pysrc"))

from distributed import Client  # noqa: E402

from slidelab.core.cluster import local_cluster  # noqa: E402
from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, parse_shape  # noqa: E402
from slidelab.space.dask_explore import dask_explore  # noqa: E402
from slidelab.space.indexed_explore import indexed_explore  # noqa: E402

MB = 1 << 20


def _figures(dask_worker):
    """CPU seconds, peak resident bytes (VmHWM: ru_maxrss would count the parent's before the exec) and bytes sent
    to other workers, of one worker process."""
    peak = next(line for line in pathlib.Path("/proc/self/status").read_text().splitlines() if line.startswith("VmHWM"))
    return {"cpu": time.process_time(), "peak": int(peak.split()[1]) * 1024,
            "out": dask_worker.transfer_outgoing_bytes_total}


def measure(puzzle, workers, partitions):
    with local_cluster(workers) as cluster, Client(cluster) as client:
        before = client.run(_figures)
        started, started_cpu = time.perf_counter(), time.process_time()
        result = run(dask_explore(puzzle, Limits(), cluster.scheduler_address, partitions=partitions))
        wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        after = client.run(_figures)
    addresses = sorted(after)
    made = result.extra["generated_per_worker"]
    return {"result": result, "wall": wall, "client_cpu": cpu,
            "cpu": [after[a]["cpu"] - before[a]["cpu"] for a in addresses],
            "idle": [before[a]["peak"] for a in addresses], "peak": [after[a]["peak"] for a in addresses],
            "dask_out": sum(after[a]["out"] - before[a]["out"] for a in addresses),
            "balance": sum(max(level) for level in made) * len(addresses) / sum(map(sum, made))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("shape", nargs="?", default="3x4", help="rows x cols, e.g. 3x4 (default), 2x5, 3x3")
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated (default 1,2)")
    parser.add_argument("--partitions", type=int, help="partitions (default: one per worker)")
    parser.add_argument("--baseline", action="store_true", help="also run the indexed explore in this process")
    args = parser.parse_args()
    rows, cols = parse_shape(args.shape)
    puzzle = SlidingPuzzle(rows, cols, default_goal(rows, cols))
    positions = puzzle.state_count()
    print(f"{rows}x{cols}, {positions:,} positions")
    if args.baseline:
        started, started_cpu = time.perf_counter(), time.process_time()
        result = run(indexed_explore(puzzle, Limits()))
        wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        print(f"indexed explore in this process: {wall:.1f} s wall, {cpu:.1f} s CPU, {positions / wall:,.0f} "
              f"positions/s, {result.stats.generated:,} children, max depth {result.max_depth}")

    runs = {n: measure(puzzle, n, args.partitions) for n in map(int, args.workers.split(","))}
    first = runs[min(runs)]
    rows_out = [
        ("partitions", lambda m: f"{m['result'].extra['partitions']}"),
        ("wall time, s", lambda m: f"{m['wall']:.1f}"),
        ("speed-up", lambda m: f"{first['wall'] / m['wall']:.2f}"),
        ("positions/s", lambda m: f"{positions / m['wall']:,.0f}"),
        ("positions/s per worker", lambda m: f"{positions / m['wall'] / len(m['cpu']):,.0f}"),
        ("children/s per worker", lambda m: f"{m['result'].stats.generated / m['wall'] / len(m['cpu']):,.0f}"),
        ("worker CPU, s", lambda m: " / ".join(f"{c:.1f}" for c in m["cpu"])),
        ("client+scheduler CPU, s", lambda m: f"{m['client_cpu']:.1f}"),
        ("worker peak RSS, MB", lambda m: " / ".join(f"{p / MB:.0f}" for p in m["peak"])),
        ("  of it idle worker, MB", lambda m: " / ".join(f"{p / MB:.0f}" for p in m["idle"])),
        ("positions owned", lambda m: " / ".join(f"{o:,}" for o in m["result"].extra["worker_positions"])),
        ("record+tables, MB", lambda m: " / ".join(f"{b / MB:.0f}" for b in m["result"].extra["worker_memory_bytes"])),
        ("(peak - idle) / position", lambda m: " / ".join(
            f"{(p - i) / o:.2f} B"
            for p, i, o in zip(m["peak"], m["idle"], m["result"].extra["worker_positions"], strict=True))),
        ("children made", lambda m: f"{m['result'].stats.generated:,}"),
        ("bytes sent between partitions", lambda m: f"{m['result'].extra['bytes_sent']:,}"),
        ("bytes sent between workers", lambda m: f"{m['result'].extra['bytes_between_workers']:,}"),
        ("  Dask's count of them", lambda m: f"{m['dask_out']:,}"),
        ("  per child made", lambda m: f"{m['dask_out'] / m['result'].stats.generated:.2f}"),
        ("load balance (1 = even)", lambda m: f"{m['balance']:.3f}"),
    ]
    print(f"\n{'local cluster of':32}" + "".join(f"{f'{n} worker(s)':>22}" for n in runs))
    for label, cell in rows_out:
        print(f"{label:32}" + "".join(f"{cell(m):>22}" for m in runs.values()))
    print("\nbytes sent between partitions at each level (4 bytes a child; by the level that made the children):")
    print(f"{'depth':>6}{'positions':>14}" + "".join(f"{f'{n} worker(s)':>16}" for n in runs))
    for depth, count in enumerate(first["result"].depths):
        print(f"{depth:6d}{count:14,}" + "".join(f"{m['result'].extra['bytes_sent_per_level'][depth]:16,}"
                                                  for m in runs.values()))


if __name__ == "__main__":
    main()
