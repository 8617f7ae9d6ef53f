"""The browser's Python against this CPython on the operations the IDA* kernels are made of (docs/benchmarks.md,
"The interpreter's ratio"): what a page's search can at best come to against the same search in CPython.

    python3 build.py build && python3 bench/bench_browser_interpreter.py [--loops 2000000] [--rounds 5]
                                                                         [--other DIR] [--js-flags FLAGS]

Runs the same few loops (integer arithmetic, reading a bytes table by index as a pattern-database lookup does, a
list read, Python calls as deep as a search's recursion, tuple unpacking as the kernels' move tables need) in this
CPython and in the site's Pyodide (the page's own runtime, loaded from dist/ in headless Chromium), in turn on one
core, round after round (the machine's speed drifts), and prints each loop's median times and the median of the
rounds' browser / CPython ratios. --other DIR runs the loops in another Pyodide build as well (a folder holding its
pyodide.mjs, such as the package folder of `npm pack pyodide@VERSION`): the way to see whether a Pyodide update makes
the page's Python faster or slower. --js-flags passes V8 flags to Chromium (`--liftoff-only` measures WebAssembly
without the optimizing compiler).
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

START = """async ([source, folder]) => {
  const { loadPyodide } = await import(`./${folder}pyodide.mjs`);
  window.python = await loadPyodide({ indexURL: new URL(`./${folder}`, location.href).href });
  window.python.runPython(source);
  return window.python.runPython('import sys; sys.version.split()[0]');
}"""
RUN = "n => JSON.parse(window.python.runPython(`import json; json.dumps(loops(${n}, 1))`))"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loops", type=int, default=2_000_000, help="steps of each loop (default 2,000,000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds, each CPython then the browser (default 5)")
    parser.add_argument("--other", type=Path, metavar="DIR", help="another Pyodide build's folder, measured too")
    parser.add_argument("--js-flags", metavar="FLAGS", help="V8 flags for Chromium, such as --liftoff-only")
    args = parser.parse_args()
    if args.other and not (args.other / "pyodide.mjs").is_file():
        sys.exit(f"{args.other} holds no pyodide.mjs")
    here: dict = {}
    exec(LOOPS, here)  # noqa: S102  (the very source the page runs)
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    servers = [build.serve_in_thread(build.DIST)] + ([build.serve_in_thread(args.other)] if args.other else [])
    rounds = []  # per round: (CPython's times, [each Pyodide's times])
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium,
                                                 args=ARGS + ([f"--js-flags={args.js_flags}"] if args.js_flags else []))
            pages, versions = [], []
            for (_, url), folder in zip(servers, ("pyodide/", ""), strict=False):  # each Pyodide from its own origin
                pages.append(browser.new_page())
                pages[-1].goto(url)
                versions.append(pages[-1].evaluate(START, [LOOPS, folder]))
            chrome = f"Chromium {browser.version}"
            for _ in range(args.rounds):
                rounds.append((here["loops"](args.loops, 1), [page.evaluate(RUN, args.loops) for page in pages]))
            browser.close()
    finally:
        for server, _ in servers:
            server.shutdown()
    names = ["the site's Pyodide", "--other"][:len(versions)]
    print(f"{args.loops:,} steps a loop, {args.rounds} rounds (CPython, then the browser); CPython "
          f"{sys.version.split()[0]}, {chrome}; "
          + ", ".join(f"{name}: Python {version}" for name, version in zip(names, versions, strict=True)) + "; medians")
    print(f"{'loop':<20} {'CPython ms':>11}"
          + "".join(f" {label + ' ms':>11} {'ratio':>6}" for label in ("browser", "other")[:len(versions)]))
    for name in rounds[0][0]:
        line = f"{name:<20} {statistics.median(c[name] for c, _ in rounds) * 1000:11.1f}"
        for which in range(len(versions)):
            page_ms = statistics.median(b[which][name] for _, b in rounds) * 1000
            ratio = statistics.median(b[which][name] / c[name] for c, b in rounds)
            line += f" {page_ms:11.1f} {ratio:6.2f}"
        print(line)


if __name__ == "__main__":
    main()
