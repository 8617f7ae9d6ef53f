"""Browser benchmarks (docs/benchmarks.md, "browser"): page open to solver ready, and solving the default puzzle.

    python3 build.py build && python3 bench/bench_browser.py [--loads N] [--solves N]

Serves dist/ locally, opens the app in headless Chromium (Debian's, or SLIDELAB_CHROMIUM, or Playwright's own) N
times from a fresh browser context, and prints medians: the time from navigation start until the solver status says
ready, and for the default 31-move 8-puzzle (IDA* with Manhattan distance, as bench/bench_search.py) the time from
the click on Solve until the result is shown, with the engine's own search time as the page reports it.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import statistics
import sys

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (its server is the one users run)

LINK = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=manhattan"  # as in bench_search.py
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
READY_AT = """new MutationObserver((_, observer) => {
  const status = document.getElementById('solver-status');
  if (status?.dataset.state === 'ready') { window.readyAt = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });"""
SOLVE = """() => new Promise(resolve => {
  const result = document.getElementById('result');
  const started = performance.now();
  new MutationObserver((_, observer) => {
    if (!result.hidden) { observer.disconnect(); resolve(performance.now() - started); }
  }).observe(result, { attributes: true, attributeFilter: ['hidden'] });
  document.getElementById('solve').click();
})"""


def engine_seconds(time_text: str) -> float:
    """The search time the statistics panel shows, e.g. '56 ms' or '1.20 s'."""
    value, unit = re.fullmatch(r"([\d.]+) (ms|s)", time_text.strip()).groups()
    return float(value) / (1000 if unit == "ms" else 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--loads", type=int, default=5, help="fresh page loads (default 5)")
    parser.add_argument("--solves", type=int, default=3, help="solves per load (default 3)")
    args = parser.parse_args()
    if not (build.DIST / "index.html").exists():
        sys.exit("dist/ is not built: run `python3 build.py build` first")
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    ready, clicks, engine = [], [], []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium or None, args=ARGS)
        for _ in range(args.loads):
            context = browser.new_context()
            page = context.new_page()
            page.add_init_script(READY_AT)
            page.goto(url + LINK)
            page.wait_for_function("window.readyAt !== undefined", timeout=120_000)
            ready.append(page.evaluate("window.readyAt") / 1000)
            for _ in range(args.solves):
                clicks.append(page.evaluate(SOLVE) / 1000)
                assert page.inner_text("#result-length") == "31 moves (optimal)"
                engine.append(engine_seconds(page.inner_text("#stats-panel [data-stat='time'] dd")))
            context.close()
        version = browser.version
        browser.close()
    server.shutdown()
    print(f"Chromium {version}, {os.cpu_count()} cores; {args.loads} page loads, {args.solves} solves each")
    print(f"page open to solver ready: median {statistics.median(ready):.2f} s "
          f"(min {min(ready):.2f}, max {max(ready):.2f})")
    print(f"solve 8 6 7/2 5 4/3 0 1 (31 moves, IDA* + Manhattan), click to result shown: median "
          f"{statistics.median(clicks) * 1000:.0f} ms (min {min(clicks) * 1000:.0f}, max {max(clicks) * 1000:.0f}); "
          f"engine search time: median {statistics.median(engine) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
