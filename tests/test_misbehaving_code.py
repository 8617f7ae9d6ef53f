"""Code that misbehaves, through every command and engine: it never hangs, never lies, never crashes a run.

Each heuristic of tests/data/misbehaving/ is run as a student's file would be, by the real `slidelab` command in a
process of its own, with a time limit of LIMIT_S: every run ends within the limit and START_S (the interpreter's
start) plus 2 s, with the outcome docs/your-heuristic.md promises, and `--json` stays one JSON object.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from slidelab import api

ROOT = Path(__file__).resolve().parents[1]
CODE = ROOT / "tests" / "data" / "misbehaving"
EXAMPLES = ROOT / "pysrc" / "slidelab" / "heuristics" / "examples"
LIMIT_S = 1.0
START_S = 1.5  # starting Python and slidelab, with room for a busy machine
BOARD = "1 2 3/4 0 6/7 5 8"  # two moves from the goal
GOAL_2X3 = "1 2 3/4 5 0"  # a small board to check: 360 positions

# file -> (the outcome of a search with it, of a check with the python engine, with the numpy engine): "ok", a limit,
# or (code, reason) of the user_code error
LOOPS = {"loop", "bare_except_loop", "sleep", "module_loop"}
OUTCOMES = {
    "loop": ("limit",) * 3,
    "bare_except_loop": ("limit",) * 3,
    "sleep": ("limit",) * 3,
    "module_loop": ("limit",) * 3,
    "exit": (("user_code", "failed"),) * 3,
    "keyboard_interrupt": (("user_code", "failed"),) * 3,
    "os_exit": (("user_code", "ended"),) * 3,
    "prints": ("ok",) * 3,
    "huge": ("ok", "ok", ("user_code", "bad_value")),
    "enormous": ("ok", "ok", ("user_code", "bad_value")),
    "float": (("user_code", "bad_value"),) * 3,
    "negative": (("user_code", "bad_value"),) * 3,
    "recursion": (("user_code", "recursion"),) * 3,
    "raises_sometimes": (("user_code", "failed"),) * 3,
}
EXIT_FOR = {"ok": 0, "limit": 1, "user_code": 2}


def slidelab(*argv, timeout=60):
    """Run the command; (exit status, stdout, stderr, seconds)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "slidelab", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def assert_outcome(answer: dict, expected, name: str) -> None:
    if expected == "ok":
        assert answer["ok"], (name, answer)
    elif expected == "limit":
        assert not answer["ok"] and answer["error"]["code"] == "limit", (name, answer)
    else:
        code, reason = expected
        assert not answer["ok"] and answer["error"]["code"] == code, (name, answer)
        assert answer["error"].get("reason") == reason, (name, answer)


def test_the_files_here_are_the_ones_the_outcomes_name():
    assert {path.stem for path in CODE.glob("*.py")} == set(OUTCOMES)


@pytest.mark.parametrize("command", ["solve", "trace", "compare"])
@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_a_search_with_misbehaving_code_ends_in_time_with_its_outcome(name, command):
    argv = [command, BOARD, "--heuristic-file", CODE / f"{name}.py", "--max-seconds", LIMIT_S, "--json"]
    if command == "compare":
        argv[-1:-1] = ["--run", "astar:yours"]
    else:
        argv[-1:-1] = ["--algorithm", "astar"]
    status, out, err, seconds = slidelab(*argv)
    assert seconds < LIMIT_S + 2 + START_S, (name, seconds)
    answer = json.loads(out)  # one JSON object, whatever the code printed
    expected = OUTCOMES[name][0]
    if command == "compare":
        assert status == 0 and answer["ok"]
        (row,) = answer["rows"]
        expected_status = {"ok": "done", "limit": "limit"}.get(expected, "error")
        assert row["status"] == expected_status, (name, row)
        if expected_status == "error":
            assert row["error"]["code"] == expected[0] and row["error"]["reason"] == expected[1]
        return
    if command == "trace" and not answer["ok"] and "trace" in answer:  # what it traced before it failed is kept
        assert answer["trace"]["truncated"] is True and answer["trace"]["moves"] is None
    assert_outcome(answer, expected, name)
    assert status == EXIT_FOR[expected if isinstance(expected, str) else expected[0]], (name, status, err)


@pytest.mark.parametrize("engine", ["python", "numpy"])
@pytest.mark.parametrize("name", sorted(OUTCOMES))
def test_a_check_of_misbehaving_code_ends_in_time_with_its_outcome(name, engine):
    argv = ["check-heuristic", CODE / f"{name}.py", GOAL_2X3, "--engine", engine, "--max-seconds", LIMIT_S, "--json"]
    if engine == "numpy":
        argv += ["--workers", 2]
    status, out, err, seconds = slidelab(*argv)
    assert seconds < LIMIT_S + 2 + START_S, (name, engine, seconds)
    answer = json.loads(out)
    expected = OUTCOMES[name][1 if engine == "python" else 2]
    assert_outcome(answer, expected, name)
    assert status == EXIT_FOR[expected if isinstance(expected, str) else expected[0]], (name, status, err)


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("name", sorted(LOOPS | {"os_exit", "exit", "prints"}))
def test_a_batch_with_misbehaving_code_answers_every_position_in_time(tmp_path, name, workers):
    positions = tmp_path / "positions.txt"
    positions.write_text(f"a: {BOARD}\nb: 1 2 3/4 5 6/7 0 8\n")
    status, out, err, seconds = slidelab("batch", positions, "--heuristic-file", CODE / f"{name}.py", "--max-seconds",
                                         LIMIT_S, "--workers", workers, "--json")
    per_position = LIMIT_S + 2  # two positions, one after the other at worst
    assert seconds < 2 * per_position + START_S, (name, seconds)
    records = [json.loads(line) for line in out.splitlines()]
    assert sorted(r["name"] for r in records[:-1]) == ["a", "b"] and records[-1]["summary"]["positions"] == 2
    for record in records[:-1]:
        assert_outcome(record, OUTCOMES[name][0], name)
    assert status == (0 if OUTCOMES[name][0] == "ok" else 1)


def test_a_batch_goes_on_past_a_position_where_the_code_fails_and_solves_the_others(tmp_path):
    positions = tmp_path / "positions.txt"  # raises_sometimes fails where the blank is in the corner
    positions.write_text("fails: 0 1 3/4 2 6/7 5 8\ngood: 1 2 3/4 0 6/7 5 8\nhard: 8 6 7/2 5 4/3 0 1\n")
    status, out, _, _ = slidelab("batch", positions, "--heuristic-file", CODE / "raises_sometimes.py", "--json")
    records = {r["name"]: r for r in map(json.loads, out.splitlines()) if "name" in r}
    assert records["fails"]["error"]["reason"] == "failed"
    assert records["fails"]["error"]["details"]["board"] == "0 1 3/4 2 6/7 5 8"
    assert status == 1


def test_grading_many_files_goes_on_past_those_that_hang_or_crash_and_grades_the_good_ones(tmp_path):
    positions = tmp_path / "positions.txt"
    positions.write_text(f"near: {BOARD}\nfar: 1 3 6/4 0 8/7 2 5\n")
    graded = {}
    for path in [CODE / "bare_except_loop.py", EXAMPLES / "manhattan.py", CODE / "os_exit.py",
                 EXAMPLES / "misplaced.py", CODE / "exit.py"]:
        _, out, _, _ = slidelab("batch", positions, "--heuristic-file", path, "--algorithm", "astar",
                                "--max-seconds", LIMIT_S, "--json")
        graded[path.stem] = {r["name"]: r for r in map(json.loads, out.splitlines()) if "name" in r}
    for good in ("manhattan", "misplaced"):
        assert graded[good]["far"]["length"] == 8 and graded[good]["far"]["optimal"] is True
        assert graded[good]["near"]["length"] == 2
    assert graded["bare_except_loop"]["far"]["error"]["code"] == "limit"
    assert graded["os_exit"]["far"]["error"]["reason"] == "ended"
    assert graded["exit"]["far"]["error"]["reason"] == "failed"


def test_sigterm_stops_code_looping_inside_a_bare_except_and_leaves_no_process(tmp_path):
    process = subprocess.Popen([sys.executable, "-m", "slidelab", "solve", BOARD, "--heuristic-file",
                                CODE / "bare_except_loop.py"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    time.sleep(START_S + 0.5)
    process.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    _, err = process.communicate(timeout=10)
    assert process.returncode == 130 and "stopped" in err
    assert time.monotonic() - stopped < 2
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):  # the child running the code went with it, and its group
        os.killpg(process.pid, 0)


def test_what_the_code_prints_is_kept_apart_from_the_answer():
    status, out, _, _ = slidelab("solve", BOARD, "--heuristic-file", CODE / "prints.py", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["length"] == 2
    assert answer["printed"].startswith("looking at (1, 2, 3, 4, 5, 6, 7, 8, 0)\n")
    status, out, _, _ = slidelab("solve", BOARD, "--heuristic-file", CODE / "prints.py")
    assert out.startswith("2 moves (optimal), idastar with yours\n")
    assert "your heuristic printed:\n  | looking at (1, 2, 3, 4, 5, 6, 7, 8, 0)\n" in out
    code = (CODE / "prints.py").read_text()
    answer = api.check_heuristic({"goal": GOAL_2X3, "board": GOAL_2X3, "heuristic_code": code})
    assert answer["ok"] and answer["admissible"] is True
    assert answer["printed"].endswith("characters printed in all)")  # 360 positions: far over what is kept
    assert len(answer["printed"]) < 4_100


def test_every_message_names_the_file_the_line_the_board_and_the_value():
    status, _, err, _ = slidelab("solve", BOARD, "--heuristic-file", CODE / "negative.py")
    assert status == 2
    assert err == (f"slidelab: user_code: your heuristic ({CODE / 'negative.py'}, line 1) returned -1 (int) on the "
                   f"board {BOARD}: a heuristic is never below 0\n")
    answer = json.loads(slidelab("solve", BOARD, "--heuristic-file", CODE / "float.py", "--json")[1])
    assert answer["error"]["details"] == {"value": "0.0", "type": "float", "board": "1 2 3/4 5 6/7 8 0", "line": 1,
                                          "file": str(CODE / "float.py")}
    assert "use // to divide" in answer["error"]["message"]
    answer = json.loads(slidelab("solve", BOARD, "--heuristic-file", CODE / "recursion.py", "--json")[1])
    assert answer["error"]["details"]["line"] == 6 and answer["error"]["details"]["board"] == BOARD
    answer = json.loads(slidelab("trace", BOARD, "--heuristic-file", CODE / "exit.py", "--json")[1])
    assert "called sys.exit(0)" in answer["error"]["message"] and answer["error"]["details"]["line"] == 5
    _, _, err, _ = slidelab("check-heuristic", CODE / "module_loop.py", GOAL_2X3, "--max-seconds", LIMIT_S)
    assert err.startswith("slidelab: limit: stopped after 1 s (the time limit)")  # a limit, not a code error
    assert "SearchLimit" not in err


def test_numpy_integers_are_whole_numbers_and_floats_are_not():
    numpy = pytest.importorskip("numpy")
    code = "import numpy\ndef h(board):\n    return numpy.int64(0)\n"
    assert api.solve({"board": BOARD, "heuristic_code": code, "algorithm": "astar"})["ok"]
    answer = api.check_heuristic({"shape": "2x3", "heuristic_code": code, "engine": "numpy", "workers": 1})
    assert answer["ok"] and answer["admissible"] is True and numpy is not None


@pytest.mark.parametrize("name", ["patches_json", "patches_checker"])
def test_code_that_patches_the_checker_cannot_forge_its_verdict(name):
    path = ROOT / "tests" / "data" / "forging" / f"{name}.py"
    status, out, err, _ = slidelab("check-heuristic", path, "3x3", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["ok"] and answer["isolated"] is True, err
    assert answer["admissible"] is False and answer["overestimated"] == 157_176  # twice Manhattan's, as it is
    status, out, _, _ = slidelab("check-heuristic", path, "3x3")
    assert "admissible: no; it overestimates on 157,176 positions" in out


def test_code_that_writes_into_every_descriptor_fails_its_own_run_and_forges_nothing():
    path = ROOT / "tests" / "data" / "forging" / "writes_to_every_pipe.py"
    status, out, err, _ = slidelab("check-heuristic", path, "3x3", "--json")
    answer = json.loads(out)  # one object: nothing written reached the command's output
    assert status == 2 and answer["error"]["code"] == "user_code", err
    assert "sent a message that is not JSON" in answer["error"]["message"]


@pytest.mark.parametrize(("said", "reason", "message"), [
    ("Program terminated with exit(3)", "ended",
     "the process running your heuristic ended with exit status 3 (os._exit, or a crash) before answering"),
    ("RangeError: Maximum call stack size exceeded", "recursion",
     "your heuristic failed: it recursed too deeply (RecursionError)"),
])
def test_a_runtime_that_fails_under_the_code_in_the_page_is_said_as_the_command_line_says_it(said, reason, message):
    from slidelab.run.supervised import answered_error

    error = answered_error({"code": "internal", "message": said})
    assert (error.reason, str(error)) == (reason, message)
