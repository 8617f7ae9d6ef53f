"""The pool of solver workers (web/js/pool.js): IDA* split over two Python runtimes gives the same shortest length as
one, shows each worker's nodes while it searches and after, and Cancel stops every worker."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 120_000
KORF_GOAL = "0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
# Korf's #79 (42 moves, 540,860 nodes with Manhattan) and #60 (66 moves: minutes with Manhattan in the browser)
KORF_79 = f"#puzzle=sliding&board=0,1,9,7/11,13,5,3/14,12,4,2/8,6,10,15&goal={KORF_GOAL}&algorithm=idastar&heuristic=manhattan"
KORF_60 = (f"#puzzle=sliding&board=11,14,13,1/2,3,12,4/15,7,9,5/10,6,8,0&goal={KORF_GOAL}"
           "&algorithm=idastar&heuristic=manhattan")


def open_with_pool(page: Page, base_url: str, fragment: str, workers: int) -> None:
    page.goto(base_url + fragment)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.select_option("#pool-size", str(workers))
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", str(workers), timeout=READY_TIMEOUT_MS)


def solve(page: Page) -> str:
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=120_000)
    return page.inner_text("#result-length")


def test_two_workers_find_the_same_shortest_solution_as_one(page: Page, base_url: str):
    open_with_pool(page, base_url, KORF_79, 1)
    assert solve(page).startswith("42 moves")
    assert "Last search on the pool" not in page.inner_text("#pool-status")
    page.select_option("#pool-size", "2")
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", "2", timeout=READY_TIMEOUT_MS)
    page.evaluate("() => { window.workerRows = []; new MutationObserver(() => workerRows.push("
                  "document.getElementById('progress-workers').textContent)).observe("
                  "document.getElementById('progress-workers'), {childList: true, characterData: true, subtree: true}); }")
    assert solve(page).startswith("42 moves")
    expect(page.locator("#pool-status")).to_contain_text("Last search on the pool: 2 workers")
    rows = page.evaluate("() => workerRows")
    assert rows and all(len(row.split(" · ")) == 2 for row in rows)  # each worker's nodes while it searched


def test_cancel_stops_every_worker(page: Page, base_url: str):
    open_with_pool(page, base_url, KORF_60, 2)
    page.click("#solve")
    expect(page.locator("#progress-workers-row")).to_be_visible(timeout=60_000)
    expect(page.locator("#pool-status")).to_have_attribute("data-busy", "2", timeout=30_000)
    page.click("#cancel")
    expect(page.locator("#solver-message")).to_have_text("Search cancelled.", timeout=10_000)
    expect(page.locator("#pool-status")).to_have_attribute("data-busy", "0")
    expect(page.locator("#pool-status")).to_have_attribute("data-ready", "2")  # stopped, not restarted
