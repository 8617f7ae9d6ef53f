"""IDA*: depth-first contours bounded by f = g + h, the bound raised until the goal is found.

Two implementations of the same algorithm, tested against each other:
- `_tile_table_kernel` for sliding puzzles whose heuristic is a per-tile table (zero, misplaced, Manhattan): the
  board is one mutable list, h is updated from the moved tile alone by per-(cell, cell, tile) delta tables, and the
  stack holds only positions within the bound, two moves deep, so the board changes half as often;
- `_generic` for any puzzle interface and any h(state).
Both never undo the previous move and step the bound by the solution parity when the puzzle knows it. `_generic` also
skips, right after a move, the moves the puzzle lists as `commuting_before(move)` (token puzzles: two moves on four
different cells, in one fixed order only), except when enumerating all solutions.
"""

from __future__ import annotations

import time

from .control import CHECK_EVERY, PROGRESS_INTERVAL, SearchResult, Stats

INF = float("inf")


def idastar(puzzle, heuristic, limits, all_solutions=False):
    """Search generator for IDA*; returns a SearchResult with optimal moves (and all optimal ones if asked)."""
    if puzzle.kind == "sliding" and hasattr(heuristic, "tile_table"):
        return _tile_table_kernel(puzzle, heuristic, limits, all_solutions)
    if puzzle.kind == "sliding" and hasattr(heuristic, "orientations"):  # pattern databases
        from .pdb_idastar import pdb_idastar
        return pdb_idastar(puzzle, heuristic, limits, all_solutions)
    if puzzle.kind == "sliding" and hasattr(heuristic, "tracker"):  # linear conflict, walking distance
        from .incremental_idastar import incremental_idastar
        return incremental_idastar(puzzle, heuristic, limits, all_solutions)
    return _generic(puzzle, heuristic, limits, all_solutions)


def _next_bound(bound, over, parity):
    """The next contour: the smallest f that exceeded it, raised to the solution's parity when it is known."""
    if over == INF:
        return INF
    if parity is not None and (over - parity) % 2:
        over += 1
    return over


def _progress(stats, bound, started, now):
    return {"type": "progress", "expanded": stats.expanded, "generated": stats.generated, "bound": bound,
            "elapsed_s": round(now - started, 3), "nodes_per_s": int(stats.expanded / max(now - started, 1e-9))}


def _finish(stats, started, solutions=None, all_solutions=False):
    """The search's return value: a SearchResult from the first of `solutions` (every one when enumerating all),
    or None when there are none; records the elapsed time either way."""
    stats.elapsed_s = time.perf_counter() - started
    if not solutions:
        return None
    return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)


def _close_iteration(stats, bound, expanded, solutions, all_solutions, started):
    """Record and report one finished iteration (a generator, for `yield from`): the search's result when it found
    a solution, else None."""
    stats.stored = max(stats.stored, bound + 1)
    stats.iterations.append({"bound": bound, "expanded": expanded})
    yield {"type": "iteration", "bound": bound, "expanded": expanded}
    return _finish(stats, started, solutions, all_solutions) if solutions else None


def _tile_table_kernel(puzzle, heuristic, limits, all_solutions):
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
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
    parity = puzzle.solution_parity()
    stats = Stats()
    solutions = []
    next_check = CHECK_EVERY
    bound = _next_bound(0, h0, parity)
    if h0 == 0 and (exact or board == goal):
        return _finish(stats, started, [[]], all_solutions)
    while True:
        over = INF
        expanded = stats.expanded
        generated = stats.generated
        it_start = expanded
        # Each stack entry is two moves deep, (depth, b, q, r, h): the blank went b -> q -> r, reaching h. A node's
        # children and grandchildren are weighed on the unchanged board (a grandchild never moves the child's
        # tile), and only grandchildren within the bound are pushed. path[depth] is the entry applied at depth.
        path = [None] * (bound + 3)
        stack = [(0, size, size, b0, h0)]
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
                now = time.perf_counter()
                limits.check(expanded, now)
                if now >= next_report:
                    stats.expanded, stats.generated = expanded, generated
                    yield _progress(stats, bound, started, now)
                    next_report = time.perf_counter() + PROGRESS_INTERVAL
        while depth > 0:  # take the board back to the start for the next iteration
            _, ub, uq, ur, _ = path[depth]
            board[ur] = board[uq]
            board[uq] = board[ub]
            board[ub] = 0
            depth -= 2
        stats.expanded, stats.generated = expanded, generated
        result = yield from _close_iteration(stats, bound, expanded - it_start, solutions, all_solutions, started)
        if result:
            return result
        bound = _next_bound(bound, over, parity)
        if bound == INF:
            return _finish(stats, started)


def _goal_after(board, goal, blanks):
    """Whether the board equals the goal after the blank walks along `blanks` (the board is left unchanged)."""
    for a, c in zip(blanks, blanks[1:]):
        board[a] = board[c]
        board[c] = 0
    same = board == goal
    for a, c in zip(blanks[::-1], blanks[-2::-1]):
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
    for a, c in zip(blanks, blanks[1:]):
        moves.append(cells[c])
        cells[a], cells[c] = cells[c], 0
    return moves


def _generic(puzzle, heuristic, limits, all_solutions):
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    parity = puzzle.solution_parity() if hasattr(puzzle, "solution_parity") else None
    commuting_before = None if all_solutions else getattr(puzzle, "commuting_before", None)
    goal_test = puzzle.is_goal
    moves_of = puzzle.moves
    stats = Stats()
    solutions = []
    mask = CHECK_EVERY - 1
    start = puzzle.start
    h0 = heuristic(start)
    bound = _next_bound(0, h0, parity)
    if goal_test(start):
        return _finish(stats, started, [[]], all_solutions)
    while True:
        over = INF
        it_start = stats.expanded
        # stack of (state, parent state, iterator over its moves, moves to skip); path holds the moves taken
        path = []
        stack = [(start, None, iter(moves_of(start)), ())]
        stats.expanded += 1
        done = False
        while stack and not done:
            state, parent, it, skip = stack[-1]
            for move, child in it:
                if child == parent or move in skip:
                    continue
                stats.generated += 1
                g = len(stack)
                f = g + heuristic(child)
                if f > bound:
                    if f < over:
                        over = f
                    continue
                if goal_test(child):
                    solutions.append(path + [move])
                    if not all_solutions:
                        done = True
                        break
                    continue
                path.append(move)
                stack.append((child, state, iter(moves_of(child)), commuting_before(move) if commuting_before else ()))
                stats.expanded += 1
                if not stats.expanded & mask:
                    now = time.perf_counter()
                    limits.check(stats.expanded, now)
                    if now >= next_report:
                        yield _progress(stats, bound, started, now)
                        next_report = time.perf_counter() + PROGRESS_INTERVAL
                break
            else:
                stack.pop()
                if path:
                    path.pop()
        result = yield from _close_iteration(stats, bound, stats.expanded - it_start, solutions, all_solutions, started)
        if result:
            return result
        bound = _next_bound(bound, over, parity)
        if bound == INF:
            return _finish(stats, started)
