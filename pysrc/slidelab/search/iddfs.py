"""Iterative deepening depth-first search: depth-limited searches with the limit raised until the goal is found.

It is IDA*'s depth-first contour with no heuristic (h = 0, so f = g and the bound is the depth limit): it never
undoes the previous move (never moves the same piece twice in a row), steps the limit by 2 when the puzzle knows the
parity of every solution's length, and can enumerate all shortest solutions. Memory is the current path only.
"""

from __future__ import annotations

from slidelab.heuristics import HEURISTICS, get_heuristic
from slidelab.search.idastar import idastar


def iddfs(puzzle, limits, all_solutions=False, record=None):
    """Search generator for iterative deepening DFS; returns a SearchResult with a shortest path (or all of them). A
    `record` (trace.Recorder) is told every step."""
    if puzzle.kind in HEURISTICS["zero"].kinds:  # h = 0 in the form this kind's fast kernels use
        return idastar(puzzle, get_heuristic("zero", puzzle), limits, all_solutions, record)
    return idastar(puzzle, ZeroEstimator(), limits, all_solutions, record)


class ZeroEstimator:
    """h = 0 for any other puzzle (the generic search)."""

    name, kernel = "zero", None

    def __call__(self, state) -> int:
        return 0
