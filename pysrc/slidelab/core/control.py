"""How searches report progress, honour limits and stop, and what they return.

Every algorithm is a generator: it yields progress dicts about every `PROGRESS_INTERVAL` seconds and returns a
SearchResult (via StopIteration); when the goal cannot be reached it raises Unsolvable (NO_PATH), never returns None.
`run` drives one synchronously (CPython, CLI, tests); the browser worker drives the same generator from an async loop,
so a cancel request is seen between two yields. Nothing here prints.

Every progress event is built by `Meter.progress`, with one schema (docs/algorithms.md, "Progress events"):
{"type": "progress", "expanded", "generated", "stored", "bound" or "depth", "elapsed_s", "nodes_per_s", ...} plus
what an algorithm adds. Iterative algorithms also yield {"type": "iteration", "bound", "expanded", "generated",
"next"?} as each iteration ends (contour.end_iteration).
"""

from __future__ import annotations

import time

from slidelab.core.errors import Cancelled, SearchLimit, TooLarge

NO_PATH = "the goal cannot be reached from this position (the search space was exhausted)"
PROGRESS_INTERVAL = 0.1
CHECK_EVERY = 4096  # nodes between two looks at the clock (a power of two: tested with `& (CHECK_EVERY - 1)`)
MAX_STORED = 1_000_000  # states an algorithm that keeps them (BFS, A*, explore) may hold: a few hundred MB at most


class Counts:
    """What a search counts as it runs, with one meaning for every algorithm (docs/algorithms.md, "Statistics");
    `as_dict()` is the answer's `stats` (answers.Stats).

    expanded: states whose successors were generated; generated: successor states produced;
    stored: the most states held in memory at once (open + closed lists, or the depth-first path);
    iterations: for iterative algorithms, one {"bound", "expanded"} per iteration; elapsed_s: wall time;
    open_peak: for breadth- and best-first algorithms, the most states waiting to be expanded at once (the largest
    frontier, or the longest open list); reopened: for A*, closed states expanded again because a cheaper path to
    them was found (never with a consistent heuristic).
    """

    def __init__(self, expanded=0, generated=0, stored=0, open_peak=None, reopened=None):
        self.expanded = expanded
        self.generated = generated
        self.stored = stored
        self.elapsed_s = 0.0
        self.iterations = []
        self.open_peak = open_peak
        self.reopened = reopened

    def as_dict(self) -> dict:
        d = {"expanded": self.expanded, "generated": self.generated, "stored": self.stored,
             "elapsed_s": round(self.elapsed_s, 6)}
        if self.iterations:
            d["iterations"] = list(self.iterations)
        if self.open_peak is not None:
            d["open_peak"] = self.open_peak
        if self.reopened is not None:
            d["reopened"] = self.reopened
        return d


class SearchResult:
    """A path (list of moves) from start to goal, with whether it is proved shortest, and statistics; `solutions`
    every shortest path when they were asked for, `extra` what an algorithm adds to the answer."""

    def __init__(self, moves, optimal, stats, solutions=None, extra=None):
        self.moves = moves
        self.optimal = optimal
        self.stats = stats
        self.solutions = solutions
        self.extra = {} if extra is None else extra


class Limits:
    """Node, time and memory limits; `check` raises SearchLimit when one is exceeded, `check_stored` TooLarge.
    The time limit counts from `started` (default: now). `progress_s`: how often the search reports its progress
    (default PROGRESS_INTERVAL; a pool task of the page's reports more often, so that a stop reaches it sooner:
    carriers.PageCarrier)."""

    def __init__(self, max_nodes=None, max_seconds=None, started=None, max_stored=MAX_STORED, progress_s=None):
        self.max_nodes = max_nodes
        self.max_seconds = max_seconds
        self.started = time.perf_counter() if started is None else started
        self.max_stored = max_stored
        self.progress_s = progress_s

    def check(self, nodes: int, now: float) -> None:
        if self.max_nodes is not None and nodes > self.max_nodes:
            raise SearchLimit(f"stopped after {nodes:,} nodes (the limit is {self.max_nodes:,}) before finishing",
                              reason="node_limit", nodes=nodes, limit=self.max_nodes)
        if self.max_seconds is not None and now - self.started > self.max_seconds:
            raise SearchLimit(f"stopped after {self.max_seconds:g} s (the time limit) before finishing",
                              reason="time_limit", seconds=self.max_seconds)

    def check_stored(self, stored: int) -> None:
        if stored > self.max_stored:
            raise TooLarge(f"the search would hold more than {self.max_stored:,} states in memory; "
                           "IDA* needs memory only for its path", reason="memory_limit", limit=self.max_stored)


class Meter:
    """A search's clock and counters: checks its limits, says when a progress report is due and builds it.

    Kernels that count in local variables copy them into `stats` before asking for a report.
    """

    def __init__(self, limits, stats=None):
        self.limits = limits
        self.stats = Counts() if stats is None else stats
        self.started = time.perf_counter()
        self.interval = PROGRESS_INTERVAL if limits.progress_s is None else limits.progress_s
        self.next_report = self.started + self.interval

    def due(self, nodes, stored=None) -> bool:
        """Check the limits (`nodes` against the node limit, `stored` against the memory cap); True when a progress
        report is due."""
        now = time.perf_counter()
        self.limits.check(nodes, now)
        if stored is not None:
            self.limits.check_stored(stored)
        return now >= self.next_report

    def progress(self, stored, bound=None, depth=None, nodes=None, **extra) -> dict:
        """The progress event: the counters in `stats` (or `nodes`, (expanded, generated), where the search's
        workers have nodes that are not in them yet), the positions held now, the f bound (depth-first and
        best-first searches) or the depth reached (breadth-first ones), and whatever the algorithm adds."""
        if (bound is None) == (depth is None):
            raise ValueError("a progress event has a bound or a depth")
        now = time.perf_counter()
        self.next_report = now + self.interval
        elapsed = now - self.started
        expanded, generated = (self.stats.expanded, self.stats.generated) if nodes is None else nodes
        event = {"type": "progress", "expanded": expanded, "generated": generated, "stored": stored}
        if bound is not None:
            event["bound"] = bound
        else:
            event["depth"] = depth
        event.update(elapsed_s=round(elapsed, 3), nodes_per_s=int(expanded / max(elapsed, 1e-9)), **extra)
        return event

    def finish(self) -> Counts:
        """Record the elapsed time; returns the statistics."""
        self.stats.elapsed_s = time.perf_counter() - self.started
        return self.stats


def iteration_ahead(iterations: list, expanded: int, rate: float) -> dict | None:
    """How far the iteration under way has got and how long it has left, predicted from the last ended iteration's
    nodes (`iterations`: each ended one's expanded) times its growth over the one before, at `rate` nodes a second:
    {"share" (0 to 0.99), "growth", "left_s"}; None before two iterations with nodes have ended. The command line's
    progress line and the page's say it."""
    if len(iterations) < 2 or not iterations[-2] or not iterations[-1] or rate <= 0:
        return None
    growth = max(iterations[-1] / iterations[-2], 1)
    predicted = iterations[-1] * growth
    this = expanded - sum(iterations)
    return {"share": round(min(this / predicted, 0.99), 3), "growth": round(growth, 2),
            "left_s": round(max(predicted - this, 0) / rate, 1)}


def run(search, on_progress=None, should_cancel=None):
    """Drive a search generator to its result, passing each progress dict to `on_progress`.

    `should_cancel()` is asked between progress reports; when it answers true the search is closed and Cancelled
    is raised.
    """
    try:
        while True:
            event = next(search)
            if on_progress is not None:
                on_progress(event)
            if should_cancel is not None and should_cancel():
                search.close()
                raise Cancelled("the search was cancelled")
    except StopIteration as stop:
        return stop.value
