"""A quick, not necessarily shortest, solver for sliding puzzles of any size: reduction line by line.

While the unsolved region is larger than 3x3, one of its outer lines that does not hold the blank's goal cell is
solved and frozen: its tiles are brought home one at a time, the last two together, each step by a weighted A* on a
small abstract puzzle (the blank and the one or two tiles being placed, every other free tile ignored, the frozen cells
walls; the moves counted are the blank's). The last region (3x3 or smaller) is then solved optimally by IDA* with the
strongest heuristic at hand. Finally moves that undo the previous one are cancelled. The answer says optimal: false
(unless the whole board was that last region) and carries the best lower bound known, h(start).
"""

from __future__ import annotations

import heapq

from slidelab.core.control import Meter, SearchResult

FINAL_SIDE = 3  # regions up to 3x3 are solved optimally
WEIGHT = 3  # each placement is a weighted A* (f = g + WEIGHT * h): far fewer positions, paths barely longer


def _place(board, nbrs, free, targets, stats):
    """Blank path (list of cells) bringing the tiles at cells `targets[i][0]` to cells `targets[i][1]` (one or two
    targets), moving only within `free` (a set of cells), by weighted A* over (blank, target cells) with the targets'
    distances home (breadth-first over the free cells) as h."""
    n = len(board)
    dist = []
    for _, home in targets:  # distance of every free cell to the target's home, walking over free cells
        d = [n * n] * n
        d[home] = 0
        todo = [home]
        for p in todo:
            for q in nbrs[p]:
                if q in free and d[q] > d[p] + 1:
                    d[q] = d[p] + 1
                    todo.append(q)
        dist.append(d)
    d1 = dist[0]
    d2 = dist[1] if len(targets) > 1 else [0] * n
    p2 = targets[1][0] if len(targets) > 1 else -1  # -1: no second target (d2[-1] is 0)
    h1, h2 = targets[0][1], targets[1][1] if len(targets) > 1 else -1
    free_nbrs = [tuple(q for q in nbrs[p] if q in free) for p in range(n)]
    start = (board.index(0), targets[0][0], p2)
    parent: dict = {start: None}
    heap = [(0, 0, 0, start)]
    counter = 1
    while heap:
        _, _, g, state = heapq.heappop(heap)
        b, a, c = state
        if a == h1 and c == h2:
            path = []
            while state != start:
                path.append(state[0])
                state = parent[state]
            return path[::-1]
        stats.expanded += 1
        g += 1
        for q in free_nbrs[b]:
            child = (q, b if a == q else a, b if c == q else c)
            if child in parent:
                continue
            parent[child] = state
            heapq.heappush(heap, (g + WEIGHT * (d1[child[1]] + d2[child[2]]), counter, g, child))
            counter += 1
            stats.generated += 1
    raise AssertionError("the quick solver found no way to place a line")  # a bug: the api answers "internal"


def _lines(rows, cols, blank_goal):
    """The order of reduction: (cells of the line in placing order) until the region is at most 3x3, then the
    region's cells."""
    top, bottom, left, right = 0, rows - 1, 0, cols - 1
    br, bc = divmod(blank_goal, cols)
    lines = []
    while bottom - top + 1 > FINAL_SIDE or right - left + 1 > FINAL_SIDE:
        if bottom - top >= right - left:
            r = top if br != top else bottom
            lines.append([r * cols + c for c in range(left, right + 1)])
            if r == top:
                top += 1
            else:
                bottom -= 1
        else:
            c = left if bc != left else right
            lines.append([r * cols + c for r in range(top, bottom + 1)])
            if c == left:
                left += 1
            else:
                right -= 1
    region = [r * cols + c for r in range(top, bottom + 1) for c in range(left, right + 1)]
    return lines, (top, bottom, left, right), region


def _cancel(moves):
    """Drop moves that slide the same tile straight back."""
    out: list = []
    for m in moves:
        if out and out[-1] == m:
            out.pop()
        else:
            out.append(m)
    return out


def quick(puzzle, heuristic, limits):
    """Search generator: a solution (not necessarily shortest) by line-by-line reduction; returns a SearchResult
    with extra {"lower_bound": h(start)}."""
    from slidelab.core.puzzles.sliding import SlidingPuzzle, neighbours
    from slidelab.heuristics.auto import strongest
    from slidelab.search.idastar import idastar

    meter = Meter(limits)
    stats = meter.stats
    rows, cols, size = puzzle.rows, puzzle.cols, puzzle.size
    board = list(puzzle.start)
    goal = puzzle.goal
    moves = []
    lines, (top, bottom, left, right), region = _lines(rows, cols, puzzle.goal_pos[0])
    free = set(range(size))
    nbrs = neighbours(rows, cols)

    def walk(path):
        b = board.index(0)
        for q in path:
            if q not in nbrs[b]:
                raise AssertionError("blank path is not connected")
            t = board[q]
            board[b], board[q] = t, 0
            moves.append(t)
            b = q

    for line in lines:
        for i, cell in enumerate(line):
            if i == len(line) - 1:
                break
            if i == len(line) - 2:
                pair = [(board.index(goal[c]), c) for c in line[i:]]
                walk(_place(board, nbrs, free, pair, stats))
                free.difference_update(line[i:])
                break
            walk(_place(board, nbrs, free, [(board.index(goal[cell]), cell)], stats))
            free.discard(cell)
        meter.due(stats.expanded)
        yield meter.progress(stored=stats.stored, bound=len(moves))
    # the last region, solved optimally as a puzzle of its own
    sub_rows, sub_cols = bottom - top + 1, right - left + 1
    labels = sorted(board[p] for p in region)
    relabel = {t: i for i, t in enumerate(labels)}
    small = SlidingPuzzle(sub_rows, sub_cols, [relabel[board[p]] for p in region], [relabel[goal[p]] for p in region])
    search = idastar(small, strongest(small), limits)
    try:
        while True:
            yield next(search)
    except StopIteration as stop:
        result = stop.value
    stats.expanded += result.stats.expanded
    stats.generated += result.stats.generated
    moves.extend(labels[t] for t in result.moves)
    lower_bound = heuristic(puzzle.start)
    moves = _cancel(moves)
    meter.finish()
    optimal = not lines
    return SearchResult(moves, optimal, stats, extra={"lower_bound": len(moves) if optimal else lower_bound})
