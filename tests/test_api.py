"""The JSON boundary: answers, errors, progress and cancellation."""

import json

import pytest

from slidelab import api
from slidelab.api import solving as api_solve


def test_solve_answer_shape():
    answer = api.solve({"board": "7 8 2/6 3 4/5 0 1"})
    assert answer["ok"] and answer["length"] == 25 and answer["optimal"] is True
    assert answer["algorithm"] == "idastar"
    assert set(answer["stats"]) >= {"expanded", "generated", "stored", "elapsed_s", "iterations"}
    json.dumps(answer)


@pytest.mark.parametrize("request_, code", [
    ({"board": "1 2 3/4 5 6/8 7 0"}, "unsolvable"),
    ({"board": "1 2 3/4 5 6/7 8"}, "invalid"),
    ({"board": "1 2 3/4 5 6/7 8 8"}, "invalid"),
    ({"board": "1 2 3/4 5 6/7 8 0", "goal": "1 2/3 0"}, "invalid"),
    ({"board": ""}, "invalid"),
    ({}, "invalid"),
    ("not an object", "invalid"),
    ({"board": 123}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "magic"}, "invalid"),
    ({"board": "1 0/2 3", "heuristic": "magic"}, "invalid"),
    ({"board": "1 0/2 3", "max_nodes": -5}, "invalid"),
    ({"board": "1 0/2 3", "all_solutions": "yes"}, "invalid"),
    ({"board": "1 0/2 3", "rule": "knight"}, "invalid"),  # a move rule is for token puzzles
    ({"board": "1 \u00b2 3/4 5 6/7 8 0"}, "invalid"),  # '²' is a digit to str.isdigit, not a tile number
    ({"board": "1 0/2 3", "max_nodes": 0.5}, "invalid"),
    ({"board": "1 0/2 3", "max_seconds": float("nan")}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "bfs", "heuristic": "magic"}, "invalid"),  # unused, still checked
    ({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "manhattan", "max_nodes": 100}, "limit"),
    ({"board": "1 0/2 3", "algorithm": "weighted", "weight": 0}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "weighted", "weight": -1.5}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "weighted", "weight": "2"}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "weighted", "weight": float("inf")}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "weighted", "weight": True}, "invalid"),
    ({"board": "1 0/2 3", "algorithm": "astar", "weight": 2}, "invalid"),  # a weight is for weighted A* only
    ({"board": "1 0/2 3", "algorithm": "greedy", "weight": 2}, "invalid"),
])
def test_errors_are_answers(request_, code):
    answer = api.solve(request_)
    assert answer["ok"] is False
    assert answer["error"]["code"] == code
    assert answer["error"]["message"]


def test_huge_limits_mean_no_limit():
    for key in ("max_nodes", "max_seconds"):
        answer = api.solve({"board": "7 8 2/6 3 4/5 0 1", key: 10**400})
        assert answer["ok"] and answer["length"] == 25


def test_a_bug_is_an_answer_not_a_crash(monkeypatch):
    def broken(*args):
        raise KeyError("oops")
    monkeypatch.setattr(api_solve, "get_heuristic", broken)  # where solve reads it
    answer = api.solve({"board": "7 8 2/6 3 4/5 0 1"})
    assert answer["ok"] is False and answer["error"]["code"] == "internal"
    assert "KeyError" in answer["error"]["message"]


def test_unsolvable_is_answered_without_search():
    answer = api.solve({"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"})
    assert answer["error"]["code"] == "unsolvable"
    assert "swapping any two tiles" in answer["error"]["message"]


def test_progress_and_cancel():
    events = []
    answer = api.solve({"board": "8 6 7/2 5 4/3 0 1", "heuristic": "misplaced"}, events.append,
                       should_cancel=lambda: len(events) >= 2)
    assert answer["error"]["code"] == "cancelled"
    assert len(events) == 2
    assert all("expanded" in e for e in events)


def test_check_reports_solvability():
    assert api.check({"board": "1 2 3/4 5 6/8 7 0"})["solvable"] is False
    ok = api.check({"board": "1,2,3/4,5,6/7,_,8"})
    assert ok["solvable"] and ok["board"] == "1 2 3/4 5 6/7 0 8" and (ok["rows"], ok["cols"]) == (3, 3)


def test_greedy_and_weighted_answers_are_not_claimed_shortest():
    board = "7 8 2/6 3 4/5 0 1"  # 25 moves
    greedy = api.solve({"board": board, "algorithm": "greedy", "heuristic": "manhattan"})
    assert greedy["ok"] and greedy["optimal"] is False and greedy["length"] == 57 and "weight" not in greedy
    for weight, length in [(None, 27), (2.0, 27), (1.5, 27), (3, 37)]:
        answer = api.solve({"board": board, "algorithm": "weighted", "heuristic": "manhattan", "weight": weight})
        assert answer["ok"] and answer["optimal"] is False and answer["length"] == length
        assert answer["weight"] == (weight or 2) and type(answer["weight"]) is (float if weight == 1.5 else int)
    message = api.solve({"board": board, "algorithm": "astar", "weight": 2})["error"]["message"]
    assert message == "a weight is for weighted A* (f = g + W * h); astar takes none"


def test_describe_says_which_algorithms_are_shortest_take_a_weight_and_can_be_traced():
    algorithms = {a["name"]: a for a in api.describe()["algorithms"]}
    assert list(algorithms) == ["bfs", "bidirectional", "iddfs", "idastar", "astar", "greedy", "weighted", "quick"]
    assert [name for name, a in algorithms.items() if not a["optimal"]] == ["greedy", "weighted", "quick"]
    assert {name: a["default_weight"] for name, a in algorithms.items() if a["default_weight"]} == {"weighted": 2}
    assert [name for name, a in algorithms.items() if not a["traceable"]] == ["quick"]
    assert algorithms["greedy"]["uses_heuristic"] and algorithms["greedy"]["puzzles"] == ["sliding", "tokens"]


def test_workers_are_read_one_way_for_solve_and_explore():
    from slidelab.contract.request import worker_count as _worker_count
    from slidelab.core.workers import cores

    assert _worker_count({"workers": 0}, 2) == cores() and _worker_count({"workers": 3.0}, 2) == 3
    assert _worker_count({}, 2) == 2
    for bad in (-1, True, "two", 1.5, 10_000):
        solve = api.solve({"board": "8 6 7/2 5 4/3 0 1", "workers": bad})
        explore = api.explore({"shape": "2x3", "engine": "dask", "workers": bad})
        assert solve["error"] == explore["error"] and "from 0 (one per core)" in solve["error"]["message"]


def test_the_api_gives_every_name_it_lists_and_types_each_as_it_gives_it():
    import ast
    import inspect

    from slidelab import api

    for name in api.__all__:
        assert getattr(api, name) is not None, name
    tree = ast.parse(inspect.getsource(api))
    typed = {}  # the names the `if TYPE_CHECKING:` block imports for mypy, by module
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imported in node.body:
                typed.setdefault(imported.module, set()).update(a.name for a in imported.names)
    typed.pop("slidelab.core.answers")  # the answers' types, for annotations: not names the api gives
    assert typed == {module: set(names) for module, names in api._FROM.items()}  # the two lists cannot drift
