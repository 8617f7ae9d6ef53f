"""Sliding-tile puzzles of any rows x cols shape.

A state is a flat tuple of cell contents, row-major, 0 the blank. A move is named by the tile that slides into the
blank. Solvability is decided by permutation parity, so an unsolvable position is answered without any search.
"""

from __future__ import annotations

import math
import re
from functools import cache

from slidelab.core.errors import InvalidBoard, Unsolvable

MIN_SIDE = 2
MAX_SIDE = 10
BLANK_NAMES = frozenset({"0", "_", "."})
_ROW_SPLIT = re.compile(r"\s*(?:/|\n|;)\s*")
_CELL_SPLIT = re.compile(r"[\s,]+")
_NO_MOVES: frozenset[int] = frozenset()


def parse_board(text: str) -> tuple[int, int, tuple[int, ...]]:
    """Parse board text like `8 6 7/2 5 4/3 0 1` into (rows, cols, cells); raise InvalidBoard with a clear reason."""
    if not isinstance(text, str):
        raise InvalidBoard("a board must be given as text, e.g. '1 2 3/4 5 6/7 8 0'")
    text = text.strip()
    if not text:
        raise InvalidBoard("the board is empty; write rows separated by '/', e.g. '1 2 3/4 5 6/7 8 0'")
    if len(text) > 2000:
        raise InvalidBoard("the board text is too long")
    rows_text = [r for r in _ROW_SPLIT.split(text)]
    if any(not r.strip(" ,") for r in rows_text):
        raise InvalidBoard("a row is empty; write rows separated by '/', e.g. '1 2 3/4 5 6/7 8 0'")
    grid = [[c for c in _CELL_SPLIT.split(r.strip(" ,")) if c] for r in rows_text]
    cols = len(grid[0])
    for i, row in enumerate(grid, 1):
        if len(row) != cols:
            raise InvalidBoard(f"row {i} has {len(row)} cells but row 1 has {cols}; every row needs the same length")
    rows = len(grid)
    check_shape(rows, cols)
    cells = []
    for row in grid:
        for c in row:
            if c in BLANK_NAMES:
                cells.append(0)
            elif c.isascii() and c.isdigit() and len(c) <= 4:
                cells.append(int(c))
            else:
                raise InvalidBoard(f"'{c[:20]}' is not a tile number (tiles are 1..N-1, the blank is 0, _ or .)")
    n = rows * cols
    seen = set()
    for c in cells:
        if c in seen:
            raise InvalidBoard("the blank appears more than once" if c == 0 else f"tile {c} appears more than once")
        seen.add(c)
    if 0 not in seen:
        raise InvalidBoard("the board has no blank (write 0, _ or . for it)")
    if max(cells) >= n:
        raise InvalidBoard(f"tile {max(cells)} is too large for a {rows}x{cols} board (tiles are 1..{n - 1})")
    return rows, cols, tuple(cells)


def check_shape(rows: int, cols: int) -> None:
    """Raise InvalidBoard unless rows x cols is a supported board shape."""
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise InvalidBoard(f"a {rows}x{cols} board is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}")


def parse_shape(text: str) -> tuple[int, int]:
    """Parse a shape like `3x4` (rows x cols)."""
    m = re.fullmatch(r"\s*(\d{1,3})\s*[xX×]\s*(\d{1,3})\s*", text or "")
    if not m:
        raise InvalidBoard(f"'{str(text)[:20]}' is not a board shape; write rows x cols, e.g. 3x3 or 3x4")
    rows, cols = int(m.group(1)), int(m.group(2))
    check_shape(rows, cols)
    return rows, cols


def format_board(cells, cols: int) -> str:
    """Format cells as board text: cells separated by spaces, rows by '/', the blank as 0."""
    return "/".join(" ".join(str(c) for c in cells[i:i + cols]) for i in range(0, len(cells), cols))


def default_goal(rows: int, cols: int) -> tuple[int, ...]:
    """1, 2, ..., N-1 then the blank at the bottom right."""
    n = rows * cols
    return tuple(range(1, n)) + (0,)


@cache
def neighbours(rows: int, cols: int) -> tuple[tuple[int, ...], ...]:
    """For each cell, the cells orthogonally next to it (up, left, right, down order)."""
    result = []
    for p in range(rows * cols):
        r, c = divmod(p, cols)
        nbrs = []
        if r > 0:
            nbrs.append(p - cols)
        if c > 0:
            nbrs.append(p - 1)
        if c < cols - 1:
            nbrs.append(p + 1)
        if r < rows - 1:
            nbrs.append(p + cols)
        result.append(tuple(nbrs))
    return tuple(result)


def permutation_parity(seq) -> int:
    """0 for an even permutation of its sorted values, 1 for odd (by cycle counting, O(n))."""
    index = {v: i for i, v in enumerate(sorted(seq))}
    perm = [index[v] for v in seq]
    seen = [False] * len(perm)
    parity = 0
    for i in range(len(perm)):
        if not seen[i]:
            j, length = i, 0
            while not seen[j]:
                seen[j] = True
                j = perm[j]
                length += 1
            parity ^= (length - 1) & 1
    return parity


class SlidingPuzzle:
    """A rows x cols sliding puzzle with a start and a goal arrangement (flat tuples, 0 the blank)."""

    kind = "sliding"

    def __init__(self, rows: int, cols: int, start, goal=None):
        check_shape(rows, cols)
        self.rows, self.cols, self.size = rows, cols, rows * cols
        self.start = self._checked(start, "start")
        self.goal = self._checked(goal, "goal") if goal is not None else default_goal(rows, cols)
        self.neighbours = neighbours(rows, cols)
        self.goal_pos = [0] * self.size
        for p, t in enumerate(self.goal):
            self.goal_pos[t] = p

    def _checked(self, cells, what):
        cells = tuple(cells)
        if len(cells) != self.size or sorted(cells) != list(range(self.size)):
            raise InvalidBoard(f"the {what} must hold 0..{self.size - 1} exactly once on a "
                               f"{self.rows}x{self.cols} board")
        return cells

    @classmethod
    def from_text(cls, start: str, goal: str | None = None) -> SlidingPuzzle:
        """Build from board text; the goal, when given, must have the same shape as the start."""
        rows, cols, cells = parse_board(start)
        goal_cells = None
        if goal is not None and str(goal).strip():
            grows, gcols, goal_cells = parse_board(goal)
            if (grows, gcols) != (rows, cols):
                raise InvalidBoard(f"the start is {rows}x{cols} but the goal is {grows}x{gcols}; they must match")
        return cls(rows, cols, cells, goal_cells)

    # The puzzle interface used by the generic algorithms.
    def moves(self, state):
        """Yield (tile moved, next state) for every legal move."""
        b = state.index(0)
        for p in self.neighbours[b]:
            s = list(state)
            s[b], s[p] = s[p], 0
            yield state[p], tuple(s)

    def children(self, state) -> list:
        """The next states alone."""
        return [child for _, child in self.moves(state)]

    def is_goal(self, state) -> bool:
        return state == self.goal

    def format(self, state) -> str:
        return format_board(state, self.cols)

    def parse(self, text: str):
        rows, cols, cells = parse_board(text)
        if (rows, cols) != (self.rows, self.cols):
            raise InvalidBoard(f"expected a {self.rows}x{self.cols} board, got {rows}x{cols}")
        return cells

    def move_name(self, move) -> str:
        """A move is the number of the tile that slides."""
        return str(move)

    def commuting_before(self, move) -> frozenset:
        """Every move involves the blank, so no two moves commute."""
        return _NO_MOVES

    def state_count(self) -> int:
        """How many positions are reachable from any one position: (rows*cols)!/2."""
        return math.factorial(self.size) // 2

    def apply(self, state, tile):
        """The state after sliding `tile` into the blank; InvalidBoard if that is not a legal move."""
        b = state.index(0)
        for p in self.neighbours[b]:
            if state[p] == tile:
                s = list(state)
                s[b], s[p] = tile, 0
                return tuple(s)
        raise InvalidBoard(f"tile {tile} is not next to the blank")

    def replay(self, moves, state=None):
        """Apply moves one by one from `state` (default: the start) and return the final state."""
        state = self.start if state is None else state
        for m in moves:
            state = self.apply(state, m)
        return state

    # Solvability and parity.
    def blank_distance(self) -> int:
        """Manhattan distance between the blank's start and goal cells."""
        b0, b1 = self.start.index(0), self.goal.index(0)
        return abs(b0 // self.cols - b1 // self.cols) + abs(b0 % self.cols - b1 % self.cols)

    def is_solvable(self) -> bool:
        """Solvable iff the permutation taking the goal to the start has the parity of the blank's distance."""
        relabel = {t: i for i, t in enumerate(self.goal)}
        return permutation_parity([relabel[t] for t in self.start]) == self.blank_distance() % 2

    def check_solvable(self) -> None:
        """Raise Unsolvable, with a one-sentence explanation, when the goal cannot be reached."""
        if not self.is_solvable():
            raise Unsolvable(
                "This position can never reach the goal: every move changes the tile order's parity together with "
                "the blank's position, and here they disagree (swapping any two tiles would make it solvable).",
                reason="parity",
            )

    def solution_parity(self) -> int:
        """Every solution's length has this parity (that of the blank's distance)."""
        return self.blank_distance() % 2


def random_position(rows: int, cols: int, goal=None, rng=None) -> tuple[int, ...]:
    """A uniformly random position that can reach `goal` (default goal if None), drawn with `rng` (a
    random.Random; default: a fresh one)."""
    if rng is None:
        import random
        rng = random.Random()
    goal = tuple(goal) if goal is not None else default_goal(rows, cols)
    cells = list(goal)
    rng.shuffle(cells)
    p = SlidingPuzzle(rows, cols, cells, goal)
    if not p.is_solvable():
        i, j = [k for k, t in enumerate(cells) if t][:2]
        cells[i], cells[j] = cells[j], cells[i]
    return tuple(cells)
