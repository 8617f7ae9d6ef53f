"""A request parsed once: the JSON of a solve, a trace, an explore, a heuristic check or a split search (the page's
worker sends it; the command line maps its arguments to the same keys) turned into frozen records (record.py). This
is the one place that checks a request's values and says what is wrong with them (BadRequest, InvalidBoard); the api
takes the parsed object and never looks at the JSON again. Each field's metadata names its JSON key and what it
means: schema.py writes the JSON Schema of requests from them (docs/api.schema.json)."""

from __future__ import annotations

import math
from typing import Any

from slidelab.contract.record import field, fields, is_record, record, replace
from slidelab.core.errors import BadRequest, InvalidBoard
from slidelab.core.puzzles.sliding import SlidingPuzzle, default_goal, parse_shape
from slidelab.heuristics import heuristic_spec, pdb, user
from slidelab.search import ALGORITHMS
from slidelab.search.parallel_idastar import MAX_SPLIT, MAX_SUBTREES

DEFAULT_ALGORITHM = "idastar"


DEFAULT_HEURISTIC = "auto"


NO_RULE = "a sliding puzzle has no move rule: tiles slide into the blank (rules are for token puzzles)"


MAX_WORKERS = 256  # processes one request may ask for


MAX_TRACE_STEPS = 2000  # expansions a trace records at most (and by default): some thousand nodes, about a megabyte


MAX_EXAMPLES = 100  # overestimates a heuristic check lists at most


# what carries work on the command line (a split search, a batch, a large table's build): this machine's forked
# processes or a Dask cluster; a split search may also be carried by the page's pool of Web Workers (which only the
# page's own solver asks for)
MACHINE_ENGINES = ("processes", "dask")
SOLVE_ENGINES = (*MACHINE_ENGINES, "page")


# the page's pool splits a search only once its next iteration is predicted to take longer than this: shorter ones
# lose more to the rounds between workers than they gain (docs/benchmarks.md, Korf's 100 on the page's pool)
PAGE_SPLIT_AFTER_S = 0.05


CHECK_ENGINES = ("python", "numpy")  # pure Python (any puzzle), numpy (sliding, up to 12 cells)
EXPLORE_ENGINES = (*CHECK_ENGINES, "dask")  # and the numpy engine's work on a Dask cluster


def key(doc: str, default: Any = None, name: str | None = None, **schema) -> Any:
    """A field read from the JSON key `name` (the field's own name by default), described by `doc`; `schema` adds to
    the JSON Schema that its type gives (schema.py)."""
    return field(default=default, metadata={"doc": doc, "key": name, "schema": schema})


def derived(default: Any = None) -> Any:
    """A field worked out while parsing (the puzzle built, a count of cores), not read from the JSON as such."""
    return field(default=default, compare=False, repr=False, metadata={"json": False})


# the values of a request


def whole(value):
    """A whole number as an int: JSON from JavaScript may write 100 as 100.0 (anything else is left as it is)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def option_of(request: dict, key: str, type_, default=None):
    """The request's `key`, checked to be of `type_` (bool, a positive int or float, str), or `default`."""
    value = request.get(key, default)
    if value is None:
        return default
    if type_ is bool:
        if not isinstance(value, bool):
            raise BadRequest(f"'{key}' must be true or false")
        return value
    if type_ is int:
        value = whole(value)
        if not is_int(value) or value <= 0:
            raise BadRequest(f"'{key}' must be a positive whole number")
        return value
    if type_ is float:
        if (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0
                or isinstance(value, float) and not math.isfinite(value)):
            raise BadRequest(f"'{key}' must be a positive number")
        return float(min(value, 1e18))  # an int too large for a float means no limit
    if not isinstance(value, str):
        raise BadRequest(f"'{key}' must be text")
    return value


def whole_in(request: dict, key: str, low: int, high: int, message: str, default=None):
    """The request's whole number `key` from `low` to `high` (else BadRequest(message)), or `default`."""
    value = whole(request.get(key))
    if value is None:
        return default
    if not is_int(value) or not low <= value <= high:
        raise BadRequest(message)
    return value


def _object(request) -> dict:
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    return request


def as_json(parsed) -> dict:
    """The JSON request a parsed one was read from, in its own terms (defaults filled in, nothing the parse worked
    out): what goes to another runtime, which parses it again."""
    out: dict = {}
    for f in fields(parsed):
        if f.metadata.get("json", True) is False:
            continue
        value = getattr(parsed, f.name)
        if is_record(value):
            out.update(as_json(value))
        elif value is not None:
            out[f.metadata.get("key") or f.name] = value
    return out


# the parts a request is made of


@record
class Position:
    """The puzzle and its start and goal."""

    puzzle: str = key("sliding, or a token puzzle: a preset (knights, ...) or tokens with a rule", "sliding")
    board: str | None = key("the start (docs/formats.md)")
    goal: str | None = key("the goal (default: 1 .. N-1 then the blank; a preset's own)")
    rule: str | None = key("a token puzzle's move rule (describe()['rules'])")

    def build(self):
        """The Puzzle this position describes (InvalidBoard when its text is not a board)."""
        if self.puzzle == "sliding":
            if self.rule is not None:
                raise BadRequest(NO_RULE)
            if self.board is None:
                raise InvalidBoard("no board given")
            return SlidingPuzzle.from_text(self.board, self.goal)
        from slidelab.core.puzzles.tokens import PUZZLE_NAMES, token_puzzle  # only token requests pay for importing it

        if self.puzzle in PUZZLE_NAMES:
            return token_puzzle(self.puzzle, self.board, self.goal, self.rule)
        raise BadRequest(f"unknown puzzle type '{self.puzzle}'; choose one of: sliding, {', '.join(PUZZLE_NAMES)}")


def position_of(request) -> Position:
    request = _object(request)
    return Position(option_of(request, "puzzle", str, "sliding"), option_of(request, "board", str),
                    option_of(request, "goal", str), option_of(request, "rule", str))


def make_puzzle(request: dict):
    """The puzzle a request describes: {"board": text, "goal": text?, "puzzle": "sliding"?}, or a token puzzle
    {"puzzle": "knights" (or another preset), "board"?, "goal"?} or {"puzzle": "tokens", "board", "goal", "rule"}."""
    return position_of(request).build()


@record
class Method:
    """How a position is searched: the algorithm, its heuristic and weight, and the tables `auto` uses."""

    algorithm: str = key("the search algorithm (describe()['algorithms'])", DEFAULT_ALGORITHM)
    heuristic: str = key("the heuristic by name (describe()['heuristics']); yours: the request's code",
                         DEFAULT_HEURISTIC)
    weight: float | None = key("weighted A*'s W in f = g + W * h (its default when left out); null for the others",
                               exclusiveMinimum=0)
    tables: str | None = key("the pattern databases auto uses (default: the largest at hand)",
                             enum=["pdb", *pdb.AUTO_SETS])
    all_solutions: bool = key("list every shortest solution (breadth-first and IDDFS kinds)", False)

    @property
    def spec(self):
        """The algorithm's entry in ALGORITHMS."""
        return ALGORITHMS[self.algorithm]

    @property
    def used(self) -> str:
        """The heuristic the search builds: "zero" for an algorithm that uses none."""
        return self.heuristic if self.spec.uses_heuristic else "zero"

    @property
    def answered(self) -> str | None:
        """The heuristic an answer names: none for an algorithm that uses none."""
        return self.heuristic if self.spec.uses_heuristic else None


def heuristic_name_of(request) -> str:
    """The heuristic a request names: "yours" for a Python callable (the Python API) or code with no other name."""
    value = request.get("heuristic")
    if callable(value):
        return user.NAME
    name = option_of(request, "heuristic", str, user.NAME if request.get("heuristic_code") is not None
                     else DEFAULT_HEURISTIC)
    if name != user.NAME and request.get("heuristic_code") is not None:
        raise BadRequest(f"'heuristic_code' is your own heuristic's code: it goes with the heuristic "
                         f"'{user.NAME}', not '{name}'")
    return name


def tables_of(request) -> str | None:
    """The set of tables `auto` uses ("tables": the page names the set the user chose, and installs its files
    before the search), or None for the largest at hand (pdb.auto_table_set)."""
    chosen = option_of(request, "tables", str)
    if chosen is not None and chosen not in ("pdb", *pdb.AUTO_SETS):
        raise BadRequest(f"tables must be one of {', '.join(('pdb', *pdb.AUTO_SETS))}, not '{chosen[:20]}'")
    return chosen


def method_of(request, kind: str | None = None) -> Method:
    """The method of a request, every name checked (for a puzzle of `kind` when given: the algorithm and the
    heuristic must solve it); the heuristic is checked even where the algorithm uses none: a typo is never ignored."""
    request = _object(request)
    name = option_of(request, "algorithm", str, DEFAULT_ALGORITHM)
    algorithm = ALGORITHMS.get(name)
    if algorithm is None:
        raise BadRequest(f"unknown algorithm '{name}'; choose one of: {', '.join(ALGORITHMS)}")
    if kind is not None and kind not in algorithm.kinds:
        raise BadRequest(f"the {name} algorithm does not solve {kind} puzzles")
    heuristic = heuristic_name_of(request)
    spec = heuristic_spec(heuristic)
    tables = tables_of(request)
    if kind is not None and algorithm.uses_heuristic and kind not in spec.kinds:
        raise BadRequest(f"the {heuristic} heuristic does not apply to {kind} puzzles")
    weight = None
    if algorithm.default_weight is None:
        if request.get("weight") is not None:
            raise BadRequest(f"a weight is for weighted A* (f = g + W * h); {name} takes none")
    else:
        weight = float(option_of(request, "weight", float, algorithm.default_weight))
        weight = int(weight) if weight.is_integer() else weight
    all_solutions = option_of(request, "all_solutions", bool, False)
    return Method(name, heuristic, weight, tables, all_solutions)


@record
class Budget:
    """The limits a request sets: a search past them ends with a "limit" answer."""

    max_nodes: int | None = key("stop after this many nodes (checked every 4,096)", minimum=1)
    max_seconds: float | None = key("stop after this many seconds", exclusiveMinimum=0)

    def start(self):
        """The search's Limits, its clock started now."""
        from slidelab.core.control import Limits

        return Limits(self.max_nodes, self.max_seconds)


def budget_of(request) -> Budget:
    return Budget(option_of(request, "max_nodes", int), option_of(request, "max_seconds", float))


@record
class UserCode:
    """Your own heuristic: its code as text (or, from Python, a callable) and the function in it."""

    code: str | None = key("the heuristic's Python code (docs/your-heuristic.md)", name="heuristic_code")
    function: str = key("the function of the code that is h", user.DEFAULT_FUNCTION, name="heuristic_function")
    filename: str = key("the file the code came from, named in its errors", user.CODE_NAME, name="heuristic_filename")
    isolate: bool = key("compute the code's values in a process of its own (the sandbox where this machine gives "
                        "one), so that the search or check runs where the code never does", False)
    callable: Any = derived()


def code_of(request, heuristic: str) -> UserCode | None:
    """Your own heuristic's code, when the request's heuristic is "yours" (the code itself is compiled only when the
    search starts: never by parsing)."""
    if heuristic != user.NAME:
        return None
    value = request.get("heuristic")
    return UserCode(option_of(request, "heuristic_code", str),
                    option_of(request, "heuristic_function", str, user.DEFAULT_FUNCTION),
                    option_of(request, "heuristic_filename", str, user.CODE_NAME),
                    option_of(request, "isolate", bool, False), value if callable(value) else None)


def worker_count(request, default: int) -> int:
    """The processes a request asks for, "workers": a whole number from 0 (one per core) to MAX_WORKERS, else
    `default`."""
    return processes(whole_in(request, "workers", 0, MAX_WORKERS,
                              f"'workers' must be a whole number from 0 (one per core) to {MAX_WORKERS}"), default)


def processes(workers: int | None, default: int) -> int:
    """The processes a parsed "workers" stands for: 0 one per core, None `default` (which may be 0 too)."""
    value = default if workers is None else workers
    if value == 0:
        from slidelab.core.workers import cores

        return cores()
    return value


@record
class Parallel:
    """How one IDA* search is split over workers."""

    workers: int = key("workers to split it over: 0 one per core", 1, minimum=0, maximum=MAX_WORKERS)
    engine: str = key("what carries the split: forked processes, a Dask cluster, the page's Web Workers",
                      "processes", enum=list(SOLVE_ENGINES))
    scheduler: str | None = key("a Dask cluster's address (means the dask engine; default: a local cluster)")
    after_s: float = key("search in one runtime first, and split once the next iteration is predicted to take longer "
                         "than this many seconds (0: split at once; the page's pool: 0.05 unless the request says)",
                         0.0, name="split_after_s", minimum=0)
    checkpoint: str | None = key("a file to record the search in as it goes (the bound, the subtrees searched), for a "
                                 "resume after a stop (the page's: a file of its worker's, which it keeps in the "
                                 "browser's storage)")
    resume: str | None = key("a checkpoint file to go on from: the same search, its finished work kept (it is "
                             "written on unless 'checkpoint' names another)")


def parallel_of(request, method: Method, code: UserCode | None) -> Parallel | None:
    """The request's split ("workers", "engine", "scheduler"), or None for one process. Only IDA* is split; your own
    heuristic never goes to a Dask cluster."""
    address = option_of(request, "scheduler", str)
    engine = option_of(request, "engine", str, "processes" if address is None else "dask")
    if engine not in SOLVE_ENGINES:
        raise BadRequest(f"'engine' must be one of {', '.join(SOLVE_ENGINES)}, not '{engine[:20]}'")
    if address is not None and engine != "dask":
        raise BadRequest("a scheduler address is for the dask engine")
    resume = option_of(request, "resume", str)
    checkpoint = option_of(request, "checkpoint", str, resume)
    if "" in (resume, checkpoint):
        raise BadRequest("a checkpoint needs a file name")
    value = whole(request.get("workers"))
    if engine == "processes" and (value is None or value == 1 and is_int(value)) and checkpoint is None:
        return None
    workers = worker_count(request, 1 if engine == "processes" else 0)
    if method.algorithm != "idastar":
        leave = "'checkpoint' and 'resume'" if checkpoint is not None else "'workers'"
        raise BadRequest(f"only IDA* is split over workers and checkpointed; {method.algorithm} runs on one (leave "
                         f"{leave} out)")
    if engine == "dask" and code is not None:
        raise BadRequest("your own heuristic runs in a supervised process on this machine, never on a Dask "
                         "cluster: leave 'engine' out")
    after_s = request.get("split_after_s", PAGE_SPLIT_AFTER_S if engine == "page" else 0.0)
    if isinstance(after_s, bool) or not isinstance(after_s, (int, float)) or not 0 <= after_s < math.inf:
        raise BadRequest("'split_after_s' must be a number of seconds, 0 or more")
    if resume is not None:
        after_s = 0  # a resumed search goes on split, from the bound its checkpoint recorded
    return Parallel(workers, engine, address, float(after_s), checkpoint, resume)


def may_split(request) -> bool:
    """Whether a solve request's search is split when a pool of workers is at hand (the page's, a batch's): IDA*
    without limits (a split search of the page or a batch takes none) and without your own heuristic (it runs in one
    supervised worker only). The request needs no board: a batch asks it of its options."""
    request = _object(request)
    method = method_of(request)
    return (method.algorithm == "idastar" and budget_of(request) == Budget()
            and code_of(request, method.heuristic) is None)


# the requests


@record
class Solve:
    """A solve request: the shortest (or some) path from the board to the goal."""

    position: Position = field(default_factory=Position)
    method: Method = field(default_factory=Method)
    budget: Budget = field(default_factory=Budget)
    parallel: Parallel | None = None
    code: UserCode | None = None
    compare: bool = key("compare a path found with your heuristic with the shortest", True)
    puzzle: Any = derived()


def _searched(request):
    """(position, its puzzle built, the method checked for it): what a solve and a trace both read first."""
    position = position_of(request)
    puzzle = position.build()
    return position, puzzle, method_of(request, puzzle.kind)


def _able(capability: str) -> str:
    """The algorithms that have `capability` (an Algorithm flag), for a message that names them."""
    return ", ".join(a.name for a in ALGORITHMS.values() if getattr(a, capability))


def parse_solve(request) -> Solve:
    """A solve request, every value checked (the puzzle built, not yet proved solvable)."""
    if isinstance(request, Solve):
        return request
    position, puzzle, method = _searched(request)
    code = code_of(request, method.heuristic)
    parallel = parallel_of(request, method, code)
    if method.all_solutions and not method.spec.all_solutions:
        raise BadRequest(f"{method.algorithm} finds one solution; all shortest solutions are listed by: "
                         f"{_able('all_solutions')}")
    return Solve(position, method, budget_of(request), parallel, code, option_of(request, "compare", bool, True),
                 puzzle)


@record
class Split:
    """A search split for a pool of workers (the request every worker of the page's pool or of a Dask cluster builds
    the same split from): a solve request of IDA* with no limits."""

    solve: Solve = field(default_factory=Solve)
    size: int = key("the workers the search is split for", 1, name="split_for", minimum=1, maximum=MAX_SPLIT)
    subtrees: int | None = key("the subtrees the start is split into (default: split_for times the subtrees a worker "
                               "of this runtime takes; a resumed checkpoint's split names them)", minimum=1,
                               maximum=MAX_SUBTREES)


def parse_split(request) -> Split:
    if isinstance(request, Split):
        return request
    solve = parse_solve({k: v for k, v in _object(request).items() if k not in ("split_for", "subtrees")})
    if solve.method.algorithm != "idastar":
        raise BadRequest(f"only IDA* is split over workers; {solve.method.algorithm} runs on one")
    wrong = f"'split_for' must be a whole number from 1 to {MAX_SPLIT}"
    size = whole_in(request, "split_for", 1, MAX_SPLIT, wrong)
    if size is None:
        raise BadRequest(wrong)
    if solve.budget != Budget():
        raise BadRequest("a search split over workers takes no max_nodes or max_seconds; a limited search runs on one")
    subtrees = whole_in(request, "subtrees", 1, MAX_SUBTREES, f"'subtrees' must be a whole number from 1 to "
                                                               f"{MAX_SUBTREES}")
    return Split(solve, size, subtrees)


def split_request(solve: Solve, size: int, heuristic: str | None = None, subtrees: int | None = None) -> dict:
    """The JSON of the split a solve request's workers build: without its limits and its own split, for `size`
    workers (and with the heuristic `auto` chose, when given; into `subtrees` subtrees, when a resumed checkpoint
    names them)."""
    method = solve.method if heuristic is None else replace(solve.method, heuristic=heuristic)
    return as_json(Split(replace(solve, method=method, budget=Budget(), parallel=None), size, subtrees))


@record
class Trace:
    """A trace request: a search recorded step by step (Watch the search)."""

    position: Position = field(default_factory=Position)
    method: Method = field(default_factory=Method)
    max_steps: int = key("the expansions recorded", MAX_TRACE_STEPS, minimum=1, maximum=MAX_TRACE_STEPS)
    max_seconds: float | None = key("stop after this many seconds", exclusiveMinimum=0)
    code: UserCode | None = None
    compare: bool = key("compare a path found with your heuristic with the shortest", True)
    puzzle: Any = derived()


def parse_trace(request) -> Trace:
    if isinstance(request, Trace):
        return request
    position, puzzle, method = _searched(request)
    if not method.spec.traceable:
        raise BadRequest(f"{method.algorithm} cannot be traced; these can: {_able('traceable')}")
    max_steps = option_of(request, "max_steps", int, MAX_TRACE_STEPS)
    if max_steps > MAX_TRACE_STEPS:
        raise BadRequest(f"'max_steps' is at most {MAX_TRACE_STEPS:,} (a trace records every node)")
    return Trace(position, method, max_steps, option_of(request, "max_seconds", float),
                 code_of(request, method.heuristic), option_of(request, "compare", bool, True), puzzle)


@record
class Space:
    """A whole state space: a sliding board's shape (and goal), or any position as a solve gives it; its limits,
    and what explores it."""

    position: Position = field(default_factory=Position)
    shape: str | None = key("a sliding board's shape, rows x cols (instead of a board)")
    budget: Budget = field(default_factory=Budget)
    engine: str | None = key("what explores it (default: python up to 2,000,000 positions, numpy beyond)",
                             enum=list(EXPLORE_ENGINES))
    scheduler: str | None = key("a Dask cluster's address (means the dask engine)")
    workers: int | None = key("processes: 0 one per core (numpy and dask engines)", minimum=0, maximum=MAX_WORKERS)
    puzzle: Any = derived()
    no_goal: bool = derived(False)  # a custom token puzzle explored from its start, without a goal


def space_of(request, no_goal: bool = False) -> Space:
    """The space of an explore or check request: {"shape": "3x3", "goal"?} or a position; the engine that explores it
    (the request's, checked against the puzzle, or the default for its size)."""
    request = _object(request)
    shape = option_of(request, "shape", str)
    position = position_of(request)
    if shape is None:
        puzzle = position.build()
    else:
        puzzle = _shaped(shape, position)
    engine = option_of(request, "engine", str)
    scheduler = option_of(request, "scheduler", str)
    if scheduler is not None:
        if engine not in (None, "dask"):
            raise BadRequest("a scheduler address is for the dask engine")
        engine = "dask"
    if engine is not None and engine not in EXPLORE_ENGINES:
        raise BadRequest(f"unknown explore engine '{engine[:20]}'; choose one of: {', '.join(EXPLORE_ENGINES)}")
    if engine not in (None, "python") and puzzle.kind != "sliding":
        raise BadRequest(f"the {engine} engine explores sliding boards; token puzzles are explored in Python")
    workers = whole_in(request, "workers", 0, MAX_WORKERS,
                       f"'workers' must be a whole number from 0 (one per core) to {MAX_WORKERS}")
    return Space(position, shape, budget_of(request), engine or _default_engine(puzzle), scheduler, workers, puzzle,
                 no_goal)


def _default_engine(puzzle) -> str:
    """Pure Python while the puzzle has at most MAX_POSITIONS positions; numpy (a perfect index of positions, boards
    of up to 12 cells) beyond, when numpy is installed."""
    from slidelab.core.extras import installed
    from slidelab.space.explore import INDEXED_CELLS, MAX_POSITIONS

    if puzzle.kind == "tokens" or puzzle.state_count() <= MAX_POSITIONS or puzzle.size > INDEXED_CELLS:
        return "python"
    # without numpy: python, which refuses such a board (explore) or checks a sample of it (check_heuristic), naming
    # the `scale` extra either way
    return "python" if installed("numpy") is None else "numpy"


def _shaped(shape: str, position: Position):
    if position.board is not None:
        raise BadRequest("give either a shape or a board, not both")
    if position.puzzle != "sliding":
        raise BadRequest("a shape describes a sliding board; give a board for other puzzles")
    if position.rule is not None:
        raise BadRequest(NO_RULE)
    rows, cols = parse_shape(shape)
    if position.goal is None:
        return SlidingPuzzle(rows, cols, default_goal(rows, cols))
    puzzle = SlidingPuzzle.from_text(position.goal, position.goal)
    if (puzzle.rows, puzzle.cols) != (rows, cols):
        raise InvalidBoard(f"the goal is {puzzle.rows}x{puzzle.cols} but the shape is {rows}x{cols}")
    return puzzle


def parse_explore(request) -> Space:
    """An explore request; a custom token puzzle needs no goal (it is explored from its start)."""
    if isinstance(request, Space):
        return request
    request = _object(request)
    no_goal = request.get("puzzle") == "tokens" and request.get("goal") is None
    if no_goal:
        request = dict(request, goal=request.get("board"))
    return space_of(request, no_goal)


@record
class HeuristicCheck:
    """A check of a heuristic against the true distances of a whole space (or a sample of it)."""

    space: Space = field(default_factory=Space)
    heuristic: str = key("the heuristic by name; yours: the request's code", DEFAULT_HEURISTIC)
    code: UserCode | None = None
    examples: int = key("overestimates listed", 0, minimum=0, maximum=MAX_EXAMPLES)


def parse_check(request) -> HeuristicCheck:
    if isinstance(request, HeuristicCheck):
        return request
    space = space_of(request)
    name = heuristic_name_of(request)
    if space.puzzle.kind not in heuristic_spec(name).kinds:
        raise BadRequest(f"the {name} heuristic does not apply to {space.puzzle.kind} puzzles")
    examples = whole_in(request, "examples", 0, MAX_EXAMPLES,
                        f"'examples' must be a whole number from 0 to {MAX_EXAMPLES}", 0)
    if space.engine == "dask":
        raise BadRequest("a heuristic is checked on this machine's cores (the numpy engine); dask is for explore")
    if space.engine == "python" and space.workers is not None:
        raise BadRequest("'workers' share the numpy engine's complete check (sliding boards of up to 12 cells); this "
                         "check runs in one process")
    return HeuristicCheck(space, name, code_of(request, name), examples)
