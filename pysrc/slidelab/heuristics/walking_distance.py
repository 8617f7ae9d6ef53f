"""Walking distance (Ken'ichiro Takahashi), combined with inversion distance, for sliding puzzles.

Vertical walking distance: forget the columns; a position becomes, for every row, how many of its tiles belong in
each goal row. A vertical move carries one tile from a row next to the blank's row into it. A breadth-first search
over these count patterns from the goal's pattern gives the exact number of vertical moves in that relaxed puzzle, a
lower bound on the vertical moves of the real one (24,964 patterns for 4x4). Horizontal walking distance is the same
on columns. Inversion distance bounds them too: reading the tiles row by row, only a vertical move changes their
order, and it jumps one tile over cols-1 others, so it removes at most cols-1 inversions (an odd number when cols-1
is odd); likewise column by column for horizontal moves. Vertical and horizontal moves are disjoint, so

    h = max(vertical WD, vertical ID) + max(horizontal WD, horizontal ID)

is admissible, and consistent (each part is a distance in a relaxed puzzle; a move changes one part by at most 1).
The tracker updates the patterns through link tables and the inversion counts from the tiles jumped over.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from slidelab.core.errors import BadRequest

MAX_SIDE = 4  # boards with a longer side get no walking distance (5 lines of 3 already give over 200,000 patterns)


@cache
def walking_table(lines, length, blank_line):
    """(dist, link, ids) for `lines` lines of `length` cells, the goal blank in line `blank_line`.

    A pattern holds, for every line, how many of its tiles belong in each goal line, and which line the blank is in;
    it is coded as one integer (the counts as digits in base length + 1, times `lines`, plus the blank's line).
    dist[id] is its distance from the goal pattern; link[id][direction * lines + goal_line] the pattern after the
    blank's line takes a tile of that goal line from the line above (direction 0) or below (1), or -1 if it has none;
    ids maps a pattern's code to its id.
    """
    base = length + 1
    unit = [base ** k for k in range(lines * lines)]
    goal = sum((length - (i == blank_line)) * unit[i * lines + i] for i in range(lines)) * lines + blank_line
    ids = {goal: 0}
    codes = [goal]
    dist = [0]
    link = []
    k = 0
    while k < len(codes):
        counts, blank = divmod(codes[k], lines)
        out = [-1] * (2 * lines)
        for direction, other in ((0, blank - 1), (1, blank + 1)):
            if not 0 <= other < lines:
                continue
            for j in range(lines):
                if counts // unit[other * lines + j] % base:
                    new = (counts - unit[other * lines + j] + unit[blank * lines + j]) * lines + other
                    nid = ids.get(new)
                    if nid is None:
                        nid = ids[new] = len(codes)
                        codes.append(new)
                        dist.append(dist[k] + 1)
                    out[direction * lines + j] = nid
        link.append(out)
        k += 1
    return dist, link, ids


def inversion_steps(inversions, jump) -> int:
    """Fewest moves removing `inversions` when each removes at most `jump` (and an odd number if `jump` is odd)."""
    if jump == 0:
        return 0
    steps = -(-inversions // jump)
    if jump % 2 and (steps - inversions) % 2:
        steps += 1
    return steps


class WalkingDistance:
    """The estimator h(state); `tracker(state)` follows a board through a search."""

    name = "walking_distance"
    kernel = "tracker"

    def __init__(self, puzzle):
        rows, cols, n = puzzle.rows, puzzle.cols, puzzle.size
        self.rows, self.cols, self.size = rows, cols, n
        brow, bcol = divmod(puzzle.goal_pos[0], cols)
        if max(rows, cols) > MAX_SIDE:
            raise BadRequest(f"walking distance is for boards up to {MAX_SIDE}x{MAX_SIDE}; its tables for a "
                             f"{rows}x{cols} board would be too large")
        vertical = walking_table(rows, cols, brow)
        horizontal = walking_table(cols, rows, bcol)
        self.v_dist, self.v_link, self.v_ids = vertical
        self.h_dist, self.h_link, self.h_ids = horizontal
        self.goal_row = [0] * n
        self.goal_col = [0] * n
        for t in range(1, n):
            self.goal_row[t], self.goal_col[t] = divmod(puzzle.goal_pos[t], cols)
        # ranks of tiles in the goal read row by row / column by column
        self.v_rank = [0] * n
        self.h_rank = [0] * n
        order = [puzzle.goal[p] for p in range(n)]
        for i, t in enumerate(x for x in order if x):
            self.v_rank[t] = i
        order = [puzzle.goal[r * cols + c] for c in range(cols) for r in range(rows)]
        for i, t in enumerate(x for x in order if x):
            self.h_rank[t] = i
        self.v_steps = [inversion_steps(i, cols - 1) for i in range(n * n // 2 + 1)]
        self.h_steps = [inversion_steps(i, rows - 1) for i in range(n * n // 2 + 1)]
        # jumped[frm * n + to]: the cells a tile jumps over when it moves from frm to to (vertically: in row-major
        # order; horizontally: in column-major order)
        self.jumped = {}
        for p in range(n):
            r, c = divmod(p, cols)
            if r + 1 < rows:
                over = tuple(range(p + 1, p + cols))
                self.jumped[p * n + p + cols] = over
                self.jumped[(p + cols) * n + p] = over
            if c + 1 < cols:
                over = tuple(rr * cols + c + 1 for rr in range(r)) + tuple(rr * cols + c for rr in range(r + 1, rows))
                self.jumped[p * n + p + 1] = over
                self.jumped[(p + 1) * n + p] = over

    def parts(self, state):
        """(vertical pattern id, horizontal pattern id, row-order inversions, column-order inversions)."""
        rows, cols = self.rows, self.cols
        vcode = hcode = 0
        for p, t in enumerate(state):
            r, c = divmod(p, cols)
            if t:
                vcode += (cols + 1) ** (r * rows + self.goal_row[t])
                hcode += (rows + 1) ** (c * cols + self.goal_col[t])
            else:
                blank_row, blank_col = r, c
        vid = self.v_ids[vcode * rows + blank_row]
        hid = self.h_ids[hcode * cols + blank_col]
        seq = [self.v_rank[t] for t in state if t]
        vinv = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])
        seq = [self.h_rank[state[r * cols + c]] for c in range(cols) for r in range(rows) if state[r * cols + c]]
        hinv = sum(1 for i in range(len(seq)) for j in range(i + 1, len(seq)) if seq[i] > seq[j])
        return vid, hid, vinv, hinv

    def value(self, vid, hid, vinv, hinv) -> int:
        return max(self.v_dist[vid], self.v_steps[vinv]) + max(self.h_dist[hid], self.h_steps[hinv])

    def __call__(self, state) -> int:
        return self.value(*self.parts(state))

    def tracker(self, state):
        return WalkingDistanceTracker(self, state)


class WalkingDistanceTracker:
    """Follows one board through a search: `probe(tile, frm, to)` gives the h after that move (the blank being at
    `to`), `push()` makes the last probed move; a move is taken back by probing and pushing the reverse move."""

    def __init__(self, wd, state):
        self.wd = wd
        self.board = list(state)
        self.vid, self.hid, self.vinv, self.hinv = wd.parts(state)
        self.h = wd.value(self.vid, self.hid, self.vinv, self.hinv)
        self._pending: Any = None  # the last move looked at, until it is made

    def probe(self, t, frm, to):
        wd = self.wd
        board = self.board
        n = wd.size
        vid, hid, vinv, hinv = self.vid, self.hid, self.vinv, self.hinv
        over = wd.jumped[frm * n + to]
        if frm - to == wd.cols or to - frm == wd.cols:
            vid = wd.v_link[vid][(frm > to) * wd.rows + wd.goal_row[t]]
            rank, ranks = wd.v_rank[t], wd.v_rank
            change = 0
            for p in over:
                change += 1 if rank < ranks[board[p]] else -1
            vinv += change if to > frm else -change
        else:
            hid = wd.h_link[hid][(frm > to) * wd.cols + wd.goal_col[t]]
            rank, ranks = wd.h_rank[t], wd.h_rank
            change = 0
            for p in over:
                change += 1 if rank < ranks[board[p]] else -1
            hinv += change if to > frm else -change
        self._pending = (t, frm, to, vid, hid, vinv, hinv)
        return max(wd.v_dist[vid], wd.v_steps[vinv]) + max(wd.h_dist[hid], wd.h_steps[hinv])

    def push(self):
        t, frm, to, self.vid, self.hid, self.vinv, self.hinv = self._pending
        self.board[to] = t
        self.board[frm] = 0


def walking_distance(puzzle):
    return WalkingDistance(puzzle)
