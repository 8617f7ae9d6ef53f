"""Admissible lower bounds for token puzzles, from shortest distances in the move graph (other pieces ignored).

- nearest: the sum over pieces of the distance to the nearest goal cell of the piece's letter;
- matching: per letter, the least total distance over every one-to-one assignment of its pieces to its goal cells
  (an optimal assignment, found by the Hungarian method); never below `nearest`.

Why they are admissible: a move takes one piece along one edge, and in any solution every piece ends on a goal cell
of its letter, distinct pieces of a letter on distinct cells. So the solution has at least the sum over pieces of the
distance to where each ends, which is at least the cheapest assignment, which is at least the sum of the distances to
the nearest goal cells. Both are also consistent: one move changes one piece's distance to any cell by at most one,
so either bound changes by at most one per move.

Evaluation is by tables: the packed state is cut into chunks of a few cells (at most CHUNK_BITS bits), and a table
per chunk, indexed by the chunk's bits, holds the chunk's share (a sum of distances for `nearest`; the cells of each
letter as bit masks for `matching`, whose per-letter costs are then memoised by mask).
"""

from __future__ import annotations

from functools import lru_cache

CHUNK_BITS = 12  # each chunk table has at most 2**12 entries
MEMO_LIMIT = 1 << 16  # per-letter assignment costs kept before the memo is emptied


def graph_distances(neighbours) -> list[list[int]]:
    """dist[a][b]: the fewest moves from cell a to cell b of a move graph, other pieces ignored (the number of
    cells when b is out of reach)."""
    size = len(neighbours)
    result = []
    for a in range(size):
        dist = [size] * size
        dist[a] = 0
        frontier = [a]
        while frontier:
            following = []
            for p in frontier:
                for q in neighbours[p]:
                    if dist[q] == size:
                        dist[q] = dist[p] + 1
                        following.append(q)
            frontier = following
        result.append(dist)
    return result


def goal_cells(labels: str, goal: str) -> list[list[int]]:
    """For each piece letter's code 1..K (index 0 unused), the cells it occupies in the goal's cell characters."""
    cells: list[list[int]] = [[] for _ in range(len(labels) + 1)]
    for p, ch in enumerate(goal):
        if ch in labels:
            cells[labels.index(ch) + 1].append(p)
    return cells


def min_assignment(cost) -> int:
    """The least total cost of a one-to-one assignment of rows to columns of a square matrix (Hungarian method)."""
    n = len(cost)
    u: list[float] = [0] * (n + 1)
    v: list[float] = [0] * (n + 1)
    owner, way = [0] * (n + 1), [0] * (n + 1)  # owner[j]: the row assigned to column j (1-based, 0 none)
    for i in range(1, n + 1):
        owner[0] = i
        j0 = 0
        slack = [float("inf")] * (n + 1)
        used = [False] * (n + 1)
        while owner[j0]:
            used[j0] = True
            i0, delta, j1 = owner[j0], float("inf"), 0
            row = cost[i0 - 1]
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = row[j - 1] - u[i0] - v[j]
                    if reduced < slack[j]:
                        slack[j], way[j] = reduced, j0
                    if slack[j] < delta:
                        delta, j1 = slack[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]] += delta
                    v[j] -= delta
                else:
                    slack[j] -= delta
            j0 = j1
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    return int(-v[0])


def _chunk_tables(size, bits, letters, value):
    """[(shift, table)] per chunk of cells: table[x] is the sum of value(cell, letter code) over the chunk's pieces
    (letter codes 1..letters; higher codes never occur)."""
    mask = (1 << bits) - 1
    per = max(1, CHUNK_BITS // bits)
    chunks = []
    for first in range(0, size, per):
        table = [0]
        for p in reversed(range(first, min(first + per, size))):
            row = [value(p, k) if 0 < k <= letters else 0 for k in range(mask + 1)]
            table = [row[x & mask] + table[x >> bits] for x in range(len(table) << bits)]
        chunks.append((first * bits, table))
    return chunks


def _chunk_sum(chunks):
    """A function state -> the sum of every chunk table's entry for the state (unrolled for one or two chunks)."""
    if len(chunks) == 1:
        table = chunks[0][1]
        return lambda state: table[state]
    if len(chunks) == 2:
        (_, low), (shift, high) = chunks
        low_mask = (1 << shift) - 1
        return lambda state: low[state & low_mask] + high[state >> shift]
    mask = (1 << chunks[1][0]) - 1  # every chunk but the last is this wide; the last one's higher bits are zero
    return lambda state: sum([table[(state >> shift) & mask] for shift, table in chunks])


def _named(name, h):
    """The function h as an Estimator (heuristics/__init__.py): named, for the generic search."""
    h.name = name
    h.kernel = None
    return h


def zero(puzzle):
    """h = 0 for token puzzles."""
    return _named("zero", lambda state: 0)


def _board(puzzle):
    """What a token heuristic depends on, hashable: move graph, bits per cell, piece labels, goal cells. Estimators
    are cached by it, so repeated requests for one board share their tables and memos."""
    return puzzle.neighbours, puzzle.bits, puzzle.labels, puzzle.cells(puzzle.goal)


def nearest(puzzle):
    """Sum over pieces of the distance to the nearest goal cell of the piece's letter."""
    return _nearest(*_board(puzzle))


def matching(puzzle):
    """Sum over letters of the least total distance of a one-to-one assignment of pieces to goal cells."""
    return _matching(*_board(puzzle))


@lru_cache(maxsize=16)
def _nearest(neighbours, bits, labels, goal):
    dist = graph_distances(neighbours)
    targets = goal_cells(labels, goal)
    size = len(neighbours)
    tables = _chunk_tables(size, bits, len(labels), lambda p, k: min((dist[p][g] for g in targets[k]), default=size))
    return _named("nearest", _chunk_sum(tables))


@lru_cache(maxsize=16)
def _matching(neighbours, bits, labels, goal):
    dist = graph_distances(neighbours)
    targets = goal_cells(labels, goal)
    size = len(neighbours)
    full = (1 << size) - 1
    letter_masks = _chunk_sum(_chunk_tables(size, bits, len(labels), lambda p, k: 1 << ((k - 1) * size + p)))
    letters: list = []
    for k in range(1, len(targets)):
        cost_rows = [[dist[p][g] for g in targets[k]] for p in range(size)]
        letters.append(((k - 1) * size, {}, cost_rows))

    def assignment_cost(mask, memo, cost_rows):
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        cells = [p for p in range(size) if mask >> p & 1]
        cost = memo[mask] = min_assignment([cost_rows[p] for p in cells])
        return cost

    def h(state):
        masks = letter_masks(state)
        total = 0
        for shift, memo, cost_rows in letters:
            mask = (masks >> shift) & full
            cost = memo.get(mask)
            total += assignment_cost(mask, memo, cost_rows) if cost is None else cost
        return total

    return _named("matching", h)

