"""What a split costs the page's solver before its first task (docs/benchmarks.md, "The pool pays with the 7-8 tables").

    SLIDELAB_PDB_DIR=.cache/pdb python3 bench/bench_split_cost.py [--ids 43,5,88] [--tables pdb78] [--runs 5]

Runs, in this CPython, the page's solver as web/js/pool.js drives it ("engine": "page", 2 workers, split once the
next iteration is predicted past 0.05 s, into the page's 16 subtrees a worker): the questions it asks the page are
answered at once, nobody else searching, so every task is the solver's own. Prints, per position (median of --runs
after one untimed run), when the last serial iteration ended, when the first question carrying the round's tasks
left (the gap is the split's own cost: the frontier, its order and bounds), and when the answer came. The tables
are held packed, as the page holds them. The page's interpreter runs this code about 1.7 times slower.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))
sys.path.insert(0, str(ROOT / "bench"))

from bench_korf import GOAL, KORF_FILE, read_positions  # noqa: E402
from slidelab import api  # noqa: E402
from slidelab.heuristics.pdb import files  # noqa: E402
from slidelab.run import scheduler  # noqa: E402


def timeline(board: str, tables: str) -> tuple[float, float, float]:
    """(the last serial iteration's end, the first question with tasks, the answer), in seconds from the start (0.0
    for the first two when the search was never split)."""
    goal = "/".join(" ".join(map(str, GOAL[i:i + 4])) for i in range(0, 16, 4))
    request = {"board": board, "goal": goal, "algorithm": "idastar", "heuristic": "auto", "tables": tables,
               "engine": "page", "workers": 2}
    started = time.perf_counter()
    steps = api.solve_steps(request)
    serial_end = first_ask = None
    waiting: list = []
    reply = None
    while True:
        try:
            event = steps.send(reply)
        except StopIteration as stop:
            assert stop.value["ok"], stop.value
            return serial_end or 0.0, first_ask or 0.0, time.perf_counter() - started
        reply = None
        now = time.perf_counter() - started
        if "ask" not in event:
            if event.get("type") == "iteration" and first_ask is None:
                serial_end = now
            continue
        question = event["ask"]["pool"]
        if first_ask is None and question["start"]:
            first_ask = now
        waiting = sorted(waiting + question["start"], key=lambda task: task["place"])
        taken = waiting.pop(0)["id"] if question["take"] and waiting else None
        reply = {"workers": [1], "take": taken, "events": []}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="43,5,88,3,24", help="Korf's positions (comma-separated ids)")
    parser.add_argument("--tables", default="pdb78", choices=("pdb78", "pdb771"))
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    files.HOLD_PACKED = True
    scheduler.SUBTREES_PER_WORKER = 16  # parallel_idastar's in the page (sys.platform "emscripten")
    wanted = [int(i) for i in args.ids.split(",")]
    positions = {ident: tiles for ident, _, tiles in read_positions(KORF_FILE)}
    print(f"{'id':>4} {'serial ends ms':>15} {'tasks leave ms':>15} {'split ms':>9} {'answer ms':>10}")
    for ident in wanted:
        tiles = positions[ident]
        board = "/".join(" ".join(map(str, tiles[i:i + 4])) for i in range(0, 16, 4))
        timeline(board, args.tables)  # untimed: the kernel builds its tables for the goal
        runs = [timeline(board, args.tables) for _ in range(args.runs)]
        serial, ask, answer = (statistics.median(run[k] for run in runs) * 1000 for k in range(3))
        if not ask:
            print(f"{ident:>4} {'not split: every iteration was short':>41} {answer:>10.1f}", flush=True)
            continue
        print(f"{ident:>4} {serial:>15.1f} {ask:>15.1f} {ask - serial:>9.1f} {answer:>10.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
