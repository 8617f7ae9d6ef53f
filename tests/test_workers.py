"""The forked-worker pool (workers.py): one retry policy, and no worker outlives its driver, however it ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import pytest

from slidelab.core.workers import MAX_TRIES, ForkedPool, GaveUp, cores, how_it_ended

ROOT = Path(__file__).resolve().parents[1]
KORF_1 = "14 13 15 7/11 12 9 5/6 0 2 1/4 8 10 3"  # 57 moves: minutes with Manhattan distance
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


def _echo(conn, offset):
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task == "die":
            os.kill(os.getpid(), signal.SIGKILL)
        conn.send(task + offset)


def test_tasks_are_fed_and_answered_and_a_dying_task_is_given_up_after_max_tries():
    pool = ForkedPool(2, _echo, (100,))
    try:
        answers, gave_up = {}, []
        for event in pool.feed(deque([1, 2, "die", 3]), lambda task: task):
            if isinstance(event, GaveUp):
                gave_up.append((event.task, event.how))
                continue
            worker, message = event
            answers[worker.task] = message
            pool.finish(worker)
        assert answers == {1: 101, 2: 102, 3: 103}
        assert gave_up == [("die", "killed by SIGKILL")]
        assert pool.tries.died == {"die": MAX_TRIES} and pool.replaced == MAX_TRIES
    finally:
        pool.close()
    assert all(not w.process.is_alive() for w in pool.workers)
    assert how_it_ended(pool.workers[0].process) == "killed by SIGKILL" and cores() >= 1


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent's reaping is left


def _start_and_kill(args: list[str], how: int) -> tuple[list[int], subprocess.Popen]:
    """Start `slidelab ARGS` with 2 workers on long work, wait for its workers, end the driver with `how`."""
    driver = subprocess.Popen([sys.executable, "-m", "slidelab", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT / "pysrc")))
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = _children(driver.pid)
    assert len(workers) >= 2, "the workers did not start"
    time.sleep(1)  # at work
    driver.send_signal(how)
    driver.wait(timeout=30)
    return workers, driver


@pytest.mark.slow
@pytest.mark.parametrize("command", ["solve", "batch"])
def test_no_worker_outlives_a_killed_driver(command, tmp_path):
    if command == "solve":
        args = ["solve", KORF_1, "--goal", KORF_GOAL, "--heuristic", "manhattan", "--workers", "2"]
    else:
        positions = tmp_path / "hard.txt"
        positions.write_text("".join(f"p{i}: {KORF_1}\n" for i in range(4)))
        args = ["batch", str(positions), "--goal", KORF_GOAL, "--heuristic", "manhattan", "--workers", "2"]
    workers, driver = _start_and_kill(args, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while any(map(_alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(map(_alive, workers)), "a worker outlived its driver"


@pytest.mark.slow
def test_sigterm_ends_a_run_as_ctrl_c_does(tmp_path):
    args = ["solve", KORF_1, "--goal", KORF_GOAL, "--heuristic", "manhattan", "--workers", "2"]
    workers, driver = _start_and_kill(args, signal.SIGTERM)
    assert driver.returncode == 130 and driver.stderr.read().strip() == "slidelab: stopped"
    assert not any(map(_alive, workers))
