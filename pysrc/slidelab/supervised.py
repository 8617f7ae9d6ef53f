"""Your own code, run where it can always be stopped: a forked process of its own, watched by this one.

A heuristic is someone's Python: it may loop inside a bare `except:`, sleep, wait in a C call, end the process or
print. So on the command line every search that runs it (solve, trace, check-heuristic, each position of a batch)
runs in a child process, in a process group of its own (the workers it forks belong to it), and this process only
waits for its answer. The child stops itself at its time limit, even inside the user's function (an alarm raises
the limit there); a child that does not (the alarm swallowed by a bare `except:`) is killed with its group GRACE_S
later, and so is a child whose caller is stopped (Ctrl+C, SIGTERM: the KeyboardInterrupt the CLI raises here) or
cancels. Where no limit is given, DEFAULT_SECONDS is, and a limit answer says so.

What the code prints goes into the answer's "printed" (api.py); what it writes on the process's standard output
another way (os.write, a C library) goes to a file here, and is added to it, so that `--json` stays one JSON object.
A child that ends without answering (sys.exit called where nothing caught it, os._exit, a crash) is a `user_code`
error saying how it ended.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable

from .errors import Cancelled, SearchLimit, SlideLabError, UserCodeError
from .heuristics import user

GRACE_S = 1.0  # how long after its time limit a child that has not answered is killed
ALARM_S = 0.25  # the child's own alarm, this long after the limit: it stops the user's function where it is
DEFAULT_SECONDS = 3600.0  # the time limit of a run of your code that names none
POLL_S = 0.1  # how often the parent looks at the child and the clock


def available() -> bool:
    """Whether this platform can run code in a supervised child (fork: Linux, macOS)."""
    from .workers import fork_unavailable

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
    from multiprocessing.connection import Pipe, wait

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
    theirs.close()
    started = time.monotonic()
    answer = None
    try:
        while answer is None:
            left = started + seconds + GRACE_S - time.monotonic()
            ready = wait([mine], min(POLL_S, max(left, 0)))
            if ready:
                try:
                    kind, message = mine.recv()
                except (EOFError, OSError):  # the child ended; waitpid below says how
                    kind, message = "ended", None
                if kind == "progress":
                    if on_progress is not None:
                        on_progress(message)
                    continue
                if kind == "answer":
                    answer = message
                    break
            ended = _ended(pid)
            if ended is not None:
                answer = _died(ended)
            elif left <= 0:
                answer = _overran(seconds, by_default)
            elif should_cancel is not None and should_cancel():
                answer = _error(Cancelled, "the search was cancelled", "cancelled")
    finally:
        _end(pid)
        mine.close()
    if answer["ok"] is False and answer["error"]["code"] == "limit" and by_default:
        answer["error"]["message"] += (f" (the default time limit for your own code, {seconds:g} s; "
                                       "--max-seconds sets another)")
    text = _printed(printed)
    if text:
        answer["printed"] = (answer.get("printed", "") + "\n" + text).strip("\n")
    return answer


def _child(call, request, conn, printed_fd, seconds) -> None:
    """The child's life: its own process group, stdout into the printed-output file, the user's KeyboardInterrupt and
    sys.exit caught as its failures, the alarm at the limit; answer, then end without running anyone's exit hooks."""
    code = 0
    try:
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's: it ends this process
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _die_with_parent()
        os.dup2(printed_fd, 1)
        user.contain_interrupts()
        _alarm(seconds + ALARM_S)

        def progress(event):
            conn.send(("progress", event))

        answer = call(request, on_progress=progress)
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.stdout.flush()
        conn.send(("answer", answer))
    except BaseException as e:  # sys.exit or KeyboardInterrupt from the code, outside h (a bug: internal)
        try:
            conn.send(("answer", _escaped(e)))
        except BaseException:
            code = 1
    finally:
        os._exit(code)


def _escaped(e: BaseException) -> dict:
    """The answer for what escaped the api in the child: the user's SystemExit or KeyboardInterrupt, else a bug."""
    if isinstance(e, (SystemExit, KeyboardInterrupt)):
        what = f"called sys.exit({e.code!r})" if isinstance(e, SystemExit) else "raised KeyboardInterrupt"
        return _error(UserCodeError, f"your heuristic {what}: a heuristic returns its value, it never ends the "
                      "program", "exited", what=what)
    return {"ok": False, "error": {"code": "internal", "message": f"internal error ({type(e).__name__}: "
                                                                f"{str(e)[:200]}); please report it"}}


def _alarm(seconds: float) -> None:
    """At `seconds`, raise the time limit wherever the child is, the user's function included."""
    def stop(signum, frame):
        raise SearchLimit(f"stopped after {seconds - ALARM_S:g} s (the time limit) while your heuristic was running",
                          reason="time_limit", seconds=seconds - ALARM_S)

    signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _die_with_parent() -> None:
    """On Linux, have the kernel kill this process when its parent dies (the workers' way: workers.py)."""
    if sys.platform.startswith("linux"):
        import ctypes

        from .workers import PR_SET_PDEATHSIG

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
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:  # reaped already
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


def _overran(seconds: float, by_default: bool) -> dict:
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
