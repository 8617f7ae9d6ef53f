"""Your heuristic in a real Chromium: written in the editor, checked against the true distances, used in Solve,
Compare (the assignment's table) and Watch, the overestimating lesson; a shared link carries the code and runs
nothing until the person allows it; code in the worker cannot reach the app's stored files."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from conftest import ready_page
from playwright.sync_api import Page, expect
from test_algorithms import compare_rows
from test_app import open_fragment, shown_board

from slidelab.heuristics.examples import source

pytestmark = pytest.mark.browser

EASY_LINK = "#puzzle=sliding&board=0,8,2/3,4,5/1,7,6&algorithm=astar&heuristic=manhattan"  # 20 moves
EDITOR = "#yours .cm-content"  # CodeMirror's editable content (Playwright's selectors reach into its shadow root)
MISPLACED = "def h(board):\n    return sum(1 for t, g in zip(board.tiles, board.goal) if t and t != g)\n"


@pytest.fixture(scope="module")
def app(browser, base_url):
    with ready_page(browser, base_url, viewport={"width": 1280, "height": 900}) as page:
        yield page


def write(page: Page, code: str) -> None:
    """Replace the editor's text as a person pasting it would: select all, then insert the text (typed key by key,
    the editor's own indentation and closing brackets would add to it)."""
    page.click(EDITOR)
    page.keyboard.press("Control+A")
    page.keyboard.insert_text(code)


def code_in_editor(page: Page) -> str:
    return page.locator(EDITOR).inner_text()


def check(page: Page) -> None:
    page.click("#yours .yours-check")
    expect(page.locator("#yours .yours-report")).to_be_visible(timeout=60_000)


def verdicts(page: Page) -> dict:
    return page.eval_on_selector_all("#yours .yours-verdicts dt", """terms => Object.fromEntries(terms.map(t =>
      [t.textContent, t.nextElementSibling.textContent]))""")


def test_write_a_heuristic_and_the_lab_proves_it_admissible(app: Page):
    open_fragment(app, EASY_LINK)
    expect(app.locator(EDITOR)).to_contain_text("Manhattan distance")  # the first example, to start from
    write(app, MISPLACED)
    assert "zip(board.tiles, board.goal)" in code_in_editor(app)
    check(app)
    found = verdicts(app)
    assert found["Admissible"] == "yes" and found["Consistent"] == "yes"
    assert found["Informed"].startswith("mean h 7.11, mean true distance 21.97")
    expect(app.locator("#yours .yours-message")).to_contain_text("Checked 181,440 positions")
    expect(app.locator("#yours .yours-plot svg circle")).to_have_count(32)  # one per distance, 0 to 31


def test_an_overestimate_is_shown_and_loads_onto_the_board(app: Page):
    open_fragment(app, EASY_LINK)
    app.select_option("#yours .yours-example", "twice_manhattan")
    check(app)
    found = verdicts(app)
    assert found["Admissible"].startswith("no: it overestimates on 157,176 positions")
    assert found["Consistent"].startswith("no")
    expect(app.locator("#yours .yours-plot circle.over").first).to_be_visible()
    app.click("#yours .yours-examples button >> nth=0")
    assert shown_board(app) == "5 7 4/8 0 2/6 3 1"  # h 44 where the truth is 22


def test_solve_compare_and_watch_use_yours(app: Page):
    open_fragment(app, EASY_LINK)
    app.select_option("#yours .yours-example", "manhattan")
    app.click("#yours .yours-use")
    expect(app.locator("#result-length")).to_contain_text("20 moves", timeout=60_000)
    assert "heuristic=yours" in app.evaluate("location.hash") and "code=" in app.evaluate("location.hash")
    app.click("#yours .yours-compare")
    expect(app.locator("#compare .message")).to_contain_text("runs finished", timeout=90_000)
    rows = {r["heuristic"]: r["cells"] for r in compare_rows(app)}
    assert list(rows) == ["zero", "misplaced", "manhattan", "yours"]
    assert {cells[1] for cells in rows.values()} == {"20"}
    assert rows["yours"][2] == rows["manhattan"][2]  # the same definition: the same nodes closed
    app.click("#watch .watch-start")
    expect(app.locator("#watch .watch-message")).to_contain_text("20 moves", timeout=60_000)


def test_the_overestimating_lesson_puts_twice_manhattan_in_your_heuristic(app: Page):
    app.select_option("#watch .watch-lesson", "overestimate")
    expect(app.locator(EDITOR)).to_contain_text("return 2 * total")
    assert shown_board(app) == "8 3 4/5 6 7/2 0 1"
    rows = app.eval_on_selector_all("#watch .watch-lesson-table tbody tr", "rows => rows.map(r => r.textContent)")
    assert len(rows) == 2


def test_a_shared_link_shows_the_code_and_runs_nothing_until_asked(browser, base_url):
    code = source("misplaced")
    link = (f"#puzzle=sliding&board=0,8,2/3,4,5/1,7,6&algorithm=astar&heuristic=yours&code={quote(code, safe='')}")
    with ready_page(browser, base_url, link) as page:
        expect(page.locator("#yours .yours-link")).to_be_visible()
        expect(page.locator("#yours .yours-link")).to_contain_text("someone else's program")
        expect(page.locator(EDITOR)).to_contain_text("Misplaced tiles")
        page.click("#solve")  # Solve with heuristic=yours: refused, nothing runs
        expect(page.locator("#solver-message")).to_contain_text("has not been allowed to run", timeout=30_000)
        page.click("#yours .yours-check")
        expect(page.locator("#yours .yours-message")).to_contain_text("Read the code from the link")
        assert page.locator("#yours .yours-report").is_hidden()
        page.click("#yours .yours-trust")
        expect(page.locator("#yours .yours-link")).to_be_hidden()
        page.click("#solve")
        expect(page.locator("#result-length")).to_contain_text("20 moves", timeout=60_000)


def test_code_in_the_worker_cannot_reach_the_apps_stored_files(app: Page):
    """Before the first user code runs, the worker gives up Cache Storage, IndexedDB and new workers; the page keeps
    them (its service worker and its snapshot are untouched)."""
    open_fragment(app, EASY_LINK)
    write(app, "import js\nreach = [n for n in ('caches', 'indexedDB', 'Worker') if hasattr(js, n)]\n"
               "def h(board):\n    return 0 if not reach else 1 // 0\n")
    check(app)
    assert verdicts(app)["Admissible"] == "yes"  # h is 0 everywhere: nothing was reachable
    assert app.evaluate("typeof caches !== 'undefined' && typeof indexedDB !== 'undefined'")


def test_code_in_the_worker_loads_and_sends_nothing_not_even_from_the_site(app: Page):
    """import(), importScripts, fetch, XMLHttpRequest, WebSocket, EventSource, a Worker, a package, messages to the
    page: each at a URL naming it ("stolen-..."), none requested (test_exercises_app.LOADS)."""
    from test_exercises_app import LOADS

    requests = []
    listen = lambda request: requests.append(request.url)  # noqa: E731
    app.on("request", listen)
    try:
        open_fragment(app, EASY_LINK)
        write(app, LOADS)
        check(app)
        assert verdicts(app)["Admissible"] == "yes"  # h is Manhattan's: nothing that compiles or sends ran
        app.wait_for_timeout(1000)
    finally:
        app.remove_listener("request", listen)
    assert [url for url in requests if "stolen" in url] == []


def test_a_failure_names_its_board_which_loads_and_what_the_code_printed_is_shown_apart(app: Page):
    open_fragment(app, EASY_LINK)
    write(app, "def h(board):\n    print('at', board.tiles[0])\n    if board.tiles[0] == 0:\n"
               "        return 1 // 0\n    return 0\n")
    app.click("#yours .yours-check")
    message = app.locator("#yours .yours-message")
    expect(message).to_contain_text("ZeroDivisionError", timeout=60_000)
    expect(message).to_contain_text("at line 4")
    failed = message.inner_text().split("on the board ")[1].split(",")[0]
    assert failed.startswith("0 ")  # the blank first: the board h failed on
    expect(app.locator("#yours .yours-printed")).to_be_visible()
    app.click("#yours .yours-printed summary")
    expect(app.locator("#yours .yours-printed pre")).to_contain_text("at 1")
    app.click("#yours .yours-failed-board")
    assert shown_board(app) == failed
    check_button_after = app.locator("#yours .yours-check")
    write(app, MISPLACED)
    check(app)  # a good check afterwards clears both
    expect(app.locator("#yours .yours-failed")).to_be_hidden()
    expect(app.locator("#yours .yours-printed")).to_be_hidden()
    assert check_button_after.is_enabled()


def test_code_that_never_returns_is_ended_with_its_worker_at_the_time_limit(page: Page, base_url: str):
    """A loop inside a bare except never comes back to the worker's loop, which a cancel needs: the bridge ends the
    worker at the request's time limit (a second later) and starts a new one, which then answers as before."""
    page.goto(base_url + "build-info.json")
    result = page.evaluate("""async base => {
      const { Solver } = await import('./js/bridge.js');
      const solver = new Solver({ base, codeSeconds: 2 });
      await solver.start();
      const looping = 'def h(board):\\n    while True:\\n        try:\\n            while True: pass\\n' +
        '        except:\\n            pass\\n';
      const started = performance.now();
      const stuck = await solver.checkHeuristic({ shape: '2x3', heuristic: 'yours', heuristic_code: looping });
      const waited = performance.now() - started;
      await solver.start();
      const good = await solver.checkHeuristic({ shape: '2x3', heuristic: 'yours',
        heuristic_code: 'def h(board):\\n    return 0\\n' });
      solver.stop();
      return { stuck, waited, good: good.ok && good.admissible };
    }""", base_url)
    assert result["stuck"]["error"]["code"] == "limit"
    assert "time limit for your own heuristic" in result["stuck"]["error"]["message"]
    assert 2900 <= result["waited"] < 6000
    assert result["good"] is True
