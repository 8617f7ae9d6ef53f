"""A batch of IDA* searches on forked workers whose last hard positions are split into subtrees (`slidelab batch
--workers N`): one pool serves every position, so no worker idles while a position is left, the last hard one
included.

Each position is solved whole by one worker, as a solve is: while other positions are left to start, that is all (a
serial search's answer and counts). Once none is (the tail), each whole search still running hands its position
over, with the bound to go on from: at the end of an iteration of SPLIT_FROM nodes or more, or at once when the
iteration at hand has done less than half of what it is likely to (then its nodes are lost, and counted). The
position is then searched on as parallel IDA* searches it, its rounds driven one at a time (api.pool_start,
api.pool_next: search/pooled.py runs `iterations`, as the scheduler of scheduler.py does): this process splits it
and hands each round's tasks (subtrees in the order the serial search meets them, small neighbours grouped) to the
workers (api.subtree_steps), the oldest position's first. The first solution stops the position's other tasks (a
worker looks for a stop at each progress report). A split position's counts and iterations are the whole search's
and then the split search's (the split's nodes, and every node the workers expanded for it, stopped tasks included).
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque

from . import api
from .errors import SlideLabError
from .scheduler import MAX_SPLIT
from .search.control import run
from .workers import MAX_TRIES, ForkedPool, GaveUp, serve

STOP = ("stop",)  # driver to worker: end the task at hand (another found the position's solution)
SPLIT = ("split",)  # driver to worker: the batch's tail has come: hand the whole search over
GROWTH = 5  # how many times larger an iteration is than the last, when there is no earlier one to tell
SPLIT_FROM = 20_000  # nodes an iteration of a whole search expands before the position is split (the next one is
# several times larger: a round's few milliseconds of splitting and messages are lost in it)
POLL_S = 0.05


def splits(options: dict, workers: int) -> bool:
    """Whether a batch with these solve options on `workers` processes may split its hard positions: IDA* without
    limits (a split search has none), a weight, or your own heuristic (each position runs it in a supervised process
    of its own)."""
    return (workers > 1 and (options.get("algorithm") or api.DEFAULT_ALGORITHM) == "idastar"
            and all(options.get(k) is None for k in ("max_nodes", "max_seconds", "weight", "heuristic_code")))


class _Search:
    """One position being solved: its request, its round's tasks not handed out yet, and what came back."""

    def __init__(self, position, request):
        self.position, self.request = position, request
        self.round = 0  # 0: solved whole; then the split search's rounds, so that a task names its round
        self.pending: deque = deque([(None, None)])  # (subtrees, bound); None: the whole position
        self.running = 0  # its tasks at a worker
        self.whole: dict | None = None  # what the whole search did before it handed over: its stats
        self.searched: list = []  # the round's answers
        self.expanded: dict = {}  # worker slot -> nodes expanded for this position's split search
        self.live: dict = {}  # worker slot -> (expanded, generated) of the task at hand, as last reported


class Tasks:
    """The queue ForkedPool.feed hands out (popleft, appendleft, truth): the tasks of the positions being solved, the
    oldest position's first, and the next position when none has a task left. A task is (position number, round,
    subtrees, bound). The records of finished positions wait in `finished()`."""

    def __init__(self, todo, options: dict, workers: int, record):
        self.record = record  # batch's record of a position's answer: record(position, answer)
        self.todo = todo  # batch._Valid: the positions not started, and the malformed lines' records
        self.options = dict(options, pool=min(workers, MAX_SPLIT))
        self.searches: OrderedDict = OrderedDict()  # position number -> _Search, oldest first
        self.started = 0
        self.records: list = []
        self.tail = False  # no position is left to start
        self.pool: ForkedPool | None = None

    def __bool__(self) -> bool:
        return self._next() is not None

    def popleft(self):
        number = self._next()
        search = self.searches[number]
        search.running += 1
        return (number, search.round, *search.pending.popleft())

    def _next(self):
        """The number of the position whose task goes out next (the oldest position's first; the next position
        started when none has a task left), or None."""
        oldest = next((n for n, s in self.searches.items() if s.pending), None)
        if oldest is None and self.todo:
            self.started += 1
            position = self.todo.popleft()
            self.searches[self.started] = _Search(position, dict(self.options, board=position.board))
            if not self.tail and not self.todo:  # the last one: the whole searches still running hand over
                self.tail = True
                self._tell(self._workers_on(None, 0), SPLIT)
            return self.started
        return oldest

    def appendleft(self, task) -> None:
        """A task given back (its worker died): first again, if its position is still searched in that round."""
        search = self.searches.get(task[0])
        if search is not None and search.round == task[1]:
            search.running -= 1
            search.pending.appendleft(task[2:])

    def payload(self, task):
        number, _, subtrees, bound = task
        request = self.searches[number].request
        if subtrees is None:
            return "solve", request, self.tail
        return "subtrees", dict(request, subtree=list(subtrees), bound=bound)

    def finished(self):
        """Yield (and forget) the records of the positions finished so far, and of the malformed lines passed."""
        yield from self.todo.passed()
        while self.records:
            yield self.records.pop(0)

    def _workers_on(self, number, round_):
        """The workers at a task of that round of position `number` (None: of any position)."""
        workers = self.pool.workers if self.pool else []
        return [w for w in workers
                if w.task is not None and w.task[1] == round_ and number in (None, w.task[0])]

    def _tell(self, workers, message) -> None:
        for worker in workers:
            try:
                worker.conn.send(message)
            except OSError:  # it died: the pool replaces it
                pass

    def _step(self, number, search, step) -> None:
        """A pool answer for the position: its next round's tasks, or its record."""
        if step["ok"] and "answer" not in step:
            search.round += 1
            bound = step["round"]["bound"]
            search.pending = deque((tuple(group), bound) for group in step["round"]["groups"])
            search.searched, search.live = [], {}
            return
        answer = step["answer"] if step["ok"] else step
        if answer["ok"] and search.whole:  # the whole search's part comes first
            stats = answer["stats"]
            for key in ("expanded", "generated", "elapsed_s"):
                stats[key] += search.whole[key]
            stats["iterations"] = search.whole["iterations"] + stats.get("iterations", [])
        self._end(number, search, answer)

    def _end(self, number, search, answer) -> None:
        """The position's answer: its record, and its tasks still at workers stopped (their answers dropped)."""
        del self.searches[number]
        self._tell(self._workers_on(number, search.round), STOP)
        self.records.append(self.record(search.position, answer))

    def progress(self, slot: int, task, expanded: int, generated: int) -> None:
        search = self.searches.get(task[0])
        if search is not None and search.round == task[1]:
            search.live[slot] = (expanded, generated)

    def answered(self, slot: int, task, message) -> None:
        """A worker's answer to a task: ("done", the solve answer or the subtrees' answer), or ("handed over", the
        whole search's stats, the bound to go on from). Once a round is whole (or a solution found), it goes back to
        the driver."""
        number = task[0]
        search = self.searches.get(number)
        if search is None or search.round != task[1]:
            return  # a task of a position answered already, or stopped
        search.running -= 1
        search.live.pop(slot, None)
        if message[0] == "handed over":
            search.whole, from_bound = message[1:]
            search.request = dict(search.request, from_bound=from_bound)  # the split search's, in every request
            self._step(number, search, api.pool_start(search.request))
            return
        answer = message[1]
        if search.round == 0 or not answer["ok"]:
            self._end(number, search, answer)
            return
        search.searched.append(answer)
        search.expanded[slot] = search.expanded.get(slot, 0) + answer["expanded"]
        if answer["solutions"] and not search.request.get("all_solutions"):
            search.pending.clear()
            search.searched.append({"subtree": [], "sizes": [], "solutions": [], "over": None,  # stopped tasks' nodes
                                    "expanded": sum(e for e, _ in search.live.values()),
                                    "generated": sum(g for _, g in search.live.values())})
        elif search.pending or search.running:
            return
        workers = [{"expanded": search.expanded.get(s, 0) + search.live.get(s, (0, 0))[0]}
                   for s in range(len(self.pool.workers) if self.pool else 0)]
        self._step(number, search, api.pool_next(search.request, {"searched": search.searched, "workers": workers}))

    def gave_up(self, task, how: str) -> None:
        search = self.searches.get(task[0])
        if search is not None:
            self._end(task[0], search, api.error(
                "internal", f"the worker solving it died, each of {MAX_TRIES} times (last: {how})"))


def on_processes(todo, options: dict, workers: int, record, solve):
    """Solve the positions of `todo` (batch._Valid) on `workers` forked processes, the hard ones split; yields
    `record(position, answer)` as each position is answered. A worker solves a whole position with
    `solve(request, on_progress, should_cancel)` (api.solve's signature)."""
    tasks = Tasks(todo, options, workers, record)
    pool = tasks.pool = ForkedPool(workers, _serve, (solve,))
    try:
        for event in pool.feed(tasks, tasks.payload, POLL_S):
            if isinstance(event, GaveUp):
                tasks.gave_up(event.task, event.how)
            elif event is not None:
                worker, message = event
                slot = pool.workers.index(worker)
                if message[0] == "progress":
                    tasks.progress(slot, worker.task, *message[1:])
                else:
                    task = worker.task
                    pool.finish(worker)
                    tasks.answered(slot, task, message)
            yield from tasks.finished()
        yield from tasks.finished()
    finally:
        pool.close()


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
            return "done", api.error("internal", f"internal error ({type(e).__name__}: {str(e)[:200]})")

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
            self.conn.send(("progress", event["expanded"], event["generated"]))


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
