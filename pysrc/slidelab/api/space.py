"""The api's whole-space work: explore (every position by distance, on the python, numpy or Dask engine) and
check_heuristic (a heuristic against the true distances, complete or on a sample)."""

from __future__ import annotations

from slidelab.api.error_answers import error_of, guarded, printing
from slidelab.api.solving import build_estimator, isolated
from slidelab.contract.request import HeuristicCheck, parse_check, parse_explore, processes, space_of
from slidelab.core.answers import Explored, Failed, HeuristicChecked
from slidelab.core.control import Limits, run
from slidelab.core.errors import MissingData, SearchLimit, SlideLabError, TooLarge
from slidelab.core.puzzles import move_record
from slidelab.heuristics import get_heuristic, user
from slidelab.search import ALGORITHMS

MAX_FARTHEST = 100  # explore answers list at most this many farthest positions ("farthest_count" has them all)


PATH_SECONDS = 5.0  # how long a check may look for a shortest path from the worst overestimate


def explore_steps(request):
    """Generator form of `explore`: yields progress dicts, returns the answer dict."""
    return (yield from guarded(_explore(request)))


def explore_puzzle(request):
    """The puzzle an explore request describes: a sliding {"shape": "3x3", "goal"?} or any solve-style request."""
    return space_of(request).puzzle


def _explore(request):
    space = parse_explore(request)
    puzzle, limits = space.puzzle, space.budget.start()
    tokens = puzzle.kind == "tokens"  # token puzzles are explored from their start, sliding ones from the goal
    engine = space.engine
    if engine == "python":
        from slidelab.space.explore import explore as explore_space
        search = explore_space(puzzle.reversed() if tokens else puzzle, limits)
    elif engine == "numpy":
        from slidelab.space.indexed_explore import indexed_explore
        search = indexed_explore(puzzle, limits)
    else:
        from slidelab.space.dask_explore import dask_explore
        search = dask_explore(puzzle, limits, space.scheduler, processes(space.workers, 2))
    result = yield from search
    answer = {"ok": True, "puzzle": puzzle.kind, "goal": puzzle.format(puzzle.goal), "states": result.states,
              "depths": result.depths, "max_depth": result.max_depth,
              "farthest": [puzzle.format(state) for state in result.farthest[:MAX_FARTHEST]],
              "farthest_count": len(result.farthest), "engine": engine, "stats": result.stats.as_dict(),
              **result.extra}
    if tokens:
        answer["root"] = "start"
    if space.position.board is not None or tokens:  # where the other end lies (None: start and goal are apart)
        answer.update(board=puzzle.format(puzzle.start))
        if space.no_goal:
            del answer["goal"]
        else:
            answer.update(board_depth=result.start_depth)
    return answer


def explore(request, on_progress=None, should_cancel=None) -> Explored | Failed:
    """Explore every position that can reach the goal: {"shape": "3x3"} or {"board", "goal"?, "puzzle"?}, with
    "max_nodes"?, "max_seconds"? -> {"ok": true, "states", "depths", "max_depth", "farthest", "farthest_count",
    "stats", ...}; with a board also its distance from the goal, "board_depth". Token puzzles are explored from
    their start instead ("root": "start"; depths and farthest count moves from the start)."""
    try:
        return run(explore_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)


def check_heuristic_steps(request):
    """Generator form of `check_heuristic`: yields progress dicts, returns the answer dict."""
    return (yield from printing(request, guarded(_check_heuristic(request))))


def _check_heuristic(request):
    parsed = parse_check(request)
    space = parsed.space
    engine = space.engine
    limits = space.budget.start()
    code = parsed.code
    if not (code is not None and code.isolate and code.code is not None):
        return (yield from _checked(parsed, build_estimator(parsed.heuristic, space.puzzle, code), limits, engine))
    from slidelab.run import supervised

    heuristic = supervised.isolated_heuristic(space.puzzle, code, limits.max_seconds)
    evaluators = None
    if engine == "numpy":  # the workers too: h of every position, each in a process of its own
        from slidelab.core.workers import cores

        evaluators = supervised.task_evaluators(space.puzzle, code.code, code.function, code.filename,
                                                heuristic.evaluator.seconds, processes(space.workers, cores()))
    answer = yield from isolated(heuristic.evaluator, _checked(parsed, heuristic, limits, engine, evaluators))
    if answer["ok"]:
        answer["isolated"] = True
    return answer


def _checked(parsed: HeuristicCheck, heuristic, limits, engine, evaluators=None):
    """The check of `heuristic` on `engine`, with the goal, the engine and the file named in the answer."""
    puzzle = parsed.space.puzzle
    if engine == "numpy":
        from slidelab.core.workers import cores
        from slidelab.space.indexed_check import indexed_check_steps

        answer = yield from indexed_check_steps(puzzle, heuristic, limits,
                                                processes(parsed.space.workers, cores()),
                                                parsed.examples, evaluators)
    else:
        from slidelab.space.check import check_steps
        from slidelab.space.explore import INDEXED_CELLS

        answer = yield from check_steps(puzzle, heuristic, limits, examples=parsed.examples)
        if not answer["complete"] and puzzle.kind == "sliding" and puzzle.size <= INDEXED_CELLS:
            answer["sample"]["complete_with"] = 'numpy (pip install ".[scale]") checks every position of this board'
    answer.update(puzzle=puzzle.kind, goal=puzzle.format(puzzle.goal), heuristic=parsed.heuristic, engine=engine)
    if parsed.code is not None and parsed.code.filename != user.CODE_NAME:
        answer["file"] = heuristic.filename
    if "worst" in answer:
        yield from _shortest_from(puzzle, answer["worst"])
    return answer


def _shortest_from(puzzle, worst: dict):
    """Add to the worst overestimate a shortest path from it to the goal ("path", as a solve's "moves"; "notation" for
    a token puzzle), found by IDA* with the strongest built-in heuristic within PATH_SECONDS (else none is added)."""
    from slidelab.core.puzzles import with_start

    board = with_start(puzzle, puzzle.parse(worst["board"]))
    try:
        result = yield from ALGORITHMS["idastar"].start(board, get_heuristic("auto", board),
                                                         Limits(None, PATH_SECONDS), {})
    except (SearchLimit, TooLarge, MissingData):
        return
    worst["path"] = [move_record(m) for m in result.moves]
    if puzzle.kind == "tokens":
        worst["notation"] = [puzzle.move_name(m) for m in result.moves]


def check_heuristic(request, on_progress=None, should_cancel=None) -> HeuristicChecked | Failed:
    """Check a heuristic against the true distances: {"heuristic_code", "heuristic_function"?} (or "heuristic": a
    built-in name or, from Python, a callable) with {"shape": "3x3", "goal"?} or a puzzle like explore's, and
    "max_seconds"? -> {"ok": true, "complete", "positions", "admissible", "consistent", "worst"?, "move"?, "mean_h",
    "mean_distance", "exact_share", "overestimated", "by_distance", "stats", ...} (space/check.py)."""
    try:
        return run(check_heuristic_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)
