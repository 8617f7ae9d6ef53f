"""The api's split searches, seen from a worker: the split it builds from a request (`split_of`: the page's pool
workers, a Dask cluster's, a batch's), what it prepares before one (`warm`), the subtrees it searches
(`subtree_steps`), and what its answer says to the scheduler (`searched_of`)."""

from __future__ import annotations

import json

from slidelab.api.error_answers import failure, guarded
from slidelab.api.solving import estimator_of
from slidelab.contract.request import is_int, may_split, parse_solve, parse_split, whole
from slidelab.core.answers import Failed
from slidelab.core.errors import BadRequest
from slidelab.core.puzzles import move_record
from slidelab.run.scheduler import frontier_size


def split_of(request):
    """The PooledSearch of a split request (a solve request with "split_for": the number of workers it is split for,
    and no limits: the workers impose none), parsed as requests.parse_split; one split per request, kept (the page's
    workers, a Dask cluster's and a batch's build it from the request)."""
    if not isinstance(request, dict):
        raise BadRequest("the request must be a JSON object")
    from slidelab.search.kept_splits import PooledSearch, pooled_search

    def make():
        split = parse_split(request)
        solve = split.solve
        solve.puzzle.check_solvable()
        heuristic = estimator_of(solve)
        wanted = frontier_size(split.size) if split.subtrees is None else split.subtrees
        return PooledSearch(solve.puzzle, heuristic, wanted, solve.method.all_solutions, split)

    key = json.dumps({k: v for k, v in request.items() if k not in ("subtree", "bound")}, sort_keys=True)
    return pooled_search(key, make)


def warm(request) -> dict | Failed:
    """Prepare this runtime for a split search of a solve request before it starts: the request's estimator and what
    its search kernel keeps between searches (the pattern-database kernel's move tables: about 80 ms on the page the
    first time a board's goal is searched), so that the first subtree a pool worker is handed does not pay for them.
    {"ok": true, "warmed": bool} (false: the request is not split), or the error of a request that cannot be
    searched (its search says it again)."""
    try:
        if not may_split(request):
            return {"ok": True, "warmed": False}
        solve = parse_solve(request)
        from slidelab.core.control import Limits, run
        from slidelab.search.idastar import idastar

        # the position's own search with a bound of 0: the kernel is set up, and nothing past the root is searched
        run(idastar(solve.puzzle, estimator_of(solve), Limits(), one_contour=0))
        return {"ok": True, "warmed": True}
    except Exception as e:
        return failure(e)


def searched_of(answer, subtrees: int):
    """The Searched of a subtree_steps answer from another runtime, of a search split into `subtrees`; checked."""
    from slidelab.search.contour import INF
    from slidelab.search.parallel_idastar import Searched

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


def subtree_steps(request: dict, progress_s=None):
    """Generator (progress, every `progress_s` (Limits), then the answer): a pool request with "subtree" (the index of
    a subtree, or a list of them, searched in turn: small subtrees travel together), "bound" and maybe "partial" (one
    of them searched in part: {"subtree", "at", "expanded", "generated"}, parallel_idastar.Partial, which goes on from
    there; its progress events say "at") -> {"ok", "subtree",
    "sizes": [the nodes each subtree expanded], "solutions": [[moves from the start], ...] (empty: none within the
    bound; a group stops at the first unless all solutions are asked for), "over": the least f over the bound (null:
    nothing was cut off), "expanded", "generated"}."""
    return (yield from guarded(_subtree(request, progress_s)))


def _subtree(request, progress_s):
    search = split_of(request)
    given, bound = request.get("subtree"), request.get("bound")
    indices = given if isinstance(given, list) else [given]
    indices, bound = [whole(v) for v in indices], whole(bound)
    if (not indices or not all(map(is_int, indices + [bound]))
            or not all(0 <= i < len(search.frontier or ()) for i in indices)):
        raise BadRequest("'subtree' must be the index of a subtree of the split (or a list of them), "
                         "'bound' a whole number")
    from slidelab.search.contour import INF
    from slidelab.search.parallel_idastar import partial_of, search_subtrees

    told = request.get("partial")
    if isinstance(told, dict):  # from the page: JavaScript's numbers may come as floats
        told = {k: [whole(i) for i in v] if isinstance(v, list) else whole(v) for k, v in told.items()}
    partial = None if told is None else partial_of(told, "'partial'")
    if partial is not None and partial.subtree not in indices:
        raise BadRequest("'partial' names a subtree the request does not search")
    found = yield from search_subtrees(search.puzzle, search.heuristic, search.frontier, indices, bound,
                                       search.all_solutions, progress_s, partial)
    return {"ok": True, "subtree": given, "sizes": list(found.sizes.values()),
            "solutions": [[move_record(m) for m in moves] for moves in found.solutions],
            "over": None if found.over == INF else found.over, "expanded": found.expanded,
            "generated": found.generated}
