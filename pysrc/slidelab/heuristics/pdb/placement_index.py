"""The ranked index of a pattern's placements, and the breadth-first search that fills a large table (numpy).

A table of k tiles on n cells indexed directly (`sum(cell_i * n**i)`) has n**k entries: 4.3 G for 8 tiles on the
15-puzzle. Ranked, it has only the n!/(n-k)! placements (519 M for 8 tiles, 57.7 M for 7): the rank of a placement
(p_0 .. p_k-1) is the mixed-radix number of the digits d_i = p_i - (how many of p_0 .. p_i-1 are below p_i), digit i
in base n - i, the first most significant. The search kernel keeps the rank up to date move by move (see
`rank_change`): a sideways move changes one digit by one; a vertical one also shifts the digits of the tiles it
passes over.

The search that fills such a table runs on the explore engine's level loop (space/indexed_explore.py, and
space/dask_explore.py on a cluster): a position is a placement with the blank's *region* (the free cells the blank can
reach without moving a pattern tile, which costs nothing), numbered by the order of the region's lowest cell among
the free cells. So the depth record holds (n - k) blocks of one byte per rank, and a placement's entry is the smallest
depth over its blocks. Lookup tables over the sets of occupied cells give a region, its block and the d-th free cell
in one read each, so a level is a few dozen numpy operations per chunk of positions: every set (2**n rows, the mask
its own row) on boards of up to 16 cells; on larger ones only the sets of at most k cells, a pattern's (245,506 rows
for 6 tiles on 5x5, 25 s to make), each found by a sorted search.
"""

from __future__ import annotations

import functools
import itertools
import math

from slidelab.core.puzzles.sliding import neighbours

FULL_MASKS_UP_TO = 16  # boards of up to this many cells keep their tables over every set of cells (2**16 rows)


@functools.cache
def weights(n, k) -> tuple[int, ...]:
    """The place value of each digit of a rank: W_i = (n-i-1)!/(n-k)!."""
    return tuple(math.perm(n - i - 1, k - i - 1) for i in range(k))


def rank_of(n, cells) -> int:
    """The rank of the placement with tile i on cells[i]."""
    rank, used = 0, 0
    for p, w in zip(cells, weights(n, len(cells)), strict=True):
        rank += (p - (used & ((1 << p) - 1)).bit_count()) * w
        used |= 1 << p
    return rank


def cells_of(n, k, rank) -> list[int]:
    """The placement (cell of each tile) of `rank`."""
    cells, used = [], 0
    for i, w in enumerate(weights(n, k)):
        d = rank // w % (n - i)
        p = next(p for p in range(n) if not used >> p & 1 and (d := d - 1) < 0)
        cells.append(p)
        used |= 1 << p
    return cells


def rank_change(n, k, i, a, q, others):
    """How the rank changes when tile i moves from cell a to cell q, `others` giving the other tiles' cells by tile
    (None for tile i): digit i changes by the cells passed over, and each later tile passed over shifts by one."""
    w = weights(n, k)
    lo, hi = min(a, q), max(a, q)
    sign = 1 if q > a else -1
    change = (q - a) * w[i]
    for j, p in enumerate(others):
        if j != i and lo < p < hi:
            change += sign * (w[j] if j > i else -w[i])
    return change


def manhattan_by_rank(rows, cols, cells, np=None) -> bytes:
    """The group's Manhattan distance at every rank, without unranking: in pure Python one join per tile (the last
    two tiles in one: about 1 s for a 7-tile table), or with numpy (`np`) the same steps on arrays (the 8-tile table's
    519 million entries in seconds)."""
    return b"".join(manhattan_blocks(rows, cols, cells, np))


def manhattan_blocks(rows, cols, cells, np=None):
    """`manhattan_by_rank` in rows * cols blocks of consecutive ranks, one per cell of the first tile, in rank order:
    a decoder holds one block's temporaries at a time, not the whole table's (in the browser a worker's memory never
    shrinks back from its peak).

    Ranks are ordered by the first tile's cell, then the second's among the cells left, and so on: so the distances
    of the first i + 1 tiles are those of the first i, each repeated once per cell left, plus, per placement of the
    first i tiles, the (i+1)-th tile's distance on each cell left (one piece of bytes per set of used cells)."""
    n = rows * cols
    dist = [[abs(p // cols - c // cols) + abs(p % cols - c % cols) for p in range(n)] for c in cells]
    if np is not None:
        # used cells -> free cells: a row per mask, or on larger boards per mask of fewer than k cells (mask_rows)
        masks = None if n <= FULL_MASKS_UP_TO else _masks_of_at_most(np, n, len(cells) - 1)
        free = [[p for p in range(n) if not m >> p & 1] for m in (range(1 << n) if masks is None else masks.tolist())]
        left_cells = np.array([f + [0] * (n - len(f)) for f in free], dtype=np.int64)
    for first in range(n):
        yield _numpy_block(np, dist, first, left_cells, masks) if np is not None else _block(n, dist, first)


def mask_rows(np, masks, used):
    """The rows of sets of occupied cells (bit masks `used`) in tables kept for the sorted `masks` only, or, where
    `masks` is None, a row for every set: the masks themselves."""
    return used if masks is None else np.searchsorted(masks, used)


def _masks_of_at_most(np, n, most):
    """Every set of at most `most` of n cells, as bit masks, sorted."""
    return np.array(sorted(sum(1 << p for p in cells) for size in range(most + 1)
                           for cells in itertools.combinations(range(n), size)), dtype=np.int64)


def _numpy_block(np, dist, first, left_cells, masks) -> bytes:
    values, used = np.full(1, dist[0][first], dtype=np.uint8), np.full(1, 1 << first, dtype=np.int64)
    for i, tile in enumerate(dist[1:], 1):
        # per placement of the first i tiles, its free cells
        cells_left = left_cells[mask_rows(np, masks, used)][:, :len(left_cells[0]) - i]
        values = np.repeat(values, cells_left.shape[1]) + np.array(tile, dtype=np.uint8)[cells_left].ravel()
        if i + 1 < len(dist):
            used = (used[:, None] | (np.int64(1) << cells_left)).ravel()
    return values.tobytes()


def _block(n, dist, first) -> bytes:
    # The last two tiles go together: their distances over every placement on the cells left depend only on the set
    # of cells the others use (4,368 sets for a 7-tile table), so the costly steps run over 16 times fewer placements.
    head = max(len(dist) - 2, 0)
    values, masks = bytes([dist[0][first]]), [1 << first]  # per placement of the first i tiles: distance, used cells
    for i in range(1, len(dist)):
        pieces: dict[int, bytes] = {}
        for m in masks:
            if m not in pieces:
                left_over = [p for p in range(n) if not m >> p & 1]
                pieces[m] = (bytes(dist[i][p] for p in left_over) if i + 1 == len(dist) or i < head else
                             bytes(dist[i][p] + dist[i + 1][q] for p in left_over for q in left_over if q != p))
        left = len(pieces[masks[0]])
        repeated = b"".join(map([bytes([v]) * left for v in range(256)].__getitem__, values))
        values = (int.from_bytes(repeated, "little")  # no byte carries: every sum stays below 256
                  + int.from_bytes(b"".join(map(pieces.__getitem__, masks)), "little")).to_bytes(len(repeated),
                                                                                              "little")
        if i >= head:
            return values
        masks = [m | 1 << p for m in masks for p in range(n) if not m >> p & 1]
    return values


class PlacementIndex:
    """The depth record's index for the tiles whose goal cells are `cells` on a rows x cols board, the blank's goal
    cell `blank`: block b holds the placements whose blank region's lowest cell is the b-th free cell; offset
    b * half + rank.

    The same interface as the explore engine's `Index` (size, half, total, children, nbytes), which runs the levels.
    """

    def __init__(self, np, rows, cols, cells, blank=0):
        self.np = np
        self.rows, self.cols, self.cells, self.blank = rows, cols, tuple(cells), blank
        n, k = rows * cols, len(cells)
        self.n, self.k = n, k
        self.size = n - k  # blocks: the free cells
        self.half = math.perm(n, k)  # ranks per block
        self.total = self.size * self.half
        self.weights = np.array(weights(n, k), dtype=np.int64)
        self.masks, *tables = _board_tables(np, rows, cols, None if n <= FULL_MASKS_UP_TO else k)
        self.popcount, self.nth_free, self.region, self.region_block, self.step_bit, self.step_cell = tables
        self.nbytes = sum(t.nbytes for t in tables)

    def at(self, used):
        """The rows of the board tables for these sets of occupied cells: the masks themselves, or their places
        among the masks kept (boards of more than FULL_MASKS_UP_TO cells)."""
        return mask_rows(self.np, self.masks, used)

    def block(self, array, b):
        """The view of `array` (one entry per offset) holding block b."""
        return array[b * self.half:(b + 1) * self.half]

    def unrank(self, ranks):
        """(the cells of each tile, the occupied cells' mask) of every rank in `ranks`."""
        np = self.np
        used = np.zeros(len(ranks), dtype=np.int64)
        cells = []
        for i in range(self.k):
            d = ranks // self.weights[i] % (self.n - i)
            p = self.nth_free[self.at(used), d].astype(np.int64)
            cells.append(p)
            used |= np.int64(1) << p
        return cells, used

    def rank(self, cells):
        """The ranks of the placements given as one array of cells per tile."""
        np = self.np
        rank = np.zeros(len(cells[0]), dtype=np.int64)
        used = np.zeros(len(cells[0]), dtype=np.int64)
        for p, w in zip(cells, self.weights.tolist(), strict=True):
            rank += (p - self.popcount[self.at(used & ((np.int64(1) << p) - 1))]) * w
            used |= np.int64(1) << p
        return rank

    def starts(self):
        """The offsets of the goal: the goal placement with the blank in the region of its goal cell `blank` (with
        blank None, in any region: the direct tables' older, weaker goal). Where the group walls that cell off (tiles
        1 and 4 around the 15-puzzle's cell 0), a placement near the goal needs two more moves to let the blank
        home, and this table counts them."""
        rank = rank_of(self.n, self.cells)
        used = sum(1 << c for c in self.cells)
        free = [p for p in range(self.n) if not used >> p & 1] if self.blank is None else [self.blank]
        row = self.at(self.np.int64(used))
        return [b * self.half + rank for b in sorted({int(self.region_block[row, p]) for p in free})]

    def blocks_at(self, depth):
        """The blocks that may hold positions at `depth`: all of them (the blank's moves are free)."""
        return range(self.size)

    def reached(self, lo, hi):
        """The ranks moves from ranks lo .. hi - 1 may reach: any (moving the first tile changes the first digit)."""
        return [(0, self.half - 1)]

    def children(self, b, ranks):
        """For each move of a pattern tile into the blank's region from the positions b * half + ranks: groups of
        (a block q, the ranks reached in block q). One move of one tile never takes two positions to one."""
        np = self.np
        cells, used = self.unrank(ranks)
        row = self.at(used)
        region = self.region[row, self.nth_free[row, b]]
        for i, a in enumerate(cells):
            for d in range(4):
                ok = np.flatnonzero(region & self.step_bit[a, d])
                if not len(ok):
                    continue
                moved = [c[ok] for c in cells]
                moved[i] = self.step_cell[a[ok], d]
                after = used[ok] ^ (np.int64(1) << a[ok]) ^ (np.int64(1) << moved[i])
                blocks = self.region_block[self.at(after), a[ok]]
                targets = self.rank(moved)
                if blocks.min() == blocks.max():
                    yield int(blocks[0]), targets
                    continue
                order = np.argsort(blocks, kind="stable")
                counts = np.bincount(blocks, minlength=self.size)
                for q, part in enumerate(np.split(targets[order], np.cumsum(counts)[:-1])):
                    if len(part):
                        yield q, part


@functools.lru_cache(maxsize=4)
def _board_tables(np, rows, cols, most=None):
    """The lookup tables of a board, a row per set of occupied cells: every set (`most` None; 6 s on 4x4), or only the
    sets of at most `most` cells, all a pattern of that many tiles ever makes (245,506 of the 2**25 on 5x5 for 6
    tiles). Returns (the masks of the rows, None when a mask is its own row; then the tables)."""
    n = rows * cols
    if most is None:
        kept, masks = None, np.arange(1 << n, dtype=np.int64)
    else:
        kept = masks = _masks_of_at_most(np, n, most)
    index = np.arange(len(masks))
    bits = (masks[:, None] >> np.arange(n)) & 1
    # popcount[row]: how many cells are occupied; nth_free[row, d]: the d-th free cell (n when there is none)
    popcount = bits.sum(axis=1).astype(np.int8)
    free_order = np.cumsum(1 - bits, axis=1) - 1  # per cell, its place among the free cells
    nth_free = np.full((len(masks), n), n, dtype=np.int8)
    for p in range(n):
        free = bits[:, p] == 0
        nth_free[index[free], free_order[free, p]] = p
    nbrs = neighbours(rows, cols)
    # region[row, p]: the free cells connected to free cell p (a bit mask); region_block[row, p]: its block
    grow = np.zeros((len(masks), n), dtype=np.int64)
    for p in range(n):
        grow[:, p] = 1 << p
    free_mask = ((1 << n) - 1) ^ masks
    for _ in range(n):
        spread = grow.copy()
        for p in range(n):
            for q in nbrs[p]:
                spread |= np.where((grow >> p) & 1, 1 << q, 0)
        spread &= free_mask[:, None]
        spread |= grow
        if np.array_equal(spread, grow):
            break
        grow = spread
    region = grow.astype(np.int32)
    lowest = np.zeros_like(grow)
    for p in range(n - 1, -1, -1):  # the lowest set bit
        lowest = np.where((grow >> p) & 1, p, lowest)
    region_block = np.take_along_axis(free_order, lowest, axis=1).astype(np.int8)
    # step[p, d]: the bit of the cell beside p in direction d (0 off the board), and that cell (n off it)
    step_bit = np.zeros((n, 4), dtype=np.int32)
    step_cell = np.full((n, 4), n, dtype=np.int64)
    for p, ns in enumerate(nbrs):
        for d, q in enumerate(ns):
            step_bit[p, d], step_cell[p, d] = 1 << q, q
    return kept, popcount, nth_free, region, region_block, step_bit, step_cell
