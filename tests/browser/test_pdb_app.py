"""Fast optimal solving in the app: the pattern databases fetched from the site itself (once per page, with
progress, for Solve and Compare alike; a failed fetch falls back with a notice), and the quick solver offered and
labelled on a 5x5 board."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_algorithms import compare_rows, set_runs, wait_compared

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 90_000
KORF_GOAL = "0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
# Korf's #79 and #12 (42 and 45 moves in ../shared/data/korf100.txt), the two fastest of his 100
KORF_79 = (f"#puzzle=sliding&board=0,1,9,7/11,13,5,3/14,12,4,2/8,6,10,15&goal={KORF_GOAL}"
           "&algorithm=idastar&heuristic=auto")
KORF_12 = (f"#puzzle=sliding&board=14,1,9,6/4,8,12,5/7,2,3,0/10,11,13,15&goal={KORF_GOAL}"
           "&algorithm=idastar&heuristic=auto")
# the four 6-tile tables of both partitions (the 3-tile ones are built on the spot)
FOUR_BY_FOUR_TABLES = {"4x4_4-5-8-9-12-13.slpdb", "4x4_6-7-10-11-14-15.slpdb", "4x4_1-4-5-8-9-12.slpdb",
                       "4x4_2-3-6-7-10-11.slpdb"}
# 30 moves from the goal (walking distance needs 3,065 nodes), so the fallback answers at once
THREE_BY_FOUR = "#puzzle=sliding&board=5,7,2,8/11,4,0,10/1,9,6,3&algorithm=idastar&heuristic=pdb"
# 200 random moves from the goal: far beyond optimal search in a browser
FIVE_BY_FIVE = "2 12 6 4 15/1 18 3 14 10/21 7 24 9 5/22 19 16 0 11/17 13 8 20 23"
FIVE_BY_FIVE_GOAL = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0"

THREE_BY_FOUR_TABLES = {"3x4_1-2-3-5-6-7.slpdb", "3x4_1-4-5-8-9.slpdb", "3x4_2-3-6-7-10-11.slpdb",
                        "3x4_4-8-9-10-11.slpdb"}

# every text the solver's and Compare's messages show, so that short-lived progress messages can be checked afterwards
RECORD_MESSAGES = """new MutationObserver(() => {
  for (const [name, selector] of [['messages', '#solver-message'], ['compareMessages', '#compare .message']]) {
    const text = document.querySelector(selector)?.textContent;
    if (text && window[name].at(-1) !== text) window[name].push(text);
  }
}).observe(document, { subtree: true, childList: true, characterData: true });
window.messages = [];
window.compareMessages = [];"""

SHOWN_BOARD_JS = """() => {
  const board = document.getElementById('board');
  const cols = Number(board.style.getPropertyValue('--cols'));
  const cells = new Array(board.querySelectorAll('.tile').length + 1).fill(0);
  for (const tile of board.querySelectorAll('.tile')) cells[Number(tile.dataset.cell)] = Number(tile.dataset.tile);
  const rows = [];
  for (let i = 0; i < cells.length; i += cols) rows.push(cells.slice(i, i + cols).join(' '));
  return rows.join('/');
}"""


def open_ready(page: Page, url: str) -> None:
    page.add_init_script(RECORD_MESSAGES)
    page.goto(url)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)


def page_requests(requests: list, request) -> None:
    """Record the page's own requests (the service worker's fetches for it would count each file twice)."""
    if request.service_worker is None:
        requests.append(request.url)


def open_fragment(page: Page, fragment: str) -> None:
    page.evaluate("fragment => { location.hash = fragment; }", fragment)
    page.wait_for_function("fragment => location.hash === fragment", arg=fragment)


def solve_and_read(page: Page) -> str:
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    return page.inner_text("#result-length")


def test_korf_positions_are_solved_optimally_with_tables_fetched_once_from_the_site(page: Page, base_url: str):
    requests = []
    page.context.on("request", lambda request: page_requests(requests, request))
    open_ready(page, base_url + KORF_79)
    assert not [url for url in requests if url.endswith(".slpdb")]  # fetched when a search needs them, not before
    assert solve_and_read(page) == "42 moves (optimal)"
    fetched = [url for url in requests if url.endswith(".slpdb")]
    assert sorted(fetched) == sorted(base_url + "pdb/" + name for name in FOUR_BY_FOUR_TABLES)
    assert [url for url in requests if not url.startswith((base_url, "blob:", "data:"))] == []
    shown = page.evaluate("messages")
    loading = [m for m in shown if m.startswith("Loading pattern databases:")]
    assert loading and loading[-1] == "Loading pattern databases: 6.0 of 6.0 MB, 4 of 4 files…"
    assert "Unpacking the pattern databases…" in shown
    expect(page.locator("#notice")).to_be_hidden()

    open_fragment(page, KORF_12)
    assert solve_and_read(page) == "45 moves (optimal)"
    assert len([url for url in requests if url.endswith(".slpdb")]) == len(FOUR_BY_FOUR_TABLES)  # once per page


def test_a_failed_fetch_falls_back_to_walking_distance_with_a_notice(browser, base_url: str):
    page = browser.new_context(service_workers="block").new_page()  # routes see no request a worker answers
    page.route("**/pdb/*", lambda route: route.fulfill(status=404, body="not here"))
    open_ready(page, base_url + THREE_BY_FOUR)
    assert solve_and_read(page) == "30 moves (optimal)"
    notice = page.inner_text("#notice-text")
    assert notice.startswith("The pattern databases could not be loaded (")
    assert "HTTP 404" in notice and "walking distance" in notice
    expect(page.locator("#quick-solve")).to_be_hidden()  # idle on a 3x4 board: Solve is the way


def test_compare_on_a_3x4_board_fetches_the_pattern_databases_first_with_progress(page: Page, base_url: str):
    requests = []
    page.context.on("request", lambda request: page_requests(requests, request))
    open_ready(page, base_url + THREE_BY_FOUR)
    set_runs(page, [("idastar", "manhattan"), ("idastar", "pdb"), ("idastar", "auto")])
    page.click("#compare .start")
    wait_compared(page)
    expect(page.locator("#compare .message")).to_have_text("3 of 3 runs finished.")
    manhattan, pdb, auto = compare_rows(page)
    assert [manhattan["cells"][1], pdb["cells"][1], auto["cells"][1]] == ["30", "30", "30"]
    assert pdb["cells"][2] == auto["cells"][2]  # the same nodes: auto used the tables too, not walking distance
    shown = page.evaluate("compareMessages")
    loading = [m for m in shown if m.startswith("Loading pattern databases:")]
    assert loading and loading[-1] == "Loading pattern databases: 0.7 of 0.7 MB, 4 of 4 files…"
    assert "Unpacking the pattern databases…" in shown
    assert shown.index(loading[0]) < shown.index("3 of 3 runs finished.")
    assert sorted(url for url in requests if "/pdb/" in url and url.endswith(".slpdb")) == sorted(
        base_url + "pdb/" + name for name in THREE_BY_FOUR_TABLES)
    expect(page.locator("#notice")).to_be_hidden()

    assert solve_and_read(page) == "30 moves (optimal)"  # Solve finds the tables installed: no second download
    assert len([url for url in requests if url.endswith(".slpdb")]) == 4


def test_a_5x5_board_gets_a_quick_labelled_solution_that_plays_to_the_goal(page: Page, base_url: str):
    open_ready(page, base_url)
    expect(page.locator("#quick-solve")).to_be_hidden()  # the 8-puzzle is solved optimally at once
    page.locator("summary", has_text="Type or paste a board").click()
    page.fill("#board-text", FIVE_BY_FIVE)
    page.click("#edit-form button[type=submit]")
    quick = page.locator("#quick-solve")
    expect(quick).to_be_visible()
    expect(quick).to_have_text("Quick solve (not necessarily shortest)")
    quick.click()
    expect(page.locator("#result")).to_be_visible(timeout=30_000)
    headline = page.inner_text("#result-length")
    found = re.fullmatch(r"(\d+) moves \(quick: not necessarily shortest; the shortest needs at least (\d+)\)",
                         headline)
    assert found, headline
    length, bound = map(int, found.groups())
    assert bound == 56 and length > bound  # auto on 5x5 is linear conflict: 56 for this board
    assert page.locator("#move-list li").count() == length
    page.fill("#play-speed", "20")
    page.click("#play-toggle")
    expect(page.locator("#play-step")).to_have_text(f"Step {length} of {length}", timeout=length * 200 + 10_000)
    assert page.evaluate(SHOWN_BOARD_JS) == FIVE_BY_FIVE_GOAL
