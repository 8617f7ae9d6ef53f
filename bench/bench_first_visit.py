"""A first visit's downloads: the bytes the site serves, against the bytes of the distinct files they are, with a
server that allows no HTTP caching (docs/benchmarks.md, "Offline").

    python3 build.py build && python3 bench/bench_first_visit.py [--runs 3] [--site DIR]

Each run opens the app in a fresh browser context (a first visit), waits until the solver is ready, the service
worker has precached the app and controls the page, and Pyodide's snapshot is stored, then a little longer; prints
the bytes served, the bytes of the distinct files served, their ratio, and the files served more than once.
"""

from __future__ import annotations

import argparse
import collections
import functools
import http.server
import os
import pathlib
import shutil
import statistics
import sys
import threading
import time

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import build  # noqa: E402

from bench_browser import ARGS  # noqa: E402

SETTLE_S = 3.0  # quiet time after the last step, for downloads still under way


class Counting(build.SiteHandler):
    """The site under no-store, counting the bytes of every file it sends (by path)."""

    sent: collections.Counter = collections.Counter()
    times: collections.Counter = collections.Counter()

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        http.server.SimpleHTTPRequestHandler.end_headers(self)

    def copyfile(self, source, outputfile):
        path = self.path.split("?")[0]
        Counting.sent[path] += os.fstat(source.fileno()).st_size
        Counting.times[path] += 1
        super().copyfile(source, outputfile)


def visit(browser, url) -> tuple[int, int, dict]:
    Counting.sent.clear()
    Counting.times.clear()
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_function("() => document.querySelector('#solver-status')?.dataset.state === 'ready'",
                           timeout=300_000)
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=300_000)
    page.wait_for_function("() => caches.keys().then(keys => keys.some(k => k.endsWith(' snapshot')))"
                           ".then(found => found)", timeout=300_000)
    time.sleep(SETTLE_S)
    context.close()
    served = sum(Counting.sent.values())
    distinct = sum(Counting.sent[p] // Counting.times[p] for p in Counting.sent)
    again = {p: n for p, n in Counting.times.items() if n > 1}
    return served, distinct, again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=pathlib.Path, default=build.DIST, help="the built site (default: dist/)")
    args = parser.parse_args()
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Counting, directory=str(args.site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    runs = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
            for _ in range(args.runs):
                runs.append(visit(browser, url))
            browser.close()
    finally:
        server.shutdown()
    ratios = [served / distinct for served, distinct, _ in runs]
    served, distinct, again = runs[ratios.index(statistics.median_low(ratios))]
    print(f"first visit under no-store: {served / 1e6:.1f} MB served for {distinct / 1e6:.1f} MB of distinct files, "
          f"ratio {statistics.median(ratios):.2f} (median of {args.runs}: {[round(r, 2) for r in ratios]})")
    if again:
        print("served more than once: " + ", ".join(f"{p} x{n}" for p, n in sorted(again.items())))


if __name__ == "__main__":
    main()
