"""Watch the search in the browser (docs/benchmarks.md, "Watch the search"): computing and drawing a 2,000-expansion
trace.

    python3 build.py build && python3 bench/bench_watch.py [--runs N]

Serves dist/ locally, opens the app in headless Chromium (Debian's, or SLIDELAB_CHROMIUM, or Playwright's own) and
traces A* with misplaced tiles on the hardest 8-puzzle, `8 6 7/2 5 4/3 0 1` (stopped at 2,000 expansions), N
times. It prints medians of: the trace request (click to answer, the search in Pyodide and the answer's
transfer to the page), building the playable model, running to the end and back to the start, one frame of the tree
at a readable zoom and with the whole tree in view, and playing the whole trace at full speed; and the longest
main-thread task seen (PerformanceObserver 'longtask', which reports tasks over 50 ms) from the click until the
trace is shown (the measures after it run in one task of their own, so they are timed, not observed). The same
trace in CPython (api.trace) is timed in the same run for the ratio.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (its server is the one users run)

from slidelab import api  # noqa: E402

BOARD = "8 6 7/2 5 4/3 0 1"
LINK = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=astar&heuristic=misplaced"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
LONG_TASKS = """() => {
  if (!PerformanceObserver.supportedEntryTypes.includes('longtask')) throw new Error('no longtask entries here');
  window.longTasks = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
    .observe({ type: 'longtask' });
}"""
MEASURE = """async () => {
  const w = document.querySelector('#watch').watch;
  const time = f => { const t = performance.now(); f(); return performance.now() - t; };
  const frame = () => new Promise(requestAnimationFrame);
  const m = w.tree;
  const model = () => w.unit;  // the panel's buttons drive its model
  const click = name => document.querySelector(`#watch .watch-${name}`).click();
  const out = { trace: w.timing.traceMs, model: w.timing.modelMs, longest: Math.max(0, ...window.longTasks) };
  out.end = time(() => click('end'));
  out.start = time(() => click('first'));
  click('end');
  m.zoom(0.8 / m.scale);
  click('center');  // the node expanded last, where the tree is densest
  out.drawNear = time(() => m.draw());
  out.nearNodes = m.drawn;
  m.fit();
  out.drawAll = time(() => m.draw());
  out.allNodes = m.drawn;
  click('first');
  document.querySelector('#watch .watch-speed').value = 'full';
  const t = performance.now();
  click('play');
  while (model() < 2000) await frame();
  out.play = performance.now() - t;
  return out;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="traces (default 5)")
    args = parser.parse_args()
    if not (build.DIST / "index.html").exists():
        sys.exit("dist/ is not built: run `python3 build.py build` first")
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    runs = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium or None, args=ARGS)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(url + LINK)
        page.wait_for_selector("#solver-status[data-state=ready]", timeout=180_000)
        page.evaluate(LONG_TASKS)
        for _ in range(args.runs):
            page.wait_for_timeout(500)  # the entries of the last run's measures (one long task) arrive late
            page.evaluate("window.longTasks.length = 0")
            page.click("#watch .watch-start")
            page.wait_for_function("document.querySelector('#watch').watch.unit === 0 && "
                                   "!document.querySelector('#watch .watch-start').disabled", timeout=60_000)
            runs.append(page.evaluate(MEASURE))
        browser.close()
    server.shutdown()
    cpython = []
    for _ in range(args.runs):
        started = time.perf_counter()
        answer = api.trace({"board": BOARD, "algorithm": "astar", "heuristic": "misplaced"})
        cpython.append((time.perf_counter() - started) * 1000)
    assert answer["expanded"] == 2000 and len(answer["nodes"]) == runs[0]["allNodes"]
    med = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
    rows = [
        ("trace request: click to answer (Pyodide search + transfer)", med["trace"]),
        ("  the same trace in CPython (api.trace)", statistics.median(cpython)),
        ("build the playable model (TraceModel)", med["model"]),
        ("run to the end (2,000 expansions) and draw", med["end"]),
        ("back to the start and draw", med["start"]),
        (f"draw one frame, readable zoom ({med['nearNodes']:.0f} nodes in view)", med["drawNear"]),
        (f"draw one frame, whole tree ({med['allNodes']:.0f} nodes in view)", med["drawAll"]),
        ("play the whole trace at full speed", med["play"]),
        ("longest main-thread task, click to trace shown (0: none over 50)", max(run["longest"] for run in runs)),
    ]
    print(f"Watch the search: A* misplaced on {BOARD}, 2,000 expansions, {len(answer['nodes']):,} nodes, "
          f"{len(answer['steps']):,} steps; median of {args.runs}")
    for label, ms in rows:
        print(f"  {label:<62} {ms:8.1f} ms")
    print(f"  ratio: trace in the browser / in CPython {med['trace'] / statistics.median(cpython):.1f}")


if __name__ == "__main__":
    main()
