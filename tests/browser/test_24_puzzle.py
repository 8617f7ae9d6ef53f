"""The 24-puzzle in the page (issue: optimal 5x5 in a browser tab): a site built with the 6-6-6-6 tables offers them
on a 5x5 board with their size, memory and install time; once downloaded, Solve finds the shortest solution on the
page's pool with the command line's progress (bound, nodes, rate, the iteration's share and time left); Stop stops at
once; the search's checkpoint is kept in the browser, so that a reload (a closed tab) offers to go on, and going on
finishes with the same shortest length; the checkpoint downloads in the command line's format and a checkpoint file of
the command line goes on in the page; a file that is no checkpoint gets a clear message.

The real tables take half an hour of one core to build, which the tests never do: the site here serves files of the
same names and format whose every entry is its group's Manhattan distance (admissible, so every answer is still
shortest; the searches are only longer, which gives Stop and the reload a search of seconds to interrupt)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import ROOT, Site, build, copy_of_dist, serve
from playwright.sync_api import Page, expect
from test_accessibility import serious_violations

from slidelab import api
from slidelab.heuristics.pdb import files, frames
from slidelab.heuristics.pdb.placement_index import manhattan_by_rank

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 120_000
STAND_INS = build.CACHE / "pdb-manhattan"  # made once, kept for later runs (a few seconds each)
GOAL = "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0"
# random walks from the goal: 44 moves (about 4 s in the page on 2 workers with the stand-ins), and 60 moves (about
# 20 s: long enough to stop, reload and go on)
QUICK = "1 7 3 4 13/6 12 8 10 2/0 18 9 5 14/11 16 17 20 24/21 22 19 23 15"
LONG = "12 6 11 1 10/8 17 2 3 4/13 18 16 5 15/7 23 9 14 22/0 21 19 24 20"
STORED = "slidelab.search"


def stand_in_tables() -> list:
    """The 6-6-6-6 set's four files, each entry its group's Manhattan distance: [(name, path)]."""
    made = []
    for cells in frames.LARGE_PARTITIONS["pdb6666"][5, 5][0]:
        name = frames.table_name(5, 5, cells, ranked=True)
        path = STAND_INS / name
        if not path.exists():
            STAND_INS.mkdir(parents=True, exist_ok=True)
            numpy = pytest.importorskip("numpy")  # the test extras have it: a pure-Python Manhattan takes minutes
            data, _ = files.encode_ranked(5, 5, cells, manhattan_by_rank(5, 5, cells, numpy))
            path.with_suffix(".writing").write_bytes(data)
            path.with_suffix(".writing").rename(path)
        made.append((name, path))
    return made


def stand_in_site(tmp_path):
    """A copy of dist/ that also serves the 6-6-6-6 files (stand-ins), listed in pdb/files.json: its folder."""
    folder = copy_of_dist(tmp_path)
    listed = json.loads((folder / "pdb" / "files.json").read_text())
    for name, path in stand_in_tables():
        (folder / "pdb" / name).write_bytes(path.read_bytes())
        listed["files"][name] = path.stat().st_size
    (folder / "pdb" / "files.json").write_text(json.dumps(listed))
    return folder


@pytest.fixture(scope="module")
def site_24(tmp_path_factory):
    """stand_in_site served on a free port: its base URL."""
    server, url = serve(stand_in_site(tmp_path_factory.mktemp("site24")), Site)
    yield url
    server.shutdown()
    server.server_close()


def fragment(board: str) -> str:
    return f"#puzzle=sliding&board={board.replace(' ', ',')}&goal={GOAL.replace(' ', ',')}"


def open_board(page: Page, url: str, board: str) -> None:
    page.goto(url + fragment(board))
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)


def download_tables(page: Page) -> None:
    line = page.locator("#large-tables")
    expect(line).to_have_attribute("data-offered", "pdb6666", timeout=30_000)
    expect(line).to_contain_text("Shortest solutions of this board need the 6-6-6-6 pattern databases")
    expect(line).to_contain_text("MB of memory a worker")
    expect(page.locator("#large-tables-button")).to_contain_text("Download (")
    page.click("#large-tables-button")
    expect(line).to_have_attribute("data-state", "in-use", timeout=READY_TIMEOUT_MS)
    page.select_option("#pool-size", "2")
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", "2", timeout=READY_TIMEOUT_MS)


def shortest(board: str) -> int:
    return api.solve({"board": board, "goal": GOAL, "heuristic": "linear_conflict"})["length"]


def stored(page: Page):
    return page.evaluate(f"() => localStorage.getItem('{STORED}')")


def test_the_tables_download_and_solve_a_5x5_board_optimally_on_the_pool(page: Page, site_24: str):
    open_board(page, site_24, QUICK)
    expect(page.locator("#quick-solve")).to_be_visible()  # before the tables: the quick answer, offered at once
    download_tables(page)
    expect(page.locator("#quick-solve")).to_be_visible()  # and still offered, labelled, beside the shortest
    page.evaluate("""() => { window.aheadSeen = []; new MutationObserver(() => aheadSeen.push(
      document.getElementById('progress-ahead').textContent)).observe(document.getElementById('progress-ahead'),
      {childList: true, characterData: true, subtree: true}); }""")
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=120_000)
    assert page.inner_text("#result-length") == f"{shortest(QUICK)} moves (optimal)"
    # on the pool; its second worker joins once the tables are in it (seconds), which a search this short may not wait
    # for (a long one gains those seconds: docs/benchmarks.md, "Where the page's time goes")
    expect(page.locator("#pool-status")).to_contain_text(re.compile(r"Last search on the pool: [12] workers"))
    ahead = page.evaluate("() => aheadSeen")
    assert ahead and all("% done, ~" in text and "left" in text for text in ahead), ahead
    assert stored(page) is None  # a search that ended with its answer is not kept


def test_stop_then_a_reload_offers_to_go_on_and_going_on_finishes_shortest(browser, site_24: str):
    page = browser.new_context(bypass_csp=True).new_page()  # bypass_csp: axe is injected as an inline script
    open_board(page, site_24, LONG)
    download_tables(page)
    page.click("#solve")
    page.wait_for_function(f"() => {{ const kept = JSON.parse(localStorage.getItem('{STORED}') ?? 'null');"
                           " return kept && kept.done.length >= 2; }", timeout=120_000)
    page.click("#cancel")
    expect(page.locator("#solver-message")).to_have_text("Search cancelled.", timeout=3_000)  # at once
    expect(page.locator("#pool-status")).to_have_attribute("data-busy", "0")
    kept = json.loads(stored(page))
    assert kept["search"]["board"] == LONG and kept["search"]["heuristic"] == "pdb6666"

    page.reload()  # as a closed tab: nothing runs on
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    line = page.locator("#kept-search")
    expect(line).to_have_attribute("data-state", "kept")
    expect(line).to_contain_text("A search of a 5×5 position is kept in this browser: bound ")
    assert serious_violations(page) == []  # the tables' line in use, the kept search's line
    page.click(".kept-go-on")  # on the pool at once: its extra worker joins as it starts
    expect(page.locator("#result")).to_be_visible(timeout=240_000)
    assert page.inner_text("#result-length") == f"{shortest(LONG)} moves (optimal)"
    assert stored(page) is None
    expect(line).to_have_attribute("data-state", "none")


def test_a_checkpoint_goes_from_the_command_line_to_the_page_and_back(page: Page, site_24: str, tmp_path):
    """The same file format both ways: a search the command line stopped (a node limit) goes on in the page, and the
    page's checkpoint, downloaded, goes on with `slidelab solve --resume`."""
    path = tmp_path / "cli.json"
    env = dict(os.environ, SLIDELAB_PDB_DIR=str(STAND_INS))
    command = [sys.executable, "-m", "slidelab", "solve", LONG, "--goal", GOAL, "--heuristic", "pdb6666",
               "--workers", "2", "--max-nodes", "2000000", "--checkpoint", str(path)]
    stopped = subprocess.run(command, env=env, capture_output=True, text=True, cwd=ROOT)
    assert stopped.returncode != 0 and "limit" in stopped.stderr, stopped.stderr
    open_board(page, site_24, QUICK)
    download_tables(page)
    page.set_input_files(".kept-file", str(path))  # the position on the board is the checkpoint's own
    page.wait_for_function(f"() => localStorage.getItem('{STORED}') !== null", timeout=120_000)
    page.click("#cancel")
    expect(page.locator("#solver-message")).to_have_text("Search cancelled.", timeout=3_000)
    with page.expect_download() as download:
        page.click(".kept-download")
    saved = tmp_path / "page.json"
    download.value.save_as(saved)
    state = json.loads(saved.read_text())
    assert state["slidelab_checkpoint"] == 1 and state["search"]["board"] == LONG
    resumed = subprocess.run([*command[:-4], "--resume", str(saved), "--json"], env=env, capture_output=True,
                             text=True, cwd=ROOT)
    answer = json.loads(resumed.stdout)
    assert answer["length"] == shortest(LONG) and answer["parallel"]["checkpoint"]["resumed"], resumed.stderr
    page.click(".kept-go-on")  # and the page goes on from the command line's split to the shortest length too
    expect(page.locator("#result")).to_be_visible(timeout=240_000)
    assert page.inner_text("#result-length") == f"{shortest(LONG)} moves (optimal)"


def test_a_file_that_is_no_checkpoint_is_said_so(page: Page, site_24: str, tmp_path):
    open_board(page, site_24, QUICK)
    expect(page.locator("#kept-search")).to_be_visible()  # a large board offers to go on from a file
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": 1}')
    page.set_input_files(".kept-file", str(bad))
    expect(page.locator("#solver-message")).to_have_text(
        "notes.json is not the checkpoint of a sliding puzzle's search (slidelab solve --checkpoint).")
    damaged = json.loads(json.dumps({"slidelab_checkpoint": 1, "search": {
        "puzzle": "sliding", "rule": None, "board": QUICK, "goal": GOAL, "heuristic": "pdb6666",
        "tables": [name for name, _ in stand_in_tables()], "all_solutions": False, "split_for": 2},
        "bound": 40, "counted": {"expanded": 0, "generated": 0, "iterations": []},
        "done": [{"subtrees": [10_000], "over": None, "expanded": 1, "generated": 1}]}))
    (tmp_path / "damaged.json").write_text(json.dumps(damaged))
    page.set_input_files(".kept-file", str(tmp_path / "damaged.json"))
    expect(page.locator("#solver-message")).to_contain_text("The kept search cannot go on:", timeout=120_000)
    expect(page.locator("#solver-message")).to_contain_text("it is damaged")
    assert stored(page) is None
