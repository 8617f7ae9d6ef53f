"""The complete check of your heuristic on a 12-cell board (numpy, the `scale` extra), phase by phase
(docs/benchmarks.md, "Your heuristic").

    .venv/bin/python bench/bench_check_12.py [--shape 3x4] [--example manhattan] [--workers 2]

Prints the time of each phase: the breadth-first search that gives every distance, h evaluated on every position
(split over the workers), and the tally of positions and moves in numpy; the rate of h evaluations; how much of the
CPU time the workers kept busy; and the time the same run would take on more cores, the two numpy phases being
serial.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab import api  # noqa: E402
from slidelab.heuristics.examples import source  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shape", default="3x4")
    parser.add_argument("--example", default="manhattan", help="a heuristic of heuristics/examples/")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    marks = {}
    started = time.perf_counter()

    def on_progress(event):
        phase = event.get("phase", "search")
        marks.setdefault(phase, time.perf_counter() - started)

    answer = api.check_heuristic({"shape": args.shape, "heuristic_code": source(args.example), "engine": "numpy",
                                  "workers": args.workers}, on_progress)
    total = time.perf_counter() - started
    if not answer["ok"]:
        sys.exit(f"bench_check_12: {answer['error']['message']}")
    search_end = marks.get("h", total)
    h_end = marks.get("moves", total)
    h_s = h_end - search_end
    serial = total - h_s
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    busy = (usage.ru_utime + usage.ru_stime) / max(h_s * args.workers, 1e-9) if args.workers > 1 else None
    print(f"{args.example} on every position of a {args.shape} ({answer['positions']:,}), {args.workers} workers: "
          f"{total:.1f} s in all; search {search_end:.1f} s, h {h_s:.1f} s "
          f"({answer['positions'] / max(h_s, 1e-9) / 1e3:.0f} k positions/s), tally {total - h_end:.1f} s; "
          f"admissible {answer['admissible']}, consistent {answer['consistent']}; "
          f"{answer['memory_bytes'] / 1e6:.0f} MB of arrays")
    if busy is not None:
        print(f"workers busy {100 * busy:.0f}% of the h phase")
    for cores in (8, 16):
        print(f"on {cores} cores, with the same per-core rate: about {serial + h_s * args.workers / cores:.0f} s")
    if os.environ.get("BENCH_VERBOSE"):
        print(answer["stats"])


if __name__ == "__main__":
    main()
