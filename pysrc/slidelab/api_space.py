"""The api's whole-space work: explore (every position by distance, on the python, numpy or Dask engine) and
check_heuristic (a heuristic against the true distances, complete or on a sample)."""

from __future__ import annotations

from .api_request import NO_RULE, error_of, guarded, is_int, make_puzzle, option_of, printing, whole
from .api_solve import estimator_of, heuristic_name_of, worker_count
from .errors import BadRequest, InvalidBoard, MissingData, SearchLimit, SlideLabError, TooLarge
from .extras import installed
from .heuristics import get_heuristic, heuristic_spec, user
from .puzzles import move_record
from .puzzles.sliding import SlidingPuzzle, default_goal, parse_shape
from .search import ALGORITHMS
from .search.control import Limits, run

MAX_FARTHEST = 100  # explore answers list at most this many farthest positions ("farthest_count" has them all)


EXPLORE_ENGINES = ("python", "numpy", "dask")  # pure Python (any puzzle), numpy and Dask (sliding, up to 12 cells)


MAX_EXAMPLES = 100  # overestimates a check lists at most


PATH_SECONDS = 5.0  # how long a check may look for a shortest path from the worst overestimate


def explore_steps(request: dict):
    """Generator form of `explore`: yields progress dicts, returns the answer dict."""
    return (yield from guarded(_explore(request)))


def explore_puzzle(request):
    """The puzzle an explore request describes: a sliding {"shape": "3x3", "goal"?} or any solve-style request."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    shape = option_of(request, "shape", str)
    if shape is None:
        return make_puzzle(request)
    if request.get("board") is not None:
        raise BadRequest("give either a shape or a board, not both")
    if option_of(request, "puzzle", str, "sliding") != "sliding":
        raise BadRequest("a shape describes a sliding board; give a board for other puzzles")
    if request.get("rule") is not None:
        raise BadRequest(NO_RULE)
    rows, cols = parse_shape(shape)
    goal = option_of(request, "goal", str)
    if goal is None:
        return SlidingPuzzle(rows, cols, default_goal(rows, cols))
    puzzle = SlidingPuzzle.from_text(goal, goal)
    if (puzzle.rows, puzzle.cols) != (rows, cols):
        raise InvalidBoard(f"the goal is {puzzle.rows}x{puzzle.cols} but the shape is {rows}x{cols}")
    return puzzle


def _explore(request):
    no_goal = isinstance(request, dict) and request.get("puzzle") == "tokens" and request.get("goal") is None
    if no_goal:  # a custom token puzzle is explored from its start: a goal is not needed
        request = dict(request, goal=request.get("board"))
    puzzle = explore_puzzle(request)
    limits = Limits(option_of(request, "max_nodes", int), option_of(request, "max_seconds", float))
    tokens = puzzle.kind == "tokens"  # token puzzles are explored from their start, sliding ones from the goal
    engine = _explore_engine(request, puzzle)
    if engine == "python":
        from .search.explore import explore as explore_space
        search = explore_space(puzzle.reversed() if tokens else puzzle, limits)
    elif engine == "numpy":
        from .search.indexed_explore import indexed_explore
        search = indexed_explore(puzzle, limits)
    else:
        from .search.dask_explore import dask_explore
        search = dask_explore(puzzle, limits, option_of(request, "scheduler", str), worker_count(request, 2))
    result = yield from search
    answer = {"ok": True, "puzzle": puzzle.kind, "goal": puzzle.format(puzzle.goal), "states": result.states,
              "depths": result.depths, "max_depth": result.max_depth,
              "farthest": [puzzle.format(state) for state in result.farthest[:MAX_FARTHEST]],
              "farthest_count": len(result.farthest), "engine": engine, "stats": result.stats.as_dict(),
              **result.extra}
    if tokens:
        answer["root"] = "start"
    if request.get("board") is not None or tokens:  # where the other end lies (None: start and goal are apart)
        answer.update(board=puzzle.format(puzzle.start))
        if no_goal:
            del answer["goal"]
        else:
            answer.update(board_depth=result.start_depth)
    return answer


def _explore_engine(request, puzzle) -> str:
    """Which engine explores: the request's "engine" (python, numpy or dask; "scheduler" means dask), else pure
    Python while the puzzle has at most MAX_POSITIONS positions and numpy (a perfect index of positions, boards of up
    to 12 cells) beyond, when numpy is installed."""
    engine = option_of(request, "engine", str)
    if request.get("scheduler") is not None:
        if engine not in (None, "dask"):
            raise BadRequest("a scheduler address is for the dask engine")
        engine = "dask"
    if engine is None:
        from .search.explore import INDEXED_CELLS, MAX_POSITIONS
        if puzzle.kind == "tokens" or puzzle.state_count() <= MAX_POSITIONS or puzzle.size > INDEXED_CELLS:
            return "python"
        # without numpy: python, which refuses such a board (explore) or checks a sample of it (check_heuristic),
        # naming the `scale` extra either way
        return "python" if installed("numpy") is None else "numpy"
    if engine not in EXPLORE_ENGINES:
        raise BadRequest(f"unknown explore engine '{engine[:20]}'; choose one of: {', '.join(EXPLORE_ENGINES)}")
    if engine != "python" and puzzle.kind != "sliding":
        raise BadRequest(f"the {engine} engine explores sliding boards; token puzzles are explored in Python")
    return engine


def explore(request: dict, on_progress=None, should_cancel=None) -> dict:
    """Explore every position that can reach the goal: {"shape": "3x3"} or {"board", "goal"?, "puzzle"?}, with
    "max_nodes"?, "max_seconds"? -> {"ok": true, "states", "depths", "max_depth", "farthest", "farthest_count",
    "stats", ...}; with a board also its distance from the goal, "board_depth". Token puzzles are explored from
    their start instead ("root": "start"; depths and farthest count moves from the start)."""
    try:
        return run(explore_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)


def check_heuristic_steps(request: dict):
    """Generator form of `check_heuristic`: yields progress dicts, returns the answer dict."""
    return (yield from printing(request, guarded(_check_heuristic(request))))


def _check_heuristic(request):
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    puzzle = explore_puzzle(request)
    name = heuristic_name_of(request)
    if puzzle.kind not in heuristic_spec(name).kinds:
        raise BadRequest(f"the {name} heuristic does not apply to {puzzle.kind} puzzles")
    limits = Limits(option_of(request, "max_nodes", int), option_of(request, "max_seconds", float))
    examples = whole(request.get("examples", 0))
    if not is_int(examples) or not 0 <= examples <= MAX_EXAMPLES:
        raise BadRequest(f"'examples' must be a whole number from 0 to {MAX_EXAMPLES}")
    engine = _explore_engine(request, puzzle)
    if engine == "dask":
        raise BadRequest("a heuristic is checked on this machine's cores (the numpy engine); dask is for explore")
    isolated = (name == user.NAME and engine == "python" and option_of(request, "isolate", bool, False)
                and request.get("heuristic_code") is not None)
    if not isolated:
        return (yield from _checked(request, puzzle, name, estimator_of(request, name, puzzle), limits, engine,
                                    examples))
    from . import supervised

    filename = option_of(request, "heuristic_filename", str, user.CODE_NAME)
    evaluator = supervised.Evaluator(puzzle, option_of(request, "heuristic_code", str),
                                     option_of(request, "heuristic_function", str, user.DEFAULT_FUNCTION), filename,
                                     limits.max_seconds or supervised.DEFAULT_SECONDS)
    heuristic = supervised.IsolatedHeuristic(evaluator, filename)
    try:
        answer = yield from _checked(request, puzzle, name, heuristic, limits, engine, examples)
    finally:
        printed = evaluator.close()
    if printed:
        answer["printed"] = printed
    answer["isolated"] = True
    return answer


def _checked(request, puzzle, name, heuristic, limits, engine, examples):
    """The check of `heuristic` on `engine`, with the goal, the engine and the file named in the answer."""
    if engine == "numpy":
        from .heuristics.indexed_check import indexed_check_steps
        from .workers import cores

        answer = yield from indexed_check_steps(puzzle, heuristic, limits, worker_count(request, cores()), examples)
    else:
        if request.get("workers") is not None:
            raise BadRequest("'workers' share the numpy engine's complete check (sliding boards of up to 12 cells); "
                             "this check runs in one process")
        from .heuristics.check import check_steps
        from .search.explore import INDEXED_CELLS

        answer = yield from check_steps(puzzle, heuristic, limits, examples=examples)
        if not answer["complete"] and puzzle.kind == "sliding" and puzzle.size <= INDEXED_CELLS:
            answer["sample"]["complete_with"] = 'numpy (pip install ".[scale]") checks every position of this board'
    answer.update(puzzle=puzzle.kind, goal=puzzle.format(puzzle.goal), heuristic=name, engine=engine)
    if name == user.NAME and request.get("heuristic_filename") is not None:
        answer["file"] = heuristic.filename
    if "worst" in answer:
        yield from _shortest_from(puzzle, answer["worst"])
    return answer


def _shortest_from(puzzle, worst: dict):
    """Add to the worst overestimate a shortest path from it to the goal ("path", as a solve's "moves"; "notation" for
    a token puzzle), found by IDA* with the strongest built-in heuristic within PATH_SECONDS (else none is added)."""
    from .puzzles import with_start

    board = with_start(puzzle, puzzle.parse(worst["board"]))
    try:
        result = yield from ALGORITHMS["idastar"].start(board, get_heuristic("auto", board),
                                                         Limits(None, PATH_SECONDS), {})
    except (SearchLimit, TooLarge, MissingData):
        return
    worst["path"] = [move_record(m) for m in result.moves]
    if puzzle.kind == "tokens":
        worst["notation"] = [puzzle.move_name(m) for m in result.moves]


def check_heuristic(request: dict, on_progress=None, should_cancel=None) -> dict:
    """Check a heuristic against the true distances: {"heuristic_code", "heuristic_function"?} (or "heuristic": a
    built-in name or, from Python, a callable) with {"shape": "3x3", "goal"?} or a puzzle like explore's, and
    "max_seconds"? -> {"ok": true, "complete", "positions", "admissible", "consistent", "worst"?, "move"?, "mean_h",
    "mean_distance", "exact_share", "overestimated", "by_distance", "stats", ...} (heuristics/check.py)."""
    try:
        return run(check_heuristic_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)
