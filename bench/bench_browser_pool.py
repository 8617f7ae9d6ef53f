"""The page's pool of solver workers: one hard 15-puzzle position on 2 workers against 1, in the browser.

    python3 build.py build && python3 bench/bench_browser_pool.py [--runs 3] [--korf 60] [--workers 2]
                                                                  [--heuristic pdb771]

Opens the app once in headless Chromium, fetches the 4x4 pattern databases with a first easy solve, starts the
pool, then solves the position with the Workers selector at 1 and at N in turn (--runs times each) and prints the
medians of the time from the click on Solve to the result shown, their ratio, and each worker's nodes. Page and
worker start are not counted, nor loading the tables into a pool worker: going back to N starts the extra workers
afresh, so an untimed solve of an easy position on the pool comes first (it installs their tables).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import sys

from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import build  # noqa: E402

from bench_browser import ARGS, SOLVE  # noqa: E402
from bench_parallel import korf  # noqa: E402

GOAL = "0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
EASY = "1,2,3,7/4,5,6,11/8,9,10,15/12,13,14,0"


def link(board: str, heuristic: str) -> str:
    return f"#puzzle=sliding&board={board.replace(' ', ',')}&goal={GOAL}&algorithm=idastar&heuristic={heuristic}"


def show(page, board: str, heuristic: str) -> None:
    """Open a position on the page (the link's fragment) and give the page a moment to take it."""
    page.evaluate("fragment => { location.hash = fragment; }", link(board, heuristic))
    page.wait_for_timeout(500)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--korf", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--heuristic", default="pdb", choices=("pdb", "pdb771"), help="the pattern databases")
    args = parser.parse_args()
    board, length = korf(args.korf)
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    times = {1: [], args.workers: []}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page()
            page.goto(url + link(EASY, args.heuristic))
            expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=120_000)
            page.select_option("#pool-size", str(args.workers))
            page.evaluate(SOLVE)  # fetches the tables
            expect(page.locator("#pool-status")).to_have_attribute("data-ready", str(args.workers), timeout=120_000)
            for _ in range(args.runs):
                for workers in times:
                    page.select_option("#pool-size", str(workers))
                    expect(page.locator("#pool-status")).to_have_attribute("data-ready", str(workers), timeout=120_000)
                    show(page, EASY, args.heuristic)
                    page.evaluate(SOLVE)  # untimed: a fresh pool worker gets its tables here
                    show(page, board, args.heuristic)
                    seconds = page.evaluate(SOLVE) / 1000
                    text = page.inner_text("#result-length")
                    assert text.startswith(f"{length} moves"), text
                    times[workers].append(seconds)
                    page.click("#play-first") if page.is_enabled("#play-first") else None
            status = page.inner_text("#pool-status")
            browser.close()
    finally:
        server.shutdown()
    t1, tn = statistics.median(times[1]), statistics.median(times[args.workers])
    print(f"Korf #{args.korf} ({length} moves) in the browser: 1 worker {t1:.2f} s, {args.workers} workers {tn:.2f} s, "
          f"ratio {tn / t1:.2f} (median of {args.runs}; {times})")
    print(f"  {status}")


if __name__ == "__main__":
    main()
