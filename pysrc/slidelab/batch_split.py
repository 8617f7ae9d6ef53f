"""A batch of IDA* searches on forked workers whose hard positions are split into subtrees (`slidelab batch --workers
N`): one pool serves every position, so no worker idles while a position is left, the last hard one included.

Each position is solved whole by one worker, as a solve is; most end so, with a serial search's answer and counts.
Once an iteration of it expands SPLIT_FROM nodes, the worker hands the position over, with the bound to go on from,
and it is searched on as parallel IDA* searches it, with the driver the page's pool uses (api.pool_start,
api.pool_next: search/pooled.py). This process splits it and hands each round's subtrees to the workers
(api.subtree_steps), in the order the serial search meets them: while positions are left to start, the whole round
as one task (a serial search's nodes, one subtree after another); else in groups. A worker at a round asked to share
(a worker is idle and nothing is left to hand out) gives the subtrees it has not begun back after the one at hand,
and they are handed out in groups. An idle worker takes the oldest position's tasks first. The first solution stops
the position's other tasks (a worker looks for a stop at each progress report). A split position's counts and
iterations are the whole search's and then the split search's (the split's nodes, and every node the workers expanded
for it, stopped tasks included).
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque

from . import api
from .errors import SlideLabError
from .search.control import run
from .search.parallel_idastar import Round, groups
from .workers import MAX_TRIES, ForkedPool, GaveUp

STOP = ("stop",)  # driver to worker: end the task at hand (another found the position's solution)
SHARE = ("share",)  # driver to worker: give back the round's subtrees not begun
SPLIT_FROM = 20_000  # nodes an iteration of a whole search expands before the position is split (the next one is
# several times larger: a round's few milliseconds of splitting and messages are lost in it)
POLL_S = 0.05


def splits(options: dict, workers: int) -> bool:
    """Whether a batch with these solve options on `workers` processes may split its last positions: IDA* without
    limits (a split search has none) or a weight."""
    return (workers > 1 and (options.get("algorithm") or api.DEFAULT_ALGORITHM) == "idastar"
            and all(options.get(k) is None for k in ("max_nodes", "max_seconds", "weight")))


class _Search:
    """One position being solved: its request, its round's tasks not handed out yet, and what came back."""

    def __init__(self, position, request):
        self.position, self.request = position, request
        self.round = 0  # 0: solved whole; then the split search's rounds, so that a task names its round
        self.pending: deque = deque([(None, None)])  # (subtrees, bound); None: the whole position
        self.sizes: dict = {}  # subtree -> its nodes in the last iteration, for grouping
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
        self.options = dict(options, pool=min(workers, api.MAX_POOL))
        self.searches: OrderedDict = OrderedDict()  # position number -> _Search, oldest first
        self.started = 0
        self.records: list = []
        self.shared: set = set()  # tasks asked to share
        self.workers = workers
        self.pool: ForkedPool | None = None

    def __bool__(self) -> bool:
        if any(s.pending for s in self.searches.values()):
            return True
        if self.todo:
            self.started += 1
            position = self.todo.popleft()
            self.searches[self.started] = _Search(position, dict(self.options, board=position.board))
            return True
        self._ask_to_share()  # a worker is idle and nothing is left to give it
        return False

    def popleft(self):
        self.__bool__()
        number, search = next((n, s) for n, s in self.searches.items() if s.pending)
        search.running += 1
        return (number, search.round, *search.pending.popleft())

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
            return "solve", request
        return "subtrees", dict(request, subtree=list(subtrees), bound=bound)

    def finished(self):
        """Yield (and forget) the records of the positions finished so far, and of the malformed lines passed."""
        yield from self.todo.passed()
        while self.records:
            yield self.records.pop(0)

    def _workers_on(self, number, round_):
        workers = self.pool.workers if self.pool else []
        return [w for w in workers if w.task is not None and w.task[:2] == (number, round_)]

    def _tell(self, workers, message) -> None:
        for worker in workers:
            try:
                worker.conn.send(message)
            except OSError:  # it died: the pool replaces it
                pass

    def _ask_to_share(self) -> None:
        for worker in self.pool.workers if self.pool else ():
            task = worker.task
            if task is not None and task[2] is not None and len(task[2]) > 1 and task not in self.shared:
                self.shared.add(task)
                self._tell([worker], SHARE)

    def _step(self, number, search, step) -> None:
        """A pool answer for the position: its next round's tasks, or its record."""
        if step["ok"] and "answer" not in step:
            search.round += 1
            bound, todo = step["round"]["bound"], step["round"]["todo"]
            search.sizes.update(zip(todo, step["round"]["sizes"], strict=True))
            alone = bool(self.todo)  # other positions keep the other workers busy
            search.pending = deque([(tuple(todo), bound)] if alone else self._groups(search, todo, bound))
            search.searched, search.live = [], {}
            return
        answer = step["answer"] if step["ok"] else step
        if answer["ok"] and search.whole:  # the whole search's part comes first
            stats = answer["stats"]
            for key in ("expanded", "generated", "elapsed_s"):
                stats[key] += search.whole[key]
            stats["iterations"] = search.whole["iterations"] + stats.get("iterations", [])
        self._end(number, search, answer)

    def _groups(self, search, subtrees, bound) -> list:
        round_ = Round(bound, list(subtrees), [search.sizes.get(i, 0) for i in subtrees])
        return [(tuple(group), bound) for group in groups(round_, self.workers)]

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
        """A worker's answer to a task: ("done", the solve answer), ("handed over", the whole search's stats, the
        bound to go on from), or ("searched", [subtree answers], [subtrees given back]). Once a round is whole (or a
        solution found), it goes back to the driver."""
        self.shared.discard(task)
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
        if message[0] == "done":
            self._end(number, search, message[1])
            return
        answers, given_back = message[1:]
        failed = next((answer for answer in answers if not answer["ok"]), None)
        if failed is not None:
            self._end(number, search, failed)
            return
        search.searched += answers
        search.expanded[slot] = search.expanded.get(slot, 0) + sum(answer["expanded"] for answer in answers)
        search.pending.extendleft(reversed(self._groups(search, given_back, task[3])))
        if any(answer["solutions"] for answer in answers) and not search.request.get("all_solutions"):
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
    """A worker (workers.py): solve the whole positions ("solve", request) and search the subtrees ("subtrees",
    request) the driver sends, until the pipe closes. It reports its nodes as it goes, ends a task when told to stop,
    hands a whole search over after an iteration of SPLIT_FROM nodes, and gives a round's subtrees not begun back
    when asked to share."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message in (STOP, SHARE):  # it came after its task had ended
            continue
        kind, request = message
        inbox = _Inbox(conn)
        try:
            reply = _solve(solve, request, inbox) if kind == "solve" else _subtrees(request, inbox)
        except SlideLabError as e:  # stopped
            reply = ("done", api.error(e.code, str(e)))
        except Exception as e:  # the api answers every error; this is only a last guard
            reply = ("done", api.error("internal", f"internal error ({type(e).__name__}: {str(e)[:200]})"))
        try:
            conn.send(reply)
        except OSError:  # the driver has gone
            return


class _Inbox:
    """A worker's messages from the driver during a task: `stopped()` reads them (a search's should_cancel), `told`
    holds those read; `report` sends a progress event's nodes to the driver."""

    def __init__(self, conn):
        self.conn = conn
        self.told: set = set()

    def stopped(self) -> bool:
        while STOP not in self.told and self.conn.poll():
            self.told.add(self.conn.recv())
        return STOP in self.told

    def report(self, event) -> None:
        if event.get("type") == "progress":
            self.conn.send(("progress", event["expanded"], event["generated"]))


def _solve(solve, request, inbox):
    """A whole position: ("done", its solve answer), or ("handed over", what the search did, the next bound)."""
    whole = {"expanded": 0, "generated": 0, "elapsed_s": 0.0, "iterations": []}

    def watch(event) -> None:
        inbox.report(event)
        if event.get("type") == "iteration":
            whole["expanded"] += event["expanded"]
            whole["generated"] += event["generated"]
            whole["iterations"].append({"bound": event["bound"], "expanded": event["expanded"]})
            if event["expanded"] >= SPLIT_FROM and "next" in event:
                raise _HandOver(event["next"])

    started = time.perf_counter()
    try:
        return "done", solve(request, watch, inbox.stopped)
    except _HandOver as over:
        whole["elapsed_s"] = time.perf_counter() - started
        return "handed over", whole, over.args[0]


def _subtrees(request, inbox):
    """A round's subtrees, one after another: ("searched", their answers, the subtrees given back when asked to
    share). Stops at the first solution unless all are asked for."""
    indices, answers = request["subtree"], []
    for k, index in enumerate(indices):
        answer = run(api.subtree_steps(dict(request, subtree=index)), inbox.report, inbox.stopped)
        answers.append(answer)
        if not answer["ok"] or answer["solutions"] and not request.get("all_solutions"):
            break
        inbox.stopped()
        if SHARE in inbox.told:
            return "searched", answers, indices[k + 1:]
    return "searched", answers, []
