"""First and repeat visits: page open to solver ready, with the service worker (docs/benchmarks.md, "Offline").

    python3 build.py build && python3 bench/bench_browser_start.py [--runs 5]

Each run opens the app in a fresh browser context (nothing cached: a first visit), waits until the solver is ready
and the service worker has stored the app, then opens it again in the same context (a repeat visit, served by the
service worker); prints the medians of both and their ratio. The local server sends no-cache, as in the tests.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import sys

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import build  # noqa: E402

from bench_browser import ARGS, READY_AT  # noqa: E402


def visit(page, url) -> float:
    page.goto(url)
    page.wait_for_function("() => window.readyAt !== undefined", timeout=180_000)
    return page.evaluate("() => window.readyAt") / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    first, repeat = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            for _ in range(args.runs):
                context = browser.new_context()
                context.add_init_script(READY_AT)
                page = context.new_page()
                first.append(visit(page, url))
                page.evaluate("() => navigator.serviceWorker.ready")
                page.wait_for_function("() => navigator.serviceWorker.controller !== null")
                page.goto("about:blank")
                repeat.append(visit(page, url))
                context.close()
            browser.close()
    finally:
        server.shutdown()
    a, b = statistics.median(first), statistics.median(repeat)
    print(f"page open to solver ready: first visit {a:.2f} s, repeat visit {b:.2f} s, ratio {b / a:.2f} "
          f"(median of {args.runs}; first {[round(x, 2) for x in first]}, repeat {[round(x, 2) for x in repeat]})")


if __name__ == "__main__":
    main()
