"""What every entry point of the api does with a request's answer: its error answers, engine errors and bugs turned
into answers, and what your code printed (the api package gives them). Requests are parsed in contract/request.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

from slidelab.core.errors import SlideLabError, error_dict, internal
from slidelab.heuristics import user

if TYPE_CHECKING:
    from slidelab.core.answers import Failed


def error(code: str, message: str, reason: str | None = None, **details) -> Failed:
    """An error answer; `reason` and `details` let the page say it in its language (errors.SlideLabError)."""
    return {"ok": False, "error": error_dict(code, message, reason, details)}


def error_of(e: SlideLabError) -> Failed:
    """The error answer for an engine error."""
    return {"ok": False, "error": e.as_dict()}


def guarded(steps):
    """Run a generator of steps, turning engine errors (and any bug) into an error answer."""
    try:
        return (yield from steps)
    except Exception as e:
        return failure(e)


def printing(request, steps):
    """Run the steps of a request; when it carries your heuristic's code, what that code prints goes into the answer's
    "printed" (the first user.MAX_PRINTED characters), never onto this process's standard output."""
    if not _carries_code(request):
        return (yield from steps)
    import contextlib

    printed = user.Printed()
    try:
        while True:
            with contextlib.redirect_stdout(printed):
                try:
                    event = next(steps)
                except StopIteration as stop:
                    answer = stop.value
                    break
            yield event
    finally:
        steps.close()
    if printed.text:
        answer["printed"] = printed.text
    return answer


def failure(e: Exception) -> Failed:
    """The error answer for an exception out of the engine: its own error, or a bug's "internal" answer."""
    if isinstance(e, SlideLabError):
        return error_of(e)
    if isinstance(e, RecursionError):
        return error("too_large", "the search went too deep for this runtime", reason="too_deep")
    if isinstance(e, MemoryError):
        return error("too_large", "the search ran out of memory; try IDA* or a smaller board", reason="memory")
    return {"ok": False, "error": internal(e)}  # a bug: still an answer, never a crash or a traceback


def _carries_code(request) -> bool:
    """Whether a request (its JSON, or parsed) carries your heuristic's code as text."""
    if isinstance(request, dict):
        return request.get("heuristic_code") is not None
    code = getattr(request, "code", None)
    return code is not None and code.code is not None
