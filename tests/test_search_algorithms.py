"""The search family: known optimal lengths and counts, every optimal algorithm agrees with breadth-first ground
truth on every 2x3 position and on random 3x3 positions, every path replays, generic and sliding paths agree."""

import random

import pytest

from slidelab.core.control import Limits, run
from slidelab.core.errors import Unsolvable
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, format_board
from slidelab.heuristics import get_heuristic
from slidelab.search import ALGORITHMS
from slidelab.search.best_first import best_first
from slidelab.search.bfs import bfs
from slidelab.search.bidirectional import bidirectional
from slidelab.search.idastar import idastar
from slidelab.search.iddfs import iddfs
from slidelab.search.spaces import PackedSlidingSpace, PuzzleSpace

HARDEST = "8 6 7/2 5 4/3 0 1"


class PlainPuzzle(SlidingPuzzle):
    """A sliding puzzle seen only through the puzzle interface: every algorithm takes its generic path."""

    kind = "plain"


def distances(rows, cols):
    """{position: its distance from the default goal} for every position that can reach it (ground truth)."""
    goal = default_goal(rows, cols)
    space = PackedSlidingSpace(SlidingPuzzle(rows, cols, goal))
    dist, frontier, depth = {space.goal: 0}, [space.goal], 0
    while frontier:
        depth += 1
        following = []
        for key in frontier:
            for child in space.neighbours(key):
                if child not in dist:
                    dist[child] = depth
                    following.append(child)
        frontier = following
    return {space.state(key): d for key, d in dist.items()}


@pytest.fixture(scope="module")
def truth_2x3():
    return distances(2, 3)


@pytest.fixture(scope="module")
def truth_3x3():
    return distances(3, 3)


def solve(name, puzzle, heuristic="manhattan", **options):
    algorithm = ALGORITHMS[name]
    twin = SlidingPuzzle(puzzle.rows, puzzle.cols, puzzle.start, puzzle.goal)  # heuristics know sliding puzzles only
    h = get_heuristic(heuristic if algorithm.uses_heuristic else "zero", twin)
    result = run(algorithm.start(puzzle, h, Limits(), options))
    assert puzzle.replay(result.moves) == puzzle.goal
    assert result.optimal
    return result


OPTIMAL = [("bfs", None), ("bidirectional", None), ("iddfs", None), ("idastar", "zero"), ("idastar", "misplaced"),
           ("idastar", "manhattan"), ("astar", "zero"), ("astar", "misplaced"), ("astar", "manhattan")]


def test_ground_truth_matches_the_known_3x3_figures(truth_3x3):
    assert len(truth_3x3) == 181440
    assert max(truth_3x3.values()) == 31
    assert truth_3x3[SlidingPuzzle.from_text(HARDEST).start] == 31


def test_every_optimal_algorithm_on_every_2x3_position(truth_2x3):
    assert len(truth_2x3) == 360
    for i, (cells, distance) in enumerate(sorted(truth_2x3.items())):
        for puzzle in (SlidingPuzzle(2, 3, cells),) + ((PlainPuzzle(2, 3, cells),) if i % 4 == 0 else ()):
            for name, heuristic in OPTIMAL:
                result = solve(name, puzzle, heuristic or "zero")
                assert len(result.moves) == distance, (format_board(cells, 3), name, heuristic)


INFORMED = ["misplaced", "manhattan", "linear_conflict", "walking_distance", "pdb"]


def test_every_informed_optimal_method_on_300_random_3x3_positions(truth_3x3):
    rng = random.Random(2024)
    for cells in rng.sample(sorted(truth_3x3), 300):
        puzzle = SlidingPuzzle(3, 3, cells)
        methods = [("bidirectional", None)] + [(name, h) for name in ("idastar", "astar") for h in INFORMED]
        for name, heuristic in methods:
            result = solve(name, puzzle, heuristic or "zero")
            assert len(result.moves) == truth_3x3[cells], (format_board(cells, 3), name, heuristic)


def test_uninformed_algorithms_on_random_3x3_positions(truth_3x3):
    # no heuristic costs up to a minute per position (IDDFS at 31 moves): every depth up to 20, and further
    # positions for the breadth-first ones
    rng = random.Random(7)
    by_depth = {}
    for cells, d in sorted(truth_3x3.items()):
        by_depth.setdefault(d, []).append(cells)
    for depth in range(1, 21):
        cells = rng.choice(by_depth[depth])
        for puzzle in (SlidingPuzzle(3, 3, cells),) + ((PlainPuzzle(3, 3, cells),) if depth % 4 == 0 else ()):
            for name, heuristic in [("bfs", None), ("iddfs", None), ("idastar", "zero"), ("astar", "zero")]:
                result = solve(name, puzzle, heuristic or "zero")
                assert len(result.moves) == depth, (format_board(cells, 3), name, heuristic)
    for depth in range(21, 32, 2):
        cells = rng.choice(by_depth[depth])
        for name in ("bfs", "astar"):
            assert len(solve(name, SlidingPuzzle(3, 3, cells), "zero").moves) == depth


def test_astar_with_three_heuristics():
    puzzle = SlidingPuzzle.from_text("7 8 2/6 3 4/5 0 1")
    results = {h: run(best_first(puzzle, get_heuristic(h, puzzle), Limits()))
               for h in ("zero", "misplaced", "manhattan")}
    for result in results.values():
        assert len(result.moves) == 25 and puzzle.replay(result.moves) == puzzle.goal
    assert [results[h].stats.expanded for h in ("zero", "misplaced", "manhattan")] == [147132, 18575, 875]
    assert results["misplaced"].stats.as_dict() | {"elapsed_s": 0} == {
        "expanded": 18575, "generated": 50352, "stored": 27923, "open_peak": 9421, "reopened": 0, "elapsed_s": 0}
    for result in results.values():
        s = result.stats
        assert s.generated >= s.expanded and s.stored >= s.open_peak > 0
    easy = SlidingPuzzle.from_text("1 2 3/7 4 6/5 0 8")
    for h in ("zero", "misplaced", "manhattan"):
        assert len(run(best_first(easy, get_heuristic(h, easy), Limits())).moves) == 5


MISLEADING = "1 3 6/4 0 8/7 2 5"  # 8 moves; Manhattan distance leads greedy search down a path of 32


def not_shortest(name, board, heuristic="manhattan", **options):
    """(moves, statistics) of greedy or weighted A*, whose paths replay to the goal but are not claimed shortest."""
    puzzle = SlidingPuzzle.from_text(board)
    result = run(ALGORITHMS[name].start(puzzle, get_heuristic(heuristic, puzzle), Limits(), options))
    assert puzzle.replay(result.moves) == puzzle.goal and result.optimal is False
    return len(result.moves), result.stats.expanded


def test_a_misleading_heuristic_takes_greedy_search_the_long_way():
    assert len(solve("astar", SlidingPuzzle.from_text(MISLEADING)).moves) == 8  # in 12 expansions
    assert not_shortest("greedy", MISLEADING) == (32, 89)
    assert not_shortest("greedy", MISLEADING, "misplaced") == (32, 193)
    assert not_shortest("weighted", MISLEADING) == (8, 12)
    assert not_shortest("greedy", "7 8 2/6 3 4/5 0 1") == (57, 378)  # A*: 25 moves, 875 expansions


def test_weighted_astar_trades_length_for_expansions():
    # the hardest position: A* with Manhattan distance expands 6,744 positions for 31 moves
    assert [not_shortest("weighted", HARDEST, weight=w) for w in (1, 1.5, 2, 3)] == [
        (31, 6744), (31, 566), (31, 384), (35, 449)]
    assert not_shortest("greedy", HARDEST) == (47, 104)
    assert not_shortest("weighted", "7 8 2/6 3 4/5 0 1") == (27, 203)  # the default weight, 2


class CountingPuzzle(SlidingPuzzle):
    """Counts how often each position is expanded (its moves listed)."""

    def moves(self, state):
        self.expansions[state] = self.expansions.get(state, 0) + 1
        return super().moves(state)


def test_greedy_and_weighted_never_reopen_and_stay_within_their_bound(truth_3x3):
    rng = random.Random(11)
    for cells in rng.sample(sorted(truth_3x3), 60):
        for name, weight, heuristic in [("greedy", None, "manhattan"), ("greedy", None, "pdb"),
                                        ("weighted", 2, "manhattan"), ("weighted", 1.5, "linear_conflict"),
                                        ("weighted", 3, "pdb")]:
            puzzle = CountingPuzzle(3, 3, cells)
            puzzle.expansions = {}
            h = get_heuristic(heuristic, SlidingPuzzle(3, 3, cells))
            result = run(ALGORITHMS[name].start(puzzle, h, Limits(), {"weight": weight}))
            assert puzzle.replay(result.moves) == puzzle.goal
            assert set(puzzle.expansions.values()) <= {1}  # pdb is not consistent: A* would reopen
            assert len(puzzle.expansions) == result.stats.expanded
            if name == "weighted" and heuristic != "pdb":  # consistent: at most W times the shortest
                assert len(result.moves) <= weight * truth_3x3[cells]


def test_weight_one_is_astar_when_the_heuristic_is_consistent(truth_3x3):
    rng = random.Random(12)
    for cells in rng.sample(sorted(truth_3x3), 30):
        puzzle = SlidingPuzzle(3, 3, cells)
        h = get_heuristic("manhattan", puzzle)
        astar = run(ALGORITHMS["astar"].start(puzzle, h, Limits(), {}))
        weighted = run(ALGORITHMS["weighted"].start(puzzle, h, Limits(), {"weight": 1}))
        assert weighted.moves == astar.moves and weighted.stats.expanded == astar.stats.expanded


def test_bfs_on_the_hardest_position_stores_the_whole_space_and_bidirectional_far_less():
    puzzle = SlidingPuzzle.from_text(HARDEST)
    one_way = run(bfs(puzzle, Limits()))
    both_ways = run(bidirectional(puzzle, Limits()))
    assert len(one_way.moves) == len(both_ways.moves) == 31
    assert puzzle.replay(both_ways.moves) == puzzle.goal
    assert one_way.stats.stored == 181440  # the farthest position: every other one is stored first
    assert both_ways.stats.stored * 10 < one_way.stats.stored
    assert both_ways.stats.expanded * 10 < one_way.stats.expanded


def test_generic_and_packed_spaces_give_the_same_searches():
    puzzle = SlidingPuzzle.from_text("7 8 2/6 3 4/5 0 1")
    for search in (bfs, bidirectional):
        packed = run(search(puzzle, Limits(), PackedSlidingSpace(puzzle)))
        plain = run(search(puzzle, Limits(), PuzzleSpace(puzzle)))
        assert packed.moves == plain.moves
        assert packed.stats.as_dict() | {"elapsed_s": 0} == plain.stats.as_dict() | {"elapsed_s": 0}


def test_packed_space_round_trips_and_moves_like_the_puzzle():
    rng = random.Random(3)
    for rows, cols in [(2, 2), (3, 3), (4, 4), (3, 5), (10, 10)]:
        puzzle = SlidingPuzzle(rows, cols, default_goal(rows, cols))
        space = PackedSlidingSpace(puzzle)
        cells = list(puzzle.goal)
        rng.shuffle(cells)
        key = space.pack(cells)
        assert space.state(key) == tuple(cells)
        assert sorted(space.state(k) for k in space.neighbours(key)) == sorted(c for _, c in puzzle.moves(tuple(cells)))


def test_start_at_goal_is_an_empty_path():
    puzzle = SlidingPuzzle.from_text("1 2 3/4 5 6/7 8 0")
    for name, heuristic in OPTIMAL:
        assert solve(name, puzzle, heuristic or "zero").moves == []


def test_any_goal():
    puzzle = SlidingPuzzle.from_text("1 0 2/3 4 5/6 7 8", "0 1 2/3 4 5/6 7 8")
    for name, heuristic in OPTIMAL:
        assert solve(name, puzzle, heuristic or "zero").moves == [1]


def test_unreachable_goal_exhausts_the_space():
    puzzle = SlidingPuzzle.from_text("2 1/3 0")  # the other parity: never reaches 1 2/3 0
    for search in (bfs(puzzle, Limits()), bidirectional(puzzle, Limits()),
                   best_first(puzzle, get_heuristic("manhattan", puzzle), Limits())):
        with pytest.raises(Unsolvable, match="exhausted"):
            run(search)


def test_iddfs_steps_its_limit_by_two_and_never_stores_more_than_the_path():
    puzzle = SlidingPuzzle.from_text("0 8 2/3 4 5/1 7 6")
    result = run(iddfs(puzzle, Limits()))
    assert len(result.moves) == 20
    assert [i["bound"] for i in result.stats.iterations] == list(range(0, 21, 2))
    assert result.stats.stored == 21


def test_iddfs_and_idastar_enumerate_the_same_shortest_solutions():
    puzzle = SlidingPuzzle.from_text("0 8 2/3 4 5/1 7 6")
    by_iddfs = run(iddfs(puzzle, Limits(), all_solutions=True))
    by_idastar = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits(), all_solutions=True))
    assert sorted(by_iddfs.solutions) == sorted(by_idastar.solutions)
    assert len(by_iddfs.solutions) == 4
    assert by_idastar.stats.expanded * 10 < by_iddfs.stats.expanded


def test_all_40_solutions_of_the_hardest_position():
    puzzle = SlidingPuzzle.from_text(HARDEST)
    found = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits(), all_solutions=True)).solutions
    assert len(found) == 40 and len({tuple(s) for s in found}) == 40
    assert all(len(s) == 31 and puzzle.replay(s) == puzzle.goal for s in found)


@pytest.mark.slow
def test_iddfs_finds_the_same_40_solutions_of_the_hardest_position():
    # 45-60 s: 86 million positions without a heuristic, the same 40 as IDA* with Manhattan distance
    puzzle = SlidingPuzzle.from_text(HARDEST)
    by_iddfs = run(iddfs(puzzle, Limits(), all_solutions=True))
    by_idastar = run(idastar(puzzle, get_heuristic("manhattan", puzzle), Limits(), all_solutions=True))
    assert len(by_iddfs.solutions) == 40
    assert sorted(by_iddfs.solutions) == sorted(by_idastar.solutions)
