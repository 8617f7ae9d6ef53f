"""Indexed explore: breadth-first search of a sliding puzzle's whole state space over a perfect index (numpy).

`explore` keeps positions in Python sets, which stops near two million. Here every position reachable from the goal
has a fixed place in one flat array, so a board of up to 12 cells (the 3x4 board's 239,500,800 positions) is explored
in well under a minute and a few hundred megabytes. The memory is that array, fixed in advance: `Limits.max_stored`,
made for searches that grow sets, does not apply.

The index of a position is `blank cell * H + rank // 2`, where `rank` is the Lehmer rank of its tiles read in
row-major order with the blank skipped, and H = (n-1)!/2. Only the positions whose tile order has the parity that
the blank's cell allows can be reached, so the last bit of the rank (the order of the last two tiles) follows from the
others and is dropped: the index is a bijection onto 0 .. n!/2 - 1. The record is one byte per position, its depth
(UNSEEN until it is reached), so a level is found by one scan of the array and the result is a complete depth table.

Moves never unrank a position. A sideways move keeps the tile order: the rank does not change, only the blank's cell.
A vertical move rotates `cols` consecutive tiles of that order by one, which changes only their Lehmer digits, by an
amount that depends on those digits alone: one lookup in a table indexed by them (read out of the rank with one
division and one remainder) gives the change of the rank.

`Index`, `frontier`, `mark` and `progress` are shared with dask_explore, the same search on a Dask cluster.
"""

from __future__ import annotations

import math

from slidelab.core.control import Counts, Meter
from slidelab.core.errors import TooLarge
from slidelab.core.extras import require
from slidelab.core.puzzles.sliding import neighbours, permutation_parity
from slidelab.space.explore import ExploreResult

MAX_CELLS = 12
CHUNK = 1 << 21  # array positions scanned at once: bounds the frontier chunk and so the numpy temporaries
UNSEEN = 255  # the record of a position not reached yet; depths stay far below it (53 at most on 3x4)


def indexed_explore(puzzle, limits):
    """Search generator exploring every position of a sliding `puzzle` (up to 12 cells) that can reach its goal.

    Yields progress events (`progress`) and returns an ExploreResult whose `extra["memory_bytes"]` is the bytes of
    the arrays held for the whole search (the depth record and the lookup tables; the chunk temporaries, bounded by
    CHUNK, come on top). Raises TooLarge at once for a larger board, or when numpy (the `scale` extra) is missing.
    """
    check_board(puzzle)
    numpy = require("exploring this many positions", "numpy")
    return _search(numpy, puzzle, limits)


def check_board(puzzle):
    """Raise TooLarge unless the board has at most MAX_CELLS cells (the index is held in int32)."""
    if puzzle.size > MAX_CELLS:
        raise TooLarge(f"the indexed explore handles boards of up to {MAX_CELLS} cells (3x4, 2x6, ...); this "
                       f"{puzzle.rows}x{puzzle.cols} board has {puzzle.size} cells and "
                       f"{puzzle.state_count():,} positions")


class Index:
    """The perfect index of the positions that can reach `goal` on a rows x cols board (see the module docstring)."""

    def __init__(self, np, rows, cols, goal):
        self.size = rows * cols
        m = self.size - 1  # tiles
        self.half = math.factorial(m) // 2  # positions per blank cell
        self.total = self.size * self.half
        goal_row, goal_parity = goal.index(0) // cols, permutation_parity([t for t in goal if t])
        # A vertical move rotates cols tiles (cols - 1 transpositions); a sideways move keeps the order.
        self.parity = [goal_parity ^ ((cols - 1) * (b // cols - goal_row) & 1) for b in range(self.size)]
        # The parity of the digits a half rank keeps, from two tables: one for its low digits, one for its high ones.
        radices = list(range(3, m + 1))  # the kept digits' radices, least significant first
        low = (len(radices) + 1) // 2
        self.low_count = math.prod(radices[:low])
        self.low_parity = _digit_parity(np, radices[:low])
        self.high_parity = _digit_parity(np, radices[low:])
        self.moves = [[self._move(np, m, cols, b, q) for q in neighbours(rows, cols)[b]] for b in range(self.size)]
        self.cols, self.goal_colour = cols, sum(divmod(goal.index(0), cols))
        tables = [self.low_parity, self.high_parity] + [r[0] for moves in self.moves for _, r in moves if r]
        self.nbytes = sum(t.nbytes for t in tables)

    @staticmethod
    def _move(np, m, cols, b, q):
        """(q, None) for a sideways move of the blank from cell b to q; for a vertical one (q, (table, divisor,
        modulus)): the tiles at places p .. p+cols-1 of the order rotate, and the rank changes by
        table[rank // divisor % modulus] (that number is their Lehmer digits)."""
        if abs(q - b) == 1:
            return q, None
        p = min(b, q)
        radices = [m - p - j for j in range(cols)]
        weights = [math.factorial(m - 1 - p - j) for j in range(cols)]
        # Blank down: the tile below moves to the front of the segment; blank up: the tile above moves to its end.
        order = [cols - 1, *range(cols - 1)] if q > b else [*range(1, cols), 0]
        return q, (_rotation_table(np, radices, weights, order), weights[-1], math.prod(radices))

    def children(self, b, ranks):
        """For each move of the blank from cell b: (its new cell q, the ranks of the positions that move reaches from
        the positions with indices b * half + ranks; their indices are q * half + those ranks)."""
        # The full ranks: the index dropped their last bit, which makes the parity of all their digits the cell's.
        dropped = self.low_parity[ranks % self.low_count]
        dropped ^= self.high_parity[ranks // self.low_count]
        dropped ^= self.parity[b]
        full = 2 * ranks + dropped
        for q, rotation in self.moves[b]:
            if rotation is None:
                yield q, ranks
            else:
                table, divisor, modulus = rotation
                yield q, (full + table[full // divisor % modulus]) >> 1

    def blocks_at(self, depth):
        """The blank cells positions at `depth` may have: every move takes the blank to a cell of the other colour."""
        return [b for b in range(self.size) if (sum(divmod(b, self.cols)) - self.goal_colour - depth) % 2 == 0]

    def reached(self, lo, hi):
        """Ranges (first, last) of the ranks that moves from the ranks lo .. hi - 1 may reach: a vertical move
        changes the full rank (twice the rank, plus a bit) by a value of its table."""
        return [(max(0, (2 * lo + int(rotation[0].min())) >> 1),
                 min(self.half - 1, (2 * hi - 1 + int(rotation[0].max())) >> 1))
                for moves in self.moves for _, rotation in moves if rotation]

    def block(self, array, b):
        """The view of `array` (one entry per index) holding the positions with the blank on cell b."""
        return array[b * self.half:(b + 1) * self.half]

    def of(self, state):
        """The index of `state`; None when it cannot reach the goal."""
        b = state.index(0)
        tiles = [t - 1 for t in state if t]
        if permutation_parity(tiles) != self.parity[b]:
            return None
        return b * self.half + _rank(tiles) // 2

    def state(self, index):
        """The position (a flat tuple, 0 the blank) at `index`."""
        b, half_rank = divmod(index, self.half)
        tiles = [t + 1 for t in _unrank(2 * half_rank, self.size - 1)]
        if permutation_parity(tiles) != self.parity[b]:
            tiles[-2], tiles[-1] = tiles[-1], tiles[-2]  # the dropped bit was 1: the last two are the other way
        tiles.insert(b, 0)
        return tuple(tiles)


def _search(np, puzzle, limits):
    meter = Meter(limits, Counts(stored=1))
    index, record, depths = yield from depth_record(np, puzzle, meter)
    last = len(depths) - 1
    farthest = [index.state(b * index.half + rank) for b in range(index.size)
                for ranks in frontier(np, index.block(record, b), last) for rank in ranks.tolist()]
    start = index.of(puzzle.start)
    start_depth = None if start is None else int(record[start])
    meter.finish()
    memory = record.nbytes + index.nbytes
    return ExploreResult(depths, sorted(farthest), meter.stats, start_depth, {"memory_bytes": memory})


def depth_record(np, puzzle, meter):
    """Search generator: the breadth-first search from the goal of a sliding `puzzle`, counted in `meter`. Returns
    (index, record, depths): the Index, the record (the depth of every position, at its index) and the positions at
    each depth."""
    index = Index(np, puzzle.rows, puzzle.cols, puzzle.goal)
    record, depths = yield from levels(np, index, [index.of(puzzle.goal)], meter)
    return index, record, depths


def levels(np, index, starts, meter):
    """Search generator: the breadth-first search over `index` (this module's Index, or any object with its
    size, half, total and children) from the positions at offsets `starts`, counted in `meter`. Returns (record,
    depths): the depth of every position at its offset, and how many positions lie at each depth."""
    stats = meter.stats
    record = np.full(index.total, UNSEEN, np.uint8)
    blocks = [index.block(record, b) for b in range(index.size)]
    counts = [0] * index.size  # positions at the current depth, per block
    for start in starts:
        record[start] = 0
        counts[start // index.half] += 1
    depths: list = []
    while sum(counts):
        depth = len(depths)
        depths.append(sum(counts))
        found = [0] * index.size
        for b in [b for b, count in enumerate(counts) if count]:
            for ranks in frontier(np, blocks[b], depth):
                for q, targets in index.children(b, ranks):
                    found[q] += mark(blocks[q], targets, depth + 1)
                    stats.generated += len(targets)
                stats.expanded += len(ranks)
                stats.stored = sum(depths) + sum(found)
                if meter.due(stats.expanded):
                    yield progress(meter, depth, index.total)
        counts = found
    return record, depths


def progress(meter, depth, total):
    """The progress event of an indexed explore (on one machine or on Dask) at `depth`: the common schema, plus the
    positions reached so far (`stored`) and how many there are in all."""
    return meter.progress(stored=meter.stats.stored, depth=depth, positions=meter.stats.stored, total=total)


def frontier(np, block, depth):
    """The positions at `depth` in `block` (a slice of the record), by chunks of at most CHUNK: their offsets in
    the block (int32)."""
    for start in range(0, len(block), CHUNK):
        ranks = np.flatnonzero(block[start:start + CHUNK] == depth).astype(np.int32)
        if len(ranks):
            ranks += start
            yield ranks


def mark(block, ranks, depth):
    """Record `depth` for the positions at offsets `ranks` of `block` (no two equal) not reached yet; return how many
    there were."""
    ranks = ranks[block[ranks] == UNSEEN]
    block[ranks] = depth
    return len(ranks)


def _rank(seq):
    """The Lehmer rank of a sequence of 0 .. m-1 (its index among them in lexicographic order)."""
    rank, m = 0, len(seq)
    for i, v in enumerate(seq):
        rank = rank * (m - i) + sum(u < v for u in seq[i + 1:])
    return rank


def _unrank(rank, m):
    """The sequence of 0 .. m-1 with Lehmer rank `rank`."""
    digits = []
    for radix in range(1, m + 1):
        rank, digit = divmod(rank, radix)
        digits.append(digit)
    left = list(range(m))
    return [left.pop(d) for d in reversed(digits)]


def _digit_parity(np, radices):
    """For every number below prod(radices): the parity of the sum of its digits (radices least significant first)."""
    rest = np.arange(math.prod(radices))
    parity = np.zeros(len(rest), np.uint8)
    for radix in radices:
        parity ^= (rest % radix & 1).astype(np.uint8)
        rest //= radix
    return parity


def _rotation_table(np, radices, weights, order):
    """The change of the rank when a segment of the tile order is reordered, for every value of its Lehmer digits.

    `radices` and `weights` are the segment's digit radices and rank weights, `order` the old places in their new
    order; the table is indexed by the digits read as one number, the first most significant. A tile's digit counts
    the smaller tiles after it, so a digit changes only by the smaller segment tiles that move across it; which
    segment tiles are smaller follows from the digits alone: insert the tiles from the last, each at its digit among
    those after it.
    """
    c = len(radices)
    rest = np.arange(math.prod(radices))
    digits: list = [None] * c
    for j in reversed(range(c)):
        rest, digits[j] = np.divmod(rest, radices[j])
    place: list = [None] * c  # each tile's rank among the segment's tiles and every tile after the segment
    for j in reversed(range(c)):
        for k in range(j + 1, c):
            place[k] = place[k] + (place[k] >= digits[j])
        place[j] = digits[j]
    delta = np.zeros(len(digits[0]), np.int64)
    for j in range(c):
        outside = digits[j] - sum(place[k] < place[j] for k in range(j + 1, c))  # smaller tiles after the segment
        i = order.index(j)
        new = outside + sum(place[order[k]] < place[j] for k in range(i + 1, c))
        delta += new * weights[i] - digits[j] * weights[j]
    return delta.astype(np.int32)
