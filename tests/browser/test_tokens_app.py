"""Token puzzles in the app: the knight exchange played, solved and animated; links; the editor; explore."""

from __future__ import annotations

import re

import pytest
from conftest import ready_page
from playwright.sync_api import Page, expect

from slidelab import api

pytestmark = pytest.mark.browser

KNIGHTS_LINK = "#puzzle=knights&board=BBB/.../.../WWW&algorithm=idastar&heuristic=auto"
CUSTOM_LINK = "#puzzle=tokens&board=AB%23/..%23/...&goal=..%23/..%23/.BA&rule=king&algorithm=idastar&heuristic=auto"

SHOWN_JS = """selector => {
  const board = document.querySelector(selector);
  const cols = Number(board.style.getPropertyValue('--cols'));
  const cells = [...board.querySelectorAll('.square')].map(s => (s.classList.contains('hole') ? '#' : '.'));
  for (const piece of board.querySelectorAll('.piece')) cells[Number(piece.dataset.cell)] = piece.dataset.kind;
  const rows = [];
  for (let i = 0; i < cells.length; i += cols) rows.push(cells.slice(i, i + cols).join(''));
  return rows.join('/');
}"""


def shown(page: Page, selector: str = "#token-board") -> str:
    """The arrangement the board shows (token board text), read from where each piece element is placed."""
    return page.evaluate(SHOWN_JS, selector)


def piece(page: Page, cell: int):
    return page.locator(f"#token-board .piece[data-cell='{cell}']")


def square(page: Page, cell: int):
    return page.locator(f"#token-board .square[data-cell='{cell}']")


def open_fragment(page: Page, fragment: str) -> None:
    page.evaluate("fragment => { location.hash = fragment; }", fragment)
    page.wait_for_function("fragment => location.hash === fragment", arg=fragment)


@pytest.fixture(scope="module")
def app(browser, base_url):
    """One page of the app with the solver started, shared by these tests."""
    with ready_page(browser, base_url, KNIGHTS_LINK, viewport={"width": 1280, "height": 1000}) as page:
        yield page


@pytest.fixture
def knights(app):
    """The shared page opened afresh on the knight exchange."""
    open_fragment(app, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=manhattan")
    open_fragment(app, KNIGHTS_LINK)
    return app


def test_the_knight_exchange_is_a_chess_board_with_knights(knights: Page):
    expect(knights.locator("#puzzle-type")).to_have_value("knights")
    expect(knights.locator("#board")).to_be_hidden()
    expect(knights.locator("#size")).to_be_hidden()
    assert shown(knights) == "BBB/.../.../WWW"
    assert shown(knights, "#token-goal-board") == "WWW/.../.../BBB"
    expect(knights.locator("#token-board button.piece")).to_have_count(6)
    expect(piece(knights, 0)).to_have_text("♞\ufe0e")
    # a1 (bottom left) is dark, as on a chessboard; squares alternate
    expect(square(knights, 9)).to_have_class(re.compile(r"\bdark\b"))
    expect(square(knights, 10)).to_have_class(re.compile(r"\blight\b"))
    expect(piece(knights, 0)).to_have_attribute("aria-label", "Black knight on a4: 2 moves")


def test_a_legal_move_is_played_by_clicking_and_an_illegal_target_is_refused(knights: Page):
    piece(knights, 0).click()
    expect(piece(knights, 0)).to_have_attribute("aria-pressed", "true")
    targets = knights.eval_on_selector_all("#token-board .square.target", "els => els.map(e => Number(e.dataset.cell))")
    assert sorted(targets) == [5, 7]  # a4 reaches c3 and b2
    square(knights, 4).click()  # b3: empty but not a knight's move away
    expect(knights.locator("#play-message")).to_have_text("The piece on a4 cannot reach b3 in one knight move.")
    assert shown(knights) == "BBB/.../.../WWW"
    expect(knights.locator("#move-count")).to_have_text("0")
    piece(knights, 0).click()
    square(knights, 5).click()
    expect(knights.locator("#move-count")).to_have_text("1")
    assert shown(knights) == ".BB/..B/.../WWW"
    expect(knights.locator("#token-board .square.last")).to_have_count(2)
    knights.wait_for_function("() => location.hash.startsWith('#puzzle=knights&board=.BB/..B/.../WWW&')")
    knights.locator("#reset").click()
    assert shown(knights) == "BBB/.../.../WWW"
    expect(knights.locator("#move-count")).to_have_text("0")


def test_solving_shows_16_moves_with_their_notation_and_the_animation_ends_on_the_goal(knights: Page):
    knights.locator("#solve").click()
    expect(knights.locator("#result-length")).to_have_text("16 moves (optimal)", timeout=60_000)
    names = knights.locator("#move-list button").all_inner_texts()
    assert len(names) == 16 and all(re.fullmatch(r"[a-c][1-4]-[a-c][1-4]", name) for name in names)
    expect(knights.locator("#play-step")).to_have_text("Step 0 of 16")
    knights.locator("#play-speed").fill("20")
    knights.locator("#play-toggle").click()
    expect(knights.locator("#play-step")).to_have_text("Step 16 of 16", timeout=10_000)
    assert shown(knights) == "WWW/.../.../BBB"
    expect(knights.locator("#token-board")).to_have_class(re.compile(r"\bsolved\b"))
    # stepping back replays the moves named in the list
    knights.locator("#move-list button[data-step='1']").click()
    first = names[0]
    assert shown(knights) != "BBB/.../.../WWW"
    expect(knights.locator("#move-list button[data-step='1']")).to_have_attribute("aria-label", f"Step 1: {first}")


def test_a_hint_marks_the_piece_and_the_square_of_a_shortest_solution(knights: Page):
    knights.locator("#hint").click()  # the distance (the distance meter)
    expect(knights.locator("#meter")).to_have_attribute("data-distance", "16", timeout=60_000)
    expect(knights.locator("#hint")).to_have_text("Hint: which piece?")  # what the next press gives
    knights.locator("#hint").click()  # the piece to move, not where
    expect(knights.locator("#solver-message")).to_have_text(
        re.compile(r"^Hint: move the (black|white) knight on [a-c][1-4] \(16 moves to go\)\.$"), timeout=60_000)
    expect(knights.locator("#token-board .square.hint-target")).to_have_count(0)
    knights.locator("#hint").click()  # the move
    expect(knights.locator("#solver-message")).to_have_text(
        re.compile(r"^Hint: move the (black|white) knight [a-c][1-4]-[a-c][1-4] \(16 moves to go\)\.$"), timeout=60_000)
    expect(knights.locator("#token-board .piece.hint")).to_have_count(1)
    expect(knights.locator("#token-board .square.hint-target")).to_have_count(1)
    name = re.search(r"[a-c][1-4]-[a-c][1-4]", knights.locator("#solver-message").inner_text()).group()
    hinted = knights.locator("#token-board .piece.hint")
    expect(hinted).to_be_focused()
    expect(hinted).to_have_attribute("aria-label", re.compile(f" on {name[:2]}: "))


def test_a_shared_link_restores_a_custom_puzzle(app: Page):
    open_fragment(app, CUSTOM_LINK)
    expect(app.locator("#puzzle-type")).to_have_value("tokens")
    assert shown(app) == "AB#/..#/..."
    assert shown(app, "#token-goal-board") == "..#/..#/.BA"
    expect(app.locator("#token-board .square.hole")).to_have_count(2)
    expect(piece(app, 0)).to_have_attribute("aria-label", "Piece A on a3: 2 moves")  # a letter on the glyph
    expect(piece(app, 0).locator(".letter")).to_have_text("A")
    expect(piece(app, 1)).to_have_attribute("aria-label", "Black king on b3: 2 moves")
    assert app.evaluate("location.hash") == CUSTOM_LINK  # written back character for character
    expect(app.locator("#token-editor-body select[data-role='rule']")).to_have_value("king")
    app.locator("#solve").click()
    expect(app.locator("#result-length")).to_have_text("4 moves (optimal)", timeout=30_000)


def test_a_malformed_token_link_is_explained_and_the_default_puzzle_shown(app: Page):
    app.evaluate("() => { location.hash = '#puzzle=knights&board=BBB/.../.../WWW&rule=king'; }")
    expect(app.locator("#notice-text")).to_contain_text("the knights puzzle always uses knight moves")
    expect(app.locator("#puzzle-type")).to_have_value("sliding")
    expect(app.locator("#board .tile")).to_have_count(8)
    app.locator("#notice-close").click()


def test_the_editor_builds_a_small_custom_puzzle_that_solves(app: Page):
    open_fragment(app, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=manhattan")
    app.locator("#puzzle-type").select_option("tokens")  # from a sliding puzzle: the first custom puzzle
    editor = app.locator("#token-editor-body")
    expect(editor).to_be_visible()
    start = editor.locator("[data-side='start'] button")
    goal = editor.locator("[data-side='goal'] button")
    editor.locator("select[data-role='rows']").select_option("2")
    editor.locator("select[data-role='cols']").select_option("3")
    editor.locator("select[data-role='rule']").select_option("orthogonal")
    expect(start).to_have_count(6)
    # the first custom puzzle, B.W/.#./W.B, cut to two rows: B.W/.#. to W.B/.#.
    expect(editor.locator("[data-role='text']")).to_have_text("B.W/.#.  →  W.B/.#.")
    start.nth(4).click()  # cycling a removed square makes it empty, in the goal too
    expect(goal.nth(4)).to_have_attribute("data-kind", ".")
    goal.nth(1).click()   # cycle: empty -> B, one B too many
    expect(editor.locator("[data-role='message']")).to_have_text(
        "The start has 1 B, 1 W but the goal has 2 B, 1 W.")
    expect(editor.locator("[data-role='play']")).to_be_disabled()
    editor.get_by_text("Empty", exact=True).click()
    goal.nth(1).click()
    expect(editor.locator("[data-role='message']")).to_have_text(
        re.compile(r"^Ready to play: \d+ legal moves from the start\.$"))
    editor.locator("[data-role='play']").click()
    assert shown(app) == "B.W/..."
    expected = api.solve({"puzzle": "tokens", "board": "B.W/...", "goal": "W.B/...", "rule": "orthogonal"})
    app.wait_for_function(
        "() => location.hash === "
        "'#puzzle=tokens&board=B.W/...&goal=W.B/...&rule=orthogonal&algorithm=idastar&heuristic=auto'")
    app.locator("#solve").click()
    expect(app.locator("#result-length")).to_have_text(f"{expected['length']} moves (optimal)", timeout=30_000)
    app.locator("#play-last").click()
    assert shown(app) == "W.B/..."


def explore(page: Page) -> None:
    # the last result's totals are cleared first: a quick exploration may end before its running state can be seen,
    # and the totals of the previous one must not be read for it
    page.eval_on_selector("#explore .explore-totals", "totals => totals.replaceChildren()")
    page.locator("#explore .start").click()
    expect(page.locator("#explore .start")).to_be_enabled(timeout=60_000)  # the exploration has finished
    expect(page.locator("#explore .explore-totals div, #explore .message:not(:empty)").first).to_be_visible()


def totals(page: Page) -> dict[str, str]:
    """Explore's totals by name, but the time."""
    items = page.eval_on_selector_all(
        "#explore .explore-totals div", "items => items.map(i => [i.firstChild.textContent, i.lastChild.textContent])")
    return {name: value for name, value in items if name != "Time"}


def test_explore_counts_the_knight_exchange_from_its_start_and_a_farthest_arrangement_loads_and_solves(knights: Page):
    expected = api.explore({"puzzle": "knights"})
    assert (expected["states"], expected["max_depth"], expected["farthest_count"]) == (18480, 22, 3)
    expect(knights.locator("#explore .intro")).to_contain_text("reached from the start position")
    explore(knights)
    expect(knights.locator("#explore .message")).to_have_text("")
    assert totals(knights) == {"Arrangements": "18,480", "Max distance": "22 moves", "Farthest": "3"}
    expect(knights.locator("#explore .explore-caption")).to_have_text(
        "Knight exchange (knight moves), start BBB/.../.../WWW, goal WWW/.../.../BBB")
    expect(knights.locator("#explore .explore-goal")).to_have_text(
        "The goal is among them, 16 moves from the start: its shortest solution is 16 moves.")
    expect(knights.locator("#explore .chart-title")).to_have_text(
        "Arrangements at each distance from the start position")
    expect(knights.locator("#explore .explore-chart rect.bar")).to_have_count(23)  # distances 0 to 22
    expect(knights.locator("#explore .farthest-note")).to_have_text(
        "All 3 are 22 moves from the start position. "
        "Choose one to load it onto the board as the start (the goal stays).")
    farthest = knights.locator("#explore .farthest button")
    expect(farthest).to_have_count(3)
    boards = farthest.evaluate_all("buttons => buttons.map(b => b.dataset.board)")
    assert boards == expected["farthest"]
    for i, board in enumerate(boards):  # each drawn as a small board, like the goal's
        assert shown(knights, f"#explore .farthest li:nth-child({i + 1}) .token-board") == board

    solution = api.solve({"puzzle": "knights", "board": boards[0]})
    assert solution["length"] == 8  # as `slidelab solve --puzzle knights ..W/WB./.WB/B.. --json` says
    farthest.nth(0).click()
    assert shown(knights) == boards[0]
    assert shown(knights, "#token-goal-board") == "WWW/.../.../BBB"
    expect(knights.locator("#puzzle-type")).to_have_value("knights")
    knights.wait_for_function(
        "board => location.hash === `#puzzle=knights&board=${board}&algorithm=idastar&heuristic=auto`", arg=boards[0])
    knights.locator("#solve").click()
    expect(knights.locator("#result-length")).to_have_text("8 moves (optimal)", timeout=60_000)
    knights.locator("#play-last").click()
    assert shown(knights) == "WWW/.../.../BBB"


def test_explore_on_custom_token_puzzles_says_where_the_goal_is_and_refuses_a_board_too_large(app: Page):
    open_fragment(app, CUSTOM_LINK)
    explore(app)
    assert totals(app) == {"Arrangements": "42", "Max distance": "4 moves", "Farthest": "6"}
    expect(app.locator("#explore .explore-caption")).to_have_text(
        "Custom token puzzle (king moves), start AB#/..#/..., goal ..#/..#/.BA")
    expect(app.locator("#explore .explore-goal")).to_contain_text("4 moves from the start")
    expect(app.locator("#explore .farthest .token-board")).to_have_count(6)
    expect(app.locator("#explore .farthest .token-board .square.hole")).to_have_count(12)  # two holes on each
    assert app.locator("#explore .farthest button").nth(0).get_attribute("data-board") == "..#/..#/BA."
    app.locator("#explore .farthest button").nth(0).click()
    assert shown(app) == "..#/..#/BA."
    assert shown(app, "#token-goal-board") == "..#/..#/.BA"
    expect(app.locator("#token-editor-body select[data-role='rule']")).to_have_value("king")  # the rule stays
    app.wait_for_function(
        "() => location.hash.startsWith('#puzzle=tokens&board=..%23/..%23/BA.&goal=..%23/..%23/.BA&rule=king&')")

    # an unreachable goal: the pieces of one row cannot pass each other
    open_fragment(app, "#puzzle=tokens&board=ABC...&goal=BAC...&rule=orthogonal&algorithm=idastar&heuristic=auto")
    explore(app)
    assert totals(app)["Arrangements"] == "20"
    expect(app.locator("#explore .explore-goal")).to_have_text(
        "The goal is not among them: it cannot be reached from the start.")

    open_fragment(app, "#puzzle=tokens&board=BBBBB/WWWWW/RRRRR/...../GGGGG&goal=GGGGG/WWWWW/RRRRR/...../BBBBB"
                  "&rule=king&algorithm=idastar&heuristic=auto")
    explore(app)
    expect(app.locator("#explore .message")).to_have_text(
        "Could not explore: this puzzle has 623,360,743,125,120 positions, more than the 2,000,000 that explore may "
        "visit in pure Python; try a smaller board.")
    expect(app.locator("#solve")).to_be_enabled()

    open_fragment(app, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=manhattan")
    expect(app.locator("#explore .intro")).to_contain_text("by a breadth-first search from the goal")
    expect(app.locator("#explore .explore-result")).to_be_hidden()  # the token puzzle's result went with it
    expect(app.locator("#explore .message")).to_have_text("")


@pytest.fixture
def share(page: Page, base_url: str) -> Page:
    """A page of the site that does not start the solver, with share.js loaded as `window.m`."""
    page.goto(base_url + "build-info.json")
    page.evaluate("async () => { window.m = await import('./js/share.js'); }")
    return page


@pytest.mark.parametrize("link", [
    "#puzzle=knights&board=BBB/.../.../WWW",
    "#puzzle=knights&board=WBB/.../.../BWW&goal=BBB/.../.../WWW&algorithm=astar&heuristic=matching",
    "#puzzle=guarini&board=B.B/.../W.W",
    CUSTOM_LINK,
    "#puzzle=tokens&board=AbZ/.../...&goal=.../.../AbZ&rule=orthogonal",
])
def test_a_token_link_round_trips_exactly(share: Page, link: str):
    assert share.evaluate("link => m.formatFragment(m.parseFragment(link))", link) == link


def test_a_token_link_holds_board_goal_and_rule(share: Page):
    parsed = share.evaluate("link => m.parseFragment(link)", CUSTOM_LINK)
    assert parsed["puzzle"] == "tokens"
    assert parsed["board"] == {"rows": 3, "cols": 3, "cells": list("AB#..#..."), "rule": "king"}
    assert parsed["goal"] == {"rows": 3, "cols": 3, "cells": list("..#..#.BA"), "rule": "king"}
    # a preset's own goal and rule are accepted and left out when written again
    assert share.evaluate("m.formatFragment(m.parseFragment("
                          "'#puzzle=knights&board=BBB/.../.../WWW&goal=WWW/.../.../BBB&rule=knight'))") == (
        "#puzzle=knights&board=BBB/.../.../WWW")


@pytest.mark.parametrize(("link", "reason"), [
    ("#puzzle=knights&board=BBB/.../.../WWW&rule=king", "the knights puzzle always uses knight moves"),
    ("#puzzle=tokens&board=AB/..&goal=BA/..", "the link does not say how the pieces move (rule)"),
    ("#puzzle=tokens&board=AB/..&rule=king", "the link has no goal"),
    ("#puzzle=tokens&board=AB/..&goal=BA/..&rule=bishop", "'bishop' is not a move rule"),
    ("#puzzle=tokens&board=AB/..&goal=BB/..&rule=king", "the start has 1 A, 1 B but the goal has 2 B"),
    ("#puzzle=tokens&board=AB/..&goal=BA/.%23&rule=king", "square b1 is removed in one of the start and goal only"),
    ("#puzzle=tokens&board=AB/...&goal=BA/..&rule=king", "row 2 has 3 cells but row 1 has 2"),
    ("#puzzle=tokens&board=A B/..&goal=BA/..&rule=king", "must be rows of letters"),
    ("#puzzle=tokens&board=../..&goal=../..&rule=king", "the board has no pieces"),
    ("#puzzle=guarini&board=B.B/.../W.W&goal=W.W/.../B.B/...", "the goal does not have the same shape"),
    ("#puzzle=sliding&board=1,2/3,0&rule=king", "a sliding puzzle has no move rule"),
    ("#puzzle=toString&board=AB", "'toString' is not a puzzle type this page knows"),
])
def test_a_malformed_token_link_is_rejected_with_a_reason(share: Page, link: str, reason: str):
    error = share.evaluate("""link => {
      try { m.parseFragment(link); return null; } catch (e) { return [e.constructor.name, e.message]; }
    }""", link)
    assert error is not None and error[0] == "LinkError"
    assert reason in error[1]
