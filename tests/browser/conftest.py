"""Fixtures for the Playwright tests: Chromium from the system (or Playwright's own), a server on dist/, and a copy of
dist/ served without HTTP caching (`site`: only the service worker answers offline)."""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
import build  # noqa: E402  (the project's build script: its server is the one users run)

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium when there is one (SLIDELAB_CHROMIUM, set by build.py test, or on PATH)."""
    path = os.environ.get("SLIDELAB_CHROMIUM", None)
    if path is None:
        path = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    args = dict(browser_type_launch_args, args=CHROMIUM_ARGS)
    if path:
        args["executable_path"] = path
    return args


@pytest.fixture(scope="session")
def base_url():
    """The built site (dist/) served on a free local port for the whole session."""
    if not (build.DIST / "index.html").exists():
        pytest.fail("dist/ is not built: run `python3 build.py test` (or `python3 build.py build` first)")
    server, url = build.serve_in_thread(build.DIST)
    yield url
    server.shutdown()
    server.server_close()


READY_TIMEOUT_MS = 120_000


@contextmanager
def ready_page(browser, base_url: str, fragment: str = "", **context_args):
    """A page of the app, opened on `fragment`, whose solver has started (Pyodide takes seconds), for a module's
    tests to share; no uncaught page error may have happened by the end."""
    context = browser.new_context(**context_args)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    answers_kept(page)
    page.goto(base_url + fragment)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    yield page
    wrong = answers_against_schema(page)
    context.close()
    assert errors == []
    assert wrong == []


# the answers docs/api.schema.json types, and the messages between the page's solver and its pool (pool.js)
CHECKED_CALLS = ("solve", "trace", "explore", "check_heuristic", "check", "pool_question", "pool_reply")


def answers_kept(page) -> None:
    """Have the page's bridge keep every answer its workers give (web/js/bridge.js), from the next load on."""
    page.add_init_script("globalThis.slidelabAnswers = [];")


def answers_against_schema(page) -> list[str]:
    """What is wrong, by docs/api.schema.json, with the answers the page's workers gave since answers_kept: every
    answer of a typed call, and every error answer; the kept answers are then forgotten."""
    from slidelab.contract.schema import answer_errors

    kept = page.evaluate("() => (globalThis.slidelabAnswers || []).splice(0)")
    wrong = []
    for call, answer in kept:
        answer = json.loads(answer) if isinstance(answer, str) else answer  # a trace comes as JSON text
        if call in CHECKED_CALLS or isinstance(answer, dict) and answer.get("ok") is False:
            wrong += [f"{call}: {error}" for error in answer_errors(answer, call if call in CHECKED_CALLS else "")]
    return wrong


class Site(build.SiteHandler):
    """The site with the given HTTP caching (Cache-Control); with no-store only the service worker can answer when the
    network is off."""

    cache_control = "no-store"

    def send_header(self, keyword, value):
        if keyword == "Cache-Control":
            value = self.cache_control
        super().send_header(keyword, value)


def serve(folder, handler: type[Site]):
    """The folder served by `handler` on a free local port, in a daemon thread: (server, base URL)."""
    server = build.http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *args: handler(*args, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def copy_of_dist(tmp_path):
    folder = tmp_path / "site"
    shutil.copytree(build.DIST, folder)
    return folder


def served_copy(tmp_path, handler):
    """A copy of dist/ served by `handler` on a free port, while the generator runs: yields (folder, base URL)."""
    folder = copy_of_dist(tmp_path)
    server, url = serve(folder, handler)
    yield folder, url
    server.shutdown()
    server.server_close()


@pytest.fixture
def site(tmp_path):
    """A copy of dist/ served without HTTP caching on a free port: (folder, base URL)."""
    yield from served_copy(tmp_path, Site)
