"""The 24-puzzle solved optimally in the page (docs/benchmarks.md, "The 24-puzzle in the page"), as a user does it:
the 6-6-6-6 tables downloaded from their line, the Workers selector, Solve.

    python3 build.py build --with-6666 && SLIDELAB_PDB_DIR=.cache/pdb python3 bench/bench_browser_24.py
        [--ids 40,38] [--workers 2]
    ... bench/bench_browser_24.py --ids 44 --close-after 60

Serves dist/ (built with the 6-6-6-6 tables) and drives headless Chromium (Debian's, or SLIDELAB_CHROMIUM):
1. a fresh browser opens a 5x5 position: the time from a click on the tables' download until they are in use (their
   fetch and the page's solver's install: what the offer says before the user agrees);
2. each of Korf and Felner's positions (tests/data/korf24-batch.txt): solved in the page on --workers workers, then
   by this CPython split over as many forked processes (api.solve, `workers`), its tables mapped (the command
   line's) and then held packed (the page's tables and kernel), in turns, so that the page / CPython ratios hold on
   a busy machine: length, nodes expanded and generated, wall time of each, and their ratios; and how busy the
   browser's threads were during the page's search (CPU seconds of each, from /proc: a worker that waits shows);
3. with --close-after S: the search of the first position in the page, its tab closed after S seconds (the page
   keeps its checkpoint), a new tab of the same browser, Go on: the length, and the nodes searched in all (the
   closed tab's up to its close, as its progress readout showed them, and the resumed search's beyond what the
   checkpoint recorded) against an uninterrupted search of the page.
--file, --goal and --site run other positions on another site (the smoke test's: stand-in tables, a 44-move
position). Exits 1 if a length differs from the file's.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

from playwright.sync_api import expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "pysrc"))
import build  # noqa: E402  (its server is the one users run)

from bench_24 import GOAL, POSITIONS, read_positions  # noqa: E402
from bench_browser import ARGS  # noqa: E402
from slidelab import api  # noqa: E402
from slidelab.heuristics.pdb import files  # noqa: E402

READY_MS = 120_000
ANSWERS = "window.slidelabAnswers = [];"  # bridge.js keeps every answer here when it exists


def link(board: str, goal: str) -> str:
    return f"#puzzle=sliding&board={board.replace(' ', ',')}&goal={goal.replace(' ', ',')}"


def open_page(context, url: str, board: str, goal: str = GOAL):
    page = context.new_page()
    page.goto(url + link(board, goal))
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_MS)
    return page


def use_tables(page, workers: int) -> float:
    """Download the 6-6-6-6 tables from their line: the seconds until they are in use."""
    line = page.locator("#large-tables")
    expect(line).to_have_attribute("data-offered", "pdb6666", timeout=30_000)
    started = time.perf_counter()
    page.click("#large-tables-button")
    expect(line).to_have_attribute("data-state", "in-use", timeout=600_000)
    took = time.perf_counter() - started
    page.select_option("#pool-size", str(workers))
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", str(workers), timeout=600_000)
    return took


def last_solve(page) -> dict:
    return page.evaluate("() => slidelabAnswers.filter(([name]) => name === 'solve').at(-1)[1]")


def browser_cpu() -> dict:
    """CPU seconds of every thread of the browser's processes now, by (thread name, thread id) (Linux's /proc)."""
    ticks, seconds = os.sysconf("SC_CLK_TCK"), {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if b"chrom" not in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0]:
                continue
            for tid in os.listdir(f"/proc/{pid}/task"):
                stat = Path(f"/proc/{pid}/task/{tid}/stat").read_text()
                fields = stat[stat.rindex(")") + 2:].split()
                seconds[(stat[stat.index("(") + 1:stat.rindex(")")], tid)] = (int(fields[11]) + int(fields[12])) / ticks
        except OSError:
            pass  # a process or thread that ended meanwhile
    return seconds


def busy_threads(before: dict, after: dict, wall: float) -> str:
    """The threads that used a tenth of a second or more between two browser_cpu readings, busiest first."""
    used = sorted(((after[k] - before.get(k, 0), k) for k in after), reverse=True)
    return ", ".join(f"{name} {cpu:.1f} s ({cpu / wall:.2f} of the time)" for cpu, (name, _) in used if cpu >= 0.1)


def solve_in_page(page, board: str, goal: str) -> tuple[dict, float]:
    page.evaluate("fragment => { location.hash = fragment; }", link(board, goal))
    page.wait_for_timeout(300)
    started = time.perf_counter()
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=3_600_000)
    return last_solve(page), time.perf_counter() - started


def solve_here(board: str, goal: str, workers: int, packed: bool) -> tuple[dict, float]:
    """Solved by this CPython on `workers` forked processes, its tables mapped (the command line's way) or held
    packed (the page's: a quarter of a byte an entry, and the packed kernel)."""
    files.HOLD_PACKED = packed
    files._TABLES.clear()
    started = time.perf_counter()
    answer = api.solve({"board": board, "goal": goal, "heuristic": "pdb6666", "workers": workers})
    return answer, time.perf_counter() - started


def shown_count(text: str) -> int:
    """A count as the progress readout shows it: '950,123', '12.35 M' or '123 M' (to half its last digit)."""
    return round(float(text[:-2]) * 1e6) if text.endswith(" M") else int(text.replace(",", ""))


def figures(answer: dict, wall: float) -> str:
    stats = answer["stats"]
    return (f"{answer['length']} moves, expanded {stats['expanded']:,}, generated {stats['generated']:,}, "
            f"{wall:.1f} s")


def closed_and_resumed(context, url, board, goal, length, workers, after_s) -> bool:
    context.add_init_script(ANSWERS)  # every tab of the context
    page = open_page(context, url, board, goal)
    use_tables(page, workers)
    page.click("#solve")
    page.wait_for_timeout(after_s * 1000)
    before = shown_count(page.inner_text("#progress-nodes"))
    kept = json.loads(page.evaluate("() => localStorage.getItem('slidelab.search')"))
    page.close()  # the tab closed: its workers end with it
    recorded = kept["counted"]["expanded"] + sum(part["expanded"] for part in kept["done"] + kept.get("partial", []))
    page = open_page(context, url, "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24", goal)
    expect(page.locator("#kept-search")).to_have_attribute("data-state", "kept")
    page.select_option("#pool-size", str(workers))
    started = time.perf_counter()
    page.click(".kept-go-on")
    expect(page.locator("#result")).to_be_visible(timeout=3_600_000)
    resumed, wall = last_solve(page), time.perf_counter() - started
    page.close()
    page = open_page(context, url, board, goal)
    page.select_option("#pool-size", str(workers))
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", str(workers), timeout=600_000)
    whole, whole_wall = solve_in_page(page, board, goal)
    total, uninterrupted = before + resumed["stats"]["expanded"] - recorded, whole["stats"]["expanded"]
    print(f"closed after {after_s} s at {before:,} expanded (its checkpoint recorded {recorded:,}); resumed: "
          f"{resumed['length']} moves in {wall:.1f} s more; nodes in all {total:,} against {uninterrupted:,}"
          f" uninterrupted ({whole_wall:.1f} s): {total / uninterrupted:.3f}", flush=True)
    return resumed["length"] == length == whole["length"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ids", default="40,38", help="Korf and Felner's numbers, comma-separated")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--close-after", type=float, help="close the tab after this many seconds, then go on")
    parser.add_argument("--file", default=str(POSITIONS), help="a batch file of positions (default: Korf and "
                        "Felner's 50)")
    parser.add_argument("--goal", default=GOAL)
    parser.add_argument("--site", default=str(build.DIST), help="the built site to serve (default: dist/)")
    args = parser.parse_args()
    positions = read_positions(args.file)
    ids = [int(i) for i in args.ids.split(",")]
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(Path(args.site))
    good = True
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            context = browser.new_context()
            if args.close_after:
                board, length, _ = positions[ids[0]]
                good = closed_and_resumed(context, url, board, args.goal, length, args.workers, args.close_after)
                return 0 if good else 1
            page = open_page(context, url, positions[ids[0]][0], args.goal)
            page.evaluate(ANSWERS)
            print(f"the 6-6-6-6 tables downloaded and installed in {use_tables(page, args.workers):.1f} s", flush=True)
            for ident in ids:
                board, length, _ = positions[ident]
                before = browser_cpu()
                in_page, page_s = solve_in_page(page, board, args.goal)
                print(f"#{ident} page: {figures(in_page, page_s)}", flush=True)
                print(f"  the browser's threads: {busy_threads(before, browser_cpu(), page_s)}", flush=True)
                for packed in (False, True):
                    here, here_s = solve_here(board, args.goal, args.workers, packed)
                    good &= in_page["length"] == here["length"] == length
                    nodes = in_page["stats"]["expanded"] / here["stats"]["expanded"]
                    print(f"  CPython, tables {'packed' if packed else 'mapped'}: {figures(here, here_s)}; page / "
                          f"CPython: time {page_s / here_s:.2f}, expanded {nodes:.3f}", flush=True)
            browser.close()
    finally:
        server.shutdown()
    return 0 if good else 1


if __name__ == "__main__":
    raise SystemExit(main())
