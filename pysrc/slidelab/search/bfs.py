"""Breadth-first search: expand the positions one depth at a time, so the goal is first met on a shortest path."""

from __future__ import annotations

import time

from .control import CHECK_EVERY, PROGRESS_INTERVAL, SearchResult, Stats
from .spaces import moves_along, path_to, space_for


def bfs(puzzle, limits, space=None):
    """Search generator for breadth-first search; returns a shortest path, or None if the goal is unreachable.

    Every state reached is kept (with the state it was reached from), so `stored` grows with the whole explored
    space: Limits.max_stored stops it with TooLarge before memory runs out.
    """
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    space = space or space_for(puzzle)
    neighbours = space.neighbours
    start, goal = space.start, space.goal
    stats = Stats(stored=1, open_peak=1)
    parent = {start: None}
    frontier = [start]
    depth = 0
    found = start == goal
    while frontier and not found:
        depth += 1
        following = []
        for key in frontier:
            stats.expanded += 1
            for child in neighbours(key):
                stats.generated += 1
                if child not in parent:
                    parent[child] = key
                    following.append(child)
                    if child == goal:
                        found = True
            if found:
                break
            if not stats.expanded % CHECK_EVERY:
                now = time.perf_counter()
                limits.check(stats.expanded, now)
                limits.check_stored(len(parent))
                if now >= next_report:
                    yield {"type": "progress", "expanded": stats.expanded, "generated": stats.generated,
                           "stored": len(parent), "depth": depth, "elapsed_s": round(now - started, 3)}
                    next_report = time.perf_counter() + PROGRESS_INTERVAL
        frontier = following
        stats.open_peak = max(stats.open_peak, len(frontier))
    stats.stored = len(parent)
    stats.elapsed_s = time.perf_counter() - started
    if not found:
        return None
    states = [space.state(key) for key in path_to(parent, goal)]
    return SearchResult(moves_along(puzzle, states), True, stats)
