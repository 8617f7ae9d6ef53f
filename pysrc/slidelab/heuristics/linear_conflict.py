"""Manhattan distance plus linear conflicts, counted correctly.

In every row, take the tiles whose goal is in that row: if their goal columns are not in increasing order, some must
leave the row and come back, two extra moves each; the fewest that must leave is their number minus the longest
increasing run of goal columns (a longest increasing subsequence). The same holds for columns. Rows and columns never
share a moved tile's extra moves (leaving a row is a vertical move, leaving a column a horizontal one), so
h = Manhattan + 2 * (row removals + column removals) is admissible; it is also consistent (a move changes it by 1).

Each line's content is one integer code (per cell of the line, the goal position along the line of the tile there if
its goal is in that line, plus one; else 0), updated from the moved tile alone; conflicts come from a table per line
length, so the search kernel updates h per move without looking at the whole board.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from typing import Any

from slidelab.heuristics.sliding import manhattan

TABLE_LIMIT = 120_000  # line lengths with at most this many codes get a list; longer lines a lazily filled dict


def removals(goal_positions) -> int:
    """How many of these (distinct) goal positions must be taken out for the rest to be increasing."""
    tails: list[int] = []
    for x in goal_positions:
        i = bisect_left(tails, x)
        if i == len(tails):
            tails.append(x)
        else:
            tails[i] = x
    return len(goal_positions) - len(tails)


def _conflicts_of_code(code, length):
    base = length + 1
    digits = []
    for _ in range(length):
        code, d = divmod(code, base)
        if d:
            digits.append(d)
    return removals(digits)


class _LazyConflicts(dict):
    def __init__(self, length):
        super().__init__()
        self.length = length

    def __missing__(self, code):
        value = self[code] = _conflicts_of_code(code, self.length)
        return value


@cache
def conflict_table(length):
    """conflicts[code] for a line of `length` cells (a list, or a dict filled on demand for long lines)."""
    if (length + 1) ** length <= TABLE_LIMIT:
        return [_conflicts_of_code(code, length) for code in range((length + 1) ** length)]
    return _LazyConflicts(length)


class LinearConflict:
    """The estimator: h(state), plus the per-tile tables the incremental tracker uses."""

    name = "linear_conflict"
    kernel = "tracker"

    def __init__(self, puzzle):
        rows, cols, n = puzzle.rows, puzzle.cols, puzzle.size
        self.size = n
        self.md_table = manhattan(puzzle).tile_table
        # lines 0..rows-1 are the rows, rows..rows+cols-1 the columns
        self.tables = [conflict_table(cols)] * rows + [conflict_table(rows)] * cols
        self.row_line = [0] * n  # the tile's goal row (its row line)
        self.col_line = [0] * n  # the tile's goal column's line number
        self.row_code = [[0] * n for _ in range(n)]  # row_code[t][p]: t's part of its goal row's code at cell p
        self.col_code = [[0] * n for _ in range(n)]
        for t in range(1, n):
            gr, gc = divmod(puzzle.goal_pos[t], cols)
            self.row_line[t] = gr
            self.col_line[t] = rows + gc
            for p in range(n):
                r, c = divmod(p, cols)
                if r == gr:
                    self.row_code[t][p] = (gc + 1) * (cols + 1) ** c
                if c == gc:
                    self.col_code[t][p] = (gr + 1) * (rows + 1) ** r

    def codes(self, state):
        codes = [0] * len(self.tables)
        for p, t in enumerate(state):
            if t:
                codes[self.row_line[t]] += self.row_code[t][p]
                codes[self.col_line[t]] += self.col_code[t][p]
        return codes

    def __call__(self, state) -> int:
        md = sum(self.md_table[t][p] for p, t in enumerate(state))
        return md + 2 * sum(table[c] for table, c in zip(self.tables, self.codes(state), strict=True))

    def tracker(self, state):
        return LinearConflictTracker(self, state)


class LinearConflictTracker:
    """Follows one board through a search: `probe(tile, frm, to)` gives the h after that move, `push()` makes the
    last probed move; a move is taken back by probing and pushing the reverse move."""

    def __init__(self, lc, state):
        self.md_table, self.tables = lc.md_table, lc.tables
        self.row_line, self.col_line, self.row_code, self.col_code = lc.row_line, lc.col_line, lc.row_code, lc.col_code
        self.lines = lc.codes(state)
        self.conf = [table[c] for table, c in zip(self.tables, self.lines, strict=True)]
        self.md = sum(self.md_table[t][p] for p, t in enumerate(state))
        self.total = sum(self.conf)
        self.h = self.md + 2 * self.total
        self._pending: Any = None  # the last move looked at, until it is made

    def probe(self, t, frm, to):
        lines, conf, tables = self.lines, self.conf, self.tables
        md = self.md + self.md_table[t][to] - self.md_table[t][frm]
        rl, cl = self.row_line[t], self.col_line[t]
        rc, cc = self.row_code[t], self.col_code[t]
        rcode = lines[rl] + rc[to] - rc[frm]
        ccode = lines[cl] + cc[to] - cc[frm]
        rconf, cconf = tables[rl][rcode], tables[cl][ccode]
        total = self.total + rconf - conf[rl] + cconf - conf[cl]
        self._pending = (md, total, rl, rcode, rconf, cl, ccode, cconf)
        return md + 2 * total

    def push(self):
        md, total, rl, rcode, rconf, cl, ccode, cconf = self._pending
        self.md, self.total = md, total
        self.lines[rl], self.conf[rl], self.lines[cl], self.conf[cl] = rcode, rconf, ccode, cconf


def linear_conflict(puzzle):
    return LinearConflict(puzzle)
