"""The JSON boundary: every entry point takes JSON-able values and returns a JSON-able dict.

Used by the browser worker and the CLI alike. Nothing here raises for bad input: errors come back as
{"ok": false, "error": {"code": ..., "message": ...}} with code invalid, unsolvable, too_large, limit or cancelled,
or internal for a bug (an answer that does not replay, an unexpected exception): never a traceback.
Long requests come in two forms: `solve(request)` runs to the end; `solve_steps(request)` is a generator yielding
progress dicts and returning the answer, which the worker drives from an async loop so that it can cancel
(likewise `explore` and `explore_steps`, `trace` and `trace_steps`).
"""

from __future__ import annotations

import json
import math
import time

from .compare import catalogue as compare_catalogue
from .errors import BadRequest, InvalidBoard, MissingData, SearchLimit, SlideLabError, TooLarge, Unavailable, Unsolvable
from .extras import installed
from .heuristics import HEURISTICS, get_heuristic, heuristic_spec, pdb, user
from .puzzles import move_record
from .puzzles.sliding import SlidingPuzzle, default_goal, parse_shape
from .search import ALGORITHMS
from .search.control import Limits, run

DEFAULT_ALGORITHM = "idastar"
DEFAULT_HEURISTIC = "auto"
MAX_SOLUTIONS = 1000  # all-solutions answers are cut here (the count is still exact up to it)
PROBE_NODES = 20_000  # nodes a depth-first search of a token puzzle gets before its goal is proved reachable
MAX_FARTHEST = 100  # explore answers list at most this many farthest positions ("farthest_count" has them all)
EXPLORE_ENGINES = ("python", "numpy", "dask")  # pure Python (any puzzle), numpy and Dask (sliding, up to 12 cells)
MAX_WORKERS = 256  # processes one parallel IDA* may ask for
MAX_TRACE_STEPS = 2000  # expansions a trace records at most (and by default): some thousand nodes, about a megabyte
VERIFY_SECONDS = 10  # how long a search with the user's heuristic may spend finding the shortest length to compare
COMPARE_FLOOR_S = 1.0  # the comparison may take as long as the search itself took, and at least this
MAX_EXAMPLES = 100  # overestimates a check lists at most
PATH_SECONDS = 5.0  # how long a check may look for a shortest path from the worst overestimate
MAX_TRACE_NODES = 20_000  # nodes a trace records at most: where positions have dozens of moves, a few megabytes


NO_RULE = "a sliding puzzle has no move rule: tiles slide into the blank (rules are for token puzzles)"


def error(code: str, message: str, reason: str | None = None, **details) -> dict:
    """An error answer; `reason` and `details` let the page say it in its language (errors.SlideLabError)."""
    answer: dict = {"code": code, "message": message}
    if reason:
        answer.update(reason=reason, details=details)
    return {"ok": False, "error": answer}


def error_of(e: SlideLabError) -> dict:
    """The error answer for an engine error."""
    return {"ok": False, "error": e.as_dict()}


def _guarded(steps):
    """Run a generator of steps, turning engine errors (and any bug) into an error answer."""
    try:
        return (yield from steps)
    except Exception as e:
        return failure(e)


def _printing(request, steps):
    """Run the steps of a request; when it carries your heuristic's code, what that code prints goes into the answer's
    "printed" (the first user.MAX_PRINTED characters), never onto this process's standard output."""
    if not isinstance(request, dict) or request.get("heuristic_code") is None:
        return (yield from steps)
    import contextlib

    printed = user.Printed()
    try:
        while True:
            with contextlib.redirect_stdout(printed):
                try:
                    event = next(steps)
                except StopIteration as stop:
                    answer = stop.value
                    break
            yield event
    finally:
        steps.close()
    if printed.text:
        answer["printed"] = printed.text
    return answer


def failure(e: Exception) -> dict:
    """The error answer for an exception out of the engine: its own error, or a bug's "internal" answer."""
    if isinstance(e, SlideLabError):
        return error_of(e)
    if isinstance(e, RecursionError):
        return error("too_large", "the search went too deep for this runtime", reason="too_deep")
    if isinstance(e, MemoryError):
        return error("too_large", "the search ran out of memory; try IDA* or a smaller board", reason="memory")
    # a bug: still an answer, never a crash of the worker or a traceback on the CLI
    return error("internal", f"internal error ({type(e).__name__}: {str(e)[:200]}); please report it")


def _whole(value):
    """A whole number as an int: JSON from JavaScript may write 100 as 100.0 (anything else is left as it is)."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _option(request: dict, key: str, type_, default=None):
    """The request's `key`, checked to be of `type_` (bool, a positive int or float, str), or `default`."""
    value = request.get(key, default)
    if value is None:
        return default
    if type_ is bool:
        if not isinstance(value, bool):
            raise BadRequest(f"'{key}' must be true or false")
        return value
    if type_ is int:
        value = _whole(value)
        if not _is_int(value) or value <= 0:
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


def make_puzzle(request: dict):
    """The puzzle a request describes: {"board": text, "goal": text?, "puzzle": "sliding"?}, or a token puzzle
    {"puzzle": "knights" (or another preset), "board"?, "goal"?} or {"puzzle": "tokens", "board", "goal", "rule"}."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    name = _option(request, "puzzle", str, "sliding")
    board = _option(request, "board", str)
    goal = _option(request, "goal", str)
    if name == "sliding":
        if request.get("rule") is not None:
            raise BadRequest(NO_RULE)
        if board is None:
            raise InvalidBoard("no board given")
        return SlidingPuzzle.from_text(board, goal)
    from .puzzles.tokens import PUZZLE_NAMES, token_puzzle  # only token requests pay for importing it

    if name in PUZZLE_NAMES:
        return token_puzzle(name, board, goal, _option(request, "rule", str))
    raise BadRequest(f"unknown puzzle type '{name}'; choose one of: sliding, {', '.join(PUZZLE_NAMES)}")


def solve_steps(request: dict):
    """Generator form of `solve`: yields progress dicts, returns the answer dict."""
    return (yield from _printing(request, _guarded(_solve(request))))


def _solve_setup(request):
    """(puzzle, algorithm, heuristic name, weight) of a solve request, every name checked; the heuristic is "zero"
    for an algorithm that uses none, the weight None for one that takes none (else the request's or the default)."""
    puzzle = make_puzzle(request)
    name = _option(request, "algorithm", str, DEFAULT_ALGORITHM)
    algorithm = ALGORITHMS.get(name)
    if algorithm is None:
        raise BadRequest(f"unknown algorithm '{name}'; choose one of: {', '.join(ALGORITHMS)}")
    if puzzle.kind not in algorithm.kinds:
        raise BadRequest(f"the {name} algorithm does not solve {puzzle.kind} puzzles")
    heuristic_name = _heuristic_name(request)
    spec = heuristic_spec(heuristic_name)  # checked even where the algorithm uses none: a typo is never ignored
    _chosen_tables(request)
    if not algorithm.uses_heuristic:
        heuristic_name = "zero"
    elif puzzle.kind not in spec.kinds:
        raise BadRequest(f"the {heuristic_name} heuristic does not apply to {puzzle.kind} puzzles")
    if algorithm.default_weight is None:
        if request.get("weight") is not None:
            raise BadRequest(f"a weight is for weighted A* (f = g + W * h); {name} takes none")
        return puzzle, algorithm, heuristic_name, None
    weight = float(_option(request, "weight", float, algorithm.default_weight))
    return puzzle, algorithm, heuristic_name, int(weight) if weight.is_integer() else weight


def _heuristic_name(request) -> str:
    """The heuristic a request names: "yours" for a Python callable (the Python API) or code with no other name."""
    value = request.get("heuristic")
    if callable(value):
        return user.NAME
    name = _option(request, "heuristic", str, user.NAME if request.get("heuristic_code") is not None
                   else DEFAULT_HEURISTIC)
    if name != user.NAME and request.get("heuristic_code") is not None:
        raise BadRequest(f"'heuristic_code' is your own heuristic's code: it goes with the heuristic "
                         f"'{user.NAME}', not '{name}'")
    return name


def _chosen_tables(request):
    """The set of tables `auto` uses for a solve request ("tables": the page names the set the user chose, and
    installs its files before the search), or None for the largest at hand (pdb.auto_table_set)."""
    chosen = _option(request, "tables", str)
    if chosen is not None and chosen not in pdb.TABLE_SETS:
        raise BadRequest(f"tables must be one of {', '.join(pdb.TABLE_SETS)}, not '{chosen[:20]}'")
    return chosen


def _estimator(request, name, puzzle):
    """The heuristic `name` built for `puzzle`; "yours" from the request's code (or callable); `auto` with the
    tables the request offers."""
    if name != user.NAME:
        return get_heuristic(name, puzzle, _chosen_tables(request))
    value = request.get("heuristic")
    if callable(value):
        return user.user_heuristic(puzzle, callable_=value)
    code = _option(request, "heuristic_code", str)
    if code is None:
        user.needs_code(puzzle)
    return user.user_heuristic(puzzle, code, _option(request, "heuristic_function", str, user.DEFAULT_FUNCTION),
                               filename=_option(request, "heuristic_filename", str, user.CODE_NAME))


def _compares(request, algorithm, heuristic_name) -> bool:
    """Whether a path found with the user's heuristic is compared with the shortest: only an algorithm that is
    shortest with an admissible heuristic (A*, IDA*) is, and not when the request says "compare": false."""
    return (heuristic_name == user.NAME and algorithm.uses_heuristic and algorithm.optimal
            and _option(request, "compare", bool, True))


def _solve(request):
    puzzle, algorithm, heuristic_name, weight = _solve_setup(request)
    name = algorithm.name
    heuristic = _estimator(request, heuristic_name, puzzle)
    all_solutions = _option(request, "all_solutions", bool, False)
    if all_solutions and not algorithm.all_solutions:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.all_solutions)
        raise BadRequest(f"{name} finds one solution; all shortest solutions are listed by: {able}")
    limits = Limits(_option(request, "max_nodes", int), _option(request, "max_seconds", float))
    puzzle.check_solvable()
    options = {"all_solutions": all_solutions, "weight": weight, "workers": _workers(request, name)}
    if puzzle.kind == "tokens" and not algorithm.exhaustive:
        result = yield from _probe_then_prove(puzzle, algorithm, heuristic, limits, options)
    else:
        result = yield from algorithm.start(puzzle, heuristic, limits, options)
    answer = _answer(puzzle, algorithm, heuristic_name, heuristic, weight, result, all_solutions)
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


def _answer(puzzle, algorithm, heuristic_name, heuristic, weight, result, all_solutions):
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


def _worker_count(request, default: int) -> int:
    """The processes a request asks for, "workers": a whole number from 0 (one per core) to MAX_WORKERS, else
    `default`; the one reading of it for solve and explore alike."""
    value = _whole(request.get("workers"))
    if value is None:
        return default
    if not _is_int(value) or not 0 <= value <= MAX_WORKERS:
        raise BadRequest(f"'workers' must be a whole number from 0 (one per core) to {MAX_WORKERS}")
    if value == 0:
        from .workers import cores

        return cores()
    return value


def _workers(request, algorithm_name) -> int:
    """The processes a solve request asks for (1 by default); more than one only for IDA*, and only where processes
    can share memory (not in the browser: the page has its own pool)."""
    value = _whole(request.get("workers"))
    if value is None or value == 1 and _is_int(value):
        return 1
    count = _worker_count(request, 1)
    if algorithm_name != "idastar":
        raise BadRequest(f"only IDA* is split over workers; {algorithm_name} runs on one (leave 'workers' out)")
    from .workers import fork_unavailable

    why_not = fork_unavailable()
    if why_not is not None:
        raise Unavailable(why_not)
    return count


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
    result, proof = yield from _probe(puzzle, algorithm, heuristic, limits, options)
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


def _probe(puzzle, algorithm, heuristic, limits, options):
    """The probe and the proof of _probe_then_prove (also the page pool's split, before it splits): (the probe's
    result, None) when the probe finished, else (None, the proof: "reachable", "too large" or "not tried"); raises
    Unsolvable when the goal cannot be reached."""
    if limits.max_nodes is not None and limits.max_nodes <= PROBE_NODES:
        return None, "not tried"
    probe = algorithm.start(puzzle, heuristic, Limits(PROBE_NODES, limits.max_seconds, limits.started), options)
    try:
        while True:
            next(probe)
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
    "max_seconds"?, "workers"?} -> {"ok": true, "length", "optimal", "moves", "algorithm", "heuristic", "stats",
    ...}."""
    try:
        return run(solve_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)


# Parallel IDA* across runtimes that share no memory (the page's pool of solver workers, web/js/pool.js; the
# mechanism is search/pooled.py's): the page's own solver starts the search (pool_start: the split, after probing a
# token puzzle as a solve does, since its goal may be unreachable) and is handed each round's answers (pool_next),
# answering the next round or the solve answer; every worker searches the subtrees it is handed (subtree_steps).
MAX_POOL = 64  # runtimes one pooled search may be split for


def _pooled(request):
    """The PooledSearch of a pool request (a solve request with "pool": the number of runtimes it is split for),
    validated like a solve (without limits: the pool's workers impose none); one split per request."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    from .search.parallel_idastar import SUBTREES_PER_WORKER
    from .search.pooled import PooledSearch, pooled_search

    def make():
        puzzle, algorithm, heuristic_name, _ = _solve_setup(request)
        if algorithm.name != "idastar":
            raise BadRequest(f"only IDA* is split over workers; {algorithm.name} runs on one")
        runtimes = _whole(request.get("pool"))
        if not _is_int(runtimes) or not 2 <= runtimes <= MAX_POOL:
            raise BadRequest(f"'pool' must be a whole number from 2 to {MAX_POOL}")
        if request.get("max_nodes") is not None or request.get("max_seconds") is not None:
            raise BadRequest("a search split over workers takes no max_nodes or max_seconds; a limited search runs "
                             "on one")
        all_solutions = _option(request, "all_solutions", bool, False)
        puzzle.check_solvable()
        heuristic = _estimator(request, heuristic_name, puzzle)
        return PooledSearch(puzzle, heuristic, runtimes * SUBTREES_PER_WORKER, all_solutions)

    key = json.dumps({k: v for k, v in request.items() if k not in ("subtree", "bound")}, sort_keys=True)
    return pooled_search(key, make)


def pool_start_steps(request: dict):
    """Generator form of `pool_start`: yields progress dicts (while a token puzzle's goal is proved reachable),
    returns the answer dict."""
    return (yield from _guarded(_pool_start(request)))


def _pool_start(request):
    started = time.perf_counter()
    search = _pooled(request)  # validated there
    puzzle, heuristic = search.puzzle, search.heuristic
    met = puzzle.is_goal(puzzle.start) or bool(search.goals)
    if not met and puzzle.kind == "tokens":  # as a solve does: IDA* would deepen for ever towards an unreachable goal
        options = {"all_solutions": search.all_solutions, "weight": None, "workers": 1}
        probed, _ = yield from _probe(puzzle, ALGORITHMS["idastar"], heuristic, Limits(), options)
        if probed is not None:  # the probe found the answer: no split needed
            return {"ok": True, "events": [], "answer": _pooled_answer(request, probed)}
    if met:
        from .search.control import SearchResult, Stats

        moves = search.goals[0] if search.goals else []
        result = SearchResult(moves, True, Stats(*search.split_nodes, len(moves) + 1),
                              (search.goals or [[]]) if search.all_solutions else None)
        result.extra = {"parallel": {"workers": [], "subtrees": 0, "workers_replaced": 0}}
        return {"ok": True, "events": [], "answer": _pooled_answer(request, result)}
    from_bound = _whole(request.get("from_bound", 0))
    if not _is_int(from_bound) or from_bound < 0:
        raise BadRequest("'from_bound' must be a whole number: the bounds below it have been searched already")
    events, first = search.start(started, from_bound)
    return {"ok": True, "subtrees": len(search.frontier), "events": events, "round": _round(first, request)}


def pool_start(request: dict, on_progress=None, should_cancel=None) -> dict:
    """Start a search split over a pool of runtimes: a solve request with "pool" (the runtimes, 2 to MAX_POOL) ->
    {"ok", "subtrees": n, "events": [], "round": {"bound", "todo": [subtree indices, in the serial search's order],
    "sizes": [their nodes in the last iteration], "groups": [[subtree indices], ...]: the tasks to hand out, in order}},
    or {"ok", "events": [], "answer": the solve answer} when the split meets the goal or, on a token puzzle, a short
    probe search finds it (a goal the probe does not reach is first proved reachable, as a solve does: else the answer
    is "unsolvable"). With "from_bound", the bounds below it are known to hold no solution: the first round's bound is
    at least that (a batch's position that was being solved whole, batch_split.py)."""
    try:
        return run(pool_start_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)


def pool_next(request: dict, results: dict) -> dict:
    """The next round of a started pool search: `results` is {"searched": [subtree_steps answers of the round],
    "workers": [{"expanded"}, ...] (each runtime's nodes so far), "workers_replaced"} -> {"ok", "events": [the
    round's {"type": "iteration", "bound", "expanded"}], "round": ...} as pool_start's, or {"ok", "events", "answer":
    the solve answer, its path checked by replaying it}."""
    try:
        search = _pooled(request)
        searched = _read_searched(search, results)
        from .search.control import SearchResult

        events, step = search.advance(searched)
        if not isinstance(step, SearchResult):
            return {"ok": True, "events": events, "round": _round(step, request)}
        step.extra = {"parallel": {"workers": [{"expanded": int(w["expanded"])} for w in results.get("workers", [])],
                                   "subtrees": len(search.frontier),
                                   "workers_replaced": int(results.get("workers_replaced", 0))}}
        return {"ok": True, "events": events, "answer": _pooled_answer(request, step)}
    except SlideLabError as e:
        return error_of(e)
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        return error("invalid", f"a parallel result that cannot be read ({type(e).__name__}: {e})")


def _round(step, request) -> dict:
    """A Round as the page's pool is handed it: with its subtrees grouped into the tasks to hand out."""
    from .search.parallel_idastar import groups

    return dict(step._asdict(), groups=groups(step, request["pool"]))


def _read_searched(search, results) -> list:
    """The Searched of a round's subtree answers (as subtree_steps gave them, through the page)."""
    from .search.contour import INF
    from .search.parallel_idastar import Searched

    if not isinstance(results, dict) or not isinstance(results.get("searched"), list):
        raise BadRequest("a parallel result has the round's searched subtrees")
    size = len(search.frontier or ())
    parts = []
    for answer in results["searched"]:
        given = answer["subtree"]
        indices = [_whole(i) for i in (given if isinstance(given, list) else [given])]
        sizes = [_whole(n) for n in answer["sizes"]]
        numbers = [_whole(answer[k]) for k in ("expanded", "generated")] + ([] if answer["over"] is None
                                                                             else [_whole(answer["over"])])
        if not all(_is_int(v) and v >= 0 for v in indices + sizes + numbers) or any(i >= size for i in indices):
            raise BadRequest("a parallel result names subtrees or counts that are not of this search")
        solutions = [[tuple(m) if isinstance(m, list) else m for m in moves] for moves in answer["solutions"]]
        over = INF if answer["over"] is None else _whole(answer["over"])
        parts.append(Searched(dict(zip(indices, sizes, strict=False)), solutions, over, *numbers[:2]))
    return parts


def _pooled_answer(request, result) -> dict:
    """The solve answer of a pooled search's result, its path checked by replaying it."""
    puzzle, algorithm, heuristic_name, weight = _solve_setup(request)
    heuristic = _estimator(request, heuristic_name, puzzle)
    return _answer(puzzle, algorithm, heuristic_name, heuristic, weight, result, bool(request.get("all_solutions")))


def subtree_steps(request: dict):
    """Generator (progress, then the answer): a pool request with "subtree" (the index of a subtree, or a list of
    them, searched in turn: small subtrees travel together) and "bound" -> {"ok", "subtree", "sizes": [the nodes
    each subtree expanded], "solutions": [[moves from the start], ...] (empty: none within the bound; a group stops
    at the first unless all solutions are asked for), "over": the least f over the bound (null: nothing was cut off),
    "expanded", "generated"}."""
    return (yield from _guarded(_subtree(request)))


def _subtree(request):
    search = _pooled(request)
    given, bound = request.get("subtree"), request.get("bound")
    indices = given if isinstance(given, list) else [given]
    indices, bound = [_whole(v) for v in indices], _whole(bound)
    if (not indices or not all(map(_is_int, indices + [bound]))
            or not all(0 <= i < len(search.frontier or ()) for i in indices)):
        raise BadRequest("'subtree' must be the index of a subtree of the split (or a list of them), "
                         "'bound' a whole number")
    from .search.contour import INF
    from .search.parallel_idastar import search_subtrees

    found = yield from search_subtrees(search.puzzle, search.heuristic, search.frontier, indices, bound,
                                       search.all_solutions)
    return {"ok": True, "subtree": given, "sizes": list(found.sizes.values()),
            "solutions": [[move_record(m) for m in moves] for moves in found.solutions],
            "over": None if found.over == INF else found.over, "expanded": found.expanded,
            "generated": found.generated}


def trace_steps(request: dict):
    """Generator form of `trace`: yields progress dicts, returns the answer dict."""
    return (yield from _printing(request, _guarded(_trace(request))))


def _trace(request):
    puzzle, algorithm, heuristic_name, weight = _solve_setup(request)
    if not algorithm.traceable:
        able = ", ".join(a.name for a in ALGORITHMS.values() if a.traceable)
        raise BadRequest(f"{algorithm.name} cannot be traced; these can: {able}")
    max_steps = _option(request, "max_steps", int, MAX_TRACE_STEPS)
    if max_steps > MAX_TRACE_STEPS:
        raise BadRequest(f"'max_steps' is at most {MAX_TRACE_STEPS:,} (a trace records every node)")
    limits = Limits(None, _option(request, "max_seconds", float))
    heuristic = _estimator(request, heuristic_name, puzzle)
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


def explore_steps(request: dict):
    """Generator form of `explore`: yields progress dicts, returns the answer dict."""
    return (yield from _guarded(_explore(request)))


def _explore_puzzle(request):
    """The puzzle an explore request describes: a sliding {"shape": "3x3", "goal"?} or any solve-style request."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    shape = _option(request, "shape", str)
    if shape is None:
        return make_puzzle(request)
    if request.get("board") is not None:
        raise BadRequest("give either a shape or a board, not both")
    if _option(request, "puzzle", str, "sliding") != "sliding":
        raise BadRequest("a shape describes a sliding board; give a board for other puzzles")
    if request.get("rule") is not None:
        raise BadRequest(NO_RULE)
    rows, cols = parse_shape(shape)
    goal = _option(request, "goal", str)
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
    puzzle = _explore_puzzle(request)
    limits = Limits(_option(request, "max_nodes", int), _option(request, "max_seconds", float))
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
        search = dask_explore(puzzle, limits, _option(request, "scheduler", str), _worker_count(request, 2))
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
    engine = _option(request, "engine", str)
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
    return (yield from _printing(request, _guarded(_check_heuristic(request))))


def _check_heuristic(request):
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    puzzle = _explore_puzzle(request)
    name = _heuristic_name(request)
    if puzzle.kind not in heuristic_spec(name).kinds:
        raise BadRequest(f"the {name} heuristic does not apply to {puzzle.kind} puzzles")
    limits = Limits(_option(request, "max_nodes", int), _option(request, "max_seconds", float))
    examples = _whole(request.get("examples", 0))
    if not _is_int(examples) or not 0 <= examples <= MAX_EXAMPLES:
        raise BadRequest(f"'examples' must be a whole number from 0 to {MAX_EXAMPLES}")
    engine = _explore_engine(request, puzzle)
    if engine == "dask":
        raise BadRequest("a heuristic is checked on this machine's cores (the numpy engine); dask is for explore")
    isolated = (name == user.NAME and engine == "python" and _option(request, "isolate", bool, False)
                and request.get("heuristic_code") is not None)
    if not isolated:
        return (yield from _checked(request, puzzle, name, _estimator(request, name, puzzle), limits, engine,
                                    examples))
    from . import supervised

    filename = _option(request, "heuristic_filename", str, user.CODE_NAME)
    evaluator = supervised.Evaluator(puzzle, _option(request, "heuristic_code", str),
                                     _option(request, "heuristic_function", str, user.DEFAULT_FUNCTION), filename,
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

        answer = yield from indexed_check_steps(puzzle, heuristic, limits, _worker_count(request, cores()), examples)
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


def pattern_databases(request: dict, build: bool = False, on_progress=None, dask=None) -> dict:
    """The pattern-database tables a request needs, and whether each is at hand: {"ok": true, "set" (the table set; None
    without tables), "tables": [{"name", "ready", "entries", "memory_bytes", and for the large tables "file_bytes",
    "build_s" and "build_memory_bytes" (estimates, said before building)}], "ready": bool}. A shape ({"shape": "4x4",
    "goal"?, "tables"?: one of pdb.TABLE_SETS}) asks for every table of that board; any other request is a solve
    request, answered with the tables that very search would use (none, "tables": [], when it waits for no pattern
    databases: a token puzzle, an algorithm without a heuristic or that answers at once (quick), a heuristic other
    than auto and the table sets, a board too large for tables with auto; auto uses the largest set at hand, or the
    one the request chooses: pdb.auto_table_set). This is the one place that decides it, for the CLI and the page
    alike. With `build`, missing tables are built and saved in the cache folder (the large ones on a Dask cluster
    with `dask`: {"scheduler", "workers"}), `on_progress({"type": "build", "table", "done", "total"})` told as it
    goes.
    """
    try:
        if isinstance(request, dict) and request.get("shape") is not None:
            table_set = _option(request, "tables", str, "pdb")
            if table_set not in pdb.TABLE_SETS:
                raise BadRequest(f"tables must be one of {', '.join(pdb.TABLE_SETS)}, not '{table_set[:20]}'")
            puzzle = _explore_puzzle({k: v for k, v in request.items() if k != "tables"})
            if not pdb.plan(puzzle, table_set):
                raise pdb.no_tables(table_set)
        else:
            puzzle, algorithm, heuristic_name, _ = _solve_setup(request)
            uses = (algorithm.uses_heuristic and algorithm.waits_for_tables and puzzle.kind == "sliding"
                    and heuristic_name in ("auto", *pdb.TABLE_SETS))
            table_set = heuristic_name if heuristic_name in pdb.TABLE_SETS else "pdb"
            if heuristic_name == "auto" and uses:
                table_set = pdb.auto_table_set(puzzle, _chosen_tables(request)) or "pdb"
            if heuristic_name in pdb.TABLE_SETS and uses and not pdb.plan(puzzle, table_set):
                raise pdb.no_tables(table_set)
            puzzle = puzzle if uses else None
        plan = pdb.plan(puzzle, table_set) if puzzle is not None else []
        if build:
            for name, rows, cols, cells in plan:
                def report(done, total, name=name):
                    if on_progress is not None:
                        on_progress({"type": "build", "table": name, "done": done, "total": total})
                pdb.ensure_table(name, rows, cols, cells, progress=report, dask=dask)
        tables = [{"name": name, "ready": pdb.is_ready(name, rows, cols, cells),
                   **pdb.cost(rows, cols, cells, pdb.is_ranked(name))} for name, rows, cols, cells in plan]
        return {"ok": True, "set": table_set if tables else None, "tables": tables,
                "ready": all(t["ready"] for t in tables)}
    except Exception as e:
        return failure(e)


def install_pattern_database(data) -> dict:
    """Keep a pattern-database file's bytes (fetched by the browser worker) in memory for this session:
    {"ok": true, "name"}, or an error answer if the bytes are not a sound file."""
    try:
        return {"ok": True, "name": pdb.install(data)}
    except Exception as e:
        return failure(e)


def check(request: dict) -> dict:
    """Validate a position without searching: its shape, formatted text and whether it is solvable."""
    try:
        puzzle = make_puzzle(request)
        answer = {"ok": True, "puzzle": puzzle.kind, "board": puzzle.format(puzzle.start),
                  "goal": puzzle.format(puzzle.goal), "solvable": True, "rows": puzzle.rows, "cols": puzzle.cols}
        if puzzle.kind == "tokens":  # rule, square names, removed cells
            answer.update(puzzle.describe())
        puzzle.check_solvable()
        return answer
    except SlideLabError as e:
        if e.code == "unsolvable":
            return dict(answer, solvable=False, reason=str(e), why=e.as_dict())
        return error_of(e)


def describe() -> dict:
    """Every algorithm and heuristic with a one-line description (for selectors and `--help`; an algorithm also says
    whether its paths are shortest, whether it uses a heuristic, the puzzles it solves, the weight it takes by default
    (null for none) and whether it can be traced), the token-puzzle presets and move rules, and example heuristics
    in Python written against the user contract (heuristics/user.py), and the set of pattern databases the page
    offers to download ("download_tables": {"name", "files": {shape: [file names]}}; a solve request's "tables"
    names it once chosen), Compare's default pairs and time limits ("compare": compare.catalogue()), and the
    exercises and the lessons of Watch the search that come with Slide Lab ("exercises": [{"id", "title"}], "lessons":
    exercises/lessons.py's catalogue())."""
    from .exercises.lessons import catalogue as lessons
    from .exercises.page import catalogue as exercise_catalogue
    from .heuristics.examples import examples
    from .puzzles.tokens import PRESETS, RULE_DESCRIPTIONS

    return {
        "algorithms": [{"name": a.name, "title": a.title, "label": a.label, "description": a.description,
                        "optimal": a.optimal,
                        "uses_heuristic": a.uses_heuristic, "puzzles": sorted(a.kinds),
                        "default_weight": a.default_weight, "traceable": a.traceable} for a in ALGORITHMS.values()],
        "heuristics": [{"name": h.name, "title": h.title, "label": h.label, "description": h.description,
                        "puzzles": sorted(h.kinds), "browser": h.browser} for h in HEURISTICS.values()],
        "presets": [p.as_dict() for p in PRESETS.values()],
        "rules": [{"name": name, "description": text} for name, text in RULE_DESCRIPTIONS.items()],
        "heuristic_examples": examples(),
        "trace": {"max_steps": MAX_TRACE_STEPS, "max_nodes": MAX_TRACE_NODES},
        "download_tables": pdb.download_tables(),
        "compare": compare_catalogue(),
        "exercises": exercise_catalogue(),
        "lessons": lessons(),
    }
