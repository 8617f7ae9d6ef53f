"""The cost of your own heuristic against the built-in one of the same definition (docs/benchmarks.md, "Your
heuristic"): Manhattan distance written by hand in Python (heuristics/examples/manhattan.py) against `manhattan`.

    python3 bench/bench_user_heuristic.py [--runs N] [--browser]

Each pair runs in turn, N times (the medians of CPU time are printed, with their ratio yours / built-in):
- A* on the two hardest 8-puzzle positions: the same nodes, h called on every child;
- IDA* on the hardest 8-puzzle: yours runs the generic search (h on every child), the built-in one the per-tile
  kernel that updates h move by move; also the built-in one through the generic search, to tell the heuristic's cost
  from the kernel's;
- the check of the whole 8-puzzle (181,440 positions) with yours and with `manhattan`.
With --browser (after `python3 build.py build`), the same A* and IDA* pairs also run in the page's solver worker in
headless Chromium (the engine's own search time, `elapsed_s`, median of N), beside CPython's.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "pysrc"))
sys.path.insert(0, str(ROOT))

from slidelab.core.control import Limits, run  # noqa: E402
from slidelab.core.puzzles.sliding import SlidingPuzzle  # noqa: E402
from slidelab.heuristics import get_heuristic  # noqa: E402
from slidelab.heuristics.examples import source  # noqa: E402
from slidelab.heuristics.user import user_heuristic  # noqa: E402
from slidelab.search.best_first import best_first  # noqa: E402
from slidelab.search.idastar import generic_idastar, idastar  # noqa: E402
from slidelab.space.check import check_steps  # noqa: E402

POSITIONS = ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"]  # the two 3x3 positions 31 moves from the goal


def cpu_of(make) -> float:
    started = time.process_time()
    run(make())
    return time.process_time() - started


def pair(label: str, mine, theirs, runs: int) -> None:
    """Run the two in turn (A B A B ...) and print the medians and their ratio."""
    a, b = [], []
    for _ in range(runs):
        a.append(cpu_of(mine))
        b.append(cpu_of(theirs))
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"{label:<58} yours {ma * 1000:9.1f} ms cpu   built-in {mb * 1000:9.1f} ms cpu   ratio {ma / mb:5.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each (the median is printed)")
    parser.add_argument("--browser", action="store_true", help="also in the page's worker, in headless Chromium")
    args = parser.parse_args()
    code = source("manhattan")
    for board in POSITIONS:
        puzzle = SlidingPuzzle.from_text(board)
        mine, builtin = user_heuristic(puzzle, code), get_heuristic("manhattan", puzzle)
        pair(f"A* {board}", lambda p=puzzle, h=mine: best_first(p, h, Limits()),
             lambda p=puzzle, h=builtin: best_first(p, h, Limits()), args.runs)
    puzzle = SlidingPuzzle.from_text(POSITIONS[0])
    mine, builtin = user_heuristic(puzzle, code), get_heuristic("manhattan", puzzle)
    pair("IDA* 8 6 7/2 5 4/3 0 1 (built-in: the per-tile kernel)", lambda: idastar(puzzle, mine, Limits()),
         lambda: idastar(puzzle, builtin, Limits()), args.runs)
    pair("IDA* 8 6 7/2 5 4/3 0 1 (built-in: the generic search)", lambda: idastar(puzzle, mine, Limits()),
         lambda: generic_idastar(puzzle, builtin, Limits()), args.runs)
    pair("check-heuristic 3x3 (181,440 positions)", lambda: check_steps(puzzle, mine),
         lambda: check_steps(puzzle, builtin), args.runs)
    if args.browser:
        in_browser(code, args.runs)
    return 0


START = """async base => {
  const { Solver } = await import('./js/bridge.js');
  window.solver = new Solver({ base });
  await solver.start();
  return solver.status;
}"""


def in_browser(code: str, runs: int) -> None:
    """The A* and IDA* pairs in the page's worker: the engine's search time as the answers report it."""
    import build
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
            "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium or None, args=args)
            page = browser.new_context().new_page()
            page.goto(url + "build-info.json")  # any page of the site: the modules load from its origin
            assert page.evaluate(START, url) == "ready"
            for algorithm, board in [("astar", POSITIONS[0]), ("astar", POSITIONS[1]), ("idastar", POSITIONS[0])]:
                base = {"board": board, "algorithm": algorithm}
                a, b = [], []
                for _ in range(runs):
                    mine = page.evaluate("r => solver.solve(r)", {**base, "heuristic_code": code})
                    theirs = page.evaluate("r => solver.solve(r)", {**base, "heuristic": "manhattan"})
                    assert mine["ok"] and theirs["ok"] and mine["length"] == theirs["length"] == 31
                    a.append(mine["stats"]["elapsed_s"])
                    b.append(theirs["stats"]["elapsed_s"])
                ma, mb = statistics.median(a), statistics.median(b)
                kernel = " (built-in: the per-tile kernel)" if algorithm == "idastar" else ""
                print(f"{'browser ' + algorithm + ' ' + board + kernel:<58} yours {ma * 1000:9.1f} ms search  "
                      f"built-in {mb * 1000:9.1f} ms search  ratio {ma / mb:5.2f}")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
