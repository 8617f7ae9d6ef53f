"""Forked worker processes fed through pipes, one task at a time: the one pool behind `slidelab batch` and parallel
IDA* (`--workers`), with one retry policy; and the process helpers (cores, how a process ended).

A pool starts `size` processes by fork, so they share the parent's memory copy-on-write (puzzles and tables are never
copied or rebuilt); each runs `serve(conn, *args)`, which receives tasks on `conn` and sends messages back until the
pipe closes. `ForkedPool.feed` hands the tasks of a queue to idle workers and yields what comes back; the caller says
when a message ends a worker's task (`finish`). A worker whose process dies (killed, out of memory) is replaced and
its task queued again; a task whose workers died MAX_TRIES times in all is given up (a `GaveUp` event). Workers
ignore Ctrl-C (the driver handles it and closes the pool), and on Linux the kernel kills them when the driver dies,
however it died (PR_SET_PDEATHSIG), so none is left running or holding memory.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, Protocol

MAX_TRIES = 3  # a task is tried this many times in all (its worker dying each time) before it is given up
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when its parent dies


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it), for `workers: 0`."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1


def fork_unavailable() -> str | None:
    """None when this platform can run forked workers, else why not."""
    if sys.platform == "emscripten":
        return "this runtime has no processes: a search here runs on one core"
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return "parallel work needs processes that share memory by fork (Linux, macOS); this platform has none"
    return None


def how_it_ended(process) -> str:
    """How a finished process ended, for a message: "killed by SIGKILL", "exit 1"."""
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit {code}"


class TaskQueue(Protocol):
    """What `feed` takes its tasks from: a deque, or anything that hands tasks out the same way (and is true while it
    has one to hand out)."""

    def popleft(self) -> Any: ...

    def appendleft(self, task: Any) -> None: ...


class Worker:
    """One forked process and the driver's end of its pipe; `task` is the task it works on (None: idle)."""

    def __init__(self, process, conn):
        self.process = process
        self.conn = conn
        self.task: Any = None


class Tries:
    """The one retry policy of work whose worker died: a task is tried MAX_TRIES times in all."""

    def __init__(self):
        self.died: dict = {}  # task -> times its worker died

    def again(self, task: Any) -> bool:
        """Count a death of `task`'s worker: True when the task is to be tried again."""
        died = self.died[task] = self.died.get(task, 0) + 1
        return died < MAX_TRIES


class Died(NamedTuple):
    """A busy worker died (it has been replaced): its `task`, and `how` it ended."""

    task: Any
    how: str


class GaveUp:
    """A task whose worker died each of the MAX_TRIES times it was tried; `how` says how the last one ended."""

    def __init__(self, task, how: str):
        self.task = task
        self.how = how


class ForkedPool:
    """`size` forked workers, each running `serve(conn, *args)`."""

    def __init__(self, size: int, serve: Callable, args: tuple = ()):
        import multiprocessing

        self._context = multiprocessing.get_context("fork")
        self._serve = serve
        self._args = args
        self.replaced = 0  # workers replaced after dying
        self.tries = Tries()
        self.workers: list[Worker] = []
        self.workers = [self._start() for _ in range(size)]

    def _start(self) -> Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(target=_run, args=(os.getpid(), self._serve, theirs, self._args),
                                        daemon=True)
        process.start()
        theirs.close()
        return Worker(process, mine)

    def feed(self, queue: TaskQueue, payload: Callable[[Any], Any], poll: float | None = None) -> Iterator:
        """Hand the tasks of `queue` to idle workers (each sent `payload(task)`) and yield, while any worker is busy,
        (worker, message) for every message a busy worker sends; the caller calls `finish(worker)` when a message
        ends the task. Also yields None when `poll` seconds pass with nothing to read, and a GaveUp for a task given
        up. Ends when the queue is empty and every worker idle (or when the caller stops iterating)."""
        while True:
            for slot, w in enumerate(self.workers):
                if w.task is None and queue:
                    task = queue.popleft()
                    if not self.hand(slot, task, payload(task)):
                        queue.appendleft(task)
            if not any(w.task is not None for w in self.workers):
                return
            heard = False
            for event in self.messages(poll):
                heard = True
                if not isinstance(event, Died):
                    yield event
                elif self.tries.again(event.task):
                    queue.appendleft(event.task)
                else:
                    yield GaveUp(event.task, event.how)
            if not heard:
                yield None

    def hand(self, slot: int, task: Any, payload: Any) -> bool:
        """Send the idle worker in `slot` its `task` (as `payload`); False when it had died idle: it is replaced, and
        the task, which never reached it, is not counted as tried."""
        w = self.workers[slot]
        w.task = task
        try:
            w.conn.send(payload)
            return True
        except OSError:
            w.task = None
            self._replace(slot)
            return False

    def messages(self, poll: float | None) -> Iterator:
        """Wait at most `poll` seconds (None: for ever) for the busy workers, then yield (worker, message) for every
        message one sent, and Died for every one that died (replaced by an idle one); nothing when none spoke."""
        from multiprocessing.connection import wait

        busy = [w for w in self.workers if w.task is not None]
        ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], poll))
        for slot, w in enumerate(self.workers):
            if w.task is None or not ready:
                continue
            message, broken = None, False
            if w.conn in ready:
                try:
                    message = w.conn.recv()
                except Exception:  # closed, or a message cut short by the worker's death
                    broken = True
            if message is not None:
                yield w, message
            elif broken or w.process.sentinel in ready or not w.process.is_alive():
                task = w.task
                yield Died(task, self._replace(slot))

    def finish(self, worker: Worker) -> None:
        """The worker's task is done: it takes the next one."""
        worker.task = None

    def _replace(self, slot: int) -> str:
        """A new worker in place of the one in `slot` (dead, or to be killed); returns how the old one ended."""
        w = self.workers[slot]
        w.process.kill()
        w.process.join()
        w.conn.close()
        self.workers[slot] = self._start()
        self.replaced += 1
        return how_it_ended(w.process)

    def memory_bytes(self) -> int | None:
        """The workers' proportional set size in bytes (shared pages counted once; Linux, else None)."""
        total = 0
        for w in self.workers:
            try:
                with open(f"/proc/{w.process.pid}/smaps_rollup") as f:
                    total += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
            except (OSError, StopIteration, ValueError):
                return None
        return total

    def close(self) -> None:
        """Kill every worker (those still at work too) and wait for them."""
        for w in self.workers:
            if w.process.is_alive():
                w.process.kill()
        for w in self.workers:
            w.process.join()
            w.conn.close()


def serve(conn, answer: Callable[[Any], Any]) -> None:
    """A worker's loop: each task the driver sends is answered with `answer(task)` (None: nothing to send), until the
    pipe closes or the driver has gone. `answer` turns its own errors into its reply: a worker that raises dies."""
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        reply = answer(task)
        if reply is None:
            continue
        try:
            conn.send(reply)
        except OSError:  # the driver has gone
            return


def portable(error: Exception) -> Exception:
    """The exception itself when it survives the pipe (pickled and read back), else a RuntimeError naming it: what a
    worker sends when its task failed (told, not died of: a death would have the task tried again, in vain)."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")


def _run(parent: int, serve: Callable, conn, args: tuple) -> None:
    """A worker's life: die with the driver, leave Ctrl-C to it, serve until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle: it stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the driver died before the kernel was asked to tell
        os._exit(0)
    serve(conn, *args)
    os._exit(0)
