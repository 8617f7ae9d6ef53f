"""IDA* on sliding puzzles: known optimal lengths, replayed paths, the fast kernel against the generic path."""

import random

import pytest

from slidelab.core.control import Limits, run
from slidelab.core.puzzles.sliding import SlidingPuzzle, random_position
from slidelab.heuristics import get_heuristic
from slidelab.search.idastar import generic_idastar, idastar

KNOWN = [
    ("8 6 7/2 5 4/3 0 1", 31),
    ("6 4 7/8 5 0/3 2 1", 31),
    ("7 8 2/6 3 4/5 0 1", 25),
    ("1 2 3/7 4 6/5 0 8", 5),
    ("1 2 3/4 5 6/7 8 0", 0),
]


@pytest.mark.parametrize("board,length", KNOWN)
def test_known_optimal_lengths(board, length):
    puzzle = SlidingPuzzle.from_text(board)
    result = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits()))
    assert len(result.moves) == length
    assert result.optimal
    assert puzzle.replay(result.moves) == puzzle.goal


def test_bound_steps_by_two_and_iterations_are_reported():
    puzzle = SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")
    result = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits()))
    bounds = [it["bound"] for it in result.stats.iterations]
    assert bounds == list(range(21, 32, 2))  # Manhattan of this position is 21
    assert sum(it["expanded"] for it in result.stats.iterations) == result.stats.expanded
    assert result.stats.stored == 32


def test_all_optimal_solutions_of_the_hardest_8_puzzle():
    puzzle = SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")
    result = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits(), all_solutions=True))
    assert len(result.solutions) == 40
    assert len({tuple(s) for s in result.solutions}) == 40
    for s in result.solutions:
        assert len(s) == 31 and puzzle.replay(s) == puzzle.goal


@pytest.mark.parametrize("heuristic", ["zero", "misplaced", "manhattan"])
def test_kernel_agrees_with_generic_idastar(heuristic):
    rng = random.Random(7)
    for _ in range(12):
        rows, cols = rng.choice([(2, 3), (3, 2), (2, 4)])
        puzzle = SlidingPuzzle(rows, cols, random_position(rows, cols, rng=rng))
        h = get_heuristic(heuristic, puzzle)
        fast = run(idastar(puzzle, h, Limits()))
        slow = run(generic_idastar(puzzle, h, Limits(), False))
        assert len(fast.moves) == len(slow.moves)
        assert puzzle.replay(fast.moves) == puzzle.goal
        if heuristic == "zero" and rows * cols > 6:
            continue  # enumerating without a heuristic takes seconds on 2x4 boards
        # every contour in full: the same shortest solutions, and the same positions expanded unless h = 0, where
        # the kernel does not expand the positions at the bound (none of their children can be within it)
        fast = run(idastar(puzzle, h, Limits(), all_solutions=True))
        slow = run(generic_idastar(puzzle, h, Limits(), True))
        assert sorted(fast.solutions) == sorted(slow.solutions)
        if heuristic == "zero":
            assert fast.stats.expanded < slow.stats.expanded or not fast.moves
        else:
            assert fast.stats.expanded == slow.stats.expanded
            assert fast.stats.generated == slow.stats.generated


def test_any_goal_and_shape():
    goal = "0 1 2/3 4 5/6 7 8"
    puzzle = SlidingPuzzle.from_text("1 0 2/3 4 5/6 7 8", goal)
    result = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits()))
    assert result.moves == [1]
    puzzle = SlidingPuzzle.from_text("1 2 3 4/5 6 7 8/9 10 0 11")
    assert run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits())).moves == [11]
