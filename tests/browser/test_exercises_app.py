"""Exercises in the page (exercise.js, grading.js, grader.js): a student opens an exercise by link, goes offline,
answers, writes a heuristic, and hands in; the teacher's view grades that file and two others (one that loops, one
that overestimates) with the table the command line gives; a hand-in that tries to reach the network, the page's
caches and storage, other workers or another hand-in is graded as it is and touches nothing of the teacher's; the
panel is axe-clean and fits a phone."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect
from test_accessibility import serious_violations
from test_offline import open_ready, wait_controlled

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the 3x4 exercise the CPython tests grade
from slidelab.course import read_exercise
from slidelab.course.grade import grade_all, write_csv
from slidelab.heuristics.examples import source
from test_exercises_page import BIG  # noqa: E402

pytestmark = pytest.mark.browser

FORGING = Path(__file__).resolve().parents[1] / "data" / "forging"
MISBEHAVING = Path(__file__).resolve().parents[1] / "data" / "misbehaving"

WEEK = """
format = 1
id = "week-1"
title = { en = "Week 1", ja = "第1週" }
text = { en = "Solve `near`, then write a heuristic.", ja = "`near` を解き、ヒューリスティックを書く。" }
[positions]
near = "1 2 3/4 0 6/7 5 8"

[[tasks]]
id = "length"
kind = "measure"
title = { en = "How many moves does near take?", ja = "near は何手？" }
position = "near"
algorithm = "astar"
heuristic = "manhattan"
quantity = "length"

[[tasks]]
id = "pick"
kind = "predict"
title = { en = "Which is admissible?", ja = "許容的なのは？" }
answer = "manhattan"
choices = [{ id = "manhattan", text = { en = "Manhattan" } }, { id = "twice", text = { en = "Twice Manhattan" } }]

[[tasks]]
id = "yours"
kind = "heuristic"
title = { en = "Your heuristic", ja = "あなたのヒューリスティック" }
max_seconds = 6
criteria = [
  { check = "admissible", points = 2 },
  { check = "consistent" },
  { check = "nodes", algorithm = "astar", positions = ["near"], at_most = 10 },
]
"""
LOOPS = "def h(board):\n    while True:\n        pass\n"
# Everything a hand-in could try from its worker; h is Manhattan distance, plus 100 if anything was in reach.
REACHES = """
import js
reached = [name for name in ("fetch", "XMLHttpRequest", "WebSocket", "caches", "indexedDB", "Worker",
                             "SharedWorker", "BroadcastChannel", "importScripts", "localStorage", "sessionStorage")
           if hasattr(js, name)]
try:
    import pyodide.http
    js.eval("fetch('stolen')")
    reached.append("pyfetch")
except Exception:
    pass
import builtins
seen = getattr(builtins, "seen_hand_ins", [])  # left by another hand-in graded in this worker?
builtins.seen_hand_ins = seen + [1]
js.postMessage(js.JSON.parse('{"ask": {"states": null}, "total": 999}'))  # a forged message to the page
def h(board):
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            home = board.home(tile)
            total += abs(cell // board.cols - home // board.cols) + abs(cell % board.cols - home % board.cols)
    return total + (100 if reached or len(seen) else 0)
"""

# Every way a hand-in could load or send anything, each at a URL of the site's own that names it ("stolen-..."): h is
# Manhattan distance, plus 100 if any call that would compile code or reach the network ran.
LOADS = """
import asyncio
import js
import pyodide_js
ran = []
def attempt(name, call):
    try:
        call()
        ran.append(name)
    except Exception:
        pass
attempt("eval", lambda: js.eval("import('./stolen-eval.js')"))
attempt("Function", lambda: js.Function("return import('./stolen-function.js')")())
attempt("async Function", lambda: js.Object.getPrototypeOf(pyodide_js.loadPackage).constructor(
    "return import('./stolen-async.js')")())
attempt("constructor", lambda: js.Object.constructor.constructor("return import('./stolen-ctor.js')")())
def run_js():
    from pyodide.code import run_js
    run_js("import('./stolen-runjs.js')")
attempt("run_js", run_js)
attempt("timer", lambda: js.setTimeout("import('./stolen-timer.js')", 0))
attempt("importScripts", lambda: js.importScripts("./stolen-importscripts.js"))
attempt("fetch", lambda: js.fetch("./stolen-fetch"))
attempt("XMLHttpRequest", lambda: js.XMLHttpRequest.new().open("GET", "./stolen-xhr"))
attempt("WebSocket", lambda: js.WebSocket.new("ws://" + js.location.host + "/stolen-socket"))
attempt("EventSource", lambda: js.EventSource.new("./stolen-events"))
attempt("Worker", lambda: js.Worker.new("./stolen-worker.js"))
try:
    pyodide_js.loadPackage("./stolen-package.whl")  # a promise: what it asks for shows in the page's requests
except Exception:
    pass
async def _install():
    import micropip
    await micropip.install("./stolen-micropip-0.1-py3-none-any.whl")
try:
    asyncio.ensure_future(_install())
except Exception:
    pass
for message in ('{"ask": {"link": "./stolen-link.css"}}', '{"href": "./stolen-href", "rel": "stylesheet"}',
                '{"type": "link", "url": "./stolen-message"}'):
    js.postMessage(js.JSON.parse(message))  # messages the page never asked for
def h(board):
    total = 0
    for cell, tile in enumerate(board.tiles):
        if tile:
            home = board.home(tile)
            total += abs(cell // board.cols - home // board.cols) + abs(cell % board.cols - home % board.cols)
    return total + (100 if ran else 0)
"""


def handin(student, code, answers=None) -> str:
    from slidelab.course import make_handin

    return json.dumps(make_handin(read_exercise(WEEK), student, answers or {}, {"yours": code}, "test"))


def grade_in_page(page: Page, files: list[tuple[str, str]], tmp_path, done: str = "Graded {n} of {n} in"
                  ) -> list[list[str]]:
    """Grade the files in the teacher's view; the table's rows as text (`done`: the progress line at the end)."""
    paths = []
    for name, text in files:
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    page.click("#exercise .grade-view summary")
    page.set_input_files("#exercise .grade-files", paths)
    page.click("#exercise .grade-run")
    expect(page.locator("#exercise .grade-progress")).to_contain_text(done.format(n=len(files)), timeout=300_000)
    return [[cell.strip() for cell in row.split("\t")]
            for row in page.locator("#exercise .grade-table tbody tr").all_inner_texts()]


def test_a_student_works_offline_and_hands_in_and_the_teacher_grades_as_the_command_line(browser, site, tmp_path):
    folder, url = site
    (folder / "week-1.toml").write_text(WEEK)
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_ready(page, url + "#exercise=week-1.toml")
    wait_controlled(page)
    expect(page.locator("#exercise .exercise-title")).to_have_text("Week 1 (6 points)")
    context.set_offline(True)
    page.goto("about:blank")
    open_ready(page, url + "#exercise=week-1.toml")  # offline: the copy kept when it was opened
    expect(page.locator("#exercise .exercise-title")).to_have_text("Week 1 (6 points)", timeout=30_000)
    page.fill("#exercise-length", "2")
    page.check("#exercise input[value=manhattan]")
    page.fill("#exercise textarea[data-task=yours]", source("manhattan"))
    page.fill("#exercise .exercise-student", "Ann Lee")
    page.reload()  # the work survives a reload
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=120_000)
    expect(page.locator("#exercise-length")).to_have_value("2", timeout=30_000)
    assert page.is_checked("#exercise input[value=manhattan]")
    assert page.input_value("#exercise .exercise-student") == "Ann Lee"
    stored = page.evaluate("() => JSON.stringify({...localStorage})")  # the exercise and the work: no answer
    assert "week-1" in stored and "Ann Lee" in stored and "answer" not in stored.replace("answers", "")
    page.click("#exercise .exercise-check")  # the choice is the teacher's to grade: 5 of the 6 points here
    expect(page.locator("#exercise .exercise-status")).to_have_text(
        "Checked here: 5 of 6 points, not counting the choices your teacher grades.", timeout=120_000)
    expect(page.locator("#exercise .exercise-result")).to_contain_text("pick: chose manhattan: your teacher grades it")
    with page.expect_download() as download:
        page.click("#exercise .exercise-hand-in")
    handed_in = (tmp_path / "ann.json")
    download.value.save_as(handed_in)
    assert download.value.suggested_filename == "week-1-Ann-Lee.slidelab.json"
    assert json.loads(handed_in.read_text())["student"] == "Ann Lee"
    page.once("dialog", lambda dialog: dialog.dismiss())  # Clear my work asks first: kept when the answer is no
    page.click("#exercise .exercise-clear")
    assert page.input_value("#exercise-length") == "2"

    # the teacher's view (still offline): the student form open has no answers, so the teacher opens the file
    page.click("#exercise .grade-view summary")
    expect(page.locator("#exercise .grade-no-key")).to_be_visible()
    (tmp_path / "week-1.toml").write_text(WEEK)
    page.set_input_files("#exercise .exercise-file", str(tmp_path / "week-1.toml"))
    expect(page.locator("#exercise .grade-no-key")).to_be_hidden()
    assert page.input_value("#exercise-length") == "2"  # the same exercise: the work is kept
    page.click("#exercise .grade-view summary")  # closed again: grade_in_page opens it
    files = [("ann.json", handed_in.read_text()), ("bob.json", handin("Bob", LOOPS, {"length": 2})),
             ("cy.json", handin("Cy", source("twice_manhattan"), {"length": 2, "pick": "manhattan"}))]
    rows = grade_in_page(page, files, tmp_path)
    assert [row[:6] for row in rows] == [["Ann Lee", "ann.json", "1", "1", "4", "6 / 6"],
                                         ["Bob", "bob.json", "1", "0", "0", "1 / 6"],
                                         ["Cy", "cy.json", "1", "1", "1", "3 / 6"]]
    assert rows[1][6].startswith("yours: stopped after 6 s (the time limit)")
    assert rows[2][6].startswith("yours: overestimates on") and rows[2][6].endswith("Show the board")

    # the command line gives the same table, and the page's CSV is the command line's
    exercise = read_exercise(WEEK)
    cli_rows = sorted(grade_all(exercise, files, 2), key=lambda r: r["student"])
    assert [(r["student"], r["total"]) for r in cli_rows] == [("Ann Lee", 6), ("Bob", 1), ("Cy", 3)]
    expected = io.StringIO()
    write_csv(exercise, cli_rows, expected)
    with page.expect_download() as download:
        page.click("#exercise .grade-csv")
    page_csv = download.value.path().read_text()
    assert list(csv.reader(io.StringIO(page_csv))) == list(csv.reader(io.StringIO(expected.getvalue())))
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#exercise .exercise-clear")
    expect(page.locator("#exercise .exercise-message")).to_have_text("Your work on this exercise was cleared.")
    page.reload()
    expect(page.locator("#exercise .exercise-title")).to_have_text("Week 1 (6 points)", timeout=120_000)
    assert page.input_value("#exercise-length") == "" and not page.is_checked("#exercise input[value=manhattan]")
    context.close()
    assert errors == []


def test_a_hand_in_reaches_nothing_of_the_teachers_and_no_other_hand_in(browser, base_url, tmp_path):
    context = browser.new_context()
    page = context.new_page()
    requests = []
    context.on("request", lambda request: requests.append(request.url))
    open_ready(page, base_url + "#exercise-text=" + quote(WEEK, safe=""))
    expect(page.locator("#exercise .exercise-title")).to_have_text("Week 1 (6 points)", timeout=30_000)
    page.evaluate("() => { localStorage.setItem('teacher', 'kept'); return caches.open('teacher').then(c => "
                  "c.put('/kept', new Response('kept'))); }")
    before = page.evaluate("async () => [Object.keys(localStorage).sort(), (await caches.keys()).sort()]")
    patches = (FORGING / "patches_checker.py").read_text()  # twice Manhattan, and the checker patched where it runs
    files = [("one.json", handin("One", REACHES)), ("two.json", handin("Two", REACHES)),
             ("zed.json", handin("Zed", patches))]
    rows = grade_in_page(page, files, tmp_path)
    # admissible, consistent and within 10 nodes: nothing was in reach, and neither saw the other; the patched
    # checker was in the evaluating worker only: twice Manhattan is neither admissible nor consistent
    assert [row[:5] for row in rows] == [["One", "one.json", "0", "0", "4"], ["Two", "two.json", "0", "0", "4"],
                                         ["Zed", "zed.json", "0", "0", "1"]]
    page.click("#exercise .grade-table th button[data-key=yours]")  # sorted by a task's points, then back
    assert page.locator("#exercise .grade-table tbody tr td:first-child").all_inner_texts() == ["Zed", "One", "Two"]
    page.click("#exercise .grade-table th button[data-key=yours]")
    assert page.locator("#exercise .grade-table tbody tr td:first-child").all_inner_texts() == ["One", "Two", "Zed"]
    after = page.evaluate("async () => [Object.keys(localStorage).sort(), (await caches.keys()).sort()]")
    assert after == before and "teacher" in after[1]
    assert not [url for url in requests if "stolen" in url]
    context.close()


def test_a_hand_in_loads_and_sends_nothing_not_even_from_the_site(browser, base_url, tmp_path):
    context = browser.new_context()
    page = context.new_page()
    requests = []
    context.on("request", lambda request: requests.append(request.url))
    open_ready(page, base_url + "#exercise-text=" + quote(WEEK, safe=""))
    expect(page.locator("#exercise .exercise-title")).to_have_text("Week 1 (6 points)", timeout=30_000)
    rows = grade_in_page(page, [("loads.json", handin("Lo", LOADS))], tmp_path)
    assert rows[0][:5] == ["Lo", "loads.json", "0", "0", "4"]  # nothing ran: Manhattan's points in full
    page.wait_for_timeout(1000)  # what a promise or a scheduled task would have asked for, by now
    assert [url for url in requests if "stolen" in url] == []
    context.close()


def test_work_kept_before_exercises_had_student_forms_is_not_lost(browser, base_url):
    import hashlib

    context = browser.new_context()
    page = context.new_page()
    open_ready(page, base_url)
    old_key = "slidelab-exercise-work:" + hashlib.sha256(WEEK.encode()).hexdigest()
    page.evaluate("([key, work]) => localStorage.setItem(key, work)",
                  [old_key, json.dumps({"student": "Old Hand", "answers": {"length": 7}, "code": {}})])
    open_ready(page, base_url + "#exercise-text=" + quote(WEEK, safe=""))
    expect(page.locator("#exercise-length")).to_have_value("7", timeout=30_000)
    assert page.input_value("#exercise .exercise-student") == "Old Hand"
    context.close()


def test_a_failure_reads_in_the_page_as_it_reads_on_the_command_line(browser, base_url):
    """Code that ends its runtime, and code that raises the recursion limit and recurses for ever (the page holds
    the limit, so that it fails at once with the line and the board, as on the command line, instead of running into
    the time limit); code that recurses through C may overflow the browser's stack first, and says so without them."""
    from slidelab.course.grade import Truths, grade_handin

    deep = "import sys\nsys.setrecursionlimit(10 ** 6)\n" + (MISBEHAVING / "recursion.py").read_text()
    through_c = deep.replace("return deeper(n + 1)", "return sum(map(deeper, [n + 1]))")
    exits = "import os\nos._exit(3)\n\ndef h(board):\n    return 0\n"
    context = browser.new_context()
    page = context.new_page()
    open_ready(page, base_url + "#exercise-text=" + quote(WEEK, safe=""))
    expect(page.locator("#exercise .exercise-title")).to_have_text("Week 1 (6 points)", timeout=30_000)
    page.fill("#exercise .exercise-student", "Ann")
    exercise = read_exercise(WEEK)
    for code in (exits, deep, through_c):
        page.fill("#exercise textarea[data-task=yours]", code)
        page.click("#exercise .exercise-check")
        expect(page.locator("#exercise .exercise-status")).to_contain_text("Checking", timeout=30_000)
        expect(page.locator("#exercise .exercise-status")).to_contain_text("Checked here", timeout=120_000)
        line = page.locator("#exercise .exercise-result > ul > li").nth(2)
        said = line.inner_text().splitlines()[0].removesuffix(" Show the board")  # a button, where a board failed
        if code is through_c:  # where the runtime itself fails first, its board and line are not known
            assert said.startswith("yours: 0/4: your heuristic ") and said.endswith(": it recursed too deeply "
                                                                                  "(RecursionError)"), said
            continue
        detail = grade_handin(exercise, handin("Ann", code), "a.json", Truths(exercise))["tasks"]["yours"]["detail"]
        assert said == f"yours: 0/4: {detail}"
        if code is deep:
            assert detail.startswith("your heuristic (<hand-in>) failed on the board ")
            assert detail.endswith(", at line 8: it recursed too deeply (RecursionError)")
            expect(line.get_by_role("button", name="Show the board")).to_be_visible()
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ja-JP"])
def test_the_grade_table_fits_a_laptop_window_in_either_language(browser, base_url, tmp_path, locale):
    from slidelab.course import make_handin

    context = browser.new_context(locale=locale, bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    open_ready(page, base_url + "#exercise=astar-8-puzzle")  # seven tasks, titles of a line each
    expect(page.locator("#exercise .exercise-title")).not_to_be_empty(timeout=30_000)
    exercise = read_exercise((Path(__file__).resolve().parents[2] / "pysrc" / "slidelab" / "data" / "exercises" /
                              "astar-8-puzzle.toml").read_text())
    long_name = "Maximiliane Alexandrina Wolkenstein-Rodenegg " * 2
    files = [(f"{'hand-in-of-a-student-with-a-long-file-name-' * 2}{i}.slidelab.json",
              json.dumps(make_handin(exercise, long_name + str(i), {"length": 26 + i, "fewest": "zero"}, {}, "t")))
             for i in range(2)]
    rows = grade_in_page(page, files, tmp_path, "Graded {n} of {n} in" if locale == "en-US" else "{n} 件中 {n} 件を")
    assert len(rows) == 2
    scroller = page.locator("#exercise .grade-table").locator("xpath=..")
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth"), "the table scrolls sideways at 1280 px"
    titles = page.locator("#exercise .grade-table th button").evaluate_all("bs => bs.map(b => b.title)")
    assert titles[2] == ("How many moves does the shortest solution of start take?" if locale == "en-US" else
                         exercise.tasks[0].title["ja"])
    assert serious_violations(page) == []
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_exercise_panel_is_axe_clean_and_fits_a_phone(browser, base_url, scheme):
    context = browser.new_context(color_scheme=scheme, bypass_csp=True, viewport={"width": 360, "height": 800},
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    open_ready(page, base_url + "#exercise=astar-8-puzzle")
    expect(page.locator("#exercise .exercise-title")).to_contain_text("A* and its heuristics", timeout=30_000)
    page.click("#exercise .grade-view summary")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page) == []
    context.close()



def test_on_a_board_too_large_to_evaluate_whole_the_grading_asks_for_values_as_it_goes(browser, base_url):
    """239,500,800 positions: h is asked for as the search meets them (the grading worker waits by a stack switch)."""
    context = browser.new_context()
    page = context.new_page()
    open_ready(page, base_url + "#exercise-text=" + quote(BIG, safe=""))
    expect(page.locator("#exercise .exercise-title")).to_have_text("On a 3x4 board (1 point)", timeout=30_000)
    page.fill("#exercise textarea[data-task=yours]", source("manhattan"))
    page.fill("#exercise .exercise-student", "Dee")
    page.click("#exercise .exercise-check")
    expect(page.locator("#exercise .exercise-status")).to_have_text(
        "Checked here: 1 of 1 points, not counting the choices your teacher grades.", timeout=120_000)
    # files dropped on the teacher's view are taken, and the page stays where it is
    page.click("#exercise .grade-view summary")
    dropped = page.evaluate_handle("""() => {
        const files = new DataTransfer();
        for (const name of ['a.json', 'b.json']) files.items.add(new File(['{}'], name, { type: 'application/json' }));
        return files;
    }""")
    page.dispatch_event("#exercise .grade-intro", "drop", {"dataTransfer": dropped})
    expect(page.locator("#exercise .grade-chosen")).to_have_text("2 files chosen")
    expect(page.locator("#exercise .grade-run")).to_be_enabled()
    assert page.url.startswith(base_url)
    context.close()
