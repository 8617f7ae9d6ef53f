"""The browser's Python against this CPython on the operations the IDA* kernels are made of (docs/benchmarks.md,
"The interpreter's ratio"): what a page's search can at best come to against the same search in CPython.

    python3 build.py build && python3 bench/bench_browser_interpreter.py [--loops 2000000] [--rounds 5]

Runs the same few loops (integer arithmetic, reading a bytes table by index as a pattern-database lookup does, a
list read, Python calls as deep as a search's recursion, tuple unpacking as the kernels' move tables need) in this
CPython and in the site's Pyodide (the page's own runtime, loaded from dist/ in headless Chromium), in turn on one
core, round after round (the machine's speed drifts), and prints each loop's median times and the median of the
rounds' browser / CPython ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import build  # noqa: E402

from bench_browser import ARGS  # noqa: E402

LOOPS = '''
import time


def loops(n, runs):
    """{name: best seconds of `runs`} for each loop of n steps."""
    table = bytes(range(256)) * 4096
    listed = list(table)
    moves = [(i, i + 1, table) for i in range(64)]

    def arithmetic():
        s = 0
        for i in range(n):
            s += i & 7
        return s

    def bytes_reads():
        s = 0
        for i in range(n):
            s += table[i & 0xFFFFF]
        return s

    def list_reads():
        s = 0
        for i in range(n):
            s += listed[i & 0xFFFFF]
        return s

    def deep(d):
        return 1 if d == 0 else deep(d - 1) + 1

    def calls():
        s = 0
        for _ in range(n // 20):
            s += deep(20)
        return s

    def unpacking():
        s = 0
        for i in range(n):
            a, b, c = moves[i & 63]
            s += a
        return s

    best = {}
    for name, loop in [("integer arithmetic", arithmetic), ("bytes table reads", bytes_reads),
                       ("list reads", list_reads), ("calls 20 deep", calls), ("tuple unpacking", unpacking)]:
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            loop()
            times.append(time.perf_counter() - start)
        best[name] = min(times)
    return best
'''

START = """async source => {
  const { loadPyodide } = await import('./pyodide/pyodide.mjs');
  window.python = await loadPyodide({ indexURL: new URL('./pyodide/', location.href).href });
  window.python.runPython(source);
}"""
RUN = "n => JSON.parse(window.python.runPython(`import json; json.dumps(loops(${n}, 1))`))"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loops", type=int, default=2_000_000, help="steps of each loop (default 2,000,000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each CPython then the browser (default 5)")
    args = parser.parse_args()
    here: dict = {}
    exec(LOOPS, here)  # noqa: S102  (the very source the page runs)
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    rounds = []  # per round: (CPython's times, the browser's times)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            page = browser.new_page()
            page.goto(url)
            page.evaluate(START, LOOPS)
            version = page.evaluate("() => navigator.userAgent.match(/Chrome\\/[\\d.]+/)?.[0] ?? ''")
            for _ in range(args.rounds):
                rounds.append((here["loops"](args.loops, 1), page.evaluate(RUN, args.loops)))
            browser.close()
    finally:
        server.shutdown()
    print(f"{args.loops:,} steps a loop, {args.rounds} rounds (CPython, then the browser); CPython "
          f"{sys.version.split()[0]}, {version} with the site's Pyodide; medians")
    print(f"{'loop':<20} {'CPython ms':>11} {'browser ms':>11} {'ratio':>6}")
    for name in rounds[0][0]:
        here_ms = statistics.median(c[name] for c, _ in rounds) * 1000
        page_ms = statistics.median(b[name] for _, b in rounds) * 1000
        ratio = statistics.median(b[name] / c[name] for c, b in rounds)
        print(f"{name:<20} {here_ms:11.1f} {page_ms:11.1f} {ratio:6.2f}")


if __name__ == "__main__":
    main()
