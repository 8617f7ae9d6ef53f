"""The pattern-database builder vectorised with numpy: the same bytes as builder.build_table, several times faster.

Build time only (the `build` extra): it is left out of the browser's wheel, and everything works without it.
"""

from __future__ import annotations

import numpy as np

from slidelab.core.puzzles.sliding import neighbours
from slidelab.heuristics.pdb.frames import group_manhattan, placements


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


def ranked_table(record, blocks):
    """The ranked table of a finished depth record of `blocks` blocks (the whole record, or one partition's): per
    placement, its smallest depth over the blank's regions (every placement is reached: the blank's moves are free
    and the tiles' moves reversible)."""
    return record.reshape(blocks, -1).min(axis=0)


def _run(search, progress, total):
    """Run a level search generator (control.run), telling `progress(positions reached, total)`."""
    from slidelab.core.control import run

    return run(search, None if progress is None else lambda event: progress(event["stored"], total))


def build_ranked_numpy(rows, cols, cells, progress=None, blank=0):
    """The ranked table (placement_index.py) of the tiles whose goal cells are `cells`: one byte per placement, a
    numpy array. The breadth-first search runs on the explore engine's level loop (space/indexed_explore.py);
    `progress(done, total)` gets the positions reached and the number of (placement, region) offsets. The goal has
    the blank on cell `blank` (the canonical frame's corner; None: anywhere, as the direct tables have it)."""
    from slidelab.core.control import Counts, Limits, Meter
    from slidelab.heuristics.pdb.placement_index import PlacementIndex
    from slidelab.space.indexed_explore import levels

    index = PlacementIndex(np, rows, cols, cells, blank)
    record, _ = _run(levels(np, index, index.starts(), Meter(Limits(), Counts(stored=1))), progress, index.total)
    return ranked_table(record, index.size)


def build_ranked_dask(rows, cols, cells, scheduler=None, workers=2, progress=None, partitions=None, blank=0):
    """The same table built on a Dask cluster by the Dask explore's level engine (space/dask_explore.py): the
    placements' ranks are cut into partitions, each with its record on one worker; each worker then reduces its
    partitions to their slices of the table. `scheduler` is a running cluster's address (else a local cluster of
    `workers` processes is started for the build)."""
    from slidelab.core.cluster import dask_client
    from slidelab.core.control import Counts, Limits, Meter
    from slidelab.core.extras import require
    from slidelab.space.dask_explore import Levels

    require("building pattern databases on Dask", "numpy", "distributed")
    with dask_client(scheduler, workers, "building pattern databases on Dask") as client:
        levels = Levels(client, ("placements", rows, cols, (tuple(cells), blank)), partitions)
        index = levels.index
        _run(levels.search(index.starts(), Meter(Limits(), Counts(stored=1))), progress, index.total)
        slices = [levels.submit(f"table-{p}", p, ranked_table, levels.records[p], index.size)
                  for p in range(levels.count)]
        return np.concatenate([levels.fetch(future) for future in slices])
