"""IDA* kernel for sliding puzzles with additive pattern databases (heuristics/pdb/).

The board is one mutable list and every group's table index is one integer, updated from the moved tile alone: each
move (blank from b to nb) has, per lookup (a partition, maybe mirrored), a per-tile table of (index change, group,
group's table), so a lookup weighs a child with one addition and two table reads, before anything moves. The lookups
are unrolled and made in turn, each only when the ones before did not prune the child: on the 15-puzzle two
partitions, each also mirrored, make four lookups, which search half the positions that one partition and its mirror
need, for about 1.5 times the work per position. The running sums of every lookup are passed down; a group's old
value is read again from its table rather than kept. Besides the move that undoes the last one, a move that
completes a known duplicate walk of the blank (duplicate_walks.py) is not made (see `_move_tables`): about 30% fewer
positions on Korf's 15-puzzle positions.

Most positions searched lie on the bound (f = bound; over 80% on Korf's 15-puzzle positions), and their subtrees are
small, so they are searched by a plain recursive function (locals undo a move; no per-depth arrays). Positions with
more room than `RECURSE_SLACK` are expanded by a loop in the generator itself, which looks at the clock and yields
progress between two such subtrees (a subtree of a split search's says where it is, from which it can go on: a
checkpoint's partial subtree, a lost worker's task), and which tries the children in order of the sum of every
lookup, smallest first:
that only matters in the last iteration, which stops at the first solution (a typical 15-puzzle position needs 5-15%
fewer positions; docs/benchmarks.md). Table entries have the parity of the Manhattan distance, so a move changes h by
an odd amount and every f has the bound's parity: the next contour is the bound + 2 (+ 1 for a puzzle that does not
know its solution parity). Ranked tables held packed (files.PackedTable, the browser's way: about a quarter of a
byte an entry, each the halved excess over the group's Manhattan distance, read as its block's base and 2 bits) have
their own recursive search, which adds the moved tile's Manhattan change and keeps each group's current entry beside
its index: 1.2-1.5 times the work a position, for a quarter of the memory (on 5 columns too: the 24-puzzle's tables
in the browser). A set with dual lookups (heuristics/pdb/dual.py) has its own too, `search_dual`: the dual positions
of the children both lookups keep are looked up from scratch, every child's before any is searched (pathmax: a child
over the bound by more than 2 puts its parent over), and the children are searched smallest sum first. Tested
against the generic IDA*.
"""

from __future__ import annotations

from collections.abc import Callable

from slidelab.core.control import CHECK_EVERY, Meter
from slidelab.core.errors import BadRequest
from slidelab.heuristics.pdb.files import PackedTable
from slidelab.heuristics.pdb.placement_index import weights
from slidelab.search.contour import INF, deepen
from slidelab.search.duplicate_walks import DUPLICATES

RECURSE_SLACK = 4  # positions with bound - f <= this are searched by the recursive function, without yielding
DUPLICATES_FROM = 12  # boards with fewer cells skip no duplicate walks: their searches are too short to repay the
# automaton's tables (10 ms on 3x3, against a search of a few hundred positions)
COUNT = 1 << 32  # one counter holds expanded * COUNT + generated


STEP = {"U": (-1, 0), "L": (0, -1), "R": (0, 1), "D": (1, 0)}  # the order children are searched in
_MOVE_TABLES: dict[tuple, tuple] = {}  # see _cached_move_tables


def _move_tables(rows, cols, lookups, duplicates):
    """Per blank cell, the children of a start with the blank there, as (nb, children of nb, count, then per lookup
    a per-tile (index change, group, table)), where count adds one expanded position and its children to the
    counter.

    Moves are pruned by a finite-state machine (Taylor and Korf): an Aho-Corasick automaton over the blank's moves
    recognises the end of an undoing pair or of a string of `duplicates` whose smaller twin fits on the board from
    where the string started; such a move is left out. A node of the search is a pair (blank cell, automaton state).
    """
    strings = {a + b: "" for a, b in ("UD", "DU", "LR", "RL")} | duplicates
    goto: list[dict] = [{}]
    ends: list[list] = [[]]  # the trie, and per node the strings it completes (its own and its suffixes')
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

    def per_tile(o, b, nb):
        if o.ranked_tiles:
            return [ranked_step(o, g, t, nb, b) for t, g in enumerate(o.group_of)]
        return [(o.contribution[t][b] - o.contribution[t][nb], g, o.tables[g]) if g >= 0 else (0, 0, b"")
                for t, g in enumerate(o.group_of)]

    steps = {}  # per move b -> nb, the per-tile tables of every lookup (shared by every automaton state)
    todo = [(b, 0) for b in range(rows * cols)]
    children: dict = {key: [] for key in todo}  # (cell, automaton state) -> its children
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
                steps[b, nb] = tuple(per_tile(o, b, nb) for o in lookups)
            children[key].append((nb, children[nb, v], 0, *steps[b, nb]))
    for kids in children.values():  # now that every list is complete: the counts
        kids[:] = [(nb, nxt, COUNT + len(nxt), *per_lookup) for nb, nxt, _, *per_lookup in kids]
    return [children[b, 0] for b in range(rows * cols)]


def ranked_step(o, g, t, a, q):
    """Tile t of ranked group g moving from cell a to cell q (board cells): (the rank's change when no tile of the
    group lies between a and q in the table's frame, g, the table, per tile the change to add when that tile lies
    there, then the board cells in between, padded with a, where t itself still lies and adds nothing (three, four
    on a frame of 5 columns); last, the change of t's Manhattan distance, which a packed table leaves to the search).
    A sideways move in the frame passes over no cell; a vertical one over cols - 1 cells
    (placement_index.rank_change)."""
    n, width = len(o.group_of), max(3, o.cols - 1)  # the cells a vertical move passes over, at least 3
    if g < 0:
        return 0, 0, b"", (0,) * n, *[a] * width, 0
    tiles = o.ranked_tiles[g]
    i, w = tiles.index(t), weights(n, len(tiles))
    fa, fq = o.frame[a], o.frame[q]
    sign = 1 if fq > fa else -1
    correction = [0] * n
    for j, u in enumerate(tiles):
        if u != t:
            correction[u] = sign * (w[j] if j > i else -w[i])
    inverse = {c: p for p, c in enumerate(o.frame)}
    between = [inverse[c] for c in range(min(fa, fq) + 1, max(fa, fq))]
    if width > 4:
        raise ValueError("the ranked kernel follows boards of at most 5 columns")
    return ((fq - fa) * w[i], g, o.tables[g], tuple(correction), *between, *[a] * (width - len(between)),
            o.distance(t, q) - o.distance(t, a))


def rank_step(entry, board):
    """(index change, group, table) of a per-tile entry, ranked or direct, on `board` before the move."""
    d, g, tab, *ranked = entry
    if ranked:
        correction, *between, _ = ranked
        d += sum(correction[board[c]] for c in between)
    return d, g, tab


def h_change(entry, board, ix):
    """How much a per-tile entry's move changes its lookup's sum, on `board` before the move (`ix`: the lookup's
    table indices)."""
    d, g, tab = rank_step(entry, board)
    i = ix[g]
    if isinstance(tab, PackedTable):
        return entry[-1] + 2 * (tab.entry(i + d) - tab.entry(i))
    return tab[i + d] - tab[i]


def _cached_move_tables(puzzle, lookups, prune: bool):
    """`_move_tables` (skipping the duplicate walks when `prune`), kept for the next search with the same board shape
    and lookups (building them takes 10-30 ms, a tenth of a typical 15-puzzle search). The key holds the lookups'
    contents, the tables by identity; the last few are kept."""
    key = (puzzle.rows, puzzle.cols, prune, tuple(o.key for o in lookups))
    roots = _MOVE_TABLES.pop(key, None)
    if roots is None:
        roots = _move_tables(puzzle.rows, puzzle.cols, lookups, DUPLICATES if prune else {})
        while len(_MOVE_TABLES) >= 4:
            del _MOVE_TABLES[next(iter(_MOVE_TABLES))]
    _MOVE_TABLES[key] = roots  # the most recently used last
    return roots


def _root_after(tables, blanks):
    """The children of the last position of a walk of the blank over `blanks` (its start's children when the walk is
    that start alone), with the automaton in the state the walk leaves it in. A walk the automaton would not have
    taken (a duplicate that a search of the whole tree skips) keeps only the rule of never undoing the last move, so
    its subtree is still searched."""
    children = tables[blanks[0]]
    for cell in blanks[1:]:
        children = next((nxt for nb, nxt, *_ in children if nb == cell), None)
        if children is None:
            return tuple(child for child in tables[blanks[-1]] if child[0] != blanks[-2])
    return children


def search_order(puzzle, heuristic, frontier):
    """idastar.search_order for this kernel: where the bound leaves a position room (bound - g - h > RECURSE_SLACK,
    down from the root while it does), `contour` ranks its children by the sum of their lookups, ties in move order;
    below, the recursive search takes them in move order. The subtrees are sorted by those ranks along their paths.
    Positions are looked up only where a rank needs them (near the root: a split is made while the search waits)."""
    orients = heuristic.orientations
    lookups = orients * 2 if len(orients) == 1 else orients
    values: dict = {}  # position -> its lookups' values (the frontier's paths share their first positions)

    def looked_up(position):
        if position not in values:
            values[position] = [o.value(position) for o in lookups]
        return values[position]

    paths = []  # per subtree, per step from the start: (parent, child, the move's order)
    for _, state, came_by, _ in frontier:
        positions = [*came_by, state]
        paths.append([(parent, child, puzzle.neighbours[parent.index(0)].index(child.index(0)))
                      for parent, child in zip(positions, positions[1:], strict=False)])

    def key(index, bound):
        ranks: list = []
        steps = paths[index]
        for g, (parent, child, order) in enumerate(steps):
            if bound - g - max(looked_up(parent)) <= RECURSE_SLACK:  # from here down, children in move order
                return ranks + [(0, order) for _, _, order in steps[g:]]
            ranks.append((sum(looked_up(child)), order))
        return ranks

    return lambda todo, bound: sorted(todo, key=lambda index: key(index, bound))


def pdb_idastar(puzzle, heuristic, limits, all_solutions=False, came_by=(), one_contour=None, resume=None):
    """Search generator: IDA* with a PatternDatabaseHeuristic; returns a SearchResult with optimal moves. `came_by`
    and `one_contour` serve parallel searches (see tile_table_idastar): the duplicate-walk automaton goes on from the
    state the path came by left it in. A subtree's search (`one_contour`) says where it is in its progress events
    ("at"), and `resume` ({"at", "expanded", "generated"} of such an event) goes on from there."""
    meter = Meter(limits)
    stats = meter.stats
    orients = heuristic.orientations
    if len(orients) not in (1, 2, 4):
        raise ValueError("the pattern-database kernel takes one, two or four lookups")
    lookups = orients * 2 if len(orients) == 1 else orients  # one orientation is simply looked up twice
    board = list(puzzle.start)
    b0 = board.index(0)
    prune = not all_solutions and puzzle.size >= DUPLICATES_FROM
    root = _root_after(_cached_move_tables(puzzle, lookups, prune), [p.index(0) for p in came_by] + [b0])
    ixs = [o.indices(board) for o in lookups]  # per lookup, its groups' table indices
    # per lookup, its groups' entries at those indices where the tables are packed (the packed kernel keeps them)
    exs = [[tab.entry(i) for tab, i in zip(o.tables, ix, strict=True)] if o.packed else [] for o, ix in
           zip(lookups, ixs, strict=True)]
    hs0 = [o.value(board) for o in lookups]
    dual = heuristic.dual  # dual lookups (heuristics/pdb/dual.py), made after the others, on the ranked kernel only
    dual_value: Callable[..., int] = dual.value if dual is not None else lambda board, blank=None, enough=0: 0
    start_h = max(hs0) if dual is None else max(*hs0, dual.value(board, b0))
    solutions = []
    path: list = []  # path[lim]: the tile moved into a position whose children must have h <= lim
    nodes = 0  # expanded * COUNT + generated

    def reached(lim) -> bool:
        """The goal was reached by path[lim] (moves path[bound - 1] down to path[lim]): keep the solution; True when
        one is enough and the search stops."""
        solutions.append(path[:lim - 1:-1] if lim else path[::-1])
        return not all_solutions

    if lookups[0].ranked_tiles:
        if len(lookups) != 2:
            raise ValueError("the ranked kernel takes two lookups")
        ix0, ix1 = ixs

        def search_ranked(b, mv, h0, h1, lim):
            """search_two for ranked tables: a move's index change adds what the tiles it passes over shift."""
            nonlocal nodes
            for nb, nxt, count, k0, k1 in mv:
                t = board[nb]
                d, g0, tab, cv, c1, c2, c3, _ = k0[t]
                i0 = ix0[g0]
                x0 = i0 + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]]
                n0 = h0 + tab[x0] - tab[i0]
                if n0 > lim:
                    continue
                d, g1, tab, cv, c1, c2, c3, _ = k1[t]
                i1 = ix1[g1]
                x1 = i1 + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]]
                n1 = h1 + tab[x1] - tab[i1]
                if n1 > lim:
                    continue
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                ix0[g0] = x0
                ix1[g1] = x1
                nodes += count
                if search_ranked(nb, nxt, n0, n1, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0] = i0
                ix1[g1] = i1
            return False

        def search_dual(b, mv, h0, h1, lim):
            """search_ranked with the dual lookups (heuristic.dual) too, made on the children both lookups keep,
            after their move and from scratch (the dual of a child is not one move from its parent's). Every child is
            weighed before any is searched: a child over the bound by more than 2 puts this position over it too
            (bidirectional pathmax: h >= a child's h - 1), and then none is searched."""
            nonlocal nodes
            kept: list[tuple] = []
            for nb, nxt, count, k0, k1 in mv:
                t = board[nb]
                d, g0, tab, cv, c1, c2, c3, _ = k0[t]
                i0 = ix0[g0]
                x0 = i0 + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]]
                n0 = h0 + tab[x0] - tab[i0]
                if n0 > lim:
                    continue
                d, g1, tab, cv, c1, c2, c3, _ = k1[t]
                i1 = ix1[g1]
                x1 = i1 + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]]
                n1 = h1 + tab[x1] - tab[i1]
                if n1 > lim:
                    continue
                board[b] = t
                board[nb] = 0
                hd = dual_value(board, nb, lim + 2)
                board[nb] = t
                board[b] = 0
                if hd > lim:
                    if hd > lim + 2:
                        return False
                    continue
                kept.append((n0 + n1 + hd, len(kept), nb, nxt, count, t, g0, x0, n0, g1, x1, n1))
            kept.sort()
            for _, _, nb, nxt, count, t, g0, x0, n0, g1, x1, n1 in kept:
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                i0, i1 = ix0[g0], ix1[g1]
                ix0[g0] = x0
                ix1[g1] = x1
                nodes += count
                if search_dual(nb, nxt, n0, n1, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0] = i0
                ix1[g1] = i1
            return False

        ex0, ex1 = exs
        bs0, bs1 = ([tab.bases for tab in o.tables] if o.packed else [] for o in lookups)

        def search_packed(b, mv, h0, h1, lim):
            """search_ranked for packed tables (files.PackedTable): an entry, the halved excess over the group's
            Manhattan distance (whose change the move's entry carries), is its block's base (bs0, bs1; the block:
            rank >> frames.PACKED_SHIFT, 6) and 2 bits; each group's current entry is kept (ex0, ex1) beside its
            index."""
            nonlocal nodes
            for nb, nxt, count, k0, k1 in mv:
                t = board[nb]
                d, g0, tab, cv, c1, c2, c3, dm = k0[t]
                x0 = ix0[g0] + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]]
                e0 = bs0[g0][x0 >> 6] + (tab[x0 >> 2] >> (x0 << 1 & 6) & 3)
                n0 = h0 + dm + (e0 - ex0[g0]) * 2
                if n0 > lim:
                    continue
                d, g1, tab, cv, c1, c2, c3, dm = k1[t]
                x1 = ix1[g1] + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]]
                e1 = bs1[g1][x1 >> 6] + (tab[x1 >> 2] >> (x1 << 1 & 6) & 3)
                n1 = h1 + dm + (e1 - ex1[g1]) * 2
                if n1 > lim:
                    continue
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                i0, f0, i1, f1 = ix0[g0], ex0[g0], ix1[g1], ex1[g1]
                ix0[g0], ex0[g0], ix1[g1], ex1[g1] = x0, e0, x1, e1
                nodes += count
                if search_packed(nb, nxt, n0, n1, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0], ex0[g0], ix1[g1], ex1[g1] = i0, f0, i1, f1
            return False

        def search_wide(b, mv, h0, h1, lim):
            """search_ranked on a frame of 5 columns (the 24-puzzle's), where a vertical move passes over four
            cells: kept apart so that the 15-puzzle's search pays for no fourth (docs/benchmarks.md)."""
            nonlocal nodes
            for nb, nxt, count, k0, k1 in mv:
                t = board[nb]
                d, g0, tab, cv, c1, c2, c3, c4, _ = k0[t]
                i0 = ix0[g0]
                x0 = i0 + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]] + cv[board[c4]]
                n0 = h0 + tab[x0] - tab[i0]
                if n0 > lim:
                    continue
                d, g1, tab, cv, c1, c2, c3, c4, _ = k1[t]
                i1 = ix1[g1]
                x1 = i1 + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]] + cv[board[c4]]
                n1 = h1 + tab[x1] - tab[i1]
                if n1 > lim:
                    continue
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                ix0[g0] = x0
                ix1[g1] = x1
                nodes += count
                if search_wide(nb, nxt, n0, n1, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0] = i0
                ix1[g1] = i1
            return False

        def search_wide_packed(b, mv, h0, h1, lim):
            """search_packed on a frame of 5 columns: the 24-puzzle's tables as the browser holds them."""
            nonlocal nodes
            for nb, nxt, count, k0, k1 in mv:
                t = board[nb]
                d, g0, tab, cv, c1, c2, c3, c4, dm = k0[t]
                x0 = ix0[g0] + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]] + cv[board[c4]]
                e0 = bs0[g0][x0 >> 6] + (tab[x0 >> 2] >> (x0 << 1 & 6) & 3)
                n0 = h0 + dm + (e0 - ex0[g0]) * 2
                if n0 > lim:
                    continue
                d, g1, tab, cv, c1, c2, c3, c4, dm = k1[t]
                x1 = ix1[g1] + d + cv[board[c1]] + cv[board[c2]] + cv[board[c3]] + cv[board[c4]]
                e1 = bs1[g1][x1 >> 6] + (tab[x1 >> 2] >> (x1 << 1 & 6) & 3)
                n1 = h1 + dm + (e1 - ex1[g1]) * 2
                if n1 > lim:
                    continue
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                i0, f0, i1, f1 = ix0[g0], ex0[g0], ix1[g1], ex1[g1]
                ix0[g0], ex0[g0], ix1[g1], ex1[g1] = x0, e0, x1, e1
                nodes += count
                if search_wide_packed(nb, nxt, n0, n1, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0], ex0[g0], ix1[g1], ex1[g1] = i0, f0, i1, f1
            return False

        if dual is not None:
            if lookups[0].packed or lookups[0].cols > 4:
                raise ValueError("dual lookups are searched with mapped or decoded tables, on at most 4 columns")
            search: Callable[..., bool] = search_dual
        elif lookups[0].cols > 4:
            search = search_wide_packed if lookups[0].packed else search_wide
        else:
            search = search_packed if lookups[0].packed else search_ranked
    elif len(lookups) == 2:
        ix0, ix1 = ixs

        def search_two(b, mv, h0, h1, lim):
            """Search below the position (blank on b, children mv, sums h0 and h1 of both lookups) whose children need
            h <= lim; True when a solution was found and one is enough (the search then stops: nothing is undone), else
            the board and indices are left as they were."""
            nonlocal nodes
            for nb, nxt, count, k0, k1 in mv:
                t = board[nb]
                d, g0, tab = k0[t]
                i0 = ix0[g0]
                x0 = i0 + d
                n0 = h0 + tab[x0] - tab[i0]
                if n0 > lim:
                    continue
                d, g1, tab = k1[t]
                i1 = ix1[g1]
                x1 = i1 + d
                n1 = h1 + tab[x1] - tab[i1]
                if n1 > lim:
                    continue
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                ix0[g0] = x0
                ix1[g1] = x1
                nodes += count
                if search_two(nb, nxt, n0, n1, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0] = i0
                ix1[g1] = i1
            return False

        search = search_two
    else:
        ix0, ix1, ix2, ix3 = ixs

        def search_four(b, mv, h0, h1, h2, h3, lim):
            """The same with four lookups, each child's made in turn until one prunes it."""
            nonlocal nodes
            for nb, nxt, count, k0, k1, k2, k3 in mv:
                t = board[nb]
                d, g0, tab = k0[t]
                i0 = ix0[g0]
                x0 = i0 + d
                n0 = h0 + tab[x0] - tab[i0]
                if n0 > lim:
                    continue
                d, g1, tab = k1[t]
                i1 = ix1[g1]
                x1 = i1 + d
                n1 = h1 + tab[x1] - tab[i1]
                if n1 > lim:
                    continue
                d, g2, tab = k2[t]
                i2 = ix2[g2]
                x2 = i2 + d
                n2 = h2 + tab[x2] - tab[i2]
                if n2 > lim:
                    continue
                d, g3, tab = k3[t]
                i3 = ix3[g3]
                x3 = i3 + d
                n3 = h3 + tab[x3] - tab[i3]
                if n3 > lim:
                    continue
                path[lim] = t
                if n0 == 0:
                    if reached(lim):
                        return True
                    continue
                board[b] = t
                board[nb] = 0
                ix0[g0] = x0
                ix1[g1] = x1
                ix2[g2] = x2
                ix3[g3] = x3
                nodes += count
                if search_four(nb, nxt, n0, n1, n2, n3, lim - 1):
                    return True
                board[nb] = t
                board[b] = 0
                ix0[g0] = i0
                ix1[g1] = i1
                ix2[g2] = i2
                ix3[g3] = i3
            return False

        search = search_four

    def ranked(mv, hs, lim):
        """The children of the position (children mv, sums hs) whose lookups all stay within lim, as a list of
        (tile, sums, child), the smallest sum of every lookup first (ties in move order): this only changes where the
        last iteration finds its solution (the loop's version of the searches' unrolled lookups)."""
        kids: list = []
        for child in mv:
            t = board[child[0]]
            sums = []
            for k, ix, h in zip(child[3:], ixs, hs, strict=True):
                h += h_change(k[t], board, ix)
                if h > lim:
                    break
                sums.append(h)
            else:
                kids.append((sum(sums), len(kids), t, sums, child))
        kids.sort()
        return [kid[2:] for kid in kids]

    def shift(t, per_lookup, sign):
        """Move tile t's index change into (sign 1) or out of (sign -1) its group in every lookup."""
        for k, ix, ex in zip(per_lookup, ixs, exs, strict=True):
            d, g, tab = rank_step(k[t], board)
            ix[g] += sign * d
            if ex:
                ex[g] = tab.entry(ix[g])

    def enter(frames, kid) -> None:
        """Make the move to the child `kid` of the last frame's position and push its frame."""
        b, _, _, lim, _ = frames[-1]
        t, sums, (nb, nxt, _, *per_lookup) = kid
        path[lim] = t
        board[b] = t
        board[nb] = 0
        shift(t, per_lookup, 1)
        frames.append([nb, ranked(nxt, sums, lim - 1), 0, lim - 1, (t, b, nb, per_lookup)])

    def resumed(frames, at) -> None:
        """Rebuild the frames down the path `at` (a progress event's: the child taken at each frame, then the next
        child to search in the last), the search as it was when it reported it: every child before it searched."""
        for depth, index in enumerate(at):
            kids = frames[-1][1]
            last = depth == len(at) - 1
            if not isinstance(index, int) or not 0 <= index <= len(kids) - (not last):
                raise BadRequest("the place a running subtree's search had reached is not in its tree: the "
                                 "checkpoint is damaged or of another version")
            frames[-1][2] = index + (not last)
            if not last:
                _, sums, _ = kids[index]
                if frames[-1][3] - max(sums) <= RECURSE_SLACK:
                    raise BadRequest("the place a running subtree's search had reached is deeper than its frames: "
                                     "the checkpoint is damaged or of another version")
                enter(frames, kids[index])

    def contour(bound):
        """One contour; returns bound + 1 when it cut anything off, else INF (table entries have the parity of the
        Manhattan distance, so every f has the bound's parity and `next_bound` makes that bound + 2). A subtree's
        search (`one_contour`) reports with its progress where it is (`at`, the path of its frames: see `resumed`),
        and `resume` (a progress event's "at", "expanded" and "generated") goes on from there."""
        nonlocal nodes
        path[:] = [0] * bound
        it_start = nodes
        nodes += COUNT + len(root)  # the root
        next_check = (nodes >> 32) + CHECK_EVERY
        found = False
        # the loop for positions with room to spare, a frame each: [b, its ranked children, the index of the next
        # one to search, lim, the move that made it (None at the root)]
        frames: list = []
        if bound - start_h <= RECURSE_SLACK and resume is None:
            found = search(b0, root, *hs0, bound - 1)
        else:
            frames.append([b0, ranked(root, hs0, bound - 1), 0, bound - 1, None])
        if resume is not None:
            resumed(frames, resume["at"])
            nodes = it_start + resume["expanded"] * COUNT + resume["generated"]
        while frames:
            frame = frames[-1]
            b, kids, index, lim, undo = frame
            while index < len(kids):
                t, sums, (nb, nxt, count, *per_lookup) = kids[index]
                index += 1
                path[lim] = t
                if sums[0] == 0:
                    if not reached(lim):
                        continue
                    found = True
                    break
                board[b] = t
                board[nb] = 0
                if dual is not None and dual_value(board, nb, lim) > lim:
                    board[nb] = t
                    board[b] = 0
                    continue
                shift(t, per_lookup, 1)
                nodes += count
                if lim - max(sums) > RECURSE_SLACK:
                    frame[2] = index
                    frames.append([nb, ranked(nxt, sums, lim - 1), 0, lim - 1, (t, b, nb, per_lookup)])
                    break
                found = search(nb, nxt, *sums, lim - 1)
                if found:  # the search stops where it is (the board is not needed again)
                    break
                board[nb] = t
                board[b] = 0
                shift(t, per_lookup, -1)
                if nodes >> 32 >= next_check:
                    next_check = (nodes >> 32) + CHECK_EVERY
                    if meter.due(nodes >> 32):
                        stats.expanded, stats.generated = nodes >> 32, nodes & (COUNT - 1)
                        frame[2] = index
                        at = {} if one_contour is None else {"at": [f[2] - 1 for f in frames[:-1]] + [index]}
                        yield meter.progress(stored=bound - lim + 1, bound=bound, **at)
            else:
                frames.pop()
                if undo:
                    t, b, nb, per_lookup = undo
                    board[nb] = t
                    board[b] = 0
                    shift(t, per_lookup, -1)
                continue
            if found:
                break
        expanded, generated = nodes >> 32, nodes & (COUNT - 1)
        stats.expanded, stats.generated = expanded, generated
        if not solutions:
            meter.due(expanded)  # the limits, once per contour as well (the recursive searches never look)
        every_child_searched = generated - (it_start & (COUNT - 1)) == expanded - (it_start >> 32) - 1
        return INF if every_child_searched else bound + 1

    return (yield from deepen(contour, start_h, puzzle.solution_parity(), meter, solutions, all_solutions,
                              start_h == 0, one_contour))
