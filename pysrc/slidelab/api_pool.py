"""The api's split searches: the split a worker builds from a request (`split_of`: the page's pool workers, a Dask
cluster's), the subtrees it searches (`subtree_steps`), and a search driven a round at a time (`pool_start`,
`pool_next`: a batch's split positions, batch_split.py)."""

from __future__ import annotations

import json
import time

from .answers import Failed, PoolStep, Solved
from .api_request import error, error_of, guarded
from .api_solve import estimator_of, probe_reachable, solve_answer
from .errors import BadRequest, SlideLabError
from .puzzles import move_record
from .requests import is_int, parse_split, whole
from .scheduler import frontier_size
from .search import ALGORITHMS
from .search.control import Limits, run


def split_of(request):
    """The PooledSearch of a pool request (a solve request with "pool": the number of workers it is split for, and no
    limits: the pool's workers impose none), parsed as requests.parse_split; one split per request, kept (the page's
    workers and a Dask cluster's build it from the request)."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    from .search.pooled import PooledSearch, pooled_search

    def make():
        split = parse_split(request)
        solve = split.solve
        solve.puzzle.check_solvable()
        heuristic = estimator_of(solve)
        return PooledSearch(solve.puzzle, heuristic, frontier_size(split.size), solve.method.all_solutions, split)

    key = json.dumps({k: v for k, v in request.items() if k not in ("subtree", "bound")}, sort_keys=True)
    return pooled_search(key, make)


def pool_start_steps(request: dict):
    """Generator form of `pool_start`: yields progress dicts (while a token puzzle's goal is proved reachable),
    returns the answer dict."""
    return (yield from guarded(_pool_start(request)))


def _pool_start(request):
    started = time.perf_counter()
    search = split_of(request)  # validated there
    puzzle, heuristic = search.puzzle, search.heuristic
    met = puzzle.is_goal(puzzle.start) or bool(search.goals)
    if not met and puzzle.kind == "tokens":  # as a solve does: IDA* would deepen for ever towards an unreachable goal
        options = {"all_solutions": search.all_solutions, "weight": None}
        probed, _ = yield from probe_reachable(puzzle, ALGORITHMS["idastar"], heuristic, Limits(), options)
        if probed is not None:  # the probe found the answer: no split needed
            return {"ok": True, "events": [], "answer": _pooled_answer(search, probed)}
    if met:
        from .search.control import SearchResult, Stats

        moves = search.goals[0] if search.goals else []
        expanded, generated = search.split_nodes
        result = SearchResult(moves, True, Stats(expanded, generated, len(moves) + 1),
                              (search.goals or [[]]) if search.all_solutions else None)
        result.extra = {"parallel": {"workers": [], "subtrees": 0, "workers_replaced": 0}}
        return {"ok": True, "events": [], "answer": _pooled_answer(search, result)}
    from_bound = whole(request.get("from_bound", 0))
    if not is_int(from_bound) or from_bound < 0:
        raise BadRequest("'from_bound' must be a whole number: the bounds below it have been searched already")
    events, first = search.start(started, from_bound)
    return {"ok": True, "subtrees": len(search.frontier), "events": events, "round": _round(first, search.request.size)}


def pool_start(request: dict, on_progress=None, should_cancel=None) -> PoolStep | Failed:
    """Start a search split over a pool of runtimes: a solve request with "pool" (the runtimes, 1 to MAX_SPLIT) ->
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


def pool_next(request: dict, results: dict) -> PoolStep | Failed:
    """The next round of a started pool search: `results` is {"searched": [subtree_steps answers of the round],
    "workers": [{"expanded"}, ...] (each runtime's nodes so far), "workers_replaced"} -> {"ok", "events": [the
    round's {"type": "iteration", "bound", "expanded"}], "round": ...} as pool_start's, or {"ok", "events", "answer":
    the solve answer, its path checked by replaying it}."""
    try:
        search = split_of(request)
        searched = _read_searched(search, results)
        from .search.control import SearchResult

        events, step = search.advance(searched)
        if not isinstance(step, SearchResult):
            return {"ok": True, "events": events, "round": _round(step, search.request.size)}
        step.extra = {"parallel": {"workers": [{"expanded": int(w["expanded"])} for w in results.get("workers", [])],
                                   "subtrees": len(search.frontier),
                                   "workers_replaced": int(results.get("workers_replaced", 0))}}
        return {"ok": True, "events": events, "answer": _pooled_answer(search, step)}
    except SlideLabError as e:
        return error_of(e)
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        return error("invalid", f"a parallel result that cannot be read ({type(e).__name__}: {e})")


def _round(step, size: int) -> dict:
    """A Round as the page's pool is handed it: with its subtrees grouped into the tasks to hand out."""
    from .search.parallel_idastar import groups

    return dict(step._asdict(), groups=groups(step, size))


def _read_searched(search, results) -> list:
    """The Searched of a round's subtree answers (as subtree_steps gave them, through the page)."""
    if not isinstance(results, dict) or not isinstance(results.get("searched"), list):
        raise BadRequest("a parallel result has the round's searched subtrees")
    return [searched_of(answer, len(search.frontier or ())) for answer in results["searched"]]


def searched_of(answer, subtrees: int):
    """The Searched of a subtree_steps answer from another runtime, of a search split into `subtrees`; checked."""
    from .search.contour import INF
    from .search.parallel_idastar import Searched

    try:
        given = answer["subtree"]
        indices = [whole(i) for i in (given if isinstance(given, list) else [given])]
        sizes = [whole(n) for n in answer["sizes"]]
        numbers = [whole(answer[k]) for k in ("expanded", "generated")] + ([] if answer["over"] is None
                                                                             else [whole(answer["over"])])
        if not all(is_int(v) and v >= 0 for v in indices + sizes + numbers) or any(i >= subtrees for i in indices):
            raise BadRequest("a parallel result names subtrees or counts that are not of this search")
        solutions = [[tuple(m) if isinstance(m, list) else m for m in moves] for moves in answer["solutions"]]
    except (TypeError, KeyError, AttributeError) as e:
        raise BadRequest(f"a parallel result that cannot be read ({type(e).__name__}: {e})") from None
    over = INF if answer["over"] is None else whole(answer["over"])
    return Searched(dict(zip(indices, sizes, strict=False)), solutions, over, *numbers[:2])


def _pooled_answer(search, result) -> Solved | Failed:
    """The solve answer of a pooled search's result, its path checked by replaying it."""
    return solve_answer(search.request.solve, search.heuristic, result)


def subtree_steps(request: dict):
    """Generator (progress, then the answer): a pool request with "subtree" (the index of a subtree, or a list of
    them, searched in turn: small subtrees travel together) and "bound" -> {"ok", "subtree", "sizes": [the nodes
    each subtree expanded], "solutions": [[moves from the start], ...] (empty: none within the bound; a group stops
    at the first unless all solutions are asked for), "over": the least f over the bound (null: nothing was cut off),
    "expanded", "generated"}."""
    return (yield from guarded(_subtree(request)))


def _subtree(request):
    search = split_of(request)
    given, bound = request.get("subtree"), request.get("bound")
    indices = given if isinstance(given, list) else [given]
    indices, bound = [whole(v) for v in indices], whole(bound)
    if (not indices or not all(map(is_int, indices + [bound]))
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
