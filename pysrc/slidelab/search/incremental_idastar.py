"""IDA* kernel for sliding puzzles whose heuristic follows the board move by move (linear conflict, walking
distance): the heuristic's tracker gives each child's h from the moved tile alone (`probe`), makes a move (`push`),
and takes it back by pushing the reverse move. The board is one mutable list, the path an explicit stack.
Tested against the generic IDA*.
"""

from __future__ import annotations

import time

from .control import CHECK_EVERY, PROGRESS_INTERVAL, Stats
from .idastar import INF, _close_iteration, _finish, _next_bound, _progress


def incremental_idastar(puzzle, heuristic, limits, all_solutions=False):
    """Search generator: IDA* with a heuristic that has `tracker(state)`; returns a SearchResult."""
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    size = puzzle.size
    nbrs = puzzle.neighbours
    excl = [[tuple(q for q in nbrs[b] if q != prev) for prev in range(size)] + [nbrs[b]] for b in range(size)]
    board = list(puzzle.start)
    goal = list(puzzle.goal)
    b0 = board.index(0)
    tracker = heuristic.tracker(puzzle.start)
    probe, push = tracker.probe, tracker.push
    h0 = tracker.h
    parity = puzzle.solution_parity()
    stats = Stats()
    solutions = []
    mask = CHECK_EVERY - 1
    bound = _next_bound(0, h0, parity)
    if board == goal:
        return _finish(stats, started, [[]], all_solutions)
    while True:
        cap = bound + 2
        blanks, moved, ci = [0] * cap, [0] * cap, [0] * cap
        cands = [()] * cap
        blanks[0], cands[0] = b0, excl[b0][size]
        depth = 0
        over = INF
        expanded = stats.expanded
        generated = stats.generated
        it_start = expanded
        expanded += 1  # the root
        b = b0
        while depth >= 0:
            i = ci[depth]
            cl = cands[depth]
            if i < len(cl):
                ci[depth] = i + 1
                nb = cl[i]
                t = board[nb]
                generated += 1
                h = probe(t, nb, b)
                f = depth + 1 + h
                if f > bound:
                    if f < over:
                        over = f
                    continue
                push()
                board[b] = t
                board[nb] = 0
                depth += 1
                moved[depth] = t
                if h == 0 and board == goal:
                    solutions.append(moved[1:depth + 1])
                    if not all_solutions:
                        break
                else:
                    blanks[depth] = nb
                    cands[depth] = excl[nb][b]
                    ci[depth] = 0
                    b = nb
                    expanded += 1
                    if not expanded & mask:
                        now = time.perf_counter()
                        limits.check(expanded, now)
                        if now >= next_report:
                            stats.expanded, stats.generated = expanded, generated
                            yield _progress(stats, bound, started, now)
                            next_report = time.perf_counter() + PROGRESS_INTERVAL
                    continue
            else:
                if depth == 0:
                    break
                nb, b = blanks[depth], blanks[depth - 1]
                t = moved[depth]
            # take back tile t: it goes home to cell nb, the blank back to cell b
            probe(t, b, nb)
            push()
            board[nb] = t
            board[b] = 0
            depth -= 1
        stats.expanded, stats.generated = expanded, generated
        result = yield from _close_iteration(stats, bound, expanded - it_start, solutions, all_solutions, started)
        if result:
            return result
        bound = _next_bound(bound, over, parity)
        if bound == INF:
            return _finish(stats, started)
