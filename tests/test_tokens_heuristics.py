"""Token-puzzle heuristics: admissible and consistent against exact distances; the assignment solver is exact."""

import random
from itertools import permutations

import pytest

from slidelab.core.puzzles.tokens import TokenPuzzle
from slidelab.heuristics import get_heuristic
from slidelab.heuristics.tokens import CHUNK_BITS, graph_distances, min_assignment


def distances_to_goal(puzzle):
    """Exact distance to the goal of every state that can reach it (moves are reversible: BFS from the goal)."""
    dist, frontier = {puzzle.goal: 0}, [puzzle.goal]
    while frontier:
        following = []
        for state in frontier:
            for child in puzzle.children(state):
                if child not in dist:
                    dist[child] = dist[state] + 1
                    following.append(child)
        frontier = following
    return dist


PUZZLES = [
    ("BBB/.../.../WWW", "WWW/.../.../BBB", "knight"),  # the knight exchange, 18,480 states
    ("B..W/.BW./....", "W..B/.WB./....", "king"),
    ("AB.#/.CA./#..B", "BA.#/..CA/#B..", "orthogonal"),  # three kinds: 2 bits per cell
    ("ABC/DE./...", "..E/.DC/BA.", "king"),  # five kinds: 3 bits per cell, three chunks
    ("AAAA/..../..../....", "..../..../..../AAAA", "orthogonal"),  # one kind: 1 bit per cell
]


@pytest.mark.parametrize("board, goal, rule", PUZZLES)
def test_admissible_consistent_and_ordered(board, goal, rule):
    p = TokenPuzzle.from_text(board, goal, rule)
    nearest, matching = get_heuristic("nearest", p), get_heuristic("matching", p)
    dist = distances_to_goal(p)
    assert nearest(p.goal) == matching(p.goal) == 0
    for state, d in dist.items():
        hn, hm = nearest(state), matching(state)
        assert hn <= hm <= d  # admissible, and the assignment never below the nearest cells
        for child in p.children(state):
            assert abs(matching(child) - hm) <= 1 and abs(nearest(child) - hn) <= 1  # consistent


def test_matching_is_stronger_on_the_knight_exchange():
    p = TokenPuzzle.preset("knights")
    nearest, matching = get_heuristic("nearest", p), get_heuristic("matching", p)
    assert (nearest(p.start), matching(p.start)) == (12, 14)  # and 16 moves are needed
    dist = distances_to_goal(p)
    assert sum(map(matching, dist)) > sum(map(nearest, dist))


def test_heuristics_match_a_direct_computation():
    """The chunk tables give the same values as summing graph distances cell by cell."""
    p = TokenPuzzle.from_text("ABC/DE./...", "..E/.DC/BA.", "king")
    assert p.bits * p.size > 2 * CHUNK_BITS  # several chunks
    dist = graph_distances(p.neighbours)
    goal = p.cells(p.goal)
    nearest, matching = get_heuristic("nearest", p), get_heuristic("matching", p)
    rng = random.Random(3)
    state = p.start
    for _ in range(300):
        cells = p.cells(state)
        expected_nearest = sum(min(dist[a][g] for g in range(p.size) if goal[g] == k)
                               for a, k in enumerate(cells) if k.isalpha())
        assert nearest(state) == expected_nearest
        # one piece per kind here, so the assignment is the nearest cell too
        assert matching(state) == expected_nearest
        state = rng.choice(p.children(state))


def test_graph_distances_knight_3x4():
    p = TokenPuzzle.preset("knights")
    d = graph_distances(p.neighbours)
    assert d[0][0] == 0 and d[0][5] == 1 and d[0][9] == 5  # a4 to a1: five knight moves on this narrow board
    assert all(d[a][b] == d[b][a] for a in range(12) for b in range(12))


def test_unreachable_cells_get_a_large_distance():
    p = TokenPuzzle.preset("guarini")
    assert graph_distances(p.neighbours)[0][4] == p.size  # the centre is out of every knight's reach


def brute_force(cost):
    n = len(cost)
    return min(sum(cost[i][j] for i, j in enumerate(perm)) for perm in permutations(range(n)))


def test_assignment_is_optimal():
    rng = random.Random(11)
    for n in range(1, 7):
        for _ in range(40):
            cost = [[rng.randint(0, 6) for _ in range(n)] for _ in range(n)]
            assert min_assignment(cost) == brute_force(cost)


def test_assignment_known_case():
    assert min_assignment([[4, 1, 3], [2, 0, 5], [3, 2, 2]]) == 5
