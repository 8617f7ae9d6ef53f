"""Every search algorithm on token puzzles: the same optimal lengths, legal paths, exploration, limits."""

import random

import pytest

from slidelab.core.control import Limits, run
from slidelab.core.errors import Unsolvable
from slidelab.core.puzzles.tokens import TokenPuzzle
from slidelab.heuristics import get_heuristic
from slidelab.search import ALGORITHMS
from slidelab.space.explore import explore

KNIGHT_CELLS = "BBBWWW......"


def distance(puzzle):
    """The start's distance to the goal by plain breadth-first search over `moves` (None if unreachable)."""
    seen, frontier, depth = {puzzle.start}, [puzzle.start], 0
    while frontier:
        if puzzle.goal in seen:
            return depth
        following = []
        for state in frontier:
            for _, child in puzzle.moves(state):
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        frontier, depth = following, depth + 1
    return None


def solve(puzzle, algorithm, heuristic="zero", all_solutions=False):
    h = get_heuristic(heuristic, puzzle)
    result = run(ALGORITHMS[algorithm].start(puzzle, h, Limits(max_seconds=60), {"all_solutions": all_solutions}))
    assert puzzle.is_goal(puzzle.replay(result.moves))  # every path replays legally to the goal
    return result


def combinations(d):
    """(algorithm, heuristic) pairs worth running for a start d moves from the goal."""
    runs = [("bfs", "zero"), ("bidirectional", "zero"), ("astar", "zero"), ("astar", "nearest"),
            ("astar", "matching"), ("idastar", "matching")]
    if d <= 14:
        runs.append(("idastar", "nearest"))
    if d <= 8:
        runs += [("iddfs", "zero"), ("idastar", "zero")]
    return runs


@pytest.mark.parametrize("algorithm, heuristic", [("bfs", "zero"), ("bidirectional", "zero"), ("astar", "nearest"),
                                                  ("astar", "matching"), ("idastar", "matching")])
def test_knight_exchange_takes_16_moves(algorithm, heuristic):
    p = TokenPuzzle.preset("knights")
    result = solve(p, algorithm, heuristic)
    assert len(result.moves) == 16 and result.optimal


def random_knight_board(rng):
    cells = list(KNIGHT_CELLS)
    rng.shuffle(cells)
    return "".join(cells)


def test_optimal_algorithms_agree_on_random_knight_pairs():
    rng = random.Random(2024)
    lengths = []
    for _ in range(60):
        p = TokenPuzzle(4, 3, random_knight_board(rng), random_knight_board(rng), "knight")
        d = distance(p)  # every arrangement of the 3x4 knight board is reachable
        lengths.append(d)
        for algorithm, heuristic in combinations(d):
            assert len(solve(p, algorithm, heuristic).moves) == d, (algorithm, heuristic)
    assert len(set(lengths)) > 5


def test_optimal_algorithms_agree_on_short_knight_pairs():
    """Starts a few random moves from a random goal, so that IDDFS and h = 0 IDA* take part too."""
    rng = random.Random(5)
    for steps in (3, 5, 7, 8):
        goal = TokenPuzzle(4, 3, KNIGHT_CELLS, KNIGHT_CELLS, "knight").encode(random_knight_board(rng))
        p0 = TokenPuzzle(4, 3, KNIGHT_CELLS, KNIGHT_CELLS, "knight")
        state = goal
        for _ in range(steps):
            state = rng.choice(p0.children(state))
        p = TokenPuzzle(4, 3, p0.cells(state), p0.cells(goal), "knight")
        d = distance(p)
        for algorithm, heuristic in combinations(d):
            assert len(solve(p, algorithm, heuristic).moves) == d, (algorithm, heuristic)


def random_small_puzzle(rng):
    """A random small board, rule and pieces (up to three kinds), with a goal reachable from the start."""
    while True:
        rows, cols = rng.randint(1, 3), rng.randint(2, 4)
        cells = [rng.choice("AABC..#") for _ in range(rows * cols)]
        if any(c.isalpha() for c in cells) and "." in cells:
            break
    rule = rng.choice(["knight", "king", "orthogonal"])
    p = TokenPuzzle(rows, cols, "".join(cells), "".join(cells), rule)
    state = p.start
    for _ in range(rng.randint(0, 12)):
        children = p.children(state)
        if children:
            state = rng.choice(children)
    return TokenPuzzle(rows, cols, "".join(cells), p.cells(state), rule)


def test_optimal_algorithms_agree_on_small_custom_puzzles():
    rng = random.Random(99)
    for _ in range(400):
        p = random_small_puzzle(rng)
        d = distance(p)
        for algorithm, heuristic in combinations(d):
            assert len(solve(p, algorithm, heuristic).moves) == d, (p.format(p.start), p.format(p.goal), algorithm)


def count_shortest_paths(puzzle):
    """How many move sequences of the least length lead from the start to the goal (BFS layers, path counting)."""
    ways, frontier = {puzzle.start: 1}, [puzzle.start]
    depth = {puzzle.start: 0}
    while frontier and puzzle.goal not in depth:
        following = []
        for state in frontier:
            for child in puzzle.children(state):
                if child not in depth:
                    depth[child] = depth[state] + 1
                    ways[child] = 0
                    following.append(child)
                if depth[child] == depth[state] + 1:
                    ways[child] += ways[state]
        frontier = following
    return ways[puzzle.goal]


@pytest.mark.parametrize("board, goal, rule, count", [("AB./...", "BA./...", "orthogonal", 4),
                                                      ("A..B/....", ".B../..A.", "king", 12),
                                                      ("B.B/.../W.W", "..B/..W/WB.", "knight", 8)])
def test_all_solutions_are_every_shortest_sequence(board, goal, rule, count):
    """Enumerating all solutions must not skip reorderings of commuting moves."""
    p = TokenPuzzle.from_text(board, goal, rule)
    expected = count_shortest_paths(p)
    assert expected == count
    for algorithm, heuristic in [("idastar", "matching"), ("iddfs", "zero")]:
        result = solve(p, algorithm, heuristic, all_solutions=True)
        sequences = {tuple(s) for s in result.solutions}
        assert len(result.solutions) == len(sequences) == expected
        assert all(p.is_goal(p.replay(s)) for s in sequences)


class WithoutCommutingPruning:
    """The knight exchange with `commuting_before` answering nothing, to compare IDA* with and without that pruning."""

    def __init__(self, puzzle):
        self._p = puzzle

    def __getattr__(self, name):
        return getattr(self._p, name)

    def commuting_before(self, move):
        return frozenset()


def test_commuting_pruning_keeps_the_length_and_saves_work():
    p = TokenPuzzle.preset("knights")
    pruned = solve(p, "idastar", "matching")
    h = get_heuristic("matching", p)
    plain = run(ALGORITHMS["idastar"].start(WithoutCommutingPruning(p), h, Limits(), {}))
    assert len(plain.moves) == len(pruned.moves) == 16
    assert pruned.stats.expanded * 5 < plain.stats.expanded


def test_explore_counts_the_knight_exchange():
    p = TokenPuzzle.preset("knights")
    result = run(explore(p.reversed(), Limits()))  # explore searches from its puzzle's goal: here the start
    assert result.states == 18480
    assert result.max_depth == 22 and len(result.farthest) == 3
    assert result.start_depth == 16
    assert sum(result.depths) == 18480 and result.depths[:3] == [1, 12, 62]


def test_unreachable_goal_is_exhausted_by_breadth_first_searches():
    # five different pieces on a line of ten cells keep their order: 252 of the 30,240 arrangements are reachable
    p = TokenPuzzle.from_text("ABCDE.....", "BACDE.....", "orthogonal")
    for algorithm in ("bfs", "bidirectional", "astar"):
        h = get_heuristic("matching", p)
        with pytest.raises(Unsolvable, match="exhausted"):
            run(ALGORITHMS[algorithm].start(p, h, Limits(), {}))
    assert run(explore(p.reversed(), Limits())).states == 252
