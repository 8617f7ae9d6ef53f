"""Breadth-first search: expand the positions one depth at a time, so the goal is first met on a shortest path."""

from __future__ import annotations

from slidelab.core.control import CHECK_EVERY, NO_PATH, Counts, Meter, SearchResult
from slidelab.core.errors import Unsolvable
from slidelab.search.spaces import moves_along, path_to, space_for


def bfs(puzzle, limits, space=None, record=None):
    """Search generator for breadth-first search; returns a shortest path (Unsolvable if the goal is unreachable).

    Every state reached is kept (with the state it was reached from), so `stored` grows with the whole explored
    space: Limits.max_stored stops it with TooLarge before memory runs out. A `record` (trace.Recorder) is told
    every step.
    """
    meter = Meter(limits, Counts(stored=1, open_peak=1))
    stats = meter.stats
    space = space or space_for(puzzle, packed=record is None)
    neighbours = space.neighbours
    start, goal = space.start, space.goal
    parent = {start: None}
    frontier = [start]
    depth = 0
    found = start == goal
    if record is not None:
        record.root(start)
    while frontier and not found:
        depth += 1
        following = []
        for key in frontier:
            stats.expanded += 1
            children = neighbours(key)
            for child in children:
                stats.generated += 1
                if child not in parent:
                    parent[child] = key
                    following.append(child)
                    if child == goal:
                        found = True
            if record is not None:
                record.expansion(key, children, depth)
            if found:
                if record is not None:
                    record.goal(goal)
                break
            if (not stats.expanded % CHECK_EVERY and meter.due(stats.expanded, len(parent))
                    or record is not None and record.due()):
                yield meter.progress(stored=len(parent), depth=depth)
        frontier = following
        stats.open_peak = max(stats.open_peak, len(frontier))
    stats.stored = len(parent)
    meter.finish()
    if not found:
        raise Unsolvable(NO_PATH)
    states = [space.state(key) for key in path_to(parent, goal)]
    return SearchResult(moves_along(puzzle, states), True, stats)
