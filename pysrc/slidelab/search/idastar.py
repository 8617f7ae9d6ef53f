"""IDA*: depth-first contours bounded by f = g + h, the bound raised until the goal is found.

Two implementations of the same algorithm, tested against each other:
- `_tile_table_kernel` for sliding puzzles whose heuristic is a per-tile table (zero, misplaced, Manhattan): the
  board is one mutable list, h is updated from the moved tile alone, the path is an explicit stack, nothing is
  allocated per node;
- `_generic` for any puzzle interface and any h(state).
Both never undo the previous move and step the bound by the solution parity when the puzzle knows it.
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


def _tile_table_kernel(puzzle, heuristic, limits, all_solutions):
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    table = heuristic.tile_table
    goal = list(puzzle.goal)
    exact = heuristic.name != "zero"  # h == 0 means "at the goal" for misplaced and Manhattan
    nbrs = puzzle.neighbours
    size = puzzle.size
    # excl[b][prev]: the cells the blank at b may move to next without undoing its last move (prev == size: any)
    excl = [[tuple(q for q in nbrs[b] if q != prev) for prev in range(size)] + [nbrs[b]] for b in range(size)]
    board = list(puzzle.start)
    b0 = board.index(0)
    h0 = heuristic(puzzle.start)
    parity = puzzle.solution_parity()
    stats = Stats()
    solutions = []
    mask = CHECK_EVERY - 1
    bound = _next_bound(0, h0, parity)
    if h0 == 0 and (exact or board == goal):
        stats.elapsed_s = time.perf_counter() - started
        return SearchResult([], True, stats, [[]] if all_solutions else None)
    while True:
        cap = bound + 2
        blanks, hs, moved, ci = [0] * cap, [0] * cap, [0] * cap, [0] * cap
        cands = [()] * cap
        blanks[0], hs[0], cands[0] = b0, h0, excl[b0][size]
        depth = 0
        over = INF
        expanded = stats.expanded
        generated = stats.generated
        it_start = expanded
        expanded += 1  # the root
        while depth >= 0:
            i = ci[depth]
            cl = cands[depth]
            if i < len(cl):
                ci[depth] = i + 1
                nb = cl[i]
                b = blanks[depth]
                t = board[nb]
                row = table[t]
                h = hs[depth] + row[b] - row[nb]
                generated += 1
                f = depth + 1 + h
                if f > bound:
                    if f < over:
                        over = f
                    continue
                board[b] = t
                board[nb] = 0
                depth += 1
                moved[depth] = t
                if h == 0 and (exact or board == goal):
                    solutions.append(moved[1:depth + 1])
                    board[nb] = t
                    board[b] = 0
                    depth -= 1
                    if not all_solutions:
                        break
                    continue
                blanks[depth] = nb
                hs[depth] = h
                cands[depth] = excl[nb][b]
                ci[depth] = 0
                expanded += 1
                if not expanded & mask:
                    now = time.perf_counter()
                    limits.check(expanded, now)
                    if now >= next_report:
                        stats.expanded, stats.generated = expanded, generated
                        yield _progress(stats, bound, started, now)
                        next_report = time.perf_counter() + PROGRESS_INTERVAL
            else:
                if depth == 0:
                    break
                nb, b = blanks[depth], blanks[depth - 1]
                board[nb] = moved[depth]
                board[b] = 0
                depth -= 1
        stats.expanded, stats.generated = expanded, generated
        stats.stored = max(stats.stored, bound + 1)
        stats.iterations.append({"bound": bound, "expanded": expanded - it_start})
        yield {"type": "iteration", "bound": bound, "expanded": expanded - it_start}
        if solutions:
            stats.elapsed_s = time.perf_counter() - started
            return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)
        bound = _next_bound(bound, over, parity)
        if bound == INF:
            stats.elapsed_s = time.perf_counter() - started
            return None


def _generic(puzzle, heuristic, limits, all_solutions):
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    parity = puzzle.solution_parity() if hasattr(puzzle, "solution_parity") else None
    goal_test = puzzle.is_goal
    moves_of = puzzle.moves
    stats = Stats()
    solutions = []
    mask = CHECK_EVERY - 1
    start = puzzle.start
    h0 = heuristic(start)
    bound = _next_bound(0, h0, parity)
    if goal_test(start):
        stats.elapsed_s = time.perf_counter() - started
        return SearchResult([], True, stats, [[]] if all_solutions else None)
    while True:
        over = INF
        it_start = stats.expanded
        # stack of (state, parent state, iterator over its moves); path holds the moves taken
        path = []
        stack = [(start, None, iter(moves_of(start)))]
        stats.expanded += 1
        done = False
        while stack and not done:
            state, parent, it = stack[-1]
            for move, child in it:
                if child == parent:
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
                stack.append((child, state, iter(moves_of(child))))
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
        stats.stored = max(stats.stored, bound + 1)
        stats.iterations.append({"bound": bound, "expanded": stats.expanded - it_start})
        yield {"type": "iteration", "bound": bound, "expanded": stats.expanded - it_start}
        if solutions:
            stats.elapsed_s = time.perf_counter() - started
            return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)
        bound = _next_bound(bound, over, parity)
        if bound == INF:
            stats.elapsed_s = time.perf_counter() - started
            return None
