"""Dual lookups: a lower bound read on a position's dual, as many moves from its own goal as the position is.

Number the cells in the tables' frame and name every tile after its goal cell, so that a position is a permutation s
(cell -> tile, the blank 0 on cell 0 at the goal). A solution is a walk of the blank, a string of swaps of two
neighbouring cells; played from the goal in the order it was found, the same swaps build the inverse permutation,
where the tile named after the blank's cell (beta) is the one that moves every time, as a blank does. So the *dual*
position (tile x on cell s[x]: the tile on cell x names where x stands) is solved in as many moves, with beta for
the blank and a goal of its own: every tile home, beta's cell the blank's.

A table counts on the dual where its group holds no beta and its goal lets the blank end on beta's cell (the region
the blank reaches there with the group home). A table with its goal cells and blank mapped by a symmetry of the board
is the same table: so for each beta, `DualLookup` finds every way to cover the other cells with such images of the
set's tables (on the 15-puzzle, one half of the board and the other half but beta, by the way it is cut across and
by the way it is cut along), and takes the largest sum. Inconsistent (a move changes it by more than one), so the
kernel only prunes with it (docs/benchmarks.md, "Dual lookups").
"""

from __future__ import annotations

import operator

from slidelab.core.puzzles.sliding import neighbours
from slidelab.heuristics.pdb.frames import symmetries
from slidelab.heuristics.pdb.placement_index import weights

MEMO = 1 << 12  # an image's entries kept by the tiles on its cells, at most: a search meets them again soon


def goal_region(rows, cols, cells, blank) -> frozenset:
    """The cells the blank reaches from its goal cell with the group's tiles home."""
    nbrs = neighbours(rows, cols)
    seen, todo = {blank}, [blank]
    while todo:
        for q in nbrs[todo.pop()]:
            if q not in cells and q not in seen:
                seen.add(q)
                todo.append(q)
    return frozenset(seen)


def covers(rows, cols, shapes, beta) -> list[list[tuple]]:
    """Every way to cover the cells but `beta` with images of the tables' `shapes` ((cells, blank) in the frame)
    under the board's symmetries that keep its shape, each image's group without beta and its goal region with it:
    per cover, its images as (shape's index, symmetry's cell map)."""
    n = rows * cols
    images: dict[frozenset, tuple] = {}  # an image's cells -> (shape, map); one map per image suffices
    for i, (cells, blank) in enumerate(shapes):
        region = goal_region(rows, cols, cells, blank)
        for r2, c2, cmap in symmetries(rows, cols):
            if (r2, c2) == (rows, cols) and cmap[beta] not in cells and cmap[beta] in region:
                inverse = [0] * n
                for p, q in enumerate(cmap):
                    inverse[q] = p
                images.setdefault(frozenset(inverse[c] for c in cells), (i, tuple(cmap)))
    found: list[list[tuple]] = []

    def extend(free, chosen):
        if not free:
            found.append([images[cells] for cells in chosen])
            return
        low = min(free)
        for cells in images:
            if low in cells and cells <= free:
                extend(free - cells, [*chosen, cells])

    extend(frozenset(range(n)) - {beta}, [])
    return found


class DualLookup:
    """The dual lookups of a set's tables (`shapes`: their (goal cells, goal's blank cell) in the frame) for a puzzle
    whose tiles' goal cells in the frame are `home` (`cmap`: board cell -> frame cell): `value(board)` is the
    largest sum over the covers of the dual position."""

    def __init__(self, rows, cols, cmap, home, shapes, tables):
        n = rows * cols
        frame_to_board = [0] * n
        for p, q in enumerate(cmap):
            frame_to_board[q] = p
        # per board cell of the blank, per cover, per image: (what reads the tiles on its board cells in the table's
        # order, per tile its cell in the table's frame, the rank's weights, the table, its entries met so far)
        self.plans: list[list[list[tuple]]] = []
        for b in range(n):
            plans = []
            for cover in covers(rows, cols, shapes, cmap[b]):
                images: list[tuple] = []
                for i, m in cover:  # m maps the dual position onto the table's frame
                    cells = shapes[i][0]
                    on = [frame_to_board[m.index(c)] for c in cells]
                    images.append((operator.itemgetter(*on) if len(on) > 1 else lambda board, p=on[0]: (board[p],),
                                   [m[home[t]] for t in range(n)], weights(n, len(cells)), tables[i], {}))
                plans.append(images)
            self.plans.append(plans)
        self.ways = max(map(len, self.plans))  # the most covers of a dual position: lookups of it

    def value(self, board, blank=None, enough=255) -> int:
        """The largest dual lookup of the position on `board` (its blank on cell `blank`, found if not given), or
        the first one over `enough`."""
        best = 0
        for images in self.plans[board.index(0) if blank is None else blank]:
            total = 0
            for tiles_of, where, w, table, memo in images:
                tiles = tiles_of(board)
                entry = memo.get(tiles)
                if entry is None:  # placement_index.rank_of, inlined: a miss costs the rank, a hit nothing
                    rank, used = 0, 0
                    for t, wi in zip(tiles, w, strict=True):
                        q = where[t]
                        rank += (q - (used & ((1 << q) - 1)).bit_count()) * wi
                        used |= 1 << q
                    entry = table[rank]
                    if len(memo) >= MEMO:
                        memo.clear()
                    memo[tiles] = entry
                total += entry
            if total > best:
                if total > enough:
                    return total
                best = total
        return best
