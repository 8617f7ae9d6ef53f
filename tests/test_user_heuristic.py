"""Your own heuristic: the contract, searches with it, the check against the truth, and broken code."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

from slidelab import api
from slidelab.cli import main
from slidelab.core.errors import UserCodeError
from slidelab.core.puzzles.sliding import SlidingPuzzle, random_position
from slidelab.heuristics import get_heuristic
from slidelab.heuristics.examples import source
from slidelab.heuristics.user import user_heuristic
from slidelab.space.check import _korf_positions

HARDEST_8 = "8 6 7/2 5 4/3 0 1"  # 31 moves
EXAMPLES = Path(__file__).resolve().parents[1] / "pysrc" / "slidelab" / "heuristics" / "examples"


def code(name: str) -> str:
    return source(name)


def test_every_example_is_offered_with_its_code():
    offered = {e["name"]: e for e in api.describe()["heuristic_examples"]}
    assert set(offered) == {"manhattan", "misplaced", "twice_manhattan", "sometimes_manhattan", "nearest_goal"}
    assert all("def h(board)" in e["code"] for e in offered.values())
    assert "yours" in {h["name"] for h in api.describe()["heuristics"]}


@pytest.mark.parametrize("shape", [(3, 3), (3, 4), (4, 4), (2, 5)])
@pytest.mark.parametrize("name, builtin", [("manhattan", "manhattan"), ("misplaced", "misplaced")])
def test_the_examples_equal_the_builtin_heuristics_of_the_same_definition(shape, name, builtin):
    rng = random.Random(7)
    rows, cols = shape
    for _ in range(30):
        goal = random_position(rows, cols, rng=rng) if rng.random() < 0.5 else None
        puzzle = SlidingPuzzle(rows, cols, random_position(rows, cols, goal, rng), goal)
        mine = user_heuristic(puzzle, code(name))
        theirs = get_heuristic(builtin, puzzle)
        state = puzzle.start
        for _ in range(20):  # along a random walk
            assert mine(state) == theirs(state)
            state = rng.choice(puzzle.children(state))


@pytest.mark.parametrize("algorithm", ["astar", "idastar"])
def test_an_admissible_heuristic_of_yours_finds_the_shortest_path(algorithm):
    answer = api.solve({"board": HARDEST_8, "algorithm": algorithm, "heuristic_code": code("manhattan")})
    assert answer["ok"] and answer["heuristic"] == "yours"
    assert answer["length"] == 31 and answer["shortest_length"] == 31 and answer["optimal"] is True
    assert "longer_by" not in answer
    builtin = api.solve({"board": HARDEST_8, "algorithm": algorithm, "heuristic": "manhattan"})
    if algorithm == "astar":  # the same search, node for node
        assert answer["stats"]["expanded"] == builtin["stats"]["expanded"]
    else:  # the same contours (the built-in one runs the sliding kernel, whose counts differ a little: see
        # docs/algorithms.md)
        assert [i["bound"] for i in answer["stats"]["iterations"]] == [i["bound"] for i in
                                                                      builtin["stats"]["iterations"]]


def test_astar_with_an_admissible_inconsistent_heuristic_reopens_and_stays_optimal():
    lengths, reopened = [], 0
    for board in [HARDEST_8, "0 8 2/3 4 5/1 7 6", "7 8 2/6 3 4/5 0 1", "1 2 3/4 5 6/0 7 8"]:
        answer = api.solve({"board": board, "algorithm": "astar", "heuristic_code": code("sometimes_manhattan")})
        truth = api.solve({"board": board, "algorithm": "bidirectional"})
        assert answer["ok"] and answer["length"] == truth["length"] and answer["optimal"] is True
        lengths.append(answer["length"])
        reopened += answer["stats"]["reopened"]
    assert reopened > 0  # the inconsistency shows: closed positions were expanded again
    consistent = api.solve({"board": HARDEST_8, "algorithm": "astar", "heuristic": "manhattan"})
    assert consistent["stats"]["reopened"] == 0


def test_an_inadmissible_heuristic_is_labelled_and_says_how_much_longer():
    longer = []
    rng = random.Random(3)
    for _ in range(12):
        board = SlidingPuzzle(3, 3, random_position(3, 3, rng=rng)).format(random_position(3, 3, rng=rng))
        answer = api.solve({"board": board, "algorithm": "astar", "heuristic_code": code("twice_manhattan")})
        assert answer["ok"]
        truth = api.solve({"board": board, "algorithm": "bidirectional"})
        if not truth["ok"]:  # unsolvable
            continue
        assert answer["shortest_length"] == truth["length"]
        assert answer["optimal"] is (answer["length"] == truth["length"])
        if answer["length"] > truth["length"]:
            assert answer["longer_by"] == answer["length"] - truth["length"]
            longer.append(board)
    assert longer  # twice Manhattan does lead A* astray on some of these


def _true_distances(puzzle) -> dict:
    """Breadth-first from the goal, written here independently of the engine's explore."""
    distance = {puzzle.goal: 0}
    queue = deque([puzzle.goal])
    while queue:
        state = queue.popleft()
        for child in puzzle.children(state):
            if child not in distance:
                distance[child] = distance[state] + 1
                queue.append(child)
    return distance


def test_the_check_finds_the_worst_counterexample_against_an_independent_distance_table():
    puzzle = SlidingPuzzle(3, 3, (1, 2, 3, 4, 5, 6, 7, 8, 0))
    distance = _true_distances(puzzle)
    assert len(distance) == 181_440 and max(distance.values()) == 31
    h = user_heuristic(puzzle, code("twice_manhattan"))
    values = {state: h(state) for state in distance}
    worst = max(values[s] - d for s, d in distance.items())
    report = api.check_heuristic({"shape": "3x3", "heuristic_code": code("twice_manhattan")})
    assert report["ok"] and report["complete"] is True and report["positions"] == 181_440
    assert report["admissible"] is False and report["consistent"] is False
    found = puzzle.parse(report["worst"]["board"])
    assert report["worst"]["h"] == values[found] and report["worst"]["distance"] == distance[found]
    assert values[found] - distance[found] == worst
    assert report["overestimated"] == sum(values[s] > d for s, d in distance.items())
    move = report["move"]
    frm, to = puzzle.parse(move["from"]), puzzle.parse(move["to"])
    assert to in puzzle.children(frm) and move["h_from"] - move["h_to"] > 1
    assert move["h_from"] == values[frm] and move["h_to"] == values[to]
    assert report["mean_distance"] == pytest.approx(sum(distance.values()) / 181_440, abs=1e-4)
    assert [row["count"] for row in report["by_distance"]][:4] == [1, 2, 4, 8]
    assert report["by_distance"][-1]["distance"] == 31


@pytest.mark.parametrize("name, admissible, consistent", [
    ("manhattan", True, True), ("misplaced", True, True), ("sometimes_manhattan", True, False),
])
def test_the_check_proves_what_holds_on_the_8_puzzle(name, admissible, consistent):
    report = api.check_heuristic({"shape": "3x3", "heuristic_code": code(name)})
    assert report["complete"] is True and report["positions"] == 181_440
    assert report["admissible"] is admissible and ("worst" in report) is (not admissible)
    assert report["consistent"] is consistent and ("move" in report) is (not consistent)


def test_a_builtin_heuristic_can_be_checked_too():
    report = api.check_heuristic({"shape": "2x3", "heuristic": "linear_conflict"})
    assert report["complete"] and report["admissible"] is True and report["positions"] == 360


def test_token_puzzles_get_their_own_view():
    report = api.check_heuristic({"puzzle": "knights", "heuristic_code": code("nearest_goal")})
    assert report["complete"] and report["admissible"] is True and report["consistent"] is True
    solved = api.solve({"puzzle": "knights", "algorithm": "astar", "heuristic_code": code("nearest_goal")})
    builtin = api.solve({"puzzle": "knights", "algorithm": "astar", "heuristic": "nearest"})
    assert solved["ok"] and solved["length"] == builtin["length"] == 16 and solved["optimal"] is True


def test_on_a_larger_board_the_check_is_a_sample_and_claims_no_proof():
    report = api.check_heuristic({"shape": "4x4", "heuristic_code": code("manhattan"), "max_seconds": 120})
    assert report["complete"] is False and report["sample"]["korf100"] == 100
    assert report["admissible"] is None and report["consistent"] is None and report["positions"] > 100
    bad = api.check_heuristic({"shape": "4x4", "heuristic_code": code("twice_manhattan"), "max_seconds": 120})
    assert bad["admissible"] is False and bad["worst"]["h"] > bad["worst"]["distance"]


def test_korfs_positions_are_mapped_onto_any_corner_goal():
    manhattan_of = {}
    korf = SlidingPuzzle(4, 4, tuple(range(16)), tuple(range(16)))
    for state, length in _korf_positions(korf):
        manhattan_of[length, get_heuristic("manhattan", SlidingPuzzle(4, 4, state, korf.goal))(state)] = True
    for goal in [None, (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 0)]:
        puzzle = SlidingPuzzle(4, 4, tuple(range(16)), goal) if goal else korf
        mapped = _korf_positions(puzzle)
        assert len(mapped) == 100
        for state, length in mapped:  # a symmetry and a renaming keep Manhattan distance and solvability
            other = SlidingPuzzle(4, 4, state, puzzle.goal)
            assert other.is_solvable() and (length, get_heuristic("manhattan", other)(state)) in manhattan_of


@pytest.mark.parametrize("text, message", [
    ("def h(board)\n    return 0\n", "syntax error at line 1"),
    ("def h(board):\n    x = 0\n    return 1 // x\n", "at line 3: ZeroDivisionError"),
    ("def h(board):\n    return 1.5\n", "returned 1.5 (float)"),
    ("def h(board):\n    return -1\n", "returned -1"),
    ("def h(board):\n    return 1\n", "gives 1 at the goal"),
    ("def g(board):\n    return 0\n", "defines no function 'h'"),
    ("import nothing_here\n", "while loading, at line 1: ModuleNotFoundError"),
    ("def h(board):\n    return h(board)\n", "recursed too deeply"),
])
def test_broken_code_stops_with_one_clear_message(text, message):
    answer = api.solve({"board": "1 2 3/4 0 6/7 5 8", "algorithm": "astar", "heuristic_code": text})
    assert answer["ok"] is False and answer["error"]["code"] == "user_code"
    assert message in answer["error"]["message"]


def test_requests_that_do_not_go_together_are_refused():
    board = "1 2 3/4 0 6/7 5 8"
    assert api.solve({"board": board, "heuristic": "yours"})["error"]["code"] == "invalid"
    answer = api.solve({"board": board, "heuristic": "manhattan", "heuristic_code": code("manhattan")})
    assert answer["error"]["code"] == "invalid" and "'yours'" in answer["error"]["message"]
    assert api.solve({"board": board, "heuristic_code": 12})["error"]["code"] == "invalid"
    assert api.solve({"board": board, "heuristic_code": "x" * 200_000})["error"]["code"] == "invalid"
    assert api.solve({"board": board, "heuristic_code": code("manhattan"),
                      "heuristic_function": "no such"})["error"]["code"] == "invalid"


def test_the_python_api_takes_a_callable():
    def h(board):
        return sum(1 for tile, goal in zip(board.tiles, board.goal, strict=True) if tile and tile != goal)

    answer = api.solve({"board": HARDEST_8, "algorithm": "astar", "heuristic": h})
    assert answer["ok"] and answer["length"] == 31 and answer["heuristic"] == "yours"
    report = api.check_heuristic({"shape": "2x3", "heuristic": h})
    assert report["admissible"] is True and report["positions"] == 360


def test_trace_draws_the_search_of_your_heuristic():
    answer = api.trace({"board": "1 2 3/4 0 6/7 5 8", "algorithm": "astar", "heuristic_code": code("manhattan")})
    assert answer["ok"] and answer["heuristic"] == "yours" and answer["length"] == 2


def test_cli_solve_trace_batch_and_check_take_a_heuristic_file(tmp_path, capsys):
    mine = str(EXAMPLES / "misplaced.py")
    assert main(["solve", HARDEST_8, "--algorithm", "astar", "--heuristic-file", mine, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["length"] == 31 and answer["optimal"] is True and answer["heuristic"] == "yours"
    assert main(["solve", "6 0 4/8 1 5/7 3 2", "--algorithm", "astar", "--heuristic-file",
                 str(EXAMPLES / "twice_manhattan.py")]) == 0
    out = capsys.readouterr().out
    assert "31 moves (not necessarily shortest)" in out and "8 moves longer than the shortest (23)" in out
    assert main(["trace", "1 2 3/4 0 6/7 5 8", "--algorithm", "astar", "--heuristic-file", mine]) == 0
    assert "astar with yours" in capsys.readouterr().out
    other = tmp_path / "other.py"
    other.write_text("def mine(board):\n    return 0\n")
    positions = tmp_path / "positions.txt"
    positions.write_text("a: 1 2 3/4 0 6/7 5 8\nb: 1 2 3/4 5 6/0 7 8\n")
    assert main(["batch", str(positions), "--algorithm", "astar", "--heuristic-file", str(other),
                 "--heuristic-function", "mine", "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["length"] for r in records[:2]] == [2, 2] and all(r["shortest_length"] == 2 for r in records[:2])
    assert main(["check-heuristic", mine, "--shape", "3x3", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"admissible", "consistent", "complete", "positions"} <= set(report) and report["admissible"] is True
    assert main(["check-heuristic", str(EXAMPLES / "twice_manhattan.py"), "3x3"]) == 0
    assert "admissible: no" in capsys.readouterr().out


def test_cli_refuses_bad_files_in_one_line(tmp_path, capsys):
    assert main(["solve", HARDEST_8, "--heuristic-file", str(tmp_path / "missing.py")]) == 2
    assert "cannot read the heuristic file" in capsys.readouterr().err
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# caf\xe9\ndef h(board):\n    return 0\n")
    assert main(["solve", HARDEST_8, "--heuristic-file", str(latin)]) == 2
    assert "not UTF-8" in capsys.readouterr().err
    broken = tmp_path / "broken.py"
    broken.write_text("def h(board):\n    return board.nothing\n")
    assert main(["solve", HARDEST_8, "--algorithm", "astar", "--heuristic-file", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "user_code" in err and "line 2" in err
    assert main(["solve", HARDEST_8, "--heuristic-function", "g"]) == 2


def test_a_heuristic_that_loops_for_ever_is_stopped_by_the_time_limit(tmp_path):
    looping = tmp_path / "loop.py"
    looping.write_text("def h(board):\n    if board.tiles == board.goal:\n        return 0\n    while True:\n"
                       "        pass\n")
    done = subprocess.run([sys.executable, "-m", "slidelab", "solve", HARDEST_8, "--algorithm", "astar",
                           "--heuristic-file", str(looping), "--max-seconds", "1"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "limit" in done.stderr and "your heuristic was running" in done.stderr


def test_user_code_errors_are_their_own_kind():
    assert issubclass(UserCodeError, ValueError) and UserCodeError.code == "user_code"
    assert UserCodeError.exit_status == 2


def test_an_isolated_heuristic_keeps_at_most_max_known_values_and_asks_again_past_them(monkeypatch):
    from slidelab.run import supervised

    class Counting:  # an Evaluator's calls, h = the state's number
        asked: list = []

        def ask(self, states):
            self.asked.append(list(states))
            self.pending = states

        def take(self):
            return list(self.pending)

        def values(self, states):
            self.ask(states)
            return self.take()

    monkeypatch.setattr(supervised, "MAX_KNOWN", 3)
    heuristic = supervised.IsolatedHeuristic(Counting())
    assert heuristic.many([1, 2, 2]) == [1, 2, 2] and heuristic(1) == 1  # known: asked once
    assert heuristic.many([3, 4]) == [3, 4] and len(heuristic.known) <= 3  # past three: forgotten, then kept
    assert heuristic(1) == 1 and Counting.asked == [[1, 2], [3, 4], [1]]
