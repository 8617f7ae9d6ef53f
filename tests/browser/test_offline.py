"""The app offline and installable: after one visit it opens, starts Python and solves with no network (a 4x4 too, once
its tables were fetched, and the larger 7-7-1 tables once chosen); a new build offers "A new version is ready", and
on the click every open tab reloads into it, its files fetched past the HTTP cache, its old shell cache gone and the
unchanged tables kept; a first table download through the service worker shows its progress; the manifest and icons
are served; a whole session raises no Content-Security-Policy violation, in the page or in its workers."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import threading

import build
import pytest
from conftest import Site, copy_of_dist, serve, served_copy
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 120_000
EIGHT = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=manhattan"
KORF_79 = ("#puzzle=sliding&board=0,1,9,7/11,13,5,3/14,12,4,2/8,6,10,15&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
           "&algorithm=idastar&heuristic=pdb")
KORF_12 = ("#puzzle=sliding&board=14,1,9,6/4,8,12,5/7,2,3,0/10,11,13,15&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
           "&algorithm=idastar&heuristic=auto")
LARGE_TABLES = ["4x4_1-2-3-4-5-6-7.ranked.slpdb", "4x4_8-9-10-11-12-13-14.ranked.slpdb", "4x4_15.ranked.slpdb"]
KORF_79_TABLES = ["4x4_1-4-5-8-9-12.slpdb", "4x4_2-3-6-7-10-11.slpdb", "4x4_4-5-8-9-12-13.slpdb",
                  "4x4_6-7-10-11-14-15.slpdb"]


class MaxAge(Site):
    """As many hosts serve static files: the browser's HTTP cache may keep each for an hour without asking."""

    cache_control = "max-age=3600"


@pytest.fixture
def cached_site(tmp_path):
    """A copy of dist/ served with max-age on a free port: (folder, base URL)."""
    yield from served_copy(tmp_path, MaxAge)


def ids(folder) -> tuple[str, str]:
    """The build id and the data id written into the site's service worker."""
    text = (folder / "sw.js").read_text()
    return re.search(r'const BUILD = "(\w+)";', text)[1], re.search(r'const DATA_BUILD = "(\w+)";', text)[1]


NEW_CSS = "\n/* the next build */\n"


def rebuild(folder) -> None:
    """What a new build of the app does: a changed file (the style sheet), the service worker written again."""
    with open(folder / "css" / "app.css", "a") as sheet:
        sheet.write(NEW_CSS)
    shutil.copy2(build.WEB / "sw.js", folder / "sw.js")
    build.write_service_worker(folder)


def served_css(page: Page) -> str:
    return page.evaluate("() => fetch('css/app.css').then(response => response.text())")


APP = "slidelab / "  # the start of every cache name of the app served at a site's root (sw.js's APP)
SNAPSHOT = APP + "snapshot"


def caches_of(page: Page) -> list[str]:
    return sorted(page.evaluate("() => caches.keys()"))


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


def test_the_larger_tables_download_on_request_serve_auto_and_stay_for_offline_use(browser, site):
    folder, url = site
    sizes = json.loads((folder / "pdb" / "files.json").read_text())["files"]
    megabytes = sum(sizes[name] for name in LARGE_TABLES) / 1e6
    context = browser.new_context()
    page = context.new_page()
    line = page.locator("#large-tables")
    open_ready(page, url + EIGHT)
    expect(line).to_be_hidden()  # the 8-puzzle has no larger tables
    open_ready(page, url + KORF_79.replace("heuristic=pdb", "heuristic=auto"))
    wait_controlled(page)
    expect(page.locator("#large-tables-button")).to_have_text(f"Download ({megabytes:.1f} MB)")
    assert not page.evaluate("() => performance.getEntriesByType('resource').filter(e => e.name.includes('ranked'))"
                             ".length")  # nothing fetched before the click
    page.click("#large-tables-button")
    expect(line).to_have_attribute("data-state", "in-use", timeout=120_000)
    expect(page.locator("#large-tables-text")).to_have_text(
        f"The 7-7-1 pattern databases are in use ({megabytes:.1f} MB, kept for offline use).")
    assert solve(page) == "42 moves (optimal)"
    expect(page.locator("#stats-panel")).to_contain_text("auto chose 7-7-1 pattern databases")

    page.click("#large-tables-button")  # back to the standard tables, though the large ones are in memory
    expect(line).to_have_attribute("data-state", "offered")
    assert solve(page) == "42 moves (optimal)"
    expect(page.locator("#stats-panel")).to_contain_text("auto chose pattern databases")
    page.click("#large-tables-button")  # chosen again: nothing to fetch
    expect(line).to_have_attribute("data-state", "in-use")

    context.set_offline(True)  # remembered, and served by the service worker
    page.goto("about:blank")
    open_ready(page, url + KORF_12)
    expect(line).to_have_attribute("data-state", "in-use")
    assert solve(page) == "45 moves (optimal)"
    expect(page.locator("#stats-panel")).to_contain_text("auto chose 7-7-1 pattern databases")
    context.close()


EIGHT_TILES = "4x4_8-9-10-11-12-13-14-15.ranked.slpdb"


def test_the_largest_tables_the_site_serves_and_the_device_holds_are_offered(browser, site):
    """A site built with the 7-8 tables lists them in pdb/files.json (here only listed: their download fails). The
    page offers them where the device's memory holds a worker with them, else says so and offers the 7-7-1 ones; the
    pool's default size follows the memory of the tables in use."""
    folder, url = site
    index = json.loads((folder / "pdb" / "files.json").read_text())
    index["files"][EIGHT_TILES] = 84_863_234
    (folder / "pdb" / "files.json").write_text(json.dumps(index))
    sizes = index["files"]
    seven_eight = (sizes[LARGE_TABLES[0]] + sizes[EIGHT_TILES]) / 1e6
    seven_seven_one = sum(sizes[name] for name in LARGE_TABLES) / 1e6
    for memory_gb in (8, 2, 1.5):
        context = browser.new_context(service_workers="block")  # the files.json changed here is not the build's
        context.add_init_script(  # a 2-core device with this much memory
            f"Object.defineProperty(Navigator.prototype, 'deviceMemory', {{ get: () => {memory_gb} }});"
            "Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { get: () => 2 });")
        page = context.new_page()
        open_ready(page, url + KORF_12)
        line, text = page.locator("#large-tables"), page.locator("#large-tables-text")
        if memory_gb == 8:
            expect(line).to_have_attribute("data-offered", "pdb78")
            expect(text).to_have_text("This board has larger tables, the 7-8 pattern databases: hard positions solve "
                                      "several times faster.")
            expect(page.locator("#large-tables-button")).to_have_text(f"Download ({seven_eight:.1f} MB)")
            page.click("#large-tables-button")
            expect(line).to_have_attribute("data-state", "failed", timeout=60_000)
            expect(text).to_contain_text("could not be loaded")
            expect(text).to_contain_text("HTTP 404")
            assert solve(page) == "45 moves (optimal)"  # on the standard tables, still in use
            expect(page.locator("#stats-panel")).to_contain_text("auto chose pattern databases")
        elif memory_gb == 2:  # a quarter of 2 GB holds one worker with the 7-8 tables (230 + 153 MB)
            expect(line).to_have_attribute("data-offered", "pdb78")
            expect(page.locator("#pool-size")).to_have_value("2")  # two workers of 230 MB fit in 500 MB
        else:  # a quarter of 1.5 GB holds one worker with the 7-7-1 tables (261 MB), not with the 7-8 ones (383 MB)
            expect(line).to_have_attribute("data-offered", "pdb771")
            expect(text).to_have_text("The 7-8 pattern databases need about 383 MB of memory a worker, more than this "
                                      "device's 1.5 GB can spare. This board has larger tables, the 7-7-1 pattern "
                                      "databases: hard positions solve several times faster.")
            expect(page.locator("#large-tables-button")).to_have_text(f"Download ({seven_seven_one:.1f} MB)")
            page.click("#large-tables-button")
            expect(line).to_have_attribute("data-state", "in-use", timeout=120_000)
            expect(page.locator("#pool-size")).to_have_value("1")
            expect(page.locator("#pool-status")).to_contain_text("each needs about 261 MB")
            assert solve(page) == "45 moves (optimal)"
            expect(page.locator("#stats-panel")).to_contain_text("auto chose 7-7-1 pattern databases")
        context.close()


def test_a_repeat_visit_starts_python_from_the_stored_snapshot(browser, site):
    _, url = site
    context = browser.new_context()
    page = context.new_page()
    notes = []
    page.on("worker", lambda worker: worker.on("console", lambda message: notes.append(message.text)))
    page.on("console", lambda message: notes.append(message.text))
    open_ready(page, url + EIGHT)
    wait_controlled(page)
    stored = page.evaluate(
            "() => caches.open('slidelab / snapshot').then(c => c.keys()).then(k => k.map(r => r.url))")
    if not stored:  # it is stored just after the first start
        page.wait_for_function("() => caches.open('slidelab / snapshot').then(c => c.keys()).then(k => k.length === 1)")
        stored = page.evaluate(
            "() => caches.open('slidelab / snapshot').then(c => c.keys()).then(k => k.map(r => r.url))")
    assert len(stored) == 1 and re.search(rf"/js/snapshot-{build.PYODIDE_VERSION}-[0-9a-f]{{16}}\.bin$", stored[0])
    assert not any("started from the stored snapshot" in note for note in notes)  # the first visit made it
    page.goto("about:blank")
    open_ready(page, url + EIGHT)
    assert any(note.endswith("started from the stored snapshot " + stored[0]) for note in notes), notes
    assert solve(page).startswith("31 moves")  # the restored engine solves (its files unpacked again)
    context.close()


def test_a_new_build_asks_before_it_takes_over_and_keeps_the_unchanged_tables(browser, cached_site):
    folder, url = cached_site
    build_id, data_id = ids(folder)
    context = browser.new_context()
    page = context.new_page()
    open_ready(page, url)
    wait_controlled(page)
    table = "pdb/3x4_1-4-5-8-9.slpdb"
    size = page.evaluate("url => fetch(url).then(response => response.arrayBuffer()).then(b => b.byteLength)", table)
    assert size == (folder / table).stat().st_size
    page.wait_for_function("url => caches.match(url).then(Boolean)", arg=table)  # stored while it streamed
    assert caches_of(page) == sorted([f"{APP}shell {build_id}", f"{APP}data {data_id}", SNAPSHOT])
    rebuild(folder)
    new_build_id, new_data_id = ids(folder)
    assert new_build_id != build_id and new_data_id == data_id
    page.goto("about:blank")
    open_ready(page, url)
    expect(page.locator("#update")).to_be_visible(timeout=60_000)
    expect(page.locator("#update")).to_contain_text("A new version of Slide Lab is ready")
    assert NEW_CSS not in served_css(page)  # until the click, every file is the running build's
    with page.expect_navigation():
        page.click("#update-reload")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.wait_for_function("name => caches.keys().then(keys => !keys.includes(name))", arg=f"{APP}shell {build_id}")
    # the tables did not change: their cache stays, so a 4x4 solved before the update still solves offline after it
    assert caches_of(page) == sorted([f"{APP}shell {new_build_id}", f"{APP}data {data_id}", SNAPSHOT])
    assert page.evaluate("url => caches.match(url).then(Boolean)", table)
    # the new build's file, fetched past the HTTP cache (which still holds the old one, fresh for an hour)
    assert served_css(page).endswith(NEW_CSS)
    expect(page.locator("#update")).to_be_hidden()
    context.close()


def test_every_open_tab_moves_to_the_new_build_when_one_accepts_it(browser, site):
    folder, url = site
    context = browser.new_context()
    first = context.new_page()
    open_ready(first, url)
    wait_controlled(first)
    other = context.new_page()
    open_ready(other, url + EIGHT)
    assert other.evaluate("() => navigator.serviceWorker.controller !== null")
    other.evaluate("() => { window.oldPage = true; }")
    rebuild(folder)
    first.goto("about:blank")
    open_ready(first, url)
    expect(first.locator("#update")).to_be_visible(timeout=60_000)
    with other.expect_navigation(timeout=60_000), first.expect_navigation():
        first.click("#update-reload")
    expect(other.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    assert other.evaluate("() => window.oldPage") is None  # the page itself was loaded again
    assert served_css(other).endswith(NEW_CSS)
    assert other.evaluate("() => location.hash") == EIGHT  # the position is kept
    expect(other.locator("#update")).to_be_hidden()
    assert solve(other).startswith("31 moves")
    context.close()


def test_a_first_table_download_through_the_service_worker_shows_its_progress(browser, tmp_path):
    """The service worker answers with the network's response at once (storing a copy as it streams), so the page
    sees a table's bytes arrive: here each file stops halfway until the page has shown that half."""
    folder = copy_of_dist(tmp_path)
    halfway = threading.Event()

    class Halfway(Site):
        def copyfile(self, source, outputfile):
            if not self.path.endswith(".slpdb"):
                return super().copyfile(source, outputfile)
            data = source.read()
            outputfile.write(data[:len(data) // 2])
            outputfile.flush()
            halfway.wait(120)
            outputfile.write(data[len(data) // 2:])

    server, url = serve(folder, Halfway)
    context = browser.new_context()
    try:
        page = context.new_page()
        open_ready(page, url + KORF_79)
        wait_controlled(page)
        page.click("#solve")
        expect(page.locator("#solver-message")).to_have_text(
            re.compile(r"Loading pattern databases: [1-5]\.\d of 6\.0 MB, 0 of 4 files…"), timeout=60_000)
        halfway.set()
        expect(page.locator("#result")).to_be_visible(timeout=120_000)
        assert page.inner_text("#result-length").startswith("42 moves")
        stored = """() => caches.keys().then(keys => caches.open(keys.find(k => k.startsWith('slidelab / data '))))
                        .then(cache => cache.keys())
                        .then(requests => requests.map(r => r.url).filter(u => u.endsWith('.slpdb')).sort())"""
        page.wait_for_function(f"() => ({stored})().then(urls => urls.length === 4)")
        assert page.evaluate(stored) == sorted(url + "pdb/" + name for name in KORF_79_TABLES)
    finally:
        halfway.set()
        context.close()
        server.shutdown()
        server.server_close()


def test_an_update_deletes_only_this_apps_older_caches(browser, site):
    """On an origin shared by many sites, another app's caches and another copy of Slide Lab's (at another path)
    survive this app's update; its own older shell goes."""
    folder, url = site
    build_id, _ = ids(folder)
    context = browser.new_context()
    page = context.new_page()
    open_ready(page, url)
    wait_controlled(page)
    others = ["another-app", "slidelab /elsewhere/ shell 0123456789abcdef", "slidelab /elsewhere/ snapshot"]
    page.evaluate("names => Promise.all(names.map(name => caches.open(name).then(cache => "
                  "cache.put('/x', new Response('kept')))))", others)
    rebuild(folder)
    page.goto("about:blank")
    open_ready(page, url)
    expect(page.locator("#update")).to_be_visible(timeout=60_000)
    with page.expect_navigation():
        page.click("#update-reload")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.wait_for_function("name => caches.keys().then(keys => !keys.includes(name))", arg=f"{APP}shell {build_id}")
    assert set(others) <= set(caches_of(page))
    assert page.evaluate("name => caches.open(name).then(cache => cache.match('/x')).then(r => r.text())",
                         others[0]) == "kept"
    context.close()


class CorruptOnce(Site):
    """Serves the first answer of each of CORRUPTED with its bytes changed (a half-finished upload), then the file."""

    served: set = set()

    def copyfile(self, source, outputfile):
        path = self.path.split("?")[0]
        if any(path.endswith(name) for name in CORRUPTED) and path not in self.served:
            self.served.add(path)
            data = bytearray(source.read())
            data[len(data) // 2] ^= 0xFF
            outputfile.write(bytes(data))
            return
        super().copyfile(source, outputfile)


CORRUPTED = ["pyodide/python_stdlib.zip", "pdb/" + KORF_79_TABLES[0]]

STORED_DIGEST = """url => caches.match(url).then(r => r ? r.arrayBuffer() : null)
    .then(b => b && crypto.subtle.digest('SHA-256', b))
    .then(d => d && Array.from(new Uint8Array(d), x => x.toString(16).padStart(2, '0')).join(''))"""


def test_a_file_served_corrupted_once_is_refused_fetched_again_and_kept_right(browser, tmp_path):
    folder = copy_of_dist(tmp_path)
    CorruptOnce.served = set()
    server, url = serve(folder, CorruptOnce)
    context = browser.new_context()
    try:
        page = context.new_page()
        open_ready(page, url + KORF_79)  # Python starts from the precached standard library: the right one
        wait_controlled(page)
        assert solve(page).startswith("42 moves")  # the table's corrupted download was refused and tried again
        for name in CORRUPTED:
            page.wait_for_function(f"url => ({STORED_DIGEST})(url).then(Boolean)", arg=url + name)
            stored = page.evaluate(STORED_DIGEST, url + name)
            assert stored == hashlib.sha256((folder / name).read_bytes()).hexdigest(), name
        assert CorruptOnce.served == {"/" + name for name in CORRUPTED}  # each was served corrupted first
    finally:
        context.close()
        server.shutdown()
        server.server_close()


class HtmlForTables(Site):
    """A host whose missing-file fallback is the app's page: every table answers 200 with HTML."""

    def copyfile(self, source, outputfile):
        if "/pdb/" not in self.path:
            return super().copyfile(source, outputfile)
        outputfile.write(self.PAGE)

    def send_header(self, keyword, value):
        if "/pdb/" in self.path and keyword.lower() == "content-type":  # http.server writes "Content-type"
            value = "text/html"
        if "/pdb/" in self.path and keyword.lower() == "content-length":
            value = str(len(self.PAGE))
        super().send_header(keyword, value)

    PAGE = b"<!doctype html><title>Slide Lab</title><p>Not found, here is the home page instead."


def test_an_html_answer_for_a_table_is_never_kept_and_the_page_says_the_table_could_not_be_loaded(browser,
                                                                                                     tmp_path):
    folder = copy_of_dist(tmp_path)
    server, url = serve(folder, HtmlForTables)
    context = browser.new_context()
    try:
        page = context.new_page()
        open_ready(page, url + KORF_79)
        wait_controlled(page)
        page.click("#solve")
        expect(page.locator("#notice-text")).to_contain_text("The pattern databases could not be loaded (",
                                                             timeout=60_000)
        assert "web page" in page.inner_text("#notice-text")
        data = page.evaluate("() => caches.keys().then(keys => keys.filter(k => k.startsWith('slidelab / data ')))")
        for name in data:
            assert page.evaluate("name => caches.open(name).then(c => c.keys()).then(k => k.length)", name) == 0
    finally:
        context.close()
        server.shutdown()
        server.server_close()


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


CSP_LOG = """document.addEventListener('securitypolicyviolation', event => {
  window.reportCspViolation(`${location.href}: ${event.violatedDirective} ${event.blockedURI}`);
});"""


def test_a_whole_session_raises_no_content_security_policy_violation(page: Page, base_url: str):
    """Violations are collected across navigations: the page's own events through a binding, and the browser's log
    (the devtools protocol), which also has those of the solver's workers, started from blob: addresses."""
    violations, logged = [], []
    page.expose_function("reportCspViolation", lambda text: violations.append(text))
    page.add_init_script(CSP_LOG)
    devtools = page.context.new_cdp_session(page)
    devtools.on("Log.entryAdded", lambda event: logged.append(event["entry"]))
    devtools.send("Log.enable")
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
    assert violations == []
    assert [f"{entry['source']} {entry.get('url')}: {entry['text']}" for entry in logged
            if "Content Security Policy" in entry["text"] or "Refused to" in entry["text"]] == []
