"""IDA* kernel for sliding puzzles whose heuristic is a per-tile table (zero, misplaced, Manhattan).

The board is one mutable list, h is updated from the moved tile alone by per-(cell, cell, tile) delta tables, and the
stack holds only positions within the bound, two moves deep, so the board changes half as often. It never undoes the
previous move. Tested against the generic IDA*.
"""

from __future__ import annotations

from itertools import pairwise

from slidelab.core.control import CHECK_EVERY, Meter
from slidelab.search.contour import INF, deepen


def tile_table_idastar(puzzle, heuristic, limits, all_solutions=False, came_by=(), one_contour=None):
    """Search generator: IDA* with a heuristic that has `tile_table[tile][cell]`; returns a SearchResult. `came_by` (the
    positions a parallel search came by to this start, its parent last: not searched again) and `one_contour` (the
    bound of the one contour to search) search a subtree of a parallel search (parallel_idastar.py)."""
    meter = Meter(limits)
    stats = meter.stats
    table = heuristic.tile_table
    size = puzzle.size
    nbrs = puzzle.neighbours
    goal = list(puzzle.goal)
    goal_blank = puzzle.goal.index(0)
    exact = heuristic.name != "zero"  # h == 0 means "at the goal" for misplaced and Manhattan
    # steps[b][prev]: (q, dh) for each cell q the blank at b may move to without undoing its last move (prev ==
    # size: any), last neighbour first so that the stack pops them in neighbour order; dh[t] is the change of h
    # when tile t slides from q to b
    steps = [[tuple((q, [table[t][b] - table[t][q] for t in range(size)]) for q in reversed(nbrs[b]) if q != prev)
              for prev in range(size + 1)] for b in range(size)]
    # when no move can lower h (h = 0), a position with f == bound has no child within the bound: a leaf
    leaves_at_bound = all(min(dh) >= 0 for row in steps for _, dh in row[size])
    board = list(puzzle.start)
    b0 = board.index(0)
    h0 = heuristic(puzzle.start)
    solutions: list = []

    def contour(bound):
        over = INF
        expanded = stats.expanded
        generated = stats.generated
        next_check = expanded + CHECK_EVERY
        # Each stack entry is two moves deep, (depth, b, q, r, h): the blank went b -> q -> r, reaching h. A node's
        # children and grandchildren are weighed on the unchanged board (a grandchild never moves the child's
        # tile), and only grandchildren within the bound are pushed. path[depth] is the entry applied at depth.
        path: list = [None] * (bound + 3)
        stack = [(0, size, came_by[-1].index(0) if came_by else size, b0, h0)]
        push, pop = stack.append, stack.pop
        depth = -1  # the depth of the board: below the root's until the root is popped
        done = False
        while stack:
            d, b, q, r, h = entry = pop()
            while depth >= d:  # back up to the entry's parent (the root, d == 0, is popped first and only once)
                _, ub, uq, ur, _ = path[depth]
                board[ur] = board[uq]
                board[uq] = board[ub]
                board[ub] = 0
                depth -= 2
            if d:
                board[b] = board[q]
                board[q] = board[r]
                board[r] = 0
                path[d] = entry
            depth = d
            expanded += 1
            d1, d2 = d + 1, d + 2
            for s, dh in steps[r][q]:
                h1 = h + dh[board[s]]
                generated += 1
                f = d1 + h1
                if f > bound:
                    if f < over:
                        over = f
                    continue
                if h1 == 0 and (exact or s == goal_blank and _goal_after(board, goal, (r, s))):
                    solutions.append(_path_moves(puzzle.start, path, d, (r, s)))
                    if all_solutions:
                        continue
                    done = True
                    break
                if f == bound and leaves_at_bound:
                    if f + 1 < over:
                        over = f + 1
                    continue
                expanded += 1
                for u, dh2 in steps[s][r]:
                    h2 = h1 + dh2[board[u]]
                    generated += 1
                    f = d2 + h2
                    if f > bound:
                        if f < over:
                            over = f
                        continue
                    if h2 == 0 and (exact or u == goal_blank and _goal_after(board, goal, (r, s, u))):
                        solutions.append(_path_moves(puzzle.start, path, d, (r, s, u)))
                        if all_solutions:
                            continue
                        done = True
                        break
                    if f == bound and leaves_at_bound:
                        if f + 1 < over:
                            over = f + 1
                        continue
                    push((d2, r, s, u, h2))
                if done:
                    break
            if done:
                break
            if expanded >= next_check:
                next_check = expanded + CHECK_EVERY
                if meter.due(expanded):
                    stats.expanded, stats.generated = expanded, generated
                    yield meter.progress(stored=depth + 1, bound=bound)
        while depth > 0:  # take the board back to the start for the next iteration
            _, ub, uq, ur, _ = path[depth]
            board[ur] = board[uq]
            board[uq] = board[ub]
            board[ub] = 0
            depth -= 2
        stats.expanded, stats.generated = expanded, generated
        return over

    at_goal = h0 == 0 and (exact or board == goal)
    return (yield from deepen(contour, h0, puzzle.solution_parity(), meter, solutions, all_solutions, at_goal,
                              one_contour))


def _goal_after(board, goal, blanks):
    """Whether the board equals the goal after the blank walks along `blanks` (the board is left unchanged)."""
    for a, c in pairwise(blanks):
        board[a] = board[c]
        board[c] = 0
    same = board == goal
    for a, c in pairwise(reversed(blanks)):
        board[a] = board[c]
        board[c] = 0
    return same


def _path_moves(start, path, depth, last_blanks):
    """The tiles moved from `start` along the kernel's path entries up to `depth`, then along `last_blanks`."""
    blanks = [start.index(0)]
    for k in range(2, depth + 1, 2):
        blanks += path[k][2:4]
    blanks += last_blanks[1:]
    cells, moves = list(start), []
    for a, c in pairwise(blanks):
        moves.append(cells[c])
        cells[a], cells[c] = cells[c], 0
    return moves
