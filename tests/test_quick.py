"""The quick (not necessarily shortest) solver: every path replays to the goal, answers are labelled, the lower
bound is a true lower bound, and it works on every shape and goal."""

import random

import pytest

from slidelab import api
from slidelab.core.control import Limits, run
from slidelab.core.puzzles.sliding import SlidingPuzzle, random_position
from slidelab.heuristics import get_heuristic
from slidelab.search.quick import _cancel, _lines, quick

SHAPES = [(5, 5), (4, 4), (6, 6), (3, 7), (7, 3), (2, 6), (6, 2), (2, 2), (3, 3), (4, 6)]


@pytest.mark.parametrize("rows,cols", SHAPES)
@pytest.mark.parametrize("goal_kind", ["default", "korf", "middle"])
def test_paths_replay_to_the_goal(rows, cols, goal_kind):
    rng = random.Random(rows * 100 + cols)
    n = rows * cols
    goal = None
    if goal_kind == "korf":
        goal = tuple(range(n))
    elif goal_kind == "middle":  # the blank's goal in the middle of the board
        cells = list(range(1, n))
        goal = tuple(cells[:n // 2] + [0] + cells[n // 2:])
    for _ in range(3):
        puzzle = SlidingPuzzle(rows, cols, random_position(rows, cols, goal, rng), goal)
        result = run(quick(puzzle, get_heuristic("auto", puzzle), Limits()))
        assert puzzle.replay(result.moves) == puzzle.goal
        assert result.extra["lower_bound"] <= len(result.moves)
        assert len(result.moves) % 2 == puzzle.solution_parity()


def test_answers_are_labelled_with_the_lower_bound():
    answer = api.solve({"board": "2 3 4 5 1/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0",
                        "algorithm": "quick", "heuristic": "linear_conflict"})  # auto: pdb6666 where built
    assert answer["ok"] and answer["optimal"] is False
    assert answer["algorithm"] == "quick"
    # linear conflict: Manhattan 8 (1 travels four cells, 2..5 one each), plus 2 for 1 leaving the row
    assert answer["lower_bound"] == 8 + 2
    assert answer["lower_bound"] <= answer["length"]


def test_small_boards_are_solved_optimally_and_say_so():
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "quick"})
    assert answer["ok"] and answer["optimal"] is True and answer["length"] == answer["lower_bound"] == 31


def test_already_solved_and_one_move_boards():
    for board, length in [("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0", 0), ("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", 1)]:
        answer = api.solve({"board": board, "algorithm": "quick"})
        assert answer["ok"] and answer["length"] == length


def test_quick_refuses_token_puzzles():
    answer = api.solve({"puzzle": "knights", "algorithm": "quick"})
    assert answer["ok"] is False and answer["error"]["code"] == "invalid"
    assert "does not solve tokens puzzles" in answer["error"]["message"]
    assert {a["name"]: a["puzzles"] for a in api.describe()["algorithms"]}["quick"] == ["sliding"]


def test_reduction_order_keeps_the_blank_goal_in_the_last_region():
    for rows, cols in [(5, 5), (4, 7), (7, 4)]:
        n = rows * cols
        for blank in range(n):
            lines, (top, bottom, left, right), region = _lines(rows, cols, blank)
            assert blank in region
            assert bottom - top < 3 and right - left < 3
            solved = {c for line in lines for c in line}
            assert solved | set(region) == set(range(n)) and not solved & set(region)


def test_cancel_drops_back_and_forth_moves():
    assert _cancel([1, 2, 2, 3, 3, 1, 4]) == [4]
    assert _cancel([1, 2, 1]) == [1, 2, 1]


def test_cli_shows_length_beside_the_lower_bound(capsys):
    from slidelab.cli import main
    board = "2 3 4 5 1/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 24 0"
    assert main(["solve", board, "--algorithm", "quick", "--heuristic", "linear_conflict"]) == 0
    out = capsys.readouterr().out
    assert "not necessarily shortest" in out and "at least 10 moves" in out
