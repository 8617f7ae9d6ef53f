"""Your own heuristic: a Python function of a position, written by a user, used by every search like a built-in one.

The contract (files are written against it): the code defines `h(board)` (or another name the caller gives) returning
a non-negative whole number, 0 at the goal. For sliding puzzles `board.tiles` and `board.goal` are tuples of the
cells, row-major, 0 the blank, and `board.rows`, `board.cols` the shape; helpers: `board.where(tile)` (the cell a
tile is on), `board.home(tile)` (its cell in the goal), `board.row(cell)`, `board.col(cell)`. For token puzzles
`board.cells` and `board.goal` are strings of the cell characters ('.' empty, '#' removed, a letter a piece),
`board.rows`, `board.cols`, and `board.neighbours(cell)` and `board.distance(a, b)` follow the puzzle's move graph.

Every value is checked: an exception, a value that is not a non-negative int, or a value other than 0 at the goal
stops the search with a UserCodeError naming the line of the user's code. The code runs in this process with no
sandbox: in the browser that is the user's own tab (docs/your-heuristic.md), on the command line the user's own file.
"""

from __future__ import annotations

from collections import deque

from ..errors import BadRequest, SlideLabError, UserCodeError

DEFAULT_FUNCTION = "h"
MAX_CODE = 100_000  # characters of code a request may carry
CODE_NAME = "<your heuristic>"  # the file name the code's tracebacks carry
NAME = "yours"  # the heuristic's name in answers and selectors


def compile_function(code: str, function: str = DEFAULT_FUNCTION, filename: str = CODE_NAME):
    """The function `function` that `code` defines; UserCodeError (naming the line) if the code does not compile,
    fails when run, or defines no such function."""
    if not isinstance(code, str) or not code.strip():
        raise BadRequest("your heuristic's code is empty; define h(board), e.g. 'def h(board): return 0'")
    if len(code) > MAX_CODE:
        raise BadRequest(f"your heuristic's code is longer than {MAX_CODE:,} characters")
    if not isinstance(function, str) or not function.isidentifier():
        raise BadRequest(f"'{str(function)[:40]}' is not a Python function name")
    try:
        compiled = compile(code, filename, "exec")
    except SyntaxError as e:
        raise UserCodeError(f"your heuristic has a syntax error at line {e.lineno}: {e.msg}", reason="syntax",
                            line=e.lineno, problem=e.msg) from None
    namespace: dict = {"__name__": "your_heuristic"}
    try:
        exec(compiled, namespace)
    except Exception as e:
        where = _where(e, filename)
        raise UserCodeError(f"your heuristic failed while loading, {where}", reason="loading", where=where) from None
    fn = namespace.get(function)
    if not callable(fn):
        raise UserCodeError(f"your heuristic's code defines no function '{function}' (write: def {function}(board): "
                            "...)", reason="no_function", function=function)
    return fn


def _where(error: BaseException, filename: str) -> str:
    """'at line 3: ZeroDivisionError: division by zero', the line the deepest frame of the user's code."""
    import traceback  # only when something failed: a command that runs pays nothing for it

    lines = [frame.lineno for frame in traceback.extract_tb(error.__traceback__) if frame.filename == filename]
    at = f"at line {lines[-1]}: " if lines else ""
    return f"{at}{type(error).__name__}: {str(error)[:200]}"


class SlidingBoard:
    """The view of a sliding position a user's heuristic sees (one per call; `tiles` is the position)."""

    __slots__ = ("tiles",)
    goal: tuple[int, ...] = ()
    rows = cols = 0
    _home: tuple[int, ...] = ()

    def __init__(self, tiles):
        self.tiles = tiles

    def where(self, tile: int) -> int:
        """The cell (row-major index) tile `tile` is on (0: the blank)."""
        return self.tiles.index(tile)

    def home(self, tile: int) -> int:
        """The cell tile `tile` is on in the goal."""
        return self._home[tile]

    def row(self, cell: int) -> int:
        return cell // self.cols

    def col(self, cell: int) -> int:
        return cell % self.cols


class TokenBoard:
    """The view of a token position a user's heuristic sees (one per call; `cells` is the position)."""

    __slots__ = ("cells",)
    goal = ""
    rows = cols = 0
    _neighbours: tuple[tuple[int, ...], ...] = ()
    _distance: tuple[tuple[int | None, ...], ...] = ()

    def __init__(self, cells):
        self.cells = cells

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The cells a piece on `cell` can move to on an empty board."""
        return self._neighbours[cell]

    def distance(self, a: int, b: int) -> int | None:
        """The fewest moves of one piece from cell a to cell b on an empty board (None: it cannot get there)."""
        return self._distance[a][b]


def _board_view(puzzle):
    """A function state -> the view of it the user's code sees, for this puzzle."""
    if puzzle.kind == "sliding":
        home = [0] * puzzle.size
        for cell, tile in enumerate(puzzle.goal):
            home[tile] = cell
        view = type("SlidingBoard", (SlidingBoard,), {"__slots__": (), "goal": tuple(puzzle.goal),
                                                       "rows": puzzle.rows, "cols": puzzle.cols,
                                                       "_home": tuple(home)})
        return view
    cells = puzzle.cells
    view = type("TokenBoard", (TokenBoard,), {"__slots__": (), "goal": cells(puzzle.goal), "rows": puzzle.rows,
                                              "cols": puzzle.cols, "_neighbours": puzzle.neighbours,
                                              "_distance": _distances(puzzle.neighbours)})
    return lambda state: view(cells(state))


def _distances(neighbours) -> tuple[tuple[int | None, ...], ...]:
    """All-pairs move counts on the move graph (breadth-first from every cell)."""
    rows = []
    for source in range(len(neighbours)):
        dist = [-1] * len(neighbours)
        dist[source] = 0
        queue = deque([source])
        while queue:
            a = queue.popleft()
            for b in neighbours[a]:
                if dist[b] < 0:
                    dist[b] = dist[a] + 1
                    queue.append(b)
        rows.append(tuple(d if d >= 0 else None for d in dist))
    return tuple(rows)


class UserHeuristic:
    """A user's function as an Estimator (heuristics/estimator.py): the generic searches call it on every state.
    `filename` is the file its code came from (CODE_NAME for code given as text), to find its lines in tracebacks."""

    kernel = None

    def __init__(self, function, puzzle, filename: str = CODE_NAME, name: str = NAME):
        self.name = name
        self.function = function
        self.filename = filename
        self.view = _board_view(puzzle)
        value = self(puzzle.goal)
        if value != 0:
            raise UserCodeError(f"your heuristic gives {value} at the goal; a heuristic must be 0 there",
                                reason="goal_not_zero", value=value)

    def __call__(self, state) -> int:
        try:
            value = self.function(self.view(state))
        except SlideLabError:  # a limit or a cancel that arrived while the user's code ran (the CLI's alarm)
            raise
        except RecursionError:
            raise UserCodeError("your heuristic recursed too deeply", reason="recursion") from None
        except Exception as e:
            where = _where(e, self.filename)
            raise UserCodeError(f"your heuristic failed {where}", reason="failed", where=where) from None
        if type(value) is not int or value < 0:
            raise UserCodeError(f"your heuristic returned {str(value)[:40]!s} ({type(value).__name__}); it must "
                                "return a whole number of at least 0", reason="bad_value", value=str(value)[:40],
                                type=type(value).__name__)
        return value


def user_heuristic(puzzle, code=None, function: str = DEFAULT_FUNCTION, callable_=None) -> UserHeuristic:
    """The Estimator of a user's heuristic for `puzzle`: from source `code` defining `function`, or a Python
    callable `callable_` (the Python API) taking the board view."""
    if callable_ is not None:
        code_object = getattr(callable_, "__code__", None)
        filename = code_object.co_filename if code_object is not None else CODE_NAME
        return UserHeuristic(callable_, puzzle, filename)
    return UserHeuristic(compile_function(code, function), puzzle)


def needs_code(puzzle):
    """The builder HEURISTICS lists for "yours": it is built from the request's code (api.py), never by name."""
    raise BadRequest("the 'yours' heuristic needs your code: --heuristic-file FILE.py on the command line, "
                     "'heuristic_code' in a request")
