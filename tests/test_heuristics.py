"""Heuristics for sliding puzzles: admissible against exact distances (a breadth-first search over every 3x3 and 2x4
position), consistent where claimed, known values, and the incremental trackers against the whole-board values."""

import random

import pytest

from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, random_position
from slidelab.heuristics import HEURISTICS, get_heuristic, pdb
from slidelab.heuristics.linear_conflict import removals
from slidelab.heuristics.walking_distance import inversion_steps, walking_table

NAMES = ["manhattan", "linear_conflict", "walking_distance", "pdb"]
CONSISTENT = ["manhattan", "linear_conflict", "walking_distance"]  # pattern databases are not (a jump can exceed 1)
GOALS = {(3, 3): [None, (1, 2, 3, 4, 0, 5, 6, 7, 8)], (2, 4): [None, tuple(range(8))]}


def exact_distances(rows, cols, goal):
    """Distance to the goal of every position that can reach it (breadth-first search from the goal)."""
    puzzle = SlidingPuzzle(rows, cols, goal, goal)
    dist = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for state in frontier:
            d = dist[state] + 1
            for _, child in puzzle.moves(state):
                if child not in dist:
                    dist[child] = d
                    nxt.append(child)
        frontier = nxt
    return puzzle, dist


@pytest.fixture(scope="module", params=[(shape, i) for shape, goals in GOALS.items() for i in range(len(goals))],
                ids=lambda p: f"{p[0][0]}x{p[0][1]}-goal{p[1]}")
def space(request):
    (rows, cols), i = request.param
    goal = GOALS[rows, cols][i] or default_goal(rows, cols)
    return exact_distances(rows, cols, goal)


def test_state_counts(space):
    puzzle, dist = space
    assert len(dist) == puzzle.state_count()  # 181,440 for 3x3, 20,160 for 2x4
    blank_in_middle = puzzle.goal == (1, 2, 3, 4, 0, 5, 6, 7, 8)
    assert max(dist.values()) == (30 if blank_in_middle else {9: 31, 8: 36}[puzzle.size])


@pytest.mark.parametrize("name", NAMES)
def test_admissible_everywhere(space, name):
    puzzle, dist = space
    h = get_heuristic(name, puzzle)
    items = list(dist.items())
    # every 11th position, and all that are 28 or more moves away (where a bound is most likely to overshoot)
    sample = items[::11] + [(s, d) for s, d in items if d >= 28]
    over = [(s, d, h(s)) for s, d in sample if h(s) > d]
    assert not over, over[:3]
    assert h(puzzle.goal) == 0


@pytest.mark.parametrize("name", CONSISTENT)
def test_consistent(space, name):
    puzzle, dist = space
    h = get_heuristic(name, puzzle)
    for state in list(dist)[::41]:
        value = h(state)
        for _, child in puzzle.moves(state):
            assert abs(h(child) - value) <= 1, (state, child)


def test_strength_order_on_3x3(space):
    """Averaged over the sample, each stronger heuristic gives higher bounds (and never below Manhattan)."""
    puzzle, dist = space
    sample = list(dist)[::50]
    means = {}
    for name in NAMES:
        h = get_heuristic(name, puzzle)
        means[name] = sum(map(h, sample)) / len(sample)
    md = get_heuristic("manhattan", puzzle)
    lc = get_heuristic("linear_conflict", puzzle)
    assert all(lc(s) >= md(s) for s in sample)
    assert means["manhattan"] < means["linear_conflict"] < means["pdb"]
    assert means["manhattan"] < means["walking_distance"] < means["pdb"]


def test_removals_is_length_minus_longest_increasing_run():
    assert removals([]) == 0
    assert removals([1, 2, 3]) == 0
    assert removals([3, 2, 1]) == 2
    assert removals([2, 3, 1]) == 1  # take out 1
    assert removals([4, 1, 2, 3]) == 1  # take out 4, not three tiles


def test_linear_conflict_known_values():
    # row 1 reversed: 3 2 1 needs two tiles out of the row: Manhattan 4 + 2 * 2
    puzzle = SlidingPuzzle.from_text("3 2 1/4 5 6/7 8 0")
    assert get_heuristic("manhattan", puzzle)(puzzle.start) == 4
    assert get_heuristic("linear_conflict", puzzle)(puzzle.start) == 8
    # column 1 holds 7 4 1, all in it but in reverse order: two must leave it
    puzzle = SlidingPuzzle.from_text("7 2 3/4 5 6/1 8 0")
    assert get_heuristic("linear_conflict", puzzle)(puzzle.start) == 4 + 2 * 2
    # 2 and 1 swapped in row 1, 4 and 7 in column 1 (2 blocks 1, and 7 blocks 4): one removal each
    puzzle = SlidingPuzzle.from_text("2 1 3/7 5 6/4 8 0")
    assert get_heuristic("linear_conflict", puzzle)(puzzle.start) == 4 + 2 + 2


def test_walking_distance_table_sizes():
    assert len(walking_table(4, 4, 3)[0]) == 24964  # Takahashi's count for the 15-puzzle
    assert max(walking_table(4, 4, 3)[0]) == 35
    assert len(walking_table(3, 3, 2)[0]) == 105


def test_inversion_steps():
    # 15-puzzle vertical moves remove 1 or 3 inversions
    assert [inversion_steps(i, 3) for i in range(9)] == [0, 1, 2, 1, 2, 3, 2, 3, 4]
    # 8-puzzle vertical moves remove 0 or 2
    assert [inversion_steps(i, 2) for i in range(6)] == [0, 1, 1, 2, 2, 3]


@pytest.mark.parametrize("name,shape", [(name, shape) for name in ["linear_conflict", "walking_distance"]
                                        for shape in [(3, 3), (3, 4), (4, 4), (4, 3), (2, 4), (2, 5), (6, 5)]
                                        if name == "linear_conflict" or max(shape) <= 4])
def test_tracker_follows_the_board(name, shape):
    """Along a random walk, the tracker's probed values equal the heuristic of the whole new board."""
    rows, cols = shape
    rng = random.Random(rows * 10 + cols)
    puzzle = SlidingPuzzle(rows, cols, random_position(rows, cols, rng=rng))
    h = get_heuristic(name, puzzle)
    tracker = h.tracker(puzzle.start)
    assert tracker.h == h(puzzle.start)
    board = list(puzzle.start)
    for _ in range(300):
        b = board.index(0)
        nb = rng.choice(puzzle.neighbours[b])
        t = board[nb]
        value = tracker.probe(t, nb, b)
        tracker.push()
        board[b], board[nb] = t, 0
        assert value == h(tuple(board))


def test_auto_picks_the_strongest_available():
    assert get_heuristic("auto", SlidingPuzzle.from_text("8 6 7/2 5 4/3 0 1")).name == "pdb"  # 3x3: built at once
    five = SlidingPuzzle(5, 5, default_goal(5, 5))  # the 24-puzzle's tables where they were built, else none
    assert get_heuristic("auto", five).name == ("pdb6666" if pdb.available(five, table_set="pdb6666")
                                                else "linear_conflict")
    # a 4x4 goal with the blank in the middle has no ready pattern database
    goal = (1, 2, 3, 4, 5, 0, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    assert get_heuristic("auto", SlidingPuzzle(4, 4, goal, goal)).name == "walking_distance"


def test_every_new_heuristic_is_registered_for_sliding_puzzles():
    for name in ["linear_conflict", "walking_distance", "pdb", "auto"]:
        assert "sliding" in HEURISTICS[name].kinds
    assert "tokens" in HEURISTICS["auto"].kinds


def test_walking_distance_refuses_large_boards():
    from slidelab.core.errors import BadRequest
    with pytest.raises(BadRequest, match="up to 4x4"):
        get_heuristic("walking_distance", SlidingPuzzle(5, 5, default_goal(5, 5)))
