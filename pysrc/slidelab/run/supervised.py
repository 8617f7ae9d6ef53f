"""Your own code, run where it can always be stopped: a forked process of its own, watched by this one.

A heuristic is someone's Python: it may loop inside a bare `except:`, sleep, wait in a C call, end the process or
print. So on the command line every search that runs it (solve, trace, check-heuristic, each position of a batch)
runs in a child process, in a process group of its own (the workers it forks belong to it), and this process only
waits for its answer. The child stops itself at its time limit, even inside the user's function (an alarm raises
the limit there); a child that does not (the alarm swallowed by a bare `except:`) is killed with its group GRACE_S
later, and so is a child whose caller is stopped (Ctrl+C, SIGTERM: the KeyboardInterrupt the CLI raises here) or
cancels. Where no limit is given, DEFAULT_SECONDS is, and a limit answer says so.

What the code prints goes into the answer's "printed" (the api); what it writes on the process's standard output
another way (os.write, a C library) goes to a file here, and is added to it, so that `--json` stays one JSON object.
A child that ends without answering (sys.exit called where nothing caught it, os._exit, a crash) is a `user_code`
error saying how it ended.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable

from slidelab.core.errors import Cancelled, SearchLimit, SlideLabError, UserCodeError, internal
from slidelab.heuristics import user

GRACE_S = 1.0  # how long after its time limit a child that has not answered is killed
ALARM_S = 0.25  # the child's own alarm, this long after the limit: it stops the user's function where it is
DEFAULT_SECONDS = 3600.0  # the time limit of a run of your code that names none
POLL_S = 0.1  # how often the parent looks at the child and the clock
_dumps = json.dumps  # bound before any code of yours runs: replacing json.dumps in a child changes nothing here
MAX_MESSAGE = 1 << 30  # bytes of one message from the child (a trace of 20,000 nodes is a few MB)
MAX_KNOWN = 1 << 22  # values an IsolatedHeuristic keeps (a whole check's 2,000,000 positions fit)


def available() -> bool:
    """Whether this platform can run code in a supervised child (fork: Linux, macOS)."""
    from slidelab.core.workers import fork_unavailable

    return fork_unavailable() is None


def time_limit(request: dict) -> tuple[float, bool]:
    """(the seconds a run of the request's code may take, whether that is DEFAULT_SECONDS because it names none);
    a malformed max_seconds is left for the api to refuse."""
    seconds = request.get("max_seconds")
    if isinstance(seconds, (int, float)) and not isinstance(seconds, bool) and 0 < seconds < DEFAULT_SECONDS * 1e6:
        return float(seconds), False
    return DEFAULT_SECONDS, seconds is None


def run(call: Callable, request: dict, on_progress=None, should_cancel=None) -> dict:
    """`call(request, on_progress)` (an api entry point) in a supervised child: its answer, with "printed" when the
    code printed anything; an error answer when the child overran its time limit, was cancelled or ended without
    answering. Ctrl+C (KeyboardInterrupt) ends the child and is raised again."""
    import tempfile
    from multiprocessing.connection import Pipe

    seconds, by_default = time_limit(request)
    request = dict(request, isolate=True)  # the child searches; the code's values come from the sandbox
    if by_default:
        request["max_seconds"] = seconds
    mine, theirs = Pipe()
    printed = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        mine.close()
        _child(call, request, theirs, printed.fileno(), seconds)
    _own_group(pid)
    theirs.close()
    try:
        answer = _await(pid, mine, time.monotonic() + seconds + GRACE_S, on_progress, should_cancel)
    finally:
        _end(pid)
        mine.close()
    if answer is None:
        answer = _overran(seconds)
    if answer["ok"] is False and answer["error"]["code"] == "limit" and by_default:
        answer["error"]["message"] += (f" (the default time limit for your own code, {seconds:g} s; "
                                       "--max-seconds sets another)")
    from slidelab.run.sandbox import printed as printed_text

    text = printed_text(printed, user.MAX_PRINTED)
    if text:
        answer["printed"] = (answer.get("printed", "") + "\n" + text).strip("\n")
    return answer


def _await(pid: int, conn, deadline: float, on_progress, should_cancel) -> dict | None:
    """The child's answer (or the answer for how it ended, or for a cancel); None when the deadline passed first."""
    from multiprocessing.connection import wait

    while True:
        left = deadline - time.monotonic()
        if wait([conn], min(POLL_S, max(left, 0))):
            try:
                kind, message = _read(conn)
            except (EOFError, OSError, ValueError):  # the child ended (waitpid below says how), or sent nonsense
                kind, message = "ended", {}
            if kind == "progress" and on_progress is not None:
                on_progress(message)
            if kind == "answer":
                return message
        ended = _ended(pid)
        if ended is not None:  # its answer may still wait in the pipe, behind progress messages
            while conn.poll():
                try:
                    kind, message = _read(conn)
                except (EOFError, OSError, ValueError):
                    break
                if kind == "answer":
                    return message
            return _died(ended)
        if left <= 0:
            return None
        if should_cancel is not None and should_cancel():
            return _error(Cancelled, "the search was cancelled", "cancelled")


def _own_group(pid: int) -> None:
    """Put a child in a process group of its own (the child does it too: whichever comes first), so that `_end`
    reaches it and everything it starts."""
    try:
        os.setpgid(pid, pid)
    except OSError:  # done already by the child, or it has ended
        pass


def _keep_only(*fds: int) -> None:
    """Close every file descriptor this process inherited but 0, 1, 2 and `fds`: code of someone's that runs here
    must reach no pipe of its parent's (a grading worker's pipe to its driver, say)."""
    import resource

    try:
        top = min(resource.getrlimit(resource.RLIMIT_NOFILE)[0], 1 << 16)
    except (ValueError, OSError):
        top = 1 << 12
    low = 3
    for fd in sorted(set(fds)):
        if fd >= low:
            os.closerange(low, fd)
            low = fd + 1
    os.closerange(low, max(top, low))


def _become_child(fd: int, printed_fd: int) -> None:
    """What every child that runs someone's code does first: a process group of its own, none of its parent's pipes
    but `conn`, Ctrl+C left to the parent, death with the parent, its standard output into the printed-output file,
    and a KeyboardInterrupt counted as the code's own failure."""
    os.setpgid(0, 0)
    _keep_only(fd, printed_fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's: it ends this process
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    os.dup2(printed_fd, 1)
    user.contain_interrupts()


def _child(call, request, conn, printed_fd, seconds) -> None:
    """The child's life: its own process group, stdout into the printed-output file, the user's KeyboardInterrupt and
    sys.exit caught as its failures, the alarm at the limit; answer, then end without running anyone's exit hooks."""
    code = 0
    try:
        _become_child(conn.fileno(), printed_fd)
        _alarm(seconds + ALARM_S)

        def progress(event):
            _write(conn, "progress", event)

        answer = call(request, on_progress=progress)
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout.flush()
        _write(conn, "answer", answer)
    except BaseException as e:  # sys.exit or KeyboardInterrupt from the code, outside h (a bug: internal)
        try:
            _write(conn, "answer", _escaped(e))
        except BaseException:
            code = 1
    finally:
        os._exit(code)


def _write(conn, kind: str, message: dict) -> None:
    """Send a message as JSON: the parent never unpickles what a process that ran someone's code sends."""
    conn.send_bytes(_dumps([kind, message]).encode())


def _read(conn) -> tuple[str, dict]:
    """A message of the child's: (kind, a JSON object), or ValueError."""
    kind, message = json.loads(conn.recv_bytes(MAX_MESSAGE))
    if kind not in ("progress", "answer") or not isinstance(message, dict):
        raise ValueError("not a message of slidelab's")
    if kind == "answer" and not isinstance(message.get("ok"), bool):
        raise ValueError("not an answer")
    error = message.get("error")
    if kind == "answer" and message["ok"] is False and not (
            isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str)):
        raise ValueError("not an error answer")
    return kind, message


def _escaped(e: BaseException) -> dict:
    """The answer for what escaped the api in the child: the user's SystemExit or KeyboardInterrupt, else a bug."""
    if isinstance(e, (SystemExit, KeyboardInterrupt)):
        what = f"called sys.exit({e.code!r})" if isinstance(e, SystemExit) else "raised KeyboardInterrupt"
        return _error(UserCodeError, f"your heuristic {what}: a heuristic returns its value, it never ends the "
                      "program", "exited", what=what)
    return {"ok": False, "error": internal(e)}


def _alarm(seconds: float) -> None:
    """At `seconds`, raise the time limit wherever the child is, the user's function included."""
    def stop(signum, frame):
        raise SearchLimit(_stopped(seconds - ALARM_S), reason="time_limit", seconds=seconds - ALARM_S)

    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _die_with_parent() -> None:
    """On Linux, have the kernel kill this process when its parent dies (the workers' way: workers.py)."""
    if sys.platform.startswith("linux"):
        import ctypes

        from slidelab.core.workers import PR_SET_PDEATHSIG

        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        except (OSError, AttributeError):
            pass


def _ended(pid: int) -> int | None:
    """The child's wait status once it has ended, else None."""
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return 0
    return status if done else None


def _end(pid: int) -> None:
    """Kill the child's process group (the child and every worker it started) and reap the child."""
    _end_group(pid)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:  # reaped already
        pass


def _end_group(pid: int) -> None:
    """Kill a child's process group, and the child itself should it not lead its group yet, without reaping it (a
    timer's way: its owner reaps it)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _died(status: int) -> dict:
    """The answer for a child that ended without answering."""
    if os.WIFSIGNALED(status):
        try:
            name = signal.Signals(os.WTERMSIG(status)).name
        except ValueError:
            name = f"signal {os.WTERMSIG(status)}"
        how = f"was killed by {name}"
    else:
        how = _exit_status(os.WEXITSTATUS(status))
    return _error(UserCodeError, *_gone(how)[1:3], how=how)


def _exit_status(status) -> str:
    return f"ended with exit status {status} (os._exit, or a crash)"


def _gone(how: str) -> tuple:
    """(kind, message, reason, details) of code whose process ended without answering, `how` it ended."""
    return UserCodeError, f"the process running your heuristic {how} before answering", "ended", {"how": how}


# A runtime that failed under the code, as the page's Python reports it, said as the command line says it
RUNTIME_ENDINGS: tuple = (
    (re.compile(r"Program terminated with exit\((\d+)\)"), lambda found: _gone(_exit_status(found[1]))),
    (re.compile(r"Maximum call stack size exceeded|RecursionError|too much recursion"),
     lambda found: (UserCodeError, f"your heuristic failed: {user.RECURSED}", "recursion", {})),
)


def _overran(seconds: float) -> dict:
    return _error(SearchLimit, f"stopped after {seconds:g} s (the time limit): your heuristic was still running and "
                  "did not stop when told", "time_limit", seconds=seconds)


def _error(kind: type[SlideLabError], message: str, reason: str, **details) -> dict:
    """The error answer (api.error_of's form) of an error of `kind`."""
    return {"ok": False, "error": kind(message, reason=reason, **details).as_dict()}


class Evaluator:
    """Your h in a process of its own that runs nothing else, for a checker that never runs your code (check-heuristic
    and grading: what the code does to its own process cannot reach the verdict). The process is a fresh interpreter
    in the sandbox (sandbox.py) where this machine gives one, else a forked child (`sandboxed=False`). It compiles
    the code for `puzzle`, checks h at the goal, then answers `values(states)`: h of each, every value checked there
    (user.py) and again here. The time it takes to answer is counted (the checker's own time between two questions is
    not); past `seconds` in all it is ended and SearchLimit raised, a message too large or cut short included; a
    process that ends is a UserCodeError saying how."""

    def __init__(self, puzzle, code: str, function: str = user.DEFAULT_FUNCTION, filename: str = user.CODE_NAME,
                 seconds: float = DEFAULT_SECONDS, sandboxed: bool | None = None, answers: str = "values"):
        from slidelab.run import sandbox

        self.seconds = seconds
        self.used = 0.0  # seconds spent waiting for the child's answers
        self.asked: list | None = None  # the states of the question the child is answering
        self.format = puzzle.format
        # a question: states one byte a cell (state_codec), or the one task of an evaluator of whole tasks
        self._encode = (lambda tasks: _dumps(list(tasks[0])).encode()) if answers == "tasks" else state_codec(puzzle)[0]
        self.sandboxed = sandbox.available() if sandboxed is None else sandboxed
        self.answers = answers
        self.said = ""  # what the child printed, once it is closed
        self.closed = False
        self.child: sandbox.Sandboxed | _Forked = (
            sandbox.Sandboxed("slidelab.run.supervised:evaluate_sandboxed", seconds) if self.sandboxed
            else _Forked(puzzle, code, function, filename, answers))  # a fork has the puzzle and code already
        self.channel = self.child.channel
        if self.sandboxed:
            self._send(_dumps({"puzzle": puzzle_spec(puzzle), "code": code, "function": function,
                               "filename": filename, "answers": answers}).encode())
        self._answer()  # ready, or the code's error

    def values(self, states: list) -> list[int]:
        """h of each state."""
        self.ask(states)
        return self.take()

    def ask(self, states: list) -> None:
        """Send the child the states to evaluate; `take` gets their values. One question at a time: the child
        computes while this process goes on with other work."""
        if self.asked is not None:
            raise RuntimeError("the evaluator has a question waiting for its answer")
        if not states:  # nothing to ask: `take` gives []
            return
        if self.closed:
            raise SearchLimit("your heuristic's process has ended (its time limit)", reason="time_limit",
                              seconds=self.seconds)
        self.asked = states
        self._send(self._encode(states))

    def _send(self, data: bytes) -> None:
        """Send a question; a child that does not read it within the time left is ended, which is the time limit,
        and one that has gone is how it ended."""
        started = time.monotonic()
        try:
            self.channel.send(data, started + max(self.seconds - self.used, 0.01))
        except TimeoutError:
            self.close()
            raise SearchLimit(_stopped(self.seconds), reason="time_limit", seconds=self.seconds) from None
        except OSError:
            self.close()
            raise UserCodeError("the process running your heuristic stopped reading before answering",
                                reason="ended", how="stopped reading") from None
        finally:
            self.used += time.monotonic() - started

    def ask_task(self, task) -> None:
        """Send an evaluator of whole tasks (answers="tasks") one task of the numpy engine's check; `take_task`
        gets its values."""
        self.ask([task])

    def take_task(self) -> bytes:
        """The values of the task of the last `ask_task`: 16-bit values, one a position, in index order."""
        self.asked = None
        found = self._answer()
        if not isinstance(found, bytes):
            self.close()
            raise UserCodeError("the process running your heuristic sent something else than its values",
                                reason="ended", how="sent something else")
        return found

    def take(self) -> list[int]:
        """The values of the states of the last `ask`, each checked."""
        states, self.asked = self.asked, None
        if not states:
            return []
        return checked_values(self._answer(), states, self.format, "process")

    def _answer(self):
        """The child's next message: its values (or None when ready); raises its error, the time limit, or how it
        ended."""
        asked = time.monotonic()
        try:
            return self._wait(asked)
        finally:
            self.used += time.monotonic() - asked

    def _wait(self, asked: float):
        from slidelab.run.sandbox import FrameError, json_of

        channel = self.channel
        while True:
            deadline = asked + self.seconds - self.used
            left = deadline - time.monotonic()
            if left <= 0:
                self.close()
                raise SearchLimit(_stopped(self.seconds), reason="time_limit", seconds=self.seconds)
            if channel.ready(min(POLL_S, left)):
                try:
                    frame = channel.receive(deadline)
                    if frame[:1] == TASK_VALUES and self.answers == "tasks":
                        return frame[1:]
                    message = json_of(frame)
                except TimeoutError:  # a message begun and never finished: the time limit
                    continue
                except FrameError as e:
                    self.close()
                    raise UserCodeError(f"the process running your heuristic sent {e}", reason="ended",
                                        how="sent something else") from None
                except (EOFError, OSError):
                    message = None
                if isinstance(message, dict) and "values" in message:
                    return message["values"]
                if isinstance(message, dict) and isinstance(message.get("error"), dict):
                    self.close()
                    raise answered_error(dict(message["error"], code="user_code"))
                if message is not None:
                    self.close()
                    raise UserCodeError("the process running your heuristic sent something else than values",
                                        reason="ended", how="sent something else")
                ended: int | None = self._ended_after(1.0)
            else:
                ended = self.child.ended()
            if ended is not None:
                self.close()
                how = _died(ended)["error"]["details"]["how"]
                raise UserCodeError(f"the process running your heuristic {how} before answering", reason="ended",
                                    how=how)

    def _ended_after(self, seconds: float) -> int:
        """The child's wait status once its channel has closed (it is ended if it lingers)."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            ended = self.child.ended()
            if ended is not None:
                return ended
            time.sleep(0.01)
        return 9  # closed its channel and went on: ended here (SIGKILL)

    def close(self) -> str:
        """End the child (and anything it started); what it printed."""
        if not self.closed:
            self.closed = True
            self.said = self.child.close(user.MAX_PRINTED)
        return self.said


class _Forked:
    """Where no sandbox can be made: the evaluator's child forked from this process (it has the puzzle already), with
    the sandbox's channel and ways (sandbox.Sandboxed), and only the guarantees a process of its own gives."""

    def __init__(self, puzzle, code, function, filename, answers):
        import socket
        import tempfile

        from slidelab.run.sandbox import Channel

        self.output = tempfile.TemporaryFile()
        mine, theirs = socket.socketpair()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            mine.close()
            _evaluate_in_child(puzzle, code, function, filename, answers, theirs.fileno(), self.output.fileno())
        _own_group(self.pid)
        theirs.close()
        self.channel = Channel(mine)
        self.closed = False

    def ended(self) -> int | None:
        return _ended(self.pid)

    def close(self, keep: int) -> str:
        from slidelab.run.sandbox import printed

        if not self.closed:
            self.closed = True
            _end(self.pid)
            self.channel.close()
        return printed(self.output, keep)


def task_evaluators(puzzle, code: str, function: str, filename: str, seconds: float, workers: int):
    """The numpy engine's evaluation of a heuristic of yours (space/indexed_check.py's `evaluators`): `workers`
    Evaluators of whole tasks, each fed the next task of one queue as it answers; yields (task, its values) as they
    come, and (None, None) every POLL_S while none does, so that the check keeps its limits."""
    import select
    from collections import deque

    def evaluate(tasks: list):
        queue = deque(tasks)
        pool = []
        working: dict = {}  # evaluator -> its task
        try:
            for _ in range(max(1, min(workers, len(queue)))):
                pool.append(Evaluator(puzzle, code, function, filename, seconds, answers="tasks"))
            while queue or working:
                for evaluator in pool:
                    if evaluator not in working and queue:
                        working[evaluator] = queue.popleft()
                        evaluator.ask_task(working[evaluator])
                done = [e for e in working if e.channel.ready(0)]
                if not done:
                    select.select([e.channel.sock for e in working], [], [], POLL_S)
                    done = [e for e in working if e.channel.ready(0)]
                if not done:
                    yield None, None
                for evaluator in done:
                    task = working.pop(evaluator)
                    yield task, evaluator.take_task()
        finally:
            for evaluator in pool:
                evaluator.close()

    return evaluate


def checked_values(found, states: list, format_state, where: str) -> list[int]:
    """The values an evaluator answered for `states`, each a whole number of at least 0 (checked where h ran too:
    this is the check that counts); UserCodeError naming the board otherwise."""
    from slidelab.run.sandbox import visible

    if not isinstance(found, list) or len(found) != len(states):
        raise UserCodeError(f"the {where} running your heuristic answered something else than its values",
                            reason="ended", how="answered something else")
    for value, state in zip(found, states, strict=True):
        if type(value) is not int or value < 0:
            board = format_state(tuple(state) if isinstance(state, list) else state)
            shown = visible(value, 40)  # its own text: one line, control characters made visible
            raise UserCodeError(f"your heuristic returned {shown} on the board {board}, not a whole "
                                "number of at least 0", reason="bad_value", value=shown,
                                type=type(value).__name__, board=board, line=None, file=None)
    return found


def answered_error(error, seconds: float | None = None) -> SlideLabError:
    """The exception an evaluator's error answer ({"code", "message", "reason"?, "details"?}) stands for; a "limit"
    answer is the time limit of `seconds`. A runtime that failed under the code (the page's: "internal") is said as
    the command line says the same failure (RUNTIME_ENDINGS)."""
    error = error if isinstance(error, dict) else {}
    if error.get("code") == "limit":
        return SearchLimit(_stopped(seconds), reason="time_limit", seconds=seconds)
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    from slidelab.run.sandbox import visible

    if error.get("code") == "internal":
        for pattern, said in RUNTIME_ENDINGS:
            found = pattern.search(str(error.get("message", "")))
            if found:
                kind, message, reason, more = said(found)
                return kind(message, reason=reason, **more)

    return UserCodeError(visible(error.get("message", "the evaluator failed"), 2000),
                         reason=str(error.get("reason") or "failed"), **{str(k): v for k, v in details.items()})


def _stopped(seconds) -> str:
    return f"stopped after {seconds:g} s (the time limit) while your heuristic was running"


def _evaluate_in_child(puzzle, code, function, filename, answers, fd, printed_fd) -> None:
    """The forked evaluator's child: its own process group, none of its parent's descriptors but its channel and
    output, then `_evaluate`."""
    def body():
        from slidelab.run.sandbox import Channel

        _become_child(fd, printed_fd)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the process's own stdout, for its whole life
        _evaluate(puzzle, code, function, filename, answers, Channel(socket_of(fd)))

    _live_then_exit(body)


def evaluate_sandboxed(fd: int) -> None:
    """The sandboxed evaluator (sandbox.Sandboxed's entry): the puzzle, code and function from the first message,
    then `_evaluate`. It answers on its channel only; what it prints goes to its own output."""
    def body():
        from slidelab.run.sandbox import Channel

        user.contain_interrupts()
        channel = Channel(socket_of(fd))
        setup = json.loads(channel.receive(INF_DEADLINE))
        _evaluate(puzzle_of(setup["puzzle"]), setup["code"], setup["function"], setup["filename"],
                  setup.get("answers", "values"), channel)

    _live_then_exit(body)


def _live_then_exit(body) -> None:
    """An evaluator's whole life: `body`, then the process ends without running anyone's exit hooks (status 1 when
    something escaped it)."""
    status = 0
    try:
        body()
    except BaseException:
        status = 1
    finally:
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        os._exit(status)


INF_DEADLINE = float("inf")


def socket_of(fd: int):
    import socket

    return socket.socket(fileno=fd)


def _evaluate(puzzle, code, function, filename, answers, channel) -> None:
    """The evaluator's life: the code compiled and checked at the goal, then the answer to each question it is sent
    (`answers`: "values", h of each state, as JSON; "tasks", h of every position of a task of the numpy engine's
    check, as TASK_VALUES and 16-bit values), until its channel closes; its errors are sent as they would be
    answered."""
    send = channel.send
    try:
        heuristic = user.user_heuristic(puzzle, code, function, filename=filename)
        answer = (_task_answers if answers == "tasks" else _state_answers)(puzzle, heuristic)
        send(_dumps({"values": None}).encode(), INF_DEADLINE)
        while True:
            try:
                question = channel.receive(INF_DEADLINE)
            except (EOFError, OSError):
                break
            found = answer(question)
            sys.stdout.flush()
            send(found, INF_DEADLINE)
    except SlideLabError as e:
        send(_dumps({"error": e.as_dict()}).encode(), INF_DEADLINE)


TASK_VALUES = b"V"  # what starts an answer of task values (a JSON answer starts with "{")


def _state_answers(puzzle, heuristic):
    decode = state_codec(puzzle)[1]
    return lambda question: _dumps({"values": [heuristic(state) for state in decode(question)]}).encode()


def _task_answers(puzzle, heuristic):
    """The answers of an evaluator of whole tasks: the index and its tasks, made here as the checker makes them."""
    import numpy

    from slidelab.space.indexed_check import Tasks, task_values
    from slidelab.space.indexed_explore import Index

    index = Index(numpy, puzzle.rows, puzzle.cols, puzzle.goal)
    tasks = Tasks(index)

    def answer(question):
        task = json.loads(question)
        return TASK_VALUES + task_values(numpy, index, tasks, heuristic, (task[0], task[1])).tobytes()

    return answer


def puzzle_spec(puzzle) -> dict:
    """What rebuilds `puzzle` in another interpreter (puzzle_of): its kind, shape, start and goal, and a token
    puzzle's rule."""
    if puzzle.kind == "sliding":
        return {"kind": "sliding", "rows": puzzle.rows, "cols": puzzle.cols, "start": list(puzzle.start),
                "goal": list(puzzle.goal)}
    return {"kind": "tokens", "rows": puzzle.rows, "cols": puzzle.cols, "start": puzzle.cells(puzzle.start),
            "goal": puzzle.cells(puzzle.goal), "rule": puzzle.rule}


def puzzle_of(spec: dict):
    if spec["kind"] == "sliding":
        from slidelab.core.puzzles.sliding import SlidingPuzzle

        return SlidingPuzzle(spec["rows"], spec["cols"], tuple(spec["start"]), tuple(spec["goal"]))
    from slidelab.core.puzzles.tokens import TokenPuzzle

    return TokenPuzzle(spec["rows"], spec["cols"], spec["start"], spec["goal"], spec["rule"])


def state_codec(puzzle):
    """(encode, decode) of a list of states on the evaluator's pipe: a sliding position as one byte a cell, a token
    position (an int) as JSON."""
    if puzzle.kind == "sliding" and puzzle.size <= 256:
        size = puzzle.size

        def encode(states):
            return b"".join(map(bytes, states))

        def decode(data):
            return [tuple(data[i:i + size]) for i in range(0, len(data), size)]

        return encode, decode
    return (lambda states: _dumps(states).encode()), json.loads


def isolated_heuristic(puzzle, code, seconds: float | None) -> IsolatedHeuristic:
    """Your code (a request's UserCode) as an Estimator whose values come from an Evaluator of its own, with the
    request's time limit (DEFAULT_SECONDS when it names none); close its `evaluator` when done."""
    evaluator = Evaluator(puzzle, code.code, code.function, code.filename, seconds or DEFAULT_SECONDS)
    return IsolatedHeuristic(evaluator, code.filename)


class IsolatedHeuristic:
    """An Estimator whose values come from an Evaluator: a checker or a search that uses it never runs the code. Values
    are kept, so a position is asked once; `many(states)` asks for many in one exchange (check.py's values)."""

    kernel = None

    def __init__(self, evaluator: Evaluator, filename: str = user.CODE_NAME, name: str = user.NAME):
        self.evaluator = evaluator
        self.filename = filename
        self.name = name
        self.known: dict = {}

    def __call__(self, state) -> int:
        value = self.known.get(state)
        if value is None:
            value = self.evaluator.values([state])[0]
            self._keep({state: value})
        return value

    def _keep(self, found: dict) -> None:
        """Keep values, at most MAX_KNOWN (a long search's positions outnumber memory: then they are asked again)."""
        if len(self.known) + len(found) > MAX_KNOWN:
            self.known.clear()
        self.known.update(found)

    def many(self, states: list) -> list[int]:
        """h of each state, those not known yet asked for in one exchange."""
        return self.ask(states)()

    def ask(self, states: list):
        """Ask the evaluating process for h of each state and return at once a function that waits for the values
        (check.py's layers: the next layer is computed there while this one is tallied here)."""
        known = self.known
        missing = list(dict.fromkeys(state for state in states if state not in known))
        self.evaluator.ask(missing)

        def take() -> list[int]:
            found = dict(zip(missing, self.evaluator.take(), strict=True))
            values = [found[state] if state in found else known[state] for state in states]
            self._keep(found)
            return values

        return take
