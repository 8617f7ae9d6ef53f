"""Make the pictures the README shows, from the built app in real Chromium, so that they can be made again after the
page changes:

    python3 build.py build && .venv/bin/python docs/make_pictures.py [--site dist] [--only NAME ...] [--out DIR]

Serves the built site on a free loopback port, opens each view as a person would (a position from a share link, the
buttons pressed, the answer awaited) and writes docs/images/NAME.png (or into --out). Chromium is Debian's
(`SLIDELAB_CHROMIUM`, else the `chromium` on the PATH, else Playwright's own). tests/test_docs.py checks that every
picture the docs show exists.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import shutil
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
READY = "document.querySelector('#solver-status')?.dataset.state === 'ready'"
SLOW_MS = 180_000  # a search in the page on a slow machine
EIGHT = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=manhattan"
ASSIGNMENT = "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=astar&heuristic=manhattan"


def app(page) -> None:
    """The 8-puzzle solved in 31 moves, the solution ready to play."""
    open_view(page, EIGHT)
    page.click("#solve")
    page.locator("#result").wait_for(state="visible", timeout=SLOW_MS)
    page.screenshot(path=page.out / "app.png")


def compare(page) -> None:
    """The algorithms side by side on the A* assignment's position."""
    open_view(page, ASSIGNMENT)
    finish(page, "#compare", ".start", ".stop")
    page.locator("#compare").screenshot(path=page.out / "compare.png")


def watch(page) -> None:
    """A* on the assignment's position, 40 steps into its search."""
    open_view(page, ASSIGNMENT + "&trace=40")
    page.locator("#watch svg, #watch canvas").first.wait_for(timeout=SLOW_MS)
    page.wait_for_timeout(1500)
    page.locator("#watch").screenshot(path=page.out / "watch.png")


def explore(page) -> None:
    """Every position of the 8-puzzle, by distance from the goal."""
    open_view(page, EIGHT)
    finish(page, "#explore", ".start", ".cancel")
    page.locator("#explore").screenshot(path=page.out / "explore.png")


def knights(page) -> None:
    """The knight exchange, solved."""
    open_view(page, "#puzzle=knights&board=BBB/.../.../WWW&algorithm=idastar&heuristic=auto")
    page.click("#solve")
    page.locator("#result").wait_for(state="visible", timeout=SLOW_MS)
    page.screenshot(path=page.out / "knights.png")


def japanese(page) -> None:
    """The page in Japanese (a browser whose language is Japanese), the 8-puzzle solved."""
    open_view(page, EIGHT)
    page.click("#solve")
    page.locator("#result").wait_for(state="visible", timeout=SLOW_MS)
    page.screenshot(path=page.out / "japanese.png")


PICTURES = {f.__name__: f for f in (app, compare, watch, explore, knights, japanese)}
LOCALES = {"japanese": "ja-JP"}  # the browser's language for a picture (else English); Japanese needs a CJK font


def open_view(page, fragment: str) -> None:
    page.goto(f"{page.origin}/index.html{fragment}")
    page.wait_for_function(READY, timeout=SLOW_MS)


def finish(page, section: str, start: str, busy: str) -> None:
    """Press a section's start button and wait until its run is over (its busy button hidden again)."""
    page.locator(f"{section} {start}").scroll_into_view_if_needed()
    page.locator(f"{section} {start}:not([disabled])").wait_for(timeout=SLOW_MS)
    page.click(f"{section} {start}")
    page.locator(f"{section} {busy}").wait_for(state="visible", timeout=SLOW_MS)
    page.locator(f"{section} {busy}").wait_for(state="hidden", timeout=SLOW_MS)
    page.wait_for_timeout(500)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", default=str(ROOT / "dist"))
    parser.add_argument("--only", nargs="+", choices=sorted(PICTURES), default=sorted(PICTURES))
    parser.add_argument("--out", type=Path, default=IMAGES)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *_):
            pass

    Quiet.extensions_map.update({".mjs": "text/javascript", ".wasm": "application/wasm"})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=args.site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    chromium = os.environ.get("SLIDELAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            for name in args.only:
                context = browser.new_context(viewport={"width": 1200, "height": 820}, color_scheme="light",
                                              locale=LOCALES.get(name, "en-US"))
                page = context.new_page()
                page.origin = f"http://127.0.0.1:{server.server_address[1]}"
                page.out = args.out
                PICTURES[name](page)
                context.close()
                print(args.out / f"{name}.png")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
