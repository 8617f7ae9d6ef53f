"""Accessibility checked by a tool: axe-core (the npm package, fetched by build.py for the tests only) on the main
views, in the light and the dark theme: no serious or critical violation. Also: a move is announced to screen
readers, and with reduced motion the tiles do not animate."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

READY_TIMEOUT_MS = 120_000
EIGHT = "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8&algorithm=idastar&heuristic=manhattan"


def axe_script() -> str:
    path = os.environ.get("SLIDELAB_AXE")
    if not path:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        import build

        path = str(build.npm_package("axe-core", build.AXE_VERSION) / "axe.min.js")
    return path


def serious_violations(page: Page) -> list[str]:
    page.add_script_tag(path=axe_script())
    found = page.evaluate("""async () => {
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
          .map(v => `${v.impact} ${v.id}: ${v.help} -- `
                    + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '));
    }""")
    return found


@pytest.fixture(params=["light", "dark"])
def themed(request, browser, base_url):
    # bypass_csp: axe is injected as an inline script, which the page's own policy (rightly) refuses
    context = browser.new_context(color_scheme=request.param, bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(base_url + EIGHT)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    yield page
    context.close()


def test_the_main_views_have_no_serious_violation(themed: Page):
    page = themed
    problems = {"board": serious_violations(page)}
    page.click("#solve")
    expect(page.locator("#result")).to_be_visible(timeout=60_000)
    problems["result"] = serious_violations(page)
    page.click("#compare .start")
    expect(page.locator("#compare .message")).to_contain_text("runs finished", timeout=120_000)
    page.click("#explore .start")
    expect(page.locator("#explore .explore-totals")).to_contain_text("181,440", timeout=120_000)
    problems["compare and explore"] = serious_violations(page)
    page.select_option("#puzzle-type", "knights")
    expect(page.locator("#solve")).to_be_enabled(timeout=60_000)
    problems["knights"] = serious_violations(page)
    assert problems == {view: [] for view in problems}


def test_the_dark_theme_follows_the_system(browser, base_url):
    colours = {}
    for scheme in ("light", "dark"):
        context = browser.new_context(color_scheme=scheme)
        page = context.new_page()
        page.goto(base_url)
        colours[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        context.close()
    assert colours["light"] != colours["dark"]


def test_moves_are_announced_to_screen_readers(page: Page, base_url: str):
    page.goto(base_url + EIGHT)
    announcer = page.locator("#move-announcer")
    expect(announcer).to_have_attribute("aria-live", "polite")
    page.locator("#board").focus()
    page.keyboard.press("ArrowLeft")  # the tile right of the gap slides left
    expect(announcer).to_have_text("8 slid left")
    page.click("#undo")
    expect(announcer).to_have_text("Undone: 1 move")
    page.click("#redo")
    expect(announcer).to_have_text("Redone: 1 move")
    page.goto(base_url + "#puzzle=sliding&board=1,2,3/4,5,6/0,7,8&algorithm=idastar&heuristic=manhattan")
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.click("#solve")
    expect(page.locator("#result-length")).to_have_text("2 moves (optimal)", timeout=60_000)
    page.click("#play-forward")  # a step of the solution is announced as a move is
    expect(announcer).to_have_text("7 slid left")
    page.click("#play-back")  # and a step back as the move that undoes it
    expect(announcer).to_have_text("7 slid right")
    page.click("#play-last")  # a jump names no single move: the last announcement stays
    expect(page.locator("#play-step")).to_have_text("Step 2 of 2")
    expect(announcer).to_have_text("7 slid right")
    page.goto(base_url + "#puzzle=knights&board=BBB/.../.../WWW&algorithm=idastar&heuristic=auto")
    page.reload()
    page.locator("#token-board .piece[data-cell='0']").click()
    page.locator("#token-board .square[data-cell='5']").click()
    expect(announcer).to_have_text(re.compile(r"^(black |white )?knight \S+"))


def test_reduced_motion_turns_the_slides_off(browser, base_url):
    durations = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(reduced_motion=motion)
        page = context.new_page()
        page.goto(base_url + EIGHT)
        page.wait_for_selector("#board .tile .face", state="attached")
        durations[motion] = page.evaluate("""() => ['#board', '#board .tile', '#board .tile .face']
            .map(s => getComputedStyle(document.querySelector(s)).transitionDuration)""")
        context.close()
    assert all(d != "0s" for d in durations["no-preference"]) and durations["reduce"] == ["0s"] * 3


def test_tiles_in_place_carry_a_mark_not_only_a_colour(page: Page, base_url: str):
    page.goto(base_url + EIGHT)  # 1 to 7 are in place, 8 is not
    in_place = page.locator("#board .tile.home")
    expect(in_place).to_have_count(7)
    for tile in (1, 7):
        label = page.locator(f"#board .tile[data-tile='{tile}']").get_attribute("aria-label")
        assert label.startswith(f"Tile {tile}, row ") and ", in place" in label
    assert ", in place" not in page.locator("#board .tile[data-tile='8']").get_attribute("aria-label")
    mark = "(s) => getComputedStyle(document.querySelector(s), '::after').content"
    assert page.evaluate(mark, "#board .tile[data-tile='1'] .face") != "none"
    assert page.evaluate(mark, "#board .tile[data-tile='8'] .face") == "none"


def test_solving_works_from_the_keyboard_with_a_visible_focus(page: Page, base_url: str):
    page.goto(base_url + EIGHT)
    expect(page.locator("#solver-status")).to_have_attribute("data-state", "ready", timeout=READY_TIMEOUT_MS)
    page.locator("#algorithm").focus()
    for _ in range(40):  # Tab on from the algorithm selector until Solve has the focus
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "solve":
            break
    assert page.evaluate("() => document.activeElement.id") == "solve"
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"  # :focus-visible draws the ring
    page.keyboard.press("Enter")
    expect(page.locator("#result-length")).to_have_text("1 move (optimal)", timeout=60_000)
