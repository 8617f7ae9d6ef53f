"""Watch the search in a real Chromium: stepping, running, playing and stepping back through A* and IDA* traces (their
counts are the engine's), pruned nodes, clicking a node, shared trace links (a weighted one too), the keyboard, a
token puzzle, the lessons, a 4x4 trace with the pattern databases loaded first, Cancel and the node cap, and a
2,000-expansion trace played at full speed with no main-thread task over 100 ms."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import ready_page
from playwright.sync_api import Page, expect
from test_app import open_fragment, shown_board, wait_ready
from test_tokens_app import shown

from slidelab import api

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the lessons as the CPython tests read them
from test_watch_lessons import LESSONS  # noqa: E402

pytestmark = pytest.mark.browser

MEDIUM = "7 8 2/6 3 4/5 0 1"  # the assignment's position: 25 moves
MEDIUM_LINK = "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=astar&heuristic=manhattan"
EASY_IDA_LINK = "#puzzle=sliding&board=0,8,2/3,4,5/1,7,6&algorithm=idastar&heuristic=manhattan"  # 20 moves
HARDEST_LINK = "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=astar&heuristic=misplaced"
KNIGHTS_LINK = "#puzzle=knights&board=BBB/.../.../WWW&algorithm=astar&heuristic=matching"
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
# Korf's easiest, 42 moves: pdb gives the start h 32, walking distance 30
KORF_79 = "0 1 9 7/11 13 5 3/14 12 4 2/8 6 10 15"
KORF_79_LINK = ("#puzzle=sliding&board=0,1,9,7/11,13,5,3/14,12,4,2/8,6,10,15&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
                "&algorithm=idastar&heuristic=auto")
# 32 kings on 8x8: dozens of moves a position (a trace stops at 20,000 nodes), and A* with matching is slow there
KINGS = "AAAAAAAA/AAAAAAAA/......../......../......../......../BBBBBBBB/BBBBBBBB"
KINGS_GOAL = "BBBBBBBB/BBBBBBBB/......../......../......../......../AAAAAAAA/AAAAAAAA"
KINGS_LINK = f"#puzzle=tokens&board={KINGS}&goal={KINGS_GOAL}&rule=king&algorithm=astar&heuristic=matching"
# every text the panel's message shows, so that short-lived progress messages can be checked afterwards
RECORD_MESSAGES = """new MutationObserver(() => {
  const text = document.querySelector('#watch .watch-message')?.textContent;
  if (text && window.watchMessages.at(-1) !== text) window.watchMessages.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
window.watchMessages = [];"""

WATCH = "#watch"


@pytest.fixture(scope="module")
def app(browser, base_url):
    """One page with the solver started, shared by these tests."""
    with ready_page(browser, base_url, viewport={"width": 1280, "height": 900}) as page:
        yield page


def counter(page: Page, name: str):
    return page.locator(f"{WATCH} .watch-counters [data-stat='{name}'] dd")


def watch(page: Page, link: str) -> None:
    """Open a position and method, and trace it."""
    open_fragment(page, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=manhattan")
    open_fragment(page, link)
    page.click(f"{WATCH} .watch-start")
    expect(page.locator(f"{WATCH} .watch-body")).to_be_visible()


def test_an_a_star_trace_steps_runs_to_the_end_and_steps_back_with_the_solvers_counts(app: Page):
    solved = api.solve({"board": MEDIUM, "algorithm": "astar", "heuristic": "manhattan"})
    expanded = solved["stats"]["expanded"]
    watch(app, MEDIUM_LINK)
    expect(app.locator(f"{WATCH} .watch-message")).to_have_text(
        f"Traced A*, Manhattan distance: {expanded} expansions, a path of 25 moves (shortest).")
    expect(app.locator(f"{WATCH} .watch-rule")).to_contain_text("least f = g + h")
    expect(counter(app, "expanded")).to_have_text("0")
    expect(counter(app, "open")).to_have_text("1")
    for _ in range(3):
        app.click(f"{WATCH} .watch-step")
    expect(counter(app, "expanded")).to_have_text("3")
    expect(app.locator(f"{WATCH} .watch-position")).to_have_text(f"Step 3 of {expanded}")
    # the open list is in A*'s order: f, then h, then age
    rows = app.eval_on_selector_all(f"{WATCH} .watch-open tbody tr",
                                    "rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    keys = [(float(r[5]), float(r[4]), int(r[1])) for r in rows]
    assert keys == sorted(keys) and len(rows) == int(counter(app, "open").text_content())
    app.click(f"{WATCH} .watch-end")
    expect(counter(app, "expanded")).to_have_text(f"{expanded:,}")
    expect(counter(app, "length")).to_have_text("25 moves")
    assert app.evaluate("location.hash") == f"{MEDIUM_LINK}&trace={expanded}"
    app.click(f"{WATCH} .watch-back")
    expect(counter(app, "expanded")).to_have_text(f"{expanded - 1:,}")
    assert app.evaluate("location.hash") == f"{MEDIUM_LINK}&trace={expanded - 1}"
    app.click(f"{WATCH} .watch-first")
    expect(counter(app, "expanded")).to_have_text("0")
    expect(counter(app, "open")).to_have_text("1")


def test_an_ida_star_trace_goes_iteration_by_iteration(app: Page):
    board = "0 8 2/3 4 5/1 7 6"
    traced = api.trace({"board": board, "algorithm": "idastar", "heuristic": "manhattan"})
    bounds = [s["bound"] for s in traced["steps"] if s["type"] == "iteration"]
    # the traced IDA* is the generic one (docs/algorithms.md, "Traces"): its count is its own; the sliding kernel's
    # differs by a few nodes in the last iteration, which the panel says
    assert traced["expanded"] == sum(s["type"] == "expand" for s in traced["steps"]) == 401
    assert api.solve({"board": board, "algorithm": "idastar", "heuristic": "manhattan"})["stats"]["expanded"] == 404
    watch(app, EASY_IDA_LINK)
    expect(app.locator(f"{WATCH} .watch-message")).to_have_text(
        "Traced IDA*, Manhattan distance: 401 expansions, a path of 20 moves (shortest). Solve runs a faster kernel of "
        "this search, whose count differs by a few nodes in the last iteration.")
    expect(app.locator(f"{WATCH} .watch-iteration")).to_be_visible()
    app.click(f"{WATCH} .watch-step")
    expect(counter(app, "bound")).to_have_text(str(bounds[0]))
    expect(counter(app, "iteration")).to_have_text("1")
    app.click(f"{WATCH} .watch-iteration")
    expect(counter(app, "bound")).to_have_text(str(bounds[1]))
    expect(counter(app, "iteration")).to_have_text("2")
    expect(counter(app, "expanded-iteration")).to_have_text("0")
    first = sum(1 for s in traced["steps"][:traced["steps"].index({"type": "iteration", "bound": bounds[1]})]
                if s["type"] == "expand")
    expect(counter(app, "expanded")).to_have_text(f"{first:,}")
    app.click(f"{WATCH} .watch-step")
    app.click(f"{WATCH} .watch-step")
    second = traced["steps"].index({"type": "iteration", "bound": bounds[1]})
    waiting = [s["node"] for s in traced["steps"][second:] if s["type"] == "expand"][2]  # after two expansions
    expect(counter(app, "path")).to_have_text(str(traced["nodes"][waiting]["g"]))  # the path down to it
    app.click(f"{WATCH} .watch-end")
    expect(counter(app, "expanded")).to_have_text(f"{traced['expanded']:,}")
    expect(counter(app, "bound")).to_have_text(str(bounds[-1]))
    expect(counter(app, "length")).to_have_text("20 moves")
    app.click(f"{WATCH} .watch-back")
    expect(counter(app, "expanded")).to_have_text(f"{traced['expanded'] - 1:,}")


def test_an_ida_star_trace_plays_shows_pruned_nodes_and_takes_n_and_p(app: Page):
    traced = api.trace({"board": "0 8 2/3 4 5/1 7 6", "algorithm": "idastar", "heuristic": "manhattan"})
    steps = traced["steps"]
    bounds = [s["bound"] for s in steps if s["type"] == "iteration"]
    pruned = next(i for i, s in enumerate(steps) if s.get("status") == "pruned")
    node = int(steps[pruned]["node"])
    expansions = sum(s["type"] == "expand" for s in steps[:pruned])  # the one whose children include it
    watch(app, EASY_IDA_LINK)
    app.locator(f"{WATCH} .watch-step").focus()
    for _ in range(expansions):
        app.keyboard.press("s")
    expect(counter(app, "expanded")).to_have_text(str(expansions))
    # the pruned node is drawn with its mark (never colour alone) and described as pruned
    app.evaluate("""id => {
      const tree = document.querySelector('#watch').watch.tree;
      window.drawnTexts = new Set();
      const fillText = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
        window.drawnTexts.add(String(text));
        return fillText.call(this, text, ...rest);
      };
      tree.zoom(1.5 / tree.scale);  // boards drawn with their marks
      tree.center(id);
      tree.draw();
      CanvasRenderingContext2D.prototype.fillText = fillText;
    }""", node)
    assert "✂" in app.evaluate("[...window.drawnTexts]")
    point = app.evaluate("id => document.querySelector('#watch').watch.tree.screenOf(id)", node)
    app.locator(f"{WATCH} .watch-canvas").click(position={"x": point["x"], "y": point["y"]})
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text(
        f"Selected node: node {node}, pruned (f over the bound); g {traced['nodes'][str(node)]['g']}, "
        f"h {traced['nodes'][str(node)]['h']}, f {steps[pruned]['f']}, move {traced['nodes'][str(node)]['name']}.")
    # N: the next iteration; P: play and pause
    app.locator(f"{WATCH} .watch-step").focus()
    app.keyboard.press("n")
    expect(counter(app, "bound")).to_have_text(str(bounds[1]))
    expect(counter(app, "iteration")).to_have_text("2")
    app.keyboard.press("p")
    expect(app.locator(f"{WATCH} .watch-play")).to_have_attribute("aria-pressed", "true")
    app.keyboard.press("p")
    expect(app.locator(f"{WATCH} .watch-play")).to_have_attribute("aria-pressed", "false")
    # Play at full speed goes through every iteration to the end
    app.select_option(f"{WATCH} .watch-speed", "full")
    app.click(f"{WATCH} .watch-play")
    expect(counter(app, "expanded")).to_have_text(f"{traced['expanded']:,}", timeout=20_000)
    expect(counter(app, "bound")).to_have_text(str(bounds[-1]))
    expect(counter(app, "length")).to_have_text("20 moves")
    expect(app.locator(f"{WATCH} .watch-play")).to_have_text("Play")
    app.select_option(f"{WATCH} .watch-speed", "5")


def test_clicking_a_node_shows_its_board_on_the_main_board(app: Page):
    watch(app, MEDIUM_LINK)
    for _ in range(4):
        app.click(f"{WATCH} .watch-step")
    node = 3  # a child of the root, generated by the first expansion
    board = api.trace({"board": MEDIUM, "algorithm": "astar", "heuristic": "manhattan"})["nodes"][str(node)]["board"]
    app.evaluate("id => document.querySelector('#watch').watch.tree.center(id)", node)
    point = app.evaluate("id => document.querySelector('#watch').watch.tree.screenOf(id)", node)
    app.locator(f"{WATCH} .watch-canvas").click(position={"x": point["x"], "y": point["y"]})
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text(f"Selected node: node {node},")
    app.wait_for_function("board => document.querySelectorAll('#board .tile').length === 8", arg=board)
    assert shown_board(app) == board
    # the link still holds the trace's start, not the node shown
    assert app.evaluate("location.hash") == f"{MEDIUM_LINK}&trace=4"
    # a row of the open list shows its node too
    button = app.locator(f"{WATCH} .watch-open tbody tr").first.locator("button")
    first = int(button.text_content())
    button.click()
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text(f"Selected node: node {first},")


def test_a_shared_trace_link_opens_the_trace_at_its_step(browser, base_url):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{base_url}{MEDIUM_LINK}&trace=40")
        wait_ready(page)
        expect(page.locator(f"{WATCH} .watch-position")).to_have_text("Step 40 of 875")
        expect(counter(page, "expanded")).to_have_text("40")
        assert page.evaluate("location.hash") == f"{MEDIUM_LINK}&trace=40"
        assert shown_board(page) == MEDIUM
    finally:
        context.close()


@pytest.mark.parametrize("bad, reason", [
    ("&trace=-1", "the trace step must be a whole number"),
    ("&trace=01", "the trace step must be a whole number"),
    ("&weight=2", "a weight is for weighted A*"),
])
def test_a_malformed_trace_link_is_refused_with_its_reason(app: Page, bad: str, reason: str):
    message = app.evaluate("""async link => {
      const m = await import('./js/share.js');
      try { m.parseFragment(link); return null; } catch (e) { return e.message; }
    }""", MEDIUM_LINK + bad)
    assert message and reason in message


def test_weight_and_trace_round_trip_in_a_link(app: Page):
    link = "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=weighted&heuristic=manhattan&weight=1.5&trace=12"
    parsed = app.evaluate("async link => (await import('./js/share.js')).parseFragment(link)", link)
    assert parsed["weight"] == 1.5 and parsed["trace"] == 12
    assert app.evaluate("async link => { const m = await import('./js/share.js'); "
                        "return m.formatFragment(m.parseFragment(link)); }", link) == link


def test_the_controls_work_from_the_keyboard(app: Page):
    watch(app, MEDIUM_LINK)
    step = app.locator(f"{WATCH} .watch-step")
    step.focus()
    app.keyboard.press("Enter")
    app.keyboard.press("Space")
    expect(counter(app, "expanded")).to_have_text("2")
    app.keyboard.press("s")
    expect(counter(app, "expanded")).to_have_text("3")
    app.keyboard.press("b")
    expect(counter(app, "expanded")).to_have_text("2")
    app.keyboard.press("e")
    expect(counter(app, "expanded")).to_have_text("875")
    app.keyboard.press("Home")
    expect(counter(app, "expanded")).to_have_text("0")
    # the tree is reachable by Tab, and its arrows move the selected node (which the main board shows)
    app.locator(f"{WATCH} .watch-speed").focus()
    app.keyboard.press("Tab")
    assert app.evaluate("document.activeElement.classList.contains('watch-canvas')")
    assert app.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    app.keyboard.press("s")
    app.keyboard.press("ArrowDown")  # no selection yet: the root
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text("Selected node: node 0,")
    app.keyboard.press("ArrowDown")  # its first child
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text("Selected node: node 1,")
    assert shown_board(app) == api.trace({"board": MEDIUM, "algorithm": "astar",
                                          "heuristic": "manhattan"})["nodes"]["1"]["board"]
    app.keyboard.press("ArrowRight")
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text("Selected node: node 2,")
    app.keyboard.press("ArrowUp")
    expect(app.locator(f"{WATCH} .watch-details")).to_contain_text("Selected node: node 0,")
    assert app.evaluate("location.hash") == f"{MEDIUM_LINK}&trace=1"


def test_a_knights_trace_shows_token_boards_and_the_solvers_counts(app: Page):
    request = {"puzzle": "knights", "board": "BBB/.../.../WWW", "algorithm": "astar", "heuristic": "matching"}
    expanded = api.solve(request)["stats"]["expanded"]
    watch(app, KNIGHTS_LINK)
    expect(app.locator(f"{WATCH} .watch-message")).to_contain_text(f"{expanded} expansions, a path of 16 moves")
    app.click(f"{WATCH} .watch-end")
    expect(counter(app, "expanded")).to_have_text(f"{expanded:,}")
    expect(counter(app, "length")).to_have_text("16 moves")
    app.click(f"{WATCH} .watch-first")
    app.click(f"{WATCH} .watch-step")
    button = app.locator(f"{WATCH} .watch-open tbody button").first
    node = button.text_content()
    button.click()
    assert shown(app) == api.trace(request)["nodes"][node]["board"]


def test_the_lessons_are_the_ones_the_cpython_tests_check(app: Page):
    # tests/test_watch_lessons.py checks every number of api.describe()'s lessons against the engine: the page offers
    # exactly those lessons, from the catalogue of the engine it runs
    offered = app.eval_on_selector_all(f"{WATCH} .watch-lesson option",
                                       "options => options.map(o => [o.value, o.text])")
    assert offered[1:] == [[lesson["id"], lesson["title"]["en"]] for lesson in LESSONS]


def test_a_lesson_sets_its_position_and_watches_its_methods(app: Page):
    open_fragment(app, MEDIUM_LINK)
    app.select_option(f"{WATCH} .watch-lesson", "greedy")
    expect(app.locator(f"{WATCH} .watch-lesson-box")).to_be_visible()
    assert shown_board(app) == "8 7 0/4 5 3/2 1 6"
    app.click(f"{WATCH} .watch-lesson-table button[data-method='0']")
    expect(app.locator(f"{WATCH} .watch-message")).to_have_text(
        "Traced Greedy best-first, Manhattan distance: 581 expansions, a path of 62 moves (not necessarily shortest).")
    expect(app.locator("#algorithm")).to_have_value("greedy")
    app.click(f"{WATCH} .watch-lesson-table button[data-method='1']")
    expect(app.locator(f"{WATCH} .watch-message")).to_have_text(
        "Traced A*, Manhattan distance: 119 expansions, a path of 20 moves (shortest).")
    app.click(f"{WATCH} .watch-check")
    expect(app.locator(f"{WATCH} [data-solved='0']")).to_have_text("62 moves, 581 closed")
    expect(app.locator(f"{WATCH} [data-solved='1']")).to_have_text("20 moves, 119 closed")


LONG_TASKS_JS = """() => {
  window.longTasks = [];
  new PerformanceObserver(list => { for (const e of list.getEntries()) window.longTasks.push(Math.round(e.duration)); })
    .observe({ type: 'longtask' });
}"""


def test_a_2000_expansion_trace_plays_with_no_long_task(app: Page):
    """Receiving, playing at full speed with the whole tree in view, running to the end and stepping back."""
    assert app.evaluate("PerformanceObserver.supportedEntryTypes.includes('longtask')")  # else nothing is observed
    open_fragment(app, "#puzzle=sliding&board=1,2/3,0&algorithm=idastar&heuristic=manhattan")
    open_fragment(app, HARDEST_LINK)
    app.evaluate(LONG_TASKS_JS)
    app.click(f"{WATCH} .watch-start")
    expect(app.locator(f"{WATCH} .watch-message")).to_contain_text("stopped after 2,000 expansions")
    app.select_option(f"{WATCH} .watch-speed", "full")
    app.click(f"{WATCH} .watch-fit")
    app.click(f"{WATCH} .watch-play")
    expect(counter(app, "expanded")).to_have_text("2,000", timeout=30_000)
    app.click(f"{WATCH} .watch-fit")  # every node in view
    app.click(f"{WATCH} .watch-first")
    app.click(f"{WATCH} .watch-end")
    for _ in range(5):
        app.click(f"{WATCH} .watch-back")
    app.click(f"{WATCH} .watch-first")
    app.select_option(f"{WATCH} .watch-speed", "100")
    app.click(f"{WATCH} .watch-play")
    app.wait_for_timeout(500)
    app.click(f"{WATCH} .watch-end")  # while it plays
    expect(counter(app, "expanded")).to_have_text("2,000")
    app.click(f"{WATCH} .watch-fit")
    app.wait_for_timeout(200)
    nodes = app.evaluate("document.querySelector('#watch').watch.tree.drawn")
    assert nodes > 4000  # the whole tree was drawn at once
    tasks = app.evaluate("window.longTasks")
    print("long tasks (ms):", tasks)
    assert max(tasks, default=0) <= 100, tasks


def test_the_panel_fits_a_phone_wide_page(browser, base_url):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.goto(f"{base_url}{KNIGHTS_LINK}&trace=30")
        wait_ready(page)
        expect(page.locator(f"{WATCH} .watch-position")).to_have_text("Step 30 of 336")
        wider = page.evaluate("""() => [...document.querySelectorAll('#watch, #watch *')]
          .filter(e => e.getBoundingClientRect().right > innerWidth).map(e => e.className)""")
        assert wider == []
    finally:
        context.close()


def test_a_bidirectional_trace_shows_both_sides(app: Page):
    board = "1 2 3/5 0 6/4 7 8"
    traced = api.trace({"board": board, "algorithm": "bidirectional"})
    watch(app, "#puzzle=sliding&board=1,2,3/5,0,6/4,7,8&algorithm=bidirectional&heuristic=auto")
    expect(counter(app, "open-forward")).to_have_text("1")
    expect(counter(app, "open-backward")).to_have_text("1")
    expect(counter(app, "side")).to_have_text("forward, depth 0")
    app.click(f"{WATCH} .watch-step")  # the start expanded: the goal's side starts
    expect(counter(app, "side")).to_have_text("backward, depth 0")
    backward = next(i for i, s in enumerate(traced["steps"]) if s["type"] == "side" and s["side"] == "backward")
    expect(counter(app, "open-forward")).to_have_text(str(sum(  # the start's children wait (4: the gap is central)
        1 for s in traced["steps"][:backward] if s["type"] == "generate" and s["status"] == "new")))
    app.click(f"{WATCH} .watch-end")
    expect(counter(app, "expanded")).to_have_text(str(traced["expanded"]))
    expect(counter(app, "length")).to_have_text("4 moves")
    assert traced["expanded"] == api.solve({"board": board, "algorithm": "bidirectional"})["stats"]["expanded"]


def test_a_weighted_a_star_trace_link_holds_its_weight(app: Page):
    link = "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=weighted&heuristic=manhattan"
    traced = api.trace({"board": MEDIUM, "algorithm": "weighted", "heuristic": "manhattan", "weight": 1.5})
    watch(app, link)
    expect(app.locator(f"{WATCH} .watch-message")).to_contain_text("(W = 2)")
    app.fill(f"{WATCH} .watch-weight", "1.5")
    app.locator(f"{WATCH} .watch-weight").dispatch_event("change")
    expect(app.locator(f"{WATCH} .watch-body")).to_be_hidden()  # the trace of W = 2 is closed
    app.click(f"{WATCH} .watch-start")
    expect(app.locator(f"{WATCH} .watch-message")).to_have_text(
        f"Traced Weighted A*, Manhattan distance (W = 1.5): {traced['expanded']} expansions, a path of "
        f"{traced['length']} moves (not necessarily shortest).")
    app.click(f"{WATCH} .watch-step")
    assert app.evaluate("location.hash") == f"{link}&weight=1.5&trace=1"


def test_a_fresh_weighted_trace_link_traces_with_its_weight(browser, base_url):
    link = "#puzzle=sliding&board=7,8,2/6,3,4/5,0,1&algorithm=weighted&heuristic=manhattan&weight=1.5&trace=12"
    traced = api.trace({"board": MEDIUM, "algorithm": "weighted", "heuristic": "manhattan", "weight": 1.5})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{base_url}{link}")
        wait_ready(page)
        expect(page.locator(f"{WATCH} .watch-position")).to_have_text(f"Step 12 of {traced['expanded']}")
        expect(page.locator(f"{WATCH} .watch-message")).to_contain_text("Weighted A*, Manhattan distance (W = 1.5)")
        expect(page.locator(f"{WATCH} .watch-weight")).to_have_value("1.5")
        expect(counter(page, "expanded")).to_have_text("12")
        assert page.evaluate("location.hash") == link
    finally:
        context.close()


def test_a_4x4_trace_with_auto_loads_the_pattern_databases_as_solve_does(browser, base_url):
    # the page asks for the standard set until its user downloads the 7-7-1 tables
    traced = api.trace({"board": KORF_79, "goal": KORF_GOAL, "algorithm": "idastar", "heuristic": "auto",
                        "tables": "pdb"})
    assert traced["heuristic_used"] == "pdb" and traced["nodes"]["0"]["h"] == 32  # walking distance says 30
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    try:
        page.add_init_script(RECORD_MESSAGES)
        page.goto(f"{base_url}{KORF_79_LINK}")
        wait_ready(page)
        page.click(f"{WATCH} .watch-start")
        expect(page.locator(f"{WATCH} .watch-message")).to_have_text(
            "Traced IDA*, auto (pattern databases): stopped after 2,000 expansions (max_steps), before reaching the "
            "goal (a trace records at most 2,000 expansions and 20,000 nodes; Solve counts the whole search). Solve "
            "runs a faster kernel of this search, whose count differs by a few nodes in the last iteration.",
            timeout=90_000)
        messages = page.evaluate("window.watchMessages")
        assert any(m.startswith("Loading pattern databases: ") for m in messages), messages
        # the start, about to be expanded, with the pattern databases' estimate
        expect(page.locator(f"{WATCH} .watch-details")).to_contain_text("Next to expand: node 0, ")
        expect(page.locator(f"{WATCH} .watch-details")).to_contain_text("g 0, h 32, f 32")
        page.click(f"{WATCH} .watch-end")
        bound = [s["bound"] for s in traced["steps"] if s["type"] == "iteration"][-1]
        expect(counter(page, "bound")).to_have_text(str(bound))
        expect(counter(page, "expanded")).to_have_text("2,000")
    finally:
        context.close()


def test_a_trace_can_be_cancelled_and_one_stops_at_20000_nodes(app: Page):
    open_fragment(app, KINGS_LINK)
    start = app.locator(f"{WATCH} .watch-start")
    app.evaluate(RECORD_MESSAGES)
    start.click()  # A* with matching on 32 kings: tens of seconds of search
    expect(start).to_have_text("Cancel")
    expect(start).to_be_enabled()
    expect(app.locator("#solve")).to_be_disabled()
    # progress reaches the page while it traces: the worker sees a cancel between two reports
    expect(app.locator(f"{WATCH} .watch-message")).to_contain_text("Tracing the search: ", timeout=30_000)
    start.click()
    expect(app.locator(f"{WATCH} .watch-message")).to_have_text("The trace was cancelled.", timeout=5_000)
    expect(start).to_have_text("Watch the search")
    expect(app.locator(f"{WATCH} .watch-body")).to_be_hidden()
    expect(app.locator("#solve")).to_be_enabled()
    # breadth-first search on the same board is quick per node: it stops at the node cap, and the page says why
    open_fragment(app, KINGS_LINK.replace("algorithm=astar&heuristic=matching", "algorithm=bfs&heuristic=auto"))
    start.click()
    expect(app.locator(f"{WATCH} .watch-message")).to_contain_text(
        "Traced Breadth-first: stopped after 370 expansions and 20,000 nodes (max_nodes), before reaching the goal",
        timeout=60_000)
    app.click(f"{WATCH} .watch-end")
    expect(counter(app, "expanded")).to_have_text("370")
