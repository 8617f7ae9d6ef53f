"""The api's answers as types: what `solve`, `trace`, `explore`, `check_heuristic` and `check` return, what a long
request's progress events hold, and the messages between the page's solver and the page's pool of workers. Keys an
answer may leave out are NotRequired; an answer may add keys (the contract grows by adding). schema.py writes the JSON
Schema of answers from these (docs/api.schema.json), and the tests hold the api's real answers, in CPython and from the
page's worker, to it."""

# no `from __future__ import annotations` here: TypedDict tells NotRequired keys only from evaluated annotations
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from slidelab.core.errors import KINDS

ERROR_CODES = (*(kind.code for kind in KINDS), "internal")  # "internal": a bug, never bad input

Move = int | list[int]  # a sliding move is the tile's number; a token move [from, to] cell indices


class Error(TypedDict):
    code: Annotated[str, {"enum": list(ERROR_CODES)}]
    message: str  # in English, one line
    reason: NotRequired[str]  # what the page says in its language (web/i18n), with `details`
    details: NotRequired[dict[str, Any]]


class Failed(TypedDict):
    """Any entry point's error answer."""

    ok: Literal[False]
    error: Error
    printed: NotRequired[str]  # what your heuristic printed before it failed
    trace: NotRequired[dict[str, Any]]  # a trace stopped by your heuristic or the time: what was recorded


class Iteration(TypedDict):
    bound: int
    expanded: int


class Stats(TypedDict):
    """What a search counted."""

    expanded: int
    generated: int
    stored: int  # the most positions held at once
    elapsed_s: float
    iterations: NotRequired[list[Iteration]]  # IDA* and IDDFS: each bound's nodes
    open_peak: NotRequired[int]  # best-first searches: the largest open list
    reopened: NotRequired[int]  # A* with a heuristic that is not consistent


class CutStats(TypedDict):
    """What a trace cut short counted."""

    expanded: int
    generated: int
    elapsed_s: float


class WorkerNodes(TypedDict):
    expanded: int


class ParallelUse(TypedDict):
    """How a split search used its workers."""

    workers: list[WorkerNodes]
    subtrees: int
    workers_replaced: int
    worker_memory_bytes: NotRequired[int]


class Solved(TypedDict):
    """A solve answer."""

    ok: Literal[True]
    length: int
    optimal: bool  # proved shortest
    moves: list[Move]
    algorithm: str
    heuristic: str | None  # None: the algorithm uses none
    stats: Stats
    heuristic_used: NotRequired[str]  # what auto chose
    weight: NotRequired[float]  # weighted A*'s W
    notation: NotRequired[list[str]]  # token moves, readable
    solution_count: NotRequired[int]  # all_solutions
    solutions: NotRequired[list[list[Move]]]  # all_solutions: the first MAX_SOLUTIONS
    parallel: NotRequired[ParallelUse]
    compared: NotRequired[bool]  # your heuristic: whether the path was compared with the shortest
    compare_s: NotRequired[float]
    shortest_length: NotRequired[int | None]  # None: not found in time
    longer_by: NotRequired[int]
    tables_rewritten: NotRequired[list[str]]  # map files found changed since they were written, and written again
    printed: NotRequired[str]  # what your heuristic printed


class TraceNode(TypedDict):
    board: str
    parent: str | None
    move: Move | None
    name: str | None  # the move, readable
    g: int
    h: int | float | None


class Traced(TypedDict):
    """A trace answer (docs/algorithms.md, "Watch the search")."""

    ok: Literal[True]
    algorithm: str
    heuristic: str | None
    puzzle: str
    board: str
    goal: str
    optimal: bool
    nodes: dict[str, TraceNode]
    steps: list[dict[str, Any]]
    expanded: int
    truncated: bool
    length: int | None
    solution: list[str] | None  # the nodes of the path found
    moves: list[Move] | None
    stats: Stats | CutStats  # a trace cut short has only its nodes and time
    limit: NotRequired[str]  # what cut it short: max_steps or max_nodes
    note: NotRequired[str]


class Explored(TypedDict):
    """An explore answer."""

    ok: Literal[True]
    puzzle: str
    goal: NotRequired[str]  # not for a custom token puzzle explored without one
    states: int
    depths: list[int]  # positions at each distance
    max_depth: int
    farthest: list[str]
    farthest_count: int
    engine: Annotated[str, {"enum": ["python", "numpy", "dask"]}]
    stats: Stats
    root: NotRequired[Literal["start"]]  # token puzzles are explored from their start
    board: NotRequired[str]
    board_depth: NotRequired[int | None]


class DistanceRow(TypedDict):
    distance: int
    count: int
    mean_h: float
    min_h: int | float
    max_h: int | float


class HeuristicChecked(TypedDict):
    """A check_heuristic answer (docs/your-heuristic.md)."""

    ok: Literal[True]
    heuristic: str
    complete: bool  # every position (a proof), or a sample
    positions: int
    admissible: bool | None  # None: a sample proves nothing
    consistent: bool | None
    overestimated: int
    mean_h: float
    mean_distance: float
    exact_share: float
    by_distance: list[DistanceRow]
    examples: NotRequired[list[dict[str, Any]]]  # when the request asks for some
    stats: Stats
    puzzle: str
    goal: str
    engine: str
    worst: NotRequired[dict[str, Any]]
    sample: NotRequired[dict[str, Any]]
    file: NotRequired[str]
    isolated: NotRequired[bool]
    printed: NotRequired[str]


class Checked(TypedDict):
    """A check answer: a position read, without searching."""

    ok: Literal[True]
    puzzle: str
    board: str
    goal: str
    solvable: bool
    rows: int
    cols: int
    reason: NotRequired[str]  # why it is not solvable
    why: NotRequired[Error]
    rule: NotRequired[str]  # a token puzzle's: its move rule, square names and removed cells
    squares: NotRequired[list[str]]
    removed: NotRequired[list[int]]


class TableStatus(TypedDict):
    name: str
    ready: bool
    entries: int
    memory_bytes: int
    file_bytes: NotRequired[int]  # the large tables: estimates, said before building
    build_s: NotRequired[float]
    build_memory_bytes: NotRequired[int]


class Tables(TypedDict):
    """A pattern_databases answer: the tables a request's search uses, and whether each is at hand."""

    ok: Literal[True]
    set: str | None
    tables: list[TableStatus]
    ready: bool


class IterationAhead(TypedDict):
    """How far a split search's iteration under way has got, predicted (core/control.py's iteration_ahead)."""

    share: float  # of the iteration's predicted nodes, 0 to 0.99
    growth: float  # the last ended iteration's nodes over the one before's
    left_s: float  # at the search's rate so far


class Progress(TypedDict):
    """A long request's progress event (core/control.py's Meter.progress builds every one)."""

    type: str
    expanded: NotRequired[int]
    generated: NotRequired[int]
    stored: NotRequired[int]
    bound: NotRequired[int]
    depth: NotRequired[int]
    elapsed_s: NotRequired[float]
    nodes_per_s: NotRequired[int]
    workers: NotRequired[list[int]]  # a split search's: each worker's nodes expanded
    iterations: NotRequired[list[int]]  # a split search's: each ended iteration's nodes expanded
    iteration: NotRequired[IterationAhead]  # a split search's, once two iterations ended
    at: NotRequired[list[int]]  # a subtree's search with pattern databases: where it has got (a PartialSubtree's)


class PartialSubtree(TypedDict):
    """A subtree searched in part (search/parallel_idastar.py's Partial): where its search had got, a progress
    event's "at", and its nodes by then; a task given it goes on from there."""

    subtree: int
    at: list[int]
    expanded: int
    generated: int


class PoolTask(TypedDict):
    """A task of a split search's round, as the page's solver hands it to the page's pool (run/scheduler.py's Task)."""

    id: int
    subtrees: list[int]  # indices into the split's frontier, in the order the serial search meets them
    bound: int
    place: int  # its place in the round's order (a task queued again keeps it)
    partial: NotRequired[PartialSubtree]  # its one subtree goes on from where it had got


class PoolQuestion(TypedDict):
    """What the page's solver asks the page's pool between two slices of its own search (run/carriers.py's
    PageCarrier; web/js/pool.js answers it): queue the tasks `start`, hand it the next task if it `take`s one, and
    say what the other workers reported, waiting up to `wait_ms` for news when there is none."""

    start: list[PoolTask]
    take: bool
    wait_ms: int
    request: NotRequired[dict[str, Any]]  # the split request, with the first question: the other workers' search


class PoolEvent(TypedDict):
    """What became of a task at one of the pool's other workers."""

    type: Literal["progress", "done", "lost", "failed"]
    task: int
    worker: NotRequired[int | str]
    expanded: NotRequired[int]  # progress
    generated: NotRequired[int]
    at: NotRequired[list[int]]  # progress: where the task's search has got (a PartialSubtree's)
    answer: NotRequired[dict[str, Any]]  # done: the worker's subtree answer
    how: NotRequired[str]  # lost: how
    died: NotRequired[bool]  # lost: its runtime died (the task counts as tried), else it was taken away untried
    error: NotRequired[Error]  # failed: the search's own error


class PoolReply(TypedDict):
    """The page pool's answer to a PoolQuestion: the other workers ready, the task the solver takes (or null), and
    what the other workers reported since the last question."""

    workers: list[int | str]
    take: int | None
    events: list[PoolEvent]


ANSWERS = {"solve": Solved, "trace": Traced, "explore": Explored, "check_heuristic": HeuristicChecked,
           "check": Checked, "pattern_databases": Tables, "error": Failed}
MESSAGES = {"progress": Progress, "pool_question": PoolQuestion, "pool_reply": PoolReply}  # named as they are
