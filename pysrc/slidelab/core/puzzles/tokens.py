"""Token puzzles: pieces move along the edges of a graph on a board into empty cells (the knight exchange).

A board is rows x cols cells, some of which may be removed. A move rule (knight jump, king step, orthogonal step)
joins cells into a graph; a move takes one piece along one edge into an empty cell. Pieces with equal labels are
interchangeable. Start and goal are arrangements of the same pieces on the same board.

Board text: one character per cell, rows separated by '/', top row first: a letter is a piece, '.' an empty cell,
'#' a removed cell (spaces between cells are ignored). The knight exchange starts at `BBB/.../.../WWW`.

A state is one int: cell p's content in `bits` bits at bit `p * bits` (row-major), 0 for an empty or removed cell,
1..K for the letters in alphabetical order. A move is a `(from, to)` pair of cell indices; squares are also named
like a chessboard's (column letter from `a` at the left, row number from 1 at the bottom), e.g. `a4-b2`.
"""

from __future__ import annotations

import math
import re
import string
from collections import Counter
from functools import lru_cache

from slidelab.core.errors import InvalidBoard, Unsolvable

MIN_SIDE = 1
MAX_SIDE = 10
EMPTY, REMOVED = ".", "#"
PIECE_NAMES = frozenset(string.ascii_letters)
RULES = {
    "knight": ((-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)),
    "king": ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)),
    "orthogonal": ((-1, 0), (0, -1), (0, 1), (1, 0)),
}
RULE_DESCRIPTIONS = {
    "knight": "a chess knight's jump: two cells in one direction and one cell across",
    "king": "a chess king's step: to any of the eight cells around",
    "orthogonal": "one step up, down, left or right",
}
PROOF_LIMIT = 5000  # boards with at most this many arrangements are searched exhaustively by check_solvable
MOVE_TABLE_CACHE = 1 << 16  # per-occupancy move tables kept before the cache is emptied
_ROW_SPLIT = re.compile(r"\s*(?:/|\n|;)\s*")
_CELL_GAPS = re.compile(r"[\s,]+")


class Preset:
    """A named token puzzle: start and goal board texts and the move rule."""

    def __init__(self, name, title, board, goal, rule, description):
        self.name = name
        self.title = title
        self.board = board
        self.goal = goal
        self.rule = rule
        self.description = description

    def as_dict(self) -> dict:
        return {"name": self.name, "title": self.title, "puzzle": self.name, "board": self.board,
                "goal": self.goal, "rule": self.rule, "description": self.description}


PRESETS = {
    p.name: p
    for p in [
        Preset("knights", "Knight exchange", "BBB/.../.../WWW", "WWW/.../.../BBB", "knight",
               "Three black knights (top row) and three white knights (bottom row) on a board 3 wide and 4 tall "
               "swap places, moving like chess knights into empty squares: 16 moves at best."),
        Preset("guarini", "Guarini's problem", "B.B/.../W.W", "W.W/.../B.B", "knight",
               "Guarini's puzzle of 1512: two black and two white knights in the corners of a 3x3 board swap "
               "places; the centre square is out of every knight's reach: 16 moves at best."),
    ]
}
PUZZLE_NAMES = ("tokens",) + tuple(PRESETS)  # the request's "puzzle" values for token puzzles


def parse_token_board(text: str) -> tuple[int, int, str]:
    """Parse board text like `BBB/.../.../WWW` into (rows, cols, cells); raise InvalidBoard with a clear reason."""
    if not isinstance(text, str):
        raise InvalidBoard("a token board must be given as text, e.g. 'BBB/.../.../WWW'")
    text = text.strip()
    if not text:
        raise InvalidBoard("the board is empty; write rows separated by '/', e.g. 'BBB/.../.../WWW'")
    if len(text) > 1000:
        raise InvalidBoard("the board text is too long")
    grid = [_CELL_GAPS.sub("", row) for row in _ROW_SPLIT.split(text)]
    if any(not row for row in grid):
        raise InvalidBoard("a row is empty; write rows separated by '/', e.g. 'BBB/.../.../WWW'")
    cols = len(grid[0])
    for i, row in enumerate(grid, 1):
        if len(row) != cols:
            raise InvalidBoard(f"row {i} has {len(row)} cells but row 1 has {cols}; every row needs the same length")
        for ch in row:
            if ch not in PIECE_NAMES and ch not in (EMPTY, REMOVED):
                raise InvalidBoard(f"'{ch}' is not a cell: write a letter for a piece, '{EMPTY}' for an empty cell "
                                   f"or '{REMOVED}' for a removed cell")
    rows = len(grid)
    if not (MIN_SIDE <= rows <= MAX_SIDE and MIN_SIDE <= cols <= MAX_SIDE):
        raise InvalidBoard(f"a {rows}x{cols} board is not supported: each side must be {MIN_SIDE} to {MAX_SIDE}")
    cells = "".join(grid)
    if not any(ch in PIECE_NAMES for ch in cells):
        raise InvalidBoard("the board has no pieces (a piece is a letter, e.g. B or W)")
    return rows, cols, cells


def format_token_board(cells: str, cols: int) -> str:
    """Cells (one character each, row-major) as board text, rows separated by '/'."""
    return "/".join(cells[i:i + cols] for i in range(0, len(cells), cols))


def square_name(rows: int, cols: int, cell: int) -> str:
    """Chess-like name of a cell: column letter from `a` at the left, row number from 1 at the bottom."""
    r, c = divmod(cell, cols)
    return f"{chr(ord('a') + c)}{rows - r}"


@lru_cache(maxsize=64)
def move_graph(rows: int, cols: int, live: tuple, rule: str) -> tuple[tuple[int, ...], ...]:
    """For each cell, the live cells one move of `rule` away (none for a removed cell), in increasing order."""
    result = []
    for p in range(rows * cols):
        r, c = divmod(p, cols)
        near = []
        if live[p]:
            for dr, dc in RULES[rule]:
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols and live[rr * cols + cc]:
                    near.append(rr * cols + cc)
        result.append(tuple(sorted(near)))
    return tuple(result)


def _counts_text(counter: Counter) -> str:
    return ", ".join(f"{n} {k}" for k, n in sorted(counter.items())) or "no pieces"


def _check_pair(rows: int, cols: int, start: str, goal: str) -> Counter:
    """Check that start and goal cells fit one board and hold the same pieces; return the piece counts."""
    for what, cells in (("start", start), ("goal", goal)):
        if len(cells) != rows * cols:
            raise InvalidBoard(f"the {what} must have {rows * cols} cells on a {rows}x{cols} board")
    for p, (a, b) in enumerate(zip(start, goal, strict=True)):
        if (a == REMOVED) != (b == REMOVED):
            where = "start" if a == REMOVED else "goal"
            raise InvalidBoard(f"cell {square_name(rows, cols, p)} is removed ('#') in the {where} only; the start "
                               "and goal must remove the same cells")
    start_counts, goal_counts = Counter(start), Counter(goal)
    for counts in (start_counts, goal_counts):
        del counts[EMPTY], counts[REMOVED]
    if start_counts != goal_counts:
        raise InvalidBoard(f"the start has {_counts_text(start_counts)} but the goal has {_counts_text(goal_counts)}; "
                           "the start and goal must hold the same pieces")
    return start_counts


class TokenPuzzle:
    """Pieces on a rows x cols board moving by `rule` into empty cells, from `start` to `goal` (packed ints).

    `moves(state)` returns a list of ((from, to), next state), made from a per-occupancy table of the moves that
    are possible when exactly these cells hold pieces; `children(state)` the next states alone (for searches that
    name no moves until the end). `solution_parity()` exists only when the move graph is bipartite (knight and
    orthogonal moves always are): then every move takes one piece from one colour class to the other, so the number
    of pieces on one class changes by one per move and fixes the parity of every solution (else it is None).
    """

    kind = "tokens"

    def __init__(self, rows: int, cols: int, start: str, goal: str, rule: str):
        if not isinstance(rule, str) or rule not in RULES:
            raise InvalidBoard(f"unknown move rule '{str(rule)[:20]}'; choose one of: {', '.join(RULES)}")
        self.rows, self.cols, self.size, self.rule = rows, cols, rows * cols, rule
        start_counts = _check_pair(rows, cols, start, goal)
        self.labels = "".join(sorted(start_counts))
        self.piece_counts = tuple(start_counts[k] for k in self.labels)
        self.bits = len(self.labels).bit_length()
        self.live = tuple(ch != REMOVED for ch in start)
        self.neighbours = move_graph(rows, cols, self.live, rule)
        self._code = {k: i for i, k in enumerate(self.labels, 1)}
        self.start = self.encode(start)
        self.goal = self.encode(goal)
        self.moves, self.children = _move_lister(self.neighbours, self.bits)
        self._commuting: dict = {}
        self._colours = self._two_colouring()

    @classmethod
    def from_text(cls, board: str, goal: str, rule: str) -> TokenPuzzle:
        """Build from board texts; the goal must have the same shape, removed cells and pieces as the start."""
        rows, cols, cells = parse_token_board(board)
        grows, gcols, goal_cells = parse_token_board(goal)
        if (grows, gcols) != (rows, cols):
            raise InvalidBoard(f"the start is {rows}x{cols} but the goal is {grows}x{gcols}; they must match")
        return cls(rows, cols, cells, goal_cells, rule)

    @classmethod
    def preset(cls, name: str) -> TokenPuzzle:
        """The named preset puzzle (see PRESETS)."""
        p = PRESETS[name]
        return cls.from_text(p.board, p.goal, p.rule)

    def reversed(self) -> TokenPuzzle:
        """The same puzzle with start and goal exchanged (moves are reversible, so distances are the same)."""
        return TokenPuzzle(self.rows, self.cols, self.cells(self.goal), self.cells(self.start), self.rule)

    # Encoding.
    def encode(self, cells: str) -> int:
        """Pack cell characters (row-major) into a state."""
        code, bits = self._code, self.bits
        return sum(code[ch] << p * bits for p, ch in enumerate(cells) if ch in code)

    def cells(self, state: int) -> str:
        """The cell characters of a state, row-major ('.' empty, '#' removed, letters for pieces)."""
        bits, mask, labels = self.bits, (1 << self.bits) - 1, self.labels
        out = []
        for p, live in enumerate(self.live):
            k = (state >> p * bits) & mask
            out.append(labels[k - 1] if k else EMPTY if live else REMOVED)
        return "".join(out)

    # The puzzle interface used by the generic algorithms (`moves` and `children` are made per board in __init__).
    def is_goal(self, state) -> bool:
        return state == self.goal

    def format(self, state) -> str:
        return format_token_board(self.cells(state), self.cols)

    def parse(self, text: str) -> int:
        """The state of a board text, which must have this puzzle's shape, removed cells and pieces."""
        rows, cols, cells = parse_token_board(text)
        if (rows, cols) != (self.rows, self.cols):
            raise InvalidBoard(f"expected a {self.rows}x{self.cols} board, got {rows}x{cols}")
        _check_pair(rows, cols, self.cells(self.start), cells)
        return self.encode(cells)

    def state_count(self) -> int:
        """How many arrangements of these pieces the board has (an upper bound on the reachable ones)."""
        cells = sum(self.live)
        count = math.factorial(cells)
        for n in self.piece_counts + (cells - sum(self.piece_counts),):  # each letter, then the empty cells
            count //= math.factorial(n)
        return count

    def apply(self, state, move):
        """The state after `move` = (from, to); InvalidBoard if that is not a legal move."""
        if (not isinstance(move, (tuple, list)) or len(move) != 2
                or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < self.size for c in move)):
            raise InvalidBoard(f"a move is a pair of cell indices [from, to] (0 to {self.size - 1}), "
                               f"not {str(move)[:40]}")
        a, b = move
        shift_a, shift_b = a * self.bits, b * self.bits
        mask = (1 << self.bits) - 1
        if b not in self.neighbours[a]:
            raise InvalidBoard(f"{self.move_name(move)} is not a {self.rule} move on this board")
        if not (state >> shift_a) & mask:
            raise InvalidBoard(f"there is no piece on {self.square(a)}")
        if (state >> shift_b) & mask:
            raise InvalidBoard(f"{self.square(b)} is not empty")
        k = (state >> shift_a) & mask
        return state ^ (k << shift_a) ^ (k << shift_b)

    def replay(self, moves, state=None):
        """Apply moves one by one from `state` (default: the start) and return the final state."""
        state = self.start if state is None else state
        for m in moves:
            state = self.apply(state, m)
        return state

    # Names and the graph, for readable output and for highlighting in the app.
    def square(self, cell: int) -> str:
        """The chess-like name of a cell, e.g. `a4`."""
        return square_name(self.rows, self.cols, cell)

    def move_name(self, move) -> str:
        """A move written with square names, e.g. `a4-b2`."""
        return f"{self.square(move[0])}-{self.square(move[1])}"

    def commuting_before(self, move) -> frozenset:
        """The moves a depth-first search may skip right after `move`: those on four other cells (so either order is
        legal and reaches the same state) that sort before it. Any path can be reordered, without changing its length
        or ends, so that no such pair is next to each other; the pruning keeps one of every set of reorderings."""
        skip = self._commuting.get(move)
        if skip is None:
            skip = self._commuting[move] = frozenset(
                (p, q) for p, near in enumerate(self.neighbours) for q in near
                if (p, q) < move and p not in move and q not in move)
        return skip

    def describe(self) -> dict:
        """What an app needs to draw the board: the rule, square names and removed cells."""
        return {"rule": self.rule, "squares": [self.square(p) for p in range(self.size)],
                "removed": [p for p, live in enumerate(self.live) if not live]}

    def components(self) -> list[list[int]]:
        """The live cells grouped by connected component of the move graph."""
        seen, groups = set(), []
        for p in range(self.size):
            if self.live[p] and p not in seen:
                group, todo = [], [p]
                seen.add(p)
                while todo:
                    q = todo.pop()
                    group.append(q)
                    for r in self.neighbours[q]:
                        if r not in seen:
                            seen.add(r)
                            todo.append(r)
                groups.append(sorted(group))
        return groups

    # Solvability and parity.
    def check_solvable(self) -> None:
        """Raise Unsolvable, with a one-sentence explanation, when the goal provably cannot be reached.

        Pieces never leave the component of the move graph they start in, and nothing moves in a full component;
        boards with at most PROOF_LIMIT arrangements are decided exactly by searching every reachable one.
        """
        start, goal = self.cells(self.start), self.cells(self.goal)
        for group in sorted(self.components(), key=len):  # the smallest first: the clearest reason
            have = Counter(start[p] for p in group if start[p] != EMPTY)
            need = Counter(goal[p] for p in group if goal[p] != EMPTY)
            names = self._cells_text(group)
            if have != need:
                held, needed = _counts_text(have), _counts_text(need)
                raise Unsolvable(f"Pieces can never leave the cells {self.rule} moves connect them to: {names} "
                                 f"hold {held} in the start but {needed} in the goal.",
                                 reason="trapped", rule=self.rule, cells=names, start=held, goal=needed)
            if all(start[p] != EMPTY for p in group) and any(start[p] != goal[p] for p in group):
                raise Unsolvable(f"Nothing can ever move on {names}: those cells have no empty cell among them, "
                                 "and the start and goal differ there.", reason="frozen", cells=names)
        count = self.state_count()
        if count <= PROOF_LIMIT and not self._reaches_goal():
            raise Unsolvable(f"The goal cannot be reached: a search of every arrangement reachable from the start "
                             f"(of the {count:,} this board has) never meets it.", reason="unreachable", count=count)

    def _reaches_goal(self) -> bool:
        seen, frontier = {self.start}, [self.start]
        while frontier:
            if self.goal in seen:
                return True
            following = []
            for state in frontier:
                for _, child in self.moves(state):
                    if child not in seen:
                        seen.add(child)
                        following.append(child)
            frontier = following
        return self.goal in seen

    def _cells_text(self, group) -> str:
        names = [self.square(p) for p in group]
        return ", ".join(names) if len(names) <= 6 else ", ".join(names[:6]) + f" and {len(names) - 6} more"

    def _two_colouring(self):
        """A 0/1 colour per cell with every edge joining two colours, or None when the graph is not bipartite."""
        colour = [0] * self.size
        for group in self.components():
            first = group[0]
            seen, todo = {first}, [first]
            while todo:
                q = todo.pop()
                for r in self.neighbours[q]:
                    if r not in seen:
                        seen.add(r)
                        colour[r] = 1 - colour[q]
                        todo.append(r)
                    elif colour[r] == colour[q]:
                        return None
        return tuple(colour)

    def solution_parity(self) -> int | None:
        """Every solution's length has this parity; None unless the move graph is bipartite (class docstring)."""
        if self._colours is None:
            return None

        def on_colour_one(state):
            return sum(1 for p, ch in enumerate(self.cells(state)) if ch in self._code and self._colours[p])
        return (on_colour_one(self.goal) - on_colour_one(self.start)) % 2


def token_puzzle(name: str, board: str | None = None, goal: str | None = None, rule: str | None = None):
    """The puzzle a request names: a preset such as "knights" (its start, goal and rule unless a start or goal is
    given; the rule is fixed), or "tokens" (board, goal and rule all given)."""
    if name == "tokens":
        if board is None:
            raise InvalidBoard("no board given: a token puzzle needs a board and a move rule (and a goal to solve it)")
        if goal is None:
            raise InvalidBoard("no goal given: a token puzzle needs a goal board holding the same pieces")
        if rule is None:
            raise InvalidBoard(f"no move rule given: choose one of {', '.join(RULES)}")
        return TokenPuzzle.from_text(board, goal, rule)
    preset = PRESETS[name]
    if rule is not None and rule != preset.rule:
        raise InvalidBoard(f"the {name} puzzle uses {preset.rule} moves; for other rules use the tokens puzzle")
    if board is None:
        board = preset.board
    elif goal is None:
        parse_token_board(board)  # the board's own mistakes first
        try:
            return TokenPuzzle.from_text(board, preset.goal, preset.rule)
        except InvalidBoard as e:
            raise InvalidBoard(f"{e} (the default goal is the {preset.name} preset's '{preset.goal}'; give a goal "
                               "for another board)") from None
    return TokenPuzzle.from_text(board, preset.goal if goal is None else goal, preset.rule)


@lru_cache(maxsize=16)
def _move_lister(neighbours, bits):
    """(moves, children) for one move graph: functions of a state listing the legal ((from, to), next state) pairs,
    and the next states alone. Shared by every puzzle on the same graph, so repeated requests find the tables built.

    The cells holding pieces are folded into an occupancy int (the top bit of each cell's field set when the cell
    is non-zero); the moves possible with that occupancy are listed once per occupancy in a cache as
    (shift of from, weight, move), and a move of the piece with letter code k found at `from` is `state ^ k * weight`.
    """
    size = len(neighbours)
    mask = (1 << bits) - 1
    low = sum(((1 << (bits - 1)) - 1) << p * bits for p in range(size))  # every field's bits below its top bit
    top = sum(1 << (p * bits + bits - 1) for p in range(size))
    edges = [(p, q) for p, near in enumerate(neighbours) for q in near]
    tables: dict = {}

    def table(occupancy):
        if len(tables) >= MOVE_TABLE_CACHE:
            tables.clear()
        result = tables[occupancy] = tuple(
            (p * bits, (1 << p * bits) | (1 << q * bits), (p, q)) for p, q in edges
            if occupancy >> (p * bits + bits - 1) & 1 and not occupancy >> (q * bits + bits - 1) & 1)
        return result

    def moves(state):
        occupancy = ((state & low) + low | state) & top
        entries = tables.get(occupancy)
        if entries is None:
            entries = table(occupancy)
        return [(move, state ^ (state >> shift & mask) * weight) for shift, weight, move in entries]

    def children(state):
        occupancy = ((state & low) + low | state) & top
        entries = tables.get(occupancy)
        if entries is None:
            entries = table(occupancy)
        return [state ^ (state >> shift & mask) * weight for shift, weight, _ in entries]

    return moves, children
