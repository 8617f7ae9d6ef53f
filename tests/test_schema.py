"""The api's JSON Schema (docs/api.schema.json) is written from the request and answer types, is current, agrees with
the parser on what a request may hold, and the api's real answers meet it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from slidelab import api
from slidelab.contract import request as requests
from slidelab.contract.record import FrozenInstanceError, fields, replace
from slidelab.contract.schema import answer_errors, schema

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).resolve().parents[1]
HARDEST_8 = "8 6 7/2 5 4/3 0 1"
YOURS = """
def h(board):
    return sum(abs(board.row(board.where(t)) - board.row(board.home(t)))
               + abs(board.col(board.where(t)) - board.col(board.home(t))) for t in board.tiles if t)
"""


def test_the_schema_in_the_docs_is_current_and_a_valid_schema():
    written = json.loads((ROOT / "docs" / "api.schema.json").read_text(encoding="utf-8"))
    assert written == schema(), "regenerate it: python -m slidelab.contract.schema > docs/api.schema.json"
    jsonschema.Draft202012Validator.check_schema(written)
    defs = written["$defs"]
    assert {"solve_request", "trace_request", "explore_request", "check_heuristic_request", "split_request",
            "solve_answer", "trace_answer", "explore_answer", "check_heuristic_answer", "check_answer",
            "error_answer", "progress"} <= set(defs)
    assert defs["solve_request"]["properties"]["engine"]["enum"] == ["processes", "dask", "page"]
    assert defs["split_request"]["properties"]["split_for"]["maximum"] == 256


def request_errors(request: dict, kind: str = "solve") -> list:
    validator = jsonschema.Draft202012Validator({**schema(), "$ref": f"#/$defs/{kind}_request"})
    return list(validator.iter_errors(request))


BAD_REQUESTS = [
    {"board": HARDEST_8, "workers": -1},
    {"board": HARDEST_8, "workers": 257},
    {"board": HARDEST_8, "engine": "gpu", "workers": 2},
    {"board": HARDEST_8, "tables": "pdb99"},
    {"board": HARDEST_8, "max_nodes": 0},
    {"board": HARDEST_8, "max_seconds": -1},
    {"board": HARDEST_8, "algorithm": "weighted", "weight": 0},
    {"board": HARDEST_8, "all_solutions": "yes"},
    {"board": 12},
    {"board": HARDEST_8, "compare": 1},
]


@pytest.mark.parametrize("request_", BAD_REQUESTS, ids=lambda r: ",".join(k for k in r if k != "board") or "board")
def test_a_request_the_schema_refuses_is_refused_by_the_parser_with_a_clear_message(request_):
    assert request_errors(request_)
    answer = api.solve(request_)
    assert answer["ok"] is False and answer["error"]["code"] == "invalid" and answer["error"]["message"]


GOOD_REQUESTS = [
    ({"board": HARDEST_8}, "solve"),
    ({"board": HARDEST_8, "algorithm": "weighted", "weight": 1.5, "max_nodes": 10_000}, "solve"),
    ({"puzzle": "knights", "algorithm": "bidirectional"}, "solve"),
    ({"board": HARDEST_8, "heuristic_code": YOURS, "compare": False}, "solve"),
    ({"board": "1 2 3/4 5 6/0 7 8", "max_steps": 50}, "trace"),
    ({"shape": "2x3", "engine": "python"}, "explore"),
    ({"shape": "2x3", "heuristic": "manhattan", "examples": 3}, "check_heuristic"),
    ({"board": HARDEST_8, "split_for": 2}, "split"),
]


@pytest.mark.parametrize("request_,kind", GOOD_REQUESTS, ids=lambda v: v if isinstance(v, str) else "")
def test_a_request_the_parser_takes_meets_the_schema_and_goes_back_to_the_same_json(request_, kind):
    assert request_errors(request_, kind) == []
    parse = {"solve": requests.parse_solve, "trace": requests.parse_trace, "explore": requests.parse_explore,
             "check_heuristic": requests.parse_check, "split": requests.parse_split}[kind]
    parsed = parse(request_)
    again = requests.as_json(parsed)
    assert request_errors(again, kind) == []
    assert parse(again) == parsed  # what another runtime reads from it is the same request
    assert all(again[k] == v for k, v in request_.items())


def test_a_record_is_built_compared_copied_and_shown_as_a_dataclass_would_be():
    method = requests.Method("astar", "manhattan")
    assert (method.algorithm, method.heuristic, method.weight, method.all_solutions) == ("astar", "manhattan", None,
                                                                                          False)
    assert method == requests.Method(algorithm="astar", heuristic="manhattan") != requests.Method()
    assert hash(method) == hash(requests.Method("astar", heuristic="manhattan"))
    assert replace(method, weight=2) == requests.Method("astar", "manhattan", 2) and method.weight is None
    assert repr(method) == ("Method(algorithm='astar', heuristic='manhattan', weight=None, tables=None, "
                            "all_solutions=False)")
    solve = requests.parse_solve({"board": HARDEST_8})
    assert repr(solve).endswith(", compare=True)") and solve == replace(solve, puzzle=None)  # not what the parse made
    assert requests.Solve().position == requests.Position() and requests.Solve().position is not requests.Position()
    assert [f.name for f in fields(requests.Budget)] == ["max_nodes", "max_seconds"]
    for wrong, said in [(lambda: requests.Budget(1, 2, 3), "takes 2 values, 3 given"),
                        (lambda: requests.Budget(1, max_nodes=2), "two values for 'max_nodes'"),
                        (lambda: requests.Budget(nodes=2), "no field 'nodes'")]:
        with pytest.raises(TypeError, match=said):
            wrong()
    with pytest.raises(FrozenInstanceError):
        del method.weight


def test_the_parsed_request_is_frozen_and_says_what_the_parse_worked_out():
    parsed = requests.parse_solve({"board": HARDEST_8, "algorithm": "weighted"})
    assert parsed.method.weight == 2 and parsed.method.answered == "auto" and parsed.parallel is None
    assert parsed.puzzle.format(parsed.puzzle.start) == HARDEST_8
    with pytest.raises(FrozenInstanceError):
        parsed.method = requests.Method()  # type: ignore[misc]
    bfs = requests.parse_solve({"board": HARDEST_8, "algorithm": "bfs"})
    assert bfs.method.used == "zero" and bfs.method.answered is None and bfs.method.weight is None
    split = requests.parse_solve({"board": HARDEST_8, "workers": 3, "engine": "page"}).parallel
    assert split == requests.Parallel(3, "page", None, 0.05)  # the page's pool splits only longer searches
    from slidelab.core.workers import cores

    on_dask = requests.parse_solve({"board": HARDEST_8, "scheduler": "tcp://127.0.0.1:8786"}).parallel
    assert on_dask == requests.Parallel(cores(), "dask", "tcp://127.0.0.1:8786")  # a cluster: one per core by default


def answers():
    """Real answers of every kind, with what they must say."""
    events: list = []
    solved = api.solve({"board": HARDEST_8}, on_progress=events.append)
    assert solved["length"] == 31 and solved["optimal"]
    yield "solve", solved
    yield from (("progress", event) for event in events)
    knights = api.solve({"puzzle": "knights"})
    assert knights["length"] == 16 and len(knights["notation"]) == 16
    yield "solve", knights
    split = api.solve({"board": HARDEST_8, "workers": 2})
    assert split["length"] == 31 and len(split["parallel"]["workers"]) == 2
    yield "solve", split
    every = api.solve({"board": "1 2 3/4 5 6/0 7 8", "algorithm": "iddfs", "all_solutions": True})
    assert every["solution_count"] == 1
    yield "solve", every
    yield "solve", api.solve({"board": HARDEST_8, "algorithm": "weighted", "weight": 1.5})
    yours = api.solve({"board": HARDEST_8, "heuristic_code": YOURS})
    assert yours["shortest_length"] == 31 and yours["optimal"]
    yield "solve", yours
    unsolvable = api.solve({"board": "6 8 7/2 5 4/3 0 1"})
    assert unsolvable["error"]["code"] == "unsolvable"
    yield "solve", unsolvable
    yield "solve", api.solve({"board": "x"})
    yield "solve", api.solve({"board": HARDEST_8, "algorithm": "bfs", "max_nodes": 100})
    traced = api.trace({"board": "1 2 3/4 5 6/0 7 8"})
    assert traced["length"] == 2
    yield "trace", traced
    cut = api.trace({"board": HARDEST_8, "algorithm": "bfs", "max_steps": 10})
    assert cut["truncated"] and cut["limit"] == "max_steps" and "stored" not in cut["stats"]
    yield "trace", cut
    explored = api.explore({"shape": "3x3"})
    assert explored["states"] == 181_440 and explored["max_depth"] == 31
    yield "explore", explored
    yield "explore", api.explore({"puzzle": "knights"})
    yield "explore", api.explore({"puzzle": "tokens", "board": "ab/..", "rule": "king"})
    yield "check", api.check({"board": "1 2 3/4 0 5"})
    unsolvable_check = api.check({"board": "2 1 3/4 5 0"})
    assert unsolvable_check["solvable"] is False
    yield "check", unsolvable_check
    checked = api.check_heuristic({"shape": "2x3", "heuristic": "manhattan", "examples": 2})
    assert checked["complete"] and checked["admissible"] and checked["positions"] == 360
    yield "check_heuristic", checked
    overestimates = api.check_heuristic({"shape": "2x3", "heuristic_code": YOURS.replace("return", "return 2 *"),
                                         "examples": 2})
    assert overestimates["admissible"] is False
    yield "check_heuristic", overestimates
    knights = api.check_heuristic({"puzzle": "knights", "heuristic": "matching"})
    assert knights["complete"] and knights["admissible"] and "examples" not in knights
    yield "check_heuristic", knights


def test_every_kind_of_answer_meets_the_schema():
    kinds = set()
    for kind, answer in answers():
        assert answer_errors(answer, kind) == [], (kind, answer)
        kinds.add(kind if answer.get("ok", True) else "error")
    assert kinds == {"solve", "progress", "trace", "explore", "check", "check_heuristic", "error"}


def test_an_answer_that_breaks_the_schema_is_told():
    solved = api.solve({"board": HARDEST_8})
    assert answer_errors(dict(solved, length="31"), "solve") == ["length: '31' is not of type 'integer'"]
    assert answer_errors({k: v for k, v in solved.items() if k != "stats"}, "solve")
    assert answer_errors({"ok": False, "error": {"code": "oops", "message": ""}}, "solve")
