"""The api's searches of one position: solve (its method and tables chosen, a heuristic's path compared with the
shortest, a token puzzle's goal proved reachable first) and trace (a search recorded step by step for Watch)."""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

from slidelab.api.error_answers import error, error_of, failure, guarded, printing
from slidelab.contract.request import Solve, parse_solve, parse_trace
from slidelab.core.control import Limits, run
from slidelab.core.errors import MissingData, SearchLimit, SlideLabError, TooLarge, Unavailable, Unsolvable
from slidelab.core.puzzles import move_record
from slidelab.heuristics import get_heuristic, user
from slidelab.search import ALGORITHMS

if TYPE_CHECKING:
    from slidelab.core.answers import Failed, Solved, Traced

MAX_SOLUTIONS = 1000  # all-solutions answers are cut here (the count is still exact up to it)


PROBE_NODES = 20_000  # nodes a depth-first search of a token puzzle gets before its goal is proved reachable


VERIFY_SECONDS = 10  # how long a search with the user's heuristic may spend finding the shortest length to compare


COMPARE_FLOOR_S = 1.0  # the comparison may take as long as the search itself took, and at least this


MAX_TRACE_NODES = 20_000  # nodes a trace records at most: where positions have dozens of moves, a few megabytes


def solve_steps(request):
    """Generator form of `solve`: yields progress dicts, returns the answer dict."""
    return (yield from printing(request, guarded(_solve(request))))


def estimator_of(parsed, seconds: float | None = None):
    """The heuristic a parsed request (Solve, Trace) searches with, built for its puzzle: your code's values from a
    process of its own with the time limit `seconds` (supervised.IsolatedHeuristic) when the request says
    `isolate`."""
    code = parsed.code
    if code is not None and code.isolate and code.code is not None and parsed.method.used == user.NAME:
        from slidelab.run.supervised import isolated_heuristic

        return isolated_heuristic(parsed.puzzle, code, seconds)
    return build_estimator(parsed.method.used, parsed.puzzle, parsed.code, parsed.method.tables)


def _searched(parsed, seconds: float | None, search):
    """The answer of `search(heuristic)` (a generator) with the request's heuristic (an isolated one within
    `seconds`)."""
    heuristic = estimator_of(parsed, seconds)
    evaluator = getattr(heuristic, "evaluator", None)
    return (yield from (search(heuristic) if evaluator is None else isolated(evaluator, search(heuristic))))


def isolated(evaluator, steps):
    """The answer of `steps` (a generator) whose heuristic's values come from `evaluator`: its process is ended after
    them, and what the code printed there is added to the answer, an error answer's too."""
    try:
        answer = yield from steps
    except Exception as e:
        answer = failure(e)
    finally:
        said = evaluator.close()
    if said:
        answer["printed"] = said
    return answer


def build_estimator(name: str, puzzle, code, tables: str | None = None):
    """The heuristic `name` built for `puzzle`: "yours" from the request's code (requests.UserCode: compiled here, or
    a callable); `auto` with the set of `tables` the request chose."""
    if name != user.NAME:
        return get_heuristic(name, puzzle, tables)
    if code.callable is not None:
        return user.user_heuristic(puzzle, callable_=code.callable)
    if code.code is None:
        user.needs_code(puzzle)
    return user.user_heuristic(puzzle, code.code, code.function, filename=code.filename)


def _with_yours(parsed) -> bool:
    """Whether the search's paths are shortest only if your heuristic is admissible: A* or IDA* with yours."""
    spec = parsed.method.spec
    return parsed.method.heuristic == user.NAME and spec.uses_heuristic and spec.optimal


def _solve(request):
    parsed = parse_solve(request)  # every value checked before your code is ever run
    return (yield from _searched(parsed, parsed.budget.max_seconds, lambda heuristic: _solved(parsed, heuristic)))


def _solved(parsed, heuristic):
    puzzle, method = parsed.puzzle, parsed.method
    algorithm = method.spec
    limits = parsed.budget.start()
    puzzle.check_solvable()
    options = {"all_solutions": method.all_solutions, "weight": method.weight,
               "parallel": _parallel(parsed, heuristic)}
    if puzzle.kind == "tokens" and not algorithm.exhaustive:
        result = yield from _probe_then_prove(puzzle, algorithm, heuristic, limits, options)
    else:
        result = yield from algorithm.start(puzzle, heuristic, limits, options)
    answer = solve_answer(parsed, heuristic, result)
    if answer["ok"] and _with_yours(parsed):
        yield from _compare_with_shortest(puzzle, answer, limits, parsed.compare, result.stats.elapsed_s)
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


def solve_answer(parsed: Solve, heuristic, result) -> Solved | Failed:
    """A solve answer from a search's result, its path checked by replaying it."""
    puzzle, method = parsed.puzzle, parsed.method
    try:
        final = puzzle.replay(result.moves)
    except SlideLabError:  # a move that cannot be made: a worker's made-up path
        final = None
    if final is None or not puzzle.is_goal(final):  # every answer is checked by replaying it
        return error("internal", f"{method.algorithm} returned a path that does not reach the goal")
    answer: Solved = {"ok": True, "length": len(result.moves), "optimal": result.optimal,
                      "moves": [move_record(m) for m in result.moves], "algorithm": method.algorithm,
                      "heuristic": method.answered, "stats": result.stats.as_dict()}
    _add_notation(answer, puzzle, result.moves)
    if method.all_solutions:
        sols = result.solutions or [result.moves]
        answer["solution_count"] = len(sols)
        answer["solutions"] = [[move_record(m) for m in s] for s in sols[:MAX_SOLUTIONS]]
    _describe_method(answer, heuristic, method.weight)
    answer.update(result.extra)
    if getattr(heuristic, "kernel", None) == "pdb":
        from slidelab.heuristics.pdb.files import changed_files

        rewritten = changed_files()
        if rewritten:
            answer["tables_rewritten"] = rewritten
    return answer


def _parallel(parsed: Solve, heuristic):
    """The search generator `parallel(puzzle, heuristic, limits, all_solutions)` (scheduler.py) that runs a solve
    request split over workers, or None for one process: on forked processes where they share memory, on the page's
    pool of Web Workers (from the page's own solver), or on a Dask cluster (the one at the request's scheduler, else
    a local one); recorded in the request's checkpoint file, and resumed from one."""
    plan = parsed.parallel
    if plan is None:
        return None
    search = _carried(parsed, plan, _checkpoint(parsed, plan, heuristic))
    if plan.after_s > 0:
        from slidelab.run.scheduler import serial_first

        return serial_first(search, plan.after_s)
    return search


def _checkpoint(parsed: Solve, plan, heuristic):
    """The checkpoint (checkpoint.py) the plan asks for, what its resume file recorded read and checked; or None."""
    if plan.checkpoint is None:
        return None
    from slidelab.heuristics import pdb
    from slidelab.run.checkpoint import EVERY_S, PAGE_EVERY_S, Checkpoint, resume_from

    puzzle = parsed.puzzle
    tables = [entry[0] for entry in pdb.plan(puzzle, heuristic.name)] if heuristic.name in pdb.TABLE_SETS else []
    search = {"puzzle": parsed.position.puzzle, "rule": parsed.position.rule, "board": puzzle.format(puzzle.start),
              "goal": puzzle.format(puzzle.goal), "heuristic": heuristic.name, "tables": tables,
              "all_solutions": parsed.method.all_solutions}
    return Checkpoint(plan.checkpoint, search, resume_from(plan.resume, search) if plan.resume else None,
                      PAGE_EVERY_S if plan.engine == "page" else EVERY_S)


def _carried(parsed: Solve, plan, checkpoint):
    """The parallel search on the plan's carrier."""
    from slidelab.api.split_search import searched_of
    from slidelab.contract.request import split_request
    from slidelab.run import carriers
    from slidelab.run.scheduler import frontier_size

    # the other runtimes' workers split the start into the subtrees this one does (a resumed file's own split)
    if plan.engine == "page":
        size = carriers.split_for(plan.workers, checkpoint)
        request = split_request(parsed, size, subtrees=frontier_size(size, checkpoint))
        return carriers.in_page(size, request, searched_of, checkpoint)
    if plan.engine == "dask":
        from slidelab.api.split_search import split_of

        return carriers.on_dask(plan.scheduler, plan.workers, lambda size, name: functools.partial(
            split_of, split_request(parsed, size, name, frontier_size(size, checkpoint))), checkpoint)
    from slidelab.core.workers import fork_unavailable

    why_not = fork_unavailable()
    if why_not is not None:
        raise Unavailable(why_not)
    return carriers.forked(plan.workers, checkpoint)


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


def solve(request, on_progress=None, should_cancel=None) -> Solved | Failed:
    """Solve a puzzle: a solve request (its JSON, or requests.Solve: {"board", "goal"?, "puzzle"?, "algorithm"?,
    "heuristic"?, "all_solutions"?, "max_nodes"?, "max_seconds"?, "workers"?, "engine"?, "scheduler"?, ...}) ->
    {"ok": true, "length", "optimal", "moves", "algorithm", "heuristic", "stats", ..., "parallel"? (a split search's
    workers, subtrees, workers replaced)}; every key is in docs/api.schema.json."""
    try:
        return run(solve_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)


def trace_steps(request):
    """Generator form of `trace`: yields progress dicts, returns the answer dict."""
    return (yield from printing(request, guarded(_trace(request))))


def _trace(request):
    parsed = parse_trace(request)
    return (yield from _searched(parsed, parsed.max_seconds, lambda heuristic: _traced(parsed, heuristic)))


def _traced(parsed, heuristic):
    puzzle, method = parsed.puzzle, parsed.method
    limits = Limits(None, parsed.max_seconds)
    puzzle.check_solvable()
    from slidelab.search.trace import trace as trace_search  # only traces pay for importing it

    recorded = yield from trace_search(puzzle, method.spec, heuristic, parsed.max_steps, MAX_TRACE_NODES,
                                       {"weight": method.weight}, limits)
    answer: dict = {"ok": True, "algorithm": method.algorithm, "heuristic": method.answered,
                      "puzzle": puzzle.kind, "board": puzzle.format(puzzle.start), "goal": puzzle.format(puzzle.goal),
                      "optimal": method.spec.optimal and recorded["moves"] is not None}
    _describe_method(answer, heuristic, method.weight)
    answer.update(recorded)
    stopped = answer.pop("stopped", None)
    if stopped is not None:  # the heuristic failed, or the time ran out: the trace so far, beside the error
        return {**error_of(stopped), "trace": answer}
    if recorded["moves"] is not None:
        _add_notation(answer, puzzle, recorded["moves"])
        if _with_yours(parsed):
            yield from _compare_with_shortest(puzzle, answer, limits, parsed.compare, answer["stats"]["elapsed_s"])
    return answer


def trace(request, on_progress=None, should_cancel=None) -> Traced | Failed:
    """Trace a search step by step: a solve request ({"board", "goal"?, "puzzle"?, "rule"?, "algorithm"?,
    "heuristic"?, "weight"?}) with "max_steps"? (the expansions recorded, at most and by default 2,000; a trace
    also stops at 20,000 nodes) -> {"ok": true, "nodes", "steps", "expanded", "truncated", "length", "solution",
    "stats", ...}; the format is described in search/trace.py (and docs/algorithms.md). `should_cancel` is asked at each
    progress event, every few hundred nodes recorded."""
    try:
        return run(trace_steps(request), on_progress, should_cancel)
    except SlideLabError as e:
        return error_of(e)
