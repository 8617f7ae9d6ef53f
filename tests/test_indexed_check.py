"""The complete check on the perfect index (numpy): the same report as the pure-Python check where both run, on one
process and on forked workers, and what it takes and refuses."""

from __future__ import annotations

import pytest

from slidelab import api
from slidelab.cli import main
from slidelab.heuristics.examples import source

pytest.importorskip("numpy")

SAME = ("complete", "positions", "admissible", "consistent", "overestimated", "mean_h", "mean_distance",
        "exact_share", "by_distance")


def _check(request, **more):
    report = api.check_heuristic({**request, **more})
    assert report["ok"], report
    return report


def _true_distance(goal: str, board: str) -> int:
    answer = api.solve({"board": board, "goal": goal, "algorithm": "idastar", "heuristic": "manhattan"})
    assert answer["ok"] and answer["optimal"]
    return answer["length"]


@pytest.mark.parametrize("shape, goal, name", [
    ("3x3", None, "manhattan"), ("3x3", None, "twice_manhattan"), ("3x3", None, "sometimes_manhattan"),
    ("2x4", "1 2 0 3/4 5 6 7", "misplaced"), ("2x4", "1 2 0 3/4 5 6 7", "twice_manhattan"),
])
def test_the_indexed_check_gives_the_pure_python_checks_report(shape, goal, name):
    request = {"shape": shape, "heuristic_code": source(name), **({"goal": goal} if goal else {})}
    python = _check(request, engine="python")
    indexed = _check(request, engine="numpy", workers=1)
    assert {k: indexed[k] for k in SAME} == {k: python[k] for k in SAME}
    assert indexed["stats"]["expanded"] == python["stats"]["expanded"] == python["positions"]
    goal_board = indexed["goal"]
    if "worst" in python:  # the same gap; the position may be another one as bad
        worst = indexed["worst"]
        assert worst["h"] - worst["distance"] == python["worst"]["h"] - python["worst"]["distance"] > 0
        assert _true_distance(goal_board, worst["board"]) == worst["distance"]
    if "move" in python:  # the same drop, along a real move
        move = indexed["move"]
        assert move["h_from"] - move["h_to"] == python["move"]["h_from"] - python["move"]["h_to"] > 1
        frm, to = (api.solve({"board": move[end], "goal": goal_board, "algorithm": "astar",
                              "heuristic": "manhattan"}) for end in ("from", "to"))
        assert abs(frm["length"] - to["length"]) == 1


def test_workers_share_the_evaluation_and_agree_with_one_process():
    request = {"shape": "3x3", "heuristic_code": source("sometimes_manhattan"), "engine": "numpy"}
    one, two = _check(request, workers=1), _check(request, workers=2)
    assert {k: two[k] for k in (*SAME, "move")} == {k: one[k] for k in (*SAME, "move")}
    assert two["positions"] == 181_440 and two["consistent"] is False and two["admissible"] is True


def test_an_error_in_a_workers_call_of_your_code_names_its_line():
    broken = "def h(board):\n    if board.tiles[0] == 5:\n        return 1 // 0\n    return 0\n"
    for workers in (1, 2):
        report = api.check_heuristic({"shape": "3x3", "heuristic_code": broken, "engine": "numpy",
                                      "workers": workers})
        assert report["ok"] is False and report["error"]["code"] == "user_code"
        assert "line 3" in report["error"]["message"] and "ZeroDivisionError" in report["error"]["message"]


def test_requests_the_engines_do_not_take_are_refused():
    manhattan = {"shape": "3x3", "heuristic_code": source("manhattan")}
    for more, words in [({"workers": 2}, "numpy engine"), ({"engine": "dask"}, "dask is for explore"),
                        ({"engine": "numpy", "workers": -1}, "workers"),
                        ({"shape": "4x4", "engine": "numpy"}, "up to 12 cells")]:
        report = api.check_heuristic({**manhattan, **more})
        assert report["ok"] is False and words in report["error"]["message"], (more, report)
    tokens = api.check_heuristic({"puzzle": "knights", "heuristic_code": source("nearest_goal"), "engine": "numpy"})
    assert tokens["ok"] is False and "token puzzles" in tokens["error"]["message"]


def test_a_12_cell_board_checked_in_python_is_a_sample_that_names_the_complete_check():
    report = _check({"shape": "2x6", "heuristic_code": source("manhattan"), "engine": "python", "max_seconds": 60})
    assert report["complete"] is False and report["admissible"] is None
    assert "numpy" in report["sample"]["complete_with"]


def test_cli_checks_with_the_numpy_engine_on_workers(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text(source("twice_manhattan"))
    assert main(["check-heuristic", str(path), "--shape", "2x4", "--engine", "numpy", "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "every position that can reach the goal checked, 20,160 positions" in out
    assert "admissible: no; it overestimates" in out


def test_without_numpy_a_check_that_needs_it_names_the_extra(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "numpy", None)  # `import numpy` raises ImportError
    answer = api.check_heuristic({"shape": "2x3", "heuristic": "manhattan", "engine": "numpy"})
    assert answer["error"]["code"] == "unavailable"
    assert answer["error"]["message"] == 'a complete check of this board needs numpy: pip install ".[scale]"'
    report = _check({"shape": "2x3", "heuristic": "manhattan"})  # small enough for pure Python
    assert report["complete"] and report["positions"] == 360 and report["admissible"]
    sample = _check({"shape": "3x4", "heuristic": "manhattan", "max_seconds": 5})  # too large for pure Python: a sample
    assert sample["complete"] is False and sample["admissible"] is None and sample["overestimated"] == 0
    assert sample["sample"]["complete_with"] == 'numpy (pip install ".[scale]") checks every position of this board'
