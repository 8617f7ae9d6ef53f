"""Play on a phone: swipes and taps by real touch input (the DevTools protocol), tap runs, undo and redo, graduated
hints with the distance meter, the solved message with the player's best, and the famous positions."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from test_app import SHOWN_BOARD_JS, open_fragment

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 90_000
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def phone(browser, base_url):
    """A phone-sized page with touch, the solver started; shared by these tests."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "#puzzle=sliding&board=1,2,3/4,5,6/7,8,0")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.cdp = context.new_cdp_session(page)
    yield page
    context.close()
    assert errors == []


def shown(page: Page) -> str:
    return page.evaluate(SHOWN_BOARD_JS)


def centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def touch(page: Page, points: list[tuple[float, float]]) -> None:
    """A finger down at the first point, moved through the others, lifted at the last (viewport coordinates)."""
    send = page.cdp.send
    send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
    for x, y in points[1:]:
        send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def tap(page: Page, selector: str) -> None:
    page.locator(selector).scroll_into_view_if_needed()
    touch(page, [centre(page, selector)])


def swipe(page: Page, dx: float, dy: float) -> None:
    x, y = centre(page, "#board")
    touch(page, [(x - dx / 2 + dx * i / 8, y - dy / 2 + dy * i / 8) for i in range(9)])


def tile(n: int) -> str:
    return f"#board .tile[data-tile='{n}']"


def fresh(page: Page, board: str) -> None:
    """Open a sliding position afresh, and wait until the board shows it (the page hears of a new fragment later)."""
    open_fragment(page, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=auto")
    page.wait_for_function(f"() => ({SHOWN_BOARD_JS})() === '1 2/3 0'")
    open_fragment(page, f"#puzzle=sliding&board={board}&algorithm=idastar&heuristic=auto")
    text = board.replace(",", " ")
    page.wait_for_function(f"text => ({SHOWN_BOARD_JS})() === text", arg=text)
    expect(page.locator("#move-count")).to_have_text("0")


def test_a_tap_slides_the_whole_run_up_to_the_gap_each_tile_a_move(phone: Page):
    fresh(phone, "1,2,3/4,5,6/7,8,0")
    tap(phone, tile(7))  # two along the gap's row: 8 then 7 slide right
    expect(phone.locator("#move-count")).to_have_text("2")
    assert shown(phone) == "1 2 3/4 5 6/0 7 8"
    tap(phone, tile(1))  # two up the gap's column: 4 then 1 slide down
    expect(phone.locator("#move-count")).to_have_text("4")
    assert shown(phone) == "0 2 3/1 5 6/4 7 8"
    tap(phone, tile(5))  # neither in the gap's row nor its column: nothing moves
    expect(phone.locator("#move-count")).to_have_text("4")
    expect(phone.locator("#play-message")).to_have_text("Tile 5 is not next to the gap.")
    phone.locator(tile(3)).click()  # a mouse click does the same as a tap
    expect(phone.locator("#move-count")).to_have_text("6")
    assert shown(phone) == "2 3 0/1 5 6/4 7 8"


def test_a_swipe_slides_the_tile_next_to_the_gap_and_the_page_stays_put(phone: Page):
    fresh(phone, "8,6,7/2,5,4/3,0,1")
    phone.evaluate("window.scrollTo(0, 120)")
    scroll = phone.evaluate("window.scrollY")
    assert scroll == 120  # the page can scroll: a finger on the board must not scroll it
    swipe(phone, -120, 0)  # left: the tile right of the gap slides left
    expect(phone.locator("#move-count")).to_have_text("1")
    assert shown(phone) == "8 6 7/2 5 4/3 1 0"
    swipe(phone, 0, 120)  # down: the tile above the gap
    expect(phone.locator("#move-count")).to_have_text("2")
    assert shown(phone) == "8 6 7/2 5 0/3 1 4"
    swipe(phone, 0, -120)  # up, as a finger scrolling the page would: tile 4 slides back up
    expect(phone.locator("#move-count")).to_have_text("3")
    assert shown(phone) == "8 6 7/2 5 4/3 1 0"
    assert phone.evaluate("window.scrollY") == scroll
    assert phone.evaluate("visualViewport.scale") == 1
    assert phone.evaluate("getComputedStyle(document.getElementById('board')).touchAction") == "none"


def test_undo_and_redo_by_buttons_and_keys_and_kept_over_a_reload(phone: Page):
    fresh(phone, "1,2,3/4,5,6/7,8,0")
    expect(phone.locator("#undo")).to_be_disabled()
    tap(phone, tile(7))                       # a run of two
    tap(phone, tile(4))                       # one
    expect(phone.locator("#move-count")).to_have_text("3")
    assert shown(phone) == "1 2 3/0 5 6/4 7 8"
    phone.click("#undo")                      # the last tap: one move
    assert shown(phone) == "1 2 3/4 5 6/0 7 8"
    expect(phone.locator("#move-count")).to_have_text("2")
    phone.keyboard.press("Control+z")         # the run: two moves at once
    assert shown(phone) == "1 2 3/4 5 6/7 8 0"
    expect(phone.locator("#move-count")).to_have_text("0")
    expect(phone.locator("#undo")).to_be_disabled()
    phone.keyboard.press("Control+Shift+Z")
    expect(phone.locator("#move-count")).to_have_text("2")
    assert shown(phone) == "1 2 3/4 5 6/0 7 8"
    phone.keyboard.press("Control+y")
    expect(phone.locator("#move-count")).to_have_text("3")
    expect(phone.locator("#redo")).to_be_disabled()
    phone.click("#undo")
    phone.reload()  # kept for the tab: the moves, undo and redo come back
    expect(phone.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    expect(phone.locator("#move-count")).to_have_text("2")
    assert shown(phone) == "1 2 3/4 5 6/0 7 8"
    phone.click("#redo")
    assert shown(phone) == "1 2 3/0 5 6/4 7 8"
    phone.click("#undo")
    phone.click("#undo")
    assert shown(phone) == "1 2 3/4 5 6/7 8 0"
    tap(phone, tile(6))  # a new move clears what was undone
    expect(phone.locator("#redo")).to_be_disabled()
    fresh(phone, "8,6,7/2,5,4/3,0,1")  # a new position starts a new history
    expect(phone.locator("#undo")).to_be_disabled()
    expect(phone.locator("#move-count")).to_have_text("0")


def test_hints_come_in_three_levels_and_the_meter_follows_each_move(phone: Page):
    fresh(phone, "8,6,7/2,5,4/3,0,1")
    meter = phone.locator("#meter")
    expect(meter).to_be_hidden()
    phone.click("#hint")  # level 1: the distance only
    expect(meter).to_have_attribute("data-distance", "31", timeout=60_000)
    expect(meter).to_contain_text("31 moves from the goal")
    expect(phone.locator("#board .tile.hint")).to_have_count(0)
    phone.click("#hint")  # level 2: which tile, not where
    expect(phone.locator("#solver-message")).to_have_text(
        re.compile(r"^Hint: move tile (1|3|5) \(31 moves to go\)\.$"), timeout=60_000)
    expect(phone.locator("#board .tile.hint")).to_have_count(1)
    phone.click("#hint")  # level 3: the move itself
    expect(phone.locator("#solver-message")).to_have_text(
        re.compile(r"^Hint: move tile (1 left|3 right|5 down) \(31 moves to go\)\.$"))
    tap(phone, tile(1))  # every move from here goes closer
    expect(meter).to_have_attribute("data-distance", "30", timeout=60_000)
    expect(meter).to_have_attribute("data-trend", "closer")
    expect(meter).to_contain_text("closer (was 31)")
    tap(phone, tile(1))  # straight back: farther
    expect(meter).to_have_attribute("data-distance", "31", timeout=60_000)
    expect(meter).to_have_attribute("data-trend", "farther")
    expect(meter).to_contain_text("farther (was 30)")
    # the meter stays on: the next Hint names the tile at once, and a Solve the user starts goes first
    expect(phone.locator("#hint")).to_have_text("Hint: which tile?")
    tap(phone, tile(3))
    phone.click("#solve")
    expect(phone.locator("#result-length")).to_have_text("30 moves (optimal)", timeout=60_000)
    expect(meter).to_have_attribute("data-distance", "30", timeout=60_000)
    fresh(phone, "1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,23,0,24")
    expect(meter).to_contain_text("not available on this board")
    fresh(phone, "1,2,3,4,5/6,7,8,9,10/11,12,13,0,14")  # 3x5: 15 cells, but no tables: not cheap
    expect(meter).to_contain_text("not available on this board")


def test_solving_it_yourself_says_the_shortest_and_keeps_the_best(phone: Page):
    phone.evaluate("localStorage.clear()")
    fresh(phone, "1,2,3/4,5,6/7,0,8")
    expect(phone.locator("#best-score")).to_be_hidden()
    tap(phone, tile(7))  # away from the goal...
    tap(phone, tile(8))  # ...and back along the row: 7 and 8 slide left
    expect(phone.locator("#play-message")).to_have_text("Solved in 3 moves; the shortest is 1. Your best here!")
    expect(phone.locator("#best-score")).to_have_text("Your best for this position: 3 moves.")
    fresh(phone, "1,2,3/4,5,6/7,0,8")
    expect(phone.locator("#best-score")).to_have_text("Your best for this position: 3 moves.")
    tap(phone, tile(8))
    expect(phone.locator("#play-message")).to_have_text("Solved in 1 move; the shortest is 1. Your best here!")
    expect(phone.locator("#best-score")).to_have_text("Your best for this position: 1 move.")
    fresh(phone, "1,2,3/4,5,6/7,0,8")
    tap(phone, tile(7))
    tap(phone, tile(8))
    expect(phone.locator("#play-message")).to_have_text("Solved in 3 moves; the shortest is 1. Your best here is 1.")
    assert phone.evaluate("Object.keys(localStorage).filter(k => k.startsWith('slidelab.best|')).length") == 1


def test_famous_positions_load_with_their_source_and_length(phone: Page):
    fresh(phone, "1,2,3/4,5,6/7,8,0")
    phone.select_option("#famous", label="Korf #1, 57 moves")
    expect(phone.locator("#size")).to_have_value("4x4")
    assert shown(phone) == "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"
    expect(phone.locator("#famous-note")).to_contain_text("57 moves at the fewest")
    expect(phone.locator("#famous-note")).to_contain_text("Korf")
    assert "goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15" in phone.evaluate("location.hash")
    phone.select_option("#famous", label="Hardest 3x4, 53 moves")
    assert shown(phone) == "0 3 2 1/8 7 6 5/4 11 10 9"
    phone.select_option("#famous", label="8-puzzle, 31 moves (the second of two)")
    assert shown(phone) == "6 4 7/8 5 0/3 2 1"
    phone.select_option("#famous", label="Knight exchange, 22 moves (1 of 3)")
    expect(phone.locator("#puzzle-type")).to_have_value("knights")
    assert "board=..B/BW./.BW/W.." in phone.evaluate("decodeURIComponent(location.hash)")
    expect(phone.locator("#famous-note")).to_contain_text("22 moves at the fewest")
    phone.locator("#famous").focus()  # from the keyboard: the arrows step through the list, one position each
    phone.keyboard.press("ArrowDown")
    expect(phone.locator("#famous")).to_have_value("5")
    assert "board=" in phone.evaluate("location.hash")
    expect(phone.locator("#famous-note")).to_contain_text("Knight exchange, 22 moves (2 of 3)")


def test_knights_play_by_tap_to_select_and_tap_to_move(phone: Page):
    open_fragment(phone, "#puzzle=knights&board=BBB/.../.../WWW&algorithm=idastar&heuristic=auto")
    for cell in (0, 1, 2):  # the page has heard of the link: the black knights are on the top row
        expect(phone.locator(f"#token-board .piece[data-cell='{cell}']")).to_have_attribute("data-kind", "B")
    expect(phone.locator("#move-count")).to_have_text("0")
    assert phone.evaluate("getComputedStyle(document.getElementById('token-board')).touchAction") == "none"
    tap(phone, "#token-board .piece[data-cell='0']")
    expect(phone.locator("#token-board .piece[data-cell='0']")).to_have_attribute("aria-pressed", "true")
    tap(phone, "#token-board .square[data-cell='5']")  # a knight's move from a4 to c3
    expect(phone.locator("#move-count")).to_have_text("1")
    expect(phone.locator("#token-board .piece[data-cell='5']")).to_have_count(1)
    expect(phone.locator("#token-board .piece[data-cell='0']")).to_have_count(0)
    phone.click("#undo")
    expect(phone.locator("#token-board .piece[data-cell='0']")).to_have_count(1)
    expect(phone.locator("#move-count")).to_have_text("0")


def test_play_goes_on_where_the_browser_keeps_nothing(browser, base_url):
    context = browser.new_context(viewport=PHONE)
    context.add_init_script("""for (const name of ['localStorage', 'sessionStorage']) {
      Object.defineProperty(window, name, { get() { throw new DOMException('storage is off', 'SecurityError'); } });
    }""")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base_url + "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.locator(tile(7)).click()
    page.click("#undo")
    page.locator(tile(8)).click()
    expect(page.locator("#play-message")).to_have_text("Solved in 1 move; the shortest is 1.")
    expect(page.locator("#best-score")).to_be_hidden()
    context.close()
    assert errors == []
