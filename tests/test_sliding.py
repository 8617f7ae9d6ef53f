"""Sliding puzzles: the board text format, every validation message, moves, and parity against brute force."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slidelab.core.errors import InvalidBoard, Unsolvable
from slidelab.core.puzzles.sliding import (
    SlidingPuzzle,
    default_goal,
    format_board,
    neighbours,
    parse_board,
    parse_shape,
    random_position,
)


@st.composite
def boards(draw):
    rows = draw(st.integers(2, 6))
    cols = draw(st.integers(2, 6))
    cells = draw(st.permutations(range(rows * cols)))
    return rows, cols, tuple(cells)


@given(boards())
def test_format_then_parse_round_trips(board):
    rows, cols, cells = board
    text = format_board(cells, cols)
    assert parse_board(text) == (rows, cols, cells)
    assert format_board(parse_board(text)[2], cols) == text


@given(boards(), st.sampled_from(["0", "_", "."]), st.sampled_from([" ", ", ", "  ", ","]),
       st.sampled_from(["/", " / ", "\n", ";"]))
def test_every_spelling_parses_to_the_same_board(board, blank, cell_gap, row_gap):
    rows, cols, cells = board
    names = [blank if c == 0 else str(c) for c in cells]
    text = row_gap.join(cell_gap.join(names[r * cols:(r + 1) * cols]) for r in range(rows))
    assert parse_board(text) == (rows, cols, cells)


@pytest.mark.parametrize("text, message", [
    ("1 2 3/4 5 6/7 8", "row 3 has 2 cells but row 1 has 3"),  # a cell too few
    ("1 2 3/4 5 6 9/7 8 0", "row 2 has 4 cells but row 1 has 3"),  # a cell too many
    ("1 2/3", "row 2 has 1 cells but row 1 has 2"),  # ragged rows
    ("1 2 3/4 5 6/7 8 8", "tile 8 appears more than once"),
    ("1 2 0/4 5 6/7 0 3", "the blank appears more than once"),
    ("1 2/_ .", "the blank appears more than once"),
    ("1 2 3/4 5 6/7 8 9", "the board has no blank"),
    ("1 2/3 4", "the board has no blank"),
    ("1 2 3/4 5 6/7 9 0", "tile 9 is too large for a 3x3 board"),
    ("1 2 3/4 x 6/7 8 0", "'x' is not a tile number"),
    ("1 2 3/4 -5 6/7 8 0", "'-5' is not a tile number"),
    ("1 2 3/4 5.0 6/7 8 0", "'5.0' is not a tile number"),
    ("", "the board is empty"),
    ("   ", "the board is empty"),
    ("1 2 3//4 5 0", "a row is empty"),
    ("1 2 0", "a 1x3 board is not supported"),
    ("1/2/0", "a 3x1 board is not supported"),
    ("1 " * 1000 + "0", "the board text is too long"),
])
def test_invalid_boards_say_why(text, message):
    with pytest.raises(InvalidBoard, match=message):
        parse_board(text)


def test_board_must_be_text():
    with pytest.raises(InvalidBoard, match="must be given as text"):
        parse_board(123)


def test_start_and_goal_shapes_must_match():
    with pytest.raises(InvalidBoard, match="the start is 3x3 but the goal is 2x2"):
        SlidingPuzzle.from_text("1 2 3/4 5 6/7 8 0", "1 2/3 0")
    puzzle = SlidingPuzzle.from_text("1 2 3/4 5 6/7 8 0")
    with pytest.raises(InvalidBoard, match="expected a 3x3 board, got 2x2"):
        puzzle.parse("1 2/3 0")


def test_cells_must_hold_each_tile_once():
    with pytest.raises(InvalidBoard, match="must hold 0..8 exactly once"):
        SlidingPuzzle(3, 3, [1, 2, 3, 4, 5, 6, 7, 8])
    with pytest.raises(InvalidBoard, match="must hold 0..3 exactly once"):
        SlidingPuzzle(2, 2, [0, 1, 2, 2])


@pytest.mark.parametrize("text, shape", [("3x3", (3, 3)), (" 2 X 5 ", (2, 5)), ("4×4", (4, 4))])
def test_shapes(text, shape):
    assert parse_shape(text) == shape


@pytest.mark.parametrize("text, message", [("3", "not a board shape"), ("axb", "not a board shape"),
                                           ("1x5", "not supported"), ("11x3", "not supported")])
def test_bad_shapes(text, message):
    with pytest.raises(InvalidBoard, match=message):
        parse_shape(text)


def test_moves_name_the_tile_and_apply_replays_them():
    puzzle = SlidingPuzzle.from_text("1 2 3/4 0 5/7 8 6")
    moves = dict(puzzle.moves(puzzle.start))
    assert sorted(moves) == [2, 4, 5, 8]
    assert moves[5] == (1, 2, 3, 4, 5, 0, 7, 8, 6)
    assert puzzle.apply(puzzle.start, 5) == moves[5]
    assert puzzle.replay([5, 6]) == puzzle.goal
    with pytest.raises(InvalidBoard, match="tile 1 is not next to the blank"):
        puzzle.apply(puzzle.start, 1)


def test_neighbours_are_orthogonal_cells():
    assert neighbours(2, 3) == ((1, 3), (0, 2, 4), (1, 5), (0, 4), (1, 3, 5), (2, 4))


def test_state_count_and_default_goal():
    assert SlidingPuzzle(3, 3, default_goal(3, 3)).state_count() == 181440
    assert SlidingPuzzle(2, 5, default_goal(2, 5)).state_count() == 1814400
    assert default_goal(2, 3) == (1, 2, 3, 4, 5, 0)


def _reachable(puzzle):
    """Every position that can reach puzzle.goal, by brute-force breadth-first search."""
    seen, frontier = {puzzle.goal}, [puzzle.goal]
    while frontier:
        frontier = [c for s in frontier for _, c in puzzle.moves(s) if c not in seen and not seen.add(c)]
    return seen


@pytest.mark.parametrize("rows, cols, goal", [(2, 2, None), (2, 3, None), (3, 2, None), (2, 3, (0, 1, 2, 3, 4, 5)),
                                              (2, 2, (3, 0, 1, 2))])
def test_parity_decides_reachability_exactly_on_small_boards(rows, cols, goal):
    puzzle = SlidingPuzzle(rows, cols, goal or default_goal(rows, cols), goal)
    reachable = _reachable(puzzle)
    assert len(reachable) == puzzle.state_count()
    for cells in itertools.permutations(range(rows * cols)):
        assert SlidingPuzzle(rows, cols, cells, puzzle.goal).is_solvable() == (cells in reachable)


@pytest.mark.slow
def test_parity_decides_reachability_exactly_on_3x3():
    puzzle = SlidingPuzzle(3, 3, default_goal(3, 3))
    reachable = _reachable(puzzle)
    assert len(reachable) == 181440
    probe = SlidingPuzzle(3, 3, default_goal(3, 3))
    solvable = 0
    for cells in itertools.permutations(range(9)):
        probe.start = cells
        ok = probe.is_solvable()
        solvable += ok
        if ok:
            assert cells in reachable
    assert solvable == 181440  # so the solvable positions are exactly the reachable ones


def test_unsolvable_is_explained_and_solution_parity_matches_blank_distance():
    puzzle = SlidingPuzzle.from_text("1 2 3/4 5 6/8 7 0")
    with pytest.raises(Unsolvable, match="swapping any two tiles"):
        puzzle.check_solvable()
    assert SlidingPuzzle.from_text("1 2 3/4 5 6/7 0 8").solution_parity() == 1
    assert SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1").solution_parity() == 1


def test_random_positions_are_solvable():
    rng = random.Random(1)
    for rows, cols in [(2, 2), (3, 3), (4, 4), (3, 5)]:
        for _ in range(20):
            cells = random_position(rows, cols, rng=rng)
            assert SlidingPuzzle(rows, cols, cells).is_solvable()
