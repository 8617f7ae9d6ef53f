"""Browser benchmark of optimal 15- and 11-puzzle solving (docs/benchmarks.md, "browser"): the pattern databases
fetched and installed by the page, Korf's positions and the hardest 3x4 position solved by the real worker.

    python3 build.py build && python3 bench/bench_browser_korf.py [--count N | --all | --ids 79,12] [--runs N]
                                                                  [--tables pdb771|pdb78] [--workers 2]
                                                                  [--split-after 0.25] [--paired]

Serves dist/ locally and uses headless Chromium (Debian's, or SLIDELAB_CHROMIUM, or Playwright's own):
1. first use: a fresh page opens the app on Korf's #79 (42 moves) and clicks Solve; the time from navigation until
   the solver is ready and until the optimal answer is shown, and every byte the page downloaded (tables included);
2. a page of the site drives web/js/bridge.js and web/js/tables.js itself (the app's own modules): the 4x4 and 3x4
   tables' download and install time; the 53-move 3x4 position `0 3 2 1/8 7 6 5/4 11 10 9` (median of --runs); then
   Korf's positions (default: the 10 with the fewest nodes in the file's Manhattan IDA* counts), each length checked
   against the file, with the same figures as bench/bench_korf.py: total, median, worst, nodes.
Each search is also run in this CPython, in the same minutes, so the browser / CPython ratio holds on a busy machine.
--tables names the set `auto` uses for the 15-puzzle in both (pdb, the standard tables; pdb771 or pdb78, a download
the page offers, pdb78 where the site was built `--with-78`: every request carries it, as the page's do once the user
chose them); CPython holds the ranked tables packed, as the page does. --workers N solves Korf's positions on
the page's pool of N workers (web/js/pool.js, as Solve does), against this CPython on one core; --split-after S
searches each in one worker first and splits it once its next iteration is predicted to take more than S seconds
(the request's split_after_s); with --paired each position is solved by the page's solver alone and then by the
pool, one after the other, and the two are compared position by position (the same minutes, the same load).
Exits 1 if a length differs from the file's.
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
sys.path.insert(0, str(ROOT / "pysrc"))
import build  # noqa: E402  (its server is the one users run)

from bench_korf import KORF_FILE, read_positions  # noqa: E402
from slidelab import api  # noqa: E402
from slidelab.heuristics.pdb import files  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
HARD_3X4 = "0 3 2 1/8 7 6 5/4 11 10 9"
FIRST_USE_LINK = ("#puzzle=sliding&board=0,1,9,7/11,13,5,3/14,12,4,2/8,6,10,15"
                  "&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15&algorithm=idastar&heuristic=auto")
READY_AT = """new MutationObserver((_, observer) => {
  const status = document.getElementById('solver-status');
  if (status?.dataset.state === 'ready') { window.readyAt = performance.now(); observer.disconnect(); }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });"""
START = """async base => {
  const { Solver } = await import('./js/bridge.js');
  const { TableLoader } = await import('./js/tables.js');
  window.solver = new Solver({ base });
  window.tables = new TableLoader(solver, { base });
  await solver.start();
  return solver.status;
}"""
LOAD = """async request => {
  const started = performance.now();
  const outcome = await tables.load(request, { signal: new AbortController().signal });
  return { ...outcome, wall: (performance.now() - started) / 1000 };
}"""
POOL = """async ([base, size]) => {
  const { SolverPool } = await import('./js/pool.js');
  window.pool = new SolverPool(solver, tables, { base });
  pool.size = size;
  while (pool.ready < size) await new Promise(resolve => setTimeout(resolve, 200));
  await pool.installed();  // the tables the page's solver holds are in every worker before the first search
  return pool.ready;
}"""
SOLVE = """async ([request, alone]) => {
  const started = performance.now();
  const answer = await (alone ? solver : window.pool ?? solver).solve(request);
  delete answer.moves;
  return { ...answer, wall: (performance.now() - started) / 1000 };
}"""


def cpython_search(request: dict) -> float:
    """The same request in this CPython (same minutes, same load): the engine's search time."""
    answer = api.solve(request)
    assert answer["ok"], answer
    return answer["stats"]["elapsed_s"]


def first_use(browser, url: str) -> dict:
    context = browser.new_context()
    page = context.new_page()
    sizes = []
    context.on("requestfinished", lambda request: sizes.append((request.url, request.sizes()["responseBodySize"])))
    page.add_init_script(READY_AT)
    page.goto(url + FIRST_USE_LINK)
    page.wait_for_function("window.readyAt !== undefined", timeout=120_000)
    ready = page.evaluate("window.readyAt") / 1000
    clicked = page.evaluate("performance.now()") / 1000
    page.click("#solve")
    page.wait_for_selector("#result:not([hidden])", timeout=120_000)
    shown = page.evaluate("performance.now()") / 1000
    length = page.inner_text("#result-length")
    context.close()
    return {"ready": ready, "clicked": clicked, "shown": shown, "length": length,
            "bytes": sum(size for _, size in sizes),
            "pdb_bytes": sum(size for address, size in sizes if "/pdb/" in address)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", default=str(KORF_FILE),
                        help="the positions (default: pysrc/slidelab/data/korf100.txt)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--count", type=int, default=10, help="the N positions with the fewest nodes in the file")
    choice.add_argument("--all", action="store_true", help="all 100 positions")
    choice.add_argument("--ids", help="comma-separated ids")
    parser.add_argument("--runs", type=int, default=3, help="runs of the 3x4 position (median; default 3)")
    parser.add_argument("--tables", default="pdb", choices=("pdb", "pdb771", "pdb78"),
                        help="the table set auto uses for the 15-puzzle (default pdb)")
    parser.add_argument("--workers", type=int, default=1, help="the page's pool for Korf's positions (default 1)")
    parser.add_argument("--paired", action="store_true",
                        help="with --workers: solve each position alone and on the pool, one after the other")
    parser.add_argument("--split-after", type=float, default=None,
                        help="with --workers: split a search once its next iteration is predicted past this")
    args = parser.parse_args()
    if not (build.DIST / "index.html").exists():
        sys.exit("dist/ is not built: run `python3 build.py build` first")

    nodes = {}  # the file's third column: Korf's Manhattan IDA* node counts, an easy-first order
    for text in Path(args.file).read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            head = text.split("|")[0].split()
            nodes[int(head[0])] = int(head[2].replace(",", ""))
    positions = read_positions(args.file)
    if args.ids:
        wanted = {int(i) for i in args.ids.split(",")}
        positions = [p for p in positions if p[0] in wanted]
    elif not args.all:
        positions = sorted(positions, key=lambda p: nodes[p[0]])[:args.count]

    files.HOLD_PACKED = True  # CPython compares with the very tables served, held as the page holds them
    for path in sorted((build.DIST / "pdb").glob("*.slpdb")):
        assert api.install_pattern_database(path.read_bytes())["ok"]
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    server, url = build.serve_in_thread(build.DIST)
    rows, wrong, paired = [], 0, []  # paired: (id, the search's time on the page's solver alone)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium or None, args=ARGS)
        print(f"Chromium {browser.version}, {os.cpu_count()} cores")
        use = first_use(browser, url)
        print(f"first use (fresh page, Korf #79 by the app): solver ready {use['ready']:.2f} s after navigation, "
              f"Solve clicked at {use['clicked']:.2f} s, answer '{use['length']}' shown "
              f"{use['shown'] - use['clicked']:.2f} s later (tables fetched, installed, searched); downloaded "
              f"{use['bytes'] / 1e6:.1f} MB "
              f"in all, of which pattern databases {use['pdb_bytes'] / 1e6:.2f} MB")

        page = browser.new_context().new_page()
        page.goto(url + "build-info.json")  # any page of the site: the modules load from its origin
        assert page.evaluate(START, url) == "ready"
        for shape, board, goal in [("4x4", KORF_GOAL, KORF_GOAL),
                                   ("3x4", HARD_3X4, None)]:
            request = {"board": board, "tables": args.tables, **({"goal": goal} if goal else {})}
            load = page.evaluate(LOAD, request)
            assert load["ok"], load
            print(f"{shape} tables: {len(load['fetched'])} files, {load['bytes']:,} bytes fetched and installed in "
                  f"{load['wall']:.2f} s")

        runs = [page.evaluate(SOLVE, [{"board": HARD_3X4, "algorithm": "idastar", "heuristic": "auto"}, True])
                for _ in range(args.runs)]
        assert all(r["ok"] and r["length"] == 53 and r["heuristic_used"] == "pdb" for r in runs), runs
        engine = statistics.median(r["stats"]["elapsed_s"] for r in runs)
        native = statistics.median(cpython_search({"board": HARD_3X4}) for _ in range(args.runs))
        print(f"3x4 {HARD_3X4}: 53 moves, {runs[0]['stats']['generated']:,} generated; median of {args.runs}: "
              f"{engine:.2f} s search, {statistics.median(r['wall'] for r in runs):.2f} s request; CPython "
              f"{native:.2f} s (browser / CPython {engine / native:.2f})")

        if args.workers > 1:
            print(f"the page's pool: {page.evaluate(POOL, [url, args.workers])} workers ready")
        print(f"{'id':>4} {'len':>4} {'expanded':>12} {'generated':>12} {'search s':>9} {'wall s':>8} {'CPython s':>9}"
              + (f" {'alone s':>8} {'alone gen.':>11}" if args.paired else ""))
        for ident, length, tiles in positions:
            board = "/".join(" ".join(map(str, tiles[i:i + 4])) for i in range(0, 16, 4))
            request = {"board": board, "goal": KORF_GOAL, "algorithm": "idastar", "heuristic": "auto",
                       "tables": args.tables}
            if args.split_after is not None:
                request["split_after_s"] = args.split_after
            if args.paired:
                alone = page.evaluate(SOLVE, [request, True])
                wrong += not (alone["ok"] and alone["length"] == length)
                paired.append((ident, alone["stats"]["elapsed_s"], alone["stats"]["generated"]))
            answer = page.evaluate(SOLVE, [request, False])
            ok = answer["ok"] and answer["length"] == length and answer["heuristic_used"] == args.tables
            wrong += not ok
            stats = answer.get("stats", {})
            native = cpython_search(request)
            rows.append((ident, stats.get("expanded", 0), stats.get("generated", 0), stats.get("elapsed_s", 0),
                         answer["wall"], native))
            print(f"{ident:>4} {answer.get('length', '-'):>4} {rows[-1][1]:>12,} {rows[-1][2]:>12,} "
                  f"{rows[-1][3]:>9.2f} {rows[-1][4]:>8.2f} {native:>9.2f}"
                  f"{f' {paired[-1][1]:>8.2f} {paired[-1][2]:>11,}' if args.paired else ''}"
                  f"{'' if ok else '  WRONG, expected ' + str(length)}"
                  f"{'' if answer['ok'] else ': ' + str(answer['error'])[:300]}", flush=True)
        browser.close()
    server.shutdown()
    if rows:
        search = sum(r[3] for r in rows)
        wall = sum(r[4] for r in rows)
        generated = sum(r[2] for r in rows)
        worst = max(rows, key=lambda r: r[3])
        print(f"{len(rows)} positions ({','.join(str(r[0]) for r in rows)}), {len(rows) - wrong} with the optimal "
              f"length; total {search:.1f} s search, {wall:.1f} s wall; {sum(r[1] for r in rows):,} expanded, "
              f"{generated:,} generated ({generated / max(search, 1e-9):,.0f} generated per second; a mean of "
              f"{1000 * search / len(rows):.1f} ms and {generated / len(rows):,.0f} generated a position); CPython "
              f"{sum(r[5] for r in rows):.1f} s search (browser / CPython {search / sum(r[5] for r in rows):.2f})")
        print(f"median {statistics.median(r[3] for r in rows):.2f} s, {statistics.median(r[2] for r in rows):,.0f} "
              f"generated; worst: #{worst[0]} {worst[3]:.2f} s, {worst[2]:,} generated")
    if paired:
        alone = sum(t for _, t, _ in paired)
        long = [(i, t, r[3]) for (i, t, _), r in zip(paired, rows, strict=True) if t > 0.5]
        print(f"paired: one worker {alone:.2f} s, the pool of {args.workers} {search:.2f} s ({search / alone:.2f}); "
              f"the {len(long)} positions over 0.5 s alone: "
              + ", ".join(f"#{i} {t:.2f} / {pooled:.2f} s" for i, t, pooled in long)
              + (f" ({sum(p for *_, p in long) / sum(t for _, t, _ in long):.2f})" if long else ""))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
