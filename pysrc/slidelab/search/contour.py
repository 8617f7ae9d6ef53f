"""Iterative deepening: the loop every depth-first kernel (IDA*, and so IDDFS) runs its contours in.

A kernel supplies only its contour: `contour(bound)`, a generator that searches every path whose f = g + h stays
within `bound`, appends each solution it meets to the shared `solutions` list (stopping at the first unless all are
wanted), yields progress events through the kernel's Meter, and returns the least f that exceeded the bound (INF when
nothing was cut off: the whole space was searched). `deepen` raises the bound contour by contour, records each one,
and ends with the result or with Unsolvable.
"""

from __future__ import annotations

from slidelab.core.control import NO_PATH, SearchResult
from slidelab.core.errors import Unsolvable

INF = float("inf")


def next_bound(over, parity):
    """The next contour: the least f that exceeded the last one, raised to the solution's parity when it is known
    (every path to the goal then has that parity, so a bound of the other parity would search in vain)."""
    if over == INF:
        return INF
    if parity is not None and (over - parity) % 2:
        over += 1
    return over


def end_iteration(stats, bound, expanded, generated, over, parity, solved):
    """Record an iteration that searched up to `bound` (`stored`: the path is at most bound + 1 positions; its
    `iterations` entry) and return (its event {"type": "iteration", "bound", "expanded", "generated", "next"?}, the
    next bound): "next" when the search goes on, no solution found and something cut off (the next bound is INF when
    nothing was). The serial kernels' `deepen` and parallel IDA*'s driver both end their iterations here."""
    stats.stored = max(stats.stored, bound + 1)
    stats.iterations.append({"bound": bound, "expanded": expanded})
    event = {"type": "iteration", "bound": bound, "expanded": expanded, "generated": generated}
    following = INF if solved else next_bound(over, parity)
    if following != INF:
        event["next"] = following
    return event, following


def deepen(contour, start_h, parity, meter, solutions, all_solutions=False, at_goal=False, one_contour=None):
    """Run `contour` with rising bounds from h(start) until one finds a solution (a generator, for `yield from`).

    Each finished contour is recorded in the statistics and reported as its event (`end_iteration`). Returns a
    SearchResult with the first solution (every one found when `all_solutions`); raises Unsolvable when a contour cut
    nothing off.
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
        event, bound = end_iteration(stats, bound, stats.expanded - before, stats.generated - generated, over, parity,
                                     bool(solutions))
        yield event
        if solutions:
            meter.finish()
            return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)
        if bound == INF:
            meter.finish()
            raise Unsolvable(NO_PATH)
