"""The memory of one of the page pool's workers with the 4x4 tables loaded (what pool.js's WORKER_MB stands for).

    python3 build.py build && python3 bench/bench_browser_worker_memory.py [--runs 3] [--workers 3]
                                                                            [--heuristic pdb771|pdb78|pdb6666]

Opens the app in headless Chromium (Linux: it reads /proc), solves an easy 15-puzzle position with the pattern
databases on 1 worker, then with the Workers selector at N (every worker loads its own copy of the tables), and
prints the browser's memory (the proportional set size of every process it runs) at 1 and at N, and their
difference per added worker: a worker's Python runtime, its tables and the heap their decoding grew, which a
WebAssembly memory never gives back. pdb78 (a site built `--with-78`) and pdb6666 (a site built `--with-6666`: an
easy 24-puzzle position) are chosen as a user does: the larger tables remembered in this browser, and `auto`.
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
from bench_browser_pool import EASY, link  # noqa: E402

SETTLE_MS = 3000  # after a solve and a collection in the page and every worker


def descendants(pid: int) -> list[int]:
    """The processes started, directly or not, by process `pid` (this script's browser, driver and all)."""
    children: dict[int, list[int]] = {}
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def browser_mb() -> float:
    """The proportional set size of every process this script started, in MB (shared pages counted once)."""
    total_kb = 0
    for pid in descendants(os.getpid()):
        try:
            for line in pathlib.Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total_kb += int(line.split()[1])
        except OSError:
            continue
    return total_kb / 1024


EASY_24 = ("#puzzle=sliding&board=1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,0,24"
           "&goal=1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,24,0&algorithm=idastar&heuristic=auto")
LARGE = {"pdb78", "pdb6666"}  # the sets a user downloads from their line: remembered, then `auto`


def position(heuristic: str) -> str:
    return EASY_24 if heuristic == "pdb6666" else link(EASY, "auto" if heuristic in LARGE else heuristic)


def measure(page, workers: int, heuristic: str) -> float:
    page.select_option("#pool-size", str(workers))
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", str(workers), timeout=120_000)
    page.evaluate("fragment => { location.hash = fragment; }", position(heuristic))
    page.wait_for_timeout(500)
    page.evaluate(SOLVE)  # every worker of the pool loads its tables
    page.evaluate("async () => (await import('./js/pool.js')).SolverPool.latest.installed()")  # all of them
    for context in (page, *page.workers):  # the file bytes handed to each worker are garbage once installed
        context.evaluate("gc()")
    page.wait_for_timeout(SETTLE_MS)
    return browser_mb()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--heuristic", default="pdb", choices=("pdb", "pdb771", "pdb78", "pdb6666"),
                        help="the pattern databases")
    args = parser.parse_args()
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    heuristic = args.heuristic
    server, url = build.serve_in_thread(build.DIST)
    one, many = [], []
    try:
        with sync_playwright() as playwright:
            for _ in range(args.runs):  # a fresh browser each run: a worker's heap never shrinks
                browser = playwright.chromium.launch(executable_path=chromium, args=[*ARGS, "--js-flags=--expose-gc"])
                page = browser.new_page()
                if heuristic in LARGE:  # chosen once, as the larger tables' line does
                    page.add_init_script(f"localStorage.setItem('slidelab.tables', '{heuristic}')")
                page.goto(url + position(heuristic))
                expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=120_000)
                one.append(measure(page, 1, heuristic))
                many.append(measure(page, args.workers, heuristic))
                browser.close()
    finally:
        server.shutdown()
    m1, mn = statistics.median(one), statistics.median(many)
    print(f"browser memory with the {args.heuristic} tables: 1 worker {m1:.0f} MB, {args.workers} workers {mn:.0f} MB; "
          f"per added worker {(mn - m1) / (args.workers - 1):.0f} MB (median of {args.runs}; "
          f"1: {[round(x) for x in one]}, {args.workers}: {[round(x) for x in many]})")


if __name__ == "__main__":
    main()
