"""Explore's engines through the api and the CLI: pure Python, numpy (indexed) and Dask give the same answers, the
default picks numpy past two million positions, and bad engine choices are refused."""

import json

import pytest

from slidelab import api, cli

numpy = pytest.importorskip("numpy")


def same_space(a, b):
    keys = ("states", "depths", "max_depth", "farthest", "farthest_count", "goal")
    return {k: a[k] for k in keys} == {k: b[k] for k in keys}


@pytest.mark.parametrize("request_", [{"shape": "2x3"}, {"shape": "3x2", "goal": "0 1/2 3/4 5"},
                                      {"board": "8 6 7/2 5 4/3 0 1"}])
def test_the_numpy_engine_answers_as_the_python_one(request_):
    python = api.explore(request_)
    indexed = api.explore({**request_, "engine": "numpy"})
    assert python["ok"] and indexed["ok"] and python["engine"] == "python" and indexed["engine"] == "numpy"
    assert same_space(python, indexed)
    assert indexed.get("board_depth") == python.get("board_depth")
    assert indexed["memory_bytes"] > 0 and "memory_bytes" not in python


def test_past_two_million_positions_the_default_is_numpy():
    answer = api.explore({"shape": "2x6", "max_seconds": 0.5})  # 239,500,800 positions: numpy, stopped at once
    assert answer["error"]["code"] == "limit"
    assert api.explore({"shape": "2x5"})["engine"] == "python"  # 1,814,400: Python as before


@pytest.mark.parametrize("request_, reason", [
    ({"shape": "3x3", "engine": "fortran"}, "unknown explore engine"),
    ({"puzzle": "knights", "engine": "numpy"}, "explores sliding boards"),
    ({"shape": "3x3", "engine": "python", "scheduler": "tcp://127.0.0.1:1"}, "for the dask engine"),
    ({"shape": "4x4", "engine": "numpy"}, "12 cells"),
])
def test_bad_engine_choices_are_refused(request_, reason):
    answer = api.explore(request_)
    assert not answer["ok"] and reason in answer["error"]["message"]


def test_the_python_engine_names_the_scale_extra_for_12_cells():
    answer = api.explore({"shape": "3x4", "engine": "python"})
    assert answer["error"]["code"] == "too_large" and 'pip install ".[scale]"' in answer["error"]["message"]


def test_cli_explores_with_an_engine(capsys):
    assert cli.main(["explore", "2x4", "--engine", "numpy", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["states"], answer["max_depth"], answer["engine"]) == (20160, 36, "numpy")
    assert cli.main(["explore", "2x4", "--engine", "numpy"]) == 0
    assert "numpy engine," in capsys.readouterr().out


@pytest.mark.slow
def test_the_3x4_board_by_default():
    answer = api.explore({"shape": "3x4"})
    assert (answer["engine"], answer["states"], answer["max_depth"], answer["farthest_count"]) == (
        "numpy", 239_500_800, 53, 18)
    assert "0 3 2 1/8 7 6 5/4 11 10 9" in answer["farthest"]
