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
    if by_default:
        request = dict(request, max_seconds=seconds)
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
    text = _printed(printed)
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


def _become_child(conn, printed_fd: int) -> None:
    """What every child that runs someone's code does first: a process group of its own, none of its parent's pipes
    but `conn`, Ctrl+C left to the parent, death with the parent, its standard output into the printed-output file,
    and a KeyboardInterrupt counted as the code's own failure."""
    os.setpgid(0, 0)
    _keep_only(conn.fileno(), printed_fd)
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
        _become_child(conn, printed_fd)
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
        how = f"ended with exit status {os.WEXITSTATUS(status)} (os._exit, or a crash)"
    return _error(UserCodeError, f"the process running your heuristic {how} before answering", "ended", how=how)


def _overran(seconds: float) -> dict:
    return _error(SearchLimit, f"stopped after {seconds:g} s (the time limit): your heuristic was still running and "
                  "did not stop when told", "time_limit", seconds=seconds)


def _error(kind: type[SlideLabError], message: str, reason: str, **details) -> dict:
    """The error answer (api.error_of's form) of an error of `kind`."""
    return {"ok": False, "error": kind(message, reason=reason, **details).as_dict()}


def _printed(file) -> str:
    """What the child wrote on its standard output, cut to user.MAX_PRINTED characters (the cut said)."""
    try:
        size = file.seek(0, 2)
        file.seek(0)
        text = file.read(4 * user.MAX_PRINTED).decode("utf-8", "replace")
    finally:
        file.close()
    if len(text) > user.MAX_PRINTED or size > 4 * user.MAX_PRINTED:
        text = text[:user.MAX_PRINTED] + f"\n... (cut: {size:,} bytes written in all)"
    return text


class Evaluator:
    """Your h in a process of its own that runs nothing else, for a checker that never runs your code (check-heuristic
    and grading: what the code does to its own process cannot reach the verdict). The child compiles the code for
    `puzzle` (a fork: it has the puzzle already), checks h at the goal, then answers `values(states)`: h of each,
    every value checked there (user.py) and again here. The time the child takes to answer is counted (the checker's
    own time between two questions is not); past `seconds` in all the child is ended and SearchLimit raised; a
    child that ends is a UserCodeError saying how."""

    def __init__(self, puzzle, code: str, function: str = user.DEFAULT_FUNCTION, filename: str = user.CODE_NAME,
                 seconds: float = DEFAULT_SECONDS):
        import tempfile
        from multiprocessing.connection import Pipe

        self.seconds = seconds
        self.used = 0.0  # seconds spent waiting for the child's answers
        self.asked: list | None = None  # the states of the question the child is answering
        self.format = puzzle.format
        self._encode = state_codec(puzzle)[0]
        self.printed = tempfile.TemporaryFile()
        self.conn, theirs = Pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            self.conn.close()
            _evaluate_in_child(puzzle, code, function, filename, theirs, self.printed.fileno())
        _own_group(self.pid)
        theirs.close()
        self.said = ""  # what the child printed, once it is closed
        self.closed = False
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
        if self.closed:
            raise SearchLimit("your heuristic's process has ended (its time limit)", reason="time_limit",
                              seconds=self.seconds)
        self.asked = states
        if states:
            self._send(self._encode(states))

    def _send(self, data: bytes) -> None:
        """Send a question; a child that does not read it within the time left is ended (a write blocks until it
        reads), which is the time limit, and one that has gone is how it ended."""
        import threading

        left = max(self.seconds - self.used, 0.01)
        stopper = threading.Timer(left, _end_group, (self.pid,))
        stopper.start()
        started = time.monotonic()
        try:
            self.conn.send_bytes(data)
        except OSError:
            late = time.monotonic() - started >= left
            self.close()
            if late:
                raise SearchLimit(_stopped(self.seconds), reason="time_limit", seconds=self.seconds) from None
            raise UserCodeError("the process running your heuristic stopped reading before answering",
                                reason="ended", how="stopped reading") from None
        finally:
            stopper.cancel()
            self.used += time.monotonic() - started

    def take(self) -> list[int]:
        """The values of the states of the last `ask`, each checked."""
        states, self.asked = self.asked, None
        if not states:
            return []
        return checked_values(self._answer(), states, self.format, "process")

    def _answer(self):
        """The child's next message: its values (or None when ready); raises its error, the time limit, or how it
        ended."""
        from multiprocessing.connection import wait

        asked = time.monotonic()
        try:
            return self._wait(wait, asked)
        finally:
            self.used += time.monotonic() - asked

    def _wait(self, wait, asked: float):
        while True:
            left = asked + self.seconds - self.used - time.monotonic()
            if left <= 0:
                self.close()
                raise SearchLimit(_stopped(self.seconds), reason="time_limit", seconds=self.seconds)
            if wait([self.conn], min(POLL_S, left)):
                try:
                    message = json.loads(self.conn.recv_bytes(MAX_MESSAGE))
                except (EOFError, OSError, ValueError):
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
            ended = _ended(self.pid)
            if ended is not None:
                self.close()
                how = _died(ended)["error"]["details"]["how"]
                raise UserCodeError(f"the process running your heuristic {how} before answering", reason="ended",
                                    how=how)

    def close(self) -> str:
        """End the child (and anything it started); what it printed."""
        if not self.closed:
            self.closed = True
            _end(self.pid)
            self.conn.close()
            self.said = _printed(self.printed)
        return self.said


def checked_values(found, states: list, format_state, where: str) -> list[int]:
    """The values an evaluator answered for `states`, each a whole number of at least 0 (checked where h ran too:
    this is the check that counts); UserCodeError naming the board otherwise."""
    if not isinstance(found, list) or len(found) != len(states):
        raise UserCodeError(f"the {where} running your heuristic answered something else than its values",
                            reason="ended", how="answered something else")
    for value, state in zip(found, states, strict=True):
        if type(value) is not int or value < 0:
            board = format_state(tuple(state) if isinstance(state, list) else state)
            raise UserCodeError(f"your heuristic returned {str(value)[:40]} on the board {board}, not a whole "
                                "number of at least 0", reason="bad_value", value=str(value)[:40],
                                type=type(value).__name__, board=board, line=None, file=None)
    return found


def answered_error(error, seconds: float | None = None) -> SlideLabError:
    """The exception an evaluator's error answer ({"code", "message", "reason"?, "details"?}) stands for; a "limit"
    answer is the time limit of `seconds`."""
    error = error if isinstance(error, dict) else {}
    if error.get("code") == "limit":
        return SearchLimit(_stopped(seconds), reason="time_limit", seconds=seconds)
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    return UserCodeError(str(error.get("message", "the evaluator failed"))[:2000],
                         reason=str(error.get("reason") or "failed"), **{str(k): v for k, v in details.items()})


def _stopped(seconds) -> str:
    return f"stopped after {seconds:g} s (the time limit) while your heuristic was running"


def _evaluate_in_child(puzzle, code, function, filename, conn, printed_fd) -> None:
    """The evaluator's child: the code compiled and checked at the goal, then h of each state it is sent, until the
    pipe closes; its errors are sent as they would be answered."""
    status = 0
    try:
        _become_child(conn, printed_fd)
        sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115 - the process's own stdout, for its whole life
        decode = state_codec(puzzle)[1]
        try:
            heuristic = user.user_heuristic(puzzle, code, function, filename=filename)
            conn.send_bytes(_dumps({"values": None}).encode())
            while True:
                try:
                    states = conn.recv_bytes(MAX_MESSAGE)
                except (EOFError, OSError):
                    break
                found = [heuristic(state) for state in decode(states)]
                sys.stdout.flush()
                conn.send_bytes(_dumps({"values": found}).encode())
        except SlideLabError as e:
            conn.send_bytes(_dumps({"error": e.as_dict()}).encode())
    except BaseException:
        status = 1
    finally:
        try:
            sys.stdout.flush()
        except BaseException:
            pass
        os._exit(status)


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
            value = self.known[state] = self.evaluator.values([state])[0]
        return value

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
            known.update(zip(missing, self.evaluator.take(), strict=True))
            return [known[state] for state in states]

        return take
