"""The JSON boundary: answers, errors, progress and cancellation."""

import json

import pytest

from slidelab import api


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
    monkeypatch.setattr(api, "get_heuristic", broken)
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
