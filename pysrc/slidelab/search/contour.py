"""Iterative deepening: the loop every depth-first kernel (IDA*, and so IDDFS) runs its contours in.

A kernel supplies only its contour: `contour(bound)`, a generator that searches every path whose f = g + h stays
within `bound`, appends each solution it meets to the shared `solutions` list (stopping at the first unless all are
wanted), yields progress events through the kernel's Meter, and returns the least f that exceeded the bound (INF when
nothing was cut off: the whole space was searched). `deepen` raises the bound contour by contour, records each one,
and ends with the result or with Unsolvable.
"""

from __future__ import annotations

from ..errors import Unsolvable
from .control import NO_PATH, SearchResult

INF = float("inf")


def next_bound(over, parity):
    """The next contour: the least f that exceeded the last one, raised to the solution's parity when it is known
    (every path to the goal then has that parity, so a bound of the other parity would search in vain)."""
    if over == INF:
        return INF
    if parity is not None and (over - parity) % 2:
        over += 1
    return over


def deepen(contour, start_h, parity, meter, solutions, all_solutions=False, at_goal=False, one_contour=None):
    """Run `contour` with rising bounds from h(start) until one finds a solution (a generator, for `yield from`).

    Each finished contour is recorded in the statistics (`iterations`, and `stored`: the path is at most bound + 1
    positions) and reported as {"type": "iteration", "bound", "expanded", "generated"}, with "next", the next bound,
    when the search goes on (no solution within this one, and something was cut off). Returns a SearchResult with the
    first solution (every one found when `all_solutions`); raises Unsolvable when a contour cut nothing off.
    With `one_contour`, a bound, runs the one contour of that bound (a subtree of a parallel search,
    parallel_idastar.py) and returns a SearchResult whose moves are None when it found no solution and whose extra
    "over" is the least f that exceeded the bound (INF: nothing was cut off).
    """
    stats = meter.stats
    if one_contour is not None:
        over = yield from contour(one_contour)
        meter.finish()
        return SearchResult(list(solutions[0]) if solutions else None, True, stats,
                            solutions if all_solutions else None, {"over": over})
    if at_goal:
        meter.finish()
        return SearchResult([], True, stats, [[]] if all_solutions else None)
    bound = next_bound(start_h, parity)
    while True:
        before, generated = stats.expanded, stats.generated
        over = yield from contour(bound)
        expanded = stats.expanded - before
        stats.stored = max(stats.stored, bound + 1)
        stats.iterations.append({"bound": bound, "expanded": expanded})
        event = {"type": "iteration", "bound": bound, "expanded": expanded, "generated": stats.generated - generated}
        if not solutions:
            bound = next_bound(over, parity)
            if bound != INF:
                event["next"] = bound
        yield event
        if solutions:
            meter.finish()
            return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)
        if bound == INF:
            meter.finish()
            raise Unsolvable(NO_PATH)
