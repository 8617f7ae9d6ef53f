"""Token puzzles at the JSON boundary and on the command line."""

import json

import pytest

from slidelab import api, cli
from slidelab.core.puzzles.tokens import PROOF_LIMIT, TokenPuzzle


def test_solve_knights_answer():
    answer = api.solve({"puzzle": "knights"})
    assert answer["ok"] and answer["length"] == 16 and answer["optimal"] is True
    assert answer["heuristic_used"] == "matching"
    assert all(isinstance(m, list) and len(m) == 2 for m in answer["moves"])
    p = TokenPuzzle.preset("knights")
    assert p.is_goal(p.replay(answer["moves"]))
    assert answer["notation"] == [p.move_name(m) for m in answer["moves"]]
    assert answer["notation"][0][0] in "abc" and "-" in answer["notation"][0]
    json.dumps(answer)


@pytest.mark.parametrize("algorithm", ["bfs", "bidirectional", "astar", "idastar"])
def test_every_algorithm_through_the_api(algorithm):
    answer = api.solve({"puzzle": "knights", "algorithm": algorithm})
    assert answer["ok"] and answer["length"] == 16


def test_custom_token_puzzle():
    request = {"puzzle": "tokens", "board": "AB./#..", "goal": "BA./#..", "rule": "king", "heuristic": "nearest"}
    answer = api.solve(request)
    assert answer["ok"] and answer["length"] == 3 and answer["heuristic"] == "nearest"


def test_preset_with_another_start():
    answer = api.solve({"puzzle": "knights", "board": "WBB/.../.../BWW", "algorithm": "bidirectional"})
    assert answer["ok"]
    p = TokenPuzzle.from_text("WBB/.../.../BWW", "WWW/.../.../BBB", "knight")
    assert p.is_goal(p.replay(answer["moves"]))


@pytest.mark.parametrize("request_, code, words", [
    ({"puzzle": "knights", "board": "BBB/.*./.../WWW"}, "invalid", "'*' is not a cell"),
    ({"puzzle": "knights", "board": "BBB/../.../WWW"}, "invalid", "row 2 has 2 cells"),
    ({"puzzle": "knights", "goal": "WWW/.../.../BBW"}, "invalid", "must hold the same pieces"),
    ({"puzzle": "knights", "rule": "king"}, "invalid", "uses knight moves"),
    ({"puzzle": "knights", "rule": 3}, "invalid", "'rule' must be text"),
    ({"puzzle": "tokens", "board": "AB.", "goal": "BA."}, "invalid", "no move rule given"),
    ({"puzzle": "tokens", "board": "AB.", "goal": "BA.", "rule": "rook"}, "invalid", "unknown move rule"),
    ({"puzzle": "tokens", "board": "AB.", "rule": "king"}, "invalid", "no goal given"),
    ({"puzzle": "chess"}, "invalid", "unknown puzzle type 'chess'"),
    ({"puzzle": "knights", "heuristic": "manhattan"}, "invalid", "does not apply to tokens"),
    ({"puzzle": "tokens", "board": "AB..", "goal": "BA..", "rule": "orthogonal"}, "unsolvable", "never meets it"),
    ({"puzzle": "guarini", "board": "B.B/.W./W..", "goal": "B.B/.../WW."}, "unsolvable", "b2 hold 1 W"),
])
def test_bad_requests_are_answers(request_, code, words):
    answer = api.solve(request_)
    assert answer["ok"] is False and answer["error"]["code"] == code
    assert words in answer["error"]["message"]


def test_a_limit_says_the_goal_may_be_unreachable():
    # A and B keep their order on the top line; the 2x10 field below gives depth-first search endless detours,
    # and the board has far too many arrangements for the exhaustive proof
    board = "AB......../##########/XX......../.........."
    request = {"puzzle": "tokens", "board": board, "goal": "BA" + board[2:], "rule": "orthogonal",
               "max_nodes": 20000}
    answer = api.solve(request)
    assert answer["error"]["code"] == "limit"
    assert "may be unreachable" in answer["error"]["message"]
    answer = api.solve(dict(request, algorithm="bfs"))
    assert answer["error"]["code"] == "unsolvable"  # breadth-first search exhausts the space and proves it


RING = "ABCD/.##./.##./...."  # a ring of 12 cells: the pieces keep their cyclic order (11,880 arrangements)


@pytest.mark.parametrize("algorithm", ["idastar", "iddfs"])
def test_depth_first_searches_end_on_an_unreachable_goal_too_large_for_the_exhaustive_check(algorithm):
    assert TokenPuzzle.from_text(RING, "BACD/.##./.##./....", "orthogonal").state_count() > PROOF_LIMIT
    answer = api.solve({"puzzle": "tokens", "board": RING, "goal": "BACD/.##./.##./....", "rule": "orthogonal",
                        "algorithm": algorithm})
    assert answer["ok"] is False and answer["error"]["code"] == "unsolvable"
    assert "never meets the other side" in answer["error"]["message"]


def test_a_search_longer_than_the_probe_is_run_in_full_after_the_proof():
    # IDDFS needs 736,000 nodes here, far beyond the probe: once the goal is proved reachable it runs from scratch
    request = {"puzzle": "tokens", "board": RING, "goal": "..../.##./.##./DCBA", "rule": "orthogonal",
               "algorithm": "iddfs"}
    events = []
    answer = api.solve(request, events.append)
    assert answer["ok"] and answer["length"] == 24
    assert answer["stats"]["expanded"] > api.PROBE_NODES
    bounds = [it["bound"] for it in answer["stats"]["iterations"]]
    assert bounds == list(range(0, 25, 2))  # one search's iterations, none twice
    assert [e["bound"] for e in events if e["type"] == "iteration"] == bounds  # the probe's are not reported
    assert api.solve(dict(request, algorithm="bfs"))["length"] == 24
    # the node limit counts the full search's own nodes; when it stops that search, the proof's finding is said
    assert api.solve(dict(request, max_nodes=800_000))["length"] == 24
    stopped = api.solve(dict(request, max_nodes=api.PROBE_NODES + 1))
    assert stopped["error"]["code"] == "limit" and "the goal can be reached" in stopped["error"]["message"]


def test_a_custom_token_puzzle_is_explored_from_its_start_without_a_goal():
    answer = api.explore({"puzzle": "tokens", "board": "AB../....", "rule": "king"})
    assert answer["ok"] and answer["root"] == "start" and answer["states"] == 56  # 8 * 7 placements, all reachable
    assert answer["depths"][0] == 1 and "goal" not in answer and "board_depth" not in answer
    with_goal = api.explore({"puzzle": "tokens", "board": "AB../....", "goal": "..../..BA", "rule": "king"})
    assert with_goal["depths"] == answer["depths"] and with_goal["board_depth"] == 4


def test_explore_knights_from_the_start():
    answer = api.explore({"puzzle": "knights"})
    assert answer["ok"] and answer["root"] == "start"
    assert answer["states"] == 18480 and answer["max_depth"] == 22
    assert answer["farthest_count"] == 3 and len(answer["farthest"]) == 3
    assert answer["board"] == "BBB/.../.../WWW" and answer["board_depth"] == 16
    p = TokenPuzzle.preset("knights")
    assert all(p.parse(board) != p.start for board in answer["farthest"])
    json.dumps(answer)


def test_explore_refuses_a_board_too_large():
    board = "/".join(["AAAAA....."] * 10)
    answer = api.explore({"puzzle": "tokens", "board": board, "goal": board, "rule": "king"})
    assert answer["error"]["code"] == "too_large"


def test_check_gives_the_app_what_it_draws():
    answer = api.check({"puzzle": "knights", "board": ".BB/..B/.../WWW"})
    assert answer["ok"] and answer["solvable"] and answer["rule"] == "knight"
    assert answer["squares"][0] == "a4" and answer["removed"] == [] and (answer["rows"], answer["cols"]) == (4, 3)
    assert "edges" not in answer and "legal_moves" not in answer  # the page has its own move rules (tokens.js)
    bad = api.check({"puzzle": "tokens", "board": "AB..", "goal": "BA..", "rule": "orthogonal"})
    assert bad["ok"] and bad["solvable"] is False and bad["reason"]


def test_describe_lists_presets_and_rules():
    d = api.describe()
    knights = next(p for p in d["presets"] if p["name"] == "knights")
    assert (knights["board"], knights["goal"], knights["rule"]) == ("BBB/.../.../WWW", "WWW/.../.../BBB", "knight")
    assert {r["name"] for r in d["rules"]} == {"knight", "king", "orthogonal"}
    assert {"nearest", "matching"} <= {h["name"] for h in d["heuristics"] if "tokens" in h["puzzles"]}
    for preset in d["presets"]:  # every preset solves through the api with its own request
        assert api.solve({"puzzle": preset["puzzle"]})["ok"]


def test_cli_solve_knights(capsys):
    assert cli.main(["solve", "--puzzle", "knights"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("16 moves (optimal), idastar")
    moves_line = next(line for line in out.splitlines() if line.startswith("moves: "))
    assert len(moves_line.split()) == 17 and "-" in moves_line


def test_cli_solve_tokens_json(capsys):
    code = cli.main(["solve", "--puzzle", "tokens", "AB./#..", "--goal", "BA./#..", "--rule", "king", "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0 and answer["length"] == 3 and len(answer["notation"]) == 3


def test_cli_explore_knights(capsys):
    assert cli.main(["explore", "--puzzle", "knights"]) == 0
    out = capsys.readouterr().out
    assert "18,480 positions can be reached from the start; the farthest are 22 moves away: 3 positions" in out
    assert "goal WWW/.../.../BBB: 16 moves from the start" in out


@pytest.mark.parametrize("argv, code", [
    (["solve", "--puzzle", "tokens", "AB..", "--goal", "BA..", "--rule", "orthogonal"], 1),  # unsolvable
    (["solve", "--puzzle", "knights", "BBB/.../WWW"], 2),
    (["explore", "--puzzle", "tokens", "AB..", "--goal", "BA.."], 2),
])
def test_cli_exit_codes(argv, code, capsys):
    assert cli.main(argv) == code
    err = capsys.readouterr().err
    assert err.startswith("slidelab: ") and err.count("\n") == 1


def test_cli_unknown_rule(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["solve", "--puzzle", "tokens", "AB..", "--goal", "BA..", "--rule", "rook"])
    assert stop.value.code == 2 and "invalid choice: 'rook'" in capsys.readouterr().err
