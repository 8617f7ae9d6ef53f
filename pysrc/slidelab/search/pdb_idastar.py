"""IDA* kernel for sliding puzzles with additive pattern databases (heuristics/pdb.py).

The board is one mutable list and every group's table index is one integer, updated from the moved tile alone: each
move (blank from b to nb) has, per orientation, a per-tile table of (index change, group, group's table), so a child
is weighed with one addition and two table reads, before anything moves, and the second lookup (the mirrored one, or
the other partition) is only made when the first does not prune the child. The running sums of both lookups are
passed down; a group's old value is read again from its table rather than kept. Besides the move that undoes the
last one, a move that completes a known duplicate walk of the blank is not made (see `_move_tables`): a fifth fewer
positions on Korf's 15-puzzle positions.

Most positions searched lie on the bound (f = bound; over 80% on Korf's 15-puzzle positions), and their subtrees are
small, so they are searched by a plain recursive function (locals undo a move; no per-depth arrays). Positions with
more room than `RECURSE_SLACK` are expanded by a loop in the generator itself, which looks at the clock and yields
progress between two such subtrees. Table entries have the parity of the Manhattan distance, so a move changes h by
an odd amount and every f has the bound's parity: the next contour is the bound + 2 (+ 1 for a puzzle that does not
know its solution parity). Tested against the generic IDA*.
"""

from __future__ import annotations

import time

from .control import CHECK_EVERY, PROGRESS_INTERVAL, Stats
from .idastar import _close_iteration, _finish, _next_bound, _progress

RECURSE_SLACK = 4  # positions with bound - f <= this are searched by the recursive function, without yielding
COUNT = 1 << 32  # one counter holds expanded * COUNT + generated


# Blank moves (U, D, L, R: where the blank goes) that reach the same position as a smaller string of the same length
# wherever both stay on the board: every such duplicate of up to 8 moves (derived again in tests/test_pdb.py), each
# with that smaller string. The undoing pairs (UD, ...) are always left out.
DUPLICATES = dict(pair.split(":") for pair in """
    LDDLURUR:DLDLURRU LDLDRUUR:DLLDRURU LDRDRULL:DDRULULD LDRRDLUL:DRDLUULD LDRULD:DLURDL LLURDRDL:DLULURDD
    LULDRRDL:DLUULDRD LURDDRUL:DRULLURD RDDRULUL:DRDRULLU RDLDLURR:DDLURURD RDLLDRUR:DLDRUURD RDLULURD:LURDRDLU
    RDLURD:DRULDR RDRDLUUL:DRRDLULU RRULDLDR:DRURULDD RULDDLUR:DLURRULD RULDLDRU:LDRURULD RURDLLDR:DRUURDLD
    ULDDLURU:LDLURRUL ULDLDRUU:LLDRURUL ULDRDRUL:DRULULDR ULDRRDLU:RDLUULDR ULDRUL:LURDLU ULLURDRD:LULURDDR
    ULULDRRD:LUULDRDR ULURDDRU:RULLURDR URDDRULU:RDRULLUR URDLDLUR:DLURURDL URDLLDRU:LDRUURDL URDLUR:RULDRU
    URDRDLUU:RRDLULUR URRULDLD:RURULDDL URULDDLU:LURRULDL URURDLLD:RUURDLDL UULDRDRU:RULULDRR UURDLDLU:LURURDLL
""".split())
STEP = {"U": (-1, 0), "L": (0, -1), "R": (0, 1), "D": (1, 0)}  # the order children are searched in


def _move_tables(puzzle, orients, duplicates):
    """The children of the start, as (nb, children of nb, count, per-tile (index change, group, table) for each of the
    two lookups), where count adds one expanded position and its children to the counter.

    Moves are pruned by a finite-state machine (Taylor and Korf): an Aho-Corasick automaton over the blank's moves
    recognises the end of an undoing pair or of a string of `duplicates` whose smaller twin fits on the board from
    where the string started; such a move is left out. A node of the search is a pair (blank cell, automaton state).
    """
    rows, cols = puzzle.rows, puzzle.cols
    strings = {a + b: "" for a, b in ("UD", "DU", "LR", "RL")} | duplicates
    goto, ends = [{}], [[]]  # the trie, and per node the strings it completes (its own and its suffixes')
    for text in strings:
        node = 0
        for c in text:
            if c not in goto[node]:
                goto[node][c] = len(goto)
                goto.append({})
                ends.append([])
            node = goto[node][c]
        ends[node].append(text)
    fail = [0] * len(goto)
    order = list(goto[0].values())
    for u in order:  # breadth first: a node's fail link is known before its children's
        for c, v in goto[u].items():
            f = fail[u]
            while f and c not in goto[f]:
                f = fail[f]
            fail[v] = goto[f].get(c, 0)
            ends[v] += ends[fail[v]]
            order.append(v)

    def after(u, c):
        while u and c not in goto[u]:
            u = fail[u]
        return goto[u].get(c, 0)

    def fits(cell, text):
        r, c = divmod(cell, cols)
        for ch in text:
            r, c = r + STEP[ch][0], c + STEP[ch][1]
            if not (0 <= r < rows and 0 <= c < cols):
                return False
        return True

    def pruned(cell, text):  # the blank reached `cell` by `text`: is there a smaller twin from where it started?
        twin = strings[text]
        r, c = divmod(cell, cols)
        for ch in text:
            r, c = r - STEP[ch][0], c - STEP[ch][1]
        return not twin or fits(r * cols + c, twin)

    lookups = [orients[0], orients[-1]]  # one orientation is simply looked up twice

    def per_tile(o, b, nb):
        return [(o.contribution[t][b] - o.contribution[t][nb], g, o.tables[g]) if g >= 0 else (0, 0, b"")
                for t, g in enumerate(o.group_of)]

    steps = {}  # per move b -> nb, the per-tile tables of both lookups (shared by every automaton state)
    children = {}  # (cell, automaton state) -> its children
    b0 = puzzle.start.index(0)
    todo = [(b0, 0)]
    children[b0, 0] = []
    while todo:
        b, u = key = todo.pop()
        r, c = divmod(b, cols)
        found = []
        for ch, (dr, dc) in STEP.items():
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                nb, v = (r + dr) * cols + c + dc, after(u, ch)
                if not any(pruned(nb, text) for text in ends[v]):
                    found.append((nb, v))
                    if (nb, v) not in children:
                        children[nb, v] = []
                        todo.append((nb, v))
        for nb, v in found:
            if (b, nb) not in steps:
                steps[b, nb] = [per_tile(o, b, nb) for o in lookups]
            children[key].append((nb, children[nb, v], 0, *steps[b, nb]))
    for key, kids in children.items():  # now that every list is complete: the counts
        kids[:] = [(nb, nxt, COUNT + len(nxt), kn, km) for nb, nxt, _, kn, km in kids]
    return children[b0, 0]


def pdb_idastar(puzzle, heuristic, limits, all_solutions=False):
    """Search generator: IDA* with a PatternDatabaseHeuristic; returns a SearchResult with optimal moves."""
    started = time.perf_counter()
    next_report = started + PROGRESS_INTERVAL
    orients = heuristic.orientations
    if len(orients) > 2:
        raise ValueError("the pattern-database kernel takes one or two lookups")
    root = _move_tables(puzzle, orients, {} if all_solutions else DUPLICATES)
    board = list(puzzle.start)
    b0 = board.index(0)
    ni = orients[0].indices(board)
    mi = orients[-1].indices(board)
    hn0, hm0 = orients[0].value(board), orients[-1].value(board)
    h0 = max(hn0, hm0)
    parity = puzzle.solution_parity()
    stats = Stats()
    if h0 == 0:
        return _finish(stats, started, [[]], all_solutions)
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
        it_expanded = expanded - (it_start >> 32)
        result = yield from _close_iteration(stats, bound, it_expanded, solutions, all_solutions, started)
        if result:
            return result
        limits.check(expanded, time.perf_counter())
        if generated - (it_start & (COUNT - 1)) == it_expanded - 1:  # every child was searched: nothing lies beyond
            return _finish(stats, started)
        bound = _next_bound(bound, bound + 1, parity)
