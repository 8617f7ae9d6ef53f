"""IDA* kernel for sliding puzzles with additive pattern databases (heuristics/pdb.py).

The board is one mutable list and every group's table index is one integer, updated from the moved tile alone: each
move (blank from b to nb) has, per orientation, a per-tile table of (index change, group, group's table), so a child
is weighed with one addition and two table reads, before anything moves, and the second lookup (the mirrored one, or
the other partition) is only made when the first does not prune the child. The running sums of both lookups are
passed down; a group's old value is read again from its table rather than kept.

Most positions searched lie on the bound (f = bound; over 80% on Korf's 15-puzzle positions), and their subtrees are
small, so they are searched by a plain recursive function (locals undo a move; no per-depth arrays). Positions with
more room than `RECURSE_SLACK` are expanded by a loop in the generator itself, which looks at the clock and yields
progress between two such subtrees. Table entries have the parity of the Manhattan distance, so a move changes h by
an odd amount and every f has the bound's parity: the next contour is the bound + 2 (+ 1 for a puzzle that does not
know its solution parity). Tested against the generic IDA*.
"""

from __future__ import annotations

import time

from .control import CHECK_EVERY, PROGRESS_INTERVAL, SearchResult, Stats
from .idastar import INF, _next_bound, _progress

RECURSE_SLACK = 4  # positions with bound - f <= this are searched by the recursive function, without yielding
COUNT = 1 << 32  # one counter holds expanded * COUNT + generated


def _move_tables(puzzle, orients):
    """moves[b][prev]: the children of a position with the blank on b that came from prev (prev == size: any),
    each (nb, moves[nb][b], count, per-tile (index change, group, table) for each of the two lookups), where count
    adds one expanded position and its children to the counter."""
    size = puzzle.size
    nbrs = puzzle.neighbours
    lookups = [orients[0], orients[-1]]  # one orientation is simply looked up twice

    def per_tile(o, b, nb):
        return [(o.contribution[t][b] - o.contribution[t][nb], g, o.tables[g]) if g >= 0 else (0, 0, b"")
                for t, g in enumerate(o.group_of)]

    moves = [[[] for _ in range(size + 1)] for _ in range(size)]
    for b in range(size):
        steps = {nb: [per_tile(o, b, nb) for o in lookups] for nb in nbrs[b]}
        for prev in range(size + 1):
            moves[b][prev] += [(nb, moves[nb][b], COUNT + len(nbrs[nb]) - 1, *steps[nb]) for nb in nbrs[b] if nb != prev]
    return moves


def pdb_idastar(puzzle, heuristic, limits, all_solutions=False):
    """Search generator: IDA* with a PatternDatabaseHeuristic; returns a SearchResult with optimal moves."""
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    orients = heuristic.orientations
    if len(orients) > 2:
        raise ValueError("the pattern-database kernel takes one or two lookups")
    size = puzzle.size
    moves = _move_tables(puzzle, orients)
    board = list(puzzle.start)
    b0 = board.index(0)
    root = moves[b0][size]
    ni = orients[0].indices(board)
    mi = orients[-1].indices(board)
    hn0, hm0 = orients[0].value(board), orients[-1].value(board)
    h0 = max(hn0, hm0)
    parity = puzzle.solution_parity()
    stats = Stats()
    if h0 == 0:
        stats.elapsed_s = time.perf_counter() - started
        return SearchResult([], True, stats, [[]] if all_solutions else None)
    solutions = []
    path = []  # path[lim]: the tile moved into a position whose children must have h <= lim
    bound = 0
    nodes = 0  # expanded * COUNT + generated

    def search(b, mv, hn, hm, lim):
        """Search below the position (blank on b, children mv, sums hn and hm) whose children need h <= lim;
        True when a solution was found and one is enough (the search then stops: nothing is undone), else the board
        and indices are left as they were."""
        nonlocal nodes
        for nb, nxt, count, kn, km in mv:
            t = board[nb]
            d, g, tab = kn[t]
            i = ni[g]
            x = i + d
            h = hn + tab[x] - tab[i]
            if h > lim:
                continue
            d, gm, tab = km[t]
            j = mi[gm]
            y = j + d
            h2 = hm + tab[y] - tab[j]
            if h2 > lim:
                continue
            path[lim] = t
            if h == 0:
                solutions.append(path[:lim - 1:-1] if lim else path[::-1])
                if all_solutions:
                    continue
                return True
            board[b] = t
            board[nb] = 0
            ni[g] = x
            mi[gm] = y
            nodes += count
            if search(nb, nxt, h, h2, lim - 1):
                return True
            board[nb] = t
            board[b] = 0
            ni[g] = i
            mi[gm] = j
        return False

    bound = _next_bound(0, h0, parity)
    while True:
        path[:] = [0] * bound
        it_start = nodes
        nodes += COUNT + len(root)  # the root
        # the loop for positions with room to spare: frames (b, children iterator, hn, hm, lim, undo)
        frames = [(b0, iter(root), hn0, hm0, bound - 1, None)]
        next_check = (nodes >> 32) + CHECK_EVERY
        found = False
        if bound - h0 <= RECURSE_SLACK:
            found = search(b0, root, hn0, hm0, bound - 1)
            frames = []
        while frames:
            b, it, hn, hm, lim, undo = frames[-1]
            for nb, nxt, count, kn, km in it:
                t = board[nb]
                d, g, tab = kn[t]
                i = ni[g]
                x = i + d
                h = hn + tab[x] - tab[i]
                if h > lim:
                    continue
                d, gm, tab = km[t]
                j = mi[gm]
                y = j + d
                h2 = hm + tab[y] - tab[j]
                if h2 > lim:
                    continue
                path[lim] = t
                if h == 0:
                    solutions.append(path[:lim - 1:-1] if lim else path[::-1])
                    if all_solutions:
                        continue
                    found = True
                    break
                board[b] = t
                board[nb] = 0
                ni[g] = x
                mi[gm] = y
                nodes += count
                if lim - max(h, h2) > RECURSE_SLACK:
                    frames.append((nb, iter(nxt), h, h2, lim - 1, (t, b, nb, g, i, gm, j)))
                    break
                found = search(nb, nxt, h, h2, lim - 1)
                board[nb] = t
                board[b] = 0
                ni[g] = i
                mi[gm] = j
                if found:
                    break
                if nodes >> 32 >= next_check:
                    next_check = (nodes >> 32) + CHECK_EVERY
                    now = time.perf_counter()
                    limits.check(nodes >> 32, now)
                    if now >= next_report:
                        stats.expanded, stats.generated = nodes >> 32, nodes & (COUNT - 1)
                        yield _progress(stats, bound, started, now)
                        next_report = time.perf_counter() + PROGRESS_INTERVAL
            else:
                frames.pop()
                if undo:
                    t, b, nb, g, i, gm, j = undo
                    board[nb] = t
                    board[b] = 0
                    ni[g] = i
                    mi[gm] = j
                continue
            if found:
                break
        expanded, generated = nodes >> 32, nodes & (COUNT - 1)
        stats.expanded, stats.generated = expanded, generated
        stats.stored = max(stats.stored, bound + 1)
        it_expanded = expanded - (it_start >> 32)
        stats.iterations.append({"bound": bound, "expanded": it_expanded})
        yield {"type": "iteration", "bound": bound, "expanded": it_expanded}
        if solutions:
            stats.elapsed_s = time.perf_counter() - started
            return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)
        limits.check(expanded, time.perf_counter())
        if generated - (it_start & (COUNT - 1)) == it_expanded - 1:  # every child was searched: nothing lies beyond
            stats.elapsed_s = time.perf_counter() - started
            return None
        bound = _next_bound(bound, bound + 1, parity)
