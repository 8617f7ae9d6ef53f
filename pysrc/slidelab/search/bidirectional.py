"""Bidirectional breadth-first search: one search from the start and one from the goal until they meet.

Each step expands one whole depth of the side with the smaller frontier. Every newly reached state is looked up in
the other side's states; the first such meeting is on a shortest path (the two sides hold complete depths 0..a and
0..b and no meeting so far means the distance is more than a + b, so a meeting while expanding depth a makes a path
of a + 1 + b, the least possible). Two frontiers of depth about d/2 hold far fewer states than one of depth d.
The search from the goal uses the same `moves`, which is exact for puzzles whose moves are reversible (sliding tiles,
tokens on a graph); the moves of the stitched path are recovered forward, so it replays from the start.
"""

from __future__ import annotations

import time

from .control import CHECK_EVERY, PROGRESS_INTERVAL, SearchResult, Stats
from .spaces import moves_along, path_to, space_for


def bidirectional(puzzle, limits, space=None):
    """Search generator for bidirectional BFS; returns a shortest path, or None if the goal is unreachable."""
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    space = space or space_for(puzzle)
    neighbours = space.neighbours
    stats = Stats(stored=2, open_peak=2)
    forward, backward = {space.start: None}, {space.goal: None}  # state -> the state it was reached from
    forward_frontier, backward_frontier = [space.start], [space.goal]
    meeting = space.start if space.start in backward else None
    while meeting is None and forward_frontier and backward_frontier:
        if len(forward_frontier) <= len(backward_frontier):
            seen, other, frontier = forward, backward, forward_frontier
        else:
            seen, other, frontier = backward, forward, backward_frontier
        following = []
        for key in frontier:
            stats.expanded += 1
            for child in neighbours(key):
                stats.generated += 1
                if child not in seen:
                    seen[child] = key
                    following.append(child)
                    if child in other:
                        meeting = child
            if meeting is not None:
                break
            if not stats.expanded % CHECK_EVERY:
                now = time.perf_counter()
                limits.check(stats.expanded, now)
                limits.check_stored(len(forward) + len(backward))
                if now >= next_report:
                    yield {"type": "progress", "expanded": stats.expanded, "generated": stats.generated,
                           "stored": len(forward) + len(backward), "elapsed_s": round(now - started, 3)}
                    next_report = time.perf_counter() + PROGRESS_INTERVAL
        if frontier is forward_frontier:
            forward_frontier = following
        else:
            backward_frontier = following
        stats.open_peak = max(stats.open_peak, len(forward_frontier) + len(backward_frontier))
    stats.stored = len(forward) + len(backward)
    stats.elapsed_s = time.perf_counter() - started
    if meeting is None:
        return None
    keys = path_to(forward, meeting) + path_to(backward, meeting)[::-1][1:]
    states = [space.state(key) for key in keys]
    return SearchResult(moves_along(puzzle, states), True, stats)
