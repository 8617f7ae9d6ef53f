"""Optimal lengths of known hard positions with the pattern databases: a handful of Korf's 100 random 15-puzzle
positions (the quick ones) and the hardest 3x4 position.

The 4x4 and 3x4 tables come from the cache folder ($SLIDELAB_PDB_DIR, which `build.py` sets to where it built them,
else the user's cache folder). When they are missing these tests build them if SLIDELAB_BUILD_PDB=1 (minutes for
4x4), and are skipped otherwise, saying how to build them.
"""

import os
import pathlib
from itertools import pairwise

import pytest

from slidelab import api
from slidelab.core.control import Limits, run
from slidelab.core.puzzles.sliding import SlidingPuzzle
from slidelab.heuristics import get_heuristic, pdb
from slidelab.search.idastar import idastar

# Korf (1985), with its source
KORF_FILE = pathlib.Path(__file__).resolve().parents[1] / "pysrc" / "slidelab" / "data" / "korf100.txt"
QUICK_ONES = [12, 19, 30, 42, 47, 97]  # each takes well under a second
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def _tables(shape):
    status = api.pattern_databases({"shape": shape})
    if not status["ready"]:
        if os.environ.get("SLIDELAB_BUILD_PDB") != "1":
            pytest.skip(f"the {shape} pattern databases are not built: run `slidelab pdb {shape}` "
                        "(or set SLIDELAB_BUILD_PDB=1)")
        status = api.pattern_databases({"shape": shape}, build=True)
    assert status["ready"]


def _korf_positions():
    positions = {}
    for text in KORF_FILE.read_text().splitlines():
        if text.strip() and not text.startswith("#"):
            head, tiles = text.split("|")
            ident, length = head.split()[:2]
            positions[int(ident)] = (int(length), tuple(int(t) for t in tiles.split()))
    return positions


KORF = _korf_positions()


def _largest(puzzle) -> str:
    """The set auto takes: the 7-7-1 tables the package carries, or the 7-8 ones where this machine built them."""
    return "pdb78" if pdb.available(puzzle, table_set="pdb78") else "pdb771"


@pytest.mark.parametrize("ident", QUICK_ONES)
def test_korf_positions_get_their_optimal_length(ident):
    _tables("4x4")
    length, tiles = KORF[ident]
    puzzle = SlidingPuzzle(4, 4, tiles, tuple(range(16)))
    assert get_heuristic("auto", puzzle).name == _largest(puzzle)
    for name in ("pdb", "pdb771"):
        result = run(idastar(puzzle, get_heuristic(name, puzzle), Limits(max_seconds=60)))
        assert len(result.moves) == length
        assert puzzle.replay(result.moves) == puzzle.goal


def test_korf_position_through_the_api_with_auto():
    _tables("4x4")
    length, tiles = KORF[12]
    board = "/".join(" ".join(map(str, tiles[i:i + 4])) for i in range(0, 16, 4))
    request = {"board": board, "goal": KORF_GOAL}
    answer = api.solve(request)
    assert answer["ok"] and answer["length"] == length == 45
    assert answer["optimal"] is True and answer["heuristic_used"] == _largest(api.make_puzzle(request))


def test_hardest_3x4_position_is_53_moves():
    _tables("3x4")
    answer = api.solve({"board": "0 3 2 1/8 7 6 5/4 11 10 9"})
    assert answer["ok"] and answer["length"] == 53 and answer["heuristic_used"] == "pdb"
    # the same position turned on its side is a 4x3 board, served by the same tables
    answer = api.solve({"board": "0 8 4/3 7 11/2 6 10/1 5 9", "goal": "1 5 9/2 6 10/3 7 11/4 8 0"})
    assert answer["ok"] and answer["length"] == 53 and answer["heuristic_used"] == "pdb"


def test_a_long_search_reports_progress_about_every_100_ms_and_stops_at_its_limit():
    from slidelab.core.errors import SearchLimit
    _tables("4x4")
    puzzle = SlidingPuzzle(4, 4, KORF[82][1], tuple(range(16)))  # seconds of search, four lookups
    times = []
    with pytest.raises(SearchLimit):
        run(idastar(puzzle, get_heuristic("pdb", puzzle), Limits(max_seconds=1.0)),
            on_progress=lambda event: event["type"] == "progress" and times.append(event["elapsed_s"]))
    assert len(times) >= 5 and max(b - a for a, b in pairwise([0, *times])) < 0.5


KORF_24 = pathlib.Path(__file__).resolve().parent / "data" / "korf24-batch.txt"  # Korf and Felner (2002)
GOAL_24 = "0 1 2 3 4/5 6 7 8 9/10 11 12 13 14/15 16 17 18 19/20 21 22 23 24"


def _korf_24() -> dict:
    """{number: (board, optimal length)} of Korf and Felner's 50 random 24-puzzle positions."""
    from slidelab.batch import stream_positions

    lengths = {}
    for line in KORF_24.read_text().splitlines():
        if line.startswith("kf"):
            lengths[line.split(":")[0]] = int(line.split("#")[1].split()[0])
    return {int(p.name[2:]): (p.board, lengths[p.name]) for p in stream_positions(KORF_24.read_text().splitlines())}


def test_the_24_puzzle_positions_are_fifty_solvable_boards_of_their_lengths_parity():
    """Each listed length is at least the Manhattan distance and differs from it by an even number (every move
    changes Manhattan distance by one): a check of the transcription of the published positions."""
    positions = _korf_24()
    assert sorted(positions) == list(range(1, 51))
    for board, length in positions.values():
        puzzle = SlidingPuzzle.from_text(board, GOAL_24)
        manhattan = get_heuristic("manhattan", puzzle)(puzzle.start)
        assert api.check({"board": board, "goal": GOAL_24})["solvable"]
        assert 80 <= length <= 114 and manhattan <= length and (length - manhattan) % 2 == 0


def test_the_easiest_published_24_puzzle_position_with_the_6666_tables():
    """Where the 24-puzzle's tables are built (`slidelab pdb 5x5-6666`: half an hour, never by the tests), Korf and
    Felner's #40 in its 82 moves, with fewer nodes than their run generated (65,099,578)."""
    if not api.pattern_databases({"shape": "5x5", "tables": "pdb6666"})["ready"]:
        pytest.skip("the 24-puzzle's tables are not built: run `slidelab pdb 5x5-6666`")
    board, length = _korf_24()[40]
    answer = api.solve({"board": board, "goal": GOAL_24, "heuristic": "pdb6666", "workers": 2})
    assert answer["ok"] and answer["length"] == length == 82 and answer["optimal"]
    assert answer["stats"]["generated"] < 65_099_578
