"""The carriers of parallel IDA*'s tasks (scheduler.py's Carrier): forked processes on this machine, and the workers of
a Dask cluster. They only carry: the scheduler decides what runs, when, how often, and what it counts.

Forked processes share the parent's puzzle, tables and frontier copy-on-write (workers.py's pool): a task travels as
(subtrees, bound, partial), its answer as a Searched; a worker reports its nodes as it searches, and where its search
has got (`at`, parallel_idastar.Partial), as every carrier's workers do.

A Dask worker builds the split search from the request once (`build`, a picklable function that keeps the splits it
made last, search/kept_splits.py) with its own tables (read from the tables' directory, SLIDELAB_PDB_DIR, as every
process reads them), so nothing large crosses the network. It reports its nodes as it searches through the
scheduler's event log (a topic per search), and stops its task at the next report once the search has ended (a Dask
Event per search: a Python thread cannot be killed). A task whose worker left the cluster is Lost, and the
scheduler queues it again for another worker; Dask may already have tried it on another worker first.
"""

from __future__ import annotations

import queue
import time
import uuid
from typing import cast

from slidelab.core.answers import PoolQuestion, PoolReply, PoolTask
from slidelab.core.errors import error_of_answer
from slidelab.core.workers import Died, ForkedPool, portable, serve
from slidelab.run.scheduler import Ask, Done, Lost, Task, TaskFailed, TaskProgress, parallel_idastar
from slidelab.search.parallel_idastar import MAX_SPLIT, search_subtrees


def forked(workers: int, checkpoint=None):
    """Parallel IDA* on `workers` forked processes: the search generator (puzzle, heuristic, limits, all_solutions),
    recorded by `checkpoint` (checkpoint.py) if one is given (a resumed one says the split)."""

    def search(puzzle, heuristic, limits, all_solutions, **resume):
        return parallel_idastar(puzzle, heuristic, limits, all_solutions, split_for(workers, checkpoint),
                                lambda frontier: ForkedCarrier(workers, puzzle, heuristic, frontier, all_solutions),
                                checkpoint=checkpoint, **resume)

    return search


def on_dask(address: str | None, workers: int, build_for, checkpoint=None):
    """Parallel IDA* on the Dask cluster at `address`, else on a local one of `workers` processes (0: one per core):
    the search generator `(puzzle, heuristic, limits, all_solutions)`. `build_for(n, name)` is the picklable function
    that gives a worker the search split for n workers (the cluster's threads, at most MAX_SPLIT, or the split a
    resumed `checkpoint` says) with the heuristic `name` (the one this process uses: `auto` chosen here, so that every
    worker estimates alike)."""

    def search(puzzle, heuristic, limits, all_solutions, **resume):
        from slidelab.core.cluster import dask_client
        from slidelab.core.workers import cores

        with dask_client(address, workers or cores(), "solving on Dask") as client:
            size = split_for(sum(client.nthreads().values()), checkpoint)
            return (yield from parallel_idastar(puzzle, heuristic, limits, all_solutions, size,
                                                lambda frontier: DaskCarrier(client, build_for(size, heuristic.name)),
                                                checkpoint=checkpoint, **resume))

    return search


def split_for(workers: int, checkpoint) -> int:
    """The workers a search is split for: a resumed checkpoint's split, else as many as there are (MAX_SPLIT at
    most)."""
    return checkpoint.split_for if checkpoint is not None and checkpoint.resumed else min(workers, MAX_SPLIT)


def in_page(workers: int, request: dict, read, checkpoint=None):
    """Parallel IDA* on the page's pool of Web Workers, this runtime (the page's solver) one of them, split for
    `workers` (a resumed `checkpoint`'s split): the search generator (puzzle, heuristic, limits, all_solutions),
    recorded by `checkpoint` if one is given. The other workers split the search from `request` (a pool request:
    split_search.split_of; its heuristic the one this runtime uses, `auto` decided here) and answer as
    api.subtree_steps does; `read(answer, subtrees)` makes such an answer a Searched."""

    def search(puzzle, heuristic, limits, all_solutions, **resume):
        return parallel_idastar(puzzle, heuristic, limits, all_solutions, workers,
                                lambda frontier: PageCarrier(puzzle, heuristic, frontier, all_solutions,
                                                             dict(request, heuristic=heuristic.name), read),
                                checkpoint=checkpoint, **resume)

    return search


class ForkedCarrier:
    """`workers` forked processes searching subtrees of `frontier`; a worker is named by its slot."""

    def __init__(self, workers: int, puzzle, heuristic, frontier, all_solutions: bool):
        self.pool = ForkedPool(workers, _search_forked, (puzzle, heuristic, frontier, all_solutions))

    def idle(self) -> int:
        return sum(w.task is None for w in self.pool.workers)

    def start(self, task: Task) -> None:
        while True:  # a worker that died idle is replaced, and the task goes to its replacement
            slot = next(i for i, w in enumerate(self.pool.workers) if w.task is None)
            if self.pool.hand(slot, task.id, (task.subtrees, task.bound, task.partial)):
                return

    def poll(self, timeout: float) -> list:
        events: list = []
        for event in self.pool.messages(timeout):
            if isinstance(event, Died):
                events.append(Lost(event.task, event.how))
                continue
            worker, message = event
            slot, task = self.pool.workers.index(worker), worker.task
            if message[0] == "progress":
                events.append(TaskProgress(task, slot, *message[1:]))
                continue
            self.pool.finish(worker)
            events.append(Done(task, slot, message[1]) if message[0] == "done" else TaskFailed(task, message[2]))
        return events

    def workers(self) -> list:
        return list(range(len(self.pool.workers)))

    def extra(self) -> dict:
        extra = {"workers_replaced": self.pool.replaced}
        memory = self.pool.memory_bytes()
        if memory is not None:
            extra["worker_memory_bytes"] = memory
        return extra

    def close(self) -> None:
        self.pool.close()


def _search_forked(conn, puzzle, heuristic, frontier, all_solutions):
    """A forked worker: search the subtrees the scheduler sends, (indices, bound), until the pipe closes."""

    def answer(task):
        indices, bound, partial = task
        try:
            search = search_subtrees(puzzle, heuristic, frontier, indices, bound, all_solutions, partial=partial)
            while True:
                event = next(search)
                if event["type"] == "progress":
                    conn.send(("progress", event["expanded"], event["generated"], event.get("at")))
        except StopIteration as stop:
            return "done", stop.value
        except Exception as e:  # told, not died of: a death would have its subtree searched again, in vain
            return "error", indices, portable(e)

    serve(conn, answer)


class DaskCarrier:
    """The workers of a Dask cluster (`client`'s), one task per worker thread at a time (the threads counted again
    every COUNT_EVERY_S: a worker that joins gets work, one that left is not waited for); `build()` gives a worker
    the split search (a PooledSearch) it searches subtrees of. A worker is named by its address."""

    COUNT_EVERY_S = 5.0  # each count is a round trip to the scheduler

    def __init__(self, client, build):
        import distributed

        self.client, self.build = client, build
        workers = client.nthreads()
        self.slots = sum(workers.values())
        self.counted = time.monotonic()
        self.started_with = sorted(workers)  # the workers there at the start, by address
        name = f"slidelab-search-{uuid.uuid4().hex}"
        self.topic, self.stop = name, distributed.Event(name, client=client)
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.futures: dict = {}  # task id -> its future
        self.names: list = []
        client.subscribe_topic(self.topic, lambda event: self.events.put(("progress", event[1])))

    def idle(self) -> int:
        return max(self.slots - len(self.futures), 0)

    def start(self, task: Task) -> None:
        future = self.client.submit(_search_on_dask, self.build, task, self.topic, pure=False,
                                    key=f"{self.topic}-{task.id}")
        self.futures[task.id] = future
        future.add_done_callback(lambda _, task_id=task.id: self.events.put(("done", task_id)))

    def poll(self, timeout: float) -> list:
        if time.monotonic() - self.counted > self.COUNT_EVERY_S:
            self.slots, self.counted = sum(self.client.nthreads().values()), time.monotonic()
        messages = []
        try:
            messages.append(self.events.get(timeout=timeout))
            while True:
                messages.append(self.events.get_nowait())
        except queue.Empty:
            pass
        return [event for message in messages if (event := self._event(*message)) is not None]

    def _event(self, kind, value):
        import distributed

        if kind == "progress":
            task, worker, expanded, generated, at = value
            return TaskProgress(task, self._named(worker), expanded, generated, at)
        future = self.futures.pop(value, None)
        if future is None or future.status == "cancelled":
            return None
        if future.status == "finished":
            worker, searched = future.result()
            return Done(value, self._named(worker), searched)
        error = future.exception()
        if isinstance(error, distributed.client.FutureCancelledError | distributed.scheduler.KilledWorker):
            return Lost(value, f"the Dask worker left the cluster ({type(error).__name__})")
        return TaskFailed(value, error)

    def _named(self, worker: str) -> str:
        if worker not in self.names:
            self.names.append(worker)
        return worker

    def workers(self) -> list:
        """Those that reported, and those there at the start that have not (yet)."""
        return self.names + [w for w in self.started_with if w not in self.names]

    def extra(self) -> dict:
        return {"engine": "dask", "workers_replaced": 0}

    def close(self) -> None:
        self.stop.set()  # running tasks stop at their next report
        self.client.cancel(list(self.futures.values()))
        self.client.unsubscribe_topic(self.topic)


def _search_on_dask(build, task: Task, topic: str):
    """A Dask task: search the task's subtrees with the split search `build()` gives; returns (this worker's address,
    the Searched), or (address, None) when the search ended meanwhile: its Event set, or the task cancelled (its
    client gone: a killed client's tasks do not hold the cluster's workers)."""
    import distributed

    search = build()
    worker = distributed.get_worker()
    key = worker.get_current_task()
    stop = distributed.Event(topic)
    steps = search_subtrees(search.puzzle, search.heuristic, search.frontier, task.subtrees, task.bound,
                            search.all_solutions, partial=task.partial)
    try:
        while True:
            event = next(steps)
            if event["type"] == "progress":
                worker.log_event(topic, (task.id, worker.address, event["expanded"], event["generated"],
                                         event.get("at")))
                state = worker.state.tasks.get(key)
                if state is None or state.state == "cancelled" or stop.is_set():
                    return worker.address, None
    except StopIteration as stop_iteration:
        return worker.address, stop_iteration.value


class PageCarrier:
    """The page's pool of Web Workers (web/js/pool.js), seen from the page's own solver, which runs the scheduler and
    is one of the workers. The page holds the round's tasks in the round's order (each is started here at once: `idle`
    is never 0), and every worker takes the next one as soon as it is free: the page's other workers there, this
    runtime when it asks. This runtime searches its task ASK_EVERY_S at a time, and between two slices, or while it
    has none, asks the page ({"ask": {"pool": {"start": [tasks], "take", "wait_ms", "request"?}}}) to queue the tasks
    it was given, for the next task when it "take"s one, and for what the other workers reported: {"workers": [the
    names of the workers ready], "take": a task or null, "events": [{"type": "progress" | "done" | "lost" | "failed",
    "task", "worker"?, ...}]}. A worker whose runtime died is `lost` with "died" (the page starts it again, gives it
    its tables, and names it ready once it is: the task counts as tried); a task whose worker was taken away by a
    smaller pool is `lost` untried. This runtime is worker 0."""

    # how long this runtime searches its own task between two questions (one costs 0.1-0.3 ms), which is also how
    # often its own task reports
    ASK_EVERY_S = 0.01
    # how often the other workers' tasks report (worker.py's `subtree`; a stop reaches a pool worker when it reports):
    # the searches split on the page take 0.1-1 s with the large tables, the default 0.1 s would keep a worker on a
    # stopped search for a good part of that
    PROGRESS_S = 0.02

    def __init__(self, puzzle, heuristic, frontier, all_solutions, request, read):
        self.search = (puzzle, heuristic, frontier, all_solutions)
        self.request, self.read = request, read
        self.local = None  # (task, its search steps): the task this runtime searches
        self.outbox: list = []  # tasks for the page, sent with the next question
        self.tasks: dict = {}  # the tasks at the page, by id
        self.ready: list | None = None  # the page's other workers ready, as it last said (None: not asked yet)
        self.names: list = [0]
        self.replaced = 0

    def idle(self) -> int:
        return 1 << 30  # the page queues every task in order

    def start(self, task: Task) -> None:
        self.outbox.append(task)

    def poll(self, timeout: float) -> Ask | list:
        events = [] if self.local is None else self._step(*self.local)
        if not self.search[3] and any(isinstance(e, Done) and e.searched.solutions for e in events):
            return events  # this runtime found a solution: the search ends, and the page stops the others' tasks
        take = self.local is None
        question: PoolQuestion = {"start": [_pool_task(t) for t in self.outbox],
                          "take": take,
                          "wait_ms": round(timeout * 1000) if take and not events and self.ready is not None else 0}
        if self.ready is None:
            question["request"] = self.request
        self.tasks.update((t.id, t) for t in self.outbox)
        self.outbox = []
        return Ask({"ask": {"pool": question}}, lambda reply: events + self._heard(reply))

    def _step(self, task: Task, steps) -> list:
        """Search this runtime's task on for ASK_EVERY_S (or to its end): its last progress report, or its end."""
        until = time.perf_counter() + self.ASK_EVERY_S
        while True:
            try:
                event = next(steps)
            except StopIteration as stop:
                self.local = None
                return [Done(task.id, 0, stop.value)]
            except Exception as e:  # the search's own: raised by the scheduler
                self.local = None
                return [TaskFailed(task.id, e)]
            if event["type"] == "progress" and time.perf_counter() >= until:
                return [TaskProgress(task.id, 0, event["expanded"], event["generated"], event.get("at"))]

    def _heard(self, reply: PoolReply) -> list:
        reply = reply if isinstance(reply, dict) else cast(PoolReply, {})
        self.ready = list(reply.get("workers", []))
        self.names += [w for w in self.ready if w not in self.names]
        taken = self.tasks.pop(reply.get("take"), None) if reply.get("take") is not None else None
        if taken is not None:
            puzzle, heuristic, frontier, all_solutions = self.search
            self.local = taken, search_subtrees(puzzle, heuristic, frontier, taken.subtrees, taken.bound,
                                                all_solutions, self.ASK_EVERY_S, taken.partial)
        events: list = []
        for e in reply.get("events", []):
            task, worker = e["task"], e.get("worker")
            if worker is not None and worker not in self.names:
                self.names.append(worker)
            if e["type"] == "progress":  # JavaScript's numbers may come as floats: a Partial's are ints
                at = None if e.get("at") is None else [int(i) for i in e["at"]]
                events.append(TaskProgress(task, worker, int(e["expanded"]), int(e["generated"]), at))
                continue
            self.tasks.pop(task, None)
            if e["type"] == "done":
                events.append(Done(task, worker, self.read(e["answer"], len(self.search[2]))))
            elif e["type"] == "lost":
                died = bool(e.get("died"))
                self.replaced += died
                events.append(Lost(task, str(e.get("how", "the worker stopped")), died))
            else:
                events.append(TaskFailed(task, error_of_answer(e.get("error"))))
        return events

    def workers(self) -> list:
        return list(self.names)

    def extra(self) -> dict:
        return {"workers_replaced": self.replaced}

    def close(self) -> None:
        """Nothing to stop here: the page stops its workers' tasks when the answer comes."""


def _pool_task(task: Task) -> PoolTask:
    """`task` as the page's pool carries it."""
    told = {"id": task.id, "subtrees": list(task.subtrees), "bound": task.bound, "place": task.place}
    if task.partial is not None:
        told["partial"] = task.partial._asdict()
    return cast(PoolTask, told)
