"""The web app in a real Chromium against the built site: loading, solving, playback, links, hints, cancel."""

from __future__ import annotations

import re
import time

import pytest
from conftest import answers_against_schema, answers_kept
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 90_000  # Pyodide starts in 5-8 s on a 2-core machine; leave room for a busy one
DEFAULT = "8 6 7/2 5 4/3 0 1"
GOAL = "1 2 3/4 5 6/7 8 0"
DEFAULT_LINK = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=manhattan"
# Korf's first 15-puzzle instance (57 moves, his goal has the blank first): IDA* with Manhattan distance needs
# hundreds of millions of nodes, far longer than any test waits.
HARD_LINK = ("#puzzle=sliding&board=14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
             "&algorithm=idastar&heuristic=manhattan")

SHOWN_BOARD_JS = """() => {
  const board = document.getElementById('board');
  const cols = Number(board.style.getPropertyValue('--cols'));
  const tiles = [...board.querySelectorAll('.tile')];
  const cells = new Array(tiles.length + 1).fill(0);
  for (const tile of tiles) cells[Number(tile.dataset.cell)] = Number(tile.dataset.tile);
  const rows = [];
  for (let i = 0; i < cells.length; i += cols) rows.push(cells.slice(i, i + cols).join(' '));
  return rows.join('/');
}"""


def shown_board(page: Page) -> str:
    """The position the tiles show, read from where each tile button is placed (once the page has drawn its board:
    the app's modules run after the page's messages have loaded)."""
    page.wait_for_selector("#board .tile", state="attached")
    return page.evaluate(SHOWN_BOARD_JS)


def wait_ready(page: Page) -> None:
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)


def tile(page: Page, number: int):
    return page.locator(f"#board .tile[data-tile='{number}']")


@pytest.fixture(scope="module")
def solver_page(browser, base_url):
    """One page whose solver has started, shared by the tests that solve (Pyodide takes seconds to start)."""
    context = browser.new_context()
    page = context.new_page()
    answers_kept(page)
    page.goto(base_url)
    wait_ready(page)
    yield page
    wrong = answers_against_schema(page)
    context.close()
    assert wrong == []


@pytest.fixture
def ready_page(solver_page):
    """The shared page with the solver ready, opened on the default puzzle afresh (a new fragment resets it)."""
    open_fragment(solver_page, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=manhattan")
    open_fragment(solver_page, DEFAULT_LINK)
    return solver_page


def open_fragment(page: Page, fragment: str) -> None:
    """Open a canonical link on an open page (the app keeps a canonical fragment as it is)."""
    page.evaluate("fragment => { location.hash = fragment; }", fragment)
    page.wait_for_function("fragment => location.hash === fragment", arg=fragment)


def test_page_is_usable_at_once_becomes_ready_and_stays_on_its_origin(page: Page, base_url: str):
    requests = []
    page.context.on("request", lambda request: requests.append(request.url))
    page.goto(base_url)
    expect(page.locator("#board .tile")).to_have_count(8)
    assert shown_board(page) == DEFAULT
    # playable while Python is still loading: a click and an arrow key
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "loading")
    expect(page.locator("#solve")).to_be_disabled()
    tile(page, 5).click()
    page.keyboard.press("ArrowDown")  # the tile above the gap (6) slides down
    assert shown_board(page) == "8 0 7/2 6 4/3 5 1"
    expect(page.locator("#move-count")).to_have_text("2")
    page.keyboard.press("ArrowUp")  # 6 slides back up
    page.keyboard.press("ArrowLeft")  # the tile right of the gap (4) slides left
    assert shown_board(page) == "8 6 7/2 4 0/3 5 1"
    expect(page.locator("#move-count")).to_have_text("4")
    assert page.evaluate("location.hash") == "#puzzle=sliding&board=8,6,7/2,4,0/3,5,1&algorithm=idastar&heuristic=auto"

    wait_ready(page)
    expect(page.locator("#solver-status")).to_contain_text("ready")
    expect(page.locator("#solve")).to_be_enabled()
    expect(page.locator("#algorithm")).to_have_value("idastar")
    expect(page.locator("#heuristic")).to_have_value("auto")
    foreign = [url for url in requests if not url.startswith((base_url, "blob:", "data:"))]
    assert foreign == []
    assert any(url.endswith(".whl") and "slidelab" in url for url in requests)  # the engine came from this site


@pytest.mark.parametrize("missing", ["pyscript/core.js", "py/worker.py"])
def test_a_solver_that_cannot_load_is_reported_and_the_board_still_plays(browser, base_url: str, missing: str):
    # without a service worker: a first visit's files come through it, past the page's routes, and are all there
    context = browser.new_context(service_workers="block")
    try:
        page = context.new_page()
        page.route(base_url + missing, lambda route: route.abort())
        page.goto(base_url)
        status = page.locator("#solver-status")
        expect(status).to_have_attribute("data-state", "failed", timeout=30_000)
        expect(status).to_contain_text("could not start")
        expect(page.locator("#solve")).to_be_disabled()
        tile(page, 1).click()
        assert shown_board(page) == "8 6 7/2 5 4/3 1 0"
    finally:
        context.close()


def test_solving_the_default_puzzle_shows_31_moves_and_the_animation_ends_on_the_goal(ready_page: Page):
    page = ready_page
    page.click("#solve")
    expect(page.locator("#result-length")).to_have_text("31 moves (optimal)")
    expect(page.locator("#move-list button")).to_have_count(31)
    expect(page.locator("#result .result-head")).to_have_text("31 moves (optimal)")  # its figures: the panel's
    expect(page.locator("#stats-panel [data-stat='length'] dd")).to_have_text("31 moves")
    expect(page.locator("#play-step")).to_have_text("Step 0 of 31")
    assert shown_board(page) == DEFAULT

    page.click("#play-forward")
    page.click("#play-forward")
    page.click("#play-back")
    expect(page.locator("#play-step")).to_have_text("Step 1 of 31")
    assert shown_board(page) != DEFAULT

    page.locator("#play-speed").fill("20")
    page.click("#play-toggle")
    expect(page.locator("#play-toggle")).to_have_text("Pause")
    expect(page.locator("#play-step")).to_have_text("Step 31 of 31", timeout=10_000)
    expect(page.locator("#play-toggle")).to_have_text("Play")
    assert shown_board(page) == GOAL
    expect(page.locator("#board")).to_have_class(re.compile(r"\bsolved\b"))

    page.click("#play-first")
    assert shown_board(page) == DEFAULT
    page.click("#move-list button[data-step='31']")
    assert shown_board(page) == GOAL

    # pausing mid-way stops where it is, and the tiles slide at their usual speed again
    page.locator("#play-speed").fill("2")
    page.click("#play-toggle")  # from the goal: starts again from step 0
    expect(page.locator("#play-step")).to_have_text("Step 1 of 31")
    page.click("#play-toggle")
    expect(page.locator("#play-toggle")).to_have_text("Play")
    step = page.locator("#play-step").text_content()
    page.wait_for_timeout(1200)
    expect(page.locator("#play-step")).to_have_text(step)
    assert page.evaluate("document.getElementById('board').style.getPropertyValue('--slide-ms')") == ""


SHAPED_LINK = ("#puzzle=sliding&board=1,0,2,3/4,5,6,7/8,9,10,11&goal=0,1,2,3/4,5,6,7/8,9,10,11"
               "&algorithm=idastar&heuristic=manhattan")  # a 3x4 board with its own goal (the blank first)


def test_a_shared_link_restores_its_position_and_goal(page: Page, base_url: str):
    page.goto(base_url + "#puzzle=sliding&board=1,2,3/4,5,6/0,7,8")
    assert shown_board(page) == "1 2 3/4 5 6/0 7 8"
    expect(page.locator("#notice")).to_be_hidden()

    page.goto(base_url + SHAPED_LINK)
    page.reload()  # a fresh page open, not only a fragment change
    assert shown_board(page) == "1 0 2 3/4 5 6 7/8 9 10 11"
    expect(page.locator("#size")).to_have_value("3x4")
    expect(page.locator("#goal-text")).to_have_value("0 1 2 3/4 5 6 7/8 9 10 11")
    assert page.evaluate("location.hash") == SHAPED_LINK
    expect(page.locator("#share-link")).to_have_value(base_url + SHAPED_LINK)

    # playing changes the link; opening that link elsewhere gives the same position
    page.goto(base_url)
    tile(page, 1).click()
    moved = page.evaluate("location.href")
    assert moved.endswith("#puzzle=sliding&board=8,6,7/2,5,4/3,1,0&algorithm=idastar&heuristic=auto")
    other = page.context.new_page()
    other.goto(moved)
    assert shown_board(other) == "8 6 7/2 5 4/3 1 0"
    other.close()


def test_the_goal_of_a_link_is_the_one_solved_for(ready_page: Page):
    page = ready_page
    open_fragment(page, SHAPED_LINK)
    page.click("#solve")
    expect(page.locator("#result-length")).to_have_text("1 move (optimal)")
    page.click("#play-forward")
    assert shown_board(page) == "0 1 2 3/4 5 6 7/8 9 10 11"
    expect(page.locator("#board")).to_have_class(re.compile(r"\bsolved\b"))


MALFORMED_LINKS = [
    ("#puzzle=sliding&board=1,2,3/4,5/6,7,0", "every row needs the same length"),
    ("#puzzle=sliding&board=1 2 3/4 5 6/7 8 0", "numbers separated by commas"),
    ("#puzzle=sliding&board=1,2,3/4,5,6/7,8,0&goal=1,2/3,0", "same shape"),
    ("#puzzle=sliding&board=1,2,3/4,5,6/7,8,0&board=1,2/3,0", "'board' is given twice"),
    ("#puzzle=sliding&board=1,2,3/4,5,6/7,8,0&heuristic=Bad-Name", "not a valid heuristic name"),
    ("#puzzle=chess&board=1,2,3/4,5,6/7,8,0", "not a puzzle type"),
    ("#board=1,2,3/4,5,6/7,8,0", "does not say which puzzle"),
    ("#hello", "'hello' is not something a link can set"),
]


def expect_default_after_bad_link(page: Page, reason: str) -> None:
    notice = page.locator("#notice")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("could not be opened")
    expect(notice).to_contain_text(reason)
    assert shown_board(page) == DEFAULT
    assert page.evaluate("location.hash").startswith("#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&")


def test_a_malformed_link_shows_why_and_falls_back_to_the_default(page: Page, base_url: str):
    page.goto(base_url + "#puzzle=sliding&board=1,2,3/4,5,5/0,7,8")
    expect_default_after_bad_link(page, "tile 5 appears more than once")
    tile(page, 3).click()  # a working puzzle
    expect(page.locator("#move-count")).to_have_text("1")
    page.click("#notice-close")
    expect(page.locator("#notice")).to_be_hidden()
    # the same on an open page whose fragment is edited
    for fragment, reason in MALFORMED_LINKS:
        page.evaluate("f => { location.hash = f; }", fragment)
        expect_default_after_bad_link(page, reason)


BFS_LINK = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=bfs&heuristic=auto"
# every change of the four progress readouts (bound, nodes, nodes/s, time), as they show together
RECORD_READOUTS = """() => {
  const outputs = ['bound', 'nodes', 'rate', 'elapsed'].map(name => document.getElementById(`progress-${name}`));
  window.readouts = [];
  window.readoutObserver = new MutationObserver(() => readouts.push(outputs.map(output => output.textContent)));
  readoutObserver.observe(document.getElementById('progress'), { subtree: true, childList: true, characterData: true });
}"""


def test_the_progress_readouts_of_a_breadth_first_search_are_numbers_never_nan(ready_page: Page):
    """A breadth-first search (the 8-puzzle's hardest position: every position is visited, reported every 0.1 s)
    shows its depth, nodes, nodes per second and time as numbers (Nodes/s read 'NaN' before every algorithm's
    progress had one schema)."""
    page = ready_page
    open_fragment(page, BFS_LINK)
    page.evaluate(RECORD_READOUTS)
    page.click("#solve")
    expect(page.locator("#result-length")).to_have_text("31 moves (optimal)", timeout=60_000)
    readouts = page.evaluate("() => { readoutObserver.disconnect(); return readouts; }")
    assert readouts and not [row for row in readouts if any("NaN" in text for text in row)]
    reported = [row for row in readouts if row[1] != "–"]  # once the first progress event has arrived
    assert reported, readouts
    for bound, nodes, rate, elapsed in reported:
        assert re.fullmatch(r"\d+", bound) and re.fullmatch(r"\d[\d,]*", nodes), (bound, nodes)
        assert re.fullmatch(r"\d[\d,]*", rate) and re.fullmatch(r"\d+\.\d s", elapsed), (rate, elapsed)


def test_editing_the_fragment_of_an_open_page_opens_the_new_position(page: Page, base_url: str):
    page.goto(base_url)
    page.evaluate("location.hash = '#puzzle=sliding&board=1,2/3,0'")
    expect(page.locator("#board .tile")).to_have_count(3)
    assert shown_board(page) == "1 2/3 0"
    expect(page.locator("#size")).to_have_value("2x2")


def test_a_link_typed_while_the_page_rewrites_its_own_is_opened_not_overwritten(ready_page: Page):
    page = ready_page
    # the page writes its link (a method chosen) after the fragment changed and before the hashchange event came
    page.evaluate("""() => {
      location.hash = '#puzzle=sliding&board=1,2/3,0';
      const algorithm = document.getElementById('algorithm');
      algorithm.value = 'astar';
      algorithm.dispatchEvent(new Event('change'));
    }""")
    expect(page.locator("#board .tile")).to_have_count(3)
    assert shown_board(page) == "1 2/3 0"
    assert page.evaluate("location.hash").startswith("#puzzle=sliding&board=1,2/3,0")


def test_the_page_stays_responsive_during_a_long_solve_and_cancel_stops_it(ready_page: Page):
    page = ready_page
    open_fragment(page, HARD_LINK)
    page.click("#solve")
    nodes = page.locator("#progress-nodes")
    expect(nodes).to_have_text(re.compile(r"^\d[\d,.]*( M)?$"), timeout=10_000)
    expect(page.locator("#cancel")).to_be_visible()
    expect(page.locator("#solve")).to_be_disabled()

    # a click is handled at once while the worker searches, and the search goes on
    first = nodes.inner_text()
    started = time.perf_counter()
    page.click("#copy-link")
    expect(page.locator("#copy-message")).not_to_be_empty(timeout=2_000)
    assert time.perf_counter() - started < 1.0
    expect(page.locator("#progress")).to_be_visible()
    expect(nodes).not_to_have_text(first)  # progress keeps coming

    started = time.perf_counter()
    page.click("#cancel")
    expect(page.locator("#solver-message")).to_have_text("Search cancelled.", timeout=5_000)
    assert time.perf_counter() - started < 2.0  # cooperative: no worker restart (that takes seconds)
    expect(page.locator("#progress")).to_be_hidden()
    expect(page.locator("#cancel")).to_be_hidden()
    expect(page.locator("#solve")).to_be_enabled()
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready")

    # moving a tile during a search stops it and the move is made
    page.click("#solve")
    expect(page.locator("#cancel")).to_be_visible()
    tile(page, 12).click()
    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator("#solver-message")).to_have_text("Search stopped: you moved a tile.", timeout=5_000)
    expect(page.locator("#solve")).to_be_enabled()


def test_an_unsolvable_position_is_explained(ready_page: Page):
    page = ready_page
    open_fragment(page, "#puzzle=sliding&board=1,2,3/4,5,6/8,7,0&algorithm=idastar&heuristic=manhattan")
    page.click("#solve")
    message = page.locator("#solver-message")
    expect(message).to_contain_text("can never reach the goal")
    expect(message).to_have_class(re.compile(r"\bexplain\b"))
    expect(page.locator("#result")).to_be_hidden()


def test_a_typed_board_is_checked_and_explained(ready_page: Page):
    page = ready_page
    page.click(".edit summary")
    page.fill("#board-text", "1 2 3/4 5 6/7 8 8")
    page.click("#edit-form button[type=submit]")
    expect(page.locator("#edit-error")).to_contain_text("The position is not valid: tile 8 appears more than once")
    expect(page.locator("#board-text")).to_have_attribute("aria-invalid", "true")
    assert shown_board(page) == DEFAULT
    page.fill("#board-text", "1 2 3/4 5 6/7 8 0")
    page.fill("#goal-text", "1 2/3 0")
    page.click("#edit-form button[type=submit]")
    expect(page.locator("#edit-error")).to_contain_text("the goal is 2x2")
    expect(page.locator("#goal-text")).to_have_attribute("aria-invalid", "true")
    assert shown_board(page) == DEFAULT
    page.fill("#goal-text", "")

    page.fill("#board-text", "2 1 3/4 5 6/7 8 _")
    page.click("#edit-form button[type=submit]")
    expect(page.locator("#edit-error")).to_be_empty()
    assert shown_board(page) == "2 1 3/4 5 6/7 8 0"
    expect(page.locator("#solver-message")).to_contain_text("can never reach the goal")

    page.fill("#board-text", "5 1 2 3/0 6 7 4/9 10 11 8/13 14 15 12")
    page.click("#edit-form button[type=submit]")
    expect(page.locator("#size")).to_have_value("4x4")
    page.click("#solve")
    expect(page.locator("#result-length")).to_have_text("7 moves (optimal)")


def test_hint_highlights_an_optimal_next_move(ready_page: Page):
    page = ready_page
    page.click("#hint")  # the distance first (unless the meter is on already), then the tile to move
    page.click("#hint")
    hinted = page.locator("#board .tile.hint")
    expect(hinted).to_have_count(1)
    expect(page.locator("#solver-message")).to_contain_text("(31 moves to go)")
    assert int(hinted.get_attribute("data-tile")) in (1, 3, 5)  # here every move next to the gap starts an optimal path
    hinted.click()
    expect(page.locator("#move-count")).to_have_text("1")
    expect(page.locator("#board .tile.hint")).to_have_count(0)
    page.click("#hint")  # known from the first answer: the solver is not asked again
    expect(page.locator("#solver-message")).to_contain_text("(30 moves to go)")
    expect(page.locator("#board .tile.hint")).to_have_count(1)


def test_sizes_shuffle_and_reset(ready_page: Page):
    page = ready_page
    for shape, tiles in [("2x2", 3), ("3x4", 11), ("4x4", 15), ("5x5", 24)]:
        page.select_option("#size", shape)
        expect(page.locator("#board .tile")).to_have_count(tiles)
    goal = shown_board(page)
    assert goal == "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0"
    expect(page.locator("#scramble")).to_have_value("40")
    page.click("#shuffle")
    shuffled = shown_board(page)
    assert shuffled != goal and sorted(shuffled.replace("/", " ").split()) == sorted(goal.replace("/", " ").split())
    expect(page.locator("#move-count")).to_have_text("0")
    page.click("#reset")
    assert shown_board(page) == goal
    page.select_option("#size", "3x3")
    expect(page.locator("#scramble")).to_have_value("random")
    for _ in range(3):  # any position, but always a solvable one
        page.click("#shuffle")
        page.click("#solve")
        expect(page.locator("#result-length")).to_have_text(re.compile(r"^\d+ moves? \(optimal\)$"))


def test_tiles_are_labelled_buttons(page: Page, base_url: str):
    page.goto(base_url)
    movable = page.get_by_role("button", name="Tile 5, row 2, column 2, in place: move down", exact=True)
    expect(movable).to_have_attribute("aria-disabled", "false")
    expect(page.get_by_role("button", name="Tile 8, row 1, column 1", exact=True)).to_have_attribute(
        "aria-disabled", "true")
    movable.focus()
    page.keyboard.press("Enter")
    assert shown_board(page) == "8 6 7/2 0 4/3 5 1"


@pytest.mark.parametrize("link", ["", "#puzzle=knights&board=BBB/.../.../WWW"])
def test_a_phone_wide_page_never_scrolls_sideways(browser, base_url: str, link: str):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(base_url + link)
    # Compare's rows come with the solver's catalogue (api.describe()), once it has started
    expect(page.locator("#compare .compare-table tbody tr").first).to_be_attached(timeout=READY_TIMEOUT_MS)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
