"""Typed errors raised inside the engine; slidelab.api turns them into {"ok": false, ...} answers.

One class per kind of failure, each with the error code the api answers and the exit status the CLI gives it
(docs/cli.md, the error codes): a bad request is not a bad board, nor a missing table, nor a cluster that cannot be
reached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # answers.py lists these errors' codes
    from slidelab.core.answers import Error


class SlideLabError(Exception):
    """Base class; `code` is the machine-readable error code used at the api boundary, `exit_status` the CLI's.

    `reason` (optional) names this kind of failure more finely, and `details` holds its facts, so that the page can
    say it in its own language (web/i18n/*.json, "error.<reason>" with the details as placeholders); the message is
    the English the CLI prints.
    """

    code = "error"
    exit_status = 1

    def __init__(self, message: str = "", reason: str | None = None, **details):
        super().__init__(message)
        self.reason = reason
        self.details = details

    def as_dict(self) -> Error:
        """The error as the api answers it: {"code", "message", "reason"?, "details"?}."""
        return error_dict(self.code, str(self), self.reason, self.details)


class BadRequest(SlideLabError, ValueError):
    """A request the engine cannot take: an unknown algorithm or heuristic, an option out of range or of the wrong
    type, options that do not go together."""

    code = "invalid"
    exit_status = 2


class InvalidBoard(BadRequest):
    """Malformed position: bad board text, a shape mismatch, a tile twice, a goal that does not fit the board."""


class UserCodeError(BadRequest):
    """A user's own heuristic failed: a syntax error, an exception, a value that is not a non-negative whole number,
    or a value other than 0 at the goal; the message names the line of the user's code."""

    code = "user_code"


class MissingData(SlideLabError):
    """Data the engine needs is not at hand or is not sound: a pattern-database table not built yet, a table file
    that is damaged or of another version."""

    code = "missing_data"
    exit_status = 4


class Unavailable(SlideLabError):
    """What the request needs is not available here: an optional package (numpy, Dask), a Dask scheduler that cannot
    be reached, a platform without the processes parallel search needs."""

    code = "unavailable"
    exit_status = 5


class Unsolvable(SlideLabError):
    """The goal cannot be reached from the start (proved, not searched for)."""

    code = "unsolvable"


class TooLarge(SlideLabError):
    """The request is beyond what the chosen algorithm or board size can handle."""

    code = "too_large"


class SearchLimit(SlideLabError):
    """A node or time limit stopped the search before it found an answer."""

    code = "limit"


class Cancelled(SlideLabError):
    """The caller asked the search to stop."""

    code = "cancelled"


INTERNAL_EXIT_STATUS = 3  # the api's "internal" code: a bug in Slide Lab


KINDS = (BadRequest, UserCodeError, MissingData, Unavailable, Unsolvable, TooLarge, SearchLimit, Cancelled)


def exit_status(code: str) -> int:
    """The CLI's exit status for an api error code."""
    if code == "internal":
        return INTERNAL_EXIT_STATUS
    for kind in KINDS:
        if kind.code == code:
            return kind.exit_status
    return SlideLabError.exit_status


def error_of_answer(error) -> Exception:
    """The exception an error answer ({"code", "message", "reason"?, "details"?}) from another runtime stands for:
    raised here, it is answered as that runtime answered it ("internal": a RuntimeError, a bug's answer)."""
    error = error if isinstance(error, dict) else {}
    message = str(error.get("message", "another worker failed"))[:2000]
    kind = next((k for k in KINDS if k.code == error.get("code")), None)
    if kind is None:
        return RuntimeError(message)
    details = error.get("details") if isinstance(error.get("details"), dict) else {}
    return kind(message, reason=error.get("reason"), **{str(k): v for k, v in details.items()})


def error_dict(code: str, message: str, reason: str | None = None, details: dict | None = None) -> Error:
    """An error answer's "error": {"code", "message"}, and "reason" and "details" when the page says it in its
    language (the one place this dict is made)."""
    answer: Error = {"code": code, "message": message}
    if reason:
        answer.update({"reason": reason, "details": details or {}})
    return answer


def internal(e: BaseException) -> Error:
    """The "error" of an answer to a bug, an exception that names no kind of failure (the one place it is said): never
    a traceback, always an answer."""
    return error_dict("internal", f"internal error ({type(e).__name__}: {str(e)[:200]}); please report it")
