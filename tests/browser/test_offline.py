"""The app offline and installable: after one visit it opens, starts Python and solves with no network (a 4x4 too,
once its tables were fetched); a new build offers "A new version is ready" and reloads on the click, and its old
caches go; the manifest and icons are served; a whole session raises no Content-Security-Policy violation."""

from __future__ import annotations

import json
import re
import shutil
import threading

import pytest
from playwright.sync_api import Page, expect

import build

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 120_000
EIGHT = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=manhattan"
KORF_79 = ("#puzzle=sliding&board=0,1,9,7/11,13,5,3/14,12,4,2/8,6,10,15&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
           "&algorithm=idastar&heuristic=pdb")


class NoStore(build.SiteHandler):
    """The site with no HTTP caching at all: only the service worker can answer when the network is off."""

    def send_header(self, keyword, value):
        if keyword == "Cache-Control":
            value = "no-store"
        super().send_header(keyword, value)


@pytest.fixture
def site(tmp_path):
    """A copy of dist/ served without HTTP caching on a free port: (folder, base URL)."""
    folder = tmp_path / "site"
    shutil.copytree(build.DIST, folder)
    server = build.http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), lambda *args: NoStore(*args, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield folder, f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def open_ready(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)


def wait_controlled(page: Page) -> None:
    """Until the service worker has installed (every file precached) and controls the page."""
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def solve(page: Page) -> str:
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=120_000)
    return page.inner_text("#result-length")


def test_after_one_visit_the_app_starts_and_solves_offline(browser, site):
    _, url = site
    context = browser.new_context()
    page = context.new_page()
    open_ready(page, url + KORF_79)
    wait_controlled(page)
    assert solve(page).startswith("42 moves")  # fetches the 4x4 tables, which the service worker keeps
    context.set_offline(True)
    for fragment, length in [(EIGHT, 31), (KORF_79, 42)]:
        page.goto("about:blank")
        open_ready(page, url + fragment)
        assert solve(page).startswith(f"{length} moves")
    context.close()


def test_a_new_build_asks_before_it_takes_over(browser, site):
    folder, url = site
    context = browser.new_context()
    page = context.new_page()
    open_ready(page, url)
    wait_controlled(page)
    old = page.evaluate("() => caches.keys()")
    assert len(old) == 1 and old[0].startswith("slidelab-")
    worker = folder / "sw.js"
    text = worker.read_text()
    build_id = re.search(r"const BUILD = \"(\w+)\";", text)[1]
    worker.write_text(text.replace(build_id, "0" * len(build_id)))  # what a new build does
    page.goto("about:blank")
    open_ready(page, url)
    expect(page.locator("#update")).to_be_visible(timeout=60_000)
    expect(page.locator("#update")).to_contain_text("A new version of Slide Lab is ready")
    with page.expect_navigation():
        page.click("#update-reload")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.wait_for_function("() => caches.keys().then(keys => keys.every(k => !k.includes(%s)))" % json.dumps(build_id))
    assert page.evaluate("() => caches.keys()") == ["slidelab-" + "0" * len(build_id)]
    expect(page.locator("#update")).to_be_hidden()
    context.close()


def test_the_manifest_and_its_icons_are_served(page: Page, base_url: str):
    manifest = page.request.get(base_url + "manifest.webmanifest")
    assert manifest.ok and manifest.headers["content-type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["display"] == "standalone" and data["start_url"] == "./"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes and any(icon.get("purpose") == "maskable" for icon in data["icons"])
    for icon in data["icons"]:
        response = page.request.get(base_url + icon["src"])
        assert response.ok and response.headers["content-type"] == icon["type"]


CSP_LOG = """
window.cspViolations = [];
document.addEventListener('securitypolicyviolation', event => {
  window.cspViolations.push(`${event.violatedDirective}: ${event.blockedURI}`);
});
"""


def test_a_whole_session_raises_no_content_security_policy_violation(page: Page, base_url: str):
    console = []
    page.on("console", lambda message: console.append(message.text) if message.type == "error" else None)
    page.add_init_script(CSP_LOG)
    open_ready(page, base_url + KORF_79)
    assert page.locator("meta[http-equiv='Content-Security-Policy']").count() == 1
    assert solve(page).startswith("42 moves")  # the pattern databases downloaded and installed
    page.goto("about:blank")
    open_ready(page, base_url + EIGHT)
    assert solve(page).startswith("31 moves")
    page.click("#compare .start")
    expect(page.locator("#compare .message")).to_contain_text("runs finished", timeout=120_000)
    page.click("#explore .start")
    expect(page.locator("#explore .explore-totals")).to_contain_text("181,440", timeout=120_000)
    page.select_option("#pool-size", "2")  # a second solver: PyScript's worker start needs 'unsafe-eval'
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", "2", timeout=READY_TIMEOUT_MS)
    page.select_option("#puzzle-type", "knights")
    expect(page.locator("#solve")).to_be_enabled(timeout=60_000)
    assert solve(page).startswith("16 moves")
    assert page.evaluate("() => cspViolations") == []
    assert not [text for text in console if "Content Security Policy" in text or "Refused to" in text]
