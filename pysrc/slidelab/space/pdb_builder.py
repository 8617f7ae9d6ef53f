"""Building a pattern-database table in pure Python: a breadth-first search over the placements of a group's
tiles, the blank's moves free (pdb_builder_numpy.py computes the same bytes faster at build time, when numpy is there).
"""

from __future__ import annotations

from array import array

from slidelab.core.errors import BadRequest
from slidelab.core.extras import installed
from slidelab.core.puzzles.sliding import neighbours
from slidelab.heuristics.pdb.frames import QUICK_BUILD_PATTERNS, group_manhattan, placements


def _component(free, start, nbrs):
    """Bit mask of the free cells connected to `start` (itself free)."""
    comp = 1 << start
    todo = [start]
    while todo:
        p = todo.pop()
        for q in nbrs[p]:
            bit = 1 << q
            if free & bit and not comp & bit:
                comp |= bit
                todo.append(q)
    return comp


def build_table(rows, cols, cells, progress=None) -> bytes:
    """The table for the tiles whose goal cells are `cells` (in order) on a rows x cols board.

    A breadth-first search from the goal placement over (placement, region of the blank): moving the blank within its
    region of free cells costs nothing, so a node is a placement plus the region's lowest cell, and each edge is one
    move of a group tile into the blank's region. `progress(done, total)` is called now and then with placements
    reached so far.
    """
    n = rows * cols
    k = len(cells)
    if not 0 < k < n or len(set(cells)) != k or not all(0 <= c < n for c in cells):
        raise BadRequest(f"bad pattern-database group {cells} for a {rows}x{cols} board")
    nbrs = neighbours(rows, cols)
    weights = [n ** i for i in range(k)]
    size = n ** k
    total = placements(n, k)
    dist = bytearray(group_manhattan(rows, cols, cells))  # unused entries keep these values
    seen = array("Q" if n > 32 else "L" if n > 16 else "H", bytes(size * (8 if n > 32 else 4 if n > 16 else 2)))
    full = (1 << n) - 1
    region_of: dict[tuple[int, int], int] = {}  # (occupied, cell) -> lowest cell of the blank's region
    # (occupied, region low cell) -> per cell, the cells of the region a tile there can move to
    moves_of: dict[int, tuple] = {}

    def region(occ, cell):
        key = occ * n + cell
        low = region_of.get(key)
        if low is None:
            comp = _component(full ^ occ, cell, nbrs)
            low = (comp & -comp).bit_length() - 1
            c = comp
            while c:
                bit = c & -c
                region_of[occ * n + bit.bit_length() - 1] = low
                c ^= bit
        return low

    def moves(occ, low):
        key = occ * n + low
        result = moves_of.get(key)
        if result is None:
            comp = _component(full ^ occ, low, nbrs)
            result = tuple(tuple(q for q in nbrs[p] if comp >> q & 1) if occ >> p & 1 else () for p in range(n))
            moves_of[key] = result
        return result

    start = sum(c * w for c, w in zip(cells, weights, strict=True))
    occ0 = sum(1 << c for c in cells)
    frontier = []
    for p in range(n):
        if not occ0 >> p & 1:
            low = region(occ0, p)
            if not seen[start] >> low & 1:
                seen[start] |= 1 << low
                frontier.append(start * n + low)
    reached = 1
    depth = 0
    while frontier:
        depth += 1
        if depth > 255:
            raise OverflowError("pattern-database distance does not fit in a byte")
        nxt: list[int] = []
        append = nxt.append
        for code in frontier:
            idx, low = divmod(code, n)
            x = idx
            occ = 0
            pos = []
            for _ in range(k):
                x, p = divmod(x, n)
                pos.append(p)
                occ |= 1 << p
            targets = moves(occ, low)
            for i in range(k):
                p = pos[i]
                for q in targets[p]:
                    nidx = idx + (q - p) * weights[i]
                    nocc = occ ^ (1 << p) ^ (1 << q)
                    nlow = region_of.get(nocc * n + p)
                    if nlow is None:
                        nlow = region(nocc, p)
                    bit = 1 << nlow
                    s = seen[nidx]
                    if not s & bit:
                        seen[nidx] = s | bit
                        append(nidx * n + nlow)
                        if not s:
                            dist[nidx] = depth
                            reached += 1
        frontier = nxt
        if progress is not None:
            progress(reached, total)
    return bytes(dist)


def build(rows, cols, cells, progress=None) -> bytes:
    """The table: large ones by numpy when it is installed, else in pure Python (the same bytes)."""
    if placements(rows * cols, len(cells)) > QUICK_BUILD_PATTERNS and installed("numpy") is not None:
        from slidelab.space.pdb_builder_numpy import build_table_numpy  # not shipped to the browser: build time only
        return build_table_numpy(rows, cols, cells, progress)
    return build_table(rows, cols, cells, progress)
