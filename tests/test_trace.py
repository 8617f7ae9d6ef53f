"""Traces of searches (api.trace, search/trace.py): the same searches as the real ones, step by step, in a format
whose every node and step can be checked: legal moves, g and h, statuses, bounds, paths."""

import json
from itertools import pairwise

import pytest

from slidelab import api, cli
from slidelab.core.control import Limits, run
from slidelab.core.puzzles.sliding import SlidingPuzzle
from slidelab.heuristics import get_heuristic
from slidelab.search.idastar import generic_idastar
from slidelab.search.iddfs import ZeroEstimator
from test_progress import events_of

BOARDS = ["1 2 3/7 4 6/5 0 8", "1 3 6/4 0 8/7 2 5", "0 8 2/3 4 5/1 7 6", "7 8 2/6 3 4/5 0 1", "8 6 7/2 5 4/3 0 1"]
SLIDING_HEURISTICS = ["zero", "misplaced", "manhattan", "linear_conflict", "walking_distance", "pdb", "auto"]
MISLEADING = "1 3 6/4 0 8/7 2 5"  # 8 moves; greedy search with Manhattan distance finds 32
TOKENS = {"puzzle": "tokens", "board": "AB#/..#/...", "goal": "..#/..#/.BA", "rule": "king"}  # 4 moves


def check(answer, request):
    """Every property a trace promises, against the puzzle itself; returns the answer."""
    assert answer["ok"], answer
    json.dumps(answer)
    puzzle = api.make_puzzle(request)
    heuristic = get_heuristic(answer["heuristic"] or "zero", puzzle)
    nodes, steps = answer["nodes"], answer["steps"]
    assert list(nodes) == [str(i) for i in range(len(nodes))]
    for node in nodes.values():
        state = puzzle.parse(node["board"])
        assert node["h"] == heuristic(state)
        if node["parent"] is None:
            assert node["g"] == 0 and node["move"] is None and node["name"] is None
            continue
        parent = nodes[node["parent"]]
        assert puzzle.apply(puzzle.parse(parent["board"]), node["move"]) == state  # a legal move of the parent
        assert node["name"] == puzzle.move_name(node["move"]) and node["g"] == parent["g"] + 1
        assert node.get("side") == parent.get("side")
    g_weight, h_weight = {"greedy": (0, 1), "weighted": (1, answer.get("weight"))}.get(answer["algorithm"], (1, 1))
    depth_first = answer["algorithm"] in ("idastar", "iddfs")
    roots = {i for i, node in nodes.items() if node["parent"] is None}
    status_of, expanded, bound = {}, set(), None  # status_of: each node generated so far
    by_board = {}  # (board, side) -> the ids made so far with that board (roots at once)
    for i in roots:
        by_board.setdefault((nodes[i]["board"], nodes[i].get("side")), []).append(i)
    for step in steps:
        kind = step["type"]
        if kind == "generate":
            node_id, status = step["node"], step["status"]
            node = nodes[node_id]
            assert node_id not in status_of and node_id not in roots
            assert step["parent"] == node["parent"] and step["parent"] in expanded
            assert step["f"] == g_weight * node["g"] + h_weight * node["h"]
            earlier = by_board.setdefault((node["board"], node.get("side")), [])[:]
            by_board[node["board"], node.get("side")].append(node_id)
            status_of[node_id] = status
            if depth_first:  # a tree search: every child is new, or pruned by the bound
                assert status in ("new", "pruned") and (step["f"] > bound) == (status == "pruned")
            elif status == "new":
                assert not earlier
            elif status == "closed":
                assert any(i in expanded for i in earlier)
            elif status == "open":
                assert any(i not in expanded for i in earlier)
            else:
                assert status == "better" and earlier
        elif kind == "expand":
            assert step["node"] not in expanded and status_of.get(step["node"], "root") in ("root", "new", "better")
            assert (step["node"] in roots) == (step["node"] not in status_of)
            expanded.add(step["node"])
        elif kind == "iteration":
            assert bound is None or step["bound"] > bound
            bound = step["bound"]
    assert answer["expanded"] == len(expanded) == answer["stats"]["expanded"]
    assert answer["stats"]["generated"] == sum(s["type"] == "generate" for s in steps)
    if answer["truncated"]:
        assert answer["solution"] is None and answer["length"] is None and "note" in answer
        assert steps[-1]["type"] != "solution"
        return answer
    path = answer["solution"]
    assert steps[-1] == {"type": "solution", "path": path} and len(path) == answer["length"] + 1
    assert nodes[path[0]]["board"] == answer["board"] and nodes[path[-1]]["board"] == answer["goal"]
    boards = [puzzle.start]
    for move in answer["moves"]:
        boards.append(puzzle.apply(boards[-1], move))
    assert [puzzle.parse(nodes[i]["board"]) for i in path] == boards
    if answer["algorithm"] != "bidirectional":
        assert all(nodes[child]["parent"] == parent for parent, child in pairwise(path))
    return answer


def traced(request, **more):
    return check(api.trace(dict(request, **more)), request)


def solved_within(request, steps=api.MAX_TRACE_STEPS):
    """The solve answer of a request, or None when it expands more than a trace records (at most ~2 x 4,096)."""
    answer = api.solve(dict(request, max_nodes=steps))
    return answer if answer["ok"] and answer["stats"]["expanded"] <= steps else None


@pytest.mark.parametrize("algorithm, heuristic, weight", [("bfs", None, None), ("greedy", "manhattan", None),
                                                          ("weighted", "manhattan", None), ("weighted", "pdb", 1.5),
                                                          ("greedy", "misplaced", None), ("bidirectional", None, None)]
                         + [("astar", h, None) for h in SLIDING_HEURISTICS])
def test_a_full_trace_is_the_real_search_step_by_step(algorithm, heuristic, weight):
    finished = 0
    for board in BOARDS:
        request = {"board": board, "algorithm": algorithm, "heuristic": heuristic, "weight": weight}
        answer = traced(request)
        solved = solved_within(request)
        if solved is None:
            assert answer["truncated"] and answer["expanded"] == 2000
            assert answer["note"] == "stopped after 2,000 expansions (max_steps), before reaching the goal"
            continue
        finished += 1
        assert not answer["truncated"] and answer["length"] == solved["length"]
        assert answer["moves"] == solved["moves"]
        assert answer["stats"] | {"elapsed_s": 0} == solved["stats"] | {"elapsed_s": 0}
    assert finished >= 2


def test_depth_first_traces_are_the_generic_contour():
    for board in BOARDS[:3]:
        puzzle = SlidingPuzzle.from_text(board)
        for algorithm, heuristic in [("idastar", "manhattan"), ("idastar", "walking_distance"), ("iddfs", None)]:
            if algorithm == "iddfs" and board == BOARDS[2]:
                continue  # 20 moves: far more than 2,000 expansions without a heuristic
            request = {"board": board, "algorithm": algorithm, "heuristic": heuristic}
            answer = traced(request)
            h = get_heuristic(heuristic, puzzle) if heuristic else ZeroEstimator()
            real = run(generic_idastar(puzzle, h, Limits(max_nodes=2000)))
            assert answer["length"] == len(real.moves) and answer["moves"] == real.moves
            assert answer["stats"]["iterations"] == real.stats.iterations
            bounds = [s["bound"] for s in answer["steps"] if s["type"] == "iteration"]
            assert bounds == [i["bound"] for i in real.stats.iterations]
            roots = [i for i, node in answer["nodes"].items() if node["parent"] is None]
            assert len(roots) == len(bounds)  # a new root at each iteration


def test_ida_star_prunes_above_the_bound_and_reaches_the_same_boards_again():
    answer = traced({"board": "7 8 2/6 3 4/5 0 1", "algorithm": "idastar", "heuristic": "manhattan"})
    assert answer["length"] == 25 and answer["expanded"] == 927 and len(answer["nodes"]) == 1492
    statuses = {s["status"] for s in answer["steps"] if s["type"] == "generate"}
    assert statuses == {"new", "pruned"}
    boards = [node["board"] for node in answer["nodes"].values()]
    assert len(set(boards)) < len(boards)  # a tree search: one board, several nodes


def test_greedy_search_misled_step_by_step():
    greedy = traced({"board": MISLEADING, "algorithm": "greedy", "heuristic": "manhattan"})
    astar = traced({"board": MISLEADING, "algorithm": "astar", "heuristic": "manhattan"})
    assert (greedy["length"], greedy["expanded"], greedy["optimal"]) == (32, 89, False)
    assert (astar["length"], astar["expanded"], astar["optimal"]) == (8, 12, True)
    # greedy's first steps: from h = 8 it takes the children with h = 7 and never looks back at g
    assert [s["f"] for s in greedy["steps"] if s["type"] == "expand"][:4] == [8, 7, 6, 5]
    assert {s["status"] for s in greedy["steps"] if s["type"] == "generate"} == {"new", "open", "closed"}


def test_a_star_reopens_when_the_heuristic_is_not_consistent():
    # pattern databases are admissible but not consistent: A* reaches closed boards more cheaply and reopens them
    for board in BOARDS[3:]:
        answer = traced({"board": board, "algorithm": "astar", "heuristic": "pdb"})
        if any(s.get("status") == "better" for s in answer["steps"]):
            return
    pytest.fail("no board was reopened")


def test_weighted_trace_says_its_weight_and_its_priorities():
    answer = traced({"board": MISLEADING, "algorithm": "weighted", "heuristic": "misplaced", "weight": 3})
    assert answer["weight"] == 3 and answer["optimal"] is False and answer["length"] == 8
    first = answer["steps"][1]
    assert first["type"] == "generate" and first["f"] == 1 + 3 * answer["nodes"][first["node"]]["h"]
    assert "weight" not in traced({"board": MISLEADING, "algorithm": "astar", "heuristic": "misplaced"})


def test_bidirectional_trace_has_two_sides_and_a_meeting():
    answer = traced({"board": "1 3 6/4 0 8/7 2 5", "algorithm": "bidirectional"})
    assert answer["length"] == 8
    assert answer["nodes"]["0"]["side"] == "forward" and answer["nodes"]["1"]["side"] == "backward"
    assert answer["nodes"]["1"]["board"] == answer["goal"]
    sides = [(s["side"], s["depth"]) for s in answer["steps"] if s["type"] == "side"]
    assert sides[:2] == [("forward", 0), ("backward", 0)]
    meet = next(s for s in answer["steps"] if s["type"] == "meet")
    nodes = answer["nodes"]
    assert nodes[meet["forward"]]["board"] == nodes[meet["backward"]]["board"]
    assert nodes[meet["forward"]]["g"] + nodes[meet["backward"]]["g"] == 8
    path = answer["solution"]
    assert path.index(meet["forward"]) == nodes[meet["forward"]]["g"] and meet["backward"] not in path


def test_truncated_traces_keep_what_they_have():
    answer = traced({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "astar", "heuristic": "manhattan"}, max_steps=50)
    assert answer["truncated"] and answer["expanded"] == 50 and answer["moves"] is None
    assert answer["note"] == "stopped after 50 expansions (max_steps), before reaching the goal"
    assert set(answer["stats"]) == {"expanded", "generated", "elapsed_s"}
    assert answer["steps"][-1]["type"] == "generate"
    one = api.trace({"board": "8 6 7/2 5 4/3 0 1", "algorithm": "bfs", "max_steps": 1})
    assert one["note"].startswith("stopped after 1 expansion (max_steps)") and len(one["nodes"]) == 4


KINGS = {"puzzle": "tokens", "board": "AAAAAAAA/AAAAAAAA/......../......../......../......../BBBBBBBB/BBBBBBBB",
         "goal": "BBBBBBBB/BBBBBBBB/......../......../......../......../AAAAAAAA/AAAAAAAA", "rule": "king"}


def test_a_trace_stops_at_20000_nodes_where_positions_have_dozens_of_moves(capsys):
    # 32 kings on 8x8: up to 96 moves a position, so 2,000 expansions would record some 90,000 nodes (22 MB of JSON)
    assert cli.main(["trace", "--puzzle", "tokens", KINGS["board"], "--goal", KINGS["goal"], "--rule", "king",
                     "--algorithm", "bfs", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    nodes = answer["nodes"]
    assert answer["truncated"] and list(nodes) == [str(i) for i in range(api.MAX_TRACE_NODES)] == [
        s["node"] for s in answer["steps"] if s["type"] == "generate" or s["node"] == "0"]
    puzzle = api.make_puzzle(KINGS)
    for node in list(nodes.values())[1::199]:  # a sample (parsing all 20,000 boards takes long): legal moves
        parent = puzzle.parse(nodes[node["parent"]]["board"])
        assert puzzle.apply(parent, node["move"]) == puzzle.parse(node["board"]) and node["g"] <= 3
    assert answer["expanded"] == 370 and answer["stats"]["generated"] == 19_999  # every node but the root
    assert answer["note"] == "stopped after 370 expansions and 20,000 nodes (max_nodes), before reaching the goal"
    assert answer["steps"][-1]["type"] == "generate" and answer["steps"][-1]["node"] == "19999"


@pytest.mark.parametrize("algorithm, heuristic", [("idastar", "manhattan"), ("iddfs", None), ("astar", "manhattan"),
                                                  ("bfs", None), ("bidirectional", None)])
def test_a_trace_yields_progress_every_500_nodes(algorithm, heuristic):
    events, answer = events_of(api.trace_steps({"board": "8 6 7/2 5 4/3 0 1", "algorithm": algorithm,
                                                "heuristic": heuristic}))
    progress = [e for e in events if e["type"] == "progress"]
    assert answer["truncated"] and answer["expanded"] == 2000
    assert len(progress) == len(answer["nodes"]) // 500 >= 6  # so a 2,000-expansion trace can be cancelled
    expanded = [e["expanded"] for e in progress]
    assert expanded == sorted(expanded) and expanded[-1] < 2000
    assert all(set(e) >= {"expanded", "generated", "stored", "elapsed_s"} for e in progress)


def test_a_trace_is_cancelled_at_a_progress_event():
    seen = []
    request = {"board": "8 6 7/2 5 4/3 0 1", "algorithm": "astar", "heuristic": "manhattan"}
    answer = api.trace(request, on_progress=seen.append, should_cancel=lambda: len(seen) == 2)
    assert answer == api.error("cancelled", "the search was cancelled")
    assert [e["expanded"] for e in seen] == [196, 388]  # it stopped there, far from its 2,000 expansions
    steps = api.trace_steps(request)  # the worker's way: it closes the generator after an event
    assert next(steps)["type"] == "progress"
    steps.close()
    with pytest.raises(StopIteration):
        next(steps)


def test_the_start_at_the_goal_is_a_trace_of_one_node():
    for algorithm in ("bfs", "bidirectional", "iddfs", "idastar", "astar", "greedy", "weighted"):
        answer = traced({"board": "1 2 3/4 5 6/7 8 0", "algorithm": algorithm})
        assert answer["solution"] == ["0"] and answer["length"] == 0 and len(answer["nodes"]) == 1
        assert [s["type"] for s in answer["steps"]] == ["goal", "solution"]


def test_token_puzzles():
    knights = traced({"puzzle": "knights", "algorithm": "astar"}, max_steps=30)
    assert knights["truncated"] and knights["expanded"] == 30 and knights["heuristic_used"] == "matching"
    name = knights["nodes"]["1"]["name"]
    assert len(name) == 5 and name[2] == "-" and isinstance(knights["nodes"]["1"]["move"], list)
    for algorithm in ("bfs", "bidirectional", "iddfs", "idastar", "astar", "greedy", "weighted"):
        answer = traced(dict(TOKENS, algorithm=algorithm))
        assert answer["length"] == 4 and answer["puzzle"] == "tokens" and len(answer["notation"]) == 4
        assert answer["board"] == "AB#/..#/..." and answer["goal"] == "..#/..#/.BA"


@pytest.mark.parametrize("request_, message", [
    ({"board": "1 2 3/4 0 5/6 7 8", "algorithm": "magic"}, "unknown algorithm 'magic'"),
    ({"board": "1 2 3/4 0 5/6 7 8", "max_steps": 0}, "'max_steps' must be a positive whole number"),
    ({"board": "1 2 3/4 0 5/6 7 8", "max_steps": 5000}, "'max_steps' is at most 2,000"),
    ({"board": "1 2 3/4 0 5/6 7 8", "max_steps": "10"}, "'max_steps' must be a positive whole number"),
    ({"board": "1 2 3/4 0 5/6 7 8", "algorithm": "astar", "weight": 2}, "a weight is for weighted A*"),
    ({"board": "1 2 3/4 0 5/6 7"}, "row 3 has 2 cells"),
    ({"board": "1 2 3/4 0 5/6 7 8", "algorithm": "quick"}, "quick cannot be traced"),
    ({"board": "1 2 3/4 0 5/6 7 8", "heuristic": "matching"}, "does not apply to sliding puzzles"),
    ("not an object", "must be a JSON object"),
])
def test_bad_requests_are_invalid_answers(request_, message):
    answer = api.trace(request_)
    assert answer["ok"] is False and answer["error"]["code"] == "invalid" and message in answer["error"]["message"]


def test_an_unsolvable_board_is_answered_as_solve_does():
    answer = api.trace({"board": "1 2 3/4 5 6/8 7 0", "algorithm": "bfs"})
    assert answer["error"]["code"] == "unsolvable"


def test_trace_steps_is_a_generator_of_dicts_returning_the_answer():
    events, answer = events_of(api.trace_steps({"board": "0 8 2/3 4 5/1 7 6", "algorithm": "idastar",
                                                "heuristic": "manhattan"}))
    assert answer["ok"] and answer["length"] == 20
    assert events and all(isinstance(e, dict) for e in events)
    assert [e["bound"] for e in events if e["type"] == "iteration"] == [i["bound"] for i in
                                                                        answer["stats"]["iterations"]]


def test_cli_trace_text(capsys):
    code = cli.main(["trace", MISLEADING, "--algorithm", "greedy", "--heuristic", "manhattan"])
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    assert out[0] == "trace of greedy with manhattan: 1 3 6/4 0 8/7 2 5 to 1 2 3/4 5 6/7 8 0"
    assert out[1] == "expand #0  g=0 h=8 f=8  1 3 6/4 0 8/7 2 5"
    assert out[2] == "  new     move 3      #1  g=1 h=9 f=9  1 0 6/4 3 8/7 2 5"
    assert "  closed  move 8      #6  g=2 h=8 f=8  1 3 6/4 0 8/7 2 5" in out
    assert out[-4] == "goal #241  g=32 h=0  1 2 3/4 5 6/7 8 0"
    assert out[-3].startswith("solution, 32 moves (not necessarily shortest: greedy never promises it): #0 #3 #5 #8 ")
    assert out[-2] == "moves: 8 6 3 8 2 5 6 2 8 3 2 6 5 8 3 2 6 5 8 3 5 6 2 5 3 8 6 3 5 2 3 6"
    assert out[-1].startswith("expanded 89, generated 241, stored 148, open list peak 59, ")


def test_cli_trace_iterations_sides_and_truncation(capsys):
    assert cli.main(["trace", "1 2 3/4 0 6/7 5 8", "--algorithm", "idastar", "--heuristic", "manhattan"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:4] == ["iteration: bound 2", "expand #0  g=0 h=2  1 2 3/4 0 6/7 5 8",
                        "  pruned  move 2      #1  g=1 h=3 f=4  1 0 3/4 2 6/7 5 8"]
    assert cli.main(["trace", "--puzzle", "tokens", "AB#/..#/...", "--goal", "..#/..#/.BA", "--rule", "king",
                     "--algorithm", "bidirectional"]) == 0
    out = capsys.readouterr().out
    assert "forward side, depth 0\n" in out and "\nmeet #" in out and "moves: a3-b2 b3-a2 b2-c1 a2-b1\n" in out
    assert cli.main(["trace", "8 6 7/2 5 4/3 0 1", "--algorithm", "bfs", "--max-steps", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert sum(line.startswith("expand ") for line in out) == 3
    assert out[-2] == "stopped after 3 expansions (max_steps), before reaching the goal"
    assert out[-1].startswith("expanded 3, generated 9, ")


def test_cli_trace_json_and_errors(capsys):
    assert cli.main(["trace", MISLEADING, "--algorithm", "weighted", "--weight", "1.5", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["weight"] == 1.5 and answer["heuristic"] == "auto" and answer["length"] == 8
    code = cli.main(["trace", MISLEADING, "--max-steps", "5000"])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and captured.err.startswith("slidelab: invalid: 'max_steps' is at most")
    assert cli.main(["trace", "1 2 3/4 5 6/8 7 0"]) == 1
