"""A split search kept by the workers that share no memory with the runtime that split it: the page's pool workers, a
Dask cluster's, and a batch's forked workers (forked before the split), which build it from the request
(api/split_search.py's split_of).

Every runtime splits the search the same way (parallel_idastar.split is deterministic and quick) and keeps the splits
of the requests it saw last (KEPT of them), since a worker searches many subtrees of one split, and a batch splits
several positions at once (batch/split.py).
"""

from __future__ import annotations

from collections import OrderedDict

from slidelab.search.parallel_idastar import split

KEPT = 128  # splits kept, the least recently used forgotten first: more than a batch's positions in flight
_LAST: OrderedDict = OrderedDict()  # the splits last used in this runtime, by their requests' keys


class PooledSearch:
    """One split search: `frontier` (None when the split met the goal: then `goals` holds every path to it), the
    split's own nodes (`split_nodes`: expanded, generated), and `request`, what it was built from."""

    def __init__(self, puzzle, heuristic, wanted: int, all_solutions: bool, request=None):
        self.puzzle, self.heuristic, self.all_solutions = puzzle, heuristic, all_solutions
        self.request = request
        self.goals, self.frontier, *self.split_nodes = split(puzzle, wanted, not all_solutions)


def pooled_search(key: str, make) -> PooledSearch:
    """The split of the request `key` (made by `make()` unless this runtime keeps it)."""
    if key in _LAST:
        _LAST.move_to_end(key)
    else:
        _LAST[key] = make()
        while len(_LAST) > KEPT:
            _LAST.popitem(last=False)
    return _LAST[key]
