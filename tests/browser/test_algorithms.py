"""The algorithm lab in a real Chromium: the method selector and the link, the statistics panel, IDA*/IDDFS
iterations as they happen, the comparison of several methods, and exploring a whole state space."""

from __future__ import annotations

import re

import pytest
from conftest import ready_page
from playwright.sync_api import Page, expect
from test_app import open_fragment, shown_board

from slidelab import api

pytestmark = pytest.mark.browser

HARDEST = "8 6 7/2 5 4/3 0 1"  # 31 moves, one of the two farthest 3x3 positions
FARTHEST = {"8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"}
MEDIUM_LINK = "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=idastar&heuristic=auto"  # 25 moves
EASY_LINK = "#puzzle=sliding&board=0,8,2/3,4,5/1,7,6&algorithm=idastar&heuristic=auto"  # 20 moves
DEFAULT_LINK = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=auto"
KNIGHTS_LINK = "#puzzle=knights&board=BBB/.../.../WWW&algorithm=idastar&heuristic=auto"  # 16 moves
HEURISTICS = {kind: [h["name"] for h in api.describe()["heuristics"]  # what the page offers, in the engine's order
                     if kind in h["puzzles"] and h["browser"]] for kind in ("sliding", "tokens")}
SLIDING_ONLY = set(HEURISTICS["sliding"]) - set(HEURISTICS["tokens"])  # misplaced, manhattan, ..., pdb


@pytest.fixture(scope="module")
def lab(browser, base_url):
    """One page with the solver started, shared by these tests."""
    with ready_page(browser, base_url, viewport={"width": 1280, "height": 900}) as page:
        yield page


def stat(page: Page, name: str):
    return page.locator(f"#stats-panel [data-stat='{name}'] dd")


def iteration_rows(page: Page) -> list[list[str]]:
    return page.eval_on_selector_all(
        "#stats-panel tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def test_the_default_is_ida_star_with_auto_and_the_answer_says_what_auto_chose(lab: Page):
    assert lab.evaluate("location.hash") == DEFAULT_LINK
    expect(lab.locator("#algorithm")).to_have_value("idastar")
    expect(lab.locator("#heuristic")).to_have_value("auto")
    expect(lab.locator("#method")).to_contain_text("IDA*: iterative deepening")
    lab.click("#solve")
    expect(lab.locator("#result-length")).to_have_text("31 moves (optimal)")
    expect(lab.locator("#stats-panel .stats-method")).to_have_text(
        "IDA* · Strongest available (auto chose pattern databases)")
    expect(stat(lab, "length")).to_have_text("31 moves")
    expect(stat(lab, "optimal")).to_have_text("yes")
    expect(stat(lab, "stored")).to_have_text("32")  # the path of 31 moves and its start
    rows = iteration_rows(lab)
    assert rows[-1][0] == "31" and [int(r[0]) for r in rows] == sorted(int(r[0]) for r in rows)
    assert stat(lab, "iterations").text_content() == str(len(rows))
    expect(stat(lab, "open_peak")).to_have_count(0)  # IDA* keeps no open list


def test_the_selector_sets_the_algorithm_used_and_the_link_and_the_statistics_are_the_engines(lab: Page):
    open_fragment(lab, MEDIUM_LINK)
    lab.select_option("#algorithm", "astar")
    lab.select_option("#heuristic", "manhattan")
    lab.wait_for_function("location.hash.endsWith('&algorithm=astar&heuristic=manhattan')")
    expect(lab.locator("#method")).to_contain_text("A*: always continues")
    lab.click("#solve")
    expect(lab.locator("#result-length")).to_have_text("25 moves (optimal)")
    expect(lab.locator("#stats-panel .stats-method")).to_have_text("A* · Manhattan distance")
    # the same figures as `slidelab solve "7 8 2/6 3 4/5 0 1" --algorithm astar --heuristic manhattan`
    for name, value in [("length", "25 moves"), ("expanded", "875"), ("stored", "1,392"), ("open_peak", "527")]:
        expect(stat(lab, name)).to_have_text(value)
    expect(lab.locator("#stats-panel .iterations")).to_be_hidden()

    lab.select_option("#algorithm", "bfs")
    expect(lab.locator("#heuristic-field")).to_be_hidden()  # breadth-first search uses no heuristic
    lab.wait_for_function("location.hash.includes('&algorithm=bfs')")
    lab.click("#solve")
    expect(lab.locator("#stats-panel .stats-method")).to_have_text("Breadth-first search")
    expect(stat(lab, "length")).to_have_text("25 moves")
    expect(stat(lab, "open_peak")).to_have_count(1)

    open_fragment(lab, "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=iddfs&heuristic=linear_conflict")
    expect(lab.locator("#algorithm")).to_have_value("iddfs")
    expect(lab.locator("#heuristic-field")).to_be_hidden()
    lab.select_option("#algorithm", "idastar")
    expect(lab.locator("#heuristic")).to_have_value("linear_conflict")  # restored from the link


def full_hint(page: Page) -> None:
    """Press Hint up to its third level, the move itself (the first gives the distance, the second the tile)."""
    for _ in range(3):
        if page.locator("#hint").get_attribute("data-level") != "3":
            page.click("#hint", timeout=60_000)
    expect(page.locator("#hint")).to_have_attribute("data-level", "3")


def test_a_hint_is_always_from_a_shortest_solution_whatever_method_is_selected(lab: Page):
    # the quick solver (not shortest) and IDDFS (minutes) are selected: the hint still comes from IDA* at once;
    # positions no other test solves, so the page has no solution of them in memory
    for board, length, algorithm in (("5,0,8/4,2,1/7,3,6", 21, "quick"), ("3,1,2/6,4,5/0,7,8", 22, "iddfs")):
        open_fragment(lab, f"#puzzle=sliding&board={board}&algorithm={algorithm}&heuristic=auto")
        full_hint(lab)
        expect(lab.locator("#solver-message")).to_have_text(
            re.compile(rf"^Hint: move tile \d+ (up|down|left|right) \({length} moves to go\)\.$"), timeout=30_000)
        expect(lab.locator("#board .tile.hint")).to_have_count(1)
        expect(lab.locator("#algorithm")).to_have_value(algorithm)  # the choice is left as it was
    # beyond the 15-puzzle a shortest solution is out of reach: the hint says it comes from a quick solution
    open_fragment(lab, "#puzzle=sliding&board=1,2,3,4,5/6,7,8,9,10/11,12,13,14,15/16,17,18,19,20/21,22,0,23,24"
                       "&algorithm=idastar&heuristic=auto")
    full_hint(lab)
    expect(lab.locator("#solver-message")).to_have_text(re.compile(
        r"^Hint: move tile 23 left \(from a 2-move solution found quickly, not necessarily shortest\)\.$"),
        timeout=30_000)


def test_iddfs_lists_its_iterations_as_they_happen_and_stops_on_cancel(lab: Page):
    open_fragment(lab, "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=iddfs&heuristic=auto")
    lab.click("#solve")
    # IDDFS needs minutes for 31 moves; its first contours (depth 1, 3, 5, ...) are listed while it searches
    lab.wait_for_function("document.querySelectorAll('#stats-panel tbody tr').length >= 8", timeout=60_000)
    expect(lab.locator("#cancel")).to_be_visible()
    rows = iteration_rows(lab)[:8]
    assert [r[0] for r in rows] == ["1", "3", "5", "7", "9", "11", "13", "15"]
    assert [r[1] for r in rows[:4]] == ["1", "9", "33", "105"]
    assert rows[3][2] == "3.2"  # 105 / 33
    lab.click("#cancel")
    expect(lab.locator("#solver-message")).to_have_text("Search cancelled.")
    expect(lab.locator("#solve")).to_be_enabled()


def options(page: Page, selector: str) -> list[str]:
    return page.eval_on_selector_all(f"{selector} option", "options => options.map(o => o.value)")


def compare_rows(page: Page) -> list[dict]:
    return page.eval_on_selector_all("#compare tbody tr", """rows => rows.map(r => ({
      algorithm: r.dataset.algorithm, heuristic: r.dataset.heuristic, status: r.dataset.status,
      cells: [...r.cells].slice(0, 5).map(c => c.textContent) }))""")


def set_runs(page: Page, runs: list[tuple[str, str | None]]) -> None:
    # the default pairs come with the solver's catalogue: wait for it, or they would arrive after the list is emptied
    expect(page.locator("#compare .add-run")).to_be_enabled(timeout=60_000)
    while page.locator("#compare tbody button[data-remove]").count():
        page.locator("#compare tbody button[data-remove]").first.click()
    expect(page.locator("#compare .start")).to_be_disabled()  # nothing to compare
    for algorithm, heuristic in runs:
        page.select_option("#compare .add-algorithm", algorithm)
        if heuristic:
            page.select_option("#compare .add-heuristic", heuristic)
        page.click("#compare .add-run")
    assert [(r["algorithm"], r["status"]) for r in compare_rows(page)] == [(a, "waiting") for a, _ in runs]


def wait_compared(page: Page) -> None:
    expect(page.locator("#compare .message")).to_contain_text("runs finished", timeout=60_000)


def test_compare_runs_each_method_in_turn_with_a_table_and_a_chart(lab: Page):
    open_fragment(lab, EASY_LINK)
    rows = compare_rows(lab)
    assert len(rows) == 7 and {r["algorithm"] for r in rows} == {"bfs", "bidirectional", "iddfs", "astar", "idastar"}
    lab.click("#compare .start")
    expect(lab.locator("#solve")).to_be_disabled()  # one search at a time
    wait_compared(lab)
    expect(lab.locator("#compare .message")).to_have_text("7 of 7 runs finished.")
    expect(lab.locator("#solve")).to_be_enabled()
    rows = compare_rows(lab)
    assert [r["status"] for r in rows] == ["done"] * 7
    assert [r["cells"][1] for r in rows] == ["20"] * 7  # every method finds the 20-move optimum
    by_method = {(r["algorithm"], r["heuristic"]): r["cells"] for r in rows}
    assert by_method[("iddfs", "auto")][2] == "64,494"  # the engine's count for this position
    assert by_method[("idastar", "manhattan")][3] == "21"  # IDA* stores only its path
    expect(lab.locator("#compare caption")).to_have_text("Comparison of the methods on 0 8 2/3 4 5/1 7 6")
    expect(lab.locator("#compare .compare-chart rect.bar")).to_have_count(7)
    expect(lab.locator("#compare .compare-chart svg")).to_have_attribute("aria-label", re.compile("log scale"))


def test_a_run_that_hits_its_limit_says_so_and_runs_can_be_skipped_or_stopped(lab: Page):
    open_fragment(lab, DEFAULT_LINK)
    set_runs(lab, [("iddfs", None), ("idastar", "manhattan")])
    lab.select_option("#compare .time-limit", "2")
    lab.click("#compare .start")
    wait_compared(lab)
    iddfs, idastar = compare_rows(lab)
    assert iddfs["status"] == "limit" and iddfs["cells"][1] == "time limit"
    assert iddfs["cells"][2].startswith("≥ ")  # the nodes it had expanded when the limit stopped it
    assert idastar["status"] == "done" and idastar["cells"][1] == "31"
    expect(lab.locator("#compare .compare-chart rect.bar.partial")).to_have_count(1)

    lab.select_option("#compare .time-limit", "30")
    lab.click("#compare .start")
    expect(lab.locator("#compare tbody tr[data-status='running'][data-algorithm='iddfs']")).to_have_count(1)
    lab.click("#compare .skip")
    wait_compared(lab)
    assert [r["status"] for r in compare_rows(lab)] == ["skipped", "done"]

    lab.click("#compare .start")
    expect(lab.locator("#compare tbody tr[data-status='running'][data-algorithm='iddfs']")).to_have_count(1)
    lab.click("#compare .stop")
    wait_compared(lab)
    assert [r["status"] for r in compare_rows(lab)] == ["stopped", "not run"]
    expect(lab.locator("#compare .message")).to_have_text("0 of 2 runs finished.")


def test_explore_3x3_counts_every_position_and_a_farthest_one_loads_onto_the_board(lab: Page):
    open_fragment(lab, "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8&algorithm=idastar&heuristic=auto")
    lab.click("#explore .start")
    totals = lab.locator("#explore .explore-totals")
    expect(totals).to_contain_text("181,440", timeout=60_000)
    expect(totals).to_contain_text("31 moves")
    expect(lab.locator("#explore .explore-chart rect.bar")).to_have_count(32)  # depths 0 to 31
    expect(lab.locator("#explore .explore-chart rect.bar.highlight")).to_have_count(1)
    heights = lab.eval_on_selector_all("#explore .explore-chart rect.bar",
                                       "bars => bars.map(b => +b.getAttribute('height'))")
    assert heights.index(max(heights)) in (22, 24)  # 23,952 and 24,047 positions: the two tallest depths
    farthest = lab.locator("#explore .farthest button")
    expect(farthest).to_have_count(2)
    boards = farthest.evaluate_all("buttons => buttons.map(b => b.dataset.board)")
    assert set(boards) == FARTHEST
    farthest.nth(0).click()
    assert shown_board(lab) == boards[0]
    assert lab.evaluate("location.hash").startswith("#puzzle=sliding&board=" + boards[0].replace(" ", ",") + "&")

    # the largest board explore takes: 2x5, ten times as many positions
    open_fragment(lab, "#puzzle=sliding&board=1,2,3,4,5/6,7,8,9,0&algorithm=idastar&heuristic=auto")
    lab.click("#explore .start")
    expect(totals).to_contain_text("1,814,400", timeout=120_000)
    expect(totals).to_contain_text("55 moves")
    expect(lab.locator("#explore .explore-chart rect.bar")).to_have_count(56)  # depths 0 to 55

    open_fragment(lab, "#puzzle=sliding&board=1,2,3,4/5,6,7,8/9,10,11,12/13,14,0,15&algorithm=idastar&heuristic=auto")
    lab.click("#explore .start")
    expect(lab.locator("#explore .message")).to_contain_text("A 4x4 board has 10,461,394,944,000 positions")
    expect(lab.locator("#solve")).to_be_enabled()


def test_explore_shows_the_3x4_board_computed_ahead_and_its_18_farthest_positions_load(lab: Page):
    """The 12-cell boards' state spaces come with the site (build.py explores them with numpy): 239,500,800 positions,
    the farthest 53 moves away, exactly 18 of them (Takahashi)."""
    open_fragment(lab, "#puzzle=sliding&board=1,2,3,4/5,6,7,8/9,10,0,11&algorithm=idastar&heuristic=auto")
    lab.click("#explore .start")
    totals = lab.locator("#explore .explore-totals")
    expect(totals).to_contain_text("239,500,800")
    expect(totals).to_contain_text("53 moves")
    expect(lab.locator("#explore .message")).to_contain_text("slidelab explore 3x4 --engine numpy")
    expect(lab.locator("#explore .explore-chart rect.bar")).to_have_count(54)  # depths 0 to 53
    farthest = lab.locator("#explore .farthest button")
    expect(farthest).to_have_count(18)
    boards = farthest.evaluate_all("buttons => buttons.map(b => b.dataset.board)")
    assert "0 3 2 1/8 7 6 5/4 11 10 9" in boards
    farthest.nth(boards.index("0 3 2 1/8 7 6 5/4 11 10 9")).click()
    assert shown_board(lab) == "0 3 2 1/8 7 6 5/4 11 10 9"

    open_fragment(lab, "#puzzle=sliding&board=1,2/3,4/5,6/7,8/9,10/11,0&algorithm=idastar&heuristic=auto")  # 6x2
    lab.click("#explore .start")
    expect(totals).to_contain_text("80 moves")
    expect(lab.locator("#explore .farthest button")).to_have_count(2)

    # another goal was not computed ahead: too many positions for the browser
    open_fragment(lab, "#puzzle=sliding&board=1,2,3,4/5,6,7,8/9,10,0,11&goal=0,1,2,3/4,5,6,7/8,9,10,11"
                  "&algorithm=idastar&heuristic=auto")
    lab.click("#explore .start")
    expect(lab.locator("#explore .message")).to_contain_text("A 3x4 board has 239,500,800 positions")


def test_token_puzzles_offer_only_the_engines_token_heuristics_and_switching_back_keeps_a_valid_choice(lab: Page):
    assert {"manhattan", "pdb"} <= SLIDING_ONLY and {"nearest", "matching", "auto"} <= set(HEURISTICS["tokens"])
    open_fragment(lab, MEDIUM_LINK)
    lab.select_option("#algorithm", "astar")
    lab.select_option("#heuristic", "manhattan")
    lab.select_option("#puzzle-type", "knights")
    for selector in ("#heuristic", "#compare .add-heuristic"):
        expect(lab.locator(f"{selector} option")).to_have_count(len(HEURISTICS["tokens"]))
        assert options(lab, selector) == HEURISTICS["tokens"]
    assert "quick" not in options(lab, "#algorithm")  # the quick solver solves sliding boards only
    expect(lab.locator("#algorithm")).to_have_value("astar")  # kept: it applies to token puzzles
    expect(lab.locator("#heuristic")).to_have_value("auto")
    lab.wait_for_function("location.hash.endsWith('&algorithm=astar&heuristic=auto')")
    expect(lab.locator("#method")).to_contain_text("The strongest estimate for token puzzles, the optimal assignment")
    expect(lab.locator("#method")).not_to_contain_text("pattern databases")
    pairs = [(r["algorithm"], r["heuristic"]) for r in compare_rows(lab)]  # Compare's defaults for token puzzles
    assert pairs and {heuristic for _, heuristic in pairs} <= set(HEURISTICS["tokens"])

    lab.select_option("#puzzle-type", "guarini")  # another token puzzle: the same lists
    assert options(lab, "#heuristic") == HEURISTICS["tokens"]
    assert [(r["algorithm"], r["heuristic"]) for r in compare_rows(lab)] == pairs
    lab.select_option("#puzzle-type", "sliding")
    expect(lab.locator("#heuristic option")).to_have_count(len(HEURISTICS["sliding"]))
    assert "pdb78" not in options(lab, "#heuristic")  # the command line's own: its tables are not served
    for selector in ("#heuristic", "#compare .add-heuristic"):
        assert options(lab, selector) == HEURISTICS["sliding"]
    expect(lab.locator("#heuristic")).to_have_value("auto")
    expect(lab.locator("#method")).to_contain_text("pattern databases when their tables are at hand")
    assert {r["heuristic"] for r in compare_rows(lab)} <= set(HEURISTICS["sliding"])  # the sliding list again
    expect(lab.locator("#notice")).to_be_hidden()


def test_compare_on_the_knight_exchange_runs_its_default_pairs_and_each_finds_16_moves(lab: Page):
    open_fragment(lab, KNIGHTS_LINK)
    rows = compare_rows(lab)
    assert len(rows) >= 5 and all(r["status"] == "waiting" for r in rows)
    assert {r["algorithm"] for r in rows} >= {"bfs", "bidirectional", "astar", "idastar"}
    lab.click("#compare .start")
    wait_compared(lab)
    expect(lab.locator("#compare .message")).to_have_text(f"{len(rows)} of {len(rows)} runs finished.")
    rows = compare_rows(lab)
    assert [r["status"] for r in rows] == ["done"] * len(rows)
    assert [r["cells"][1] for r in rows] == ["16"] * len(rows)
    expect(lab.locator("#compare caption")).to_have_text("Comparison of the methods on BBB/.../.../WWW")
