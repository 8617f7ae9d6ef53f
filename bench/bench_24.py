"""The 24-puzzle solved optimally with Korf and Felner's 6-6-6-6 tables and their reflection (`--heuristic pdb6666`),
one search split over workers, against the published runs (docs/benchmarks.md, "The 24-puzzle").

    PYTHONPATH=pysrc SLIDELAB_PDB_DIR=.cache/pdb python3 bench/bench_24.py --ids 40,38 [--engine dask|processes]
        [--workers 2] [--scheduler ADDRESS]
    ... bench/bench_24.py --ids 40 --scaling 1,2 --seconds 120

The positions are Korf and Felner's 50 (tests/data/korf24-batch.txt: the optimal length and the nodes their IDA*
generated, on each line's comment). One line per position: its length against the published one, the nodes generated
against the published run's, the wall time and the rate. Exits 1 if a length differs. --file, --goal and --heuristic
run other positions (tests/data/korf100-batch.txt, say, with its goal and `pdb`).

With --scaling W1,W2,...: the rate (nodes generated a second) of one position's search on each number of workers in
turn, measured over its iterations after the first --warm seconds until --seconds have passed (the search is then
stopped), and each rate's ratio to the first's.
"""

from __future__ import annotations

import argparse
import pathlib
import re
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))

from slidelab import api  # noqa: E402

POSITIONS = ROOT / "tests" / "data" / "korf24-batch.txt"
GOAL = "0 1 2 3 4/5 6 7 8 9/10 11 12 13 14/15 16 17 18 19/20 21 22 23 24"
LINE = re.compile(r"[a-z]+(\d+):\s*([\d /]+?)\s*#\s*(\d+) moves(?:, ([\d,]+) nodes)?")


def read_positions(path=POSITIONS) -> dict:
    """{id: (board, optimal length, published nodes generated or None)} of a batch file whose lines are `kf40: BOARD
    # 82 moves, 65,099,578 nodes` (or `k79: BOARD  # 42 moves`, tests/data/korf100-batch.txt)."""
    positions = {}
    for text in pathlib.Path(path).read_text().splitlines():
        match = LINE.match(text)
        if match:
            ident, board, length, nodes = match.groups()
            positions[int(ident)] = (board, int(length), int(nodes.replace(",", "")) if nodes else None)
    return positions


def add_position_options(parser) -> None:
    """The options that say which positions and how to solve them (this bench's and bench_resume.py's)."""
    parser.add_argument("--file", default=str(POSITIONS), help="a batch file of positions (default: Korf and "
                        "Felner's 50)")
    parser.add_argument("--goal", default=GOAL)
    parser.add_argument("--heuristic", default="pdb6666")
    parser.add_argument("--workers", type=int, default=2)


def request(board, args, workers) -> dict:
    asked = {"board": board, "goal": args.goal, "heuristic": args.heuristic, "engine": args.engine,
             "workers": workers}
    if args.scheduler:
        asked["scheduler"] = args.scheduler
    return asked


def solve(ident, positions, args) -> bool:
    board, length, published = positions[ident]
    started = time.perf_counter()
    answer = api.solve(request(board, args, args.workers))
    wall = time.perf_counter() - started
    if not answer["ok"]:
        print(f"#{ident}: {answer['error']['message']}")
        return False
    stats = answer["stats"]
    workers = " / ".join(f"{w['expanded']:,}" for w in answer["parallel"]["workers"])
    against = f" ({stats['generated'] / published:.2f} of the published {published:,})" if published else ""
    print(f"#{ident}: {answer['length']} moves (published {length}), generated {stats['generated']:,}{against}, "
          f"expanded {stats['expanded']:,}, "
          f"{wall:.1f} s wall, {stats['generated'] / wall / 1e6:.2f} M generated/s; per worker {workers}; "
          f"last iterations {[i['expanded'] for i in stats['iterations'][-3:]]}", flush=True)
    return answer["length"] == length


def rate(ident, positions, args, workers) -> float:
    """Nodes generated a second between --warm and --seconds of the search on `workers` workers."""
    board = positions[ident][0]
    steps = api.solve_steps(request(board, args, workers))
    first = last = None
    try:
        while True:
            event = next(steps)
            if event.get("type") != "progress":
                continue
            if event["elapsed_s"] >= args.warm and first is None:
                first = event
            last = event
            if event["elapsed_s"] >= args.seconds:
                break
    except StopIteration:
        pass
    finally:
        steps.close()
    if first is None or last is first:
        raise SystemExit(f"#{ident} ended before --warm {args.warm} s: choose a longer position")
    per_s = (last["generated"] - first["generated"]) / (last["elapsed_s"] - first["elapsed_s"])
    print(f"#{ident} on {workers} workers: {per_s / 1e6:.3f} M generated/s over "
          f"{last['elapsed_s'] - first['elapsed_s']:.0f} s (bound {last['bound']})", flush=True)
    return per_s


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ids", default="40,38", help="Korf and Felner's numbers, comma-separated")
    parser.add_argument("--engine", default="dask", choices=("dask", "processes"))
    add_position_options(parser)
    parser.add_argument("--scheduler", help="a Dask cluster's address (default: a local one of --workers)")
    parser.add_argument("--scaling", help="worker counts to compare the rate on, e.g. 1,2")
    parser.add_argument("--warm", type=float, default=20, help="seconds left out at the start of a scaling run")
    parser.add_argument("--seconds", type=float, default=120, help="how long a scaling run lasts")
    args = parser.parse_args()
    positions = read_positions(args.file)
    ids = [int(i) for i in args.ids.split(",")]
    if args.scaling:
        counts = [int(w) for w in args.scaling.split(",")]
        rates = [rate(ids[0], positions, args, w) for w in counts]
        print("scaling: " + ", ".join(f"{w} workers {r / rates[0]:.2f}" for w, r in zip(counts, rates, strict=True)))
        return 0
    return 0 if all([solve(i, positions, args) for i in ids]) else 1


if __name__ == "__main__":
    sys.exit(main())
