"""A*: best-first search on f = g + h; uniform-cost search when h = 0.

The open list is a heap of entries (f, h, counter, state): the lowest f first, among equal f the deepest (smallest h,
so largest g), then the oldest; the counter makes every entry distinct so states are never compared. A state whose
cost improves is pushed again and the outdated entry skipped when it comes out (lazy deletion), so a heuristic that
is admissible but not consistent still gives shortest paths (a closed state is reopened); with a consistent one
(misplaced, Manhattan) every state is expanded at most once. The goal is tested when a state leaves the open list.
"""

from __future__ import annotations

import heapq

from ..errors import Unsolvable
from .control import CHECK_EVERY, NO_PATH, Meter, SearchResult, Stats


def astar(puzzle, heuristic, limits):
    """Search generator for A*; returns a shortest path with an admissible h (Unsolvable if there is none)."""
    meter = Meter(limits, Stats(open_peak=1))
    stats = meter.stats
    moves_of = puzzle.moves
    start = puzzle.start
    h0 = heuristic(start)
    cost = {start: 0}  # best known g of every state stored (open or closed)
    parent = {start: None}  # state -> (state before it, move), None for the start
    heap = [(h0, h0, 0, start)]
    counter = 1
    while heap:
        f, h, _, state = heapq.heappop(heap)
        g = f - h
        if g > cost[state]:
            continue  # outdated: the state was reached more cheaply since
        if puzzle.is_goal(state):
            stats.stored = len(cost)
            meter.finish()
            return SearchResult(_path(parent, state), True, stats)
        stats.expanded += 1
        g += 1
        for move, child in moves_of(state):
            stats.generated += 1
            if cost.get(child, g + 1) <= g:
                continue
            cost[child] = g
            parent[child] = (state, move)
            hc = heuristic(child)
            heapq.heappush(heap, (g + hc, hc, counter, child))
            counter += 1
        if len(heap) > stats.open_peak:
            stats.open_peak = len(heap)
        if not stats.expanded % CHECK_EVERY and meter.due(stats.expanded, len(cost)):
            yield meter.progress(stored=len(cost), bound=f)
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
