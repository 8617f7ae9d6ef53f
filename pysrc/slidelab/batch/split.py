"""A batch of IDA* searches on forked workers whose last hard positions are split into subtrees (`slidelab batch
--workers N`): one pool serves every position, so no worker idles while a position is left, the last hard one
included.

Each position is solved whole by one worker, as a solve is: while other positions are left to start, that is all (a
serial search's answer and counts). Once none is (the tail), each whole search still running hands its position
over, with the bound to go on from: at the end of an iteration of SPLIT_FROM nodes or more, or at once when the
iteration at hand has done less than half of what it is likely to (then its nodes are lost, and counted). The
position is then searched on as parallel IDA* searches it: by the one scheduler (scheduler.py), whose carrier here is
a share of the batch's pool (`Share`): this process splits the position, and the scheduler hands each round's tasks
(subtrees in the order the serial search meets them, small neighbours grouped) to the pool's idle workers
(api.subtree_steps), retries those whose worker died, and stops the others at the first solution. Several split
positions run at once, each scheduler a coroutine that yields to this driver whenever it waits for the pool; the
oldest position's tasks go out first. A split position's counts and iterations are the whole search's and then the
split search's (the split's nodes, and every node the workers expanded for it, stopped tasks included).
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque

from slidelab import api
from slidelab.api.solving import estimator_of, solve_answer
from slidelab.api.split_search import searched_of
from slidelab.contract.request import may_split, parse_solve, split_request
from slidelab.core.control import Counts, Limits, run
from slidelab.core.errors import SlideLabError, error_of_answer, internal
from slidelab.core.workers import MAX_TRIES, Died, ForkedPool, serve
from slidelab.run.scheduler import GROWTH, Ask, Done, Lost, Task, TaskFailed, TaskProgress, parallel_idastar
from slidelab.search.parallel_idastar import MAX_SPLIT

STOP = ("stop",)  # driver to worker: end the task at hand (another found the position's solution)
SPLIT = ("split",)  # driver to worker: the batch's tail has come: hand the whole search over
SPLIT_FROM = 20_000  # nodes an iteration of a whole search expands before the position is split (the next one is
# several times larger: a round's few milliseconds of splitting and messages are lost in it)
POLL_S = 0.05
WAITING = {"ask": "the batch's pool"}  # what a split search's scheduler yields while it waits for the pool


def splits_tail(options: dict, workers: int) -> bool:
    """Whether a batch with these solve options on `workers` processes may split its hard positions
    (requests.may_split, the page's rule too)."""
    return workers > 1 and may_split(options)


class _Position:
    """One position being solved: whole by one worker, then (in the tail) split, its search a generator."""

    def __init__(self, position, request):
        self.position, self.request = position, request
        self.search = None  # the split search (a generator), once handed over
        self.share: Share | None = None  # its carrier, once split


class Share:
    """The Carrier of one split position's tasks: the batch's pool, whose idle workers it shares with the other
    positions; the driver routes its workers' messages into `inbox`. A worker is named by its slot."""

    def __init__(self, batch: Batch, number: int, request: dict, subtrees: int):
        self.batch, self.number, self.request, self.subtrees = batch, number, request, subtrees
        self.inbox: list = []
        self.running: set = set()  # its task ids at a worker
        self.replaced = 0

    def idle(self) -> int:
        return self.batch.idle()

    def start(self, task: Task) -> None:
        self.running.add(task.id)
        partial = None if task.partial is None else task.partial._asdict()
        self.batch.hand(("split", self.number, task.id),
                        ("subtrees", dict(self.request, subtree=list(task.subtrees), bound=task.bound,
                                                      partial=partial)))

    def poll(self, timeout: float) -> Ask:
        """Wait for the batch's driver, which reads the pool for every position at once."""
        return Ask(WAITING, lambda _: self._take())

    def _take(self) -> list:
        events, self.inbox = self.inbox, []
        return events

    def heard(self, task_id: int, slot: int, message) -> None:
        """A message of a worker at one of its tasks."""
        if task_id not in self.running:
            return  # a task stopped with its round
        if message[0] == "progress":
            self.inbox.append(TaskProgress(task_id, slot, *message[1:]))
            return
        self.running.discard(task_id)
        answer = message[1]
        try:
            if not answer["ok"]:
                raise error_of_answer(answer["error"])
            self.inbox.append(Done(task_id, slot, searched_of(answer, self.subtrees)))
        except Exception as e:
            self.inbox.append(TaskFailed(task_id, e))

    def lost(self, task_id: int, how: str) -> None:
        if task_id in self.running:
            self.running.discard(task_id)
            self.replaced += 1
            self.inbox.append(Lost(task_id, how))

    def workers(self) -> list:
        return list(range(len(self.batch.pool.workers)))

    def extra(self) -> dict:
        return {"workers_replaced": self.replaced}

    def close(self) -> None:
        """Its tasks still at workers are stopped (their answers are dropped)."""
        self.batch.tell(lambda task: task[:2] == ("split", self.number), STOP)
        self.running.clear()


class Batch:
    """The driver: the positions of `todo` (batch._Valid) on one ForkedPool, whole, then split in the tail. A worker
    task is ("whole", position number) or ("split", position number, the scheduler's task id)."""

    def __init__(self, todo, options: dict, workers: int, record, solve):
        self.todo, self.options, self.record = todo, options, record
        self.size = min(workers, MAX_SPLIT)  # the workers a split position is split for
        self.positions: OrderedDict = OrderedDict()  # number -> _Position, oldest first
        self.again: deque = deque()  # positions whose whole search goes to a worker again (its worker died)
        self.started = 0
        self.records: list = []
        self.tail = False  # no position is left to start
        self.pool = ForkedPool(workers, _serve, (solve,))

    def run(self):
        """Yield each position's record as it is answered."""
        while True:
            for number in list(self.positions):  # the oldest position's split tasks first
                self._advance(number)
            self._hand_whole()
            yield from self._finished()
            if not any(w.task is not None for w in self.pool.workers):
                break
            for event in self.pool.messages(POLL_S):
                self._heard(event)
        yield from self._finished()

    def idle(self) -> int:
        return sum(w.task is None for w in self.pool.workers)

    def hand(self, task, payload) -> None:
        """Send `task` to an idle worker (one that died idle is replaced, and the next one takes it)."""
        while True:
            slot = next(i for i, w in enumerate(self.pool.workers) if w.task is None)
            if self.pool.hand(slot, task, payload):
                return

    def tell(self, which, message) -> None:
        """Send `message` to the workers whose task `which(task)` picks."""
        for worker in self.pool.workers:
            if worker.task is not None and which(worker.task):
                try:
                    worker.conn.send(message)
                except OSError:  # it died: the pool replaces it
                    pass

    def _hand_whole(self) -> None:
        """The idle workers left take whole positions: one whose worker died first, then the next to start."""
        while self.idle() and (self.again or self.todo):
            if self.again:
                number = self.again.popleft()
            else:
                self.started += 1
                number = self.started
                position = self.todo.popleft()
                self.positions[number] = _Position(position, dict(self.options, board=position.board))
                if not self.todo:  # the last one: the whole searches still running hand over
                    self.tail = True
                    self.tell(lambda task: task[0] == "whole", SPLIT)
            self.hand(("whole", number), ("solve", self.positions[number].request, self.tail))

    def _heard(self, event) -> None:
        if isinstance(event, Died):
            kind, number, *task_id = event.task
            where = self.positions.get(number)
            if where is None:
                return
            if kind == "split":
                if where.share is not None:
                    where.share.lost(task_id[0], event.how)
            elif self.pool.tries.again(event.task):
                self.again.appendleft(number)
            else:
                self._end(number, api.error("internal", f"the worker solving it died, each of {MAX_TRIES} times "
                                                        f"(last: {event.how})"))
            return
        worker, message = event
        slot, (kind, number, *task_id) = self.pool.workers.index(worker), worker.task
        if message[0] != "progress":
            self.pool.finish(worker)
        where = self.positions.get(number)
        if where is None:  # answered already
            return
        if kind == "split":
            if where.share is not None:
                where.share.heard(task_id[0], slot, message)
        elif message[0] == "handed over":
            where.search = self._split(number, where, *message[1:])
        elif message[0] == "done":
            self._end(number, message[1])

    def _split(self, number: int, where: _Position, whole: dict, from_bound: int):
        """The split search of a position handed over with what its whole search did (`whole`, its stats) and the
        bound to go on from (a generator: yields WAITING, returns the solve answer, the whole part counted first)."""
        parsed = parse_solve(where.request)
        heuristic = estimator_of(parsed)
        request = split_request(parsed, self.size, heuristic.name)

        def carry(frontier):
            where.share = Share(self, number, request, len(frontier))
            return where.share

        counted = Counts(whole["expanded"], whole["generated"])
        counted.iterations = list(whole["iterations"])
        result = yield from parallel_idastar(parsed.puzzle, heuristic, Limits(), parsed.method.all_solutions,
                                             self.size, carry, from_bound, counted)
        result.stats.elapsed_s += whole["elapsed_s"]
        return solve_answer(parsed, heuristic, result)

    def _advance(self, number: int) -> None:
        """Run a split position's search until it waits for the pool again, or ends."""
        where = self.positions[number]
        if where.search is None:
            return
        try:
            step = where.search.send(None)
            while step is not WAITING:  # its progress and iterations: a batch reports positions, not rounds
                step = where.search.send(None)
        except StopIteration as stop:
            self._end(number, stop.value)
        except Exception as e:
            self._end(number, api.failure(e))

    def _end(self, number: int, answer) -> None:
        """The position's answer: its record (its tasks still at workers are stopped: their answers are dropped)."""
        where = self.positions.pop(number)
        if where.search is not None:
            where.search.close()
        self.tell(lambda task: task[1] == number, STOP)
        self.records.append(self.record(where.position, answer))

    def _finished(self):
        """Yield (and forget) the records of the positions finished so far, and of the malformed lines passed."""
        yield from self.todo.passed()
        while self.records:
            yield self.records.pop(0)


def on_processes(todo, options: dict, workers: int, record, solve):
    """Solve the positions of `todo` (batch._Valid) on `workers` forked processes, the hard ones split; yields
    `record(position, answer)` as each position is answered. A worker solves a whole position with
    `solve(request, on_progress, should_cancel)` (api.solve's signature)."""
    driver = Batch(todo, options, workers, record, solve)
    try:
        yield from driver.run()
    finally:
        driver.pool.close()


class _HandOver(Exception):
    """A whole search stopped at the end of a large iteration, to be searched on split from the bound it carries."""


def _serve(conn, solve) -> None:
    """A worker (workers.py): solve the whole positions ("solve", request, whether the tail has come) and search the
    subtrees ("subtrees", request) the driver sends, until the pipe closes. It reports its nodes as it goes, ends a
    task when told to stop, and hands a whole search over in the tail."""

    def answer(message):
        if message in (STOP, SPLIT):  # it came after its task had ended
            return None
        kind, request, *tail = message
        inbox = _Inbox(conn, split=bool(tail and tail[0]))
        try:
            if kind == "solve":
                return _solve(solve, request, inbox)
            return "done", run(api.subtree_steps(request), inbox.report, inbox.stopped)
        except SlideLabError as e:  # stopped
            return "done", api.error_of(e)
        except Exception as e:  # the api answers every error; this is only a last guard
            return "done", {"ok": False, "error": internal(e)}

    serve(conn, answer)


class _Inbox:
    """A worker's line to the driver during a task: `stopped()` (a search's should_cancel) reads what it was told:
    `stop`, or `split` (the tail has come); `report` sends a progress event's nodes."""

    def __init__(self, conn, split=False):
        self.conn = conn
        self.stop = False
        self.split = split

    def stopped(self) -> bool:
        while not self.stop and self.conn.poll():
            message = self.conn.recv()
            self.stop = message == STOP
            self.split = self.split or message == SPLIT
        return self.stop

    def report(self, event) -> None:
        if event.get("type") == "progress":
            self.conn.send(("progress", event["expanded"], event["generated"], event.get("at")))


def _solve(solve, request, inbox):
    """A whole position: ("done", its solve answer), or, in the tail, ("handed over", what the search did, the bound
    to go on from): after an iteration of SPLIT_FROM nodes, the next bound; or, when the iteration at hand is large
    and less than half done, its own bound (its nodes so far lost, and counted)."""
    whole: dict = {"expanded": 0, "generated": 0, "elapsed_s": 0.0, "iterations": []}

    def watch(event) -> None:
        inbox.report(event)
        done = whole["iterations"]
        if event.get("type") == "iteration":
            whole["expanded"] += event["expanded"]
            whole["generated"] += event["generated"]
            done.append({"bound": event["bound"], "expanded": event["expanded"]})
            inbox.stopped()  # has the tail come?
            if inbox.split and event["expanded"] >= SPLIT_FROM and "next" in event:
                raise _HandOver(event["next"])
        elif event.get("type") == "progress" and inbox.split and done and "bound" in event:
            growth = done[-1]["expanded"] / done[-2]["expanded"] if len(done) > 1 and done[-2]["expanded"] else GROWTH
            likely = done[-1]["expanded"] * max(growth, 1)
            so_far = event["expanded"] - whole["expanded"]
            if likely >= GROWTH * SPLIT_FROM and so_far < likely / 2:
                whole["expanded"], whole["generated"] = event["expanded"], event["generated"]
                raise _HandOver(event["bound"])

    started = time.perf_counter()
    try:
        return "done", solve(request, watch, inbox.stopped)
    except _HandOver as over:
        whole["elapsed_s"] = time.perf_counter() - started
        return "handed over", whole, over.args[0]
