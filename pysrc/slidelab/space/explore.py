"""Explore: breadth-first search of a puzzle's whole state space from the goal.

It answers how many positions can reach the goal, how many lie at each distance, the largest distance and every
position at it. Moves are reversible (sliding tiles, tokens on a graph), so the positions d moves from the goal are
exactly the neighbours of depth d - 1 that are neither at depth d - 1 nor d - 2: only the last three depths are kept,
never one set of every position seen ("frontier search"), which keeps memory to a fraction of the space.

Two implementations of the same search, tested against each other: `_generic` for any puzzle interface, and
`_sliding_kernel`, where a position is one int (a few bits per cell), a depth is one set per blank cell, and the
children of all the positions with the blank on one cell are made by one comprehension over precomputed
per-(blank, target, tile) changes of the int.
"""

from __future__ import annotations

from slidelab.core.control import Counts, Meter
from slidelab.core.errors import TooLarge

MAX_POSITIONS = 2_000_000  # explore refuses puzzles with more positions (the 2x5 board's 1,814,400 take seconds)
INDEXED_CELLS = 12  # sliding boards up to this size are explored by the numpy engine (indexed_explore.py) beyond it


class ExploreResult:
    """depths[d] positions are d moves from the goal; `farthest` holds every position at the largest depth;
    `start_depth` is the start's distance from the goal (None when it cannot reach it); `extra` what an engine adds
    to the answer."""

    def __init__(self, depths, farthest, stats, start_depth=None, extra=None):
        self.depths = depths
        self.farthest = farthest
        self.stats = stats
        self.start_depth = start_depth
        self.extra = {} if extra is None else extra

    @property
    def states(self) -> int:
        return sum(self.depths)

    @property
    def max_depth(self) -> int:
        return len(self.depths) - 1


def explore(puzzle, limits):
    """Search generator exploring every position that can reach `puzzle.goal`; returns an ExploreResult.

    Raises TooLarge at once when the puzzle has more than MAX_POSITIONS positions (`state_count()`).
    """
    count = puzzle.state_count()
    if count > MAX_POSITIONS:
        power = len(str(count)) - 1
        many = f"{count:,}" if power < 15 else f"{count / 10 ** power:.1f} x 10^{power}"
        scale = (" (or, on the command line, the numpy engine: pip install \".[scale]\")"
                 if puzzle.kind == "sliding" and puzzle.size <= INDEXED_CELLS else "")
        raise TooLarge(f"this puzzle has {many} positions, more than the {MAX_POSITIONS:,} that explore "
                       f"may visit in pure Python; try a smaller board{scale}")
    if puzzle.kind == "sliding":
        return _sliding_kernel(puzzle, limits)
    return _generic(puzzle, limits)


def _generic(puzzle, limits):
    meter = Meter(limits, Counts(stored=1))
    stats = meter.stats
    children_of = puzzle.children
    start = puzzle.start
    before: set = set()
    layer = {puzzle.goal}
    depths: list = []
    start_depth = None
    while layer:
        if start in layer:
            start_depth = len(depths)
        depths.append(len(layer))
        following = set()
        for state in layer:
            stats.expanded += 1
            children = children_of(state)
            stats.generated += len(children)
            following.update(children)
            if not stats.expanded % 1024 and meter.due(stats.expanded):
                yield meter.progress(stored=len(before) + len(layer) + len(following), depth=len(depths))
        stats.stored = max(stats.stored, len(before) + len(layer) + len(following))
        limits.check_stored(stats.stored)
        following -= layer
        following -= before
        before, layer = layer, following
    return ExploreResult(depths, sorted(before), meter.finish(), start_depth)


def _sliding_kernel(puzzle, limits):
    meter = Meter(limits, Counts(stored=1))
    stats = meter.stats
    rows, cols, size = puzzle.rows, puzzle.cols, puzzle.size
    turned = cols > rows  # explore the transposed board (the same graph) so that a column is the short side
    if turned:
        rows, cols = cols, rows
        start, goal = _transposed(puzzle.start, cols, rows), _transposed(puzzle.goal, cols, rows)
    else:
        start, goal = puzzle.start, puzzle.goal
    # A position with the blank on cell b is the int holding the tiles (less one) in row-major order, the blank's
    # cell skipped, `width` bits each. Sliding a tile sideways keeps that order: the int does not change. Sliding
    # one up or down rotates `cols` consecutive fields by one, a change looked up by their value in `table`.
    width = max(1, (size - 2).bit_length())
    field = (1 << width) - 1
    segment = (1 << cols * width) - 1
    last = (cols - 1) * width

    def pack(state):
        return sum((t - 1) << i * width for i, t in enumerate(t for t in state if t))

    def unpack(key, blank):
        tiles = [(key >> i * width & field) + 1 for i in range(size - 1)]
        tiles.insert(blank, 0)
        return tuple(tiles)

    # moves[b]: (q, shift, table) per neighbour cell q of the blank cell b; table None for a sideways move
    moves: list = []
    for b in range(size):
        moves.append([])
        for q in _neighbours(rows, cols, b):
            if q == b + cols:  # the tile below moves up: its field goes from the segment's top to its bottom
                table = [(((s << width) & segment | s >> last) - s) << b * width for s in range(segment + 1)]
                moves[b].append((q, b * width, table))
            elif q == b - cols:  # the tile above moves down: its field goes from the bottom to the top
                table = [((s >> width | (s & field) << last) - s) << q * width for s in range(segment + 1)]
                moves[b].append((q, q * width, table))
            else:
                moves[b].append((q, 0, None))
    start_blank, start_key = start.index(0), pack(start)
    before: list[set] = [set() for _ in range(size)]  # a depth: one set of packed positions per blank cell
    layer: list[set] = [set() for _ in range(size)]
    layer[goal.index(0)].add(pack(goal))
    depths: list = []
    start_depth = None
    while True:
        count = sum(map(len, layer))
        if not count:
            break
        if start_key in layer[start_blank]:
            start_depth = len(depths)
        depths.append(count)
        following: list[set] = [set() for _ in range(size)]
        for b, keys in enumerate(layer):
            if not keys:
                continue
            for q, shift, table in moves[b]:
                if table is None:
                    following[q].update(keys)
                else:
                    following[q].update([k + table[k >> shift & segment] for k in keys])
            stats.expanded += len(keys)
            stats.generated += len(keys) * len(moves[b])
            if meter.due(stats.expanded):
                held = count + sum(map(len, before)) + sum(map(len, following))
                yield meter.progress(stored=held, depth=len(depths))
        stats.stored = max(stats.stored, count + sum(map(len, before)) + sum(map(len, following)))
        limits.check_stored(stats.stored)
        for q in range(size):
            following[q] -= layer[q]
            following[q] -= before[q]
        before, layer = layer, following
    farthest = [unpack(k, b) for b, keys in enumerate(before) for k in keys]
    if turned:
        farthest = [_transposed(state, rows, cols) for state in farthest]
    return ExploreResult(depths, sorted(farthest), meter.finish(), start_depth)


def _neighbours(rows, cols, b):
    r, c = divmod(b, cols)
    return [q for q, ok in ((b - cols, r > 0), (b - 1, c > 0), (b + 1, c < cols - 1), (b + cols, r < rows - 1)) if ok]


def _transposed(state, rows, cols):
    """The rows x cols board `state` mirrored on its diagonal (a cols x rows board)."""
    return tuple(state[r * cols + c] for c in range(cols) for r in range(rows))
