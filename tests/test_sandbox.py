"""Someone else's code, contained: each hostile heuristic of tests/data/hostile/ tries one class of attack on the
judge (outliving the run, stopping or killing the judge, stalling its channel, forging its verdict, lying in its
text, damaging files, reaching files and the network), through `slidelab check-heuristic` and `slidelab grade` run
as a user runs them, and everything is checked from outside: the command ends in time with the verdict the code's
values deserve, no marker process is left, canary files are unchanged, no listener was reached, and nothing the
code wrote reaches the command's output but as escaped text. Skipped, saying why, where this machine gives no
sandbox (build.py installs bubblewrap as root)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from slidelab.run import sandbox

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "data" / "hostile"
GOAL_2X3 = "1 2 3/4 5 0"  # 360 positions: a check takes a moment
pytestmark = pytest.mark.skipif(not sandbox.available(), reason=sandbox.status()["detail"])


def slidelab(*argv, timeout=60, cwd=ROOT):
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "slidelab", *map(str, argv)], capture_output=True, text=True,
                          timeout=timeout, cwd=cwd, env=dict(os.environ, PYTHONPATH=str(ROOT / "pysrc")))
    return done.returncode, done.stdout, done.stderr, time.monotonic() - started


def hostile(tmp_path: Path, name: str, **fill) -> Path:
    """The hostile heuristic `name`, its placeholders filled in (paths and ports of this test), as a file."""
    text = (HOSTILE / f"{name}.py").read_text()
    for key, value in fill.items():
        text = text.replace("{" + key + "}", str(value))
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return path


def processes_saying(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            pass
    return found


def check(path: Path, *more, timeout=60):
    status, out, err, seconds = slidelab("check-heuristic", path, GOAL_2X3, "--json", *more, timeout=timeout)
    return status, json.loads(out), err, seconds


def test_the_sandbox_says_what_it_is():
    status, out, _, _ = slidelab("--version")
    assert status == 0 and "sandbox for someone else's code: bubblewrap" in out


def test_nothing_the_code_starts_outlives_the_run(tmp_path):
    output = tmp_path / "grades.csv"
    output.write_text("the grades")
    status, answer, err, _ = check(hostile(tmp_path, "outlives", OUTPUT=output))
    assert status == 0 and answer["admissible"] is True, err
    assert processes_saying("# MARKER") == []
    time.sleep(3.5)  # when the left-behind processes would have written
    assert output.read_text() == "the grades" and processes_saying("# MARKER") == []


def test_the_code_cannot_stop_or_kill_its_judge(tmp_path):
    status, answer, err, seconds = check(hostile(tmp_path, "stops_judge"), timeout=30)
    assert status == 0 and answer["admissible"] is True and answer["positions"] == 360, err


def test_a_message_that_announces_more_than_allowed_fails_the_code_at_once(tmp_path):
    status, answer, err, seconds = check(hostile(tmp_path, "stalls_channel"), "--max-seconds", "20")
    assert status == 2 and answer["error"]["code"] == "user_code", err
    assert "more than the" in answer["error"]["message"] and seconds < 15


def test_the_verdict_is_the_judges_whatever_the_code_writes_where(tmp_path):
    path = hostile(tmp_path, "forges")
    status, answer, err, _ = check(path)
    assert status == 0 and answer["admissible"] is False and answer["isolated"] is True, err
    status, out, err, _ = slidelab("check-heuristic", path, GOAL_2X3)
    assert "admissible: no" in out and "FORGED" not in err, err
    forged = [line for line in out.splitlines() if "FORGED" in line]  # what it wrote into its own output: said as such
    assert forged and all(line.startswith("  | ") for line in forged) and out.index("your heuristic printed:") < \
        out.index("FORGED")


def test_text_from_the_code_reaches_people_on_one_line_with_its_control_characters_shown(tmp_path):
    status, out, err, _ = slidelab("check-heuristic", hostile(tmp_path, "lies"), GOAL_2X3)
    assert status == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("slidelab: user_code:") and "\\n" in lines[0], err
    assert "\x1b" not in out + err and not any(line.startswith("slidelab: ok") for line in out.splitlines())


def test_the_code_sees_no_file_it_could_damage(tmp_path):
    canary, cache = tmp_path / "canary.txt", tmp_path / "cache"
    canary.write_text("untouched")
    cache.mkdir()
    (cache / "3x3_1-2-3.slpdb").write_bytes(b"\x00" * 64)
    status, answer, err, _ = check(hostile(tmp_path, "damages", CANARY=canary, CACHE=cache))
    assert status == 0 and answer["admissible"] is True, err
    assert canary.read_text() == "untouched" and (cache / "3x3_1-2-3.slpdb").read_bytes() == b"\x00" * 64
    assert sorted(p.name for p in cache.iterdir()) == ["3x3_1-2-3.slpdb"] and not (ROOT / "damaged").exists()


def test_the_code_reads_no_file_of_yours_and_reaches_no_network(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the answer key")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    try:
        status, answer, err, _ = check(hostile(tmp_path, "reaches", SECRET=secret, PORT=port))
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert status == 0 and answer["admissible"] is True, err


def test_grading_a_hostile_class_grades_the_honest_and_contains_the_rest(tmp_path):
    sys.path.insert(0, str(ROOT / "tests"))
    from slidelab.course.format import read_exercise
    from slidelab.heuristics.examples import source
    from test_exercises import SMALL, handin

    exercise = read_exercise(SMALL)
    (tmp_path / "small.toml").write_text(SMALL)
    output = tmp_path / "grades.csv"
    output.write_text("the grades")
    attacks = {"outlives": {"OUTPUT": output}, "stops_judge": {}, "forges": {}, "reaches": {"SECRET": output,
                                                                                           "PORT": 9}}
    files = [tmp_path / "honest.json"]
    files[0].write_text(handin(exercise, source("manhattan"), student="ann"))
    for name, fill in attacks.items():
        files.append(tmp_path / f"{name}.json")
        files[-1].write_text(handin(exercise, hostile(tmp_path, name, **fill).read_text(),
                                    student=f"mallory\n{name}\x1b[2K"))
    status, out, err, _ = slidelab("grade", tmp_path / "small.toml", *files, "--workers", "2", timeout=120)
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 1 + len(files) and any(line.startswith("ann ") and " 5/" in line for line in lines), out
    assert "\x1b" not in out and all("mallory\\n" in line for line in lines if "mallory" in line)
    time.sleep(3.5)
    assert output.read_text() == "the grades" and processes_saying("# MARKER") == []


BOARD = "1 2 3/4 0 6/7 5 8"  # two moves from the goal


@pytest.mark.parametrize("command", ["solve", "trace", "compare", "batch"])
def test_every_search_with_hostile_code_is_made_where_the_code_never_ran(tmp_path, command):
    positions = tmp_path / "positions.txt"
    positions.write_text(f"a: {BOARD}\nb: 1 2 3/4 5 6/7 0 8\n")
    output = tmp_path / "grades.csv"
    output.write_text("the grades")
    where = [positions] if command == "batch" else [BOARD]
    for name, fill in (("stops_judge", {}), ("forges", {}), ("outlives", {"OUTPUT": output})):
        path = hostile(tmp_path, name, **fill)
        status, out, err, seconds = slidelab(command, *where, "--heuristic-file", path, "--json", timeout=60)
        assert status == 0 and seconds < 30, (name, err)
        answers = [json.loads(line) for line in out.splitlines()]  # JSON lines: nothing else reached the output
        assert all(answer.get("ok", True) for answer in answers), (name, answers)
        assert "FORGED" not in err and "FORGED" not in json.dumps([a.get("moves") for a in answers])
    time.sleep(3.5)
    assert output.read_text() == "the grades" and processes_saying("# MARKER") == []


def test_the_numpy_engine_evaluates_in_the_sandbox_too_so_a_patched_checker_changes_nothing():
    pytest.importorskip("numpy")
    path = ROOT / "tests" / "data" / "forging" / "patches_checker.py"  # patches Tally.report where it is imported
    status, out, err, _ = slidelab("check-heuristic", path, "3x3", "--engine", "numpy", "--workers", "2", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["isolated"] is True, err
    assert answer["admissible"] is False and answer["overestimated"] == 157_176  # twice Manhattan's, as it is


@pytest.mark.parametrize("sandboxed", [True, False])
def test_a_message_begun_and_never_finished_is_the_time_limit_and_costs_no_cpu(sandboxed):
    from slidelab.core.errors import SearchLimit
    from slidelab.core.puzzles.sliding import SlidingPuzzle
    from slidelab.run.supervised import Evaluator

    code = (HOSTILE / "trickles_channel.py").read_text()  # 1,000 bytes announced, three sent
    started, cpu = time.monotonic(), time.process_time()
    with pytest.raises(SearchLimit):
        Evaluator(SlidingPuzzle(2, 3, (1, 2, 3, 4, 0, 5)), code, seconds=2, sandboxed=sandboxed)
    assert time.monotonic() - started < 4 and time.process_time() - cpu < 0.5  # waited on the socket, no spin
