"""Explore: whole state spaces from the goal, against known counts, between the two implementations, and via api."""

import pytest

from slidelab import api
from slidelab.api import space as api_space
from slidelab.core.control import Limits, run
from slidelab.core.errors import Cancelled, SearchLimit, TooLarge
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal
from slidelab.space.explore import _generic, _sliding_kernel, explore

DEPTHS_3X3 = [1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529, 10878, 16993,
              17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2]


class PlainPuzzle(SlidingPuzzle):
    """A sliding puzzle seen only through the puzzle interface (explore takes its generic path)."""

    kind = "plain"


def board(rows, cols, goal=None):
    return SlidingPuzzle(rows, cols, goal or default_goal(rows, cols))


@pytest.mark.parametrize("rows, cols, states, max_depth, farthest", [
    (2, 2, 12, 6, ["0 3/2 1"]),
    (2, 3, 360, 21, ["4 5 0/1 2 3"]),
    (3, 2, 360, 21, ["2 1/4 3/0 5"]),
    (2, 4, 20160, 36, ["0 7 2 1/4 3 6 5"]),
])
def test_small_boards(rows, cols, states, max_depth, farthest):
    puzzle = board(rows, cols)
    result = run(explore(puzzle, Limits()))
    assert result.states == states and result.max_depth == max_depth
    assert [puzzle.format(s) for s in result.farthest] == farthest


def test_3x3():
    puzzle = board(3, 3)
    result = run(explore(puzzle, Limits()))
    assert result.depths == DEPTHS_3X3
    assert result.states == 181440 and result.max_depth == 31
    assert sorted(puzzle.format(s) for s in result.farthest) == ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]
    assert result.stats.expanded == 181440
    assert result.stats.generated == 483840  # every position's moves: 4 corners x 2, 4 edges x 3, the centre 4
    assert result.stats.stored < 181440 // 2  # only three depths are ever held


@pytest.mark.parametrize("rows, cols, goal", [
    (2, 2, None), (2, 3, None), (3, 2, (0, 1, 2, 3, 4, 5)), (2, 4, (1, 2, 3, 4, 0, 5, 6, 7)),
    (4, 2, (7, 6, 5, 4, 3, 2, 1, 0)), (3, 3, (0, 1, 2, 3, 4, 5, 6, 7, 8)),
])
def test_sliding_kernel_agrees_with_the_generic_search(rows, cols, goal):
    fast = run(_sliding_kernel(board(rows, cols, goal), Limits()))
    plain = PlainPuzzle(rows, cols, goal or default_goal(rows, cols))
    slow = run(_generic(plain, Limits()))
    assert fast.depths == slow.depths
    assert fast.farthest == slow.farthest
    assert fast.stats.as_dict() | {"elapsed_s": 0} == slow.stats.as_dict() | {"elapsed_s": 0}
    assert run(explore(plain, Limits())).depths == fast.depths  # explore dispatches by kind


def test_the_start_is_placed_at_its_depth():
    assert run(explore(SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1"), Limits())).start_depth == 31
    assert run(explore(SlidingPuzzle.from_text("1 2 3/4 5 6/7 0 8"), Limits())).start_depth == 1
    assert run(explore(SlidingPuzzle.from_text("2 1 3/4 5 6/7 8 0"), Limits())).start_depth is None
    assert run(explore(PlainPuzzle.from_text("2 1/0 3"), Limits())).start_depth is None
    assert run(explore(PlainPuzzle.from_text("0 3/2 1"), Limits())).start_depth == 6


def test_refuses_spaces_it_cannot_visit():
    for rows, cols in [(4, 4), (3, 4), (2, 6)]:
        with pytest.raises(TooLarge, match="positions, more than the 2,000,000"):
            explore(board(rows, cols), Limits())
    with pytest.raises(TooLarge, match="more than 1,000 states"):
        run(explore(board(3, 3), Limits(max_stored=1000)))


def test_limits_and_cancel():
    with pytest.raises(SearchLimit):
        run(explore(board(3, 3), Limits(max_nodes=100)))
    with pytest.raises(SearchLimit):
        run(explore(PlainPuzzle(3, 3, default_goal(3, 3)), Limits(max_seconds=1e-9)))
    events = []
    with pytest.raises(Cancelled):
        run(explore(PlainPuzzle(3, 3, default_goal(3, 3)), Limits()), events.append, lambda: True)
    assert events[0]["type"] == "progress" and events[0]["depth"] > 0


def test_api_explore_by_shape_board_and_goal():
    answer = api.explore({"shape": "3x3"})
    assert answer["ok"] and answer["states"] == 181440 and answer["depths"] == DEPTHS_3X3
    assert answer["max_depth"] == 31 and answer["farthest_count"] == 2
    assert sorted(answer["farthest"]) == ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]
    assert set(answer["stats"]) >= {"expanded", "generated", "stored", "elapsed_s"}
    assert "board_depth" not in answer
    answer = api.explore({"board": "1 2 3/4 5 6/7 0 8"})
    assert answer["board_depth"] == 1 and answer["board"] == "1 2 3/4 5 6/7 0 8"
    assert api.explore({"board": "2 1 3/4 5 6/7 8 0"})["board_depth"] is None
    answer = api.explore({"shape": "2x3", "goal": "0 1 2/3 4 5"})
    assert answer["goal"] == "0 1 2/3 4 5" and answer["states"] == 360 and answer["farthest"] == ["3 4 5/0 1 2"]


def test_api_explore_cuts_the_farthest_list(monkeypatch):
    monkeypatch.setattr(api_space, "MAX_FARTHEST", 1)  # where explore reads it
    answer = api.explore({"shape": "3x3"})
    assert len(answer["farthest"]) == 1 and answer["farthest_count"] == 2


@pytest.mark.parametrize("request_, code, words", [
    ({"shape": "4x4"}, "too_large", "10,461,394,944,000 positions"),
    ({"shape": "3x"}, "invalid", "not a board shape"),
    ({"shape": "1x9"}, "invalid", "not supported"),
    ({"shape": "3x3", "board": "1 2 3/4 5 6/7 8 0"}, "invalid", "not both"),
    ({"shape": "3x3", "goal": "1 2 3/4 0 5"}, "invalid", "the goal is 2x3 but the shape is 3x3"),
    ({"shape": "3x3", "puzzle": "knights"}, "invalid", "a shape describes a sliding board"),
    ({"shape": 3}, "invalid", "must be text"),
    ({"board": "1 2/3 3"}, "invalid", "tile 3 appears more than once"),
    ({}, "invalid", "no board"),
    ([], "invalid", "JSON object"),
    ({"shape": "3x3", "max_nodes": 10}, "limit", "the limit is 10"),
])
def test_api_explore_errors(request_, code, words):
    answer = api.explore(request_)
    assert answer["ok"] is False and answer["error"]["code"] == code
    assert words in answer["error"]["message"]


def test_api_explore_steps_yields_progress_then_answers():
    steps = api.explore_steps({"shape": "3x3"})
    events = []
    try:
        while True:
            events.append(next(steps))
    except StopIteration as stop:
        answer = stop.value
    assert answer["ok"] and answer["states"] == 181440
    assert all(e["type"] == "progress" for e in events)
    answer = api.explore({"shape": "2x5"}, should_cancel=lambda: True)  # seconds of work: stops at the first report
    assert answer["error"]["code"] == "cancelled"
