"""The one scheduler of parallel IDA*: every round of a search split into subtrees (search/parallel_idastar.py) is
handed out, retried, stopped and counted here, whoever carries the subtrees to workers.

A search is split once (`split`); `iterations` says each round's bound and subtrees. For a round, the scheduler groups
the subtrees into tasks (`groups`: small neighbours travel together) and keeps them in one queue in the order the
serial search meets them; whenever the carrier has an idle worker it gets the next task. A task's answer (a
Searched) goes back to the driver; the first solution of a round ends it (it is a shortest one) unless all solutions
are asked for, and the nodes the tasks still running had reported so far are counted with the round. A task whose
worker was lost (its process killed, its Dask worker gone) is queued again, first, MAX_TRIES times in all; then the
search ends with an error. An exception in a task is the search's own and is raised here. Progress (the nodes the
workers have reported, each worker's share) and the node and time limits are checked by the one Meter.

A carrier (the Carrier protocol) only carries: it starts a task on an idle worker and reports what happens to it,
as events. Carriers (carriers.py): forked processes on this machine (`ForkedCarrier`: `--workers N`), the workers
of a Dask cluster (`DaskCarrier`: `--engine dask`) and the page's pool of Web Workers (`PageCarrier`, whose
questions to the page are yielded to the page's worker as Ask steps).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from itertools import count
from typing import Any, NamedTuple, Protocol

from slidelab.core.control import Counts, Meter, SearchResult, iteration_ahead
from slidelab.core.workers import MAX_TRIES, Tries
from slidelab.search.contour import INF
from slidelab.search.parallel_idastar import SUBTREES_PER_WORKER, Partial, Searched, groups, iterations, split

POLL_S = 0.05  # how often the scheduler looks at the clock (limits, progress) while it waits for workers
GROWTH = 5  # how many times larger an IDA* iteration is than the last, when there is no earlier one to tell


class Task(NamedTuple):
    """One task of a round: search the frontier's `subtrees` (indices, in order) with `bound`; `place` is its place in
    the round's order (a task queued again keeps it); `partial`: its one subtree goes on from where it had got."""

    id: int
    subtrees: tuple
    bound: int
    place: int
    partial: Partial | None = None


class TaskProgress(NamedTuple):
    """A running task's nodes so far, as its worker (a name the carrier gives it) last reported them, and where its
    search had got (`at`: the pattern-database kernel says it, see Partial)."""

    task: int
    worker: object
    expanded: int
    generated: int
    at: list | None = None


class Done(NamedTuple):
    """A task's answer, from `worker`."""

    task: int
    worker: object
    searched: Searched


class Lost(NamedTuple):
    """A task whose worker was lost (`how`: "killed by SIGKILL", "the Dask worker left"); its nodes are lost too. A
    task given back untried (its worker was taken away by a smaller pool) is not `tried`: it does not count towards
    MAX_TRIES."""

    task: int
    how: str
    tried: bool = True


class TaskFailed(NamedTuple):
    """A task that raised `error`: the search's own exception."""

    task: int
    error: Exception


class Ask(NamedTuple):
    """A carrier's question to the runtime that drives the search (the page, for its pool): `step` is yielded to the
    driver, whose reply (sent back into the search generator) `read` turns into the events."""

    step: dict
    read: Callable[[Any], list]


class Carrier(Protocol):
    """What carries a parallel search's tasks to workers and their answers back."""

    def idle(self) -> int:
        """How many more tasks it can start now (its idle workers)."""

    def start(self, task: Task) -> None:
        """Start `task` on an idle worker."""

    def poll(self, timeout: float) -> list | Ask:
        """The events (TaskProgress, Done, Lost, TaskFailed) that came within `timeout` seconds (none when nothing
        did), or the Ask that gets them."""

    def workers(self) -> list:
        """Its workers' names, as its events give them (those it had at any time)."""

    def extra(self) -> dict:
        """What it tells of itself in the answer's "parallel": "workers_replaced", "worker_memory_bytes"?, ..."""

    def close(self) -> None:
        """Stop every task still running and release the workers."""


def frontier_size(workers: int, checkpoint=None) -> int:
    """The subtrees a search split for `workers` workers is split into (every carrier's workers split the same): a
    resumed checkpoint's own split (the page and the command line give a worker different shares), else `workers`
    times this runtime's share."""
    if checkpoint is not None and checkpoint.resumed:
        return checkpoint.subtrees
    return workers * SUBTREES_PER_WORKER


def parallel_idastar(puzzle, heuristic, limits, all_solutions, workers, carry, from_bound: int = 0,
                     counted: Counts | None = None, checkpoint=None):
    """Search generator: IDA* split for `workers` workers, its tasks carried by `carry(frontier)` (a function making
    the Carrier for the split's frontier, called only when the split did not meet the goal); returns a SearchResult
    like `idastar`'s, whose statistics add up every worker's nodes, the stopped tasks' too, and whose extra "parallel"
    tells "workers" ([{"expanded"}, ...]: every worker's share), "subtrees" and what the carrier adds. The bounds below
    `from_bound` are known to hold no solution (a batch's position searched whole so far, batch/split.py, or a search
    that began serially, `serial_first`); `counted`, the statistics of that part, which the search's go on from. A
    `checkpoint` (checkpoint.py) records the search as it goes; a resumed one says the bound and the statistics to
    go on from, and the tasks of that iteration already searched (its split, `workers`, the carriers take from it)."""
    if checkpoint is not None and checkpoint.resumed:
        from_bound, counted = checkpoint.bound, checkpoint.counted_stats()
    elif checkpoint is not None and counted is not None:  # begun serially: those iterations are the search's too
        checkpoint.counted = {"expanded": counted.expanded, "generated": counted.generated,
                              "iterations": list(counted.iterations)}
    meter = Meter(limits, counted)
    stats = meter.stats
    unsplit = {"parallel": {"workers": [{"expanded": 0}] * workers, "subtrees": 0, "workers_replaced": 0}}
    if puzzle.is_goal(puzzle.start):
        meter.finish()
        return SearchResult([], True, stats, [[]] if all_solutions else None, unsplit)
    wanted = frontier_size(workers, checkpoint)
    goals, frontier, expanded, generated = split(puzzle, wanted, not all_solutions)
    stats.expanded += expanded
    stats.generated += generated
    if goals:  # found while splitting: no worker was started
        meter.finish()
        stats.stored = len(goals[0]) + 1
        return SearchResult(goals[0], True, stats, goals if all_solutions else None, unsplit)
    if checkpoint is not None:
        checkpoint.search.update(split_for=workers, subtrees=wanted)
        checkpoint.write()  # at once: a checkpoint that cannot be written is said before any search
    carrier = carry(frontier)
    try:
        scheduler = Scheduler(carrier, meter, workers, all_solutions, checkpoint)
        sizes = checkpoint.sizes_within(len(frontier)) if checkpoint is not None else None
        solutions = yield from scheduler.search(iterations(puzzle, heuristic, frontier, stats, from_bound, sizes))
        extra = {"workers": [{"expanded": n} for n in scheduler.per_worker()], "subtrees": len(frontier),
                 **carrier.extra()}
        if checkpoint is not None:
            checkpoint.finished(len(solutions[0]))
            extra["checkpoint"] = checkpoint.told()
    finally:
        carrier.close()
        if checkpoint is not None and checkpoint.length is None:
            checkpoint.write()  # stopped (a limit, Ctrl-C, an error): what was finished is kept
    meter.finish()
    return SearchResult(solutions[0], True, stats, solutions if all_solutions else None, {"parallel": extra})


def serial_first(split_search, after_s: float):
    """The search generator (puzzle, heuristic, limits, all_solutions) of IDA* that runs in this runtime while its
    iterations are short and goes on as `split_search` (a parallel one, from the bound reached) once the next
    iteration is predicted to take more than `after_s` seconds (the last one's time times its growth over the one
    before): an easy position never pays for a split (its rounds, the last iteration's extra nodes). The serial
    iterations are counted in the split search's statistics and progress."""

    def search(puzzle, heuristic, limits, all_solutions):
        from slidelab.search.idastar import idastar

        serial = idastar(puzzle, heuristic, limits, all_solutions)
        started = last = time.perf_counter()
        took: list = []  # (seconds, expanded) of each serial iteration
        counted = Counts()
        try:
            while True:
                event = next(serial)
                yield event
                if event.get("type") != "iteration":
                    continue
                now = time.perf_counter()
                took.append((now - last, event["expanded"]))
                last = now
                counted.expanded += event["expanded"]
                counted.generated += event["generated"]
                counted.iterations.append({"bound": event["bound"], "expanded": event["expanded"]})
                if "next" in event and _predicted_s(took) > after_s:
                    break
        except StopIteration as stop:
            return stop.value
        serial.close()
        result = yield from split_search(puzzle, heuristic, limits, all_solutions, from_bound=event["next"],
                                         counted=counted)
        result.stats.elapsed_s = time.perf_counter() - started
        return result

    return search


def _predicted_s(took: list) -> float:
    """How long the next iteration will take: the last one's time, times its growth over the one before."""
    seconds, expanded = took[-1]
    growth = expanded / took[-2][1] if len(took) > 1 and took[-2][1] else GROWTH
    return seconds * max(growth, 1)


class Scheduler:
    """The rounds of one split search on one carrier: dispatch, retries, the first solution's stop, the stopped
    tasks' nodes, progress and limits."""

    def __init__(self, carrier: Carrier, meter: Meter, workers: int, all_solutions: bool, checkpoint=None):
        self.carrier, self.meter, self.workers, self.all_solutions = carrier, meter, workers, all_solutions
        self.checkpoint = checkpoint
        self.done: dict = {}  # worker -> nodes expanded in its finished tasks
        self.live: dict = {}  # task id -> TaskProgress last reported
        self.partial: dict = {}  # subtree -> Partial: where a task of one subtree had got when it last reported
        self.tries = Tries()  # of the subtrees whose worker was lost
        self._ids = count()

    def search(self, driver):
        """Drive `iterations` (a generator of Rounds and iteration events) to its end: yields the events and
        progress, returns the solutions."""
        try:
            step = next(driver)
            while True:
                if isinstance(step, dict):  # an iteration's event
                    if self.checkpoint is not None and "next" in step:
                        self.checkpoint.iteration_ended(self.meter.stats, step["next"])
                    yield step
                    step = next(driver)
                    continue
                searched = yield from self.round(step)
                step = driver.send(searched)
        except StopIteration as stop:
            return stop.value

    def round(self, round_):
        """Search one round's subtrees; yields progress, returns the list of Searched (the stopped tasks' nodes as one
        more, without sizes)."""
        round_, searched = self._not_done(round_)
        queue = deque(enumerate(tuple(group) for group in groups(round_, self.workers)))
        running: dict = {}  # task id -> Task
        found = False
        while running or queue and not found:
            while queue and not found and self.carrier.idle():
                place, subtrees = queue.popleft()
                partial = self.partial.get(subtrees[0]) if len(subtrees) == 1 else None
                started = Task(next(self._ids), subtrees, round_.bound, place, partial)
                running[started.id] = started
                self.carrier.start(started)
            events = self.carrier.poll(POLL_S)
            if isinstance(events, Ask):
                events = events.read((yield events.step))
            for event in events:
                task = running.get(event.task)
                if task is None:  # a task of a round that has ended
                    continue
                if isinstance(event, TaskProgress):
                    self._reported(task, event)
                    continue
                del running[task.id]
                found = self._ended(task, event, queue, searched) or found
            if found:  # the others' tasks are stopped with the search: their nodes so far count
                break
            if self.checkpoint is not None:
                self.checkpoint.tick()
            stats = self.meter.stats
            live = stats.expanded + sum(part.expanded for part in searched) + self._live(0)
            if self.meter.due(live):
                generated = stats.generated + sum(part.generated for part in searched) + self._live(1)
                yield self._progress(round_.bound, live, generated)
        searched.append(Searched({}, [], INF, self._live(0), self._live(1)))
        for worker, nodes in self._live_per_worker().items():
            self.done[worker] = self.done.get(worker, 0) + nodes
        self.live, self.partial = {}, {}
        return searched

    def _reported(self, task: Task, progress: TaskProgress) -> None:
        """A running task's progress: its nodes, and where its search has got (a task of one subtree queued again,
        its worker lost, goes on from there, and so does a resume of the checkpoint)."""
        self.live[task.id] = progress
        if progress.at is not None and len(task.subtrees) == 1:
            partial = Partial(task.subtrees[0], progress.at, progress.expanded, progress.generated)
            self.partial[partial.subtree] = partial
            if self.checkpoint is not None:
                self.checkpoint.got_to(partial)

    def _ended(self, task: Task, event, queue: deque, searched: list) -> bool:
        """A task ended (`event`: Done, Lost or TaskFailed): its answer is kept in `searched`, a lost one queued again;
        True when it found a solution that ends the round."""
        self.live.pop(task.id, None)
        if isinstance(event, Done):
            for index in task.subtrees:
                self.partial.pop(index, None)
            self.done[event.worker] = self.done.get(event.worker, 0) + event.searched.expanded
            searched.append(event.searched)
            if self.checkpoint is not None and not event.searched.solutions:
                self.checkpoint.task_done(task.subtrees, event.searched)
            return bool(event.searched.solutions) and not self.all_solutions
        if isinstance(event, Lost):
            if event.tried and not self.tries.again(task.subtrees):
                raise RuntimeError(f"a worker died each of the {MAX_TRIES} times it searched subtrees "
                                   f"{list(task.subtrees)} (last: {event.how}); the search is given up")
            queue.appendleft((task.place, task.subtrees))
            return False
        raise event.error

    def _progress(self, bound: int, expanded: int, generated: int) -> dict:
        """The progress event: every worker's nodes, the iterations ended and, once two have, how far this one has
        got (control.iteration_ahead)."""
        ended = [i["expanded"] for i in self.meter.stats.iterations]
        event = self.meter.progress(stored=bound + 1, bound=bound, nodes=(expanded, generated),
                                    workers=self.per_worker(), iterations=ended)
        ahead = iteration_ahead(ended, expanded, event["nodes_per_s"])
        if ahead is not None:
            event["iteration"] = ahead
        return event

    def _not_done(self, round_):
        """(the round without the tasks its checkpoint recorded as done, what searching those gave): a resumed
        round searches only the subtrees not done, and those recorded searched in part go on from where they had got
        (each a task of its own: a size of 0 groups it with no other)."""
        if self.checkpoint is None:
            return round_, []
        done = self.checkpoint.done_in(round_.bound, round_.todo)
        self.partial = self.checkpoint.partial_in(round_.bound, round_.todo)
        skip = {index for subtrees, _ in done for index in subtrees}
        kept = [i for i, index in enumerate(round_.todo) if index not in skip]
        self.checkpoint.round_started(round_.bound)
        sizes = [0 if round_.todo[i] in self.partial else round_.sizes[i] for i in kept]
        return round_._replace(todo=[round_.todo[i] for i in kept], sizes=sizes), [part for _, part in done]

    def _live(self, which: int) -> int:
        return sum((p.expanded, p.generated)[which] for p in self.live.values())

    def _live_per_worker(self) -> dict:
        nodes: dict = {}
        for p in self.live.values():
            nodes[p.worker] = nodes.get(p.worker, 0) + p.expanded
        return nodes

    def per_worker(self) -> list:
        """Every worker's nodes so far (its running task's too), in the carrier's order of its workers."""
        live = self._live_per_worker()
        return [self.done.get(w, 0) + live.get(w, 0) for w in self.carrier.workers()]
