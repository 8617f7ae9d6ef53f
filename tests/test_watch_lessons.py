"""The numbers of Watch the search's lessons (web/js/watch.js, LESSONS) are the engine's: the assignment's comparison
of A* heuristics, and a position where greedy best-first search is misled into a long path and A* is not."""

from __future__ import annotations

import pytest

from slidelab import api

ASSIGNMENT = "7 8 2/6 3 4/5 0 1"
MISLEADING = "8 7 0/4 5 3/2 1 6"  # found by searching random 8-puzzle positions for the widest greedy/A* gap


@pytest.mark.parametrize("heuristic, expanded", [("zero", 147_132), ("misplaced", 18_575), ("manhattan", 875)])
def test_the_assignments_a_star_comparison(heuristic, expanded):
    answer = api.solve({"board": ASSIGNMENT, "algorithm": "astar", "heuristic": heuristic})
    assert (answer["length"], answer["stats"]["expanded"], answer["optimal"]) == (25, expanded, True)


def test_greedy_best_first_is_misled_into_a_long_path_where_a_star_finds_the_shortest():
    greedy = api.solve({"board": MISLEADING, "algorithm": "greedy", "heuristic": "manhattan"})
    astar = api.solve({"board": MISLEADING, "algorithm": "astar", "heuristic": "manhattan"})
    assert (greedy["length"], greedy["stats"]["expanded"], greedy["optimal"]) == (62, 581, False)
    assert (astar["length"], astar["stats"]["expanded"], astar["optimal"]) == (20, 119, True)
    assert api.solve({"board": MISLEADING, "algorithm": "idastar", "heuristic": "manhattan"})["length"] == 20
    for answer, request in ((greedy, "greedy"), (astar, "astar")):  # both fit in a trace, which agrees
        traced = api.trace({"board": MISLEADING, "algorithm": request, "heuristic": "manhattan"})
        assert (traced["length"], traced["expanded"], traced["truncated"]) == (answer["length"],
                                                                              answer["stats"]["expanded"], False)


def test_the_knight_exchange_lesson():
    request = {"puzzle": "knights", "board": "BBB/.../.../WWW", "heuristic": "matching"}
    greedy = api.solve({**request, "algorithm": "greedy"})
    astar = api.solve({**request, "algorithm": "astar"})
    assert (greedy["length"], greedy["stats"]["expanded"]) == (18, 27)
    assert (astar["length"], astar["stats"]["expanded"]) == (16, 336)
