"""Every algorithm's progress events follow the one schema (control.Meter; docs/algorithms.md, "Progress events")."""

import pytest

from slidelab import api
from slidelab.core import control
from slidelab.core.puzzles.tokens import TokenPuzzle
from slidelab.heuristics import get_heuristic
from slidelab.search import ALGORITHMS, pdb_idastar

PROGRESS_KEYS = {"type", "expanded", "generated", "stored", "elapsed_s", "nodes_per_s"}
HARD_3X3 = "8 6 7/2 5 4/3 0 1"  # 31 moves


@pytest.fixture(autouse=True)
def report_at_every_check(monkeypatch):
    """Progress at every look at the clock, and a look at every node, so that small searches report too."""
    import importlib
    monkeypatch.setattr(control, "PROGRESS_INTERVAL", 0)
    for name in ("search.bfs", "search.bidirectional", "search.best_first", "search.idastar",
                 "search.tile_table_idastar", "search.incremental_idastar", "search.pdb_idastar", "space.explore"):
        module = importlib.import_module(f"slidelab.{name}")
        if hasattr(module, "CHECK_EVERY"):
            monkeypatch.setattr(module, "CHECK_EVERY", 1)
    monkeypatch.setattr(pdb_idastar, "RECURSE_SLACK", 0)


def events_of(steps):
    events = []
    try:
        while True:
            events.append(next(steps))
    except StopIteration as stop:
        return events, stop.value


def assert_schema(event):
    assert event["type"] in ("progress", "iteration"), event
    if event["type"] == "iteration":
        assert {"type", "bound", "expanded", "generated"} <= set(event) <= {"type", "bound", "expanded", "generated",
                                                                            "next"}
        assert event.get("next", event["bound"] + 1) > event["bound"]  # the next bound, when the search goes on
        return
    assert PROGRESS_KEYS <= set(event), event
    assert ("bound" in event) != ("depth" in event), event  # exactly one of them
    for key in PROGRESS_KEYS - {"type", "elapsed_s"} | {"bound", "depth"} & set(event):
        assert isinstance(event[key], int) and event[key] >= 0, (key, event)
    assert isinstance(event["elapsed_s"], float) and event["elapsed_s"] >= 0
    assert event["generated"] >= event["expanded"] - 1  # every node expanded but the root was generated


SOLVES = [(algorithm, heuristic, board)
          for algorithm, heuristic, board in [
              ("bfs", "auto", HARD_3X3), ("bidirectional", "auto", HARD_3X3), ("iddfs", "auto", "1 2 3/4 5 6/0 7 8"),
              ("astar", "manhattan", HARD_3X3), ("greedy", "misplaced", HARD_3X3), ("weighted", "misplaced", HARD_3X3),
              ("idastar", "manhattan", HARD_3X3),
              ("idastar", "misplaced", "4 1 3/7 2 5/0 8 6"), ("idastar", "linear_conflict", HARD_3X3),
              ("idastar", "walking_distance", HARD_3X3), ("idastar", "pdb", HARD_3X3),
              ("quick", "auto", "1 2 3 4 5/6 7 8 9 10/11 12 13 14 15/16 17 18 19 20/21 22 23 0 24"),
          ]]


@pytest.mark.parametrize("algorithm, heuristic, board", SOLVES)
def test_every_sliding_search_reports_progress_in_one_schema(algorithm, heuristic, board):
    events, answer = events_of(api.solve_steps({"board": board, "algorithm": algorithm, "heuristic": heuristic}))
    assert answer["ok"], answer
    assert any(e["type"] == "progress" for e in events)
    for event in events:
        assert_schema(event)


@pytest.mark.parametrize("algorithm", ["bfs", "bidirectional", "iddfs", "astar", "idastar"])
def test_every_token_search_reports_progress_in_one_schema(algorithm):
    # driven directly: through the api a depth-first search first gets a probe, which reports nothing
    puzzle = TokenPuzzle.preset("knights" if algorithm != "iddfs" else "guarini")  # IDDFS: minutes on knights
    search = ALGORITHMS[algorithm].start(puzzle, get_heuristic("auto", puzzle), control.Limits(), {})
    events, result = events_of(search)
    assert len(result.moves) == 16
    assert any(e["type"] == "progress" for e in events)
    for event in events:
        assert_schema(event)


@pytest.mark.parametrize("request_", [{"shape": "2x3"}, {"puzzle": "knights"}])
def test_explore_reports_progress_in_one_schema(request_):
    events, answer = events_of(api.explore_steps(request_))
    assert answer["ok"]
    assert any(e["type"] == "progress" for e in events)
    for event in events:
        assert_schema(event)
        assert "depth" in event


def test_astar_reports_its_f_bound_greedy_and_weighted_the_depth_they_expand():
    for algorithm, key in [("astar", "bound"), ("greedy", "depth"), ("weighted", "depth")]:
        events, answer = events_of(api.solve_steps({"board": HARD_3X3, "algorithm": algorithm,
                                                    "heuristic": "misplaced"}))
        values = [e[key] for e in events]
        assert len(values) > 10
        if algorithm == "astar":  # misplaced tiles is consistent: f never goes down, up to the length
            assert values == sorted(values) and values[-1] <= answer["length"] == 31


def test_breadth_first_searches_report_the_depth_they_reached():
    events, _ = events_of(api.solve_steps({"board": HARD_3X3, "algorithm": "bfs"}))
    depths = [e["depth"] for e in events]
    assert depths == sorted(depths) and depths[-1] == 31
    events, _ = events_of(api.solve_steps({"board": HARD_3X3, "algorithm": "bidirectional"}))
    assert all(e["depth"] == e["forward_depth"] + e["backward_depth"] + 1 for e in events)
    assert max(e["depth"] for e in events) <= 31


def test_a_progress_event_has_a_bound_or_a_depth():
    meter = control.Meter(control.Limits())
    with pytest.raises(ValueError):
        meter.progress(stored=1)
    with pytest.raises(ValueError):
        meter.progress(stored=1, bound=3, depth=3)
    assert set(ALGORITHMS) == {a for a, _, _ in SOLVES}  # a new algorithm is added to the tests above
