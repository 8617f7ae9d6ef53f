"""Best-first search: always expand the open position with the least priority g_weight * g + h_weight * h.

One loop serves four algorithms by the choice of the priority (ALGORITHMS in search/__init__.py):
- A* (1, 1): f = g + h, shortest paths with an admissible h; uniform-cost search when h = 0;
- greedy best-first search (0, 1): f = h, heads straight for whatever looks closest;
- weighted A* (1, W): f = g + W * h, between the two: with a consistent h, paths at most W times the shortest.

The open list is a heap of entries (priority, h, counter, g, state): the least priority first, among equal priorities
the smallest h (for A* the deepest), then the oldest; the counter makes every entry distinct so states are never
compared. A state reached more cheaply is pushed again and the outdated entry skipped when it comes out (lazy
deletion). A* reopens a closed state reached more cheaply, so a heuristic that is admissible but not consistent still
gives shortest paths (the reopenings are counted: `reopened`); with a consistent one (misplaced, Manhattan) every
state is expanded at most once. Greedy and
weighted A* are the textbook versions that never reopen a closed position (it keeps the cost CLOSED, below every g):
no position is expanded twice, and their paths are not necessarily shortest. The goal is tested when a state leaves
the open list.

A search given a `record` (a trace.Recorder, see trace.py) tells it every step; untraced, that costs one test per
position generated.
"""

from __future__ import annotations

from heapq import heappop, heappush

from slidelab.core.control import CHECK_EVERY, NO_PATH, Counts, Meter, SearchResult
from slidelab.core.errors import Unsolvable

CLOSED = -1  # the cost of a closed position that is never reopened: no path is cheaper


def best_first(puzzle, heuristic, limits, g_weight=1, h_weight=1, reopen=True, record=None):
    """Search generator: best-first on the priority g_weight * g + h_weight * h (A* by default); returns a
    SearchResult, optimal when `reopen` (A*'s rule; a shortest path with an admissible h), and raises Unsolvable when
    the goal cannot be reached. Progress events give A*'s f as `bound` (a lower bound on the path's length), and the g
    of the position expanded as `depth` for the others."""
    meter = Meter(limits, Counts(open_peak=1, reopened=0 if reopen else None))
    stats = meter.stats
    moves_of = puzzle.moves
    many = getattr(heuristic, "many", None)  # h of many states in one exchange (your code in a process of its own)
    start = puzzle.start
    h0 = heuristic(start)
    cost = {start: 0}  # best known g of every state stored (open or closed)
    parent: dict = {start: None}  # state -> (state before it, move), None for the start
    # states expanded, to count reopenings (A*; a consistent heuristic never reopens one, so none is kept then)
    closed: set | None = set() if reopen and not getattr(heuristic, "consistent", False) else None
    heap = [(h_weight * h0, h0, 0, 0, start)]
    counter = 1
    if record is not None:
        record.root(start, h0)
    while heap:
        f, h, _, g, state = heappop(heap)
        if g > cost[state]:
            continue  # outdated: the state was reached more cheaply since (or closed, without reopening)
        if puzzle.is_goal(state):
            if record is not None:
                record.goal(state)
            stats.stored = len(cost)
            meter.finish()
            return SearchResult(_path(parent, state), reopen, stats)
        stats.expanded += 1
        if record is not None:
            record.expand(state, f)
        if not reopen:
            cost[state] = CLOSED
        elif closed is not None:
            if state in closed:
                stats.reopened += 1
            else:
                closed.add(state)
        g += 1
        fg = g_weight * g
        moves = moves_of(state)
        if many is not None:  # the children the loop below evaluates, asked for at once
            moves = list(moves)
            many([child for _, child in moves if cost.get(child, g + 1) > g])
        for move, child in moves:
            stats.generated += 1
            if cost.get(child, g + 1) <= g:
                if record is not None:
                    hc = heuristic(child)
                    record.generate(child, g, "seen", hc, fg + h_weight * hc)
                continue
            cost[child] = g
            parent[child] = (state, move)
            hc = heuristic(child)
            fc = fg + h_weight * hc
            heappush(heap, (fc, hc, counter, g, child))
            counter += 1
            if record is not None:
                record.generate(child, g, "added", hc, fc)
        if len(heap) > stats.open_peak:
            stats.open_peak = len(heap)
        if (not stats.expanded % CHECK_EVERY and meter.due(stats.expanded, len(cost))
                or record is not None and record.due()):
            yield meter.progress(len(cost), **({"bound": f} if reopen else {"depth": g - 1}))
    stats.stored = len(cost)
    meter.finish()
    raise Unsolvable(NO_PATH)


def _path(parent, state) -> list:
    moves = []
    while parent[state] is not None:
        state, move = parent[state]
        moves.append(move)
    moves.reverse()
    return moves
