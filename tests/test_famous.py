"""The famous positions the page offers (web/js/famous.js, web/js/korf100.js): every listed length is the one the
engine finds, and the page's copy of Korf's 100 is the data tests/test_korf.py verifies."""

import pathlib
import re

import pytest

from slidelab import api
from test_korf import KORF, QUICK_ONES, _tables

WEB = pathlib.Path(__file__).resolve().parents[1] / "web" / "js"
ENTRY = re.compile(r"puzzle: '(\w+)',\s*board: '([^']+)', goal: null, length: (\d+)")


def _listed():
    """The positions famous.js lists one by one (Korf's 100 come from korf100.js): (puzzle, board, length)."""
    return [(p, b, int(n)) for p, b, n in ENTRY.findall((WEB / "famous.js").read_text())]


def _korf_in_page():
    text = (WEB / "korf100.js").read_text()
    lines = text.split("export const KORF_100 = `")[1].split("`")[0].strip().splitlines()
    positions = {}
    for line in lines:
        number, length, *tiles = map(int, line.split())
        positions[number] = (length, tuple(tiles))
    return positions


def test_the_page_lists_the_famous_positions():
    listed = _listed()
    assert ("sliding", "8 6 7/2 5 4/3 0 1", 31) in listed and ("sliding", "6 4 7/8 5 0/3 2 1", 31) in listed
    assert ("sliding", "7 8 2/6 3 4/5 0 1", 25) in listed
    assert ("sliding", "0 3 2 1/8 7 6 5/4 11 10 9", 53) in listed
    assert [b for p, b, n in listed if p == "knights"] == ["..B/BW./.BW/W..", "B../.WB/WB./..W", "B.B/.W./.B./W.W"]
    assert ("guarini", "B.B/.../W.W", 16) in listed
    assert len(listed) == 8


def test_the_pages_korf_100_are_the_verified_ones():
    assert _korf_in_page() == KORF  # tests/test_korf.py solves a sample of them (all of them: the slow marker)
    assert len(KORF) == 100


@pytest.mark.parametrize("puzzle,board,length", [e for e in _listed() if "11" not in e[1]])
def test_each_listed_length_is_the_shortest(puzzle, board, length):
    answer = api.solve({"puzzle": puzzle, "board": board})
    assert answer["ok"] and answer["optimal"] and answer["length"] == length


def test_the_hardest_3x4_is_53_moves_and_the_farthest():
    _tables("3x4")
    answer = api.solve({"board": "0 3 2 1/8 7 6 5/4 11 10 9"})
    assert answer["ok"] and answer["length"] == 53


def test_the_knight_exchange_has_exactly_these_three_farthest_arrangements():
    # explored from the goal (moves go both ways): the arrangements farthest from it
    answer = api.explore({"puzzle": "knights", "board": "WWW/.../.../BBB"})
    assert answer["max_depth"] == 22
    assert sorted(answer["farthest"]) == sorted(b for p, b, n in _listed() if p == "knights")


@pytest.mark.parametrize("number", QUICK_ONES[:2])
def test_a_sample_of_korf_in_the_page_solves_to_its_length(number):
    _tables("4x4")
    length, tiles = _korf_in_page()[number]
    board = "/".join(" ".join(map(str, tiles[i:i + 4])) for i in range(0, 16, 4))
    answer = api.solve({"board": board, "goal": "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"})
    assert answer["ok"] and answer["length"] == length
