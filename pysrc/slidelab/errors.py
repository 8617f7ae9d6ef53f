"""Typed errors raised inside the engine; slidelab.api turns them into {"ok": false, ...} answers."""


class SlideLabError(Exception):
    """Base class; `code` is the machine-readable error code used at the api boundary."""

    code = "error"


class InvalidBoard(SlideLabError, ValueError):
    """Malformed input: bad board text, shape mismatch, unknown option."""

    code = "invalid"


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
