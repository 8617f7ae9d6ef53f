"""The api's searches of one position: solve (its method and tables chosen, a heuristic's path compared with the
shortest, a token puzzle's goal proved reachable first) and trace (a search recorded step by step for Watch)."""

from __future__ import annotations

import functools
import time

from .api_request import (
    DEFAULT_ALGORITHM,
    DEFAULT_HEURISTIC,
    error,
    error_of,
    guarded,
    is_int,
    make_puzzle,
    option_of,
    printing,
    whole,
)
from .errors import BadRequest, MissingData, SearchLimit, SlideLabError, TooLarge, Unavailable, Unsolvable
from .heuristics import get_heuristic, heuristic_spec, pdb, user
from .puzzles import move_record
from .scheduler import MAX_SPLIT
from .search import ALGORITHMS
from .search.control import Limits, run

MAX_SOLUTIONS = 1000  # all-solutions answers are cut here (the count is still exact up to it)


PROBE_NODES = 20_000  # nodes a depth-first search of a token puzzle gets before its goal is proved reachable


MAX_WORKERS = 256  # processes one parallel IDA* may ask for


MAX_TRACE_STEPS = 2000  # expansions a trace records at most (and by default): some thousand nodes, about a megabyte


VERIFY_SECONDS = 10  # how long a search with the user's heuristic may spend finding the shortest length to compare


COMPARE_FLOOR_S = 1.0  # the comparison may take as long as the search itself took, and at least this


MAX_TRACE_NODES = 20_000  # nodes a trace records at most: where positions have dozens of moves, a few megabytes


def solve_steps(request: dict):
    """Generator form of `solve`: yields progress dicts, returns the answer dict."""
    return (yield from printing(request, guarded(_solve(request))))


def solve_setup(request):
    """(puzzle, algorithm, heuristic name, weight) of a solve request, every name checked; the heuristic is "zero"
    for an algorithm that uses none, the weight None for one that takes none (else the request's or the default)."""
    puzzle = make_puzzle(request)
    name = option_of(request, "algorithm", str, DEFAULT_ALGORITHM)
    algorithm = ALGORITHMS.get(name)
    if algorithm is None:
        raise BadRequest(f"unknown algorithm '{name}'; choose one of: {', '.join(ALGORITHMS)}")
    if puzzle.kind not in algorithm.kinds:
        raise BadRequest(f"the {name} algorithm does not solve {puzzle.kind} puzzles")
    heuristic_name = heuristic_name_of(request)
    spec = heuristic_spec(heuristic_name)  # checked even where the algorithm uses none: a typo is never ignored
    chosen_tables(request)
    if not algorithm.uses_heuristic:
        heuristic_name = "zero"
    elif puzzle.kind not in spec.kinds:
        raise BadRequest(f"the {heuristic_name} heuristic does not apply to {puzzle.kind} puzzles")
    if algorithm.default_weight is None:
        if request.get("weight") is not None:
            raise BadRequest(f"a weight is for weighted A* (f = g + W * h); {name} takes none")
        return puzzle, algorithm, heuristic_name, None
    weight = float(option_of(request, "weight", float, algorithm.default_weight))
    return puzzle, algorithm, heuristic_name, int(weight) if weight.is_integer() else weight


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


def chosen_tables(request):
    """The set of tables `auto` uses for a solve request ("tables": the page names the set the user chose, and
    installs its files before the search), or None for the largest at hand (pdb.auto_table_set)."""
    chosen = option_of(request, "tables", str)
    if chosen is not None and chosen not in pdb.TABLE_SETS:
        raise BadRequest(f"tables must be one of {', '.join(pdb.TABLE_SETS)}, not '{chosen[:20]}'")
    return chosen


def estimator_of(request, name, puzzle):
    """The heuristic `name` built for `puzzle`; "yours" from the request's code (or callable); `auto` with the
    tables the request offers."""
    if name != user.NAME:
        return get_heuristic(name, puzzle, chosen_tables(request))
    value = request.get("heuristic")
    if callable(value):
        return user.user_heuristic(puzzle, callable_=value)
    code = option_of(request, "heuristic_code", str)
    if code is None:
        user.needs_code(puzzle)
    return user.user_heuristic(puzzle, code, option_of(request, "heuristic_function", str, user.DEFAULT_FUNCTION),
                               filename=option_of(request, "heuristic_filename", str, user.CODE_NAME))


def _compares(request, algorithm, heuristic_name) -> bool:
    """Whether a path found with the user's heuristic is compared with the shortest: only an algorithm that is
    shortest with an admissible heuristic (A*, IDA*) is, and not when the request says "compare": false."""
    return (heuristic_name == user.NAME and algorithm.uses_heuristic and algorithm.optimal
            and option_of(request, "compare", bool, True))


def _solve(request):
    puzzle, algorithm, heuristic_name, weight = solve_setup(request)
    name = algorithm.name
    parallel = _parallel(request, name)  # refused before your code is ever run
    heuristic = estimator_of(request, heuristic_name, puzzle)
    all_solutions = option_of(request, "all_solutions", bool, False)
    if all_solutions and not algorithm.all_solutions:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.all_solutions)
        raise BadRequest(f"{name} finds one solution; all shortest solutions are listed by: {able}")
    limits = Limits(option_of(request, "max_nodes", int), option_of(request, "max_seconds", float))
    puzzle.check_solvable()
    options = {"all_solutions": all_solutions, "weight": weight, "parallel": parallel}
    if puzzle.kind == "tokens" and not algorithm.exhaustive:
        result = yield from _probe_then_prove(puzzle, algorithm, heuristic, limits, options)
    else:
        result = yield from algorithm.start(puzzle, heuristic, limits, options)
    answer = solve_answer(puzzle, algorithm, heuristic_name, heuristic, weight, result, all_solutions)
    if answer["ok"] and heuristic_name == user.NAME and algorithm.uses_heuristic and algorithm.optimal:
        yield from _compare_with_shortest(puzzle, answer, limits, _compares(request, algorithm, heuristic_name),
                                          result.stats.elapsed_s)
    return answer


def _compare_with_shortest(puzzle, answer, limits, compare: bool, searched_s: float):
    """A path found with the user's heuristic by A* or IDA* is shortest only if that heuristic never overestimates,
    which nothing has proved: compare it with the shortest length, found by IDA* with the strongest built-in
    heuristic, given as long as the search took (at least COMPARE_FLOOR_S, at most VERIFY_SECONDS and the request's
    time limit). Sets "optimal" (the path is as short as the shortest), "shortest_length" (None: not found in time,
    or not compared: "compared" false) and "longer_by"."""
    answer["compared"] = compare
    if not compare:
        answer.update(shortest_length=None, optimal=False)
        return
    started = time.perf_counter()
    seconds = min(VERIFY_SECONDS, max(COMPARE_FLOOR_S, searched_s))
    if limits.max_seconds is not None:  # within the request's own limit (the page ends a worker past it)
        seconds = min(seconds, limits.max_seconds - (started - limits.started))
    answer["compare_s"] = round(max(seconds, 0), 3)
    shortest = None
    if seconds > 0:
        try:
            result = yield from ALGORITHMS["idastar"].start(puzzle, get_heuristic("auto", puzzle),
                                                             Limits(None, seconds, started), {})
            shortest = len(result.moves)
        except (SearchLimit, TooLarge, MissingData):
            pass
    answer["shortest_length"] = shortest
    answer["optimal"] = shortest is not None and answer["length"] == shortest
    if shortest is not None and answer["length"] > shortest:
        answer["longer_by"] = answer["length"] - shortest


def solve_answer(puzzle, algorithm, heuristic_name, heuristic, weight, result, all_solutions):
    """A solve answer from a search's result, its path checked by replaying it."""
    final = puzzle.replay(result.moves)
    if not puzzle.is_goal(final):  # every answer is checked by replaying it
        return error("internal", f"{algorithm.name} returned a path that does not reach the goal")
    answer = {"ok": True, "length": len(result.moves), "optimal": result.optimal,
              "moves": [move_record(m) for m in result.moves], "algorithm": algorithm.name,
              "heuristic": heuristic_name if algorithm.uses_heuristic else None,
              "stats": result.stats.as_dict()}
    _add_notation(answer, puzzle, result.moves)
    if all_solutions:
        sols = result.solutions or [result.moves]
        answer["solution_count"] = len(sols)
        answer["solutions"] = [[move_record(m) for m in s] for s in sols[:MAX_SOLUTIONS]]
    _describe_method(answer, heuristic, weight)
    answer.update(result.extra)
    return answer


def worker_count(request, default: int) -> int:
    """The processes a request asks for, "workers": a whole number from 0 (one per core) to MAX_WORKERS, else
    `default`; the one reading of it for solve and explore alike."""
    value = whole(request.get("workers"))
    if value is None:
        return default
    if not is_int(value) or not 0 <= value <= MAX_WORKERS:
        raise BadRequest(f"'workers' must be a whole number from 0 (one per core) to {MAX_WORKERS}")
    if value == 0:
        from .workers import cores

        return cores()
    return value


# what carries a search split over workers: forked processes, a Dask cluster, the page's pool of Web Workers (which
# only the page's own solver asks for)
SOLVE_ENGINES = ("processes", "dask", "page")


def _parallel(request, algorithm_name):
    """How a solve request's search is split over workers ("workers", "engine", "scheduler"): the search generator
    `parallel(puzzle, heuristic, limits, all_solutions)` that runs it (scheduler.py), or None for one process. Only
    IDA* is split: on forked processes where they share memory, on the page's pool of Web Workers ("engine": "page",
    from the page's own solver), or on a Dask cluster ("engine": "dask"; the one at "scheduler", which means dask, else
    a local one of "workers" processes, one per core by default)."""
    address = option_of(request, "scheduler", str)
    engine = option_of(request, "engine", str, "processes" if address is None else "dask")
    if engine not in SOLVE_ENGINES:
        raise BadRequest(f"'engine' must be one of {', '.join(SOLVE_ENGINES)}, not '{engine[:20]}'")
    if address is not None and engine != "dask":
        raise BadRequest("a scheduler address is for the dask engine")
    value = whole(request.get("workers"))
    if engine == "processes" and (value is None or value == 1 and is_int(value)):
        return None
    workers = worker_count(request, 1 if engine == "processes" else 0)
    if algorithm_name != "idastar":
        raise BadRequest(f"only IDA* is split over workers; {algorithm_name} runs on one (leave 'workers' out)")
    from . import carriers

    if engine == "page":
        from .api_pool import searched_of, split_of

        keep = {k: v for k, v in request.items() if k not in ("workers", "engine", "max_nodes", "max_seconds")}
        request_for_workers = dict(keep, pool=min(workers, MAX_SPLIT))
        split_of(request_for_workers)  # checked here, as every worker will read it
        return carriers.in_page(min(workers, MAX_SPLIT), request_for_workers, searched_of)
    if engine == "dask":
        if request.get("heuristic_code") is not None or callable(request.get("heuristic")):
            raise BadRequest("your own heuristic runs in a supervised process on this machine, never on a Dask "
                             "cluster: leave 'engine' out")
        from .api_pool import split_of

        keep = {k: v for k, v in request.items() if k not in ("workers", "engine", "scheduler", "max_nodes",
                                                               "max_seconds")}
        return carriers.on_dask(address, workers,
                                lambda size, name: functools.partial(split_of, dict(keep, pool=size, heuristic=name)))
    from .workers import fork_unavailable

    why_not = fork_unavailable()
    if why_not is not None:
        raise Unavailable(why_not)
    return carriers.forked(workers)


def _add_notation(answer, puzzle, moves) -> None:
    """Token moves, readable, as "notation" (a sliding move is already the tile's number)."""
    if puzzle.kind == "tokens":
        answer["notation"] = [puzzle.move_name(m) for m in moves]


def _describe_method(answer, heuristic, weight) -> None:
    """Add to an answer which heuristic auto chose and the weight of weighted A*."""
    if answer["heuristic"] == "auto":
        answer["heuristic_used"] = heuristic.name
    if weight is not None:
        answer["weight"] = weight


def _probe_then_prove(puzzle, algorithm, heuristic, limits, options):
    """Run a depth-first search (IDA*, IDDFS) on a token puzzle, whose goal may be unreachable where check_solvable
    could not prove it either way: such a search would deepen for ever. It first gets PROBE_NODES nodes (not
    reported: a fraction of a second); if it has not finished by then, bidirectional BFS settles whether the goal can
    be reached at all (it exhausts the smaller side when not), and then the search runs in full, from scratch. The
    node limit counts that search's own nodes (the probe and the proof, bounded by MAX_STORED positions, come on
    top); the time limit covers all three."""
    result, proof = yield from probe_reachable(puzzle, algorithm, heuristic, limits, options)
    if result is not None:
        return result
    try:
        return (yield from algorithm.start(puzzle, heuristic, limits, options))
    except SearchLimit as e:
        why = {"reachable": "the goal can be reached (a breadth-first search met it): a larger limit finds it",
               "too large": f"the goal may be unreachable, which {algorithm.name} cannot tell, and the board has "
                            "too many arrangements to decide it",
               "not tried": f"the goal may be unreachable, which {algorithm.name} cannot tell: explore, bfs or "
                            "bidirectional decide it"}[proof]
        raise SearchLimit(f"{e}; {why}", reason=e.reason, **e.details, proof=proof.replace(" ", "_"),
                          algorithm=algorithm.name) from None


def probe_reachable(puzzle, algorithm, heuristic, limits, options):
    """The probe and the proof of _probe_then_prove (also the page pool's split, before it splits): (the probe's
    result, None) when the probe finished, else (None, the proof: "reachable", "too large" or "not tried"); raises
    Unsolvable when the goal cannot be reached."""
    if limits.max_nodes is not None and limits.max_nodes <= PROBE_NODES:
        return None, "not tried"
    probe = algorithm.start(puzzle, heuristic, Limits(PROBE_NODES, limits.max_seconds, limits.started), options)
    try:
        reply = None
        while True:  # its progress is not reported; a question to the page (the page's pool) is asked
            step = probe.send(reply)
            reply = (yield step) if "ask" in step else None
    except StopIteration as stop:
        return stop.value, None
    except SearchLimit:
        limits.check(0, time.perf_counter())  # the time limit, if that is what stopped the probe
    try:
        yield from ALGORITHMS["bidirectional"].start(puzzle, None, Limits(None, limits.max_seconds, limits.started),
                                                     {})
    except TooLarge:
        return None, "too large"
    except Unsolvable:
        raise Unsolvable("The goal cannot be reached: a breadth-first search of every arrangement reachable "
                         "from the start (or from the goal) never meets the other side.",
                         reason="never_meets") from None
    return None, "reachable"


def solve(request: dict, on_progress=None, should_cancel=None) -> dict:
    """Solve a puzzle: {"board", "goal"?, "puzzle"?, "algorithm"?, "heuristic"?, "all_solutions"?, "max_nodes"?,
    "max_seconds"?, "workers"?, "engine"? ("processes" or "dask": what carries a split IDA*), "scheduler"? (a Dask
    cluster's address)} -> {"ok": true, "length", "optimal", "moves", "algorithm", "heuristic", "stats", ...,
    "parallel"? (a split search's workers, subtrees, workers replaced)}."""
    try:
        return run(solve_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)


def trace_steps(request: dict):
    """Generator form of `trace`: yields progress dicts, returns the answer dict."""
    return (yield from printing(request, guarded(_trace(request))))


def _trace(request):
    puzzle, algorithm, heuristic_name, weight = solve_setup(request)
    if not algorithm.traceable:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.traceable)
        raise BadRequest(f"{algorithm.name} cannot be traced; these can: {able}")
    max_steps = option_of(request, "max_steps", int, MAX_TRACE_STEPS)
    if max_steps > MAX_TRACE_STEPS:
        raise BadRequest(f"'max_steps' is at most {MAX_TRACE_STEPS:,} (a trace records every node)")
    limits = Limits(None, option_of(request, "max_seconds", float))
    heuristic = estimator_of(request, heuristic_name, puzzle)
    puzzle.check_solvable()
    from .search.trace import trace as trace_search  # only traces pay for importing it

    recorded = yield from trace_search(puzzle, algorithm, heuristic, max_steps, MAX_TRACE_NODES, {"weight": weight},
                                       limits)
    answer = {"ok": True, "algorithm": algorithm.name,
              "heuristic": heuristic_name if algorithm.uses_heuristic else None, "puzzle": puzzle.kind,
              "board": puzzle.format(puzzle.start), "goal": puzzle.format(puzzle.goal),
              "optimal": algorithm.optimal and recorded["moves"] is not None}
    _describe_method(answer, heuristic, weight)
    answer.update(recorded)
    stopped = answer.pop("stopped", None)
    if stopped is not None:  # the heuristic failed, or the time ran out: the trace so far, beside the error
        return {**error_of(stopped), "trace": answer}
    if recorded["moves"] is not None:
        _add_notation(answer, puzzle, recorded["moves"])
        if heuristic_name == user.NAME and algorithm.uses_heuristic and algorithm.optimal:
            yield from _compare_with_shortest(puzzle, answer, limits, _compares(request, algorithm, heuristic_name),
                                              answer["stats"]["elapsed_s"])
    return answer


def trace(request: dict, on_progress=None, should_cancel=None) -> dict:
    """Trace a search step by step: a solve request ({"board", "goal"?, "puzzle"?, "rule"?, "algorithm"?,
    "heuristic"?, "weight"?}) with "max_steps"? (the expansions recorded, at most and by default 2,000; a trace
    also stops at 20,000 nodes) -> {"ok": true, "nodes", "steps", "expanded", "truncated", "length", "solution",
    "stats", ...}; the format is described in search/trace.py (and docs/algorithms.md). `should_cancel` is asked at each
    progress event, every few hundred nodes recorded."""
    try:
        return run(trace_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)
