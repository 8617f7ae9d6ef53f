"""IDA* kernel for sliding puzzles with additive pattern databases (heuristics/pdb.py).

The board is one mutable list and every group's table index is one integer, updated from the moved tile alone
(`index += contribution[tile][to] - contribution[tile][from]`); the heuristic is the sum of the groups' entries,
kept per orientation and updated from the one group that changed. The mirrored orientation is only looked up when
the normal one does not already prune the child. Each depth keeps an iterator over its children (a `for` loop left
by `break` to go deeper and resumed on the way back), and children are counted when their parent is expanded.
Tested against the generic IDA*.
"""

from __future__ import annotations

import time
from operator import length_hint

from .control import CHECK_EVERY, PROGRESS_INTERVAL, SearchResult, Stats
from .idastar import INF, _next_bound, _progress


def pdb_idastar(puzzle, heuristic, limits, all_solutions=False):
    """Search generator: IDA* with a PatternDatabaseHeuristic; returns a SearchResult with optimal moves."""
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    size = puzzle.size
    nbrs = puzzle.neighbours
    excl = [[tuple(q for q in nbrs[b] if q != prev) for prev in range(size)] + [nbrs[b]] for b in range(size)]
    orients = heuristic.orientations
    board = list(puzzle.start)
    b0 = board.index(0)
    # normal orientation: per tile its group's table, its group, its index contributions; per group index and value
    if len(orients) > 2:
        raise ValueError("the pattern-database kernel takes one or two lookups")
    o = orients[0]
    n_tile = [(o.contribution[t], g, o.tables[g] if g >= 0 else b"") for t, g in enumerate(o.group_of)]
    n_idx = o.indices(board)
    n_val = [t[i] for t, i in zip(o.tables, n_idx)]
    # the second lookup (mirrored, or another partition), consulted only when the first does not prune
    mirrored = len(orients) > 1
    o = orients[-1]
    m_tile = [(o.contribution[t], g, o.tables[g] if g >= 0 else b"") for t, g in enumerate(o.group_of)]
    m_idx = o.indices(board)
    m_val = [t[i] for t, i in zip(o.tables, m_idx)]
    hn0, hm0 = sum(n_val), sum(m_val)
    h0 = max(hn0, hm0)
    parity = puzzle.solution_parity()
    stats = Stats()
    solutions = []
    mask = CHECK_EVERY - 1
    bound = _next_bound(0, h0, parity)
    if h0 == 0:
        stats.elapsed_s = time.perf_counter() - started
        return SearchResult([], True, stats, [[]] if all_solutions else None)
    while True:
        cap = bound + 2
        blanks, hns, hms, moved, its = [0] * cap, [0] * cap, [0] * cap, [0] * cap, [None] * cap
        blanks[0], hns[0], hms[0] = b0, hn0, hm0
        depth = 0
        lim = bound - 1  # a child at depth + 1 is searched when its h <= lim
        excess = INF
        expanded = stats.expanded
        it_start = expanded
        expanded += 1  # the root
        b = b0
        hn, hm = hn0, hm0
        it = iter(excl[b0][size])
        generated = stats.generated + len(excl[b0][size])  # children are counted when their parent is expanded
        while True:
            for nb in it:
                t = board[nb]
                row, g, tab = n_tile[t]
                x = n_idx[g] + row[b] - row[nb]
                vn = tab[x]
                h = hn + vn - n_val[g]
                if h > lim:
                    if h - lim < excess:
                        excess = h - lim
                    continue
                if mirrored:
                    row, gm, tab = m_tile[t]
                    y = m_idx[gm] + row[b] - row[nb]
                    vm = tab[y]
                    hm2 = hm + vm - m_val[gm]
                    if hm2 > lim:
                        if hm2 - lim < excess:
                            excess = hm2 - lim
                        continue
                    m_idx[gm] = y
                    m_val[gm] = vm
                    hm = hm2
                n_idx[g] = x
                n_val[g] = vn
                hn = h
                board[b] = t
                board[nb] = 0
                its[depth] = it
                depth += 1
                moved[depth] = t
                blanks[depth] = nb
                lim -= 1
                if h == 0:
                    solutions.append(moved[1:depth + 1])
                    it = ()  # a goal has no children worth searching: back up at once
                    break
                hns[depth] = hn
                hms[depth] = hm
                it = excl[nb][b]
                generated += len(it)
                it = iter(it)
                b = nb
                expanded += 1
                if not expanded & mask:
                    now = time.perf_counter()
                    limits.check(expanded, now)
                    if now >= next_report:
                        stats.expanded, stats.generated = expanded, generated
                        yield _progress(stats, bound, started, now)
                        next_report = time.perf_counter() + PROGRESS_INTERVAL
                break
            else:
                if depth == 0:
                    break
                if solutions and not all_solutions:  # stop: one solution is enough
                    for d in range(depth):
                        generated -= length_hint(its[d])
                    break
                nb = blanks[depth]
                b = blanks[depth - 1]
                t = moved[depth]
                board[nb] = t
                board[b] = 0
                depth -= 1
                lim += 1
                it = its[depth]
                row, g, tab = n_tile[t]
                x = n_idx[g] - row[b] + row[nb]
                n_idx[g] = x
                n_val[g] = tab[x]
                hn = hns[depth]
                if mirrored:
                    row, gm, tab = m_tile[t]
                    y = m_idx[gm] - row[b] + row[nb]
                    m_idx[gm] = y
                    m_val[gm] = tab[y]
                    hm = hms[depth]
        stats.expanded, stats.generated = expanded, generated
        stats.stored = max(stats.stored, bound + 1)
        stats.iterations.append({"bound": bound, "expanded": expanded - it_start})
        yield {"type": "iteration", "bound": bound, "expanded": expanded - it_start}
        if solutions:
            stats.elapsed_s = time.perf_counter() - started
            return SearchResult(list(solutions[0]), True, stats, solutions if all_solutions else None)
        bound = _next_bound(bound, bound + excess, parity)
        if bound == INF:
            stats.elapsed_s = time.perf_counter() - started
            return None
