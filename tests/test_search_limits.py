"""Every algorithm honours node, time and memory limits and cancellation, and reports progress as documented."""

from itertools import pairwise

import pytest

from slidelab import api
from slidelab.core.control import CHECK_EVERY, Limits, run
from slidelab.core.errors import Cancelled, SearchLimit, TooLarge
from slidelab.core.puzzles.sliding import SlidingPuzzle
from slidelab.heuristics import get_heuristic
from slidelab.search import ALGORITHMS

HARDEST = "8 6 7/2 5 4/3 0 1"
FIFTEEN = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"  # 80 moves from the goal


def start(name, board, limits, heuristic="manhattan"):
    puzzle = SlidingPuzzle.from_text(board)
    h = get_heuristic(heuristic if ALGORITHMS[name].uses_heuristic else "zero", puzzle)
    return ALGORITHMS[name].start(puzzle, h, limits, {})


@pytest.mark.parametrize("name", ["bfs", "bidirectional", "iddfs", "idastar", "astar", "greedy", "weighted"])
def test_node_limit(name):
    with pytest.raises(SearchLimit, match="the limit is 10"):
        run(start(name, HARDEST, Limits(max_nodes=10), "zero"))


@pytest.mark.parametrize("name", ["bfs", "bidirectional", "iddfs", "idastar", "astar", "greedy", "weighted"])
def test_time_limit(name):
    with pytest.raises(SearchLimit, match="time limit"):
        run(start(name, HARDEST, Limits(max_seconds=1e-9), "zero"))


@pytest.mark.parametrize("name", ["bfs", "bidirectional", "iddfs", "idastar", "astar", "greedy", "weighted"])
def test_cancel_stops_at_the_first_report(name):
    events = []
    with pytest.raises(Cancelled):
        run(start(name, FIFTEEN, Limits(), "zero"), events.append, lambda: bool(events))
    assert len(events) == 1 and events[0]["type"] in ("progress", "iteration")
    if events[0]["type"] == "progress":
        assert {"expanded", "generated", "elapsed_s"} <= set(events[0])


@pytest.mark.parametrize("name", ["bfs", "bidirectional", "astar", "greedy", "weighted"])
def test_algorithms_that_store_positions_stop_before_memory_runs_out(name):
    with pytest.raises(TooLarge, match="more than 5,000 states"):
        run(start(name, FIFTEEN, Limits(max_stored=5000), "zero"))  # greedy with h would find a path at once


def test_progress_reports_come_while_a_long_search_runs():
    """At every check while a report is due (every check, here: a fast machine ends this search within one default
    interval)."""
    events = []
    result = run(start("bfs", HARDEST, Limits(progress_s=0)), events.append)
    assert len(result.moves) == 31
    progress = [e for e in events if e["type"] == "progress"]
    assert len(progress) > 10 and all(a["expanded"] < b["expanded"] for a, b in pairwise(progress))
    assert all(e["expanded"] % CHECK_EVERY == 0 for e in progress)


def test_api_answers_limits_and_refusals():
    assert api.solve({"board": HARDEST, "algorithm": "bfs", "max_nodes": 5})["error"]["code"] == "limit"
    assert api.solve({"board": HARDEST, "algorithm": "astar", "heuristic": "zero",
                      "max_seconds": 0.001})["error"]["code"] == "limit"
    answer = api.solve({"board": HARDEST, "algorithm": "bidirectional", "all_solutions": True})
    assert answer["error"]["code"] == "invalid" and "iddfs, idastar" in answer["error"]["message"]
    # a search of several progress intervals (0.5 s): a cancel is seen at the first report, 0.1 s in (breadth-first
    # search ends in about 0.11 s here, sometimes before its first report)
    answer = api.solve({"board": HARDEST, "algorithm": "astar", "heuristic": "zero"}, should_cancel=lambda: True)
    assert answer["error"]["code"] == "cancelled"
