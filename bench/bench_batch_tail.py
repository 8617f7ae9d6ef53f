"""A batch whose last hard position used to run on one core: `slidelab batch --workers N` against one worker.

    SLIDELAB_PDB_DIR=.cache/pdb .venv/bin/python bench/bench_batch_tail.py [--runs 3] [--workers 2] [--korf 1 2 ...]

Ten Korf positions by default (nine that take a tenth of a second to a second, and #82, about seven seconds), in the
order given and in the reverse order (the hard one first, then last), each run as a whole process with 1 worker and
with N, alternately; prints the median of --runs for each, their ratio, and the positions expanded. Every run must
solve every position optimally.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from bench_parallel import GOAL, korf  # noqa: E402

MIX = [1, 2, 4, 5, 6, 7, 8, 9, 11, 82]


def timed(path: Path, workers: int) -> tuple[float, dict]:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "slidelab", "batch", str(path), "--goal", GOAL, "--workers",
                           str(workers), "--json"], capture_output=True, text=True, check=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT / "pysrc")))
    seconds = time.perf_counter() - started
    summary = json.loads(done.stdout.splitlines()[-1])["summary"]
    return seconds, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--korf", type=int, nargs="+", default=MIX)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, numbers in (("hard last", args.korf), ("hard first", args.korf[::-1])):
            path = Path(folder) / "batch.txt"
            path.write_text("".join(f"k{n}: {korf(n)[0]}\n" for n in numbers))
            times: dict[int, list[float]] = {1: [], args.workers: []}
            expanded = {}
            for _ in range(args.runs):
                for workers in times:
                    seconds, summary = timed(path, workers)
                    assert summary["optimal"] == summary["positions"] == len(numbers), summary
                    times[workers].append(seconds)
                    expanded[workers] = summary["expanded"]
            t1, tn = statistics.median(times[1]), statistics.median(times[args.workers])
            print(f"{name} (Korf {' '.join(map(str, numbers))}): workers 1 {t1:.2f} s, workers {args.workers} "
                  f"{tn:.2f} s, ratio {tn / t1:.2f} (median of {args.runs}); expanded {expanded[1]:,} / "
                  f"{expanded[args.workers]:,}")


if __name__ == "__main__":
    main()
