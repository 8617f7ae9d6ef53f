"""Parallel IDA*'s search: one search split into subtrees, searched a round (an iteration) at a time, whoever
searches them (the scheduler of scheduler.py hands them to forked processes or a Dask cluster's workers; the page's
pool of Web Workers carries them a round at a time, kept_splits.py).

The start is expanded breadth first, never undoing the last move, into a frontier of subtrees, SUBTREES_PER_WORKER for
each worker (a goal met on the way is a shortest solution: every path of that length was generated). Every iteration has
one bound for all: the subtrees whose f = g + h fits it are handed out from one queue, each to the next idle worker, in
the order the serial search meets them (idastar.search_order), so the iteration that finds a solution reaches it in
about 1/workers of the serial search's time wherever it lies (largest first, by the subtrees' sizes in the last
iteration, was faster on average but slower than serial on some positions: docs/benchmarks.md, "Why the last
iteration"). A worker searches its subtree with the same kernel as a serial search (idastar with `came_by`, the
positions it came by, and `one_contour`, the bound - g of the one contour it searches). The first solution an iteration
finds is a shortest one, and every worker is stopped; otherwise the next bound is the least f over the bound anywhere.
With all solutions, the iteration that finds one collects every worker's. One driver, `iterations`, says the rounds.
"""

from __future__ import annotations

import sys
from typing import NamedTuple

from slidelab.core.control import NO_PATH, Limits
from slidelab.core.errors import Unsolvable
from slidelab.core.puzzles import with_start
from slidelab.search.contour import INF, end_iteration, next_bound

# Subtrees per worker: enough that the queue evens out subtrees of very different sizes, and that the worker that
# finds the solution does not search long while the others search past it; half as many in the browser, where a
# request to another runtime costs milliseconds (docs/benchmarks.md, "The serial search's order")
SUBTREES_PER_WORKER = 16 if sys.platform == "emscripten" else 32
MAX_SPLIT = 256  # workers one search is split for at most (8,192 subtrees; a larger cluster shares them)
MAX_SUBTREES = MAX_SPLIT * 32  # what a split request may name (a resumed checkpoint's split)
GROUP_NODES = 5000  # subtrees that took fewer nodes together in the last iteration travel as one task


def split(puzzle, wanted, distinct=True):
    """Expand the start breadth first until a level holds at least `wanted` positions. Returns (goals, frontier,
    expanded, generated): `goals` lists every path to the goal at the first level that reaches it (then there is
    no frontier), else `frontier` holds (g, position, came_by, moves) per subtree, where came_by lists the positions
    from the start to its parent; one subtree per position when `distinct` (two paths of one length to a position have
    the same subtree: all-solutions searches keep both)."""
    level: list = [(puzzle.start, (), [])]
    expanded = generated = 0
    while len(level) < wanted:
        nxt, goals, seen = [], [], set()
        for state, came_by, moves in level:
            expanded += 1
            parent = came_by[-1] if came_by else None
            for move, child in puzzle.moves(state):
                if child == parent:
                    continue
                generated += 1
                path = moves + [move]
                if puzzle.is_goal(child):
                    goals.append(path)
                if distinct:
                    if child in seen:
                        continue
                    seen.add(child)
                nxt.append((child, came_by + (state,), path))
        if goals:
            return goals, None, expanded, generated
        if not nxt:
            raise Unsolvable(NO_PATH)
        level = nxt
    g = len(level[0][2])
    return [], [(g, state, came_by, moves) for state, came_by, moves in level], expanded, generated


class Round(NamedTuple):
    """One iteration's work, as the driver asks for it: search the subtrees `todo` (indices into the frontier, in
    the order the serial search meets them; `sizes`: their nodes in the last iteration they were searched, or an
    estimate, 0 when unknown, for grouping small ones) with `bound`."""

    bound: int
    todo: list
    sizes: list


class Searched(NamedTuple):
    """What searching some subtrees of a round gave: `sizes` {index: nodes expanded} (empty for subtrees stopped
    unfinished, whose nodes still count), `solutions` (paths from the start), `over` (the least f over the bound,
    from the start; INF: nothing was cut off), and the nodes expanded and generated."""

    sizes: dict
    solutions: list
    over: float
    expanded: int
    generated: int


def groups(round_: Round, workers: int) -> list:
    """The round's subtrees as tasks, in order: each a run of neighbours that took under GROUP_NODES nodes together in
    the last iteration (a request to a worker costs more than a small subtree's search), at most a 1/(2 workers)
    share of the round, so that every worker still gets two tasks or more. A subtree of unknown size (0) goes alone:
    a run of them could hold most of the round."""
    cap = max(1, -(-len(round_.todo) // (2 * workers)))
    tasks: list = []
    nodes = 0
    for index, size in zip(round_.todo, round_.sizes, strict=True):
        if tasks and len(tasks[-1]) < cap and nodes and size and nodes + size < GROUP_NODES:
            tasks[-1].append(index)
            nodes += size
        else:
            tasks.append([index])
            nodes = size
    return tasks


def iterations(puzzle, heuristic, frontier, stats, from_bound=0, sizes=None):
    """The driver of parallel IDA*'s rounds, which the scheduler (scheduler.py) runs whoever searches the subtrees: a
    generator that yields a Round and is sent the list of Searched it
    gave, then yields that iteration's event (as a serial search's: {"type": "iteration", "bound", "expanded",
    "generated", "next"?}, recorded in stats), and so on. Every iteration has one bound for all, the first at least
    `from_bound` (the bounds below searched already); the next is the least f over it anywhere (a step of two where
    every solution has one parity). Returns the solutions of the first iteration that finds any (each a shortest one);
    raises Unsolvable when nothing is left over the bound. `sizes` {index: nodes}: the subtrees' sizes in an earlier
    run's iterations (a resumed checkpoint's), for grouping them as that run would have."""
    from slidelab.search.idastar import search_order

    order = search_order(puzzle, heuristic, frontier)
    f_of = [g + heuristic(state) for g, state, _, _ in frontier]
    size_of = [0] * len(frontier)  # each subtree's nodes in the last iteration it was searched
    for index, size in (sizes or {}).items():
        size_of[index] = size
    parity = puzzle.solution_parity()
    bound = next_bound(max(heuristic(puzzle.start), from_bound), parity)
    while True:
        todo = order([i for i, f in enumerate(f_of) if f <= bound], bound)
        over = min((f for f in f_of if f > bound), default=INF)
        # a subtree not searched yet is a handful of nodes when its root's f is the bound (its children are cut but
        # those that keep f); any other's size is unknown (0)
        sizes = [size_of[i] or int(f_of[i] == bound) for i in todo]
        searched = (yield Round(bound, todo, sizes)) if todo else []  # none fits: no round
        solutions, expanded, generated = [], 0, 0
        for part in searched:
            for index, size in part.sizes.items():
                size_of[index] = size
            solutions += part.solutions
            over = min(over, part.over)
            expanded += part.expanded
            generated += part.generated
        stats.expanded += expanded
        stats.generated += generated
        event, bound = end_iteration(stats, bound, expanded, generated, over, parity, bool(solutions))
        yield event
        if solutions:
            return solutions
        if bound == INF:
            raise Unsolvable(NO_PATH)


def search_subtrees(puzzle, heuristic, frontier, indices, bound, all_solutions, progress_s=None):
    """Search generator: the subtrees `indices` of the frontier in turn with `bound`, each with the serial search's
    kernel (idastar with `came_by`, the positions it came by, and `one_contour`, the bound - g of the one contour it
    searches), reporting progress every `progress_s` (Limits); stops at the first solution unless all are asked
    for. Returns their Searched."""
    from slidelab.search.idastar import idastar

    sizes, solutions, over, expanded, generated = {}, [], INF, 0, 0
    for index in indices:
        g, state, came_by, prefix = frontier[index]
        result = yield from idastar(with_start(puzzle, state), heuristic, Limits(progress_s=progress_s), all_solutions,
                                    came_by=came_by, one_contour=bound - g)
        found = result.solutions or ([result.moves] if result.moves is not None else [])
        solutions += [prefix + moves for moves in found]
        over = min(over, g + result.extra["over"])
        sizes[index] = result.stats.expanded
        expanded += result.stats.expanded
        generated += result.stats.generated
        if found and not all_solutions:
            break
    return Searched(sizes, solutions, over, expanded, generated)
