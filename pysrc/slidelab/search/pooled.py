"""A split search kept by the runtimes that share no memory with the one that split it: the page's pool workers and a
Dask cluster's, which build it from the request (api_pool.split_of), and the driver of a batch's split positions.

Every runtime splits the search the same way (parallel_idastar.split is deterministic and quick) and keeps the splits
of the requests it saw last (KEPT of them), since a worker searches many subtrees of one split, and a batch's driver
runs several searches at once (batch_split.py). A batch's driver also runs `iterations` here one round at a time,
between two calls (api.pool_start, api.pool_next).
"""

from __future__ import annotations

import time
from collections import OrderedDict

from .control import SearchResult, Stats
from .parallel_idastar import Round, iterations, split

KEPT = 128  # splits kept, the least recently used forgotten first: more than a batch's positions in flight
_LAST: OrderedDict = OrderedDict()  # the splits last used in this runtime, by their requests' keys


class PooledSearch:
    """One split search: `frontier` (None when the split met the goal: then `goals` holds every path to it), and,
    once started, the driver between its rounds and the run's `stats`; `request`, what it was built from."""

    def __init__(self, puzzle, heuristic, wanted: int, all_solutions: bool, request=None):
        self.puzzle, self.heuristic, self.all_solutions = puzzle, heuristic, all_solutions
        self.request = request
        self.goals, self.frontier, *self.split_nodes = split(puzzle, wanted, not all_solutions)
        self.stats = Stats(*self.split_nodes)
        self.started = time.perf_counter()
        self._driver = None

    def start(self, started: float | None = None, from_bound: int = 0):
        """(events, the first Round): a new run of the search (the split's nodes counted again), timed from
        `started` (a time.perf_counter() value; by default now), its first bound at least `from_bound`."""
        self.stats = Stats(*self.split_nodes)
        self.started = time.perf_counter() if started is None else started
        driver = self._driver = iterations(self.puzzle, self.heuristic, self.frontier, self.stats, from_bound)
        return self._advance(next(driver))

    def advance(self, searched: list):
        """The round's Searched in; out (events, the next Round), or (events, the SearchResult) once one is found.
        Raises Unsolvable as the driver does."""
        if self._driver is None:
            raise RuntimeError("the pooled search was not started")
        return self._advance(self._driver.send(searched))

    def _advance(self, step):
        events, driver = [], self._driver
        assert driver is not None
        try:
            while not isinstance(step, Round):
                events.append(step)
                step = next(driver)
        except StopIteration as stop:
            self._driver = None
            self.stats.elapsed_s = time.perf_counter() - self.started
            solutions = stop.value
            return events, SearchResult(solutions[0], True, self.stats, solutions if self.all_solutions else None)
        return events, step


def pooled_search(key: str, make) -> PooledSearch:
    """The split of the request `key` (made by `make()` unless this runtime keeps it)."""
    if key in _LAST:
        _LAST.move_to_end(key)
    else:
        _LAST[key] = make()
        while len(_LAST) > KEPT:
            _LAST.popitem(last=False)
    return _LAST[key]
