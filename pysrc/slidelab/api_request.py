"""What every entry point of the api does with a request: its error answers, its options checked, its puzzle
built (api.py re-exports them)."""

from __future__ import annotations

import math

from .errors import BadRequest, InvalidBoard, SlideLabError
from .heuristics import user
from .puzzles.sliding import SlidingPuzzle

DEFAULT_ALGORITHM = "idastar"


DEFAULT_HEURISTIC = "auto"


NO_RULE = "a sliding puzzle has no move rule: tiles slide into the blank (rules are for token puzzles)"


def error(code: str, message: str, reason: str | None = None, **details) -> dict:
    """An error answer; `reason` and `details` let the page say it in its language (errors.SlideLabError)."""
    answer: dict = {"code": code, "message": message}
    if reason:
        answer.update(reason=reason, details=details)
    return {"ok": False, "error": answer}


def error_of(e: SlideLabError) -> dict:
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
    if not isinstance(request, dict) or request.get("heuristic_code") is None:
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


def failure(e: Exception) -> dict:
    """The error answer for an exception out of the engine: its own error, or a bug's "internal" answer."""
    if isinstance(e, SlideLabError):
        return error_of(e)
    if isinstance(e, RecursionError):
        return error("too_large", "the search went too deep for this runtime", reason="too_deep")
    if isinstance(e, MemoryError):
        return error("too_large", "the search ran out of memory; try IDA* or a smaller board", reason="memory")
    # a bug: still an answer, never a crash of the worker or a traceback on the CLI
    return error("internal", f"internal error ({type(e).__name__}: {str(e)[:200]}); please report it")


def whole(value):
    """A whole number as an int: JSON from JavaScript may write 100 as 100.0 (anything else is left as it is)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def option_of(request: dict, key: str, type_, default=None):
    """The request's `key`, checked to be of `type_` (bool, a positive int or float, str), or `default`."""
    value = request.get(key, default)
    if value is None:
        return default
    if type_ is bool:
        if not isinstance(value, bool):
            raise BadRequest(f"'{key}' must be true or false")
        return value
    if type_ is int:
        value = whole(value)
        if not is_int(value) or value <= 0:
            raise BadRequest(f"'{key}' must be a positive whole number")
        return value
    if type_ is float:
        if (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
                or isinstance(value, float) and not math.isfinite(value)):
            raise BadRequest(f"'{key}' must be a positive number")
        return float(min(value, 1e18))  # an int too large for a float means no limit
    if not isinstance(value, str):
        raise BadRequest(f"'{key}' must be text")
    return value


def make_puzzle(request: dict):
    """The puzzle a request describes: {"board": text, "goal": text?, "puzzle": "sliding"?}, or a token puzzle
    {"puzzle": "knights" (or another preset), "board"?, "goal"?} or {"puzzle": "tokens", "board", "goal", "rule"}."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    name = option_of(request, "puzzle", str, "sliding")
    board = option_of(request, "board", str)
    goal = option_of(request, "goal", str)
    if name == "sliding":
        if request.get("rule") is not None:
            raise BadRequest(NO_RULE)
        if board is None:
            raise InvalidBoard("no board given")
        return SlidingPuzzle.from_text(board, goal)
    from .puzzles.tokens import PUZZLE_NAMES, token_puzzle  # only token requests pay for importing it

    if name in PUZZLE_NAMES:
        return token_puzzle(name, board, goal, option_of(request, "rule", str))
    raise BadRequest(f"unknown puzzle type '{name}'; choose one of: sliding, {', '.join(PUZZLE_NAMES)}")
