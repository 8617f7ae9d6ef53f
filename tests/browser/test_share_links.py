"""Share links (web/js/share.js) in the browser: strict parsing, exact round trips, clear reasons."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.browser


@pytest.fixture
def share(page: Page, base_url: str) -> Page:
    """A page of the site that does not start the solver, with share.js and sliding.js loaded as `window.m`."""
    page.goto(base_url + "build-info.json")
    page.evaluate("""async () => {
      const [share, sliding] = await Promise.all([import('./js/share.js'), import('./js/sliding.js')]);
      window.m = { ...share, ...sliding };
    }""")
    return page


CANONICAL = [
    "#puzzle=sliding&board=8,6,7/2,5,4/3,0,1&algorithm=idastar&heuristic=manhattan",
    "#puzzle=sliding&board=1,0/3,2",
    "#puzzle=sliding&board=1,0,2,3/4,5,6,7/8,9,10,11&goal=0,1,2,3/4,5,6,7/8,9,10,11&algorithm=idastar",
    "#puzzle=sliding&board=14,13,15,7/11,12,9,5/6,0,2,1/4,8,10,3&goal=0,1,2,3/4,5,6,7/8,9,10,11/12,13,14,15"
    "&heuristic=linear_conflict",
]


@pytest.mark.parametrize("link", CANONICAL)
def test_a_canonical_link_round_trips_exactly(share: Page, link: str):
    assert share.evaluate("link => m.formatFragment(m.parseFragment(link))", link) == link


def test_parsed_links_hold_the_position_goal_and_names(share: Page):
    parsed = share.evaluate("link => m.parseFragment(link)", CANONICAL[2])
    assert parsed == {
        "puzzle": "sliding",
        "board": {"rows": 3, "cols": 4, "cells": [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]},
        "goal": {"rows": 3, "cols": 4, "cells": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]},
        "algorithm": "idastar",
        "heuristic": None,
        "weight": None,
        "trace": None,
        "code": None,
    }
    assert share.evaluate("m.parseFragment('')") is None
    assert share.evaluate("m.parseFragment('#')") is None


def test_random_positions_round_trip(share: Page):
    """parse(format(x)) == x for random boards of every supported shape, with default and random goals."""
    failures = share.evaluate("""() => {
      let seed = 12345;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      const bad = [];
      for (let rows = 2; rows <= 10; rows++) for (let cols = 2; cols <= 10; cols++) {
        const goal = random() < 0.5 ? m.defaultGoal(rows, cols)
          : m.randomPosition(rows, cols, m.defaultGoal(rows, cols), random);
        const state = {
          puzzle: 'sliding',
          board: { rows, cols, cells: m.randomPosition(rows, cols, goal, random) },
          goal: m.sameCells(goal, m.defaultGoal(rows, cols)) ? null : { rows, cols, cells: goal },
          algorithm: 'idastar', heuristic: random() < 0.5 ? 'manhattan' : null, weight: null, trace: null, code: null,
        };
        if (random() < 0.3) {  // your heuristic, its code in the link: any text, newlines, '&', '#', '%' and all
          state.heuristic = 'yours';
          state.code = `def h(board):\n    return 0  # & # % = / ? ${Math.floor(random() * 1000)} é\n`;
        }
        const link = m.formatFragment(state);
        if (JSON.stringify(m.parseFragment(link)) !== JSON.stringify(state)) bad.push(link);
      }
      return bad;
    }""")
    assert failures == []


def test_a_heuristics_code_goes_only_with_heuristic_yours_and_has_a_limit(share: Page):
    base = "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8&algorithm=astar"
    error = "link => { try { m.parseFragment(link); return null; } catch (e) { return e.message; } }"
    assert "heuristic=yours" in share.evaluate(error, base + "&heuristic=manhattan&code=def%20h(b)%3A%20return%200")
    assert "longer than 10,000" in share.evaluate(error, base + "&heuristic=yours&code=" + "x" * 10_001)
    assert share.evaluate(error, base + "&heuristic=yours&code=" + "x" * 10_000) is None


def test_the_default_goal_is_left_out_and_escapes_are_read(share: Page):
    explicit = "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8&goal=1,2,3/4,5,6/7,8,0"
    assert share.evaluate("link => m.formatFragment(m.parseFragment(link))", explicit) == \
        "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8"
    escaped = "#puzzle=sliding&board=1%2C2%2C3/4,5,6/7,0,8"
    assert share.evaluate("link => m.formatFragment(m.parseFragment(link))", escaped) == \
        "#puzzle=sliding&board=1,2,3/4,5,6/7,0,8"


@pytest.mark.parametrize("link, reason", [
    ("#puzzle=sliding", "the link has no board"),
    ("#puzzle=sliding&board=", "'board' has no value"),
    ("#puzzle=sliding&board", "'board' has no value"),
    ("#puzzle=sliding&board=1,2/3,0&puzzle=sliding", "'puzzle' is given twice"),
    ("#puzzle=sliding&board=1,2/3,0&size=2x2", "'size' is not something a link can set"),
    ("#puzzle=sliding&board=01,2/3,0", "numbers separated by commas"),
    ("#puzzle=sliding&board=1,2,/3,0", "numbers separated by commas"),
    ("#puzzle=sliding&board=1,2/3,0/", "numbers separated by commas"),
    ("#puzzle=sliding&board=1,2/3,4", "the board has no blank"),
    ("#puzzle=sliding&board=1,5/3,0", "tile 5 is too large for a 2x2 board"),
    ("#puzzle=sliding&board=1,2/3,1", "tile 1 appears more than once"),
    ("#puzzle=sliding&board=1,2,3", "a 1x3 board is not supported"),
    ("#puzzle=sliding&board=1,2/3,0&goal=0,1,2/3,4,5", "the goal does not have the same shape as the board"),
    ("#puzzle=sliding&board=1,2/3,0&algorithm=IDA*", "'IDA*' is not a valid algorithm name"),
    ("#puzzle=sliding&board=%E0%A4%A", "the board is not properly encoded"),
    ("#puzzle=chess&board=BBB/.../.../WWW", "'chess' is not a puzzle type this page knows"),
    ("#puzzle=sliding&board=" + "/".join(",".join(str(11 * r + c) for c in range(11)) for r in range(11)),
     "a 11x11 board is not supported: each side must be 2 to 10"),
    ("#puzzle=sliding&board=" + "/".join(",".join(str(40 * r + c) for c in range(40)) for r in range(40)),
     "the link is too long"),
])
def test_a_malformed_link_is_rejected_with_a_reason(share: Page, link: str, reason: str):
    error = share.evaluate("""link => {
      try { m.parseFragment(link); return null; } catch (e) { return [e.constructor.name, e.message]; }
    }""", link)
    assert error is not None and error[0] == "LinkError"
    assert reason in error[1]


BAD_BOARDS = ["1 2/3 4", "1 2/3 1", "1 5/0 0", "5 2/3 0", "1 2 3/4 9 6/7 8 9", "0 2/3 7", "1,2/3", "x 2/3 0", ""]


def test_board_text_is_refused_for_the_same_reason_as_by_the_engine(share: Page):
    from slidelab.core.errors import InvalidBoard
    from slidelab.core.puzzles.sliding import parse_board

    def engine_reason(text):
        try:
            parse_board(text)
        except InvalidBoard as e:
            return str(e).replace("'", "")
        return None

    reasons = share.evaluate("""texts => texts.map(text => {
      try { m.parseBoard(text); return null; } catch (e) { return e.message.replaceAll("'", ''); }
    })""", BAD_BOARDS)
    assert reasons == [engine_reason(text) for text in BAD_BOARDS]
    assert reasons[0] == "the board has no blank (write 0, _ or . for it)"
    assert reasons[3] == "tile 5 is too large for a 2x2 board (tiles are 1..3)"
