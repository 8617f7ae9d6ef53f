"""Indexed explore (numpy): against the pure-Python explore on every board up to 10 cells, known counts, limits."""

import importlib.util
import random
import sys
from itertools import pairwise

import pytest

from slidelab.core import control
from slidelab.core.control import Limits, run
from slidelab.core.errors import Cancelled, SearchLimit, TooLarge, Unavailable
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, random_position
from slidelab.space import indexed_explore as module
from slidelab.space.explore import ExploreResult, explore
from slidelab.space.indexed_explore import indexed_explore

needs_numpy = pytest.mark.skipif(importlib.util.find_spec("numpy") is None,
                                 reason='numpy is not installed (pip install ".[scale]")')

DEPTHS_3X4 = [1, 2, 4, 9, 20, 37, 63, 122, 232, 431, 781, 1392, 2494, 4442, 7854, 13899, 24215, 41802, 71167, 119888,
              198363, 323206, 515778, 811000, 1248011, 1885279, 2782396, 4009722, 5621354, 7647872, 10065800, 12760413,
              15570786, 18171606, 20299876, 21587248, 21841159, 20906905, 18899357, 16058335, 12772603, 9515217,
              6583181, 4242753, 2503873, 1350268, 643245, 270303, 92311, 27116, 5390, 1115, 86, 18]
SHAPES = [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2), (3, 3), (2, 5), (5, 2)]


def goals(rows, cols):
    """The default goal, the blank in the top-left corner, the blank in a middle cell (a corner on 2x2), and shuffled
    tile labels."""
    n = rows * cols
    middle = rows // 2 * cols + (cols - 1) // 2
    shuffled = list(range(n))
    random.Random(n + rows).shuffle(shuffled)
    return [default_goal(rows, cols), tuple(range(n)), tuple(range(1, middle + 1)) + (0,) + tuple(range(middle + 1, n)),
            tuple(shuffled)]


CASES = [pytest.param(rows, cols, goal, i % 2 == 1, id=f"{rows}x{cols}-goal{i}",
                      marks=[needs_numpy] + [pytest.mark.slow] * (rows * cols == 10))  # explore takes seconds there
         for rows, cols in SHAPES for i, goal in enumerate(goals(rows, cols))]


def a_start(rows, cols, goal, solvable):
    """A random position that can reach `goal`, or (two tiles swapped) one that cannot."""
    start = list(random_position(rows, cols, goal, random.Random(rows * 10 + cols)))
    if not solvable:
        i, j = [k for k, t in enumerate(start) if t][:2]
        start[i], start[j] = start[j], start[i]
    return tuple(start)


@pytest.mark.parametrize("rows, cols, goal, solvable", CASES)
def test_agrees_with_explore(rows, cols, goal, solvable):
    puzzle = SlidingPuzzle(rows, cols, a_start(rows, cols, goal, solvable), goal)
    assert puzzle.is_solvable() == solvable
    fast = run(indexed_explore(puzzle, Limits()))
    slow = run(explore(puzzle, Limits(max_stored=10 ** 7)))
    assert isinstance(fast, ExploreResult)
    assert fast.depths == slow.depths
    assert fast.farthest == slow.farthest
    assert fast.start_depth == slow.start_depth
    assert (fast.start_depth is None) == (not solvable)
    assert fast.stats.expanded == fast.stats.stored == fast.states == puzzle.state_count()
    assert fast.stats.generated == slow.stats.generated


@needs_numpy
def test_known_values_and_start_depths():
    puzzle = SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")
    result = run(indexed_explore(puzzle, Limits()))
    assert result.states == 181440 and result.max_depth == 31 and result.start_depth == 31
    assert sorted(puzzle.format(s) for s in result.farthest) == ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]
    assert result.stats.generated == 483840
    assert result.extra["memory_bytes"] >= 181440  # one byte per position, and the tables
    assert run(indexed_explore(SlidingPuzzle.from_text("1 2 3/4 5 6/7 8 0"), Limits())).start_depth == 0
    assert run(indexed_explore(SlidingPuzzle.from_text("1 2 3/4 5 6/7 0 8"), Limits())).start_depth == 1
    assert run(indexed_explore(SlidingPuzzle.from_text("2 1 3/4 5 6/7 8 0"), Limits())).start_depth is None
    result = run(indexed_explore(SlidingPuzzle(2, 5, default_goal(2, 5)), Limits()))
    assert result.states == 1814400 and result.max_depth == 55  # as explore says (test_agrees_with_explore)


@needs_numpy
@pytest.mark.parametrize("rows, cols", [(3, 4), (4, 3), (2, 6), (6, 2), (3, 3), (2, 5)])
def test_moves_of_the_index_are_the_puzzle_moves(rows, cols):
    """On random positions (the 12-cell boards too, too big to explore here), every move computed on indices is a
    move of the puzzle, and the index round-trips."""
    import numpy as np

    rng = random.Random(rows * cols)
    goal = tuple(rng.sample(range(rows * cols), rows * cols))
    puzzle = SlidingPuzzle(rows, cols, goal, goal)
    index = module.Index(np, rows, cols, goal)
    for _ in range(200):
        state = random_position(rows, cols, goal, rng)
        i = index.of(state)
        assert index.state(i) == state
        b, rank = divmod(i, index.half)
        children = {q * index.half + int(ranks[0]) for q, ranks in index.children(b, np.array([rank], np.int32))}
        assert children == {index.of(child) for _, child in puzzle.moves(state)}


@needs_numpy
@pytest.mark.slow
def test_3x4():
    puzzle = SlidingPuzzle(3, 4, default_goal(3, 4))
    result = run(indexed_explore(puzzle, Limits()))
    assert result.states == 239500800 and result.max_depth == 53 and len(result.farthest) == 18
    assert result.depths == DEPTHS_3X4
    assert puzzle.parse("0 3 2 1/8 7 6 5/4 11 10 9") in result.farthest
    assert result.extra["memory_bytes"] < 300 * 2 ** 20


@needs_numpy
def test_progress_limits_and_cancel(monkeypatch):
    events = []
    result = run(indexed_explore(SlidingPuzzle(2, 5, default_goal(2, 5)), Limits()), events.append)
    assert all(b["elapsed_s"] - a["elapsed_s"] >= 0.099 for a, b in pairwise(events))  # not more often
    monkeypatch.setattr(control, "PROGRESS_INTERVAL", 0)  # a report after every chunk
    events = []
    run(indexed_explore(SlidingPuzzle(3, 3, default_goal(3, 3)), Limits()), events.append)
    assert len(events) > 10
    for event in events:
        assert set(event) == {"type", "expanded", "generated", "stored", "depth", "elapsed_s", "nodes_per_s",
                              "positions", "total"}
        assert event["type"] == "progress" and event["total"] == 181440
        assert event["expanded"] <= event["positions"] <= 181440
    assert events[-1]["depth"] == 31 and result.states == 1814400
    with pytest.raises(SearchLimit, match="the limit is 100"):
        run(indexed_explore(SlidingPuzzle(3, 3, default_goal(3, 3)), Limits(max_nodes=100)))
    with pytest.raises(SearchLimit, match="time limit"):
        run(indexed_explore(SlidingPuzzle(3, 3, default_goal(3, 3)), Limits(max_seconds=1e-9)))
    with pytest.raises(Cancelled):
        run(indexed_explore(SlidingPuzzle(3, 3, default_goal(3, 3)), Limits()), None, lambda: True)


def test_refuses_boards_of_more_than_12_cells_and_a_missing_numpy(monkeypatch):
    for rows, cols in [(4, 4), (3, 5), (2, 7)]:
        with pytest.raises(TooLarge, match="up to 12 cells"):
            indexed_explore(SlidingPuzzle(rows, cols, default_goal(rows, cols)), Limits())
    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` raises ImportError
    with pytest.raises(Unavailable, match=r'pip install "\.\[scale\]"'):
        indexed_explore(SlidingPuzzle(3, 4, default_goal(3, 4)), Limits())
