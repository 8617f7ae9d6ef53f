"""The pattern-database builder vectorised with numpy: the same bytes as builder.build_table, several times faster.

Build time only (the `build` extra): it is left out of the browser's wheel, and everything works without it.
"""

from __future__ import annotations

import numpy as np

from ...puzzles.sliding import neighbours
from .frames import group_manhattan, placements


def build_table_numpy(rows, cols, cells, progress=None) -> bytes:
    """The same table as `build_table`, computed with numpy (build time only; several times faster).

    A breadth-first search over (placement, blank cell), level by level: each level is first closed under the
    blank's free moves, then every move of a group tile into the blank starts the next level.
    """
    n = rows * cols
    k = len(cells)
    nbrs = neighbours(rows, cols)
    weights = np.array([n ** i for i in range(k)], dtype=np.int64)
    size = n ** k
    total = placements(n, k)
    step = np.full((n, 4), -1, dtype=np.int64)
    for p, ns in enumerate(nbrs):
        step[p, :len(ns)] = ns
    dist = np.full(size, 255, dtype=np.uint8)
    seen = np.zeros(size * n, dtype=bool)
    start = int(sum(c * n ** i for i, c in enumerate(cells)))
    level = np.array([start * n + b for b in range(n) if b not in cells], dtype=np.int64)
    seen[level] = True

    def cells_of(codes):
        idx, blank = np.divmod(codes, n)
        return idx, blank, [(idx // weights[i]) % n for i in range(k)]

    def close(codes):
        """codes (distinct, marked seen) plus every state reachable from them by free blank moves, marked seen."""
        parts = [codes]
        new = codes
        while new.size:
            idx, blank, pos = cells_of(new)
            found = []
            for d in range(4):
                nb = step[blank, d]
                ok = nb >= 0
                for p in pos:
                    ok &= p != nb
                cand = idx[ok] * n + nb[ok]  # distinct: one direction never merges two states
                cand = cand[~seen[cand]]
                seen[cand] = True
                found.append(cand)
            new = np.concatenate(found)
            parts.append(new)
        return np.concatenate(parts)

    depth = 0
    level = close(level)
    dist[level // n] = 0
    reached = int(np.count_nonzero(dist != 255))
    while level.size:
        depth += 1
        if depth > 255:
            raise OverflowError("pattern-database distance does not fit in a byte")
        idx, blank, pos = cells_of(level)
        found = []
        for d in range(4):
            nb = step[blank, d]
            for i, p in enumerate(pos):
                hit = p == nb
                cand = (idx[hit] + (blank[hit] - nb[hit]) * weights[i]) * n + nb[hit]  # distinct, as above
                cand = cand[~seen[cand]]
                seen[cand] = True
                found.append(cand)
        seeds = np.concatenate(found)
        level = close(seeds) if seeds.size else seeds
        reached_idx = level // n
        fresh = reached_idx[dist[reached_idx] == 255]
        dist[fresh] = depth
        reached = int(np.count_nonzero(dist != 255))
        if progress is not None:
            progress(reached, total)
    unused = dist == 255
    dist[unused] = np.frombuffer(group_manhattan(rows, cols, cells), dtype=np.uint8)[unused]
    return dist.tobytes()


def ranked_table(np, index, record):
    """The ranked table from a finished depth record: per placement, its smallest depth over the blank's regions
    (every placement is reached: the blank's moves are free and the tiles' moves reversible)."""
    table = index.block(record, 0).copy()
    for b in range(1, index.size):
        np.minimum(table, index.block(record, b), out=table)
    return table


def build_ranked_numpy(np, rows, cols, cells, progress=None):
    """The ranked table (placement_index.py) of the tiles whose goal cells are `cells`: one byte per placement, a
    numpy array. The breadth-first search runs on the explore engine's level loop; `progress(done, total)` gets the
    positions reached and the number of (placement, region) offsets."""
    from ...search.control import Limits, Meter, Stats
    from ...search.indexed_explore import levels
    from .placement_index import PlacementIndex

    index = PlacementIndex(np, rows, cols, cells)
    meter = Meter(Limits(), Stats(stored=1))
    search = levels(np, index, index.starts(), meter)
    try:
        while True:
            event = next(search)
            if progress is not None:
                progress(event["stored"], index.total)
    except StopIteration as stop:
        record, _ = stop.value
    return ranked_table(np, index, record)
