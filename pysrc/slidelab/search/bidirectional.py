"""Bidirectional breadth-first search: one search from the start and one from the goal until they meet.

Each step expands one whole depth of the side with the smaller frontier. Every newly reached state is looked up in
the other side's states; the first such meeting is on a shortest path (the two sides hold complete depths 0..a and
0..b and no meeting so far means the distance is more than a + b, so a meeting while expanding depth a makes a path
of a + 1 + b, the least possible). Two frontiers of depth about d/2 hold far fewer states than one of depth d.
The search from the goal uses the same `moves`, which is exact for puzzles whose moves are reversible (sliding tiles,
tokens on a graph); the moves of the stitched path are recovered forward, so it replays from the start.
"""

from __future__ import annotations

from slidelab.core.control import CHECK_EVERY, NO_PATH, Counts, Meter, SearchResult
from slidelab.core.errors import Unsolvable
from slidelab.search.spaces import moves_along, path_to, space_for


def bidirectional(puzzle, limits, space=None, record=None):
    """Search generator for bidirectional BFS; returns a shortest path (Unsolvable if the goal is unreachable).

    Its progress events give the depth as the sum of both sides' depths (the length of the shortest path is at
    least that), and each side's depth as forward_depth and backward_depth. A `record` (trace.Recorder) is told
    every step.
    """
    meter = Meter(limits, Counts(stored=2, open_peak=2))
    stats = meter.stats
    space = space or space_for(puzzle, packed=record is None)
    neighbours = space.neighbours
    depths = {"forward": 0, "backward": 0}  # complete depths of each side
    forward, backward = {space.start: None}, {space.goal: None}  # state -> the state it was reached from
    forward_frontier, backward_frontier = [space.start], [space.goal]
    meeting = space.start if space.start in backward else None
    if record is not None:
        record.root(space.start, side="forward")
        record.root(space.goal, side="backward")
    while meeting is None and forward_frontier and backward_frontier:
        if len(forward_frontier) <= len(backward_frontier):
            seen, other, frontier, side = forward, backward, forward_frontier, "forward"
        else:
            seen, other, frontier, side = backward, forward, backward_frontier, "backward"
        if record is not None:
            record.side(side, depths[side])
        following = []
        for key in frontier:
            stats.expanded += 1
            children = neighbours(key)
            for child in children:
                stats.generated += 1
                if child not in seen:
                    seen[child] = key
                    following.append(child)
                    if child in other:
                        meeting = child
            if record is not None:
                record.expansion(key, children, depths[side] + 1)
            if meeting is not None:
                if record is not None:
                    record.meet(meeting)
                break
            if (not stats.expanded % CHECK_EVERY and meter.due(stats.expanded, len(forward) + len(backward))
                    or record is not None and record.due()):
                yield meter.progress(stored=len(forward) + len(backward), depth=sum(depths.values()) + 1,
                                     forward_depth=depths["forward"], backward_depth=depths["backward"])
        depths[side] += 1
        if frontier is forward_frontier:
            forward_frontier = following
        else:
            backward_frontier = following
        stats.open_peak = max(stats.open_peak, len(forward_frontier) + len(backward_frontier))
    stats.stored = len(forward) + len(backward)
    meter.finish()
    if meeting is None:
        raise Unsolvable(NO_PATH)
    keys = path_to(forward, meeting) + path_to(backward, meeting)[::-1][1:]
    states = [space.state(key) for key in keys]
    return SearchResult(moves_along(puzzle, states), True, stats)
