"""Parallel IDA*: one search split over worker processes (`--workers N`).

The start is expanded breadth first, never undoing the last move, into a frontier of subtrees, SUBTREES_PER_WORKER
for each worker (a goal met on the way is a shortest solution: every path of that length was generated). Every
iteration has one bound for all: the subtrees whose f = g + h fits it are handed out from one queue, each to the next
idle worker, largest first by their size in the last iteration, so that one big subtree does not leave the others
idle at the end. A worker searches its subtree with the same kernel as a serial search (idastar with `walk`, the
positions it came by, and `only`, the one contour of bound - g). The first solution an iteration finds is a shortest
one, and every worker is stopped; otherwise the next bound is the least f over the bound anywhere. With all
solutions, the iteration that finds one collects every worker's.

Workers are forked processes (Python threads would share one interpreter lock): the puzzle and its tables are
shared copy-on-write, never copied or rebuilt. A worker that dies is replaced and its subtree searched again, up to
MAX_RETRIES times per subtree (then the search ends with an error); an exception in a worker is sent to the driver
and raised there, so the search answers it as a serial one would. Workers report their nodes while they search, so
progress (and the node and time limits, checked here) stay live; closing the search (cancel, a limit, an error)
terminates every worker.
"""

from __future__ import annotations

import copy
import os
import pickle
import signal
from collections import deque

from ..errors import Unsolvable
from .contour import INF, next_bound
from .control import NO_PATH, Limits, Meter, SearchResult

SUBTREES_PER_WORKER = 16  # enough that the queue evens out subtrees of very different sizes
POLL_S = 0.05  # how often the driver looks at the clock while it waits for workers
MAX_RETRIES = 3  # times one subtree is searched again after its worker died, before the search gives up


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the platform tells it), for `workers: 0`."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # no affinity on this platform
        return os.cpu_count() or 1


def available() -> str | None:
    """None when this platform can run parallel searches, else why not."""
    import sys

    if sys.platform == "emscripten":
        return "this runtime has no processes: a search here runs on one core"
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        return "parallel search needs processes that share memory by fork (Linux, macOS); this platform has none"
    return None


def split(puzzle, wanted, distinct=True):
    """Expand the start breadth first until a level holds at least `wanted` positions. Returns (goals, frontier,
    expanded, generated): `goals` lists every path to the goal at the first level that reaches it (then there is
    no frontier), else `frontier` holds (g, position, walk, moves) per subtree, where walk lists the positions from
    the start to its parent; one subtree per position when `distinct` (two paths of one length to a position have
    the same subtree: all-solutions searches keep both)."""
    level = [(puzzle.start, (), [])]
    expanded = generated = 0
    while len(level) < wanted:
        nxt, goals, seen = [], [], set()
        for state, walk, moves in level:
            expanded += 1
            parent = walk[-1] if walk else None
            for move, child in puzzle.moves(state):
                if child == parent:
                    continue
                generated += 1
                path = moves + [move]
                if puzzle.is_goal(child):
                    goals.append(path)
                if distinct:
                    if child in seen:
                        continue
                    seen.add(child)
                nxt.append((child, walk + (state,), path))
        if goals:
            return goals, None, expanded, generated
        if not nxt:
            raise Unsolvable(NO_PATH)
        level = nxt
    g = len(level[0][2])
    return [], [(g, state, walk, moves) for state, walk, moves in level], expanded, generated


def parallel_idastar(puzzle, heuristic, limits, all_solutions=False, workers=2):
    """Search generator: IDA* over `workers` processes; returns a SearchResult like `idastar`'s, whose statistics
    add up every worker's nodes, and whose extra "parallel" lists them per worker ("workers": [{"expanded"}, ...]),
    with the number of subtrees, the workers replaced, and the memory the workers used (proportional set size:
    shared pages counted once; Linux only)."""
    meter = Meter(limits)
    stats = meter.stats
    unsplit = {"parallel": {"workers": [{"expanded": 0}] * workers, "subtrees": 0, "workers_replaced": 0}}
    if puzzle.is_goal(puzzle.start):
        meter.finish()
        return SearchResult([], True, stats, [[]] if all_solutions else None, unsplit)
    goals, frontier, stats.expanded, stats.generated = split(puzzle, workers * SUBTREES_PER_WORKER,
                                                             not all_solutions)
    if goals:  # found while splitting: no worker was started
        meter.finish()
        stats.stored = len(goals[0]) + 1
        return SearchResult(goals[0], True, stats, goals if all_solutions else None, unsplit)
    f_of = [g + heuristic(state) for g, state, _, _ in frontier]
    size_of = [0] * len(frontier)  # each subtree's nodes in the last iteration it was searched
    parity = puzzle.solution_parity()
    bound = next_bound(heuristic(puzzle.start), parity)
    pool = _Pool(workers, (puzzle, heuristic, frontier, all_solutions))
    try:
        while True:
            todo = sorted((i for i, f in enumerate(f_of) if f <= bound), key=lambda i: -size_of[i])
            over = min((f for f in f_of if f > bound), default=INF)
            before = stats.expanded
            solutions = []
            for done in pool.iteration(todo, bound, stop_at_first=not all_solutions):
                if done is None:  # a tick: the limits, and progress when due
                    live = stats.expanded + pool.live_nodes()
                    if meter.due(live):
                        yield meter.progress(stored=bound + 1, bound=bound, workers=pool.nodes_per_worker())
                    continue
                index, found, sub_over, expanded, generated = done
                stats.expanded += expanded
                stats.generated += generated
                size_of[index] = expanded
                solutions += [frontier[index][3] + moves for moves in found]
                over = min(over, frontier[index][0] + sub_over)
            stats.expanded += pool.live_nodes()  # subtrees stopped unfinished, as far as they last reported
            stats.generated += pool.live_generated()
            expanded = stats.expanded - before
            stats.stored = max(stats.stored, bound + 1)
            stats.iterations.append({"bound": bound, "expanded": expanded})
            yield {"type": "iteration", "bound": bound, "expanded": expanded}
            if solutions:
                break
            bound = next_bound(over, parity)
            if bound == INF:
                raise Unsolvable(NO_PATH)
        extra = {"workers": [{"expanded": n} for n in pool.nodes_per_worker()], "subtrees": len(frontier),
                 "workers_replaced": pool.replaced}
        memory = pool.memory_bytes()
        if memory is not None:
            extra["worker_memory_bytes"] = memory
    finally:
        pool.close()
    meter.finish()
    return SearchResult(solutions[0], True, stats, solutions if all_solutions else None, {"parallel": extra})


class _Worker:
    def __init__(self, process, conn):
        self.process, self.conn = process, conn
        self.task = None  # the subtree it searches now
        self.live = self.live_generated = 0  # its nodes so far in that subtree (as it last reported them)
        self.nodes = 0  # its nodes in finished subtrees


class _Pool:
    """Forked worker processes, each fed one subtree at a time through its own pipe."""

    def __init__(self, n, job):
        import multiprocessing

        self._context = multiprocessing.get_context("fork")
        self._job = job
        self.replaced = 0
        self.deaths = {}  # subtree index -> how many workers died searching it
        self.workers = []
        self.workers = [self._start() for _ in range(n)]

    def _start(self):
        mine, theirs = self._context.Pipe()
        process = self._context.Process(target=_work, args=(theirs, *self._job), daemon=True)
        process.start()
        theirs.close()
        return _Worker(process, mine)

    def iteration(self, todo, bound, stop_at_first):
        """Search the subtrees `todo` with `bound`; yields each finished one as (index, solutions, over, expanded,
        generated), and None now and then while it waits. Stops early after a solution when `stop_at_first`."""
        from multiprocessing.connection import wait

        queue = deque(todo)
        while True:
            for slot, w in enumerate(self.workers):
                if w.task is None and queue:
                    w.task, w.live, w.live_generated = queue.popleft(), 0, 0
                    try:
                        w.conn.send((w.task, bound))
                    except OSError:  # it died while idle: the subtree never reached it
                        self._replace(slot, queue, blame=False)
            busy = [w for w in self.workers if w.task is not None]
            if not busy:
                return
            ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], POLL_S))
            for slot, w in enumerate(self.workers):
                if w.task is None:
                    continue
                message = None
                broken = False
                if w.conn in ready:
                    try:
                        message = w.conn.recv()
                    except Exception:  # closed, or a message cut short by the worker's death
                        broken = True
                if message is None:
                    if broken or w.process.sentinel in ready or not w.process.is_alive():
                        self._replace(slot, queue)
                    continue
                if message[0] == "progress":
                    w.live, w.live_generated = message[1], message[2]
                    continue
                if message[0] == "error":  # an exception in the worker: the search's own, raised here
                    raise message[2]
                _, index, found, over, expanded, generated = message
                w.task, w.live, w.live_generated = None, 0, 0
                w.nodes += expanded
                yield index, found, over, expanded, generated
                if found and stop_at_first:
                    return
            yield None

    def _replace(self, slot, queue, blame=True) -> None:
        """A new worker in place of the dead one in `slot`, its subtree first in the queue again; when `blame`, the
        death counts against that subtree, and one more than MAX_RETRIES deaths end the search."""
        w = self.workers[slot]
        w.process.kill()
        w.process.join()
        w.conn.close()
        if blame:
            deaths = self.deaths[w.task] = self.deaths.get(w.task, 0) + 1
            if deaths > MAX_RETRIES:
                raise RuntimeError(f"a worker died each of the {deaths} times it searched subtree {w.task} "
                                   f"(last: {how_it_ended(w.process)}); the search is given up")
        queue.appendleft(w.task)
        replacement = self._start()
        replacement.nodes = w.nodes
        self.workers[slot] = replacement
        self.replaced += 1

    def live_nodes(self) -> int:
        return sum(w.live for w in self.workers)

    def live_generated(self) -> int:
        return sum(w.live_generated for w in self.workers)

    def nodes_per_worker(self) -> list:
        return [w.nodes + w.live for w in self.workers]

    def memory_bytes(self):
        """The workers' proportional set size in bytes (Linux; None elsewhere)."""
        total = 0
        for w in self.workers:
            try:
                with open(f"/proc/{w.process.pid}/smaps_rollup") as f:
                    total += next(int(line.split()[1]) for line in f if line.startswith("Pss:")) * 1024
            except (OSError, StopIteration, ValueError):
                return None
        return total

    def close(self) -> None:
        for w in self.workers:
            if w.process.is_alive():
                w.process.kill()
        for w in self.workers:
            w.process.join()
            w.conn.close()


def _work(conn, puzzle, heuristic, frontier, all_solutions):
    """A worker: search the subtrees the driver sends, (index, bound), until the pipe closes."""
    from .idastar import idastar

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle: it stops the workers
    while True:
        try:
            index, bound = conn.recv()
        except (EOFError, OSError):
            os._exit(0)
        try:
            g, state, walk, _ = frontier[index]
            sub = copy.copy(puzzle)
            sub.start = state
            search = idastar(sub, heuristic, Limits(), all_solutions, walk=walk, only=bound - g)
            try:
                while True:
                    event = next(search)
                    if event["type"] == "progress":
                        conn.send(("progress", event["expanded"], event["generated"]))
            except StopIteration as stop:
                result = stop.value
            found = result.solutions or ([result.moves] if result.moves is not None else [])
            message = ("done", index, found, result.extra["over"], result.stats.expanded, result.stats.generated)
        except Exception as e:  # told, not died of: a death would have its subtree searched again, in vain
            message = ("error", index, _portable(e))
        try:
            conn.send(message)
        except OSError:  # the driver has gone
            os._exit(0)


def how_it_ended(process) -> str:
    """How a finished process ended, for a message: "killed by SIGKILL", "exit 1"."""
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit {code}"


def _portable(error: Exception) -> Exception:
    """The exception itself when it survives the pipe (pickled and read back), else a RuntimeError naming it."""
    try:
        pickle.loads(pickle.dumps(error))
        return error
    except Exception:
        return RuntimeError(f"{type(error).__name__}: {error}")
