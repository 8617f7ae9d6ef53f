"""Your own heuristic: a Python function of a position, written by a user, used by every search like a built-in one.

The contract (files are written against it): the code defines `h(board)` (or another name the caller gives) returning
a non-negative whole number, 0 at the goal. For sliding puzzles `board.tiles` and `board.goal` are tuples of the
cells, row-major, 0 the blank, and `board.rows`, `board.cols` the shape; helpers: `board.where(tile)` (the cell a
tile is on), `board.home(tile)` (its cell in the goal), `board.row(cell)`, `board.col(cell)`. For token puzzles
`board.cells` and `board.goal` are strings of the cell characters ('.' empty, '#' removed, a letter a piece),
`board.rows`, `board.cols`, and `board.neighbours(cell)` and `board.distance(a, b)` follow the puzzle's move graph.

Every value is checked: an exception, `sys.exit`, a value that is not a whole number of at least 0, or a value other
than 0 at the goal stops the search with a UserCodeError naming the file, the line and the board. The code runs in
the process that calls it: the command line runs every search with it in a process of its own (supervised.py), which
is ended when it overruns its time; the page runs it in the solver's worker, which the page can end.
"""

from __future__ import annotations

import operator
from collections import deque

from slidelab.core.errors import BadRequest, SlideLabError, UserCodeError

RECURSED = "it recursed too deeply (RecursionError)"  # said of code that recursed, wherever it ran
DEFAULT_FUNCTION = "h"
MAX_CODE = 100_000  # characters of code a request may carry
MAX_PRINTED = 4_000  # characters of what the code prints that an answer keeps
CODE_NAME = "<your heuristic>"  # the file name the code's tracebacks carry
NAME = "yours"  # the heuristic's name in answers and selectors
# What the user's code may raise that is turned into a UserCodeError. In a process of its own (supervised.py) a
# KeyboardInterrupt can only come from the code itself, and is added there; elsewhere it is a real Ctrl+C.
CAUGHT: tuple[type[BaseException], ...] = (Exception, SystemExit)


def contain_interrupts() -> None:
    """In a process that runs only the user's code: a KeyboardInterrupt it raises is its failure too."""
    global CAUGHT
    CAUGHT = (Exception, SystemExit, KeyboardInterrupt)


def _named(filename: str, line: int | None = None) -> str:
    """'your heuristic (my_h.py)', 'your heuristic (my_h.py, line 3)', or without the file for code given as
    text."""
    where = ([] if filename == CODE_NAME else [filename]) + ([] if line is None else [f"line {line}"])
    return f"your heuristic ({', '.join(where)})" if where else "your heuristic"


def compile_function(code: str, function: str = DEFAULT_FUNCTION, filename: str = CODE_NAME):
    """The function `function` that `code` defines; UserCodeError (naming the line) if the code does not compile,
    fails when run, or defines no such function."""
    if not isinstance(code, str) or not code.strip():
        raise BadRequest("your heuristic's code is empty; define h(board), e.g. 'def h(board): return 0'")
    if len(code) > MAX_CODE:
        raise BadRequest(f"your heuristic's code is longer than {MAX_CODE:,} characters")
    if not isinstance(function, str) or not function.isidentifier():
        raise BadRequest(f"'{str(function)[:40]}' is not a Python function name")
    if not isinstance(filename, str) or not filename or len(filename) > 500:
        raise BadRequest("'heuristic_filename' must be a file name (the one your code's messages give)")
    named = _named(filename)
    try:
        compiled = compile(code, filename, "exec")
    except SyntaxError as e:
        raise UserCodeError(f"{named} has a syntax error at line {e.lineno}: {e.msg}", reason="syntax",
                            line=e.lineno, problem=e.msg, file=filename) from None
    namespace: dict = {"__name__": "your_heuristic"}
    try:
        exec(compiled, namespace)
    except SlideLabError:  # the time limit, or a cancel, that arrived while the module's code ran
        raise
    except CAUGHT as e:
        line, where = _where(e, filename)
        raise UserCodeError(f"{named} failed while loading, {where}", reason="loading", where=where, line=line,
                            file=filename) from None
    fn = namespace.get(function)
    if not callable(fn):
        raise UserCodeError(f"{named}'s code defines no function '{function}' (write: def {function}(board): ...)",
                            reason="no_function", function=function, file=filename)
    return fn


def _where(error: BaseException, filename: str) -> tuple[int | None, str]:
    """(the line of the deepest frame of the user's code, 'at line 3: ZeroDivisionError: division by zero')."""
    line = None
    tb = error.__traceback__
    while tb is not None:  # not traceback.extract_tb: code that recursed a million deep took it seconds
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    at = f"at line {line}: " if line else ""
    if isinstance(error, SystemExit):
        return line, f"{at}it called sys.exit({error.code!r}) (a heuristic returns its value: it never ends the " \
                     "program)"
    if isinstance(error, RecursionError):
        return line, f"{at}{RECURSED}"
    said = str(error)[:200]
    return line, f"{at}{type(error).__name__}" + (f": {said}" if said else "")


def whole_number(value) -> int:
    """`value` as an int if it is a whole number (an int, or an integer of numpy's); ValueError with the reason
    otherwise."""
    if type(value) is int:
        if value < 0:
            raise ValueError("a heuristic is never below 0")
        return value
    if isinstance(value, bool):
        raise ValueError("True and False are not numbers of moves")
    if isinstance(value, float):
        raise ValueError("a float is not a whole number, even 2.0: return an int (use // to divide, or int(...))")
    try:
        number = operator.index(value)
    except TypeError:
        raise ValueError("h must return an int") from None
    return whole_number(number)


class Printed:
    """Where the user's `print` goes while a search runs its code (the api): the first MAX_PRINTED characters are kept,
    and how many were printed in all."""

    def __init__(self):
        self.parts: list[str] = []
        self.kept = 0
        self.total = 0

    def write(self, text: str) -> int:
        self.total += len(text)
        if self.kept < MAX_PRINTED:
            part = text[:MAX_PRINTED - self.kept]
            self.parts.append(part)
            self.kept += len(part)
        return len(text)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        text = "".join(self.parts)
        if self.total > self.kept:
            text += f"\n... (cut: {self.total:,} characters printed in all)"
        return text


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
    `filename` is the file its code came from (CODE_NAME for code given as text), to find its lines in tracebacks and
    name it in messages."""

    kernel = None

    def __init__(self, function, puzzle, filename: str = CODE_NAME, name: str = NAME):
        self.name = name
        self.function = function
        self.filename = filename
        self.format = puzzle.format
        self.view = _board_view(puzzle)
        value = self(puzzle.goal)
        if value != 0:
            raise UserCodeError(f"{_named(filename)} gives {value} at the goal {puzzle.format(puzzle.goal)}; a "
                                "heuristic must be 0 there", reason="goal_not_zero", value=value,
                                board=puzzle.format(puzzle.goal), file=filename)

    def __call__(self, state) -> int:
        try:
            value = self.function(self.view(state))
            if type(value) is int and value >= 0:
                return value
            try:
                return whole_number(value)  # an object of the code's may run its own code here (__index__)
            except ValueError as e:
                self.bad_value(state, value, str(e))
        except SlideLabError:  # a limit or a cancel that arrived while the user's code ran, or the bad value
            raise
        except CAUGHT as e:
            line, where = _where(e, self.filename)
            board = self.format(state)
            reason = "recursion" if isinstance(e, RecursionError) else "failed"
            raise UserCodeError(f"{_named(self.filename)} failed on the board {board}, {where}", reason=reason,
                                where=where, line=line, board=board, file=self.filename) from None
        return 0

    def bad_value(self, state, value, why: str):
        """Raise the UserCodeError of a value that is not a whole number of at least 0, returned on `state`."""
        code = getattr(self.function, "__code__", None)
        line = code.co_firstlineno if code is not None and code.co_filename == self.filename else None
        board = self.format(state)
        try:
            shown = repr(value)[:60]
        except CAUGHT:  # its own __repr__ failed
            shown = f"a {type(value).__name__}"
        raise UserCodeError(f"{_named(self.filename, line)} returned {shown} ({type(value).__name__}) on the board "
                            f"{board}: {why}", reason="bad_value", value=shown, type=type(value).__name__,
                            board=board, line=line, file=self.filename)


def user_heuristic(puzzle, code=None, function: str = DEFAULT_FUNCTION, callable_=None,
                   filename: str = CODE_NAME) -> UserHeuristic:
    """The Estimator of a user's heuristic for `puzzle`: from source `code` defining `function` (`filename`: the
    file it came from, named in messages), or a Python callable `callable_` (the Python API) taking the board
    view."""
    if callable_ is not None:
        code_object = getattr(callable_, "__code__", None)
        filename = code_object.co_filename if code_object is not None else CODE_NAME
        return UserHeuristic(callable_, puzzle, filename)
    return UserHeuristic(compile_function(code, function, filename), puzzle, filename)


def needs_code(puzzle):
    """The builder HEURISTICS lists for "yours": it is built from the request's code (the api), never by name."""
    raise BadRequest("the 'yours' heuristic needs your code: --heuristic-file FILE.py on the command line, "
                     "'heuristic_code' in a request")
