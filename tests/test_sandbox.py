"""Someone else's code, contained: each hostile heuristic of tests/data/hostile/ tries one class of attack on the
judge (outliving the run, stopping or killing the judge, stalling its channel, forging its verdict, lying in its
text, damaging files, reaching files and the network), through `slidelab check-heuristic` and `slidelab grade` run
as a user runs them, and everything is checked from outside: the command ends in time with the verdict the code's
values deserve, no marker process is left, canary files are unchanged, no listener was reached, and nothing the
code wrote reaches the command's output but as escaped text. Each runs in each sandbox (bubblewrap, and namespaces
made by unshare(2)), as whoever runs the tests and as an ordinary user (uid 65534, the system's Python 3.11+, a
folder of its own) when that is root, as in CI. Skipped,
saying why, where this machine gives no sandbox (build.py installs bubblewrap as root)."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from slidelab.run import sandbox

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "data" / "hostile"
GOAL_2X3 = "1 2 3/4 5 0"  # 360 positions: a check takes a moment
ORDINARY_UID = 65534  # nobody: the ordinary user the tests run the commands as, when they run as root
SYSTEM_PYTHON = "/usr/bin/python3"  # the ordinary user's interpreter (this one may live in root's home)
pytestmark = pytest.mark.skipif(not sandbox.available(), reason=sandbox.status()["detail"])


class User:
    """Someone who runs slidelab: yourself (whoever runs the tests), or an ordinary user (uid 65534, the system's
    Python, a folder of their own) when the tests run as root, as CI does. `folder` is where their files are."""

    def __init__(self, ordinary: bool, folder: Path, mechanism: str):
        self.ordinary, self.folder, self.mechanism = ordinary, folder, mechanism

    def command(self, *argv) -> list[str]:
        if self.ordinary:
            return ["setpriv", f"--reuid={ORDINARY_UID}", f"--regid={ORDINARY_UID}", "--clear-groups", "--",
                    SYSTEM_PYTHON, "-m", "slidelab", *map(str, argv)]
        return [sys.executable, "-m", "slidelab", *map(str, argv)]

    def environment(self) -> dict:
        if self.ordinary:
            return {"PATH": "/usr/bin:/bin", "HOME": str(self.folder), "PYTHONPATH": str(ROOT / "pysrc"),
                    "LANG": "C.UTF-8", "SLIDELAB_SANDBOX": self.mechanism}
        return dict(os.environ, PYTHONPATH=str(ROOT / "pysrc"), SLIDELAB_SANDBOX=self.mechanism)

    def slidelab(self, *argv, timeout=60):
        started = time.monotonic()
        done = subprocess.run(self.command(*argv), capture_output=True, text=True, timeout=timeout,
                              env=self.environment(), cwd=self.folder if self.ordinary else ROOT)
        return done.returncode, done.stdout, done.stderr, time.monotonic() - started

    def hostile(self, name: str, **fill) -> Path:
        """The hostile heuristic `name`, its placeholders filled in (paths and ports of this test), as a file."""
        text = (HOSTILE / f"{name}.py").read_text()
        for key, value in fill.items():
            text = text.replace("{" + key + "}", str(value))
        return self.write(f"{name}.py", text)

    def write(self, name: str, text: str) -> Path:
        path = self.folder / name
        path.write_text(text)
        if self.ordinary:
            os.chown(path, ORDINARY_UID, ORDINARY_UID)
        return path

    def check(self, path: Path, *more, timeout=60):
        status, out, err, seconds = self.slidelab("check-heuristic", path, GOAL_2X3, "--json", *more,
                                                  timeout=timeout)
        return status, json.loads(out), err, seconds


def _ordinary_user_missing() -> str | None:
    if os.getuid() != 0:
        return "the tests run as an ordinary user already"
    if shutil.which("setpriv") is None or not os.path.exists(SYSTEM_PYTHON):
        return f"no setpriv or no {SYSTEM_PYTHON} to run as an ordinary user"
    version = subprocess.run([SYSTEM_PYTHON, "-c", "import sys; print(sys.version_info >= (3, 11))"],
                             capture_output=True, text=True).stdout.strip()
    return None if version == "True" else f"{SYSTEM_PYTHON} is older than Python 3.11"


@pytest.fixture(params=[(who, mechanism) for who in ("yourself", "an ordinary user")
                        for mechanism in sandbox.MECHANISMS], ids=lambda param: f"{param[0]}, {param[1]}")
def user(request, tmp_path):
    who, mechanism = request.param
    if mechanism == "bubblewrap" and shutil.which("bwrap") is None:
        pytest.skip("bubblewrap is not installed")
    if who == "yourself":
        yield User(False, tmp_path, mechanism)
        return
    missing = _ordinary_user_missing()
    if missing:
        pytest.skip(missing)
    folder = Path(tempfile.mkdtemp(prefix="slidelab-ordinary-"))
    os.chown(folder, ORDINARY_UID, ORDINARY_UID)
    try:
        yield User(True, folder, mechanism)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def processes_saying(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            pass
    return found


def test_the_sandbox_says_what_it_is(user):
    status, out, _, _ = user.slidelab("--version")
    said = {"bubblewrap": "sandbox for someone else's code: bubblewrap", "unshare": "namespaces made by unshare(2)"}
    assert status == 0 and said[user.mechanism] in out and "network and IPC namespaces" in out


def test_nothing_the_code_starts_outlives_the_run(user):
    output = user.write("grades.csv", "the grades")
    status, answer, err, _ = user.check(user.hostile("outlives", OUTPUT=output))
    assert status == 0 and answer["admissible"] is True, err
    assert processes_saying("# MARKER") == []
    time.sleep(3.5)  # when the left-behind processes would have written
    assert output.read_text() == "the grades" and processes_saying("# MARKER") == []


def test_what_the_namespaces_leave_open_is_closed_too(user):
    nodes = {node: (os.stat(node).st_mode, os.stat(node).st_mtime) for node in ("/dev/null", "/dev/zero")}
    status, answer, err, _ = user.check(user.hostile("escapes"))
    assert status == 0 and answer["admissible"] is True, err  # no trace, keyring, namespace or chmod worked
    time.sleep(1)
    assert processes_saying("# MARKER") == []
    assert {node: (os.stat(node).st_mode, os.stat(node).st_mtime) for node in nodes} == nodes


def test_nothing_of_the_sandbox_outlives_a_judge_that_is_killed(user):
    path = user.hostile("waits")
    judge = subprocess.Popen(user.command("check-heuristic", path, GOAL_2X3), env=user.environment(),
                             cwd=user.folder if user.ordinary else ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while not processes_saying("# MARKER") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert processes_saying("# MARKER"), "the sandbox did not start"
    judge.kill()
    judge.wait()
    time.sleep(1.5)
    assert processes_saying("# MARKER") == []


def test_a_fork_bomb_is_held_at_the_limit_of_processes(user):
    status, out, err, _ = user.slidelab("check-heuristic", user.hostile("forks"), GOAL_2X3)
    assert status == 0 and "admissible: yes" in out, err
    made = int(re.search(r"forked (\d+)", out).group(1))
    if user.ordinary:  # the kernel counts no process of root's
        assert made < sandbox.PROCESSES


def test_the_code_cannot_stop_or_kill_its_judge(user):
    status, answer, err, seconds = user.check(user.hostile("stops_judge"), timeout=30)
    assert status == 0 and answer["admissible"] is True and answer["positions"] == 360, err


def test_a_message_that_announces_more_than_allowed_fails_the_code_at_once(user):
    status, answer, err, seconds = user.check(user.hostile("stalls_channel"), "--max-seconds", "20")
    assert status == 2 and answer["error"]["code"] == "user_code", err
    assert "more than the" in answer["error"]["message"] and seconds < 15


def test_the_verdict_is_the_judges_whatever_the_code_writes_where(user):
    path = user.hostile("forges")
    status, answer, err, _ = user.check(path)
    assert status == 0 and answer["admissible"] is False and answer["isolated"] is True, err
    status, out, err, _ = user.slidelab("check-heuristic", path, GOAL_2X3)
    assert "admissible: no" in out and "FORGED" not in err, err
    forged = [line for line in out.splitlines() if "FORGED" in line]  # what it wrote into its own output: said as such
    assert all(line.startswith("  | ") for line in forged)
    if user.mechanism == "bubblewrap":  # the one process it finds, bubblewrap's own, writes to the sandbox's output
        assert forged and out.index("your heuristic printed:") < out.index("FORGED")


def test_text_from_the_code_reaches_people_on_one_line_with_its_control_characters_shown(user):
    status, out, err, _ = user.slidelab("check-heuristic", user.hostile("lies"), GOAL_2X3)
    assert status == 2
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("slidelab: user_code:") and "\\n" in lines[0], err
    assert "\x1b" not in out + err and not any(line.startswith("slidelab: ok") for line in out.splitlines())


def test_the_code_sees_no_file_it_could_damage(user):
    canary, cache = user.write("canary.txt", "untouched"), user.folder / "cache"
    cache.mkdir()
    (cache / "3x3_1-2-3.slpdb").write_bytes(b"\x00" * 64)
    if user.ordinary:
        os.chown(cache, ORDINARY_UID, ORDINARY_UID)
        os.chown(cache / "3x3_1-2-3.slpdb", ORDINARY_UID, ORDINARY_UID)
    status, answer, err, _ = user.check(user.hostile("damages", CANARY=canary, CACHE=cache))
    assert status == 0 and answer["admissible"] is True, err
    assert canary.read_text() == "untouched" and (cache / "3x3_1-2-3.slpdb").read_bytes() == b"\x00" * 64
    assert sorted(p.name for p in cache.iterdir()) == ["3x3_1-2-3.slpdb"]
    assert not (ROOT / "damaged").exists() and not (user.folder / "damaged").exists()


def test_the_code_reads_no_file_of_yours_and_reaches_no_network(user):
    secret = user.write("secret.txt", "the answer key")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    port = listener.getsockname()[1]
    try:
        status, answer, err, _ = user.check(user.hostile("reaches", SECRET=secret, PORT=port))
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()
    assert status == 0 and answer["admissible"] is True, err


def test_grading_a_hostile_class_grades_the_honest_and_contains_the_rest(user):
    sys.path.insert(0, str(ROOT / "tests"))
    from slidelab.course.format import read_exercise
    from slidelab.heuristics.examples import source
    from test_exercises import SMALL, handin

    exercise = read_exercise(SMALL)
    toml = user.write("small.toml", SMALL)
    output = user.write("grades.csv", "the grades")
    attacks = {"outlives": {"OUTPUT": output}, "stops_judge": {}, "forges": {}, "reaches": {"SECRET": output,
                                                                                           "PORT": 9}}
    files = [user.write("honest.json", handin(exercise, source("manhattan"), student="ann"))]
    for name, fill in attacks.items():
        files.append(user.write(f"{name}.json", handin(exercise, user.hostile(name, **fill).read_text(),
                                                        student=f"mallory\n{name}\x1b[2K")))
    status, out, err, _ = user.slidelab("grade", toml, *files, "--workers", "2", timeout=120)
    assert status == 0, err
    lines = out.splitlines()
    assert len(lines) == 1 + len(files) and any(line.startswith("ann ") and " 5/" in line for line in lines), out
    assert "\x1b" not in out and all("mallory\\n" in line for line in lines if "mallory" in line)
    time.sleep(3.5)
    assert output.read_text() == "the grades" and processes_saying("# MARKER") == []


BOARD = "1 2 3/4 0 6/7 5 8"  # two moves from the goal


@pytest.mark.parametrize("command", ["solve", "trace", "compare", "batch"])
def test_every_search_with_hostile_code_is_made_where_the_code_never_ran(user, command):
    positions = user.write("positions.txt", f"a: {BOARD}\nb: 1 2 3/4 5 6/7 0 8\n")
    output = user.write("grades.csv", "the grades")
    where = [positions] if command == "batch" else [BOARD]
    for name, fill in (("stops_judge", {}), ("forges", {}), ("outlives", {"OUTPUT": output})):
        path = user.hostile(name, **fill)
        status, out, err, seconds = user.slidelab(command, *where, "--heuristic-file", path, "--json", timeout=60)
        assert status == 0 and seconds < 30, (name, err)
        answers = [json.loads(line) for line in out.splitlines()]  # JSON lines: nothing else reached the output
        assert all(answer.get("ok", True) for answer in answers), (name, answers)
        assert "FORGED" not in err and "FORGED" not in json.dumps([a.get("moves") for a in answers])
    time.sleep(3.5)
    assert output.read_text() == "the grades" and processes_saying("# MARKER") == []


def test_the_numpy_engine_evaluates_in_the_sandbox_too_so_a_patched_checker_changes_nothing(tmp_path):
    pytest.importorskip("numpy")
    path = ROOT / "tests" / "data" / "forging" / "patches_checker.py"  # patches Tally.report where it is imported
    you = User(False, tmp_path, sandbox.status()["kind"])
    status, out, err, _ = you.slidelab("check-heuristic", path, "3x3", "--engine", "numpy", "--workers", "2", "--json")
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

